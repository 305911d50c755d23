/*
 * Diagnostic (not a test: it prints figures and has no verdict) for the
 * open statistical finding on the X25519 ladders (docs/constant-time.md,
 * "The ADX ladder's timing modes"). It times one ladder variant on fixed
 * vs random inputs, like test_dudect's rows, and beside every call a
 * calibration loop of a fixed number of dependent additions (one core
 * cycle each, constant data) just before and just after it, so that a
 * change of the core clock between calls would show in the loop's ticks.
 *
 * Usage: x25519_modes [N] [VARIANT] [ROW]
 *   N        measurements (default 300000, at least 10000)
 *   VARIANT  adx (default), ifma, portable; calls: the ADX ladder's
 *            algorithm written again over the ADX operation table (every
 *            field operation a call instead of inlined kernels); or fe64:
 *            four interleaved chains of the ADX field kernels (600 rounds
 *            of mul, sqr, mul, sqr) on a fixed vs a random operand, a
 *            data-only control with no ladder, no scalar and no selection
 *   ROW      u (default: k fixed, u fixed vs random: both classes run the
 *            same instructions at the same addresses, only operand values
 *            differ) or k (u fixed, k fixed vs random)
 *
 * Prints: the calibration loop's spread and its correlation with the
 * measured call; Welch's t between the classes on the raw ticks and on the
 * percentile crops test_dudect uses, for the ticks and for the ticks scaled
 * by the calibration loop (ticks per core cycle of the neighbouring loops);
 * and, for the fastest 30% of the calls, each measured value (the TSC
 * advances in steps here) with the share of each class that took it, the
 * rows where the shares differ by more than four standard errors marked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "curve25519/fe25519.h"
#include "curve25519/x25519_ifma.h"
#include "dudect.h"

#define CALIB_ADDS 40000u

/* CALIB_ADDS dependent additions: CALIB_ADDS core cycles whatever the clock. */
static __attribute__((noinline)) void calib(void)
{
#if defined(__x86_64__)
    uint64_t x = 1;
    __asm__ volatile("mov %1, %%ecx\n1:\n\t"
                     ".rept 10\n\taddq %%rcx, %0\n\t.endr\n\t"
                     "subl $10, %%ecx\n\tjnz 1b"
                     : "+r"(x)
                     : "i"(CALIB_ADDS)
                     : "rcx", "cc");
#else
    volatile uint64_t x = 1;
    for (unsigned i = 0; i < CALIB_ADDS; i++)
        x = x + i;
#endif
}

static const struct vg_x25519_impl *g_impl;
static const struct vg_fe64_ops *g_fe64;
static uint8_t g_kf[32], g_uf[32], g_out[64];
static int g_krow;

static void run_fe64(const uint8_t in[32])
{
    uint64_t a[4], x[4][4];
    g_fe64->frombytes(a, in);
    for (int i = 0; i < 4; i++) {
        memcpy(x[i], a, sizeof a);
        x[i][0] += (uint64_t)i;
    }
    for (int r = 0; r < 600; r++) {
        g_fe64->mul(x[0], x[0], a);
        g_fe64->sqr(x[1], x[1]);
        g_fe64->mul(x[2], x[2], x[1]);
        g_fe64->sqr(x[3], x[3]);
    }
    g_fe64->tobytes(g_out, x[0]);
    g_fe64->tobytes(g_out + 32, x[3]);
}

/* The ADX ladder's algorithm (fe64_adx.c: no swaps, a mux picks the point
 * to double) written again here over the operation table, so that every
 * field operation is a call: the same arithmetic in another instruction
 * stream. Output checked against the library's ladder at start-up. */
