/*
 * ChaCha20 (RFC 8439 sections 2.1-2.4): the portable block function, the
 * keystream XOR shared by every implementation, HChaCha20
 * (draft-irtf-cfrg-xchacha-03 section 2.2), the dispatch and the public
 * vg_chacha20.
 *
 * Constant time: ChaCha20 is additions, XORs and fixed rotations on 32-bit
 * words; the only branches and indices depend on lengths and the counter,
 * which are public.
 *
 * Counter overflow. RFC 8439 2.3 makes the block counter one 32-bit word
 * and 2.8 derives P_MAX = (2^32 - 1) * 64 from it: a (key, nonce) pair has
 * 2^32 blocks and no more. The RFC defines no block after counter 2^32 - 1
 * (wrapping to 0 would repeat keystream; carrying into the nonce word, as
 * the original 64-bit-counter ChaCha does, would be a different cipher), so
 * vg_chacha20 refuses any length that would need one: VG_ERR_INPUT when
 * ceil(len / 64) > 2^32 - counter. Every block it does produce is exactly
 * the RFC's.
 */
#include <string.h>

#include "aead.h"
#include "chacha20_vec.h"
#include "common.h"

/* RFC 8439 2.3: "expand 32-byte k". */
#define CHACHA_C0 0x61707865u
#define CHACHA_C1 0x3320646eu
#define CHACHA_C2 0x79622d32u
#define CHACHA_C3 0x6b206574u

static inline uint32_t rotl32(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

/* RFC 8439 2.1. */
#define QR(a, b, c, d)                                                                             \
    do {                                                                                           \
        a += b;                                                                                    \
        d = rotl32(d ^ a, 16);                                                                     \
        c += d;                                                                                    \
        b = rotl32(b ^ c, 12);                                                                     \
        a += b;                                                                                    \
        d = rotl32(d ^ a, 8);                                                                      \
        c += d;                                                                                    \
        b = rotl32(b ^ c, 7);                                                                      \
    } while (0)

/* The 20 rounds of RFC 8439 2.3 (10 x inner_block of 2.3.1) on x, in place,
 * without the final addition of the input words. */
static void chacha20_rounds(uint32_t x[16])
{
    for (int i = 0; i < 10; i++) {
        QR(x[0], x[4], x[8], x[12]); /* column round */
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]); /* diagonal round */
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
}

/* The state of RFC 8439 2.3: constants, key, counter, nonce. */
static void chacha20_setup(uint32_t s[16], const uint32_t key[8], uint32_t counter,
                           const uint32_t nonce[3])
{
    s[0] = CHACHA_C0;
    s[1] = CHACHA_C1;
    s[2] = CHACHA_C2;
    s[3] = CHACHA_C3;
    memcpy(s + 4, key, 8 * sizeof(uint32_t));
    s[12] = counter;
    s[13] = nonce[0];
    s[14] = nonce[1];
    s[15] = nonce[2];
}

#if defined(CHACHA20_VEC4)
/* Exactly four blocks from counter .. counter + 3 (chacha20_vec.h). */
static void chacha20_blocks4_vec(uint8_t *out, const uint8_t *in, const uint32_t s[16])
{
    chacha20_vec4_core(out, in, s, NULL, NULL);
}
#endif

/* struct vg_chacha20_impl.blocks (see aead.h for the contract): four
 * blocks at a time where the compiler has vector extensions, then one
 * block at a time. Reads each input word before writing the output word at
 * the same offset, so out == in works. */
