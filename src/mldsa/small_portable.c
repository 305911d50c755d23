/*
 * Small products c s (small.h) in portable C, written so that compilers
 * vectorise it with 16-bit lanes (SSE2 on x86-64: eight lanes, PMULLW and
 * PMULHW for the Montgomery products): the portable variant's small_ntt and
 * small_mul, and the c t0 split every variant uses (vg_mldsa_small_t0_*).
 *
 * Ring: Z_p[X]/(X^256 + 1) with p = 7681, where 512 divides p - 1, so the
 * NTT splits X^256 + 1 completely and the product in the transformed
 * domain is coefficientwise. |c s| <= 196 < (p - 1) / 2, so the centred
 * residue of the result is the exact integer product (small.h).
 *
 * Layout: the first five forward layers (lengths 128..8) run on the
 * natural order, where a butterfly's two inputs are whole runs of eight
 * coefficients with one twiddle (one vector operation per eight). The
 * last three (lengths 4, 2, 1) would pair coefficients inside a run, so
 * each group of 64 coefficients, seen as eight rows of eight, is
 * transposed first: row j then holds coefficient j of the eight runs, and
 * those layers pair whole rows again, with a twiddle per lane (lane i is
 * run 8 g + i). The transform stays in that order: the product is
 * coefficientwise, and the inverse starts with the last three layers on
 * the transposed rows, transposes back and finishes on the natural order.
 * Twiddles: src/mldsa/small_zetas.h (tools/gen_mldsa_small_zetas.c).
 *
 * Arithmetic (16-bit, Montgomery R = 2^16):
 *   fqmul(a, w, wq) = a w R^-1 mod p with wq = w p^-1 mod 2^16: t = a wq
 *     mod 2^16 makes a w - t p divisible by 2^16, and the quotient is the
 *     difference of the high halves. Pre |a w| < p 2^15.
 *     Post |r| <= |a w| / 2^16 + p / 2 (< p / 2 + 1 + |a w| / 2^16).
 *   barrett(a): a - round(a / p) p (or one p more or less) for any int16
 *     a, |r| <= (p - 1) / 2 = 3840 (checked for all 65536 inputs when
 *     written, as the fqmul bound on a grid of inputs).
 * Bounds (|w| <= 3840): forward, |in| <= 64: after the layers of lengths
 *   128, 64, 32, 16: 3909, 7979, 12288, 16849 (each adds |fqmul| <=
 *   |x| 3840 / 2^16 + 3841); barrett (<= 3840); lengths 8, 4, 2, 1: 7907,
 *   12211, 16768, 21592 < 2^15; barrett at the end (<= 3840, what mul
 *   needs). mul: the product of two forward outputs is < 2^24 < p 2^15,
 *   |r| <= 4066. Inverse (Gentleman-Sande: sums add, differences go
 *   through fqmul, <= |d| 3840 / 2^16 + 3841): the sums are reduced after
 *   the layers of lengths 2, 8 and 32: then the layer inputs are at most
 *   4066, 8132, 4794, 9588, 4965, 9930, 5005, 10010 (lengths 1..128) and no
 *   sum or difference exceeds 20020 < 2^15; the last layer's outputs
 *   (<= 20020) times F (|F| <= 3840) are < p 2^15; barrett gives the
 *   centred residue.
 * Constant time: no branch, index or division on coefficient values.
 */
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "small.h"
#include "small_zetas.h"

#define P VG_SMALL_P

static inline int16_t sm_fqmul(int16_t a, int16_t w, int16_t wq)
{
    int16_t t = (int16_t)(uint16_t)((uint32_t)(uint16_t)a * (uint16_t)wq);
    int16_t ph = (int16_t)(((int32_t)a * w) >> 16);
    int16_t th = (int16_t)(((int32_t)t * P) >> 16);
    return (int16_t)(ph - th);
}

static inline int16_t sm_barrett(int16_t a)
{
    /* round(a / p) as (hi16(a v) + 2^9) >> 10 with v = round(2^26 / p)
     * = 8737: within one of round(a / p), exactly where a / p is near a
     * half-integer, so |r| <= (p + 1) / 2 (checked exhaustively). */
    int16_t h = (int16_t)(((int32_t)a * 8737) >> 16);
    int16_t t = (int16_t)((h + 512) >> 10);
    return (int16_t)(a - t * P);
}

