/*
 * ML-DSA (FIPS 204) AVX2 rejection sampling, the inner loop of RejNTTPoly
 * (Algorithm 30, lines 4-10, with CoeffFromThreeBytes, Algorithm 14):
 * 24 bytes give 8 candidates of 23 bits (the top bit of every third byte
 * dropped); those < q are kept, in order.
 *
 * Technique: one VPERMQ places bytes 0-15 in the low 128-bit lane and bytes
 * 8-23 in the high one (so bytes 12-23 sit at in-lane offsets 4-15); one
 * VPSHUFB spreads the three bytes of each candidate into a 32-bit lane
 * (fourth byte zero); an AND drops bit 23. The sign bits of v - q are
 * the acceptance mask (candidates are below 2^23); its
 * eight sign bits (VMOVMSKPS) index a table of VPERMD indices that packs
 * the accepted lanes to the front, and the store pointer advances by the
 * mask's popcount (kept in the same table entry).
 *
 * Variable time by design: the input is SHAKE128 output on the public seed
 * rho (A-hat is public, FIPS 204 section 3.6 / Algorithm 32), so the
 * acceptance pattern, the table index and the loop count may depend on it.
 * No secret data passes here.
 * Needs: AVX2 (compiled with -mavx2 -mbmi2).
 */
#include <immintrin.h>
#include <string.h>

#include "mldsa_avx2.h"

#include "rej_avx2_table.h"

/* One group of 8 candidates (v: their 24-bit spread form, bit 23 cleared):
 * the accepted lanes moved to the front, *cnt set to how many. The table
 * entry (one 8-byte load) holds the VPERMD indices and, in bits 3-6 of its
 * byte 0, the count (rej_avx2_table.h). */
static inline __m256i vg_mldsa_rej8(__m256i v, __m256i mq, unsigned *cnt)
{
    /* v - q is negative exactly for the accepted lanes (v < 2^23). */
    unsigned m = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_add_epi32(v, mq)));
    uint64_t e;
    memcpy(&e, vg_mldsa_avx2_rej_idx[m], sizeof e);
    *cnt = (unsigned)(e >> 3) & 15;
    return _mm256_permutevar8x32_epi32(v, _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)e)));
}

/* Post: 0 <= r[i] < q; returns the count written (<= len); the same
 * coefficients and count as the portable routine on any buffer. */
unsigned vg_mldsa_rej_uniform_avx2(int32_t *r, unsigned len, const uint8_t *buf,
                                        size_t buflen)
{
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                            4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
    const __m256i mask23 = _mm256_set1_epi32(0x7fffff);
    const __m256i mq = _mm256_set1_epi32(-VG_MLDSA_Q);
    unsigned ctr = 0;
    size_t pos = 0;
    /* Each pass reads 32 bytes (uses 24) and stores 8 lanes of which the
     * accepted ones count: the store reaches r[ctr + 7] < r[len]. */
    if (len >= 8 && buflen >= 32) {
        const uint8_t *p = buf, *last = buf + (buflen - 32);
        do {
            __m256i v = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)p), 0x94);
            v = _mm256_and_si256(_mm256_shuffle_epi8(v, spread), mask23);
            unsigned cnt;
            _mm256_storeu_si256((__m256i *)(r + ctr), vg_mldsa_rej8(v, mq, &cnt));
            ctr += cnt;
            p += 24;
        } while (p <= last && ctr <= len - 8);
        pos = (size_t)(p - buf);
    }
    /* The last groups of the buffer and of the output, still 8 candidates
     * a step: a group whose 32-byte load would pass buf + buflen is loaded
     * from 8 bytes earlier (qwords 1, 2 | 2, 3 of that load are the same
     * bytes), and when fewer than 8 slots are left the step goes through a
     * scratch block and only its first min(accepted, len - ctr) lanes are
     * copied out. No scalar tail for the buffer sizes
     * the samplers use (multiples of 24 bytes); nothing read past
     * buf + buflen or written past r + len. (Replaced a scalar tail of up
     * to 8 candidates per buffer, whose branches cost more than the
     * vector steps.) */
    while (ctr < len && pos + 24 <= buflen && buflen >= 32) {
        __m256i v;
        if (pos + 32 <= buflen)
            v = _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(buf + pos)), 0x94);
        else /* pos >= 24 here, as buflen >= 32 */
            v = _mm256_permute4x64_epi64(
                _mm256_loadu_si256((const __m256i *)(buf + pos - 8)), 0xe9);
        v = _mm256_and_si256(_mm256_shuffle_epi8(v, spread), mask23);
        unsigned cnt;
        __m256i packed = vg_mldsa_rej8(v, mq, &cnt);
        unsigned left = len - ctr;
        if (left >= 8) {
            _mm256_storeu_si256((__m256i *)(r + ctr), packed);
        } else { /* the last step of a poly: through a scratch block */
            int32_t last[8];
            _mm256_storeu_si256((__m256i *)last, packed);
            cnt = cnt < left ? cnt : left;
            for (unsigned k = 0; k < cnt; k++)
                r[ctr + k] = last[k];
        }
        ctr += cnt;
        pos += 24;
    }
    /* The rest (buffers shorter than 32 bytes, or not a multiple of 24) as
     * in the portable code: same candidates, same order. */
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
 * Per 16 bytes of buf (32 candidates, low nibble first), in two halves of
 * 16 candidates:
 * (1) in registers, each nibble b is mapped by VPSHUFB lookups to its
 *     CoeffFromHalfByte value (eta = 2: 2 - (b mod 5) for b < 15; eta = 4:
 *     4 - b for b < 9) and to its accept bit (set when b < 15, resp. b < 9);
 *     VPSHUFB's time does not depend on the indices, so this stage is
 *     constant time in the secret nibbles;
 * (2) the 16 accept bits are declassified (VPMOVMSKB);
 * (3) each group of eight candidates is packed in registers: two lookups in
 *     two 16-entry tables (64 bytes each, one cache line each, both read for
 *     every group, so which entry is read cannot show through the cache)
 *     give the VPSHUFB control that moves
 *     the accepted values of each half of the group to the front, the
 *     second half's placed after the first's; the packed group
 *     (sign-extended to eight dwords) is merged into the output at the
 *     running count t by a rotation (VPERMD by lane - (t mod 8)) and a
 *     blend with the pending partial block, and that block is written by an
 *     aligned 32-byte store to block floor(t / 8) of a scratch array.
 * Every group runs the same instructions whatever the pattern; the
 * declassified bits reach only a table index (inside one line) and an
 * address (an aligned block of the scratch array). Earlier kernels: one
 * that packed with a 256-entry VPERMD table (32 lines) and unaligned
 * 32-byte stores at tmp + ctr (line splits that depend on ctr) showed
 * timing following the accept pattern in test_dudect_mldsa; one that
 * stored every candidate with a scalar store at its slot had no such
 * timing but ran about 1.3x longer than this one (docs/benchmarks.md).
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

