/*
 * The P-256 / P-384 group: point formulas, scalar multiplication, point
 * decoding, over one field variant. Compiled once per curve and variant
 * (CMakeLists.txt, vg_param_set): VG_NIST_BITS = 256 or 384 picks the curve,
 * VG_NIST_FE = portable or adx the field kernels (fe256_portable.h or
 * x86_64/fe256_adx.h, ...), which all have the names and contract of
 * fe256_portable.h and are inlined into the formulas below. The result is
 * one backend struct, vg_nist_p256_portable etc. (src/nist/nist.h).
 *
 * Points are projective (X : Y : Z), y^2 z = x^3 - 3 x z^2 + b z^3, the
 * identity (0 : 1 : 0). Computations on a secret scalar have no branch:
 * the windowed multiplications accumulate in Jacobian coordinates with
 * formulas that can meet no exceptional case there (argued at base_mul_pt
 * and var_mul_pt), and their last window, where one could, uses the
 * complete formulas of Renes, Costello, Batina, "Complete addition formulas
 * for prime order elliptic curves" (EUROCRYPT 2016), Algorithms 4 and 5
 * (a = -3).
 */
#include <string.h>

#include "common.h"
#include "nist.h"
#include "params.h"

#define VG_NIST_FE_ID_portable 1
#define VG_NIST_FE_ID_adx 2
#define VG_NIST_CAT2(a, b) a##b
#define VG_NIST_CAT(a, b) VG_NIST_CAT2(a, b)
#define VG_NIST_FE_ID VG_NIST_CAT(VG_NIST_FE_ID_, VG_NIST_FE)

#if VG_NIST_BITS == 256
#define NL 4
#define NB 32
#define FE(f) fe256_##f
#define C(name) vg_p256_##name
#define VG_NIST_CURVE p256
#include "p256_table.h"
#if VG_NIST_FE_ID == 1
#include "fe256_portable.h"
#elif VG_NIST_FE_ID == 2
#include "x86_64/fe256_adx.h"
#else
#error "VG_NIST_FE must be portable or adx"
#endif
#elif VG_NIST_BITS == 384
#define NL 6
#define NB 48
#define FE(f) fe384_##f
#define C(name) vg_p384_##name
#define VG_NIST_CURVE p384
#include "p384_table.h"
#if VG_NIST_FE_ID == 1
#include "fe384_portable.h"
#elif VG_NIST_FE_ID == 2
#include "x86_64/fe384_adx.h"
#else
#error "VG_NIST_FE must be portable or adx"
#endif
#else
#error "VG_NIST_BITS must be 256 or 384"
#endif

/* Scalars mod n for ECDSA's arithmetic (sign_s, verify_u below): the
 * variant's Montgomery multiplication (sc_portable.h, or the BMI2/ADX
 * kernels of x86_64/sc256_adx.h / sc384_adx.h), and the generic additions
 * of mont_portable.h, which the ADX headers do not have (a few per
 * signature). */
#include "mont_portable.h"
#if VG_NIST_FE_ID == 2
#if VG_NIST_BITS == 256
#include "x86_64/sc256_adx.h"
#else
#include "x86_64/sc384_adx.h"
#endif
#else
#include "sc_portable.h"
#endif
#if VG_NIST_BITS == 256
#define SC_MUL(r, a, b) sc256_mul(r, a, b)
#define SC_SQR(r, a) sc256_sqr(r, a)
#else
#define SC_MUL(r, a, b) sc384_mul(r, a, b)
#define SC_SQR(r, a) sc384_sqr(r, a)
#endif
#define SC_ADD(r, a, b) vg_mont_add(r, a, b, C(n), NL)
#define SC_NEG(r, a) vg_mont_neg(r, a, C(n), NL)

/* vg_nist_p256_portable_<name> etc.: each variant's functions have their own names. */
#define VG_NIST_NAME3(c, v, n) vg_nist_##c##_##v##_##n
#define VG_NIST_NAME2(c, v, n) VG_NIST_NAME3(c, v, n)
#define NAME(n) VG_NIST_NAME2(VG_NIST_CURVE, VG_NIST_FE, n)

/* Base table (tools/gen_nist_tables.c): entry [i][j] = (j + 1) 2^(W i) G,
 * affine, Montgomery form. */
#define W VG_NIST_TABLE_W
#define NWIN VG_NIST_TABLE_NWIN
#define TSIZE (1 << (W - 1))

typedef uint64_t fe[NL];
typedef struct {
    fe x, y, z;
} pt;
typedef struct {
    fe x, y;
} pt_aff;

/* ---- field helpers ----------------------------------------------------- */

static void fe_copy(fe r, const fe a) { memcpy(r, a, sizeof(fe)); }

/* r = a if mask is all-ones, r unchanged if mask is 0. */
static void fe_cmov(fe r, const fe a, uint64_t mask)
{
    for (size_t i = 0; i < NL; i++)
        r[i] ^= mask & (r[i] ^ a[i]);
}

/* All-ones when a == 0. */
static uint64_t fe_is_zero(const fe a)
{
    uint64_t acc = 0;
    for (size_t i = 0; i < NL; i++)
        acc |= a[i];
    return ~vg_ct_mask_nonzero_u64(acc);
}

/* Big-endian bytes to limbs (no reduction). */
static void limbs_from_bytes(uint64_t r[NL], const uint8_t b[NB])
{
    for (size_t i = 0; i < NL; i++) {
        uint64_t w = 0;
        for (size_t j = 0; j < 8; j++)
            w = (w << 8) | b[NB - 8 * (i + 1) + j];
        r[i] = w;
    }
}

static void limbs_to_bytes(uint8_t b[NB], const uint64_t a[NL])
{
    for (size_t i = 0; i < NL; i++)
        for (size_t j = 0; j < 8; j++)
            b[NB - 8 * (i + 1) + j] = (uint8_t)(a[i] >> (56 - 8 * j));
}

/* All-ones when a < m (limbs), constant time. */
static uint64_t limbs_lt(const uint64_t a[NL], const uint64_t m[NL])
{
    uint64_t borrow = 0;
    for (size_t i = 0; i < NL; i++) {
        uint64_t d = a[i] - m[i] - borrow;
        borrow = ((~a[i] & m[i]) | (~(a[i] ^ m[i]) & d)) >> 63;
    }
    return vg_barrier_u64(0 - borrow);
}

/* r = b in Montgomery form; returns all-ones when b < p (else r is
 * garbage below p: callers reject). */
static uint64_t fe_from_bytes(fe r, const uint8_t b[NB])
{
    uint64_t t[NL];
    limbs_from_bytes(t, b);
    uint64_t ok = limbs_lt(t, C(p));
    /* Reduce a value >= p once so the kernel's precondition holds anyway. */
    uint64_t s[NL], borrow = 0;
    for (size_t i = 0; i < NL; i++) {
        uint64_t d = t[i] - C(p)[i] - borrow;
        borrow = ((~t[i] & C(p)[i]) | (~(t[i] ^ C(p)[i]) & d)) >> 63;
        s[i] = d;
    }
    for (size_t i = 0; i < NL; i++)
        t[i] = (t[i] & ok) | (s[i] & ~ok);
    FE(mul)(r, t, C(r2_p));
    return ok;
}

static void fe_to_bytes(uint8_t b[NB], const fe a)
{
    static const fe one = {1};
    fe t;
    FE(mul)(t, a, one); /* a R / R: out of Montgomery form */
    limbs_to_bytes(b, t);
}

/* r = a^e, e a public exponent (limbs), 4-bit fixed window. The exponent is
 * a constant of the curve, so indexing the window table by its bits leaks
 * nothing about a. */
static void fe_pow(fe r, const fe a, const uint64_t e[NL])
{
    fe tab[16], acc;
    fe_copy(tab[0], C(one_mont));
    fe_copy(tab[1], a);
    for (size_t i = 2; i < 16; i++)
        FE(mul)(tab[i], tab[i - 1], a);
    fe_copy(acc, C(one_mont));
    for (size_t i = NL * 16; i-- > 0;) {
        for (int k = 0; k < 4; k++)
            FE(sqr)(acc, acc);
        unsigned nib = (unsigned)(e[i / 16] >> (4 * (i % 16))) & 15u;
        FE(mul)(acc, acc, tab[nib]);
    }
    fe_copy(r, acc);
    vg_wipe(tab, sizeof tab);
}

