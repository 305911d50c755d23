/*
 * Small products c s (small.h) through the shared 16-bit NTT mod 3329
 * (src/lattice/ntt3329.h, the AVX2 routines): R_3329 = Z_3329[X]/(X^256 + 1)
 * is ML-DSA's ring with a smaller modulus, and |c s| <= 196 < 3329 / 2, so
 * c s = Barrett(NTT^-1(NTT(c) o NTT(s))) exactly, coefficient by
 * coefficient (contracts in ntt3329.h):
 *   ntt: the int32 coefficients (|a| <= 4) narrowed to int16, then the
 *        NTT (Pre |a| < 3329; Post |r| <= 3329 / 2);
 *   mul: basemul_acc with one term (Pre |a| < 4096, |b| <= 3329 / 2 + 1:
 *        both are ntt outputs; Post R^-1 a o b, |.| <= 3329 / 2),
 *        invntt_tomont (cancels R^-1; Pre |.| < 3329), reduce (the centred
 *        residue, |.| <= 1664, equal to the exact product by the bound of
 *        the contract), widened to int32.
 * The small_ntt and small_mul of the avx2 and avx2+vbmi2 variants (AVX2
 * active, which their _get checked).
 */
#include <string.h>

#include "common.h"
#include "../../lattice/ntt3329.h"
#include "mldsa_avx2.h"
#include "../small.h"

void vg_mldsa_small_ntt_q3329_avx2(vg_mldsa_spoly *r, const vg_mldsa_poly *a)
{
    for (unsigned i = 0; i < VG_MLDSA_N; i++)
        r->coeffs[i] = (int16_t)a->coeffs[i];
    vg_lattice_ntt3329_ntt_avx2(r);
}

void vg_mldsa_small_mul_q3329_avx2(vg_mldsa_poly *r, const vg_mldsa_spoly *a,
                                   const vg_mldsa_spoly *b)
{
    vg_lattice_poly16 t;
    vg_lattice_ntt3329_basemul_acc_avx2(&t, a, b, 1);
    vg_lattice_ntt3329_invntt_avx2(&t);
    vg_lattice_ntt3329_reduce_avx2(&t);
    for (unsigned i = 0; i < VG_MLDSA_N; i++)
        r->coeffs[i] = t.coeffs[i];
    vg_wipe(&t, sizeof t);
}
