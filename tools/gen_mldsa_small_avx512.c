/*
 * Generator and bound check for src/mldsa/x86_64/small_avx512.c (the
 * AVX-512 small-product kernel, 16-bit NTT modulo p = 7681).
 *
 * It follows the kernel's schedule on coefficient indices: eight registers
 * of 32 lanes, register m holding coefficients 32m..32m+31 at first, the
 * layers pairing registers (i, i + d) and the swaps exchanging a lane bit
 * with the register bit of the pairs (2m, 2m + 1). From that it
 *  - checks that every layer pairs exactly the coefficients its butterflies
 *    need (j and j + 2^b, bit b of j clear) and that the inverse ends in the
 *    natural order again;
 *  - prints the twiddle tables vg_small_fwd_tw and vg_small_inv_tw (z =
 *    zeta^e R mod p centred, zq = z p^-1 mod 2^16, lane by lane);
 *  - propagates worst-case bounds lane by lane (the Montgomery product of
 *    |y| <= B by z is at most (B |z| + 2^15 p) / 2^16; the reductions'
 *    bounds are checked over every int16 input) and fails if any sum or
 *    difference can leave int16, printing the bounds after each step to
 *    stderr (the comments of the kernel quote them).
 * Usage: gen_mldsa_small_avx512 > tables.txt (exit status 1 on a failed
 * check). Build: cc -O2 -o gen tools/gen_mldsa_small_avx512.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define P 7681
#define R 65536L
#define IN_BOUND 64 /* ntt precondition |a| <= 64 */
#define PW_IN 3840  /* ntt outputs (Barrett-centred) */

static int idx[8][32];
static long bnd[8][32];
static int failed;

static long centre(long x)
{
    x %= P;
    if (x < 0)
        x += P;
    return x > P / 2 ? x - P : x;
}

static long power(long b, long e)
{
    long r = 1;
    b = centre(b);
    if (b < 0)
        b += P;
    for (; e > 0; e >>= 1, b = b * b % P)
        if (e & 1)
            r = r * b % P;
    return r;
}

static unsigned brv8(unsigned k)
{
    unsigned r = 0;
    for (int i = 0; i < 8; i++)
        r |= ((k >> i) & 1u) << (7 - i);
    return r;
}

static int16_t lo16(long x) { return (int16_t)(uint16_t)((unsigned long)x & 0xffff); }

/* |x - p round(x / 8192)| over |x| <= b (the kernel's vg_small_reduce) */
static long reduce_bound(long b)
{
    long m = 0;
    for (long x = -b; x <= b; x++) {
        long k = (4 * x + (1 << 14)) >> 15;
        long r = labs(x - P * k);
        m = r > m ? r : m;
    }
    return m;
}

static long mont_bound(long b, long z) { return (b * labs(z) + 32768L * P) / R; }

static void swap_lanes(int (*v)[32], int l)
{
    for (int m = 0; m < 4; m++) {
        int x[32], y[32];
        for (int i = 0; i < 32; i++) {
            int bit = (i >> l) & 1, j = i & ~(1 << l);
            x[i] = bit ? v[2 * m + 1][j] : v[2 * m][j];
            y[i] = bit ? v[2 * m + 1][j | 1 << l] : v[2 * m][j | 1 << l];
        }
        for (int i = 0; i < 32; i++) {
            v[2 * m][i] = x[i];
            v[2 * m + 1][i] = y[i];
        }
    }
}

static void swap_both(int l)
{
    static int tmp[8][32];
    swap_lanes(idx, l);
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < 32; i++)
            tmp[r][i] = (int)bnd[r][i];
    swap_lanes(tmp, l);
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < 32; i++)
            bnd[r][i] = tmp[r][i];
}

static void reduce_regs(const int *regs, int n, const char *what)
{
    fprintf(stderr, "  %s: reduce", what);
    for (int k = 0; k < n; k++) {
        long m = 0;
        for (int i = 0; i < 32; i++)
            m = bnd[regs[k]][i] > m ? bnd[regs[k]][i] : m;
        m = reduce_bound(m);
        for (int i = 0; i < 32; i++)
            bnd[regs[k]][i] = m;
        fprintf(stderr, " r%d <= %ld", regs[k], m);
    }
    fprintf(stderr, "\n");
}

static void check(long v, const char *what)
{
    if (v > 32767) {
        fprintf(stderr, "OVERFLOW: %s reaches %ld\n", what, v);
        failed = 1;
    }
}

static void print_bounds(const char *what)
{
    fprintf(stderr, "  %s:", what);
    for (int r = 0; r < 8; r++) {
        long m = 0;
        for (int i = 0; i < 32; i++)
            m = bnd[r][i] > m ? bnd[r][i] : m;
        fprintf(stderr, " %ld", m);
    }
    fprintf(stderr, "\n");
}

static void print_vec(const long *v)
{
    for (int h = 0; h < 32; h += 16) {
        printf("            ");
        for (int i = h; i < h + 16; i++)
            printf("%ld,%s", v[i], i == h + 15 ? "\n" : " ");
    }
}

/* One layer on bit b over the register pairs (i, i + d); forward (CT,
 * twiddles zeta^e) or inverse (GS, zeta^-e); exact = the forward's first
 * layer (16 x +- (16 zeta^128 mod p) y, no table). */
