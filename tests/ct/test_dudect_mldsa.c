/*
 * ML-DSA (FIPS 204) statistical constant-time test (dudect style, see
 * dudect.h), run natively so that the AVX-512 four-way Keccak, which
 * valgrind cannot execute, is covered too.
 *
 * Backend combinations: every one the dispatch can select on this CPU,
 * chosen by forcing the CPU mask for the whole row:
 *   portable          portable NTT and samplers, portable four-way Keccak
 *   avx2/k4x-avx2     AVX2 backend, AVX2 four-way Keccak
 *   avx2+avx512/k4x-avx512   AVX2 backend with the AVX-512 NTTs (and
 *                     AVX-512 kernels), AVX-512VL four-way Keccak (and the
 *                     AVX-512VL single-state Keccak where the library has it)
 * The row label also names the single-state Keccak the mask selects.
 *
 * Signing: fixed vs random secret keys, message, context and rnd (all zero:
 * deterministic signing) fixed. Signing time depends on the number of
 * rejected attempts, which is public by design (FIPS 204 lets the verdict of
 * each attempt leak) but differs between keys: a key that needs four
 * attempts takes about four times as long as one that needs one, and the
 * t-test would report that difference, which says nothing about the code.
 * So both classes use only keys whose deterministic signature of the fixed
 * message is accepted at the first attempt (checked untimed with the test
 * hook vg_mldsaN_sign_mu_counted, mldsa_internal.h): every measurement is
 * exactly one attempt plus the set-up, and any difference left is a
 * dependence on the key's secret values. The keys share rho too (made with
 * the hook vg_mldsaN_keypair_expanded from rho || rho' || K with rho fixed):
 * rho is public, and ExpandA's rejection sampling on it is variable time by
 * design, so a random rho would add a public difference of the same kind.
 * The random class draws from a pool of such keys generated at start-up
 * (keys are independent of the backend, so one pool per parameter set
 * serves every combination); each measurement's key is copied into the
 * harness's batch buffer by prepare, as the fixed key is, so both classes
 * read their key from the same kind of memory.
 *
 * Key generation: fixed vs random secret seeds with rho fixed
 * (keypair_expanded on rho || rho' || K: rho' and K fixed vs random), the
 * test that decides. With --info, also fixed vs random xi through
 * vg_mldsaN_keypair_derand as the API is used: there rho, derived from xi,
 * varies in the random class, and ExpandA's rejection sampling on it is
 * variable time by design (public data), which that row measures too; it is
 * printed for information and never fails (measured: |t| 9-16 at 2*10^4
 * and 58-100 at 2*10^5 on every combination, while the rho-fixed rows stay
 * below 3 at 2*10^5).
 *
 * Controls: the leaky control (an early-exit compare) must exceed the
 * threshold; the null control (ML-DSA-44 signing with the fixed key in both
 * classes, on the default dispatch) must not. Two-strike verdicts as in
 * test_dudect: a target or the null control over 4.5 is measured again with
 * fresh samples and fails only when the repeat is over too.
 *
 * Usage: test_dudect_mldsa [SAMPLES] [--pool N] [--only SUBSTRING] [--info]
 *   SAMPLES: measurements per signing row (default 5000; key generation
 *   rows take twice as many, as a key generation costs less); --pool: random
 *   one-attempt keys per parameter set (default 1024).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "dudect.h"
#include "hash/keccak.h"
#include "hash/keccak4x.h"
#include "mldsa/mldsa_internal.h"
#include "mldsa/poly.h"
#include "vgtest.h"

#define MAX_SK VG_MLDSA87_SECRETKEYBYTES
#define MAX_PK VG_MLDSA87_PUBLICKEYBYTES
#define MAX_SIG VG_MLDSA87_SIGBYTES
#define AVX512_ALL                                                                          \
    (VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW | VG_CPU_AVX512DQ | VG_CPU_AVX512IFMA | \
     VG_CPU_AVX512VBMI2)

struct mldsa_set {
    const char *name;
    size_t pk_len, sk_len, sig_len;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    void (*keypair_expanded)(uint8_t *, uint8_t *, const uint8_t *);
    int (*sign_derand)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                       const uint8_t *, const uint8_t *);
    int (*sign_mu_counted)(uint8_t *, const uint8_t *, const uint8_t *, const uint8_t *,
                           unsigned *);
    /* filled at start-up */
    uint8_t fixed_sk[MAX_SK];
    uint8_t *pool; /* pool_n secret keys of sk_len bytes */
    size_t pool_n;
};

