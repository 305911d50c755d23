/*
 * ML-KEM (FIPS 203) rejection sampling with AVX-512 (F, VL, BW), the inner
 * loop of SampleNTT (Algorithm 7, lines 5-13): the same contract and output
 * as vg_mlkem_rej_uniform_avx2 (mlkem_avx2.h), faster on Zen 4 (see
 * docs/benchmarks.md).
 *
 * Technique: 48 bytes give 32 candidates of 12 bits per pass. The bytes are
 * spread as in the AVX2 routine, per 128-bit lane (a VPERMQ over the whole
 * register puts bytes 12i..12i+11 in lane i), then a VPCMPW against q gives
 * a 32-bit accept mask directly. Each 16-candidate half is widened to 32-bit
 * lanes and packed to the front with VPCOMPRESSD (register form: the memory
 * form is slow on Zen 4; VPCOMPRESSW would need VBMI2, which the feature
 * mask does not track), narrowed back with VPMOVDW and stored whole; the
 * store pointer advances by the mask's popcount.
 *
 * Variable time by design: the input is XOF output on the public seed rho
 * (FIPS 203 3.3: the matrix A is public), so the accept pattern and the
 * loop count may depend on it. No secret data passes here.
 * Needs: AVX2, AVX-512 F/VL/BW and POPCNT (every CPU with AVX-512 has it);
 * called only through the backend table that vg_mlkem_avx2_avx512_get
 * returns when those features are active.
 */
#include <immintrin.h>

#include "mlkem_avx2.h"

/* Post: 0 <= r[i] < q; returns the count written (<= len); the same
 * coefficients and count as the portable routine on any buffer; nothing at
 * or beyond r[len] is written. */
unsigned vg_mlkem_rej_uniform_avx512(int16_t *r, unsigned len, const uint8_t *buf, size_t buflen)
{
    /* Within each 128-bit lane: 16-bit lane 2i gets bytes (3i, 3i+1), lane
     * 2i+1 bytes (3i+1, 3i+2), starting at in-lane offset 0 (even lanes) or
     * 4 (odd lanes) after the qword permutation 0,1 | 1,2 | 3,4 | 4,5. */
    const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11,
                                            4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15);
    const __m512i spread2 = _mm512_broadcast_i64x4(spread);
    const __m512i qperm = _mm512_setr_epi64(0, 1, 1, 2, 3, 4, 4, 5);
    const __m512i mask12 = _mm512_set1_epi16(0x0fff);
    const __m512i q = _mm512_set1_epi16(VG_MLKEM_Q);
    unsigned ctr = 0;
    size_t pos = 0;
    /* Each pass reads 64 bytes (uses 48) and writes r[ctr .. ctr + 32) at
     * most (two 16-entry stores, the second starting at most 16 further). */
    while (ctr + 32 <= len && pos + 64 <= buflen) {
        __m512i v = _mm512_loadu_si512((const void *)(buf + pos));
        v = _mm512_permutexvar_epi64(qperm, v);
        v = _mm512_shuffle_epi8(v, spread2);
        /* Even 16-bit lanes keep their low 12 bits, odd ones shift by 4. */
        __m512i d = _mm512_mask_blend_epi16(0xaaaaaaaau, _mm512_and_si512(v, mask12),
                                            _mm512_srli_epi16(v, 4));
        __mmask32 k = _mm512_cmpgt_epi16_mask(q, d); /* d < 4096: signed is fine */
        __m512i w0 = _mm512_maskz_compress_epi32(
            (__mmask16)k, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(d)));
        __m512i w1 = _mm512_maskz_compress_epi32(
            (__mmask16)(k >> 16), _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(d, 1)));
        _mm256_storeu_si256((__m256i *)(r + ctr), _mm512_cvtepi32_epi16(w0));
        ctr += (unsigned)_mm_popcnt_u32(k & 0xffffu);
        _mm256_storeu_si256((__m256i *)(r + ctr), _mm512_cvtepi32_epi16(w1));
        ctr += (unsigned)_mm_popcnt_u32(k >> 16);
        pos += 48;
    }
    /* 16 candidates from 24 bytes, while 16 entries still fit. */
    const __m256i mask12y = _mm256_set1_epi16(0x0fff);
    const __m256i qy = _mm256_set1_epi16(VG_MLKEM_Q);
    while (ctr + 16 <= len && pos + 32 <= buflen) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(buf + pos));
        v = _mm256_permute4x64_epi64(v, 0x94);
        v = _mm256_shuffle_epi8(v, spread);
        __m256i d = _mm256_blend_epi16(_mm256_and_si256(v, mask12y), _mm256_srli_epi16(v, 4),
                                       0xaa);
        __mmask16 k = _mm256_cmpgt_epi16_mask(qy, d);
        __m512i w = _mm512_maskz_compress_epi32(k, _mm512_cvtepu16_epi32(d));
        _mm256_storeu_si256((__m256i *)(r + ctr), _mm512_cvtepi32_epi16(w));
        ctr += (unsigned)_mm_popcnt_u32(k);
        pos += 24;
    }
    /* The rest by the portable loop (same candidates, same order). */
    return vg_mlkem_rej_uniform_tail(r, len, buf, buflen, pos, ctr);
}
