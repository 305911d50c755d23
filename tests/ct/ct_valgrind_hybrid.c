/*
 * Hybrid KEMs and key decoding (issue 17) under valgrind memcheck: the
 * secret inputs are marked undefined and memcheck reports any branch or
 * address computed from them. Run through run_valgrind.sh (no suppressions).
 *
 * Secrets:
 *   - X-Wing: the seed of keypair_derand, the eseed of encaps_derand, the
 *     32-byte decapsulation key of decaps (valid and tampered ciphertexts:
 *     implicit rejection, and a different X25519 share);
 *   - X25519MLKEM768: the 96-byte seed, the eseed, the 2432-byte secret key;
 *   - SecP256r1MLKEM768, SecP384r1MLKEM1024: the seed (EC scalar || d || z),
 *     the eseed (ephemeral scalar || m), the secret key (scalar || dk);
 *   - PKCS#8: vg_key_decode_private on DER whose key bytes are undefined
 *     (the tags and lengths stay defined: they depend on the algorithm and
 *     form only): X25519, Ed25519, X-Wing, P-256, P-384 (the scalar),
 *     ML-KEM-768 seed / expanded (the
 *     7.3 check and the pairwise check) / both (KeyGen and the constant-time
 *     compare), ML-DSA-65 seed / expanded (the s1/s2 range check and t
 *     regenerated from rho, s1, s2: t0 and tr compared) / both, ML-DSA-44
 *     expanded (eta 2);
 *     vg_key_encode_private (DER and PEM: the base64 of the secret) with the
 *     key undefined.
 * The library declassifies only through VG_CT_DECLASSIFY (each use commented
 * in src/hybrid and src/encoding, and in the components). Outputs are
 * declassified here after each call, to compare with the same call on
 * defined inputs. Not covered: the PEM decoder with secret text (its
 * structural characters and the key's share base64 quanta, so a harness
 * cannot mark only the key; its arithmetic is the encoder's reversed).
 *
 * Each check runs with the CPU mask forced to 0 (portable everything) and
 * to the runnable mask (valgrind cannot execute AVX-512).
 * --leaky: a branch on the X-Wing shared secret of a secret key; memcheck
 * must report it (the control, a WILL_FAIL test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "common.h"
#include "vgtest.h"
#include "ct_valgrind_main.h"

#if !defined(VG_CT_TESTING)
#error "ct_valgrind_hybrid must link the constant-time test build of the library (vgcrypto_ct)"
#endif

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static uint8_t g_seed[112], g_eseed[80];

static void check_xwing(void)
{
    static uint8_t pk[1216], pk2[1216], ct[1120], ct2[1120];
    uint8_t sk[32], sk2[32], ss[32], ss2[32], seed[32], eseed[64];
    /* References on defined inputs. */
    CHECK(vg_xwing_keypair_derand(pk, sk, g_seed) == VG_OK);
    CHECK(vg_xwing_encaps_derand(ct, ss, pk, g_eseed) == VG_OK);
    memcpy(seed, g_seed, 32);
    SECRET(seed, 32);
    CHECK(vg_xwing_keypair_derand(pk2, sk2, seed) == VG_OK);
    PUBLIC(pk2, sizeof pk2);
    PUBLIC(sk2, sizeof sk2);
    CHECK(memcmp(pk, pk2, sizeof pk) == 0 && memcmp(sk, sk2, 32) == 0);
    memcpy(eseed, g_eseed, 64);
    SECRET(eseed, 64);
    CHECK(vg_xwing_encaps_derand(ct2, ss2, pk, eseed) == VG_OK);
    PUBLIC(ct2, sizeof ct2);
    PUBLIC(ss2, 32);
    CHECK(memcmp(ct, ct2, sizeof ct) == 0 && memcmp(ss, ss2, 32) == 0);
    for (int t = 0; t < 3; t++) { /* valid, ct_M tampered, ct_X tampered */
        memcpy(ct2, ct, sizeof ct);
        if (t == 1)
            ct2[5] ^= 1;
        if (t == 2)
            ct2[1100] ^= 1;
        CHECK(vg_xwing_decaps(ss, ct2, sk) == VG_OK);
        memcpy(sk2, sk, 32);
        SECRET(sk2, 32);
        CHECK(vg_xwing_decaps(ss2, ct2, sk2) == VG_OK);
        PUBLIC(ss2, 32);
        CHECK(memcmp(ss, ss2, 32) == 0);
    }
}

