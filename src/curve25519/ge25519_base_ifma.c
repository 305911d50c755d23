/*
 * Fixed-base scalar multiplication on edwards25519 with AVX-512 IFMA: the
 * four coordinates of a point side by side in the four 64-bit lanes of the
 * lane field of fe_ifma.h (radix 2^51, a ymm per limb).
 *
 * Compiled with -mavx512f -mavx512vl -mavx512ifma (x86-64 builds only; the
 * NULL stand-in for other builds is in ge25519_base.c); called only when
 * vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA).
 *
 * Specification: RFC 8032 section 5.1 (curve, base point, encoding),
 * RFC 7748 sections 4.1 and 5 (u = (1 + y) / (1 - y), clamping). Method as
 * in ge25519_base.c (signed radix-16 digits, 64 mixed additions of table
 * points (j + 1) 16^(2i) B, 4 doublings); the formulas are those of Hisil,
 * Wong, Carter, Dawson, "Twisted Edwards curves revisited" (2008), section
 * 3 (a = -1), whose four multiplications per stage are independent, hence
 * one lane-parallel multiplication per stage (their section 4 makes the
 * same observation for four processors).
 *
 * A point P is the fe4 (X, Y, Z, T) in lanes 0..3, extended coordinates:
 * x = X/Z, y = Y/Z, x y = T/Z.
 *
 * Mixed addition P + Q, Q affine as (y - x, y + x, 2 d x y) (HWCD 3.1,
 * "madd", k = 2d):
 *   lanes       0          1          2          3
 *   L        Y - X      Y + X      T          Z
 *   R        y2 - x2    y2 + x2    2d x2 y2   2         (the table entry)
 *   M = L R  A          B          C          D = 2Z
 *   U        E = B - A  G = D + C  F = D - C  E
 *   V        F          H = B + A  G          H
 *   U V      X3 = E F   Y3 = G H   Z3 = F G   T3 = E H
 * Doubling (HWCD 3.3, "dbl", a = -1):
 *   S        X          Y          Z          X + Y
 *   M = S S  XX         YY         ZZ         DD = (X + Y)^2
 *   W        G = YY-XX  H = XX+YY  2 ZZ       DD
 *   U        E = DD - H G          F = 2ZZ-G  E
 *   V        F          H          G          H
 *   U V      X3         Y3         Z3         T3
 * so both cost two lane-parallel multiplications and three carried
 * add/subtract rounds. Both are complete on edwards25519 (d is not a
 * square): no exceptions for the identity or for P = Q.
 *
 * Bounds: every fe4 value here is the output of fe4_addsub or fe4_mul,
 * hence T (limbs < 2^51 + 2^18 < 2^52, fe_ifma.h), which both accept;
 * table entries have limbs < 2^51, their negated 2 d x y (2p - t2d) limbs
 * < 2^52.
 *
 * Cost: the final inversion (fe64_adx) is a large share of a public key;
 * the mixed additions are throughput-bound (~500 vector instructions each).
 * Tried and not kept: the odd and even digit sums as two interleaved
 * chains (slower); the inversion on the IFMA lanes with a dedicated
 * squaring (no gain over fe64_adx). Figures for Zen 4 in
 * docs/benchmarks.md.
 *
 * Constant time: a digit only becomes vector masks (compares of the
 * broadcast digit), every lookup loads all 8 entries of its row and keeps
 * one by a masked blend; no branch or memory index depends on the scalar. The
 * final inversion and encoding use the BMI2+ADX field (fe64_adx.c) when the
 * CPU mask has it (a public condition), else the portable field (fe51.c);
 * both are constant time.
 */
#include <string.h>

#include "common.h"
#include "fe25519.h"
#include "ge25519.h"

#if defined(VG_X86_64)
#include <immintrin.h>

#include "fe_ifma.h"
#define VG_GE25519_TABLE_IFMA 1
#include "ge25519_base_table.h"

/* Inlined into the main loop (gcc 12 would call them, with every operand
 * passing through memory). */
#define VG_GE4_INLINE FE4_INLINE

/* _mm256_permute4x64_epi64 selector: lane i of the result is lane s_i. */
#define PERM(s0, s1, s2, s3) ((s0) | ((s1) << 2) | ((s2) << 4) | ((s3) << 6))

