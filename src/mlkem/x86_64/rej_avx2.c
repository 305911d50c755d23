/*
 * ML-KEM (FIPS 203) AVX2 rejection sampling, the inner loop of SampleNTT
 * (Algorithm 7, lines 5-13): 24 bytes give 16 candidates of 12 bits, those
 * < q are kept, in order.
 *
 * Technique: the 24 bytes are spread so that 16-bit lane 2i holds bytes
 * (3i, 3i+1) and lane 2i+1 bytes (3i+1, 3i+2) (one VPERMQ, one VPSHUFB);
 * even lanes keep their low 12 bits, odd lanes are shifted right by 4. A
 * compare against q gives an acceptance mask, narrowed to one bit per lane
 * by VPACKSSWB and VPMOVMSKB (two groups of 24 bytes at a time while there
 * is room); for each 8-lane half, a table of byte shuffles indexed by its
 * 8-bit mask packs the accepted lanes to the front, and the store pointer
 * advances by the mask's popcount. The end of the buffer and the last
 * entries take the same vector step into a scratch buffer (faster than the
 * scalar loop there: docs/benchmarks.md, issue 20).
 *
 * Variable time by design: the input is XOF output on the public seed rho
 * (FIPS 203 3.3: the matrix A is public), so the accept pattern, the table
 * index and the loop count may depend on it. No secret data passes here.
 * Needs: AVX2 (compiled with -mavx2).
 */
#include <immintrin.h>

#include "mlkem_avx2.h"

#include "rej_avx2_table.h"

/* The 16 candidates of the 24 bytes at the start of the 32 readable bytes
 * at p, one per 16-bit lane, in order. */
static inline __attribute__((always_inline)) __m256i rej_decode(const uint8_t *p, __m256i spread,
                                                                 __m256i mask12)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)p);
    v = _mm256_permute4x64_epi64(v, 0x94);
    v = _mm256_shuffle_epi8(v, spread);
    return _mm256_blend_epi16(_mm256_and_si256(v, mask12), _mm256_srli_epi16(v, 4), 0xaa);
}

/* Pack the lanes of the 8-lane group x whose bits are set in m (8 bits) to
 * the front and store all 16 bytes at out; returns the count kept. */
static inline __attribute__((always_inline)) unsigned rej_store8(int16_t *out, __m128i x,
                                                                 unsigned m)
{
    x = _mm_shuffle_epi8(x, _mm_load_si128((const __m128i *)vg_mlkem_avx2_rej_idx[m]));
    _mm_storeu_si128((__m128i *)out, x);
    return vg_mlkem_avx2_rej_pop[m];
}

/* The 16 candidates of the 24 bytes at p (32 readable) as rej_decode, and
 * in *m the acceptance masks of its two 8-lane halves at bits 0-7 and
 * 16-23: VPACKSSWB narrows each 0 / -1 lane to a byte within its 128-bit
 * half (lanes 0-7 to bytes 0-7, lanes 8-15 to bytes 16-23, zeros
 * elsewhere), so VPMOVMSKB gives the two 8-bit masks (was a movemask of
 * the 16-bit lanes and four shift-or steps to drop the duplicate bits). */
static inline __attribute__((always_inline)) __m256i rej_candidates(const uint8_t *p,
                                                                    __m256i spread,
                                                                    __m256i mask12, __m256i q,
                                                                    uint32_t *m)
{
    __m256i d = rej_decode(p, spread, mask12);
    __m256i good = _mm256_cmpgt_epi16(q, d); /* d < 4096: signed compare is fine */
    *m = (uint32_t)_mm256_movemask_epi8(_mm256_packs_epi16(good, _mm256_setzero_si256()));
    return d;
}

/* 16 candidates from the 24 bytes at the start of the 32 readable bytes at
 * p: packs the accepted ones, in order, to out[0..) (two 16-byte stores,
 * out[0..16 + 8) must be writable) and returns their count. */
