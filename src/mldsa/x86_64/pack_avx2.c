/*
 * ML-DSA (FIPS 204) bit packing with AVX2: the kernels of struct
 * vg_mldsa_pack (poly.h), SimpleBitPack / BitPack / SimpleBitUnpack /
 * BitUnpack (Algorithms 16-19) for the widths of t1 (10 bits), t0 (13),
 * s1 and s2 (3 or 4), w1 (6 or 4), and t1 2^d. Each returns exactly the
 * bytes or coefficients of the portable routine in poly.c on every input
 * that routine accepts (for BitUnpack of s: every byte string, with the
 * same range verdict).
 *
 * Unpacking, eight fields of b bits (b bytes) a step: field j starts at bit
 * j b of the group, so the bytes floor(j b / 8) .. of the group hold it
 * shifted right by j b mod 8. One VBROADCASTI128 of the group's first 16
 * bytes, one VPSHUFB that puts each field's bytes (two or three) in its
 * 32-bit lane (absolute indices: both 128-bit lanes see the same bytes),
 * one VPSRLVD and a mask. The last group, whose 16-byte load would pass the
 * end, loads the 16 bytes that end there instead, with every index moved up
 * by 16 - b (the group's bytes are the last b of those). For 3 and 4 bits
 * a group is 3 or 4 bytes: one 32-bit broadcast, VPSRLVD and a mask.
 *
 * Packing, fields f in 16-bit lanes (VPACKUSDW/VPACKSSDW, then VPERMQ for
 * the order): VPMADDWD with (1, 2^b) joins neighbours into 2b-bit fields in
 * 32-bit lanes, a VPSLLVD / VPSRLQ pair joins those into 4b-bit fields in
 * 64-bit lanes, and VPSHUFB (with VPERMD where the groups are whole 32-bit
 * words) moves the bytes together. The 16-byte stores overlap, in
 * ascending order (each writes zeros past its group's bytes, which the next
 * store overwrites); the last group's store is cut to its bytes, so nothing
 * is written past r + 32 b.
 *
 * Constant time: no branch or address depends on the coefficients or the
 * bytes (the loops and the last-group cases depend only on the widths,
 * which are public parameters); the eta range verdict is folded with
 * VMOVMSKPS (or from a mask register) and arithmetic. Compiled with -mavx2;
 * used only through the variants whose _get checked AVX2 (backend.c).
 *
 * The second half of the file has the same kernels for AVX-512 VBMI
 * (VPERMB: any byte of a zmm register to any place, so no reordering
 * shuffles, and masked loads and stores cut to the encoding's bytes),
 * compiled for those features through the target attribute and used when
 * they are active (the avx2+avx512vbmi variant, backend.c): faster on
 * Zen 4 than the AVX2 ones; see docs/benchmarks.md.
 */
#include <immintrin.h>

#include "mldsa_avx2.h"

static inline __m256i vg_ld(const int32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void vg_st(int32_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

/* The 16 bytes at p in both 128-bit lanes. */
static inline __m256i vg_bcast16(const uint8_t *p)
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
}

/* Stores the first n bytes of v at o, 8 < n <= 16: no byte past o + n. */
static inline void vg_store_n(uint8_t *o, __m128i v, size_t n)
{
    uint64_t hi = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v));
    _mm_storel_epi64((__m128i *)o, v);
    memcpy(o + 8, &hi, n - 8); /* x86-64: little-endian */
}

/* Two 8-lane int32 vectors (coefficients 0-7 and 8-15, each in
 * [0, 2^15)) as 16 words in order: lane 0 has 0-7, lane 1 8-15. */
static inline __m256i vg_words16(__m256i a0, __m256i a1)
{
    return _mm256_permute4x64_epi64(_mm256_packs_epi32(a0, a1), 0xd8);
}

/* ---- t1: 10 bits (SimpleBitPack(t1, 2^10 - 1), Algorithms 16, 18) ------- */

/* Sixteen fields f < 2^10 (lanes in order) into the low 10 bytes of each
 * 128-bit lane (fields 0-7 in lane 0, 8-15 in lane 1). */
static inline __m256i vg_pack10x16(__m256i w)
{
    const __m256i sh = _mm256_setr_epi32(12, 0, 12, 0, 12, 0, 12, 0);
    const __m256i idx = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1,
                                         0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1);
    /* f0 + 2^10 f1 (20 bits) per 32-bit lane, then per 64-bit lane the
     * even one shifted up by 12 and the whole lane down by 12: 40 bits. */
    __m256i d = _mm256_madd_epi16(w, _mm256_set1_epi32((1 << 10) << 16 | 1));
    d = _mm256_srli_epi64(_mm256_sllv_epi32(d, sh), 12);
    return _mm256_shuffle_epi8(d, idx);
}

/* Pre: 0 <= a < 2^10. Writes exactly the 320 bytes at r. */
void vg_mldsa_t1_pack_avx2(uint8_t r[VG_MLDSA_POLYT1_BYTES], const vg_mldsa_poly *a)
{
    for (unsigned g = 0; g < VG_MLDSA_N / 16; g++) {
        uint8_t *o = r + 20 * g;
        const int32_t *c = a->coeffs + 16 * g;
        __m256i v = vg_pack10x16(vg_words16(vg_ld(c), vg_ld(c + 8)));
        __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
        _mm_storeu_si128((__m128i *)o, lo);
        if (g < VG_MLDSA_N / 16 - 1)
            _mm_storeu_si128((__m128i *)(o + 10), hi);
        else
            vg_store_n(o + 10, hi, 10);
    }
}

/* Fields 0-7 of the 8-field group whose bytes are at index d.. of the
 * broadcast bytes (bytes floor(10 j / 8) + d, +1; shift 10 j mod 8). */
#define VG_IDX10(d)                                                                                \
    _mm256_setr_epi8(0 + (d), 1 + (d), -1, -1, 1 + (d), 2 + (d), -1, -1, 2 + (d), 3 + (d), -1, -1, \
                     3 + (d), 4 + (d), -1, -1, 5 + (d), 6 + (d), -1, -1, 6 + (d), 7 + (d), -1, -1, \
                     7 + (d), 8 + (d), -1, -1, 8 + (d), 9 + (d), -1, -1)

