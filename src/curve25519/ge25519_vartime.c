/*
 * Variable-time edwards25519 arithmetic for Ed25519 verification, portable
 * radix-2^51 field (fe51.c through vg_fe51_get()); the "portable" variant of
 * ge25519_vartime.h, the wNAF recoding shared by the variants, and the
 * dispatch.
 *
 * Specification: RFC 8032 section 5.1 (curve, base point), 5.1.3 (decoding),
 * 5.1.7 (verification). Formulas: Hisil, Wong, Carter, Dawson, "Twisted
 * Edwards curves revisited" (2008), section 3 (a = -1): extended
 * coordinates, the unified addition with a "cached" second operand
 * (Y + X, Y - X, Z, 2 d T), and doubling, both through the completed form
 * (E : F : G : H) with x = E/G, y = H/F: X = E F, Y = G H, Z = F G, T = E H.
 * The addition law is complete on edwards25519 (d is not a square), so
 * small-order inputs and equal operands need no special case.
 *
 * Only public data passes through here; the code branches on it freely.
 * Bounds (fe25519.h): "tight" limbs <= 2^51 (mul/sqr outputs), "loose"
 * limbs < 2^54 (what mul/sqr accept); each local add/sub states its bound.
 */
#include <string.h>

#include "common.h"
#include "fe25519.h"
#include "ge25519.h"
#include "ge25519_vartime.h"
#define VG_GE25519_VARTIME_TABLE_FE51
#include "ge25519_vartime_table.h"

typedef const struct vg_fe51_ops fe_ops;

/* Extended coordinates (X : Y : Z : T), x = X/Z, y = Y/Z, x y = T/Z; every
 * coordinate tight on output of the routines below. */
typedef struct {
    vg_fe51 X, Y, Z, T;
} ge_p3;

/* d = -121665/121666, 2d and sqrt(-1) = 2^((p-1)/4) mod p, radix 2^51
 * (computed from their definitions in RFC 8032 5.1 and 5.1.3). */
static const vg_fe51 fe_d = {{0x34dca135978a3, 0x1a8283b156ebd, 0x5e7a26001c029, 0x739c663a03cbb,
                              0x52036cee2b6ff}};
static const vg_fe51 fe_d2 = {{0x69b9426b2f159, 0x35050762add7a, 0x3cf44c0038052, 0x6738cc7407977,
                               0x2406d9dc56dff}};
static const vg_fe51 fe_sqrtm1 = {{0x61b274a0ea0b0, 0xd5a5fc8f189d, 0x7ef5e9cbd0c60, 0x78595a6804c9e,
                                   0x2b8324804fc1d}};
/* ---- field helpers ------------------------------------------------------- */

/* Carry h to tight form. Precondition: limbs < 2^63. After one pass limbs
 * 1..4 are < 2^51 and limb 0 < 2^51 + 19 2^12; the second carry out of
 * limb 0 is at most 1, so limb 1 ends <= 2^51: tight. */
static void fe_carry(vg_fe51 *h)
{
    const uint64_t m = (UINT64_C(1) << 51) - 1;
    for (int i = 0; i < 4; i++) {
        h->v[i + 1] += h->v[i] >> 51;
        h->v[i] &= m;
    }
    h->v[0] += 19 * (h->v[4] >> 51);
    h->v[4] &= m;
    h->v[1] += h->v[0] >> 51;
    h->v[0] &= m;
}

/* 1 when f and g (loose) are equal mod p. */
static int fe_equal(fe_ops *F, const vg_fe51 *f, const vg_fe51 *g)
{
    uint8_t a[32], b[32];
    F->tobytes(a, f);
    F->tobytes(b, g);
    return memcmp(a, b, 32) == 0;
}

static int fe_is_zero(fe_ops *F, const vg_fe51 *f)
{
    static const vg_fe51 zero = {{0, 0, 0, 0, 0}};
    return fe_equal(F, f, &zero);
}

/* h = f^(2^n) for n >= 1 (f loose, h tight). */
static void fe_sqr_n(fe_ops *F, vg_fe51 *h, const vg_fe51 *f, int n)
{
    F->sqr(h, f);
    for (int i = 1; i < n; i++)
        F->sqr(h, h);
}

/* h = z^((p-5)/8) = z^(2^252 - 3), the exponent of RFC 8032 5.1.3 step 3.
 * Chain: z^(2^k - 1) for k = 5, 10, 20, 40, 50, 100, 200, 250, then
 * two squarings and a multiplication by z. z loose, h tight. */
