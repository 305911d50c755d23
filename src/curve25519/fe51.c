/*
 * Portable arithmetic modulo p = 2^255 - 19 in radix 2^51 (five unsigned
 * limbs), and the portable X25519 ladder over it.
 *
 * Specification: RFC 7748 section 5 (decodeUCoordinate, decodeScalar25519,
 * the Montgomery ladder with cswap, encodeUCoordinate).
 *
 * Products: 64x64->128 with unsigned __int128 when the compiler has it;
 * otherwise (or with -DVG_FE51_NO_INT128) the same algorithm runs on a
 * two-word struct with 32x32->64-bit products. The tests compile this file a
 * second time with -DVG_FE51_TWIN, which forces the struct path and renames
 * the entry points (vg_fe51nt_get, vg_x25519_portablent_get), so the path
 * for compilers without __int128 stays tested.
 *
 * Constant time: no branch or memory index depends on the scalar or the
 * field values; the conditional swap is a mask built by arithmetic behind a
 * value barrier. Carries are computed with shifts, never comparisons.
 */
#include <string.h>

#include "common.h"
#include "fe25519.h"

#if defined(VG_FE51_TWIN) && !defined(VG_FE51_NO_INT128)
#define VG_FE51_NO_INT128 1
#endif
#if !defined(VG_FE51_NO_INT128) && !defined(__SIZEOF_INT128__)
#define VG_FE51_NO_INT128 1
#endif

#if defined(VG_FE51_TWIN)
#define FE51_NAME "portable-noint128"
#define FE51_GET vg_fe51nt_get
#define X25519_GET vg_x25519_portablent_get
#else
#define FE51_NAME "portable"
#define FE51_GET vg_fe51_get
#define X25519_GET vg_x25519_portable_get
#endif

#define MASK51 ((UINT64_C(1) << 51) - 1)

/* ---- 128-bit accumulators ---------------------------------------------- */
#if !defined(VG_FE51_NO_INT128)
typedef unsigned __int128 u128;

static inline u128 mul64(uint64_t a, uint64_t b) { return (u128)a * b; }
static inline u128 add128(u128 a, u128 b) { return a + b; }
static inline u128 add128_64(u128 a, uint64_t b) { return a + b; }
static inline uint64_t lo51(u128 a) { return (uint64_t)a & MASK51; }
/* Precondition: a < 2^115, so the result fits in 64 bits. */
static inline uint64_t shr51(u128 a) { return (uint64_t)(a >> 51); }
#else
typedef struct {
    uint64_t lo, hi;
} u128;

/* 64x64->128 from four 32x32->64 products. */
static inline u128 mul64(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* Each term < 2^32, so mid < 3 * 2^32: no overflow. */
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    u128 r;
    r.lo = (mid << 32) | (p00 & 0xffffffffu);
    /* a * b < 2^128, so the high word cannot overflow. */
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
}

/* The carry out of lo + lo' is the majority of the top bits of the addends
 * and the complement of the sum's top bit; no comparison (which some
 * compilers turn into a branch). Precondition: the sum is below 2^128. */
static inline u128 add128(u128 a, u128 b)
{
    u128 r;
    r.lo = a.lo + b.lo;
    uint64_t c = ((a.lo & b.lo) | ((a.lo | b.lo) & ~r.lo)) >> 63;
    r.hi = a.hi + b.hi + c;
    return r;
}
static inline u128 add128_64(u128 a, uint64_t b)
{
    u128 w = {b, 0};
    return add128(a, w);
}
static inline uint64_t lo51(u128 a) { return a.lo & MASK51; }
static inline uint64_t shr51(u128 a) { return (a.lo >> 51) | (a.hi << 13); }
#endif

/* ---- field operations ----------------------------------------------------- */

/* Carry five 128-bit column sums into limbs.
 * Precondition: r0..r3 < 2^115 and r4 < 2^110.5. Then every carry out of
 * r0..r3 is < 2^64, r4 plus its incoming carry stays < 2^110.6, so
 * c4 = r4 >> 51 < 2^59.6 and h0 + 19 c4 < 2^51 + 2^63.9 < 2^64.
 * Postcondition: h tight (h0, h1, h3, h4 < 2^51, h2 <= 2^51). */
