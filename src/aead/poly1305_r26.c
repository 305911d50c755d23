/*
 * Poly1305 (RFC 8439 2.5), portable, no __int128: h and r in radix 2^26
 * (five 26-bit limbs), products 32x32 -> 64 bits. Used where the compiler
 * lacks __int128, and tested everywhere; it is also the representation the
 * vectorised (AVX2) variant will use.
 *
 * p = 2^130 - 5. Since 2^130 = 5 (mod p), a product term landing at
 * 2^(130 + 26k) counts 5 times at 2^(26k): hence s_i = 5 r_i below.
 *
 * Invariant of the accumulator between blocks ("partially reduced"):
 *   h0, h2, h3, h4 < 2^26, h1 < 2^26 + 2^6,
 * which h = 0 satisfies and every block restores (bounds at each carry).
 *
 * Constant time: multiplications (32x32->64), additions, shifts and masks
 * only; the final conditional subtraction is a mask select.
 */
#include "aead.h"
#include "common.h"

#define M26 0x3ffffffu

static void poly1305_init_r26(vg_poly1305_state *st, const uint8_t key[32])
{
    /* RFC 8439 2.5 clamp, r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, cut into
     * 26-bit pieces (bits 0-25, 26-51, 52-77, 78-103, 104-129 of r). Each
     * r_i < 2^26, and r4 < 2^20 (r < 2^124). */
    st->r26.r[0] = vg_load32_le(key + 0) & 0x3ffffff;
    st->r26.r[1] = (vg_load32_le(key + 3) >> 2) & 0x3ffff03;
    st->r26.r[2] = (vg_load32_le(key + 6) >> 4) & 0x3ffc0ff;
    st->r26.r[3] = (vg_load32_le(key + 9) >> 6) & 0x3f03fff;
    st->r26.r[4] = (vg_load32_le(key + 12) >> 8) & 0x00fffff;
    for (int i = 0; i < 5; i++)
        st->r26.h[i] = 0;
    for (int i = 0; i < 4; i++)
        st->r26.s[i] = vg_load32_le(key + 16 + 4 * i);
}

/* See struct vg_poly1305_impl.blocks. Pre and post: the invariant above. */
static void poly1305_blocks_r26(vg_poly1305_state *st, const uint8_t *in, size_t nblocks,
                                uint32_t hibit)
{
    const uint64_t r0 = st->r26.r[0], r1 = st->r26.r[1], r2 = st->r26.r[2],
                   r3 = st->r26.r[3], r4 = st->r26.r[4];
    /* s_i = 5 r_i < 5 * 2^26 < 2^28.33 (s4 < 5 * 2^20 < 2^22.33). */
    const uint64_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
    const uint32_t hi = hibit << 24; /* 2^128 = 2^(104 + 24) */
    uint64_t h0 = st->r26.h[0], h1 = st->r26.h[1], h2 = st->r26.h[2], h3 = st->r26.h[3],
             h4 = st->r26.h[4];

    while (nblocks--) {
        /* h += block (limbs of 26 bits; the top one 24 bits plus 2^24 for
         * hibit): a0, a2, a3 < 2^27, a1 < 2^27 + 2^6, a4 < 2^26 + 2^25;
         * every a_i < 2^27.01. */
        h0 += vg_load32_le(in + 0) & M26;
        h1 += (vg_load32_le(in + 3) >> 2) & M26;
        h2 += (vg_load32_le(in + 6) >> 4) & M26;
        h3 += (vg_load32_le(in + 9) >> 6) & M26;
        h4 += (vg_load32_le(in + 12) >> 8) | hi;

        /* d = h * r, folded mod p (terms at 2^130 and above times 5). Each
         * term is < 2^27.01 * 2^28.33 = 2^55.34, so every d_i < 5 * 2^55.34
         * < 2^57.7; d4 has no factor 5: d4 < 5 * 2^27.01 * 2^26 < 2^55.4.
         * All fit in 64 bits with room for the carries below. */
        uint64_t d0 = h0 * r0 + h1 * s4 + h2 * s3 + h3 * s2 + h4 * s1;
        uint64_t d1 = h0 * r1 + h1 * r0 + h2 * s4 + h3 * s3 + h4 * s2;
        uint64_t d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * s4 + h4 * s3;
        uint64_t d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * s4;
        uint64_t d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0;

        /* Carries: each c = d_i >> 26 < 2^57.7 / 2^26 < 2^32, so each
         * d_{i+1} + c < 2^57.7 + 2^32 stays far below 2^64. */
        uint64_t c = d0 >> 26;
        h0 = d0 & M26;
        d1 += c;
        c = d1 >> 26;
        h1 = d1 & M26;
        d2 += c;
        c = d2 >> 26;
        h2 = d2 & M26;
        d3 += c;
        c = d3 >> 26;
        h3 = d3 & M26;
        /* d4 + c < 2^55.4 + 2^32 < 2^55.5; its bits from 2^130 on,
         * c = d4 >> 26 < 2^29.5, are worth 5c at 2^0. */
        d4 += c;
        c = d4 >> 26;
        h4 = d4 & M26;
        /* h0 + 5c < 2^26 + 2^31.9 < 2^32; then c < 2^6. */
        h0 += c * 5;
        c = h0 >> 26;
        h0 &= M26;
        /* h1 < 2^26 + 2^6: the invariant. */
        h1 += c;
        in += 16;
    }
    st->r26.h[0] = (uint32_t)h0;
    st->r26.h[1] = (uint32_t)h1;
    st->r26.h[2] = (uint32_t)h2;
    st->r26.h[3] = (uint32_t)h3;
    st->r26.h[4] = (uint32_t)h4;
}