static void fe_pow22523(fe_ops *F, vg_fe51 *h, const vg_fe51 *z)
{
    vg_fe51 t0, t1, t2;
    F->sqr(&t0, z);              /* z^2 */
    fe_sqr_n(F, &t1, &t0, 2);    /* z^8 */
    F->mul(&t1, z, &t1);         /* z^9 */
    F->mul(&t0, &t0, &t1);       /* z^11 */
    F->sqr(&t0, &t0);            /* z^22 */
    F->mul(&t0, &t1, &t0);       /* z^(2^5 - 1) */
    fe_sqr_n(F, &t1, &t0, 5);
    F->mul(&t0, &t1, &t0);       /* z^(2^10 - 1) */
    fe_sqr_n(F, &t1, &t0, 10);
    F->mul(&t1, &t1, &t0);       /* z^(2^20 - 1) */
    fe_sqr_n(F, &t2, &t1, 20);
    F->mul(&t1, &t2, &t1);       /* z^(2^40 - 1) */
    fe_sqr_n(F, &t1, &t1, 10);
    F->mul(&t0, &t1, &t0);       /* z^(2^50 - 1) */
    fe_sqr_n(F, &t1, &t0, 50);
    F->mul(&t1, &t1, &t0);       /* z^(2^100 - 1) */
    fe_sqr_n(F, &t2, &t1, 100);
    F->mul(&t1, &t2, &t1);       /* z^(2^200 - 1) */
    fe_sqr_n(F, &t1, &t1, 50);
    F->mul(&t0, &t1, &t0);       /* z^(2^250 - 1) */
    fe_sqr_n(F, &t0, &t0, 2);    /* z^(2^252 - 4) */
    F->mul(h, &t0, z);           /* z^(2^252 - 3) */
}

/* ---- point formulas ------------------------------------------------------- */

typedef struct {
    vg_fe51 E, F, G, H; /* completed: x = E/G, y = H/F; loose */
} ge_p1p1;

typedef struct {
    vg_fe51 ypx, ymx, z, t2d; /* Y + X (<= 2^52), Y - X (< 2^53), Z, 2 d T (tight) */
} ge_cached;

static void p1p1_to_p3(fe_ops *F, ge_p3 *r, const ge_p1p1 *c)
{
    F->mul(&r->X, &c->E, &c->F);
    F->mul(&r->Y, &c->G, &c->H);
    F->mul(&r->Z, &c->F, &c->G);
    F->mul(&r->T, &c->E, &c->H);
}

/* Without T, for a point that is only doubled next (T left stale). */
static void p1p1_to_p2(fe_ops *F, ge_p3 *r, const ge_p1p1 *c)
{
    F->mul(&r->X, &c->E, &c->F);
    F->mul(&r->Y, &c->G, &c->H);
    F->mul(&r->Z, &c->F, &c->G);
}

/* Precondition: p tight. */
static void p3_to_cached(fe_ops *F, ge_cached *c, const ge_p3 *p)
{
    vg_fe51_add_limbs(&c->ypx, &p->Y, &p->X); /* <= 2^52 */
    vg_fe51_sub_limbs(&c->ymx, &p->Y, &p->X); /* < 2^51 + 2^52 */
    c->z = p->Z;
    F->mul(&c->t2d, &p->T, &fe_d2);
}

/* c = p + q (neg = 0) or p - q (neg = 1); -(x, y) = (-x, y) swaps Y + X
 * with Y - X and negates T. A = (Y1 - X1)(Y2 - X2), B = (Y1 + X1)(Y2 + X2),
 * C = T1 2d T2, D = 2 Z1 Z2; E = B - A, F = D - C, G = D + C, H = B + A.
 * Precondition: p tight, q as ge_cached. Postcondition: c loose. */
static void ge_add(fe_ops *F, ge_p1p1 *c, const ge_p3 *p, const ge_cached *q, int neg)
{
    vg_fe51 a, b, cc, d;
    vg_fe51_sub_limbs(&a, &p->Y, &p->X); /* < 2^51 + 2^52 */
    vg_fe51_add_limbs(&b, &p->Y, &p->X); /* <= 2^52 */
    F->mul(&a, &a, neg ? &q->ypx : &q->ymx); /* A, tight */
    F->mul(&b, &b, neg ? &q->ymx : &q->ypx); /* B, tight */
    F->mul(&cc, &p->T, &q->t2d);              /* C, tight */
    F->mul(&d, &p->Z, &q->z);
    vg_fe51_add_limbs(&d, &d, &d);       /* D <= 2^52 */
    vg_fe51_sub_limbs(&c->E, &b, &a);    /* < 2^51 + 2^52 */
    vg_fe51_add_limbs(&c->H, &b, &a);    /* <= 2^52 */
    if (neg) {
        vg_fe51_add_limbs(&c->F, &d, &cc); /* <= 2^52 + 2^51 */
        vg_fe51_sub_limbs(&c->G, &d, &cc); /* < 2^53 */
    } else {
        vg_fe51_sub_limbs(&c->F, &d, &cc);
        vg_fe51_add_limbs(&c->G, &d, &cc);
    }
}