/* Eight Cooley-Tukey butterflies with one twiddle: (x, y) <- (x + w y,
 * x - w y). */
static inline void sm_ct8(int16_t *restrict x, int16_t *restrict y, int16_t w, int16_t wq)
{
    for (unsigned l = 0; l < 8; l++) {
        int16_t t = sm_fqmul(y[l], w, wq);
        y[l] = (int16_t)(x[l] - t);
        x[l] = (int16_t)(x[l] + t);
    }
}

/* The same with a twiddle per lane. */
static inline void sm_ct8v(int16_t *restrict x, int16_t *restrict y, const int16_t *w,
                           const int16_t *wq)
{
    for (unsigned l = 0; l < 8; l++) {
        int16_t t = sm_fqmul(y[l], w[l], wq[l]);
        y[l] = (int16_t)(x[l] - t);
        x[l] = (int16_t)(x[l] + t);
    }
}

/* Eight Gentleman-Sande butterflies: (x, y) <- (x + y, w (x - y)), the sum
 * Barrett-reduced when red. */
static inline void sm_gs8(int16_t *restrict x, int16_t *restrict y, int16_t w, int16_t wq, int red)
{
    for (unsigned l = 0; l < 8; l++) {
        int16_t s = (int16_t)(x[l] + y[l]);
        y[l] = sm_fqmul((int16_t)(x[l] - y[l]), w, wq);
        x[l] = red ? sm_barrett(s) : s;
    }
}

static inline void sm_gs8v(int16_t *restrict x, int16_t *restrict y, const int16_t *w,
                           const int16_t *wq, int red)
{
    for (unsigned l = 0; l < 8; l++) {
        int16_t s = (int16_t)(x[l] + y[l]);
        y[l] = sm_fqmul((int16_t)(x[l] - y[l]), w[l], wq[l]);
        x[l] = red ? sm_barrett(s) : s;
    }
}

/* One inverse layer of length len >= 8 on the natural order (block b:
 * twiddle k = 128 / len + b); always inlined so that len and red are
 * constants. */
static inline __attribute__((always_inline)) void sm_gs_layer(int16_t *a, unsigned len, int red)
{
    for (unsigned b = 0; b < 128 / len; b++) {
        unsigned k = 128 / len + b;
        int16_t *x = a + 2 * len * b;
        for (unsigned j = 0; j < len; j += 8)
            sm_gs8(x + j, x + j + len, vg_small_inat[k][0], vg_small_inat[k][1], red);
    }
}

/* Transpose each 8 x 8 block of int16 (four blocks of 64). */
static void sm_transpose(int16_t *a)
{
    for (unsigned g = 0; g < 4; g++) {
        int16_t b[64];
        memcpy(b, a + 64 * g, sizeof b);
        for (unsigned i = 0; i < 8; i++)
            for (unsigned j = 0; j < 8; j++)
                a[64 * g + 8 * j + i] = b[8 * i + j];
    }
}

void vg_mldsa_small_ntt_portable(vg_mldsa_spoly *r, const vg_mldsa_poly *in)
{
    int16_t *a = r->coeffs;
    for (unsigned i = 0; i < VG_MLDSA_N; i++)
        a[i] = (int16_t)in->coeffs[i];
    /* Lengths 128..8, natural order: block b of length len, k = 128/len + b. */
    /* nb = 128 / len, kept beside len: no DIV (tools/ct-audit.py) */
    for (unsigned len = 128, nb = 1; len >= 8; len >>= 1, nb <<= 1) {
        for (unsigned b = 0; b < nb; b++) {
            unsigned k = nb + b;
            int16_t *x = a + 2 * len * b;
            for (unsigned j = 0; j < len; j += 8)
                sm_ct8(x + j, x + j + len, vg_small_nat[k][0], vg_small_nat[k][1]);
        }
        if (len == 16)
            for (unsigned i = 0; i < VG_MLDSA_N; i++)
                a[i] = sm_barrett(a[i]);
    }
    sm_transpose(a);
    for (unsigned g = 0; g < 4; g++) {
        int16_t *x = a + 64 * g; /* row j at x + 8 j */
        /* Length 4: rows (j, j + 4); length 2: (0, 2), (1, 3) with h = 0,
         * (4, 6), (5, 7) with h = 1; length 1: (2h, 2h + 1). */
        for (unsigned j = 0; j < 4; j++)
            sm_ct8v(x + 8 * j, x + 8 * (j + 4), vg_small_t4[g][0], vg_small_t4_q[g][0]);
        for (unsigned h = 0; h < 2; h++)
            for (unsigned j = 0; j < 2; j++)
                sm_ct8v(x + 8 * (4 * h + j), x + 8 * (4 * h + j + 2), vg_small_t2[g][h],
                        vg_small_t2_q[g][h]);
        for (unsigned h = 0; h < 4; h++)
            sm_ct8v(x + 8 * (2 * h), x + 8 * (2 * h + 1), vg_small_t1[g][h], vg_small_t1_q[g][h]);
    }
    for (unsigned i = 0; i < VG_MLDSA_N; i++)
        a[i] = sm_barrett(a[i]);
}