/* h[i] = lanes `keep` of perm(a[i]), the other lanes zero. */
#define FE4_PERMZ(h, a, sel, keep)                                                       \
    do {                                                                                 \
        for (int i_ = 0; i_ < 5; i_++)                                                   \
            (h)->v[i_] = _mm256_maskz_mov_epi64((keep), _mm256_permute4x64_epi64((a)->v[i_], (sel))); \
    } while (0)

/* h = P + Q for P = (X, Y, Z, T), q = the table vector (y - x, y + x,
 * 2 d x y, 2), as the table above (file comment). Precondition: p T,
 * q limbs < 2^52. Postcondition: h T. tmp: caller's scratch (wiped). */
VG_GE4_INLINE void ge4_madd(fe4 *h, const fe4 *p, const fe4 *q, fe4 tmp[3])
{
    fe4 *a = &tmp[0], *b = &tmp[1], *m = &tmp[2];
    FE4_PERMZ(a, p, PERM(1, 1, 3, 2), 0xF); /* Y Y T Z */
    FE4_PERMZ(b, p, PERM(0, 0, 0, 0), 0x3); /* X X 0 0 */
    fe4_addsub(a, a, b, 0x1);               /* Y-X  Y+X  T  Z */
    fe4_mul(m, a, q);                       /* A B C D */
    FE4_PERMZ(a, m, PERM(1, 3, 3, 1), 0xF); /* B D D B */
    FE4_PERMZ(b, m, PERM(0, 2, 2, 0), 0xF); /* A C C A */
    fe4_addsub(a, a, b, 0xD);               /* E G F E */
    FE4_PERMZ(b, m, PERM(3, 1, 3, 1), 0xF); /* D B D B */
    FE4_PERMZ(m, m, PERM(2, 0, 2, 0), 0xF); /* C A C A */
    fe4_addsub(b, b, m, 0x1);               /* F H G H */
    fe4_mul(h, a, b);                       /* X3 Y3 Z3 T3 */
}

/* h = 2 P (T of P unused). Precondition: p T. Postcondition: h T. */
VG_GE4_INLINE void ge4_dbl(fe4 *h, const fe4 *p, fe4 tmp[3])
{
    fe4 *a = &tmp[0], *b = &tmp[1], *w = &tmp[2];
    FE4_PERMZ(a, p, PERM(0, 1, 2, 0), 0xF); /* X Y Z X */
    FE4_PERMZ(b, p, PERM(1, 1, 1, 1), 0x8); /* 0 0 0 Y */
    fe4_addsub(a, a, b, 0x0);               /* X Y Z X+Y */
    fe4_mul(w, a, a);                       /* XX YY ZZ DD */
    FE4_PERMZ(a, w, PERM(1, 1, 2, 3), 0xF); /* YY YY ZZ DD */
    FE4_PERMZ(b, w, PERM(0, 0, 2, 0), 0x7); /* XX XX ZZ 0 */
    fe4_addsub(w, a, b, 0x1);               /* G H 2ZZ DD */
    FE4_PERMZ(a, w, PERM(3, 0, 2, 3), 0xF); /* DD G 2ZZ DD */
    FE4_PERMZ(b, w, PERM(1, 0, 0, 1), 0xD); /* H 0 G H */
    fe4_addsub(a, a, b, 0xD);               /* E G F E */
    FE4_PERMZ(b, w, PERM(2, 1, 0, 1), 0xF); /* 2ZZ H G H */
    FE4_PERMZ(w, w, PERM(0, 0, 0, 0), 0x1); /* G 0 0 0 */
    fe4_addsub(b, b, w, 0x1);               /* F H G H */
    fe4_mul(h, a, b);                       /* X3 Y3 Z3 T3 */
}

/* t = e B_i as the vector (y - x, y + x, 2 d x y, 2) for the row
 * B_i[j] = (j + 1) 16^(2i) B and a digit e in [-8, 8]; the identity
 * (1, 1, 0, 2) for e = 0. Loads all 8 entries; the digit only becomes
 * vector masks. -(x, y) = (-x, y): exchange lanes 0 and 1, and 2 d x y
 * becomes 2p - 2 d x y (limbs < 2^52 since the table's are < 2^51). */
