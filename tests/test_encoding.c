/*
 * Key encodings (src/encoding): PKCS#8 / SPKI in DER and PEM.
 *
 *  - The LAMPS documents' example keys (tests/vectors/lamps, SOURCES.md):
 *    for each ML-KEM and ML-DSA parameter set the seed, expanded and both
 *    private keys and the public key parse to the same key (the seed's
 *    KeyGen gives the expanded key and the public key printed beside it) and
 *    re-encode byte for byte, in PEM and (the file decoded by OpenSSL's PEM
 *    reader) DER; their inconsistent examples are refused. X-Wing's draft
 *    example likewise.
 *  - OpenSSL 3.0 interoperability for X25519, Ed25519, P-256 and P-384, both
 *    directions, DER and PEM: OpenSSL parses ours to the same keys, and ours
 *    equal OpenSSL's encodings byte for byte; we parse OpenSSL's (for EC also
 *    its PKCS#8 without the publicKey and with the [0] parameters, as
 *    OpenSSL writes them with EC_PKEY_NO_PUBKEY / explicit parameters off).
 *  - Round trips of every algorithm and form on random keys.
 *  - Malformed DER and PEM, each VG_ERR_INPUT with the outputs zeroed: every
 *    length off by one, every BER length form (long form for a short length,
 *    leading zero, indefinite), every truncation, trailing bytes outside and
 *    inside the outer SEQUENCE, wrong OIDs, parameters present (NULL, or the
 *    EC form), wrong versions, attributes, wrong element lengths, nonzero
 *    unused bits, and PEM armour errors.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgcrypto.h"
#include "vgtest.h"

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t a = 0;
    for (size_t i = 0; i < n; i++)
        a |= p[i];
    return a == 0;
}

static uint8_t *read_vec(const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", VG_VECTORS_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    fclose(f);
    return b;
}

/* The DER inside a PEM text, by OpenSSL's reader (independent of ours). */
static uint8_t *openssl_pem_der(const uint8_t *pem, size_t len, long *der_len)
{
    BIO *b = BIO_new_mem_buf(pem, (int)len);
    char *name = NULL, *hdr = NULL;
    unsigned char *data = NULL;
    if (!PEM_read_bio(b, &name, &hdr, &data, der_len))
        data = NULL;
    OPENSSL_free(name);
    OPENSSL_free(hdr);
    BIO_free(b);
    return data;
}

/* ---- LAMPS and X-Wing examples ------------------------------------------ */

struct lamps {
    const char *name, *dir;
    vg_key_alg alg;
    size_t seed, exp, pk;
    int (*keygen)(uint8_t *, uint8_t *, const uint8_t *);
};

static const struct lamps g_lamps[] = {
    {"ML-KEM-512", "ml-kem", VG_KEY_MLKEM512, 64, 1632, 800, vg_mlkem512_keypair_derand},
    {"ML-KEM-768", "ml-kem", VG_KEY_MLKEM768, 64, 2400, 1184, vg_mlkem768_keypair_derand},
    {"ML-KEM-1024", "ml-kem", VG_KEY_MLKEM1024, 64, 3168, 1568, vg_mlkem1024_keypair_derand},
    {"ML-DSA-44", "ml-dsa", VG_KEY_MLDSA44, 32, 2560, 1312, vg_mldsa44_keypair_derand},
    {"ML-DSA-65", "ml-dsa", VG_KEY_MLDSA65, 32, 4032, 1952, vg_mldsa65_keypair_derand},
    {"ML-DSA-87", "ml-dsa", VG_KEY_MLDSA87, 32, 4896, 2592, vg_mldsa87_keypair_derand},
};

static uint8_t g_out[VG_KEY_ENCODED_MAXBYTES], g_key[VG_KEY_SECRET_MAXBYTES];
static uint8_t g_pk[VG_KEY_PUBLIC_MAXBYTES], g_exp[VG_KEY_SECRET_MAXBYTES];
static uint8_t g_pk2[VG_KEY_PUBLIC_MAXBYTES];

/* Decode file `rel` as a private key, check alg and form, re-encode it in
 * PEM and DER and compare with the file (PEM) and OpenSSL's reading (DER).
 * The key goes to g_key (*klen). */
static int example_private(const char *rel, vg_key_alg alg, unsigned form, size_t *klen)
{
    size_t len, n;
    long dlen = 0;
    vg_key_alg a;
    unsigned fl;
    int ok = 1;
    uint8_t *pem = read_vec(rel, &len);
    if (!pem)
        return 0;
    ok &= vg_key_decode_private(&a, &fl, g_key, sizeof g_key, klen, pem, len) == VG_OK;
    ok &= a == alg && fl == (VG_KEY_PEM | form);
    ok &= vg_key_encode_private(g_out, sizeof g_out, &n, alg, fl, g_key, *klen) == VG_OK;
    ok &= n == len && memcmp(g_out, pem, len) == 0;
    uint8_t *der = openssl_pem_der(pem, len, &dlen);
    ok &= der != NULL;
    if (der) {
        ok &= vg_key_encode_private(g_out, sizeof g_out, &n, alg, form, g_key, *klen) == VG_OK;
        ok &= n == (size_t)dlen && memcmp(g_out, der, n) == 0;
        size_t k2;
        static uint8_t key2[VG_KEY_SECRET_MAXBYTES];
        ok &= vg_key_decode_private(&a, &fl, key2, sizeof key2, &k2, der, (size_t)dlen) ==
                  VG_OK &&
              fl == form && k2 == *klen && memcmp(key2, g_key, k2) == 0;
        OPENSSL_free(der);
    }
    free(pem);
    CHECK_MSG(ok, "%s", rel);
    return ok;
}

static int example_public(const char *rel, vg_key_alg alg, const uint8_t *want, size_t want_len)
{
    size_t len, n, pl;
    long dlen = 0;
    vg_key_alg a;
    int ok = 1;
    uint8_t *pem = read_vec(rel, &len);
    if (!pem)
        return 0;
    ok &= vg_key_decode_public(&a, g_pk2, sizeof g_pk2, &pl, pem, len) == VG_OK && a == alg;
    ok &= pl == want_len && memcmp(g_pk2, want, pl) == 0;
    ok &= vg_key_encode_public(g_out, sizeof g_out, &n, alg, VG_KEY_PEM, g_pk2, pl) == VG_OK;
    ok &= n == len && memcmp(g_out, pem, len) == 0;
    uint8_t *der = openssl_pem_der(pem, len, &dlen);
    ok &= der && vg_key_encode_public(g_out, sizeof g_out, &n, alg, VG_KEY_DER, g_pk2, pl) ==
                     VG_OK &&
          n == (size_t)dlen && memcmp(g_out, der, n) == 0;
    OPENSSL_free(der);
    free(pem);
    CHECK_MSG(ok, "%s", rel);
    return ok;
}

static int expect_bad_private(const char *rel)
{
    size_t len, kl = 1;
    vg_key_alg a = VG_KEY_X25519;
    unsigned fl = 7;
    uint8_t *pem = read_vec(rel, &len);
    if (!pem)
        return 0;
    memset(g_key, 0xaa, sizeof g_key);
    int ok = vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, pem, len) == VG_ERR_INPUT &&
             a == VG_KEY_NONE && fl == 0 && kl == 0 && all_zero(g_key, sizeof g_key);
    free(pem);
    CHECK_MSG(ok, "%s must be refused", rel);
    return ok;
}

static void test_lamps(void)
{
    char rel[256];
    int files = 0;
    for (size_t i = 0; i < sizeof g_lamps / sizeof g_lamps[0]; i++) {
        const struct lamps *L = &g_lamps[i];
        size_t kl;
        static uint8_t seed[64];
        snprintf(rel, sizeof rel, "lamps/%s/%s-seed.priv", L->dir, L->name);
        files += example_private(rel, L->alg, VG_KEY_SEED, &kl);
        CHECK(kl == L->seed);
        memcpy(seed, g_key, L->seed);
        /* The documents' examples use the seed 00 01 02 ... */
        int counting = 1;
        for (size_t j = 0; j < L->seed; j++)
            counting &= seed[j] == j;
        CHECK_MSG(counting, "%s seed", L->name);
        CHECK(L->keygen(g_pk, g_exp, seed) == VG_OK);
        snprintf(rel, sizeof rel, "lamps/%s/%s-both.priv", L->dir, L->name);
        files += example_private(rel, L->alg, VG_KEY_BOTH, &kl);
        CHECK(kl == L->seed && memcmp(g_key, seed, kl) == 0);
        snprintf(rel, sizeof rel, "lamps/%s/%s-expanded.priv", L->dir, L->name);
        files += example_private(rel, L->alg, VG_KEY_EXPANDED, &kl);
        CHECK_MSG(kl == L->exp && memcmp(g_key, g_exp, kl) == 0, "%s expanded = KeyGen(seed)",
                  L->name);
        snprintf(rel, sizeof rel, "lamps/%s/%s.pub", L->dir, L->name);
        files += example_public(rel, L->alg, g_pk, L->pk);
        /* Our seed encoding with the other forms requested gives the files'. */
        size_t n, len;
        snprintf(rel, sizeof rel, "lamps/%s/%s-both.priv", L->dir, L->name);
        uint8_t *f = read_vec(rel, &len);
        CHECK(f && vg_key_encode_private(g_out, sizeof g_out, &n, L->alg,
                                         VG_KEY_PEM | VG_KEY_BOTH, seed, L->seed) == VG_OK &&
              n == len && memcmp(g_out, f, n) == 0);
        free(f);
        snprintf(rel, sizeof rel, "lamps/%s/%s-expanded.priv", L->dir, L->name);
        f = read_vec(rel, &len);
        CHECK(f && vg_key_encode_private(g_out, sizeof g_out, &n, L->alg,
                                         VG_KEY_PEM | VG_KEY_EXPANDED, seed, L->seed) == VG_OK &&
              n == len && memcmp(g_out, f, n) == 0);
        free(f);
    }
    /* Inconsistent keys (the documents' "bad" examples): ML-KEM 1 (both,
     * seed and expanded differ), 2 (expanded, s changed, H(ek) right: found
     * by the pairwise check), 3 (expanded, H(ek) wrong: FIPS 203 7.3), 4
     * (both, only z differs); ML-DSA 1 (both, seed and expanded differ), 2
     * and 3 (expanded only, no public key: t0 resp. tr not those of rho,
     * s1, s2; found by regenerating t from rho, s1 and s2). */
    for (int k = 1; k <= 4; k++) {
        snprintf(rel, sizeof rel, "lamps/ml-kem/bad-ML-KEM-512-%d.priv", k);
        files += expect_bad_private(rel);
    }
    for (int k = 1; k <= 3; k++) {
        snprintf(rel, sizeof rel, "lamps/ml-dsa/bad-ML-DSA-44-%d.priv", k);
        files += expect_bad_private(rel);
    }

    /* X-Wing's example (seed 00 01 .. 1f). */
    size_t kl;
    uint8_t xseed[32], xsk[32];
    static uint8_t xpk[1216];
    files += example_private("xwing/xwing.priv", VG_KEY_XWING, 0, &kl);
    for (int j = 0; j < 32; j++)
        xseed[j] = (uint8_t)j;
    CHECK(kl == 32 && memcmp(g_key, xseed, 32) == 0);
    CHECK(vg_xwing_keypair_derand(xpk, xsk, xseed) == VG_OK);
    files += example_public("xwing/xwing.pub", VG_KEY_XWING, xpk, sizeof xpk);
    printf("lamps/x-wing examples: %d files\n", files);
}

