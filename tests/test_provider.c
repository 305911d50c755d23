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
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/x509.h>

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
        /* EVP_PKEY_check: the checks and the pairwise encapsulation. */
        {
            EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, key, propq);
            CHECK(c != NULL && EVP_PKEY_check(c) == 1 && EVP_PKEY_public_check(c) == 1);
            EVP_PKEY_CTX_free(c);
        }
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

/* ---- signatures ---------------------------------------------------------- */

#define MAX_SPK 2592
#define MAX_SSK 4896
#define MAX_SIG 4627

struct salg {
    const char *name;
    size_t pk, sk, sig;
    int ed25519;
    vg_key_alg codec;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    int (*sign_derand)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                       const uint8_t *, const uint8_t *);
    int (*sign)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *);
    int (*verify)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t,
                  const uint8_t *);
};

/* Ed25519 in the ML-DSA shape (no context, no randomness: RFC 8032). */
static int ed_keypair(uint8_t *pk, uint8_t *sk, const uint8_t *seed)
{
    return vg_ed25519_keypair_from_seed(pk, sk, seed);
}
static int ed_sign_derand(uint8_t *sig, const uint8_t *m, size_t n, const uint8_t *c, size_t cn,
                          const uint8_t *sk, const uint8_t *rnd)
{
    (void)c, (void)cn, (void)rnd;
    return vg_ed25519_sign(sig, m, n, sk);
}
static int ed_sign(uint8_t *sig, const uint8_t *m, size_t n, const uint8_t *c, size_t cn,
                   const uint8_t *sk)
{
    (void)c, (void)cn;
    return vg_ed25519_sign(sig, m, n, sk);
}
static int ed_verify(const uint8_t *sig, size_t sl, const uint8_t *m, size_t n, const uint8_t *c,
                     size_t cn, const uint8_t *pk)
{
    (void)c, (void)cn;
    return sl == 64 ? vg_ed25519_verify(sig, m, n, pk) : VG_ERR_VERIFY;
}

static const struct salg salgs[] = {
    {"ML-DSA-44", 1312, 2560, 2420, 0, VG_KEY_MLDSA44, vg_mldsa44_keypair_derand,
     vg_mldsa44_sign_derand, vg_mldsa44_sign, vg_mldsa44_verify},
    {"ML-DSA-65", 1952, 4032, 3309, 0, VG_KEY_MLDSA65, vg_mldsa65_keypair_derand,
     vg_mldsa65_sign_derand, vg_mldsa65_sign, vg_mldsa65_verify},
    {"ML-DSA-87", 2592, 4896, 4627, 0, VG_KEY_MLDSA87, vg_mldsa87_keypair_derand,
     vg_mldsa87_sign_derand, vg_mldsa87_sign, vg_mldsa87_verify},
    {"ED25519", 32, 64, 64, 1, VG_KEY_ED25519, ed_keypair, ed_sign_derand, ed_sign, ed_verify},
};

/* A provider signature key from "seed" (ML-DSA) / "priv" (Ed25519's seed),
 * or from "priv" (the expanded sk) and "pub". */
static EVP_PKEY *sig_key(const struct salg *a, const char *p1, const uint8_t *v1, size_t l1,
                         const char *p2, const uint8_t *v2, size_t l2, int selection)
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(libctx, a->name, propq);
    EVP_PKEY *key = NULL;
    OSSL_PARAM params[3];
    int n = 0;

    params[n++] = OSSL_PARAM_construct_octet_string(p1, (void *)v1, l1);
    if (p2 != NULL)
        params[n++] = OSSL_PARAM_construct_octet_string(p2, (void *)v2, l2);
    params[n] = OSSL_PARAM_construct_end();
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &key, selection, params) <= 0)
        key = NULL;
    EVP_PKEY_CTX_free(ctx);
    ERR_clear_error();
    return key;
}

/* EVP_DigestSign / EVP_DigestVerify (one-shot, or streamed in pieces of
 * `piece` bytes when piece > 0) with a context string (ctx_len > 255: none
 * set) and the deterministic flag; q = the property query. */
static int dsign(EVP_PKEY *key, const char *q, uint8_t *sig, size_t *sig_len, const uint8_t *m,
                 size_t n, const uint8_t *c, size_t cn, int det, size_t piece)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    OSSL_PARAM params[3];
    int k = 0, ok;

    if (cn <= 255)
        params[k++] = OSSL_PARAM_construct_octet_string("context-string", (void *)c, cn);
    if (det >= 0)
        params[k++] = OSSL_PARAM_construct_int("deterministic", &det);
    params[k] = OSSL_PARAM_construct_end();
    ok = md != NULL && EVP_DigestSignInit_ex(md, NULL, NULL, libctx, q, key, params) > 0;
    if (ok && piece == 0) {
        ok = EVP_DigestSign(md, sig, sig_len, m, n) > 0;
    } else if (ok) {
        for (size_t i = 0; ok && i < n; i += piece)
            ok = EVP_DigestSignUpdate(md, m + i, n - i < piece ? n - i : piece) > 0;
        ok = ok && EVP_DigestSignFinal(md, sig, sig_len) > 0;
    }
    EVP_MD_CTX_free(md);
    ERR_clear_error();
    return ok;
}