static void check_x25519mlkem768(void)
{
    static uint8_t pk[1216], sk[2432], pk2[1216], sk2[2432], ct[1120], ct2[1120];
    uint8_t ss[64], ss2[64], seed[96], eseed[64];
    CHECK(vg_x25519mlkem768_keypair_derand(pk, sk, g_seed) == VG_OK);
    CHECK(vg_x25519mlkem768_encaps_derand(ct, ss, pk, g_eseed) == VG_OK);
    memcpy(seed, g_seed, 96);
    SECRET(seed, 96);
    CHECK(vg_x25519mlkem768_keypair_derand(pk2, sk2, seed) == VG_OK);
    PUBLIC(pk2, sizeof pk2);
    PUBLIC(sk2, sizeof sk2);
    CHECK(memcmp(pk, pk2, sizeof pk) == 0 && memcmp(sk, sk2, sizeof sk) == 0);
    memcpy(eseed, g_eseed, 64);
    SECRET(eseed, 64);
    CHECK(vg_x25519mlkem768_encaps_derand(ct2, ss2, pk, eseed) == VG_OK);
    PUBLIC(ct2, sizeof ct2);
    PUBLIC(ss2, 64);
    CHECK(memcmp(ct, ct2, sizeof ct) == 0 && memcmp(ss, ss2, 64) == 0);
    for (int t = 0; t < 2; t++) {
        memcpy(ct2, ct, sizeof ct);
        if (t)
            ct2[7] ^= 1;
        CHECK(vg_x25519mlkem768_decaps(ss, ct2, sk) == VG_OK);
        memcpy(sk2, sk, sizeof sk);
        SECRET(sk2, sizeof sk2);
        CHECK(vg_x25519mlkem768_decaps(ss2, ct2, sk2) == VG_OK);
        PUBLIC(ss2, 64);
        CHECK(memcmp(ss, ss2, 64) == 0);
    }
}

/* SecP256r1MLKEM768 and SecP384r1MLKEM1024: the seed (EC scalar || ML-KEM
 * d || z), the eseed (ephemeral scalar || m) and the secret key (scalar ||
 * dk) undefined; a valid and a tampered ML-KEM ciphertext. */
struct ct_nh {
    size_t pk, sk, ct, ss, seed, eseed;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    int (*encaps_derand)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
    int (*decaps)(uint8_t *, const uint8_t *, const uint8_t *);
};

static void check_nist_hybrid(const struct ct_nh *h)
{
    static uint8_t pk[1665], sk[3216], pk2[1665], sk2[3216], ct[1665], ct2[1665];
    uint8_t ss[80], ss2[80], seed[112], eseed[80];
    CHECK(h->keypair_derand(pk, sk, g_seed) == VG_OK);
    CHECK(h->encaps_derand(ct, ss, pk, g_eseed) == VG_OK);
    memcpy(seed, g_seed, h->seed);
    SECRET(seed, h->seed);
    CHECK(h->keypair_derand(pk2, sk2, seed) == VG_OK);
    PUBLIC(pk2, h->pk);
    PUBLIC(sk2, h->sk);
    CHECK(memcmp(pk, pk2, h->pk) == 0 && memcmp(sk, sk2, h->sk) == 0);
    memcpy(eseed, g_eseed, h->eseed);
    SECRET(eseed, h->eseed);
    CHECK(h->encaps_derand(ct2, ss2, pk, eseed) == VG_OK);
    PUBLIC(ct2, h->ct);
    PUBLIC(ss2, h->ss);
    CHECK(memcmp(ct, ct2, h->ct) == 0 && memcmp(ss, ss2, h->ss) == 0);
    for (int t = 0; t < 2; t++) {
        memcpy(ct2, ct, h->ct);
        if (t)
            ct2[h->ct - 7] ^= 1; /* in the ML-KEM ciphertext */
        CHECK(h->decaps(ss, ct2, sk) == VG_OK);
        memcpy(sk2, sk, h->sk);
        SECRET(sk2, h->sk);
        CHECK(h->decaps(ss2, ct2, sk2) == VG_OK);
        PUBLIC(ss2, h->ss);
        CHECK(memcmp(ss, ss2, h->ss) == 0);
    }
}

