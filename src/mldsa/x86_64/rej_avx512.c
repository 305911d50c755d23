/*
 * ML-DSA (FIPS 204) RejBoundedPoly's inner loop (Algorithm 31 lines 4-13
 * with CoeffFromHalfByte, Algorithm 15) with AVX-512 VBMI2: the kept
 * coefficients are packed in registers only, so neither the values nor the
 * accept pattern reach an address or a branch.
 *
 * Per 32 bytes of buf (64 candidates, low nibble first):
 *  - VPMOVZXBW and two shifts put candidate 2i (low nibble of byte i) and
 *    2i + 1 (high nibble) in bytes 2i and 2i + 1 of a zmm register;
 *  - an unsigned byte compare with 15 (eta = 2) or 9 (eta = 4) gives the
 *    accept mask, a VPSHUFB lookup the CoeffFromHalfByte values;
 *  - VPCOMPRESSB (register form) packs the accepted values to the front of
 *    a register, in order;
 *  - the packed fragment goes to output bytes [base, base + count) of a
 *    256-byte result held in four zmm registers: for each of them a byte
 *    subtract and compare give the lanes (those in [base, base + count)
 *    below len) and one VPERMB with merge masking moves the values there.
 * base and count are sums of accept bits: they go into register contents,
 * mask registers and the VPERMB index only, never into an address or a
 * branch, so the time does not depend on the accept pattern either
 * (vg_mldsa_rej_eta_portable and the AVX2 kernel store each candidate at a
 * count-dependent address; this kernel has no such store). At the end the
 * count min(base, len) is returned: the caller draws another block when it
 * is below len (public by design, FIPS 204 Algorithm 31), so it is
 * declassified here, and the result goes from the registers to r[0..count)
 * in 16-lane stores, the last masked to the count (no staging buffer to
 * copy and wipe, faster on Zen 4; see docs/benchmarks.md);
 * the last bytes of buf come through a masked load padded with 0xff.
 *
 * Same results and count as vg_mldsa_rej_eta_portable on any buffer;
 * contract in poly.h (Pre: len <= 256, eta in {2, 4}; writes r[0..count)
 * only). Needs AVX-512 F, BW, VBMI and VBMI2 (VG_CPU_AVX512F |
 * VG_CPU_AVX512BW | VG_CPU_AVX512VBMI2); compiled with those flags and
 * called only when they are active (vg_mldsa_rej_eta_avx2 dispatches).
 */
#include <immintrin.h>

#include "mldsa_avx2.h"

/* The sign mask of x (all-ones when x < 0), through a value barrier: without
 * it clang 14 recognises min/max patterns built on it and compiles them to
 * compares and conditional jumps on the accepted count (seen in
 * test_dudect_mldsa, ML-DSA-65 key generation |t| > 100). */
static inline int64_t vg_signmask64(int64_t x)
{
    return (int64_t)vg_barrier_u64((uint64_t)(x >> 63));
}

/* min(a, b) with no branch (a - b cannot overflow here: |a|, |b| < 2^40). */
static inline int64_t vg_min64(int64_t a, int64_t b)
{
    int64_t d = a - b;
    return b + (d & vg_signmask64(d));
}

static const uint8_t vg_iota64[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};

/* r[at .. min(at + 16, ctr)) = the 16 bytes of v sign-extended, when at <
 * ctr (ctr public: declassified). */
static inline void vg_eta_store16(int32_t *r, unsigned ctr, unsigned at, __m128i v)
{
    if (at < ctr) {
        unsigned n = ctr - at < 16 ? ctr - at : 16;
        _mm512_mask_storeu_epi32(r + at, (__mmask16)((1u << n) - 1), _mm512_cvtepi8_epi32(v));
    }
}