VG_GE4_INLINE void ge4_select(fe4 *t, const uint64_t row[8][5][4], int8_t e)
{
    const __m256i ev = _mm256_set1_epi64x(e);
    const __m256i negm = _mm256_cmpgt_epi64(_mm256_setzero_si256(), ev); /* e < 0 */
    const __m256i absv = _mm256_abs_epi64(ev);
    const __m256i idm = _mm256_cmpeq_epi64(absv, _mm256_setzero_si256()); /* e = 0 */
    __m256i acc[5];
    for (int k = 0; k < 5; k++)
        acc[k] = _mm256_setzero_si256();
    for (int j = 0; j < 8; j++) {
        /* a mask register from a compare; the blend takes entry j in the
         * lanes where it is set (all four or none). The empty asm keeps the
         * load a plain full load: without it, compilers fold load and blend
         * into a masked load (VMOVDQA64 m256{k}), whose memory access
         * would depend on the secret mask. */
        __mmask8 m = _mm256_cmpeq_epi64_mask(absv, _mm256_set1_epi64x(j + 1));
        for (int k = 0; k < 5; k++) {
            __m256i x = _mm256_load_si256((const __m256i *)(const void *)row[j][k]);
            VG_VECTOR_BARRIER(x);
            acc[k] = _mm256_mask_blend_epi64(m, acc[k], x);
        }
    }
    /* limb 0: the identity's ones in lanes 0 and 1 (e = 0), the constant 2
     * in lane 3 */
    acc[0] = _mm256_or_si256(acc[0], _mm256_and_si256(idm, _mm256_set_epi64x(0, 0, 1, 1)));
    acc[0] = _mm256_or_si256(acc[0], _mm256_set_epi64x(2, 0, 0, 0));
    for (int k = 0; k < 5; k++) {
        const __m256i twop = _mm256_set1_epi64x(k == 0 ? (long long)((UINT64_C(1) << 52) - 38)
                                                       : (long long)((UINT64_C(1) << 52) - 2));
        __m256i n = _mm256_permute4x64_epi64(acc[k], PERM(1, 0, 2, 3));
        n = _mm256_mask_blend_epi64(0x4, n, _mm256_sub_epi64(twop, acc[k]));
        /* bitwise select (as fe4_select): acc where e >= 0, n where e < 0 */
        t->v[k] = _mm256_xor_si256(acc[k], _mm256_and_si256(_mm256_xor_si256(acc[k], n), negm));
    }
}

struct base_state_ifma {
    int8_t e[64];
    fe4 h, t, tmp[3];
    uint64_t lanes[5][4];
    uint64_t a64[4], b64[4], c64[4];
    vg_fe51 a51, b51, c51;
};

/* s->h = [a]B = (X, Y, Z, T), T-bounded, for a < 2^255:
 * [a]B = 16 (sum_i e_{2i+1} 16^(2i) B) + sum_i e_{2i} 16^(2i) B.
 * One chain of additions: the additions are bound by the vector units'
 * throughput, not by latency (interleaving the two sums as two independent
 * chains plus one full addition was slower). */
static void ge4_scalarmult_base(struct base_state_ifma *s, const uint8_t a[32])
{
    vg_ge25519_recode16(s->e, a);
    for (int k = 0; k < 5; k++) /* the identity (0 : 1 : 1 : 0) */
        s->h.v[k] = k == 0 ? _mm256_set_epi64x(0, 1, 1, 0) : _mm256_setzero_si256();
    /* odd digits: sum_i e_{2i+1} 16^(2i) B */
    for (int i = 0; i < 32; i++) {
        ge4_select(&s->t, vg_ge25519_base_table_ifma[i], s->e[2 * i + 1]);
        ge4_madd(&s->h, &s->h, &s->t, s->tmp);
    }
    /* times 16 */
    for (int n = 0; n < 4; n++)
        ge4_dbl(&s->h, &s->h, s->tmp);
    /* even digits: + sum_i e_{2i} 16^(2i) B */
    for (int i = 0; i < 32; i++) {
        ge4_select(&s->t, vg_ge25519_base_table_ifma[i], s->e[2 * i]);
        ge4_madd(&s->h, &s->h, &s->t, s->tmp);
    }
}

