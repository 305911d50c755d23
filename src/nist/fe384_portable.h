/*
 * Portable field kernels mod p384 (FIPS 186-5 / SP 800-186 section 3.2.1:
 * P-384), for the point formulas of src/nist/curve.c. Elements are
 * uint64_t[6], little-endian limbs, in Montgomery form (R = 2^384), always
 * fully reduced in [0, p). r may alias a or b. Constant time.
 *
 * The same names and contract as the BMI2/ADX kernels
 * (src/nist/x86_64/fe384_adx.h); curve.c includes one of the two.
 * Multiplication and squaring: product scanning with the Montgomery
 * reduction folded into the columns and p's limbs near 2^64 turned into
 * additions (fe384_mont below); p's low limb makes m0inv =
 * 0x0000000100000001ull. Addition
 * and subtraction: one carry chain and a masked select on named limbs
 * (the array loops of vg_mont_add had gcc build the select in vector
 * registers through the stack).
 */
#ifndef VG_NIST_FE384_PORTABLE_H
#define VG_NIST_FE384_PORTABLE_H

#include "mont_portable.h"

#define VG_FE384_P0 0x00000000ffffffffull
#define VG_FE384_P1 0xffffffff00000000ull
#define VG_FE384_P2 0xfffffffffffffffeull

static const uint64_t vg_fe384_portable_p[6] = {
    0x00000000ffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull, 0xffffffffffffffffull,
    0xffffffffffffffffull, 0xffffffffffffffffull};

/* Montgomery product a b / 2^384 mod p (sq: a = b, each a_i a_j with
 * i != j multiplied once and added twice), by product scanning with the
 * reduction folded into the columns as in vg_mont_mul_ps, but with p's
 * limbs written as 2^64 - f_j: p1 = 2^64 - 2^32, p2 = 2^64 - 2,
 * p3 = p4 = p5 = 2^64 - 1. Column k's reduction terms are then
 *   q_k p0 + q_(k-1) p1 + (sum over j = 2..5 of q_(k-j)) (2^64 - 1) - q_(k-2)
 * (indices of q in 0..5): with U = the sum of those four (at most four
 * words, < 2^66), U 2^64 goes into the accumulator and U + q_(k-2) comes
 * out, in that order, so it never goes below zero (their difference is the
 * non-negative sum of the products q_(k-j) p_j). That is two accumulator
 * operations where the generic code has four multiply-adds.
 * q_k = (column k's low word) m0inv with m0inv = -p^-1 mod 2^64
 * = 2^32 + 1, and q_k p0 then cancels that word.
 * Bound: as vg_mont_mul_ps, the result is < 2 p, so the accumulator holds
 * 0 or 1 above the six limbs at the end; fe384_reduce_once takes it. */
static inline void fe384_reduce_once(uint64_t r[6], const uint64_t t[6], uint64_t t6);

#if !defined(VG_MONT_ADDC) /* clang with its carry builtins: vg_mont_mul_ps (below) */
/* Out of line (about 700 instructions): gcc 12 inlined copies of it into
 * the divsteps inversion and some formulas, which measured slower (the
 * figures are in docs/benchmarks.md). */
