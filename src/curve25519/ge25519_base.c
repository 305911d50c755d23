/*
 * Fixed-base scalar multiplication on edwards25519, portable variant over the
 * radix-2^51 field (fe51.c), plus the signed radix-16 recoding and the
 * dispatch shared with the BMI2/ADX variant (ge25519_base_adx.c).
 *
 * Specification: RFC 8032 section 5.1 (curve, base point, encoding),
 * RFC 7748 sections 4.1 and 5 (the map u = (1 + y) / (1 - y), clamping).
 * Formulas: Hisil, Wong, Carter, Dawson, "Twisted Edwards curves revisited"
 * (2008), section 3 (extended coordinates, a = -1), mixed addition with a
 * precomputed (y + x, y - x, 2 d x y) point and doubling, both through the
 * "completed" form (E : F : G : H) standing for x = E / G, y = H / F:
 * X = E F, Y = G H, Z = F G, T = E H.
 *
 * Bounds (fe51.h): "tight" limbs <= 2^51 (every mul/sqr output and every
 * table coordinate), "loose" limbs < 2^54 (what mul/sqr/invert accept).
 * The additions and subtractions here are local (limb-wise, no carry) so
 * each use states its own bound in a comment.
 *
 * Constant time: the digits of the scalar only ever become masks (built by
 * arithmetic behind vg_barrier_u64); every lookup reads all 8 entries of its
 * row; the inversion is a fixed exponentiation chain.
 */
#include <string.h>

#include "common.h"
#include "fe25519.h"
#include "ge25519.h"
#define VG_GE25519_TABLE_FE51 1
#include "ge25519_base_table.h"

/* ---- recoding (shared) ------------------------------------------------------ */

void vg_ge25519_recode16(int8_t e[64], const uint8_t a[32])
{
    int carry = 0;
    for (int i = 0; i < 32; i++) {
        e[2 * i] = (int8_t)(a[i] & 15);
        e[2 * i + 1] = (int8_t)(a[i] >> 4);
    }
    /* v in [0, 16], so v + 8 in [8, 24] and carry in {0, 1} (a shift of a
     * non-negative value, no branch); e[i] = v - 16 carry in [-8, 7]. */
    for (int i = 0; i < 63; i++) {
        int v = e[i] + carry;
        carry = (v + 8) >> 4;
        e[i] = (int8_t)(v - (carry << 4));
    }
    /* a < 2^255: the top nibble is at most 7, so e[63] <= 8. */
    e[63] = (int8_t)(e[63] + carry);
}

/* ---- the dispatch ------------------------------------------------------------- */

#ifndef VG_X86_64
/* No x86-64 code in this build (see ge25519_base_adx.c, ge25519_base_ifma.c). */
const struct vg_x25519_base_impl *vg_x25519_base_adx_get(void) { return NULL; }
const struct vg_x25519_base_impl *vg_x25519_base_ifma_get(void) { return NULL; }
#endif

/* Recomputed from the active CPU mask at each call (cheap), so it follows
 * vg_cpu_force in tests; each API function calls it once. The fastest
 * available first: ifma, adx, portable (on Zen 4; see docs/benchmarks.md). */
const struct vg_x25519_base_impl *vg_x25519_base_active(void)
{
    const struct vg_x25519_base_impl *impl = vg_x25519_base_ifma_get();
    if (!impl)
        impl = vg_x25519_base_adx_get();
    return impl ? impl : vg_x25519_base_portable_get();
}

/* ---- local field helpers (radix 2^51, no carries; add, sub and cswap are
 * fe25519.h's vg_fe51_*_limbs and vg_fe51_cswap) ------------------------- */

typedef const struct vg_fe51_ops fe_ops;

/* h = f where mask is all-ones, unchanged where it is zero. */
static inline void fe_cmov(vg_fe51 *h, const vg_fe51 *f, uint64_t mask)
{
    for (int i = 0; i < 5; i++)
        h->v[i] ^= mask & (h->v[i] ^ f->v[i]);
}

/* ---- points -------------------------------------------------------------------- */

typedef struct {
    vg_fe51 X, Y, Z, T; /* extended: x = X/Z, y = Y/Z, x y = T/Z; tight */
} ge_p3;

typedef struct {
    vg_fe51 E, F, G, H; /* completed: x = E/G, y = H/F; loose */
} ge_p1p1;

/* r = the point of c, extended. Postcondition: tight. */
static inline void ge_p1p1_to_p3(fe_ops *F, ge_p3 *r, const ge_p1p1 *c)
{
    F->mul(&r->X, &c->E, &c->F);
    F->mul(&r->Y, &c->G, &c->H);
    F->mul(&r->Z, &c->F, &c->G);
    F->mul(&r->T, &c->E, &c->H);
}

