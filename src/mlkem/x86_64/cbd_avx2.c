/*
 * ML-KEM (FIPS 203) AVX2 centred binomial sampling, SamplePolyCBD_eta
 * (Algorithm 8) for eta = 2 and 3: coefficient i is x - y, where x sums
 * bits 2 i eta .. 2 i eta + eta - 1 of the input and y the next eta bits.
 * The same int16 values as the portable vg_mlkem_cbd_portable (poly.c);
 * test_mlkem_backend compares them on random and all-0/all-1 buffers.
 *
 * Technique: eta 2: bit pairs are summed in parallel inside bytes with
 * masks and shifts; x + eta - y is formed per field, where it lies in
 * [0, 2 eta] and so never borrows from its neighbour; fields are spread to
 * one per byte, widened to int16 with vpmovzxbw and eta is subtracted.
 * eta 3: each 6-bit field is moved into its own 16-bit lane and x, y are
 * looked up in a popcount table (see vg_cbd3).
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

/* eta = 3: 12 bytes -> 16 coefficients, one per 16-bit lane. Coefficient
 * j of a 128-bit lane (8 coefficients from 6 bytes) has its 6 bits at bit
 * 6j, i.e. bits s..s+5 (s = 6j mod 8 = 0, 6, 4, 2, ...) of the little-endian
 * word at byte floor(6j / 8): VPSHUFB puts that word in the lane, a
 * multiplication by 2^(10 - s) moves the field to bits 10..15 (VPMULLW
 * drops the bits above) and a shift by 10 brings it down: f in [0, 63].
 * Then x = popcount(f & 7), y = popcount(f >> 3) by a 16-entry VPSHUFB table
 * (the high byte of each lane is 0 and maps to popcount(0) = 0), and
 * x - y in int16. Per 16 coefficients 8 vector operations (the dword
 * bit-sum method this replaces took 14; faster, see docs/benchmarks.md).
 * Table lookups are register shuffles, not memory
 * accesses: constant time.
 * Groups 0..14 load 16 bytes at 12 g (bytes 12 g + 12..15 unused); the
 * last group loads the final 16 bytes (176..191) with the byte indices
 * shifted by 4, so nothing past the 192 bytes is read. The high byte of
 * the last lane's word (index 12, or 16 = byte 0 for the last group) only
 * feeds bits that the multiplication by 2^8 drops. */
static inline __m256i vg_cbd3_group(__m128i bytes, __m256i pick)
{
    const __m256i mul = _mm256_setr_epi16(1024, 16, 64, 256, 1024, 16, 64, 256, 1024, 16, 64, 256,
                                          1024, 16, 64, 256);
    const __m256i pop3 = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2,
                                          1, 2, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i seven = _mm256_set1_epi16(7);
    __m256i f = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(bytes), pick);
    f = _mm256_srli_epi16(_mm256_mullo_epi16(f, mul), 10); /* the 6-bit field */
    __m256i x = _mm256_shuffle_epi8(pop3, _mm256_and_si256(f, seven));
    __m256i y = _mm256_shuffle_epi8(pop3, _mm256_srli_epi16(f, 3));
    return _mm256_sub_epi16(x, y);
}

static void vg_cbd3(vg_mlkem_poly *r, const uint8_t *buf)
{
    /* 16-bit lane j of 128-bit lane h reads bytes 6h + floor(6j / 8) and
     * the one after it. */
#define VG_CBD3_PICK(o)                                                                            \
    _mm256_setr_epi8((o) + 0, (o) + 1, (o) + 0, (o) + 1, (o) + 1, (o) + 2, (o) + 2, (o) + 3,       \
                     (o) + 3, (o) + 4, (o) + 3, (o) + 4, (o) + 4, (o) + 5, (o) + 5, (o) + 6,       \
                     (o) + 6, (o) + 7, (o) + 6, (o) + 7, (o) + 7, (o) + 8, (o) + 8, (o) + 9,       \
                     (o) + 9, (o) + 10, (o) + 9, (o) + 10, (o) + 10, (o) + 11, (o) + 11, (o) + 12)
    const __m256i pick = VG_CBD3_PICK(0), pick_last = VG_CBD3_PICK(4);
#undef VG_CBD3_PICK
    for (unsigned g = 0; g < 15; g++)
        _mm256_storeu_si256((__m256i *)(r->coeffs + 16 * g),
                            vg_cbd3_group(_mm_loadu_si128((const __m128i *)(buf + 12 * g)), pick));
    _mm256_storeu_si256((__m256i *)(r->coeffs + 240),
                        vg_cbd3_group(_mm_loadu_si128((const __m128i *)(buf + 176)), pick_last));
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