/* r = a^(2^n), n >= 1 (n public). */
static void fe_sqr_n(fe r, const fe a, unsigned n)
{
    FE(sqr)(r, a);
    while (--n)
        FE(sqr)(r, r);
}

/* r = 1 / a (0 for a = 0): Fermat, a^(p - 2), by an addition chain on the
 * shape of p - 2 (runs of ones built from x_k = a^(2^k - 1), with
 * x_(j+k) = x_j^(2^k) x_k), which needs far fewer multiplications than
 * fe_pow's 4-bit window (P-256: 255 S + 13 M instead of 256 S + 78 M;
 * P-384: 385 S + 14 M instead of 384 S + 110 M). The chain is the same for
 * every a (no branch, no index). test_nist_fe checks it against GMP.
 *   P-256: p - 2 = 1^32 0^31 1 0^96 1^94 0 1 (bits from the top);
 *   P-384: p - 2 = 1^255 0 1^32 0^64 1^30 0 1. */
static void fe_inv(fe r, const fe a)
{
#if VG_NIST_BITS == 256
    fe x2, x4, x8, x16, x32, t;
    FE(sqr)(t, a);
    FE(mul)(x2, t, a);      /* 2^2 - 1 */
    fe_sqr_n(t, x2, 2);
    FE(mul)(x4, t, x2);     /* 2^4 - 1 */
    fe_sqr_n(t, x4, 4);
    FE(mul)(x8, t, x4);     /* 2^8 - 1 */
    fe_sqr_n(t, x8, 8);
    FE(mul)(x16, t, x8);    /* 2^16 - 1 */
    fe_sqr_n(t, x16, 16);
    FE(mul)(x32, t, x16);   /* 2^32 - 1 */
    fe_sqr_n(t, x32, 32);
    FE(mul)(t, t, a);       /* 1^32 0^31 1 */
    fe_sqr_n(t, t, 96);     /* then 0^96 */
    fe_sqr_n(t, t, 32);
    FE(mul)(t, t, x32);     /* 1^32 */
    fe_sqr_n(t, t, 32);
    FE(mul)(t, t, x32);     /* 1^64 */
    fe_sqr_n(t, t, 16);
    FE(mul)(t, t, x16);     /* 1^80 */
    fe_sqr_n(t, t, 8);
    FE(mul)(t, t, x8);      /* 1^88 */
    fe_sqr_n(t, t, 4);
    FE(mul)(t, t, x4);      /* 1^92 */
    fe_sqr_n(t, t, 2);
    FE(mul)(t, t, x2);      /* 1^94 */
    fe_sqr_n(t, t, 2);
    FE(mul)(r, t, a);       /* 0 1 */
    vg_wipe(x2, sizeof x2);
    vg_wipe(x4, sizeof x4);
    vg_wipe(x8, sizeof x8);
    vg_wipe(x16, sizeof x16);
    vg_wipe(x32, sizeof x32);
#else
    fe x2, x3, x15, x30, x32, t, u;
    FE(sqr)(t, a);
    FE(mul)(x2, t, a);      /* 2^2 - 1 */
    FE(sqr)(t, x2);
    FE(mul)(x3, t, a);      /* 2^3 - 1 */
    fe_sqr_n(t, x3, 3);
    FE(mul)(t, t, x3);      /* 2^6 - 1 */
    fe_sqr_n(u, t, 6);
    FE(mul)(t, u, t);       /* 2^12 - 1 */
    fe_sqr_n(t, t, 3);
    FE(mul)(x15, t, x3);    /* 2^15 - 1 */
    fe_sqr_n(t, x15, 15);
    FE(mul)(x30, t, x15);   /* 2^30 - 1 */
    fe_sqr_n(t, x30, 2);
    FE(mul)(x32, t, x2);    /* 2^32 - 1 */
    fe_sqr_n(t, x30, 30);
    FE(mul)(t, t, x30);     /* 2^60 - 1 */
    fe_sqr_n(u, t, 60);
    FE(mul)(t, u, t);       /* 2^120 - 1 */
    fe_sqr_n(u, t, 120);
    FE(mul)(t, u, t);       /* 2^240 - 1 */
    fe_sqr_n(t, t, 15);
    FE(mul)(t, t, x15);     /* 1^255 */
    fe_sqr_n(t, t, 33);
    FE(mul)(t, t, x32);     /* 0 1^32 */
    fe_sqr_n(t, t, 94);
    FE(mul)(t, t, x30);     /* 0^64 1^30 */
    fe_sqr_n(t, t, 2);
    FE(mul)(r, t, a);       /* 0 1 */
    vg_wipe(x2, sizeof x2);
    vg_wipe(x3, sizeof x3);
    vg_wipe(x15, sizeof x15);
    vg_wipe(x30, sizeof x30);
    vg_wipe(x32, sizeof x32);
    vg_wipe(u, sizeof u);
#endif
    vg_wipe(t, sizeof t);
}

/* The same by Bernstein-Yang divsteps (inv_divsteps.h), where the compiler
 * has __int128. Tested against GMP beside fe_inv (test_nist_fe). Timed side
 * by side (the speed rows p256-inv-fermat/..., p256-inv-divsteps/..., one
 * run on the Intel Xeon of docs/benchmarks.md, 2026-12-02, median ticks):
 * P-256 portable 18.7k Fermat chain / 12.6k divsteps, adx 9.6k / 10.5k;
 * P-384 portable 104k / 38.6k, adx 53.5k / 20.7k. So the operations use
 * divsteps where the compiler has __int128, except P-256 adx, whose fast
 * squaring makes the chain the faster (pt_to_affine);
 * -DVG_NIST_INV_FERMAT keeps Fermat everywhere. */
#if defined(__SIZEOF_INT128__)
#define VG_NIST_HAVE_DIVSTEPS 1
#define DS_NAME fe_inv_divsteps
#define DS_NL NL
#define DS_MUL(r, a, b) FE(mul)(r, a, b)
#define DS_ADD(r, a, b) FE(add)(r, a, b)
#define DS_NEG(r, a) FE(neg)(r, a)
#define DS_MOD C(p)
#define DS_K C(divsteps_k_p)
#define DS_BATCHES (VG_NIST_BITS == 256 ? 13 : 19)
#include "inv_divsteps.h"
#endif

/* ---- scalars mod n (ECDSA) ------------------------------------------------ */

typedef uint64_t sc[NL];

/* r = b R mod n for b < n (big-endian bytes). */
static void sc_from_bytes(sc r, const uint8_t b[NB])
{
    uint64_t a[NL];
    limbs_from_bytes(a, b);
    SC_MUL(r, a, C(r2_n));
    vg_wipe(a, sizeof a);
}

static void sc_to_bytes(uint8_t b[NB], const sc a)
{
    static const sc one = {1};
    sc t;
    SC_MUL(t, a, one);
    limbs_to_bytes(b, t);
    vg_wipe(t, sizeof t);
}

/* r = a^(n - 2) = 1 / a mod n (Fermat; n prime), 0 for 0. The exponent is
 * public, so its window indexes the table; a (the nonce) stays secret. */
static void sc_inv_fermat(sc r, const sc a)
{
    sc tab[16], acc;
    memcpy(tab[0], C(n_one_mont), sizeof(sc));
    memcpy(tab[1], a, sizeof(sc));
    for (size_t i = 2; i < 16; i++)
        SC_MUL(tab[i], tab[i - 1], a);
    memcpy(acc, C(n_one_mont), sizeof(sc));
    for (size_t i = NL * 16; i-- > 0;) {
        for (int k = 0; k < 4; k++)
            SC_SQR(acc, acc);
        unsigned nib = (unsigned)(C(n_minus_2)[i / 16] >> (4 * (i % 16))) & 15u;
        SC_MUL(acc, acc, tab[nib]);
    }
    memcpy(r, acc, sizeof(sc));
    vg_wipe(tab, sizeof tab);
    vg_wipe(acc, sizeof acc);
}

/* The same by divsteps where the compiler has __int128 (as the field's:
 * the faster), else Fermat; -DVG_NIST_INV_FERMAT keeps Fermat. The
 * template was included once above for the field: its parameters are
 * redefined for n. */
