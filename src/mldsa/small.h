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
 *   ntt(r, a): Pre: |a_i| <= 4. r = the transform of a, in a form that only
 *              the same implementation's mul reads (order and modulus are
 *              the implementation's own choice).
 *   mul(r, a, b): a, b outputs of ntt of polynomials A, B with
 *              |(A B)_i| <= VG_MLDSA_SMALL_BOUND for every i. Post: r = A B
 *              in Z[X]/(X^256 + 1), exactly (int32 coefficients, centred).
 * Constant time: no branch, memory index or division depending on the
 * coefficients.
 */
#ifndef VG_MLDSA_SMALL_H
#define VG_MLDSA_SMALL_H

#include "../mlkem/poly.h"
#include "poly.h"

/* The bound on the product's coefficients the contract guarantees: the
 * implementation over ML-KEM's q = 3329 recovers centred residues, |r| <=
 * (3329 - 1) / 2. */
#define VG_MLDSA_SMALL_BOUND 1664

/* 256 int16 coefficients (the type ML-KEM's kernels take). Callers align
 * instances to 64 bytes. */
typedef vg_mlkem_poly vg_mldsa_spoly;

struct vg_mldsa_small {
    const char *name;
    void (*ntt)(vg_mldsa_spoly *r, const vg_mldsa_poly *a);
    void (*mul)(vg_mldsa_poly *r, const vg_mldsa_spoly *a, const vg_mldsa_spoly *b);
};

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
