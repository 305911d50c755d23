/*
 * Arithmetic modulo p = 2^255 - 19 on four 64-bit words with BMI2 (MULX)
 * and ADX (ADCX/ADOX), and the X25519 ladder over it. x86-64 only; compiled
 * only when VG_X86_64, called only when the CPU has BMI2 and ADX.
 *
 * Representation: any value below 2^256 stands for its residue mod p.
 * What passes 2^256 folds back as 38, since 2^256 = 2 * 2^255 = 2 * 19 = 38
 * (mod p). Only the final encoding (fe64_tobytes) reduces below p.
 *
 * The kernels are inline assembly because gcc compiles _addcarryx_u64 to
 * plain ADC: the two independent carry chains (ADCX on CF, ADOX on OF) need
 * the instructions themselves. Each kernel opens with its C prototype, its
 * semantics and its register use. Their C twin is the portable fe51 field
 * (fe51.c); the tests check both against GMP and the ladders against each
 * other.
 *
 * Constant time: the kernels have no branches; carries become masks with
 * SBB and AND. The ladder selects with masks behind a value barrier.
 *
 * Specification: RFC 7748 section 5.
 */
#include <string.h>

#include "common.h"
#include "fe25519.h"

#if defined(VG_X86_64)

#include "fe64_adx_kernels.h"

/* RFC 7748 section 5 decodeUCoordinate: bit 255 cleared; the value may be
 * >= p (the arithmetic does not care). */
static void fe64_frombytes(uint64_t h[4], const uint8_t s[32])
{
    h[0] = vg_load64_le(s);
    h[1] = vg_load64_le(s + 8);
    h[2] = vg_load64_le(s + 16);
    h[3] = vg_load64_le(s + 24) & 0x7fffffffffffffffu;
}

/* Add a word c into h, propagating the carry (value stays < 2^256 by the
 * caller's bound). */
static inline void fe64_add_word(uint64_t h[4], uint64_t c)
{
    unsigned __int128 acc = (unsigned __int128)h[0] + c;
    h[0] = (uint64_t)acc;
    for (int i = 1; i < 4; i++) {
        acc = (unsigned __int128)h[i] + (uint64_t)(acc >> 64);
        h[i] = (uint64_t)acc;
    }
}

/* h = f mod p, canonical (0 <= h < p), for any f below 2^256.
 * Step 1 folds bit 255 (2^255 = 19): value <= 2^255 - 1 + 19 < 2p.
 * Step 2: q = bit 255 of (h + 19) is 1 exactly when h >= p (h + 19 < 2^256);
 * h + 19 q with bit 255 cleared is h - q p. */
static void fe64_canon(uint64_t out[4], const uint64_t f[4])
{
    uint64_t h[4] = {f[0], f[1], f[2], f[3]}, t[4];
    uint64_t top = h[3] >> 63;
    h[3] &= 0x7fffffffffffffffu;
    fe64_add_word(h, 19 * top);
    memcpy(t, h, sizeof t);
    fe64_add_word(t, 19);
    uint64_t q = t[3] >> 63;
    fe64_add_word(h, 19 * q);
    h[3] &= 0x7fffffffffffffffu;
    memcpy(out, h, sizeof h);
    vg_wipe(h, sizeof h);
    vg_wipe(t, sizeof t);
}

/* Canonical encoding (RFC 7748 encodeUCoordinate) of any value below 2^256. */
static void fe64_tobytes(uint8_t s[32], const uint64_t f[4])
{
    uint64_t h[4];
    fe64_canon(h, f);
    for (int i = 0; i < 4; i++)
        vg_store64_le(s + 8 * i, h[i]);
    vg_wipe(h, sizeof h);
}

/* void fe64_nsqr(uint64_t h[4], const uint64_t f[4], unsigned n);
 * h = f^(2^n) folded below 2^256 (n = 0 copies f). Input: any value below
 * 2^256; h may alias f. n is public (the loop count is not secret).
 * Why: the inversion chain is 254 squarings in runs of up to 100; keeping the
 * value in registers across a run saves the store and the reload (a
 * store-to-load forwarding delay) that fe64_sqr pays on every call.
 * Registers: a0..a3 the value (in and out); r0..r6, t0, t1 scratch; the
 * 512-bit square is r0..r6 plus a0 (a0 is dead once a0^2 is taken, so it
 * becomes the top word) and a1 becomes the zero word once a1^2 is taken;
 * rdx the MULX multiplier; the counter in memory (13 allocatable registers
 * and rdx, so that the kernel also builds with a frame pointer at -O0). */
