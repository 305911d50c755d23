/*
 * ML-KEM (FIPS 203) AVX2 coefficientwise helpers and byte encodings: add,
 * sub, tomont, ByteEncode_12/ByteDecode_12, the message
 * encodings (d = 1) and Compress_d/Decompress_d with their packings. Each
 * routine returns exactly the bytes or int16 values of its portable twin in
 * poly.c (the backend contract of poly.h); test_mlkem_backend compares them
 * on random in-bound inputs and edge values (every coefficient 0..q-1 and
 * -(q-1)..0 for compression, all-zero/all-one bytes for decoding).
 *
 * Memory: every routine reads and writes only the bytes its contract names
 * (32 d bytes for compress_d, 384 for tobytes, ...). The vector stores of a
 * group write 16 bytes of which fewer are valid, so each group's store is
 * overwritten by the next one; stores that would pass the end go through a
 * stack buffer (vg_store_group), loads likewise (test_mlkem_backend puts a
 * canary after every encoder's output).
 *
 * Constant time: no branch, memory index or division depends on coefficient
 * or byte values; rounding divisions by q are multiply-shift with a
 * compare-based correction (see vg_compress16).
 * Needs: AVX2 (compiled with -mavx2, called only when vg_cpu_has(VG_CPU_AVX2)).
 */
#include <immintrin.h>

#include "mlkem_avx2.h"
#include "../../lattice/x86_64/q3329_avx2.h"

#define VG_Q16 _mm256_set1_epi16(VG_MLKEM_Q)

/* caddq lanewise: Pre |a| < q. Post 0 <= r < q (as portable vg_mlkem_caddq). */
static inline __m256i vg_caddq16(__m256i a)
{
    return _mm256_add_epi16(a, _mm256_and_si256(_mm256_srai_epi16(a, 15), VG_Q16));
}

/* Store the n (< 16) valid bytes of x at r + off, where r has len bytes:
 * a whole 16-byte store while it fits (the extra bytes are overwritten by
 * the next group's store), else through a stack buffer. off, n and len are
 * public (functions of d), so the branch is. */
static inline void vg_store_group(uint8_t *r, size_t len, size_t off, __m128i x, size_t n)
{
    if (off + 16 <= len) {
        _mm_storeu_si128((__m128i *)(r + off), x);
    } else {
        uint8_t tmp[16];
        _mm_storeu_si128((__m128i *)tmp, x);
        memcpy(r + off, tmp, n);
        vg_wipe(tmp, sizeof tmp);
    }
}

/* ---- coefficientwise ---------------------------------------------------- */

/* r = a + b. Pre: |a + b| < 2^15 (no reduction). Aliasing allowed.
 * Specification: FIPS 203, Algorithms 13-15 (addition in R_q). */
void vg_mlkem_poly_add_avx2(vg_mlkem_poly *r, const vg_mlkem_poly *a,
                                   const vg_mlkem_poly *b)
{
    for (unsigned i = 0; i < VG_MLKEM_N; i += 16) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(a->coeffs + i));
        __m256i y = _mm256_loadu_si256((const __m256i *)(b->coeffs + i));
        _mm256_storeu_si256((__m256i *)(r->coeffs + i), _mm256_add_epi16(x, y));
    }
}

/* r = a - b. Pre: |a - b| < 2^15. Aliasing allowed.
 * Specification: FIPS 203, Algorithm 15 line 6 (subtraction in R_q). */
void vg_mlkem_poly_sub_avx2(vg_mlkem_poly *r, const vg_mlkem_poly *a,
                                   const vg_mlkem_poly *b)
{
    for (unsigned i = 0; i < VG_MLKEM_N; i += 16) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(a->coeffs + i));
        __m256i y = _mm256_loadu_si256((const __m256i *)(b->coeffs + i));
        _mm256_storeu_si256((__m256i *)(r->coeffs + i), _mm256_sub_epi16(x, y));
    }
}