#if defined(VG_NIST_HAVE_DIVSTEPS)
#undef DS_NAME
#undef DS_NL
#undef DS_MUL
#undef DS_ADD
#undef DS_NEG
#undef DS_MOD
#undef DS_K
#undef DS_BATCHES
#define DS_NAME sc_inv_divsteps
#define DS_NL NL
#define DS_MUL(r, a, b) SC_MUL(r, a, b)
#define DS_ADD(r, a, b) SC_ADD(r, a, b)
#define DS_NEG(r, a) SC_NEG(r, a)
#define DS_MOD C(n)
#define DS_K C(divsteps_k_n)
#define DS_BATCHES (VG_NIST_BITS == 256 ? 13 : 19)
#include "inv_divsteps.h"
#endif

static void sc_inv(sc r, const sc a)
{
#if !defined(VG_NIST_INV_FERMAT) && defined(VG_NIST_HAVE_DIVSTEPS)
    sc_inv_divsteps(r, a);
#else
    sc_inv_fermat(r, a);
#endif
}

/* FIPS 186-5 section 6.4.1 steps 4 and 7: s = k^-1 (e + r d) mod n. Pre:
 * k, r, d, e < n (big-endian), k != 0. Constant time in k and d. */
static void NAME(sign_s)(uint8_t *sb, const uint8_t *kb, const uint8_t *rb, const uint8_t *db,
                         const uint8_t *eb)
{
    sc k, r, d, e, t;
    sc_from_bytes(k, kb);
    sc_from_bytes(r, rb);
    sc_from_bytes(d, db);
    sc_from_bytes(e, eb);
    sc_inv(k, k);
    SC_MUL(t, r, d);
    SC_ADD(t, t, e);
    SC_MUL(t, k, t);
    sc_to_bytes(sb, t);
    vg_wipe(k, sizeof k);
    vg_wipe(d, sizeof d);
    vg_wipe(t, sizeof t);
    vg_wipe(e, sizeof e);
}

/* FIPS 186-5 section 6.4.2 steps 4 and 5: w = s^-1, u1 = e w, u2 = r w
 * mod n. Pre: e, r, s < n, s != 0. Public inputs. */
static void NAME(verify_u)(uint8_t *u1b, uint8_t *u2b, const uint8_t *eb, const uint8_t *rb,
                           const uint8_t *sb)
{
    sc e, r, w, u;
    sc_from_bytes(e, eb);
    sc_from_bytes(r, rb);
    sc_from_bytes(w, sb);
    sc_inv(w, w);
    SC_MUL(u, e, w);
    sc_to_bytes(u1b, u);
    SC_MUL(u, r, w);
    sc_to_bytes(u2b, u);
}

/* ---- point formulas (RCB 2016, a = -3) ---------------------------------- */

static void pt_set_identity(pt *r)
{
    memset(r->x, 0, sizeof(fe));
    fe_copy(r->y, C(one_mont));
    memset(r->z, 0, sizeof(fe));
}

/* Algorithm 4: r = p + q, complete. r may alias p or q. 12M + 2 m_b. */
static void pt_add(pt *r, const pt *p, const pt *q)
{
    fe t0, t1, t2, t3, t4, x3, y3, z3;
    const uint64_t *b = C(b_mont);
    FE(mul)(t0, p->x, q->x);  /* 1 */
    FE(mul)(t1, p->y, q->y);  /* 2 */
    FE(mul)(t2, p->z, q->z);  /* 3 */
    FE(add)(t3, p->x, p->y);  /* 4 */
    FE(add)(t4, q->x, q->y);  /* 5 */
    FE(mul)(t3, t3, t4);      /* 6 */
    FE(add)(t4, t0, t1);      /* 7 */
    FE(sub)(t3, t3, t4);      /* 8 */
    FE(add)(t4, p->y, p->z);  /* 9 */
    FE(add)(x3, q->y, q->z);  /* 10 */
    FE(mul)(t4, t4, x3);      /* 11 */
    FE(add)(x3, t1, t2);      /* 12 */
    FE(sub)(t4, t4, x3);      /* 13 */
    FE(add)(x3, p->x, p->z);  /* 14 */
    FE(add)(y3, q->x, q->z);  /* 15 */
    FE(mul)(x3, x3, y3);      /* 16 */
    FE(add)(y3, t0, t2);      /* 17 */
    FE(sub)(y3, x3, y3);      /* 18 */
    FE(mul)(z3, b, t2);       /* 19 */
    FE(sub)(x3, y3, z3);      /* 20 */
    FE(add)(z3, x3, x3);      /* 21 */
    FE(add)(x3, x3, z3);      /* 22 */
    FE(sub)(z3, t1, x3);      /* 23 */
    FE(add)(x3, t1, x3);      /* 24 */
    FE(mul)(y3, b, y3);       /* 25 */
    FE(add)(t1, t2, t2);      /* 26 */
    FE(add)(t2, t1, t2);      /* 27 */
    FE(sub)(y3, y3, t2);      /* 28 */
    FE(sub)(y3, y3, t0);      /* 29 */
    FE(add)(t1, y3, y3);      /* 30 */
    FE(add)(y3, t1, y3);      /* 31 */
    FE(add)(t1, t0, t0);      /* 32 */
    FE(add)(t0, t1, t0);      /* 33 */
    FE(sub)(t0, t0, t2);      /* 34 */
    FE(mul)(t1, t4, y3);      /* 35 */
    FE(mul)(t2, t0, y3);      /* 36 */
    FE(mul)(y3, x3, z3);      /* 37 */
    FE(add)(y3, y3, t2);      /* 38 */
    FE(mul)(x3, t3, x3);      /* 39 */
    FE(sub)(x3, x3, t1);      /* 40 */
    FE(mul)(z3, t4, z3);      /* 41 */
    FE(mul)(t1, t3, t0);      /* 42 */
    FE(add)(z3, z3, t1);      /* 43 */
    fe_copy(r->x, x3);
    fe_copy(r->y, y3);
    fe_copy(r->z, z3);
}

/* Algorithm 5: r = p + q with q affine (not the identity), complete
 * otherwise. r may alias p. 11M + 2 m_b. */
static void pt_add_mixed(pt *r, const pt *p, const pt_aff *q)
{
    fe t0, t1, t2, t3, t4, x3, y3, z3;
    const uint64_t *b = C(b_mont);
    FE(mul)(t0, p->x, q->x);  /* 1 */
    FE(mul)(t1, p->y, q->y);  /* 2 */
    FE(add)(t3, q->x, q->y);  /* 3 */
    FE(add)(t4, p->x, p->y);  /* 4 */
    FE(mul)(t3, t3, t4);      /* 5 */
    FE(add)(t4, t0, t1);      /* 6 */
    FE(sub)(t3, t3, t4);      /* 7 */
    FE(mul)(t4, q->y, p->z);  /* 8 */
    FE(add)(t4, t4, p->y);    /* 9 */
    FE(mul)(y3, q->x, p->z);  /* 10 */
    FE(add)(y3, y3, p->x);    /* 11 */
    FE(mul)(z3, b, p->z);     /* 12 */
    FE(sub)(x3, y3, z3);      /* 13 */
    FE(add)(z3, x3, x3);      /* 14 */
    FE(add)(x3, x3, z3);      /* 15 */
    FE(sub)(z3, t1, x3);      /* 16 */
    FE(add)(x3, t1, x3);      /* 17 */
    FE(mul)(y3, b, y3);       /* 18 */
    FE(add)(t1, p->z, p->z);  /* 19 */
    FE(add)(t2, t1, p->z);    /* 20 */
    FE(sub)(y3, y3, t2);      /* 21 */
    FE(sub)(y3, y3, t0);      /* 22 */
    FE(add)(t1, y3, y3);      /* 23 */
    FE(add)(y3, t1, y3);      /* 24 */
    FE(add)(t1, t0, t0);      /* 25 */
    FE(add)(t0, t1, t0);      /* 26 */
    FE(sub)(t0, t0, t2);      /* 27 */
    FE(mul)(t1, t4, y3);      /* 28 */
    FE(mul)(t2, t0, y3);      /* 29 */
    FE(mul)(y3, x3, z3);      /* 30 */
    FE(add)(y3, y3, t2);      /* 31 */
    FE(mul)(x3, t3, x3);      /* 32 */
    FE(sub)(x3, x3, t1);      /* 33 */
    FE(mul)(z3, t4, z3);      /* 34 */
    FE(mul)(t1, t3, t0);      /* 35 */
    FE(add)(z3, z3, t1);      /* 36 */
    fe_copy(r->x, x3);
    fe_copy(r->y, y3);
    fe_copy(r->z, z3);
}

