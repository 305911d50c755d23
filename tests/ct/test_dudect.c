/*
 * Statistical constant-time test (dudect style, see dudect.h) of every
 * secret-handling routine and every implementation variant, run natively so
 * that the variants valgrind cannot execute (SHA-NI, AVX-512) are covered.
 *
 * Usage: test_dudect [SAMPLES] [--only SUBSTRING]
 *   SAMPLES: measurements per routine (default 100000; the ct-long test uses
 *   1000000). --only: run the controls and the routines whose name contains
 *   SUBSTRING.
 *
 * Verdicts: the leaky control must reach |t| >= 4.5 (else the harness is
 * blind and the test fails); the null control and every target must stay
 * below 4.5. Output: a table, then "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ct_impls.h"
#include "dudect.h"
#include "hash/keccak.h"
#include "hash/sha2.h"
#include "vgtest.h"

#define INPUT_LEN 64 /* bytes of secret input per measurement */

static uint8_t g_secret[INPUT_LEN];  /* the leaky control's secret */
static uint8_t g_out[256];           /* outputs land here */
static volatile int g_sink;

/* ---- controls ----------------------------------------------------------- */

/* A deliberately leaky compare: it returns at the first differing byte, so
 * its time depends on how long a prefix of the input matches the secret. */
__attribute__((noinline)) static int leaky_memcmp(const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 1;
    return 0;
}

/* Leaky control: class 0 is the secret itself (all 64 bytes compared),
 * class 1 random (almost always stops at the first byte). */
static void prep_leaky(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    if (cls == 0)
        memcpy(in, g_secret, INPUT_LEN);
    else
        vg_dudect_randombytes(in, INPUT_LEN);
}

/* Null control: both classes get the same input, so any |t| above the
 * threshold would be an artefact of the harness or of the machine. */
static void prep_null(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    (void)cls;
    memcpy(in, g_secret, INPUT_LEN);
}

static void meas_leaky(void *ctx, const uint8_t *in)
{
    (void)ctx;
    g_sink = leaky_memcmp(in, g_secret, INPUT_LEN);
}

/* ---- targets ------------------------------------------------------------ */

/* Class 0: a fixed input (all zero), class 1: random; same length. */
static void prep_fixed_random(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    if (cls == 0)
        memset(in, 0, INPUT_LEN);
    else
        vg_dudect_randombytes(in, INPUT_LEN);
}

static void meas_ct_memcmp(void *ctx, const uint8_t *in)
{
    (void)ctx;
    g_sink = vg_ct_memcmp(in, g_secret, INPUT_LEN);
}

static void meas_sha256_impl(void *ctx, const uint8_t *in)
{
    vg_sha256_ctx c;
    vg_sha256_init_impl(&c, (const struct vg_sha256_impl *)ctx);
    vg_sha256_update(&c, in, INPUT_LEN);
    vg_sha256_final(&c, g_out);
}

static void meas_sha512_impl(void *ctx, const uint8_t *in)
{
    vg_sha512_ctx c;
    vg_sha512_init_impl(&c, (const struct vg_sha512_impl *)ctx);
    vg_sha512_update(&c, in, INPUT_LEN);
    vg_sha512_final(&c, g_out);
}

/* SHAKE256 (rate 136, domain byte 0x1f): absorb 64 bytes, squeeze 200, so
 * absorb, padding and a squeeze across a block boundary are all timed. */
static void meas_keccak_impl(void *ctx, const uint8_t *in)
{
    vg_keccak_ctx c;
    vg_keccak_init_impl(&c, 136, 0x1f, (const struct vg_keccak_impl *)ctx);
    vg_keccak_absorb(&c, in, INPUT_LEN);
    vg_keccak_finalize(&c);
    vg_keccak_squeeze(&c, g_out, 200);
}

static void meas_api_sha256(void *ctx, const uint8_t *in) { (void)ctx; g_sink = vg_sha256(g_out, in, INPUT_LEN); }
static void meas_api_sha512(void *ctx, const uint8_t *in) { (void)ctx; g_sink = vg_sha512(g_out, in, INPUT_LEN); }
static void meas_api_sha3_256(void *ctx, const uint8_t *in) { (void)ctx; g_sink = vg_sha3_256(g_out, in, INPUT_LEN); }
static void meas_api_sha3_512(void *ctx, const uint8_t *in) { (void)ctx; g_sink = vg_sha3_512(g_out, in, INPUT_LEN); }
static void meas_api_shake128(void *ctx, const uint8_t *in) { (void)ctx; g_sink = vg_shake128(g_out, 64, in, INPUT_LEN); }
static void meas_api_shake256(void *ctx, const uint8_t *in) { (void)ctx; g_sink = vg_shake256(g_out, 64, in, INPUT_LEN); }

/* ---- driver ------------------------------------------------------------- */

enum role { ROLE_LEAKY, ROLE_NULL, ROLE_TARGET };

struct entry {
    struct vg_dudect_routine r;
    enum role role;
    char label[48];
};

#define MAX_ENTRIES 64

static size_t g_n;
static struct entry g_entries[MAX_ENTRIES];

