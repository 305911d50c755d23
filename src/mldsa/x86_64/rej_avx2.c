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
unsigned vg_mldsa_rej_uniform_avx2(int32_t *r, unsigned len, const uint8_t *buf,
                                        size_t buflen)
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

/* ---- SampleInBall (FIPS 204, Algorithm 29) --------------------------------
 * The positions of the (at most 64) steps live in two ymm registers of
 * bytes; every candidate rewrites both under byte masks, so nothing depends
 * on the secret bytes but register contents. Contracts in poly.h
 * (ball_track, ball_place); the same results as the portable routines. */

/* Pre: tau <= 60, cnt <= tau. Constant time in buf, pos, cnt. */
unsigned vg_mldsa_ball_track_avx2(uint8_t pos[64], unsigned cnt, const uint8_t *buf,
                                  unsigned len, unsigned tau)
{
    const __m256i t0 = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                        17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    const __m256i t1 = _mm256_add_epi8(t0, _mm256_set1_epi8(32));
    __m256i p0 = _mm256_loadu_si256((const __m256i *)pos);
    __m256i p1 = _mm256_loadu_si256((const __m256i *)(pos + 32));
    uint32_t n = cnt;
    for (unsigned k = 0; k < len; k++) {
        uint32_t b = buf[k];
        uint32_t i = VG_MLDSA_N - tau + n; /* <= 255 while n < tau */
        /* n < tau and b <= i, as bits from the sign of differences. */
        uint32_t acc = ((n - tau) >> 31) & (((i - b) >> 31) ^ 1u);
        __m256i bb = _mm256_set1_epi8((char)b), ii = _mm256_set1_epi8((char)i);
        __m256i nn = _mm256_set1_epi8((char)n); /* n <= 60: signed compares are fine */
        __m256i am = _mm256_set1_epi8((char)(0u - acc));
        /* moved: t < n and pos[t] == b (the value at j goes to i);
         * fresh: t == n (the new step's value at j). Disjoint. */
        __m256i mv0 = _mm256_and_si256(_mm256_cmpgt_epi8(nn, t0), _mm256_cmpeq_epi8(p0, bb));
        __m256i mv1 = _mm256_and_si256(_mm256_cmpgt_epi8(nn, t1), _mm256_cmpeq_epi8(p1, bb));
        __m256i n0 = _mm256_blendv_epi8(p0, ii, mv0);
        __m256i n1 = _mm256_blendv_epi8(p1, ii, mv1);
        n0 = _mm256_blendv_epi8(n0, bb, _mm256_cmpeq_epi8(t0, nn));
        n1 = _mm256_blendv_epi8(n1, bb, _mm256_cmpeq_epi8(t1, nn));
        p0 = _mm256_blendv_epi8(p0, n0, am);
        p1 = _mm256_blendv_epi8(p1, n1, am);
        n += acc;
    }
    _mm256_storeu_si256((__m256i *)pos, p0);
    _mm256_storeu_si256((__m256i *)(pos + 32), p1);
    return n;
}

/* Pre: pos[0..tau) distinct, tau <= 60. Post: c[k] = (-1)^(bit t of
 * signs) when pos[t] == k, else 0. Constant time in pos and signs. */