/* Algorithm 6: r = 2 p, complete. r may alias p. 8M + 3S + 2 m_b. */
static void pt_dbl(pt *r, const pt *p)
{
    fe t0, t1, t2, t3, x3, y3, z3;
    const uint64_t *b = C(b_mont);
    FE(sqr)(t0, p->x);        /* 1 */
    FE(sqr)(t1, p->y);        /* 2 */
    FE(sqr)(t2, p->z);        /* 3 */
    FE(mul)(t3, p->x, p->y);  /* 4 */
    FE(add)(t3, t3, t3);      /* 5 */
    FE(mul)(z3, p->x, p->z);  /* 6 */
    FE(add)(z3, z3, z3);      /* 7 */
    FE(mul)(y3, b, t2);       /* 8 */
    FE(sub)(y3, y3, z3);      /* 9 */
    FE(add)(x3, y3, y3);      /* 10 */
    FE(add)(y3, x3, y3);      /* 11 */
    FE(sub)(x3, t1, y3);      /* 12 */
    FE(add)(y3, t1, y3);      /* 13 */
    FE(mul)(y3, x3, y3);      /* 14 */
    FE(mul)(x3, x3, t3);      /* 15 */
    FE(add)(t3, t2, t2);      /* 16 */
    FE(add)(t2, t2, t3);      /* 17 */
    FE(mul)(z3, b, z3);       /* 18 */
    FE(sub)(z3, z3, t2);      /* 19 */
    FE(sub)(z3, z3, t0);      /* 20 */
    FE(add)(t3, z3, z3);      /* 21 */
    FE(add)(z3, z3, t3);      /* 22 */
    FE(add)(t3, t0, t0);      /* 23 */
    FE(add)(t0, t3, t0);      /* 24 */
    FE(sub)(t0, t0, t2);      /* 25 */
    FE(mul)(t0, t0, z3);      /* 26 */
    FE(add)(y3, y3, t0);      /* 27 */
    FE(mul)(t0, p->y, p->z);  /* 28 */
    FE(add)(t0, t0, t0);      /* 29 */
    FE(mul)(z3, t0, z3);      /* 30 */
    FE(sub)(x3, x3, z3);      /* 31 */
    FE(mul)(z3, t0, t1);      /* 32 */
    FE(add)(z3, z3, z3);      /* 33 */
    FE(add)(z3, z3, z3);      /* 34 */
    fe_copy(r->x, x3);
    fe_copy(r->y, y3);
    fe_copy(r->z, z3);
}

/* ---- Jacobian doubling runs ------------------------------------------------
 * The windowed multiplications spend most of their time in runs of
 * doublings between two additions. Algorithm 6 costs 8M + 3S and about 20
 * additions; in Jacobian coordinates (x = X / Z^2, y = Y / Z^3) a doubling
 * with a = -3 costs 3M + 5S and about a dozen additions (Bernstein-Lange,
 * Explicit-Formulas Database, dbl-2001-b). A run therefore converts the
 * projective accumulator to Jacobian (2M + 1S), doubles there, and converts
 * back (2M + 1S) before the complete addition.
 *
 * Exceptional cases: dbl-2001-b is correct for every affine point with
 * y != 0, and the prime-order curves have no point of order 2, so no
 * affine point has y = 0. The identity is kept as (1 : 1 : 0) (any
 * (l^2 : l^3 : 0) with l != 0): doubling maps it to (1 : 1 : 0) again, and
 * the conversion back gives (0 : Y : 0) with Y != 0, the projective
 * identity. So no case depends on the scalar, and nothing branches. */
typedef struct {
    fe x, y, z;
} ptj;

/* Projective (X : Y : Z) to Jacobian (X Z, Y Z^2, Z): X Z / Z^2 = X / Z and
 * Y Z^2 / Z^3 = Y / Z. The identity (Z = 0) becomes (1, 1, 0). */
static void pt_to_jac(ptj *r, const pt *p)
{
    fe z2;
    uint64_t inf = fe_is_zero(p->z);
    FE(sqr)(z2, p->z);
    FE(mul)(r->x, p->x, p->z);
    FE(mul)(r->y, p->y, z2);
    fe_copy(r->z, p->z);
    fe_cmov(r->x, C(one_mont), inf);
    fe_cmov(r->y, C(one_mont), inf);
}

/* Jacobian (X, Y, Z) to projective (X Z : Y : Z^3): X Z / Z^3 = X / Z^2 and
 * Y / Z^3. A Jacobian identity (Y != 0, Z = 0) gives (0 : Y : 0). */
static void jac_to_pt(pt *r, const ptj *p)
{
    fe z2;
    FE(sqr)(z2, p->z);
    FE(mul)(r->x, p->x, p->z);
    fe_copy(r->y, p->y);
    FE(mul)(r->z, z2, p->z);
}

/* r = 2 p in Jacobian coordinates, a = -3 (dbl-2001-b): delta = Z^2,
 * gamma = Y^2, beta = X gamma, alpha = 3 (X - delta)(X + delta),
 * X3 = alpha^2 - 8 beta, Z3 = (Y + Z)^2 - gamma - delta,
 * Y3 = alpha (4 beta - X3) - 8 gamma^2. r may alias p. 4M + 4S (below). */
#if VG_NIST_BITS == 256
/* P-256 only: on P-384 this shape measured far slower (docs/benchmarks.md,
 * issue 16 section), not yet understood; P-384 keeps 3M + 5S below. */
static void ptj_dbl(ptj *r, const ptj *p)
{
    /* Arranged for fewer additions (12 instead of 16) at the price of one
     * squaring turned into a multiplication (4M + 4S): with g2 = 2 gamma,
     * 4 beta = 2 (X g2), 8 gamma^2 = 2 g2^2, Z3 = 2 Y Z (the same value as
     * (Y + Z)^2 - gamma - delta). */
    fe delta, g2, b4, alpha, t, u, x3, y3, z3;
    FE(sqr)(delta, p->z);
    FE(sqr)(g2, p->y);
    FE(add)(g2, g2, g2);           /* 2 gamma */
    FE(mul)(b4, p->x, g2);
    FE(add)(b4, b4, b4);           /* 4 beta */
    FE(sub)(t, p->x, delta);
    FE(add)(u, p->x, delta);
    FE(mul)(alpha, t, u);
    FE(add)(t, alpha, alpha);
    FE(add)(alpha, t, alpha);      /* 3 (X - delta)(X + delta) */
    FE(mul)(z3, p->y, p->z);
    FE(add)(z3, z3, z3);           /* 2 Y Z */
    FE(sqr)(x3, alpha);
    FE(add)(u, b4, b4);
    FE(sub)(x3, x3, u);            /* alpha^2 - 8 beta */
    FE(sub)(t, b4, x3);
    FE(mul)(y3, alpha, t);
    FE(sqr)(g2, g2);
    FE(add)(g2, g2, g2);           /* 8 gamma^2 */
    FE(sub)(y3, y3, g2);
    fe_copy(r->x, x3);
    fe_copy(r->y, y3);
    fe_copy(r->z, z3);
}
#else
static void ptj_dbl(ptj *r, const ptj *p)
{
    fe delta, gamma, beta, alpha, t, u, x3, y3, z3;
    FE(sqr)(delta, p->z);
    FE(sqr)(gamma, p->y);
    FE(mul)(beta, p->x, gamma);
    FE(sub)(t, p->x, delta);
    FE(add)(u, p->x, delta);
    FE(mul)(alpha, t, u);
    FE(add)(t, alpha, alpha);
    FE(add)(alpha, t, alpha);
    FE(add)(t, p->y, p->z);
    FE(sqr)(t, t);
    FE(sub)(t, t, gamma);
    FE(sub)(z3, t, delta);
    FE(add)(beta, beta, beta);
    FE(add)(beta, beta, beta); /* 4 beta */
    FE(sqr)(x3, alpha);
    FE(add)(u, beta, beta);
    FE(sub)(x3, x3, u);
    FE(sub)(t, beta, x3);
    FE(mul)(y3, alpha, t);
    FE(sqr)(gamma, gamma);
    FE(add)(gamma, gamma, gamma);
    FE(add)(gamma, gamma, gamma);
    FE(add)(gamma, gamma, gamma); /* 8 gamma^2 */
    FE(sub)(y3, y3, gamma);
    fe_copy(r->x, x3);
    fe_copy(r->y, y3);
    fe_copy(r->z, z3);
}
#endif