static void fe64_nsqr(uint64_t h[4], const uint64_t f[4], unsigned n)
{
    uint64_t a0 = f[0], a1 = f[1], a2 = f[2], a3 = f[3];
    uint64_t r0, r1, r2, r3, r4, r5, r6, t0, t1;
    if (n == 0) {
        h[0] = a0, h[1] = a1, h[2] = a2, h[3] = a3;
        return;
    }
    __asm__ volatile("1:\n\t"
            "movq %[a0], %%rdx\n\t"
            "mulxq %[a1], %[r1], %[r2]\n\t" /* a0 a1 at word 1 */
            "mulxq %[a2], %[t0], %[r3]\n\t" /* a0 a2 at word 2 */
            "addq %[t0], %[r2]\n\t"
            "mulxq %[a3], %[t0], %[r4]\n\t" /* a0 a3 at word 3 */
            "adcq %[t0], %[r3]\n\t"
            "movq %[a1], %%rdx\n\t"
            "mulxq %[a3], %[t0], %[r5]\n\t" /* a1 a3 at word 4 */
            "adcq %[t0], %[r4]\n\t"
            "movq %[a2], %%rdx\n\t"
            "mulxq %[a3], %[t0], %[r6]\n\t" /* a2 a3 at word 5 */
            "adcq %[t0], %[r5]\n\t"
            /* a0 (a1 2^64 + a2 2^128 + a3 2^192) + a1 a3 2^256 + a2 a3 2^320 < 2^448: */
            /* the carry into r6 does not overflow it */
            "adcq $0, %[r6]\n\t"
            "movq %[a1], %%rdx\n\t"
            "mulxq %[a2], %[t0], %[t1]\n\t" /* a1 a2 at word 3 */
            "addq %[t0], %[r3]\n\t"
            "adcq %[t1], %[r4]\n\t"
            "adcq $0, %[r5]\n\t"
            /* all six cross products: sum < 2^448 (as in fe64_sqr), no carry out of r6 */
            "adcq $0, %[r6]\n\t"
            /* double (CF chain) and add the squares (OF chain) */
            "xorl %k[t0], %k[t0]\n\t" /* CF = OF = 0 */
            "movq %[a0], %%rdx\n\t"
            "mulxq %%rdx, %[r0], %[t1]\n\t"
            "adcxq %[r1], %[r1]\n\t"
            "adoxq %[t1], %[r1]\n\t"
            "movq %[a1], %%rdx\n\t"
            "mulxq %%rdx, %[t0], %[t1]\n\t"
            "adcxq %[r2], %[r2]\n\t"
            "adoxq %[t0], %[r2]\n\t"
            "adcxq %[r3], %[r3]\n\t"
            "adoxq %[t1], %[r3]\n\t"
            "movq %[a2], %%rdx\n\t"
            "mulxq %%rdx, %[t0], %[t1]\n\t"
            "adcxq %[r4], %[r4]\n\t"
            "adoxq %[t0], %[r4]\n\t"
            "adcxq %[r5], %[r5]\n\t"
            "adoxq %[t1], %[r5]\n\t"
            "movq %[a3], %%rdx\n\t"
            "mulxq %%rdx, %[t0], %[a0]\n\t" /* a0 := top word r7 */
            "adcxq %[r6], %[r6]\n\t"
            "adoxq %[t0], %[r6]\n\t"
            "movl $0, %k[a1]\n\t" /* a1 := zero word; MOV leaves the flags */
            /* f^2 < 2^512: the top word takes both carries without overflow */
            "adcxq %[a1], %[a0]\n\t"
            "adoxq %[a1], %[a0]\n\t"
            /* fold: (r0..r3) + 38 (r4, r5, r6, a0), as FE64_REDUCE_512 */
            "movl $38, %%edx\n\t"
            "xorl %k[a1], %k[a1]\n\t" /* a1 = 0, CF = OF = 0 */
            "mulxq %[r4], %[t0], %[t1]\n\t"
            "adcxq %[t0], %[r0]\n\t"
            "adoxq %[t1], %[r1]\n\t"
            "mulxq %[r5], %[t0], %[t1]\n\t"
            "adcxq %[t0], %[r1]\n\t"
            "adoxq %[t1], %[r2]\n\t"
            "mulxq %[r6], %[t0], %[t1]\n\t"
            "adcxq %[t0], %[r2]\n\t"
            "adoxq %[t1], %[r3]\n\t"
            "mulxq %[a0], %[t0], %[r4]\n\t"
            "adcxq %[t0], %[r3]\n\t"
            /* lo + 38 hi < 39 * 2^256: the top word r4 ends at most 38, no carry out */
            "adoxq %[a1], %[r4]\n\t"
            "adcxq %[a1], %[r4]\n\t"
            /* one fold at bit 255, as FE64_REDUCE_512: q = 2 r4 + bit 63 of r3 <= 77 */
            "shldq $1, %[r3], %[r4]\n\t"
            "btrq $63, %[r3]\n\t"
            "imulq $19, %[r4], %[r4]\n\t" /* 19 q <= 1463 */
            "addq %[r4], %[r0]\n\t"
            "adcq %[a1], %[r1]\n\t"
            "adcq %[a1], %[r2]\n\t"
            /* < 2^255 + 1463: no carry out of r3 */
            "adcq %[a1], %[r3]\n\t"
            "movq %[r0], %[a0]\n\t"
            "movq %[r1], %[a1]\n\t"
            "movq %[r2], %[a2]\n\t"
            "movq %[r3], %[a3]\n\t"
            "decl %[n]\n\t"
            "jnz 1b\n\t"
            : [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2), [a3] "+&r"(a3), [r0] "=&r"(r0),
              [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4), [r5] "=&r"(r5),
              [r6] "=&r"(r6), [t0] "=&r"(t0), [t1] "=&r"(t1), [n] "+m"(n)
            :
            : "rdx", "cc");
    h[0] = a0, h[1] = a1, h[2] = a2, h[3] = a3;
}

