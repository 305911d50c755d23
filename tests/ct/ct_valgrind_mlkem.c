/*
 * ML-KEM (FIPS 203) constant-time check under valgrind memcheck: the secret
 * inputs of every operation are marked undefined, and memcheck reports any
 * branch or memory address computed from them ("Conditional jump or move
 * depends on uninitialised value(s)", "Use of uninitialised value of size
 * 8"). Run through run_valgrind.sh (`valgrind --error-exitcode=1`), so any
 * report fails the test.
 *
 * Secrets, per FIPS 203:
 *   - key generation: the seed d || z (Algorithm 16), through
 *     vg_mlkemN_keypair_derand;
 *   - encapsulation: the message m (Algorithm 17); the encapsulation key is
 *     public and stays defined;
 *   - decapsulation: the whole decapsulation key dk (Algorithm 18), with a
 *     valid ciphertext and with a tampered one (implicit rejection), and
 *     with a dk whose stored H(ek) is wrong (the 7.3 check rejects it);
 *     vg_mlkemN_check_secret_key on a secret dk.
 * The ciphertexts are public (an attacker chooses them) and stay defined.
 *
 * The library declassifies what the specification makes public, with
 * VG_CT_DECLASSIFY (src/common/common.h, a valgrind client request in this
 * build): rho = G(d || k)[0:32] in key generation (it is part of ek), the ek
 * part of dk and the verdict of the 7.3 hash check (src/mlkem/kem.c,
 * each use commented). Everything else stays secret to the end: the harness
 * declassifies the outputs only after the call returns, to compare them
 * with the portable backend's output on the same (defined) inputs.
 *
 * Each operation runs once per backend combination valgrind can execute:
 * the CPU mask is forced (valgrind's CPUID hides AVX-512, and the AVX-512
 * four-way Keccak cannot run under valgrind 3.19 anyway), to 0 (all
 * portable: ML-KEM, Keccak, four-way Keccak), to the real mask without AVX2
 * (portable ML-KEM with the BMI2 single-state Keccak) and to the real mask
 * without AVX-512 (the AVX2 backend with the AVX2 four-way Keccak).
 * Combinations that select the same implementations are run once.
 *
 * Usage:
 *   ct_valgrind_mlkem --detect        print vg_cpu_detected() (run natively)
 *   ct_valgrind_mlkem [--force MASK]  the checks above
 *   ct_valgrind_mlkem [--force MASK] --leaky
 *       the leaky control: decapsulation with a secret dk, then a branch on
 *       the shared secret it returned. memcheck must report it (ctest
 *       expects this run to fail): it shows that the taint of dk reaches the
 *       outputs through the library, i.e. that the marking is not lost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "common.h"
#include "hash/keccak.h"
#include "hash/keccak4x.h"
#include "mlkem/poly.h"
#include "vgtest.h"
#include "ct_valgrind_main.h"

#define VG_CT_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))

#if !defined(VG_CT_TESTING)
#error "ct_valgrind_mlkem must link the constant-time test build of the library (vgcrypto_ct)"
#endif


/* Largest sizes (ML-KEM-1024). */
#define PK_MAX VG_MLKEM1024_PUBLICKEYBYTES
#define SK_MAX VG_MLKEM1024_SECRETKEYBYTES
#define CT_MAX VG_MLKEM1024_CIPHERTEXTBYTES

struct kem {
    const char *name;
    size_t pk_len, sk_len, ct_len;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    int (*keypair)(uint8_t *, uint8_t *);
    int (*encaps_derand)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
    int (*decaps)(uint8_t *, const uint8_t *, const uint8_t *);
    int (*check_sk)(const uint8_t *);
};

static const struct kem g_kems[] = {
    {"ml-kem-512", VG_MLKEM512_PUBLICKEYBYTES, VG_MLKEM512_SECRETKEYBYTES,
     VG_MLKEM512_CIPHERTEXTBYTES, vg_mlkem512_keypair_derand, vg_mlkem512_keypair,
     vg_mlkem512_encaps_derand, vg_mlkem512_decaps, vg_mlkem512_check_secret_key},
    {"ml-kem-768", VG_MLKEM768_PUBLICKEYBYTES, VG_MLKEM768_SECRETKEYBYTES,
     VG_MLKEM768_CIPHERTEXTBYTES, vg_mlkem768_keypair_derand, vg_mlkem768_keypair,
     vg_mlkem768_encaps_derand, vg_mlkem768_decaps, vg_mlkem768_check_secret_key},
    {"ml-kem-1024", VG_MLKEM1024_PUBLICKEYBYTES, VG_MLKEM1024_SECRETKEYBYTES,
     VG_MLKEM1024_CIPHERTEXTBYTES, vg_mlkem1024_keypair_derand, vg_mlkem1024_keypair,
     vg_mlkem1024_encaps_derand, vg_mlkem1024_decaps, vg_mlkem1024_check_secret_key},
};
#define N_KEMS (sizeof g_kems / sizeof g_kems[0])