void vg_mldsa_small_mul_portable(vg_mldsa_poly *r, const vg_mldsa_spoly *pa,
                                 const vg_mldsa_spoly *pb)
{
    int16_t a[VG_MLDSA_N];
    for (unsigned i = 0; i < VG_MLDSA_N; i++) {
        /* fqmul with a computed second factor: t = a b p^-1 mod 2^16. */
        int16_t x = pa->coeffs[i], y = pb->coeffs[i];
        int16_t yq = (int16_t)(uint16_t)((uint32_t)(uint16_t)y * VG_SMALL_PINV);
        a[i] = sm_fqmul(x, y, yq);
    }
    for (unsigned g = 0; g < 4; g++) {
        int16_t *x = a + 64 * g;
        for (unsigned h = 0; h < 4; h++)
            sm_gs8v(x + 8 * (2 * h), x + 8 * (2 * h + 1), vg_small_it1[g][h], vg_small_it1_q[g][h],
                    0);
        for (unsigned h = 0; h < 2; h++)
            for (unsigned j = 0; j < 2; j++)
                sm_gs8v(x + 8 * (4 * h + j), x + 8 * (4 * h + j + 2), vg_small_it2[g][h],
                        vg_small_it2_q[g][h], 1);
        for (unsigned j = 0; j < 4; j++)
            sm_gs8v(x + 8 * j, x + 8 * (j + 4), vg_small_it4[g][0], vg_small_it4_q[g][0], 0);
    }
    sm_transpose(a);
    sm_gs_layer(a, 8, 1);
    sm_gs_layer(a, 16, 0);
    sm_gs_layer(a, 32, 1);
    sm_gs_layer(a, 64, 0);
    sm_gs_layer(a, 128, 0);
    for (unsigned i = 0; i < VG_MLDSA_N; i++)
        r->coeffs[i] = sm_barrett(sm_fqmul(a[i], VG_SMALL_F, VG_SMALL_F_Q));
    vg_wipe(a, sizeof a);
}

void vg_mldsa_small_t0_ntt(const struct vg_mldsa_backend *be, vg_mldsa_spoly *lo,
                           vg_mldsa_spoly *hi, vg_mldsa_poly *t, vg_mldsa_poly *scratch)
{
    if (be->small_t0_ntt) {
        be->small_t0_ntt(lo, hi, t);
        return;
    }
    for (unsigned i = 0; i < VG_MLDSA_N; i++) {
        /* lo = t mod+- 64 in [-32, 32), hi = (t - lo) / 64 exactly (an
         * arithmetic shift of a multiple of 64): |t| <= 2^12 gives
         * -64 <= hi <= 64. */
        int32_t l = (int32_t)(((uint32_t)t->coeffs[i] + 32u) & 63u) - 32;
        scratch->coeffs[i] = l;
        t->coeffs[i] = (t->coeffs[i] - l) >> 6;
    }
    be->small_ntt(lo, scratch);
    be->small_ntt(hi, t);
}

void vg_mldsa_small_t0_mul(const struct vg_mldsa_backend *be, vg_mldsa_poly *r,
                           const vg_mldsa_spoly *c, const vg_mldsa_spoly *lo,
                           const vg_mldsa_spoly *hi, vg_mldsa_poly *scratch)
{
    if (be->small_t0_mul) {
        be->small_t0_mul(r, c, lo, hi);
        return;
    }
    be->small_mul(r, c, hi);       /* |c hi| <= 3840 */
    be->small_mul(scratch, c, lo); /* |c lo| <= 1920 */
    for (unsigned i = 0; i < VG_MLDSA_N; i++)
        r->coeffs[i] = r->coeffs[i] * 64 + scratch->coeffs[i];
}
