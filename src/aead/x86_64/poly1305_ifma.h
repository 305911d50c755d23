/*
 * Poly1305 (RFC 8439 2.5) in radix 2^44 on 8 lanes of AVX-512 IFMA
 * (VPMADD52LUQ / VPMADD52HUQ), the vector core shared by poly1305_ifma.c
 * and the fused AEAD loop of aead_avx512.c; both are compiled with
 * -mavx512f -mavx512vl -mavx512ifma -mbmi2 and called only when the CPU
 * has all four.
 *
 * The 8-lane loop (n = 8k blocks m_0 .. m_{n-1}, k >= 1): lane j holds the
 * blocks j, j + 8, j + 16, ...; with H the lane accumulators,
 *   H = (H + M_g) r^8       for the groups g = 0 .. k - 2,
 *   H = (H + M_{k-1}) r^(8 - j) in lane j,
 * and the sum of the lanes is h r^n + sum m_i r^(n - i), the result of n
 * scalar steps (the old h enters lane 0 of the first group). The powers
 * r^1 .. r^8 are computed once per key, on the first run long enough, by
 * three lane products (ifma_powers), and kept in the state (st->r64.pw, a
 * public flag st->r64.ready): short messages never pay for them.
 *
 * Radix 2^44: a value is l0 + l1 2^44 + l2 2^88; 2^132 = 4 * 2^130 = 20
 * (mod p), so products landing at 2^132 take s_x = 20 r_x. VPMADD52LUQ adds
 * the low 52 bits of a 52x52-bit product, VPMADD52HUQ the bits from 2^52
 * on; for column i (weight 2^(44 i)) the products sum to L_i + H_i 2^52 =
 * L_i + (H_i << 8) 2^44, so H_i << 8 joins column i + 1 (and H_2 << 8 at
 * 2^132 would need 20; it is taken as H_2 << 10 at 2^130, worth 5).
 *
 * Bounds (every operand of a VPMADD52 must be < 2^52, which they are):
 *   powers r^x (r converted from radix 2^64, or a product from ifma_mul):
 *     l0 < 2^44, l1 < 2^44 + 2^11, l2 < 2^43; s1 = 20 l1 < 2^48.33,
 *     s2 = 20 l2 < 2^47.33;
 *   lane accumulators between groups ("vector invariant"): h0 < 2^44,
 *     h1 < 2^44 + 2^11, h2 < 2^43 (the converted scalar h has l0, l1 <
 *     2^44, l2 < 2^43; ifma_mul leaves h2 < 2^42);
 *   a = h + m: a0 < 2^45, a1 < 2^45 + 2^11 < 2^45.01,
 *     a2 < 2^43 + 2^41 < 2^43.33.
 * Constant time: vector adds, shifts, masks and IFMA; every branch is on
 * the block count.
 * Specification: RFC 8439, section 2.5.
 */
#include <immintrin.h>

#ifndef VG_AEAD_POLY1305_IFMA_H
#define VG_AEAD_POLY1305_IFMA_H

#include "../poly1305_r64.h"

#define M44 ((((uint64_t)1) << 44) - 1)
#define M42 ((((uint64_t)1) << 42) - 1)

/* The shortest run that takes the vector loop (two groups of 8). */
#define VEC_MIN 16

/* Radix 2^64 (h2 <= 4) to radix 2^44: l0, l1 < 2^44, l2 = h1 >> 24 |
 * h2 << 40 < 2^40 + 4 * 2^40 < 2^43 (no overlap of the two parts). */
static inline void to44(uint64_t l[3], const uint64_t h[3])
{
    l[0] = h[0] & M44;
    l[1] = ((h[0] >> 44) | (h[1] << 20)) & M44;
    l[2] = (h[1] >> 24) | (h[2] << 40);
}

/* a * (r0, r1, r2) with s1 = 20 r1, s2 = 20 r2, carried back to the vector
 * invariant (bounds from the top of the file):
 *   column 0: a0 r0 + a1 s2 + a2 s1,  column 1: a0 r1 + a1 r0 + a2 s2,
 *   column 2: a0 r2 + a1 r1 + a2 r0.
 * Each low part < 2^52, so L_i < 3 * 2^52 < 2^53.6; the largest products
 * are a1 s2 < 2^45.01 * 2^47.33 = 2^92.34 and a2 s1 < 2^43.33 * 2^48.33 =
 * 2^91.66, so each high part < 2^40.34 and H_i < 3 * 2^40.34 < 2^42. */
