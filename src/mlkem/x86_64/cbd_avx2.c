/*
 * ML-KEM (FIPS 203) AVX2 centred binomial sampling, SamplePolyCBD_eta
 * (Algorithm 8) for eta = 2 and 3: coefficient i is x - y, where x sums
 * bits 2 i eta .. 2 i eta + eta - 1 of the input and y the next eta bits.
 * The same int16 values as the portable vg_mlkem_cbd_portable (poly.c);
 * test_mlkem_backend compares them on random and all-0/all-1 buffers.
 *
 * Technique: bit pairs (eta 2) or triples (eta 3) are summed in parallel
 * inside bytes or dwords with masks and shifts; x + eta - y is formed per
 * field, where it lies in [0, 2 eta] and so never borrows from its
 * neighbour; fields are spread to one per byte, widened to int16 with
 * vpmovzxbw and eta is subtracted.
 *
 * Reads exactly the 64 eta bytes of buf. Constant time: no branch, index
 * or division depends on the (secret) input.
 * Needs: AVX2 (compiled with -mavx2, called only when vg_cpu_has(VG_CPU_AVX2)).
 */
#include <immintrin.h>

#include "mlkem_avx2.h"

/* eta = 2: 16 bytes -> 32 coefficients. In byte k, after pairwise bit sums,
 * bits 0-1 and 2-3 are x and y of coefficient 2k, bits 4-5 and 6-7 those of
 * coefficient 2k + 1. */
static void vg_cbd2(vg_mlkem_poly *r, const uint8_t *buf)
{
    const __m128i m55 = _mm_set1_epi8(0x55), m33 = _mm_set1_epi8(0x33);
    const __m128i m0f = _mm_set1_epi8(0x0f), two = _mm_set1_epi8(0x22);
    const __m256i eta = _mm256_set1_epi16(2);
    for (unsigned g = 0; g < 8; g++) {
        __m128i t = _mm_loadu_si128((const __m128i *)(buf + 16 * g));
        __m128i s = _mm_add_epi8(_mm_and_si128(t, m55), _mm_and_si128(_mm_srli_epi16(t, 1), m55));
        /* per nibble: x + 2 - y in [0, 4] (x, y in [0, 2]) */
        __m128i v = _mm_sub_epi8(_mm_add_epi8(_mm_and_si128(s, m33), two),
                                 _mm_and_si128(_mm_srli_epi16(s, 2), m33));
        __m128i lo = _mm_and_si128(v, m0f), hi = _mm_and_si128(_mm_srli_epi16(v, 4), m0f);
        __m256i c0 = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(lo, hi)); /* coefficients 0..15 */
        __m256i c1 = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(lo, hi)); /* 16..31 */
        _mm256_storeu_si256((__m256i *)(r->coeffs + 32 * g), _mm256_sub_epi16(c0, eta));
        _mm256_storeu_si256((__m256i *)(r->coeffs + 32 * g + 16), _mm256_sub_epi16(c1, eta));
    }
}

/* eta = 3: 24 bytes -> 32 coefficients. Each 3 bytes (24 bits) go to one
 * dword: after triple bit sums, 6-bit slot j holds x (bits 0-2) and y
 * (bits 3-5) of coefficient j of the group. Lane 0 reads bytes 0..15 (uses
 * 0..11), lane 1 bytes 8..23 (uses 12..23): nothing past the 24. */
static void vg_cbd3(vg_mlkem_poly *r, const uint8_t *buf)
{
    const __m256i pick = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 4, 5,
                                          6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
    const __m256i m249 = _mm256_set1_epi32(0x249249);
    const __m256i m1c7 = _mm256_set1_epi32(0x1c71c7);   /* bits 0-2 of each 6-bit slot */
    const __m256i three = _mm256_set1_epi32(0x0c30c3);  /* 3 in each slot */
    const __m256i eta = _mm256_set1_epi16(3);
    for (unsigned g = 0; g < 8; g++) {
        const uint8_t *p = buf + 24 * g;
        __m256i t = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p)),
            _mm_loadu_si128((const __m128i *)(p + 8)), 1);
        t = _mm256_shuffle_epi8(t, pick);
        __m256i s = _mm256_add_epi32(_mm256_and_si256(t, m249),
                                     _mm256_and_si256(_mm256_srli_epi32(t, 1), m249));
        s = _mm256_add_epi32(s, _mm256_and_si256(_mm256_srli_epi32(t, 2), m249));
        /* per slot: x + 3 - y in [0, 6] (x, y in [0, 3]) */
        __m256i v = _mm256_sub_epi32(_mm256_add_epi32(_mm256_and_si256(s, m1c7), three),
                                     _mm256_and_si256(_mm256_srli_epi32(s, 3), m1c7));
        /* slots at bits 0, 6, 12, 18 -> bytes 0, 1, 2, 3 of the dword */
        __m256i b = _mm256_and_si256(v, _mm256_set1_epi32(0x3f));
        b = _mm256_or_si256(b, _mm256_slli_epi32(_mm256_and_si256(v, _mm256_set1_epi32(0xfc0)), 2));
        b = _mm256_or_si256(b,
                            _mm256_slli_epi32(_mm256_and_si256(v, _mm256_set1_epi32(0x3f000)), 4));
        b = _mm256_or_si256(b,
                            _mm256_slli_epi32(_mm256_and_si256(v, _mm256_set1_epi32(0xfc0000)), 6));
        __m256i c0 = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(b));      /* 0..15 */
        __m256i c1 = _mm256_cvtepu8_epi16(_mm256_extracti128_si256(b, 1)); /* 16..31 */
        _mm256_storeu_si256((__m256i *)(r->coeffs + 32 * g), _mm256_sub_epi16(c0, eta));
        _mm256_storeu_si256((__m256i *)(r->coeffs + 32 * g + 16), _mm256_sub_epi16(c1, eta));
    }
}

/* Pre: eta in {2, 3} (other values: 3, like the portable else branch);
 * buf holds 64 eta bytes. Post: |r| <= eta.
 * Specification: FIPS 203, Algorithm 8. */
void vg_mlkem_cbd_avx2(vg_mlkem_poly *r, const uint8_t *buf, unsigned eta)
{
    if (eta == 2) /* eta is a public parameter */
        vg_cbd2(r, buf);
    else
        vg_cbd3(r, buf);
}
