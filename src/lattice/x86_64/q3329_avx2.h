/*
 * Lanewise arithmetic mod q = 3329 on 16 int16 lanes (AVX2), the exact
 * values of the scalar vg_lattice_q3329_* routines of ../ntt3329.h. For the
 * files compiled with -mavx2 (the lattice AVX2 NTT and ML-KEM's AVX2
 * helpers), called only when AVX2 is active.
 *
 *  - fqmul(a, z) = (a z - t q) / 2^16 with t = lo16(a z q^-1): computed as
 *    mulhi(a, z) - mulhi(t, q). This is exact, not an approximation: a z and
 *    t q agree in their low 16 bits, so their high halves differ by exactly
 *    the quotient. For a constant z, t = mullo(a, z q^-1 mod 2^16).
 *  - barrett(a) = a - q floor((20159 a + 2^25) / 2^26): floor((x + 2^25) /
 *    2^26) = floor((floor(x / 2^16) + 2^9) / 2^10), and mulhrs(h, 32) =
 *    floor((32 h + 2^14) / 2^15) = floor((h + 2^9) / 2^10); so
 *    t = mulhrs(mulhi(a, 20159), 32) is the scalar t exactly.
 */
#ifndef VG_LATTICE_Q3329_AVX2_H
#define VG_LATTICE_Q3329_AVX2_H

#include <immintrin.h>

#include "../ntt3329.h"

/* fqmul with a constant: z and zq = z q^-1 mod 2^16.
 * Pre: |a z| < q 2^15. Post: |r| < q. */
static inline __m256i vg_lattice_q3329_fqmul16(__m256i a, __m256i z, __m256i zq)
{
    __m256i t = _mm256_mullo_epi16(a, zq);
    __m256i hi = _mm256_mulhi_epi16(a, z);
    return _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, _mm256_set1_epi16(VG_LATTICE_Q3329)));
}

/* Barrett reduction, the exact scalar result. Pre: any int16. Post: |r| <= q/2. */
static inline __m256i vg_lattice_q3329_barrett16(__m256i a)
{
    __m256i t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(20159));
    t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(32));
    return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(VG_LATTICE_Q3329)));
}

#endif