/* c = 2 p from X, Y, Z (HWCD 3.3, a = -1): E = 2 X Y, G = Y^2 - X^2,
 * H = Y^2 + X^2, F = 2 Z^2 - Y^2 + X^2. Precondition: X, Y, Z tight.
 * Postcondition: c loose. */
static void ge_dbl(fe_ops *F, ge_p1p1 *c, const ge_p3 *p)
{
    vg_fe51 a, b, zz, s;
    F->sqr(&a, &p->X);
    F->sqr(&b, &p->Y);
    F->sqr(&zz, &p->Z);
    vg_fe51_add_limbs(&s, &p->X, &p->Y); /* <= 2^52 */
    F->sqr(&s, &s);
    vg_fe51_sub_limbs(&s, &s, &a);        /* < 2^51 + 2^52 */
    vg_fe51_sub_limbs(&c->E, &s, &b);     /* < 2^51 + 2^53 */
    vg_fe51_sub_limbs(&c->G, &b, &a);     /* < 2^51 + 2^52 */
    vg_fe51_add_limbs(&c->H, &a, &b);     /* <= 2^52 */
    vg_fe51_add_limbs(&zz, &zz, &zz);     /* <= 2^52 */
    vg_fe51_add_limbs(&zz, &zz, &a);      /* <= 3 2^51 */
    vg_fe51_sub_limbs(&c->F, &zz, &b);    /* < 5 2^51 */
}

/* ---- decoding and encoding (RFC 8032 5.1.3, 5.1.2) ------------------------ */

/* RFC 8032 section 5.1.3 decoding, strict: returns 0 and sets h (Z = 1)
 * when s is the canonical encoding of a curve point; returns -1 (h
 * unspecified) when y >= p, when x^2 = (y^2 - 1) / (d y^2 + 1) has no
 * root, or when x = 0 and the sign bit (bit 255) is set. Small-order points
 * are accepted. */
static int ge_frombytes(ge_p3 *h, const uint8_t s[32])
{
    fe_ops *F = vg_fe51_get();
    static const vg_fe51 one = {{1, 0, 0, 0, 0}};
    static const vg_fe51 zero = {{0, 0, 0, 0, 0}};
    vg_fe51 u, v, v3, vxx, t;
    uint8_t b[32];
    unsigned sign = s[31] >> 7;

    /* Step 1: y is bits 0..254; reject y >= p. frombytes keeps y mod
     * 2^255 and tobytes reduces mod p, so the round trip changes the
     * bytes exactly when y >= p. */
    F->frombytes(&h->Y, s);
    F->tobytes(b, &h->Y);
    b[31] = (uint8_t)(b[31] | (sign << 7));
    if (memcmp(b, s, 32) != 0)
        return -1;

    /* Step 2: u = y^2 - 1, v = d y^2 + 1 (both carried to tight). */
    F->sqr(&u, &h->Y);
    F->mul(&v, &u, &fe_d);
    vg_fe51_sub_limbs(&u, &u, &one);
    fe_carry(&u);
    vg_fe51_add_limbs(&v, &v, &one);
    fe_carry(&v);
    /* Step 3: x = u v^3 (u v^7)^((p-5)/8). */
    F->sqr(&v3, &v);
    F->mul(&v3, &v3, &v);      /* v^3 */
    F->sqr(&t, &v3);
    F->mul(&t, &t, &v);        /* v^7 */
    F->mul(&t, &t, &u);        /* u v^7 */
    fe_pow22523(F, &t, &t);
    F->mul(&t, &t, &v3);
    F->mul(&h->X, &t, &u);
    /* Step 3 cases: v x^2 = u: x is a root; v x^2 = -u: x sqrt(-1) is;
     * otherwise no root: reject. */
    F->sqr(&vxx, &h->X);
    F->mul(&vxx, &vxx, &v);
    if (!fe_equal(F, &vxx, &u)) {
        vg_fe51_sub_limbs(&t, &zero, &u); /* -u; u tight */
        if (!fe_equal(F, &vxx, &t))
            return -1;
        F->mul(&h->X, &h->X, &fe_sqrtm1);
    }
    /* Step 4: x = 0 with sign bit 1 is rejected; fix the sign of x. */
    F->tobytes(b, &h->X);
    if (fe_is_zero(F, &h->X) && sign)
        return -1;
    if ((unsigned)(b[0] & 1) != sign) {
        vg_fe51_sub_limbs(&h->X, &zero, &h->X); /* X tight */
        fe_carry(&h->X);
    }
    h->Z = one;
    F->mul(&h->T, &h->X, &h->Y);
    return 0;
}


