/*
 * Fixed-base scalar multiplication on edwards25519 over the four-word
 * BMI2/ADX field (fe64_adx.c). x86-64 only: compiled only when VG_X86_64
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
#include "ge25519_base_table.h"

typedef const struct vg_fe64_ops fe_ops;
typedef uint64_t fe[4];

static inline void fe_cmov(fe h, const fe f, uint64_t mask)
{
    for (int i = 0; i < 4; i++)
        h[i] ^= mask & (h[i] ^ f[i]);
}

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

static inline void ge_p1p1_to_p3(fe_ops *F, ge_p3 *r, const ge_p1p1 *c)
{
    F->mul(r->X, c->E, c->F);
    F->mul(r->Y, c->G, c->H);
    F->mul(r->Z, c->F, c->G);
    F->mul(r->T, c->E, c->H);
}

static inline void ge_p1p1_to_p2(fe_ops *F, ge_p3 *r, const ge_p1p1 *c)
{
    F->mul(r->X, c->E, c->F);
    F->mul(r->Y, c->G, c->H);
    F->mul(r->Z, c->F, c->G);
}

/* c = p + q, q = (y + x, y - x, 2 d x y) affine (HWCD 2008 3.1, see
 * ge25519_base.c). */
static void ge_madd(fe_ops *F, ge_p1p1 *c, const ge_p3 *p, const vg_ge64_niels *q, fe tmp[4])
{
    uint64_t *a = tmp[0], *b = tmp[1], *d = tmp[2];
    F->sub(a, p->Y, p->X);
    F->add(b, p->Y, p->X);
    F->mul(a, a, q->ymx);       /* A */
    F->mul(b, b, q->ypx);       /* B */
    F->mul(c->G, p->T, q->t2d); /* C */
    F->add(d, p->Z, p->Z);      /* D */
    F->sub(c->E, b, a);
    F->add(c->H, b, a);
    F->sub(c->F, d, c->G);
    F->add(c->G, d, c->G);
}

/* c = 2 p from X, Y, Z (HWCD 2008 3.3, a = -1, see ge25519_base.c). */
static void ge_dbl(fe_ops *F, ge_p1p1 *c, const ge_p3 *p, fe tmp[4])
{
    uint64_t *a = tmp[0], *b = tmp[1], *zz = tmp[2], *s = tmp[3];
    F->sqr(a, p->X);
    F->sqr(b, p->Y);
    F->sqr(zz, p->Z);
    F->add(s, p->X, p->Y);
    F->sqr(s, s);
    F->add(c->H, a, b);     /* Y^2 + X^2 */
    F->sub(c->E, s, c->H);  /* 2 X Y */
    F->sub(c->G, b, a);     /* Y^2 - X^2 */
    F->add(zz, zz, zz);
    F->sub(c->F, zz, c->G); /* 2 Z^2 - Y^2 + X^2 */
}

/* t = e B_i for a digit e in [-8, 8] (identity (1, 1, 0) for 0); reads every
 * entry of the row, the digit only becomes masks. The scan ORs each entry
 * ANDed with its mask (all-ones for the one entry |e| - 1, zero for the
 * others) into six 128-bit accumulators: SSE2, part of x86-64 itself, so it
 * needs no CPU feature beyond the variant's. */
static void ge_select(fe_ops *F, vg_ge64_niels *t, const vg_ge64_niels row[8], int8_t e)
{
    uint64_t d = (uint64_t)(int64_t)e;
    uint64_t neg = d >> 63;               /* 1 when e < 0 */
    uint64_t abs = (d ^ (0 - neg)) + neg; /* |e| in [0, 8] */
    uint64_t negmask = vg_barrier_u64(0 - neg);
    uint64_t idmask = vg_ct_mask_eq_u64(abs, 0);
    static const fe zero = {0, 0, 0, 0};
    fe nt;
    __m128i acc[6];
    for (int w = 0; w < 6; w++)
        acc[w] = _mm_setzero_si128();
    for (int j = 0; j < 8; j++) {
        __m128i m = _mm_set1_epi64x((long long)vg_ct_mask_eq_u64(abs, (uint64_t)(j + 1)));
        const __m128i *src = (const __m128i *)(const void *)&row[j];
        for (int w = 0; w < 6; w++)
            acc[w] = _mm_or_si128(acc[w], _mm_and_si128(m, _mm_loadu_si128(src + w)));
    }
    for (int w = 0; w < 6; w++)
        _mm_storeu_si128((__m128i *)(void *)t + w, acc[w]);
    /* e = 0: no entry matched, t is all zero; make it (1, 1, 0) */
    t->ypx[0] |= idmask & 1;
    t->ymx[0] |= idmask & 1;
    fe_cswap(t->ypx, t->ymx, negmask);
    F->sub(nt, zero, t->t2d);
    fe_cmov(t->t2d, nt, negmask);
    vg_wipe(nt, sizeof nt);
    vg_wipe(acc, sizeof acc);
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
static void ge_scalarmult_base(fe_ops *F, struct base_state *s, const uint8_t a[32])
{
    vg_ge25519_recode16(s->e, a);
    memset(&s->h, 0, sizeof s->h);
    s->h.Y[0] = 1;
    s->h.Z[0] = 1;
    for (int i = 0; i < 32; i++) {
        ge_select(F, &s->t, vg_ge25519_base_table64[i], s->e[2 * i + 1]);
        ge_madd(F, &s->c, &s->h, &s->t, s->tmp);
        ge_p1p1_to_p3(F, &s->h, &s->c);
    }
    ge_dbl(F, &s->c, &s->h, s->tmp);
    ge_p1p1_to_p2(F, &s->h, &s->c);
    ge_dbl(F, &s->c, &s->h, s->tmp);
    ge_p1p1_to_p2(F, &s->h, &s->c);
    ge_dbl(F, &s->c, &s->h, s->tmp);
    ge_p1p1_to_p2(F, &s->h, &s->c);
    ge_dbl(F, &s->c, &s->h, s->tmp);
    ge_p1p1_to_p3(F, &s->h, &s->c);
    for (int i = 0; i < 32; i++) {
        ge_select(F, &s->t, vg_ge25519_base_table64[i], s->e[2 * i]);
        ge_madd(F, &s->c, &s->h, &s->t, s->tmp);
        ge_p1p1_to_p3(F, &s->h, &s->c);
    }
}

/* u = (Z + Y) / (Z - Y) of [clamp(k)]B (RFC 7748 sections 4.1 and 5). */
static void public_key64(uint8_t out[32], const uint8_t k[32])
{
    fe_ops *F = vg_fe64_adx_get();
    struct base_state s;
    uint8_t a[32];
    vg_x25519_clamp(a, k);
    ge_scalarmult_base(F, &s, a);
    F->add(s.num, s.h.Z, s.h.Y);
    F->sub(s.den, s.h.Z, s.h.Y);
    F->invert(s.den, s.den);
    F->mul(s.num, s.num, s.den);
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
    ge_scalarmult_base(F, &s, a);
    F->invert(s.den, s.h.Z);
    F->mul(s.num, s.h.X, s.den);
    F->tobytes(xb, s.num);
    F->mul(s.num, s.h.Y, s.den);
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
