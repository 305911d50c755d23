/*
 * Poly1305 (RFC 8439 2.5), x86-64 with AVX2: the radix-2^64 MULX code
 * (poly1305_r64.h) for short runs, and for runs of VEC_MIN blocks or more
 * a 4-lane loop in radix 2^26 with VPMULUDQ (32x32->64 products in 64-bit
 * lanes). Compiled with -mavx2 -mbmi2 (CMakeLists.txt); called only when
 * vg_cpu_has(VG_CPU_AVX2 | VG_CPU_BMI2).
 *
 * The 4-lane loop is that of poly1305_ifma.c with 4 lanes and r^4: for
 * n = 4k blocks (k >= 4), H = (H + M_g) r^4 for g < k - 1, and the last
 * group multiplies each lane by the power that brings its block to r^1 ..
 * r^4; the lane sum is h r^n + sum m_i r^(n - i). The blocks sit in the
 * lanes in the order 0, 2, 1, 3 (what VPUNPCKLQDQ of two 2-block loads
 * gives), so the last group's powers are r^4, r^2, r^3, r^1 by lane:
 * st->r64.p26[x][lane] is limb x of that power, made once per key on the
 * first long run (st->r64.ready, a public flag).
 *
 * Radix 2^26: l0 + l1 2^26 + ... + l4 2^104; 2^130 = 5 (mod p), so the
 * products landing at 2^130 and above take s_x = 5 r_x.
 * Bounds (every VPMULUDQ operand must be < 2^32, which they are):
 *   powers (from the radix-2^64 form, h2 <= 4): l0..l3 < 2^26,
 *     l4 < 2^24 + 2^26 < 2^26.33; s_x = 5 l_x < 2^28.66;
 *   lane accumulators between groups ("vector invariant"): h0, h2, h3
 *     < 2^26, h1 < 2^26 + 2^9, h4 < 2^26.33 (the converted scalar h; the
 *     loop leaves h4 < 2^26);
 *   a = h + m (m0..m3 < 2^26, m4 < 2^24 + hibit 2^24 = 2^25): every
 *     a_x < 2^27.01;
 *   products < 2^27.01 * 2^28.66 = 2^55.67, so each of the five column
 *     sums d_x < 5 * 2^55.67 < 2^58 (bounds at the carries below).
 * Constant time: vector adds, shifts, masks and VPMULUDQ; every branch is
 * on the block count.
 * Specification: RFC 8439, section 2.5.
 */
#include <immintrin.h>

#include "../poly1305_r64.h"

#define M26 ((((uint64_t)1) << 26) - 1)

/* The shortest run that takes the vector loop (four groups of 4). */
#define VEC_MIN 16

/* Radix 2^64 (h2 <= 4) to radix 2^26: l0..l3 < 2^26,
 * l4 = h1 >> 40 | h2 << 24 < 2^24 + 4 * 2^24 < 2^26.33 (no overlap). */
static void to26(uint64_t l[5], const uint64_t h[3])
{
    l[0] = h[0] & M26;
    l[1] = (h[0] >> 26) & M26;
    l[2] = ((h[0] >> 52) | (h[1] << 12)) & M26;
    l[3] = (h[1] >> 14) & M26;
    l[4] = (h[1] >> 40) | (h[2] << 24);
}

/* st->r64.p26 from r (see the top for the lane order). */
static void avx2_powers(vg_poly1305_state *st)
{
    static const int lane_of_power[5] = {-1, 3, 1, 2, 0}; /* r^1 .. r^4 */
    const uint64_t r0 = st->r64.r[0], r1 = st->r64.r[1], sr1 = r1 + (r1 >> 2);
    uint64_t x[3] = {r0, r1, 0}, l[5];
    for (int k = 1; k <= 4; k++) {
        if (k > 1)
            r64_step(x, 0, 0, 0, r0, r1, sr1);
        to26(l, x);
        for (int i = 0; i < 5; i++)
            st->r64.p26[i][lane_of_power[k]] = l[i];
    }
    vg_wipe(x, sizeof x);
    vg_wipe(l, sizeof l);
    st->r64.ready = 1;
}

static inline __m256i times5(__m256i x) { return _mm256_add_epi64(_mm256_slli_epi64(x, 2), x); }

#define MUL _mm256_mul_epu32
#define ADD _mm256_add_epi64

/* h = a r, r given by limbs r[0..4] and s[1..4] = 5 r[x], then carried
 * back to the vector invariant.
 * Long (about 50 lines): 25 products and the carry chain, one line each. */
