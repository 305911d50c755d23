/*
 * Portable field kernels mod p256 (FIPS 186-5 / SP 800-186 section 3.2.1:
 * P-256), for the point formulas of src/nist/curve.c. Elements are
 * uint64_t[4], little-endian limbs, in Montgomery form (R = 2^256), always
 * fully reduced in [0, p). r may alias a or b. Constant time: no branch and
 * no memory index depends on the values.
 *
 * The same names and contract as the BMI2/ADX kernels
 * (src/nist/x86_64/fe256_adx.h); curve.c includes one of the two.
 *
 * Multiplication and squaring: product scanning (one column of the product
 * at a time into the accumulator of mont_portable.h) with the Montgomery
 * reduction folded into the columns, using the shape of
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1:
 *   - p = -1 mod 2^64, so -p^-1 mod 2^64 = 1 and the multiplier m_k of
 *     column k is the column's low word itself;
 *   - m p = m (p + 1) - m with p + 1 = 2^96 + P3 2^192, P3 = p's top limb
 *     0xffffffff00000001: the -m cancels the low word of column k exactly
 *     (so the shift just drops it), m 2^96 = (m << 32, m >> 32) lands in
 *     column k + 1 as two shifts, and m P3 in column k + 3, one multiply.
 * The 64 x 64 -> 128-bit products are unsigned __int128 where the compiler
 * has it, else 32 x 32 -> 64-bit products (VG_NIST_NO_INT128; both paths
 * run in test_nist_fe).
 */
#ifndef VG_NIST_FE256_PORTABLE_H
#define VG_NIST_FE256_PORTABLE_H

#include "mont_portable.h"

#define VG_FE256_P0 0xffffffffffffffffull
#define VG_FE256_P1 0x00000000ffffffffull
#define VG_FE256_P3 0xffffffff00000001ull

/* r = t - p if t >= p else t, for t = t4 2^256 + (t3 .. t0) < 2 p. */
static inline void fe256_reduce_once(uint64_t r[4], uint64_t t0, uint64_t t1, uint64_t t2,
                                     uint64_t t3, uint64_t t4)
{
    uint64_t s0, s1, s2, s3, b;
    b = vg_mont_sbb(&s0, t0, VG_FE256_P0, 0);
    b = vg_mont_sbb(&s1, t1, VG_FE256_P1, b);
    b = vg_mont_sbb(&s2, t2, 0, b);
    b = vg_mont_sbb(&s3, t3, VG_FE256_P3, b);
    /* t < 2 p < 2^257, so t4 is 0 or 1, and t4 = 1 means t >= 2^256 > p
     * with t mod 2^256 < p: the four-limb subtraction then borrows (b = 1).
     * So t4 - b is all-ones exactly when t < p (t4 = 0, b = 1), else 0:
     * keep t then. */
    uint64_t keep = vg_barrier_u64(t4 - b);
    r[0] = s0 ^ (keep & (s0 ^ t0));
    r[1] = s1 ^ (keep & (s1 ^ t1));
    r[2] = s2 ^ (keep & (s2 ^ t2));
    r[3] = s3 ^ (keep & (s3 ^ t3));
}

/* Column k + 1's share of m_k p: m_k 2^96 (the m_k P3 2^192 part is added
 * three columns on by the callers). */
#define VG_FE256_M96(s, m) vg_acc_add2(s, (m) << 32, (m) >> 32)

/* Columns 3 .. 7 of the Montgomery product, common to mul and sqr: the
 * caller has summed column 3's products into s and keeps m0 .. m2; this
 * adds the reduction terms, finishes the columns of the product that
 * follow (PROD4, PROD5, PROD6: statements adding the products of columns
 * 4, 5, 6) and the final subtraction.
 * Bound: the result (a b + M p) / 2^256 with M < 2^256, a b < p^2 is
 * < (p^2 + 2^256 p) / 2^256 < 2 p, so the last column leaves 0 or 1 above
 * the four limbs, which fe256_reduce_once takes. */
#define VG_FE256_TAIL(s, PROD4, PROD5, PROD6)                                                  \
    do {                                                                                     \
        uint64_t m3, r0, r1, r2, r3;                                                          \
        VG_FE256_M96(s, m2);                                                                  \
        vg_acc_mac(s, m0, VG_FE256_P3);                                                       \
        m3 = vg_acc_shift(s);                                                                 \
        PROD4;                                                                                \
        VG_FE256_M96(s, m3);                                                                  \
        vg_acc_mac(s, m1, VG_FE256_P3);                                                       \
        r0 = vg_acc_shift(s);                                                                 \
        PROD5;                                                                                \
        vg_acc_mac(s, m2, VG_FE256_P3);                                                       \
        r1 = vg_acc_shift(s);                                                                 \
        PROD6;                                                                                \
        vg_acc_mac(s, m3, VG_FE256_P3);                                                       \
        r2 = vg_acc_shift(s);                                                                 \
        r3 = vg_acc_shift(s);                                                                 \
        fe256_reduce_once(r, r0, r1, r2, r3, vg_acc_lo(s));                                   \
    } while (0)