/* r = 2^n p through Jacobian coordinates (n >= 1); r may alias p. */
static void pt_dbl_n(pt *r, const pt *p, unsigned n)
{
    ptj j;
    pt_to_jac(&j, p);
    for (unsigned i = 0; i < n; i++)
        ptj_dbl(&j, &j);
    jac_to_pt(r, &j);
    vg_wipe(&j, sizeof j);
}

static void pt_cmov(pt *r, const pt *a, uint64_t mask)
{
    fe_cmov(r->x, a->x, mask);
    fe_cmov(r->y, a->y, mask);
    fe_cmov(r->z, a->z, mask);
}

/* ---- Jacobian additions without exceptional cases (constant time) --------
 * The general Jacobian formulas (add-2007-bl, madd-2007-bl of the
 * Explicit-Formulas Database; ptj_add_vt / ptj_madd_vt below run the same
 * halves with their branches between them) are wrong only when an input is the identity or
 * the inputs are equal or opposite (H = 0). The windowed multiplications
 * below call them only where none of these can happen, whatever the
 * scalar; the argument is at each caller, and the identity is tracked by a
 * mask beside the accumulator (then kept as (1, 1, 0), which ptj_dbl maps
 * to itself and jac_to_pt to the projective identity). The last window of
 * each multiplication, the only one where an exception is possible, goes
 * through the complete formulas (RCB) instead. */

static void ptj_set_identity(ptj *r)
{
    fe_copy(r->x, C(one_mont));
    fe_copy(r->y, C(one_mont));
    memset(r->z, 0, sizeof(fe));
}

static void ptj_cmov(ptj *r, const ptj *a, uint64_t mask)
{
    fe_cmov(r->x, a->x, mask);
    fe_cmov(r->y, a->y, mask);
    fe_cmov(r->z, a->z, mask);
}

/* add-2007-bl in two halves, so that ptj_add_vt can test H and rr between
 * them: the head computes Z1^2, Z2^2, U1 = X1 Z2^2, S1 = Y1 Z2^3,
 * H = U2 - U1 and rr = S2 - S1 (not yet doubled). */
static inline void ptj_add_head(fe z1z1, fe z2z2, fe u1, fe s1, fe h, fe rr, const ptj *p,
                                const ptj *q)
{
    fe u2, s2;
    FE(sqr)(z1z1, p->z);
    FE(sqr)(z2z2, q->z);
    FE(mul)(u1, p->x, z2z2);
    FE(mul)(u2, q->x, z1z1);
    FE(mul)(s1, p->y, q->z);
    FE(mul)(s1, s1, z2z2);
    FE(mul)(s2, q->y, p->z);
    FE(mul)(s2, s2, z1z1);
    FE(sub)(h, u2, u1);
    FE(sub)(rr, s2, s1);
}

/* The rest of add-2007-bl from the head's values (rr is overwritten).
 * r may alias p or q. */
static inline void ptj_add_tail(ptj *r, const ptj *p, const ptj *q, const fe z1z1,
                                const fe z2z2, const fe u1, const fe s1, const fe h, fe rr)
{
    fe i, j, v, t, x3, y3, z3;
    FE(add)(rr, rr, rr);
    FE(add)(i, h, h);
    FE(sqr)(i, i);
    FE(mul)(j, h, i);
    FE(mul)(v, u1, i);
    FE(sqr)(x3, rr);
    FE(sub)(x3, x3, j);
    FE(add)(t, v, v);
    FE(sub)(x3, x3, t);
    FE(sub)(t, v, x3);
    FE(mul)(y3, rr, t);
    FE(mul)(t, s1, j);
    FE(add)(t, t, t);
    FE(sub)(y3, y3, t);
    FE(add)(z3, p->z, q->z);
    FE(sqr)(z3, z3);
    FE(add)(t, z1z1, z2z2);
    FE(sub)(z3, z3, t);
    FE(mul)(z3, z3, h);
    fe_copy(r->x, x3);
    fe_copy(r->y, y3);
    fe_copy(r->z, z3);
}

/* r = p + q, Jacobian (add-2007-bl, 11M + 5S). Pre: p, q not the
 * identity, p != +-q. r may alias p or q. */
static void ptj_add_ct(ptj *r, const ptj *p, const ptj *q)
{
    fe z1z1, z2z2, u1, s1, h, rr;
    ptj_add_head(z1z1, z2z2, u1, s1, h, rr, p, q);
    ptj_add_tail(r, p, q, z1z1, z2z2, u1, s1, h, rr);
}

/* madd-2007-bl in two halves (as ptj_add_head / ptj_add_tail): the head
 * computes Z1^2, H = X2 Z1^2 - X1 and rr = Y2 Z1^3 - Y1 (not yet doubled). */
static inline void ptj_madd_head(fe z1z1, fe h, fe rr, const ptj *p, const pt_aff *q)
{
    fe u2, s2;
    FE(sqr)(z1z1, p->z);
    FE(mul)(u2, q->x, z1z1);
    FE(mul)(s2, q->y, p->z);
    FE(mul)(s2, s2, z1z1);
    FE(sub)(h, u2, p->x);
    FE(sub)(rr, s2, p->y);
}

/* The rest of madd-2007-bl (rr is overwritten). r may alias p. */
static inline void ptj_madd_tail(ptj *r, const ptj *p, const fe z1z1, const fe h, fe rr)
{
    fe hh, i, j, v, t, x3, y3, z3;
    FE(add)(rr, rr, rr);
    FE(sqr)(hh, h);
    FE(add)(i, hh, hh);
    FE(add)(i, i, i);
    FE(mul)(j, h, i);
    FE(mul)(v, p->x, i);
    FE(sqr)(x3, rr);
    FE(sub)(x3, x3, j);
    FE(add)(t, v, v);
    FE(sub)(x3, x3, t);
    FE(sub)(t, v, x3);
    FE(mul)(y3, rr, t);
    FE(mul)(t, p->y, j);
    FE(add)(t, t, t);
    FE(sub)(y3, y3, t);
    FE(add)(z3, p->z, h);
    FE(sqr)(z3, z3);
    FE(add)(t, z1z1, hh);
    FE(sub)(z3, z3, t);
    fe_copy(r->x, x3);
    fe_copy(r->y, y3);
    fe_copy(r->z, z3);
}

/* r = p + q, Jacobian + affine (madd-2007-bl, 7M + 4S). Pre: p not the
 * identity, p != +-q (q affine is never the identity). r may alias p. */
static void ptj_madd_ct(ptj *r, const ptj *p, const pt_aff *q)
{
    fe z1z1, h, rr;
    ptj_madd_head(z1z1, h, rr, p, q);
    ptj_madd_tail(r, p, z1z1, h, rr);
}

/* x (and y when y != NULL) of the affine form of p; returns all-ones when
 * p is the identity (outputs are then 0). */
static uint64_t pt_to_affine(fe x, fe y, const pt *p)
{
    fe zi;
#if !defined(VG_NIST_INV_FERMAT) && defined(VG_NIST_HAVE_DIVSTEPS) &&                           \
        !(VG_NIST_BITS == 256 && VG_NIST_FE_ID == 2)
    fe_inv_divsteps(zi, p->z); /* the faster here (see fe_inv_divsteps) */
#else
    fe_inv(zi, p->z); /* P-256 adx: the chain is the faster (see fe_inv_divsteps) */
#endif
    FE(mul)(x, p->x, zi);
    if (y)
        FE(mul)(y, p->y, zi);
    return fe_is_zero(p->z);
}

/* On the curve: y^2 = x^3 - 3 x + b (Montgomery-form inputs), all-ones if so. */
static uint64_t aff_on_curve(const fe x, const fe y)
{
    fe l, r, t;
    FE(sqr)(l, y);
    FE(sqr)(r, x);
    FE(mul)(r, r, x);
    FE(add)(t, x, x);
    FE(add)(t, t, x);
    FE(sub)(r, r, t);
    FE(add)(r, r, C(b_mont));
    FE(sub)(l, l, r);
    return fe_is_zero(l);
}