/* Entry m (a 4-bit accept mask) of the low table: bytes 0..3 the indices
 * 0..3 of m's set bits in increasing order, then zero bytes; of the high
 * table: the same indices plus 4, then 0x84 (VPSHUFB writes zero). Byte 0
 * holds the count of set bits in bits 4..6 (VPSHUFB ignores bits 4..6 of
 * its control bytes). A group's control is low | high << (8 * count_low):
 * the zero padding of the low entry lets the OR place the high entry
 * without a mask. One cache line each; every group reads both. */
static const uint32_t vg_mldsa_eta_lo4[16] __attribute__((aligned(64))) = {
    0x00000000, 0x00000010, 0x00000011, 0x00000120, 0x00000012, 0x00000220,
    0x00000221, 0x00020130, 0x00000013, 0x00000320, 0x00000321, 0x00030130,
    0x00000322, 0x00030230, 0x00030231, 0x03020140};
static const uint32_t vg_mldsa_eta_hi4[16] __attribute__((aligned(64))) = {
    0x84848484, 0x84848414, 0x84848415, 0x84840524, 0x84848416, 0x84840624,
    0x84840625, 0x84060534, 0x84848417, 0x84840724, 0x84840725, 0x84070534,
    0x84840726, 0x84070634, 0x84070635, 0x07060544};

/* Blocks of eight dwords in the scratch array: 32 for the 256 values, and
 * block 32 as the spill block once 256 values are in (later stores go
 * there; at most len <= 256 values are copied out). */
#define VG_MLDSA_ETA_BLOCKS 33

/* The block that holds value number t (t accepted so far), the spill
 * block from 256 on. */
static inline uint32_t vg_mldsa_eta_block(uint32_t t)
{
    uint32_t blk = t >> 3;
    return blk < VG_MLDSA_ETA_BLOCKS - 1 ? blk : VG_MLDSA_ETA_BLOCKS - 1;
}

