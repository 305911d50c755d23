/*
 * ChaCha20 (RFC 8439 2.3-2.4), x86-64 with AVX-512F and AVX-512VL: 16
 * blocks at once (one zmm per state word, one 32-bit lane per block),
 * then, for what is left, the 8-block ymm kernel and the row kernel of
 * chacha20_x86.h with VPROLD rotations (AVX-512VL). Compiled with
 * -mavx512f -mavx512vl (CMakeLists.txt); called only when
 * vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL).
 * Specification: RFC 8439, sections 2.1-2.4.
 */
#include <immintrin.h>

#include "../aead.h"
#include "common.h"

#define CH_PFX avx512vl
#define CH_R256(x, n) _mm256_rol_epi32(x, n)
#define CH_R128(x, n) _mm_rol_epi32(x, n)
#include "chacha20_x86.h"

/* 4x4 transpose of 32-bit words within each 128-bit lane of zmm rows. */
#define Z_T4(x0, x1, x2, x3)                                                                       \
    do {                                                                                           \
        __m512i t0_ = _mm512_unpacklo_epi32(x0, x1), t1_ = _mm512_unpackhi_epi32(x0, x1);         \
        __m512i t2_ = _mm512_unpacklo_epi32(x2, x3), t3_ = _mm512_unpackhi_epi32(x2, x3);         \
        x0 = _mm512_unpacklo_epi64(t0_, t2_);                                                      \
        x1 = _mm512_unpackhi_epi64(t0_, t2_);                                                      \
        x2 = _mm512_unpacklo_epi64(t1_, t3_);                                                      \
        x3 = _mm512_unpackhi_epi64(t1_, t3_);                                                      \
    } while (0)

/* After Z_T4, register a (words 0-3), b (4-7), c (8-11), d (12-15) of
 * index j hold, in 128-bit lane L, those words of block 4L + j. Gather the
 * four quarters of blocks j, j + 4, j + 8, j + 12 and XOR them in. */
static inline void z_out4(uint8_t *out, const uint8_t *in, __m512i a, __m512i b, __m512i c,
                          __m512i d)
{
    /* ab_lo = (a.L0, a.L1, b.L0, b.L1), ab_hi = (a.L2, a.L3, b.L2, b.L3). */
    __m512i ab_lo = _mm512_shuffle_i32x4(a, b, 0x44), ab_hi = _mm512_shuffle_i32x4(a, b, 0xee);
    __m512i cd_lo = _mm512_shuffle_i32x4(c, d, 0x44), cd_hi = _mm512_shuffle_i32x4(c, d, 0xee);
    /* Block of lane L: (a.L, b.L, c.L, d.L): lanes 0, 2 of the pair for L
     * even (imm 0x88), lanes 1, 3 for L odd (0xdd). */
    __m512i k0 = _mm512_shuffle_i32x4(ab_lo, cd_lo, 0x88); /* block j */
    __m512i k1 = _mm512_shuffle_i32x4(ab_lo, cd_lo, 0xdd); /* block j + 4 */
    __m512i k2 = _mm512_shuffle_i32x4(ab_hi, cd_hi, 0x88); /* block j + 8 */
    __m512i k3 = _mm512_shuffle_i32x4(ab_hi, cd_hi, 0xdd); /* block j + 12 */
    __m512i i0 = _mm512_loadu_si512((const void *)in),
            i1 = _mm512_loadu_si512((const void *)(in + 256)),
            i2 = _mm512_loadu_si512((const void *)(in + 512)),
            i3 = _mm512_loadu_si512((const void *)(in + 768));
    _mm512_storeu_si512((void *)out, _mm512_xor_si512(i0, k0));
    _mm512_storeu_si512((void *)(out + 256), _mm512_xor_si512(i1, k1));
    _mm512_storeu_si512((void *)(out + 512), _mm512_xor_si512(i2, k2));
    _mm512_storeu_si512((void *)(out + 768), _mm512_xor_si512(i3, k3));
}

#define ZADD _mm512_add_epi32
#define ZQR(a, b, c, d)                                                                            \
    do {                                                                                           \
        a = ZADD(a, b);                                                                            \
        d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 16);                                          \
        c = ZADD(c, d);                                                                            \
        b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 12);                                          \
        a = ZADD(a, b);                                                                            \
        d = _mm512_rol_epi32(_mm512_xor_si512(d, a), 8);                                           \
        c = ZADD(c, d);                                                                            \
        b = _mm512_rol_epi32(_mm512_xor_si512(b, c), 7);                                           \
    } while (0)

/* Exactly 16 blocks (1024 bytes), counters counter .. counter + 15.
 * Long (about 65 lines): the 16 state words are 16 named registers. */