static int dverify(EVP_PKEY *key, const char *q, const uint8_t *sig, size_t sig_len,
                   const uint8_t *m, size_t n, const uint8_t *c, size_t cn, size_t piece)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    OSSL_PARAM params[2];
    int k = 0, ok;

    if (cn <= 255)
        params[k++] = OSSL_PARAM_construct_octet_string("context-string", (void *)c, cn);
    params[k] = OSSL_PARAM_construct_end();
    ok = md != NULL && EVP_DigestVerifyInit_ex(md, NULL, NULL, libctx, q, key, params) > 0;
    if (ok && piece == 0) {
        ok = EVP_DigestVerify(md, sig, sig_len, m, n) > 0;
    } else if (ok) {
        for (size_t i = 0; ok && i < n; i += piece)
            ok = EVP_DigestVerifyUpdate(md, m + i, n - i < piece ? n - i : piece) > 0;
        ok = ok && EVP_DigestVerifyFinal(md, sig, sig_len) > 0;
    }
    EVP_MD_CTX_free(md);
    ERR_clear_error();
    return ok;
}

static const char *provider_of(const EVP_PKEY *key)
{
    const OSSL_PROVIDER *p = EVP_PKEY_get0_provider(key);

    return p != NULL ? OSSL_PROVIDER_get0_name(p) : "(legacy)";
}