/* Reference outputs, computed on defined inputs with everything portable
 * (mask 0), before any secret is marked. */
struct ref {
    uint8_t pk[PK_MAX], sk[SK_MAX], ct[CT_MAX], ss[32], ct_bad[CT_MAX], ss_bad[32];
};
static struct ref g_ref[N_KEMS];
static uint8_t g_seed[64], g_m[32];

/* The tampered ciphertext: one bit of the first byte of u flipped (a
 * decapsulation of it rejects except with negligible probability). */
static void tamper(uint8_t *ct, size_t len, const uint8_t *from)
{
    memcpy(ct, from, len);
    ct[0] ^= 0x01;
}

static void make_refs(void)
{
    for (size_t i = 0; i < 64; i++)
        g_seed[i] = (uint8_t)(i * 97 + 13);
    for (size_t i = 0; i < 32; i++)
        g_m[i] = (uint8_t)(i * 29 + 201);
    vg_cpu_force(0);
    for (size_t k = 0; k < N_KEMS; k++) {
        const struct kem *e = &g_kems[k];
        struct ref *r = &g_ref[k];
        CHECK(e->keypair_derand(r->pk, r->sk, g_seed) == VG_OK);
        CHECK(e->encaps_derand(r->ct, r->ss, r->pk, g_m) == VG_OK);
        tamper(r->ct_bad, e->ct_len, r->ct);
        CHECK(e->decaps(r->ss_bad, r->ct_bad, r->sk) == VG_OK);
        /* Implicit rejection returned J(z || c), not K. */
        CHECK_MSG(memcmp(r->ss_bad, r->ss, 32) != 0, "%s: tampered ct accepted", e->name);
    }
}

/* Compare an output of the run under test with the reference. The output
 * was computed from secrets: declassify it first. */
static void same(const char *label, const char *kem, const char *what, uint8_t *got,
                 const uint8_t *want, size_t n)
{
    /* Declassify: the harness's own cross-check, after the routine under
     * test has returned (anything inside it that depended on the secret has
     * been reported by then). */
    VG_CT_DECLASSIFY(got, n);
    CHECK_MSG(memcmp(got, want, n) == 0, "%s %s %s differs from the portable reference", label,
              kem, what);
}

/* Every operation of one parameter set, with its secrets marked. */
static void run_kem(const struct kem *e, const struct ref *r, const char *label)
{
    static uint8_t seed[64], m[32], pk[PK_MAX], sk[SK_MAX], ct[CT_MAX], ss[32];
    int rc;

    /* KeyGen: d || z secret (FIPS 203 Algorithm 16). */
    memcpy(seed, g_seed, 64);
    VG_CT_SECRET(seed, 64);
    rc = e->keypair_derand(pk, sk, seed);
    CHECK(rc == VG_OK); /* a constant: defined unless the routine made it depend on a secret */
    same(label, e->name, "keygen pk", pk, r->pk, e->pk_len);
    same(label, e->name, "keygen sk", sk, r->sk, e->sk_len);

    /* Encaps: m secret, ek public (Algorithm 17). */
    memcpy(m, g_m, 32);
    VG_CT_SECRET(m, 32);
    rc = e->encaps_derand(ct, ss, r->pk, m);
    CHECK(rc == VG_OK);
    same(label, e->name, "encaps ct", ct, r->ct, e->ct_len);
    same(label, e->name, "encaps ss", ss, r->ss, 32);

    /* Decaps: dk secret, the ciphertext public (Algorithm 18), valid ... */
    memcpy(sk, r->sk, e->sk_len);
    VG_CT_SECRET(sk, e->sk_len);
    rc = e->decaps(ss, r->ct, sk);
    CHECK(rc == VG_OK);
    same(label, e->name, "decaps ss (valid ct)", ss, r->ss, 32);

    /* ... and tampered: implicit rejection, K-bar = J(z || c). */
    memcpy(sk, r->sk, e->sk_len);
    VG_CT_SECRET(sk, e->sk_len);
    rc = e->decaps(ss, r->ct_bad, sk);
    CHECK(rc == VG_OK);
    same(label, e->name, "decaps ss (tampered ct)", ss, r->ss_bad, 32);

    /* A dk whose stored H(ek) is wrong: the 7.3 check rejects it. */
    memcpy(sk, r->sk, e->sk_len);
    sk[e->sk_len - 64] ^= 0x80; /* first byte of H(ek) */
    VG_CT_SECRET(sk, e->sk_len);
    rc = e->decaps(ss, r->ct, sk);
    CHECK_MSG(rc == VG_ERR_INPUT, "%s %s decaps with a bad H(ek): %d", label, e->name, rc);

    /* check_secret_key on a secret dk: valid, then the bad H(ek). */
    memcpy(sk, r->sk, e->sk_len);
    VG_CT_SECRET(sk, e->sk_len);
    CHECK(e->check_sk(sk) == VG_OK);
    sk[e->sk_len - 64] ^= 0x80;
    VG_CT_SECRET(sk, e->sk_len);
    CHECK(e->check_sk(sk) == VG_ERR_INPUT);

    /* keypair: d and z come from the OS inside the call, where the harness
     * cannot mark them (memcheck treats getrandom's output as defined): run
     * only, for coverage. */
    CHECK(e->keypair(pk, sk) == VG_OK);
}