static void layer(int b, int d, int inverse, int exact, int zeta, long qinv)
{
    if (!exact)
        printf("    { /* layer %d: bit %d */\n", inverse ? b + 1 : 8 - b, b);
    for (int i = 0; i < 8; i++) {
        if (i & d)
            continue;
        long z[32], zq[32];
        for (int l = 0; l < 32; l++) {
            int j = idx[i][l];
            if (((j >> b) & 1) || idx[i + d][l] != (j | 1 << b)) {
                fprintf(stderr, "PAIRING: bit %d registers %d, %d lane %d\n", b, i, i + d, l);
                failed = 1;
            }
            long e = brv8((128u >> b) + ((unsigned)j >> (b + 1)));
            if (exact) {
                z[l] = centre(16 * power(zeta, e));
                long s = 16 * bnd[i][l] + labs(z[l]) * bnd[i + d][l];
                check(s, "forward layer 1");
                bnd[i][l] = bnd[i + d][l] = s;
                continue;
            }
            if (inverse)
                e = 512 - e;
            z[l] = centre(power(zeta, e) * R);
            zq[l] = lo16(z[l] * qinv);
            long s;
            if (inverse) {
                s = bnd[i][l] + bnd[i + d][l];
                check(s, "inverse sum");
                bnd[i][l] = s;
                bnd[i + d][l] = mont_bound(s, z[l]);
            } else {
                s = bnd[i][l] + mont_bound(bnd[i + d][l], z[l]);
                check(s, "forward sum");
                bnd[i][l] = bnd[i + d][l] = s;
            }
        }
        if (exact) {
            if (z[0] != 361)
                failed = 1, fprintf(stderr, "layer 1 twiddle %ld, the kernel uses 361\n", z[0]);
            continue;
        }
        printf("        {{\n");
        print_vec(z);
        printf("        }, {\n");
        print_vec(zq);
        printf("        }},\n");
    }
    if (!exact)
        printf("    },\n");
    char what[32];
    snprintf(what, sizeof what, "%s bit %d", inverse ? "inverse" : "forward", b);
    print_bounds(what);
}

int main(void)
{
    const int even[4] = {0, 2, 4, 6}, r0[1] = {0};
    int zeta = 0;
    long qinv = 1;
    /* p^-1 mod 2^16 by Newton's iteration */
    for (int i = 0; i < 5; i++)
        qinv = (qinv * (2 - P * qinv)) & 0xffff;
    /* zeta = g^15 for the smallest generator g of Z_p^* (p - 1 = 2^9 3 5):
     * 17, zeta = 7146, a primitive 512th root of unity */
    for (int g = 2; g < P && !zeta; g++)
        if (power(g, (P - 1) / 2) != 1 && power(g, (P - 1) / 3) != 1 &&
            power(g, (P - 1) / 5) != 1)
            zeta = (int)power(g, 15);
    if (power(zeta, 256) != P - 1)
        failed = 1;
    fprintf(stderr, "p = %d, zeta = %d, p^-1 mod 2^16 = %ld (%d)\n", P, zeta, qinv, lo16(qinv));
    /* the reductions over every int16 */
    long mb = 0, mr = 0;
    for (long x = -32768; x <= 32767; x++) {
        long t = (x * 17474) >> 16;
        long k = (t * 16 + (1 << 14)) >> 15;
        mb = labs(x - k * P) > mb ? labs(x - k * P) : mb;
        k = (x * 4 + (1 << 14)) >> 15;
        mr = labs(x - k * P) > mr ? labs(x - k * P) : mr;
    }
    fprintf(stderr, "vg_small_barrett: |r| <= %ld; vg_small_reduce: |r| <= %ld\n", mb, mr);
    if (mb > P / 2)
        failed = 1;

    for (int r = 0; r < 8; r++)
        for (int i = 0; i < 32; i++) {
            idx[r][i] = 32 * r + i;
            bnd[r][i] = IN_BOUND;
        }
    fprintf(stderr, "forward, |a| <= %d:\n", IN_BOUND);
    printf("static const int16_t vg_small_fwd_tw[7][4][2][32] __attribute__((aligned(64))) = {\n");
    layer(7, 4, 0, 1, zeta, qinv);
    layer(6, 2, 0, 0, zeta, qinv);
    reduce_regs(even, 4, "before bit 5");
    layer(5, 1, 0, 0, zeta, qinv);
    static const int fwd_swaps[5] = {4, 3, 2, 1, 0};
    for (int s = 0; s < 5; s++) {
        swap_both(fwd_swaps[s]);
        if (s == 4)
            reduce_regs(even, 4, "before bit 0");
        layer(4 - s, 1, 0, 0, zeta, qinv);
    }
    printf("};\n");
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < 32; i++)
            bnd[r][i] = (PW_IN * PW_IN + 32768L * P) / R; /* the pointwise products */
    print_bounds("pointwise products");
    fprintf(stderr, "inverse:\n");
    printf("static const int16_t vg_small_inv_tw[8][4][2][32] __attribute__((aligned(64))) = {\n");
    for (int b = 0; b < 5; b++) {
        if (b > 0)
            swap_both(b - 1); /* the forward's swaps, undone in reverse order */
        layer(b, 1, 1, 0, zeta, qinv);
        if (b == 2 || b == 4)
            reduce_regs(even, 4, b == 2 ? "after bit 2" : "after bit 4");
    }
    swap_both(4); /* b5 back in the registers: the natural order */
    layer(5, 1, 1, 0, zeta, qinv);
    layer(6, 2, 1, 0, zeta, qinv);
    reduce_regs(r0, 1, "before bit 7");
    layer(7, 4, 1, 0, zeta, qinv);
    printf("};\n");
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < 32; i++)
            if (idx[r][i] != 32 * r + i) {
                fprintf(stderr, "LAYOUT: the inverse does not end in the natural order\n");
                failed = 1;
                r = 8;
                break;
            }
    fprintf(stderr, failed ? "FAILED\n" : "all checks passed\n");
    return failed;
}