void vg_mldsa_ball_place_avx2(int32_t c[VG_MLDSA_N], const uint8_t pos[64], uint64_t signs,
                              unsigned tau)
{
    __m256i acc[8], idx[8];
    const __m256i step = _mm256_set1_epi8(32);
    idx[0] = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
                              19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    acc[0] = _mm256_setzero_si256();
    for (unsigned b = 1; b < 8; b++) {
        idx[b] = _mm256_add_epi8(idx[b - 1], step);
        acc[b] = _mm256_setzero_si256();
    }
    for (unsigned t = 0; t < tau; t++) {
        /* 0x01 (+1) or 0xff (-1) from the sign bit, by arithmetic. */
        uint32_t sv = 1u | (0u - (uint32_t)((signs >> t) & 1));
        __m256i s = _mm256_set1_epi8((char)sv), p = _mm256_set1_epi8((char)pos[t]);
        for (unsigned b = 0; b < 8; b++)
            acc[b] = _mm256_or_si256(acc[b], _mm256_and_si256(_mm256_cmpeq_epi8(idx[b], p), s));
    }
    for (unsigned b = 0; b < 8; b++) {
        __m128i lo = _mm256_castsi256_si128(acc[b]), hi = _mm256_extracti128_si256(acc[b], 1);
        _mm256_storeu_si256((__m256i *)(c + 32 * b), _mm256_cvtepi8_epi32(lo));
        _mm256_storeu_si256((__m256i *)(c + 32 * b + 8), _mm256_cvtepi8_epi32(_mm_srli_si128(lo, 8)));
        _mm256_storeu_si256((__m256i *)(c + 32 * b + 16), _mm256_cvtepi8_epi32(hi));
        _mm256_storeu_si256((__m256i *)(c + 32 * b + 24), _mm256_cvtepi8_epi32(_mm_srli_si128(hi, 8)));
    }
}

/* ---- RejBoundedPoly (FIPS 204, Algorithm 31 with Algorithm 15) ------------
 * Per 16 bytes of buf (32 candidates, low nibble first):
 * (1) in registers, each nibble b is mapped by VPSHUFB lookups to its
 *     CoeffFromHalfByte value (eta = 2: 2 - (b mod 5) for b < 15; eta = 4:
 *     4 - b for b < 9) and to its accept bit (1 when b < 15, resp. b < 9);
 *     VPSHUFB's time does not depend on the indices, so this stage is
 *     constant time in the secret nibbles;
 * (2) the accept bits are declassified and turned, still in registers, into
 *     each candidate's slot: min(count of accepted candidates before it,
 *     len), by a prefix sum (four shifted adds per 16 bytes) plus the
 *     running count;
 * (3) a scalar loop stores every candidate's value at tmp[slot]. A rejected
 *     candidate's value lands in the slot the next accepted one overwrites
 *     (stores happen in candidate order), and once len values are kept every
 *     further candidate goes to the spill slot tmp[len]: exactly the stores
 *     of vg_mldsa_rej_eta_portable (one 4-byte store per candidate), whose
 *     running-count dependency chain (one per candidate) this
 *     replaces with independent stores.
 * Only the accept bits reach an address (the slot), as in the portable
 * routine; the values never do. (An earlier kernel that packed eight
 * candidates with a VPERMD table and 32-byte stores at tmp + ctr showed
 * timing following the accept pattern in test_dudect_mldsa; this one keeps
 * the portable stores.)
 * Same results and count as vg_mldsa_rej_eta_portable on any buffer;
 * contract in poly.h (Pre: len <= 256, eta in {2, 4}). */

/* Candidates 0..15 (n0) and 16..31 (n1) of the 16 bytes at p: candidate 2i
 * from the low nibble of p[i], 2i + 1 from its high nibble. */
static inline void vg_mldsa_eta_nibbles(__m128i *n0, __m128i *n1, const uint8_t *p)
{
    const __m128i low4 = _mm_set1_epi8(15);
    __m128i b = _mm_loadu_si128((const __m128i *)p);
    __m128i lo = _mm_and_si128(b, low4);
    __m128i hi = _mm_and_si128(_mm_srli_epi16(b, 4), low4);
    *n0 = _mm_unpacklo_epi8(lo, hi);
    *n1 = _mm_unpackhi_epi8(lo, hi);
}

/* Inclusive prefix sums of the 16 bytes of k (each 0 or 1: sums <= 16). */
static inline __m128i vg_mldsa_prefix16(__m128i k)
{
    k = _mm_add_epi8(k, _mm_slli_si128(k, 1));
    k = _mm_add_epi8(k, _mm_slli_si128(k, 2));
    k = _mm_add_epi8(k, _mm_slli_si128(k, 4));
    return _mm_add_epi8(k, _mm_slli_si128(k, 8));
}