/* ---- leaky control --------------------------------------------------- */

static volatile unsigned g_sink;

static void run_leaky(void)
{
    static uint8_t pk[PK_MAX], sk[SK_MAX], ct[CT_MAX], ss[32];
    const struct kem *e = &g_kems[1];
    for (size_t i = 0; i < 64; i++)
        g_seed[i] = (uint8_t)(i * 97 + 13);
    CHECK(e->keypair_derand(pk, sk, g_seed) == VG_OK);
    CHECK(e->encaps_derand(ct, ss, pk, g_seed) == VG_OK);
    VG_CT_SECRET(sk, e->sk_len);
    CHECK(e->decaps(ss, ct, sk) == VG_OK);
    /* A branch on the shared secret, which decaps computed from dk: what
     * the harness exists to catch. The volatile store keeps it a branch. */
    if (ss[0] & 1)
        g_sink++;
    printf("  ran the leaky control (memcheck must report it)\n");
}

/* ---- driver ------------------------------------------------------------ */

int main(int argc, char **argv)
{
    struct vg_ctv_opts opt;
    int rc = vg_ctv_parse(argc, argv, "ct_valgrind_mlkem", 0, &opt);
    if (rc >= 0)
        return rc;
    const int leaky = opt.leaky, on_valgrind = opt.on_valgrind;
    const uint32_t avail = opt.avail, runnable = opt.runnable;

    if (leaky) {
        vg_cpu_force(runnable);
        run_leaky();
        return 0;
    }

    make_refs();

    /* Backend combinations, deduplicated by the implementations selected. */
    const uint32_t masks[] = {0, runnable & ~(uint32_t)VG_CPU_AVX2, runnable};
    const char *seen[3][3];
    size_t nseen = 0;
    for (size_t c = 0; c < sizeof masks / sizeof masks[0]; c++) {
        vg_cpu_force(masks[c]);
        const char *kem = vg_mlkem_active()->name, *k1 = vg_keccak_active()->name,
                   *k4 = vg_keccak4x_active()->name;
        int dup = 0;
        for (size_t s = 0; s < nseen; s++)
            dup |= seen[s][0] == kem && seen[s][1] == k1 && seen[s][2] == k4;
        if (dup)
            continue;
        seen[nseen][0] = kem;
        seen[nseen][1] = k1;
        seen[nseen][2] = k4;
        nseen++;
        char label[96];
        snprintf(label, sizeof label, "mlkem %s, keccak %s, keccak4x %s", kem, k1, k4);
        for (size_t k = 0; k < N_KEMS; k++)
            run_kem(&g_kems[k], &g_ref[k], label);
        printf("  checked %s (mask 0x%03x): keygen, encaps, decaps (valid, tampered, bad "
               "H(ek)), check_secret_key for 512/768/1024\n",
               label, (unsigned)masks[c]);
    }
    if (on_valgrind && (avail & NO_VALGRIND_AVX512))
        printf("  SKIP    keccak4x avx512: valgrind 3.19 cannot execute AVX-512 (covered by "
               "test_dudect_mlkem)\n");
    return vgtest_done("ct_valgrind_mlkem");
}