/* Post: 0 <= a < 2^10. Reads exactly the 320 bytes at r. */
void vg_mldsa_t1_unpack_avx2(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT1_BYTES])
{
    const __m256i idx = VG_IDX10(0), idx_last = VG_IDX10(6);
    const __m256i sh = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    const __m256i m = _mm256_set1_epi32(0x3ff);
    for (unsigned g = 0; g < VG_MLDSA_N / 8 - 1; g++) {
        __m256i x = _mm256_shuffle_epi8(vg_bcast16(r + 10 * g), idx);
        vg_st(a->coeffs + 8 * g, _mm256_and_si256(_mm256_srlv_epi32(x, sh), m));
    }
    /* The last group: bytes 304..319, the group's at 6..15. */
    __m256i x = _mm256_shuffle_epi8(vg_bcast16(r + 304), idx_last);
    vg_st(a->coeffs + 248, _mm256_and_si256(_mm256_srlv_epi32(x, sh), m));
}

/* ---- t0: 13 bits (BitPack(t0, 2^12 - 1, 2^12), Algorithms 17, 19) ------- */

/* Pre: -2^12 < a <= 2^12. Writes exactly the 416 bytes at r. Secret:
 * constant time. */
void vg_mldsa_t0_pack_avx2(uint8_t r[VG_MLDSA_POLYT0_BYTES], const vg_mldsa_poly *a)
{
    const __m256i off = _mm256_set1_epi32(1 << 12);
    const __m256i sh = _mm256_setr_epi32(6, 0, 6, 0, 6, 0, 6, 0);
    /* Lane bytes 0-6 of the 52-bit field pair 0-3 and, from the pair 4-7
     * shifted up by 4, bytes 0-6 at 6-12 (byte 6 shared: the low nibble
     * from one, the high from the other). */
    const __m256i ia = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                        0, 1, 2, 3, 4, 5, 6, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i ib =
        _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, 14, -1, -1, -1,
                         -1, -1, -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, 14, -1, -1, -1);
    for (unsigned g = 0; g < VG_MLDSA_N / 16; g++) {
        uint8_t *o = r + 26 * g;
        __m256i f0 = _mm256_sub_epi32(off, vg_ld(a->coeffs + 16 * g));
        __m256i f1 = _mm256_sub_epi32(off, vg_ld(a->coeffs + 16 * g + 8));
        /* f0 + 2^13 f1 (26 bits) per 32-bit lane, then 52 bits per 64-bit
         * lane as for t1. */
        __m256i d = _mm256_madd_epi16(vg_words16(f0, f1), _mm256_set1_epi32((1 << 13) << 16 | 1));
        d = _mm256_srli_epi64(_mm256_sllv_epi32(d, sh), 6);
        __m256i v = _mm256_or_si256(_mm256_shuffle_epi8(d, ia),
                                    _mm256_shuffle_epi8(_mm256_slli_epi64(d, 4), ib));
        __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
        _mm_storeu_si128((__m128i *)o, lo);
        if (g < VG_MLDSA_N / 16 - 1)
            _mm_storeu_si128((__m128i *)(o + 13), hi);
        else
            vg_store_n(o + 13, hi, 13);
    }
}

/* As VG_IDX10 for 13 bits: field j at bytes floor(13 j / 8) + d (two or
 * three), shift 13 j mod 8. */
#define VG_IDX13(d)                                                                                \
    _mm256_setr_epi8(0 + (d), 1 + (d), -1, -1, 1 + (d), 2 + (d), 3 + (d), -1, 3 + (d), 4 + (d),    \
                     -1, -1, 4 + (d), 5 + (d), 6 + (d), -1, 6 + (d), 7 + (d), 8 + (d), -1,         \
                     8 + (d), 9 + (d), -1, -1, 9 + (d), 10 + (d), 11 + (d), -1, 11 + (d),          \
                     12 + (d), -1, -1)

/* Post: -2^12 < a <= 2^12. Reads exactly the 416 bytes at r. Secret:
 * constant time. */
void vg_mldsa_t0_unpack_avx2(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT0_BYTES])
{
    const __m256i idx = VG_IDX13(0), idx_last = VG_IDX13(3);
    const __m256i sh = _mm256_setr_epi32(0, 5, 2, 7, 4, 1, 6, 3);
    const __m256i m = _mm256_set1_epi32(0x1fff);
    const __m256i off = _mm256_set1_epi32(1 << 12);
    for (unsigned g = 0; g < VG_MLDSA_N / 8 - 1; g++) {
        __m256i x = _mm256_shuffle_epi8(vg_bcast16(r + 13 * g), idx);
        x = _mm256_and_si256(_mm256_srlv_epi32(x, sh), m);
        vg_st(a->coeffs + 8 * g, _mm256_sub_epi32(off, x));
    }
    /* The last group: bytes 400..415, the group's at 3..15. */
    __m256i x = _mm256_shuffle_epi8(vg_bcast16(r + 400), idx_last);
    x = _mm256_and_si256(_mm256_srlv_epi32(x, sh), m);
    vg_st(a->coeffs + 248, _mm256_sub_epi32(off, x));
}

/* ---- 3, 4 and 6 bits: s1, s2 (eta), w1 ------------------------------------ */

/* 32 coefficients at a (each in [-128, 127]) as bytes, in order, mapped to
 * off - a (sgn < 0) or a (sgn > 0). */
static inline __m256i vg_fields32(const int32_t *a, int8_t off, int sgn)
{
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    __m256i w0 = _mm256_packs_epi32(vg_ld(a), vg_ld(a + 8));
    __m256i w1 = _mm256_packs_epi32(vg_ld(a + 16), vg_ld(a + 24));
    /* Bytes 0-3 of a, a + 8, a + 16, a + 24, then 4-7 of each: VPERMD
     * puts the 4-byte pieces in order. */
    __m256i b = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(w0, w1), order);
    return sgn < 0 ? _mm256_sub_epi8(_mm256_set1_epi8(off), b) : b;
}

/* 64 fields of 4 bits (off - a or a) into 32 bytes at o. */
static inline void vg_pack4x64(uint8_t *o, const int32_t *a, int8_t off, int sgn)
{
    const __m256i mul = _mm256_set1_epi16(16 << 8 | 1);
    __m256i m0 = _mm256_maddubs_epi16(vg_fields32(a, off, sgn), mul);      /* f0 + 16 f1 */
    __m256i m1 = _mm256_maddubs_epi16(vg_fields32(a + 32, off, sgn), mul);
    __m256i v = _mm256_permute4x64_epi64(_mm256_packus_epi16(m0, m1), 0xd8);
    _mm256_storeu_si256((__m256i *)o, v);
}