/* ---- inversion by divsteps ---------------------------------------------------
 * h = 1/f mod p (0 when f = 0 mod p), constant time, by the divsteps of
 * Bernstein and Yang ("Fast constant-time gcd computation and modular
 * inversion", 2019):
 *   divstep(delta, f, g) = (1 - delta, g, (g - f) / 2)  if delta > 0, g odd,
 *                          (1 + delta, f, (g + (g mod 2) f) / 2)  otherwise;
 * f stays odd. From delta = 1, f = p, g = x (reduced, 0 <= x < p), g is 0
 * and f = +-gcd(p, x) (+-1, or p for x = 0) after (49 d + 57) / 17 steps
 * when f^2 + 4 g^2 <= 5 * 2^(2 d) (their Theorem 11.2): d = 255.5 here, so
 * 738 steps; we run 13 batches of 60 = 780, a fixed count.
 * Why: Fermat's f^(p-2) is 254 dependent squarings and 11 multiplications
 * (8.5k TSC ticks here, most of a fixed-base multiplication); a batch of 60
 * divsteps is a short chain of word operations per step.
 *
 * A batch runs 60 divsteps on the low words of f and g and records them as
 * T = [u v; q r] (scaled by 4) with 2^62 (f', g') = T (f, g) (|u| + |v|
 * <= 2^62 and |q| + |r| <= 2^62), then applies T to the full f and g (an exact division
 * by 2^62) and to the cofactors d and e (d x = f, e x = g mod p), where the
 * division by 2^62 is modular: a multiple of p clears the low 62 bits first.
 * At the end 1/x = f d (f = +-1).
 *
 * Numbers are five signed 62-bit limbs, value = sum v[i] 2^(62 i), limbs
 * 0..3 in [0, 2^62) after every update, limb 4 signed. p is written
 * {-19, 0, 0, 0, 128} (2^255 - 19 = 128 * 2^248 - 19): multiplying by p
 * costs two products. d and e stay in (-2p, p). Signed right shifts of
 * __int128 are arithmetic (gcc, clang). */
typedef struct {
    int64_t v[5];
} fe64_s62;

typedef struct {
    int64_t u, v, q, r;
} fe64_trans;