unsigned vg_mldsa_rej_eta_avx512(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen,
                                 unsigned eta)
{
    /* CoeffFromHalfByte values by nibble (rejected nibbles: never kept). */
    const __m128i vt = eta == 2
                           ? _mm_setr_epi8(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0)
                           : _mm_setr_epi8(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0);
    const __m512i vtab = _mm512_broadcast_i32x4(vt);
    const __m512i bound = _mm512_set1_epi8(eta == 2 ? 15 : 9);
    const __m512i low4 = _mm512_set1_epi16(15);
    const __m512i iota = _mm512_loadu_si512((const void *)vg_iota64);
    __m512i out[4];
    int64_t base = 0; /* accepted so far (may pass len; nothing lands there) */
    __m512i opos[4]; /* the output positions 64 j + i of register j, as bytes */
    for (unsigned j = 0; j < 4; j++) {
        out[j] = _mm512_setzero_si512();
        opos[j] = _mm512_add_epi8(iota, _mm512_set1_epi8((char)(64 * j)));
    }
    for (size_t pos = 0; pos < buflen; pos += 32) {
        size_t nb = buflen - pos < 32 ? buflen - pos : 32; /* public lengths */
        /* The last bytes through a masked load padded with 0xff, so no
         * load passes buf + buflen: nibble 15 is rejected for both eta, so
         * the padding candidates are never accepted. */
        __m256i raw = nb < 32 ? _mm256_mask_loadu_epi8(_mm256_set1_epi8(-1),
                                                       (__mmask32)((1u << nb) - 1), buf + pos)
                              : _mm256_loadu_si256((const __m256i *)(buf + pos));
        __m512i w = _mm512_cvtepu8_epi16(raw);
        __m512i nib = _mm512_or_si512(_mm512_and_si512(w, low4),
                                      _mm512_slli_epi16(_mm512_srli_epi16(w, 4), 8));
        __mmask64 k = _mm512_cmplt_epu8_mask(nib, bound);
        __m512i frag = _mm512_maskz_compress_epi8(k, _mm512_shuffle_epi8(vtab, nib));
        int64_t cnt = (int64_t)_mm_popcnt_u64(k);
        /* Output byte p (0 <= p < 256) takes frag[p - base] for base <= p <
         * min(base + cnt, len): with b = min(base, 256) and d = max(min(base
         * + cnt, len) - b, 0) <= 64, exactly the lanes whose rel = (p - b)
         * mod 256 is below d (b + d <= 256: no wrap; b = 256 gives d = 0),
         * and rel's low six bits are VPERMB's index p - base. */
        int64_t b = vg_min64(base, 256);
        int64_t d = vg_min64(base + cnt, (int64_t)len) - b;
        d &= ~vg_signmask64(d);
        __m512i bb = _mm512_set1_epi8((char)(uint8_t)b), dd = _mm512_set1_epi8((char)d);
        for (unsigned j = 0; j < 4; j++) {
            __m512i rel = _mm512_sub_epi8(opos[j], bb);
            __mmask64 m = _mm512_cmplt_epu8_mask(rel, dd);
            out[j] = _mm512_mask_permutexvar_epi8(out[j], m, rel, frag);
        }
        base += cnt;
    }
    unsigned ctr = (unsigned)vg_min64(base, (int64_t)len);
    /* Declassify: the count of accepted candidates (a sum of accept bits,
     * independent of the kept values); the caller draws another block when
     * it is below len, as Algorithm 31 does. */
    VG_CT_DECLASSIFY(&ctr, sizeof ctr);
    /* r[0..ctr) straight from the registers, 16 lanes a store, the last
     * one masked to the lanes below ctr (no staging buffer to copy and
     * wipe); the stores depend on ctr only. */
    for (unsigned j = 0; j < 4; j++) { /* constant indices: out[] stays in registers */
        vg_eta_store16(r, ctr, 64 * j, _mm512_castsi512_si128(out[j]));
        vg_eta_store16(r, ctr, 64 * j + 16, _mm512_extracti32x4_epi32(out[j], 1));
        vg_eta_store16(r, ctr, 64 * j + 32, _mm512_extracti32x4_epi32(out[j], 2));
        vg_eta_store16(r, ctr, 64 * j + 48, _mm512_extracti32x4_epi32(out[j], 3));
    }
    return ctr;
}