/* ---- scalar recoding ----------------------------------------------------- */

/* Signed window digits of k (big-endian NB bytes, k < 2^(8 NB)):
 * k = sum d[i] 2^(w i), -2^(w-1) <= d[i] <= 2^(w-1), i < nwin. Constant
 * time: the windows' positions depend on i only. Pre: nwin w >= 8 NB + 1 or
 * the top window cannot carry out (true for both curves' tables, see
 * tools/gen_nist_tables.c, and for W5 below since n < 2^(8 NB)). */
static void recode_signed(int8_t *d, const uint8_t k[NB], unsigned w, size_t nwin)
{
    uint32_t carry = 0;
    for (size_t i = 0; i < nwin; i++) {
        size_t bit = w * i;
        uint32_t v = 0;
        for (unsigned j = 0; j < w; j++) {
            size_t bj = bit + j;
            if (bj < 8 * NB) /* public position */
                v |= (uint32_t)((k[NB - 1 - bj / 8] >> (bj % 8)) & 1u) << j;
        }
        v += carry;
        /* c = 1 when v > 2^(w-1): the digit becomes v - 2^w, carry 1. */
        uint32_t c = ((1u << (w - 1)) - v) >> 31;
        c = vg_barrier_u32(c);
        d[i] = (int8_t)(int32_t)(v - (c << w));
        carry = c;
    }
}

/* |d| and all-ones when d < 0, without a branch. */
static uint32_t digit_abs(int8_t d, uint64_t *neg)
{
    uint32_t u = (uint32_t)(int32_t)d;
    uint32_t s = vg_barrier_u32(u >> 31);
    *neg = 0 - (uint64_t)s;
    return (u ^ (0 - s)) + s;
}

/* ---- fixed base [k]G ---------------------------------------------------- */

static const pt_aff *base_entry(size_t i, size_t j)
{
    return (const pt_aff *)(const void *)C(base_table)[i][j];
}

/* r = entry |d| - 1 of window i, negated when d < 0; returns all-ones when
 * d == 0 (r is then entry 0 and must not be used). Scans the whole row. */
static uint64_t base_lookup(pt_aff *r, size_t i, int8_t d)
{
    uint64_t neg;
    uint32_t a = digit_abs(d, &neg);
    memset(r, 0, sizeof *r);
    for (size_t j = 0; j < TSIZE; j++) {
        uint64_t m = vg_ct_mask_eq_u64(a, (uint64_t)j + 1);
        fe_cmov(r->x, base_entry(i, j)->x, m);
        fe_cmov(r->y, base_entry(i, j)->y, m);
    }
    fe ny;
    FE(neg)(ny, r->y);
    fe_cmov(r->y, ny, neg);
    return vg_ct_mask_eq_u64(a, 0);
}

/* [k]G = sum d[i] 2^(W i) G by one addition per window, no doubling.
 * Windows 0 .. NWIN - 2 add into a Jacobian accumulator with ptj_madd_ct,
 * which cannot meet an exception: before window l the accumulator is
 * [A]G, A = sum_{i<l} d[i] 2^(W i), |A| <= 2^(W-1) (2^(W l) - 1) / (2^W - 1)
 * < 2^(W l - 1), and the entry is [B]G, B = d[l] 2^(W l), 1 <= |d[l]| <=
 * 2^(W-1). A = 0 as an integer exactly when every digit so far is 0 (the
 * top nonzero digit outweighs the rest), which the mask inf tracks; when
 * A != 0, 0 < |A| < n, so [A]G is not the identity; and 0 < |B| - |A| <=
 * |A +- B| < 2^(W l + W - 1) + 2^(W l - 1) < n for l <= NWIN - 2 (P-256:
 * W l + W - 1 <= 254, P-384: <= 379), so [A]G != +-[B]G. That holds for
 * every k < 2^(8 NB), with no condition on k. The last window, where
 * |A +- B| can reach n, goes through the complete Algorithm 5 (complete
 * for any accumulator, the identity included). */
static void base_mul_pt(pt *r, const uint8_t k[NB])
{
    int8_t d[NWIN];
    ptj acc, t;
    pt accp, s;
    pt_aff q;
    uint64_t inf = ~(uint64_t)0;
    recode_signed(d, k, W, NWIN);
    ptj_set_identity(&acc);
    for (size_t i = 0; i + 1 < NWIN; i++) {
        uint64_t zero = base_lookup(&q, i, d[i]);
        ptj_madd_ct(&t, &acc, &q);
        /* acc the identity: the sum is q itself */
        fe_cmov(t.x, q.x, inf);
        fe_cmov(t.y, q.y, inf);
        fe_cmov(t.z, C(one_mont), inf);
        /* digit 0: keep acc (the identity (1, 1, 0) too) */
        ptj_cmov(&acc, &t, ~zero);
        inf &= zero;
    }
    jac_to_pt(&accp, &acc); /* the identity (1, 1, 0) becomes (0 : 1 : 0) */
    uint64_t zero = base_lookup(&q, NWIN - 1, d[NWIN - 1]);
    pt_add_mixed(&s, &accp, &q);
    /* digit 0: keep acc (Algorithm 5 cannot add the identity). */
    pt_cmov(&accp, &s, ~zero);
    *r = accp;
    vg_wipe(d, sizeof d);
    vg_wipe(&t, sizeof t);
    vg_wipe(&s, sizeof s);
    vg_wipe(&q, sizeof q);
    vg_wipe(&acc, sizeof acc);
    vg_wipe(&accp, sizeof accp);
    vg_wipe(&inf, sizeof inf);
}

static void NAME(base_mul)(uint8_t *xy, const uint8_t *k)
{
    pt p;
    fe x, y;
    base_mul_pt(&p, k);
    (void)pt_to_affine(x, y, &p);
    fe_to_bytes(xy, x);
    fe_to_bytes(xy + NB, y);
    vg_wipe(&p, sizeof p);
    vg_wipe(x, sizeof x);
    vg_wipe(y, sizeof y);
}

/* ---- variable base [k]P, constant time --------------------------------- */

#define VW 5
#define VWIN ((8 * NB + VW - 1) / VW) /* 52 (P-256), 77 (P-384): no carry out */
#define VTSIZE (1 << (VW - 1))

/* r = entry |d| - 1 of tab, negated when d < 0; the identity (1, 1, 0)
 * when d == 0. Scans the whole table. Returns all-ones when d == 0. */
static uint64_t var_lookup(ptj *r, const ptj tab[VTSIZE], int8_t d)
{
    uint64_t neg;
    uint32_t a = digit_abs(d, &neg);
    ptj_set_identity(r);
    for (size_t j = 0; j < VTSIZE; j++)
        ptj_cmov(r, &tab[j], vg_ct_mask_eq_u64(a, (uint64_t)j + 1));
    fe ny;
    FE(neg)(ny, r->y);
    fe_cmov(r->y, ny, neg);
    return vg_ct_mask_eq_u64(a, 0);
}

/* [k]P by signed windows of VW bits from the top, in Jacobian coordinates.
 * The table tab[j] = [j + 1]P is built by one doubling and ptj_add_ct:
 * [j]P + P with 2 <= j <= 15 is never an exception (P has prime order
 * n > 17, so [j]P != +-P and neither is the identity).
 * Windows VWIN - 2 .. 1 add [d]P to acc = [A]P after the doublings, where
 * A = sum_{i'>i} d[i'] 2^(VW (i' - i)) and A 2^(VW i) = k - L with
 * |L| < 2^(VW i - 1) (the lower digits), so |A| < k / 2^(VW i) + 1 <= n / 32 + 1
 * for i >= 1 and k < 2^(8 NB). A = 0 exactly when every digit so far is 0
 * (mask inf; acc is then (1, 1, 0)); otherwise |A| >= 2^VW = 32 > 16 >= |d|,
 * so 0 < |A| - |d| <= |A +- d| < n: [A]P is not the identity and not
 * +-[d]P, and ptj_add_ct meets no exception, for every k. Window 0 (where
 * A +- d can be 0 mod n, e.g. k = 2 d) goes through the complete
 * Algorithm 4. */