#define FE64_M62 ((UINT64_C(1) << 62) - 1)
#define FE64_PINV62 UINT64_C(0x39435e50d79435e5) /* p^-1 = (-19)^-1 mod 2^62 */

/* 30 divsteps on the low words *f (odd) and *g from nd = -delta; returns
 * the new -delta and leaves in *f, *g the words after the steps. The words
 * start with 62 exact bits (limb 0); after i steps the low 62 - i bits are
 * exact, and a step reads bit 0 of g only: 60 steps in a row are exact. Per step, pos = all-ones when delta > 0 (nd < 0),
 * odd = all-ones when g is odd, swap = pos & odd:
 *   g += odd & (pos ? -f : f)    (g - f in the swap case, g + f when odd)
 *   f += swap & g                (f + (g - f) = the old g)
 *   delta = (swap ? -delta : delta) + 1;  g /= 2
 * and the same on the rows (u, v) and (q, r) of the matrix, with (u, v)
 * doubled instead of g halved, so that it stays integral. Why -delta: its
 * sign is one SAR. Why 30 steps: each row is packed in one word, u + 2^32 v
 * (mod 2^64), and the updates are linear (add, negate, double), so a row
 * costs the operations of one number; |u| + |v| <= 2^30 keeps each field
 * inside a signed 32-bit half. The rows unpack as u = the low half
 * sign-extended, v = (row - u) / 2^32. */
static int64_t fe64_divsteps30(int64_t nd, uint64_t *fp, uint64_t *gp, fe64_trans *t)
{
    uint64_t f = *fp, g = *gp, uv = 1, qr = UINT64_C(1) << 32;
    for (int i = 0; i < 30; i++) {
        uint64_t pos = (uint64_t)(nd >> 63);
        uint64_t odd = 0 - (g & 1);
        uint64_t swap = vg_barrier_u64(pos & odd);
        g += ((f ^ pos) - pos) & odd;
        qr += ((uv ^ pos) - pos) & odd;
        f += g & swap;
        uv += qr & swap;
        nd = (int64_t)((((uint64_t)nd ^ swap) - swap) - 1);
        g >>= 1;
        uv <<= 1;
    }
    t->u = (int64_t)(int32_t)(uint32_t)uv;
    t->v = (int64_t)(uv - (uint64_t)t->u) >> 32;
    t->q = (int64_t)(int32_t)(uint32_t)qr;
    t->r = (int64_t)(qr - (uint64_t)t->q) >> 32;
    *fp = f, *gp = g;
    return nd;
}

/* 60 divsteps: two runs of 30 on the running low words, their matrices
 * multiplied and scaled to the limb size, T = 4 T2 T1, so that
 * 2^62 (f', g') = T (f, g) as the updates expect. Entries: |T2 T1|
 * <= (|u2| + |v2|) max |T1| <= 2^30 2^30, and |u| + |v| <= 4 2^60 = 2^62. */
static int64_t fe64_divsteps60(int64_t nd, uint64_t f, uint64_t g, fe64_trans *t)
{
    fe64_trans a, b;
    nd = fe64_divsteps30(nd, &f, &g, &a);
    nd = fe64_divsteps30(nd, &f, &g, &b);
    t->u = 4 * (b.u * a.u + b.v * a.q);
    t->v = 4 * (b.u * a.v + b.v * a.r);
    t->q = 4 * (b.q * a.u + b.r * a.q);
    t->r = 4 * (b.q * a.v + b.r * a.r);
    return nd;
}

/* (f, g) = T (f, g) / 2^62, exact (the batch cleared the low 62 bits of
 * both). Products |u f_i| < 2^124 (limbs < 2^62, |u| <= 2^62): each
 * accumulator stays below 2^126 in absolute value. */
static void fe64_update_fg(fe64_s62 *f, fe64_s62 *g, const fe64_trans *t)
{
    __int128 cf = (__int128)t->u * f->v[0] + (__int128)t->v * g->v[0];
    __int128 cg = (__int128)t->q * f->v[0] + (__int128)t->r * g->v[0];
    cf >>= 62;
    cg >>= 62;
    for (int i = 1; i < 5; i++) {
        cf += (__int128)t->u * f->v[i] + (__int128)t->v * g->v[i];
        cg += (__int128)t->q * f->v[i] + (__int128)t->r * g->v[i];
        f->v[i - 1] = (int64_t)((uint64_t)cf & FE64_M62);
        g->v[i - 1] = (int64_t)((uint64_t)cg & FE64_M62);
        cf >>= 62;
        cg >>= 62;
    }
    f->v[4] = (int64_t)cf;
    g->v[4] = (int64_t)cg;
}