/* r = a b / 2^256 mod p */
static inline void fe256_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    const uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    const uint64_t b0 = b[0], b1 = b[1], b2 = b[2], b3 = b[3];
    vg_acc acc = VG_ACC_INIT, *s = &acc;
    uint64_t m0, m1, m2;
    /* Column k: the products a_i b_j with i + j = k, then m_(k-1) 2^96
     * and m_(k-3) P3 (k >= 3); for k < 4 the low word is m_k. */
    vg_acc_mac(s, a0, b0);
    m0 = vg_acc_shift(s);
    vg_acc_mac(s, a0, b1);
    vg_acc_mac(s, a1, b0);
    VG_FE256_M96(s, m0);
    m1 = vg_acc_shift(s);
    vg_acc_mac(s, a0, b2);
    vg_acc_mac(s, a1, b1);
    vg_acc_mac(s, a2, b0);
    VG_FE256_M96(s, m1);
    m2 = vg_acc_shift(s);
    vg_acc_mac(s, a0, b3);
    vg_acc_mac(s, a1, b2);
    vg_acc_mac(s, a2, b1);
    vg_acc_mac(s, a3, b0);
    VG_FE256_TAIL(s,
                  (vg_acc_mac(s, a1, b3), vg_acc_mac(s, a2, b2), vg_acc_mac(s, a3, b1)),
                  (vg_acc_mac(s, a2, b3), vg_acc_mac(s, a3, b2)),
                  vg_acc_mac(s, a3, b3));
}

/* r = a^2 / 2^256 mod p: as fe256_mul, each product a_i a_j (i != j)
 * computed once and added twice. */
static inline void fe256_sqr(uint64_t r[4], const uint64_t a[4])
{
    const uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    vg_acc acc = VG_ACC_INIT, *s = &acc;
    uint64_t m0, m1, m2;
    vg_acc_mac(s, a0, a0);
    m0 = vg_acc_shift(s);
    vg_acc_mac2(s, a0, a1);
    VG_FE256_M96(s, m0);
    m1 = vg_acc_shift(s);
    vg_acc_mac2(s, a0, a2);
    vg_acc_mac(s, a1, a1);
    VG_FE256_M96(s, m1);
    m2 = vg_acc_shift(s);
    vg_acc_mac2(s, a0, a3);
    vg_acc_mac2(s, a1, a2);
    VG_FE256_TAIL(s, (vg_acc_mac2(s, a1, a3), vg_acc_mac(s, a2, a2)), vg_acc_mac2(s, a2, a3),
                  vg_acc_mac(s, a3, a3));
}

#if defined(VG_MONT_INT128) && !defined(VG_MONT_ADDC)
/* gcc: add and subtract in two unsigned __int128 halves, which gcc turns
 * into ADD / ADC pairs, with the carry between the halves folded into the
 * other operand's high half (it cannot overflow: every operand is < p, so
 * a high half is at most floor(p / 2^128) < 2^128 - 1, and so is p's).
 * The 64-bit limb chains of vg_mont_adc / vg_mont_sbb cost gcc three or
 * four instructions a limb, and measured slower (docs/benchmarks.md). Every 0 / 1
 * carry passes a value barrier: without it gcc 12 widened a carry to
 * __int128 by a branch. */
typedef unsigned __int128 vg_fe256_u128;
#define VG_FE256_W(lo, hi) (((vg_fe256_u128)(hi) << 64) | (lo))