/* 64 fields of 3 bits (off - a) into 24 bytes at o. */
static inline void vg_pack3x64(uint8_t *o, const int32_t *a, int8_t off)
{
    const __m256i mul1 = _mm256_set1_epi16(8 << 8 | 1);
    const __m256i mul2 = _mm256_set1_epi32(64 << 16 | 1);
    const __m256i mul3 = _mm256_set1_epi32(4096 << 16 | 1);
    const __m256i ord = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    const __m256i idx = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                         0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const __m256i cat = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 3);
    /* 2, then 4 fields (6, 12 bits) per 16- and 32-bit lane. */
    __m256i d0 = _mm256_madd_epi16(_mm256_maddubs_epi16(vg_fields32(a, off, -1), mul1), mul2);
    __m256i d1 = _mm256_madd_epi16(_mm256_maddubs_epi16(vg_fields32(a + 32, off, -1), mul1), mul2);
    /* 8 fields (24 bits) per 32-bit lane: groups 0 1 4 5 | 2 3 6 7 of 8
     * fields; VPERMD to 0-3 | 4-7, VPSHUFB keeps 3 bytes of each, VPERMD
     * joins the two 12-byte halves. */
    __m256i e = _mm256_madd_epi16(_mm256_packus_epi32(d0, d1), mul3);
    e = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(e, ord), idx);
    e = _mm256_permutevar8x32_epi32(e, cat);
    _mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(e));
    _mm_storel_epi64((__m128i *)(o + 16), _mm256_extracti128_si256(e, 1));
}

/* 32 fields of 6 bits (a) into 24 bytes at o. */
static inline void vg_pack6x32(uint8_t *o, const int32_t *a)
{
    const __m256i mul1 = _mm256_set1_epi16(64 << 8 | 1);
    const __m256i mul2 = _mm256_set1_epi32(4096 << 16 | 1);
    const __m256i idx = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                         0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const __m256i cat = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 3);
    /* 2, then 4 fields (12, 24 bits) per 16- and 32-bit lane, 3 bytes of
     * each kept, the halves joined. */
    __m256i e = _mm256_madd_epi16(_mm256_maddubs_epi16(vg_fields32(a, 0, 1), mul1), mul2);
    e = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(e, idx), cat);
    _mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(e));
    _mm_storel_epi64((__m128i *)(o + 16), _mm256_extracti128_si256(e, 1));
}

/* Pre: |a| <= eta, eta in {2, 4}. Writes exactly the 96 or 128 bytes at r.
 * Secret: constant time. */
void vg_mldsa_eta_pack_avx2(uint8_t *r, const vg_mldsa_poly *a, unsigned eta)
{
    if (eta == 2) {
        for (unsigned g = 0; g < 4; g++)
            vg_pack3x64(r + 24 * g, a->coeffs + 64 * g, 2);
    } else {
        for (unsigned g = 0; g < 4; g++)
            vg_pack4x64(r + 32 * g, a->coeffs + 64 * g, 4, -1);
    }
}

/* a = eta - field for 256 fields of 3 (eta = 2) or 4 bits; returns 1 when
 * some field is above 2 eta, else 0 (vg_mldsa_polyeta_unpack's contract).
 * Reads exactly the 96 or 128 bytes at r. Secret: constant time. */
unsigned vg_mldsa_eta_unpack_avx2(vg_mldsa_poly *a, const uint8_t *r, unsigned eta)
{
    const __m256i e = _mm256_set1_epi32((int)eta), lim = _mm256_set1_epi32(2 * (int)eta);
    __m256i bad = _mm256_setzero_si256();
    if (eta == 2) {
        const __m256i sh = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
        const __m256i m = _mm256_set1_epi32(7);
        for (unsigned g = 0; g < VG_MLDSA_N / 8; g++) {
            /* Bytes 3g..3g+2; the last group's 32-bit load ends at the
             * buffer's end instead. */
            uint32_t w = g < VG_MLDSA_N / 8 - 1 ? vg_load32_le(r + 3 * g)
                                                : vg_load32_le(r + 92) >> 8;
            __m256i f = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)w), sh), m);
            bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(f, lim));
            vg_st(a->coeffs + 8 * g, _mm256_sub_epi32(e, f));
        }
    } else {
        const __m256i sh = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
        const __m256i m = _mm256_set1_epi32(15);
        for (unsigned g = 0; g < VG_MLDSA_N / 8; g++) {
            __m256i w = _mm256_set1_epi32((int)vg_load32_le(r + 4 * g));
            __m256i f = _mm256_and_si256(_mm256_srlv_epi32(w, sh), m);
            bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(f, lim));
            vg_st(a->coeffs + 8 * g, _mm256_sub_epi32(e, f));
        }
    }
    return vg_mldsa_verdict8(bad);
}

/* Pre: 0 <= w1 < (q - 1) / (2 gamma2). Writes exactly the 192 (6 bits)
 * or 128 (4 bits) bytes at r. */
void vg_mldsa_w1_pack_avx2(uint8_t *r, const vg_mldsa_poly *a, int32_t gamma2)
{
    if (gamma2 == VG_MLDSA_GAMMA2_88) {
        for (unsigned g = 0; g < 8; g++)
            vg_pack6x32(r + 24 * g, a->coeffs + 32 * g);
    } else {
        for (unsigned g = 0; g < 4; g++)
            vg_pack4x64(r + 32 * g, a->coeffs + 64 * g, 0, 1);
    }
}

/* a = a 2^13 (vg_mldsa_poly_shiftl). Pre: 0 <= a < 2^10. */
void vg_mldsa_shiftl_avx2(vg_mldsa_poly *a)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8)
        vg_st(a->coeffs + j, _mm256_slli_epi32(vg_ld(a->coeffs + j), VG_MLDSA_D));
}

/* ---- AVX-512 VBMI unpacking ------------------------------------------------
 * Sixteen fields a step in a zmm register: one VPERMB gathers bytes
 * floor(b j / 8) .. + 3 of the group into 32-bit lane j (the bytes past
 * those the field needs land above bit b after the shift: masked), then
 * VPSRLVD by b j mod 8 and a mask, as in the AVX2 kernels. Loads of 32
 * bytes (the group's 2 b bytes and what follows), the last group's cut to
 * its bytes with a masked load (no read past the end); for 3 and 4 bits
 * one masked load of 48 or 64 bytes serves eight groups, the VPERMB
 * indices moving up by 2 b a group. Same results as the AVX2 kernels
 * (timings in the header). Compiled for AVX-512 F, BW, VL and VBMI through
 * the target attribute (gcc and clang; the file's other functions stay
 * AVX2); used only when vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512BW |
 * VG_CPU_AVX512VL | VG_CPU_AVX512VBMI2) (VBMI2 implies VBMI there). */