/* (d, e) = (T (d, e) + p (md, me)) / 2^62 with md, me chosen so that the
 * low 62 bits vanish, which is T (d, e) / 2^62 mod p. In: d, e in (-2p, p).
 * md starts as u [d < 0] + v [e < 0] (adding p to a negative input), then
 * loses k in [0, 2^62) so that 2^62 divides: the result is
 * (u d' + v e' - k p) / 2^62 with d', e' in (-p, p), which is in (-2p, p)
 * since |u| + |v| <= 2^62. |md| < 2^63. */
static void fe64_update_de(fe64_s62 *d, fe64_s62 *e, const fe64_trans *t)
{
    int64_t sd = d->v[4] >> 63, se = e->v[4] >> 63;
    int64_t md = (t->u & sd) + (t->v & se);
    int64_t me = (t->q & sd) + (t->r & se);
    __int128 cd = (__int128)t->u * d->v[0] + (__int128)t->v * e->v[0];
    __int128 ce = (__int128)t->q * d->v[0] + (__int128)t->r * e->v[0];
    md -= (int64_t)((FE64_PINV62 * (uint64_t)cd + (uint64_t)md) & FE64_M62);
    me -= (int64_t)((FE64_PINV62 * (uint64_t)ce + (uint64_t)me) & FE64_M62);
    cd += (__int128)-19 * md; /* limb 0 of p md: now 0 mod 2^62 */
    ce += (__int128)-19 * me;
    cd >>= 62;
    ce >>= 62;
    for (int i = 1; i < 5; i++) {
        cd += (__int128)t->u * d->v[i] + (__int128)t->v * e->v[i];
        ce += (__int128)t->q * d->v[i] + (__int128)t->r * e->v[i];
        if (i == 4) { /* limb 4 of p md (the loop index is public) */
            cd += (__int128)128 * md;
            ce += (__int128)128 * me;
        }
        d->v[i - 1] = (int64_t)((uint64_t)cd & FE64_M62);
        e->v[i - 1] = (int64_t)((uint64_t)ce & FE64_M62);
        cd >>= 62;
        ce >>= 62;
    }
    d->v[4] = (int64_t)cd;
    e->v[4] = (int64_t)ce;
}

static void fe64_invert(uint64_t h[4], const uint64_t x[4])
{
    fe64_s62 f = {{-19, 0, 0, 0, 128}}, g, d = {{0, 0, 0, 0, 0}}, e = {{1, 0, 0, 0, 0}};
    fe64_trans t;
    uint64_t w[4];
    int64_t nd = -1; /* -delta */
    fe64_canon(w, x); /* 0 <= w < p */
    g.v[0] = (int64_t)(w[0] & FE64_M62);
    g.v[1] = (int64_t)(((w[0] >> 62) | (w[1] << 2)) & FE64_M62);
    g.v[2] = (int64_t)(((w[1] >> 60) | (w[2] << 4)) & FE64_M62);
    g.v[3] = (int64_t)(((w[2] >> 58) | (w[3] << 6)) & FE64_M62);
    g.v[4] = (int64_t)(w[3] >> 56);
    /* f's limbs in the update are {2^62 - 19, 2^62 - 1, 2^62 - 1, 2^62 - 1,
     * 127} after the first batch; the unnormalised start value is fine as
     * the update only needs |f_i| < 2^62 */
    for (int i = 0; i < 13; i++) {
        nd = fe64_divsteps60(nd, (uint64_t)f.v[0], (uint64_t)g.v[0], &t);
        fe64_update_de(&d, &e, &t);
        fe64_update_fg(&f, &g, &t);
    }
    /* f = +-1 (or p when x = 0, and then d = 0): h = f d, brought into
     * (0, 4p) by adding 2p = {-38, 0, 0, 0, 256}, limbs normalised. */
    int64_t neg = f.v[4] >> 63;
    int64_t c = -38; /* |c| < 2^63 throughout: limbs and carries are below 2^62 */
    uint64_t o[5];
    for (int i = 0; i < 4; i++) {
        c += (int64_t)(((uint64_t)d.v[i] ^ (uint64_t)neg) - (uint64_t)neg);
        o[i] = (uint64_t)c & FE64_M62;
        c >>= 62;
    }
    c += (int64_t)(((uint64_t)d.v[4] ^ (uint64_t)neg) - (uint64_t)neg) + 256;
    o[4] = (uint64_t)c; /* the value is in (0, 4p): o[4] in [0, 2^9) */
    w[0] = o[0] | (o[1] << 62);
    w[1] = (o[1] >> 2) | (o[2] << 60);
    w[2] = (o[2] >> 4) | (o[3] << 58);
    w[3] = (o[3] >> 6) | (o[4] << 56);
    /* value < 4p < 2^257: fold bits 255 and 256 (2^255 = 19) */
    uint64_t top = (w[3] >> 63) | ((o[4] >> 8) << 1);
    w[3] &= 0x7fffffffffffffffu;
    fe64_add_word(w, 19 * top); /* < 2^255 + 57: no carry out */
    h[0] = w[0], h[1] = w[1], h[2] = w[2], h[3] = w[3];
    vg_wipe(&f, sizeof f);
    vg_wipe(&g, sizeof g);
    vg_wipe(&d, sizeof d);
    vg_wipe(&e, sizeof e);
    vg_wipe(&t, sizeof t);
    vg_wipe(w, sizeof w);
    vg_wipe(o, sizeof o);
    vg_wipe(&c, sizeof c);
}

