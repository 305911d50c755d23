/*
 * ML-KEM (FIPS 203) statistical constant-time test, dudect style (dudect.h:
 * two input classes interleaved at random, lfence; rdtsc, percentile crops,
 * Welch's t), run natively so that the AVX-512 four-way Keccak, which
 * valgrind cannot execute, is covered too.
 *
 * Usage: test_dudect_mlkem [SAMPLES] [--only SUBSTRING] [--api-keygen]
 *   SAMPLES: measurements per row (default 20000; ct-long uses 10^6).
 *   --only: the controls and the rows whose label contains SUBSTRING.
 *   --api-keygen: add the rows "keygen d" (see "Public timing" below).
 *
 * Rows, for ML-KEM-512/768/1024 and for every backend combination the
 * dispatch can select on this CPU (the CPU mask is forced per row: all
 * portable; the AVX2 backend with the AVX2 four-way Keccak; the AVX2 backend
 * with the AVX-512VL four-way Keccak; duplicates dropped):
 *   decaps ct     the secret is whether the ciphertext decrypts correctly
 *                 (implicit rejection: FIPS 203 Algorithm 18 lines 9-11 must
 *                 not reveal it). Fixed dk; class 0 a valid ciphertext, drawn
 *                 from a pool of encapsulations to the fixed ek (random m);
 *                 class 1 such a ciphertext with one random bit flipped.
 *   decaps sk     the secret is dk. Class 0 the fixed dk, class 1 a random
 *                 dk with the same rho (random sigma and z); in both a valid
 *                 ciphertext to that key (class 0 from the pool, class 1
 *                 encapsulated with a random m), so both take the accept path.
 *   keygen        the secret is sigma (and z): key generation from the fixed
 *                 rho with the fixed sigma || z vs random ones
 *                 (vg_mlkemN_keypair_rho_sigma, mlkem_internal.h: Algorithm
 *                 16 after G(d || k)).
 *   encaps        the secret is m: a fixed m vs random m; ek fixed (public).
 *
 * Public timing: SampleNTT (FIPS 203 Algorithm 7) is variable time in rho,
 * which is public (part of ek): it squeezes SHAKE128 blocks until 256
 * coefficients are accepted, and rejection sampling branches and indexes
 * tables on the (public) XOF output. A fixed rho is measurably faster than
 * random ones, by far more than the occasional extra block explains (the
 * branch predictor learns the fixed rho's accept/reject pattern): fixed vs
 * random rho separates at once (|t| 100-600 at 5000 samples, both backends),
 * also with random seeds chosen to need the same number of blocks, and also
 * with a call on a random seed before every timed one. So the rows that
 * vary the key hold rho fixed and vary only what is secret. "keygen d"
 * (--api-keygen, not part of the verdict in CI) times the API
 * vg_mlkemN_keypair_derand with a fixed d vs random d, where rho varies with
 * d: it shows that public effect. G(d || k) itself is SHA3-512, covered by
 * test_dudect and ct_valgrind.
 *
 * Controls:
 *   control/leaky-decaps   ML-KEM-768 decaps followed by an early-exit
 *                          comparison of the ciphertext with the fixed one
 *                          (class 0: that ciphertext, class 1: one bit
 *                          flipped at a random position): a leak of the size
 *                          a variable-time re-encryption check would have,
 *                          under the noise of a whole decapsulation. Must
 *                          reach |t| >= 4.5, or the harness is blind.
 *   control/null           the same ML-KEM-768 decaps input in both
 *                          classes: must stay below 4.5.
 * Verdicts as in test_dudect.c: a target or the null control over 4.5 is
 * repeated with fresh samples and fails only if the repeat is over too; the
 * leaky control must show on the first run. Output: a table, then
 * "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "dudect.h"
#include "hash/keccak.h"
#include "hash/keccak4x.h"
#include "mlkem/mlkem_internal.h"
#include "mlkem/poly.h"
#include "vgtest.h"

#define PK_MAX VG_MLKEM1024_PUBLICKEYBYTES
#define SK_MAX VG_MLKEM1024_SECRETKEYBYTES
#define CT_MAX VG_MLKEM1024_CIPHERTEXTBYTES
#define POOL 64 /* valid ciphertexts per parameter set */

struct kem {
    const char *name;
    unsigned k;
    size_t pk_len, sk_len, ct_len;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    int (*encaps_derand)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
    int (*decaps)(uint8_t *, const uint8_t *, const uint8_t *);
    void (*keypair_rho_sigma)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *,
                              const uint8_t *);
};

