/*
 * The vgcrypto OpenSSL provider over EVP (issue 18): the KEM values it
 * produces equal the library's own. For ML-KEM-512/768/1024, X25519MLKEM768
 * and X-Wing:
 *  - library key pair and ciphertext -> the provider decapsulates (keys
 *    imported with EVP_PKEY_fromdata) to the library's shared secret, also
 *    for a modified ciphertext (FIPS 203 implicit rejection);
 *  - provider key pair (EVP_PKEY_keygen) -> the provider encapsulates to its
 *    exported public key and the library decapsulates the ciphertext with
 *    the exported secret key to the same shared secret;
 *  - key generation from a seed gives the library's keypair_derand keys;
 *  - sizes OpenSSL asks for, and rejected inputs (wrong lengths, an ek
 *    that fails the FIPS 203 7.2 modulus check).
 * Usage: test_provider MODULE_DIR (empty when the provider is not built:
 * exit 77, skipped).
 */
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "vgcrypto.h"
#include "vgtest.h"

#define MAX_PK 1665
#define MAX_SK 3216
#define MAX_CT 1665
#define MAX_SS 80

struct alg {
    const char *name;
    size_t pk, sk, ct, ss, seed;
    int bits, secbits;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    int (*encaps_derand)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
    int (*decaps)(uint8_t *, const uint8_t *, const uint8_t *);
    size_t ec; /* length of the leading EC point (NIST hybrids), 0 otherwise: the
                  ML-KEM ek and ciphertext start there */
};

static const struct alg algs[] = {
    {"ML-KEM-512", 800, 1632, 768, 32, 64, 512, 128, vg_mlkem512_keypair_derand,
     vg_mlkem512_encaps_derand, vg_mlkem512_decaps, 0},
    {"ML-KEM-768", 1184, 2400, 1088, 32, 64, 768, 192, vg_mlkem768_keypair_derand,
     vg_mlkem768_encaps_derand, vg_mlkem768_decaps, 0},
    {"ML-KEM-1024", 1568, 3168, 1568, 32, 64, 1024, 256, vg_mlkem1024_keypair_derand,
     vg_mlkem1024_encaps_derand, vg_mlkem1024_decaps, 0},
    {"X25519MLKEM768", 1216, 2432, 1120, 64, 96, 768, 192, vg_x25519mlkem768_keypair_derand,
     vg_x25519mlkem768_encaps_derand, vg_x25519mlkem768_decaps, 0},
    {"SecP256r1MLKEM768", 1249, 2432, 1153, 64, 96, 768, 192, vg_p256mlkem768_keypair_derand,
     vg_p256mlkem768_encaps_derand, vg_p256mlkem768_decaps, 65},
    {"SecP384r1MLKEM1024", 1665, 3216, 1665, 80, 112, 1024, 256,
     vg_p384mlkem1024_keypair_derand, vg_p384mlkem1024_encaps_derand, vg_p384mlkem1024_decaps,
     97},
    {"X-Wing", 1216, 32, 1120, 32, 32, 768, 192, vg_xwing_keypair_derand,
     vg_xwing_encaps_derand, vg_xwing_decaps, 0},
};

static OSSL_LIB_CTX *libctx;
static const char *propq = "provider=vgcrypto";

/* A key from octet-string parameters ("pub", "priv", "seed"; NULL = absent). */
static EVP_PKEY *from_data(const struct alg *a, const uint8_t *pk, size_t pk_len,
                           const uint8_t *sk, size_t sk_len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, a->name, propq);
    EVP_PKEY *key = NULL;
    OSSL_PARAM params[3];
    int n = 0;

    if (pk != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pk,
                                                        pk_len);
    if (sk != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, (void *)sk,
                                                        sk_len);
    params[n] = OSSL_PARAM_construct_end();
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &key, sk != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                          params) <= 0)
        key = NULL;
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    return key;
}

static int decapsulate(EVP_PKEY *key, uint8_t *ss, size_t *ss_len, const uint8_t *ct,
                       size_t ct_len)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(libctx, key, propq);
    int ok = ctx != NULL && EVP_PKEY_decapsulate_init(ctx, NULL) > 0 &&
             EVP_PKEY_decapsulate(ctx, ss, ss_len, ct, ct_len) > 0;

    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    return ok;
}

static size_t get_octets(EVP_PKEY *key, const char *name, uint8_t *out, size_t cap)
{
    size_t len = 0;

    if (!EVP_PKEY_get_octet_string_param(key, name, out, cap, &len))
        return 0;
    return len;
}