static void add(const char *name, enum role role, void (*prep)(void *, int, uint8_t *),
                void (*meas)(void *, const uint8_t *), void *ctx)
{
    if (g_n >= MAX_ENTRIES) {
        fprintf(stderr, "test_dudect: too many routines\n");
        exit(2);
    }
    struct entry *e = &g_entries[g_n++];
    snprintf(e->label, sizeof e->label, "%s", name);
    e->r.name = e->label;
    e->r.input_len = INPUT_LEN;
    e->r.prepare = prep;
    e->r.measure = meas;
    e->r.ctx = ctx;
    e->role = role;
}

static void add_variants(void)
{
    static struct vg_ct_variant v[VG_CT_MAX_VARIANTS];
    size_t n = vg_ct_variants(vg_cpu_detected(), v, VG_CT_MAX_VARIANTS);
    for (size_t i = 0; i < n; i++) {
        char label[48];
        vg_ct_variant_label(&v[i], label, sizeof label);
        void *impl = (void *)(uintptr_t)v[i].impl; /* the callbacks take it back as const */
        switch (v[i].kind) {
        case VG_CT_SHA256: add(label, ROLE_TARGET, prep_fixed_random, meas_sha256_impl, impl); break;
        case VG_CT_SHA512: add(label, ROLE_TARGET, prep_fixed_random, meas_sha512_impl, impl); break;
        case VG_CT_KECCAK: add(label, ROLE_TARGET, prep_fixed_random, meas_keccak_impl, impl); break;
        }
    }
}

int main(int argc, char **argv)
{
    size_t samples = 100000;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            char *end;
            unsigned long long v = strtoull(argv[i], &end, 10);
            if (*end || v < 1000) {
                fprintf(stderr, "usage: %s [SAMPLES >= 1000] [--only SUBSTRING]\n", argv[0]);
                return 2;
            }
            samples = (size_t)v;
        }
    }

    /* The secret of the controls: fixed bytes with no zero (so a zero input
     * differs from it at the first byte). */
    for (size_t i = 0; i < INPUT_LEN; i++)
        g_secret[i] = (uint8_t)(0xa5 ^ (i * 29 + 1));

    add("control/leaky-memcmp", ROLE_LEAKY, prep_leaky, meas_leaky, NULL);
    add("control/null", ROLE_NULL, prep_null, meas_leaky, NULL);
    add("common/vg_ct_memcmp", ROLE_TARGET, prep_fixed_random, meas_ct_memcmp, NULL);
    add_variants(); /* leaves every detected feature active */
    add("api/vg_sha256", ROLE_TARGET, prep_fixed_random, meas_api_sha256, NULL);
    add("api/vg_sha512", ROLE_TARGET, prep_fixed_random, meas_api_sha512, NULL);
    add("api/vg_sha3_256", ROLE_TARGET, prep_fixed_random, meas_api_sha3_256, NULL);
    add("api/vg_sha3_512", ROLE_TARGET, prep_fixed_random, meas_api_sha3_512, NULL);
    add("api/vg_shake128", ROLE_TARGET, prep_fixed_random, meas_api_shake128, NULL);
    add("api/vg_shake256", ROLE_TARGET, prep_fixed_random, meas_api_shake256, NULL);

    char feat[96];
    vg_cpu_format(vg_cpu_active(), feat, sizeof feat);
    printf("test_dudect: %zu measurements per routine, threshold |t| < %.1f, features %s\n",
           samples, VG_DUDECT_THRESHOLD, feat[0] ? feat : "(none)");
    printf("%-24s %9s %9s %6s %8s %10s %10s  %s\n", "routine", "samples", "max|t|", "crop%",
           "median", "mean0", "mean1", "verdict");

    for (size_t i = 0; i < g_n; i++) {
        const struct entry *e = &g_entries[i];
        if (only && e->role == ROLE_TARGET && !strstr(e->label, only))
            continue;
        struct vg_dudect_result res;
        if (vg_dudect_run(&e->r, samples, 0x5eed0000u + i, &res) != 0) {
            fprintf(stderr, "test_dudect: out of memory\n");
            return 2;
        }
        int leak = res.max_abs_t >= VG_DUDECT_THRESHOLD;
        const char *verdict;
        if (e->role == ROLE_LEAKY)
            verdict = leak ? "ok (leak detected, as it must)" : "FAIL (harness blind)";
        else if (e->role == ROLE_NULL)
            verdict = leak ? "FAIL (false positive)" : "ok";
        else
            verdict = leak ? "FAIL (LEAK)" : "ok";
        printf("%-24s %9zu %9.2f %6.1f %8llu %10.1f %10.1f  %s\n", e->label, res.samples,
               res.max_abs_t, res.worst_pct, (unsigned long long)res.median, res.mean[0],
               res.mean[1], verdict);
        fflush(stdout);
        if (e->role == ROLE_LEAKY)
            CHECK_MSG(leak, "%s: |t| = %.2f, the leaky control was not detected", e->label,
                      res.max_abs_t);
        else
            CHECK_MSG(!leak, "%s: |t| = %.2f >= %.1f", e->label, res.max_abs_t,
                      VG_DUDECT_THRESHOLD);
    }
    return vgtest_done("test_dudect");
}