#define VG_TARGET_VBMI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))

/* VPERMB indices: lane j gets bytes floor(b j / 8) + 0..3 (b = 10, 13, 3,
 * 4), and the VPSRLVD shifts b j mod 8. */
#define VG_IDX512_10                                                                               \
    _mm512_set_epi32(0x15141312, 0x14131211, 0x13121110, 0x1211100f, 0x100f0e0d, 0x0f0e0d0c,       \
                     0x0e0d0c0b, 0x0d0c0b0a, 0x0b0a0908, 0x0a090807, 0x09080706, 0x08070605,       \
                     0x06050403, 0x05040302, 0x04030201, 0x03020100)
#define VG_SH512_10 _mm512_set_epi32(6, 4, 2, 0, 6, 4, 2, 0, 6, 4, 2, 0, 6, 4, 2, 0)
#define VG_IDX512_13                                                                               \
    _mm512_set_epi32(0x1b1a1918, 0x19181716, 0x18171615, 0x16151413, 0x14131211, 0x13121110,       \
                     0x11100f0e, 0x100f0e0d, 0x0e0d0c0b, 0x0c0b0a09, 0x0b0a0908, 0x09080706,       \
                     0x07060504, 0x06050403, 0x04030201, 0x03020100)
#define VG_SH512_13 _mm512_set_epi32(3, 6, 1, 4, 7, 2, 5, 0, 3, 6, 1, 4, 7, 2, 5, 0)
#define VG_IDX512_3                                                                                \
    _mm512_set_epi32(0x08070605, 0x08070605, 0x07060504, 0x07060504, 0x07060504, 0x06050403,       \
                     0x06050403, 0x06050403, 0x05040302, 0x05040302, 0x04030201, 0x04030201,       \
                     0x04030201, 0x03020100, 0x03020100, 0x03020100)
#define VG_SH512_3 _mm512_set_epi32(5, 2, 7, 4, 1, 6, 3, 0, 5, 2, 7, 4, 1, 6, 3, 0)
#define VG_IDX512_4                                                                                \
    _mm512_set_epi32(0x0a090807, 0x0a090807, 0x09080706, 0x09080706, 0x08070605, 0x08070605,       \
                     0x07060504, 0x07060504, 0x06050403, 0x06050403, 0x05040302, 0x05040302,       \
                     0x04030201, 0x04030201, 0x03020100, 0x03020100)
#define VG_SH512_4 _mm512_set_epi32(4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0)

/* The 16 fields of b bits (mask m) in the bytes of x picked by idx. */
VG_TARGET_VBMI static inline __m512i vg_fields16(__m512i x, __m512i idx, __m512i sh, __m512i m)
{
    return _mm512_and_si512(_mm512_srlv_epi32(_mm512_permutexvar_epi8(idx, x), sh), m);
}

/* Post: 0 <= a < 2^10. Reads exactly the 320 bytes at r. */
VG_TARGET_VBMI void vg_mldsa_t1_unpack_avx512(vg_mldsa_poly *a,
                                                     const uint8_t r[VG_MLDSA_POLYT1_BYTES])
{
    const __m512i idx = VG_IDX512_10, sh = VG_SH512_10, m = _mm512_set1_epi32(0x3ff);
    for (unsigned g = 0; g < VG_MLDSA_N / 16 - 1; g++) {
        __m512i x = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(r + 20 * g)));
        _mm512_storeu_si512((void *)(a->coeffs + 16 * g), vg_fields16(x, idx, sh, m));
    }
    __m512i x = _mm512_maskz_loadu_epi8((__mmask64)0xfffff, r + 300); /* bytes 300..319 */
    _mm512_storeu_si512((void *)(a->coeffs + 240), vg_fields16(x, idx, sh, m));
}

/* Post: -2^12 < a <= 2^12. Reads exactly the 416 bytes at r. Secret:
 * constant time. */
VG_TARGET_VBMI void vg_mldsa_t0_unpack_avx512(vg_mldsa_poly *a,
                                                     const uint8_t r[VG_MLDSA_POLYT0_BYTES])
{
    const __m512i idx = VG_IDX512_13, sh = VG_SH512_13, m = _mm512_set1_epi32(0x1fff);
    const __m512i off = _mm512_set1_epi32(1 << 12);
    for (unsigned g = 0; g < VG_MLDSA_N / 16 - 1; g++) {
        __m512i x = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(r + 26 * g)));
        _mm512_storeu_si512((void *)(a->coeffs + 16 * g),
                            _mm512_sub_epi32(off, vg_fields16(x, idx, sh, m)));
    }
    __m512i x = _mm512_maskz_loadu_epi8((__mmask64)0x3ffffff, r + 390); /* bytes 390..415 */
    _mm512_storeu_si512((void *)(a->coeffs + 240),
                        _mm512_sub_epi32(off, vg_fields16(x, idx, sh, m)));
}

/* vg_mldsa_eta_unpack_avx2's contract. Secret: constant time (the verdict
 * is folded from the mask register by arithmetic). */
VG_TARGET_VBMI unsigned vg_mldsa_eta_unpack_avx512(vg_mldsa_poly *a, const uint8_t *r,
                                                          unsigned eta)
{
    const unsigned bits = eta == 2 ? 3 : 4;
    const __m512i idx0 = eta == 2 ? VG_IDX512_3 : VG_IDX512_4;
    const __m512i sh = eta == 2 ? VG_SH512_3 : VG_SH512_4;
    const __m512i m = _mm512_set1_epi32((1 << bits) - 1);
    const __m512i e = _mm512_set1_epi32((int)eta), lim = _mm512_set1_epi32(2 * (int)eta);
    const __m512i step = _mm512_set1_epi8((char)(2 * bits)); /* bytes per 16 fields */
    __mmask16 bad = 0;
    /* Two halves of 128 fields: 16 bits bytes each. */
    for (unsigned h = 0; h < 2; h++) {
        __m512i x = _mm512_maskz_loadu_epi8((__mmask64)(~(uint64_t)0 >> (64 - 16 * bits)),
                                            r + 16 * bits * h);
        __m512i idx = idx0;
        for (unsigned g = 0; g < 8; g++) {
            __m512i f = vg_fields16(x, idx, sh, m);
            bad |= _mm512_cmpgt_epi32_mask(f, lim);
            _mm512_storeu_si512((void *)(a->coeffs + 128 * h + 16 * g), _mm512_sub_epi32(e, f));
            idx = _mm512_add_epi8(idx, step);
        }
    }
    return (0u - (uint32_t)bad) >> 31; /* 1 when some lane was above 2 eta */
}