static const struct kem g_kems[] = {
    {"512", 2, VG_MLKEM512_PUBLICKEYBYTES, VG_MLKEM512_SECRETKEYBYTES,
     VG_MLKEM512_CIPHERTEXTBYTES, vg_mlkem512_keypair_derand, vg_mlkem512_encaps_derand,
     vg_mlkem512_decaps, vg_mlkem512_keypair_rho_sigma},
    {"768", 3, VG_MLKEM768_PUBLICKEYBYTES, VG_MLKEM768_SECRETKEYBYTES,
     VG_MLKEM768_CIPHERTEXTBYTES, vg_mlkem768_keypair_derand, vg_mlkem768_encaps_derand,
     vg_mlkem768_decaps, vg_mlkem768_keypair_rho_sigma},
    {"1024", 4, VG_MLKEM1024_PUBLICKEYBYTES, VG_MLKEM1024_SECRETKEYBYTES,
     VG_MLKEM1024_CIPHERTEXTBYTES, vg_mlkem1024_keypair_derand, vg_mlkem1024_encaps_derand,
     vg_mlkem1024_decaps, vg_mlkem1024_keypair_rho_sigma},
};
#define N_KEMS (sizeof g_kems / sizeof g_kems[0])

/* The fixed material of one parameter set. */
struct set {
    const struct kem *e;
    uint8_t seed0[64], m0[32];
    uint8_t pk0[PK_MAX], sk0[SK_MAX], ct0[CT_MAX];
    uint8_t pool[POOL][CT_MAX];
    uint8_t rho0[32], sz0[64]; /* G(d || k) = rho0 || sz0[0:32]; sz0[32:64] = z */
};
static struct set g_sets[N_KEMS];
static uint8_t g_out[SK_MAX + PK_MAX];
static volatile int g_sink;

static void init_set(struct set *s, const struct kem *e)
{
    uint8_t in[33], g[64];
    s->e = e;
    vg_dudect_randombytes(s->seed0, 64);
    vg_dudect_randombytes(s->m0, 32);
    CHECK(e->keypair_derand(s->pk0, s->sk0, s->seed0) == VG_OK);
    /* rho0 || sigma0 = G(d || k) (FIPS 203 Algorithm 13 line 1); the
     * keygen rows hold rho0 fixed. */
    memcpy(in, s->seed0, 32);
    in[32] = (uint8_t)e->k;
    vg_sha3_512(g, in, sizeof in);
    memcpy(s->rho0, g, 32);
    memcpy(s->sz0, g + 32, 32);
    memcpy(s->sz0 + 32, s->seed0 + 32, 32);
    /* Self-check: the test entry point gives the API's keys. */
    uint8_t pk[PK_MAX], sk[SK_MAX];
    e->keypair_rho_sigma(pk, sk, s->rho0, s->sz0, s->sz0 + 32);
    CHECK_MSG(memcmp(pk, s->pk0, e->pk_len) == 0 && memcmp(sk, s->sk0, e->sk_len) == 0,
              "%s: keypair_rho_sigma differs from keypair_derand", e->name);
    CHECK(e->encaps_derand(s->ct0, g_out, s->pk0, s->m0) == VG_OK);
    for (unsigned p = 0; p < POOL; p++) {
        uint8_t m[32];
        vg_dudect_randombytes(m, 32);
        CHECK(e->encaps_derand(s->pool[p], g_out, s->pk0, m) == VG_OK);
    }
}

static unsigned rand_below(unsigned n)
{
    uint8_t b[4];
    vg_dudect_randombytes(b, 4);
    return vg_load32_le(b) % n; /* harness only: n is public and small */
}

/* ---- rows ---------------------------------------------------------------- */

/* decaps ct: input = ct. */
static void prep_decaps_ct(void *ctx, int cls, uint8_t *in)
{
    const struct set *s = ctx;
    memcpy(in, s->pool[rand_below(POOL)], s->e->ct_len);
    if (cls == 1)
        in[rand_below((unsigned)s->e->ct_len)] ^= (uint8_t)(1u << rand_below(8));
}

static void meas_decaps_ct(void *ctx, const uint8_t *in)
{
    const struct set *s = ctx;
    g_sink = s->e->decaps(g_out, in, s->sk0);
}