unsigned vg_mldsa_rej_eta_avx2(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen,
                               unsigned eta)
{
    /* Value and accept tables indexed by the nibble (the value entries of
     * rejected nibbles are never kept: 0; accept entries are 0x80 for the
     * sign bit that VPMOVMSKB collects). */
    const __m128i vtab = eta == 2 ? _mm_setr_epi8(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0)
                                  : _mm_setr_epi8(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0);
    const __m128i ktab = eta == 2 ? _mm_setr_epi8(-128, -128, -128, -128, -128, -128, -128, -128,
                                                  -128, -128, -128, -128, -128, -128, -128, 0)
                                  : _mm_setr_epi8(-128, -128, -128, -128, -128, -128, -128, -128,
                                                  -128, 0, 0, 0, 0, 0, 0, 0);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i seven = _mm256_set1_epi32(7);
    struct {
        int32_t tmp[VG_MLDSA_ETA_BLOCKS * 8] __attribute__((aligned(32)));
        uint8_t tail[16];
    } ws;
    /* pending: the values of the current partial block (lanes below
     * t mod 8); pv: t mod 8 in every lane; total: t, accepted so far. */
    __m256i pending = _mm256_setzero_si256(), pv = _mm256_setzero_si256();
    uint32_t total = 0;
    for (size_t pos = 0; pos < buflen; pos += 16) {
        size_t nb = buflen - pos < 16 ? buflen - pos : 16; /* public lengths */
        const uint8_t *p = buf + pos;
        if (nb < 16) {
            /* The last bytes through a copy padded with 0xff, so no load
             * passes buf + buflen: nibble 15 is rejected for both eta, so
             * the padding candidates are never kept. */
            memset(ws.tail, 0xff, sizeof ws.tail);
            memcpy(ws.tail, p, nb);
            p = ws.tail;
        }
        __m128i nib[2];
        vg_mldsa_eta_nibbles(&nib[0], &nib[1], p);
        for (unsigned h = 0; h < 2; h++) {
            __m128i v = _mm_shuffle_epi8(vtab, nib[h]);
            uint32_t m = (uint32_t)_mm_movemask_epi8(_mm_shuffle_epi8(ktab, nib[h]));
            /* Declassify: the accept/reject bits of these candidates. Which
             * nibbles are rejected is independent of the accepted values
             * (each kept coefficient is uniform on [-eta, eta] whatever the
             * pattern), so it reveals nothing about s1 or s2; it decides only
             * where each value goes (as in vg_mldsa_rej_eta_portable). */
            VG_CT_DECLASSIFY(&m, sizeof m);
            for (unsigned g = 0; g < 2; g++) {
                uint32_t el = vg_mldsa_eta_lo4[(m >> (8 * g)) & 15];
                uint32_t eh = vg_mldsa_eta_hi4[(m >> (8 * g + 4)) & 15];
                uint32_t clo = (el >> 4) & 7, chi = (eh >> 4) & 7; /* <= 4 each */
                /* Control for the group's candidates (bytes 8g .. 8g+7 of
                 * v): the low half's clo indices, then from byte clo on the
                 * high half's (its indices + 4); bytes from clo + chi on
                 * pick values the merge never keeps. No byte sum carries:
                 * an index + 8 <= 15 (bits 4..6 hold at most the count 4)
                 * and 0x84 + 8 keeps bit 7. */
                uint64_t ctl = (uint64_t)el | ((uint64_t)eh << (8 * clo));
                ctl += 0x0808080808080808ull * g;
                __m256i cv = _mm256_set1_epi32((int)(clo + chi));
                __m128i sh = _mm_shuffle_epi8(v, _mm_cvtsi64_si128((long long)ctl));
                __m256i nw = _mm256_cvtepi8_epi32(sh);
                /* rot lane j = nw[(j - t) mod 8]: lanes t mod 8 .. 7 take the
                 * first values, the lanes below t mod 8 the ones that
                 * overflow into the next block (VPERMD uses index bits 0-2). */
                __m256i rot = _mm256_permutevar8x32_epi32(nw, _mm256_sub_epi32(lane, pv));
                __m256i lw = _mm256_blendv_epi8(rot, pending, _mm256_cmpgt_epi32(pv, lane));
                _mm256_store_si256((__m256i *)(ws.tmp + 8 * vg_mldsa_eta_block(total)), lw);
                /* Block complete (t mod 8 + count >= 8): the overflow lanes
                 * of rot start the next partial block; else lw continues. */
                __m256i sv = _mm256_add_epi32(pv, cv);
                pending = _mm256_blendv_epi8(lw, rot, _mm256_cmpgt_epi32(sv, seven));
                pv = _mm256_and_si256(sv, seven);
                total += clo + chi;
            }
        }
    }
    _mm256_store_si256((__m256i *)(ws.tmp + 8 * vg_mldsa_eta_block(total)), pending);
    unsigned ctr = total < len ? total : len; /* public: a count of declassified bits */
    memcpy(r, ws.tmp, ctr * sizeof ws.tmp[0]);
    vg_wipe(&ws, sizeof ws);
    return ctr;
}
