/*
 * Scalar kernels mod n256 and n384, the orders of the P-256 and P-384
 * groups (FIPS 186-5; SP 800-186 section 3.2.1): uint64_t[4] resp. [6],
 * little-endian limbs, Montgomery form (R = 2^256 resp. 2^384), fully
 * reduced in [0, n). r may alias a or b. Constant time.
 * ECDSA uses them a handful of times per signature, so they are portable
 * only (the generic Montgomery code of mont_portable.h).
 */
#ifndef VG_NIST_SC_PORTABLE_H
#define VG_NIST_SC_PORTABLE_H

#include "mont_portable.h"
#include "params.h"

static inline void sc256_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    vg_mont_mul_ps(r, a, b, vg_p256_n, VG_P256_N0INV, 4);
}
static inline void sc256_sqr(uint64_t r[4], const uint64_t a[4])
{
    vg_mont_sqr_ps(r, a, vg_p256_n, VG_P256_N0INV, 4);
}
static inline void sc256_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    vg_mont_add(r, a, b, vg_p256_n, 4);
}
static inline void sc256_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    vg_mont_sub(r, a, b, vg_p256_n, 4);
}
static inline void sc256_neg(uint64_t r[4], const uint64_t a[4])
{
    vg_mont_neg(r, a, vg_p256_n, 4);
}

static inline void sc384_mul(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    vg_mont_mul_ps(r, a, b, vg_p384_n, VG_P384_N0INV, 6);
}
static inline void sc384_sqr(uint64_t r[6], const uint64_t a[6])
{
    vg_mont_sqr_ps(r, a, vg_p384_n, VG_P384_N0INV, 6);
}
static inline void sc384_add(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    vg_mont_add(r, a, b, vg_p384_n, 6);
}
static inline void sc384_sub(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    vg_mont_sub(r, a, b, vg_p384_n, 6);
}
static inline void sc384_neg(uint64_t r[6], const uint64_t a[6])
{
    vg_mont_neg(r, a, vg_p384_n, 6);
}

#endif