/* r = fqmul(r, R^2 mod q = 1353). Pre: any int16 (|1353 r| < q 2^15).
 * Post: |r| < q. fqmul of ../../lattice/x86_64/q3329_avx2.h, exact.
 * Specification: FIPS 203, Algorithm 13 line 18 (cancels the R^-1 that
 * basemul_acc leaves). */
void vg_mlkem_poly_tomont_avx2(vg_mlkem_poly *r)
{
    const __m256i z = _mm256_set1_epi16(1353);
    const __m256i zq = _mm256_set1_epi16((int16_t)(uint16_t)((1353u * 62209u) & 0xffffu));
    for (unsigned i = 0; i < VG_MLKEM_N; i += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(r->coeffs + i));
        _mm256_storeu_si256((__m256i *)(r->coeffs + i), vg_lattice_q3329_fqmul16(a, z, zq));
    }
}

/* r = Barrett(fqmul(r, 1353) + e) in one pass over memory instead of
 * three (tomont, add, reduce; the same lane operations in the same order,
 * so the same values). Pre: r any int16; |e| <= 2^15 - q.
 * Post: |r| <= q/2. Aliasing r == e allowed (each lane group is read
 * before it is written). */
void vg_mlkem_tomont_add_reduce_avx2(vg_mlkem_poly *r, const vg_mlkem_poly *e)
{
    const __m256i z = _mm256_set1_epi16(1353);
    const __m256i zq = _mm256_set1_epi16((int16_t)(uint16_t)((1353u * 62209u) & 0xffffu));
    for (unsigned i = 0; i < VG_MLKEM_N; i += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(r->coeffs + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(e->coeffs + i));
        a = vg_lattice_q3329_fqmul16(a, z, zq);
        _mm256_storeu_si256((__m256i *)(r->coeffs + i),
                            vg_lattice_q3329_barrett16(_mm256_add_epi16(a, b)));
    }
}

/* ---- ByteEncode_12 / ByteDecode_12 --------------------------------------- */

/* Pre: |a| < q. Writes exactly 384 bytes: ByteEncode_12 of caddq(a).
 * Specification: FIPS 203, Algorithm 5 (d = 12).
 * Per 16 coefficients: pairs combined by vpmaddwd (c0 + 2^12 c1, 24 bits),
 * two such per qword (48 bits = 6 bytes), vpshufb gathers the 12 valid
 * bytes of each 128-bit lane. Groups 0-14 store both lanes with 16-byte
 * stores (the 4 extra bytes are overwritten by the next store); the last
 * group's high lane, which ends at byte 384, is stored as 8 + 4 bytes, so
 * no stack copy (nor its wipe: the bytes may be the secret s-hat) and no
 * branch in the loop (~15 TSC ticks a call less). */
static inline __m256i vg_tobytes_group(const int16_t *c)
{
    const __m256i pair = _mm256_set1_epi32(1 | (1 << 28)); /* words (1, 4096) */
    const __m256i lift = _mm256_setr_epi32(8, 0, 8, 0, 8, 0, 8, 0);
    const __m256i gather = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1,
                                            0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13, -1, -1, -1, -1);
    __m256i x = vg_caddq16(_mm256_loadu_si256((const __m256i *)c));
    x = _mm256_madd_epi16(x, pair); /* < 2^24: no sign issue */
    /* low dword up by 8, then the qword down by 8: lo at 0..23, hi at 24..47 */
    x = _mm256_srli_epi64(_mm256_sllv_epi32(x, lift), 8);
    return _mm256_shuffle_epi8(x, gather);
}

void vg_mlkem_poly_tobytes_avx2(uint8_t r[VG_MLKEM_POLYBYTES], const vg_mlkem_poly *a)
{
    for (unsigned g = 0; g < 15; g++) {
        __m256i x = vg_tobytes_group(a->coeffs + 16 * g);
        _mm_storeu_si128((__m128i *)(r + 24 * g), _mm256_castsi256_si128(x));
        _mm_storeu_si128((__m128i *)(r + 24 * g + 12), _mm256_extracti128_si256(x, 1));
    }
    __m256i x = vg_tobytes_group(a->coeffs + 16 * 15);
    __m128i hi = _mm256_extracti128_si256(x, 1);
    _mm_storeu_si128((__m128i *)(r + 360), _mm256_castsi256_si128(x)); /* bytes 360..375 */
    _mm_storel_epi64((__m128i *)(r + 372), hi);                          /* 372..379 */
    vg_store32_le(r + 380, (uint32_t)_mm_extract_epi32(hi, 2));         /* 380..383 */
}