/* ---- OpenSSL interoperability: X25519, Ed25519 -------------------------- */

static void test_openssl(void)
{
    uint64_t rs = 0x8410;
    int cases = 0;
    for (int t = 0; t < 2; t++) {
        int type = t == 0 ? EVP_PKEY_X25519 : EVP_PKEY_ED25519;
        vg_key_alg alg = t == 0 ? VG_KEY_X25519 : VG_KEY_ED25519;
        for (int it = 0; it < 50; it++) {
            uint8_t sk[32], pk[32], sk64[64], raw[32];
            size_t rl, n, kl;
            vg_key_alg a;
            unsigned fl;
            vgtest_randbytes(&rs, sk, 32);
            if (t == 0)
                vg_x25519_public_key(pk, sk);
            else
                vg_ed25519_keypair_from_seed(pk, sk64, sk);
            /* OpenSSL's encodings of the same key. */
            EVP_PKEY *ok = EVP_PKEY_new_raw_private_key(type, NULL, sk, 32);
            unsigned char *oder = NULL, *opub = NULL;
            int olen = i2d_PrivateKey(ok, &oder), opublen = i2d_PUBKEY(ok, &opub);
            BIO *bp = BIO_new(BIO_s_mem()), *bq = BIO_new(BIO_s_mem());
            PEM_write_bio_PrivateKey(bp, ok, NULL, NULL, 0, NULL, NULL);
            PEM_write_bio_PUBKEY(bq, ok);
            char *opem, *opubpem;
            long opemlen = BIO_get_mem_data(bp, &opem), opubpemlen = BIO_get_mem_data(bq, &opubpem);
            for (int pem = 0; pem < 2; pem++) {
                unsigned f = pem ? VG_KEY_PEM : VG_KEY_DER;
                /* Ours, private: equal to OpenSSL's, and OpenSSL reads it back. */
                CHECK(vg_key_encode_private(g_out, sizeof g_out, &n, alg, f,
                                            t ? sk64 : sk, t ? 64 : 32) == VG_OK);
                CHECK(pem ? (n == (size_t)opemlen && memcmp(g_out, opem, n) == 0)
                          : (n == (size_t)olen && memcmp(g_out, oder, n) == 0));
                EVP_PKEY *rk;
                if (pem) {
                    BIO *b = BIO_new_mem_buf(g_out, (int)n);
                    rk = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
                    BIO_free(b);
                } else {
                    const unsigned char *q = g_out;
                    rk = d2i_PrivateKey(type, NULL, &q, (long)n);
                }
                rl = 32;
                CHECK(rk && EVP_PKEY_get_raw_private_key(rk, raw, &rl) == 1 && rl == 32 &&
                      memcmp(raw, sk, 32) == 0);
                rl = 32;
                CHECK(rk && EVP_PKEY_get_raw_public_key(rk, raw, &rl) == 1 &&
                      memcmp(raw, pk, 32) == 0);
                EVP_PKEY_free(rk);
                /* Ours, public. */
                CHECK(vg_key_encode_public(g_out, sizeof g_out, &n, alg, f, pk, 32) == VG_OK);
                CHECK(pem ? (n == (size_t)opubpemlen && memcmp(g_out, opubpem, n) == 0)
                          : (n == (size_t)opublen && memcmp(g_out, opub, n) == 0));
                if (pem) {
                    BIO *b = BIO_new_mem_buf(g_out, (int)n);
                    rk = PEM_read_bio_PUBKEY(b, NULL, NULL, NULL);
                    BIO_free(b);
                } else {
                    const unsigned char *q = g_out;
                    rk = d2i_PUBKEY(NULL, &q, (long)n);
                }
                rl = 32;
                CHECK(rk && EVP_PKEY_get_raw_public_key(rk, raw, &rl) == 1 &&
                      memcmp(raw, pk, 32) == 0);
                EVP_PKEY_free(rk);
                /* OpenSSL's, read by us. */
                CHECK(vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl,
                                            pem ? (const uint8_t *)opem : oder,
                                            pem ? (size_t)opemlen : (size_t)olen) == VG_OK &&
                      a == alg && fl == f && kl == 32 && memcmp(g_key, sk, 32) == 0);
                CHECK(vg_key_decode_public(&a, g_pk, sizeof g_pk, &kl,
                                           pem ? (const uint8_t *)opubpem : opub,
                                           pem ? (size_t)opubpemlen : (size_t)opublen) == VG_OK &&
                      a == alg && kl == 32 && memcmp(g_pk, pk, 32) == 0);
                cases += 4;
            }
            BIO_free(bp);
            BIO_free(bq);
            OPENSSL_free(oder);
            OPENSSL_free(opub);
            EVP_PKEY_free(ok);
        }
    }
    /* An Ed25519 64-byte key whose second half is not its public key. */
    uint8_t sk64[64] = {1}, pk[32];
    size_t n = 5;
    vg_ed25519_keypair_from_seed(pk, sk64, sk64);
    sk64[40] ^= 1;
    CHECK(vg_key_encode_private(g_out, sizeof g_out, &n, VG_KEY_ED25519, 0, sk64, 64) ==
              VG_ERR_INPUT &&
          n == 0 && all_zero(g_out, sizeof g_out));
    printf("openssl interop: %d cases (X25519, Ed25519; private, public; DER, PEM; both ways)\n",
           cases);
}

/* ---- OpenSSL interoperability: P-256, P-384 ------------------------------- */

/* i2d of an EC key in PKCS#8 (DER) through a memory BIO. */
static size_t openssl_pkcs8_der(EVP_PKEY *k, uint8_t *out, size_t cap)
{
    BIO *b = BIO_new(BIO_s_mem());
    char *p;
    CHECK(i2d_PKCS8PrivateKey_bio(b, k, NULL, NULL, 0, NULL, NULL) == 1);
    long l = BIO_get_mem_data(b, &p);
    size_t n = l > 0 && (size_t)l <= cap ? (size_t)l : 0;
    memcpy(out, p, n);
    BIO_free(b);
    return n;
}

