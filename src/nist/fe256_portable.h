/*
 * Portable field kernels mod p256 (FIPS 186-5 / SP 800-186 section 3.2.1:
 * P-256), for the point formulas of src/nist/curve.c. Elements are
 * uint64_t[4], little-endian limbs, in Montgomery form (R = 2^256), always
 * fully reduced in [0, p). r may alias a or b. Constant time.
 *
 * The same names and contract as the BMI2/ADX kernels
 * (src/nist/x86_64/fe256_adx.h); curve.c includes one of the two.
 * Generic Montgomery reduction (mont_portable.h); p's low limb makes
 * m0inv = 1.
 */
#ifndef VG_NIST_FE256_PORTABLE_H
#define VG_NIST_FE256_PORTABLE_H

#include "mont_portable.h"

static const uint64_t vg_fe256_portable_p[4] = {
    0xffffffffffffffffull, 0x00000000ffffffffull, 0x0000000000000000ull, 0xffffffff00000001ull};

/* r = a b / 2^256 mod p */
static inline void fe256_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    vg_mont_mul(r, a, b, vg_fe256_portable_p, 1, 4);
}

/* r = a^2 / 2^256 mod p */
static inline void fe256_sqr(uint64_t r[4], const uint64_t a[4])
{
    vg_mont_mul(r, a, a, vg_fe256_portable_p, 1, 4);
}

/* r = a + b mod p */
static inline void fe256_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    vg_mont_add(r, a, b, vg_fe256_portable_p, 4);
}

/* r = a - b mod p */
static inline void fe256_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    vg_mont_sub(r, a, b, vg_fe256_portable_p, 4);
}

/* r = -a mod p */
static inline void fe256_neg(uint64_t r[4], const uint64_t a[4])
{
    vg_mont_neg(r, a, vg_fe256_portable_p, 4);
}

#endif