/* Post: 0 <= r < 4096 (ByteDecode_12 without the mod q, as portable).
 * Reads exactly 384 bytes. Specification: FIPS 203, Algorithm 6 (d = 12).
 * Word 2i takes bytes (3i, 3i+1) & 0xfff, word 2i+1 bytes (3i+1, 3i+2) >> 4. */
void vg_mlkem_poly_frombytes_avx2(vg_mlkem_poly *r, const uint8_t a[VG_MLKEM_POLYBYTES])
{
    const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, 0, 1,
                                            1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11);
    const __m256i mask12 = _mm256_set1_epi16(0x0fff);
    for (unsigned g = 0; g < 16; g++) {
        const uint8_t *in = a + 24 * g;
        __m128i lo = _mm_loadu_si128((const __m128i *)in), hi;
        if (g < 15) {
            hi = _mm_loadu_si128((const __m128i *)(in + 12));
        } else {
            uint8_t tmp[16] = {0};
            memcpy(tmp, in + 12, 12);
            hi = _mm_loadu_si128((const __m128i *)tmp);
        }
        __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
        v = _mm256_shuffle_epi8(v, spread);
        v = _mm256_blend_epi16(_mm256_and_si256(v, mask12), _mm256_srli_epi16(v, 4), 0xaa);
        _mm256_storeu_si256((__m256i *)(r->coeffs + 16 * g), v);
    }
}

/* ---- messages (d = 1) ----------------------------------------------------- */

/* Decompress_1(ByteDecode_1(msg)): bit i -> 0 or 1665. Post: 0 <= r < q.
 * Constant time: each 16-coefficient group broadcasts two message bytes and
 * turns its bits into lane masks with an AND and a compare.
 * Specification: FIPS 203, Algorithm 6 (d = 1) and (4.8). */
void vg_mlkem_poly_frommsg_avx2(vg_mlkem_poly *r, const uint8_t msg[VG_MLKEM_SYMBYTES])
{
    const __m256i bits = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096,
                                           8192, 16384, (int16_t)-32768);
    const __m256i half = _mm256_set1_epi16(1665);
    for (unsigned g = 0; g < 16; g++) {
        int16_t w = (int16_t)(uint16_t)(msg[2 * g] | (msg[2 * g + 1] << 8));
        __m256i m = _mm256_and_si256(_mm256_set1_epi16(w), bits);
        m = _mm256_cmpeq_epi16(m, bits);
        _mm256_storeu_si256((__m256i *)(r->coeffs + 16 * g), _mm256_and_si256(m, half));
    }
}

/* ByteEncode_1(Compress_1(a)). Pre: |a| < q. Constant time.
 * For x = caddq(a) in [0, q): Compress_1(x) = floor((2x + 1664) / q) mod 2
 * is 1 exactly when 833 <= x <= 2496, i.e. when 832 - x and x - 2497 are
 * both negative: the sign bit of their AND. vpmovmskb collects the bits.
 * Specification: FIPS 203, Algorithm 5 (d = 1) and (4.7). */
