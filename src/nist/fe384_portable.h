/*
 * Portable field kernels mod p384 (FIPS 186-5 / SP 800-186 section 3.2.1:
 * P-384), for the point formulas of src/nist/curve.c. Elements are
 * uint64_t[6], little-endian limbs, in Montgomery form (R = 2^384), always
 * fully reduced in [0, p). r may alias a or b. Constant time.
 *
 * The same names and contract as the BMI2/ADX kernels
 * (src/nist/x86_64/fe384_adx.h); curve.c includes one of the two.
 * Generic Montgomery reduction (mont_portable.h); p's low limb makes
 * m0inv = 0x0000000100000001ull.
 */
#ifndef VG_NIST_FE384_PORTABLE_H
#define VG_NIST_FE384_PORTABLE_H

#include "mont_portable.h"

static const uint64_t vg_fe384_portable_p[6] = {
    0x00000000ffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull, 0xffffffffffffffffull,
    0xffffffffffffffffull, 0xffffffffffffffffull};

/* r = a b / 2^384 mod p */
static inline void fe384_mul(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    vg_mont_mul(r, a, b, vg_fe384_portable_p, 0x0000000100000001ull, 6);
}

/* r = a^2 / 2^384 mod p */
static inline void fe384_sqr(uint64_t r[6], const uint64_t a[6])
{
    vg_mont_mul(r, a, a, vg_fe384_portable_p, 0x0000000100000001ull, 6);
}

/* r = a + b mod p */
static inline void fe384_add(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    vg_mont_add(r, a, b, vg_fe384_portable_p, 6);
}

/* r = a - b mod p */
static inline void fe384_sub(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    vg_mont_sub(r, a, b, vg_fe384_portable_p, 6);
}

/* r = -a mod p */
static inline void fe384_neg(uint64_t r[6], const uint64_t a[6])
{
    vg_mont_neg(r, a, vg_fe384_portable_p, 6);
}

#endif