static const struct ct_nh g_p256mlkem768 = {
    VG_P256MLKEM768_PUBLICKEYBYTES, VG_P256MLKEM768_SECRETKEYBYTES,
    VG_P256MLKEM768_CIPHERTEXTBYTES, VG_P256MLKEM768_SHAREDSECRETBYTES,
    VG_P256MLKEM768_SEEDBYTES, VG_P256MLKEM768_ENCAPSSEEDBYTES,
    vg_p256mlkem768_keypair_derand, vg_p256mlkem768_encaps_derand, vg_p256mlkem768_decaps};
static const struct ct_nh g_p384mlkem1024 = {
    VG_P384MLKEM1024_PUBLICKEYBYTES, VG_P384MLKEM1024_SECRETKEYBYTES,
    VG_P384MLKEM1024_CIPHERTEXTBYTES, VG_P384MLKEM1024_SHAREDSECRETBYTES,
    VG_P384MLKEM1024_SEEDBYTES, VG_P384MLKEM1024_ENCAPSSEEDBYTES,
    vg_p384mlkem1024_keypair_derand, vg_p384mlkem1024_encaps_derand, vg_p384mlkem1024_decaps};

/* Decode der (n bytes) twice: defined, then with the bytes [off, off+len)
 * undefined; same result. */
static void decode_secret(const uint8_t *der, size_t n, size_t off, size_t len, const char *what)
{
    static uint8_t copy[VG_KEY_ENCODED_MAXBYTES], k1[VG_KEY_SECRET_MAXBYTES],
        k2[VG_KEY_SECRET_MAXBYTES];
    vg_key_alg a1, a2;
    unsigned f1, f2;
    size_t l1, l2;
    int r1 = vg_key_decode_private(&a1, &f1, k1, sizeof k1, &l1, der, n);
    memcpy(copy, der, n);
    SECRET(copy + off, len);
    int r2 = vg_key_decode_private(&a2, &f2, k2, sizeof k2, &l2, copy, n);
    PUBLIC(k2, sizeof k2);
    CHECK_MSG(r1 == VG_OK && r2 == VG_OK && a1 == a2 && f1 == f2 && l1 == l2 &&
                  memcmp(k1, k2, l1) == 0,
              "%s", what);
}

/* Encode key (len bytes) defined and undefined, DER and PEM; same output;
 * then decode the DER with the key bytes undefined (they are the last len
 * bytes for every form written from a seed-or-key input). */
static void check_key(vg_key_alg alg, unsigned form, const uint8_t *key, size_t len,
                      size_t secret_tail, const char *what)
{
    static uint8_t e1[VG_KEY_ENCODED_MAXBYTES], e2[VG_KEY_ENCODED_MAXBYTES], k[4896];
    size_t n1, n2;
    for (unsigned pem = 0; pem < 2; pem++) {
        CHECK(vg_key_encode_private(e1, sizeof e1, &n1, alg, form | pem, key, len) == VG_OK);
        memcpy(k, key, len);
        SECRET(k, len);
        CHECK(vg_key_encode_private(e2, sizeof e2, &n2, alg, form | pem, k, len) == VG_OK);
        PUBLIC(e2, sizeof e2);
        PUBLIC(&n2, sizeof n2);
        CHECK_MSG(n1 == n2 && memcmp(e1, e2, n1) == 0, "encode %s %s", what, pem ? "PEM" : "DER");
    }
    CHECK(vg_key_encode_private(e1, sizeof e1, &n1, alg, form, key, len) == VG_OK);
    if (secret_tail == 0) { /* EC: the scalar sits before the public key; find it */
        size_t off = 0;
        while (off + len <= n1 && memcmp(e1 + off, key, len) != 0)
            off++;
        CHECK(off + len <= n1);
        decode_secret(e1, n1, off, len, what);
        return;
    }
    decode_secret(e1, n1, n1 - secret_tail, secret_tail, what);
}

