/*
 * Variable-time edwards25519 arithmetic for Ed25519 verification on the
 * BMI2/ADX field (fe64_adx.c through vg_fe64_adx_get()): the "adx"
 * variant of ge25519_vartime.h. x86-64 only; compiled only when VG_X86_64,
 * used only when the CPU has BMI2 and ADX.
 *
 * Same method, formulas and verdicts as the portable variant
 * (ge25519_vartime.c; RFC 8032 5.1.3, 5.1.7; Hisil, Wong, Carter, Dawson,
 * "Twisted Edwards curves revisited", 2008, section 3 with a = -1). Field
 * elements are four 64-bit words; any value below 2^256 stands for its
 * residue mod p (fe25519.h), so no bounds need tracking: every input and
 * output of the routines below is just "below 2^256". The point
 * arithmetic inlines the field kernels of fe64_adx_kernels.h (MULX with
 * ADCX/ADOX): through the operation table of fe64_adx.c the calls cost more
 * than the arithmetic (that form was no faster than the portable variant;
 * see docs/benchmarks.md). Decoding (its
 * exponentiation) and the final comparisons still use the table, once per
 * call.
 *
 * Only public data passes through here; the code branches on it freely.
 */
#include <string.h>

#include "common.h"
#include "fe25519.h"
#include "ge25519.h"
#include "ge25519_vartime.h"

#if defined(VG_X86_64)

#include "fe64_adx_kernels.h"

#define VG_GE25519_VARTIME_TABLE_FE64
#include "ge25519_vartime_table.h"

typedef const struct vg_fe64_ops fe_ops;
typedef uint64_t fe[4];

/* d = -121665/121666, 2d, sqrt(-1) = 2^((p-1)/4) (RFC 8032 5.1, 5.1.3),
 * reduced below p, little-endian words. */
static const fe fe_d = {0x75eb4dca135978a3u, 0x00700a4d4141d8abu, 0x8cc740797779e898u,
                        0x52036cee2b6ffe73u};
static const fe fe_d2 = {0xebd69b9426b2f159u, 0x00e0149a8283b156u, 0x198e80f2eef3d130u,
                         0x2406d9dc56dffce7u};
static const fe fe_sqrtm1 = {0xc4ee1b274a0ea0b0u, 0x2f431806ad2fe478u, 0x2b4d00993dfbd7a7u,
                             0x2b8324804fc1df0bu};

/* The field kernels (fe64_adx_kernels.h), inlined: any inputs below 2^256,
 * outputs below 2^256, any aliasing. */
static inline void fe_add(fe h, const fe f, const fe g) { fe64_add(h, f, g); }
static inline void fe_sub(fe h, const fe f, const fe g) { fe64_sub(h, f, g); }
static inline void fe_mul(fe h, const fe f, const fe g) { fe64_mul(h, f, g); }
static inline void fe_sqr(fe h, const fe f) { fe64_sqr(h, f); }

/* 1 when f and g are equal mod p. */
static int fe_equal(fe_ops *F, const fe f, const fe g)
{
    uint8_t a[32], b[32];
    F->tobytes(a, f);
    F->tobytes(b, g);
    return memcmp(a, b, 32) == 0;
}

static int fe_is_zero(fe_ops *F, const fe f)
{
    static const fe zero = {0, 0, 0, 0};
    return fe_equal(F, f, zero);
}

/* The square root of RFC 8032 5.1.3 step 3 needs z^((p-5)/8) = z^(2^252 - 3),
 * by the chain z^(2^k - 1) for k = 5, 10, 20, 40, 50, 100, 200, 250: see
 * fe_pow22523_2 below, which runs it on the two points of a signature. */

/* ---- points ------------------------------------------------------------------ */

typedef struct {
    fe X, Y, Z, T; /* extended: x = X/Z, y = Y/Z, x y = T/Z */
} ge_p3;

typedef struct {
    fe E, F, G, H; /* completed: x = E/G, y = H/F */
} ge_p1p1;