static void var_mul_pt(pt *r, const pt_aff *p, const uint8_t k[NB])
{
    ptj tab[VTSIZE], acc, t, s;
    pt accp, tp;
    int8_t d[VWIN];
    fe_copy(tab[0].x, p->x);
    fe_copy(tab[0].y, p->y);
    fe_copy(tab[0].z, C(one_mont));
    ptj_dbl(&tab[1], &tab[0]);
    for (size_t j = 2; j < VTSIZE; j++)
        ptj_add_ct(&tab[j], &tab[j - 1], &tab[0]);
    recode_signed(d, k, VW, VWIN);
    uint64_t inf = var_lookup(&acc, tab, d[VWIN - 1]);
    for (size_t i = VWIN - 1; i-- > 1;) {
        for (unsigned b = 0; b < VW; b++)
            ptj_dbl(&acc, &acc);
        uint64_t zero = var_lookup(&t, tab, d[i]);
        ptj_add_ct(&s, &acc, &t);
        ptj_cmov(&s, &t, inf);     /* acc the identity: the sum is t */
        ptj_cmov(&s, &acc, zero);  /* digit 0: keep acc */
        acc = s;
        inf &= zero;
    }
    for (unsigned b = 0; b < VW; b++)
        ptj_dbl(&acc, &acc);
    jac_to_pt(&accp, &acc); /* the identity (1, 1, 0) becomes (0 : 1 : 0) */
    (void)var_lookup(&t, tab, d[0]);
    jac_to_pt(&tp, &t);
    pt_add(&accp, &accp, &tp);
    *r = accp;
    vg_wipe(tab, sizeof tab);
    vg_wipe(&acc, sizeof acc);
    vg_wipe(&t, sizeof t);
    vg_wipe(&s, sizeof s);
    vg_wipe(&accp, sizeof accp);
    vg_wipe(&tp, sizeof tp);
    vg_wipe(d, sizeof d);
    vg_wipe(&inf, sizeof inf);
}

/* Affine xy bytes (already validated) to Montgomery form. */
static void aff_from_bytes(pt_aff *a, const uint8_t *xy)
{
    (void)fe_from_bytes(a->x, xy);
    (void)fe_from_bytes(a->y, xy + NB);
}

static int NAME(ecdh)(uint8_t *x, const uint8_t *k, const uint8_t *xy)
{
    pt_aff p;
    pt r;
    fe rx;
    aff_from_bytes(&p, xy);
    var_mul_pt(&r, &p, k);
    uint64_t inf = pt_to_affine(rx, NULL, &r);
    fe_to_bytes(x, rx);
    /* The verdict is public: the caller returns it (SEC 1 3.3.1 step 2). */
    VG_CT_DECLASSIFY(&inf, sizeof inf);
    int rc = VG_OK;
    if (inf) {
        vg_wipe(x, NB);
        rc = VG_ERR_INPUT;
    }
    vg_wipe(&r, sizeof r);
    vg_wipe(rx, sizeof rx);
    return rc;
}

/* ---- point decoding (public data) ---------------------------------------- */

static int NAME(decode_point)(uint8_t *xy, const uint8_t *in, size_t len)
{
    fe x, y, t, rhs;
    if (len == 1 + 2 * NB && in[0] == 0x04) {
        uint64_t okx = fe_from_bytes(x, in + 1);
        uint64_t oky = fe_from_bytes(y, in + 1 + NB);
        if (!(okx & oky) || !aff_on_curve(x, y))
            return VG_ERR_INPUT;
        memcpy(xy, in + 1, 2 * NB);
        return VG_OK;
    }
    if (len == 1 + NB && (in[0] == 0x02 || in[0] == 0x03)) {
        if (!fe_from_bytes(x, in + 1))
            return VG_ERR_INPUT;
        /* rhs = x^3 - 3 x + b; y = rhs^((p+1)/4) is a root when one exists
         * (p = 3 mod 4). */
        FE(sqr)(rhs, x);
        FE(mul)(rhs, rhs, x);
        FE(add)(t, x, x);
        FE(add)(t, t, x);
        FE(sub)(rhs, rhs, t);
        FE(add)(rhs, rhs, C(b_mont));
        fe_pow(y, rhs, C(p_sqrt_exp));
        FE(sqr)(t, y);
        FE(sub)(t, t, rhs);
        if (!fe_is_zero(t))
            return VG_ERR_INPUT;
        uint8_t yb[NB];
        fe_to_bytes(yb, y);
        if ((yb[NB - 1] & 1u) != (in[0] & 1u)) {
            if (fe_is_zero(y))
                return VG_ERR_INPUT; /* y = 0 has no odd form */
            FE(neg)(y, y);
            fe_to_bytes(yb, y);
        }
        memcpy(xy, in + 1, NB);
        memcpy(xy + NB, yb, NB);
        return VG_OK;
    }
    return VG_ERR_INPUT;
}

/* ---- verification: [u1]G + [u2]Q, variable time ----------------------- */

/* Jacobian additions for verification only: every input is public (the
 * scalars u1, u2, G's table, the public key), so these formulas branch on
 * their exceptional cases, which the complete formulas above avoid at a
 * higher cost. The identity is any Jacobian point with Z = 0 (ptj_dbl keeps
 * Z = 0); a result that is the identity is (1, 1, 0). */

/* r = p + q, Jacobian + Jacobian (add-2007-bl of the Explicit-Formulas
 * Database, 11M + 5S): U1 = X1 Z2^2, U2 = X2 Z1^2, S1 = Y1 Z2^3,
 * S2 = Y2 Z1^3, H = U2 - U1, I = (2H)^2, J = H I, rr = 2 (S2 - S1),
 * V = U1 I, X3 = rr^2 - J - 2V, Y3 = rr (V - X3) - 2 S1 J,
 * Z3 = ((Z1 + Z2)^2 - Z1^2 - Z2^2) H. Exceptions (public): p or q the
 * identity; H = 0, which is p = q (rr = 0: doubling) or p = -q (the
 * identity). r may alias p or q. Variable time. */
static void ptj_add_vt(ptj *r, const ptj *p, const ptj *q)
{
    if (fe_is_zero(p->z)) {
        *r = *q;
        return;
    }
    if (fe_is_zero(q->z)) {
        *r = *p;
        return;
    }
    fe z1z1, z2z2, u1, s1, h, rr;
    ptj_add_head(z1z1, z2z2, u1, s1, h, rr, p, q);
    if (fe_is_zero(h)) {
        if (fe_is_zero(rr))
            ptj_dbl(r, p);
        else
            ptj_set_identity(r);
        return;
    }
    ptj_add_tail(r, p, q, z1z1, z2z2, u1, s1, h, rr);
}

/* r = p + q, Jacobian + affine (madd-2007-bl, 7M + 4S): U2 = X2 Z1^2,
 * S2 = Y2 Z1^3, H = U2 - X1, HH = H^2, I = 4 HH, J = H I,
 * rr = 2 (S2 - Y1), V = X1 I, X3 = rr^2 - J - 2V,
 * Y3 = rr (V - X3) - 2 Y1 J, Z3 = (Z1 + H)^2 - Z1^2 - HH. q is an affine
 * point of the curve (never the identity). Exceptions as ptj_add_vt.
 * r may alias p. Variable time. */
static void ptj_madd_vt(ptj *r, const ptj *p, const pt_aff *q)
{
    if (fe_is_zero(p->z)) {
        fe_copy(r->x, q->x);
        fe_copy(r->y, q->y);
        fe_copy(r->z, C(one_mont));
        return;
    }
    fe z1z1, h, rr;
    ptj_madd_head(z1z1, h, rr, p, q);
    if (fe_is_zero(h)) {
        if (fe_is_zero(rr))
            ptj_dbl(r, p);
        else
            ptj_set_identity(r);
        return;
    }
    ptj_madd_tail(r, p, z1z1, h, rr);
}

/* wNAF of k (public): k = sum naf[i] 2^i, naf[i] odd in (-2^w, 2^w) or 0,
 * nonzero digits at least w + 1 apart. Returns the length. */