/* decaps sk: input = dk || ct. */
static void prep_decaps_sk(void *ctx, int cls, uint8_t *in)
{
    const struct set *s = ctx;
    const struct kem *e = s->e;
    if (cls == 0) {
        memcpy(in, s->sk0, e->sk_len);
        memcpy(in + e->sk_len, s->pool[rand_below(POOL)], e->ct_len);
    } else {
        uint8_t sz[64], m[32], pk[PK_MAX], ss[32];
        vg_dudect_randombytes(sz, 64);
        vg_dudect_randombytes(m, 32);
        e->keypair_rho_sigma(pk, in, s->rho0, sz, sz + 32);
        e->encaps_derand(in + e->sk_len, ss, pk, m);
    }
}

static void meas_decaps_sk(void *ctx, const uint8_t *in)
{
    const struct set *s = ctx;
    g_sink = s->e->decaps(g_out, in + s->e->sk_len, in);
}

/* keygen: input = sigma || z, rho fixed. */
static void prep_keygen(void *ctx, int cls, uint8_t *in)
{
    const struct set *s = ctx;
    if (cls == 0)
        memcpy(in, s->sz0, 64);
    else
        vg_dudect_randombytes(in, 64);
}

static void meas_keygen(void *ctx, const uint8_t *in)
{
    const struct set *s = ctx;
    s->e->keypair_rho_sigma(g_out, g_out + PK_MAX, s->rho0, in, in + 32);
}

/* keygen d (--api-keygen): input = d || z through the API. */
static void prep_keygen_d(void *ctx, int cls, uint8_t *in)
{
    const struct set *s = ctx;
    if (cls == 0)
        memcpy(in, s->seed0, 64);
    else
        vg_dudect_randombytes(in, 64);
}

static void meas_keygen_d(void *ctx, const uint8_t *in)
{
    const struct set *s = ctx;
    g_sink = s->e->keypair_derand(g_out, g_out + PK_MAX, in);
}

/* encaps: input = m. */
static void prep_encaps(void *ctx, int cls, uint8_t *in)
{
    const struct set *s = ctx;
    if (cls == 0)
        memcpy(in, s->m0, 32);
    else
        vg_dudect_randombytes(in, 32);
}

static void meas_encaps(void *ctx, const uint8_t *in)
{
    const struct set *s = ctx;
    g_sink = s->e->encaps_derand(g_out, g_out + CT_MAX, s->pk0, in);
}

/* ---- controls (ML-KEM-768, input = ct) ---------------------------------- */

/* Returns at the first differing byte: time grows with the common prefix. */
__attribute__((noinline)) static int early_exit_compare(const uint8_t *a, const uint8_t *b,
                                                        size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 1;
    return 0;
}

static void prep_leaky(void *ctx, int cls, uint8_t *in)
{
    const struct set *s = ctx;
    memcpy(in, s->ct0, s->e->ct_len);
    if (cls == 1)
        in[rand_below((unsigned)s->e->ct_len)] ^= (uint8_t)(1u << rand_below(8));
}

static void meas_leaky(void *ctx, const uint8_t *in)
{
    const struct set *s = ctx;
    g_sink = s->e->decaps(g_out, in, s->sk0) + early_exit_compare(in, s->ct0, s->e->ct_len);
}

static void prep_null(void *ctx, int cls, uint8_t *in)
{
    const struct set *s = ctx;
    (void)cls;
    memcpy(in, s->ct0, s->e->ct_len);
}

/* ---- driver ------------------------------------------------------------- */

enum role {
    ROLE_LEAKY = VG_DUDECT_LEAKY,
    ROLE_NULL = VG_DUDECT_NULL,
    ROLE_TARGET = VG_DUDECT_TARGET
};

struct entry {
    struct vg_dudect_routine r;
    enum role role;
    uint32_t mask;
    char label[72];
};

#define MAX_ENTRIES 64
static struct entry g_entries[MAX_ENTRIES];
static size_t g_n;

static void add(const char *label, enum role role, uint32_t mask, size_t len,
                void (*prep)(void *, int, uint8_t *), void (*meas)(void *, const uint8_t *),
                struct set *s)
{
    if (g_n >= MAX_ENTRIES) {
        fprintf(stderr, "test_dudect_mlkem: too many rows\n");
        exit(2);
    }
    struct entry *e = &g_entries[g_n++];
    memset(e, 0, sizeof *e); /* optional routine fields stay NULL */
    snprintf(e->label, sizeof e->label, "%s", label);
    e->r.name = e->label;
    e->r.input_len = len;
    e->r.prepare = prep;
    e->r.measure = meas;
    e->r.ctx = s;
    e->role = role;
    e->mask = mask;
}

