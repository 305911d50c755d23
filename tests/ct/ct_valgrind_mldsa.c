/*
 * ML-DSA (FIPS 204) constant-time check under valgrind memcheck: the secret
 * inputs are marked undefined and memcheck reports every branch or memory
 * index computed from them ("Conditional jump or move depends on
 * uninitialised value(s)", "Use of uninitialised value of size 8"). Run
 * through run_valgrind.sh (valgrind --error-exitcode=1 -q), so any report
 * fails the test.
 *
 * Secrets: the key-generation seed xi (through vg_mldsaN_keypair_derand),
 * the whole secret key and rnd (through the signing entry points: sign_derand
 * deterministic and hedged, sign_internal, sign_mu). Messages, contexts, mu
 * and public keys are public. The library declassifies (VG_CT_DECLASSIFY,
 * src/common/common.h, each use commented in src/mldsa) only rho, each
 * nibble's accept/reject bit in RejBoundedPoly, the verdict of each signing
 * attempt, the key-range verdict (the return value) and the accepted hints
 * (a signature field); the harness declassifies outputs only after the call
 * returns, to check them.
 *
 * Backends: portable (CPU mask without AVX2: portable NTT and rejection
 * sampling, portable four-way Keccak) and AVX2 (the AVX2 backend with the
 * AVX2 four-way Keccak), chosen through the dispatch by forcing the CPU mask
 * (valgrind's CPUID hides ADX and AVX-512). AVX-512 (the AVX-512VL four-way
 * Keccak) cannot run under valgrind 3.19: test_dudect_mldsa covers it.
 *
 * Usage (as ct_valgrind): --detect | [--force MASK] [--leaky] [--quick]
 *   --quick: one parameter set per backend (a local smoke run).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "common.h"
#include "mldsa/poly.h"
#include "vgtest.h"
#include "ct_valgrind_main.h"

#if !defined(VG_CT_TESTING)
#error "ct_valgrind_mldsa must link the constant-time test build of the library (vgcrypto_ct)"
#endif

/* Mark n bytes at p secret. */
#define VG_CT_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))

#define MAX_PK VG_MLDSA87_PUBLICKEYBYTES
#define MAX_SK VG_MLDSA87_SECRETKEYBYTES
#define MAX_SIG VG_MLDSA87_SIGBYTES

struct mldsa_set {
    const char *name;
    size_t pk_len, sk_len, sig_len;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    int (*sign_derand)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                       const uint8_t *, const uint8_t *);
    int (*sign_internal)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *);
    int (*sign_mu)(uint8_t *, const uint8_t *, const uint8_t *, const uint8_t *);
    int (*verify)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t,
                  const uint8_t *);
    int (*verify_internal)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *);
    int (*verify_mu)(const uint8_t *, size_t, const uint8_t *, const uint8_t *);
    int (*sign_prehash_derand)(uint8_t *, const uint8_t *, size_t, int, const uint8_t *, size_t,
                               const uint8_t *, const uint8_t *);
    int (*verify_prehash)(const uint8_t *, size_t, const uint8_t *, size_t, int,
                          const uint8_t *, size_t, const uint8_t *);
    int (*mu_init)(vg_mldsa_mu_state *, const uint8_t *, const uint8_t *, size_t);
};