void vg_mlkem_poly_tomsg_avx2(uint8_t msg[VG_MLKEM_SYMBYTES], const vg_mlkem_poly *a)
{
    const __m256i lo = _mm256_set1_epi16(832), hi = _mm256_set1_epi16(2497);
    for (unsigned g = 0; g < 8; g++) {
        __m256i x0 = vg_caddq16(_mm256_loadu_si256((const __m256i *)(a->coeffs + 32 * g)));
        __m256i x1 = vg_caddq16(_mm256_loadu_si256((const __m256i *)(a->coeffs + 32 * g + 16)));
        x0 = _mm256_and_si256(_mm256_sub_epi16(lo, x0), _mm256_sub_epi16(x0, hi));
        x1 = _mm256_and_si256(_mm256_sub_epi16(lo, x1), _mm256_sub_epi16(x1, hi));
        /* packs keeps the sign; lanes interleave as x0[0..7] x1[0..7] |
         * x0[8..15] x1[8..15], which vpermq 0xd8 puts back in order. */
        __m256i p = _mm256_permute4x64_epi64(_mm256_packs_epi16(x0, x1), 0xd8);
        uint32_t m = (uint32_t)_mm256_movemask_epi8(p);
        memcpy(msg + 4 * g, &m, 4); /* x86-64: little endian, bit i = coefficient i */
    }
}

/* ---- Compress_d / Decompress_d ------------------------------------------- */

/* Compress_d lanewise for d in {4, 5, 10, 11}, on a (|a| < q), exactly the
 * portable vg_mlkem_compress_coeff(caddq(a), d) = floor((2^d x + 1664) / q)
 * mod 2^d, with x = caddq(a) in [0, q).
 * With M = round(2^(12+d) / q), c = floor(16 x M / 2^16) = floor(x M / 2^12)
 * (vpmulhuw; 16 x < 2^16) differs from x 2^d / q by at most 0.31 (d = 5:
 * x |M/2^12 - 2^d/q| <= 3328 * 0.37 / 4096), while the target T = (2^d x +
 * 1664) / q is x 2^d / q + 0.4998, so c is floor(T) or floor(T) - 1. The
 * remainder rem = 2^d x + 1664 - c q is then in [0, 2q), which fits an
 * int16, and computing it modulo 2^16 gives it exactly; c + (rem >= q) is
 * floor(T). No division, no branch; test_mlkem_backend checks every x. */
static inline __m256i vg_compress16(__m256i a, unsigned d, int16_t m)
{
    __m256i x = vg_caddq16(a);
    __m256i c = _mm256_mulhi_epu16(_mm256_slli_epi16(x, 4), _mm256_set1_epi16(m));
    __m256i rem = _mm256_add_epi16(_mm256_sll_epi16(x, _mm_cvtsi32_si128((int)d)),
                                   _mm256_set1_epi16(1664));
    rem = _mm256_sub_epi16(rem, _mm256_mullo_epi16(c, VG_Q16));
    /* rem >= q  <=>  rem > q - 1: the mask is -1, subtracting it adds 1. */
    c = _mm256_sub_epi16(c, _mm256_cmpgt_epi16(rem, _mm256_set1_epi16(VG_MLKEM_Q - 1)));
    return _mm256_and_si256(c, _mm256_set1_epi16((int16_t)((1 << d) - 1)));
}

/* d = 4: 256 coefficients -> 128 bytes, 64 coefficients (32 bytes) per
 * round: vpmaddwd joins pairs into bytes (c0 + 16 c1), two packs narrow
 * dwords to bytes, vpermd restores the order. */
static void vg_compress4(uint8_t *r, const vg_mlkem_poly *a)
{
    const __m256i pair = _mm256_set1_epi32(1 | (16 << 16));
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (unsigned g = 0; g < 4; g++) {
        __m256i t[4];
        for (unsigned j = 0; j < 4; j++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(a->coeffs + 64 * g + 16 * j));
            t[j] = _mm256_madd_epi16(vg_compress16(v, 4, 20), pair);
        }
        __m256i p = _mm256_packus_epi16(_mm256_packs_epi32(t[0], t[1]),
                                        _mm256_packs_epi32(t[2], t[3]));
        _mm256_storeu_si256((__m256i *)(r + 32 * g), _mm256_permutevar8x32_epi32(p, order));
    }
}

/* d = 10: 16 coefficients -> 20 bytes: vpmaddwd gives 20-bit pairs, two
 * per qword joined into 40 bits (5 bytes), vpshufb gathers 10 bytes per
 * 128-bit lane. */