/* Decode ours with the EC checks: alg, scalar, and its point from OpenSSL. */
static void test_openssl_ec(void)
{
    static uint8_t oder[512], ours[1024];
    int cases = 0;
    for (int c = 0; c < 2; c++) {
        const char *curve = c == 0 ? "P-256" : "P-384";
        vg_key_alg alg = c == 0 ? VG_KEY_P256 : VG_KEY_P384;
        size_t nb = c == 0 ? 32 : 48, ptl = 2 * nb + 1;
        for (int it = 0; it < 20; it++) {
            uint8_t sk[48], pt[97], pt2[97];
            size_t n, kl, ol;
            vg_key_alg a;
            unsigned fl;
            EVP_PKEY *ok = EVP_PKEY_Q_keygen(NULL, NULL, "EC", curve);
            BIGNUM *d = NULL;
            CHECK(ok && EVP_PKEY_get_bn_param(ok, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1);
            CHECK(BN_bn2binpad(d, sk, (int)nb) == (int)nb);
            BN_clear_free(d);
            CHECK(EVP_PKEY_get_octet_string_param(ok, OSSL_PKEY_PARAM_PUB_KEY, pt, sizeof pt,
                                                  &ol) == 1 && ol == ptl && pt[0] == 0x04);
            /* Our public key of the scalar is OpenSSL's. */
            CHECK((c == 0 ? vg_p256_public_key(pt2, sk) : vg_p384_public_key(pt2, sk)) == VG_OK &&
                  memcmp(pt, pt2, ptl) == 0);
            size_t olen = openssl_pkcs8_der(ok, oder, sizeof oder);
            unsigned char *opub = NULL;
            int opublen = i2d_PUBKEY(ok, &opub);
            BIO *bp = BIO_new(BIO_s_mem()), *bq = BIO_new(BIO_s_mem());
            PEM_write_bio_PrivateKey(bp, ok, NULL, NULL, 0, NULL, NULL);
            PEM_write_bio_PUBKEY(bq, ok);
            char *opem, *opubpem;
            long opemlen = BIO_get_mem_data(bp, &opem), opubpemlen = BIO_get_mem_data(bq, &opubpem);
            for (int pem = 0; pem < 2; pem++) {
                unsigned f = pem ? VG_KEY_PEM : VG_KEY_DER;
                /* Ours, private: OpenSSL's bytes exactly, and OpenSSL reads it. */
                CHECK(vg_key_encode_private(ours, sizeof ours, &n, alg, f, sk, nb) == VG_OK);
                CHECK(pem ? (n == (size_t)opemlen && memcmp(ours, opem, n) == 0)
                          : (n == olen && memcmp(ours, oder, n) == 0));
                EVP_PKEY *rk;
                if (pem) {
                    BIO *b = BIO_new_mem_buf(ours, (int)n);
                    rk = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
                    BIO_free(b);
                } else {
                    const unsigned char *q = ours;
                    rk = d2i_PrivateKey(EVP_PKEY_EC, NULL, &q, (long)n);
                }
                CHECK(rk && EVP_PKEY_eq(rk, ok) == 1);
                EVP_PKEY_free(rk);
                /* Ours, public. */
                CHECK(vg_key_encode_public(ours, sizeof ours, &n, alg, f, pt, ptl) == VG_OK);
                CHECK(pem ? (n == (size_t)opubpemlen && memcmp(ours, opubpem, n) == 0)
                          : (n == (size_t)opublen && memcmp(ours, opub, n) == 0));
                if (pem) {
                    BIO *b = BIO_new_mem_buf(ours, (int)n);
                    rk = PEM_read_bio_PUBKEY(b, NULL, NULL, NULL);
                    BIO_free(b);
                } else {
                    const unsigned char *q = ours;
                    rk = d2i_PUBKEY(NULL, &q, (long)n);
                }
                CHECK(rk && EVP_PKEY_eq(rk, ok) == 1);
                EVP_PKEY_free(rk);
                /* OpenSSL's, read by us. */
                CHECK(vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl,
                                            pem ? (const uint8_t *)opem : oder,
                                            pem ? (size_t)opemlen : olen) == VG_OK &&
                      a == alg && fl == f && kl == nb && memcmp(g_key, sk, nb) == 0);
                CHECK(vg_key_decode_public(&a, g_pk, sizeof g_pk, &kl,
                                           pem ? (const uint8_t *)opubpem : opub,
                                           pem ? (size_t)opubpemlen : (size_t)opublen) == VG_OK &&
                      a == alg && kl == ptl && memcmp(g_pk, pt, ptl) == 0);
                cases += 4;
            }
            BIO_free(bp);
            BIO_free(bq);
            OPENSSL_free(opub);
            /* OpenSSL's PKCS#8 without the publicKey (include-public off,
             * EC_PKEY_NO_PUBKEY), and with the named-curve encoding set
             * explicitly: we read both. (OpenSSL's PKCS#8 writer never puts
             * [0] parameters in the ECPrivateKey; that form is in the
             * malformed-input table's accepted cases.) */
            for (int v = 0; v < 2; v++) {
                EVP_PKEY *k2 = EVP_PKEY_dup(ok);
                if (v == 0)
                    CHECK(EVP_PKEY_set_int_param(k2, OSSL_PKEY_PARAM_EC_INCLUDE_PUBLIC, 0) == 1);
                else
                    CHECK(EVP_PKEY_set_utf8_string_param(k2, OSSL_PKEY_PARAM_EC_ENCODING,
                                                         OSSL_PKEY_EC_ENCODING_GROUP) == 1);
                size_t l2 = openssl_pkcs8_der(k2, oder, sizeof oder);
                CHECK(l2 > 0 && vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, oder,
                                                      l2) == VG_OK &&
                      a == alg && kl == nb && memcmp(g_key, sk, nb) == 0);
                EVP_PKEY_free(k2);
                cases++;
            }
            EVP_PKEY_free(ok);
        }
    }
    printf("openssl interop: %d cases (P-256, P-384; private, public; DER, PEM; both ways)\n",
           cases);
}

/* ---- round trips ----------------------------------------------------------- */

struct algsz {
    vg_key_alg alg;
    size_t seed, exp, pk;
};
static const struct algsz g_sizes[] = {
    {VG_KEY_X25519, 32, 0, 32},      {VG_KEY_ED25519, 32, 0, 32},
    {VG_KEY_MLKEM512, 64, 1632, 800}, {VG_KEY_MLKEM768, 64, 2400, 1184},
    {VG_KEY_MLKEM1024, 64, 3168, 1568}, {VG_KEY_MLDSA44, 32, 2560, 1312},
    {VG_KEY_MLDSA65, 32, 4032, 1952}, {VG_KEY_MLDSA87, 32, 4896, 2592},
    {VG_KEY_XWING, 32, 0, 1216},      {VG_KEY_P256, 32, 0, 65},
    {VG_KEY_P384, 48, 0, 97},
};

static int public_of(vg_key_alg a, uint8_t *pk, uint8_t *exp, const uint8_t *seed)
{
    uint8_t tmp[64];
    switch (a) {
    case VG_KEY_X25519: return vg_x25519_public_key(pk, seed);
    case VG_KEY_ED25519: return vg_ed25519_keypair_from_seed(pk, tmp, seed);
    case VG_KEY_MLKEM512: return vg_mlkem512_keypair_derand(pk, exp, seed);
    case VG_KEY_MLKEM768: return vg_mlkem768_keypair_derand(pk, exp, seed);
    case VG_KEY_MLKEM1024: return vg_mlkem1024_keypair_derand(pk, exp, seed);
    case VG_KEY_MLDSA44: return vg_mldsa44_keypair_derand(pk, exp, seed);
    case VG_KEY_MLDSA65: return vg_mldsa65_keypair_derand(pk, exp, seed);
    case VG_KEY_MLDSA87: return vg_mldsa87_keypair_derand(pk, exp, seed);
    case VG_KEY_P256: return vg_p256_public_key(pk, seed);
    case VG_KEY_P384: return vg_p384_public_key(pk, seed);
    default: return vg_xwing_keypair_derand(pk, tmp, seed);
    }
}