#define SET(n)                                                                                \
    {"ml-dsa-" #n, VG_MLDSA##n##_PUBLICKEYBYTES, VG_MLDSA##n##_SECRETKEYBYTES,              \
     VG_MLDSA##n##_SIGBYTES, vg_mldsa##n##_keypair_derand, vg_mldsa##n##_sign_derand,       \
     vg_mldsa##n##_sign_internal, vg_mldsa##n##_sign_mu, vg_mldsa##n##_verify,              \
     vg_mldsa##n##_verify_internal, vg_mldsa##n##_verify_mu,                               \
     vg_mldsa##n##_sign_prehash_derand, vg_mldsa##n##_verify_prehash, vg_mldsa##n##_mu_init}
static const struct mldsa_set g_sets[3] = {SET(44), SET(65), SET(87)};

/* Which signing entry points run for a parameter set, per backend: all of
 * them (sign_derand deterministic and hedged, sign_internal, sign_mu); the
 * whole run takes a few seconds under valgrind (signing is ~0.2 ms natively),
 * far inside the CI budget. */
enum { RUN_INTERNAL = 1, RUN_MU = 2 };
static const unsigned g_extra[3] = {RUN_INTERNAL | RUN_MU, RUN_INTERNAL | RUN_MU,
                                    RUN_INTERNAL | RUN_MU};

static const uint8_t g_msg[33] = "constant-time check, ML-DSA sign";
static const uint8_t g_ctx[5] = {'c', 't', 'x', 0, 7};

/* Results of the first backend, to compare the others with. */
static uint8_t g_ref_pk[3][MAX_PK], g_ref_sk[3][MAX_SK], g_ref_sig[3][MAX_SIG];
static int g_have_ref[3];

/* Declassify a finished output for the harness's own check: the routine
 * has returned, so this cannot hide a leak inside it. */
static void public_now(void *p, size_t n) { VG_CT_DECLASSIFY(p, n); }

static void run_set(int si, const char *backend)
{
    const struct mldsa_set *s = &g_sets[si];
    uint8_t seed[32], pk[MAX_PK], sk[MAX_SK], sig[MAX_SIG], rnd[32], mu[64];
    char label[64];
    snprintf(label, sizeof label, "%s/%s", s->name, backend);

    /* Key generation: xi secret. */
    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)(0x3c + 7 * i + si);
    VG_CT_SECRET(seed, sizeof seed);
    CHECK_MSG(s->keypair_derand(pk, sk, seed) == VG_OK, "%s keypair_derand", label);
    public_now(pk, s->pk_len);
    public_now(sk, s->sk_len);
    printf("  ok      %-24s keypair_derand (seed secret)\n", label);

    /* Deterministic signing: sk secret, rnd = 0 (marked too). */
    memset(rnd, 0, sizeof rnd);
    VG_CT_SECRET(sk, s->sk_len);
    VG_CT_SECRET(rnd, sizeof rnd);
    CHECK_MSG(s->sign_derand(sig, g_msg, sizeof g_msg, g_ctx, sizeof g_ctx, sk, rnd) == VG_OK,
              "%s sign_derand deterministic", label);
    public_now(sig, s->sig_len);
    public_now(sk, s->sk_len);
    CHECK_MSG(s->verify(sig, s->sig_len, g_msg, sizeof g_msg, g_ctx, sizeof g_ctx, pk) == VG_OK,
              "%s deterministic signature does not verify", label);
    printf("  ok      %-24s sign_derand deterministic (sk, rnd secret)\n", label);

    if (!g_have_ref[si]) {
        memcpy(g_ref_pk[si], pk, s->pk_len);
        memcpy(g_ref_sk[si], sk, s->sk_len);
        memcpy(g_ref_sig[si], sig, s->sig_len);
        g_have_ref[si] = 1;
    } else {
        CHECK_MSG(memcmp(pk, g_ref_pk[si], s->pk_len) == 0, "%s pk differs across backends", label);
        CHECK_MSG(memcmp(sk, g_ref_sk[si], s->sk_len) == 0, "%s sk differs across backends", label);
        CHECK_MSG(memcmp(sig, g_ref_sig[si], s->sig_len) == 0,
                  "%s deterministic signature differs across backends", label);
    }

    /* Hedged signing with a given rnd: sk and rnd secret. */
    for (int i = 0; i < 32; i++)
        rnd[i] = (uint8_t)(0xa1 ^ (13 * i));
    VG_CT_SECRET(sk, s->sk_len);
    VG_CT_SECRET(rnd, sizeof rnd);
    CHECK_MSG(s->sign_derand(sig, g_msg, sizeof g_msg, NULL, 0, sk, rnd) == VG_OK,
              "%s sign_derand hedged", label);
    public_now(sig, s->sig_len);
    public_now(sk, s->sk_len);
    CHECK_MSG(s->verify(sig, s->sig_len, g_msg, sizeof g_msg, NULL, 0, pk) == VG_OK,
              "%s hedged signature does not verify", label);
    printf("  ok      %-24s sign_derand hedged (sk, rnd secret)\n", label);

    if (g_extra[si] & RUN_INTERNAL) {
        VG_CT_SECRET(sk, s->sk_len);
        VG_CT_SECRET(rnd, sizeof rnd);
        CHECK_MSG(s->sign_internal(sig, g_msg, sizeof g_msg, sk, rnd) == VG_OK,
                  "%s sign_internal", label);
        public_now(sig, s->sig_len);
        public_now(sk, s->sk_len);
        CHECK_MSG(s->verify_internal(sig, s->sig_len, g_msg, sizeof g_msg, pk) == VG_OK,
                  "%s sign_internal signature does not verify", label);
        printf("  ok      %-24s sign_internal (sk, rnd secret)\n", label);
    }
    if (g_extra[si] & RUN_MU) {
        /* mu is public (a hash of tr, which is H(pk), and the message). */
        for (int i = 0; i < 64; i++)
            mu[i] = (uint8_t)(0x11 * i + 5);
        VG_CT_SECRET(sk, s->sk_len);
        VG_CT_SECRET(rnd, sizeof rnd);
        CHECK_MSG(s->sign_mu(sig, mu, sk, rnd) == VG_OK, "%s sign_mu", label);
        public_now(sig, s->sig_len);
        public_now(sk, s->sk_len);
        CHECK_MSG(s->verify_mu(sig, s->sig_len, mu, pk) == VG_OK,
                  "%s sign_mu signature does not verify", label);
        printf("  ok      %-24s sign_mu (sk, rnd secret)\n", label);
    }

    /* HashML-DSA (issue 21): sk and rnd secret, the digest and context
     * public (a digest of a public message, as the message is for pure
     * ML-DSA). */
    {
        uint8_t ph[64];
        for (int i = 0; i < 64; i++)
            ph[i] = (uint8_t)(0x5a ^ (7 * i));
        VG_CT_SECRET(sk, s->sk_len);
        VG_CT_SECRET(rnd, sizeof rnd);
        CHECK_MSG(s->sign_prehash_derand(sig, ph, 64, VG_HASH_SHA512, g_ctx, sizeof g_ctx, sk,
                                         rnd) == VG_OK,
                  "%s sign_prehash_derand", label);
        public_now(sig, s->sig_len);
        public_now(sk, s->sk_len);
        CHECK_MSG(s->verify_prehash(sig, s->sig_len, ph, 64, VG_HASH_SHA512, g_ctx,
                                    sizeof g_ctx, pk) == VG_OK,
                  "%s HashML-DSA signature does not verify", label);
        printf("  ok      %-24s sign_prehash_derand (sk, rnd secret)\n", label);
    }
    /* The streaming mu state with the message marked secret (stricter than
     * the API needs: the message is public in ML-DSA), then sign_mu with sk
     * and rnd secret; the result equals sign_derand's. */
    {
        uint8_t msg[sizeof g_msg], sig2[MAX_SIG];
        vg_mldsa_mu_state st;
        memcpy(msg, g_msg, sizeof msg);
        VG_CT_SECRET(msg, sizeof msg);
        CHECK(s->mu_init(&st, pk, g_ctx, sizeof g_ctx) == VG_OK);
        CHECK(vg_mldsa_mu_update(&st, msg, 5) == VG_OK);
        CHECK(vg_mldsa_mu_update(&st, NULL, 0) == VG_OK);
        CHECK(vg_mldsa_mu_update(&st, msg + 5, sizeof msg - 5) == VG_OK);
        CHECK(vg_mldsa_mu_final(&st, mu) == VG_OK);
        /* Declassify: mu is the external-mu interface's public input
         * (FIPS 204 Algorithm 7 from line 7 on); the hashing that made it
         * from the marked message has run by now. */
        public_now(mu, sizeof mu);
        VG_CT_SECRET(sk, s->sk_len);
        VG_CT_SECRET(rnd, sizeof rnd);
        CHECK_MSG(s->sign_mu(sig, mu, sk, rnd) == VG_OK, "%s sign_mu of the mu state", label);
        public_now(sig, s->sig_len);
        public_now(sk, s->sk_len);
        public_now(rnd, sizeof rnd);
        CHECK(s->sign_derand(sig2, g_msg, sizeof g_msg, g_ctx, sizeof g_ctx, sk, rnd) == VG_OK);
        CHECK_MSG(memcmp(sig, sig2, s->sig_len) == 0,
                  "%s mu state + sign_mu differs from sign_derand", label);
        printf("  ok      %-24s mu state (message secret) + sign_mu (sk, rnd secret)\n", label);
    }
}