static inline void fe51_carry(vg_fe51 *h, u128 r0, u128 r1, u128 r2, u128 r3, u128 r4)
{
    uint64_t h0, h1, h2, h3, h4, c;
    r1 = add128_64(r1, shr51(r0)); /* shr51(r0) < 2^64 */
    h0 = lo51(r0);
    r2 = add128_64(r2, shr51(r1));
    h1 = lo51(r1);
    r3 = add128_64(r3, shr51(r2));
    h2 = lo51(r2);
    r4 = add128_64(r4, shr51(r3));
    h3 = lo51(r3);
    c = shr51(r4); /* < 2^59.6 */
    h4 = lo51(r4);
    h0 += 19 * c;  /* < 2^51 + 2^63.9 < 2^64 */
    h1 += h0 >> 51; /* h0 >> 51 < 2^13: h1 < 2^51 + 2^13 */
    h0 &= MASK51;
    h2 += h1 >> 51; /* h1 >> 51 <= 1: h2 <= 2^51 */
    h1 &= MASK51;
    h->v[0] = h0;
    h->v[1] = h1;
    h->v[2] = h2;
    h->v[3] = h3;
    h->v[4] = h4;
}

/* Precondition: f, g loose (limbs < 2^54). Postcondition: h tight.
 * 2^255 = 19 mod p folds the products above 2^255 back as 19 times.
 * Each product < 2^54 * 19 * 2^54 < 2^112.3, a column of five < 2^114.7;
 * column 4 has no factor 19: < 5 * 2^108 < 2^110.4. */
static void fe51_mul(vg_fe51 *h, const vg_fe51 *f, const vg_fe51 *g)
{
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3], g4 = g->v[4];
    uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4; /* < 2^58.3 */
    u128 r0, r1, r2, r3, r4;
    r0 = add128(add128(add128(mul64(f0, g0), mul64(f1, g4_19)), add128(mul64(f2, g3_19), mul64(f3, g2_19))),
                mul64(f4, g1_19));
    r1 = add128(add128(add128(mul64(f0, g1), mul64(f1, g0)), add128(mul64(f2, g4_19), mul64(f3, g3_19))),
                mul64(f4, g2_19));
    r2 = add128(add128(add128(mul64(f0, g2), mul64(f1, g1)), add128(mul64(f2, g0), mul64(f3, g4_19))),
                mul64(f4, g3_19));
    r3 = add128(add128(add128(mul64(f0, g3), mul64(f1, g2)), add128(mul64(f2, g1), mul64(f3, g0))),
                mul64(f4, g4_19));
    r4 = add128(add128(add128(mul64(f0, g4), mul64(f1, g3)), add128(mul64(f2, g2), mul64(f3, g1))),
                mul64(f4, g0));
    fe51_carry(h, r0, r1, r2, r3, r4);
}

/* Precondition: f loose. Postcondition: h tight. Same column bounds as
 * fe51_mul (the doubled and 19-fold factors are < 2^59.3, products < 2^113.3,
 * three per column < 2^115; column 4 < 5 * 2^108). */
static void fe51_sqr(vg_fe51 *h, const vg_fe51 *f)
{
    uint64_t f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3], f4 = f->v[4];
    uint64_t f0_2 = 2 * f0, f1_2 = 2 * f1;
    uint64_t f3_19 = 19 * f3, f4_19 = 19 * f4, f4_38 = 38 * f4;
    u128 r0, r1, r2, r3, r4;
    r0 = add128(add128(mul64(f0, f0), mul64(f1_2, f4_19)), mul64(2 * f2, f3_19));
    r1 = add128(add128(mul64(f0_2, f1), mul64(f2, f4_38)), mul64(f3, f3_19));
    r2 = add128(add128(mul64(f0_2, f2), mul64(f1, f1)), mul64(f3, f4_38));
    r3 = add128(add128(mul64(f0_2, f3), mul64(f1_2, f2)), mul64(f4, f4_19));
    r4 = add128(add128(mul64(f0_2, f4), mul64(f1_2, f3)), mul64(f2, f2));
    fe51_carry(h, r0, r1, r2, r3, r4);
}

/* Precondition: f, g tight. Postcondition: h limbs <= 2^52 (< 2^53). */
static void fe51_add(vg_fe51 *h, const vg_fe51 *f, const vg_fe51 *g)
{
    vg_fe51_add_limbs(h, f, g);
}

/* Precondition: f, g tight. h = f + 2p - g: the limbs of 2p are 2^52 - 38
 * and 2^52 - 2 >= 2^51 >= g[i], so no limb goes negative; h < 2^53. */
static void fe51_sub(vg_fe51 *h, const vg_fe51 *f, const vg_fe51 *g)
{
    vg_fe51_sub_limbs(h, f, g);
}

/* Precondition: f loose. Postcondition: h tight. Products < 2^54 * 2^17 =
 * 2^71; the carry out of limb 4 is < 2^21, so 19 times it is < 2^26. */