/* Slots of 16 candidates with accept bits k (declassified), the first
 * getting slot *base when accepted: slot[i] = min(*base + accepted before
 * i, len); advances *base by the accepted count (*base may pass len; the
 * slots do not). */
static inline void vg_mldsa_eta_slots(uint16_t slot[16], unsigned *base, __m128i k, __m256i lenv)
{
    __m128i incl = vg_mldsa_prefix16(k);
    __m256i excl = _mm256_cvtepu8_epi16(_mm_sub_epi8(incl, k));
    excl = _mm256_add_epi16(excl, _mm256_set1_epi16((short)*base));
    _mm256_storeu_si256((__m256i *)slot, _mm256_min_epu16(excl, lenv));
    *base += (unsigned)_mm_extract_epi8(incl, 15);
}

unsigned vg_mldsa_rej_eta_avx2(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen,
                               unsigned eta)
{
    /* Value and accept tables indexed by the nibble (entries for rejected
     * nibbles are never kept: 0). */
    const __m128i vtab = eta == 2 ? _mm_setr_epi8(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0)
                                  : _mm_setr_epi8(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0);
    const __m128i ktab = eta == 2 ? _mm_setr_epi8(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0)
                                  : _mm_setr_epi8(1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0);
    const __m256i lenv = _mm256_set1_epi16((short)len);
    struct {
        int32_t tmp[VG_MLDSA_N + 1];
        int8_t v[32];
        uint8_t tail[16];
    } ws;
    uint16_t slot[32];
    unsigned base = 0; /* accepted so far, may pass len (then slot = len) */
    for (size_t pos = 0; pos < buflen; pos += 16) {
        size_t nb = buflen - pos < 16 ? buflen - pos : 16; /* public lengths */
        const uint8_t *p = buf + pos;
        if (nb < 16) {
            /* The last bytes through a copy padded with 0xff, so no load
             * passes buf + buflen: nibble 15 is rejected for both eta, so
             * the padding candidates add nothing to the count (and they are
             * not stored below). */
            memset(ws.tail, 0xff, sizeof ws.tail);
            memcpy(ws.tail, p, nb);
            p = ws.tail;
        }
        __m128i n0, n1;
        vg_mldsa_eta_nibbles(&n0, &n1, p);
        _mm_storeu_si128((__m128i *)ws.v, _mm_shuffle_epi8(vtab, n0));
        _mm_storeu_si128((__m128i *)(ws.v + 16), _mm_shuffle_epi8(vtab, n1));
        __m128i k0 = _mm_shuffle_epi8(ktab, n0), k1 = _mm_shuffle_epi8(ktab, n1);
        /* Declassify: the accept/reject bits of these candidates. Which
         * nibbles are rejected is independent of the accepted values (each
         * kept coefficient is uniform on [-eta, eta] whatever the pattern),
         * so it reveals nothing about s1 or s2; it decides only where each
         * value goes (as in vg_mldsa_rej_eta_portable). */
        VG_CT_DECLASSIFY(&k0, sizeof k0);
        VG_CT_DECLASSIFY(&k1, sizeof k1);
        vg_mldsa_eta_slots(slot, &base, k0, lenv);
        vg_mldsa_eta_slots(slot + 16, &base, k1, lenv);
        for (unsigned n = 0; n < 2 * nb; n++)
            ws.tmp[slot[n]] = ws.v[n]; /* slot <= len <= 256 */
    }
    unsigned ctr = base < len ? base : len; /* public: a count of declassified bits */
    memcpy(r, ws.tmp, ctr * sizeof ws.tmp[0]);
    vg_wipe(&ws, sizeof ws);
    return ctr;
}