/* vg_mldsa_poly_pack24: per 8 coefficients, VPSHUFB drops byte 3 of each
 * 32-bit lane (12 bytes at the start of each 128-bit lane) and VPERMD puts
 * the two runs together (24 bytes); the 32-byte stores overlap in
 * ascending order, the last is cut to its 24 bytes. Writes exactly 768
 * bytes. Secret: constant time. */
void vg_mldsa_pack24_avx2(uint8_t r[3 * VG_MLDSA_N], const vg_mldsa_poly *a)
{
    const __m256i shuf = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
                                          0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    const __m256i perm = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    __m256i v = _mm256_setzero_si256();
    for (unsigned g = 0; g < VG_MLDSA_N / 8; g++) {
        v = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(vg_ld(a->coeffs + 8 * g), shuf), perm);
        if (g + 1 < VG_MLDSA_N / 8)
            _mm256_storeu_si256((__m256i *)(r + 24 * g), v);
    }
    _mm_storeu_si128((__m128i *)(r + 24 * 31), _mm256_castsi256_si128(v));
    _mm_storel_epi64((__m128i *)(r + 24 * 31 + 16), _mm256_extracti128_si256(v, 1));
}

/* vg_mldsa_polyz_pack (BitPack(z, gamma1 - 1, gamma1), b = 18 or 20
 * bits): per 8 coefficients f = gamma1 - z, VPSLLVD by (b' , 0) and
 * VPSRLQ by b' (b' = 32 - b) join each pair into 2 b bits of a 64-bit lane;
 * VPSHUFB gathers each 128-bit lane's 2 b / 8 * 2 bytes (b = 18: the odd
 * lane's bytes shifted up by 4 bits first, sharing byte 4 with the even
 * one) at its start; two 16-byte stores, overlapping in ascending order,
 * the last cut to its bytes. Writes exactly 32 b bytes. Secret: constant
 * time. */
void vg_mldsa_z_pack_avx2(uint8_t *r, const vg_mldsa_poly *a, int32_t gamma1)
{
    const int b = gamma1 == (1 << 17) ? 18 : 20;
    const size_t half = (size_t)b / 2; /* bytes per 128-bit lane: 9 or 10 */
    const __m256i g = _mm256_set1_epi32(gamma1);
    const __m256i sh = _mm256_set1_epi64x(32 - b);
    const __m256i s20 = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1,
                                         0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1);
    const __m256i s18a = _mm256_setr_epi8(0, 1, 2, 3, 4, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                          -1, 0, 1, 2, 3, 4, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                          -1, -1);
    const __m256i s18b = _mm256_setr_epi8(-1, -1, -1, -1, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1,
                                          -1, -1, -1, -1, -1, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1,
                                          -1, -1);
    for (unsigned gi = 0; gi < VG_MLDSA_N / 8; gi++) {
        __m256i f = _mm256_sub_epi32(g, vg_ld(a->coeffs + 8 * gi));
        __m256i d = _mm256_srli_epi64(_mm256_sllv_epi32(f, sh), 32 - b);
        __m256i v;
        if (b == 20)
            v = _mm256_shuffle_epi8(d, s20);
        else
            v = _mm256_or_si256(_mm256_shuffle_epi8(d, s18a),
                                _mm256_shuffle_epi8(_mm256_slli_epi64(d, 4), s18b));
        uint8_t *o = r + 2 * half * gi;
        _mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(v));
        if (gi + 1 < VG_MLDSA_N / 8)
            _mm_storeu_si128((__m128i *)(o + half), _mm256_extracti128_si256(v, 1));
        else
            vg_store_n(o + half, _mm256_extracti128_si256(v, 1), half);
    }
}

/* vg_mldsa_poly_bits: bit 0 of each coefficient to the sign bit, VMOVMSKPS. */
void vg_mldsa_bits_avx2(uint8_t r[VG_MLDSA_N / 8], const vg_mldsa_poly *a)
{
    for (unsigned b = 0; b < VG_MLDSA_N / 8; b++)
        r[b] = (uint8_t)_mm256_movemask_ps(
            _mm256_castsi256_ps(_mm256_slli_epi32(vg_ld(a->coeffs + 8 * b), 31)));
}

/* ---- AVX-512 VBMI packing ---------------------------------------------------
 * The AVX2 kernels' arithmetic on zmm registers (VPACKSSDW / VPACKSSWB to
 * 16- or 8-bit lanes, VPMADDUBSW / VPMADDWD and shifts joining neighbours),
 * skipping the reordering shuffles: each 128-bit lane keeps runs of four
 * consecutive coefficients, which is all the joins need, and one VPERMB
 * per output (two, zero-masked and ORed, where a byte is shared by two
 * groups: its low nibble from one, its high from the other, shifted up by
 * 4) takes the bytes to their places; a masked store writes exactly the
 * output bytes. Where coefficient n = 16 x + 4 i + t (x the source
 * register, i the 128-bit lane, t < 4) lands: byte 16 i + 4 x + t after
 * the byte packing of four registers, word 16 i + 8 x + 2 t (as a byte
 * offset) after the word packing of two. The index tables below follow
 * from that (generated, and checked by test_mldsa_backend against the
 * portable code). */