#if defined(__GNUC__)
#define VG_FE384_NOINLINE __attribute__((noinline))
#else
#define VG_FE384_NOINLINE
#endif
static VG_FE384_NOINLINE void fe384_mont(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                                         int sq)
{
    uint64_t x[6], y[6], q[6], t[6];
    vg_acc acc = VG_ACC_INIT, *s = &acc;
    VG_MONT_UNROLL
    for (int i = 0; i < 6; i++) {
        x[i] = a[i];
        y[i] = b[i];
    }
    VG_MONT_UNROLL
    for (int k = 0; k < 11; k++) {
        int lo = k < 6 ? 0 : k - 5, hi = k < 6 ? k : 5;
        if (sq) {
            VG_MONT_UNROLL
            for (int i = lo; 2 * i < k; i++)
                vg_acc_mac2(s, x[i], x[k - i]);
            if (k % 2 == 0)
                vg_acc_mac(s, x[k / 2], x[k / 2]);
        } else {
            VG_MONT_UNROLL
            for (int i = lo; i <= hi; i++)
                vg_acc_mac(s, x[i], y[k - i]);
        }
        if (k >= 1 && k <= 6)
            vg_acc_mac(s, q[k - 1], VG_FE384_P1);
        if (k >= 2) {
            /* U = q_(k-5) + .. + q_(k-2) (those in 0..5), and U + q_(k-2) */
            uint64_t u = 0, uh = 0, w, wh;
            VG_MONT_UNROLL
            for (int j = 2; j <= 5; j++)
                if (k - j >= 0 && k - j <= 5)
                    vg_mont_dw_add(&u, &uh, q[k - j]);
            w = u;
            wh = uh;
            if (k - 2 <= 5)
                vg_mont_dw_add(&w, &wh, q[k - 2]);
            vg_acc_add_up(s, u, uh);
            vg_acc_sub2(s, w, wh);
        }
        if (k < 6) {
            q[k] = vg_acc_lo(s) * 0x0000000100000001ull;
            vg_acc_mac(s, q[k], VG_FE384_P0);
            (void)vg_acc_shift(s); /* the low word is 0 now */
        } else {
            t[k - 6] = vg_acc_shift(s);
        }
    }
    t[5] = vg_acc_shift(s);
    fe384_reduce_once(r, t, vg_acc_lo(s));
}
#endif

/* r = a b / 2^384 mod p. With clang's carry builtins (VG_MONT_ADDC) the
 * generic product scanning of mont_portable.h measured faster than
 * fe384_mont (docs/benchmarks.md), so clang builds take that. */
static inline void fe384_mul(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
#if defined(VG_MONT_ADDC)
    vg_mont_mul_ps(r, a, b, vg_fe384_portable_p, 0x0000000100000001ull, 6);
#else
    fe384_mont(r, a, b, 0);
#endif
}

/* r = a^2 / 2^384 mod p */
static inline void fe384_sqr(uint64_t r[6], const uint64_t a[6])
{
#if defined(VG_MONT_ADDC)
    vg_mont_sqr_ps(r, a, vg_fe384_portable_p, 0x0000000100000001ull, 6);
#else
    fe384_mont(r, a, a, 1);
#endif
}

/* r = t - p if t >= p else t, for t = t6 2^384 + (t5 .. t0) < 2 p. */
static inline void fe384_reduce_once(uint64_t r[6], const uint64_t t[6], uint64_t t6)
{
    uint64_t s0, s1, s2, s3, s4, s5, b;
    b = vg_mont_sbb(&s0, t[0], VG_FE384_P0, 0);
    b = vg_mont_sbb(&s1, t[1], VG_FE384_P1, b);
    b = vg_mont_sbb(&s2, t[2], VG_FE384_P2, b);
    b = vg_mont_sbb(&s3, t[3], ~0ull, b);
    b = vg_mont_sbb(&s4, t[4], ~0ull, b);
    b = vg_mont_sbb(&s5, t[5], ~0ull, b);
    /* As fe256_reduce_once: t < 2 p makes t6 0 or 1, and t6 = 1 forces the
     * borrow, so t6 - b is all-ones exactly when t < p, else 0. */
    uint64_t keep = vg_barrier_u64(t6 - b);
    r[0] = s0 ^ (keep & (s0 ^ t[0]));
    r[1] = s1 ^ (keep & (s1 ^ t[1]));
    r[2] = s2 ^ (keep & (s2 ^ t[2]));
    r[3] = s3 ^ (keep & (s3 ^ t[3]));
    r[4] = s4 ^ (keep & (s4 ^ t[4]));
    r[5] = s5 ^ (keep & (s5 ^ t[5]));
}

#if defined(VG_MONT_INT128) && !defined(VG_MONT_ADDC)
/* gcc: add and subtract in three unsigned __int128 pieces (ADD / ADC
 * pairs, as fe256_add). A carry c (0 or 1) into a piece x + y is folded
 * into y only where y < 2^128 - 1 is known (p's middle piece); elsewhere
 * it is added after x + y, and that second addition wraps exactly when
 * its high word drops below x + y's (x + y = 2^128 - 1, c = 1; it cannot
 * wrap when x + y did). Likewise for borrows. Every 0 / 1 carry passes a
 * value barrier (see fe256_add). */