/* ---- RejNTTPoly (FIPS 204, Algorithm 30 with Algorithm 14) ----------------
 * 16 candidates per step: one VPERMB spreads the 48 bytes of 16
 * candidates into 32-bit lanes (byte 4 j + i from byte 3 j + i, i < 3), an
 * AND keeps their low 23 bits; a compare with q gives
 * the accept mask, VPCOMPRESSD (register form; the memory form is slow on
 * Zen 4) packs the accepted lanes to the front and one 64-byte store writes
 * them at r + ctr, which advances by the mask's popcount. (The VPERMB
 * replaces the AVX2 kernel's VPERMQ and VPSHUFB, slightly faster on
 * Zen 4; see docs/benchmarks.md.) Two independent steps
 * per pass while 32 more coefficients fit and 112 bytes remain (four per
 * pass measured no faster); then single steps with masked loads and
 * stores: the load takes only the bytes left (at most 48; the lanes of
 * candidates not wholly in the buffer are masked out of the accept mask)
 * and the store only the first min(accepted, len - ctr) lanes, so the last
 * candidates need no scalar or AVX2 tail (faster than the earlier AVX2
 * tail), and nothing is read past buf + buflen or
 * written past r + len.
 * Variable time by design, as the AVX2 kernel: the input is SHAKE128 output
 * on the public seed rho (A-hat is public, FIPS 204 section 3.6). Same
 * coefficients, order and count as the portable routine on any buffer.
 * Called by vg_mldsa_rej_uniform_avx2 under the same feature test as
 * vg_mldsa_rej_eta_avx512. */
unsigned vg_mldsa_rej_uniform_avx512(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen)
{
    const __m512i mask23 = _mm512_set1_epi32(0x7fffff);
    const __m512i q = _mm512_set1_epi32(VG_MLDSA_Q);
    /* Byte 4 j + i of the spread form is byte 3 j + i of the input (i < 3;
     * byte 4 j + 3 takes byte 0, cleared by the AND with mask23). */
    const __m512i spb = _mm512_set_epi32(0x002f2e2d, 0x002c2b2a, 0x00292827, 0x00262524,
                                         0x00232221, 0x00201f1e, 0x001d1c1b, 0x001a1918,
                                         0x00171615, 0x00141312, 0x0011100f, 0x000e0d0c,
                                         0x000b0a09, 0x00080706, 0x00050403, 0x00020100);
    unsigned ctr = 0;
    size_t pos = 0;
    /* Reads buf[pos .. pos + 112) (uses 96); writes r[ctr .. ctr + 32) at
     * most (the second store starts at most 16 further). */
    while (ctr + 32 <= len && pos + 112 <= buflen) {
        __m512i v0 = _mm512_loadu_si512((const void *)(buf + pos));
        __m512i v1 = _mm512_loadu_si512((const void *)(buf + pos + 48));
        v0 = _mm512_and_si512(_mm512_permutexvar_epi8(spb, v0), mask23);
        v1 = _mm512_and_si512(_mm512_permutexvar_epi8(spb, v1), mask23);
        __mmask16 k0 = _mm512_cmplt_epi32_mask(v0, q), k1 = _mm512_cmplt_epi32_mask(v1, q);
        _mm512_storeu_si512((void *)(r + ctr), _mm512_maskz_compress_epi32(k0, v0));
        ctr += (unsigned)_mm_popcnt_u32(k0);
        _mm512_storeu_si512((void *)(r + ctr), _mm512_maskz_compress_epi32(k1, v1));
        ctr += (unsigned)_mm_popcnt_u32(k1);
        pos += 96;
    }
    /* The rest, 16 candidates (48 bytes) a step: nb <= 48 bytes loaded,
     * nc = nb / 3 whole candidates, the first min(popcount, len - ctr)
     * accepted ones stored. */
    while (ctr < len && pos + 3 <= buflen) {
        size_t nb = buflen - pos < 48 ? buflen - pos : 48;
        unsigned nc = (unsigned)(nb / 3);
        __m512i v = _mm512_maskz_loadu_epi8((__mmask64)(((uint64_t)1 << nb) - 1), buf + pos);
        v = _mm512_and_si512(_mm512_permutexvar_epi8(spb, v), mask23);
        __mmask16 k = _mm512_mask_cmplt_epi32_mask((__mmask16)((1u << nc) - 1), v, q);
        unsigned cnt = (unsigned)_mm_popcnt_u32(k);
        cnt = cnt < len - ctr ? cnt : len - ctr;
        _mm512_mask_storeu_epi32(r + ctr, (__mmask16)((1u << cnt) - 1),
                                 _mm512_maskz_compress_epi32(k, v));
        ctr += cnt;
        pos += 3 * nc;
    }
    return ctr;
}