static void ladder_calls(uint8_t out[32], const uint8_t scalar[32], const uint8_t u[32])
{
    const struct vg_fe64_ops *f = g_fe64;
    uint8_t k[32];
    uint64_t x1[4], xd[4] = {1, 0, 0, 0}, zd[4] = {0}, xs[4], zs[4] = {1, 0, 0, 0};
    uint64_t a[4], b[4], c[4], d[4], s[4], t[4], da[4], cb[4], aa[4], bb[4], e[4], prev = 0;
    memcpy(k, scalar, 32);
    k[0] &= 248;
    k[31] = (uint8_t)((k[31] & 127) | 64);
    f->frombytes(x1, u);
    memcpy(xs, x1, sizeof xs);
    for (int i = 254; i >= 0; i--) {
        uint64_t bit = (uint64_t)(k[i >> 3] >> (i & 7)) & 1;
        uint64_t mask = vg_barrier_u64(0 - (bit ^ prev));
        prev = bit;
        f->add(a, xd, zd);
        f->sub(b, xd, zd);
        f->add(c, xs, zs);
        f->sub(d, xs, zs);
        for (int j = 0; j < 4; j++) {
            s[j] = a[j] ^ (mask & (a[j] ^ c[j]));
            t[j] = b[j] ^ (mask & (b[j] ^ d[j]));
        }
        f->mul(da, d, a);
        f->sqr(aa, s);
        f->mul(cb, c, b);
        f->sqr(bb, t);
        f->add(xs, da, cb);
        f->sub(e, aa, bb);
        f->sub(zs, da, cb);
        f->mul121666(a, e);
        f->sqr(xs, xs);
        f->add(a, bb, a);
        f->sqr(zs, zs);
        f->mul(xd, aa, bb);
        f->mul(zs, x1, zs);
        f->mul(zd, e, a);
    }
    uint64_t mask = vg_barrier_u64(0 - prev);
    for (int j = 0; j < 4; j++) {
        a[j] = xd[j] ^ (mask & (xd[j] ^ xs[j]));
        b[j] = zd[j] ^ (mask & (zd[j] ^ zs[j]));
    }
    f->invert(b, b);
    f->mul(a, a, b);
    f->tobytes(out, a);
}

static int g_calls; /* variant "calls": ladder_calls */

static void run_one(const uint8_t in[32])
{
    if (g_calls && g_krow)
        ladder_calls(g_out, in, g_uf);
    else if (g_calls)
        ladder_calls(g_out, g_kf, in);
    else if (g_fe64)
        run_fe64(in);
    else if (g_krow)
        g_impl->scalarmult(g_out, in, g_uf);
    else
        g_impl->scalarmult(g_out, g_kf, in);
}

