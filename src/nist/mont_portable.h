/*
 * Portable Montgomery arithmetic on n 64-bit limbs (n <= 6), shared by the
 * portable P-256 and P-384 field kernels (fe256_portable.h, fe384_portable.h)
 * and the scalar kernels mod n (sc_portable.h).
 *
 * Numbers are little-endian arrays of 64-bit limbs. A modulus m is odd,
 * m > 2^(64 n - 1), and m0inv = -m^-1 mod 2^64. Montgomery form of x is
 * x R mod m with R = 2^(64 n). Every routine takes inputs fully reduced in
 * [0, m) and returns a value in [0, m); the result may alias an input.
 * No branch and no memory index depends on the values (only on n, which is
 * a compile-time constant at every call site). The kernels leave their
 * temporaries on the stack: the top-level operations wipe what they own.
 *
 * 64 x 64 -> 128-bit products use unsigned __int128 when the compiler has it,
 * otherwise (or with VG_NIST_NO_INT128 defined, which the tests use to run
 * this path too) four 32 x 32 -> 64-bit products.
 *
 * Specification: Montgomery multiplication, coarsely integrated operand
 * scanning (CIOS; Koc, Acar, Kaliski, "Analyzing and comparing Montgomery
 * multiplication algorithms", IEEE Micro 1996).
 */
#ifndef VG_NIST_MONT_PORTABLE_H
#define VG_NIST_MONT_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#define VG_MONT_MAXL 6

#if defined(__SIZEOF_INT128__) && !defined(VG_NIST_NO_INT128)
#define VG_MONT_INT128 1
#endif

/* hi:lo = a b + c + d. Cannot overflow: (2^64 - 1)^2 + 2 (2^64 - 1) = 2^128 - 1. */
static inline uint64_t vg_mont_mac(uint64_t *lo, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
#if defined(VG_MONT_INT128)
    unsigned __int128 t = (unsigned __int128)a * b + c + d;
    *lo = (uint64_t)t;
    return (uint64_t)(t >> 64);
#else
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* mid < 3 * 2^32 */
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    uint64_t l = (mid << 32) | (p00 & 0xffffffffu);
    uint64_t h = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    /* h:l = a b <= (2^64 - 1)^2, so adding c and d carries into h without
     * overflowing it. */
    l += c;
    h += (uint64_t)(l < c);
    l += d;
    h += (uint64_t)(l < d);
    *lo = l;
    return h;
#endif
}

/* *r = a + b + cin (cin 0 or 1); returns the carry, 0 or 1. */
static inline uint64_t vg_mont_adc(uint64_t *r, uint64_t a, uint64_t b, uint64_t cin)
{
#if defined(VG_MONT_INT128)
    unsigned __int128 t = (unsigned __int128)a + b + cin;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64);
#else
    uint64_t s = a + b;
    uint64_t c1 = (uint64_t)(s < a);
    uint64_t s2 = s + cin;
    uint64_t c2 = (uint64_t)(s2 < s);
    *r = s2;
    return c1 | c2;
#endif
}

/* *r = a - b - bin (bin 0 or 1); returns the borrow, 0 or 1. */
static inline uint64_t vg_mont_sbb(uint64_t *r, uint64_t a, uint64_t b, uint64_t bin)
{
#if defined(VG_MONT_INT128)
    unsigned __int128 t = (unsigned __int128)a - b - bin;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64) & 1u;
#else
    uint64_t d = a - b;
    uint64_t b1 = (uint64_t)(a < b);
    uint64_t d2 = d - bin;
    uint64_t b2 = (uint64_t)(d < bin);
    *r = d2;
    return b1 | b2;
#endif
}

/* r = t - m if t >= m else t, where t = hi 2^(64 n) + t[0..n-1] < 2 m and
 * hi is 0 or 1. */
static inline void vg_mont_reduce_once(uint64_t *r, const uint64_t *t, uint64_t hi,
                                       const uint64_t *m, size_t n)
{
    uint64_t s[VG_MONT_MAXL];
    uint64_t borrow = 0;
    for (size_t j = 0; j < n; j++)
        borrow = vg_mont_sbb(&s[j], t[j], m[j], borrow);
    /* t < m exactly when the subtraction borrows out of the top limb and hi
     * does not absorb it: hi = 0 and borrow = 1. */
    uint64_t keep = vg_barrier_u64(0 - ((~hi) & borrow & 1u));
    for (size_t j = 0; j < n; j++)
        r[j] = (t[j] & keep) | (s[j] & ~keep);
}

/* r = a b R^-1 mod m. Pre: a, b < m. Post: r < m. r may alias a or b. */
static inline void vg_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const uint64_t *m, uint64_t m0inv, size_t n)
{
    uint64_t t[VG_MONT_MAXL + 2] = {0};
    for (size_t i = 0; i < n; i++) {
        /* t += a b[i]; before: t < 2 m, after: t < 2 m + m 2^64 < 2^(64 n + 65),
         * so the top limb t[n+1] is 0 or 1. */
        uint64_t c = 0;
        for (size_t j = 0; j < n; j++)
            c = vg_mont_mac(&t[j], a[j], b[i], t[j], c);
        t[n + 1] = vg_mont_adc(&t[n], t[n], c, 0);
        /* t += q m with q = t[0] m0inv mod 2^64 makes t[0] zero; then shift
         * down one limb. t < (2 m + m 2^64 + m 2^64) / 2^64 < 2 m + 2 m / 2^64,
         * so t < 2 m and t[n] is 0 or 1 again. */
        uint64_t q = t[0] * m0inv, lo;
        c = vg_mont_mac(&lo, q, m[0], t[0], 0);
        for (size_t j = 1; j < n; j++)
            c = vg_mont_mac(&t[j - 1], q, m[j], t[j], c);
        c = vg_mont_adc(&t[n - 1], t[n], c, 0);
        t[n] = t[n + 1] + c;
    }
    vg_mont_reduce_once(r, t, t[n], m, n);
}

/* r = a + b mod m. Pre: a, b < m. */
static inline void vg_mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const uint64_t *m, size_t n)
{
    uint64_t t[VG_MONT_MAXL];
    uint64_t c = 0;
    for (size_t j = 0; j < n; j++)
        c = vg_mont_adc(&t[j], a[j], b[j], c);
    /* a + b < 2 m: one conditional subtraction. */
    vg_mont_reduce_once(r, t, c, m, n);
}

/* r = a - b mod m. Pre: a, b < m. */
static inline void vg_mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
                               const uint64_t *m, size_t n)
{
    uint64_t t[VG_MONT_MAXL];
    uint64_t borrow = 0;
    for (size_t j = 0; j < n; j++)
        borrow = vg_mont_sbb(&t[j], a[j], b[j], borrow);
    /* a - b in (-m, m): add m back exactly when it borrowed. */
    uint64_t mask = vg_barrier_u64(0 - borrow);
    uint64_t c = 0;
    for (size_t j = 0; j < n; j++)
        c = vg_mont_adc(&r[j], t[j], m[j] & mask, c);
}

/* r = -a mod m (0 for a = 0). Pre: a < m. */
static inline void vg_mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n)
{
    static const uint64_t zero[VG_MONT_MAXL] = {0};
    vg_mont_sub(r, zero, a, m, n);
}

#endif
