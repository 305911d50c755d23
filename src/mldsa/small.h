/*
 * Exact products of two small polynomials, for ML-DSA signing's c s1 and
 * c s2 (FIPS 204, Algorithm 7 lines 18-19).
 *
 * c has coefficients in {-1, 0, 1} (tau <= 60 of them nonzero) and s1, s2
 * coefficients in [-eta, eta], eta <= 4, so every coefficient of c s in
 * Z[X]/(X^256 + 1) is at most tau eta <= 196 in absolute value (ML-DSA-44
 * 39 * 2 = 78, -65 49 * 4 = 196, -87 60 * 2 = 120). The product is then
 * determined by its residue modulo any odd m > 2 * 196, and is computed
 * here through a 16-bit NTT modulo a small prime instead of the 32-bit NTT
 * modulo q = 8380417 that the rest of ML-DSA uses: half the register
 * width per coefficient and cheaper Montgomery products. The caller gets
 * the exact integer product, which is also a valid representative modulo q
 * wherever the 32-bit path's NTT^-1(c-hat o s-hat) was used.
 *
 * Contract: the small_* members of struct vg_mldsa_backend (poly.h): every
 * variant carries one implementation of ntt and mul, whose transformed
 * domain (order and modulus) is its own, so that both halves of a product
 * must come from the same variant.
 * Constant time: no branch, memory index or division depending on the
 * coefficients.
 */
#ifndef VG_MLDSA_SMALL_H
#define VG_MLDSA_SMALL_H

#include "poly.h"

/* The bound on the product's coefficients every table guarantees: the
 * implementation over q = 3329 (the shared NTT of src/lattice) recovers
 * centred residues, |r| <= (3329 - 1) / 2; the ones over 7681 recover up
 * to 3840 (their bound). */
#define VG_MLDSA_SMALL_BOUND 1664
#define VG_MLDSA_SMALL_BOUND_7681 3840

/* c t0 through the same tables (FIPS 204 Algorithm 7 line 25), where the
 * table recovers products up to 3840 (bound VG_MLDSA_SMALL_BOUND_7681:
 * vg_mldsa_small_t0_ok):
 * t0 (|t0| <= 2^12) is split as t0 = 64 hi + lo with -32 <= lo < 32 and
 * |hi| <= 64, so |c hi| <= 60 * 64 = 3840 and |c lo| <= 1920, and
 * c t0 = 64 (c hi) + c lo exactly (|c t0| <= 245760). The transforms of
 * lo and hi need the ntt precondition |a| <= 64 (met by the tables for
 * which vg_mldsa_small_t0_ok holds). */
typedef struct {
    vg_mldsa_spoly lo, hi;
} vg_mldsa_st0;
static inline int vg_mldsa_small_t0_ok(const struct vg_mldsa_backend *be)
{
    /* |c hi| <= 60 * 64 = 3840 (the route modulo 3329 stops at 1664). */
    return be->small_bound >= VG_MLDSA_SMALL_BOUND_7681;
}
/* (lo, hi) = the split transforms of t (Pre |t| <= 2^12); t and scratch
 * may be overwritten. */
void vg_mldsa_small_t0_ntt(const struct vg_mldsa_backend *be, vg_mldsa_spoly *lo,
                           vg_mldsa_spoly *hi, vg_mldsa_poly *t, vg_mldsa_poly *scratch);
/* r = c t0 exactly, from the transforms of c and of t0's two parts;
 * scratch is overwritten. */
void vg_mldsa_small_t0_mul(const struct vg_mldsa_backend *be, vg_mldsa_poly *r,
                           const vg_mldsa_spoly *c, const vg_mldsa_spoly *lo,
                           const vg_mldsa_spoly *hi, vg_mldsa_poly *scratch);

/* The portable implementation (small_portable.c: modulo 7681, bound
 * VG_MLDSA_SMALL_BOUND_7681), the portable variant's small_ntt and
 * small_mul. */
void vg_mldsa_small_ntt_portable(vg_mldsa_spoly *r, const vg_mldsa_poly *a);
void vg_mldsa_small_mul_portable(vg_mldsa_poly *r, const vg_mldsa_spoly *a,
                                 const vg_mldsa_spoly *b);

#endif
