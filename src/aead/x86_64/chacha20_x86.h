/*
 * ChaCha20 (RFC 8439 2.1-2.3) kernels on 128- and 256-bit vectors, written
 * once and included by chacha20_avx2.c (rotations by VPSHUFB and
 * shift-or) and chacha20_avx512.c (VPROLD on ymm/xmm with AVX-512VL).
 * The includer defines:
 *   CH_PFX            prefix of the static functions made here;
 *   CH_R256(x, n)     x rotated left by n (16, 12, 8 or 7), __m256i;
 *   CH_R128(x, n)     the same on __m128i.
 * Made here (unless the includer defines CH_NO_KERNELS, for the round
 * macros CH_QR, CH_DIAG, CH_UNDIAG and CH_DR alone):
 *   CH_PFX##_rows(out, in, nblocks, key, nonce, counter): any number of
 *     blocks, up to four at a time with the state rows as vectors (one
 *     block per 128-bit lane; the diagonal rounds turn rows b, c, d by
 *     VPSHUFD so that the diagonals become columns, RFC 8439 2.2), four
 *     blocks as two independent ymm sets, then two, then one (xmm);
 *   CH_PFX##_x8(out, in, key, nonce, counter): exactly 8 blocks, one ymm
 *     per state word and one 32-bit lane per block (2.3's 16 words, 8
 *     blocks at once), then a transpose back to blocks.
 * Both read a block of in before writing the same block of out, so out ==
 * in works, and touch exactly 64 bytes per block: no access outside in and
 * out. The callers (see aead.h: counter + nblocks - 1 <= 2^32 - 1) give
 * counters that never wrap within the blocks made.
 * Constant time: additions, XORs, rotations and fixed shuffles only.
 * Register spills (if any) of key-derived values stay in the stack frame;
 * C gives no way to wipe them.
 */
#include <immintrin.h>

#include "../aead.h"
#include "common.h"

#define CH_CAT2(a, b) a##b
#define CH_CAT(a, b) CH_CAT2(a, b)
#define CH_FN(name) CH_CAT(CH_PFX, name)

/* RFC 8439 2.3: "expand 32-byte k". */
#define CH_C0 0x61707865
#define CH_C1 0x3320646e
#define CH_C2 0x79622d32
#define CH_C3 0x6b206574

/* One quarter round (RFC 8439 2.1) on whole rows: the four columns (or,
 * after the lane rotations, the four diagonals) at once. */
#define CH_QR(R, a, b, c, d)                                                                       \
    do {                                                                                           \
        a = ADD(a, b);                                                                             \
        d = R(XOR(d, a), 16);                                                                      \
        c = ADD(c, d);                                                                             \
        b = R(XOR(b, c), 12);                                                                      \
        a = ADD(a, b);                                                                             \
        d = R(XOR(d, a), 8);                                                                       \
        c = ADD(c, d);                                                                             \
        b = R(XOR(b, c), 7);                                                                       \
    } while (0)

/* Rows: b turned by one lane, c by two, d by three puts x5, x10, x15 under
 * x0 (the diagonal round of 2.2), and back. */
#define CH_DIAG(SH, b, c, d)                                                                       \
    do {                                                                                           \
        b = SH(b, 0x39);                                                                           \
        c = SH(c, 0x4e);                                                                           \
        d = SH(d, 0x93);                                                                           \
    } while (0)
#define CH_UNDIAG(SH, b, c, d)                                                                     \
    do {                                                                                           \
        b = SH(b, 0x93);                                                                           \
        c = SH(c, 0x4e);                                                                           \
        d = SH(d, 0x39);                                                                           \
    } while (0)

/* One double round (2.2) of one row set: column round, diagonal round. */
#define CH_DR(R, SH, a, b, c, d)                                                                   \
    do {                                                                                           \
        CH_QR(R, a, b, c, d);                                                                      \
        CH_DIAG(SH, b, c, d);                                                                      \
        CH_QR(R, a, b, c, d);                                                                      \
        CH_UNDIAG(SH, b, c, d);                                                                    \
    } while (0)

/* CH_NO_KERNELS: only the round macros above (aead_avx512.c). */
#ifndef CH_NO_KERNELS

/* out = in XOR (the 64 bytes x0 || x1 || x2 || x3 of 128-bit rows). */
static inline void CH_FN(_xor128)(uint8_t *out, const uint8_t *in, __m128i a, __m128i b,
                                  __m128i c, __m128i d)
{
    const __m128i *ip = (const __m128i *)(const void *)in;
    __m128i *op = (__m128i *)(void *)out;
    __m128i i0 = _mm_loadu_si128(ip), i1 = _mm_loadu_si128(ip + 1),
            i2 = _mm_loadu_si128(ip + 2), i3 = _mm_loadu_si128(ip + 3);
    _mm_storeu_si128(op, _mm_xor_si128(i0, a));
    _mm_storeu_si128(op + 1, _mm_xor_si128(i1, b));
    _mm_storeu_si128(op + 2, _mm_xor_si128(i2, c));
    _mm_storeu_si128(op + 3, _mm_xor_si128(i3, d));
}