static void chacha20_blocks_portable(uint8_t *out, const uint8_t *in, size_t nblocks,
                                     const uint32_t key[8], const uint32_t nonce[3],
                                     uint32_t counter)
{
    uint32_t s[16], x[16];
    chacha20_setup(s, key, counter, nonce);
#if defined(CHACHA20_VEC4)
    for (; nblocks >= 4; nblocks -= 4) {
        chacha20_blocks4_vec(out, in, s);
        s[12] += 4; /* may wrap only after the last blocks; then unused */
        in += 256;
        out += 256;
    }
#endif
    while (nblocks--) {
        memcpy(x, s, sizeof x);
        chacha20_rounds(x);
        for (int i = 0; i < 16; i++)
            vg_store32_le(out + 4 * i, vg_load32_le(in + 4 * i) ^ (x[i] + s[i]));
        /* Pre of blocks: no wrap here, except after the last block, whose
         * incremented counter is never used. */
        s[12]++;
        in += 64;
        out += 64;
    }
    vg_wipe(s, sizeof s);
    vg_wipe(x, sizeof x);
}

/* aead.h: the portable ChaCha20 + Poly1305 r64 loop of the AEAD, four
 * blocks (256 bytes) per step with 16 Poly1305 blocks inside its rounds
 * (chacha20_vec.h). Sealing MACs the ciphertext of the step before (the
 * first step has none; the last step's is MACed after the loop); opening
 * MACs the step's own ciphertext before it writes the plaintext. */
size_t vg_chacha20_poly1305_portable(uint8_t *out, const uint8_t *in, size_t len,
                                     const uint32_t key[8], const uint32_t nonce[3],
                                     uint32_t counter, vg_poly1305_state *st, int decrypting)
{
#if defined(CHACHA20_VEC4_MAC)
    size_t n4 = len / 256, g;
    uint32_t s[16];
    vg_chacha20_mac m;
    if (n4 == 0)
        return 0;
    chacha20_setup(s, key, counter, nonce);
    m.h[0] = st->r64.h[0];
    m.h[1] = st->r64.h[1];
    m.h[2] = st->r64.h[2];
    m.r0 = st->r64.r[0];
    m.r1 = st->r64.r[1];
    m.sr1 = m.r1 + (m.r1 >> 2); /* as r64_blocks (poly1305_r64.h) */
    g = 0;
    if (!decrypting) {
        chacha20_blocks4_vec(out, in, s);
        s[12] += 4;
        g = 1;
    }
    for (; g < n4; g++) {
        const uint8_t *mac_in = decrypting ? in + 256 * g : out + 256 * (g - 1);
        chacha20_vec4_core(out + 256 * g, in + 256 * g, s, &m, mac_in);
        s[12] += 4; /* may wrap only after the last blocks; then unused */
    }
    st->r64.h[0] = m.h[0];
    st->r64.h[1] = m.h[1];
    st->r64.h[2] = m.h[2];
    if (!decrypting) /* the last step's ciphertext */
        r64_blocks(st, out + 256 * (n4 - 1), 16, 1);
    vg_wipe(s, sizeof s);
    vg_wipe(&m, sizeof m);
    return 256 * n4;
#else
    (void)out;
    (void)in;
    (void)len;
    (void)key;
    (void)nonce;
    (void)counter;
    (void)st;
    (void)decrypting;
    return 0;
#endif
}

static const struct vg_chacha20_impl g_chacha20_portable = {
    .name = "portable",
    .blocks = chacha20_blocks_portable,
};

const struct vg_chacha20_impl *vg_chacha20_portable_get(void) { return &g_chacha20_portable; }

#ifndef VG_X86_64
/* No x86-64 code in this build (see src/aead/x86_64/). */
const struct vg_chacha20_impl *vg_chacha20_avx2_rows_get(void) { return NULL; }
const struct vg_chacha20_impl *vg_chacha20_avx2_get(void) { return NULL; }
const struct vg_chacha20_impl *vg_chacha20_avx512_get(void) { return NULL; }
#endif

/* The dispatch: one place, recomputed from the active CPU mask at each
 * call (as vg_sha256_active), so it follows vg_cpu_force in tests. Order by
 * design (not measured): AVX-512 first, since VPROLD makes each rotation
 * one instruction (AVX2 needs VPSHUFB or shift-shift-or) and a zmm holds
 * 16 blocks; then AVX2. Both hand fewer blocks than their width to the row
 * code, so short messages take the row path inside them; avx2_rows alone
 * is never better than avx2, which contains it. */
