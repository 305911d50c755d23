/*
 * ML-DSA (FIPS 204) AVX2 coefficientwise passes: reduce32, caddq, add,
 * sub, the infinity-norm check, Power2Round, and the t1 shift, eight int32
 * coefficients per ymm register. Each returns exactly what its portable
 * twin in poly.c returns (contracts in poly.h, struct vg_mldsa_backend);
 * test_mldsa_backend compares them on random and edge inputs.
 *
 * The portable versions are compiled for baseline x86-64 (SSE2, four lanes
 * at best, and none where a value barrier or a reduction stops the
 * vectoriser); signing runs about 3k + l of these passes per attempt.
 *
 * Constant time: no branch or memory index depends on coefficient values.
 * Needs: AVX2 (compiled with -mavx2; called only through the AVX2
 * backends, which vg_mldsa_avx2_get returns when AVX2 is active).
 */
#include "mldsa_avx2.h"

static inline __m256i vg_ld(const int32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void vg_st(int32_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

void vg_mldsa_reduce_avx2(vg_mldsa_poly *a)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8)
        vg_st(a->coeffs + j, vg_mldsa_reduce32_8(vg_ld(a->coeffs + j)));
}

void vg_mldsa_caddq_avx2(vg_mldsa_poly *a)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8)
        vg_st(a->coeffs + j, vg_mldsa_caddq_8(vg_ld(a->coeffs + j)));
}

void vg_mldsa_add_avx2(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8)
        vg_st(r->coeffs + j, _mm256_add_epi32(vg_ld(a->coeffs + j), vg_ld(b->coeffs + j)));
}

void vg_mldsa_sub_avx2(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8)
        vg_st(r->coeffs + j, _mm256_sub_epi32(vg_ld(a->coeffs + j), vg_ld(b->coeffs + j)));
}

/* 1 when some |a| >= bound, else 0; every coefficient examined.
 * Pre: |a| < 2^31 - 1, 0 < bound. */
unsigned vg_mldsa_chknorm_avx2(const vg_mldsa_poly *a, int32_t bound)
{
    const __m256i bm1 = _mm256_set1_epi32(bound - 1);
    __m256i bad = _mm256_setzero_si256();
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8)
        bad = vg_mldsa_chk8(bad, vg_ld(a->coeffs + j), bm1);
    return vg_mldsa_verdict8(bad);
}

/* Power2Round lane by lane, as vg_mldsa_power2round: r1 = (a + 2^12 - 1)
 * >> 13, r0 = a - r1 2^13. Pre: 0 <= a < q. */
void vg_mldsa_power2round_avx2(vg_mldsa_poly *a1, vg_mldsa_poly *a0, const vg_mldsa_poly *a)
{
    const __m256i h = _mm256_set1_epi32((1 << (VG_MLDSA_D - 1)) - 1);
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        __m256i x = vg_ld(a->coeffs + j);
        __m256i r1 = _mm256_srai_epi32(_mm256_add_epi32(x, h), VG_MLDSA_D);
        vg_st(a1->coeffs + j, r1);
        vg_st(a0->coeffs + j, _mm256_sub_epi32(x, _mm256_slli_epi32(r1, VG_MLDSA_D)));
    }
}