static void test_round_trips(void)
{
    uint64_t rs = 0x5eed;
    int bad = 0, n_cases = 0;
    for (size_t i = 0; i < sizeof g_sizes / sizeof g_sizes[0]; i++) {
        const struct algsz *S = &g_sizes[i];
        for (int it = 0; it < 8; it++) {
            uint8_t seed[64];
            size_t n, q, kl;
            vg_key_alg a;
            unsigned fl;
            vgtest_randbytes(&rs, seed, sizeof seed);
            seed[0] &= S->alg == VG_KEY_P256 || S->alg == VG_KEY_P384 ? 0x7f : 0xff; /* < n */
            bad += public_of(S->alg, g_pk, g_exp, seed) != VG_OK;
            unsigned forms = S->exp ? 3 : 1;
            for (unsigned fi = 0; fi < forms; fi++) {
                unsigned form = fi == 0 ? VG_KEY_SEED : fi == 1 ? VG_KEY_EXPANDED : VG_KEY_BOTH;
                for (unsigned pem = 0; pem < 2; pem++) {
                    unsigned f = form | pem;
                    bad += vg_key_encode_private(NULL, 0, &q, S->alg, f, seed, S->seed) != VG_OK;
                    bad += vg_key_encode_private(g_out, sizeof g_out, &n, S->alg, f, seed,
                                                 S->seed) != VG_OK || n != q;
                    bad += vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, g_out, n) !=
                               VG_OK ||
                           a != S->alg || fl != f;
                    if (form == VG_KEY_EXPANDED)
                        bad += kl != S->exp || memcmp(g_key, g_exp, kl) != 0;
                    else
                        bad += kl != S->seed || memcmp(g_key, seed, kl) != 0;
                    /* One byte short of room: refused, zeroed. */
                    bad += vg_key_encode_private(g_out, n - 1, &q, S->alg, f, seed, S->seed) !=
                               VG_ERR_INPUT ||
                           q != 0 || !all_zero(g_out, n - 1);
                    n_cases++;
                }
            }
            if (S->exp) { /* the expanded key given: written as expandedKey */
                bad += vg_key_encode_private(g_out, sizeof g_out, &n, S->alg, 0, g_exp, S->exp) !=
                           VG_OK;
                bad += vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, g_out, n) !=
                           VG_OK ||
                       fl != VG_KEY_EXPANDED || kl != S->exp || memcmp(g_key, g_exp, kl) != 0;
                bad += vg_key_encode_private(g_out, sizeof g_out, &n, S->alg, VG_KEY_BOTH, g_exp,
                                             S->exp) != VG_ERR_INPUT;
            } else {
                bad += vg_key_encode_private(g_out, sizeof g_out, &n, S->alg, VG_KEY_BOTH, seed,
                                             S->seed) != VG_ERR_INPUT;
            }
            for (unsigned pem = 0; pem < 2; pem++) {
                bad += vg_key_encode_public(g_out, sizeof g_out, &n, S->alg, pem, g_pk, S->pk) !=
                       VG_OK;
                bad += vg_key_decode_public(&a, g_pk2, sizeof g_pk2, &kl, g_out, n) != VG_OK ||
                       a != S->alg || kl != S->pk || memcmp(g_pk2, g_pk, kl) != 0;
                n_cases++;
            }
            /* Wrong key lengths. */
            bad += vg_key_encode_private(g_out, sizeof g_out, &n, S->alg, 0, seed, S->seed - 1) !=
                   VG_ERR_INPUT;
            bad += vg_key_encode_public(g_out, sizeof g_out, &n, S->alg, 0, g_pk, S->pk + 1) !=
                   VG_ERR_INPUT;
        }
    }
    /* Unknown algorithms, unknown flags; EC: scalars 0, n and all-ones, the
     * expanded or both forms, a public point off the curve, compressed. */
    uint8_t k[48] = {1};
    size_t n;
    static const uint8_t n256[32] = {
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63,
        0x25, 0x51};
    bad += vg_key_encode_private(g_out, sizeof g_out, &n, VG_KEY_NONE, 0, k, 32) != VG_ERR_INPUT;
    bad += vg_key_encode_private(g_out, sizeof g_out, &n, VG_KEY_X25519, 8, k, 32) != VG_ERR_INPUT;
    bad += vg_key_encode_private(g_out, sizeof g_out, &n, VG_KEY_P256, VG_KEY_EXPANDED, k, 32) !=
           VG_ERR_INPUT;
    bad += vg_key_encode_private(g_out, sizeof g_out, &n, VG_KEY_P384, VG_KEY_BOTH, k, 48) !=
           VG_ERR_INPUT;
    bad += vg_key_encode_private(g_out, sizeof g_out, &n, VG_KEY_P256, 0, n256, 32) !=
               VG_ERR_INPUT || n != 0;
    memset(k, 0, sizeof k);
    bad += vg_key_encode_private(g_out, sizeof g_out, &n, VG_KEY_P256, 0, k, 32) != VG_ERR_INPUT;
    bad += vg_key_encode_private(g_out, sizeof g_out, &n, VG_KEY_P384, 0, k, 48) != VG_ERR_INPUT;
    memset(k, 0xff, sizeof k);
    bad += vg_key_encode_private(g_out, sizeof g_out, &n, VG_KEY_P384, 0, k, 48) != VG_ERR_INPUT;
    for (int c = 0; c < 2; c++) {
        vg_key_alg ea = c ? VG_KEY_P384 : VG_KEY_P256;
        size_t pl = c ? 97 : 65;
        memset(k, 0, sizeof k);
        k[c ? 47 : 31] = 5;
        CHECK((c ? vg_p384_public_key(g_pk, k) : vg_p256_public_key(g_pk, k)) == VG_OK);
        bad += vg_key_encode_public(g_out, sizeof g_out, &n, ea, 0, g_pk, pl) != VG_OK;
        g_pk[pl - 1] ^= 1; /* y + 1: off the curve */
        bad += vg_key_encode_public(g_out, sizeof g_out, &n, ea, 0, g_pk, pl) != VG_ERR_INPUT;
        g_pk[pl - 1] ^= 1;
        static uint8_t uncomp[1024], comp[1024];
        size_t un, cn;
        bad += vg_key_encode_public(uncomp, sizeof uncomp, &un, ea, 0, g_pk, pl) != VG_OK;
        uint8_t ybit = g_pk[pl - 1] & 1;
        g_pk[0] = 0x02; /* compressed prefix with the uncompressed length */
        bad += vg_key_encode_public(g_out, sizeof g_out, &n, ea, 0, g_pk, pl) != VG_ERR_INPUT;
        /* The compressed point (SEC 1 2.3.3) is taken and written
         * uncompressed: the same SPKI; the other parity is the negated
         * point, another SPKI. */
        g_pk[0] = (uint8_t)(0x02 | ybit);
        bad += vg_key_encode_public(comp, sizeof comp, &cn, ea, 0, g_pk, 1 + pl / 2) != VG_OK ||
               cn != un || memcmp(comp, uncomp, un) != 0;
        g_pk[0] ^= 1;
        bad += vg_key_encode_public(comp, sizeof comp, &cn, ea, 0, g_pk, 1 + pl / 2) != VG_OK ||
               cn != un || memcmp(comp, uncomp, un) == 0 ||
               memcmp(comp, uncomp, un - (pl / 2)) != 0; /* same x, other y */
        g_pk[0] = 0x04; /* uncompressed prefix with the compressed length */
        bad += vg_key_encode_public(g_out, sizeof g_out, &n, ea, 0, g_pk, 1 + pl / 2) !=
               VG_ERR_INPUT;
        n_cases += 5;
    }
    /* An ML-KEM public key failing FIPS 203 7.2. */
    uint8_t seed[64] = {3};
    vg_mlkem768_keypair_derand(g_pk, g_exp, seed);
    g_pk[0] = 0xff;
    g_pk[1] |= 0x0f;
    bad += vg_key_encode_public(g_out, sizeof g_out, &n, VG_KEY_MLKEM768, 0, g_pk, 1184) !=
           VG_ERR_INPUT;
    bad += vg_key_encode_public(g_out, sizeof g_out, &n, VG_KEY_XWING, 0, g_pk, 1216) !=
           VG_ERR_INPUT;
    CHECK_MSG(bad == 0, "%d round-trip failures", bad);
    printf("round trips: %d cases\n", n_cases);
}

/* ---- malformed DER: a small tree of the TLVs, re-serialised with one change */

struct node {
    uint8_t tag;
    size_t nk;
    struct node *k[6];
    const uint8_t *c; /* content of a leaf */
    size_t cl;
};
static struct node g_nodes[64];
static size_t g_nn;

static size_t get_len(const uint8_t *p, size_t n, size_t *hl)
{
    if (n < 2)
        return (size_t)-1;
    if (p[1] < 0x80) {
        *hl = 2;
        return p[1];
    }
    size_t b = p[1] & 0x7f, l = 0;
    if (b == 0 || b > 2 || n < 2 + b)
        return (size_t)-1;
    for (size_t i = 0; i < b; i++)
        l = l << 8 | p[2 + i];
    *hl = 2 + b;
    return l;
}

/* Parse one TLV; constructed tags (bit 5) and the privateKey OCTET STRING
 * (encap: its content is DER) get children. */
static struct node *parse(const uint8_t *p, size_t n, size_t *used, int encap)
{
    size_t hl, l = get_len(p, n, &hl);
    if (l == (size_t)-1 || hl + l > n || g_nn == 64)
        return NULL;
    struct node *x = &g_nodes[g_nn++];
    memset(x, 0, sizeof *x);
    x->tag = p[0];
    x->c = p + hl;
    x->cl = l;
    if ((p[0] & 0x20) || encap) {
        size_t off = 0;
        while (off < l && x->nk < 6) {
            size_t u;
            struct node *ch = parse(p + hl + off, l - off, &u, 0);
            if (!ch)
                return NULL;
            x->k[x->nk++] = ch;
            off += u;
        }
        if (off != l)
            return NULL;
    }
    *used = hl + l;
    return x;
}

enum mut { M_NONE, M_PLUS1, M_MINUS1, M_LONG, M_LEADZERO, M_INDEF };

/* Serialise x into out (returns bytes), applying `m` to node `target`. */
static size_t ser(const struct node *x, uint8_t *out, const struct node *target, enum mut m)
{
    static uint8_t tmp[8][8192];
    static int depth;
    uint8_t *body = tmp[depth++];
    size_t bl = 0;
    if (x->nk)
        for (size_t i = 0; i < x->nk; i++)
            bl += ser(x->k[i], body + bl, target, m);
    else {
        if (x->cl) /* x->c may be NULL for an empty content */
            memcpy(body, x->c, x->cl);
        bl = x->cl;
    }
    depth--;
    size_t o = 0, l = bl;
    enum mut mm = x == target ? m : M_NONE;
    if (mm == M_PLUS1)
        l++;
    if (mm == M_MINUS1)
        l--;
    out[o++] = x->tag;
    if (mm == M_INDEF) {
        out[o++] = 0x80;
    } else if (mm == M_LONG && l < 0x80) { /* long form for a short length */
        out[o++] = 0x81;
        out[o++] = (uint8_t)l;
    } else if (mm == M_LEADZERO || mm == M_LONG) { /* a leading zero octet */
        size_t b = l < 0x100 ? 1 : 2;
        out[o++] = (uint8_t)(0x80 | (b + 1));
        out[o++] = 0;
        for (size_t i = b; i-- > 0;)
            out[o++] = (uint8_t)(l >> (8 * i));
    } else if (l < 0x80) {
        out[o++] = (uint8_t)l;
    } else if (l < 0x100) {
        out[o++] = 0x81;
        out[o++] = (uint8_t)l;
    } else {
        out[o++] = 0x82;
        out[o++] = (uint8_t)(l >> 8);
        out[o++] = (uint8_t)l;
    }
    memcpy(out + o, body, bl);
    o += bl;
    if (mm == M_INDEF) {
        out[o++] = 0;
        out[o++] = 0;
    }
    return o;
}

static int refused_private(const uint8_t *in, size_t n)
{
    vg_key_alg a = VG_KEY_X25519;
    unsigned fl = 3;
    size_t kl = 9;
    memset(g_key, 0xaa, sizeof g_key);
    return vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, in, n) == VG_ERR_INPUT &&
           a == VG_KEY_NONE && fl == 0 && kl == 0 && all_zero(g_key, sizeof g_key);
}

static int refused_public(const uint8_t *in, size_t n)
{
    vg_key_alg a = VG_KEY_X25519;
    size_t kl = 9;
    memset(g_pk, 0xaa, sizeof g_pk);
    return vg_key_decode_public(&a, g_pk, sizeof g_pk, &kl, in, n) == VG_ERR_INPUT &&
           a == VG_KEY_NONE && kl == 0 && all_zero(g_pk, sizeof g_pk);
}

static uint8_t g_der[8192], g_mut[8192];

/* The tree of der; for a private key, the privateKey OCTET STRING (third
 * element) is split further when it holds DER (the CHOICE and
 * CurvePrivateKey forms), so mutations reach inside it too. */
