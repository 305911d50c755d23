/*
 * Fixed-base scalar multiplication on edwards25519 over the four-word
 * BMI2/ADX field (fe64_adx_kernels.h, inlined; the inversion and encoding
 * through fe64_adx.c's operation table). x86-64 only: compiled only when VG_X86_64
 * (its NULL stand-in for other builds is in ge25519_base.c), called only
 * when the CPU has BMI2 and ADX. Same method, formulas and table layout as
 * the portable variant (ge25519_base.c, which documents them); this file
 * differs only in the field: every value is four 64-bit words standing for
 * its residue (any value below 2^256), so no limb bounds need tracking.
 *
 * Specification: RFC 8032 section 5.1; RFC 7748 sections 4.1 and 5.
 * Constant time: digits become masks behind vg_barrier_u64; every lookup
 * reads all 8 entries of its row; the field kernels have no branches.
 */
#include <string.h>

#include "common.h"
#include "fe25519.h"
#include "ge25519.h"

#if defined(VG_X86_64)
#include <emmintrin.h>

#define VG_GE25519_TABLE_FE64 1
#include "fe64_adx_kernels.h"
#include "ge25519_base_table.h"

typedef const struct vg_fe64_ops fe_ops;
typedef uint64_t fe[4];

static inline void fe_cswap(fe f, fe g, uint64_t mask)
{
    for (int i = 0; i < 4; i++) {
        uint64_t t = mask & (f[i] ^ g[i]);
        f[i] ^= t;
        g[i] ^= t;
    }
}

typedef struct {
    fe X, Y, Z, T; /* extended: x = X/Z, y = Y/Z, x y = T/Z */
} ge_p3;

typedef struct {
    fe E, F, G, H; /* completed: x = E/G, y = H/F */
} ge_p1p1;

static inline void ge_p1p1_to_p3(ge_p3 *r, const ge_p1p1 *c)
{
    fe64_mul(r->X, c->E, c->F);
    fe64_mul(r->Y, c->G, c->H);
    fe64_mul(r->Z, c->F, c->G);
    fe64_mul(r->T, c->E, c->H);
}

static inline void ge_p1p1_to_p2(ge_p3 *r, const ge_p1p1 *c)
{
    fe64_mul(r->X, c->E, c->F);
    fe64_mul(r->Y, c->G, c->H);
    fe64_mul(r->Z, c->F, c->G);
}

/* c = p + q, q = (y + x, y - x, 2 d x y) affine (HWCD 2008 3.1, see
 * ge25519_base.c), or p - q when negmask is all-ones and the caller has
 * swapped y + x and y - x (ge_select). Bounds: X, Y, Z, T of p are mul outputs (below FE64_W,
 * fe64_adx_kernels.h), or the start values 0, 1, 1, 0; so are A, B, C. That
 * is what the single-fold addw and subw need from their second operand. */
static void ge_madd(ge_p1p1 *c, const ge_p3 *p, const vg_ge64_niels *q, uint64_t negmask,
                    fe tmp[4])
{
    uint64_t *a = tmp[0], *b = tmp[1], *d = tmp[2];
    fe64_subw(a, p->Y, p->X);         /* X < FE64_W */
    fe64_addw(b, p->Y, p->X);
    fe64_mul(a, a, q->ymx);           /* A */
    fe64_mul(b, b, q->ypx);           /* B */
    fe64_mul(c->G, p->T, q->t2d);     /* C */
    fe64_addw(d, p->Z, p->Z);         /* D; Z < FE64_W */
    fe64_subw(c->E, b, a);            /* A < FE64_W */
    fe64_addw(c->H, b, a);
    fe64_subw(c->F, d, c->G);         /* C < FE64_W */
    fe64_addw(c->G, d, c->G);
    fe_cswap(c->F, c->G, negmask);    /* q negated: -C, so D + C and D - C trade places */
}

/* c = 2 p from X, Y, Z (HWCD 2008 3.3, a = -1, see ge25519_base.c). */
static void ge_dbl(ge_p1p1 *c, const ge_p3 *p, fe tmp[4])
{
    uint64_t *a = tmp[0], *b = tmp[1], *zz = tmp[2], *s = tmp[3];
    fe64_sqr(a, p->X);
    fe64_sqr(b, p->Y);
    fe64_sqr(zz, p->Z);
    fe64_add(s, p->X, p->Y);
    fe64_sqr(s, s);
    fe64_add(c->H, a, b);     /* Y^2 + X^2 */
    fe64_sub(c->E, s, c->H);  /* 2 X Y */
    fe64_sub(c->G, b, a);     /* Y^2 - X^2 */
    fe64_add(zz, zz, zz);
    fe64_sub(c->F, zz, c->G); /* 2 Z^2 - Y^2 + X^2 */
}

/* t = |e| B_i with y + x and y - x swapped when e < 0, for a digit e in
 * [-8, 8] (identity (1, 1, 0) for 0); returns all-ones when e < 0. The rest
 * of the negation, -2 d x y, is left to ge_madd: it negates C, which swaps
 * its F and G, so no subtraction is needed here. Reads every entry of the
 * row, the digit only becomes masks. The scan ORs each entry ANDed with its
 * mask (all-ones for the one entry |e| - 1, zero for the others) into six
 * 128-bit accumulators and swaps in those registers: SSE2, part of x86-64
 * itself, so it needs no CPU feature beyond the variant's. */