/* ---- leaky control --------------------------------------------------------- */

static volatile int32_t g_sink;

/* A variable-time SampleInBall-style loop on a secret buffer: it draws bytes
 * until one is at most i (a branch on secret data) and writes at the secret
 * index j, as the textbook Algorithm 29 does. memcheck must report it. */
__attribute__((noinline)) static void leaky_control(const uint8_t *secret, size_t len)
{
    int32_t c[256] = {0};
    size_t k = 0;
    for (unsigned i = 200; i < 256 && k < len; i++) {
        unsigned j;
        do {
            j = secret[k++];
        } while (j > i && k < len);
        c[i] = c[j & 255];
        c[j & 255] = 1;
    }
    g_sink = c[255];
}

static void run_leaky(void)
{
    uint8_t s[256];
    for (int i = 0; i < 256; i++)
        s[i] = (uint8_t)(i * 151 + 9);
    VG_CT_SECRET(s, sizeof s);
    leaky_control(s, sizeof s);
    printf("  ran the leaky control (memcheck must report it)\n");
}

int main(int argc, char **argv)
{
    struct vg_ctv_opts opt;
    int rc = vg_ctv_parse(argc, argv, "ct_valgrind_mldsa", 1, &opt);
    if (rc >= 0)
        return rc;
    const int leaky = opt.leaky, quick = opt.quick;
    const uint32_t avail = opt.avail, runnable = opt.runnable;

    if (leaky) {
        run_leaky();
        return 0;
    }

    /* The backends: portable first (the reference), then AVX2 when the CPU
     * has it. The mask picks the backend through vg_mldsa_active(). */
    struct {
        const char *want;
        uint32_t mask;
    } be[2] = {{"portable", runnable & ~(uint32_t)VG_CPU_AVX2}, {"avx2", runnable}};
    unsigned nbe = (runnable & VG_CPU_AVX2) ? 2 : 1;
    if (nbe == 1)
        printf("  SKIP    avx2 backend: the CPU has no AVX2\n");
    if (avail & NO_VALGRIND_AVX512)
        printf("  SKIP    AVX-512 four-way Keccak: valgrind 3.19 cannot execute AVX-512 "
               "(covered by test_dudect_mldsa)\n");
    for (unsigned b = 0; b < nbe; b++) {
        vg_cpu_force(be[b].mask);
        const char *got = vg_mldsa_active()->name;
        /* natively (the MSan build) the AVX2 backend may carry AVX-512
         * kernels: "avx2+avx512vbmi" */
        CHECK_MSG(strncmp(got, be[b].want, strlen(be[b].want)) == 0, "mask 0x%x selects %s, not %s",
                  (unsigned)be[b].mask, got, be[b].want);
        for (int si = 0; si < 3; si++) {
            if (quick && si != (int)b)
                continue;
            run_set(si, got);
        }
    }
    vg_cpu_force(runnable);
    return vgtest_done("ct_valgrind_mldsa");
}