static struct node *fresh(const uint8_t *der, size_t n, int priv)
{
    size_t used;
    g_nn = 0;
    struct node *root = parse(der, n, &used, 0);
    if (!root || used != n)
        return NULL;
    if (priv && root->nk >= 3 && root->k[2]->tag == 0x04) {
        struct node *pk = root->k[2];
        size_t u, save = g_nn;
        struct node *inner = parse(pk->c, pk->cl, &u, 0);
        if (inner && u == pk->cl && (inner->tag == 0x04 || inner->tag == 0x80 ||
                                     inner->tag == 0x30)) {
            pk->k[0] = inner;
            pk->nk = 1;
        } else {
            g_nn = save;
        }
    }
    return root;
}

static struct node *leaf(uint8_t tag, const uint8_t *c, size_t cl)
{
    struct node *x = &g_nodes[g_nn++];
    memset(x, 0, sizeof *x);
    x->tag = tag;
    x->c = c;
    x->cl = cl;
    return x;
}

/* Every structural mutation of `der` must be refused. */
static int mutate_all(const uint8_t *der, size_t n, int priv, const char *what)
{
    int bad = 0, cases = 0;
    struct node *root = fresh(der, n, priv);
    CHECK_MSG(root != NULL, "%s parses", what);
    if (!root)
        return 0;
    CHECK(ser(root, g_mut, NULL, M_NONE) == n && memcmp(g_mut, der, n) == 0);
    for (size_t i = 0; i < g_nn; i++) {
        for (int m = M_PLUS1; m <= M_INDEF; m++) {
            if (m == M_INDEF && !g_nodes[i].nk)
                continue;
            size_t ml = ser(root, g_mut, &g_nodes[i], (enum mut)m);
            int r = priv ? refused_private(g_mut, ml) : refused_public(g_mut, ml);
            if (!r)
                fprintf(stderr, "  %s: node %zu (tag %02x) mutation %d accepted\n", what, i,
                        g_nodes[i].tag, m);
            bad += !r;
            cases++;
        }
    }
    /* Every truncation, and trailing bytes. */
    for (size_t l = 0; l < n; l++) {
        bad += !(priv ? refused_private(der, l) : refused_public(der, l));
        cases++;
    }
    memcpy(g_mut, der, n);
    g_mut[n] = 0;
    bad += !(priv ? refused_private(g_mut, n + 1) : refused_public(g_mut, n + 1));
    cases++;
    CHECK_MSG(bad == 0, "%s: %d mutations accepted", what, bad);
    return cases;
}

/* The ECPrivateKey (RFC 5915) inside an EC PKCS#8 der: the tree root->k[2]
 * ->k[0] is SEQUENCE { INTEGER 1, OCTET STRING scalar, [1] { BIT STRING } }
 * as we write it. Accepted: without [1], with [0] namedCurve before [1].
 * [1] compressed with y's parity. Refused: version 0 and 2, the scalar 0
 * and n, a shorter scalar, [0] with the other curve, [1] before [0], [1]
 * with another point (also the compressed one of the other parity), or
 * unused bits, an element after [1]. */
static int ec_private_cases(const uint8_t *der, size_t n, const uint8_t *pk, size_t pk_len,
                            const char *what)
{
    static const uint8_t p256[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
    static const uint8_t p384[] = {0x2b, 0x81, 0x04, 0x00, 0x22};
    static const uint8_t n256[32] = {
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63,
        0x25, 0x51};
    static const uint8_t n384[48] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc7, 0x63, 0x4d, 0x81, 0xf4, 0x37,
        0x2d, 0xdf, 0x58, 0x1a, 0x0d, 0xb2, 0x48, 0xb0, 0xa7, 0x7a, 0xec, 0xec, 0x19, 0x6a, 0xcc,
        0xc5, 0x29, 0x73};
    static const uint8_t zero[48] = {0}, v0[] = {0}, v2[] = {2};
    static uint8_t bits[128];
    const int is256 = pk_len == 65;
    const size_t nb = is256 ? 32 : 48;
    int cases = 0, bad = 0;
    struct node *r, *e;
    size_t m;
    vg_key_alg a;
    unsigned fl;
    size_t kl;
#define EC_TREE() (r = fresh(der, n, 1), e = r->k[2]->k[0])
#define EXPECT(want, label)                                                                \
    do {                                                                                   \
        m = ser(r, g_mut, NULL, M_NONE);                                                   \
        int ok_ = (want) ? vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, g_mut, \
                                                 m) == VG_OK && kl == nb                   \
                         : refused_private(g_mut, m);                                      \
        if (!ok_)                                                                          \
            fprintf(stderr, "  %s: EC %s: wrong verdict\n", what, label);                 \
        bad += !ok_;                                                                       \
        cases++;                                                                           \
    } while (0)
    EC_TREE();
    CHECK(e->tag == 0x30 && e->nk == 3 && e->k[2]->tag == 0xa1);
    if (e->tag != 0x30 || e->nk != 3)
        return 0;
    EC_TREE();
    e->nk = 2;
    EXPECT(1, "without publicKey");
    EC_TREE();
    e->k[3] = e->k[2];
    e->k[2] = leaf(0xa0, NULL, 0);
    e->k[2]->k[0] = leaf(0x06, is256 ? p256 : p384, is256 ? sizeof p256 : sizeof p384);
    e->k[2]->nk = 1;
    e->nk = 4;
    EXPECT(1, "with [0] namedCurve");
    e->k[2]->k[0] = leaf(0x06, is256 ? p384 : p256, is256 ? sizeof p384 : sizeof p256);
    EXPECT(0, "[0] with the other curve");
    e->k[2]->k[0] = leaf(0x05, NULL, 0);
    EXPECT(0, "[0] NULL");
    e->k[2]->k[0] = leaf(0x06, is256 ? p256 : p384, is256 ? sizeof p256 : sizeof p384);
    {
        struct node *t = e->k[2];
        e->k[2] = e->k[3];
        e->k[3] = t;
    }
    EXPECT(0, "[1] before [0]");
    EC_TREE();
    e->k[0]->c = v0;
    EXPECT(0, "version 0");
    e->k[0]->c = v2;
    EXPECT(0, "version 2");
    EC_TREE();
    e->k[1]->c = zero;
    e->nk = 2;
    EXPECT(0, "scalar 0");
    e->k[1]->c = is256 ? n256 : n384;
    EXPECT(0, "scalar n");
    EC_TREE();
    e->k[1]->cl = nb - 1; /* a shorter scalar (its leading byte dropped) */
    e->k[1]->c += 1;
    e->nk = 2;
    EXPECT(0, "scalar of nb - 1 bytes");
    bits[0] = 0;
    memcpy(bits + 1, pk, pk_len);
    bits[pk_len] ^= 1;
    EC_TREE();
    e->k[2]->k[0]->c = bits;
    EXPECT(0, "[1] another point");
    bits[pk_len] ^= 1;
    bits[0] = 1;
    EXPECT(0, "[1] unused bits");
    bits[0] = 0;
    /* [1] compressed (SEC 1 2.3.3, as `openssl ec -conv_form compressed`
     * writes it): accepted with y's parity, refused with the other (the
     * negated point, not the scalar's). */
    bits[1] = (uint8_t)(0x02 | (pk[pk_len - 1] & 1));
    e->k[2]->k[0]->cl = 1 + 1 + nb;
    EXPECT(1, "[1] compressed point");
    bits[1] ^= 1;
    EXPECT(0, "[1] compressed point of the other parity");
    bits[1] = 0x04;
    EXPECT(0, "[1] prefix 04 with the compressed length");
    EC_TREE();
    e->k[e->nk++] = leaf(0x05, NULL, 0);
    EXPECT(0, "an element after [1]");
#undef EXPECT
#undef EC_TREE
    CHECK_MSG(bad == 0, "%s: %d EC cases wrong", what, bad);
    return cases;
}

/* The targeted cases of a private key der (n bytes) of algorithm alg with
 * public key pk (pk_len). Returns the number of cases. */
