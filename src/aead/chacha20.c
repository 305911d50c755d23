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

#if defined(__GNUC__) && !defined(VG_CHACHA20_NO_VECTOR_EXT)
/* Four blocks side by side in the compiler's generic vectors (GCC and
 * clang vector extensions, plain C semantics lane by lane): lane j of word
 * i is word i of block j, so the rounds are those of chacha20_rounds on
 * four blocks at once. The compiler lowers the vectors to whatever the
 * target has (SSE2 on baseline x86-64, NEON on AArch64, scalar code
 * elsewhere); nothing here depends on a CPU feature at run time. Without
 * the extensions (or with VG_CHACHA20_NO_VECTOR_EXT) every block goes
 * through the one-block loop below. */
#define CHACHA20_VEC4 1
typedef uint32_t vg_v4u32 __attribute__((vector_size(16)));

typedef uint16_t vg_v8u16 __attribute__((vector_size(16)));

#define VROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
/* Rotation by 16 = swapping the 16-bit halves of each word: one shuffle
 * of 16-bit lanes (two instructions on SSE2, PSHUFLW and PSHUFHW, instead
 * of shift, shift, or and a copy). */
#if defined(__clang__)
#define VROTL16(x)                                                                                 \
    ((vg_v4u32)__builtin_shufflevector((vg_v8u16)(x), (vg_v8u16)(x), 1, 0, 3, 2, 5, 4, 7, 6))
#else
#define VROTL16(x) ((vg_v4u32)__builtin_shuffle((vg_v8u16)(x), (vg_v8u16){1, 0, 3, 2, 5, 4, 7, 6}))
#endif
#define VQR(a, b, c, d)                                                                            \
    do {                                                                                           \
        a += b;                                                                                    \
        d = VROTL16(d ^ a);                                                                        \
        c += d;                                                                                    \
        b = VROTL(b ^ c, 12);                                                                      \
        a += b;                                                                                    \
        d = VROTL(d ^ a, 8);                                                                       \
        c += d;                                                                                    \
        b = VROTL(b ^ c, 7);                                                                       \
    } while (0)

/* Exactly four blocks from counter .. counter + 3 (no wrap: the caller's
 * precondition). Long (about 60 lines): the 16 words are 16 named
 * variables so that the compiler keeps them in registers. */
static void chacha20_blocks4_vec(uint8_t *out, const uint8_t *in, const uint32_t s[16])
{
    const vg_v4u32 ctr = {s[12], s[12] + 1, s[12] + 2, s[12] + 3};
    vg_v4u32 x0 = {s[0], s[0], s[0], s[0]}, x1 = {s[1], s[1], s[1], s[1]},
             x2 = {s[2], s[2], s[2], s[2]}, x3 = {s[3], s[3], s[3], s[3]},
             x4 = {s[4], s[4], s[4], s[4]}, x5 = {s[5], s[5], s[5], s[5]},
             x6 = {s[6], s[6], s[6], s[6]}, x7 = {s[7], s[7], s[7], s[7]},
             x8 = {s[8], s[8], s[8], s[8]}, x9 = {s[9], s[9], s[9], s[9]},
             x10 = {s[10], s[10], s[10], s[10]}, x11 = {s[11], s[11], s[11], s[11]},
             x12 = ctr, x13 = {s[13], s[13], s[13], s[13]},
             x14 = {s[14], s[14], s[14], s[14]}, x15 = {s[15], s[15], s[15], s[15]};
    for (int i = 0; i < 10; i++) {
        VQR(x0, x4, x8, x12); /* column round */
        VQR(x1, x5, x9, x13);
        VQR(x2, x6, x10, x14);
        VQR(x3, x7, x11, x15);
        VQR(x0, x5, x10, x15); /* diagonal round */
        VQR(x1, x6, x11, x12);
        VQR(x2, x7, x8, x13);
        VQR(x3, x4, x9, x14);
    }
    /* Feed-forward (RFC 8439 2.3), then block j = lane j of each word. */
    vg_v4u32 w[16] = {x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15};
    for (int i = 0; i < 16; i++) {
        vg_v4u32 add = {s[i], s[i], s[i], s[i]};
        w[i] += i == 12 ? ctr : add;
    }
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 16; i++)
            vg_store32_le(out + 64 * j + 4 * i, vg_load32_le(in + 64 * j + 4 * i) ^ w[i][j]);
    vg_wipe(w, sizeof w);
}
#undef VQR
#undef VROTL
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