#define NAFW 5
static size_t wnaf(int8_t *naf, const uint8_t kb[NB])
{
    uint64_t k[NL + 1];
    limbs_from_bytes(k, kb);
    k[NL] = 0;
    size_t len = 0;
    for (;;) {
        uint64_t any = 0;
        for (size_t i = 0; i <= NL; i++)
            any |= k[i];
        if (!any)
            break;
        int d = 0;
        if (k[0] & 1) {
            d = (int)(k[0] & ((1u << (NAFW + 1)) - 1));
            if (d >= (1 << NAFW))
                d -= (1 << (NAFW + 1));
            /* k -= d */
            if (d > 0) {
                uint64_t borrow = (uint64_t)d;
                for (size_t i = 0; i <= NL && borrow; i++) {
                    uint64_t o = k[i];
                    k[i] = o - borrow;
                    borrow = o < borrow;
                }
            } else {
                uint64_t carry = (uint64_t)(-d);
                for (size_t i = 0; i <= NL && carry; i++) {
                    k[i] += carry;
                    carry = k[i] < carry;
                }
            }
        }
        naf[len++] = (int8_t)d;
        for (size_t i = 0; i < NL; i++)
            k[i] = (k[i] >> 1) | (k[i + 1] << 63);
        k[NL] >>= 1;
    }
    return len;
}

static int NAME(verify)(const uint8_t *u1, const uint8_t *u2, const uint8_t *xy, const uint8_t *rb)
{
    /* Everything is public here: Jacobian coordinates throughout, with the
     * variable-time additions above (no conversion to and from projective
     * around the doubling runs, as the constant-time paths need). */
    /* [u1]G from the fixed-base table, skipping zero digits (public). */
    int8_t d[NWIN];
    ptj acc, acc2, tmp;
    pt_aff q;
    recode_signed(d, u1, W, NWIN);
    ptj_set_identity(&acc);
    for (size_t i = 0; i < NWIN; i++) {
        if (d[i] == 0)
            continue;
        int a = d[i] < 0 ? -d[i] : d[i];
        q = *base_entry(i, (size_t)a - 1);
        if (d[i] < 0)
            FE(neg)(q.y, q.y);
        ptj_madd_vt(&acc, &acc, &q);
    }
    /* [u2]Q by wNAF: odd multiples Q, 3Q, ..., (2^NAFW - 1) Q (Jacobian). */
    ptj odd[1 << (NAFW - 1)], q2;
    aff_from_bytes(&q, xy);
    fe_copy(odd[0].x, q.x);
    fe_copy(odd[0].y, q.y);
    fe_copy(odd[0].z, C(one_mont));
    ptj_dbl(&q2, &odd[0]);
    for (size_t j = 1; j < (1u << (NAFW - 1)); j++)
        ptj_add_vt(&odd[j], &odd[j - 1], &q2);
    int8_t naf[8 * NB + 2];
    size_t len = wnaf(naf, u2);
    ptj_set_identity(&acc2);
    for (size_t i = len; i-- > 0;) {
        ptj_dbl(&acc2, &acc2);
        if (naf[i] > 0) {
            ptj_add_vt(&acc2, &acc2, &odd[(naf[i] - 1) / 2]);
        } else if (naf[i] < 0) {
            tmp = odd[(-naf[i] - 1) / 2];
            FE(neg)(tmp.y, tmp.y);
            ptj_add_vt(&acc2, &acc2, &tmp);
        }
    }
    ptj_add_vt(&acc, &acc, &acc2);
    if (fe_is_zero(acc.z))
        return VG_ERR_VERIFY;
    /* x(R) mod n == r  <=>  X == r Z^2 or (r + n < p and X == (r + n) Z^2):
     * x(R) = X / Z^2 < p < 2 n, so x(R) mod n is x(R) or x(R) - n. No
     * inversion. */
    uint64_t r[NL], rn[NL];
    fe rf, t, zz;
    FE(sqr)(zz, acc.z);
    limbs_from_bytes(r, rb);
    FE(mul)(rf, r, C(r2_p)); /* r < n < p */
    FE(mul)(t, rf, zz);
    FE(sub)(t, t, acc.x);
    if (fe_is_zero(t))
        return VG_OK;
    uint64_t c = 0;
    for (size_t i = 0; i < NL; i++) {
        uint64_t s = r[i] + C(n)[i];
        uint64_t c1 = s < r[i];
        rn[i] = s + c;
        c = c1 | (rn[i] < s);
    }
    if (!c && limbs_lt(rn, C(p))) {
        FE(mul)(rf, rn, C(r2_p));
        FE(mul)(t, rf, zz);
        FE(sub)(t, t, acc.x);
        if (fe_is_zero(t))
            return VG_OK;
    }
    return VG_ERR_VERIFY;
}

/* ---- test interface ------------------------------------------------------ */

static int NAME(test_formula)(int op, uint8_t *r, const uint8_t *pb, int p_inf, const uint8_t *qb,
                              int q_inf)
{
    pt p, q, s;
    pt_aff qa;
    /* Scale (x, y, 1) by z = x + 2 (any nonzero value): projective inputs
     * that are not normalised. */
    static const fe two = {2};
    fe z;
    if (p_inf) {
        pt_set_identity(&p);
    } else {
        aff_from_bytes(&qa, pb);
        FE(mul)(z, two, C(r2_p));
        FE(add)(z, z, qa.x);
        if (fe_is_zero(z))
            fe_copy(z, C(one_mont));
        FE(mul)(p.x, qa.x, z);
        FE(mul)(p.y, qa.y, z);
        fe_copy(p.z, z);
    }
    if (q_inf) {
        pt_set_identity(&q);
    } else {
        aff_from_bytes(&qa, qb);
        FE(mul)(z, two, C(r2_p));
        FE(add)(z, z, qa.y);
        if (fe_is_zero(z))
            fe_copy(z, C(one_mont));
        FE(mul)(q.x, qa.x, z);
        FE(mul)(q.y, qa.y, z);
        fe_copy(q.z, z);
    }
    if (op == 0) {
        pt_add(&s, &p, &q);
    } else if (op == 1) {
        pt_add_mixed(&s, &p, &qa);
    } else if (op == 2) {
        pt_dbl(&s, &p);
    } else if (op == 5 || op == 6) {
        ptj pj, qj;
        pt_to_jac(&pj, &p);
        if (op == 5) {
            pt_to_jac(&qj, &q);
            ptj_add_vt(&pj, &pj, &qj);
        } else {
            ptj_madd_vt(&pj, &pj, &qa);
        }
        jac_to_pt(&s, &pj);
    } else {
        pt_dbl_n(&s, &p, op == 3 ? 1 : 5);
    }
    fe x, y;
    uint64_t inf = pt_to_affine(x, y, &s);
    fe_to_bytes(r, x);
    fe_to_bytes(r + NB, y);
    return inf ? 1 : 0;
}

static void NAME(test_inv)(uint8_t *out, const uint8_t *in)
{
    fe a;
    (void)fe_from_bytes(a, in);
    fe_inv(a, a);
    fe_to_bytes(out, a);
}

static void NAME(test_inv_divsteps)(uint8_t *out, const uint8_t *in)
{
#if defined(VG_NIST_HAVE_DIVSTEPS)
    fe a;
    (void)fe_from_bytes(a, in);
    fe_inv_divsteps(a, a);
    fe_to_bytes(out, a);
#else
    (void)in;
    memset(out, 0, NB);
#endif
}

static void NAME(test_sc_inv)(uint8_t *out, const uint8_t *in)
{
    sc a;
    sc_from_bytes(a, in);
    sc_inv(a, a);
    sc_to_bytes(out, a);
}

static void NAME(test_sc_inv_fermat)(uint8_t *out, const uint8_t *in)
{
    sc a;
    sc_from_bytes(a, in);
    sc_inv_fermat(a, a);
    sc_to_bytes(out, a);
}

const struct vg_nist_backend NAME(backend) = {
    .name = VG_NIST_FE_ID == 1 ? "portable" : "adx",
    .base_mul = NAME(base_mul),
    .ecdh = NAME(ecdh),
    .decode_point = NAME(decode_point),
    .verify = NAME(verify),
    .test_formula = NAME(test_formula),
    .sign_s = NAME(sign_s),
    .verify_u = NAME(verify_u),
    .test_inv = NAME(test_inv),
    .test_sc_inv = NAME(test_sc_inv),
    .test_sc_inv_fermat = NAME(test_sc_inv_fermat),
#if defined(VG_NIST_HAVE_DIVSTEPS)
    .test_inv_divsteps = NAME(test_inv_divsteps),
#endif
};
