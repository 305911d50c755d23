/*
 * The AVX-512 IFMA lane field shared by the X25519 ladder (x25519_ifma.c)
 * and the fixed-base scalar multiplication (ge25519_base_ifma.c): four
 * elements of GF(2^255 - 19), one per 64-bit lane of a ymm register
 * (AVX-512VL), multiplied with VPMADD52LUQ/VPMADD52HUQ.
 *
 * Include only from files compiled with -mavx512f -mavx512vl -mavx512ifma,
 * and call only when vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL |
 * VG_CPU_AVX512IFMA). Every function is static inline: each including file
 * gets its own copy, inlined into its loops.
 *
 * Representation ("fe4"): four field elements, one per lane, each in radix
 * 2^51 with five limbs: element = sum_i v[i] 2^(51 i), v[i] a ymm holding
 * limb i of the four elements. IFMA multiplies the low 52 bits of its
 * operands, so every multiplication operand must have limbs < 2^52; radix
 * 2^51 leaves one bit of headroom, which lets a single parallel carry round
 * (no sequential chain) bring any sum back into range.
 *
 * Bounds used in the pre/postconditions below:
 *   T ("tight enough"): every limb < 2^51 + 2^18 (< 2^52, a valid IFMA input);
 *   every output of fe4_carry, fe4_addsub, fe4_mul and fe4_mulsmall is T.
 *
 * Constant time: no function here branches or indexes memory on its
 * inputs; fe4_select is a bitwise select on a caller-made mask.
 */
#ifndef VG_CURVE25519_FE_IFMA_H
#define VG_CURVE25519_FE_IFMA_H

#include <immintrin.h>
#include <stdint.h>

#include "fe25519.h"

typedef struct {
    __m256i v[5];
} fe4;

/* Always inlined: gcc 12 otherwise keeps fe4_mul and fe4_addsub out of
 * line, and every call then passes its operands through memory. */
#if defined(__GNUC__)
#define FE4_INLINE static inline __attribute__((always_inline))
#else
#define FE4_INLINE static inline
#endif

#define MASK51 ((UINT64_C(1) << 51) - 1)

/* h = (sum r[i] 2^(51 i)) mod-equivalent, one parallel carry round.
 * Precondition: r[i] < 2^64. Postcondition: h T (r[i] >> 51 < 2^13, so
 * h[i] < 2^51 + 2^13 for i >= 1 and h[0] < 2^51 + 19 * 2^13 < 2^51 + 2^18).
 * The carry out of limb 4 has weight 2^255 = 19 mod p. */
FE4_INLINE void fe4_carry(fe4 *h, const __m256i r[5])
{
    const __m256i m51 = _mm256_set1_epi64x((long long)MASK51);
    const __m256i k19 = _mm256_set1_epi64x(19);
    __m256i c[5];
    for (int i = 0; i < 5; i++)
        c[i] = _mm256_srli_epi64(r[i], 51);
    for (int i = 1; i < 5; i++)
        h->v[i] = _mm256_add_epi64(_mm256_and_si256(r[i], m51), c[i - 1]);
    /* c[4] < 2^13 is a valid IFMA operand; 19 c[4] < 2^52 so the low half
     * is the whole product. */
    h->v[0] = _mm256_madd52lo_epu64(_mm256_and_si256(r[0], m51), c[4], k19);
}

/* 4 p in radix 2^51: limb 0 is 4 (2^51 - 19), the others 4 (2^51 - 1). */
FE4_INLINE __m256i fe4_4p(int i)
{
    return _mm256_set1_epi64x(i == 0 ? (long long)((UINT64_C(1) << 53) - 76)
                                     : (long long)((UINT64_C(1) << 53) - 4));
}

/* h = a + (lanes in `neg` ? 4p - b : b), carried.
 * Precondition: a, b limbs < 2^52 (4p limbs are >= 2^53 - 76 > b, so no
 * lane goes negative; sums < 2^54). Postcondition: h T. */
FE4_INLINE void fe4_addsub(fe4 *h, const fe4 *a, const fe4 *b, __mmask8 neg)
{
    __m256i r[5];
    for (int i = 0; i < 5; i++) {
        __m256i nb = _mm256_sub_epi64(fe4_4p(i), b->v[i]);
        r[i] = _mm256_add_epi64(a->v[i], _mm256_mask_blend_epi64(neg, b->v[i], nb));
    }
    fe4_carry(h, r);
}

/* h = a * b mod p, lane by lane.
 * Precondition: a, b limbs < 2^52 (T is enough). Postcondition: h T.
 * Each product a[i] b[j] < 2^104 splits into lo (bits 0..51, weight
 * 2^(51(i+j))) and hi (bits 52..103, weight 2^(51(i+j)+52) = 2 * 2^(51(i+j+1))).
 * Column sums: L[k], H[k] < 5 * 2^52. Then, folding 2^255 = 19:
 *   r[k] = L[k] + 2 H[k-1] + 19 (L[k+5] + 2 H[k+4])
 *        < 15 * 2^52 + 19 * 15 * 2^52 < 2^61, within 64 bits. */
