/*
 * The 16-bit number-theoretic transform of R_3329 = Z_3329[X]/(X^256 + 1):
 * a shared module (src/lattice), used by ML-KEM (FIPS 203, whose ring this
 * is) and by ML-DSA's exact small products c s (src/mldsa/small.h, whose
 * results |c s| <= 196 are determined by their residues mod 3329). Neither
 * area reaches into the other's files: both use this header.
 *
 * Representation: int16_t coefficients, signed, not necessarily canonical.
 * Every routine states the bound it needs on its inputs and the bound it
 * guarantees on its outputs; "|x| < B" means -B < x < B. Arithmetic is
 * modulo q = 3329 throughout, so any representative is correct as long as
 * the bounds keep the int16/int32 intermediates from overflowing.
 *
 * Montgomery form: R = 2^16. fqmul(a, b) = a * b * R^-1 mod q.
 * NTT domain: FIPS 203's order (bit-reversed; coefficients pair up as
 * (2i, 2i+1), the degree-1 residues of Algorithm 11). Every implementation
 * produces the portable one's exact int16 values, order included, so
 * outputs of one implementation may be fed to another.
 */
#ifndef VG_LATTICE_NTT3329_H
#define VG_LATTICE_NTT3329_H

#include <stdint.h>

#define VG_LATTICE_N 256
#define VG_LATTICE_Q3329 3329

/* One polynomial of R_3329 (ML-KEM's vg_mlkem_poly is this type). */
typedef struct {
    int16_t coeffs[VG_LATTICE_N];
} vg_lattice_poly16;

/* One implementation of the transform. Every member is present. */
struct vg_lattice_ntt3329 {
    const char *name; /* "portable", "avx2" */

    /* Forward NTT, in place, output reduced.
     * Pre: |a| < q. Post: |a| <= q/2 (Barrett-reduced), FIPS 203 order.
     * Specification: FIPS 203, Algorithm 9 (NTT). */
    void (*ntt)(vg_lattice_poly16 *a);

    /* Inverse NTT, in place, times R (Montgomery factor): on input A (NTT
     * domain) it returns R * NTT^-1(A), so that
     * invntt_tomont(basemul_acc(a, b, 1)) = NTT^-1(a o b) with no
     * Montgomery factor left.
     * Pre: |a| < q. Post: |a| < q.
     * Specification: FIPS 203, Algorithm 10 (NTT^-1). */
    void (*invntt_tomont)(vg_lattice_poly16 *a);

    /* r = R^-1 * sum_{i<k} a[i] o b[i] (o: MultiplyNTTs), reduced.
     * Pre: 1 <= k <= 4; |a[i]| < 4096 (e.g. ML-KEM's ByteDecode_12 output,
     * canonical or not), |b[i]| <= q/2 + 1 (ntt output). Post: |r| <= q/2.
     * Specification: FIPS 203, Algorithms 11 (MultiplyNTTs) and 12
     * (BaseCaseMultiply), summed over a vector. */
    void (*basemul_acc)(vg_lattice_poly16 *r, const vg_lattice_poly16 *a,
                        const vg_lattice_poly16 *b, unsigned k);

    /* Barrett-reduce every coefficient to the centred representative.
     * Pre: any int16. Post: |r| <= q/2.
     * Specification: FIPS 203, Algorithms 13-15 (coefficients taken mod q). */
    void (*reduce)(vg_lattice_poly16 *r);
};

/* The portable implementation (src/lattice/ntt3329.c): never NULL. */
const struct vg_lattice_ntt3329 *vg_lattice_ntt3329_portable_get(void);
/* AVX2 (src/lattice/x86_64/ntt3329_avx2.c): NULL unless built (x86-64, not
 * VG_PORTABLE) and AVX2 active (follows VG_CPU_FEATURES, vg_cpu_force). */
const struct vg_lattice_ntt3329 *vg_lattice_ntt3329_avx2_get(void);

/* The routines themselves, for tables that hold them directly (ML-KEM's
 * backends point at these, so its hot path has no extra call). The _avx2
 * ones exist only in x86-64 builds (not VG_PORTABLE) and may be called only
 * when AVX2 is active. Contracts: the members above. */
void vg_lattice_ntt3329_ntt_portable(vg_lattice_poly16 *a);
void vg_lattice_ntt3329_invntt_portable(vg_lattice_poly16 *a);
void vg_lattice_ntt3329_basemul_acc_portable(vg_lattice_poly16 *r, const vg_lattice_poly16 *a,
                                             const vg_lattice_poly16 *b, unsigned k);
void vg_lattice_ntt3329_reduce_portable(vg_lattice_poly16 *r);
void vg_lattice_ntt3329_ntt_avx2(vg_lattice_poly16 *a);
void vg_lattice_ntt3329_invntt_avx2(vg_lattice_poly16 *a);
void vg_lattice_ntt3329_basemul_acc_avx2(vg_lattice_poly16 *r, const vg_lattice_poly16 *a,
                                         const vg_lattice_poly16 *b, unsigned k);
void vg_lattice_ntt3329_reduce_avx2(vg_lattice_poly16 *r);

/* ---- scalar arithmetic mod 3329 (inline, for the users' own helpers) ---- */

/* Montgomery reduction: returns r = a * R^-1 mod q.
 * Pre: |a| < q * 2^15. Post: |r| < q. */
static inline int16_t vg_lattice_q3329_montgomery(int32_t a)
{
    /* t = a * q^-1 mod 2^16 (as int16), so a - t*q is divisible by 2^16.
     * |t*q| <= 2^15 q, so |a - t*q| < 2^16 q and the quotient is < q. */
    int16_t t = (int16_t)(uint16_t)((uint32_t)a * 62209u); /* 62209 = q^-1 mod 2^16 */
    return (int16_t)((a - (int32_t)t * VG_LATTICE_Q3329) >> 16);
}

/* Product in Montgomery form: a * b * R^-1 mod q.
 * Pre: |a * b| < q * 2^15. Post: |r| < q. */
static inline int16_t vg_lattice_q3329_fqmul(int16_t a, int16_t b)
{
    /* montgomery(a b) in 16-bit halves, which compilers map to vector
     * multiply-low/high instructions (x86 PMULLW/PMULHW are SSE2): with
     * p = a b and t = p q^-1 mod 2^16, p - t q is divisible by 2^16, so the
     * low halves of p and t q are equal and (p - t q) >> 16 is the
     * difference of the high halves exactly. */
    int32_t p = (int32_t)a * b;
    int16_t t = (int16_t)(uint16_t)((uint32_t)(uint16_t)p * 62209u); /* q^-1 mod 2^16 */
    int16_t ph = (int16_t)(p >> 16);
    int16_t th = (int16_t)(((int32_t)t * VG_LATTICE_Q3329) >> 16);
    return (int16_t)(ph - th);
}

/* Barrett reduction: the representative of a mod q in [-(q-1)/2, (q-1)/2].
 * Pre: any int16. Post: |r| <= q/2.
 * v = round(2^26 / q) = 20159; for |a| < 2^15 the estimate t is floor or
 * ceil of a/q rounded to nearest, giving the centred representative. */
static inline int16_t vg_lattice_q3329_barrett(int16_t a)
{
    int32_t t = (20159 * (int32_t)a + (1 << 25)) >> 26;
    return (int16_t)(a - t * VG_LATTICE_Q3329);
}

#endif