static inline __attribute__((always_inline)) unsigned rej16(int16_t *out, const uint8_t *p,
                                                            __m256i spread, __m256i mask12,
                                                            __m256i q)
{
    uint32_t m;
    __m256i d = rej_candidates(p, spread, mask12, q, &m);
    unsigned n = rej_store8(out, _mm256_castsi256_si128(d), m & 0xffu);
    return n + rej_store8(out + n, _mm256_extracti128_si256(d, 1), (m >> 16) & 0xffu);
}

/* Post: 0 <= r[i] < q; returns the count written (<= len); the same
 * coefficients and count as the portable routine on any buffer; nothing at
 * or beyond r[len] is written. */
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
    /* Two groups of 24 bytes per pass (32 candidates): one VPACKSSWB of
     * both compare results and one VPMOVMSKB give the four 8-bit masks
     * (bits 0-7 and 16-23: the first group's halves, 8-15 and 24-31: the
     * second's). The stores reach ctr + 32 at most; the second load reads
     * bytes pos + 24 .. pos + 56. */
    while (ctr + 32 <= len && pos + 56 <= buflen) {
        __m256i d0 = rej_decode(buf + pos, spread, mask12);
        __m256i d1 = rej_decode(buf + pos + 24, spread, mask12);
        __m256i g = _mm256_packs_epi16(_mm256_cmpgt_epi16(q, d0), _mm256_cmpgt_epi16(q, d1));
        uint32_t m = (uint32_t)_mm256_movemask_epi8(g);
        ctr += rej_store8(r + ctr, _mm256_castsi256_si128(d0), m & 0xffu);
        ctr += rej_store8(r + ctr, _mm256_extracti128_si256(d0, 1), (m >> 16) & 0xffu);
        ctr += rej_store8(r + ctr, _mm256_castsi256_si128(d1), (m >> 8) & 0xffu);
        ctr += rej_store8(r + ctr, _mm256_extracti128_si256(d1, 1), m >> 24);
        pos += 48;
    }
    /* One group per pass: reads 32 bytes (uses 24) and stores two 8-lane
     * groups of which the accepted ones count; the stores reach ctr + 16 at
     * most. */
    while (ctr + 16 <= len && pos + 32 <= buflen) {
        ctr += rej16(r + ctr, buf + pos, spread, mask12, q);
        pos += 24;
    }
    /* The last entries (fewer than 16 left to fill) and the last 24-byte
     * group of the buffer (fewer than 32 bytes readable): the same vector
     * step, one 8-lane half at a time; a half is stored in place while 8
     * slots are left (its 16-byte store then ends at or before r[len]),
     * else into a scratch buffer of which only what fits is copied: the
     * same candidates in the same order, no write at or beyond r[len] (see
     * the file comment). Storing the halves in place avoids reading back a
     * just-stored scratch vector for all but the last half. */
    while (ctr < len && pos + 24 <= buflen) {
        uint8_t in[32];
        const uint8_t *p = buf + pos;
        if (pos + 32 > buflen) {
            memcpy(in, p, 24);
            memset(in + 24, 0, 8);
            p = in;
        }
        uint32_t m;
        __m256i d = rej_candidates(p, spread, mask12, q, &m);
        for (int h = 0; h < 2 && ctr < len; h++) {
            __m128i x = h ? _mm256_extracti128_si256(d, 1) : _mm256_castsi256_si128(d);
            unsigned mh = (m >> (16 * h)) & 0xffu;
            if (ctr + 8 <= len) {
                ctr += rej_store8(r + ctr, x, mh);
            } else {
                int16_t tmp[8];
                unsigned n = rej_store8(tmp, x, mh);
                if (n > len - ctr)
                    n = len - ctr;
                /* At most 7 entries: a plain loop (gcc made the memcpy of
                 * a variable length REP MOVSQ, whose start-up cost
                 * dominated). */
                for (unsigned i = 0; i < n; i++)
                    r[ctr + i] = tmp[i];
                ctr += n;
            }
        }
        pos += 24;
    }
    /* A buffer length not a multiple of 24: the rest by the portable loop
     * (same candidates, same order). */
    return vg_mlkem_rej_uniform_tail(r, len, buf, buflen, pos, ctr);
}
