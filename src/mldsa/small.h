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
 * Contract, for every implementation:
 *   ntt(r, a): Pre: |a_i| <= 4 (<= 64 for the tables with bound 3840,
 *              below). r = the transform of a, in a form that only
 *              the same implementation's mul reads (order and modulus are
 *              the implementation's own choice).
 *   mul(r, a, b): a, b outputs of ntt of polynomials A, B with
 *              |(A B)_i| <= bound (the table's) for every i. Post: r = A B
 *              in Z[X]/(X^256 + 1), exactly (int32 coefficients, centred).
 * Constant time: no branch, memory index or division depending on the
 * coefficients.
 */
#ifndef VG_MLDSA_SMALL_H
#define VG_MLDSA_SMALL_H

#include "../mlkem/poly.h"
#include "poly.h"

/* The bound on the product's coefficients every table guarantees: the
 * implementation over ML-KEM's q = 3329 recovers centred residues, |r| <=
 * (3329 - 1) / 2; the tables over 7681 recover up to 3840 (their bound). */
#define VG_MLDSA_SMALL_BOUND 1664
#define VG_MLDSA_SMALL_BOUND_7681 3840

/* 256 int16 coefficients (the type ML-KEM's kernels take). Callers align
 * instances to 64 bytes. */
typedef vg_mlkem_poly vg_mldsa_spoly;

struct vg_mldsa_small {
    const char *name;
    void (*ntt)(vg_mldsa_spoly *r, const vg_mldsa_poly *a);
    void (*mul)(vg_mldsa_poly *r, const vg_mldsa_spoly *a, const vg_mldsa_spoly *b);
    /* The largest |(A B)_i| that mul recovers exactly: VG_MLDSA_SMALL_BOUND
     * or VG_MLDSA_SMALL_BOUND_7681. */
    int32_t bound;
    /* Optional (NULL: vg_mldsa_small_t0_ntt / _t0_mul compose ntt and
     * mul): the same results as those, in one call each. */
    void (*t0_ntt)(vg_mldsa_spoly *lo, vg_mldsa_spoly *hi, const vg_mldsa_poly *t);
    void (*t0_mul)(vg_mldsa_poly *r, const vg_mldsa_spoly *c, const vg_mldsa_spoly *lo,
                   const vg_mldsa_spoly *hi);
};

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
int vg_mldsa_small_t0_ok(const struct vg_mldsa_small *s);
/* (lo, hi) = the split transforms of t (Pre |t| <= 2^12); t and scratch
 * may be overwritten. */
void vg_mldsa_small_t0_ntt(const struct vg_mldsa_small *s, vg_mldsa_spoly *lo, vg_mldsa_spoly *hi,
                           vg_mldsa_poly *t, vg_mldsa_poly *scratch);
/* r = c t0 exactly, from the transforms of c and of t0's two parts;
 * scratch is overwritten. */
void vg_mldsa_small_t0_mul(const struct vg_mldsa_small *s, vg_mldsa_poly *r,
                           const vg_mldsa_spoly *c, const vg_mldsa_spoly *lo,
                           const vg_mldsa_spoly *hi, vg_mldsa_poly *scratch);

/* The small-product table to use with ML-DSA backend be (never NULL): on
 * x86-64 with the x86-64 backend, AVX-512 (small_avx512.c) or ML-KEM's
 * AVX2 kernels (x86_64/small.c), else the portable one (small_portable.c).
 * ntt and mul of one signature must come from one table. */
const struct vg_mldsa_small *vg_mldsa_small_get(const struct vg_mldsa_backend *be);
/* The implementations (tests): portable C, never NULL; x86-64 builds: through
 * ML-KEM's AVX2 kernels (NULL unless AVX2 is active), and AVX-512 (NULL
 * unless built and AVX-512F/BW/VL are active). */
const struct vg_mldsa_small *vg_mldsa_small_portable_get(void);
#if defined(__x86_64__) && !defined(VG_PORTABLE)
const struct vg_mldsa_small *vg_mldsa_small_kem_get(void);
const struct vg_mldsa_small *vg_mldsa_small_avx512_get(void);
#endif

#endif