static int private_cases(const uint8_t *der, size_t n, const uint8_t *pk, size_t pk_len,
                         int lattice, const char *what)
{
    static const uint8_t ec_oid[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};
    static const uint8_t p256[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
    static uint8_t buf[8192], bits[4096];
    static const uint8_t v2[] = {2}, v1[] = {1}, v00[] = {0, 0};
    int cases = 0, bad = 0;
    struct node *r;
    size_t m;
#define REFUSE(label)                                                                      \
    do {                                                                                   \
        m = ser(r, g_mut, NULL, M_NONE);                                                   \
        int ok_ = refused_private(g_mut, m);                                               \
        if (!ok_)                                                                          \
            fprintf(stderr, "  %s: %s accepted\n", what, label);                          \
        bad += !ok_;                                                                       \
        cases++;                                                                           \
    } while (0)
    /* Wrong OIDs: last arc changed, id-ecPublicKey (with and without the
     * P-256 parameters: reserved, not supported yet), empty. */
    r = fresh(der, n, 1);
    memcpy(buf, r->k[1]->k[0]->c, r->k[1]->k[0]->cl);
    buf[r->k[1]->k[0]->cl - 1] ^= 0x7f;
    r->k[1]->k[0]->c = buf;
    REFUSE("OID changed");
    const int ec = pk_len == 65 || pk_len == 97;
    if (!ec) {
        r = fresh(der, n, 1);
        r->k[1]->k[0]->c = ec_oid;
        r->k[1]->k[0]->cl = sizeof ec_oid;
        REFUSE("id-ecPublicKey");
        r->k[1]->k[r->k[1]->nk++] = leaf(0x06, p256, sizeof p256);
        REFUSE("id-ecPublicKey, prime256v1");
    } else {
        /* EC: parameters absent, the other curve, NULL for the curve, the
         * curve OID twice. */
        static const uint8_t p384[] = {0x2b, 0x81, 0x04, 0x00, 0x22};
        r = fresh(der, n, 1);
        r->k[1]->nk = 1;
        REFUSE("id-ecPublicKey without parameters");
        r = fresh(der, n, 1);
        r->k[1]->k[1]->c = pk_len == 65 ? p384 : p256;
        r->k[1]->k[1]->cl = pk_len == 65 ? sizeof p384 : sizeof p256;
        REFUSE("the other curve");
        r = fresh(der, n, 1);
        r->k[1]->k[1] = leaf(0x05, NULL, 0);
        REFUSE("NULL for the namedCurve");
        r = fresh(der, n, 1);
        r->k[1]->k[r->k[1]->nk++] = r->k[1]->k[1];
        REFUSE("namedCurve twice");
    }
    r = fresh(der, n, 1);
    r->k[1]->k[0]->cl = 0;
    REFUSE("empty OID");
    /* Parameters present: NULL (RFC 8410 and the LAMPS documents: absent). */
    r = fresh(der, n, 1);
    r->k[1]->k[r->k[1]->nk++] = leaf(0x05, NULL, 0);
    REFUSE("NULL parameters");
    /* Versions: 2, and 0 in two octets (not minimal). */
    r = fresh(der, n, 1);
    r->k[0]->c = v2;
    REFUSE("version 2");
    r = fresh(der, n, 1);
    r->k[0]->c = v00;
    r->k[0]->cl = 2;
    REFUSE("version 00 00");
    /* Attributes [0], and an extra element, after privateKey. */
    r = fresh(der, n, 1);
    r->k[r->nk++] = leaf(0xa0, NULL, 0);
    REFUSE("attributes");
    r = fresh(der, n, 1);
    r->k[r->nk++] = leaf(0x05, NULL, 0);
    REFUSE("extra element");
    /* Elements one byte short and one byte long (lengths consistent). */
    for (int d = -1; d <= 1; d += 2) {
        r = fresh(der, n, 1);
        struct node *x = r->k[2];
        while (x->nk)
            x = x->k[x->nk - 1]; /* the last leaf: the key bytes */
        memcpy(buf, x->c, x->cl);
        buf[x->cl] = 0;
        x->c = buf;
        x->cl = (size_t)((long)x->cl + d);
        REFUSE(d < 0 ? "key one byte short" : "key one byte long");
    }
    /* publicKey [1]: accepted in version 1 when it is the key's own; refused
     * in version 0, with unused bits, or with another key. */
    bits[0] = 0;
    memcpy(bits + 1, pk, pk_len);
    r = fresh(der, n, 1);
    r->k[0]->c = v1;
    r->k[r->nk++] = leaf(0x81, bits, pk_len + 1);
    m = ser(r, g_mut, NULL, M_NONE);
    {
        vg_key_alg a;
        unsigned fl;
        size_t kl;
        int rc = vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, g_mut, m);
        if ((pk_len == 1216 && !lattice) || ec) {
            /* X-Wing: publicKey MUST be absent; EC: it lives in ECPrivateKey */
            bad += rc != VG_ERR_INPUT;
        } else {
            bad += rc != VG_OK;
        }
        cases++;
    }
    r = fresh(der, n, 1);
    r->k[r->nk++] = leaf(0x81, bits, pk_len + 1);
    REFUSE("publicKey in version 0");
    bits[0] = 1;
    r = fresh(der, n, 1);
    r->k[0]->c = v1;
    r->k[r->nk++] = leaf(0x81, bits, pk_len + 1);
    REFUSE("publicKey with unused bits");
    bits[0] = 0;
    bits[1 + pk_len / 2] ^= 4;
    r = fresh(der, n, 1);
    r->k[0]->c = v1;
    r->k[r->nk++] = leaf(0x81, bits, pk_len + 1);
    REFUSE("another publicKey");
    if (ec)
        cases += ec_private_cases(der, n, pk, pk_len, what);
    /* Lattice CHOICE: a tag that is none of [0], OCTET STRING, SEQUENCE. */
    if (lattice) {
        r = fresh(der, n, 1);
        r->k[2]->k[0]->tag = 0x81;
        REFUSE("CHOICE tag [1]");
    }
#undef REFUSE
    CHECK_MSG(bad == 0, "%s: %d targeted cases accepted", what, bad);
    return cases;
}

static int public_cases(const uint8_t *der, size_t n, const char *what)
{
    static uint8_t buf[4096];
    int cases = 0, bad = 0;
    struct node *r;
    size_t m;
#define REFUSE(label)                                                                      \
    do {                                                                                   \
        m = ser(r, g_mut, NULL, M_NONE);                                                   \
        int ok_ = refused_public(g_mut, m);                                                \
        if (!ok_)                                                                          \
            fprintf(stderr, "  %s: %s accepted\n", what, label);                          \
        bad += !ok_;                                                                       \
        cases++;                                                                           \
    } while (0)
    r = fresh(der, n, 0);
    memcpy(buf, r->k[0]->k[0]->c, r->k[0]->k[0]->cl);
    buf[r->k[0]->k[0]->cl - 1] ^= 0x7f;
    r->k[0]->k[0]->c = buf;
    REFUSE("OID changed");
    r = fresh(der, n, 0);
    r->k[0]->k[r->k[0]->nk++] = leaf(0x05, NULL, 0);
    REFUSE("NULL parameters");
    r = fresh(der, n, 0);
    memcpy(buf, r->k[1]->c, r->k[1]->cl);
    buf[0] = 1;
    r->k[1]->c = buf;
    REFUSE("unused bits");
    r = fresh(der, n, 0);
    r->k[1]->tag = 0x04;
    REFUSE("OCTET STRING for BIT STRING");
    r = fresh(der, n, 0);
    r->k[r->nk++] = leaf(0x05, NULL, 0);
    REFUSE("extra element");
    if (r->k[0]->nk == 2) { /* EC: the namedCurve parameters */
        r = fresh(der, n, 0);
        r->k[0]->nk = 1;
        REFUSE("EC without parameters");
        r = fresh(der, n, 0);
        memcpy(buf, r->k[0]->k[1]->c, r->k[0]->k[1]->cl);
        buf[r->k[0]->k[1]->cl - 1] ^= 1;
        r->k[0]->k[1]->c = buf;
        REFUSE("EC curve OID changed");
        r = fresh(der, n, 0);
        memcpy(buf, r->k[1]->c, r->k[1]->cl);
        buf[r->k[1]->cl - 1] ^= 1;
        r->k[1]->c = buf;
        REFUSE("EC point off the curve");
        /* Compressed points (SEC 1 2.3.3): accepted with either parity
         * and returned uncompressed (the right one: this key; the other:
         * its negation, y' = p - y); refused: prefix 04 or 05 at the
         * compressed length, x >= p, an x with no point (x^3 - 3x + b not
         * a square: found with OpenSSL's EC_POINT_oct2point). */
        r = fresh(der, n, 0);
        const size_t ul = r->k[1]->cl - 1, nb = (ul - 1) / 2; /* point, coordinate */
        static uint8_t orig[97];
        memcpy(orig, r->k[1]->c + 1, ul);
        memcpy(buf, r->k[1]->c, r->k[1]->cl);
        r->k[1]->c = buf;
        r->k[1]->cl = 2 + nb;
        for (int par = 0; par < 2; par++) {
            vg_key_alg a;
            size_t kl;
            buf[1] = (uint8_t)(0x02 | ((orig[ul - 1] & 1) ^ par));
            m = ser(r, g_mut, NULL, M_NONE);
            int ok_ = vg_key_decode_public(&a, g_pk, sizeof g_pk, &kl, g_mut, m) == VG_OK &&
                      kl == ul && memcmp(g_pk, orig, 1 + nb) == 0 &&
                      (memcmp(g_pk + 1 + nb, orig + 1 + nb, nb) == 0) == !par;
            if (!ok_)
                fprintf(stderr, "  %s: EC compressed point (parity %d) wrong\n", what, par);
            bad += !ok_;
            cases++;
        }
        buf[1] = 0x04;
        REFUSE("EC prefix 04 with the compressed length");
        buf[1] = 0x05;
        REFUSE("EC prefix 05");
        buf[1] = 0x02;
        memset(buf + 2, 0xff, nb);
        REFUSE("EC compressed x >= p");
        {
            EC_GROUP *g = EC_GROUP_new_by_curve_name(nb == 32 ? NID_X9_62_prime256v1
                                                              : NID_secp384r1);
            EC_POINT *pt = g ? EC_POINT_new(g) : NULL;
            memcpy(buf + 2, orig + 1, nb);
            int found = 0;
            for (int t = 0; t < 64 && !found && pt; t++) {
                buf[2 + nb - 1] = (uint8_t)(buf[2 + nb - 1] + 1);
                found = EC_POINT_oct2point(g, pt, buf + 1, 1 + nb, NULL) != 1;
            }
            ERR_clear_error();
            CHECK(found);
            REFUSE("EC compressed x not on the curve");
            EC_POINT_free(pt);
            EC_GROUP_free(g);
        }
    }
    for (int d = -1; d <= 1; d += 2) {
        r = fresh(der, n, 0);
        memcpy(buf, r->k[1]->c, r->k[1]->cl);
        buf[r->k[1]->cl] = 0;
        r->k[1]->c = buf;
        r->k[1]->cl = (size_t)((long)r->k[1]->cl + d);
        REFUSE(d < 0 ? "key one byte short" : "key one byte long");
    }
#undef REFUSE
    CHECK_MSG(bad == 0, "%s: %d targeted cases accepted", what, bad);
    return cases;
}