static void test_sig(const struct salg *a)
{
    static uint8_t pk[MAX_SPK], sk[MAX_SSK], sig[MAX_SIG], lsig[MAX_SIG], buf[MAX_SSK];
    uint8_t seed[32], msg[300], ctx[255], zero[32] = {0};
    size_t len, cn;

    for (unsigned it = 0; it < 3; it++) {
        EVP_PKEY *key, *pub, *exp = NULL;
        size_t mlen = 37 + 101 * it;

        fill(seed, sizeof(seed), it + 20);
        fill(msg, mlen, it + 30);
        fill(ctx, sizeof(ctx), it + 40);
        /* ML-DSA: context strings of 0, 5 and 255 bytes; Ed25519: none. */
        cn = a->ed25519 ? 0 : (size_t[]){0, 5, 255}[it];
        CHECK(a->keypair_derand(pk, sk, seed) == VG_OK);
        key = sig_key(a, a->ed25519 ? OSSL_PKEY_PARAM_PRIV_KEY : "seed", seed, 32, NULL, NULL, 0,
                      EVP_PKEY_KEYPAIR);
        CHECK_MSG(key != NULL, "%s: import of a seed", a->name);
        if (key == NULL)
            continue;
        CHECK(strcmp(provider_of(key), "vgcrypto-provider") == 0);
        CHECK(get_octets(key, OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof(buf)) == a->pk &&
              memcmp(buf, pk, a->pk) == 0);
        CHECK(EVP_PKEY_get_size(key) == (int)a->sig);
        if (!a->ed25519) {
            /* The expanded sk is exported as "priv", the seed as "seed". */
            CHECK(get_octets(key, OSSL_PKEY_PARAM_PRIV_KEY, buf, sizeof(buf)) == a->sk &&
                  memcmp(buf, sk, a->sk) == 0);
            CHECK(get_octets(key, "seed", buf, sizeof(buf)) == 32 &&
                  memcmp(buf, seed, 32) == 0);
        }

        /* Deterministic provider signature = the library's with rnd = 0
         * (Ed25519: always), one-shot and streamed. */
        CHECK(a->sign_derand(lsig, msg, mlen, ctx, cn, sk, zero) == VG_OK);
        len = sizeof(sig);
        CHECK_MSG(dsign(key, propq, sig, &len, msg, mlen, ctx, cn, a->ed25519 ? -1 : 1, 0) &&
                      len == a->sig && memcmp(sig, lsig, a->sig) == 0,
                  "%s: deterministic signature = the library's", a->name);
        if (!a->ed25519) {
            len = sizeof(sig);
            memset(sig, 0, a->sig);
            CHECK_MSG(dsign(key, propq, sig, &len, msg, mlen, ctx, cn, 1, 16) &&
                          len == a->sig && memcmp(sig, lsig, a->sig) == 0,
                      "%s: streamed signature = the library's", a->name);
            CHECK(dverify(key, propq, lsig, a->sig, msg, mlen, ctx, cn, 7));
            CHECK(!dverify(key, propq, lsig, a->sig, msg, mlen - 1, ctx, cn, 7));
        } else {
            /* OpenSSL's own Ed25519 on the same seed: the same bytes. */
            EVP_PKEY *ok = EVP_PKEY_new_raw_private_key_ex(libctx, "ED25519", "provider=default",
                                                           seed, 32);
            CHECK(ok != NULL && strcmp(provider_of(ok), "default") == 0);
            len = sizeof(sig);
            CHECK_MSG(ok != NULL &&
                          dsign(ok, "provider=default", sig, &len, msg, mlen, NULL, 256, -1, 0) &&
                          len == 64 && memcmp(sig, lsig, 64) == 0,
                      "Ed25519: OpenSSL's signature = the library's");
            /* A default-provider key used with the provider's signature
             * (exported across) and the reverse. */
            len = sizeof(sig);
            CHECK_MSG(ok != NULL && dsign(ok, propq, sig, &len, msg, mlen, NULL, 256, -1, 0) &&
                          memcmp(sig, lsig, 64) == 0,
                      "Ed25519: OpenSSL's key, the provider's signature");
            CHECK(dverify(key, "provider=default", lsig, 64, msg, mlen, NULL, 256, 0));
            CHECK(ok == NULL || dverify(ok, propq, lsig, 64, msg, mlen, NULL, 256, 0));
            /* No property query: whichever provider answers, the same. */
            len = sizeof(sig);
            CHECK(ok != NULL && dsign(ok, NULL, sig, &len, msg, mlen, NULL, 256, -1, 0) &&
                  memcmp(sig, lsig, 64) == 0);
            /* No context for pure Ed25519; an empty one is accepted. */
            len = sizeof(sig);
            CHECK(!dsign(key, propq, sig, &len, msg, mlen, ctx, 1, -1, 0));
            CHECK(dsign(key, propq, sig, &len, msg, mlen, ctx, 0, -1, 0));
            EVP_PKEY_free(ok);
        }
        /* Hedged provider signature: verified by the library, and different
         * from the deterministic one. */
        len = sizeof(sig);
        CHECK(dsign(key, propq, sig, &len, msg, mlen, ctx, cn, a->ed25519 ? -1 : 0, 0) &&
              len == a->sig);
        CHECK_MSG(a->verify(sig, len, msg, mlen, ctx, cn, pk) == VG_OK,
                  "%s: library verifies the provider's signature", a->name);
        CHECK(a->ed25519 || memcmp(sig, lsig, a->sig) != 0);
        if (!a->ed25519) {
            /* Another context string, or none, does not verify (FIPS 204
             * M' binds ctx). */
            ctx[0] ^= 1;
            CHECK(cn == 0 || a->verify(sig, len, msg, mlen, ctx, cn, pk) != VG_OK);
            CHECK(cn == 0 || !dverify(key, propq, sig, len, msg, mlen, ctx, cn, 0));
            ctx[0] ^= 1;
            CHECK(cn == 0 || !dverify(key, propq, sig, len, msg, mlen, ctx, 256, 0));
        }
        /* The library's hedged signature, verified by the provider through a
         * public key alone. */
        CHECK(a->sign(lsig, msg, mlen, ctx, cn, sk) == VG_OK);
        pub = sig_key(a, OSSL_PKEY_PARAM_PUB_KEY, pk, a->pk, NULL, NULL, 0, EVP_PKEY_PUBLIC_KEY);
        CHECK(pub != NULL);
        CHECK_MSG(pub != NULL && dverify(pub, propq, lsig, a->sig, msg, mlen, ctx, cn, 0),
                  "%s: provider verifies the library's signature", a->name);
        lsig[a->sig / 2] ^= 4;
        CHECK(pub != NULL && !dverify(pub, propq, lsig, a->sig, msg, mlen, ctx, cn, 0));
        CHECK(pub != NULL && !dverify(pub, propq, lsig, a->sig - 1, msg, mlen, ctx, cn, 0));
        /* A public key cannot sign. */
        len = sizeof(sig);
        CHECK(pub != NULL && !dsign(pub, propq, sig, &len, msg, mlen, ctx, cn, -1, 0));
        EVP_PKEY_free(pub);

        if (!a->ed25519) {
            /* The expanded sk with its pk: the same deterministic signature;
             * a pk of another key refused (rho / tr check). */
            exp = sig_key(a, OSSL_PKEY_PARAM_PRIV_KEY, sk, a->sk, OSSL_PKEY_PARAM_PUB_KEY, pk,
                          a->pk, EVP_PKEY_KEYPAIR);
            CHECK(exp != NULL);
            len = sizeof(sig);
            CHECK(a->sign_derand(lsig, msg, mlen, ctx, cn, sk, zero) == VG_OK);
            CHECK(exp != NULL && dsign(exp, propq, sig, &len, msg, mlen, ctx, cn, 1, 0) &&
                  memcmp(sig, lsig, a->sig) == 0);
            EVP_PKEY_free(exp);
            memcpy(buf, pk, a->pk);
            buf[40] ^= 1; /* inside t1: rho still equal, tr not */
            CHECK(sig_key(a, OSSL_PKEY_PARAM_PRIV_KEY, sk, a->sk, OSSL_PKEY_PARAM_PUB_KEY, buf,
                          a->pk, EVP_PKEY_KEYPAIR) == NULL);
            /* EVP_PKEY_check's pairwise test: a good key pair passes, an
             * expanded sk with its last 400 bytes (inside t0, FIPS 204
             * skEncode) changed imports (rho and tr still match) but fails
             * it: its signatures do not verify. (A t0 only slightly off may
             * still sign verifiably; the test checks what it claims, that
             * the key's signatures verify.) */
            {
                EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(libctx, key, propq);
                EVP_PKEY *bad;

                CHECK(c != NULL && EVP_PKEY_check(c) == 1 && EVP_PKEY_public_check(c) == 1 &&
                      EVP_PKEY_private_check(c) == 1);
                EVP_PKEY_CTX_free(c);
                memcpy(buf, sk, a->sk);
                for (size_t j = a->sk - 400; j < a->sk; j++)
                    buf[j] ^= 0x55;
                bad = sig_key(a, OSSL_PKEY_PARAM_PRIV_KEY, buf, a->sk, OSSL_PKEY_PARAM_PUB_KEY, pk,
                              a->pk, EVP_PKEY_KEYPAIR);
                CHECK(bad != NULL);
                c = bad != NULL ? EVP_PKEY_CTX_new_from_pkey(libctx, bad, propq) : NULL;
                CHECK_MSG(c != NULL && EVP_PKEY_check(c) != 1, "%s: pairwise test", a->name);
                EVP_PKEY_CTX_free(c);
                EVP_PKEY_free(bad);
                ERR_clear_error();
            }
            /* Seed and expanded key that disagree. */
            memcpy(buf, sk, a->sk);
            buf[a->sk - 1] ^= 1;
            CHECK(sig_key(a, "seed", seed, 32, OSSL_PKEY_PARAM_PRIV_KEY, buf, a->sk,
                          EVP_PKEY_KEYPAIR) == NULL);
            /* A context string over 255 bytes is refused. */
            {
                uint8_t big[256] = {0};
                EVP_MD_CTX *md = EVP_MD_CTX_new();
                OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string("context-string", big, 256),
                                   OSSL_PARAM_construct_end()};
                CHECK(md != NULL && EVP_DigestSignInit_ex(md, NULL, NULL, libctx, propq, key, p) <= 0);
                EVP_MD_CTX_free(md);
                ERR_clear_error();
            }
        }
        /* No digest: a digest name is refused. */
        {
            EVP_MD_CTX *md = EVP_MD_CTX_new();
            CHECK(md != NULL &&
                  EVP_DigestSignInit_ex(md, NULL, "SHA256", libctx, propq, key, NULL) <= 0);
            EVP_MD_CTX_free(md);
            ERR_clear_error();
        }
        /* Wrong lengths refused. */
        CHECK(sig_key(a, OSSL_PKEY_PARAM_PUB_KEY, pk, a->pk - 1, NULL, NULL, 0,
                      EVP_PKEY_PUBLIC_KEY) == NULL);
        CHECK(sig_key(a, a->ed25519 ? OSSL_PKEY_PARAM_PRIV_KEY : "seed", seed, 31, NULL, NULL, 0,
                      EVP_PKEY_KEYPAIR) == NULL);
        EVP_PKEY_free(key);
    }

    /* Provider key generation: the library signs with the exported secret
     * key, the provider verifies. */
    {
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, a->name, propq);
        EVP_PKEY *gen = NULL;
        uint8_t m[3] = {1, 2, 3};

        CHECK(c != NULL && EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_keygen(c, &gen) > 0);
        EVP_PKEY_CTX_free(c);
        if (gen != NULL) {
            size_t sl = get_octets(gen, OSSL_PKEY_PARAM_PRIV_KEY, buf, sizeof(buf));
            if (a->ed25519) {
                CHECK(sl == 32 && vg_ed25519_keypair_from_seed(pk, sk, buf) == VG_OK);
            } else {
                CHECK(sl == a->sk);
                memcpy(sk, buf, a->sk);
            }
            CHECK(a->sign(lsig, m, sizeof(m), NULL, 0, sk) == VG_OK);
            CHECK_MSG(dverify(gen, propq, lsig, a->sig, m, sizeof(m), NULL, 0, 0),
                      "%s: generated key", a->name);
            EVP_PKEY_free(gen);
        }
    }
}