static void fe51_mul121666(vg_fe51 *h, const vg_fe51 *f)
{
    fe51_carry(h, mul64(f->v[0], 121666), mul64(f->v[1], 121666), mul64(f->v[2], 121666),
               mul64(f->v[3], 121666), mul64(f->v[4], 121666));
}

/* RFC 7748 section 5 decodeUCoordinate: bit 255 masked, value may be >= p
 * (non-canonical inputs are used as is, reduced by the arithmetic). */
static void fe51_frombytes(vg_fe51 *h, const uint8_t s[32])
{
    uint64_t w0 = vg_load64_le(s), w1 = vg_load64_le(s + 8), w2 = vg_load64_le(s + 16);
    uint64_t w3 = vg_load64_le(s + 24) & 0x7fffffffffffffffu;
    h->v[0] = w0 & MASK51;
    h->v[1] = ((w0 >> 51) | (w1 << 13)) & MASK51;
    h->v[2] = ((w1 >> 38) | (w2 << 26)) & MASK51;
    h->v[3] = ((w2 >> 25) | (w3 << 39)) & MASK51;
    h->v[4] = w3 >> 12;
}

/* Precondition: f loose. Writes the unique representative below p.
 * After one carry pass the value is < 2^255 + 19 * 8 < 2p; then
 * q = floor((h + 19) / 2^255) is 1 exactly when h >= p, and h + 19 q with
 * bit 255 dropped is h - q p. */
static void fe51_tobytes(uint8_t s[32], const vg_fe51 *f)
{
    uint64_t h0 = f->v[0], h1 = f->v[1], h2 = f->v[2], h3 = f->v[3], h4 = f->v[4], q;
    /* Weak carry: limbs < 2^54, so each carry < 2^3 and 19 * (h4 >> 51) < 2^8. */
    h1 += h0 >> 51;
    h0 &= MASK51;
    h2 += h1 >> 51;
    h1 &= MASK51;
    h3 += h2 >> 51;
    h2 &= MASK51;
    h4 += h3 >> 51;
    h3 &= MASK51;
    h0 += 19 * (h4 >> 51); /* value now < 2^255 + 152 */
    h4 &= MASK51;
    q = (h0 + 19) >> 51; /* h0 < 2^51 + 152: no overflow */
    q = (h1 + q) >> 51;
    q = (h2 + q) >> 51;
    q = (h3 + q) >> 51;
    q = (h4 + q) >> 51; /* q in {0, 1} */
    h0 += 19 * q;
    h1 += h0 >> 51;
    h0 &= MASK51;
    h2 += h1 >> 51;
    h1 &= MASK51;
    h3 += h2 >> 51;
    h2 &= MASK51;
    h4 += h3 >> 51;
    h3 &= MASK51;
    h4 &= MASK51; /* drops 2^255 q */
    vg_store64_le(s, h0 | (h1 << 51));
    vg_store64_le(s + 8, (h1 >> 13) | (h2 << 38));
    vg_store64_le(s + 16, (h2 >> 26) | (h3 << 25));
    vg_store64_le(s + 24, (h3 >> 39) | (h4 << 12));
}

static void fe51_nsqr(vg_fe51 *h, const vg_fe51 *f, int n)
{
    fe51_sqr(h, f);
    for (int i = 1; i < n; i++)
        fe51_sqr(h, h);
}

/* h = f^(p-2) = f^(2^255 - 21) (Fermat), a fixed chain of 254 squarings and
 * 11 multiplications: no dependence on f. Precondition: f loose. */
static void fe51_invert(vg_fe51 *h, const vg_fe51 *f)
{
    vg_fe51 t0, t1, t2, t3;
    fe51_sqr(&t0, f);            /* 2 */
    fe51_nsqr(&t1, &t0, 2);      /* 8 */
    fe51_mul(&t1, f, &t1);       /* 9 */
    fe51_mul(&t0, &t0, &t1);     /* 11 */
    fe51_sqr(&t2, &t0);          /* 22 */
    fe51_mul(&t1, &t1, &t2);     /* 2^5 - 1 */
    fe51_nsqr(&t2, &t1, 5);
    fe51_mul(&t1, &t2, &t1);     /* 2^10 - 1 */
    fe51_nsqr(&t2, &t1, 10);
    fe51_mul(&t2, &t2, &t1);     /* 2^20 - 1 */
    fe51_nsqr(&t3, &t2, 20);
    fe51_mul(&t2, &t3, &t2);     /* 2^40 - 1 */
    fe51_nsqr(&t2, &t2, 10);
    fe51_mul(&t1, &t2, &t1);     /* 2^50 - 1 */
    fe51_nsqr(&t2, &t1, 50);
    fe51_mul(&t2, &t2, &t1);     /* 2^100 - 1 */
    fe51_nsqr(&t3, &t2, 100);
    fe51_mul(&t2, &t3, &t2);     /* 2^200 - 1 */
    fe51_nsqr(&t2, &t2, 50);
    fe51_mul(&t1, &t2, &t1);     /* 2^250 - 1 */
    fe51_nsqr(&t1, &t1, 5);      /* 2^255 - 2^5 */
    fe51_mul(h, &t1, &t0);       /* 2^255 - 21 */
    vg_wipe(&t0, sizeof t0);
    vg_wipe(&t1, sizeof t1);
    vg_wipe(&t2, sizeof t2);
    vg_wipe(&t3, sizeof t3);
}

