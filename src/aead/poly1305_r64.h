/*
 * Poly1305 (RFC 8439 2.5) in radix 2^64, the scalar core shared by the
 * portable poly1305_r64_portable.c (baseline target: MUL) and
 * poly1305_mulx.c and poly1305_ifma.c (both compiled with -mbmi2, so the
 * 64x64->128 products of unsigned __int128 become MULX; checked in the
 * disassembly, see poly1305_mulx.c).
 *
 * h = h0 + h1 2^64 + h2 2^128, r = r0 + r1 2^64, p = 2^130 - 5.
 * The clamp (RFC 8439 2.5) leaves r0, r1 < 2^60 and r1 = 0 (mod 4), so
 * r1 2^128 = (r1 / 4) 2^130 = 5 (r1 / 4) = r1 + (r1 >> 2) =: sr1 (mod p),
 * sr1 < 1.25 * 2^60 < 2^60.33: terms at 2^128 from h1 r1 and at 2^192 from
 * h2 r1 fold down by one word with sr1.
 *
 * Invariant of the accumulator between blocks: h2 <= 4 (so h < 5 * 2^128,
 * below 2p), which h = 0 satisfies and every block restores.
 *
 * Constant time: MULX, ADD/ADC (through __int128 sums), shifts and masks;
 * the final subtraction of p is a mask select.
 * Specification: RFC 8439, section 2.5.
 */
#ifndef VG_AEAD_POLY1305_R64_H
#define VG_AEAD_POLY1305_R64_H

#include "aead.h"
#include "common.h"

typedef unsigned __int128 vg_u128;

static inline void r64_init(vg_poly1305_state *st, const uint8_t key[32])
{
    /* RFC 8439 2.5 clamp: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff. */
    st->r64.r[0] = vg_load64_le(key) & 0x0ffffffc0fffffffULL;
    st->r64.r[1] = vg_load64_le(key + 8) & 0x0ffffffc0ffffffcULL;
    st->r64.h[0] = st->r64.h[1] = st->r64.h[2] = 0;
    st->r64.s[0] = vg_load64_le(key + 16);
    st->r64.s[1] = vg_load64_le(key + 24);
    st->r64.ready = 0;
}

/* h = (h + m) * r mod p (partially), m = m0 + m1 2^64 + hibit 2^128, on
 * the three words given. Pre and post: h2 <= 4. */
static inline void r64_step(uint64_t h[3], uint64_t m0, uint64_t m1, uint64_t hibit,
                            uint64_t r0, uint64_t r1, uint64_t sr1)
{
    uint64_t h0, h1, h2, c;

    /* h += m: h2 <= 4 + 1 (hibit) + 1 (carry) = 6. The carries are
     * written as 64-bit comparisons rather than __int128 sums: gcc 12
     * without -mbmi2 spilled those sums' zero-extended halves to the stack
     * in this loop. */
    h0 = h[0] + m0;
    c = h0 < m0;           /* carry out of word 0 */
    h1 = h[1] + c;
    c = h1 < c;            /* 0 or 1 */
    h1 += m1;
    c += h1 < m1;          /* the two carries cannot both be 1: still 0 or 1 */
    h2 = h[2] + hibit + c;

    /* d = h r mod p, with h1 r1 2^128 -> h1 sr1 and h2 r1 2^192 ->
     * h2 sr1 2^64 (see the top):
     *   d0 = h0 r0 + h1 sr1        < 2^124 + 2^124.33 < 2^125.2
     *   d1 = h0 r1 + h1 r0 + h2 sr1 < 2^124 + 2^124 + 2^63 < 2^125.01
     *   d2 = h2 r0                  < 6 * 2^60 < 2^62.6
     * h2 sr1 < 6 * 2^60.33 < 2^63 and h2 r0 fit one word: 64-bit
     * products; the four others are 64x64->128 (MULX). */
    vg_u128 d0 = (vg_u128)h0 * r0 + (vg_u128)h1 * sr1;
    vg_u128 d1 = (vg_u128)h0 * r1 + (vg_u128)h1 * r0 + (vg_u128)(h2 * sr1);
    uint64_t d2 = h2 * r0;

    /* Carries: d0 >> 64 < 2^61.2, d1 + that < 2^125.02, whose high word
     * < 2^61.02; d2 + that < 2^62.6 + 2^61.02 < 2^63.1: no overflow. */
    d1 += (uint64_t)(d0 >> 64);
    h0 = (uint64_t)d0;
    d2 += (uint64_t)(d1 >> 64);
    h1 = (uint64_t)d1;

    /* d2's bits from 2^130 on, c = d2 >> 2, are worth 5c = (d2 & ~3) + c
     * at 2^0; 5c < 1.25 * 2^63.1 < 2^64. h2 = d2 & 3 <= 3 gains at most the
     * one carry out of h0 + 5c through h1: h2 <= 4, the invariant. */
    c = (d2 & ~(uint64_t)3) + (d2 >> 2);
    h2 = d2 & 3;
    h0 += c;
    c = h0 < c;
    h1 += c;
    h2 += h1 < c;

    h[0] = h0;
    h[1] = h1;
    h[2] = h2;
}

static inline void r64_blocks(vg_poly1305_state *st, const uint8_t *in, size_t nblocks,
                              uint32_t hibit)
{
    const uint64_t r0 = st->r64.r[0], r1 = st->r64.r[1], sr1 = r1 + (r1 >> 2);
    uint64_t h[3] = {st->r64.h[0], st->r64.h[1], st->r64.h[2]};
    while (nblocks--) {
        r64_step(h, vg_load64_le(in), vg_load64_le(in + 8), hibit, r0, r1, sr1);
        in += 16;
    }
    st->r64.h[0] = h[0];
    st->r64.h[1] = h[1];
    st->r64.h[2] = h[2];
}

/* tag = ((h mod p) + s) mod 2^128. Pre: h2 <= 4, so h < 5 * 2^128 < 2p and
 * one conditional subtraction of p reduces it. */
static inline void r64_finish(vg_poly1305_state *st, uint8_t tag[16])
{
    uint64_t h0 = st->r64.h[0], h1 = st->r64.h[1], h2 = st->r64.h[2];
    vg_u128 t;
    uint64_t g0, g1, g2, mask;

    /* g = h + 5: h >= p exactly when g >= 2^130, i.e. g2 >> 2 = 1 (g2 <= 5,
     * so g2 >> 2 is 0 or 1); then h - p = g - 2^130 agrees with g on the
     * low 128 bits, all the tag keeps. */
    t = (vg_u128)h0 + 5;
    g0 = (uint64_t)t;
    t = (vg_u128)h1 + (uint64_t)(t >> 64);
    g1 = (uint64_t)t;
    g2 = h2 + (uint64_t)(t >> 64);
    mask = vg_barrier_u64(0 - (g2 >> 2)); /* all-ones: take g */
    h0 = (h0 & ~mask) | (g0 & mask);
    h1 = (h1 & ~mask) | (g1 & mask);

    t = (vg_u128)h0 + st->r64.s[0];
    h0 = (uint64_t)t;
    h1 = h1 + st->r64.s[1] + (uint64_t)(t >> 64);
    vg_store64_le(tag, h0);
    vg_store64_le(tag + 8, h1);
}

#endif /* VG_AEAD_POLY1305_R64_H */
