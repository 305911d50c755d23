/*
 * AEAD_CHACHA20_POLY1305 (RFC 8439 2.8) and AEAD_XChaCha20_Poly1305
 * (draft-irtf-cfrg-xchacha-03 sections 2 and 2.3), detached tag, one-shot
 * (the public functions) over an incremental core (aead.h).
 *
 * One pass in chunks: seal encrypts a chunk and then authenticates its
 * ciphertext; open authenticates a chunk of ciphertext and then decrypts
 * it. Either way each chunk of ct is read by Poly1305 while still intact,
 * so pt == ct (in place) works, and a chunk is still in cache for its
 * second use. open compares the tag in constant time and, on a mismatch,
 * zeroes the whole plaintext before returning VG_ERR_VERIFY.
 *
 * Constant time: key, plaintext and Poly1305 key flow only through the
 * ChaCha20 and Poly1305 implementations; the one branch on secret-derived
 * data is on the tag verdict, which the caller learns anyway.
 */
#include <string.h>

#include "aead.h"
#include "common.h"

/* Bytes per chunk: a multiple of 64 (so that every chunk but the last is
 * whole ChaCha20 blocks) large enough for the 16-block kernels to come. */
#define AEAD_CHUNK 4096

/* The key and nonce ChaCha20 runs with: RFC 8439's directly, or for
 * XChaCha20 the HChaCha20 subkey and 0^32 || nonce[16..23]
 * (draft-irtf-cfrg-xchacha-03 2.3, pseudocode in 2.3.1). */
static void aead_key_nonce(uint32_t k[8], uint32_t n[3], int extended, const uint8_t *nonce,
                           const uint8_t key[32])
{
    if (extended) {
        uint8_t sub[32];
        vg_hchacha20(sub, key, nonce);
        vg_chacha20_load_key(k, sub);
        vg_wipe(sub, sizeof sub);
        n[0] = 0;
        n[1] = vg_load32_le(nonce + 16);
        n[2] = vg_load32_le(nonce + 20);
    } else {
        vg_chacha20_load_key(k, key);
        vg_chacha20_load_nonce(n, nonce);
    }
}

/* 1 when the computed tag want equals the received tag, compared in
 * constant time; the verdict is declassified, since the caller learns it
 * from the return value of open (the one declassification of the AEADs). */
static int aead_tag_ok(const uint8_t want[16], const uint8_t tag[16])
{
    int ok = vg_ct_memcmp(want, tag, 16) == 0;
    VG_CT_DECLASSIFY(&ok, sizeof ok);
    return ok;
}

/* ---- incremental (aead.h) ----------------------------------------------- */

void vg_aead_stream_init(vg_aead_stream *s, const struct vg_chacha20_impl *chacha,
                         const struct vg_poly1305_impl *poly, int extended,
                         const uint8_t *nonce, const uint8_t key[32], const uint8_t *ad,
                         size_t ad_len)
{
    uint8_t block0[64] = {0};
    aead_key_nonce(s->k, s->n, extended, nonce, key);
    s->chacha = chacha;
    s->counter = 1; /* RFC 8439 2.8: encryption from block 1 */
    s->len = 0;
    s->ad_len = (uint64_t)ad_len;
    s->closed = 0;
    /* RFC 8439 2.6: the Poly1305 key is the first 32 bytes of block 0; the
     * MAC starts with AD || pad16(AD) (2.8). */
    chacha->blocks(block0, block0, 1, s->k, s->n, 0);
    vg_poly1305_init(&s->mac, poly, block0);
    vg_wipe(block0, sizeof block0);
    vg_poly1305_update(&s->mac, ad, ad_len);
    vg_poly1305_pad16(&s->mac);
}

/* encrypt (decrypting = 0) or decrypt one piece, in chunks of AEAD_CHUNK:
 * for each chunk the ciphertext is authenticated while intact, after
 * encryption or before decryption, so out == in works. */