/* Out-of-line copies of the inline kernels for the operation table. */
static void fe64_add_fn(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]) { fe64_add(h, f, g); }
static void fe64_sub_fn(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]) { fe64_sub(h, f, g); }
static void fe64_mul_fn(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]) { fe64_mul(h, f, g); }
static void fe64_sqr_fn(uint64_t h[4], const uint64_t f[4]) { fe64_sqr(h, f); }
static void fe64_nsqr_fn(uint64_t h[4], const uint64_t f[4], unsigned n) { fe64_nsqr(h, f, n); }
static void fe64_mul121666_fn(uint64_t h[4], const uint64_t f[4]) { fe64_mul121666(h, f); }

static const struct vg_fe64_ops g_fe64_adx_ops = {
    "adx",       fe64_frombytes, fe64_tobytes, fe64_add_fn,        fe64_sub_fn,
    fe64_mul_fn, fe64_sqr_fn,    fe64_mul121666_fn, fe64_invert,
    fe64_nsqr_fn,
};

const struct vg_fe64_ops *vg_fe64_adx_get(void)
{
    return vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX) ? &g_fe64_adx_ops : NULL;
}

/* ---- the ladder without swaps ------------------------------------------------
 * RFC 7748 section 5 keeps R0 = [m]P and R1 = [m+1]P and, for bit b, sets
 * R_{1-b} = R0 + R1 and R_b = 2 R_b, swapping the pair before and after.
 * The differential addition is symmetric in R0 and R1 (the sign of DA - CB
 * flips, but it is squared), so only the choice of the point to double
 * depends on the bits. Here the state is (Pd, Ps), the results of the last
 * doubling and of the last addition, with R0 = Pd when the previous bit was 0
 * and R0 = Ps when it was 1. The point to double is then Ps exactly when
 * b != previous bit, and a mux picks its (x + z, x - z) from the four sums
 * and differences the addition needs anyway: two field elements selected per
 * step instead of four swapped twice. The start is Pd = (1 : 0), Ps = (u : 1)
 * with previous bit 0; the end is R0, one more mux. */

struct ladder64 {
    uint8_t k[32];
    uint64_t x1[4], xd[4], zd[4], xs[4], zs[4];
    uint64_t a[4], b[4], c[4], d[4], s[4], t[4], da[4], cb[4], aa[4], bb[4], e[4];
};

/* h = mask ? g : f, with mask all-ones or zero. */
static inline void fe64_mux(uint64_t h[4], const uint64_t f[4], const uint64_t g[4], uint64_t mask)
{
    for (int i = 0; i < 4; i++)
        h[i] = f[i] ^ (mask & (f[i] ^ g[i]));
}

