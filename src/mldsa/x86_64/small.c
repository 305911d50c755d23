/*
 * Small products c s (small.h) through ML-KEM's kernels: the ring of
 * ML-KEM, Z_3329[X]/(X^256 + 1), is ML-DSA's ring with a smaller modulus,
 * and |c s| <= 196 < 3329 / 2, so c s = Barrett(NTT^-1(NTT(c) o NTT(s)))
 * exactly, coefficient by coefficient (FIPS 203 Algorithms 9-12 with the
 * bounds of mlkem/poly.h):
 *   ntt: the int32 coefficients (|a| <= 4) narrowed to int16, then ML-KEM's
 *        NTT (Pre |a| < q_kem; Post |r| <= q_kem / 2);
 *   mul: basemul_acc with one term (Pre |a| < 4096, |b| <= q_kem / 2 + 1:
 *        both are ntt outputs; Post R^-1 a o b, |.| <= q_kem / 2),
 *        invntt_tomont (cancels R^-1; |.| < q_kem), Barrett (the centred
 *        residue, |.| <= 1664, equal to the exact product by the bound of
 *        the contract), widened to int32.
 * The ML-KEM kernels are the AVX2 ones (their coefficient order in the NTT
 * domain is their own, hence ntt and mul must come from the same variant):
 * the small_ntt and small_mul of the avx2 and avx2+vbmi2 variants.
 */
#include <string.h>

#include "common.h"
#include "../../mlkem/poly.h"
#include "mldsa_avx2.h"
#include "../small.h"

/* vg_mldsa_spoly and vg_mlkem_poly are the same layout (256 int16), and
 * the ML-KEM kernels are reached through function pointers in another
 * translation unit. */
void vg_mldsa_small_ntt_kem(vg_mldsa_spoly *r, const vg_mldsa_poly *a)
{
    for (unsigned i = 0; i < VG_MLDSA_N; i++)
        r->coeffs[i] = (int16_t)a->coeffs[i];
    vg_mlkem_avx2_get()->ntt((vg_mlkem_poly *)r);
}

void vg_mldsa_small_mul_kem(vg_mldsa_poly *r, const vg_mldsa_spoly *a, const vg_mldsa_spoly *b)
{
    const struct vg_mlkem_backend *k = vg_mlkem_avx2_get();
    vg_mlkem_poly t;
    k->basemul_acc(&t, (const vg_mlkem_poly *)a, (const vg_mlkem_poly *)b, 1);
    k->invntt_tomont(&t);
    k->poly_reduce(&t);
    for (unsigned i = 0; i < VG_MLDSA_N; i++)
        r->coeffs[i] = t.coeffs[i];
    vg_wipe(&t, sizeof t);
}
