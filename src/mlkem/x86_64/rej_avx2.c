/*
 * ML-KEM (FIPS 203) AVX2 rejection sampling, the inner loop of SampleNTT
 * (Algorithm 7, lines 5-13): 24 bytes give 16 candidates of 12 bits, those
 * < q are kept, in order.
 *
 * Technique: the 24 bytes are spread so that 16-bit lane 2i holds bytes
 * (3i, 3i+1) and lane 2i+1 bytes (3i+1, 3i+2) (one VPERMQ, one VPSHUFB);
 * even lanes keep their low 12 bits, odd lanes are shifted right by 4. A
 * compare against q gives an acceptance mask; for each 8-lane half, a table
 * of byte shuffles indexed by its 8-bit mask packs the accepted lanes to
 * the front, and the store pointer advances by the mask's popcount.
 *
 * Variable time by design: the input is XOF output on the public seed rho
 * (FIPS 203 3.3: the matrix A is public), so the accept pattern, the table
 * index and the loop count may depend on it. No secret data passes here.
 * Needs: AVX2 (compiled with -mavx2).
 */
#include <immintrin.h>

#include "mlkem_avx2.h"

#include "rej_avx2_table.h"

/* Post: 0 <= r[i] < q; returns the count written (<= len); the same
 * coefficients and count as the portable routine on any buffer. */
unsigned vg_mlkem_rej_uniform_avx2(int16_t *r, unsigned len, const uint8_t *buf, size_t buflen)
{
    /* Low 128-bit lane: bytes 0-11 at offsets 0-11; high lane: bytes 12-23,
     * which sit at in-lane offsets 4-15 after the qword permutation
     * (qwords 0, 1 | 1, 2). */
    const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,
                                            4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
    const __m256i mask12 = _mm256_set1_epi16(0x0fff);
    const __m256i q = _mm256_set1_epi16(VG_MLKEM_Q);
    unsigned ctr = 0;
    size_t pos = 0;
    /* Each pass reads 32 bytes (uses 24) and stores two 8-lane groups of
     * which the accepted ones count; the stores reach ctr + 16 at most. */
    while (ctr + 16 <= len && pos + 32 <= buflen) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(buf + pos));
        v = _mm256_permute4x64_epi64(v, 0x94);
        v = _mm256_shuffle_epi8(v, spread);
        __m256i d = _mm256_blend_epi16(_mm256_and_si256(v, mask12), _mm256_srli_epi16(v, 4), 0xaa);
        __m256i good = _mm256_cmpgt_epi16(q, d); /* d < 4096: signed compare is fine */
        /* movemask gives two equal bits per lane; keep one per lane. */
        uint32_t m = (uint32_t)_mm256_movemask_epi8(good) & 0x55555555u;
        m = (m | (m >> 1)) & 0x33333333u;
        m = (m | (m >> 2)) & 0x0f0f0f0fu;
        m = (m | (m >> 4)) & 0x00ff00ffu;
        m = (m | (m >> 8)) & 0x0000ffffu;
        unsigned m0 = m & 0xffu, m1 = m >> 8;
        __m128i lo = _mm256_castsi256_si128(d), hi = _mm256_extracti128_si256(d, 1);
        lo = _mm_shuffle_epi8(lo, _mm_load_si128((const __m128i *)vg_mlkem_avx2_rej_idx[m0]));
        _mm_storeu_si128((__m128i *)(r + ctr), lo);
        ctr += vg_mlkem_avx2_rej_pop[m0];
        hi = _mm_shuffle_epi8(hi, _mm_load_si128((const __m128i *)vg_mlkem_avx2_rej_idx[m1]));
        _mm_storeu_si128((__m128i *)(r + ctr), hi);
        ctr += vg_mlkem_avx2_rej_pop[m1];
        pos += 24;
    }
    /* The rest by the portable loop (same candidates, same order). */
    return vg_mlkem_rej_uniform_tail(r, len, buf, buflen, pos, ctr);
}
