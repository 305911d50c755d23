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
 * VPMOVMSKB and arithmetic. Compiled with -mavx2; used only when
 * vg_cpu_has(VG_CPU_AVX2) (vg_mldsa_pack_get).
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
static void vg_mldsa_t1_pack_avx2(uint8_t r[VG_MLDSA_POLYT1_BYTES], const vg_mldsa_poly *a)
{
    for (unsigned g = 0; g < VG_MLDSA_N / 16; g++) {
        uint8_t *o = r + 20 * g;
        __m256i v = vg_pack10x16(vg_words16(vg_ld(a->coeffs + 16 * g), vg_ld(a->coeffs + 16 * g + 8)));
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
    _mm256_setr_epi8(0 + (d), 1 + (d), -1, -1, 1 + (d), 2 + (d), -1, -1, 2 + (d), 3 + (d), -1, -1,    \
                     3 + (d), 4 + (d), -1, -1, 5 + (d), 6 + (d), -1, -1, 6 + (d), 7 + (d), -1, -1,    \
                     7 + (d), 8 + (d), -1, -1, 8 + (d), 9 + (d), -1, -1)

/* Post: 0 <= a < 2^10. Reads exactly the 320 bytes at r. */
static void vg_mldsa_t1_unpack_avx2(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT1_BYTES])
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
static void vg_mldsa_t0_pack_avx2(uint8_t r[VG_MLDSA_POLYT0_BYTES], const vg_mldsa_poly *a)
{
    const __m256i off = _mm256_set1_epi32(1 << 12);
    const __m256i sh = _mm256_setr_epi32(6, 0, 6, 0, 6, 0, 6, 0);
    /* Lane bytes 0-6 of the 52-bit field pair 0-3 and, from the pair 4-7
     * shifted up by 4, bytes 0-6 at 6-12 (byte 6 shared: the low nibble
     * from one, the high from the other). */
    const __m256i ia = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                        0, 1, 2, 3, 4, 5, 6, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i ib = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, 8, 9, 10, 11, 12, 13, 14, -1, -1, -1,
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
    _mm256_setr_epi8(0 + (d), 1 + (d), -1, -1, 1 + (d), 2 + (d), 3 + (d), -1, 3 + (d), 4 + (d), -1,  \
                     -1, 4 + (d), 5 + (d), 6 + (d), -1, 6 + (d), 7 + (d), 8 + (d), -1, 8 + (d),       \
                     9 + (d), -1, -1, 9 + (d), 10 + (d), 11 + (d), -1, 11 + (d), 12 + (d), -1, -1)

/* Post: -2^12 < a <= 2^12. Reads exactly the 416 bytes at r. Secret:
 * constant time. */
static void vg_mldsa_t0_unpack_avx2(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT0_BYTES])
{
    const __m256i idx = VG_IDX13(0), idx_last = VG_IDX13(3);
    const __m256i sh = _mm256_setr_epi32(0, 5, 2, 7, 4, 1, 6, 3);
    const __m256i m = _mm256_set1_epi32(0x1fff);
    const __m256i off = _mm256_set1_epi32(1 << 12);
    for (unsigned g = 0; g < VG_MLDSA_N / 8 - 1; g++) {
        __m256i x = _mm256_shuffle_epi8(vg_bcast16(r + 13 * g), idx);
        vg_st(a->coeffs + 8 * g, _mm256_sub_epi32(off, _mm256_and_si256(_mm256_srlv_epi32(x, sh), m)));
    }
    /* The last group: bytes 400..415, the group's at 3..15. */
    __m256i x = _mm256_shuffle_epi8(vg_bcast16(r + 400), idx_last);
    vg_st(a->coeffs + 248, _mm256_sub_epi32(off, _mm256_and_si256(_mm256_srlv_epi32(x, sh), m)));
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
static void vg_mldsa_eta_pack_avx2(uint8_t *r, const vg_mldsa_poly *a, unsigned eta)
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
static unsigned vg_mldsa_eta_unpack_avx2(vg_mldsa_poly *a, const uint8_t *r, unsigned eta)
{
    const __m256i e = _mm256_set1_epi32((int)eta), lim = _mm256_set1_epi32(2 * (int)eta);
    __m256i bad = _mm256_setzero_si256();
    if (eta == 2) {
        const __m256i sh = _mm256_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21);
        const __m256i m = _mm256_set1_epi32(7);
        for (unsigned g = 0; g < VG_MLDSA_N / 8; g++) {
            /* Bytes 3g..3g+2; the last group's 32-bit load ends at the
             * buffer's end instead. */
            uint32_t w = g < VG_MLDSA_N / 8 - 1 ? vg_load32_le(r + 3 * g) : vg_load32_le(r + 92) >> 8;
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
static void vg_mldsa_w1_pack_avx2(uint8_t *r, const vg_mldsa_poly *a, int32_t gamma2)
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
static void vg_mldsa_shiftl_avx2(vg_mldsa_poly *a)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8)
        vg_st(a->coeffs + j, _mm256_slli_epi32(vg_ld(a->coeffs + j), VG_MLDSA_D));
}

static const struct vg_mldsa_pack vg_mldsa_pack_avx2 = {
    "avx2",
    vg_mldsa_t1_pack_avx2,
    vg_mldsa_t1_unpack_avx2,
    vg_mldsa_t0_pack_avx2,
    vg_mldsa_t0_unpack_avx2,
    vg_mldsa_eta_pack_avx2,
    vg_mldsa_eta_unpack_avx2,
    vg_mldsa_w1_pack_avx2,
    vg_mldsa_shiftl_avx2,
};

/* The AVX2 kernels for every backend but the portable one: the others
 * come from vg_mldsa_avx2_get, which returns them only when AVX2 is
 * active. */
const struct vg_mldsa_pack *vg_mldsa_pack_get(const struct vg_mldsa_backend *be)
{
    if (be == NULL || be == vg_mldsa_portable_get())
        return NULL;
    return &vg_mldsa_pack_avx2;
}