static inline void avx2_mul(__m256i h[5], const __m256i a[5], const __m256i r[5],
                            const __m256i s[5])
{
    const __m256i m26 = _mm256_set1_epi64x((long long)M26);
    __m256i d0 = ADD(ADD(ADD(MUL(a[0], r[0]), MUL(a[1], s[4])), ADD(MUL(a[2], s[3]), MUL(a[3], s[2]))),
                     MUL(a[4], s[1]));
    __m256i d1 = ADD(ADD(ADD(MUL(a[0], r[1]), MUL(a[1], r[0])), ADD(MUL(a[2], s[4]), MUL(a[3], s[3]))),
                     MUL(a[4], s[2]));
    __m256i d2 = ADD(ADD(ADD(MUL(a[0], r[2]), MUL(a[1], r[1])), ADD(MUL(a[2], r[0]), MUL(a[3], s[4]))),
                     MUL(a[4], s[3]));
    __m256i d3 = ADD(ADD(ADD(MUL(a[0], r[3]), MUL(a[1], r[2])), ADD(MUL(a[2], r[1]), MUL(a[3], r[0]))),
                     MUL(a[4], s[4]));
    __m256i d4 = ADD(ADD(ADD(MUL(a[0], r[4]), MUL(a[1], r[3])), ADD(MUL(a[2], r[2]), MUL(a[3], r[1]))),
                     MUL(a[4], r[0]));
    __m256i c;
    /* Each d_x < 2^58; every carry c = d >> 26 < 2^32, and d + c < 2^58.01:
     * no overflow along the chain 0 -> 1 -> 2 -> 3 -> 4. */
    c = _mm256_srli_epi64(d0, 26);
    d0 = _mm256_and_si256(d0, m26);
    d1 = ADD(d1, c);
    c = _mm256_srli_epi64(d1, 26);
    d1 = _mm256_and_si256(d1, m26);
    d2 = ADD(d2, c);
    c = _mm256_srli_epi64(d2, 26);
    d2 = _mm256_and_si256(d2, m26);
    d3 = ADD(d3, c);
    c = _mm256_srli_epi64(d3, 26);
    d3 = _mm256_and_si256(d3, m26);
    d4 = ADD(d4, c);
    /* d4's bits from 2^130 on, c < 2^32.01, are worth 5c < 2^34.34 at 2^0;
     * d0 + 5c < 2^34.35, its carry < 2^8.35 into d1 < 2^26 + 2^9. */
    c = _mm256_srli_epi64(d4, 26);
    d4 = _mm256_and_si256(d4, m26);
    d0 = ADD(d0, times5(c));
    c = _mm256_srli_epi64(d0, 26);
    d0 = _mm256_and_si256(d0, m26);
    d1 = ADD(d1, c);
    h[0] = d0;
    h[1] = d1;
    h[2] = d2;
    h[3] = d3;
    h[4] = d4;
}

/* a = h + the four blocks at in (lanes in block order 0, 2, 1, 3):
 * m0..m3 < 2^26, m4 = hi >> 40 | hibit 2^24 < 2^25. */
static inline void avx2_add_blocks(__m256i a[5], const __m256i h[5], const uint8_t *in,
                                   __m256i hib)
{
    const __m256i m26 = _mm256_set1_epi64x((long long)M26);
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)in);
    __m256i y = _mm256_loadu_si256((const __m256i *)(const void *)(in + 32));
    __m256i lo = _mm256_unpacklo_epi64(x, y), hi = _mm256_unpackhi_epi64(x, y);
    a[0] = ADD(h[0], _mm256_and_si256(lo, m26));
    a[1] = ADD(h[1], _mm256_and_si256(_mm256_srli_epi64(lo, 26), m26));
    a[2] = ADD(h[2], _mm256_and_si256(
                         _mm256_or_si256(_mm256_srli_epi64(lo, 52), _mm256_slli_epi64(hi, 12)), m26));
    a[3] = ADD(h[3], _mm256_and_si256(_mm256_srli_epi64(hi, 14), m26));
    a[4] = ADD(h[4], _mm256_or_si256(_mm256_srli_epi64(hi, 40), hib));
}

/* 4k blocks, k >= 4, through the lanes; h in and out in radix 2^64 with
 * h2 <= 4. */