/* Two blocks from ymm rows (one block per 128-bit lane): the block of the
 * low lanes of a, b, c, d at out, that of the high lanes at out + stride
 * (64 for adjacent blocks; 256 in the 8-block transpose). */
static inline void CH_FN(_xor2)(uint8_t *out, const uint8_t *in, size_t stride, __m256i a,
                                __m256i b, __m256i c, __m256i d)
{
    __m256i lo0 = _mm256_permute2x128_si256(a, b, 0x20), lo1 = _mm256_permute2x128_si256(c, d, 0x20);
    __m256i hi0 = _mm256_permute2x128_si256(a, b, 0x31), hi1 = _mm256_permute2x128_si256(c, d, 0x31);
    const __m256i *ip = (const __m256i *)(const void *)in;
    const __m256i *jp = (const __m256i *)(const void *)(in + stride);
    __m256i i0 = _mm256_loadu_si256(ip), i1 = _mm256_loadu_si256(ip + 1),
            j0 = _mm256_loadu_si256(jp), j1 = _mm256_loadu_si256(jp + 1);
    __m256i *op = (__m256i *)(void *)out, *qp = (__m256i *)(void *)(out + stride);
    _mm256_storeu_si256(op, _mm256_xor_si256(i0, lo0));
    _mm256_storeu_si256(op + 1, _mm256_xor_si256(i1, lo1));
    _mm256_storeu_si256(qp, _mm256_xor_si256(j0, hi0));
    _mm256_storeu_si256(qp + 1, _mm256_xor_si256(j1, hi1));
}

/* Long (about 90 lines): the four-, two- and one-block cases share their
 * setup, and splitting them would pass eight vectors around. */
static void CH_FN(_rows)(uint8_t *out, const uint8_t *in, size_t nblocks, const uint32_t key[8],
                         const uint32_t nonce[3], uint32_t counter)
{
    const __m128i ra = _mm_set_epi32(CH_C3, CH_C2, CH_C1, CH_C0);
    const __m128i rb = _mm_loadu_si128((const __m128i *)(const void *)key);
    const __m128i rc = _mm_loadu_si128((const __m128i *)(const void *)(key + 4));
    const __m256i ya = _mm256_broadcastsi128_si256(ra), yb = _mm256_broadcastsi128_si256(rb),
                  yc = _mm256_broadcastsi128_si256(rc);
    const __m256i two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);

#define ADD _mm256_add_epi32
#define XOR _mm256_xor_si256
    /* Row d of blocks counter and counter + 1. */
    __m256i yd = _mm256_add_epi32(
        _mm256_broadcastsi128_si256(_mm_set_epi32((int)nonce[2], (int)nonce[1], (int)nonce[0],
                                                  (int)counter)),
        _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
    while (nblocks >= 4) {
        __m256i a0 = ya, b0 = yb, c0 = yc, d0 = yd;
        __m256i e = _mm256_add_epi32(yd, two);
        __m256i a1 = ya, b1 = yb, c1 = yc, d1 = e;
        for (int i = 0; i < 10; i++) {
            CH_QR(CH_R256, a0, b0, c0, d0);
            CH_QR(CH_R256, a1, b1, c1, d1);
            CH_DIAG(_mm256_shuffle_epi32, b0, c0, d0);
            CH_DIAG(_mm256_shuffle_epi32, b1, c1, d1);
            CH_QR(CH_R256, a0, b0, c0, d0);
            CH_QR(CH_R256, a1, b1, c1, d1);
            CH_UNDIAG(_mm256_shuffle_epi32, b0, c0, d0);
            CH_UNDIAG(_mm256_shuffle_epi32, b1, c1, d1);
        }
        CH_FN(_xor2)(out, in, 64, ADD(a0, ya), ADD(b0, yb), ADD(c0, yc), ADD(d0, yd));
        CH_FN(_xor2)(out + 128, in + 128, 64, ADD(a1, ya), ADD(b1, yb), ADD(c1, yc), ADD(d1, e));
        /* The increment after the last blocks may wrap; it is then unused. */
        yd = _mm256_add_epi32(e, two);
        in += 256;
        out += 256;
        nblocks -= 4;
    }
    if (nblocks >= 2) {
        __m256i a = ya, b = yb, c = yc, d = yd;
        for (int i = 0; i < 10; i++)
            CH_DR(CH_R256, _mm256_shuffle_epi32, a, b, c, d);
        CH_FN(_xor2)(out, in, 64, ADD(a, ya), ADD(b, yb), ADD(c, yc), ADD(d, yd));
        yd = _mm256_add_epi32(yd, two);
        in += 128;
        out += 128;
        nblocks -= 2;
    }
#undef ADD
#undef XOR
    if (nblocks) {
#define ADD _mm_add_epi32
#define XOR _mm_xor_si128
        /* One block: the low lane of yd is its row d. */
        const __m128i rd = _mm256_castsi256_si128(yd);
        __m128i a = ra, b = rb, c = rc, d = rd;
        for (int i = 0; i < 10; i++)
            CH_DR(CH_R128, _mm_shuffle_epi32, a, b, c, d);
        CH_FN(_xor128)(out, in, ADD(a, ra), ADD(b, rb), ADD(c, rc), ADD(d, rd));
#undef ADD
#undef XOR
    }
}