static int aead_stream_xor(vg_aead_stream *s, uint8_t *out, const uint8_t *in, size_t len,
                           int decrypting)
{
    if (len == 0)
        return VG_OK;
    if (s->closed || (uint64_t)len > VG_AEAD_MAXLEN - s->len)
        return VG_ERR_INPUT;
    /* The portable pair runs as one loop over whole 256-byte steps
     * (aead.h), each ciphertext step MACed right after (or before) its
     * ChaCha20, so no chunking is needed there. The MAC holds no partial
     * block here: the AD was padded, every piece so far was whole 64-byte
     * blocks. */
    size_t done = 0;
    /* r64 and mulx share the radix-2^64 state and block step
     * (poly1305_r64.h), so the portable loop serves both. */
    if (s->chacha == vg_chacha20_portable_get() && s->mac.buflen == 0 &&
        (s->mac.impl == vg_poly1305_r64_get() || s->mac.impl == vg_poly1305_mulx_get()))
        done = vg_chacha20_poly1305_portable(out, in, len, s->k, s->n, s->counter, &s->mac.st,
                                             decrypting);
    s->counter += (uint32_t)(done / 64);
    for (size_t off = done; off < len; off += AEAD_CHUNK) {
        size_t m = len - off < AEAD_CHUNK ? len - off : AEAD_CHUNK;
        if (decrypting)
            vg_poly1305_update(&s->mac, in + off, m);
        /* s->len + len <= P_MAX = (2^32 - 1) * 64 and counter 1 at offset 0
         * keep every block counter of this chunk <= 2^32 - 1
         * (vg_chacha20_xor's precondition). */
        vg_chacha20_xor(s->chacha, out + off, in + off, m, s->k, s->n, s->counter);
        if (!decrypting)
            vg_poly1305_update(&s->mac, out + off, m);
        /* m is a multiple of 64 except in the last chunk, after which the
         * counter is no longer used unless the piece was whole blocks. The
         * increment after the very last block may wrap, unused. */
        s->counter += (uint32_t)(m / 64);
    }
    s->len += (uint64_t)len;
    s->closed = len % 64 != 0;
    return VG_OK;
}

int vg_aead_stream_encrypt(vg_aead_stream *s, uint8_t *ct, const uint8_t *pt, size_t len)
{
    return aead_stream_xor(s, ct, pt, len, 0);
}

int vg_aead_stream_decrypt(vg_aead_stream *s, uint8_t *pt, const uint8_t *ct, size_t len)
{
    return aead_stream_xor(s, pt, ct, len, 1);
}

/* RFC 8439 2.8: pad16(ct), then le64(ad_len) || le64(ct_len). */
void vg_aead_stream_tag(vg_aead_stream *s, uint8_t tag[16])
{
    uint8_t lens[16];
    vg_poly1305_pad16(&s->mac);
    vg_store64_le(lens, s->ad_len);
    vg_store64_le(lens + 8, s->len);
    vg_poly1305_update(&s->mac, lens, sizeof lens);
    vg_poly1305_final(&s->mac, tag); /* wipes mac */
    vg_wipe(s, sizeof *s);
}

int vg_aead_stream_verify(vg_aead_stream *s, const uint8_t tag[16])
{
    uint8_t want[16];
    int ok;
    vg_aead_stream_tag(s, want); /* wipes s */
    ok = aead_tag_ok(want, tag);
    vg_wipe(want, sizeof want);
    return ok ? VG_OK : VG_ERR_VERIFY;
}

/* ---- short messages ------------------------------------------------------ */

/* Messages up to AEAD_SHORT_MAX bytes take one path without the streaming
 * layer: the Poly1305 key block (counter 0) and the message blocks
 * (counters 1..3) come from ONE call of the ChaCha20 kernel, so the row
 * kernels compute them side by side (two blocks per ymm set, two sets
 * interleaved) in the latency of one block instead of two or three
 * dependent calls; Poly1305 then runs over AD and one buffer holding the
 * zero-padded ciphertext and the length block (RFC 8439 2.8), in at most
 * three blocks calls. open computes the tag from the ciphertext before it
 * writes any plaintext, and writes plaintext only when the tag matched.
 * The bytes are those of the streaming path (the tests run every length
 * 0..4096 through both). */