/* r = a + b mod p */
static inline void fe256_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    const vg_fe256_u128 a0 = VG_FE256_W(a[0], a[1]), a1 = VG_FE256_W(a[2], a[3]);
    const vg_fe256_u128 b0 = VG_FE256_W(b[0], b[1]), b1 = VG_FE256_W(b[2], b[3]);
    const vg_fe256_u128 p0 = VG_FE256_W(VG_FE256_P0, VG_FE256_P1), p1 = VG_FE256_W(0, VG_FE256_P3);
    /* t = a + b < 2 p: c1 is its bit 256 */
    vg_fe256_u128 t0 = a0 + b0;
    uint64_t c0 = vg_barrier_u64((uint64_t)(t0 < b0));
    vg_fe256_u128 u1 = b1 + c0; /* b1 < 2^128 - 1 */
    vg_fe256_u128 t1 = a1 + u1;
    uint64_t c1 = (uint64_t)(t1 < u1);
    /* s = t - p mod 2^256, d1 its borrow */
    vg_fe256_u128 s0 = t0 - p0;
    uint64_t d0 = vg_barrier_u64((uint64_t)(t0 < p0));
    vg_fe256_u128 q1 = p1 + d0; /* p1 < 2^128 - 1 */
    vg_fe256_u128 s1 = t1 - q1;
    uint64_t d1 = (uint64_t)(t1 < q1);
    /* As fe256_reduce_once: c1 - d1 is all-ones exactly when t < p. */
    uint64_t keep = vg_barrier_u64(c1 - d1);
    uint64_t w0 = (uint64_t)s0, w1 = (uint64_t)(s0 >> 64), w2 = (uint64_t)s1,
             w3 = (uint64_t)(s1 >> 64);
    r[0] = w0 ^ (keep & (w0 ^ (uint64_t)t0));
    r[1] = w1 ^ (keep & (w1 ^ (uint64_t)(t0 >> 64)));
    r[2] = w2 ^ (keep & (w2 ^ (uint64_t)t1));
    r[3] = w3 ^ (keep & (w3 ^ (uint64_t)(t1 >> 64)));
}

/* r = a - b mod p */
static inline void fe256_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    const vg_fe256_u128 a0 = VG_FE256_W(a[0], a[1]), a1 = VG_FE256_W(a[2], a[3]);
    const vg_fe256_u128 b0 = VG_FE256_W(b[0], b[1]), b1 = VG_FE256_W(b[2], b[3]);
    vg_fe256_u128 t0 = a0 - b0;
    uint64_t d0 = vg_barrier_u64((uint64_t)(a0 < b0));
    vg_fe256_u128 u1 = b1 + d0; /* b1 < 2^128 - 1 */
    vg_fe256_u128 t1 = a1 - u1;
    /* a - b in (-p, p): add p back exactly when it borrowed (the carry out
     * of that addition, dropped, is the 2^256 the borrow took). */
    uint64_t m = vg_barrier_u64(0 - (uint64_t)(a1 < u1));
    const vg_fe256_u128 m0 = VG_FE256_W(m, m & VG_FE256_P1), m1 = VG_FE256_W(0, m & VG_FE256_P3);
    vg_fe256_u128 s0 = t0 + m0;
    uint64_t c = vg_barrier_u64((uint64_t)(s0 < m0));
    vg_fe256_u128 s1 = t1 + m1 + c;
    r[0] = (uint64_t)s0;
    r[1] = (uint64_t)(s0 >> 64);
    r[2] = (uint64_t)s1;
    r[3] = (uint64_t)(s1 >> 64);
}
#else
/* r = a + b mod p */
static inline void fe256_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, c;
    c = vg_mont_adc(&t0, a[0], b[0], 0);
    c = vg_mont_adc(&t1, a[1], b[1], c);
    c = vg_mont_adc(&t2, a[2], b[2], c);
    c = vg_mont_adc(&t3, a[3], b[3], c);
    /* a + b < 2 p */
    fe256_reduce_once(r, t0, t1, t2, t3, c);
}

/* r = a - b mod p */
static inline void fe256_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, m, c;
    m = vg_mont_sbb(&t0, a[0], b[0], 0);
    m = vg_mont_sbb(&t1, a[1], b[1], m);
    m = vg_mont_sbb(&t2, a[2], b[2], m);
    m = vg_mont_sbb(&t3, a[3], b[3], m);
    /* a - b in (-p, p): add p back exactly when it borrowed (the carry out
     * of that addition is the 2^256 the borrow took). */
    m = vg_barrier_u64(0 - m);
    c = vg_mont_adc(&r[0], t0, m, 0);
    c = vg_mont_adc(&r[1], t1, m & VG_FE256_P1, c);
    c = vg_mont_adc(&r[2], t2, 0, c);
    (void)vg_mont_adc(&r[3], t3, m & VG_FE256_P3, c);
}

#endif

/* r = -a mod p (0 for a = 0) */
static inline void fe256_neg(uint64_t r[4], const uint64_t a[4])
{
    static const uint64_t zero[4] = {0};
    fe256_sub(r, zero, a);
}

#endif