/* PEM armour errors on a valid private key's PEM text. */
static int pem_cases(const uint8_t *pem, size_t n, const char *what)
{
    static uint8_t t[VG_KEY_ENCODED_MAXBYTES + 64];
    int cases = 0, bad = 0;
    const char *body = strstr((const char *)pem, "-----\n") + 6;
    size_t b0 = (size_t)(body - (const char *)pem);
    const char *end = strstr((const char *)pem, "-----END");
    size_t e0 = (size_t)(end - (const char *)pem);
#define TRY(len, label)                                                                    \
    do {                                                                                   \
        int ok_ = refused_private(t, (len));                                               \
        if (!ok_)                                                                          \
            fprintf(stderr, "  %s: PEM %s accepted\n", what, label);                      \
        bad += !ok_;                                                                       \
        cases++;                                                                           \
    } while (0)
    /* The wrong label. */
    memcpy(t, pem, n);
    memcpy(t + 11, "PUBLIC KEY-----\n", 16);
    memmove(t + 27, pem + 28, n - 28);
    TRY(n - 1, "label PUBLIC KEY");
    /* No END line; text after it; a character outside the alphabet; '=' in
     * the middle; the last base64 character changed so that unused bits are
     * set (when there are any); a body line in the BEGIN line. */
    memcpy(t, pem, e0);
    TRY(e0, "without END");
    memcpy(t, pem, n);
    memcpy(t + n, "x\n", 2);
    TRY(n + 2, "text after END");
    memcpy(t, pem, n);
    t[b0 + 5] = '*';
    TRY(n, "'*' in base64");
    memcpy(t, pem, n);
    t[b0 + 5] = '=';
    TRY(n, "'=' in the middle");
    memcpy(t, pem, n);
    memmove(t + b0 - 1, t + b0, n - b0);
    TRY(n - 1, "base64 on the BEGIN line");
    memcpy(t, pem, n);
    t[b0 + 8] = t[b0 + 8] == 'A' ? 'B' : 'A'; /* changes the DER's structure or key */
    {
        /* Whatever it decodes to, the decoder must not crash; count only. */
        vg_key_alg a;
        unsigned fl;
        size_t kl;
        (void)vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, t, n);
    }
    /* Non-canonical padding: find the last base64 character before '='. */
    const char *eq = memchr(pem + b0, '=', e0 - b0);
    if (eq) {
        memcpy(t, pem, n);
        size_t at = (size_t)(eq - (const char *)pem) - 1;
        if (t[at] == '\n')
            at--;
        t[at] = t[at] == 'A' ? 'B' : (uint8_t)(t[at] ^ 1); /* sets or moves a low bit */
        TRY(n, "nonzero unused bits");
    }
#undef TRY
    CHECK_MSG(bad == 0, "%s: %d PEM cases accepted", what, bad);
    return cases;
}

/* ---- SEC 1 "EC PRIVATE KEY" and compressed points: files of the openssl
 * command ------------------------------------------------------------------ */

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    static uint8_t buf[8192];
    if (!f)
        return NULL;
    *len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[*len] = 0;
    uint8_t *c = malloc(*len + 1);
    if (c)
        memcpy(c, buf, *len + 1);
    return c;
}

static int run(const char *cmd)
{
    int rc = system(cmd);
    CHECK_MSG(rc == 0, "%s", cmd);
    return rc == 0;
}

/* dec_private of the file: VG_OK, alg, flags (DER/PEM), the scalar. */
static int reads_scalar(const char *path, vg_key_alg alg, unsigned fl_want, const uint8_t *sk,
                        size_t nb)
{
    size_t len, kl;
    vg_key_alg a;
    unsigned fl;
    uint8_t *f = read_file(path, &len);
    int ok = f && vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, f, len) == VG_OK &&
             a == alg && fl == fl_want && kl == nb && memcmp(g_key, sk, nb) == 0;
    free(f);
    CHECK_MSG(ok, "%s: the scalar", path);
    return ok;
}

/* dec_public of the file: VG_OK, alg, the uncompressed point. */
static int reads_point(const char *path, vg_key_alg alg, const uint8_t *pt, size_t ptl)
{
    size_t len, kl;
    vg_key_alg a;
    uint8_t *f = read_file(path, &len);
    int ok = f && vg_key_decode_public(&a, g_pk, sizeof g_pk, &kl, f, len) == VG_OK &&
             a == alg && kl == ptl && memcmp(g_pk, pt, ptl) == 0;
    free(f);
    CHECK_MSG(ok, "%s: the point", path);
    return ok;
}

/* Malformed bare ECPrivateKey DER (der, n: with [0] and [1], as `openssl ec
 * -outform DER` writes it) and PEM around it: each refused. */
static int sec1_malformed(const uint8_t *der, size_t n, const uint8_t *pem, size_t pem_len,
                          int is256, const char *what)
{
    static const uint8_t p256[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
    static const uint8_t p384[] = {0x2b, 0x81, 0x04, 0x00, 0x22};
    static const uint8_t v0[] = {0};
    static uint8_t t[8192], pkcs8[1024];
    int cases = 0, bad = 0;
    struct node *r;
    size_t m;
#define REFUSE_T(len, label)                                                               \
    do {                                                                                   \
        int ok_ = refused_private(t, (len));                                               \
        if (!ok_)                                                                          \
            fprintf(stderr, "  %s: SEC 1 %s accepted\n", what, label);                    \
        bad += !ok_;                                                                       \
        cases++;                                                                           \
    } while (0)
#define REFUSE_TREE(label)                                                                 \
    do {                                                                                   \
        m = ser(r, t, NULL, M_NONE);                                                       \
        REFUSE_T(m, label);                                                                \
    } while (0)
    cases += mutate_all(der, n, 1, what); /* lengths, BER forms, truncations, trailing */
    r = fresh(der, n, 1);
    CHECK(r && r->nk == 4 && r->k[2]->tag == 0xa0 && r->k[3]->tag == 0xa1);
    if (!r || r->nk != 4)
        return cases;
    r->k[2] = r->k[3];
    r->nk = 3;
    REFUSE_TREE("without [0] (the curve: RFC 5915 requires it outside PKCS#8)");
    r = fresh(der, n, 1);
    r->k[2]->k[0] = leaf(0x06, is256 ? p384 : p256, is256 ? sizeof p384 : sizeof p256);
    REFUSE_TREE("[0] the other curve");
    r = fresh(der, n, 1);
    r->k[2]->k[0] = leaf(0x05, NULL, 0);
    REFUSE_TREE("[0] NULL");
    r = fresh(der, n, 1);
    r->k[0]->c = v0;
    REFUSE_TREE("version 0");
    r = fresh(der, n, 1);
    {
        static uint8_t bits[128];
        memcpy(bits, r->k[3]->k[0]->c, r->k[3]->k[0]->cl);
        bits[r->k[3]->k[0]->cl - 1] ^= 1;
        r->k[3]->k[0]->c = bits;
        REFUSE_TREE("[1] another point");
    }
    /* PEM: the labels swapped, and the EC PARAMETERS block wrong. */
    const char *body = strstr((const char *)pem, "-----BEGIN EC PRIVATE KEY-----");
    CHECK(body != NULL);
    if (!body)
        return cases;
    size_t b0 = (size_t)(body - (const char *)pem);
    /* "EC PRIVATE KEY" around the PKCS#8 of the same key. */
    {
        size_t kl, pl;
        vg_key_alg a;
        unsigned fl;
        CHECK(vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, der, n) == VG_OK);
        CHECK(vg_key_encode_private(pkcs8, sizeof pkcs8, &pl, a, VG_KEY_PEM, g_key, kl) ==
              VG_OK);
        size_t o = 0;
        memcpy(t, "-----BEGIN EC PRIVATE KEY-----\n", 31);
        o = 31;
        const char *s0 = strchr((const char *)pkcs8, '\n') + 1;
        const char *s1 = strstr((const char *)pkcs8, "-----END");
        memcpy(t + o, s0, (size_t)(s1 - s0));
        o += (size_t)(s1 - s0);
        memcpy(t + o, "-----END EC PRIVATE KEY-----\n", 29);
        REFUSE_T(o + 29, "label EC PRIVATE KEY around PKCS#8");
        /* "PRIVATE KEY" around the bare ECPrivateKey. */
        const char *e0 = strstr(body, "-----END");
        o = 0;
        memcpy(t, "-----BEGIN PRIVATE KEY-----\n", 28);
        o = 28;
        const char *q0 = strchr(body, '\n') + 1;
        memcpy(t + o, q0, (size_t)(e0 - q0));
        o += (size_t)(e0 - q0);
        memcpy(t + o, "-----END PRIVATE KEY-----\n", 26);
        REFUSE_T(o + 26, "label PRIVATE KEY around SEC 1");
    }
    if (b0 > 0) { /* the file has an EC PARAMETERS block first */
        const char *other = is256 ? "BgUrgQQAIg==" : "BggqhkjOPQMBBw=="; /* other curve OID */
        size_t o = 0;
        o += (size_t)sprintf((char *)t, "-----BEGIN EC PARAMETERS-----\n%s\n"
                                        "-----END EC PARAMETERS-----\n", other);
        memcpy(t + o, pem + b0, pem_len - b0);
        REFUSE_T(o + pem_len - b0, "EC PARAMETERS of the other curve");
        o = (size_t)sprintf((char *)t, "-----BEGIN EC PARAMETERS-----\nBQA=\n"
                                       "-----END EC PARAMETERS-----\n"); /* NULL */
        memcpy(t + o, pem + b0, pem_len - b0);
        REFUSE_T(o + pem_len - b0, "EC PARAMETERS NULL");
        /* The key, then the parameters block after it. */
        memcpy(t, pem + b0, pem_len - b0);
        memcpy(t + pem_len - b0, pem, b0);
        REFUSE_T(pem_len, "EC PARAMETERS after the key");
        /* The parameters block twice. */
        memcpy(t, pem, b0);
        memcpy(t + b0, pem, pem_len);
        REFUSE_T(b0 + pem_len, "EC PARAMETERS twice");
        /* The parameters block alone. */
        memcpy(t, pem, b0);
        REFUSE_T(b0, "EC PARAMETERS alone");
        /* Every truncation of the two-block text. */
        for (size_t l = 0; l + 1 < pem_len; l++) {
            memcpy(t, pem, l); /* (l = pem_len - 1, without the last LF, is whole) */
            REFUSE_T(l, "truncated");
        }
    }
#undef REFUSE_T
#undef REFUSE_TREE
    CHECK_MSG(bad == 0, "%s: %d SEC 1 cases accepted", what, bad);
    return cases;
}

