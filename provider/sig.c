/*
 * Key management (provider-keymgmt(7)) and signatures (provider-signature(7))
 * for ML-DSA-44/65/87 (FIPS 204, pure, with a context string) and Ed25519
 * (RFC 8032 5.1, pure), over the public vgcrypto API.
 *
 * The signatures work as OpenSSL's own Ed25519 does: one-shot
 * EVP_DigestSign / EVP_DigestVerify with no digest (the message is signed
 * as it is), plus EVP_PKEY_sign / EVP_PKEY_verify on the message; ML-DSA
 * also streams (EVP_DigestSignUpdate / Final) through FIPS 204 external mu,
 * with the same signatures. The key
 * managers report a mandatory digest of "" (none), so EVP and the openssl
 * applications pass none; X.509 signing reads the signature's
 * AlgorithmIdentifier from the "algorithm-id" parameter.
 *
 * Key material as OpenSSL exchanges it (the same as OpenSSL 3.5's ML-DSA
 * and OpenSSL's Ed25519, so that keys move between the providers):
 *   "pub"   the public key: FIPS 204 pk, or the 32-byte Ed25519 point;
 *   "priv"  ML-DSA: the expanded FIPS 204 sk; Ed25519: the 32-byte seed
 *           (RFC 8032 "private key");
 *   "seed"  ML-DSA only: the 32-byte key-generation seed xi, on import, on
 *           key generation and on export when the key was made from it.
 * Signature context parameters: "context-string" (ML-DSA, 0..255 bytes, as
 * OpenSSL 3.5 names it; FIPS 204 ctx), "deterministic" (ML-DSA: 1 = rnd all
 * zero, FIPS 204 3.4; default 0, hedged), "algorithm-id" (get).
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "vgcrypto.h"
#include "vgp.h"

#define VGP_SIG_MAX_PK VG_MLDSA87_PUBLICKEYBYTES
#define VGP_SIG_SEED 32
#define VGP_PARAM_SEED "seed"
/* OpenSSL 3.2+ (and 3.5's ML-DSA) names; absent from 3.0's headers. */
#define VGP_PARAM_CONTEXT_STRING "context-string"
#define VGP_PARAM_DETERMINISTIC "deterministic"

typedef int (*vgp_sig_keypair_fn)(uint8_t *pk, uint8_t *sk, const uint8_t *seed);
typedef int (*vgp_sig_sign_fn)(uint8_t *sig, const uint8_t *msg, size_t msg_len,
                               const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                               const uint8_t rnd[32]);
typedef int (*vgp_sig_verify_fn)(const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                                 size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                                 const uint8_t *pk);
typedef int (*vgp_mu_init_fn)(vg_mldsa_mu_state *st, const uint8_t *pk, const uint8_t *ctx,
                              size_t ctx_len);
typedef int (*vgp_sign_mu_fn)(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                              const uint8_t rnd[32]);
typedef int (*vgp_verify_mu_fn)(const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                                const uint8_t *pk);

struct vgp_sig_alg {
    const char *name;   /* primary name (also the signature's name) */
    size_t pk_len;      /* public key */
    size_t sk_len;      /* the library's secret key (ML-DSA expanded; Ed25519 64) */
    size_t priv_len;    /* the "priv" parameter (ML-DSA: = sk_len; Ed25519: the 32 seed) */
    size_t sig_len;
    int bits, security_bits;
    int is_ed25519;
    const uint8_t *aid; /* DER AlgorithmIdentifier, parameters absent */
    size_t aid_len;
    vgp_sig_keypair_fn keypair_derand;
    vgp_sig_sign_fn sign;
    vgp_sig_verify_fn verify;
    /* Streaming (EVP_DigestSignUpdate / Final, as `openssl dgst` and 3.0's
     * `pkeyutl -rawin` use for any key but Ed25519): FIPS 204 external mu,
     * mu = H(tr || M') absorbed in pieces. NULL for Ed25519, which, like
     * OpenSSL's own, is one-shot only (RFC 8032 reads the message twice). */
    vgp_mu_init_fn mu_init;
    vgp_sign_mu_fn sign_mu;
    vgp_verify_mu_fn verify_mu;
};

/* ---- the library behind one interface ------------------------------------ */

/* ML-DSA sign with an explicit rnd (hedged: fresh random; deterministic:
 * zero), FIPS 204 Algorithm 2. */
#define VGP_MLDSA_FNS(n)                                                                     \
    static int vgp_mldsa##n##_sign(uint8_t *sig, const uint8_t *msg, size_t msg_len,         \
                                   const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,    \
                                   const uint8_t rnd[32])                                    \
    {                                                                                        \
        if (rnd == NULL)                                                                     \
            return vg_mldsa##n##_sign(sig, msg, msg_len, ctx, ctx_len, sk);                  \
        return vg_mldsa##n##_sign_derand(sig, msg, msg_len, ctx, ctx_len, sk, rnd);          \
    }
VGP_MLDSA_FNS(44)
VGP_MLDSA_FNS(65)
VGP_MLDSA_FNS(87)