typedef unsigned __int128 vg_fe384_u128;
#define VG_FE384_W(lo, hi) (((vg_fe384_u128)(hi) << 64) | (lo))
#define VG_FE384_HI(x) ((uint64_t)((x) >> 64))

/* r = a + b mod p */
static inline void fe384_add(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    const vg_fe384_u128 a0 = VG_FE384_W(a[0], a[1]), a1 = VG_FE384_W(a[2], a[3]),
                        a2 = VG_FE384_W(a[4], a[5]);
    const vg_fe384_u128 b0 = VG_FE384_W(b[0], b[1]), b1 = VG_FE384_W(b[2], b[3]),
                        b2 = VG_FE384_W(b[4], b[5]);
    const vg_fe384_u128 p0 = VG_FE384_W(VG_FE384_P0, VG_FE384_P1),
                        p1 = VG_FE384_W(VG_FE384_P2, ~0ull), p2 = VG_FE384_W(~0ull, ~0ull);
    /* t = a + b < 2 p, c2 its bit 384 */
    vg_fe384_u128 t0 = a0 + b0;
    uint64_t c0 = vg_barrier_u64((uint64_t)(t0 < b0));
    vg_fe384_u128 x1 = a1 + b1, t1 = x1 + c0;
    uint64_t c1 = vg_barrier_u64((uint64_t)(x1 < b1) +
                                 (uint64_t)(VG_FE384_HI(t1) < VG_FE384_HI(x1)));
    vg_fe384_u128 x2 = a2 + b2, t2 = x2 + c1;
    uint64_t c2 = (uint64_t)(x2 < b2) + (uint64_t)(VG_FE384_HI(t2) < VG_FE384_HI(x2));
    /* s = t - p mod 2^384, d2 its borrow */
    vg_fe384_u128 s0 = t0 - p0;
    uint64_t d0 = vg_barrier_u64((uint64_t)(t0 < p0));
    vg_fe384_u128 q1 = p1 + d0; /* p1 < 2^128 - 1 */
    vg_fe384_u128 s1 = t1 - q1;
    uint64_t d1 = vg_barrier_u64((uint64_t)(t1 < q1));
    vg_fe384_u128 y2 = t2 - p2, s2 = y2 - d1;
    uint64_t d2 = (uint64_t)(t2 < p2) + (uint64_t)(VG_FE384_HI(s2) > VG_FE384_HI(y2));
    /* As fe384_reduce_once: c2 - d2 is all-ones exactly when t < p. */
    uint64_t keep = vg_barrier_u64(c2 - d2);
    uint64_t w[6] = {(uint64_t)s0, VG_FE384_HI(s0), (uint64_t)s1, VG_FE384_HI(s1), (uint64_t)s2,
                     VG_FE384_HI(s2)};
    uint64_t v[6] = {(uint64_t)t0, VG_FE384_HI(t0), (uint64_t)t1, VG_FE384_HI(t1), (uint64_t)t2,
                     VG_FE384_HI(t2)};
    r[0] = w[0] ^ (keep & (w[0] ^ v[0]));
    r[1] = w[1] ^ (keep & (w[1] ^ v[1]));
    r[2] = w[2] ^ (keep & (w[2] ^ v[2]));
    r[3] = w[3] ^ (keep & (w[3] ^ v[3]));
    r[4] = w[4] ^ (keep & (w[4] ^ v[4]));
    r[5] = w[5] ^ (keep & (w[5] ^ v[5]));
}