int main(int argc, char **argv)
{
    size_t samples = 20000;
    const char *only = NULL;
    int api_keygen = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--api-keygen") == 0) {
            api_keygen = 1;
        } else {
            char *end;
            unsigned long long v = strtoull(argv[i], &end, 10);
            if (*end || v < 1000) {
                fprintf(stderr, "usage: %s [SAMPLES >= 1000] [--only SUBSTRING] [--api-keygen]\n",
                        argv[0]);
                return 2;
            }
            samples = (size_t)v;
        }
    }

    const uint32_t det = vg_cpu_detected();
    const uint32_t avx512 = VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW |
                            VG_CPU_AVX512DQ | VG_CPU_AVX512IFMA;
    vg_cpu_force(det);
    for (size_t k = 0; k < N_KEMS; k++)
        init_set(&g_sets[k], &g_kems[k]);

    add("control/leaky-decaps (768)", ROLE_LEAKY, det, VG_MLKEM768_CIPHERTEXTBYTES, prep_leaky,
        meas_leaky, &g_sets[1]);
    add("control/null (768 decaps)", ROLE_NULL, det, VG_MLKEM768_CIPHERTEXTBYTES, prep_null,
        meas_decaps_ct, &g_sets[1]);

    /* Backend combinations, deduplicated by the implementations selected. */
    const uint32_t masks[] = {0, det & ~avx512, det};
    const char *seen[3][2];
    size_t nseen = 0;
    for (size_t c = 0; c < sizeof masks / sizeof masks[0]; c++) {
        vg_cpu_force(masks[c]);
        const char *kem = vg_mlkem_active()->name, *k4 = vg_keccak4x_active()->name;
        int dup = 0;
        for (size_t s = 0; s < nseen; s++)
            dup |= seen[s][0] == kem && seen[s][1] == k4;
        if (dup)
            continue;
        seen[nseen][0] = kem;
        seen[nseen][1] = k4;
        nseen++;
        for (size_t k = 0; k < N_KEMS; k++) {
            struct set *s = &g_sets[k];
            const struct kem *e = s->e;
            char l[72];
            snprintf(l, sizeof l, "%s/%s-k4 %s decaps ct", kem, k4, e->name);
            add(l, ROLE_TARGET, masks[c], e->ct_len, prep_decaps_ct, meas_decaps_ct, s);
            snprintf(l, sizeof l, "%s/%s-k4 %s decaps sk", kem, k4, e->name);
            add(l, ROLE_TARGET, masks[c], e->sk_len + e->ct_len, prep_decaps_sk, meas_decaps_sk,
                s);
            snprintf(l, sizeof l, "%s/%s-k4 %s keygen", kem, k4, e->name);
            add(l, ROLE_TARGET, masks[c], 64, prep_keygen, meas_keygen, s);
            if (api_keygen) {
                snprintf(l, sizeof l, "%s/%s-k4 %s keygen d", kem, k4, e->name);
                add(l, ROLE_TARGET, masks[c], 64, prep_keygen_d, meas_keygen_d, s);
            }
            snprintf(l, sizeof l, "%s/%s-k4 %s encaps", kem, k4, e->name);
            add(l, ROLE_TARGET, masks[c], 32, prep_encaps, meas_encaps, s);
        }
    }
    vg_cpu_force(det);

    char feat[96];
    vg_cpu_format(det, feat, sizeof feat);
    printf("test_dudect_mlkem: %zu measurements per row, threshold |t| < %.1f, features %s\n",
           samples, VG_DUDECT_THRESHOLD, feat[0] ? feat : "(none)");
    vg_dudect_print_header(44, "row (mlkem/keccak4x set op)");

    for (size_t i = 0; i < g_n; i++) {
        const struct entry *e = &g_entries[i];
        if (only && e->role == ROLE_TARGET && !strstr(e->label, only))
            continue;
        struct vg_dudect_result res;
        vg_cpu_force(e->mask);
        int ok = vg_dudect_judge(&e->r, (enum vg_dudect_role)e->role, samples,
                                 0x6b656d00u + i, 44, &res);
        if (ok < 0) {
            fprintf(stderr, "test_dudect_mlkem: out of memory\n");
            return 2;
        }
        CHECK_MSG(ok, "%s: |t| = %.2f: %s", e->label, res.max_abs_t,
                  e->role == ROLE_LEAKY ? "the leaky control was not detected"
                                        : "over the threshold in two runs");
    }
    vg_cpu_force(det);
    return vg_dudect_exit(vgtest_done("test_dudect_mlkem"));
}