static void vg_compress10(uint8_t *r, const vg_mlkem_poly *a)
{
    const __m256i pair = _mm256_set1_epi32(1 | (1 << 26)); /* words (1, 1024) */
    const __m256i lift = _mm256_setr_epi32(12, 0, 12, 0, 12, 0, 12, 0);
    const __m256i gather = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1,
                                            0, 1, 2, 3, 4, 8, 9, 10, 11, 12, -1, -1, -1, -1, -1, -1);
    for (unsigned g = 0; g < 16; g++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(a->coeffs + 16 * g));
        v = _mm256_madd_epi16(vg_compress16(v, 10, 1260), pair);
        v = _mm256_srli_epi64(_mm256_sllv_epi32(v, lift), 12); /* lo 0..19, hi 20..39 */
        v = _mm256_shuffle_epi8(v, gather);
        vg_store_group(r, 320, 20 * g, _mm256_castsi256_si128(v), 10);
        vg_store_group(r, 320, 20 * g + 10, _mm256_extracti128_si256(v, 1), 10);
    }
}

/* d = 5: 16 coefficients -> 10 bytes: vpmaddwd pairs (10 bits), two per
 * qword joined into 20 bits, the two qwords of a 128-bit lane into 40 bits
 * (5 bytes) at the lane's start. */
static void vg_compress5(uint8_t *r, const vg_mlkem_poly *a)
{
    const __m256i pair = _mm256_set1_epi32(1 | (32 << 16));
    const __m256i lift = _mm256_setr_epi32(22, 0, 22, 0, 22, 0, 22, 0);
    for (unsigned g = 0; g < 16; g++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(a->coeffs + 16 * g));
        v = _mm256_madd_epi16(vg_compress16(v, 5, 39), pair);
        v = _mm256_srli_epi64(_mm256_sllv_epi32(v, lift), 22); /* 20 bits per qword */
        v = _mm256_or_si256(v, _mm256_slli_epi64(_mm256_bsrli_epi128(v, 8), 20));
        vg_store_group(r, 160, 10 * g, _mm256_castsi256_si128(v), 5);
        vg_store_group(r, 160, 10 * g + 5, _mm256_extracti128_si256(v, 1), 5);
    }
}

/* d = 11: 16 coefficients -> 22 bytes: vpmaddwd pairs (22 bits), two per
 * qword joined into 44 bits (L low qword, H high qword of a lane), then
 * the lane's 88 bits: low qword L | H << 44, high qword H >> 20. */
static void vg_compress11(uint8_t *r, const vg_mlkem_poly *a)
{
    const __m256i pair = _mm256_set1_epi32(1 | (1 << 27)); /* words (1, 2048) */
    const __m256i lift = _mm256_setr_epi32(10, 0, 10, 0, 10, 0, 10, 0);
    for (unsigned g = 0; g < 16; g++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(a->coeffs + 16 * g));
        v = _mm256_madd_epi16(vg_compress16(v, 11, 2520), pair);
        v = _mm256_srli_epi64(_mm256_sllv_epi32(v, lift), 10); /* 44 bits per qword */
        __m256i h = _mm256_bsrli_epi128(v, 8);
        v = _mm256_unpacklo_epi64(_mm256_or_si256(v, _mm256_slli_epi64(h, 44)),
                                  _mm256_srli_epi64(h, 20));
        vg_store_group(r, 352, 22 * g, _mm256_castsi256_si128(v), 11);
        vg_store_group(r, 352, 22 * g + 11, _mm256_extracti128_si256(v, 1), 11);
    }
}

/* ByteEncode_d(Compress_d(a)), d in {4, 5, 10, 11} (other d: 11, as
 * portable). Pre: |a| < q. Writes exactly 32 d bytes. Constant time.
 * Specification: FIPS 203, (4.7) and Algorithm 5. */