/* lanes[k][l] = limb k of lane l of f. */
static void fe4_store(uint64_t lanes[5][4], const fe4 *f)
{
    for (int k = 0; k < 5; k++)
        _mm256_storeu_si256((__m256i *)(void *)lanes[k], f->v[k]);
}

/* h = lane l of lanes, radix 2^51 (T limbs: within fe51's loose bound). */
static void lane51(vg_fe51 *h, const uint64_t lanes[5][4], int l)
{
    for (int k = 0; k < 5; k++)
        h->v[k] = lanes[k][l];
}

/* RFC 7748 section 5 X25519(k, 9) as the u of [clamp(k)]B:
 * u = (Z + Y) / (Z - Y), one inversion (Z - Y is never 0: [clamp(k)]B is
 * not the identity), the inversion where fe4_ratio_tobytes says. */
static void public_key_ifma(uint8_t out[32], const uint8_t k[32])
{
    const struct vg_fe64_ops *f64 = vg_fe64_adx_get();
    struct base_state_ifma s;
    uint8_t a[32];
    vg_x25519_clamp(a, k);
    ge4_scalarmult_base(&s, a);
    FE4_PERMZ(&s.tmp[0], &s.h, PERM(2, 2, 2, 2), 0xF); /* Z Z Z Z */
    FE4_PERMZ(&s.tmp[1], &s.h, PERM(1, 1, 1, 1), 0xF); /* Y Y Y Y */
    fe4_addsub(&s.tmp[0], &s.tmp[0], &s.tmp[1], 0x2);  /* Z+Y  Z-Y  .  . */
    fe4_store(s.lanes, &s.tmp[0]);
    lane51(&s.a51, s.lanes, 0);
    lane51(&s.b51, s.lanes, 1);
    fe4_ratio_tobytes(out, vg_fe51_get(), f64, &s.a51, &s.b51, s.a64, s.b64);
    vg_wipe(&s, sizeof s);
    vg_wipe(a, sizeof a);
}

/* RFC 8032 section 5.1.2: y = Y/Z encoded, the low bit of x = X/Z in bit
 * 255. Precondition: a < 2^255. */
static void ed25519_base_ifma(uint8_t out[32], const uint8_t a[32])
{
    const struct vg_fe64_ops *f64 = vg_fe64_adx_get();
    struct base_state_ifma s;
    uint8_t xb[32];
    ge4_scalarmult_base(&s, a);
    fe4_store(s.lanes, &s.h);
    lane51(&s.a51, s.lanes, 0); /* X */
    lane51(&s.b51, s.lanes, 1); /* Y */
    lane51(&s.c51, s.lanes, 2); /* Z */
    if (f64) {
        fe4_pack64(s.a64, s.a51.v);
        fe4_pack64(s.b64, s.b51.v);
        fe4_pack64(s.c64, s.c51.v);
        f64->invert(s.c64, s.c64);
        f64->mul(s.a64, s.a64, s.c64);
        f64->tobytes(xb, s.a64);
        f64->mul(s.b64, s.b64, s.c64);
        f64->tobytes(out, s.b64);
    } else {
        const struct vg_fe51_ops *fe = vg_fe51_get();
        fe->invert(&s.c51, &s.c51);
        fe->mul(&s.a51, &s.a51, &s.c51);
        fe->tobytes(xb, &s.a51);
        fe->mul(&s.b51, &s.b51, &s.c51);
        fe->tobytes(out, &s.b51);
    }
    out[31] = (uint8_t)(out[31] | ((xb[0] & 1) << 7));
    vg_wipe(&s, sizeof s);
    vg_wipe(xb, sizeof xb);
}

static const struct vg_x25519_base_impl g_base_ifma = {"ifma", public_key_ifma, ed25519_base_ifma};

const struct vg_x25519_base_impl *vg_x25519_base_ifma_get(void)
{
    return vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA) ? &g_base_ifma : NULL;
}

#endif /* VG_X86_64 */
