/*
 * P-256 field multiplication with AVX-512 IFMA (VPMADD52LUQ/VPMADD52HUQ)
 * in radix 2^52, with the contract of fe256_adx.h's fe256_mul: four
 * little-endian 64-bit words, Montgomery form with R = 2^256, inputs in
 * [0, p), output in [0, p), any aliasing. Include only from files compiled
 * with -mavx512f -mavx512ifma, and call only when
 * vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512IFMA).
 *
 * Its speed is unmeasured (no timing was allowed when it was written). A
 * single multiplication pays for the conversions between 4 x 64 and 5 x 52
 * bits and for moving the reduction multiplier from a vector lane to a
 * scalar register and back, five times; IFMA is more likely to pay off with
 * several independent multiplications in the lanes (or the point formulas
 * kept in radix 2^52 throughout), which this kernel does not attempt.
 *
 * Method: a and b as five 52-bit limbs (a = sum a_j 2^(52 j), a_4 < 2^48),
 * one limb per lane of a zmm register (lanes 5 .. 7 zero). Montgomery in
 * radix 2^52 with R' = 2^260 (Gueron and Krasnov's "almost Montgomery"
 * lanes, not normalised between rounds): for i = 0 .. 4
 *     X += lo52(a b_i), Y += hi52(a b_i)   (lane j of Y has weight 2^52 more)
 *     m = X_0 mod 2^52                     (-p^-1 = 1 mod 2^52: p = -1 mod 2^96)
 *     X += lo52(p m),   Y += hi52(p m)     (now X_0 = 0 mod 2^52)
 *     X = (X >> one lane) + Y, plus X_0 >> 52 (the old lane 0's carry) in
 *       lane 0; Y = 0.
 * Lane bounds: a round adds to a lane at most four 52-bit halves and a carry
 * below 2^5, so after five rounds every lane stays below 5 (4 * 2^52 + 2^5)
 * < 2^57: no lane overflows 64 bits, and IFMA's operands (the limbs of a, p,
 * and b_i, m < 2^52) are all below 2^52 as it requires.
 * Then T = sum X_j 2^(52 j) = (a b + M p) / 2^260 exactly (M < 2^260),
 * T < a b / 2^260 + p < 2^252 + p, normalised to 64-bit words in scalar C;
 * a b 2^-256 = 16 T mod p: 16 T = q 2^256 + L with q < 32, and
 * 2^256 = c = 2^224 - 2^192 - 2^96 + 1 (mod p), so 16 T = L + q c (mod p),
 * L + q c < 2^256 + 2^229 < 2p, and one conditional subtraction (mask)
 * leaves [0, p). So the output is below p for any a, b < 2^256.
 *
 * Constant time: no branch or memory index on the data; the conditional
 * subtraction is a mask.
 */
#ifndef VG_NIST_X86_64_FE256_IFMA_H
#define VG_NIST_X86_64_FE256_IFMA_H

#include <immintrin.h>
#include <stdint.h>

#define FE256_IFMA_M52 0xfffffffffffffu

/* 4 x 64 -> 5 x 52 (limb 4 takes the top 48 bits) in lanes 0 .. 4. */
static inline __m512i fe256_ifma_to52(const uint64_t a[4])
{
    const uint64_t m = FE256_IFMA_M52;
    return _mm512_set_epi64(0, 0, 0, (long long)(a[3] >> 16),
                            (long long)(((a[2] >> 28) | (a[3] << 36)) & m),
                            (long long)(((a[1] >> 40) | (a[2] << 24)) & m),
                            (long long)(((a[0] >> 52) | (a[1] << 12)) & m), (long long)(a[0] & m));
}

/* Lane 0 as a scalar. */
static inline uint64_t fe256_ifma_lane0(__m512i x)
{
    return (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(x));
}

/* void fe256_ifma_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 * r = a b 2^-256 mod p. Contract: a, b in [0, p) (in fact any a, b < 2^256)
 * -> r in [0, p); any aliasing (r is written last). */