static int vgp_ed25519_keypair(uint8_t *pk, uint8_t *sk, const uint8_t *seed)
{
    return vg_ed25519_keypair_from_seed(pk, sk, seed);
}

/* Pure Ed25519 has no context and no randomness (the caller checked that
 * no context string was set). */
static int vgp_ed25519_sign(uint8_t *sig, const uint8_t *msg, size_t msg_len,
                            const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                            const uint8_t rnd[32])
{
    (void)ctx;
    (void)ctx_len;
    (void)rnd;
    return vg_ed25519_sign(sig, msg, msg_len, sk);
}

static int vgp_ed25519_verify(const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                              size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                              const uint8_t *pk)
{
    (void)ctx;
    (void)ctx_len;
    if (sig_len != VG_ED25519_SIGBYTES)
        return VG_ERR_VERIFY;
    return vg_ed25519_verify(sig, msg, msg_len, pk);
}

/* AlgorithmIdentifier ::= SEQUENCE { OID } (parameters absent: RFC 9881
 * for id-ml-dsa-44/65/87 = 2.16.840.1.101.3.4.3.17/18/19, RFC 8410 for
 * id-Ed25519 = 1.3.101.112). */
static const uint8_t vgp_aid_mldsa44[] = {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48,
                                          0x01, 0x65, 0x03, 0x04, 0x03, 0x11};
static const uint8_t vgp_aid_mldsa65[] = {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48,
                                          0x01, 0x65, 0x03, 0x04, 0x03, 0x12};
static const uint8_t vgp_aid_mldsa87[] = {0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48,
                                          0x01, 0x65, 0x03, 0x04, 0x03, 0x13};
static const uint8_t vgp_aid_ed25519[] = {0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70};

/* Bits: 8 x the public key length for ML-DSA (as OpenSSL 3.5 reports it),
 * 253 for Ed25519 (as OpenSSL does); security bits: FIPS 204 categories 2,
 * 3, 5 -> 128, 192, 256; Ed25519 128. */
static const struct vgp_sig_alg vgp_mldsa44 = {
    "ML-DSA-44", VG_MLDSA44_PUBLICKEYBYTES, VG_MLDSA44_SECRETKEYBYTES,
    VG_MLDSA44_SECRETKEYBYTES, VG_MLDSA44_SIGBYTES, 8 * VG_MLDSA44_PUBLICKEYBYTES, 128, 0,
    vgp_aid_mldsa44, sizeof(vgp_aid_mldsa44), vg_mldsa44_keypair_derand, vgp_mldsa44_sign,
    vg_mldsa44_verify, vg_mldsa44_mu_init, vg_mldsa44_sign_mu, vg_mldsa44_verify_mu};
static const struct vgp_sig_alg vgp_mldsa65 = {
    "ML-DSA-65", VG_MLDSA65_PUBLICKEYBYTES, VG_MLDSA65_SECRETKEYBYTES,
    VG_MLDSA65_SECRETKEYBYTES, VG_MLDSA65_SIGBYTES, 8 * VG_MLDSA65_PUBLICKEYBYTES, 192, 0,
    vgp_aid_mldsa65, sizeof(vgp_aid_mldsa65), vg_mldsa65_keypair_derand, vgp_mldsa65_sign,
    vg_mldsa65_verify, vg_mldsa65_mu_init, vg_mldsa65_sign_mu, vg_mldsa65_verify_mu};
static const struct vgp_sig_alg vgp_mldsa87 = {
    "ML-DSA-87", VG_MLDSA87_PUBLICKEYBYTES, VG_MLDSA87_SECRETKEYBYTES,
    VG_MLDSA87_SECRETKEYBYTES, VG_MLDSA87_SIGBYTES, 8 * VG_MLDSA87_PUBLICKEYBYTES, 256, 0,
    vgp_aid_mldsa87, sizeof(vgp_aid_mldsa87), vg_mldsa87_keypair_derand, vgp_mldsa87_sign,
    vg_mldsa87_verify, vg_mldsa87_mu_init, vg_mldsa87_sign_mu, vg_mldsa87_verify_mu};
static const struct vgp_sig_alg vgp_ed25519 = {
    "ED25519", VG_ED25519_PUBLICKEYBYTES, VG_ED25519_SECRETKEYBYTES, VG_ED25519_SEEDBYTES,
    VG_ED25519_SIGBYTES, 253, 128, 1, vgp_aid_ed25519, sizeof(vgp_aid_ed25519),
    vgp_ed25519_keypair, vgp_ed25519_sign, vgp_ed25519_verify, NULL, NULL, NULL};

/* ---- keys ---------------------------------------------------------------- */

struct vgp_sig_key {
    const struct vgp_sig_alg *alg;
    int has_pub, has_priv, has_seed;
    uint8_t pk[VGP_SIG_MAX_PK];
    /* OPENSSL_secure_zalloc'd when has_priv: alg->sk_len bytes of secret
     * key, then the 32-byte seed (valid when has_seed; always for Ed25519,
     * whose "priv" is the seed). */
    uint8_t *sk;
};

