/*
 * ChaCha20 (RFC 8439 2.3) on 16 blocks at once in zmm registers (one zmm
 * per state word, one 32-bit lane per block), as statement macros over
 * the named locals x0 .. x15, so that an includer can put other work
 * between the double rounds (aead_avx512.c runs Poly1305 groups there) and
 * the 16 words stay in registers. Included by chacha20_avx512.c and
 * aead_avx512.c, both compiled with at least -mavx512f -mavx512vl.
 *   Z16_DECL(key, nonce, counter): the locals, set to the input blocks of
 *     counters counter .. counter + 15 (the caller keeps them < 2^32 or
 *     ignores the blocks past the wrap);
 *   Z16_DOUBLE_ROUND(): one column round and one diagonal round (2.2);
 *   Z16_FEED(): after the 10 double rounds, add the input words (2.3) and
 *     transpose within the 128-bit lanes (see z_out4);
 *   Z16_XOR(out, in) / Z16_STORE(ks): the 1024 bytes of keystream XORed
 *     into in -> out (out == in works: each 256-byte quarter is read
 *     before it is written) or stored to ks.
 * Constant time: additions, XORs, VPROLD and fixed shuffles only.
 * Specification: RFC 8439, sections 2.1-2.3.
 */
#ifndef VG_AEAD_CHACHA20_Z16_H
#define VG_AEAD_CHACHA20_Z16_H

#include <immintrin.h>

#include "../aead.h"
#include "common.h"

#define Z16_C0 0x61707865
#define Z16_C1 0x3320646e
#define Z16_C2 0x79622d32
#define Z16_C3 0x6b206574

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
static inline void z_quarters(__m512i k[4], __m512i a, __m512i b, __m512i c, __m512i d)
{
    /* ab_lo = (a.L0, a.L1, b.L0, b.L1), ab_hi = (a.L2, a.L3, b.L2, b.L3). */
    __m512i ab_lo = _mm512_shuffle_i32x4(a, b, 0x44), ab_hi = _mm512_shuffle_i32x4(a, b, 0xee);
    __m512i cd_lo = _mm512_shuffle_i32x4(c, d, 0x44), cd_hi = _mm512_shuffle_i32x4(c, d, 0xee);
    /* Block of lane L: (a.L, b.L, c.L, d.L): lanes 0, 2 of the pair for L
     * even (imm 0x88), lanes 1, 3 for L odd (0xdd). */
    k[0] = _mm512_shuffle_i32x4(ab_lo, cd_lo, 0x88); /* block j */
    k[1] = _mm512_shuffle_i32x4(ab_lo, cd_lo, 0xdd); /* block j + 4 */
    k[2] = _mm512_shuffle_i32x4(ab_hi, cd_hi, 0x88); /* block j + 8 */
    k[3] = _mm512_shuffle_i32x4(ab_hi, cd_hi, 0xdd); /* block j + 12 */
}

static inline void z_out4(uint8_t *out, const uint8_t *in, __m512i a, __m512i b, __m512i c,
                          __m512i d)
{
    __m512i k[4];
    z_quarters(k, a, b, c, d);
    __m512i i0 = _mm512_loadu_si512((const void *)in),
            i1 = _mm512_loadu_si512((const void *)(in + 256)),
            i2 = _mm512_loadu_si512((const void *)(in + 512)),
            i3 = _mm512_loadu_si512((const void *)(in + 768));
    _mm512_storeu_si512((void *)out, _mm512_xor_si512(i0, k[0]));
    _mm512_storeu_si512((void *)(out + 256), _mm512_xor_si512(i1, k[1]));
    _mm512_storeu_si512((void *)(out + 512), _mm512_xor_si512(i2, k[2]));
    _mm512_storeu_si512((void *)(out + 768), _mm512_xor_si512(i3, k[3]));
}