void vg_mlkem_poly_compress_avx2(uint8_t *r, const vg_mlkem_poly *a, unsigned d)
{
    /* M = round(2^(12+d) / q): 20 (d 4), 39 (5), 1260 (10), 2520 (11). */
    switch (d) {
    case 4: vg_compress4(r, a); break;
    case 5: vg_compress5(r, a); break;
    case 10: vg_compress10(r, a); break;
    default: vg_compress11(r, a); break;
    }
}

/* Decompress_d lanewise on y < 2^d placed as y 2^(15-d) (< 2^15):
 * vpmulhrsw by q gives floor((y 2^(15-d) q + 2^14) / 2^15) = floor((y q +
 * 2^(d-1)) / 2^d), the portable value exactly. */
static inline __m256i vg_decompress16(__m256i y_scaled)
{
    return _mm256_mulhrs_epi16(y_scaled, VG_Q16);
}

/* d = 4: byte b holds coefficients 2b (low nibble) and 2b+1 (high nibble).
 * Lane 0 gets bytes 0..3, lane 1 bytes 4..7; each word gets its byte twice
 * via vpshufb, then a per-lane
 * multiply moves the wanted nibble to bits 11..14 = y 2^11. */
static void vg_decompress4(vg_mlkem_poly *r, const uint8_t *a)
{
    const __m256i dup = _mm256_setr_epi8(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 0, 0, 0, 0,
                                         1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    /* Word lane (b, b): even coefficient takes bits 0..3 -> shift left 11,
     * odd takes bits 4..7 -> shift left 7; then keep bits 11..14. */
    const __m256i shift = _mm256_setr_epi16(1 << 11, 1 << 7, 1 << 11, 1 << 7, 1 << 11, 1 << 7,
                                            1 << 11, 1 << 7, 1 << 11, 1 << 7, 1 << 11, 1 << 7,
                                            1 << 11, 1 << 7, 1 << 11, 1 << 7);
    const __m256i keep = _mm256_set1_epi16(0x7800);
    for (unsigned g = 0; g < 16; g++) {
        __m128i b = _mm_loadl_epi64((const __m128i *)(a + 8 * g)); /* 8 bytes, 16 coefficients */
        __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(b), _mm_srli_si128(b, 4), 1);
        v = _mm256_shuffle_epi8(v, dup);
        v = _mm256_and_si256(_mm256_mullo_epi16(v, shift), keep);
        _mm256_storeu_si256((__m256i *)(r->coeffs + 16 * g), vg_decompress16(v));
    }
}

/* d = 10: 20 bytes per 16 coefficients, 10 per 128-bit lane. Coefficient j
 * of a lane sits at bit 10 j: bytes o = (10 j) / 8, o + 1 with shift s =
 * 10 j mod 8 in {0, 2, 4, 6}; multiplying the word by 2^(6 - s) brings the
 * field to bits 6..15, a logical shift by 1 to 5..14 = y 2^5. */
static void vg_decompress10(vg_mlkem_poly *r, const uint8_t *a)
{
    const __m256i spread = _mm256_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9, 0, 1, 1,
                                            2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9);
    const __m256i shift = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1, 64, 16, 4, 1);
    const __m256i keep = _mm256_set1_epi16(0x7fe0);
    for (unsigned g = 0; g < 16; g++) {
        const uint8_t *in = a + 20 * g;
        __m128i lo = _mm_loadu_si128((const __m128i *)in), hi;
        if (g < 15) {
            hi = _mm_loadu_si128((const __m128i *)(in + 10));
        } else {
            uint8_t tmp[16] = {0};
            memcpy(tmp, in + 10, 10);
            hi = _mm_loadu_si128((const __m128i *)tmp);
        }
        __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
        v = _mm256_shuffle_epi8(v, spread);
        v = _mm256_and_si256(_mm256_srli_epi16(_mm256_mullo_epi16(v, shift), 1), keep);
        _mm256_storeu_si256((__m256i *)(r->coeffs + 16 * g), vg_decompress16(v));
    }
}