static inline void fe256_ifma_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    /* p in radix 2^52: limbs 2^52 - 1, 2^44 - 1, 0, 2^36, 2^48 - 2^16 */
    const __m512i P = _mm512_set_epi64(0, 0, 0, 0xffffffff0000, 0x1000000000, 0, 0xfffffffffff,
                                       0xfffffffffffff);
    const __m512i zero = _mm512_setzero_si512();
    const __m512i A = fe256_ifma_to52(a);
    uint64_t b52[5];
    b52[0] = b[0] & FE256_IFMA_M52;
    b52[1] = ((b[0] >> 52) | (b[1] << 12)) & FE256_IFMA_M52;
    b52[2] = ((b[1] >> 40) | (b[2] << 24)) & FE256_IFMA_M52;
    b52[3] = ((b[2] >> 28) | (b[3] << 36)) & FE256_IFMA_M52;
    b52[4] = b[3] >> 16;

    __m512i X = zero, Y = zero;
    for (int i = 0; i < 5; i++) {
        const __m512i bi = _mm512_set1_epi64((long long)b52[i]);
        X = _mm512_madd52lo_epu64(X, A, bi);
        Y = _mm512_madd52hi_epu64(Y, A, bi);
        const uint64_t m = fe256_ifma_lane0(X) & FE256_IFMA_M52; /* m = X_0 * 1 mod 2^52 */
        const __m512i mv = _mm512_set1_epi64((long long)m);
        X = _mm512_madd52lo_epu64(X, P, mv);
        Y = _mm512_madd52hi_epu64(Y, P, mv);
        /* X_0 = 0 mod 2^52 now; its carry X_0 >> 52 < 2^5 (X_0 < 2^57)
         * moves into the new lane 0 */
        const uint64_t c = fe256_ifma_lane0(X) >> 52;
        X = _mm512_alignr_epi64(zero, X, 1); /* lanes down by one: divide by 2^52 */
        X = _mm512_add_epi64(X, Y);
        X = _mm512_add_epi64(X, _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)c));
        Y = zero;
    }

    /* T = sum X_j 2^(52 j), each X_j < 2^57, into five 64-bit words. */
    uint64_t x[8];
    _mm512_storeu_si512((void *)x, X);
    uint64_t t[5] = {0, 0, 0, 0, 0};
    unsigned __int128 acc;
    /* bit offsets 0, 52, 104, 156, 208 = word 0 + 0, 0 + 52, 1 + 40, 2 + 28,
     * 3 + 16: add X_j << s at word q as a 128-bit value, carrying up. */
    static const int q[5] = {0, 0, 1, 2, 3}, s[5] = {0, 52, 40, 28, 16};
    for (int j = 0; j < 5; j++) {
        unsigned __int128 v = (unsigned __int128)x[j] << s[j]; /* < 2^121 */
        acc = (unsigned __int128)t[q[j]] + (uint64_t)v;
        t[q[j]] = (uint64_t)acc;
        acc = (acc >> 64) + (unsigned __int128)t[q[j] + 1] + (uint64_t)(v >> 64);
        t[q[j] + 1] = (uint64_t)acc;
        for (int k = q[j] + 2; k < 5; k++) { /* fixed trip count for each j */
            acc = (acc >> 64) + t[k];
            t[k] = (uint64_t)acc;
        }
    }
    /* T < 2^252 + p < 2^257: t[4] is 0 or 1. 16 T = q 2^256 + L, q < 32. */
    const uint64_t hi = (t[4] << 4) | (t[3] >> 60);
    uint64_t l[4] = {t[0] << 4, (t[1] << 4) | (t[0] >> 60), (t[2] << 4) | (t[1] >> 60),
                     (t[3] << 4) | (t[2] >> 60)};
    /* L + hi c, c = 2^256 mod p = (1, 0xffffffff00000000, 2^64 - 1, 0xfffffffe) */
    static const uint64_t cw[4] = {1, 0xffffffff00000000u, 0xffffffffffffffffu, 0xfffffffeu};
    acc = 0;
    for (int k = 0; k < 4; k++) {
        acc += (unsigned __int128)l[k] + (unsigned __int128)hi * cw[k];
        l[k] = (uint64_t)acc;
        acc >>= 64;
    }
    /* L + hi c < 2^256 + 2^229: the carry (acc) is 0 or 1. Subtract p; keep
     * the difference unless that borrows beyond the carry. */
    static const uint64_t pw[4] = {0xffffffffffffffffu, 0x00000000ffffffffu, 0,
                                   0xffffffff00000001u};
    const uint64_t top = (uint64_t)acc;
    uint64_t d[4], borrow = 0;
    for (int k = 0; k < 4; k++) {
        unsigned __int128 v = (unsigned __int128)l[k] - pw[k] - borrow;
        d[k] = (uint64_t)v;
        borrow = (uint64_t)(v >> 64) & 1;
    }
    /* top - borrow: -1 (all ones) iff L + hi c < p, then keep l */
    const uint64_t keep = 0 - (uint64_t)((top - borrow) >> 63);
    for (int k = 0; k < 4; k++)
        r[k] = (l[k] & keep) | (d[k] & ~keep);
}

/* void fe256_ifma_sqr(uint64_t r[4], const uint64_t a[4]): a^2 2^-256 mod p,
 * the multiplication with b = a (same contract). */
static inline void fe256_ifma_sqr(uint64_t r[4], const uint64_t a[4]) { fe256_ifma_mul(r, a, a); }

#endif