/* The same four blocks stored to ks (block j at ks, j + 4 at ks + 256, ...). */
static inline void z_ks4(uint8_t *ks, __m512i a, __m512i b, __m512i c, __m512i d)
{
    __m512i k[4];
    z_quarters(k, a, b, c, d);
    _mm512_storeu_si512((void *)ks, k[0]);
    _mm512_storeu_si512((void *)(ks + 256), k[1]);
    _mm512_storeu_si512((void *)(ks + 512), k[2]);
    _mm512_storeu_si512((void *)(ks + 768), k[3]);
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

#define Z16_DECL(key, nonce, counter)                                                              \
    const __m512i z16_k0 = _mm512_set1_epi32((int)(key)[0]),                                       \
                  z16_k1 = _mm512_set1_epi32((int)(key)[1]),                                       \
                  z16_k2 = _mm512_set1_epi32((int)(key)[2]),                                       \
                  z16_k3 = _mm512_set1_epi32((int)(key)[3]),                                       \
                  z16_k4 = _mm512_set1_epi32((int)(key)[4]),                                       \
                  z16_k5 = _mm512_set1_epi32((int)(key)[5]),                                       \
                  z16_k6 = _mm512_set1_epi32((int)(key)[6]),                                       \
                  z16_k7 = _mm512_set1_epi32((int)(key)[7]);                                       \
    const __m512i z16_ctr = _mm512_add_epi32(                                                      \
        _mm512_set1_epi32((int)(counter)),                                                         \
        _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));                   \
    const __m512i z16_n0 = _mm512_set1_epi32((int)(nonce)[0]),                                     \
                  z16_n1 = _mm512_set1_epi32((int)(nonce)[1]),                                     \
                  z16_n2 = _mm512_set1_epi32((int)(nonce)[2]);                                     \
    __m512i x0 = _mm512_set1_epi32(Z16_C0), x1 = _mm512_set1_epi32(Z16_C1),                        \
            x2 = _mm512_set1_epi32(Z16_C2), x3 = _mm512_set1_epi32(Z16_C3);                        \
    __m512i x4 = z16_k0, x5 = z16_k1, x6 = z16_k2, x7 = z16_k3, x8 = z16_k4, x9 = z16_k5,          \
            x10 = z16_k6, x11 = z16_k7;                                                            \
    __m512i x12 = z16_ctr, x13 = z16_n0, x14 = z16_n1, x15 = z16_n2

#define Z16_DOUBLE_ROUND()                                                                         \
    do {                                                                                           \
        ZQR(x0, x4, x8, x12); /* column round */                                                   \
        ZQR(x1, x5, x9, x13);                                                                      \
        ZQR(x2, x6, x10, x14);                                                                     \
        ZQR(x3, x7, x11, x15);                                                                     \
        ZQR(x0, x5, x10, x15); /* diagonal round */                                                \
        ZQR(x1, x6, x11, x12);                                                                     \
        ZQR(x2, x7, x8, x13);                                                                      \
        ZQR(x3, x4, x9, x14);                                                                      \
    } while (0)

#define Z16_FEED()                                                                                 \
    do {                                                                                           \
        x0 = ZADD(x0, _mm512_set1_epi32(Z16_C0));                                                  \
        x1 = ZADD(x1, _mm512_set1_epi32(Z16_C1));                                                  \
        x2 = ZADD(x2, _mm512_set1_epi32(Z16_C2));                                                  \
        x3 = ZADD(x3, _mm512_set1_epi32(Z16_C3));                                                  \
        x4 = ZADD(x4, z16_k0);                                                                     \
        x5 = ZADD(x5, z16_k1);                                                                     \
        x6 = ZADD(x6, z16_k2);                                                                     \
        x7 = ZADD(x7, z16_k3);                                                                     \
        x8 = ZADD(x8, z16_k4);                                                                     \
        x9 = ZADD(x9, z16_k5);                                                                     \
        x10 = ZADD(x10, z16_k6);                                                                   \
        x11 = ZADD(x11, z16_k7);                                                                   \
        x12 = ZADD(x12, z16_ctr);                                                                  \
        x13 = ZADD(x13, z16_n0);                                                                   \
        x14 = ZADD(x14, z16_n1);                                                                   \
        x15 = ZADD(x15, z16_n2);                                                                   \
        Z_T4(x0, x1, x2, x3);                                                                      \
        Z_T4(x4, x5, x6, x7);                                                                      \
        Z_T4(x8, x9, x10, x11);                                                                    \
        Z_T4(x12, x13, x14, x15);                                                                  \
    } while (0)

/* Blocks j, j + 4, j + 8, j + 12 come from x(j), x(4 + j), x(8 + j),
 * x(12 + j) (z_out4). */
#define Z16_XOR(out, in)                                                                           \
    do {                                                                                           \
        z_out4((out) + 0 * 64, (in) + 0 * 64, x0, x4, x8, x12);                                    \
        z_out4((out) + 1 * 64, (in) + 1 * 64, x1, x5, x9, x13);                                    \
        z_out4((out) + 2 * 64, (in) + 2 * 64, x2, x6, x10, x14);                                   \
        z_out4((out) + 3 * 64, (in) + 3 * 64, x3, x7, x11, x15);                                   \
    } while (0)

#define Z16_STORE(ks)                                                                              \
    do {                                                                                           \
        z_ks4((ks) + 0 * 64, x0, x4, x8, x12);                                                     \
        z_ks4((ks) + 1 * 64, x1, x5, x9, x13);                                                     \
        z_ks4((ks) + 2 * 64, x2, x6, x10, x14);                                                    \
        z_ks4((ks) + 3 * 64, x3, x7, x11, x15);                                                    \
    } while (0)

#endif /* VG_AEAD_CHACHA20_Z16_H */