/* One doubling of (xd : zd), the ladder's formulas without the addition:
 * the last three steps, where the clamped scalar's bits 2, 1, 0 are zero, so
 * R0 is only doubled and R1 is never used again. Bounds: xd, zd below
 * FE64_W (mul outputs or the ladder's start values) on entry and exit. */
static inline void x25519_dbl64(struct ladder64 *st)
{
    fe64_addw(st->a, st->xd, st->zd); /* zd < FE64_W */
    fe64_subw(st->b, st->xd, st->zd); /* zd < FE64_W */
    fe64_sqr(st->aa, st->a);
    fe64_sqr(st->bb, st->b);
    fe64_subw(st->e, st->aa, st->bb); /* bb < FE64_W */
    fe64_mul(st->xd, st->aa, st->bb);
    fe64_mul121666_add(st->a, st->e, st->bb);
    fe64_mul(st->zd, st->e, st->a);
}

static void x25519_ladder64(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32])
{
    struct ladder64 st;
    uint64_t prev = 0;
    vg_x25519_clamp(st.k, scalar);
    fe64_frombytes(st.x1, u);
    memset(st.xd, 0, sizeof st.xd);
    st.xd[0] = 1;
    memset(st.zd, 0, sizeof st.zd);
    memcpy(st.xs, st.x1, sizeof st.xs);
    memset(st.zs, 0, sizeof st.zs);
    st.zs[0] = 1;
    /* Bounds: xd, zd, xs, zs stay below FE64_W (1, 0, x1 < 2^255 at the
     * start, mul and sqr outputs after each step), which is what the
     * single-fold addw and subw need from their second operand; da, cb, aa,
     * bb are mul and sqr outputs too. */
    for (int i = 254; i >= 3; i--) {
        uint64_t bit = (uint64_t)(st.k[i >> 3] >> (i & 7)) & 1;
        uint64_t mask = vg_barrier_u64(0 - (bit ^ prev)); /* all-ones: double Ps */
        prev = bit;
        fe64_addw(st.a, st.xd, st.zd); /* zd < FE64_W */
        fe64_subw(st.b, st.xd, st.zd);
        fe64_addw(st.c, st.xs, st.zs); /* zs < FE64_W */
        fe64_subw(st.d, st.xs, st.zs);
        fe64_mux(st.s, st.a, st.c, mask);
        fe64_mux(st.t, st.b, st.d, mask);
        /* addition (DA, CB) and doubling (S^2, T^2) interleaved */
        fe64_mul(st.da, st.d, st.a);
        fe64_sqr(st.aa, st.s);
        fe64_mul(st.cb, st.c, st.b);
        fe64_sqr(st.bb, st.t);
        fe64_addw(st.xs, st.da, st.cb); /* cb < FE64_W */
        fe64_subw(st.e, st.aa, st.bb);  /* bb < FE64_W */
        fe64_subw(st.zs, st.da, st.cb); /* cb < FE64_W */
        /* z = E (AA + 121665 E) = E (BB + 121666 E), since AA = BB + E */
        fe64_mul121666_add(st.a, st.e, st.bb);
        fe64_sqr(st.xs, st.xs);
        fe64_sqr(st.zs, st.zs);
        fe64_mul(st.xd, st.aa, st.bb);
        fe64_mul(st.zs, st.x1, st.zs);
        fe64_mul(st.zd, st.e, st.a);
    }
    uint64_t mask = vg_barrier_u64(0 - prev); /* R0 = Ps when bit 3 was 1 */
    fe64_mux(st.xd, st.xd, st.xs, mask);
    fe64_mux(st.zd, st.zd, st.zs, mask);
    /* bits 2, 1, 0 of the clamped scalar are zero: R0 doubles three times */
    x25519_dbl64(&st);
    x25519_dbl64(&st);
    x25519_dbl64(&st);
    fe64_invert(st.b, st.zd);
    fe64_mul(st.a, st.xd, st.b);
    fe64_tobytes(out, st.a);
    vg_wipe(&st, sizeof st);
    vg_wipe(&prev, sizeof prev);
}

static const struct vg_x25519_impl g_x25519_adx = {"adx", x25519_ladder64};

const struct vg_x25519_impl *vg_x25519_adx_get(void)
{
    return vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX) ? &g_x25519_adx : NULL;
}

#endif /* VG_X86_64 */