/* OpenSSL 3.0's command-line tool writes the keys (tests may run it: the
 * test already links its library): `openssl ecparam -genkey` (an EC
 * PARAMETERS block, then "EC PRIVATE KEY"), `-noout` (the key alone),
 * `openssl ec` to bare DER and with -conv_form compressed (publicKey [1]
 * compressed), `openssl pkey` to PKCS#8, `openssl ec -pubout` to SPKI,
 * uncompressed and compressed, PEM and DER. Each is decoded by us to the
 * scalar OpenSSL's library reads from the same file (and to its point), and
 * our PKCS#8 of it is the key OpenSSL read. Then the malformed SEC 1 table. */
static void test_openssl_sec1(void)
{
    char dir[] = "/tmp/vg_sec1.XXXXXX", cmd[1024], path[512];
    int cases = 0, malformed = 0;
    if (system("openssl version >/dev/null 2>&1") != 0) {
        printf("openssl sec1: SKIP (no openssl command)\n");
        return;
    }
    CHECK(mkdtemp(dir) != NULL);
    for (int c = 0; c < 2; c++) {
        const char *curve = c == 0 ? "prime256v1" : "secp384r1";
        vg_key_alg alg = c == 0 ? VG_KEY_P256 : VG_KEY_P384;
        size_t nb = c == 0 ? 32 : 48, ptl = 2 * nb + 1;
        for (int it = 0; it < 4; it++) {
            uint8_t sk[48], pt[97];
            /* it 0, 2: with the EC PARAMETERS block; 1, 3: -noout. */
            snprintf(cmd, sizeof cmd,
                     "cd %s && openssl ecparam -genkey -name %s %s -out k.pem && "
                     "openssl ec -in k.pem -outform DER -out k.der 2>/dev/null && "
                     "openssl ec -in k.pem -conv_form compressed -out kc.pem 2>/dev/null && "
                     "openssl ec -in k.pem -conv_form compressed -outform DER -out kc.der "
                     "2>/dev/null && "
                     "openssl pkey -in kc.pem -out kc.p8 && "
                     "openssl pkey -in kc.pem -outform DER -out kc.p8der && "
                     "openssl ec -in k.pem -pubout -out pub.pem 2>/dev/null && "
                     "openssl ec -in k.pem -pubout -conv_form compressed -out pubc.pem "
                     "2>/dev/null && "
                     "openssl ec -in k.pem -pubout -conv_form compressed -outform DER "
                     "-out pubc.der 2>/dev/null",
                     dir, curve, it & 1 ? "-noout" : "");
            if (!run(cmd))
                continue;
            /* OpenSSL's library reads the scalar and the point. */
            size_t len;
            snprintf(path, sizeof path, "%s/k.pem", dir);
            uint8_t *f = read_file(path, &len);
            BIO *b = BIO_new_mem_buf(f, (int)len);
            EVP_PKEY *ok = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
            BIO_free(b);
            BIGNUM *d = NULL;
            size_t ol;
            CHECK(ok && EVP_PKEY_get_bn_param(ok, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1 &&
                  BN_bn2binpad(d, sk, (int)nb) == (int)nb);
            BN_clear_free(d);
            CHECK(ok && EVP_PKEY_set_utf8_string_param(
                            ok, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
                            OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED) == 1 &&
                  EVP_PKEY_get_octet_string_param(ok, OSSL_PKEY_PARAM_PUB_KEY, pt, sizeof pt,
                                                  &ol) == 1 && ol == ptl);
            static const char *const priv[][2] = {{"k.pem", "p"},   {"k.der", "d"},
                                                  {"kc.pem", "p"},  {"kc.der", "d"},
                                                  {"kc.p8", "p"},   {"kc.p8der", "d"}};
            for (size_t i = 0; i < sizeof priv / sizeof priv[0]; i++) {
                snprintf(path, sizeof path, "%s/%s", dir, priv[i][0]);
                cases += reads_scalar(path, alg, priv[i][1][0] == 'p' ? VG_KEY_PEM : VG_KEY_DER,
                                      sk, nb);
            }
            static const char *const pub[] = {"pub.pem", "pubc.pem", "pubc.der"};
            for (size_t i = 0; i < sizeof pub / sizeof pub[0]; i++) {
                snprintf(path, sizeof path, "%s/%s", dir, pub[i]);
                cases += reads_point(path, alg, pt, ptl);
            }
            /* Our PKCS#8 of the decoded key is OpenSSL's key. */
            {
                size_t n;
                CHECK(vg_key_encode_private(g_out, sizeof g_out, &n, alg, VG_KEY_DER, sk, nb) ==
                      VG_OK);
                const unsigned char *q = g_out;
                EVP_PKEY *rk = d2i_PrivateKey(EVP_PKEY_EC, NULL, &q, (long)n);
                CHECK(rk && EVP_PKEY_eq(rk, ok) == 1);
                EVP_PKEY_free(rk);
                cases++;
            }
            if (it < 2) { /* the malformed table on the first keys of each form */
                size_t dl;
                snprintf(path, sizeof path, "%s/k.der", dir);
                uint8_t *der = read_file(path, &dl);
                if (der)
                    malformed += sec1_malformed(der, dl, f, len, c == 0, curve);
                free(der);
            }
            free(f);
            EVP_PKEY_free(ok);
        }
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    printf("openssl sec1: %d files of the openssl command read (EC PRIVATE KEY with and without "
           "EC PARAMETERS, bare DER, compressed publicKey, PKCS#8, SPKI compressed); "
           "%d malformed SEC 1 cases refused\n", cases, malformed);
}

static void test_malformed(void)
{
    uint64_t rs = 0xbad;
    int cases = 0;
    for (size_t i = 0; i < sizeof g_sizes / sizeof g_sizes[0]; i++) {
        const struct algsz *S = &g_sizes[i];
        uint8_t seed[64];
        size_t n;
        char what[64];
        vgtest_randbytes(&rs, seed, sizeof seed);
        seed[0] &= S->alg == VG_KEY_P256 || S->alg == VG_KEY_P384 ? 0x7f : 0xff; /* < n */
        public_of(S->alg, g_pk, g_exp, seed);
        static uint8_t pk[VG_KEY_PUBLIC_MAXBYTES];
        memcpy(pk, g_pk, S->pk);
        unsigned forms = S->exp ? 3 : 1;
        for (unsigned fi = 0; fi < forms; fi++) {
            unsigned form = fi == 0 ? VG_KEY_SEED : fi == 1 ? VG_KEY_EXPANDED : VG_KEY_BOTH;
            snprintf(what, sizeof what, "alg %d form %u", (int)S->alg, form);
            vg_key_encode_private(g_der, sizeof g_der, &n, S->alg, form, seed, S->seed);
            cases += mutate_all(g_der, n, 1, what);
            cases += private_cases(g_der, n, pk, S->pk, S->exp != 0, what);
            if (fi == 0) {
                vg_key_encode_private(g_der, sizeof g_der, &n, S->alg, VG_KEY_PEM, seed, S->seed);
                g_der[n] = 0;
                cases += pem_cases(g_der, n, what);
            }
        }
        snprintf(what, sizeof what, "alg %d public", (int)S->alg);
        vg_key_encode_public(g_der, sizeof g_der, &n, S->alg, 0, pk, S->pk);
        cases += mutate_all(g_der, n, 0, what);
        cases += public_cases(g_der, n, what);
    }
    /* Decoders given the other kind: a public key to decode_private and
     * back, and empty or NULL input. */
    size_t n;
    uint8_t sk[32] = {7}, pk[32];
    vg_x25519_public_key(pk, sk);
    vg_key_encode_public(g_der, sizeof g_der, &n, VG_KEY_X25519, 0, pk, 32);
    CHECK(refused_private(g_der, n));
    vg_key_encode_private(g_der, sizeof g_der, &n, VG_KEY_X25519, 0, sk, 32);
    CHECK(refused_public(g_der, n));
    CHECK(refused_private(g_der, 0) && refused_public(g_der, 0));
    /* A key buffer too small for the key. */
    {
        vg_key_alg a;
        unsigned fl;
        size_t kl;
        CHECK(vg_key_decode_private(&a, &fl, g_key, 31, &kl, g_der, n) == VG_ERR_INPUT &&
              all_zero(g_key, 31));
    }
    cases += 6;
    printf("malformed inputs: %d cases, each refused (VG_ERR_INPUT, outputs zeroed)\n", cases);
}

int main(void)
{
    test_lamps();
    test_openssl();
    test_openssl_ec();
    test_openssl_sec1();
    test_round_trips();
    test_malformed();
    return vgtest_done("test_encoding");
}
