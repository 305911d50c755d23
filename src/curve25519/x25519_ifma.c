/*
 * X25519 (RFC 7748 section 5) with AVX-512 IFMA (VPMADD52LUQ/VPMADD52HUQ),
 * the ladder step's independent field operations side by side in the four
 * 64-bit lanes of a ymm register (AVX-512VL).
 *
 * Compiled with -mavx512f -mavx512vl -mavx512ifma; called only when
 * vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA).
 *
 * The lane field ("fe4": four elements in radix 2^51, one per lane, and
 * the bound T, limbs < 2^51 + 2^18, that every operation's output meets and
 * every multiplication's input needs) is in fe_ifma.h, shared with the
 * fixed-base scalar multiplication.
 *
 * The ladder step (RFC 7748 section 5), with (x2, z2, x3, z3) after cswap:
 *   lanes       0        1        2        3
 *   W       A=x2+z2  B=x2-z2  C=x3+z3  D=x3-z3
 *   M1 =    D*A      C*B      A*A      B*B       (DA, CB, AA, BB)
 *   X       DA+CB    DA-CB    AA       E=AA-BB
 *   R2      DA+CB    DA-CB    BB       AA+a24*E  (a24 = 121665)
 *   M2=X*R2 x3'      (DA-CB)^2 x2'     z2'
 *   M3 =    M2 * (1, x1, 1, 1) = (x3', z3', x2', z2')
 * so a step costs three lane-parallel multiplications (the third uses one
 * lane) and leaves the pair (x2, z2) in the upper lanes: the next step's
 * conditional swap absorbs that exchange (see x25519_ladder_ifma).
 *
 * Constant time: the scalar bit only builds an all-zero or all-ones vector
 * mask for a bitwise select (AND/XOR); no branch or memory index depends
 * on the scalar or on field values. The final inversion and encoding use
 * the BMI2+ADX field (fe64_adx.c) when the CPU mask has it, else the
 * portable radix-2^51 field (fe51.c); both are constant time as well.
 */
#include <immintrin.h>
#include <string.h>

#include "common.h"
#include "fe25519.h"
#include "fe_ifma.h"
#include "x25519_ifma.h"

/* Lane-select masks (public constants). */
#define LANES_13 0xA  /* lanes 1 and 3 */
#define LANES_013 0xB /* lanes 0, 1 and 3 */
#define LANE_3 0x8
#define LANES_23 0xC

/* Exchange lanes (0, 1) with (2, 3): (x2, z2, x3, z3) <-> (x3, z3, x2, z2). */
static inline void fe4_swap_pairs(fe4 *h, const fe4 *a)
{
    for (int i = 0; i < 5; i++)
        h->v[i] = _mm256_permute4x64_epi64(a->v[i], 0x4E); /* lanes 2, 3, 0, 1 */
}

/* One ladder step (RFC 7748 section 5, the body after cswap).
 * Input s = (x2, z2, x3, z3), T. Output s = (x3', z3', x2', z2'), T.
 * x1m = (1, x1, 1, 1), T. */
static inline void x25519_step_ifma(fe4 *s, const fe4 *x1m)
{
    fe4 u, v, w, l, r, m, p, q, x, base;
    const __m256i a24c = _mm256_set_epi64x(121665, 0, 1, 1); /* lanes 3..0 */
    for (int i = 0; i < 5; i++) {
        u.v[i] = _mm256_unpacklo_epi64(s->v[i], s->v[i]); /* x2 x2 x3 x3 */
        v.v[i] = _mm256_unpackhi_epi64(s->v[i], s->v[i]); /* z2 z2 z3 z3 */
    }
    fe4_addsub(&w, &u, &v, LANES_13); /* A B C D */
    for (int i = 0; i < 5; i++) {
        l.v[i] = _mm256_permute4x64_epi64(w.v[i], 0x4B); /* D C A B (3, 2, 0, 1) */
        r.v[i] = _mm256_permute4x64_epi64(w.v[i], 0x44); /* A B A B (0, 1, 0, 1) */
    }
    fe4_mul(&m, &l, &r); /* DA CB AA BB */
    for (int i = 0; i < 5; i++) {
        p.v[i] = _mm256_unpacklo_epi64(m.v[i], m.v[i]); /* DA DA AA AA */
        q.v[i] = _mm256_unpackhi_epi64(m.v[i], m.v[i]); /* CB CB BB BB */
        /* base = (0, 0, BB, AA) */
        base.v[i] = _mm256_maskz_mov_epi64(LANES_23, _mm256_mask_blend_epi64(LANE_3, q.v[i], p.v[i]));
        /* q = (CB, CB, 0, BB): lane 2 adds nothing to AA */
        q.v[i] = _mm256_maskz_mov_epi64(LANES_013, q.v[i]);
    }
    /* x = (DA + CB, DA - CB, AA + 0, E = AA - BB) */
    fe4_addsub(&x, &p, &q, LANES_13);
    fe4_mulsmall(&r, &base, &x, a24c); /* DA+CB, DA-CB, BB, AA + a24 E */
    fe4_mul(&m, &x, &r);                /* x3', (DA-CB)^2, x2', z2' */
    fe4_mul(s, &m, x1m);                /* x3', z3', x2', z2' */
}