/* 4x4 transpose of 32-bit words within each 128-bit lane: rows x0..x3
 * (word w of blocks 0..3, and 4..7 in the high lane) become block rows. */
#define CH_T4(x0, x1, x2, x3)                                                                      \
    do {                                                                                           \
        __m256i t0_ = _mm256_unpacklo_epi32(x0, x1), t1_ = _mm256_unpackhi_epi32(x0, x1);         \
        __m256i t2_ = _mm256_unpacklo_epi32(x2, x3), t3_ = _mm256_unpackhi_epi32(x2, x3);         \
        x0 = _mm256_unpacklo_epi64(t0_, t2_);                                                      \
        x1 = _mm256_unpackhi_epi64(t0_, t2_);                                                      \
        x2 = _mm256_unpacklo_epi64(t1_, t3_);                                                      \
        x3 = _mm256_unpackhi_epi64(t1_, t3_);                                                      \
    } while (0)

/* Long (about 70 lines): the 16 state words are 16 named registers; a loop
 * over an array would let the compiler keep them in memory. */
static void CH_FN(_x8)(uint8_t *out, const uint8_t *in, const uint32_t key[8],
                       const uint32_t nonce[3], uint32_t counter)
{
#define ADD _mm256_add_epi32
#define XOR _mm256_xor_si256
#define CH_COL(a, b, c, d) CH_QR(CH_R256, a, b, c, d)
    const __m256i k0 = _mm256_set1_epi32((int)key[0]), k1 = _mm256_set1_epi32((int)key[1]),
                  k2 = _mm256_set1_epi32((int)key[2]), k3 = _mm256_set1_epi32((int)key[3]),
                  k4 = _mm256_set1_epi32((int)key[4]), k5 = _mm256_set1_epi32((int)key[5]),
                  k6 = _mm256_set1_epi32((int)key[6]), k7 = _mm256_set1_epi32((int)key[7]);
    const __m256i ctr = _mm256_add_epi32(_mm256_set1_epi32((int)counter),
                                         _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0));
    const __m256i n0 = _mm256_set1_epi32((int)nonce[0]), n1 = _mm256_set1_epi32((int)nonce[1]),
                  n2 = _mm256_set1_epi32((int)nonce[2]);
    __m256i x0 = _mm256_set1_epi32(CH_C0), x1 = _mm256_set1_epi32(CH_C1),
            x2 = _mm256_set1_epi32(CH_C2), x3 = _mm256_set1_epi32(CH_C3);
    __m256i x4 = k0, x5 = k1, x6 = k2, x7 = k3, x8 = k4, x9 = k5, x10 = k6, x11 = k7;
    __m256i x12 = ctr, x13 = n0, x14 = n1, x15 = n2;
    for (int i = 0; i < 10; i++) {
        CH_COL(x0, x4, x8, x12); /* column round */
        CH_COL(x1, x5, x9, x13);
        CH_COL(x2, x6, x10, x14);
        CH_COL(x3, x7, x11, x15);
        CH_COL(x0, x5, x10, x15); /* diagonal round */
        CH_COL(x1, x6, x11, x12);
        CH_COL(x2, x7, x8, x13);
        CH_COL(x3, x4, x9, x14);
    }
    x0 = ADD(x0, _mm256_set1_epi32(CH_C0));
    x1 = ADD(x1, _mm256_set1_epi32(CH_C1));
    x2 = ADD(x2, _mm256_set1_epi32(CH_C2));
    x3 = ADD(x3, _mm256_set1_epi32(CH_C3));
    x4 = ADD(x4, k0);
    x5 = ADD(x5, k1);
    x6 = ADD(x6, k2);
    x7 = ADD(x7, k3);
    x8 = ADD(x8, k4);
    x9 = ADD(x9, k5);
    x10 = ADD(x10, k6);
    x11 = ADD(x11, k7);
    x12 = ADD(x12, ctr);
    x13 = ADD(x13, n0);
    x14 = ADD(x14, n1);
    x15 = ADD(x15, n2);
    /* After CH_T4 on each group of four words, xg+j holds words 4g..4g+3
     * of block j (low lane) and block j + 4 (high lane). */
    CH_T4(x0, x1, x2, x3);
    CH_T4(x4, x5, x6, x7);
    CH_T4(x8, x9, x10, x11);
    CH_T4(x12, x13, x14, x15);
    CH_FN(_xor2)(out + 0 * 64, in + 0 * 64, 256, x0, x4, x8, x12); /* blocks 0 and 4 */
    CH_FN(_xor2)(out + 1 * 64, in + 1 * 64, 256, x1, x5, x9, x13); /* blocks 1 and 5 */
    CH_FN(_xor2)(out + 2 * 64, in + 2 * 64, 256, x2, x6, x10, x14);
    CH_FN(_xor2)(out + 3 * 64, in + 3 * 64, 256, x3, x7, x11, x15);
#undef CH_COL
#undef ADD
#undef XOR
}

#endif /* CH_NO_KERNELS */