typedef struct {
    fe ypx, ymx, z, t2d; /* Y + X, Y - X, Z, 2 d T */
} ge_cached;

static void p1p1_to_p3(ge_p3 *r, const ge_p1p1 *c)
{
    fe_mul(r->X, c->E, c->F);
    fe_mul(r->Y, c->G, c->H);
    fe_mul(r->Z, c->F, c->G);
    fe_mul(r->T, c->E, c->H);
}

/* Without T, for a point that is only doubled next (T left stale). */
static void p1p1_to_p2(ge_p3 *r, const ge_p1p1 *c)
{
    fe_mul(r->X, c->E, c->F);
    fe_mul(r->Y, c->G, c->H);
    fe_mul(r->Z, c->F, c->G);
}

static void p3_to_cached(ge_cached *c, const ge_p3 *p)
{
    fe_add(c->ypx, p->Y, p->X);
    fe_sub(c->ymx, p->Y, p->X);
    memcpy(c->z, p->Z, sizeof c->z);
    fe_mul(c->t2d, p->T, fe_d2);
}

/* c = p + q (neg = 0) or p - q (neg = 1); -(x, y) = (-x, y) swaps Y + X
 * with Y - X and negates T. A = (Y1 - X1)(Y2 - X2), B = (Y1 + X1)(Y2 + X2),
 * C = T1 2d T2, D = 2 Z1 Z2; E = B - A, F = D - C, G = D + C, H = B + A. */
static void ge_add(ge_p1p1 *c, const ge_p3 *p, const ge_cached *q, int neg)
{
    fe a, b, cc, d;
    fe_sub(a, p->Y, p->X);
    fe_add(b, p->Y, p->X);
    fe_mul(a, a, neg ? q->ypx : q->ymx);
    fe_mul(b, b, neg ? q->ymx : q->ypx);
    fe_mul(cc, p->T, q->t2d);
    fe_mul(d, p->Z, q->z);
    fe_add(d, d, d);
    fe_sub(c->E, b, a);
    fe_add(c->H, b, a);
    if (neg) {
        fe_add(c->F, d, cc);
        fe_sub(c->G, d, cc);
    } else {
        fe_sub(c->F, d, cc);
        fe_add(c->G, d, cc);
    }
}

/* ge_add with an affine table point q (Z2 = 1): D = 2 Z1. */
static void ge_madd(ge_p1p1 *c, const ge_p3 *p, const vg_ge64_niels *q, int neg)
{
    fe a, b, cc, d;
    fe_sub(a, p->Y, p->X);
    fe_add(b, p->Y, p->X);
    fe_mul(a, a, neg ? q->ypx : q->ymx);
    fe_mul(b, b, neg ? q->ymx : q->ypx);
    fe_mul(cc, p->T, q->t2d);
    fe_add(d, p->Z, p->Z);
    fe_sub(c->E, b, a);
    fe_add(c->H, b, a);
    if (neg) {
        fe_add(c->F, d, cc);
        fe_sub(c->G, d, cc);
    } else {
        fe_sub(c->F, d, cc);
        fe_add(c->G, d, cc);
    }
}

/* c = 2 p from X, Y, Z (HWCD 3.3, a = -1): E = 2 X Y = (X + Y)^2 - X^2 - Y^2,
 * G = Y^2 - X^2, H = Y^2 + X^2, F = 2 Z^2 - G. */
static void ge_dbl(ge_p1p1 *c, const ge_p3 *p)
{
    fe a, b, zz, s;
    fe_sqr(a, p->X);
    fe_sqr(b, p->Y);
    fe_sqr(zz, p->Z);
    fe_add(s, p->X, p->Y);
    fe_sqr(s, s);
    fe_add(c->H, a, b);
    fe_sub(c->E, s, c->H);
    fe_sub(c->G, b, a);
    fe_add(zz, zz, zz);
    fe_sub(c->F, zz, c->G);
}