#define VGP_SIG_SEED_OF(key) ((key)->sk + (key)->alg->sk_len)
#define VGP_SIG_SK_ALLOC(alg) ((alg)->sk_len + VGP_SIG_SEED)

static void *vgp_sig_key_new(const struct vgp_sig_alg *alg)
{
    struct vgp_sig_key *key = OPENSSL_zalloc(sizeof(*key));

    if (key != NULL)
        key->alg = alg;
    return key;
}

static void vgp_sig_key_drop_priv(struct vgp_sig_key *key)
{
    if (key->sk != NULL)
        OPENSSL_secure_clear_free(key->sk, VGP_SIG_SK_ALLOC(key->alg));
    key->sk = NULL;
    key->has_priv = key->has_seed = 0;
}

static void vgp_sig_key_free(void *vkey)
{
    struct vgp_sig_key *key = vkey;

    if (key == NULL)
        return;
    vgp_sig_key_drop_priv(key);
    OPENSSL_free(key);
}

static int vgp_sig_key_alloc_priv(struct vgp_sig_key *key)
{
    if (key->sk == NULL)
        key->sk = OPENSSL_secure_zalloc(VGP_SIG_SK_ALLOC(key->alg));
    return key->sk != NULL;
}

static int vgp_sig_key_from_seed(struct vgp_sig_key *key, const uint8_t seed[VGP_SIG_SEED])
{
    if (!vgp_sig_key_alloc_priv(key))
        return 0;
    memcpy(VGP_SIG_SEED_OF(key), seed, VGP_SIG_SEED);
    if (key->alg->keypair_derand(key->pk, key->sk, VGP_SIG_SEED_OF(key)) != VG_OK) {
        vgp_sig_key_drop_priv(key);
        key->has_pub = 0;
        return 0;
    }
    key->has_pub = key->has_priv = key->has_seed = 1;
    return 1;
}

/* An expanded ML-DSA sk given with its pk: FIPS 204 7.2 skEncode starts
 * with rho (= pk's first 32 bytes), K, and tr = H(pk, 64); both are
 * checked. (Without a pk nothing ties the sk to one: the pk cannot be
 * recomputed through the library's API, so such a key can sign only.) */
static int vgp_mldsa_sk_matches_pk(const struct vgp_sig_alg *alg, const uint8_t *sk,
                                   const uint8_t *pk)
{
    uint8_t tr[64];

    if (vg_shake256(tr, sizeof(tr), pk, alg->pk_len) != VG_OK)
        return 0;
    return memcmp(sk, pk, 32) == 0 && memcmp(sk + 64, tr, sizeof(tr)) == 0;
}

static int vgp_sig_key_set(struct vgp_sig_key *key, const OSSL_PARAM params[], int selection)
{
    const struct vgp_sig_alg *alg = key->alg;
    const OSSL_PARAM *p_pub = NULL, *p_priv = NULL, *p_seed = NULL;
    const void *pub = NULL, *priv = NULL, *seed = NULL;
    size_t pub_len = 0, priv_len = 0, seed_len = 0;
    int ok = 0;

    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        p_pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
        p_priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
        if (!alg->is_ed25519)
            p_seed = OSSL_PARAM_locate_const(params, VGP_PARAM_SEED);
    }
    if (p_pub != NULL && (!OSSL_PARAM_get_octet_string_ptr(p_pub, &pub, &pub_len) ||
                          pub_len != alg->pk_len))
        goto out;
    if (p_priv != NULL && (!OSSL_PARAM_get_octet_string_ptr(p_priv, &priv, &priv_len) ||
                           priv_len != alg->priv_len))
        goto out;
    if (p_seed != NULL && (!OSSL_PARAM_get_octet_string_ptr(p_seed, &seed, &seed_len) ||
                           seed_len != VGP_SIG_SEED))
        goto out;
    /* Ed25519's "priv" is its seed. */
    if (alg->is_ed25519 && priv != NULL) {
        seed = priv;
        priv = NULL;
    }
    if (pub == NULL && priv == NULL && seed == NULL)
        goto out;

    vgp_sig_key_drop_priv(key);
    key->has_pub = 0;
    if (seed != NULL) {
        if (!vgp_sig_key_from_seed(key, seed))
            goto out;
        /* An expanded key given with the seed must be the seed's. */
        if (priv != NULL && CRYPTO_memcmp(priv, key->sk, alg->sk_len) != 0)
            goto out;
    } else if (priv != NULL) {
        if (pub != NULL && !vgp_mldsa_sk_matches_pk(alg, priv, pub))
            goto out;
        if (!vgp_sig_key_alloc_priv(key))
            goto out;
        memcpy(key->sk, priv, alg->sk_len);
        key->has_priv = 1;
        if (pub != NULL) {
            memcpy(key->pk, pub, alg->pk_len);
            key->has_pub = 1;
        }
    } else {
        /* Public keys are decoded and checked when a signature is verified
         * (FIPS 204 pkDecode accepts any bytes; Ed25519 rules in
         * docs/ed25519-verdicts.md). */
        memcpy(key->pk, pub, alg->pk_len);
        key->has_pub = 1;
    }
    if (pub != NULL && key->has_seed && memcmp(pub, key->pk, alg->pk_len) != 0)
        goto out;
    ok = 1;