static inline void ifma_mul(__m512i *h0, __m512i *h1, __m512i *h2, __m512i a0, __m512i a1,
                            __m512i a2, __m512i r0, __m512i r1, __m512i r2, __m512i s1,
                            __m512i s2)
{
    const __m512i z = _mm512_setzero_si512(), m44 = _mm512_set1_epi64((long long)M44),
                  m42 = _mm512_set1_epi64((long long)M42);
    __m512i l0 = _mm512_madd52lo_epu64(z, a0, r0), g0 = _mm512_madd52hi_epu64(z, a0, r0);
    __m512i l1 = _mm512_madd52lo_epu64(z, a0, r1), g1 = _mm512_madd52hi_epu64(z, a0, r1);
    __m512i l2 = _mm512_madd52lo_epu64(z, a0, r2), g2 = _mm512_madd52hi_epu64(z, a0, r2);
    l0 = _mm512_madd52lo_epu64(l0, a1, s2);
    g0 = _mm512_madd52hi_epu64(g0, a1, s2);
    l1 = _mm512_madd52lo_epu64(l1, a1, r0);
    g1 = _mm512_madd52hi_epu64(g1, a1, r0);
    l2 = _mm512_madd52lo_epu64(l2, a1, r1);
    g2 = _mm512_madd52hi_epu64(g2, a1, r1);
    l0 = _mm512_madd52lo_epu64(l0, a2, s1);
    g0 = _mm512_madd52hi_epu64(g0, a2, s1);
    l1 = _mm512_madd52lo_epu64(l1, a2, s2);
    g1 = _mm512_madd52hi_epu64(g1, a2, s2);
    l2 = _mm512_madd52lo_epu64(l2, a2, r0);
    g2 = _mm512_madd52hi_epu64(g2, a2, r0);

    /* Column 0 -> 1: c = L0 >> 44 < 2^9.6; L1 + c + (H0 << 8) < 2^53.6 +
     * 2^9.6 + 2^50 < 2^53.8. */
    l1 = _mm512_add_epi64(l1, _mm512_add_epi64(_mm512_srli_epi64(l0, 44),
                                                _mm512_slli_epi64(g0, 8)));
    l0 = _mm512_and_si512(l0, m44);
    /* Column 1 -> 2: c < 2^9.8; L2 + c + (H1 << 8) < 2^53.8. */
    l2 = _mm512_add_epi64(l2, _mm512_add_epi64(_mm512_srli_epi64(l1, 44),
                                                _mm512_slli_epi64(g1, 8)));
    l1 = _mm512_and_si512(l1, m44);
    /* Column 2 from 2^130 on: c = (L2 >> 42) + (H2 << 10) < 2^11.8 + 2^52
     * < 2^52.01, worth 5c < 2^54.4 at 2^0; l0 + 5c < 2^54.5. */
    __m512i c = _mm512_add_epi64(_mm512_srli_epi64(l2, 42), _mm512_slli_epi64(g2, 10));
    l2 = _mm512_and_si512(l2, m42);
    l0 = _mm512_add_epi64(l0, _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
    /* l0 -> l1: c = l0 >> 44 < 2^10.5; l1 + c < 2^44 + 2^10.5. Then
     * h0 < 2^44, h1 < 2^44 + 2^11, h2 < 2^42: the vector invariant, so no
     * carry out of l1 is needed (a negative control that dropped one
     * stayed green, and the bounds say why). */
    l1 = _mm512_add_epi64(l1, _mm512_srli_epi64(l0, 44));
    l0 = _mm512_and_si512(l0, m44);
    *h0 = l0;
    *h1 = l1;
    *h2 = l2;
}

/* st->r64.pw from r in three dependent products instead of seven: r^2 in
 * every lane; then lanes 4, 5 = r^2 (r^2, r); then lanes 0..3 = r^4 (r^4,
 * r^3, r^2, r). Each product is ifma_mul, whose operands here are within
 * the bounds at the top (r: l0, l1 < 2^44, l2 < 2^40; products: the vector
 * invariant with h2 < 2^42), and whose results, so also the powers kept, are in the
 * vector invariant. */
static inline void ifma_powers(vg_poly1305_state *st)
{
    const uint64_t x[3] = {st->r64.r[0], st->r64.r[1], 0};
    uint64_t l[3];
    __m512i a0, a1, a2, b0, b1, b2, v0, v1, v2, q0, q1, q2, w0, w1, w2;
    const __m512i at4 = _mm512_set1_epi64(4), up = _mm512_set_epi64(7, 6, 5, 4, 7, 6, 5, 4);
#define S20(x) _mm512_add_epi64(_mm512_slli_epi64(x, 4), _mm512_slli_epi64(x, 2))
    to44(l, x);
    a0 = _mm512_set1_epi64((long long)l[0]);
    a1 = _mm512_set1_epi64((long long)l[1]);
    a2 = _mm512_set1_epi64((long long)l[2]);
    ifma_mul(&b0, &b1, &b2, a0, a1, a2, a0, a1, a2, S20(a1), S20(a2)); /* r^2 */
    /* v: r^2 in lane 4, r elsewhere; lanes 4, 5 of b v are r^4, r^3. */
    v0 = _mm512_mask_blend_epi64(0x10, a0, b0);
    v1 = _mm512_mask_blend_epi64(0x10, a1, b1);
    v2 = _mm512_mask_blend_epi64(0x10, a2, b2);
    ifma_mul(&v0, &v1, &v2, b0, b1, b2, v0, v1, v2, S20(v1), S20(v2));
    /* q: lanes 4..7 = r^4, r^3, r^2, r. */
    q0 = _mm512_mask_blend_epi64(0x30, _mm512_mask_blend_epi64(0x40, a0, b0), v0);
    q1 = _mm512_mask_blend_epi64(0x30, _mm512_mask_blend_epi64(0x40, a1, b1), v1);
    q2 = _mm512_mask_blend_epi64(0x30, _mm512_mask_blend_epi64(0x40, a2, b2), v2);
    /* r^4 (lane 4 of q) times lanes 0..3 = q's lanes 4..7. */
    w0 = _mm512_permutexvar_epi64(up, q0);
    w1 = _mm512_permutexvar_epi64(up, q1);
    w2 = _mm512_permutexvar_epi64(up, q2);
    ifma_mul(&w0, &w1, &w2, _mm512_permutexvar_epi64(at4, q0), _mm512_permutexvar_epi64(at4, q1),
             _mm512_permutexvar_epi64(at4, q2), w0, w1, w2, S20(w1), S20(w2));
#undef S20
    _mm512_storeu_si512((void *)st->r64.pw[0], _mm512_mask_blend_epi64(0x0f, q0, w0));
    _mm512_storeu_si512((void *)st->r64.pw[1], _mm512_mask_blend_epi64(0x0f, q1, w1));
    _mm512_storeu_si512((void *)st->r64.pw[2], _mm512_mask_blend_epi64(0x0f, q2, w2));
    vg_wipe(l, sizeof l);
    st->r64.ready = 1;
}

/* Eight blocks (128 bytes) into limb vectors, lane j = block j:
 * m0 < 2^44, m1 < 2^44, m2 = hi >> 24 | hibit 2^40 < 2^41. */
static inline void ifma_load(__m512i *m0, __m512i *m1, __m512i *m2, const uint8_t *in,
                             __m512i hib)
{
    const __m512i m44 = _mm512_set1_epi64((long long)M44);
    const __m512i ilo = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i ihi = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
    __m512i x = _mm512_loadu_si512((const void *)in), y = _mm512_loadu_si512((const void *)(in + 64));
    __m512i lo = _mm512_permutex2var_epi64(x, ilo, y), hi = _mm512_permutex2var_epi64(x, ihi, y);
    *m0 = _mm512_and_si512(lo, m44);
    *m1 = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(lo, 44), _mm512_slli_epi64(hi, 20)),
                           m44);
    *m2 = _mm512_or_si512(_mm512_srli_epi64(hi, 24), hib);
}