/* A certificate signed through X509_sign_ctx with the provider's
 * signature forced by property query, and again with OpenSSL's default
 * provider: for Ed25519 the same DER (deterministic); verified with
 * X509_verify. ML-DSA-65 (the provider only): signed and verified. */
static void test_x509(const char *name, const uint8_t seed[32], int compare_default)
{
    const struct salg *a = name[0] == 'E' ? &salgs[3] : &salgs[1];
    EVP_PKEY *key = sig_key(a, a->ed25519 ? OSSL_PKEY_PARAM_PRIV_KEY : "seed", seed, 32, NULL,
                            NULL, 0, EVP_PKEY_KEYPAIR);
    unsigned char *der[2] = {NULL, NULL};
    int der_len[2] = {0, 0};

    CHECK(key != NULL);
    for (int run = 0; key != NULL && run < 1 + compare_default; run++) {
        X509 *x = X509_new_ex(libctx, NULL);
        X509_NAME *nm = X509_NAME_new();
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        const char *q = run == 0 ? propq : "provider=default";
        EVP_PKEY *skey = key;

        if (run == 1)
            skey = EVP_PKEY_new_raw_private_key_ex(libctx, "ED25519", q, seed, 32);
        CHECK(x != NULL && nm != NULL && md != NULL && skey != NULL);
        if (x == NULL || nm == NULL || md == NULL || skey == NULL)
            goto next;
        CHECK(X509_NAME_add_entry_by_txt(nm, "CN", MBSTRING_ASC,
                                         (const unsigned char *)"vgcrypto", -1, -1, 0));
        CHECK(X509_set_version(x, X509_VERSION_3) && X509_set_subject_name(x, nm) &&
              X509_set_issuer_name(x, nm) && ASN1_INTEGER_set(X509_get_serialNumber(x), 7));
        CHECK(ASN1_TIME_set_string(X509_getm_notBefore(x), "20260101000000Z") &&
              ASN1_TIME_set_string(X509_getm_notAfter(x), "20360101000000Z"));
        CHECK(X509_set_pubkey(x, skey));
        CHECK_MSG(EVP_DigestSignInit_ex(md, NULL, NULL, libctx, q, skey, NULL) > 0 &&
                      X509_sign_ctx(x, md) > 0,
                  "%s: X509_sign_ctx with %s", name, q);
        der_len[run] = i2d_X509(x, &der[run]);
        CHECK(der_len[run] > 0);
        CHECK_MSG(X509_verify(x, key) == 1, "%s: X509_verify", name);
        /* One bit of the TBS changed: refused. */
        CHECK(ASN1_INTEGER_set(X509_get_serialNumber(x), 8));
        CHECK(X509_verify(x, key) != 1);
    next:
        ERR_clear_error();
        if (skey != key)
            EVP_PKEY_free(skey);
        EVP_MD_CTX_free(md);
        X509_NAME_free(nm);
        X509_free(x);
    }
    if (compare_default)
        CHECK_MSG(der_len[0] > 0 && der_len[0] == der_len[1] &&
                      memcmp(der[0], der[1], (size_t)der_len[0]) == 0,
                  "%s: the provider's certificate = OpenSSL's", name);
    OPENSSL_free(der[0]);
    OPENSSL_free(der[1]);
    EVP_PKEY_free(key);
}