out:
    if (!ok) {
        vgp_sig_key_drop_priv(key);
        key->has_pub = 0;
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
    }
    return ok;
}

static int vgp_sig_key_has(const void *vkey, int selection)
{
    const struct vgp_sig_key *key = vkey;

    if (key == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && !key->has_pub)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !key->has_priv)
        return 0;
    return 1;
}

static int vgp_sig_key_match(const void *va, const void *vb, int selection)
{
    const struct vgp_sig_key *a = va, *b = vb;

    if (a->alg != b->alg)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1;
    if (a->has_pub && b->has_pub)
        return memcmp(a->pk, b->pk, a->alg->pk_len) == 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && a->has_priv && b->has_priv)
        return CRYPTO_memcmp(a->sk, b->sk, a->alg->sk_len) == 0;
    return 0;
}

static int vgp_sig_key_import(void *vkey, int selection, const OSSL_PARAM params[])
{
    struct vgp_sig_key *key = vkey;

    if (key == NULL || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return key != NULL;
    return vgp_sig_key_set(key, params, selection);
}

static const OSSL_PARAM vgp_sig_key_types[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_octet_string(VGP_PARAM_SEED, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_sig_key_imexport_types(int selection)
{
    return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0 ? vgp_sig_key_types : NULL;
}

/* The "priv" parameter: the expanded sk, or Ed25519's seed. */
static const uint8_t *vgp_sig_priv_param(const struct vgp_sig_key *key)
{
    return key->alg->is_ed25519 ? VGP_SIG_SEED_OF(key) : key->sk;
}

static int vgp_sig_key_export(void *vkey, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    struct vgp_sig_key *key = vkey;
    const struct vgp_sig_alg *alg;
    OSSL_PARAM params[4];
    int n = 0;

    if (key == NULL)
        return 0;
    alg = key->alg;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && key->has_pub)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, key->pk,
                                                        alg->pk_len);
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && key->has_priv) {
        params[n++] = OSSL_PARAM_construct_octet_string(
            OSSL_PKEY_PARAM_PRIV_KEY, (void *)vgp_sig_priv_param(key), alg->priv_len);
        if (!alg->is_ed25519 && key->has_seed)
            params[n++] = OSSL_PARAM_construct_octet_string(VGP_PARAM_SEED,
                                                            VGP_SIG_SEED_OF(key), VGP_SIG_SEED);
    }
    params[n] = OSSL_PARAM_construct_end();
    return cb(params, cbarg);
}

static int vgp_sig_key_get_params(void *vkey, OSSL_PARAM params[])
{
    struct vgp_sig_key *key = vkey;
    const struct vgp_sig_alg *alg = key->alg;
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS);
    if (p != NULL && !OSSL_PARAM_set_int(p, alg->bits))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS);
    if (p != NULL && !OSSL_PARAM_set_int(p, alg->security_bits))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE);
    if (p != NULL && !OSSL_PARAM_set_int(p, (int)alg->sig_len))
        return 0;
    /* No digest: the message is signed as it is ("" = none; EVP then
     * passes no digest name, and the openssl applications none either). */
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MANDATORY_DIGEST);
    if (p != NULL && !OSSL_PARAM_set_utf8_string(p, ""))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY);
    if (p != NULL && (!key->has_pub || !OSSL_PARAM_set_octet_string(p, key->pk, alg->pk_len)))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY);
    if (p != NULL &&
        (!key->has_priv || !OSSL_PARAM_set_octet_string(p, vgp_sig_priv_param(key),
                                                         alg->priv_len)))
        return 0;
    p = OSSL_PARAM_locate(params, VGP_PARAM_SEED);
    if (p != NULL && !alg->is_ed25519 &&
        (!key->has_seed || !OSSL_PARAM_set_octet_string(p, VGP_SIG_SEED_OF(key), VGP_SIG_SEED)))
        return 0;
    return 1;
}

static const OSSL_PARAM vgp_sig_key_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_MANDATORY_DIGEST, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_octet_string(VGP_PARAM_SEED, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_sig_key_gettable_params(void *provctx)
{
    (void)provctx;
    return vgp_sig_key_gettable;
}

static void *vgp_sig_key_dup(const void *vfrom, int selection)
{
    const struct vgp_sig_key *from = vfrom;
    struct vgp_sig_key *key = vgp_sig_key_new(from->alg);

    if (key == NULL)
        return NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && from->has_pub) {
        memcpy(key->pk, from->pk, from->alg->pk_len);
        key->has_pub = 1;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && from->has_priv) {
        if (!vgp_sig_key_alloc_priv(key)) {
            vgp_sig_key_free(key);
            return NULL;
        }
        memcpy(key->sk, from->sk, VGP_SIG_SK_ALLOC(from->alg));
        key->has_priv = 1;
        key->has_seed = from->has_seed;
    }
    return key;
}

