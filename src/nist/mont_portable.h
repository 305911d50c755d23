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
 * Specification: Montgomery multiplication, finely integrated product
 * scanning (FIPS; Koc, Acar, Kaliski, "Analyzing and comparing Montgomery
 * multiplication algorithms", IEEE Micro 1996): the reduction's products
 * q_i m_j join the columns of a b, summed one column at a time in a
 * three-word accumulator.
 */
#ifndef VG_NIST_MONT_PORTABLE_H
#define VG_NIST_MONT_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#define VG_MONT_MAXL 6

/* Full unrolling of the product-scanning loops below (constant bounds,
 * at most 2 VG_MONT_MAXL trips): gcc does not unroll the nested loops of
 * the 6-limb case by itself. clang takes the same pragma. */
#if defined(__GNUC__)
#define VG_MONT_PRAGMA(x) _Pragma(#x)
#define VG_MONT_UNROLL VG_MONT_PRAGMA(GCC unroll 12)
#else
#define VG_MONT_UNROLL
#endif

#if defined(__SIZEOF_INT128__) && !defined(VG_NIST_NO_INT128)
#define VG_MONT_INT128 1
#endif

/* clang's add-with-carry builtins (any target): clang turns the
 * unsigned __int128 carry idioms below into compare-and-subtract pairs, the
 * builtins into ADC / SBB chains. gcc 12 has no such builtin; its code from
 * the __int128 idioms is the better of the two there (measured, see
 * docs/benchmarks.md), so gcc keeps those. */
/* Not under MemorySanitizer (VG_CT_MSAN, common.h): clang 14's MSan checks
 * the operands of the llvm.uadd/usub.with.overflow intrinsics these
 * builtins become as if they were branch conditions (a report for every
 * secret operand, although the code is a branch-free SUB / SETB), so the
 * MSan build runs the __int128 idioms instead; the builtin code is
 * taint-checked by valgrind in the clang configuration and
 * instruction-audited there (docs/constant-time.md). */
#if defined(VG_MONT_INT128) && defined(__clang__) && defined(__has_builtin) &&                     \
    !defined(VG_CT_MSAN)
#if __has_builtin(__builtin_addcll) && __has_builtin(__builtin_subcll)
#define VG_MONT_ADDC 1
#endif
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
#if defined(VG_MONT_ADDC)
    unsigned long long c;
    *r = __builtin_addcll(a, b, cin, &c);
    return c;
#elif defined(VG_MONT_INT128)
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
#if defined(VG_MONT_ADDC)
    unsigned long long c;
    *r = __builtin_subcll(a, b, bin, &c);
    return c;
#elif defined(VG_MONT_INT128)
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

/* hi:lo += x (the caller keeps hi:lo < 2^128). */
static inline void vg_mont_dw_add(uint64_t *lo, uint64_t *hi, uint64_t x)
{
#if defined(VG_MONT_INT128) && !defined(VG_MONT_ADDC)
    unsigned __int128 t = (((unsigned __int128)*hi << 64) | *lo) + x;
    *lo = (uint64_t)t;
    *hi = (uint64_t)(t >> 64);
#else
    *hi += vg_mont_adc(lo, *lo, x, 0);
#endif
}

/* ---- A three-word accumulator for product scanning ---------------------
 * (Comba, "Exploring the speed of compositeness tests", IBM Systems
 * Journal 1990): a column of products is summed into s = ov 2^128 + v, then
 * its low word is taken and s shifted down a word. With __int128 (gcc), v
 * is one unsigned __int128 and a product is added as mul, add, adc,
 * adc $0, which gcc emits for the carry test below; with clang's carry
 * builtins (VG_MONT_ADDC) and without __int128, three words.
 * Bound: every caller keeps s < 2^192 (a column holds at most 2 n + 2 < 16
 * terms below 2^128 plus the previous column's carry < 2^128), so ov
 * never wraps. */
#if defined(VG_MONT_INT128) && !defined(VG_MONT_ADDC)
typedef struct {
    unsigned __int128 v;
    uint64_t ov;
} vg_acc;

#define VG_ACC_INIT {0, 0}

/* s += a b */
static inline void vg_acc_mac(vg_acc *s, uint64_t a, uint64_t b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    s->v += p;
    s->ov += (uint64_t)(s->v < p);
}

/* s += 2 a b */
static inline void vg_acc_mac2(vg_acc *s, uint64_t a, uint64_t b)
{
    unsigned __int128 p = (unsigned __int128)a * b;
    s->v += p;
    s->ov += (uint64_t)(s->v < p);
    s->v += p;
    s->ov += (uint64_t)(s->v < p);
}

/* s += hi 2^64 + lo */
static inline void vg_acc_add2(vg_acc *s, uint64_t lo, uint64_t hi)
{
    unsigned __int128 p = ((unsigned __int128)hi << 64) | lo;
    s->v += p;
    s->ov += (uint64_t)(s->v < p);
}

/* s += (hi 2^64 + lo) 2^64 */
static inline void vg_acc_add_up(vg_acc *s, uint64_t lo, uint64_t hi)
{
    unsigned __int128 x = (unsigned __int128)lo << 64;
    s->v += x;
    s->ov += hi + (uint64_t)(s->v < x);
}

/* s -= hi 2^64 + lo. Pre: s >= hi 2^64 + lo. */
static inline void vg_acc_sub2(vg_acc *s, uint64_t lo, uint64_t hi)
{
    unsigned __int128 x = ((unsigned __int128)hi << 64) | lo, old = s->v;
    s->v -= x;
    s->ov -= (uint64_t)(old < x);
}

/* The low word of s. */
static inline uint64_t vg_acc_lo(const vg_acc *s) { return (uint64_t)s->v; }

/* Returns the low word of s and sets s = floor(s / 2^64). */
static inline uint64_t vg_acc_shift(vg_acc *s)
{
    uint64_t lo = (uint64_t)s->v;
    s->v = (s->v >> 64) | ((unsigned __int128)s->ov << 64);
    s->ov = 0;
    return lo;
}
#else
/* Three words: clang with its carry builtins (vg_mont_adc / vg_mont_sbb are
 * ADC / SBB there, vg_mont_mac an __int128 product) and builds without
 * __int128. */
typedef struct {
    uint64_t l, h, ov;
} vg_acc;

#define VG_ACC_INIT {0, 0, 0}

static inline void vg_acc_add2(vg_acc *s, uint64_t lo, uint64_t hi)
{
    uint64_t c = vg_mont_adc(&s->l, s->l, lo, 0);
    c = vg_mont_adc(&s->h, s->h, hi, c);
    s->ov += c;
}

static inline void vg_acc_mac(vg_acc *s, uint64_t a, uint64_t b)
{
    uint64_t lo, hi = vg_mont_mac(&lo, a, b, 0, 0);
    vg_acc_add2(s, lo, hi);
}

static inline void vg_acc_mac2(vg_acc *s, uint64_t a, uint64_t b)
{
    uint64_t lo, hi = vg_mont_mac(&lo, a, b, 0, 0);
    vg_acc_add2(s, lo, hi);
    vg_acc_add2(s, lo, hi);
}

static inline void vg_acc_add_up(vg_acc *s, uint64_t lo, uint64_t hi)
{
    uint64_t c = vg_mont_adc(&s->h, s->h, lo, 0);
    s->ov += hi + c;
}

static inline void vg_acc_sub2(vg_acc *s, uint64_t lo, uint64_t hi)
{
    uint64_t b = vg_mont_sbb(&s->l, s->l, lo, 0);
    b = vg_mont_sbb(&s->h, s->h, hi, b);
    s->ov -= b;
}

static inline uint64_t vg_acc_lo(const vg_acc *s) { return s->l; }

static inline uint64_t vg_acc_shift(vg_acc *s)
{
    uint64_t lo = s->l;
    s->l = s->h;
    s->h = s->ov;
    s->ov = 0;
    return lo;
}
#endif

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

/* r = a b R^-1 mod m by product scanning (the columns of
 * a b + q m summed one at a time in a vg_acc; the Montgomery multiplier q_k
 * of column k is its low word times m0inv, which makes that word zero).
 * Straight-line once inlined with n constant (the loops have constant
 * bounds) and the modulus limbs visible to the compiler as constants.
 * Pre: a, b < m. Post: r < m. r may alias a or b.
 * Bound: (a b + q m) / R < (m^2 + R m) / R < 2 m, so after the last
 * column the accumulator holds 0 or 1 above the n limbs. */
static inline void vg_mont_mul_ps(uint64_t *r, const uint64_t *a, const uint64_t *b,
                                  const uint64_t *m, uint64_t m0inv, size_t n)
{
    uint64_t q[VG_MONT_MAXL], t[VG_MONT_MAXL];
    vg_acc s = VG_ACC_INIT;
    VG_MONT_UNROLL
    for (size_t k = 0; k < n; k++) {
        VG_MONT_UNROLL
        for (size_t i = 0; i <= k; i++)
            vg_acc_mac(&s, a[i], b[k - i]);
        VG_MONT_UNROLL
        for (size_t i = 0; i < k; i++)
            vg_acc_mac(&s, q[i], m[k - i]);
        q[k] = vg_acc_lo(&s) * m0inv;
        vg_acc_mac(&s, q[k], m[0]);
        (void)vg_acc_shift(&s); /* the low word is 0 now */
    }
    VG_MONT_UNROLL
    for (size_t k = n; k < 2 * n - 1; k++) {
        VG_MONT_UNROLL
        for (size_t i = k - n + 1; i < n; i++) {
            vg_acc_mac(&s, a[i], b[k - i]);
            vg_acc_mac(&s, q[i], m[k - i]);
        }
        t[k - n] = vg_acc_shift(&s);
    }
    t[n - 1] = vg_acc_shift(&s);
    vg_mont_reduce_once(r, t, vg_acc_lo(&s), m, n);
}

/* r = a^2 R^-1 mod m, as vg_mont_mul_ps with each a_i a_j (i != j)
 * multiplied once and added twice. Pre: a < m. Post: r < m. */
static inline void vg_mont_sqr_ps(uint64_t *r, const uint64_t *a, const uint64_t *m,
                                  uint64_t m0inv, size_t n)
{
    uint64_t q[VG_MONT_MAXL], t[VG_MONT_MAXL];
    vg_acc s = VG_ACC_INIT;
    VG_MONT_UNROLL
    for (size_t k = 0; k < 2 * n - 1; k++) {
        size_t lo = k < n ? 0 : k - n + 1;
        VG_MONT_UNROLL
        for (size_t i = lo; 2 * i < k; i++)
            vg_acc_mac2(&s, a[i], a[k - i]);
        if (k % 2 == 0)
            vg_acc_mac(&s, a[k / 2], a[k / 2]);
        VG_MONT_UNROLL
        for (size_t i = lo; i < k && i < n; i++)
            vg_acc_mac(&s, q[i], m[k - i]);
        if (k < n) {
            q[k] = vg_acc_lo(&s) * m0inv;
            vg_acc_mac(&s, q[k], m[0]);
            (void)vg_acc_shift(&s);
        } else {
            t[k - n] = vg_acc_shift(&s);
        }
    }
    t[n - 1] = vg_acc_shift(&s);
    vg_mont_reduce_once(r, t, vg_acc_lo(&s), m, n);
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