struct sample {
    uint8_t cls;
    double calib; /* mean ticks of the loops before and after */
    uint64_t ticks;
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Welch's t of class 0 against class 1 over the values <= thr. */
static double welch(const double *v, const struct sample *s, size_t n, double thr)
{
    double sum[2] = {0, 0}, sq[2] = {0, 0}, cnt[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        if (v[i] > thr)
            continue;
        sum[s[i].cls] += v[i];
        cnt[s[i].cls] += 1;
    }
    if (cnt[0] < 2 || cnt[1] < 2)
        return 0;
    double m0 = sum[0] / cnt[0], m1 = sum[1] / cnt[1];
    for (size_t i = 0; i < n; i++) {
        if (v[i] > thr)
            continue;
        double d = v[i] - (s[i].cls ? m1 : m0);
        sq[s[i].cls] += d * d;
    }
    double se = sqrt(sq[0] / (cnt[0] - 1) / cnt[0] + sq[1] / (cnt[1] - 1) / cnt[1]);
    return se > 0 ? (m0 - m1) / se : 0;
}

static void t_row(const char *name, const double *v, const struct sample *s, size_t n)
{
    static const double crops[] = {5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.9};
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        abort();
    memcpy(sorted, v, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_dbl);
    printf("%-14s raw %7.2f  crops", name, welch(v, s, n, sorted[n - 1]));
    for (size_t c = 0; c < sizeof crops / sizeof crops[0]; c++) {
        size_t k = (size_t)((double)n * crops[c] / 100.0);
        printf(" %g:%.2f", crops[c], welch(v, s, n, sorted[k ? k - 1 : 0]));
    }
    printf("\n");
    free(sorted);
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 300000;
    const char *variant = argc > 2 ? argv[2] : "adx";
    g_krow = argc > 3 && strcmp(argv[3], "k") == 0;
    if (n < 10000) {
        fprintf(stderr, "usage: %s [N >= 10000] [adx|ifma|portable|calls|fe64] [u|k]\n",
                argv[0]);
        return 2;
    }
    if (strcmp(variant, "adx") == 0)
        g_impl = vg_x25519_adx_get();
    else if (strcmp(variant, "ifma") == 0)
        g_impl = vg_x25519_ifma_get();
    else if (strcmp(variant, "portable") == 0)
        g_impl = vg_x25519_portable_get();
    else if (strcmp(variant, "fe64") == 0)
        g_fe64 = vg_fe64_adx_get();
    else if (strcmp(variant, "calls") == 0 && (g_fe64 = vg_fe64_adx_get()) != NULL)
        g_calls = 1;
    if (!g_impl && !g_fe64) {
        fprintf(stderr, "x25519_modes: variant %s unknown or not available here\n", variant);
        return 2;
    }
    vg_dudect_randombytes(g_kf, sizeof g_kf);
    vg_dudect_randombytes(g_uf, sizeof g_uf);
    if (g_calls) {
        uint8_t r1[32], r2[32];
        ladder_calls(r1, g_kf, g_uf);
        vg_x25519_portable_get()->scalarmult(r2, g_kf, g_uf);
        if (memcmp(r1, r2, 32) != 0) {
            fprintf(stderr, "x25519_modes: the call-per-operation ladder is wrong\n");
            return 1;
        }
    }

    const size_t warm = 1000;
    uint8_t(*in)[32] = malloc((n + warm) * sizeof *in);
    struct sample *s = malloc((n + warm) * sizeof *s);
    double *v = malloc(n * sizeof *v);
    if (!in || !s || !v)
        abort();
    /* Inputs and classes first (class 0: the fixed value), then the timed loop. */
    for (size_t i = 0; i < n + warm; i++) {
        uint8_t r;
        vg_dudect_randombytes(&r, 1);
        s[i].cls = r & 1;
        if (s[i].cls)
            vg_dudect_randombytes(in[i], 32);
        else
            memcpy(in[i], (!g_fe64 || g_calls) && g_krow ? g_kf : g_uf, 32);
    }
    for (size_t i = 0; i < n + warm; i++) {
        uint64_t a = vg_dudect_ticks();
        calib();
        uint64_t b = vg_dudect_ticks();
        run_one(in[i]);
        uint64_t c = vg_dudect_ticks();
        calib();
        uint64_t d = vg_dudect_ticks();
        s[i].ticks = c - b;
        s[i].calib = ((double)(b - a) + (double)(d - c)) / 2;
    }
    s += warm;

    printf("x25519_modes: %zu calls, %s, %s row; calibration loop %u dependent additions\n", n,
           g_calls  ? "ladder over the ADX operation table (a call per operation)"
           : g_fe64 ? "fe64 (ADX kernels, four chains)"
                    : g_impl->name,
           g_fe64 && !g_calls ? "operand" : g_krow ? "k" : "u", CALIB_ADDS);
    /* Calibration spread and its correlation with the call. */
    double mc = 0, mt = 0, vc = 0, vt = 0, cov = 0;
    for (size_t i = 0; i < n; i++) {
        mc += s[i].calib;
        mt += (double)s[i].ticks;
    }
    mc /= (double)n;
    mt /= (double)n;
    for (size_t i = 0; i < n; i++) {
        double dc = s[i].calib - mc, dt = (double)s[i].ticks - mt;
        vc += dc * dc;
        vt += dt * dt;
        cov += dc * dt;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = s[i].calib;
    qsort(v, n, sizeof *v, cmp_dbl);
    printf("calibration ticks: 1%% %.0f, median %.0f, 99%% %.0f (%.3f ticks per addition); "
           "correlation with the call %.3f\n",
           v[n / 100], v[n / 2], v[n - n / 100], v[n / 2] / CALIB_ADDS, cov / sqrt(vc * vt));

    for (size_t i = 0; i < n; i++)
        v[i] = (double)s[i].ticks;
    t_row("ticks", v, s, n);
    for (size_t i = 0; i < n; i++)
        v[i] = (double)s[i].ticks * mc / s[i].calib;
    t_row("ticks/calib", v, s, n);

    /* The fastest 30%: every value with each class's share. */
    uint64_t *tk = malloc(n * sizeof *tk);
    if (!tk)
        abort();
    size_t cnt[2] = {0, 0};
    for (size_t i = 0; i < n; i++) {
        tk[i] = s[i].ticks;
        cnt[s[i].cls]++;
    }
    qsort(tk, n, sizeof *tk, cmp_u64);
    printf("ticks per call: median %llu\n", (unsigned long long)tk[n / 2]);
    uint64_t lim = tk[(n * 3) / 10];
    printf("fastest 30%% (<= %llu ticks): value, share of class 0 (fixed), of class 1 "
           "(random), difference / standard error\n",
           (unsigned long long)lim);
    for (size_t j = 0; j < n && tk[j] <= lim;) {
        uint64_t val = tk[j];
        size_t k = j, c[2] = {0, 0};
        while (k < n && tk[k] == val)
            k++;
        for (size_t i = 0; i < n; i++)
            if (s[i].ticks == val)
                c[s[i].cls]++;
        double p0 = (double)c[0] / (double)cnt[0], p1 = (double)c[1] / (double)cnt[1];
        double p = (double)(c[0] + c[1]) / (double)n;
        double se = sqrt(p * (1 - p) * (1.0 / (double)cnt[0] + 1.0 / (double)cnt[1]));
        double z = se > 0 ? (p0 - p1) / se : 0;
        if (c[0] + c[1] >= n / 1000)
            printf("  %8llu  %.4f  %.4f  %+6.1f%s\n", (unsigned long long)val, p0, p1, z,
                   fabs(z) > 4 ? "  <-" : "");
        j = k;
    }
    free(tk);
    free(v);
    free(s - warm);
    free(in);
    return 0;
}