/* EVP_PKEY_check and friends (`openssl pkey -check`): a public key must be
 * present (FIPS 204 pkDecode and RFC 8032 decoding accept or refuse a key
 * only when a signature is verified); an ML-DSA secret key with a public
 * key must carry its rho and tr; a key pair must pass a pairwise test: a
 * deterministic signature of a fixed message verifies (which finds an
 * expanded sk whose t0 is wrong enough to spoil its signatures). */
static int vgp_sig_key_validate(const void *vkey, int selection, int checktype)
{
    const struct vgp_sig_key *key = vkey;
    const struct vgp_sig_alg *alg;
    static const uint8_t msg[] = "vgcrypto pairwise test";
    static const uint8_t zero_rnd[32] = {0};
    uint8_t *sig;
    int ok = 1;

    (void)checktype;
    if (key == NULL)
        return 0;
    alg = key->alg;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        ok = ok && key->has_pub;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ok = ok && key->has_priv &&
             (alg->is_ed25519 || !key->has_pub || vgp_mldsa_sk_matches_pk(alg, key->sk, key->pk));
    if (ok && (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == OSSL_KEYMGMT_SELECT_KEYPAIR) {
        sig = OPENSSL_malloc(alg->sig_len);
        ok = sig != NULL &&
             alg->sign(sig, msg, sizeof(msg), NULL, 0, key->sk, zero_rnd) == VG_OK &&
             alg->verify(sig, alg->sig_len, msg, sizeof(msg), NULL, 0, key->pk) == VG_OK;
        OPENSSL_free(sig);
    }
    return ok;
}

/* A key made by this provider's decoder (codec.c); see kem.c. */
static void *vgp_sig_key_load(const struct vgp_sig_alg *alg, const void *reference,
                              size_t reference_sz)
{
    struct vgp_sig_key *key;

    if (reference == NULL || reference_sz != sizeof(key))
        return NULL;
    key = *(struct vgp_sig_key *const *)reference;
    if (key == NULL || key->alg != alg)
        return NULL;
    *(struct vgp_sig_key **)reference = NULL;
    return key;
}

/* ---- key generation ------------------------------------------------------ */

struct vgp_sig_gen {
    const struct vgp_sig_alg *alg;
    int selection;
    int has_seed;
    uint8_t seed[VGP_SIG_SEED];
};

static int vgp_sig_gen_set_params(void *vgen, const OSSL_PARAM params[])
{
    struct vgp_sig_gen *gen = vgen;
    const OSSL_PARAM *p;
    const void *seed;
    size_t seed_len;

    if (gen == NULL)
        return 0;
    p = OSSL_PARAM_locate_const(params, VGP_PARAM_SEED);
    if (p != NULL) {
        if (!OSSL_PARAM_get_octet_string_ptr(p, &seed, &seed_len) || seed_len != VGP_SIG_SEED)
            return 0;
        memcpy(gen->seed, seed, seed_len);
        gen->has_seed = 1;
    }
    return 1;
}

static void *vgp_sig_gen_init(const struct vgp_sig_alg *alg, int selection,
                              const OSSL_PARAM params[])
{
    struct vgp_sig_gen *gen = OPENSSL_zalloc(sizeof(*gen));

    if (gen == NULL)
        return NULL;
    gen->alg = alg;
    gen->selection = selection;
    if (!vgp_sig_gen_set_params(gen, params)) {
        OPENSSL_free(gen);
        return NULL;
    }
    return gen;
}

static const OSSL_PARAM vgp_sig_gen_settable[] = {
    OSSL_PARAM_octet_string(VGP_PARAM_SEED, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_sig_gen_settable_params(void *vgen, void *provctx)
{
    (void)vgen;
    (void)provctx;
    return vgp_sig_gen_settable;
}

/* Key generation is keypair_derand of a seed, given or drawn from the
 * operating system (vgp_random, as the library's own keypair functions
 * draw theirs), so that the key keeps its seed for the PKCS#8 seed form. */
static void *vgp_sig_gen(void *vgen, OSSL_CALLBACK *cb, void *cbarg)
{
    struct vgp_sig_gen *gen = vgen;
    struct vgp_sig_key *key;
    uint8_t seed[VGP_SIG_SEED];
    int ok;

    (void)cb;
    (void)cbarg;
    key = vgp_sig_key_new(gen->alg);
    if (key == NULL || (gen->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return key;
    if (gen->has_seed)
        memcpy(seed, gen->seed, sizeof(seed));
    else if (vgp_random(seed, sizeof(seed)) != VG_OK) {
        vgp_sig_key_free(key);
        return NULL;
    }
    ok = vgp_sig_key_from_seed(key, seed);
    OPENSSL_cleanse(seed, sizeof(seed));
    if (!ok) {
        vgp_sig_key_free(key);
        return NULL;
    }
    return key;
}

static void vgp_sig_gen_cleanup(void *vgen)
{
    if (vgen != NULL)
        OPENSSL_clear_free(vgen, sizeof(struct vgp_sig_gen));
}

static const char *vgp_sig_query_operation_name(int operation_id)
{
    (void)operation_id;
    return NULL; /* the key type's own name */
}

/* ---- signatures ---------------------------------------------------------- */

struct vgp_sig_ctx {
    const struct vgp_sig_alg *alg;
    struct vgp_sig_key *key; /* borrowed from the EVP_PKEY */
    int deterministic;
    int streaming; /* mu has absorbed tr and the context prefix */
    size_t ctx_len;
    uint8_t ctx_str[VG_MLDSA_CTXMAXBYTES];
    vg_mldsa_mu_state mu;
};

static void *vgp_sig_newctx(const struct vgp_sig_alg *alg)
{
    struct vgp_sig_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

    if (ctx != NULL)
        ctx->alg = alg;
    return ctx;
}

static void vgp_sig_freectx(void *vctx)
{
    OPENSSL_clear_free(vctx, sizeof(struct vgp_sig_ctx));
}

static void *vgp_sig_dupctx(void *vctx)
{
    struct vgp_sig_ctx *ctx = vctx, *dup = OPENSSL_malloc(sizeof(*dup));

    if (dup != NULL)
        *dup = *ctx;
    return dup;
}

static int vgp_sig_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int vgp_sig_init(void *vctx, void *vkey, const OSSL_PARAM params[], int need_priv)
{
    struct vgp_sig_ctx *ctx = vctx;
    struct vgp_sig_key *key = vkey;

    if (ctx == NULL)
        return 0;
    /* A NULL key re-initialises with the key of the previous init. */
    if (key == NULL)
        key = ctx->key;
    if (key == NULL || key->alg != ctx->alg ||
        (need_priv ? !key->has_priv : !key->has_pub)) {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0;
    }
    ctx->key = key;
    ctx->deterministic = 0;
    ctx->ctx_len = 0;
    ctx->streaming = 0;
    return vgp_sig_set_ctx_params(ctx, params);
}

static int vgp_sig_sign_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    return vgp_sig_init(vctx, vkey, params, 1);
}

static int vgp_sig_verify_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    return vgp_sig_init(vctx, vkey, params, 0);
}

/* No digest: a digest name other than none is refused (as for OpenSSL's
 * Ed25519). */
static int vgp_sig_no_digest(const char *mdname)
{
    if (mdname != NULL && mdname[0] != '\0') {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0;
    }
    return 1;
}

static int vgp_sig_digest_sign_init(void *vctx, const char *mdname, void *vkey,
                                    const OSSL_PARAM params[])
{
    return vgp_sig_no_digest(mdname) && vgp_sig_init(vctx, vkey, params, 1);
}

static int vgp_sig_digest_verify_init(void *vctx, const char *mdname, void *vkey,
                                      const OSSL_PARAM params[])
{
    return vgp_sig_no_digest(mdname) && vgp_sig_init(vctx, vkey, params, 0);
}

/* sig NULL asks for the size. */
static int vgp_sig_sign(void *vctx, unsigned char *sig, size_t *siglen, size_t sigsize,
                        const unsigned char *tbs, size_t tbslen)
{
    struct vgp_sig_ctx *ctx = vctx;
    const struct vgp_sig_alg *alg = ctx->alg;
    static const uint8_t zero_rnd[32] = {0};

    if (ctx->key == NULL || !ctx->key->has_priv || siglen == NULL)
        return 0;
    if (sig == NULL) {
        *siglen = alg->sig_len;
        return 1;
    }
    if (sigsize < alg->sig_len || (tbs == NULL && tbslen != 0)) {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0;
    }
    if (alg->sign(sig, tbs, tbslen, ctx->ctx_str, ctx->ctx_len, ctx->key->sk,
                  ctx->deterministic ? zero_rnd : NULL) != VG_OK) {
        ERR_raise(ERR_LIB_PROV, ERR_R_INTERNAL_ERROR);
        return 0;
    }
    *siglen = alg->sig_len;
    return 1;
}

static int vgp_sig_verify(void *vctx, const unsigned char *sig, size_t siglen,
                          const unsigned char *tbs, size_t tbslen)
{
    struct vgp_sig_ctx *ctx = vctx;

    if (ctx->key == NULL || !ctx->key->has_pub || sig == NULL || (tbs == NULL && tbslen != 0))
        return 0;
    return ctx->alg->verify(sig, siglen, tbs, tbslen, ctx->ctx_str, ctx->ctx_len,
                            ctx->key->pk) == VG_OK;
}

/* Streaming: the first update starts mu with the public key (tr) and the
 * context string set by then; a context string set later is refused. The
 * key needs its public key (one from an expanded sk alone has none). */
static int vgp_sig_digest_update(void *vctx, const unsigned char *data, size_t datalen)
{
    struct vgp_sig_ctx *ctx = vctx;

    if (ctx == NULL || ctx->alg->mu_init == NULL || ctx->key == NULL || !ctx->key->has_pub)
        return 0;
    if (!ctx->streaming) {
        if (ctx->alg->mu_init(&ctx->mu, ctx->key->pk, ctx->ctx_str, ctx->ctx_len) != VG_OK)
            return 0;
        ctx->streaming = 1;
    }
    return vg_mldsa_mu_update(&ctx->mu, data, datalen) == VG_OK;
}

/* mu of everything absorbed (an empty message when nothing was). */
static int vgp_sig_mu_final(struct vgp_sig_ctx *ctx, uint8_t mu[64])
{
    int ok;

    if (!ctx->streaming && !vgp_sig_digest_update(ctx, NULL, 0))
        return 0;
    ok = vg_mldsa_mu_final(&ctx->mu, mu) == VG_OK;
    ctx->streaming = 0;
    return ok;
}

static int vgp_sig_digest_sign_final(void *vctx, unsigned char *sig, size_t *siglen,
                                     size_t sigsize)
{
    struct vgp_sig_ctx *ctx = vctx;
    uint8_t mu[64], rnd[32] = {0};
    int ok = 0;

    if (ctx == NULL || ctx->key == NULL || !ctx->key->has_priv || siglen == NULL)
        return 0;
    if (sig == NULL) {
        *siglen = ctx->alg->sig_len;
        return 1;
    }
    if (sigsize < ctx->alg->sig_len)
        return 0;
    /* FIPS 204 3.4: rnd fresh (hedged) or all zero (deterministic). */
    if (!vgp_sig_mu_final(ctx, mu) || (!ctx->deterministic && vgp_random(rnd, 32) != VG_OK))
        goto out;
    ok = ctx->alg->sign_mu(sig, mu, ctx->key->sk, rnd) == VG_OK;
    if (ok)
        *siglen = ctx->alg->sig_len;
out:
    OPENSSL_cleanse(rnd, sizeof(rnd));
    OPENSSL_cleanse(mu, sizeof(mu));
    return ok;
}

static int vgp_sig_digest_verify_final(void *vctx, const unsigned char *sig, size_t siglen)
{
    struct vgp_sig_ctx *ctx = vctx;
    uint8_t mu[64];

    if (ctx == NULL || ctx->key == NULL || !ctx->key->has_pub || sig == NULL ||
        !vgp_sig_mu_final(ctx, mu))
        return 0;
    return ctx->alg->verify_mu(sig, siglen, mu, ctx->key->pk) == VG_OK;
}

static int vgp_sig_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
    struct vgp_sig_ctx *ctx = vctx;
    OSSL_PARAM *p;

    if (ctx == NULL)
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_SIGNATURE_PARAM_ALGORITHM_ID);
    if (p != NULL && !OSSL_PARAM_set_octet_string(p, ctx->alg->aid, ctx->alg->aid_len))
        return 0;
    return 1;
}

static const OSSL_PARAM vgp_sig_gettable_ctx[] = {
    OSSL_PARAM_octet_string(OSSL_SIGNATURE_PARAM_ALGORITHM_ID, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_sig_gettable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return vgp_sig_gettable_ctx;
}

static int vgp_sig_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    struct vgp_sig_ctx *ctx = vctx;
    const OSSL_PARAM *p;

    if (ctx == NULL)
        return 0;
    if (params == NULL)
        return 1;
    p = OSSL_PARAM_locate_const(params, VGP_PARAM_CONTEXT_STRING);
    if (p != NULL) {
        void *buf = ctx->ctx_str;
        size_t len = 0;

        if (ctx->streaming) /* mu has already absorbed the context */
            return 0;

        /* FIPS 204: at most 255 bytes. Pure Ed25519 has no context (that
         * would be Ed25519ctx, RFC 8032 5.1): only an empty one is taken. */
        /* An empty string may come with a NULL buffer. */
        if (p->data_type != OSSL_PARAM_OCTET_STRING ||
            (p->data_size != 0 &&
             !OSSL_PARAM_get_octet_string(p, &buf, sizeof(ctx->ctx_str), &len)) ||
            (ctx->alg->is_ed25519 && len != 0)) {
            ctx->ctx_len = 0;
            ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
            return 0;
        }
        ctx->ctx_len = len;
    }
    p = OSSL_PARAM_locate_const(params, VGP_PARAM_DETERMINISTIC);
    if (p != NULL && !ctx->alg->is_ed25519 && !OSSL_PARAM_get_int(p, &ctx->deterministic))
        return 0;
    return 1;
}

static const OSSL_PARAM vgp_mldsa_settable_ctx[] = {
    OSSL_PARAM_octet_string(VGP_PARAM_CONTEXT_STRING, NULL, 0),
    OSSL_PARAM_int(VGP_PARAM_DETERMINISTIC, NULL),
    OSSL_PARAM_END};
static const OSSL_PARAM vgp_ed25519_settable_ctx[] = {OSSL_PARAM_END};

static const OSSL_PARAM *vgp_sig_settable_ctx_params(void *vctx, void *provctx)
{
    struct vgp_sig_ctx *ctx = vctx;

    (void)provctx;
    if (ctx != NULL && ctx->alg->is_ed25519)
        return vgp_ed25519_settable_ctx;
    return vgp_mldsa_settable_ctx;
}

/* ---- dispatch tables ----------------------------------------------------- */

#define VGP_SIG_STREAMING                                                                      \
    {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_UPDATE, (void (*)(void))vgp_sig_digest_update},           \
        {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_FINAL, (void (*)(void))vgp_sig_digest_sign_final},    \
        {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_UPDATE, (void (*)(void))vgp_sig_digest_update},     \
        {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_FINAL, (void (*)(void))vgp_sig_digest_verify_final},
#define VGP_SIG_ONESHOT

#define VGP_SIG_DEFINE(id, streaming)                                                          \
    static void *vgp_##id##_key_new(void *provctx)                                             \
    {                                                                                          \
        (void)provctx;                                                                         \
        return vgp_sig_key_new(&vgp_##id);                                                     \
    }                                                                                          \
    static void *vgp_##id##_gen_init(void *provctx, int selection, const OSSL_PARAM params[])  \
    {                                                                                          \
        (void)provctx;                                                                         \
        return vgp_sig_gen_init(&vgp_##id, selection, params);                                 \
    }                                                                                          \
    static void *vgp_##id##_key_load(const void *reference, size_t reference_sz)               \
    {                                                                                          \
        return vgp_sig_key_load(&vgp_##id, reference, reference_sz);                           \
    }                                                                                          \
    static void *vgp_##id##_sig_newctx(void *provctx, const char *propq)                       \
    {                                                                                          \
        (void)provctx;                                                                         \
        (void)propq;                                                                           \
        return vgp_sig_newctx(&vgp_##id);                                                      \
    }                                                                                          \
    const OSSL_DISPATCH vgp_keymgmt_##id[] = {                                                 \
        {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))vgp_##id##_key_new},                           \
        {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))vgp_sig_key_free},                            \
        {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))vgp_sig_key_dup},                              \
        {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))vgp_sig_key_has},                              \
        {OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))vgp_##id##_key_load},                         \
        {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))vgp_sig_key_match},                          \
        {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))vgp_sig_key_validate},                    \
        {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))vgp_sig_key_import},                        \
        {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))vgp_sig_key_imexport_types},          \
        {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))vgp_sig_key_export},                        \
        {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))vgp_sig_key_imexport_types},          \
        {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))vgp_sig_key_get_params},                \
        {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))vgp_sig_key_gettable_params},      \
        {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))vgp_##id##_gen_init},                     \
        {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))vgp_sig_gen_set_params},            \
        {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))vgp_sig_gen_settable_params},  \
        {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))vgp_sig_gen},                                  \
        {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))vgp_sig_gen_cleanup},                  \
        {OSSL_FUNC_KEYMGMT_QUERY_OPERATION_NAME, (void (*)(void))vgp_sig_query_operation_name}, \
        {0, NULL}};                                                                            \
    const OSSL_DISPATCH vgp_signature_##id[] = {                                               \
        {OSSL_FUNC_SIGNATURE_NEWCTX, (void (*)(void))vgp_##id##_sig_newctx},                   \
        {OSSL_FUNC_SIGNATURE_FREECTX, (void (*)(void))vgp_sig_freectx},                        \
        {OSSL_FUNC_SIGNATURE_DUPCTX, (void (*)(void))vgp_sig_dupctx},                          \
        {OSSL_FUNC_SIGNATURE_SIGN_INIT, (void (*)(void))vgp_sig_sign_init},                    \
        {OSSL_FUNC_SIGNATURE_SIGN, (void (*)(void))vgp_sig_sign},                              \
        {OSSL_FUNC_SIGNATURE_VERIFY_INIT, (void (*)(void))vgp_sig_verify_init},                \
        {OSSL_FUNC_SIGNATURE_VERIFY, (void (*)(void))vgp_sig_verify},                          \
        {OSSL_FUNC_SIGNATURE_DIGEST_SIGN_INIT, (void (*)(void))vgp_sig_digest_sign_init},      \
        {OSSL_FUNC_SIGNATURE_DIGEST_SIGN, (void (*)(void))vgp_sig_sign},                       \
        {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY_INIT, (void (*)(void))vgp_sig_digest_verify_init},  \
        {OSSL_FUNC_SIGNATURE_DIGEST_VERIFY, (void (*)(void))vgp_sig_verify},                   \
        {OSSL_FUNC_SIGNATURE_GET_CTX_PARAMS, (void (*)(void))vgp_sig_get_ctx_params},          \
        {OSSL_FUNC_SIGNATURE_GETTABLE_CTX_PARAMS, (void (*)(void))vgp_sig_gettable_ctx_params}, \
        {OSSL_FUNC_SIGNATURE_SET_CTX_PARAMS, (void (*)(void))vgp_sig_set_ctx_params},          \
        {OSSL_FUNC_SIGNATURE_SETTABLE_CTX_PARAMS, (void (*)(void))vgp_sig_settable_ctx_params}, \
        streaming{0, NULL}};

VGP_SIG_DEFINE(mldsa44, VGP_SIG_STREAMING)
VGP_SIG_DEFINE(mldsa65, VGP_SIG_STREAMING)
VGP_SIG_DEFINE(mldsa87, VGP_SIG_STREAMING)
VGP_SIG_DEFINE(ed25519, VGP_SIG_ONESHOT)