/* st->r64.h = the sum of the lanes h0, h1, h2 (each lane within the vector
 * invariant), carried back to radix 2^64 with h2 <= 4. */
static inline void ifma_fold(vg_poly1305_state *st, __m512i h0, __m512i h1, __m512i h2)
{
    uint64_t s[3], c;

    /* Sum of the lanes: s0 < 8 * 2^44 = 2^47, s1 < 8 * (2^44 + 2^11) <
     * 2^47.01, s2 < 8 * 2^42 = 2^45. Carry to l0, l1 < 2^44, l2 <= 2^42:
     * c < 2^3 then < 2^3.02; s2 + c < 2^45.01, c = s2 >> 42 < 2^3.01,
     * l0 + 5c < 2^44 + 2^5.4; its carry (0 or 1) into l1 < 2^44 + 1 and
     * that carry (0 or 1) into l2 <= 2^42. */
    s[0] = (uint64_t)_mm512_reduce_add_epi64(h0);
    s[1] = (uint64_t)_mm512_reduce_add_epi64(h1);
    s[2] = (uint64_t)_mm512_reduce_add_epi64(h2);
    c = s[0] >> 44;
    s[0] &= M44;
    s[1] += c;
    c = s[1] >> 44;
    s[1] &= M44;
    s[2] += c;
    c = s[2] >> 42;
    s[2] &= M42;
    s[0] += c * 5;
    c = s[0] >> 44;
    s[0] &= M44;
    s[1] += c;
    c = s[1] >> 44;
    s[1] &= M44;
    s[2] += c;
    /* Back to radix 2^64: h2 = l2 >> 40 <= 4 (l2 <= 2^42), the scalar
     * invariant. */
    st->r64.h[0] = s[0] | (s[1] << 44);
    st->r64.h[1] = (s[1] >> 20) | (s[2] << 24);
    st->r64.h[2] = s[2] >> 40;
    vg_wipe(s, sizeof s);
}