/* ---- encoders and decoders ---------------------------------------------- */

struct calg {
    const char *name;
    vg_key_alg alg;
    const char *import_param; /* how the seed / key is imported */
    size_t seed, pk, sk;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    const char *expanded_param; /* NULL: no expanded form */
};

static const struct calg calgs[] = {
    {"ML-KEM-512", VG_KEY_MLKEM512, "seed", 64, 800, 1632, vg_mlkem512_keypair_derand, "priv"},
    {"ML-KEM-768", VG_KEY_MLKEM768, "seed", 64, 1184, 2400, vg_mlkem768_keypair_derand, "priv"},
    {"ML-KEM-1024", VG_KEY_MLKEM1024, "seed", 64, 1568, 3168, vg_mlkem1024_keypair_derand,
     "priv"},
    {"X-Wing", VG_KEY_XWING, "priv", 32, 1216, 32, vg_xwing_keypair_derand, NULL},
    {"ML-DSA-44", VG_KEY_MLDSA44, "seed", 32, 1312, 2560, vg_mldsa44_keypair_derand, "priv"},
    {"ML-DSA-65", VG_KEY_MLDSA65, "seed", 32, 1952, 4032, vg_mldsa65_keypair_derand, "priv"},
    {"ML-DSA-87", VG_KEY_MLDSA87, "seed", 32, 2592, 4896, vg_mldsa87_keypair_derand, "priv"},
    {"ED25519", VG_KEY_ED25519, "priv", 32, 32, 64, ed_keypair, NULL},
};

/* The provider's encoding of key (selection, "DER"/"PEM", structure). */
static size_t encode(EVP_PKEY *key, int selection, const char *type, const char *structure,
                     unsigned char *out, size_t cap)
{
    OSSL_ENCODER_CTX *e =
        OSSL_ENCODER_CTX_new_for_pkey(key, selection, type, structure, propq);
    unsigned char *data = NULL;
    size_t len = 0;

    if (e == NULL || OSSL_ENCODER_CTX_get_num_encoders(e) == 0 ||
        !OSSL_ENCODER_to_data(e, &data, &len) || len > cap)
        len = 0;
    else
        memcpy(out, data, len);
    OPENSSL_free(data);
    OSSL_ENCODER_CTX_free(e);
    ERR_clear_error();
    return len;
}