#define AEAD_SHORT_MAX 192

/* ks = ChaCha20 blocks 0 .. nb - 1 of (k, n), nb = 1 + ceil(len / 64)
 * rounded up to even (the row kernels do two blocks for the price of one):
 * at most 4 blocks for len <= 192. */
static size_t aead_short_keystream(const struct vg_chacha20_impl *chacha, uint8_t ks[256],
                                   size_t len, const uint32_t k[8], const uint32_t n[3])
{
    size_t nb = (1 + (len + 63) / 64 + 1) & ~(size_t)1;
    memset(ks, 0, 64 * nb);
    chacha->blocks(ks, ks, nb, k, n, 0); /* counters 0..3: no wrap */
    return 64 * nb; /* the bytes written, to wipe */
}

/* tag = Poly1305 over AD || pad16 || ct || pad16 || le64(ad_len) ||
 * le64(len) (RFC 8439 2.8) with the one-time key ks[0..31]. buf is the
 * caller's scratch, wiped by the caller. Pre: len <= AEAD_SHORT_MAX. */
static void aead_short_tag(const struct vg_poly1305_impl *poly, uint8_t tag[16],
                           const uint8_t ks[32], const uint8_t *ad, size_t ad_len,
                           const uint8_t *ct, size_t len, uint8_t buf[AEAD_SHORT_MAX + 16],
                           vg_poly1305_state *st)
{
    size_t ct_blocks = (len + 15) / 16;
    poly->init(st, ks);
    if (ad_len >= 16)
        poly->blocks(st, ad, ad_len / 16, 1);
    if (ad_len % 16) {
        uint8_t last[16] = {0}; /* AD is public: no wipe needed */
        memcpy(last, ad + (ad_len & ~(size_t)15), ad_len % 16);
        poly->blocks(st, last, 1, 1);
    }
    memset(buf, 0, 16 * ct_blocks);
    if (len)
        memcpy(buf, ct, len);
    vg_store64_le(buf + 16 * ct_blocks, (uint64_t)ad_len);
    vg_store64_le(buf + 16 * ct_blocks + 8, (uint64_t)len);
    poly->blocks(st, buf, ct_blocks + 1, 1);
    poly->finish(st, tag);
}

static void aead_short_xor(uint8_t *out, const uint8_t *in, size_t len, const uint8_t *ks)
{
    for (size_t i = 0; i < len; i++)
        out[i] = in[i] ^ ks[i];
}

static void aead_short_seal(const struct vg_chacha20_impl *chacha,
                            const struct vg_poly1305_impl *poly, int extended, uint8_t *ct,
                            uint8_t tag[16], const uint8_t *pt, size_t len, const uint8_t *ad,
                            size_t ad_len, const uint8_t *nonce, const uint8_t key[32])
{
    uint32_t k[8], n[3];
    uint8_t ks[256], buf[AEAD_SHORT_MAX + 16];
    vg_poly1305_state st;

    aead_key_nonce(k, n, extended, nonce, key);
    size_t used = aead_short_keystream(chacha, ks, len, k, n);
    if (len)
        aead_short_xor(ct, pt, len, ks + 64);
    aead_short_tag(poly, tag, ks, ad, ad_len, ct, len, buf, &st);
    /* Only what was written holds secrets: the keystream blocks made, the
     * ciphertext copy and length block (public, but cheap), the state. */
    vg_wipe(k, sizeof k);
    vg_wipe(ks, used);
    vg_wipe(buf, 16 * ((len + 15) / 16 + 1));
    vg_wipe(&st, sizeof st);
}