/* d = 5: 10 bytes per 16 coefficients, 5 per 128-bit lane. Coefficient j
 * of a lane sits at bit 5 j: bytes o = 5 j / 8, o + 1, shift s = 5 j mod 8;
 * multiplying by 2^(11 - s) brings the field to bits 11..15, a logical
 * shift by 1 to 10..14 = y 2^10. Lane 1 reads bytes 2..9 shifted by 3, so
 * that no load passes the 160-byte input. */
static void vg_decompress5(vg_mlkem_poly *r, const uint8_t *a)
{
    const __m256i spread = _mm256_setr_epi8(0, 1, 0, 1, 1, 2, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5, 0, 1, 0,
                                            1, 1, 2, 1, 2, 2, 3, 3, 4, 3, 4, 4, 5);
    const __m256i shift = _mm256_setr_epi16(2048, 64, 512, 16, 128, 1024, 32, 256, 2048, 64, 512,
                                            16, 128, 1024, 32, 256);
    const __m256i keep = _mm256_set1_epi16(0x7c00);
    for (unsigned g = 0; g < 16; g++) {
        const uint8_t *in = a + 10 * g;
        __m128i lo = _mm_loadl_epi64((const __m128i *)in);
        __m128i hi = _mm_srli_si128(_mm_loadl_epi64((const __m128i *)(in + 2)), 3);
        __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
        v = _mm256_shuffle_epi8(v, spread);
        v = _mm256_and_si256(_mm256_srli_epi16(_mm256_mullo_epi16(v, shift), 1), keep);
        _mm256_storeu_si256((__m256i *)(r->coeffs + 16 * g), vg_decompress16(v));
    }
}

/* d = 11, eight coefficients from the 11 bytes at p (16 readable): in
 * 32-bit lanes, coefficient j takes the dword at byte o = 11 j / 8 shifted
 * right by s = 11 j mod 8 (s + 11 <= 18 bits: one dword is enough), then
 * & 0x7ff. Lane 0 holds j = 0..3, lane 1 j = 4..7. */
static inline __m256i vg_unpack11_8(const uint8_t *p)
{
    const __m256i pick = _mm256_setr_epi8(0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 4, 5, 6, 7, 5, 6, 7, 8,
                                          6, 7, 8, 9, 8, 9, 10, 11, 9, 10, 11, 12);
    const __m256i shift = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
    __m256i v = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)p));
    v = _mm256_srlv_epi32(_mm256_shuffle_epi8(v, pick), shift);
    return _mm256_and_si256(v, _mm256_set1_epi32(0x7ff));
}

/* d = 11: 22 bytes per 16 coefficients; the last group is copied to a
 * 32-byte buffer so that no load passes the 352-byte input. vpackusdw
 * interleaves the two halves' lanes, vpermq 0xd8 restores the order. */
static void vg_decompress11(vg_mlkem_poly *r, const uint8_t *a)
{
    uint8_t tmp[32] = {0};
    for (unsigned g = 0; g < 16; g++) {
        const uint8_t *in = a + 22 * g;
        if (g == 15) {
            memcpy(tmp, in, 22);
            in = tmp;
        }
        __m256i v = _mm256_packus_epi32(vg_unpack11_8(in), vg_unpack11_8(in + 11));
        v = _mm256_slli_epi16(_mm256_permute4x64_epi64(v, 0xd8), 4); /* y 2^4 < 2^15 */
        _mm256_storeu_si256((__m256i *)(r->coeffs + 16 * g), vg_decompress16(v));
    }
    vg_wipe(tmp, sizeof tmp);
}

/* Decompress_d(ByteDecode_d(a)), d in {4, 5, 10, 11} (other d: 11). Reads
 * exactly 32 d bytes. Post: 0 <= r < q. Constant time.
 * Specification: FIPS 203, Algorithm 6 and (4.8). */
void vg_mlkem_poly_decompress_avx2(vg_mlkem_poly *r, const uint8_t *a, unsigned d)
{
    switch (d) {
    case 4: vg_decompress4(r, a); break;
    case 5: vg_decompress5(r, a); break;
    case 10: vg_decompress10(r, a); break;
    default: vg_decompress11(r, a); break;
    }
}