static uint64_t ge_select(vg_ge64_niels *t, const vg_ge64_niels row[8], int8_t e)
{
    uint64_t d = (uint64_t)(int64_t)e;
    uint64_t neg = d >> 63;               /* 1 when e < 0 */
    uint64_t abs = (d ^ (0 - neg)) + neg; /* |e| in [0, 8] */
    uint64_t negmask = vg_barrier_u64(0 - neg);
    uint64_t idmask = vg_ct_mask_eq_u64(abs, 0);
    __m128i acc[6];
    for (int w = 0; w < 6; w++)
        acc[w] = _mm_setzero_si128();
    for (int j = 0; j < 8; j++) {
        __m128i m = _mm_set1_epi64x((long long)vg_ct_mask_eq_u64(abs, (uint64_t)(j + 1)));
        const __m128i *src = (const __m128i *)(const void *)&row[j];
        for (int w = 0; w < 6; w++)
            acc[w] = _mm_or_si128(acc[w], _mm_and_si128(m, _mm_loadu_si128(src + w)));
    }
    /* e = 0: no entry matched, all zero; make it (1, 1, 0) */
    __m128i one = _mm_set_epi64x(0, (long long)(idmask & 1));
    acc[0] = _mm_or_si128(acc[0], one);
    acc[2] = _mm_or_si128(acc[2], one);
    __m128i nm = _mm_set1_epi64x((long long)negmask);
    for (int w = 0; w < 2; w++) { /* swap y + x (acc 0, 1) and y - x (acc 2, 3) */
        __m128i x = _mm_and_si128(nm, _mm_xor_si128(acc[w], acc[w + 2]));
        acc[w] = _mm_xor_si128(acc[w], x);
        acc[w + 2] = _mm_xor_si128(acc[w + 2], x);
    }
    for (int w = 0; w < 6; w++)
        _mm_storeu_si128((__m128i *)(void *)t + w, acc[w]);
    vg_wipe(acc, sizeof acc);
    return negmask;
}

struct base_state {
    int8_t e[64];
    ge_p3 h;
    ge_p1p1 c;
    vg_ge64_niels t;
    fe num, den;
    fe tmp[4]; /* the point formulas' temporaries, wiped with the rest */
};

/* s->h = [a]B for a < 2^255 (see ge25519_base.c). */
static void ge_scalarmult_base(struct base_state *s, const uint8_t a[32])
{
    vg_ge25519_recode16(s->e, a);
    memset(&s->h, 0, sizeof s->h);
    s->h.Y[0] = 1;
    s->h.Z[0] = 1;
    for (int i = 0; i < 32; i++) {
        uint64_t neg = ge_select(&s->t, vg_ge25519_base_table64[i], s->e[2 * i + 1]);
        ge_madd(&s->c, &s->h, &s->t, neg, s->tmp);
        ge_p1p1_to_p3(&s->h, &s->c);
    }
    ge_dbl(&s->c, &s->h, s->tmp);
    ge_p1p1_to_p2(&s->h, &s->c);
    ge_dbl(&s->c, &s->h, s->tmp);
    ge_p1p1_to_p2(&s->h, &s->c);
    ge_dbl(&s->c, &s->h, s->tmp);
    ge_p1p1_to_p2(&s->h, &s->c);
    ge_dbl(&s->c, &s->h, s->tmp);
    ge_p1p1_to_p3(&s->h, &s->c);
    for (int i = 0; i < 32; i++) {
        uint64_t neg = ge_select(&s->t, vg_ge25519_base_table64[i], s->e[2 * i]);
        ge_madd(&s->c, &s->h, &s->t, neg, s->tmp);
        ge_p1p1_to_p3(&s->h, &s->c);
    }
}

/* u = (Z + Y) / (Z - Y) of [clamp(k)]B (RFC 7748 sections 4.1 and 5). */
static void public_key64(uint8_t out[32], const uint8_t k[32])
{
    fe_ops *F = vg_fe64_adx_get();
    struct base_state s;
    uint8_t a[32];
    vg_x25519_clamp(a, k);
    ge_scalarmult_base(&s, a);
    fe64_add(s.num, s.h.Z, s.h.Y);
    fe64_sub(s.den, s.h.Z, s.h.Y);
    F->invert(s.den, s.den);
    fe64_mul(s.num, s.num, s.den);
    F->tobytes(out, s.num);
    vg_wipe(&s, sizeof s);
    vg_wipe(a, sizeof a);
}

/* RFC 8032 section 5.1.2 encoding of [a]B, a < 2^255. */
static void ed25519_base64(uint8_t out[32], const uint8_t a[32])
{
    fe_ops *F = vg_fe64_adx_get();
    struct base_state s;
    uint8_t xb[32];
    ge_scalarmult_base(&s, a);
    F->invert(s.den, s.h.Z);
    fe64_mul(s.num, s.h.X, s.den);
    F->tobytes(xb, s.num);
    fe64_mul(s.num, s.h.Y, s.den);
    F->tobytes(out, s.num);
    out[31] = (uint8_t)(out[31] | ((xb[0] & 1) << 7));
    vg_wipe(&s, sizeof s);
    vg_wipe(xb, sizeof xb);
}

static const struct vg_x25519_base_impl g_base_adx = {"adx", public_key64, ed25519_base64};

/* The field's own get returns NULL without BMI2 and ADX; so does this. */
const struct vg_x25519_base_impl *vg_x25519_base_adx_get(void)
{
    return vg_fe64_adx_get() ? &g_base_adx : NULL;
}

#endif /* VG_X86_64 */