/* c = p + q (neg = 0) or p - q (neg = 1) for an affine table point q in
 * (y + x, y - x, 2 d x y) form: ge_add with Z2 = 1, so D = 2 Z1 needs no
 * multiplication. Precondition: p tight, q limbs < 2^51. Postcondition:
 * c loose. */
static void ge_madd(fe_ops *F, ge_p1p1 *c, const ge_p3 *p, const vg_ge51_niels *q, int neg)
{
    vg_fe51 a, b, cc, d;
    vg_fe51_sub_limbs(&a, &p->Y, &p->X); /* < 2^51 + 2^52 */
    vg_fe51_add_limbs(&b, &p->Y, &p->X); /* <= 2^52 */
    F->mul(&a, &a, neg ? &q->ypx : &q->ymx); /* A, tight */
    F->mul(&b, &b, neg ? &q->ymx : &q->ypx); /* B, tight */
    F->mul(&cc, &p->T, &q->t2d);              /* C, tight */
    vg_fe51_add_limbs(&d, &p->Z, &p->Z); /* D <= 2^52 */
    vg_fe51_sub_limbs(&c->E, &b, &a);    /* < 2^51 + 2^52 */
    vg_fe51_add_limbs(&c->H, &b, &a);    /* <= 2^52 */
    if (neg) {
        vg_fe51_add_limbs(&c->F, &d, &cc); /* <= 2^52 + 2^51 */
        vg_fe51_sub_limbs(&c->G, &d, &cc); /* < 2^53 */
    } else {
        vg_fe51_sub_limbs(&c->F, &d, &cc);
        vg_fe51_add_limbs(&c->G, &d, &cc);
    }
}

/* ---- double-scalar multiplication ----------------------------------------- */

#define VG_WNAF_A 5 /* k: digits odd in (-16, 16), 8 odd multiples of A */
#define VG_WNAF_B 8 /* S: digits odd in (-128, 128), the 64 table entries */

/* Walk the bits upward with a carry: where the running value is odd, take
 * the next w bits (plus the carry) as a digit, signed when it reaches
 * 2^(w-1), and skip past them. The digit is odd, so it is never -2^(w-1).
 * For s < 2^253 no carry leaves bit 255: a window starting at
 * i >= 253 - (w - 1) holds at most 2^(253 - i) - 1 + 1 <= 2^(w-1), and being
 * odd at most 2^(w-1) - 1, so it stays positive; earlier windows carry into
 * bit i + w <= 253. */
void vg_ge25519_wnaf_vartime(int8_t r[256], const uint8_t s[32], int w)
{
    unsigned carry = 0;
    memset(r, 0, 256);
    for (int i = 0; i < 256;) {
        unsigned bit = (s[i >> 3] >> (i & 7)) & 1;
        if (bit == carry) { /* running value even here: digit 0 */
            i++;
            continue;
        }
        unsigned word = carry;
        for (int j = 0; j < w && i + j < 256; j++)
            word += (unsigned)((s[(i + j) >> 3] >> ((i + j) & 7)) & 1) << j;
        if (word & (1u << (w - 1))) {
            r[i] = (int8_t)((int)word - (1 << w));
            carry = 1;
        } else {
            r[i] = (int8_t)word;
            carry = 0;
        }
        i += w;
    }
}

/* t[j] = (2 j + 1) p for j < 8, cached. Precondition: p tight. */
static void ge_odd_multiples(fe_ops *F, ge_cached t[8], const ge_p3 *p)
{
    ge_p1p1 c;
    ge_p3 p2, q;
    ge_cached c2;
    p3_to_cached(F, &t[0], p);
    ge_dbl(F, &c, p);
    p1p1_to_p3(F, &p2, &c);
    p3_to_cached(F, &c2, &p2);
    q = *p;
    for (int j = 1; j < 8; j++) {
        ge_add(F, &c, &q, &c2, 0);
        p1p1_to_p3(F, &q, &c);
        p3_to_cached(F, &t[j], &q);
    }
}

/* r = [s]B - [k]A. Preconditions: s, k < 2^253, a tight. Postcondition:
 * r tight (T valid). */
