/*
 * Poly1305 (RFC 8439 2.5), portable, 64-bit limbs: h and r in radix 2^44
 * (limbs of 44, 44 and 42 bits), products in unsigned __int128. Built only
 * where the compiler has __int128; elsewhere vg_poly1305_r44_get returns
 * NULL and the dispatch takes poly1305_r26.c.
 *
 * p = 2^130 - 5. Since 2^130 = 5 (mod p), a product term landing at
 * 2^132 = 2^(44 + 88) counts 4 * 5 = 20 times at 2^0: hence s1 = 20 r1 and
 * s2 = 20 r2 below.
 *
 * Invariant of the accumulator between blocks ("partially reduced"):
 *   h0 < 2^44, h1 < 2^44 + 2^6, h2 < 2^42,
 * which h = 0 satisfies and every block restores (bounds at each carry).
 *
 * Constant time: multiplications, additions, shifts and masks only; the
 * final conditional subtraction is a mask select.
 */
#include "aead.h"
#include "common.h"

#if defined(__SIZEOF_INT128__)

typedef unsigned __int128 u128;

#define M44 ((((uint64_t)1) << 44) - 1)
#define M42 ((((uint64_t)1) << 42) - 1)

static void poly1305_init_r44(vg_poly1305_state *st, const uint8_t key[32])
{
    uint64_t t0 = vg_load64_le(key), t1 = vg_load64_le(key + 8);
    /* RFC 8439 2.5 clamp, r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, cut into
     * 44-bit pieces: r0 < 2^44, r1 < 2^44, r2 < 2^36 (r < 2^124). */
    st->r44.r[0] = t0 & 0xffc0fffffffULL;
    st->r44.r[1] = ((t0 >> 44) | (t1 << 20)) & 0xfffffc0ffffULL;
    st->r44.r[2] = (t1 >> 24) & 0x00ffffffc0fULL;
    st->r44.h[0] = st->r44.h[1] = st->r44.h[2] = 0;
    st->r44.s[0] = vg_load64_le(key + 16);
    st->r44.s[1] = vg_load64_le(key + 24);
}

/* See struct vg_poly1305_impl.blocks. Pre and post: the invariant above. */
static void poly1305_blocks_r44(vg_poly1305_state *st, const uint8_t *in, size_t nblocks,
                                uint32_t hibit)
{
    const uint64_t r0 = st->r44.r[0], r1 = st->r44.r[1], r2 = st->r44.r[2];
    /* s1 < 20 * 2^44 < 2^48.33, s2 < 20 * 2^36 < 2^40.33. */
    const uint64_t s1 = r1 * 20, s2 = r2 * 20;
    const uint64_t hi = (uint64_t)hibit << 40; /* 2^128 = 2^(88 + 40) */
    uint64_t h0 = st->r44.h[0], h1 = st->r44.h[1], h2 = st->r44.h[2];

    while (nblocks--) {
        uint64_t t0 = vg_load64_le(in), t1 = vg_load64_le(in + 8);
        /* h += block: a0 < 2^44 + 2^44 = 2^45, a1 < 2^45 + 2^6,
         * a2 < 2^42 + 2^40 + 2^40 = 2^42 + 2^41 < 2^42.6. */
        h0 += t0 & M44;
        h1 += ((t0 >> 44) | (t1 << 20)) & M44;
        h2 += (t1 >> 24) | hi;

        /* d = h * r, folded mod p (the 2^132 terms times 20):
         *   d0 = a0 r0 + a1 s2 + a2 s1 < 2^89 + 2^85.4 + 2^90.93 < 2^91.4
         *   d1 = a0 r1 + a1 r0 + a2 s2 < 2^89 + 2^89.01 + 2^83 < 2^90.01
         *   d2 = a0 r2 + a1 r1 + a2 r0 < 2^81 + 2^89.01 + 2^86.6 < 2^89.4
         * all far below 2^128. */
        u128 d0 = (u128)h0 * r0 + (u128)h1 * s2 + (u128)h2 * s1;
        u128 d1 = (u128)h0 * r1 + (u128)h1 * r0 + (u128)h2 * s2;
        u128 d2 = (u128)h0 * r2 + (u128)h1 * r1 + (u128)h2 * r0;

        /* Carries. d0 < 2^91.4, so c < 2^47.4 fits a uint64. */
        uint64_t c = (uint64_t)(d0 >> 44);
        h0 = (uint64_t)d0 & M44;
        /* d1 + c < 2^90.01 + 2^47.4 < 2^90.02, so c < 2^46.02. */
        d1 += c;
        c = (uint64_t)(d1 >> 44);
        h1 = (uint64_t)d1 & M44;
        /* d2 + c < 2^89.4 + 2^46.02 < 2^89.41; its bits from 2^130 on, c =
         * d2 >> 42 < 2^47.41, are worth 5c at 2^0. */
        d2 += c;
        c = (uint64_t)(d2 >> 42);
        h2 = (uint64_t)d2 & M42;
        /* h0 + 5c < 2^44 + 2^49.74 < 2^50: no overflow; then c < 2^6. */
        h0 += c * 5;
        c = h0 >> 44;
        h0 &= M44;
        /* h1 < 2^44 + 2^6: the invariant. */
        h1 += c;
        in += 16;
    }
    st->r44.h[0] = h0;
    st->r44.h[1] = h1;
    st->r44.h[2] = h2;
}