static void z_x16(uint8_t *out, const uint8_t *in, const uint32_t key[8], const uint32_t nonce[3],
                  uint32_t counter)
{
    const __m512i k0 = _mm512_set1_epi32((int)key[0]), k1 = _mm512_set1_epi32((int)key[1]),
                  k2 = _mm512_set1_epi32((int)key[2]), k3 = _mm512_set1_epi32((int)key[3]),
                  k4 = _mm512_set1_epi32((int)key[4]), k5 = _mm512_set1_epi32((int)key[5]),
                  k6 = _mm512_set1_epi32((int)key[6]), k7 = _mm512_set1_epi32((int)key[7]);
    const __m512i ctr = _mm512_add_epi32(
        _mm512_set1_epi32((int)counter),
        _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    const __m512i n0 = _mm512_set1_epi32((int)nonce[0]), n1 = _mm512_set1_epi32((int)nonce[1]),
                  n2 = _mm512_set1_epi32((int)nonce[2]);
    const __m512i c0 = _mm512_set1_epi32(CH_C0), c1 = _mm512_set1_epi32(CH_C1),
                  c2 = _mm512_set1_epi32(CH_C2), c3 = _mm512_set1_epi32(CH_C3);
    __m512i x0 = c0, x1 = c1, x2 = c2, x3 = c3;
    __m512i x4 = k0, x5 = k1, x6 = k2, x7 = k3, x8 = k4, x9 = k5, x10 = k6, x11 = k7;
    __m512i x12 = ctr, x13 = n0, x14 = n1, x15 = n2;
    for (int i = 0; i < 10; i++) {
        ZQR(x0, x4, x8, x12); /* column round */
        ZQR(x1, x5, x9, x13);
        ZQR(x2, x6, x10, x14);
        ZQR(x3, x7, x11, x15);
        ZQR(x0, x5, x10, x15); /* diagonal round */
        ZQR(x1, x6, x11, x12);
        ZQR(x2, x7, x8, x13);
        ZQR(x3, x4, x9, x14);
    }
    x0 = ZADD(x0, c0);
    x1 = ZADD(x1, c1);
    x2 = ZADD(x2, c2);
    x3 = ZADD(x3, c3);
    x4 = ZADD(x4, k0);
    x5 = ZADD(x5, k1);
    x6 = ZADD(x6, k2);
    x7 = ZADD(x7, k3);
    x8 = ZADD(x8, k4);
    x9 = ZADD(x9, k5);
    x10 = ZADD(x10, k6);
    x11 = ZADD(x11, k7);
    x12 = ZADD(x12, ctr);
    x13 = ZADD(x13, n0);
    x14 = ZADD(x14, n1);
    x15 = ZADD(x15, n2);
    Z_T4(x0, x1, x2, x3);
    Z_T4(x4, x5, x6, x7);
    Z_T4(x8, x9, x10, x11);
    Z_T4(x12, x13, x14, x15);
    z_out4(out + 0 * 64, in + 0 * 64, x0, x4, x8, x12); /* blocks 0, 4, 8, 12 */
    z_out4(out + 1 * 64, in + 1 * 64, x1, x5, x9, x13); /* blocks 1, 5, 9, 13 */
    z_out4(out + 2 * 64, in + 2 * 64, x2, x6, x10, x14);
    z_out4(out + 3 * 64, in + 3 * 64, x3, x7, x11, x15);
}

/* struct vg_chacha20_impl.blocks (aead.h): batches of 16, then one of 8,
 * then rows for the last 0..7 blocks. */
static void chacha20_blocks_avx512(uint8_t *out, const uint8_t *in, size_t nblocks,
                                   const uint32_t key[8], const uint32_t nonce[3],
                                   uint32_t counter)
{
    while (nblocks >= 16) {
        z_x16(out, in, key, nonce, counter);
        counter += 16; /* may wrap after the last blocks only: then unused */
        in += 1024;
        out += 1024;
        nblocks -= 16;
    }
    if (nblocks >= 8) {
        avx512vl_x8(out, in, key, nonce, counter);
        counter += 8;
        in += 512;
        out += 512;
        nblocks -= 8;
    }
    if (nblocks)
        avx512vl_rows(out, in, nblocks, key, nonce, counter);
}

static const struct vg_chacha20_impl g_chacha20_avx512 = {
    .name = "avx512",
    .blocks = chacha20_blocks_avx512,
};

const struct vg_chacha20_impl *vg_chacha20_avx512_get(void)
{
    return vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL) ? &g_chacha20_avx512 : NULL;
}