/* The same without T (projective), for a point that is only doubled next. */
static inline void ge_p1p1_to_p2(fe_ops *F, ge_p3 *r, const ge_p1p1 *c)
{
    F->mul(&r->X, &c->E, &c->F);
    F->mul(&r->Y, &c->G, &c->H);
    F->mul(&r->Z, &c->F, &c->G);
}

/* c = p + q for q affine in (y + x, y - x, 2 d x y) form (HWCD 2008 3.1,
 * "madd" with k = 2d): A = (Y1 - X1)(y2 - x2), B = (Y1 + X1)(y2 + x2),
 * C = T1 2d x2 y2, D = 2 Z1; x3 = (B - A) / (D + C), y3 = (B + A) / (D - C).
 * Complete: the addition law of edwards25519 has no exceptions (d is not a
 * square), so the identity and p = q need no special case.
 * Preconditions: p tight; q.ypx, q.ymx tight, q.t2d limbs < 2^52 (a table
 * value or 2p minus one). Postcondition: c loose (bounds in line). */
static void ge_madd(fe_ops *F, ge_p1p1 *c, const ge_p3 *p, const vg_ge51_niels *q, vg_fe51 tmp[4])
{
    vg_fe51 *a = &tmp[0], *b = &tmp[1], *d = &tmp[2];
    vg_fe51_sub_limbs(a, &p->Y, &p->X); /* < 2^51 + 2^52 */
    vg_fe51_add_limbs(b, &p->Y, &p->X); /* <= 2^52 */
    F->mul(a, a, &q->ymx); /* A, tight */
    F->mul(b, b, &q->ypx); /* B, tight */
    F->mul(&c->G, &p->T, &q->t2d); /* C, tight (held in G for now) */
    vg_fe51_add_limbs(d, &p->Z, &p->Z); /* D <= 2^52 */
    vg_fe51_sub_limbs(&c->E, b, a); /* B - A < 2^51 + 2^52 */
    vg_fe51_add_limbs(&c->H, b, a); /* B + A <= 2^52 */
    vg_fe51_sub_limbs(&c->F, d, &c->G); /* D - C < 2^53 */
    vg_fe51_add_limbs(&c->G, d, &c->G); /* D + C <= 2^52 + 2^51 */
}

/* c = 2 p, from X, Y, Z of p (HWCD 2008 3.3, "dbl", a = -1):
 * x3 = 2 X Y / (Y^2 - X^2), y3 = (Y^2 + X^2) / (2 Z^2 - Y^2 + X^2).
 * Precondition: X, Y, Z tight. Postcondition: c loose (bounds in line). */
static void ge_dbl(fe_ops *F, ge_p1p1 *c, const ge_p3 *p, vg_fe51 tmp[4])
{
    vg_fe51 *a = &tmp[0], *b = &tmp[1], *zz = &tmp[2], *s = &tmp[3];
    F->sqr(a, &p->X);
    F->sqr(b, &p->Y);
    F->sqr(zz, &p->Z);
    vg_fe51_add_limbs(s, &p->X, &p->Y); /* <= 2^52 */
    F->sqr(s, s); /* (X + Y)^2, tight */
    vg_fe51_sub_limbs(s, s, a); /* < 2^51 + 2^52 */
    vg_fe51_sub_limbs(&c->E, s, b); /* 2 X Y, < 2^51 + 2^53 */
    vg_fe51_sub_limbs(&c->G, b, a); /* Y^2 - X^2, < 2^51 + 2^52 */
    vg_fe51_add_limbs(&c->H, a, b); /* Y^2 + X^2, <= 2^52 */
    vg_fe51_add_limbs(zz, zz, zz); /* <= 2^52 */
    vg_fe51_add_limbs(zz, zz, a); /* <= 3 2^51 */
    vg_fe51_sub_limbs(&c->F, zz, b); /* 2 Z^2 + X^2 - Y^2, < 5 2^51 */
}

/* t = e B_i for a row B_i[j] = (j + 1) 16^(2i) B and a digit e in [-8, 8];
 * the identity (1, 1, 0) for e = 0. Reads every entry; the digit only
 * becomes masks. -(x, y) = (-x, y): swap y + x with y - x, negate 2 d x y. */