/* r = a - b mod p */
static inline void fe384_sub(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    const vg_fe384_u128 a0 = VG_FE384_W(a[0], a[1]), a1 = VG_FE384_W(a[2], a[3]),
                        a2 = VG_FE384_W(a[4], a[5]);
    const vg_fe384_u128 b0 = VG_FE384_W(b[0], b[1]), b1 = VG_FE384_W(b[2], b[3]),
                        b2 = VG_FE384_W(b[4], b[5]);
    vg_fe384_u128 t0 = a0 - b0;
    uint64_t d0 = vg_barrier_u64((uint64_t)(a0 < b0));
    vg_fe384_u128 x1 = a1 - b1, t1 = x1 - d0;
    uint64_t d1 = vg_barrier_u64((uint64_t)(a1 < b1) +
                                 (uint64_t)(VG_FE384_HI(t1) > VG_FE384_HI(x1)));
    vg_fe384_u128 x2 = a2 - b2, t2 = x2 - d1;
    uint64_t d2 = (uint64_t)(a2 < b2) + (uint64_t)(VG_FE384_HI(t2) > VG_FE384_HI(x2));
    /* a - b in (-p, p): add p back exactly when it borrowed (the carry out
     * of that addition, dropped, is the 2^384 the borrow took). */
    uint64_t m = vg_barrier_u64(0 - d2);
    /* mh: a copy of m the compiler cannot see is m (it built (m, m) as
     * m (2^64 + 1) with a multiplication otherwise) */
    uint64_t mh = vg_barrier_u64(m);
    const vg_fe384_u128 m0 = VG_FE384_W(m & VG_FE384_P0, m & VG_FE384_P1),
                        m1 = VG_FE384_W(m & VG_FE384_P2, mh), m2 = VG_FE384_W(m, mh);
    vg_fe384_u128 s0 = t0 + m0;
    uint64_t c0 = vg_barrier_u64((uint64_t)(s0 < m0));
    vg_fe384_u128 n1 = m1 + c0; /* m1 <= p's middle piece < 2^128 - 1 */
    vg_fe384_u128 s1 = t1 + n1;
    uint64_t c1 = vg_barrier_u64((uint64_t)(s1 < n1));
    vg_fe384_u128 s2 = t2 + m2 + c1;
    r[0] = (uint64_t)s0;
    r[1] = VG_FE384_HI(s0);
    r[2] = (uint64_t)s1;
    r[3] = VG_FE384_HI(s1);
    r[4] = (uint64_t)s2;
    r[5] = VG_FE384_HI(s2);
}
#else
/* r = a + b mod p */
static inline void fe384_add(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t t[6], c;
    c = vg_mont_adc(&t[0], a[0], b[0], 0);
    c = vg_mont_adc(&t[1], a[1], b[1], c);
    c = vg_mont_adc(&t[2], a[2], b[2], c);
    c = vg_mont_adc(&t[3], a[3], b[3], c);
    c = vg_mont_adc(&t[4], a[4], b[4], c);
    c = vg_mont_adc(&t[5], a[5], b[5], c);
    /* a + b < 2 p */
    fe384_reduce_once(r, t, c);
}

/* r = a - b mod p */
static inline void fe384_sub(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, m, c;
    m = vg_mont_sbb(&t0, a[0], b[0], 0);
    m = vg_mont_sbb(&t1, a[1], b[1], m);
    m = vg_mont_sbb(&t2, a[2], b[2], m);
    m = vg_mont_sbb(&t3, a[3], b[3], m);
    m = vg_mont_sbb(&t4, a[4], b[4], m);
    m = vg_mont_sbb(&t5, a[5], b[5], m);
    /* a - b in (-p, p): add p back exactly when it borrowed (the carry out
     * of that addition is the 2^384 the borrow took). */
    m = vg_barrier_u64(0 - m);
    c = vg_mont_adc(&r[0], t0, m & VG_FE384_P0, 0);
    c = vg_mont_adc(&r[1], t1, m & VG_FE384_P1, c);
    c = vg_mont_adc(&r[2], t2, m & VG_FE384_P2, c);
    c = vg_mont_adc(&r[3], t3, m, c);
    c = vg_mont_adc(&r[4], t4, m, c);
    (void)vg_mont_adc(&r[5], t5, m, c);
}

#endif

/* r = -a mod p (0 for a = 0) */
static inline void fe384_neg(uint64_t r[6], const uint64_t a[6])
{
    static const uint64_t zero[6] = {0};
    fe384_sub(r, zero, a);
}

#endif