static void ge_double_scalarmult(fe_ops *F, ge_p3 *r, const uint8_t k[32], const ge_p3 *a,
                                 const uint8_t s[32])
{
    int8_t ks[256], ss[256];
    ge_cached ta[8];
    ge_p1p1 c;
    int i;

    vg_ge25519_wnaf_vartime(ks, k, VG_WNAF_A);
    vg_ge25519_wnaf_vartime(ss, s, VG_WNAF_B);
    memset(r, 0, sizeof *r); /* the identity (0 : 1 : 1 : 0) */
    r->Y.v[0] = 1;
    r->Z.v[0] = 1;
    for (i = 255; i >= 0 && ks[i] == 0 && ss[i] == 0; i--)
        ;
    if (i < 0)
        return;
    ge_odd_multiples(F, ta, a);
    /* r stays a valid (X : Y : Z) through the loop; T is refreshed
     * (p1p1_to_p3) only before an addition, which needs it. */
    for (; i >= 0; i--) {
        ge_dbl(F, &c, r);
        if (ss[i]) {
            p1p1_to_p3(F, r, &c);
            ge_madd(F, &c, r, &vg_ge25519_vartime_table51[(ss[i] < 0 ? -ss[i] : ss[i]) / 2],
                    ss[i] < 0);
        }
        if (ks[i]) { /* minus [k]A: the opposite sign */
            p1p1_to_p3(F, r, &c);
            ge_add(F, &c, r, &ta[(ks[i] < 0 ? -ks[i] : ks[i]) / 2], ks[i] > 0);
        }
        if (i > 0)
            p1p1_to_p2(F, r, &c);
        else
            p1p1_to_p3(F, r, &c);
    }
}

/* ---- the check of RFC 8032 5.1.7 ---------------------------------------------- */

/* 1 when q (tight) equals the affine point (x, y) (Z = 1, tight):
 * X = x Z and Y = y Z (Z is never 0). */
static int ge_equal_affine(fe_ops *F, const ge_p3 *q, const ge_p3 *aff)
{
    vg_fe51 t;
    F->mul(&t, &aff->X, &q->Z);
    if (!fe_equal(F, &t, &q->X))
        return 0;
    F->mul(&t, &aff->Y, &q->Z);
    return fe_equal(F, &t, &q->Y);
}

/* 1 when [8](p - q) is the identity, i.e. p and q differ by a point of
 * small order (the cofactored check of RFC 8032 5.1.7 step 3). p, q tight. */
static int ge_equal_cofactored(fe_ops *F, const ge_p3 *p, const ge_p3 *q)
{
    ge_cached qc;
    ge_p1p1 c;
    ge_p3 d;
    p3_to_cached(F, &qc, q);
    ge_add(F, &c, p, &qc, 1);
    for (int j = 0; j < 3; j++) {
        p1p1_to_p2(F, &d, &c);
        ge_dbl(F, &c, &d);
    }
    p1p1_to_p2(F, &d, &c);
    /* identity (0 : 1 : 1): X = 0 and Y = Z */
    return fe_is_zero(F, &d.X) && fe_equal(F, &d.Y, &d.Z);
}

static int verify_check_portable(const uint8_t r_enc[32], const uint8_t a_enc[32],
                                 const uint8_t s[32], const uint8_t k[32], int cofactored)
{
    fe_ops *F = vg_fe51_get();
    ge_p3 a, r, q;
    if (ge_frombytes(&a, a_enc) != 0 || ge_frombytes(&r, r_enc) != 0)
        return 0;
    ge_double_scalarmult(F, &q, k, &a, s);
    return cofactored ? ge_equal_cofactored(F, &q, &r) : ge_equal_affine(F, &q, &r);
}

static const struct vg_ed25519_verify_impl g_verify_portable = {"portable", verify_check_portable};

const struct vg_ed25519_verify_impl *vg_ed25519_verify_portable_get(void)
{
    return &g_verify_portable;
}

#ifndef VG_X86_64
/* No x86-64 code in this build (see ge25519_vartime_adx.c). */
const struct vg_ed25519_verify_impl *vg_ed25519_verify_adx_get(void) { return NULL; }
#endif

/* The dispatch, recomputed from the active CPU mask at each call (cheap),
 * so it has no state and follows vg_cpu_force in tests. */
const struct vg_ed25519_verify_impl *vg_ed25519_verify_active(void)
{
    const struct vg_ed25519_verify_impl *impl = vg_ed25519_verify_adx_get();
    return impl ? impl : vg_ed25519_verify_portable_get();
}