#define SET(n)                                                                                \
    {"ml-dsa-" #n, VG_MLDSA##n##_PUBLICKEYBYTES, VG_MLDSA##n##_SECRETKEYBYTES,              \
     VG_MLDSA##n##_SIGBYTES, vg_mldsa##n##_keypair_derand, vg_mldsa##n##_keypair_expanded,  \
     vg_mldsa##n##_sign_derand, vg_mldsa##n##_sign_mu_counted, {0}, NULL, 0}
static struct mldsa_set g_sets[3] = {SET(44), SET(65), SET(87)};

static const uint8_t g_msg[32] = "dudect: ML-DSA fixed message...";
static const uint8_t g_rnd0[32]; /* deterministic signing */
static uint8_t g_rho[32];        /* the fixed (public) rho of every key */
static uint8_t g_seed0[32];      /* the fixed seed of the key-generation rows */
static uint8_t g_out[MAX_SIG + MAX_PK + MAX_SK];
static volatile int g_sink;

/* mu for the fixed message as sign_derand computes it: H(tr || 0 || |ctx|
 * || ctx || M, 64) with an empty context (FIPS 204 Algorithm 2 line 10 and
 * Algorithm 7 line 6), tr = sk[64..128). */
static void message_mu(uint8_t mu[64], const uint8_t *sk)
{
    vg_keccak_ctx c;
    const uint8_t prefix[2] = {0, 0};
    vg_shake256_ctx_init(&c);
    vg_keccak_absorb(&c, sk + 64, 64);
    vg_keccak_absorb(&c, prefix, 2);
    vg_keccak_absorb(&c, g_msg, sizeof g_msg);
    vg_keccak_finalize(&c);
    vg_keccak_squeeze(&c, mu, 64);
}

/* A key with rho = g_rho and random rho', K whose deterministic signature
 * of g_msg takes one attempt. Untimed. */
static void one_attempt_key(const struct mldsa_set *s, uint8_t *sk)
{
    uint8_t exp[128], pk[MAX_PK], sig[MAX_SIG], mu[64], sig2[MAX_SIG];
    for (;;) {
        memcpy(exp, g_rho, 32);
        vg_dudect_randombytes(exp + 32, 96);
        s->keypair_expanded(pk, sk, exp);
        message_mu(mu, sk);
        unsigned attempts = 0;
        if (s->sign_mu_counted(sig, mu, sk, g_rnd0, &attempts) != VG_OK)
            continue;
        if (attempts != 1)
            continue;
        /* The hook and the API agree (same mu, same signature). */
        if (s->sign_derand(sig2, g_msg, sizeof g_msg, NULL, 0, sk, g_rnd0) != VG_OK ||
            memcmp(sig, sig2, s->sig_len) != 0) {
            fprintf(stderr, "test_dudect_mldsa: %s: sign_mu_counted and sign_derand differ\n",
                    s->name);
            exit(2);
        }
        return;
    }
}

/* HashML-DSA-65 (issue 21): its own pool, as the one-attempt property is
 * per mu. M' = 1 || 0 || OID(SHA-512) || g_ph (FIPS 204 Algorithm 4 line
 * 23, empty context), mu = H(tr || M', 64); rnd = 0. */
static const uint8_t g_ph[64] = "dudect: HashML-DSA fixed SHA-512 digest of some message.....";
static uint8_t g_ph_fixed_sk[VG_MLDSA65_SECRETKEYBYTES];
static uint8_t *g_ph_pool;
static size_t g_ph_pool_n;

static void prehash_mu(uint8_t mu[64], const uint8_t *sk)
{
    static const uint8_t prefix[13] = {1,    0,    0x06, 0x09, 0x60, 0x86, 0x48,
                                       0x01, 0x65, 0x03, 0x04, 0x02, 0x03};
    vg_keccak_ctx c;
    vg_shake256_ctx_init(&c);
    vg_keccak_absorb(&c, sk + 64, 64);
    vg_keccak_absorb(&c, prefix, sizeof prefix);
    vg_keccak_absorb(&c, g_ph, sizeof g_ph);
    vg_keccak_finalize(&c);
    vg_keccak_squeeze(&c, mu, 64);
}

static void one_attempt_key_ph(uint8_t *sk)
{
    uint8_t exp[128], pk[VG_MLDSA65_PUBLICKEYBYTES], sig[VG_MLDSA65_SIGBYTES], mu[64];
    uint8_t sig2[VG_MLDSA65_SIGBYTES];
    for (;;) {
        unsigned attempts = 0;
        memcpy(exp, g_rho, 32);
        vg_dudect_randombytes(exp + 32, 96);
        vg_mldsa65_keypair_expanded(pk, sk, exp);
        prehash_mu(mu, sk);
        if (vg_mldsa65_sign_mu_counted(sig, mu, sk, g_rnd0, &attempts) != VG_OK || attempts != 1)
            continue;
        if (vg_mldsa65_sign_prehash_derand(sig2, g_ph, 64, VG_HASH_SHA512, NULL, 0, sk,
                                           g_rnd0) != VG_OK ||
            memcmp(sig, sig2, sizeof sig) != 0) {
            fprintf(stderr, "test_dudect_mldsa: sign_mu_counted and sign_prehash differ\n");
            exit(2);
        }
        return;
    }
}

static void prep_sign_ph(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    if (cls == 0) {
        memcpy(in, g_ph_fixed_sk, sizeof g_ph_fixed_sk);
    } else {
        uint64_t r;
        vg_dudect_randombytes((uint8_t *)&r, sizeof r);
        memcpy(in, g_ph_pool + (size_t)(r % g_ph_pool_n) * sizeof g_ph_fixed_sk,
               sizeof g_ph_fixed_sk);
    }
}

static void meas_sign_ph(void *ctx, const uint8_t *in)
{
    (void)ctx;
    g_sink = vg_mldsa65_sign_prehash_derand(g_out, g_ph, sizeof g_ph, VG_HASH_SHA512, NULL, 0, in,
                                            g_rnd0);
}

/* ---- routines ----------------------------------------------------------- */

static void prep_sign(void *ctx, int cls, uint8_t *in)
{
    const struct mldsa_set *s = ctx;
    if (cls == 0) {
        memcpy(in, s->fixed_sk, s->sk_len);
    } else {
        uint64_t r;
        vg_dudect_randombytes((uint8_t *)&r, sizeof r);
        memcpy(in, s->pool + (size_t)(r % s->pool_n) * s->sk_len, s->sk_len);
    }
}

/* Null control: the fixed key in both classes. */
static void prep_sign_null(void *ctx, int cls, uint8_t *in)
{
    const struct mldsa_set *s = ctx;
    (void)cls;
    memcpy(in, s->fixed_sk, s->sk_len);
}

static void meas_sign(void *ctx, const uint8_t *in)
{
    const struct mldsa_set *s = ctx;
    g_sink = s->sign_derand(g_out, g_msg, sizeof g_msg, NULL, 0, in, g_rnd0);
}

static void prep_keygen(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    if (cls == 0)
        memcpy(in, g_seed0, 32);
    else
        vg_dudect_randombytes(in, 32);
}

static void meas_keygen(void *ctx, const uint8_t *in)
{
    const struct mldsa_set *s = ctx;
    g_sink = s->keypair_derand(g_out, g_out + MAX_PK, in);
}

/* Key generation with rho fixed: input rho' || K (96 bytes), class 0 fixed,
 * class 1 random; rho = g_rho in both (keypair_expanded). */
static void prep_keygen_exp(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    if (cls == 0) {
        for (size_t i = 0; i < 96; i++)
            in[i] = (uint8_t)(g_seed0[i % 32] + 3 * (i / 32));
    } else {
        vg_dudect_randombytes(in, 96);
    }
}

static void meas_keygen_exp(void *ctx, const uint8_t *in)
{
    const struct mldsa_set *s = ctx;
    uint8_t exp[128];
    memcpy(exp, g_rho, 32);
    memcpy(exp + 32, in, 96);
    s->keypair_expanded(g_out, g_out + MAX_PK, exp);
}

/* The leaky control: an early-exit compare of 64 bytes against a secret;
 * class 0 equals it (all bytes compared), class 1 is random (stops at once). */
static uint8_t g_secret[64];

__attribute__((noinline)) static int leaky_memcmp(const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 1;
    return 0;
}

static void prep_leaky(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    if (cls == 0)
        memcpy(in, g_secret, 64);
    else
        vg_dudect_randombytes(in, 64);
}

static void meas_leaky(void *ctx, const uint8_t *in)
{
    (void)ctx;
    g_sink = leaky_memcmp(in, g_secret, 64);
}

/* ---- driver ----------------------------------------------------------------- */

enum role {
    ROLE_LEAKY = VG_DUDECT_LEAKY,
    ROLE_NULL = VG_DUDECT_NULL,
    ROLE_TARGET = VG_DUDECT_TARGET,
    ROLE_INFO = VG_DUDECT_INFO
};

struct entry {
    char label[80];
    enum role role;
    struct vg_dudect_routine r;
    uint32_t mask;
    size_t samples;
};

#define MAX_ENTRIES 40
static struct entry g_entries[MAX_ENTRIES];
static size_t g_n;

static void add(const char *label, enum role role, void (*prep)(void *, int, uint8_t *),
                void (*meas)(void *, const uint8_t *), void *ctx, size_t len, uint32_t mask,
                size_t samples)
{
    if (g_n >= MAX_ENTRIES) {
        fprintf(stderr, "test_dudect_mldsa: too many rows\n");
        exit(2);
    }
    struct entry *e = &g_entries[g_n++];
    snprintf(e->label, sizeof e->label, "%s", label);
    e->role = role;
    e->r.name = e->label;
    e->r.input_len = len;
    e->r.prepare = prep;
    e->r.measure = meas;
    e->r.ctx = ctx;
    e->mask = mask;
    e->samples = samples;
}

int main(int argc, char **argv)
{
    size_t samples = 5000, pool = 1024;
    const char *only = NULL;
    int info = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--info") == 0) {
            info = 1;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--pool") == 0 && i + 1 < argc) {
            pool = (size_t)strtoull(argv[++i], NULL, 10);
        } else {
            char *end;
            unsigned long long v = strtoull(argv[i], &end, 10);
            if (*end || v < 1000) {
                fprintf(stderr, "usage: %s [SAMPLES >= 1000] [--pool N] [--only SUBSTRING] [--info]\n",
                        argv[0]);
                return 2;
            }
            samples = (size_t)v;
        }
    }
    if (pool < 16)
        pool = 16;

    uint32_t det = vg_cpu_detected();
    /* The combinations the dispatch can select (vg_mldsa_active and
     * vg_keccak4x_active read the forced mask). */
    struct {
        const char *name;
        uint32_t mask;
        int ok;
    } combo[3] = {
        {"portable", det & ~(uint32_t)(VG_CPU_AVX2 | AVX512_ALL), 1},
        {"avx2/k4x-avx2", det & ~(uint32_t)AVX512_ALL, (det & VG_CPU_AVX2) != 0},
        {"avx2+avx512/k4x-avx512", det,
         (det & VG_CPU_AVX2) && (det & (VG_CPU_AVX512F | VG_CPU_AVX512VL)) ==
                                     (VG_CPU_AVX512F | VG_CPU_AVX512VL)},
    };

    vg_dudect_randombytes(g_rho, sizeof g_rho); /* harness generator, seeded per run below */
    for (size_t i = 0; i < sizeof g_secret; i++)
        g_secret[i] = (uint8_t)(0xa5 ^ (i * 29 + 1));
    for (size_t i = 0; i < sizeof g_seed0; i++)
        g_seed0[i] = (uint8_t)(0x5c + 17 * i);

    /* Fixed keys and pools (default dispatch; keys do not depend on it). */
    vg_cpu_force(det);
    for (int si = 0; si < 3; si++) {
        struct mldsa_set *s = &g_sets[si];
        s->pool = malloc(pool * s->sk_len);
        if (!s->pool) {
            fprintf(stderr, "test_dudect_mldsa: out of memory\n");
            return 2;
        }
        s->pool_n = pool;
        one_attempt_key(s, s->fixed_sk);
        for (size_t k = 0; k < pool; k++)
            one_attempt_key(s, s->pool + k * s->sk_len);
    }
    g_ph_pool = malloc(pool * sizeof g_ph_fixed_sk);
    if (!g_ph_pool) {
        fprintf(stderr, "test_dudect_mldsa: out of memory\n");
        return 2;
    }
    g_ph_pool_n = pool;
    one_attempt_key_ph(g_ph_fixed_sk);
    for (size_t k = 0; k < pool; k++)
        one_attempt_key_ph(g_ph_pool + k * sizeof g_ph_fixed_sk);

    /* Available only when the build has the variants (not VG_PORTABLE). */
    vg_cpu_force(combo[1].mask);
    combo[1].ok = combo[1].ok && vg_mldsa_avx2_get() != NULL;
    vg_cpu_force(combo[2].mask);
    combo[2].ok = combo[2].ok && vg_mldsa_avx2_get() != NULL && vg_keccak4x_avx512_get() != NULL;
    vg_cpu_force(det);
    add("control/leaky-memcmp", ROLE_LEAKY, prep_leaky, meas_leaky, NULL, 64, det, samples);
    {
        uint32_t m = combo[2].ok ? combo[2].mask : combo[1].ok ? combo[1].mask : combo[0].mask;
        add("control/null (ml-dsa-44 sign, fixed twice)", ROLE_NULL, prep_sign_null, meas_sign,
            &g_sets[0], g_sets[0].sk_len, m, samples);
    }
    for (int c = 0; c < 3; c++) {
        if (!combo[c].ok) {
            printf("SKIP %s: not available on this CPU or build\n", combo[c].name);
            continue;
        }
        vg_cpu_force(combo[c].mask);
        char k1[24];
        snprintf(k1, sizeof k1, "%s", vg_keccak_active()->name);
        for (int si = 0; si < 3; si++) {
            struct mldsa_set *s = &g_sets[si];
            char label[80];
            snprintf(label, sizeof label, "%s/%s(k1 %s) sign", s->name, combo[c].name, k1);
            add(label, ROLE_TARGET, prep_sign, meas_sign, s, s->sk_len, combo[c].mask, samples);
            snprintf(label, sizeof label, "%s/%s(k1 %s) keygen", s->name, combo[c].name, k1);
            add(label, ROLE_TARGET, prep_keygen_exp, meas_keygen_exp, s, 96, combo[c].mask,
                2 * samples);
            /* HashML-DSA-65 on the best combination only (it shares the
             * signing core with the ml-dsa-65 sign rows of every one). */
            if (si == 1 && (c == 2 || (c == 1 && !combo[2].ok) ||
                            (c == 0 && !combo[1].ok && !combo[2].ok))) {
                snprintf(label, sizeof label, "hashml-dsa-65/%s(k1 %s) sign", combo[c].name,
                         k1);
                add(label, ROLE_TARGET, prep_sign_ph, meas_sign_ph, NULL,
                    sizeof g_ph_fixed_sk, combo[c].mask, samples);
            }
            if (info) {
                snprintf(label, sizeof label, "%s/%s(k1 %s) keygen xi (info)", s->name,
                         combo[c].name, k1);
                add(label, ROLE_INFO, prep_keygen, meas_keygen, s, 32, combo[c].mask,
                    2 * samples);
            }
        }
    }
    vg_cpu_force(det);

    printf("test_dudect_mldsa: %zu measurements per signing row (%zu per key generation row), "
           "pool of %zu one-attempt keys per set, threshold |t| < %.1f\n",
           samples, 2 * samples, pool, VG_DUDECT_THRESHOLD);
    vg_dudect_print_header(44, "routine");
    for (size_t i = 0; i < g_n; i++) {
        const struct entry *e = &g_entries[i];
        if (only && e->role == ROLE_TARGET && !strstr(e->label, only))
            continue;
        struct vg_dudect_result res;
        vg_cpu_force(e->mask);
        if (e->role == ROLE_TARGET || e->role == ROLE_INFO) {
            /* The mask really selects the combination the label names. */
            /* (avx2+avx512: either AVX-512 variant, avx2+avx512vbmi where
             * the CPU has VBMI2.) */
            const char *want = strstr(e->label, "/portable")      ? "portable"
                               : strstr(e->label, "/avx2+avx512/") ? "avx2+avx512"
                                                                   : "avx2";
            const char *got = vg_mldsa_active()->name;
            CHECK_MSG(strcmp(got, want) == 0 ||
                          (strcmp(want, "avx2+avx512") == 0 && strcmp(got, "avx2+avx512vbmi") == 0),
                      "%s: dispatch gives %s", e->label, got);
            if (strstr(e->label, "k4x-avx512"))
                CHECK_MSG(strcmp(vg_keccak4x_active()->name, "avx512") == 0,
                          "%s: four-way Keccak is %s", e->label, vg_keccak4x_active()->name);
            else if (strstr(e->label, "k4x-avx2"))
                CHECK_MSG(strcmp(vg_keccak4x_active()->name, "avx2") == 0,
                          "%s: four-way Keccak is %s", e->label, vg_keccak4x_active()->name);
        }
        int ok = vg_dudect_judge(&e->r, (enum vg_dudect_role)e->role, e->samples,
                                 0x6d6c0000u + i, 44, &res);
        if (ok < 0) {
            fprintf(stderr, "test_dudect_mldsa: out of memory\n");
            return 2;
        }
        CHECK_MSG(ok, "%s: |t| = %.2f: %s", e->label, res.max_abs_t,
                  e->role == ROLE_LEAKY ? "the leaky control was not detected"
                                        : "over the threshold in two runs");
    }
    vg_cpu_force(det);
    for (int si = 0; si < 3; si++)
        free(g_sets[si].pool);
    free(g_ph_pool);
    return vg_dudect_exit(vgtest_done("test_dudect_mldsa"));
}