static const struct vg_fe51_ops g_fe51_ops = {
    FE51_NAME, fe51_frombytes, fe51_tobytes, fe51_add,       fe51_sub,
    fe51_mul,  fe51_sqr,       fe51_mul121666, fe51_invert,
};

const struct vg_fe51_ops *FE51_GET(void) { return &g_fe51_ops; }

/* ---- the ladder (RFC 7748 section 5) ----------------------------------------- */

struct ladder51 {
    uint8_t k[32];
    vg_fe51 x1, x2, z2, x3, z3, a, aa, b, bb, e, c, d, da, cb;
};

/* RFC 7748 section 5: X25519(k, u). Bounds: x2, z2, x3, z3 and every
 * product are tight; sums and differences of tight values are < 2^53,
 * within the loose precondition of mul, sqr and mul121666. */
static void x25519_ladder51(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32])
{
    struct ladder51 s;
    uint64_t swap = 0;
    vg_x25519_clamp(s.k, scalar);
    fe51_frombytes(&s.x1, u);
    memset(&s.x2, 0, sizeof s.x2);
    s.x2.v[0] = 1;
    memset(&s.z2, 0, sizeof s.z2);
    s.x3 = s.x1;
    memset(&s.z3, 0, sizeof s.z3);
    s.z3.v[0] = 1;
    for (int t = 254; t >= 0; t--) {
        uint64_t kt = (uint64_t)(s.k[t >> 3] >> (t & 7)) & 1;
        swap ^= kt;
        uint64_t mask = vg_barrier_u64(0 - swap);
        vg_fe51_cswap(&s.x2, &s.x3, mask);
        vg_fe51_cswap(&s.z2, &s.z3, mask);
        swap = kt;
        fe51_add(&s.a, &s.x2, &s.z2);
        fe51_sqr(&s.aa, &s.a);
        fe51_sub(&s.b, &s.x2, &s.z2);
        fe51_sqr(&s.bb, &s.b);
        fe51_sub(&s.e, &s.aa, &s.bb);
        fe51_add(&s.c, &s.x3, &s.z3);
        fe51_sub(&s.d, &s.x3, &s.z3);
        fe51_mul(&s.da, &s.d, &s.a);
        fe51_mul(&s.cb, &s.c, &s.b);
        fe51_add(&s.x3, &s.da, &s.cb);
        fe51_sqr(&s.x3, &s.x3);
        fe51_sub(&s.z3, &s.da, &s.cb);
        fe51_sqr(&s.z3, &s.z3);
        fe51_mul(&s.z3, &s.x1, &s.z3);
        fe51_mul(&s.x2, &s.aa, &s.bb);
        /* z2 = E (AA + 121665 E) = E (BB + 121666 E), since AA = BB + E. */
        fe51_mul121666(&s.a, &s.e);
        fe51_add(&s.a, &s.bb, &s.a);
        fe51_mul(&s.z2, &s.e, &s.a);
    }
    uint64_t mask = vg_barrier_u64(0 - swap);
    vg_fe51_cswap(&s.x2, &s.x3, mask);
    vg_fe51_cswap(&s.z2, &s.z3, mask);
    fe51_invert(&s.z2, &s.z2);
    fe51_mul(&s.x2, &s.x2, &s.z2);
    fe51_tobytes(out, &s.x2);
    vg_wipe(&s, sizeof s);
    vg_wipe(&swap, sizeof swap);
}

static const struct vg_x25519_impl g_x25519_portable = {FE51_NAME, x25519_ladder51};

const struct vg_x25519_impl *X25519_GET(void) { return &g_x25519_portable; }
