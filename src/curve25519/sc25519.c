/*
 * Scalars modulo L (RFC 8032 section 5.1), portable and constant time.
 *
 * Method: Barrett reduction (Menezes, van Oorschot, Vanstone, Handbook of
 * Applied Cryptography, Algorithm 14.42) with base b = 2^32 and k = 8 limbs
 * (b^7 <= L < b^8), mu = floor(b^16 / L), valid for any x < b^16 = 2^512.
 * The algorithm's two final "while r >= L" subtractions become two
 * unconditional trial subtractions selected by a mask. 32-bit limbs with
 * 64-bit products keep it portable (no __int128 needed); scalar arithmetic
 * is a small share of a signature, so speed matters little here.
 */
#include <string.h>

#include "common.h"
#include "sc25519.h"

/* L, little-endian 32-bit limbs. */
static const uint32_t sc_l[8] = {0x5cf5d3edu, 0x5812631au, 0xa2f79cd6u, 0x14def9deu,
                                 0x00000000u, 0x00000000u, 0x00000000u, 0x10000000u};
/* mu = floor(2^512 / L), a 260-bit number in 9 limbs. */
static const uint32_t sc_mu[9] = {0x0a2c131bu, 0xed9ce5a3u, 0x086329a7u, 0x2106215du, 0xffffffebu,
                                  0xffffffffu, 0xffffffffu, 0xffffffffu, 0x0000000fu};

/* out[0 .. na+nb) = a b (schoolbook). Each step: t <= (2^32-1)^2 + 2 (2^32-1)
 * = 2^64 - 1, so it never overflows. */
static void sc_mul(uint32_t *out, const uint32_t *a, int na, const uint32_t *b, int nb)
{
    for (int i = 0; i < na + nb; i++)
        out[i] = 0;
    for (int i = 0; i < na; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < nb; j++) {
            uint64_t t = (uint64_t)a[i] * b[j] + out[i + j] + carry;
            out[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        out[i + nb] = (uint32_t)carry;
    }
}

/* r = r - L when r >= L, else unchanged; r has 9 limbs. The subtraction is
 * always done; its borrow picks the result with a mask. */
static void sc_cond_sub_l(uint32_t r[9])
{
    uint32_t t[9];
    uint64_t borrow = 0;
    for (int i = 0; i < 9; i++) {
        uint64_t li = i < 8 ? sc_l[i] : 0;
        uint64_t d = (uint64_t)r[i] - li - borrow;
        t[i] = (uint32_t)d;
        borrow = (d >> 32) & 1; /* 1 when the limb wrapped */
    }
    /* keep = all-ones when borrow (r < L), i.e. keep r */
    uint32_t keep = vg_barrier_u32(0u - (uint32_t)borrow);
    for (int i = 0; i < 9; i++)
        r[i] = (r[i] & keep) | (t[i] & ~keep);
}

/* out = x mod L for x of 16 limbs (HAC 14.42). */
static void sc_barrett(uint8_t out[32], const uint32_t x[16])
{
    uint32_t q2[18], q3l[18], r[9];
    /* q1 = floor(x / b^7) = x[7..15]; q2 = q1 mu; q3 = floor(q2 / b^9). */
    sc_mul(q2, x + 7, 9, sc_mu, 9);
    /* r2 = (q3 L) mod b^9: the low 9 limbs of q3 L (q3 = q2[9..17]). */
    sc_mul(q3l, q2 + 9, 9, sc_l, 8);
    /* r = (x mod b^9) - r2 mod b^9. HAC 14.42 note (ii): the true
     * difference x - q3 L lies in [0, 3L), and 3L < b^9, so the wrapped
     * value is exact. */
    uint64_t borrow = 0;
    for (int i = 0; i < 9; i++) {
        uint64_t d = (uint64_t)x[i] - q3l[i] - borrow;
        r[i] = (uint32_t)d;
        borrow = (d >> 32) & 1;
    }
    /* r < 3L: at most two subtractions (HAC 14.42 step 4). */
    sc_cond_sub_l(r);
    sc_cond_sub_l(r);
    for (int i = 0; i < 8; i++)
        vg_store32_le(out + 4 * i, r[i]);
    vg_wipe(q2, sizeof q2);
    vg_wipe(q3l, sizeof q3l);
    vg_wipe(r, sizeof r);
}

void vg_sc25519_reduce64(uint8_t out[32], const uint8_t in[64])
{
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = vg_load32_le(in + 4 * i);
    sc_barrett(out, x);
    vg_wipe(x, sizeof x);
}

void vg_sc25519_muladd(uint8_t out[32], const uint8_t a[32], const uint8_t b[32],
                       const uint8_t c[32])
{
    uint32_t al[8], bl[8], x[16];
    for (int i = 0; i < 8; i++) {
        al[i] = vg_load32_le(a + 4 * i);
        bl[i] = vg_load32_le(b + 4 * i);
    }
    sc_mul(x, al, 8, bl, 8);
    /* x += c: a b <= (2^256 - 1)^2, plus c < 2^256 stays below 2^512, so the
     * final carry out of limb 15 is 0. */
    uint64_t carry = 0;
    for (int i = 0; i < 16; i++) {
        uint64_t t = (uint64_t)x[i] + (i < 8 ? vg_load32_le(c + 4 * i) : 0) + carry;
        x[i] = (uint32_t)t;
        carry = t >> 32;
    }
    sc_barrett(out, x);
    vg_wipe(al, sizeof al);
    vg_wipe(bl, sizeof bl);
    vg_wipe(x, sizeof x);
}

int vg_sc25519_is_canonical(const uint8_t s[32])
{
    /* s < L exactly when s - L borrows. */
    uint64_t borrow = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t d = (uint64_t)vg_load32_le(s + 4 * i) - sc_l[i] - borrow;
        borrow = (d >> 32) & 1;
    }
    return (int)borrow;
}