/* (h1, h2) = (z1, z2)^(2^252 - 3), the chain of fe_pow22523 run on two
 * values at once. Why: each chain is 252 dependent squarings, bound by the
 * latency of one squaring (about 44 cycles here); two independent chains
 * issued alternately fill the multiplier while the other waits, so the pair
 * costs little more than one (the two decodings of a verification). */
static void fe_nsqr2(fe a, fe b, int n)
{
    for (int i = 0; i < n; i++) {
        fe_sqr(a, a);
        fe_sqr(b, b);
    }
}

static void fe_pow22523_2(fe h1, const fe z1, fe h2, const fe z2)
{
    fe a0, a1, a2, b0, b1, b2;
    fe_sqr(a0, z1);
    fe_sqr(b0, z2);            /* z^2 */
    memcpy(a1, a0, sizeof a1);
    memcpy(b1, b0, sizeof b1);
    fe_nsqr2(a1, b1, 2);       /* z^8 */
    fe_mul(a1, z1, a1);
    fe_mul(b1, z2, b1);        /* z^9 */
    fe_mul(a0, a0, a1);
    fe_mul(b0, b0, b1);        /* z^11 */
    fe_sqr(a0, a0);
    fe_sqr(b0, b0);            /* z^22 */
    fe_mul(a0, a1, a0);
    fe_mul(b0, b1, b0);        /* z^(2^5 - 1) */
    memcpy(a1, a0, sizeof a1);
    memcpy(b1, b0, sizeof b1);
    fe_nsqr2(a1, b1, 5);
    fe_mul(a0, a1, a0);
    fe_mul(b0, b1, b0);        /* z^(2^10 - 1) */
    memcpy(a1, a0, sizeof a1);
    memcpy(b1, b0, sizeof b1);
    fe_nsqr2(a1, b1, 10);
    fe_mul(a1, a1, a0);
    fe_mul(b1, b1, b0);        /* z^(2^20 - 1) */
    memcpy(a2, a1, sizeof a2);
    memcpy(b2, b1, sizeof b2);
    fe_nsqr2(a2, b2, 20);
    fe_mul(a1, a2, a1);
    fe_mul(b1, b2, b1);        /* z^(2^40 - 1) */
    fe_nsqr2(a1, b1, 10);
    fe_mul(a0, a1, a0);
    fe_mul(b0, b1, b0);        /* z^(2^50 - 1) */
    memcpy(a1, a0, sizeof a1);
    memcpy(b1, b0, sizeof b1);
    fe_nsqr2(a1, b1, 50);
    fe_mul(a1, a1, a0);
    fe_mul(b1, b1, b0);        /* z^(2^100 - 1) */
    memcpy(a2, a1, sizeof a2);
    memcpy(b2, b1, sizeof b2);
    fe_nsqr2(a2, b2, 100);
    fe_mul(a1, a2, a1);
    fe_mul(b1, b2, b1);        /* z^(2^200 - 1) */
    fe_nsqr2(a1, b1, 50);
    fe_mul(a0, a1, a0);
    fe_mul(b0, b1, b0);        /* z^(2^250 - 1) */
    fe_nsqr2(a0, b0, 2);       /* z^(2^252 - 4) */
    fe_mul(h1, a0, z1);
    fe_mul(h2, b0, z2);        /* z^(2^252 - 3) */
}

/* RFC 8032 5.1.3, strict (see ge25519_vartime.h), in two halves so that
 * two points (A and R of a signature) share one interleaved exponentiation
 * (fe_pow22523_2): ge_frombytes_start does steps 1 and 2 and the operand
 * of step 3, t = u v^7, keeping u and v^3; ge_frombytes_finish takes
 * t^((p-5)/8) and does the rest. Each returns 0, or -1 for a rejected
 * encoding; a verification rejects when either point does, so the order
 * of the checks does not change a verdict. */