static EVP_PKEY *decode(const char *keytype, int selection, const char *type,
                        const char *structure, const uint8_t *in, size_t len)
{
    EVP_PKEY *key = NULL;
    OSSL_DECODER_CTX *d = OSSL_DECODER_CTX_new_for_pkey(&key, type, structure, keytype,
                                                        selection, libctx, propq);

    if (d == NULL || !OSSL_DECODER_from_data(d, &in, &len)) {
        EVP_PKEY_free(key);
        key = NULL;
    }
    OSSL_DECODER_CTX_free(d);
    ERR_clear_error();
    return key;
}

/* Run in a library context with only the provider loaded (libctx is
 * switched by main): with OpenSSL's default provider beside it, 3.0's
 * decoder machinery does not follow the property query and may read an
 * Ed25519 key into the default provider's key (see test_codec_both). */
static void test_codec(const struct calg *a)
{
    static uint8_t pk[MAX_SPK], sk[MAX_SSK], lib[VG_KEY_ENCODED_MAXBYTES],
        prov[VG_KEY_ENCODED_MAXBYTES], buf[MAX_SSK];
    uint8_t seed[64];
    size_t llen, plen;
    EVP_PKEY *key, *dec;

    fill(seed, a->seed, 77);
    CHECK(a->keypair_derand(pk, sk, seed) == VG_OK);
    {
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(libctx, a->name, propq);
        OSSL_PARAM p[2] = {OSSL_PARAM_construct_octet_string(a->import_param, seed, a->seed),
                           OSSL_PARAM_construct_end()};
        key = NULL;
        CHECK(c != NULL && EVP_PKEY_fromdata_init(c) > 0 &&
              EVP_PKEY_fromdata(c, &key, EVP_PKEY_KEYPAIR, p) > 0);
        EVP_PKEY_CTX_free(c);
    }
    if (key == NULL)
        return;
    /* The provider's encodings are the library's (seed form). */
    for (int pem = 0; pem < 2; pem++) {
        const char *type = pem ? "PEM" : "DER";
        unsigned f = pem ? VG_KEY_PEM : VG_KEY_DER;

        CHECK(vg_key_encode_private(lib, sizeof(lib), &llen, a->alg, f, seed, a->seed) == VG_OK);
        plen = encode(key, EVP_PKEY_KEYPAIR, type, "PrivateKeyInfo", prov, sizeof(prov));
        CHECK_MSG(plen == llen && memcmp(prov, lib, llen) == 0, "%s: %s PrivateKeyInfo",
                  a->name, type);
        dec = decode(a->name, EVP_PKEY_KEYPAIR, type, "PrivateKeyInfo", lib, llen);
        CHECK_MSG(dec != NULL && strcmp(provider_of(dec), "vgcrypto-provider") == 0 &&
                      get_octets(dec, OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof(buf)) == a->pk &&
                      memcmp(buf, pk, a->pk) == 0 && EVP_PKEY_eq(dec, key) == 1,
                  "%s: decoding the library's %s PrivateKeyInfo", a->name, type);
        EVP_PKEY_free(dec);
        CHECK(vg_key_encode_public(lib, sizeof(lib), &llen, a->alg, f, pk, a->pk) == VG_OK);
        plen = encode(key, EVP_PKEY_PUBLIC_KEY, type, "SubjectPublicKeyInfo", prov, sizeof(prov));
        CHECK_MSG(plen == llen && memcmp(prov, lib, llen) == 0, "%s: %s SubjectPublicKeyInfo",
                  a->name, type);
        dec = decode(a->name, EVP_PKEY_PUBLIC_KEY, type, "SubjectPublicKeyInfo", lib, llen);
        CHECK_MSG(dec != NULL && get_octets(dec, OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof(buf)) ==
                                     a->pk && memcmp(buf, pk, a->pk) == 0 &&
                      EVP_PKEY_eq(dec, key) == 1,
                  "%s: decoding the library's %s SubjectPublicKeyInfo", a->name, type);
        EVP_PKEY_free(dec);
    }
    /* The expanded form: decoded to a key without its seed, which is then
     * written as expandedKey again; for ML-KEM the decoded key decapsulates
     * to the library's secret. */
    if (a->expanded_param != NULL) {
        CHECK(vg_key_encode_private(lib, sizeof(lib), &llen, a->alg, VG_KEY_DER, sk, a->sk) ==
              VG_OK);
        dec = decode(a->name, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", lib, llen);
        CHECK_MSG(dec != NULL, "%s: decoding the expanded form", a->name);
        if (dec != NULL) {
            plen = encode(dec, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", prov, sizeof(prov));
            CHECK(plen == llen && memcmp(prov, lib, llen) == 0);
            CHECK(get_octets(dec, "seed", buf, sizeof(buf)) == 0);
            if (a->alg == VG_KEY_MLKEM768) {
                uint8_t ct[1088], ss[32], pss[32], m[32];
                size_t sl = sizeof(pss);
                fill(m, sizeof(m), 5);
                CHECK(vg_mlkem768_encaps_derand(ct, ss, pk, m) == VG_OK);
                CHECK(decapsulate(dec, pss, &sl, ct, sizeof(ct)) && sl == 32 &&
                      memcmp(ss, pss, 32) == 0);
            }
            EVP_PKEY_free(dec);
        }
        /* The "both" form is read too (consistency checked by the library). */
        CHECK(vg_key_encode_private(lib, sizeof(lib), &llen, a->alg, VG_KEY_BOTH, seed, a->seed) ==
              VG_OK);
        dec = decode(a->name, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", lib, llen);
        CHECK(dec != NULL && EVP_PKEY_eq(dec, key) == 1);
        EVP_PKEY_free(dec);
    }
    /* A key of another algorithm is not decoded as this one; a truncated
     * encoding is refused. */
    {
        const struct calg *other = a == &calgs[0] ? &calgs[1] : &calgs[0];
        uint8_t oseed[64];
        fill(oseed, sizeof(oseed), 3);
        CHECK(vg_key_encode_private(lib, sizeof(lib), &llen, other->alg, VG_KEY_DER, oseed,
                                    other->seed) == VG_OK);
        dec = decode(a->name, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", lib, llen);
        CHECK_MSG(dec == NULL, "%s: another algorithm's key", a->name);
        EVP_PKEY_free(dec);
        CHECK(vg_key_encode_private(lib, sizeof(lib), &llen, a->alg, VG_KEY_DER, seed, a->seed) ==
              VG_OK);
        dec = decode(a->name, EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", lib, llen - 1);
        CHECK(dec == NULL);
        EVP_PKEY_free(dec);
    }
    /* Here (the provider alone: no cipher to fetch) an encoder asked for
     * encryption fails instead of writing the key in the clear. */
    {
        OSSL_ENCODER_CTX *e = OSSL_ENCODER_CTX_new_for_pkey(key, EVP_PKEY_KEYPAIR, "PEM",
                                                            "PrivateKeyInfo", propq);
        unsigned char *data = NULL;
        size_t len = 0;
        CHECK(e != NULL && OSSL_ENCODER_CTX_set_cipher(e, "AES-256-CBC", NULL) &&
              OSSL_ENCODER_CTX_set_passphrase(e, (const unsigned char *)"pw", 2));
        CHECK_MSG(e == NULL || !OSSL_ENCODER_to_data(e, &data, &len), "%s: no clear text",
                  a->name);
        OPENSSL_free(data);
        OSSL_ENCODER_CTX_free(e);
        ERR_clear_error();
    }
    EVP_PKEY_free(key);
}

/* With both providers loaded: the library's Ed25519 PKCS#8 decodes (into
 * either provider's key), and the key signs through the provider with the
 * library's signature. */
static void test_codec_both(void)
{
    uint8_t seed[32], pk[32], sk[64], der[64], sig[64], lsig[64], msg[5] = "hello";
    size_t len, sl = sizeof(sig);
    EVP_PKEY *key;

    fill(seed, sizeof(seed), 11);
    CHECK(vg_ed25519_keypair_from_seed(pk, sk, seed) == VG_OK);
    CHECK(vg_ed25519_sign(lsig, msg, sizeof(msg), sk) == VG_OK);
    CHECK(vg_key_encode_private(der, sizeof(der), &len, VG_KEY_ED25519, VG_KEY_DER, seed, 32) ==
          VG_OK);
    key = decode("ED25519", EVP_PKEY_KEYPAIR, "DER", "PrivateKeyInfo", der, len);
    CHECK(key != NULL);
    CHECK(key != NULL && dsign(key, propq, sig, &sl, msg, sizeof(msg), NULL, 256, -1, 0) &&
          sl == 64 && memcmp(sig, lsig, 64) == 0);
    EVP_PKEY_free(key);

    /* Encrypted PKCS#8 (PBES2, AES-256-CBC from the default provider through
     * the provider's child library context): written by the provider for
     * its ML-DSA-65 and Ed25519 keys, read back with the passphrase (by
     * OpenSSL's EncryptedPrivateKeyInfo decoder, then the provider's), not
     * with another. */
    for (int i = 0; i < 2; i++) {
        const struct salg *a = &salgs[i == 0 ? 1 : 3];
        unsigned char *enc = NULL;
        size_t enc_len = 0;
        OSSL_ENCODER_CTX *e;
        EVP_PKEY *dec;

        key = sig_key(a, i == 0 ? "seed" : OSSL_PKEY_PARAM_PRIV_KEY, seed, 32, NULL, NULL, 0,
                      EVP_PKEY_KEYPAIR);
        CHECK(key != NULL);
        if (key == NULL)
            continue;
        e = OSSL_ENCODER_CTX_new_for_pkey(key, EVP_PKEY_KEYPAIR, "PEM", "PrivateKeyInfo", propq);
        CHECK_MSG(e != NULL && OSSL_ENCODER_CTX_set_cipher(e, "AES-256-CBC", NULL) &&
                      OSSL_ENCODER_CTX_set_passphrase(e, (const unsigned char *)"pw", 2) &&
                      OSSL_ENCODER_to_data(e, &enc, &enc_len),
                  "%s: encrypted PKCS#8", a->name);
        OSSL_ENCODER_CTX_free(e);
        CHECK(enc != NULL && enc_len > 37 &&
              memcmp(enc, "-----BEGIN ENCRYPTED PRIVATE KEY-----", 37) == 0);
        for (int right = 0; enc != NULL && right < 2; right++) {
            const unsigned char *in = enc;
            size_t in_len = enc_len;
            OSSL_DECODER_CTX *d;

            dec = NULL;
            d = OSSL_DECODER_CTX_new_for_pkey(&dec, "PEM", NULL, a->name, EVP_PKEY_KEYPAIR,
                                              libctx, NULL);
            CHECK(d != NULL && OSSL_DECODER_CTX_set_passphrase(
                                   d, (const unsigned char *)(right ? "pw" : "px"), 2));
            if (d != NULL && !OSSL_DECODER_from_data(d, &in, &in_len)) {
                EVP_PKEY_free(dec);
                dec = NULL;
            }
            OSSL_DECODER_CTX_free(d);
            ERR_clear_error();
            if (right)
                CHECK_MSG(dec != NULL && EVP_PKEY_eq(dec, key) == 1,
                          "%s: encrypted PKCS#8 read back", a->name);
            else
                CHECK_MSG(dec == NULL, "%s: wrong passphrase", a->name);
            EVP_PKEY_free(dec);
        }
        OPENSSL_free(enc);
        EVP_PKEY_free(key);
    }
}

int main(int argc, char **argv)
{
    OSSL_PROVIDER *prov, *deflt;

    if (argc < 2 || argv[1][0] == '\0') {
        printf("test_provider: provider not built: skipped\n");
        return 77;
    }
    libctx = OSSL_LIB_CTX_new();
    if (libctx == NULL || !OSSL_PROVIDER_set_default_search_path(libctx, argv[1]))
        return 1;
    prov = OSSL_PROVIDER_load(libctx, "vgcrypto-provider");
    /* OpenSSL's default provider beside it: Ed25519 is compared with
     * OpenSSL's own, and X.509 needs its SHA-1 for certificate caches. */
    deflt = OSSL_PROVIDER_load(libctx, "default");
    if (prov == NULL || deflt == NULL) {
        ERR_print_errors_fp(stderr);
        return 1;
    }
    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
        test_alg(&algs[i]);
    /* The names as OpenSSL 3.5 and the LAMPS drafts use them resolve to the
     * provider's key managers. */
    {
        static const char *const names[] = {"MLKEM768", "id-alg-ml-kem-768",
                                            "2.16.840.1.101.3.4.4.2", "XWING",
                                            "SecP256r1MLKEM768", "SecP384r1MLKEM1024",
                                            "ML-DSA-65", "MLDSA44", "id-ml-dsa-87",
                                            "2.16.840.1.101.3.4.3.18", "ED25519",
                                            "1.3.101.112"};
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
            EVP_KEYMGMT *km = EVP_KEYMGMT_fetch(libctx, names[i], propq);
            CHECK_MSG(km != NULL, "%s", names[i]);
            EVP_KEYMGMT_free(km);
        }
    }
    for (size_t i = 0; i < sizeof(salgs) / sizeof(salgs[0]); i++)
        test_sig(&salgs[i]);
    {
        uint8_t seed[32];
        fill(seed, sizeof(seed), 99);
        test_x509("ED25519", seed, 1);
        test_x509("ML-DSA-65", seed, 0);
    }
    {
        OSSL_LIB_CTX *both = libctx, *only = OSSL_LIB_CTX_new();
        OSSL_PROVIDER *p2 = NULL;

        CHECK(only != NULL && OSSL_PROVIDER_set_default_search_path(only, argv[1]) &&
              (p2 = OSSL_PROVIDER_load(only, "vgcrypto-provider")) != NULL);
        if (p2 != NULL) {
            libctx = only;
            for (size_t i = 0; i < sizeof(calgs) / sizeof(calgs[0]); i++)
                test_codec(&calgs[i]);
            libctx = both;
            OSSL_PROVIDER_unload(p2);
        }
        OSSL_LIB_CTX_free(only);
        test_codec_both();
    }
    OSSL_PROVIDER_unload(deflt);
    OSSL_PROVIDER_unload(prov);
    OSSL_LIB_CTX_free(libctx);
    return vgtest_done("test_provider");
}