static int aead_short_open(const struct vg_chacha20_impl *chacha,
                           const struct vg_poly1305_impl *poly, int extended, uint8_t *pt,
                           const uint8_t *ct, size_t len, const uint8_t tag[16],
                           const uint8_t *ad, size_t ad_len, const uint8_t *nonce,
                           const uint8_t key[32])
{
    uint32_t k[8], n[3];
    uint8_t ks[256], buf[AEAD_SHORT_MAX + 16], want[16];
    vg_poly1305_state st;
    int ok;

    aead_key_nonce(k, n, extended, nonce, key);
    size_t used = aead_short_keystream(chacha, ks, len, k, n);
    aead_short_tag(poly, want, ks, ad, ad_len, ct, len, buf, &st);
    ok = aead_tag_ok(want, tag);
    if (len) {
        if (ok)
            aead_short_xor(pt, ct, len, ks + 64); /* ct read before pt written */
        else
            vg_wipe(pt, len);
    }
    vg_wipe(k, sizeof k);
    vg_wipe(ks, used);
    vg_wipe(buf, 16 * ((len + 15) / 16 + 1));
    vg_wipe(want, sizeof want);
    vg_wipe(&st, sizeof st);
    return ok ? VG_OK : VG_ERR_VERIFY;
}

/* ---- one-shot ----------------------------------------------------------- */

#ifndef VG_X86_64
/* No x86-64 code in this build (see src/aead/x86_64/). */
vg_aead_fused_fn vg_aead_avx512_get(void) { return NULL; }
#endif

/* The fused one-shot kernel for this pair of implementations and a length
 * over AEAD_SHORT_MAX, or NULL. */
static vg_aead_fused_fn aead_fused(const struct vg_chacha20_impl *chacha,
                                   const struct vg_poly1305_impl *poly, size_t len)
{
    vg_aead_fused_fn f = len <= VG_AEAD_FUSED_MAX ? vg_aead_avx512_get() : NULL;
    return f && chacha == vg_chacha20_avx512_get() && poly == vg_poly1305_ifma_get() ? f : NULL;
}

static void aead_fused_seal(vg_aead_fused_fn fused, int extended, uint8_t *ct, uint8_t tag[16],
                            const uint8_t *pt, size_t len, const uint8_t *ad, size_t ad_len,
                            const uint8_t *nonce, const uint8_t key[32])
{
    uint32_t k[8], n[3];
    aead_key_nonce(k, n, extended, nonce, key);
    fused(ct, pt, len, ad, ad_len, k, n, 0, tag);
    vg_wipe(k, sizeof k);
}

static int aead_fused_open(vg_aead_fused_fn fused, int extended, uint8_t *pt, const uint8_t *ct,
                           size_t len, const uint8_t tag[16], const uint8_t *ad, size_t ad_len,
                           const uint8_t *nonce, const uint8_t key[32])
{
    uint32_t k[8], n[3];
    uint8_t want[16];
    int ok;
    aead_key_nonce(k, n, extended, nonce, key);
    fused(pt, ct, len, ad, ad_len, k, n, 1, want);
    ok = aead_tag_ok(want, tag);
    if (!ok)
        vg_wipe(pt, len);
    vg_wipe(k, sizeof k);
    vg_wipe(want, sizeof want);
    return ok ? VG_OK : VG_ERR_VERIFY;
}

int vg_aead_seal_impl(const struct vg_chacha20_impl *chacha, const struct vg_poly1305_impl *poly,
                      int extended, uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                      const uint8_t *ad, size_t ad_len, const uint8_t *nonce,
                      const uint8_t key[32])
{
    vg_aead_stream s;
    vg_aead_fused_fn fused;

    /* Over P_MAX: ct is left untouched (a rejected length cannot be trusted
     * to size a write); only the fixed-size tag is zeroed. */
    if ((uint64_t)len > VG_AEAD_MAXLEN) {
        if (tag)
            vg_wipe(tag, 16);
        return VG_ERR_INPUT;
    }
    if (!tag || !key || !nonce || ((!ct || !pt) && len) || (!ad && ad_len)) {
        if (tag)
            vg_wipe(tag, 16);
        if (ct && len)
            vg_wipe(ct, len);
        return VG_ERR_INPUT;
    }
    if (len <= AEAD_SHORT_MAX) {
        aead_short_seal(chacha, poly, extended, ct, tag, pt, len, ad, ad_len, nonce, key);
        return VG_OK;
    }
    if ((fused = aead_fused(chacha, poly, len)) != NULL) {
        aead_fused_seal(fused, extended, ct, tag, pt, len, ad, ad_len, nonce, key);
        return VG_OK;
    }
    vg_aead_stream_init(&s, chacha, poly, extended, nonce, key, ad, ad_len);
    (void)vg_aead_stream_encrypt(&s, ct, pt, len); /* VG_OK: len <= P_MAX */
    vg_aead_stream_tag(&s, tag);                   /* wipes s */
    return VG_OK;
}