static void ge_select(ge_p1p1 *scratch, vg_ge51_niels *t, const vg_ge51_niels row[8], int8_t e)
{
    uint64_t d = (uint64_t)(int64_t)e;
    uint64_t neg = d >> 63;                 /* 1 when e < 0 */
    uint64_t abs = (d ^ (0 - neg)) + neg;   /* |e| in [0, 8] */
    uint64_t negmask = vg_barrier_u64(0 - neg);
    vg_fe51 *nt = &scratch->E;
    static const vg_fe51 zero = {{0, 0, 0, 0, 0}};
    memset(t, 0, sizeof *t);
    t->ypx.v[0] = 1;
    t->ymx.v[0] = 1;
    for (int j = 0; j < 8; j++) {
        uint64_t m = vg_ct_mask_eq_u64(abs, (uint64_t)(j + 1));
        fe_cmov(&t->ypx, &row[j].ypx, m);
        fe_cmov(&t->ymx, &row[j].ymx, m);
        fe_cmov(&t->t2d, &row[j].t2d, m);
    }
    vg_fe51_cswap(&t->ypx, &t->ymx, negmask);
    vg_fe51_sub_limbs(nt, &zero, &t->t2d); /* 2p - t2d: limbs < 2^52 */
    fe_cmov(&t->t2d, nt, negmask);
}

struct base_state {
    int8_t e[64];
    ge_p3 h;
    ge_p1p1 c;
    vg_ge51_niels t;
    vg_fe51 num, den;
    vg_fe51 tmp[4]; /* the point formulas' temporaries, wiped with the rest */
};

/* s->h = [a]B (extended, tight) for a < 2^255. */
static void ge_scalarmult_base(fe_ops *F, struct base_state *s, const uint8_t a[32])
{
    vg_ge25519_recode16(s->e, a);
    memset(&s->h, 0, sizeof s->h); /* identity (0 : 1 : 1 : 0) */
    s->h.Y.v[0] = 1;
    s->h.Z.v[0] = 1;
    /* odd digits: sum_i e_{2i+1} 16^(2i) B */
    for (int i = 0; i < 32; i++) {
        ge_select(&s->c, &s->t, vg_ge25519_base_table51[i], s->e[2 * i + 1]);
        ge_madd(F, &s->c, &s->h, &s->t, s->tmp);
        ge_p1p1_to_p3(F, &s->h, &s->c);
    }
    /* times 16 */
    ge_dbl(F, &s->c, &s->h, s->tmp);
    ge_p1p1_to_p2(F, &s->h, &s->c);
    ge_dbl(F, &s->c, &s->h, s->tmp);
    ge_p1p1_to_p2(F, &s->h, &s->c);
    ge_dbl(F, &s->c, &s->h, s->tmp);
    ge_p1p1_to_p2(F, &s->h, &s->c);
    ge_dbl(F, &s->c, &s->h, s->tmp);
    ge_p1p1_to_p3(F, &s->h, &s->c);
    /* even digits: + sum_i e_{2i} 16^(2i) B */
    for (int i = 0; i < 32; i++) {
        ge_select(&s->c, &s->t, vg_ge25519_base_table51[i], s->e[2 * i]);
        ge_madd(F, &s->c, &s->h, &s->t, s->tmp);
        ge_p1p1_to_p3(F, &s->h, &s->c);
    }
}

/* RFC 7748 section 5 X25519(k, 9) as the u of [clamp(k)]B:
 * u = (1 + y) / (1 - y) = (Z + Y) / (Z - Y), one inversion. Z - Y is never
 * 0: [clamp(k)]B is not the identity (see vg_x25519_public_key). */
static void public_key51(uint8_t out[32], const uint8_t k[32])
{
    fe_ops *F = vg_fe51_get();
    struct base_state s;
    uint8_t a[32];
    vg_x25519_clamp(a, k);
    ge_scalarmult_base(F, &s, a);
    vg_fe51_add_limbs(&s.num, &s.h.Z, &s.h.Y); /* <= 2^52 */
    vg_fe51_sub_limbs(&s.den, &s.h.Z, &s.h.Y); /* < 2^53 */
    F->invert(&s.den, &s.den);
    F->mul(&s.num, &s.num, &s.den);
    F->tobytes(out, &s.num);
    vg_wipe(&s, sizeof s);
    vg_wipe(a, sizeof a);
}

/* RFC 8032 section 5.1.2: encode y = Y/Z, with the low bit of x = X/Z in
 * bit 255. Precondition: a < 2^255. */
static void ed25519_base51(uint8_t out[32], const uint8_t a[32])
{
    fe_ops *F = vg_fe51_get();
    struct base_state s;
    uint8_t xb[32];
    ge_scalarmult_base(F, &s, a);
    F->invert(&s.den, &s.h.Z);
    F->mul(&s.num, &s.h.X, &s.den);
    F->tobytes(xb, &s.num);
    F->mul(&s.num, &s.h.Y, &s.den);
    F->tobytes(out, &s.num);
    out[31] = (uint8_t)(out[31] | ((xb[0] & 1) << 7));
    vg_wipe(&s, sizeof s);
    vg_wipe(xb, sizeof xb);
}

static const struct vg_x25519_base_impl g_base_portable = {"portable", public_key51, ed25519_base51};

const struct vg_x25519_base_impl *vg_x25519_base_portable_get(void) { return &g_base_portable; }
