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

/* Canonical encoding (RFC 7748 encodeUCoordinate) of any value below 2^256.
 * Step 1 folds bit 255 (2^255 = 19): value <= 2^255 - 1 + 19 < 2p.
 * Step 2: q = bit 255 of (h + 19) is 1 exactly when h >= p (h + 19 < 2^256);
 * h + 19 q with bit 255 cleared is h - q p. */
static void fe64_tobytes(uint8_t s[32], const uint64_t f[4])
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
    for (int i = 0; i < 4; i++)
        vg_store64_le(s + 8 * i, h[i]);
    vg_wipe(h, sizeof h);
    vg_wipe(t, sizeof t);
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
            "imulq $38, %[r4], %[r4]\n\t" /* 38 * top <= 1444 */
            "addq %[r4], %[r0]\n\t"
            "adcq %[a1], %[r1]\n\t"
            "adcq %[a1], %[r2]\n\t"
            "adcq %[a1], %[r3]\n\t"
            /* sum < 2^256 + 1444: CF is 0 or 1; when it is 1 the wrapped value is */
            /* below 1444, so r0 + 38 cannot carry */
            "sbbq %[t0], %[t0]\n\t"
            "andq $38, %[t0]\n\t"
            "leaq (%[r0], %[t0]), %[a0]\n\t"
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

/* h = f^(p-2) = f^(2^255 - 21) (Fermat): the same fixed chain as
 * fe51_invert, 254 squarings and 11 multiplications. */
static void fe64_invert(uint64_t h[4], const uint64_t f[4])
{
    uint64_t t0[4], t1[4], t2[4], t3[4];
    fe64_nsqr(t0, f, 1);     /* 2 */
    fe64_nsqr(t1, t0, 2);    /* 8 */
    fe64_mul(t1, f, t1);     /* 9 */
    fe64_mul(t0, t0, t1);    /* 11 */
    fe64_nsqr(t2, t0, 1);    /* 22 */
    fe64_mul(t1, t1, t2);    /* 2^5 - 1 */
    fe64_nsqr(t2, t1, 5);
    fe64_mul(t1, t2, t1);    /* 2^10 - 1 */
    fe64_nsqr(t2, t1, 10);
    fe64_mul(t2, t2, t1);    /* 2^20 - 1 */
    fe64_nsqr(t3, t2, 20);
    fe64_mul(t2, t3, t2);    /* 2^40 - 1 */
    fe64_nsqr(t2, t2, 10);
    fe64_mul(t1, t2, t1);    /* 2^50 - 1 */
    fe64_nsqr(t2, t1, 50);
    fe64_mul(t2, t2, t1);    /* 2^100 - 1 */
    fe64_nsqr(t3, t2, 100);
    fe64_mul(t2, t3, t2);    /* 2^200 - 1 */
    fe64_nsqr(t2, t2, 50);
    fe64_mul(t1, t2, t1);    /* 2^250 - 1 */
    fe64_nsqr(t1, t1, 5);    /* 2^255 - 2^5 */
    fe64_mul(h, t1, t0);     /* 2^255 - 21 */
    vg_wipe(t0, sizeof t0);
    vg_wipe(t1, sizeof t1);
    vg_wipe(t2, sizeof t2);
    vg_wipe(t3, sizeof t3);
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
    for (int i = 254; i >= 0; i--) {
        uint64_t bit = (uint64_t)(st.k[i >> 3] >> (i & 7)) & 1;
        uint64_t mask = vg_barrier_u64(0 - (bit ^ prev)); /* all-ones: double Ps */
        prev = bit;
        fe64_add(st.a, st.xd, st.zd);
        fe64_sub(st.b, st.xd, st.zd);
        fe64_add(st.c, st.xs, st.zs);
        fe64_sub(st.d, st.xs, st.zs);
        fe64_mux(st.s, st.a, st.c, mask);
        fe64_mux(st.t, st.b, st.d, mask);
        /* addition (DA, CB) and doubling (S^2, T^2) interleaved */
        fe64_mul(st.da, st.d, st.a);
        fe64_sqr(st.aa, st.s);
        fe64_mul(st.cb, st.c, st.b);
        fe64_sqr(st.bb, st.t);
        fe64_add(st.xs, st.da, st.cb);
        fe64_sub(st.e, st.aa, st.bb);
        fe64_sub(st.zs, st.da, st.cb);
        fe64_mul121666(st.a, st.e);
        fe64_sqr(st.xs, st.xs);
        fe64_add(st.a, st.bb, st.a);
        fe64_sqr(st.zs, st.zs);
        fe64_mul(st.xd, st.aa, st.bb);
        fe64_mul(st.zs, st.x1, st.zs);
        /* z = E (AA + 121665 E) = E (BB + 121666 E), since AA = BB + E */
        fe64_mul(st.zd, st.e, st.a);
    }
    uint64_t mask = vg_barrier_u64(0 - prev); /* R0 = Ps when the last bit was 1 */
    fe64_mux(st.a, st.xd, st.xs, mask);
    fe64_mux(st.b, st.zd, st.zs, mask);
    fe64_invert(st.b, st.b);
    fe64_mul(st.a, st.a, st.b);
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