/* See struct vg_poly1305_impl.finish. Pre: the invariant above. */
static void poly1305_finish_r44(vg_poly1305_state *st, uint8_t tag[16])
{
    uint64_t h0 = st->r44.h[0], h1 = st->r44.h[1], h2 = st->r44.h[2];
    uint64_t c, g0, g1, g2, mask;

    /* Full carry, h1 -> h2 -> h0 (times 5) -> h1. From the invariant:
     * if the first c is 1, h1 < 2^6 afterwards and gains at most 1 at the
     * end; if it is 0, h2 < 2^42 yields no carry, h0 gains nothing and
     * neither does h1. Every c below is 0 or 1 (h2 <= 2^42 after the add,
     * h0 + 5c < 2^44 + 5), and at the end h0, h1 < 2^44 and h2 < 2^42:
     * the value V = h0 + h1 2^44 + h2 2^88 < 2^130 < 2p, limbs normalised. */
    c = h1 >> 44;
    h1 &= M44;
    h2 += c;
    c = h2 >> 42;
    h2 &= M42;
    h0 += c * 5;
    c = h0 >> 44;
    h0 &= M44;
    h1 += c;

    /* g = V - p = V + 5 - 2^130. g2 = h2 + c - 2^42 lies in [-2^42, 0]:
     * its sign bit says V < p. */
    g0 = h0 + 5;
    c = g0 >> 44;
    g0 &= M44;
    g1 = h1 + c;
    c = g1 >> 44;
    g1 &= M44;
    g2 = h2 + c - ((uint64_t)1 << 42);

    /* mask = all-ones when V >= p (take g), zero otherwise (keep h). Either
     * way the chosen limbs are < 2^44, < 2^44, < 2^42: when V >= p,
     * 0 <= g = V - p < 5, so g2 = 0. */
    mask = vg_barrier_u64((g2 >> 63) - 1);
    h0 = (h0 & ~mask) | (g0 & mask);
    h1 = (h1 & ~mask) | (g1 & mask);
    h2 = (h2 & ~mask) | (g2 & mask);

    /* (h mod p) + s mod 2^128: pack into two 64-bit words (the bits of
     * h2 << 24 from 2^128 on fall off, which is the mod 2^128). */
    uint64_t f0 = h0 | (h1 << 44);
    uint64_t f1 = (h1 >> 20) | (h2 << 24);
    u128 t = (u128)f0 + st->r44.s[0];
    f0 = (uint64_t)t;
    f1 = f1 + st->r44.s[1] + (uint64_t)(t >> 64);
    vg_store64_le(tag, f0);
    vg_store64_le(tag + 8, f1);
}

static const struct vg_poly1305_impl g_poly1305_r44 = {
    .name = "r44",
    .init = poly1305_init_r44,
    .blocks = poly1305_blocks_r44,
    .finish = poly1305_finish_r44,
};

const struct vg_poly1305_impl *vg_poly1305_r44_get(void) { return &g_poly1305_r44; }

#else /* no __int128 */

const struct vg_poly1305_impl *vg_poly1305_r44_get(void) { return NULL; }

#endif