/* See struct vg_poly1305_impl.finish. Pre: the invariant above. */
static void poly1305_finish_r26(vg_poly1305_state *st, uint8_t tag[16])
{
    uint32_t h0 = st->r26.h[0], h1 = st->r26.h[1], h2 = st->r26.h[2], h3 = st->r26.h[3],
             h4 = st->r26.h[4];
    uint32_t c, g0, g1, g2, g3, g4, mask;

    /* Full carry, h1 -> h2 -> h3 -> h4 -> h0 (times 5) -> h1. From the
     * invariant: if the first c is 1, h1 < 2^6 afterwards and gains at most
     * 1 at the end; if it is 0, h2, h3, h4 < 2^26 yield no carry and h1
     * gains nothing. Every c below is 0 or 1 (h2, h3, h4 <= 2^26 after
     * their adds, h0 + 5c < 2^26 + 5), and at the end every h_i < 2^26:
     * the value V < 2^130 < 2p, limbs normalised. */
    c = h1 >> 26;
    h1 &= M26;
    h2 += c;
    c = h2 >> 26;
    h2 &= M26;
    h3 += c;
    c = h3 >> 26;
    h3 &= M26;
    h4 += c;
    c = h4 >> 26;
    h4 &= M26;
    h0 += c * 5;
    c = h0 >> 26;
    h0 &= M26;
    h1 += c;

    /* g = V - p = V + 5 - 2^130; g4 = h4 + c - 2^26 lies in [-2^26, 0] (as
     * a 32-bit two's complement word): its sign bit says V < p. */
    g0 = h0 + 5;
    c = g0 >> 26;
    g0 &= M26;
    g1 = h1 + c;
    c = g1 >> 26;
    g1 &= M26;
    g2 = h2 + c;
    c = g2 >> 26;
    g2 &= M26;
    g3 = h3 + c;
    c = g3 >> 26;
    g3 &= M26;
    g4 = h4 + c - (1u << 26);

    /* mask = all-ones when V >= p (take g), zero otherwise (keep h). Either
     * way the chosen limbs are all < 2^26: when V >= p, 0 <= g = V - p < 5,
     * so g4 = 0. */
    mask = vg_barrier_u32((g4 >> 31) - 1);
    h0 = (h0 & ~mask) | (g0 & mask);
    h1 = (h1 & ~mask) | (g1 & mask);
    h2 = (h2 & ~mask) | (g2 & mask);
    h3 = (h3 & ~mask) | (g3 & mask);
    h4 = (h4 & ~mask) | (g4 & mask);

    /* Pack the normalised limbs into four 32-bit words (bits from 2^128 on
     * fall off: mod 2^128), then add s with carries in 64-bit words. */
    uint32_t w0 = h0 | (h1 << 26);
    uint32_t w1 = (h1 >> 6) | (h2 << 20);
    uint32_t w2 = (h2 >> 12) | (h3 << 14);
    uint32_t w3 = (h3 >> 18) | (h4 << 8);
    uint64_t f = (uint64_t)w0 + st->r26.s[0];
    vg_store32_le(tag + 0, (uint32_t)f);
    f = (uint64_t)w1 + st->r26.s[1] + (f >> 32);
    vg_store32_le(tag + 4, (uint32_t)f);
    f = (uint64_t)w2 + st->r26.s[2] + (f >> 32);
    vg_store32_le(tag + 8, (uint32_t)f);
    f = (uint64_t)w3 + st->r26.s[3] + (f >> 32);
    vg_store32_le(tag + 12, (uint32_t)f);
}

static const struct vg_poly1305_impl g_poly1305_r26 = {
    .name = "r26",
    .init = poly1305_init_r26,
    .blocks = poly1305_blocks_r26,
    .finish = poly1305_finish_r26,
};

const struct vg_poly1305_impl *vg_poly1305_r26_get(void) { return &g_poly1305_r26; }