const struct vg_chacha20_impl *vg_chacha20_active(void)
{
    const struct vg_chacha20_impl *impl = vg_chacha20_avx512_get();
    if (!impl)
        impl = vg_chacha20_avx2_get();
    return impl ? impl : &g_chacha20_portable;
}

void vg_chacha20_load_key(uint32_t k[8], const uint8_t key[32])
{
    for (int i = 0; i < 8; i++)
        k[i] = vg_load32_le(key + 4 * i);
}

void vg_chacha20_load_nonce(uint32_t n[3], const uint8_t nonce[12])
{
    for (int i = 0; i < 3; i++)
        n[i] = vg_load32_le(nonce + 4 * i);
}

int vg_chacha20_len_ok(size_t len, uint32_t counter)
{
    /* Blocks needed: ceil(len / 64), computed without overflow; blocks
     * available from `counter` on: 2^32 - counter (at least 1). */
    uint64_t need = (uint64_t)(len / 64) + (len % 64 != 0);
    uint64_t avail = ((uint64_t)1 << 32) - counter;
    return need <= avail;
}

void vg_chacha20_xor(const struct vg_chacha20_impl *impl, uint8_t *out, const uint8_t *in,
                     size_t len, const uint32_t key[8], const uint32_t nonce[3],
                     uint32_t counter)
{
    size_t full = len / 64, rest = len % 64;
    if (full) {
        impl->blocks(out, in, full, key, nonce, counter);
        /* Pre: full + (rest != 0) <= 2^32 - counter, so counter + full fits
         * whenever a partial block follows. */
        counter += (uint32_t)full;
    }
    if (rest) {
        uint8_t buf[64] = {0};
        memcpy(buf, in + 64 * full, rest);
        impl->blocks(buf, buf, 1, key, nonce, counter);
        memcpy(out + 64 * full, buf, rest);
        vg_wipe(buf, sizeof buf);
    }
}

void vg_hchacha20(uint8_t out[32], const uint8_t key[32], const uint8_t nonce16[16])
{
    uint32_t x[16];
    x[0] = CHACHA_C0;
    x[1] = CHACHA_C1;
    x[2] = CHACHA_C2;
    x[3] = CHACHA_C3;
    for (int i = 0; i < 8; i++)
        x[4 + i] = vg_load32_le(key + 4 * i);
    /* draft-irtf-cfrg-xchacha-03 2.2: words 12-15 are the 128-bit nonce, the
     * block counter's place taken by its first 32 bits. */
    for (int i = 0; i < 4; i++)
        x[12 + i] = vg_load32_le(nonce16 + 4 * i);
    chacha20_rounds(x);
    /* No feed-forward; first and last rows. */
    for (int i = 0; i < 4; i++) {
        vg_store32_le(out + 4 * i, x[i]);
        vg_store32_le(out + 16 + 4 * i, x[12 + i]);
    }
    vg_wipe(x, sizeof x);
}

/* Public: RFC 8439 2.4. Errors (VG_ERR_INPUT):
 *  - a length that would need a block counter beyond 2^32 - 1 (see the top
 *    of this file); out is then left untouched, since a rejected length
 *    cannot be trusted to size a write;
 *  - a NULL key or nonce, or a NULL in or out with len > 0; out (len bytes,
 *    when not NULL) is then zeroed. */
int vg_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                uint32_t counter, const uint8_t key[32])
{
    uint32_t k[8], n[3];
    if (!vg_chacha20_len_ok(len, counter))
        return VG_ERR_INPUT;
    if (!key || !nonce || ((!in || !out) && len)) {
        if (out && len)
            vg_wipe(out, len);
        return VG_ERR_INPUT;
    }
    vg_chacha20_load_key(k, key);
    vg_chacha20_load_nonce(n, nonce);
    vg_chacha20_xor(vg_chacha20_active(), out, in, len, k, n, counter);
    vg_wipe(k, sizeof k);
    return VG_OK;
}