int vg_aead_open_impl(const struct vg_chacha20_impl *chacha, const struct vg_poly1305_impl *poly,
                      int extended, uint8_t *pt, const uint8_t *ct, size_t len,
                      const uint8_t tag[16], const uint8_t *ad, size_t ad_len,
                      const uint8_t *nonce, const uint8_t key[32])
{
    vg_aead_stream s;
    vg_aead_fused_fn fused;
    int rc;

    /* Over P_MAX: VG_ERR_INPUT (the DESIGN's rule for lengths), pt left
     * untouched for the reason given in seal; nothing was decrypted. */
    if ((uint64_t)len > VG_AEAD_MAXLEN)
        return VG_ERR_INPUT;
    /* A NULL argument: open is a verification function, so VG_ERR_VERIFY
     * (DESIGN section 2), with pt zeroed. */
    if (!tag || !key || !nonce || ((!ct || !pt) && len) || (!ad && ad_len)) {
        if (pt && len)
            vg_wipe(pt, len);
        return VG_ERR_VERIFY;
    }
    if (len <= AEAD_SHORT_MAX)
        return aead_short_open(chacha, poly, extended, pt, ct, len, tag, ad, ad_len, nonce, key);
    if ((fused = aead_fused(chacha, poly, len)) != NULL)
        return aead_fused_open(fused, extended, pt, ct, len, tag, ad, ad_len, nonce, key);
    vg_aead_stream_init(&s, chacha, poly, extended, nonce, key, ad, ad_len);
    (void)vg_aead_stream_decrypt(&s, pt, ct, len); /* VG_OK: len <= P_MAX */
    rc = vg_aead_stream_verify(&s, tag);           /* wipes s */
    if (rc != VG_OK && len)
        vg_wipe(pt, len);
    return rc;
}

/* ---- public (include/vgcrypto.h) ---------------------------------------- */

int vg_chacha20poly1305_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                             const uint8_t *ad, size_t ad_len, const uint8_t nonce[12],
                             const uint8_t key[32])
{
    return vg_aead_seal_impl(vg_chacha20_active(), vg_poly1305_active(), 0, ct, tag, pt, len,
                             ad, ad_len, nonce, key);
}

int vg_chacha20poly1305_open(uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t tag[16],
                             const uint8_t *ad, size_t ad_len, const uint8_t nonce[12],
                             const uint8_t key[32])
{
    return vg_aead_open_impl(vg_chacha20_active(), vg_poly1305_active(), 0, pt, ct, len, tag,
                             ad, ad_len, nonce, key);
}

int vg_xchacha20poly1305_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                              const uint8_t *ad, size_t ad_len, const uint8_t nonce[24],
                              const uint8_t key[32])
{
    return vg_aead_seal_impl(vg_chacha20_active(), vg_poly1305_active(), 1, ct, tag, pt, len,
                             ad, ad_len, nonce, key);
}

int vg_xchacha20poly1305_open(uint8_t *pt, const uint8_t *ct, size_t len,
                              const uint8_t tag[16], const uint8_t *ad, size_t ad_len,
                              const uint8_t nonce[24], const uint8_t key[32])
{
    return vg_aead_open_impl(vg_chacha20_active(), vg_poly1305_active(), 1, pt, ct, len, tag,
                             ad, ad_len, nonce, key);
}