/* 8k blocks, k >= 1, through the lanes (see the top): groups - 1 groups of
 * 8 blocks at in, then the last group at last (in + 128 (groups - 1) for
 * one run; a separate copy in aead_avx512.c). h in and out in radix 2^64
 * with h2 <= 4; the powers must be there (st->r64.ready). */
static inline void ifma_run_last(vg_poly1305_state *st, const uint8_t *in, size_t groups,
                                 const uint8_t *last, uint32_t hibit)
{
    const __m512i hib = _mm512_set1_epi64((long long)((uint64_t)hibit << 40));
    __m512i p0 = _mm512_loadu_si512((const void *)st->r64.pw[0]);
    __m512i p1 = _mm512_loadu_si512((const void *)st->r64.pw[1]);
    __m512i p2 = _mm512_loadu_si512((const void *)st->r64.pw[2]);
    /* r^8 in every lane (lane 0 of the powers), and 20 r = 16 r + 4 r. */
    __m512i r0 = _mm512_set1_epi64((long long)st->r64.pw[0][0]);
    __m512i r1 = _mm512_set1_epi64((long long)st->r64.pw[1][0]);
    __m512i r2 = _mm512_set1_epi64((long long)st->r64.pw[2][0]);
    __m512i s1 = _mm512_add_epi64(_mm512_slli_epi64(r1, 4), _mm512_slli_epi64(r1, 2));
    __m512i s2 = _mm512_add_epi64(_mm512_slli_epi64(r2, 4), _mm512_slli_epi64(r2, 2));
    __m512i h0, h1, h2, m0, m1, m2;
    uint64_t l[3];

    to44(l, st->r64.h);
    h0 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)l[0]);
    h1 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)l[1]);
    h2 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)l[2]);
    for (size_t g = 0; g + 1 < groups; g++) {
        ifma_load(&m0, &m1, &m2, in, hib);
        ifma_mul(&h0, &h1, &h2, _mm512_add_epi64(h0, m0), _mm512_add_epi64(h1, m1),
                 _mm512_add_epi64(h2, m2), r0, r1, r2, s1, s2);
        in += 128;
    }
    /* The last group: lane j times r^(8 - j). */
    s1 = _mm512_add_epi64(_mm512_slli_epi64(p1, 4), _mm512_slli_epi64(p1, 2));
    s2 = _mm512_add_epi64(_mm512_slli_epi64(p2, 4), _mm512_slli_epi64(p2, 2));
    ifma_load(&m0, &m1, &m2, last, hib);
    ifma_mul(&h0, &h1, &h2, _mm512_add_epi64(h0, m0), _mm512_add_epi64(h1, m1),
             _mm512_add_epi64(h2, m2), p0, p1, p2, s1, s2);

    ifma_fold(st, h0, h1, h2);
    vg_wipe(l, sizeof l);
}

/* struct vg_poly1305_impl.blocks of poly1305_ifma.c: runs of VEC_MIN
 * blocks or more take the lanes for their whole groups of 8 (the powers
 * made on first use), the rest the scalar code. The choice depends only on
 * nblocks. */
static inline void ifma_blocks(vg_poly1305_state *st, const uint8_t *in, size_t nblocks,
                               uint32_t hibit)
{
    if (nblocks >= VEC_MIN) {
        size_t groups = nblocks / 8;
        if (!st->r64.ready)
            ifma_powers(st);
        ifma_run_last(st, in, groups, in + 128 * (groups - 1), hibit);
        in += 128 * groups;
        nblocks -= 8 * groups;
    }
    if (nblocks)
        r64_blocks(st, in, nblocks, hibit);
}

#endif /* VG_AEAD_POLY1305_IFMA_H */