static void avx2_run(vg_poly1305_state *st, const uint8_t *in, size_t groups, uint32_t hibit)
{
    const __m256i hib = _mm256_set1_epi64x((long long)((uint64_t)hibit << 24));
    __m256i r[5], s[5], h[5], a[5];
    uint64_t l[5], t[5], c;

    /* r^4 (lane 0 of the powers) in every lane. */
    for (int x = 0; x < 5; x++) {
        r[x] = _mm256_set1_epi64x((long long)st->r64.p26[x][0]);
        s[x] = times5(r[x]);
    }
    to26(l, st->r64.h);
    for (int x = 0; x < 5; x++)
        h[x] = _mm256_set_epi64x(0, 0, 0, (long long)l[x]);
    for (size_t g = 0; g + 1 < groups; g++) {
        avx2_add_blocks(a, h, in, hib);
        avx2_mul(h, a, r, s);
        in += 64;
    }
    /* The last group: each lane times the power that ends its block. */
    for (int x = 0; x < 5; x++) {
        r[x] = _mm256_loadu_si256((const __m256i *)(const void *)st->r64.p26[x]);
        s[x] = times5(r[x]);
    }
    avx2_add_blocks(a, h, in, hib);
    avx2_mul(h, a, r, s);

    /* Sum of the lanes: each limb < 4 (2^26 + 2^9) < 2^28.01. */
    for (int x = 0; x < 5; x++) {
        __m128i v = _mm_add_epi64(_mm256_castsi256_si128(h[x]), _mm256_extracti128_si256(h[x], 1));
        t[x] = (uint64_t)_mm_cvtsi128_si64(v) + (uint64_t)_mm_extract_epi64(v, 1);
    }
    /* First pass: carries < 2^2.02, t4 < 2^28.02 gives c < 2^2.02 worth
     * 5c < 2^4.35 at t0 < 2^26 + 2^4.35. Second pass 0 -> 4: carries 0 or
     * 1, so t0..t3 < 2^26 and t4 <= 2^26. */
    for (int x = 0; x < 4; x++) {
        c = t[x] >> 26;
        t[x] &= M26;
        t[x + 1] += c;
    }
    c = t[4] >> 26;
    t[4] &= M26;
    t[0] += c * 5;
    for (int x = 0; x < 4; x++) {
        c = t[x] >> 26;
        t[x] &= M26;
        t[x + 1] += c;
    }
    /* Back to radix 2^64: h2 = t4 >> 24 <= 4 (t4 <= 2^26), the scalar
     * invariant. */
    st->r64.h[0] = t[0] | (t[1] << 26) | (t[2] << 52);
    st->r64.h[1] = (t[2] >> 12) | (t[3] << 14) | (t[4] << 40);
    st->r64.h[2] = t[4] >> 24;
    /* r and s hold the powers of r, h and a the accumulators; the
     * compiler may have kept them in memory. */
    vg_wipe(r, sizeof r);
    vg_wipe(s, sizeof s);
    vg_wipe(h, sizeof h);
    vg_wipe(a, sizeof a);
    vg_wipe(l, sizeof l);
    vg_wipe(t, sizeof t);
}

#undef MUL
#undef ADD

static void poly1305_init_avx2(vg_poly1305_state *st, const uint8_t key[32])
{
    r64_init(st, key); /* ready = 0: no powers yet */
}

/* See struct vg_poly1305_impl.blocks: runs of VEC_MIN blocks or more take
 * the lanes for their whole groups of 4, the rest the scalar code. The
 * choice depends only on nblocks. */
static void poly1305_blocks_avx2(vg_poly1305_state *st, const uint8_t *in, size_t nblocks,
                                 uint32_t hibit)
{
    if (nblocks >= VEC_MIN) {
        size_t groups = nblocks / 4;
        if (!st->r64.ready)
            avx2_powers(st);
        avx2_run(st, in, groups, hibit);
        in += 64 * groups;
        nblocks -= 4 * groups;
    }
    if (nblocks)
        r64_blocks(st, in, nblocks, hibit);
}

static void poly1305_finish_avx2(vg_poly1305_state *st, uint8_t tag[16])
{
    r64_finish(st, tag);
}

static const struct vg_poly1305_impl g_poly1305_avx2 = {
    .name = "avx2",
    .init = poly1305_init_avx2,
    .blocks = poly1305_blocks_avx2,
    .finish = poly1305_finish_avx2,
};

const struct vg_poly1305_impl *vg_poly1305_avx2_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2 | VG_CPU_BMI2) ? &g_poly1305_avx2 : NULL;
}