/* 4 bits: output byte n / 2 (fields n, n + 1) from the word of VPMADDUBSW */
static const uint8_t vg_perm_pack4[64] = {
     0,  2, 16, 18, 32, 34, 48, 50,  4,  6, 20, 22, 36, 38, 52, 54,
     8, 10, 24, 26, 40, 42, 56, 58, 12, 14, 28, 30, 44, 46, 60, 62,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 3 bits, even groups of 4 fields (12 bits): bytes 0-1 of the group's dword */
static const uint8_t vg_perm_pack3a[64] = {
     0,  1,  0, 32, 33,  0,  4,  5,  0, 36, 37,  0,  8,  9,  0, 40,
    41,  0, 12, 13,  0, 44, 45,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 3 bits, odd groups: bytes 0-1 of the dword shifted up by 4 */
static const uint8_t vg_perm_pack3b[64] = {
     0, 16, 17,  0, 48, 49,  0, 20, 21,  0, 52, 53,  0, 24, 25,  0,
    56, 57,  0, 28, 29,  0, 60, 61,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 6 bits, even pairs of fields (12 bits): bytes 0-1 of the pair's word */
static const uint8_t vg_perm_pack6a[64] = {
     0,  1,  0, 16, 17,  0, 32, 33,  0, 48, 49,  0,  4,  5,  0, 20,
    21,  0, 36, 37,  0, 52, 53,  0,  8,  9,  0, 24, 25,  0, 40, 41,
     0, 56, 57,  0, 12, 13,  0, 28, 29,  0, 44, 45,  0, 60, 61,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 6 bits, odd pairs: bytes 0-1 of the word shifted up by 4 */
static const uint8_t vg_perm_pack6b[64] = {
     0,  2,  3,  0, 18, 19,  0, 34, 35,  0, 50, 51,  0,  6,  7,  0,
    22, 23,  0, 38, 39,  0, 54, 55,  0, 10, 11,  0, 26, 27,  0, 42,
    43,  0, 58, 59,  0, 14, 15,  0, 30, 31,  0, 46, 47,  0, 62, 63,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 10 bits: bytes 0-4 of the 64-bit lane of fields 4 G .. 4 G + 3 to 5 G */
static const uint8_t vg_perm_pack10[64] = {
     0,  1,  2,  3,  4, 16, 17, 18, 19, 20, 32, 33, 34, 35, 36, 48,
    49, 50, 51, 52,  8,  9, 10, 11, 12, 24, 25, 26, 27, 28, 40, 41,
    42, 43, 44, 56, 57, 58, 59, 60,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 13 bits, even groups of 4 fields (52 bits): bytes 0-6 to 13 m */
static const uint8_t vg_perm_pack13a[64] = {
     0,  1,  2,  3,  4,  5,  6,  0,  0,  0,  0,  0,  0, 32, 33, 34,
    35, 36, 37, 38,  0,  0,  0,  0,  0,  0,  8,  9, 10, 11, 12, 13,
    14,  0,  0,  0,  0,  0,  0, 40, 41, 42, 43, 44, 45, 46,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 13 bits, odd groups: bytes 0-6 of the lane shifted up by 4 to 13 m + 6 */
static const uint8_t vg_perm_pack13b[64] = {
     0,  0,  0,  0,  0,  0, 16, 17, 18, 19, 20, 21, 22,  0,  0,  0,
     0,  0,  0, 48, 49, 50, 51, 52, 53, 54,  0,  0,  0,  0,  0,  0,
    24, 25, 26, 27, 28, 29, 30,  0,  0,  0,  0,  0,  0, 56, 57, 58,
    59, 60, 61, 62,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 64 coefficients (each in [-128, 127]) as bytes, coefficient 16 x + 4 i +
 * t at byte 16 i + 4 x + t. */
VG_TARGET_VBMI static inline __m512i vg_bytes64(const int32_t *a)
{
    __m512i w01 = _mm512_packs_epi32(_mm512_loadu_si512((const void *)a),
                                     _mm512_loadu_si512((const void *)(a + 16)));
    __m512i w23 = _mm512_packs_epi32(_mm512_loadu_si512((const void *)(a + 32)),
                                     _mm512_loadu_si512((const void *)(a + 48)));
    return _mm512_packs_epi16(w01, w23);
}

/* 64 fields of 4 bits (f = the bytes of vg_bytes64) into 32 bytes at o. */
VG_TARGET_VBMI static inline void vg_pack4x64_512(uint8_t *o, __m512i f)
{
    __m512i m = _mm512_maddubs_epi16(f, _mm512_set1_epi16(16 << 8 | 1)); /* f0 + 16 f1 */
    m = _mm512_permutexvar_epi8(_mm512_loadu_si512((const void *)vg_perm_pack4), m);
    _mm256_storeu_si256((__m256i *)o, _mm512_castsi512_si256(m));
}

/* 64 fields of 3 bits into 24 bytes at o. */
VG_TARGET_VBMI static inline void vg_pack3x64_512(uint8_t *o, __m512i f)
{
    __m512i d = _mm512_maddubs_epi16(f, _mm512_set1_epi16(8 << 8 | 1));    /* 6 bits */
    d = _mm512_madd_epi16(d, _mm512_set1_epi32(64 << 16 | 1));             /* 12 bits */
    __m512i lo = _mm512_maskz_permutexvar_epi8(
        (__mmask64)0x6db6db, _mm512_loadu_si512((const void *)vg_perm_pack3a), d);
    __m512i hi = _mm512_maskz_permutexvar_epi8(
        (__mmask64)0xdb6db6, _mm512_loadu_si512((const void *)vg_perm_pack3b),
        _mm512_slli_epi32(d, 4));
    _mm512_mask_storeu_epi8(o, (__mmask64)0xffffff, _mm512_or_si512(lo, hi));
}

/* 64 fields of 6 bits into 48 bytes at o. */
VG_TARGET_VBMI static inline void vg_pack6x64_512(uint8_t *o, __m512i f)
{
    __m512i w = _mm512_maddubs_epi16(f, _mm512_set1_epi16(64 << 8 | 1)); /* 12 bits */
    __m512i lo = _mm512_maskz_permutexvar_epi8(
        (__mmask64)0x6db6db6db6dbull, _mm512_loadu_si512((const void *)vg_perm_pack6a), w);
    __m512i hi = _mm512_maskz_permutexvar_epi8(
        (__mmask64)0xdb6db6db6db6ull, _mm512_loadu_si512((const void *)vg_perm_pack6b),
        _mm512_slli_epi16(w, 4));
    _mm512_mask_storeu_epi8(o, (__mmask64)0xffffffffffffull, _mm512_or_si512(lo, hi));
}

/* vg_mldsa_eta_pack_avx2's contract. Secret: constant time. */
VG_TARGET_VBMI void vg_mldsa_eta_pack_avx512(uint8_t *r, const vg_mldsa_poly *a,
                                                    unsigned eta)
{
    const __m512i e = _mm512_set1_epi8((char)eta);
    for (unsigned g = 0; g < 4; g++) {
        __m512i f = _mm512_sub_epi8(e, vg_bytes64(a->coeffs + 64 * g));
        if (eta == 2)
            vg_pack3x64_512(r + 24 * g, f);
        else
            vg_pack4x64_512(r + 32 * g, f);
    }
}

/* vg_mldsa_w1_pack_avx2's contract. */
VG_TARGET_VBMI void vg_mldsa_w1_pack_avx512(uint8_t *r, const vg_mldsa_poly *a,
                                                   int32_t gamma2)
{
    for (unsigned g = 0; g < 4; g++) {
        __m512i f = vg_bytes64(a->coeffs + 64 * g);
        if (gamma2 == VG_MLDSA_GAMMA2_88)
            vg_pack6x64_512(r + 48 * g, f);
        else
            vg_pack4x64_512(r + 32 * g, f);
    }
}

/* Pre: 0 <= a < 2^10. Writes exactly the 320 bytes at r. */
VG_TARGET_VBMI void vg_mldsa_t1_pack_avx512(uint8_t r[VG_MLDSA_POLYT1_BYTES],
                                                   const vg_mldsa_poly *a)
{
    const __m512i sh = _mm512_set1_epi64(12);
    const __m512i perm = _mm512_loadu_si512((const void *)vg_perm_pack10);
    for (unsigned g = 0; g < VG_MLDSA_N / 32; g++) {
        const int32_t *c = a->coeffs + 32 * g;
        __m512i w = _mm512_packs_epi32(_mm512_loadu_si512((const void *)c),
                                       _mm512_loadu_si512((const void *)(c + 16)));
        /* 20 bits per 32-bit lane, 40 per 64-bit lane (the low half shifted
         * up by 12, the whole lane down by 12). */
        __m512i d = _mm512_madd_epi16(w, _mm512_set1_epi32((1 << 10) << 16 | 1));
        d = _mm512_srli_epi64(_mm512_sllv_epi32(d, sh), 12);
        _mm512_mask_storeu_epi8(r + 40 * g, (__mmask64)0xffffffffffull,
                                _mm512_permutexvar_epi8(perm, d));
    }
}

/* Pre: -2^12 < a <= 2^12. Writes exactly the 416 bytes at r. Secret:
 * constant time. */
VG_TARGET_VBMI void vg_mldsa_t0_pack_avx512(uint8_t r[VG_MLDSA_POLYT0_BYTES],
                                                   const vg_mldsa_poly *a)
{
    const __m512i off = _mm512_set1_epi32(1 << 12);
    const __m512i sh = _mm512_set1_epi64(6);
    const __m512i pa = _mm512_loadu_si512((const void *)vg_perm_pack13a);
    const __m512i pb = _mm512_loadu_si512((const void *)vg_perm_pack13b);
    for (unsigned g = 0; g < VG_MLDSA_N / 32; g++) {
        const int32_t *c = a->coeffs + 32 * g;
        __m512i f0 = _mm512_sub_epi32(off, _mm512_loadu_si512((const void *)c));
        __m512i f1 = _mm512_sub_epi32(off, _mm512_loadu_si512((const void *)(c + 16)));
        __m512i w = _mm512_packs_epi32(f0, f1);
        /* 26 bits per 32-bit lane, 52 per 64-bit lane. */
        __m512i d = _mm512_madd_epi16(w, _mm512_set1_epi32((1 << 13) << 16 | 1));
        d = _mm512_srli_epi64(_mm512_sllv_epi32(d, sh), 6);
        __m512i lo = _mm512_maskz_permutexvar_epi8((__mmask64)0x3f81fc0fe07full, pa, d);
        __m512i hi = _mm512_maskz_permutexvar_epi8((__mmask64)0xfe07f03f81fc0ull, pb,
                                                   _mm512_slli_epi64(d, 4));
        _mm512_mask_storeu_epi8(r + 52 * g, (__mmask64)0xfffffffffffffull, _mm512_or_si512(lo, hi));
    }
}

/* 24 bits: bytes 0-2 of each 32-bit lane, output byte t from 4 (t / 3) + t % 3 */
static const uint8_t vg_perm_pack24[64] = {
     0,  1,  2,  4,  5,  6,  8,  9, 10, 12, 13, 14, 16, 17, 18, 20,
    21, 22, 24, 25, 26, 28, 29, 30, 32, 33, 34, 36, 37, 38, 40, 41,
    42, 44, 45, 46, 48, 49, 50, 52, 53, 54, 56, 57, 58, 60, 61, 62,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 20 bits: bytes 0-4 of each 64-bit lane (two fields) to 5 G */
static const uint8_t vg_perm_pack20[64] = {
     0,  1,  2,  3,  4,  8,  9, 10, 11, 12, 16, 17, 18, 19, 20, 24,
    25, 26, 27, 28, 32, 33, 34, 35, 36, 40, 41, 42, 43, 44, 48, 49,
    50, 51, 52, 56, 57, 58, 59, 60,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 18 bits, even 64-bit lanes 2m (36 bits): bytes 0-4 to 9 m */
static const uint8_t vg_perm_pack18a[64] = {
     0,  1,  2,  3,  4,  0,  0,  0,  0, 16, 17, 18, 19, 20,  0,  0,
     0,  0, 32, 33, 34, 35, 36,  0,  0,  0,  0, 48, 49, 50, 51, 52,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* 18 bits, odd lanes shifted up by 4: bytes 0-4 to 9 m + 4 */
static const uint8_t vg_perm_pack18b[64] = {
     0,  0,  0,  0,  8,  9, 10, 11, 12,  0,  0,  0,  0, 24, 25, 26,
    27, 28,  0,  0,  0,  0, 40, 41, 42, 43, 44,  0,  0,  0,  0, 56,
    57, 58, 59, 60,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
     0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* vg_mldsa_z_pack_avx2's contract, 16 coefficients a step: the pairs
 * joined as there, one VPERMB (b = 20) or two zero-masked and ORed (b =
 * 18, as for 13 bits) to the output bytes, a masked store. */
VG_TARGET_VBMI void vg_mldsa_z_pack_avx512(uint8_t *r, const vg_mldsa_poly *a,
                                                  int32_t gamma1)
{
    const int b = gamma1 == (1 << 17) ? 18 : 20;
    const __m512i g = _mm512_set1_epi32(gamma1);
    const __m512i sh = _mm512_set1_epi64(32 - b);
    const __m512i p20 = _mm512_loadu_si512((const void *)vg_perm_pack20);
    const __m512i p18a = _mm512_loadu_si512((const void *)vg_perm_pack18a);
    const __m512i p18b = _mm512_loadu_si512((const void *)vg_perm_pack18b);
    for (unsigned gi = 0; gi < VG_MLDSA_N / 16; gi++) {
        __m512i f = _mm512_sub_epi32(g, _mm512_loadu_si512((const void *)(a->coeffs + 16 * gi)));
        __m512i d = _mm512_srli_epi64(_mm512_sllv_epi32(f, sh), (unsigned)(32 - b));
        if (b == 20) {
            _mm512_mask_storeu_epi8(r + 40 * gi, (__mmask64)0xffffffffffull,
                                    _mm512_permutexvar_epi8(p20, d));
        } else {
            __m512i lo = _mm512_maskz_permutexvar_epi8((__mmask64)0xf87c3e1full, p18a, d);
            __m512i hi = _mm512_maskz_permutexvar_epi8((__mmask64)0xf87c3e1f0ull, p18b,
                                                       _mm512_slli_epi64(d, 4));
            _mm512_mask_storeu_epi8(r + 36 * gi, (__mmask64)0xfffffffffull,
                                    _mm512_or_si512(lo, hi));
        }
    }
}

/* 20 bits: field k (< 16) of a 40-byte group from bytes 5 k / 2 .. + 2 to
 * its 32-bit lane (the fourth byte repeats the third: shifted out) */
static const uint8_t vg_perm_unpack20[64] = {
     0,  1,  2,  2,  2,  3,  4,  4,  5,  6,  7,  7,  7,  8,  9,  9,
    10, 11, 12, 12, 12, 13, 14, 14, 15, 16, 17, 17, 17, 18, 19, 19,
    20, 21, 22, 22, 22, 23, 24, 24, 25, 26, 27, 27, 27, 28, 29, 29,
    30, 31, 32, 32, 32, 33, 34, 34, 35, 36, 37, 37, 37, 38, 39, 39,
};

/* 18 bits: field k of a 36-byte group from bytes 9 k / 4 .. + 2 */
static const uint8_t vg_perm_unpack18[64] = {
     0,  1,  2,  2,  2,  3,  4,  4,  4,  5,  6,  6,  6,  7,  8,  8,
     9, 10, 11, 11, 11, 12, 13, 13, 13, 14, 15, 15, 15, 16, 17, 17,
    18, 19, 20, 20, 20, 21, 22, 22, 22, 23, 24, 24, 24, 25, 26, 26,
    27, 28, 29, 29, 29, 30, 31, 31, 31, 32, 33, 33, 33, 34, 35, 35,
};

/* vg_mldsa_polyz_unpack (BitUnpack(., gamma1 - 1, gamma1), b = 18 or 20
 * bits; contract in poly.h): 16 fields a step from a masked load of their
 * 2 b bytes (nothing read past the encoding), one VPERMB putting each
 * field's three bytes in its 32-bit lane, a variable shift (b k mod 8) and
 * a mask; a = gamma1 - field. Secret: constant time. */
VG_TARGET_VBMI void vg_mldsa_z_unpack_avx512(vg_mldsa_poly *a, const uint8_t *r,
                                                    int32_t gamma1)
{
    const int b18 = gamma1 == (1 << 17);
    const unsigned bytes = b18 ? 36u : 40u;
    const __mmask64 in = b18 ? (__mmask64)0xfffffffffull : (__mmask64)0xffffffffffull;
    const __m512i perm = _mm512_loadu_si512(b18 ? (const void *)vg_perm_unpack18
                                                : (const void *)vg_perm_unpack20);
    const __m512i sh = b18 ? _mm512_set4_epi32(6, 4, 2, 0) : _mm512_set4_epi32(4, 0, 4, 0);
    const __m512i mask = _mm512_set1_epi32(b18 ? (1 << 18) - 1 : (1 << 20) - 1);
    const __m512i g1 = _mm512_set1_epi32(gamma1);
    for (unsigned g = 0; g < VG_MLDSA_N / 16; g++) {
        __m512i x = _mm512_permutexvar_epi8(perm, _mm512_maskz_loadu_epi8(in, r + bytes * g));
        x = _mm512_and_si512(_mm512_srlv_epi32(x, sh), mask);
        _mm512_storeu_si512((void *)(a->coeffs + 16 * g), _mm512_sub_epi32(g1, x));
    }
}

/* vg_mldsa_pack24_avx2's contract: per 16 coefficients one VPERMB takes
 * bytes 0-2 of each 32-bit lane together and a masked store writes those
 * 48 bytes. */
VG_TARGET_VBMI void vg_mldsa_pack24_avx512(uint8_t r[3 * VG_MLDSA_N],
                                                  const vg_mldsa_poly *a)
{
    const __m512i perm = _mm512_loadu_si512((const void *)vg_perm_pack24);
    for (unsigned g = 0; g < VG_MLDSA_N / 16; g++)
        _mm512_mask_storeu_epi8(
            r + 48 * g, (__mmask64)0xffffffffffffull,
            _mm512_permutexvar_epi8(perm, _mm512_loadu_si512((const void *)(a->coeffs + 16 * g))));
}

/* vg_mldsa_poly_bits: VPTESTMD, 16 coefficients to a 16-bit mask. */
VG_TARGET_VBMI void vg_mldsa_bits_avx512(uint8_t r[VG_MLDSA_N / 8], const vg_mldsa_poly *a)
{
    for (unsigned g = 0; g < VG_MLDSA_N / 16; g++) {
        __m512i v = _mm512_loadu_si512((const void *)(a->coeffs + 16 * g));
        unsigned m = _mm512_test_epi32_mask(v, _mm512_set1_epi32(1));
        r[2 * g] = (uint8_t)m;
        r[2 * g + 1] = (uint8_t)(m >> 8);
    }
}

/* a = a 2^13 (vg_mldsa_poly_shiftl). Pre: 0 <= a < 2^10. */
VG_TARGET_VBMI void vg_mldsa_shiftl_avx512(vg_mldsa_poly *a)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 16)
        _mm512_storeu_si512((void *)(a->coeffs + j),
                            _mm512_slli_epi32(_mm512_loadu_si512((const void *)(a->coeffs + j)),
                                              VG_MLDSA_D));
}