static void fill(uint8_t *buf, size_t len, unsigned seed)
{
    for (size_t i = 0; i < len; i++)
        buf[i] = (uint8_t)(seed * 131u + i * 7u + 1u);
}

static void test_alg(const struct alg *a)
{
    uint8_t seed[112], m[80], pk[MAX_PK], sk[MAX_SK], ct[MAX_CT], ss[MAX_SS];
    uint8_t pss[MAX_SS], pct[MAX_CT], ppk[MAX_PK], psk[MAX_SK], enc[MAX_PK], bad[MAX_PK];
    size_t len, ct_len, ss_len;

    for (unsigned it = 0; it < 8; it++) {
        EVP_PKEY *key, *pub, *gen = NULL;
        EVP_PKEY_CTX *ctx;

        /* Library's keys and ciphertext, provider decapsulates. */
        fill(seed, a->seed, it);
        fill(m, sizeof(m), it + 100);
        CHECK(a->keypair_derand(pk, sk, seed) == VG_OK);
        CHECK(a->encaps_derand(ct, ss, pk, m) == VG_OK);
        key = from_data(a, pk, a->pk, sk, a->sk);
        CHECK_MSG(key != NULL, "%s: import of the library's key pair", a->name);
        if (key == NULL)
            continue;
        len = sizeof(pss);
        CHECK_MSG(decapsulate(key, pss, &len, ct, a->ct) && len == a->ss &&
                      memcmp(pss, ss, a->ss) == 0,
                  "%s: provider decapsulation of the library's ciphertext", a->name);
        /* A modified ML-KEM ciphertext: implicit rejection, the same value
         * as the library's. */
        ct[a->ec + 3] ^= 0x10;
        CHECK(a->decaps(ss, ct, sk) == VG_OK);
        len = sizeof(pss);
        CHECK_MSG(decapsulate(key, pss, &len, ct, a->ct) && len == a->ss &&
                      memcmp(pss, ss, a->ss) == 0,
                  "%s: implicit rejection", a->name);
        len = sizeof(pss);
        CHECK_MSG(!decapsulate(key, pss, &len, ct, a->ct - 1), "%s: short ciphertext", a->name);
        /* The parameters libssl and EVP_PKEY_get_* read. */
        CHECK(EVP_PKEY_get_bits(key) == a->bits);
        CHECK(EVP_PKEY_get_security_bits(key) == a->secbits);
        CHECK(EVP_PKEY_get_size(key) == (int)a->ct);
        CHECK(get_octets(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, enc, sizeof(enc)) == a->pk &&
              memcmp(enc, pk, a->pk) == 0);
        /* Only the secret key given: the public key is derived from it. */
        pub = from_data(a, NULL, 0, sk, a->sk);
        CHECK_MSG(pub != NULL && get_octets(pub, OSSL_PKEY_PARAM_PUB_KEY, enc, sizeof(enc)) ==
                                     a->pk && memcmp(enc, pk, a->pk) == 0,
                  "%s: public key from the secret key", a->name);
        EVP_PKEY_free(pub);
        EVP_PKEY_free(key);

        /* Provider key pair, provider encapsulates, library decapsulates. */
        ctx = EVP_PKEY_CTX_new_from_name(libctx, a->name, propq);
        CHECK(ctx != NULL && EVP_PKEY_keygen_init(ctx) > 0 && EVP_PKEY_keygen(ctx, &gen) > 0);
        EVP_PKEY_CTX_free(ctx);
        if (gen == NULL)
            continue;
        CHECK(get_octets(gen, OSSL_PKEY_PARAM_PUB_KEY, ppk, sizeof(ppk)) == a->pk);
        CHECK(get_octets(gen, OSSL_PKEY_PARAM_PRIV_KEY, psk, sizeof(psk)) == a->sk);
        EVP_PKEY_free(gen);
        pub = from_data(a, ppk, a->pk, NULL, 0);
        CHECK(pub != NULL);
        if (pub == NULL)
            continue;
        ctx = EVP_PKEY_CTX_new_from_pkey(libctx, pub, propq);
        ct_len = ss_len = 0;
        CHECK(ctx != NULL && EVP_PKEY_encapsulate_init(ctx, NULL) > 0 &&
              EVP_PKEY_encapsulate(ctx, NULL, &ct_len, NULL, &ss_len) > 0 && ct_len == a->ct &&
              ss_len == a->ss);
        CHECK(EVP_PKEY_encapsulate(ctx, pct, &ct_len, pss, &ss_len) > 0);
        EVP_PKEY_CTX_free(ctx);
        CHECK(a->decaps(ss, pct, psk) == VG_OK);
        CHECK_MSG(memcmp(ss, pss, a->ss) == 0,
                  "%s: library decapsulation of the provider's ciphertext", a->name);
        /* A public key alone cannot decapsulate. */
        len = sizeof(pss);
        CHECK(!decapsulate(pub, pss, &len, pct, a->ct));
        EVP_PKEY_free(pub);

        /* Generation from a seed: the library's keypair_derand keys. */
        gen = NULL;
        ctx = EVP_PKEY_CTX_new_from_name(libctx, a->name, propq);
        if (ctx != NULL && EVP_PKEY_keygen_init(ctx) > 0) {
            OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string("seed", seed, a->seed),
                               OSSL_PARAM_construct_end()};
            CHECK(EVP_PKEY_CTX_set_params(ctx, p) > 0 && EVP_PKEY_keygen(ctx, &gen) > 0);
        } else {
            CHECK(0);
        }
        EVP_PKEY_CTX_free(ctx);
        CHECK_MSG(gen != NULL && get_octets(gen, OSSL_PKEY_PARAM_PUB_KEY, ppk, sizeof(ppk)) ==
                                     a->pk && memcmp(ppk, pk, a->pk) == 0 &&
                      get_octets(gen, OSSL_PKEY_PARAM_PRIV_KEY, psk, sizeof(psk)) == a->sk &&
                      memcmp(psk, sk, a->sk) == 0,
                  "%s: key generation from a seed", a->name);
        EVP_PKEY_free(gen);
    }

    /* Rejected public keys: wrong length; an ek whose first coefficient is
     * 0xFFF >= q (FIPS 203 7.2); for the NIST hybrids a point off the curve
     * (last byte of y changed) and a compressed point's prefix. */
    CHECK(from_data(a, pk, a->pk - 1, NULL, 0) == NULL);
    {
        EVP_PKEY *ok = from_data(a, pk, a->pk, NULL, 0);
        CHECK(ok != NULL);
        EVP_PKEY_free(ok);
    }
    memcpy(bad, pk, a->pk);
    bad[a->ec] = 0xFF;
    bad[a->ec + 1] |= 0x0F;
    CHECK_MSG(from_data(a, bad, a->pk, NULL, 0) == NULL, "%s: ek modulus check", a->name);
    if (a->ec != 0) {
        memcpy(bad, pk, a->pk);
        bad[a->ec - 1] ^= 1;
        CHECK_MSG(from_data(a, bad, a->pk, NULL, 0) == NULL, "%s: point off the curve",
                  a->name);
        memcpy(bad, pk, a->pk);
        bad[0] = 0x02;
        CHECK_MSG(from_data(a, bad, a->pk, NULL, 0) == NULL, "%s: not uncompressed", a->name);
        /* A secret scalar of zero (SEC 1: in [1, n-1]). */
        memcpy(psk, sk, a->sk);
        memset(psk, 0, a->ec / 2);
        CHECK_MSG(from_data(a, NULL, 0, psk, a->sk) == NULL, "%s: zero scalar", a->name);
    }
}

int main(int argc, char **argv)
{
    OSSL_PROVIDER *prov;

    if (argc < 2 || argv[1][0] == '\0') {
        printf("test_provider: provider not built: skipped\n");
        return 77;
    }
    libctx = OSSL_LIB_CTX_new();
    if (libctx == NULL || !OSSL_PROVIDER_set_default_search_path(libctx, argv[1]))
        return 1;
    prov = OSSL_PROVIDER_load(libctx, "vgcrypto-provider");
    if (prov == NULL) {
        ERR_print_errors_fp(stderr);
        return 1;
    }
    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
        test_alg(&algs[i]);
    /* The names as OpenSSL 3.5 and the LAMPS drafts use them resolve to the
     * provider's key managers. */
    {
        static const char *const names[] = {"MLKEM768", "id-alg-ml-kem-768",
                                            "2.16.840.1.101.3.4.4.2", "XWING"};
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
            EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(libctx, names[i], propq);
            CHECK_MSG(km != NULL, "%s", names[i]);
            EVP_KEYMGMT_free(km);
        }
    }
    OSSL_PROVIDER_unload(prov);
    OSSL_LIB_CTX_free(libctx);
    return vgtest_done("test_provider");
}
