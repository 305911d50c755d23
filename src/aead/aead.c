/*
 * AEAD_CHACHA20_POLY1305 (RFC 8439 2.8) and AEAD_XChaCha20_Poly1305
 * (draft-irtf-cfrg-xchacha-03 sections 2 and 2.3), detached tag.
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

/* RFC 8439 2.6: the Poly1305 key is the first 32 bytes of block 0; then the
 * MAC starts with AD || pad16(AD) (2.8). */
static void aead_mac_start(vg_poly1305_ctx *mac, const struct vg_chacha20_impl *chacha,
                           const struct vg_poly1305_impl *poly, const uint32_t k[8],
                           const uint32_t n[3], const uint8_t *ad, size_t ad_len)
{
    uint8_t block0[64] = {0};
    chacha->blocks(block0, block0, 1, k, n, 0);
    vg_poly1305_init(mac, poly, block0);
    vg_wipe(block0, sizeof block0);
    vg_poly1305_update(mac, ad, ad_len);
    vg_poly1305_pad16(mac);
}

/* RFC 8439 2.8: pad16(ct), then le64(ad_len) || le64(ct_len). */
static void aead_mac_finish(vg_poly1305_ctx *mac, size_t ad_len, size_t len, uint8_t tag[16])
{
    uint8_t lens[16];
    vg_poly1305_pad16(mac);
    vg_store64_le(lens, (uint64_t)ad_len);
    vg_store64_le(lens + 8, (uint64_t)len);
    vg_poly1305_update(mac, lens, sizeof lens);
    vg_poly1305_final(mac, tag); /* wipes mac */
}

int vg_aead_seal_impl(const struct vg_chacha20_impl *chacha, const struct vg_poly1305_impl *poly,
                      int extended, uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                      const uint8_t *ad, size_t ad_len, const uint8_t *nonce,
                      const uint8_t key[32])
{
    uint32_t k[8], n[3], counter = 1; /* RFC 8439 2.8: encryption from block 1 */
    vg_poly1305_ctx mac;

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

    aead_key_nonce(k, n, extended, nonce, key);
    aead_mac_start(&mac, chacha, poly, k, n, ad, ad_len);
    for (size_t off = 0; off < len; off += AEAD_CHUNK) {
        size_t m = len - off < AEAD_CHUNK ? len - off : AEAD_CHUNK;
        vg_chacha20_xor(chacha, ct + off, pt + off, m, k, n, counter);
        vg_poly1305_update(&mac, ct + off, m);
        /* m < 2^32 * 64; len <= P_MAX keeps counter <= 2^32 - 1 for every
         * block actually produced (the increment after the last chunk may
         * wrap, unused). */
        counter += (uint32_t)(AEAD_CHUNK / 64);
    }
    aead_mac_finish(&mac, ad_len, len, tag);
    vg_wipe(k, sizeof k);
    return VG_OK;
}

int vg_aead_open_impl(const struct vg_chacha20_impl *chacha, const struct vg_poly1305_impl *poly,
                      int extended, uint8_t *pt, const uint8_t *ct, size_t len,
                      const uint8_t tag[16], const uint8_t *ad, size_t ad_len,
                      const uint8_t *nonce, const uint8_t key[32])
{
    uint32_t k[8], n[3], counter = 1;
    uint8_t want[16];
    vg_poly1305_ctx mac;
    int ok;

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

    aead_key_nonce(k, n, extended, nonce, key);
    aead_mac_start(&mac, chacha, poly, k, n, ad, ad_len);
    for (size_t off = 0; off < len; off += AEAD_CHUNK) {
        size_t m = len - off < AEAD_CHUNK ? len - off : AEAD_CHUNK;
        /* MAC first: with pt == ct the decryption overwrites this chunk. */
        vg_poly1305_update(&mac, ct + off, m);
        vg_chacha20_xor(chacha, pt + off, ct + off, m, k, n, counter);
        counter += (uint32_t)(AEAD_CHUNK / 64);
    }
    aead_mac_finish(&mac, ad_len, len, want);
    ok = vg_ct_memcmp(want, tag, 16) == 0;
    /* The verdict is public: the caller learns it from the return value. */
    VG_CT_DECLASSIFY(&ok, sizeof ok);
    if (!ok && len)
        vg_wipe(pt, len);
    vg_wipe(k, sizeof k);
    vg_wipe(want, sizeof want);
    return ok ? VG_OK : VG_ERR_VERIFY;
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