struct ge_decode {
    fe u, v, v3, t;
    unsigned sign;
};

static int ge_frombytes_start(fe_ops *F, ge_p3 *h, struct ge_decode *w, const uint8_t s[32])
{
    static const fe one = {1, 0, 0, 0};
    uint8_t b[32];
    w->sign = s[31] >> 7;
    /* Step 1: y is bits 0..254; reject y >= p: frombytes clears bit 255 and
     * tobytes reduces mod p, so the round trip changes the bytes exactly
     * when y >= p. */
    F->frombytes(h->Y, s);
    F->tobytes(b, h->Y);
    b[31] = (uint8_t)(b[31] | (w->sign << 7));
    if (memcmp(b, s, 32) != 0)
        return -1;
    /* Step 2: u = y^2 - 1, v = d y^2 + 1. */
    fe_sqr(w->u, h->Y);
    fe_mul(w->v, w->u, fe_d);
    fe_sub(w->u, w->u, one);
    fe_add(w->v, w->v, one);
    /* Step 3: x = u v^3 (u v^7)^((p-5)/8). */
    fe_sqr(w->v3, w->v);
    fe_mul(w->v3, w->v3, w->v); /* v^3 */
    fe_sqr(w->t, w->v3);
    fe_mul(w->t, w->t, w->v);   /* v^7 */
    fe_mul(w->t, w->t, w->u);   /* u v^7 */
    return 0;
}

/* pw = (u v^7)^((p-5)/8). */
static int ge_frombytes_finish(fe_ops *F, ge_p3 *h, struct ge_decode *w, const fe pw)
{
    static const fe one = {1, 0, 0, 0};
    static const fe zero = {0, 0, 0, 0};
    fe vxx, t;
    uint8_t b[32];
    fe_mul(t, pw, w->v3);
    fe_mul(h->X, t, w->u);
    /* v x^2 = u: a root; v x^2 = -u: x sqrt(-1) is; otherwise none. */
    fe_sqr(vxx, h->X);
    fe_mul(vxx, vxx, w->v);
    if (!fe_equal(F, vxx, w->u)) {
        fe_sub(t, zero, w->u);
        if (!fe_equal(F, vxx, t))
            return -1;
        fe_mul(h->X, h->X, fe_sqrtm1);
    }
    /* Step 4: x = 0 with sign bit 1 is rejected; fix the sign of x. */
    F->tobytes(b, h->X);
    if (fe_is_zero(F, h->X) && w->sign)
        return -1;
    if ((unsigned)(b[0] & 1) != w->sign)
        fe_sub(h->X, zero, h->X);
    memcpy(h->Z, one, sizeof one);
    fe_mul(h->T, h->X, h->Y);
    return 0;
}

/* Both points of a signature: 0 when both decode, else -1. */
static int ge_frombytes_2(fe_ops *F, ge_p3 *a, const uint8_t a_enc[32], ge_p3 *r,
                          const uint8_t r_enc[32])
{
    struct ge_decode wa, wr;
    fe pa, pr;
    if (ge_frombytes_start(F, a, &wa, a_enc) != 0 || ge_frombytes_start(F, r, &wr, r_enc) != 0)
        return -1;
    fe_pow22523_2(pa, wa.t, pr, wr.t);
    if (ge_frombytes_finish(F, a, &wa, pa) != 0 || ge_frombytes_finish(F, r, &wr, pr) != 0)
        return -1;
    return 0;
}

/* ---- double-scalar multiplication ----------------------------------------- */

#define VG_WNAF_A 5 /* k: digits odd in (-16, 16), 8 odd multiples of A */
#define VG_WNAF_B 8 /* S: digits odd in (-128, 128), the 64 table entries */