static void check_encodings(void)
{
    static uint8_t pk[2592], exp[4896];
    /* Seed-or-key inputs: the secret is the DER's last bytes. */
    check_key(VG_KEY_X25519, 0, g_seed, 32, 32, "x25519");
    check_key(VG_KEY_ED25519, 0, g_seed, 32, 32, "ed25519");
    check_key(VG_KEY_XWING, 0, g_seed, 32, 32, "x-wing");
    check_key(VG_KEY_P256, 0, g_seed, 32, 0, "p-256"); /* g_seed[0] = 7: < n */
    check_key(VG_KEY_P384, 0, g_seed, 48, 0, "p-384");
    check_key(VG_KEY_MLKEM768, VG_KEY_SEED, g_seed, 64, 64, "ml-kem-768 seed");
    check_key(VG_KEY_MLDSA65, VG_KEY_SEED, g_seed, 32, 32, "ml-dsa-65 seed");
    /* Expanded keys: the whole expanded key secret (ML-KEM: the 7.3 and
     * pairwise checks; ML-DSA: the s1/s2 range check, t regenerated from
     * rho, s1, s2 and t0, tr compared; rho declassified inside, as keygen
     * does). The ek inside an
     * ML-KEM dk is public; marking it too is stricter than needed but what
     * a caller holding only the dk does. */
    CHECK(vg_mlkem768_keypair_derand(pk, exp, g_seed) == VG_OK);
    check_key(VG_KEY_MLKEM768, VG_KEY_EXPANDED, exp, 2400, 2400, "ml-kem-768 expanded");
    CHECK(vg_mldsa65_keypair_derand(pk, exp, g_seed) == VG_OK);
    check_key(VG_KEY_MLDSA65, VG_KEY_EXPANDED, exp, 4032, 4032, "ml-dsa-65 expanded");
    CHECK(vg_mldsa44_keypair_derand(pk, exp, g_seed) == VG_OK);
    check_key(VG_KEY_MLDSA44, VG_KEY_EXPANDED, exp, 2560, 2560, "ml-dsa-44 expanded");
    /* "both" from a seed: the DER ends seed (64) || 04 82 LL LL || dk. */
    {
        static uint8_t e[VG_KEY_ENCODED_MAXBYTES];
        size_t n;
        CHECK(vg_key_encode_private(e, sizeof e, &n, VG_KEY_MLKEM768, VG_KEY_BOTH, g_seed, 64) ==
              VG_OK);
        decode_secret(e, n, n - 2400 - 4 - 64, 64, "ml-kem-768 both (seed)");
        decode_secret(e, n, n - 2400, 2400, "ml-kem-768 both (expanded)");
        CHECK(vg_key_encode_private(e, sizeof e, &n, VG_KEY_MLDSA65, VG_KEY_BOTH, g_seed, 32) ==
              VG_OK);
        decode_secret(e, n, n - 4032 - 4 - 32, 32, "ml-dsa-65 both (seed)");
        decode_secret(e, n, n - 4032, 4032, "ml-dsa-65 both (expanded)");
    }
}

static volatile unsigned g_sink;

int main(int argc, char **argv)
{
    struct vg_ctv_opts opt;
    int rc = vg_ctv_parse(argc, argv, "ct_valgrind_hybrid", 0, &opt);
    if (rc >= 0)
        return rc;
    for (size_t i = 0; i < sizeof g_seed; i++)
        g_seed[i] = (uint8_t)(i * 29 + 7);
    for (size_t i = 0; i < sizeof g_eseed; i++)
        g_eseed[i] = (uint8_t)(i * 53 + 11);
    if (opt.leaky) {
        static uint8_t pk[1216], ct[1120];
        uint8_t sk[32], ss[32];
        vg_cpu_force(opt.runnable);
        CHECK(vg_xwing_keypair_derand(pk, sk, g_seed) == VG_OK);
        CHECK(vg_xwing_encaps_derand(ct, ss, pk, g_eseed) == VG_OK);
        SECRET(sk, 32);
        CHECK(vg_xwing_decaps(ss, ct, sk) == VG_OK);
        if (ss[0] & 1) /* the planted leak: a branch on a secret-derived value */
            g_sink++;
        printf("  ran the leaky control (memcheck must report it)\n");
        return 0;
    }
    const uint32_t masks[2] = {0, opt.runnable};
    for (size_t m = 0; m < 2; m++) {
        if (m == 1 && opt.runnable == 0)
            break;
        vg_cpu_force(masks[m]);
        check_xwing();
        check_x25519mlkem768();
        check_nist_hybrid(&g_p256mlkem768);
        check_nist_hybrid(&g_p384mlkem1024);
        check_encodings();
        printf("  checked mask 0x%03x: x-wing, x25519mlkem768, p256mlkem768, p384mlkem1024 "
               "(keypair, encaps, decaps), "
               "PKCS#8 encode/decode of 10 key kinds\n", (unsigned)masks[m]);
    }
    return vgtest_done("ct_valgrind_hybrid");
}