/* Broadcast a field element (radix 2^51, limbs < 2^52) into lane `lane` of
 * a fe4 whose other lanes hold `other` (0 or 1). */
static void fe4_load_lanes(fe4 *h, const uint64_t f[5], int lane, uint64_t other)
{
    for (int i = 0; i < 5; i++) {
        uint64_t e[4];
        for (int j = 0; j < 4; j++)
            e[j] = i == 0 ? other : 0;
        e[lane] = f[i];
        h->v[i] = _mm256_loadu_si256((const __m256i *)(const void *)e);
    }
}

struct ladder_ifma {
    uint8_t k[32];
    vg_fe51 x1, x2, z2;
    uint64_t lanes[5][4], x64[4], z64[4];
    fe4 s, sw, x1m;
};

/* RFC 7748 section 5: out = X25519(k, u).
 *
 * The RFC's ladder keeps (x2, z2) = R0 and (x3, z3) = R1 up to the swap
 * flag. Here the physical state s is (R0, R1) when `flip` = 0 and (R1, R0)
 * when `flip` = 1. Step t needs (R0, R1) as its input when k_t = 0 and
 * (R1, R0) when k_t = 1, so it exchanges the pairs when flip ^ k_t; the step
 * returns (new R1, new R0) when k_t = 0 and (new R0, new R1) when k_t = 1,
 * so afterwards flip = 1 ^ k_t. This is the RFC's cswap sequence with the
 * step's own exchange folded into the mask. */
static void x25519_ladder_ifma(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32])
{
    const struct vg_fe51_ops *fe = vg_fe51_get();
    struct ladder_ifma st;
    uint64_t flip = 0;
    vg_x25519_clamp(st.k, scalar);
    fe->frombytes(&st.x1, u); /* decodeUCoordinate: bit 255 ignored, limbs < 2^51 */

    /* s = (x2, z2, x3, z3) = (1, 0, u, 1); x1m = (1, u, 1, 1) */
    for (int i = 0; i < 5; i++) {
        uint64_t e[4] = {i == 0, 0, st.x1.v[i], i == 0};
        st.s.v[i] = _mm256_loadu_si256((const __m256i *)(const void *)e);
    }
    fe4_load_lanes(&st.x1m, st.x1.v, 1, 1);

    for (int t = 254; t >= 0; t--) {
        uint64_t kt = (uint64_t)(st.k[t >> 3] >> (t & 7)) & 1;
        __m256i mask = _mm256_set1_epi64x((long long)vg_barrier_u64(0 - (flip ^ kt)));
        fe4_swap_pairs(&st.sw, &st.s);
        fe4_select(&st.s, &st.s, &st.sw, mask);
        x25519_step_ifma(&st.s, &st.x1m);
        flip = 1 ^ kt;
    }
    {
        __m256i mask = _mm256_set1_epi64x((long long)vg_barrier_u64(0 - flip));
        fe4_swap_pairs(&st.sw, &st.s);
        fe4_select(&st.s, &st.s, &st.sw, mask);
    }
    /* Now s = (x2, z2, ., .): limbs T, within fe51's loose bound (< 2^54). */
    for (int i = 0; i < 5; i++)
        _mm256_storeu_si256((__m256i *)(void *)st.lanes[i], st.s.v[i]);
    for (int i = 0; i < 5; i++) {
        st.x2.v[i] = st.lanes[i][0];
        st.z2.v[i] = st.lanes[i][1];
    }
    /* x2 z2^(p-2) (0 for z2 = 0, RFC 7748 section 5), then encodeUCoordinate
     * (canonical, < p), the inversion on the BMI2+ADX field when allowed. */
    fe4_ratio_tobytes(out, fe, vg_fe64_adx_get(), &st.x2, &st.z2, st.x64, st.z64);
    vg_wipe(&st, sizeof st);
    vg_wipe(&flip, sizeof flip);
}

static const struct vg_x25519_impl g_x25519_ifma = {"ifma", x25519_ladder_ifma};

const struct vg_x25519_impl *vg_x25519_ifma_get(void)
{
    return vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA) ? &g_x25519_ifma : NULL;
}