FE4_INLINE void fe4_mul(fe4 *h, const fe4 *a, const fe4 *b)
{
    const __m256i zero = _mm256_setzero_si256();
    __m256i lo[9], hi[9], r[5];
    for (int k = 0; k < 9; k++)
        lo[k] = hi[k] = zero;
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 5; j++) {
            lo[i + j] = _mm256_madd52lo_epu64(lo[i + j], a->v[i], b->v[j]);
            hi[i + j] = _mm256_madd52hi_epu64(hi[i + j], a->v[i], b->v[j]);
        }
    }
    for (int k = 0; k < 5; k++) {
        /* high = L[k+5] + 2 H[k+4] (L[9] = 0), weight 2^(51(k+5)) = 19 * 2^(51 k). */
        __m256i high = _mm256_slli_epi64(hi[k + 4], 1);
        if (k + 5 < 9)
            high = _mm256_add_epi64(high, lo[k + 5]);
        __m256i low = lo[k];
        if (k > 0)
            low = _mm256_add_epi64(low, _mm256_slli_epi64(hi[k - 1], 1));
        /* 19 x = 16 x + 2 x + x */
        __m256i h19 = _mm256_add_epi64(_mm256_add_epi64(_mm256_slli_epi64(high, 4),
                                                        _mm256_slli_epi64(high, 1)),
                                       high);
        r[k] = _mm256_add_epi64(low, h19);
    }
    fe4_carry(h, r);
}

/* h = base + x * c mod p, with c a small per-lane constant.
 * Precondition: base, x limbs < 2^52; c < 2^17 in every lane.
 * x[i] c = lo + 2^52 hi with hi < 2^17; hi has weight 2 * 2^(51(i+1)), and
 * for i = 4, 2 * 2^255 = 38. Sums < 2^52 + 2^52 + 2^18 + 38 * 2^17 < 2^54.
 * Postcondition: h T. */
FE4_INLINE void fe4_mulsmall(fe4 *h, const fe4 *base, const fe4 *x, __m256i c)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i k38 = _mm256_set1_epi64x(38);
    __m256i lo[5], hi[5];
    for (int i = 0; i < 5; i++) {
        lo[i] = _mm256_madd52lo_epu64(base->v[i], x->v[i], c);
        hi[i] = _mm256_madd52hi_epu64(zero, x->v[i], c);
    }
    for (int i = 1; i < 5; i++)
        lo[i] = _mm256_add_epi64(lo[i], _mm256_slli_epi64(hi[i - 1], 1));
    lo[0] = _mm256_madd52lo_epu64(lo[0], hi[4], k38); /* hi[4] < 2^17, 38 hi[4] < 2^52 */
    fe4_carry(h, lo);
}

/* h = mask ? b : a, bitwise (mask all-zero or all-ones in each lane):
 * a ^ ((a ^ b) & mask). Written with plain AND/XOR rather than the
 * VPTERNLOGQ intrinsic (which compilers emit anyway) so that MemorySanitizer
 * propagates the secret through it instead of reporting the intrinsic. */
FE4_INLINE void fe4_select(fe4 *h, const fe4 *a, const fe4 *b, __m256i mask)
{
    for (int i = 0; i < 5; i++)
        h->v[i] = _mm256_xor_si256(a->v[i], _mm256_and_si256(_mm256_xor_si256(a->v[i], b->v[i]), mask));
}

/* h = sum v[i] 2^(51 i) as four 64-bit words (the fe64 representation).
 * Precondition: v T. Then v[0..3] contribute < 2^52 2^153 2 = 2^206 and
 * v[4] < (2^51 + 2^18) 2^204, so the value is < 2^255 + 2^223 < 2^256 and
 * fits; the carries ride in a 128-bit accumulator. */
FE4_INLINE void fe4_pack64(uint64_t h[4], const uint64_t v[5])
{
    typedef unsigned __int128 u128;
    u128 acc = (u128)v[0] + ((u128)v[1] << 51); /* bits 0..103 */
    h[0] = (uint64_t)acc;
    acc = (acc >> 64) + ((u128)v[2] << 38); /* v2 at bit 102 = 64 + 38 */
    h[1] = (uint64_t)acc;
    acc = (acc >> 64) + ((u128)v[3] << 25); /* v3 at bit 153 = 128 + 25 */
    h[2] = (uint64_t)acc;
    acc = (acc >> 64) + ((u128)v[4] << 12); /* v4 at bit 204 = 192 + 12 */
    h[3] = (uint64_t)acc;
}

/* out = the canonical encoding of num * den^(p-2) (0 when den is 0; RFC
 * 7748 section 5 encodeUCoordinate), num and den radix-51, T (as left by
 * the IFMA lanes). The inversion is one long chain of dependent squarings
 * of one element, faster on the BMI2+ADX field, so the callers pass f64 =
 * vg_fe64_adx_get() (NULL when the CPU mask does not allow it: a public
 * condition) and fe = vg_fe51_get(), used when f64 is NULL. Both paths
 * overwrite num and den; the ADX one also n64 and d64, the caller's
 * scratch, which it wipes with the rest of its state. */
FE4_INLINE void fe4_ratio_tobytes(uint8_t out[32], const struct vg_fe51_ops *fe,
                                  const struct vg_fe64_ops *f64, vg_fe51 *num, vg_fe51 *den,
                                  uint64_t n64[4], uint64_t d64[4])
{
    if (f64) {
        fe4_pack64(n64, num->v);
        fe4_pack64(d64, den->v);
        f64->invert(d64, d64);
        f64->mul(n64, n64, d64);
        f64->tobytes(out, n64);
    } else {
        fe->invert(den, den);
        fe->mul(num, num, den);
        fe->tobytes(out, num);
    }
}

#endif
