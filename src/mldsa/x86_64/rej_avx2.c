/*
 * ML-DSA (FIPS 204) AVX2 rejection sampling, the inner loop of RejNTTPoly
 * (Algorithm 30, lines 4-10, with CoeffFromThreeBytes, Algorithm 14):
 * 24 bytes give 8 candidates of 23 bits (the top bit of every third byte
 * dropped); those < q are kept, in order.
 *
 * Technique: one VPERMQ places bytes 0-15 in the low 128-bit lane and bytes
 * 8-23 in the high one (so bytes 12-23 sit at in-lane offsets 4-15); one
 * VPSHUFB spreads the three bytes of each candidate into a 32-bit lane
 * (fourth byte zero); an AND drops bit 23. A signed compare with q gives
 * the acceptance mask (candidates are below 2^23, so signed is fine), its
 * eight sign bits (VMOVMSKPS) index a table of VPERMD indices that packs
 * the accepted lanes to the front, and the store pointer advances by the
 * mask's popcount.
 *
 * Variable time by design: the input is SHAKE128 output on the public seed
 * rho (A-hat is public, FIPS 204 section 3.6 / Algorithm 32), so the
 * acceptance pattern, the table index and the loop count may depend on it.
 * No secret data passes here.
 * Needs: AVX2 (compiled with -mavx2 -mbmi2).
 */
#include <immintrin.h>

#include "mldsa_avx2.h"

#include "rej_avx2_table.h"

/* Number of set bits of a 4-bit value. */
static const uint8_t vg_mldsa_pop4[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

/* Post: 0 <= r[i] < q; returns the count written (<= len); the same
 * coefficients and count as the portable routine on any buffer. */
unsigned vg_mldsa_rej_uniform_avx2(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen)
{
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                            4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
    const __m256i mask23 = _mm256_set1_epi32(0x7fffff);
    const __m256i q = _mm256_set1_epi32(VG_MLDSA_Q);
    unsigned ctr = 0;
    size_t pos = 0;
    /* Each pass reads 32 bytes (uses 24) and stores 8 lanes of which the
     * accepted ones count: the store reaches r[ctr + 7] < r[len]. */
    while (ctr + 8 <= len && pos + 32 <= buflen) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(buf + pos));
        v = _mm256_permute4x64_epi64(v, 0x94); /* qwords 0, 1 | 1, 2 */
        v = _mm256_and_si256(_mm256_shuffle_epi8(v, spread), mask23);
        __m256i good = _mm256_cmpgt_epi32(q, v);
        unsigned m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(good));
        __m256i idx = _mm256_cvtepu8_epi32(
            _mm_loadl_epi64((const __m128i *)vg_mldsa_avx2_rej_idx[m]));
        _mm256_storeu_si256((__m256i *)(r + ctr), _mm256_permutevar8x32_epi32(v, idx));
        ctr += vg_mldsa_pop4[m & 15] + vg_mldsa_pop4[m >> 4];
        pos += 24;
    }
    /* The rest as in the portable code (same candidates, same order). */
    for (; ctr < len && pos + 3 <= buflen; pos += 3) {
        uint32_t t = (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) |
                     ((uint32_t)(buf[pos + 2] & 0x7f) << 16);
        if (t < VG_MLDSA_Q)
            r[ctr++] = (int32_t)t;
    }
    return ctr;
}