/* t[j] = (2 j + 1) p for j < 8, cached. */
static void ge_odd_multiples(ge_cached t[8], const ge_p3 *p)
{
    ge_p1p1 c;
    ge_p3 p2, q;
    ge_cached c2;
    p3_to_cached(&t[0], p);
    ge_dbl(&c, p);
    p1p1_to_p3(&p2, &c);
    p3_to_cached(&c2, &p2);
    q = *p;
    for (int j = 1; j < 8; j++) {
        ge_add(&c, &q, &c2, 0);
        p1p1_to_p3(&q, &c);
        p3_to_cached(&t[j], &q);
    }
}

/* r = [s]B - [k]A for s, k < 2^253. */
static void ge_double_scalarmult(ge_p3 *r, const uint8_t k[32], const ge_p3 *a,
                                 const uint8_t s[32])
{
    int8_t ks[256], ss[256];
    ge_cached ta[8];
    ge_p1p1 c;
    int i;

    vg_ge25519_wnaf_vartime(ks, k, VG_WNAF_A);
    vg_ge25519_wnaf_vartime(ss, s, VG_WNAF_B);
    memset(r, 0, sizeof *r); /* the identity (0 : 1 : 1 : 0) */
    r->Y[0] = 1;
    r->Z[0] = 1;
    for (i = 255; i >= 0 && ks[i] == 0 && ss[i] == 0; i--)
        ;
    if (i < 0)
        return;
    ge_odd_multiples(ta, a);
    for (; i >= 0; i--) {
        ge_dbl(&c, r);
        if (ss[i]) {
            p1p1_to_p3(r, &c);
            ge_madd(&c, r, &vg_ge25519_vartime_table64[(ss[i] < 0 ? -ss[i] : ss[i]) / 2],
                    ss[i] < 0);
        }
        if (ks[i]) { /* minus [k]A: the opposite sign */
            p1p1_to_p3(r, &c);
            ge_add(&c, r, &ta[(ks[i] < 0 ? -ks[i] : ks[i]) / 2], ks[i] > 0);
        }
        if (i > 0)
            p1p1_to_p2(r, &c);
        else
            p1p1_to_p3(r, &c);
    }
}

/* ---- the check of RFC 8032 5.1.7 ---------------------------------------------- */

/* 1 when q equals the affine point aff (Z = 1): X = x Z and Y = y Z. */
static int ge_equal_affine(fe_ops *F, const ge_p3 *q, const ge_p3 *aff)
{
    fe t;
    fe_mul(t, aff->X, q->Z);
    if (!fe_equal(F, t, q->X))
        return 0;
    fe_mul(t, aff->Y, q->Z);
    return fe_equal(F, t, q->Y);
}

/* 1 when [8](p - q) is the identity (0 : 1 : 1). */
static int ge_equal_cofactored(fe_ops *F, const ge_p3 *p, const ge_p3 *q)
{
    ge_cached qc;
    ge_p1p1 c;
    ge_p3 d;
    p3_to_cached(&qc, q);
    ge_add(&c, p, &qc, 1);
    for (int j = 0; j < 3; j++) {
        p1p1_to_p2(&d, &c);
        ge_dbl(&c, &d);
    }
    p1p1_to_p2(&d, &c);
    return fe_is_zero(F, d.X) && fe_equal(F, d.Y, d.Z);
}

static int verify_check_adx(const uint8_t r_enc[32], const uint8_t a_enc[32], const uint8_t s[32],
                            const uint8_t k[32], int cofactored)
{
    fe_ops *F = vg_fe64_adx_get();
    ge_p3 a, r, q;
    if (ge_frombytes_2(F, &a, a_enc, &r, r_enc) != 0)
        return 0;
    ge_double_scalarmult(&q, k, &a, s);
    return cofactored ? ge_equal_cofactored(F, &q, &r) : ge_equal_affine(F, &q, &r);
}

static const struct vg_ed25519_verify_impl g_verify_adx = {"adx", verify_check_adx};

const struct vg_ed25519_verify_impl *vg_ed25519_verify_adx_get(void)
{
    return vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX) ? &g_verify_adx : NULL;
}

#endif /* VG_X86_64 */
