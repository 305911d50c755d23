/*
 * Key management (provider-keymgmt(7)) and KEM (provider-kem(7)) for
 * ML-KEM-512/768/1024 (FIPS 203), X25519MLKEM768, SecP256r1MLKEM768 and
 * SecP384r1MLKEM1024 (draft-ietf-tls-ecdhe-mlkem) and X-Wing
 * (draft-connolly-cfrg-xwing-kem), over the public vgcrypto API.
 *
 * Key material as OpenSSL exchanges it:
 *   "pub"             the public key / TLS key share: FIPS 203 ek, or for
 *                     the hybrids ek || X25519 public key (X25519MLKEM768,
 *                     X-Wing), SEC 1 point || ek (the NIST hybrids);
 *   "encoded-pub-key" the same bytes (what libssl reads for the client's
 *                     share and writes for the peer's share);
 *   "priv"            the library's secret key: FIPS 203 dk, dk || X25519
 *                     secret for X25519MLKEM768, scalar || dk for the NIST
 *                     hybrids, the 32-byte seed for X-Wing;
 *   "seed"            on import and key generation, the key-generation seed
 *                     (ML-KEM d || z; X25519MLKEM768 d || z || X25519
 *                     secret; the NIST hybrids scalar || d || z; X-Wing the
 *                     seed), as OpenSSL 3.5 accepts it; kept by keys made
 *                     from one and exported with them.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "vgcrypto.h"
#include "vgp.h"

#define VGP_MAX_PK 1665  /* SecP384r1MLKEM1024 */
#define VGP_MAX_SK 3216
#define VGP_MAX_SEED 112
#define VGP_MAX_CT 1665 /* SecP384r1MLKEM1024 */
#define VGP_MAX_SS 80
#define VGP_PARAM_SEED "seed"

typedef int (*vgp_keypair_derand_fn)(uint8_t *pk, uint8_t *sk, const uint8_t *seed);
typedef int (*vgp_encaps_fn)(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
typedef int (*vgp_decaps_fn)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);
typedef int (*vgp_check_fn)(const uint8_t *key);
typedef int (*vgp_pub_from_priv_fn)(uint8_t *pk, const uint8_t *sk);

struct vgp_alg {
    const char *name;      /* the primary name, as OpenSSL 3.5 spells it */
    size_t pk_len, sk_len, ct_len, ss_len, seed_len;
    int bits, security_bits;
    vgp_keypair_derand_fn keypair_derand;
    vgp_encaps_fn encaps;
    vgp_decaps_fn decaps;
    /* Checks of an imported public key: FIPS 203 7.2 on the ML-KEM ek, and
     * for the NIST hybrids SEC 1 validation of the point. */
    vgp_check_fn check_pk;
    /* Checks of an imported secret key: FIPS 203 7.3 on the dk (NULL for
     * X-Wing, whose sk is a seed), the scalar's range for the NIST hybrids. */
    vgp_check_fn check_sk;
    /* The public key that belongs to a (checked) secret key. */
    vgp_pub_from_priv_fn pub_from_priv;
};

/* FIPS 203 7.1 step 3: dk = dk_PKE (384 k bytes) || ek || H(ek) || z, so
 * the ek starts at byte 384 k of the dk. */
#define VGP_EK_IN_DK(k) (384u * (k))

static int vgp_mlkem512_pub(uint8_t *pk, const uint8_t *sk)
{
    memcpy(pk, sk + VGP_EK_IN_DK(2), VG_MLKEM512_PUBLICKEYBYTES);
    return 1;
}

static int vgp_mlkem768_pub(uint8_t *pk, const uint8_t *sk)
{
    memcpy(pk, sk + VGP_EK_IN_DK(3), VG_MLKEM768_PUBLICKEYBYTES);
    return 1;
}

static int vgp_mlkem1024_pub(uint8_t *pk, const uint8_t *sk)
{
    memcpy(pk, sk + VGP_EK_IN_DK(4), VG_MLKEM1024_PUBLICKEYBYTES);
    return 1;
}

/* X25519MLKEM768: ML-KEM first (pk = ek || X25519 public key, sk = dk ||
 * X25519 secret). */
static int vgp_x25519mlkem768_pub(uint8_t *pk, const uint8_t *sk)
{
    vgp_mlkem768_pub(pk, sk);
    return vg_x25519_public_key(pk + VG_MLKEM768_PUBLICKEYBYTES,
                                sk + VG_MLKEM768_SECRETKEYBYTES) == VG_OK;
}

/* X-Wing: the secret key is the seed; the key pair is recomputed. */
static int vgp_xwing_pub(uint8_t *pk, const uint8_t *sk)
{
    uint8_t tmp[VG_XWING_SECRETKEYBYTES];
    int ok = vg_xwing_keypair_derand(pk, tmp, sk) == VG_OK;

    OPENSSL_cleanse(tmp, sizeof(tmp));
    return ok;
}

static int vgp_xwing_check_pk(const uint8_t *pk)
{
    return vg_mlkem768_check_public_key(pk);
}

/* SecP256r1MLKEM768 and SecP384r1MLKEM1024: the EC part first (pk = SEC 1
 * uncompressed point || ek, sk = big-endian scalar || dk). The point is
 * validated (SEC 1 3.2.2.1: coordinates < p, on the curve) by an ECDH with
 * the scalar 1, the only point check the P-256/P-384 API offers; the
 * scalar's range (1..n-1) by computing its public key. */
static int vgp_p256_point_ok(const uint8_t *point)
{
    uint8_t one[VG_P256_SECRETKEYBYTES] = {0}, x[VG_P256_SHAREDBYTES];

    one[VG_P256_SECRETKEYBYTES - 1] = 1;
    return vg_p256_ecdh(x, one, point, VG_P256_PUBLICKEYBYTES) == VG_OK;
}

static int vgp_p384_point_ok(const uint8_t *point)
{
    uint8_t one[VG_P384_SECRETKEYBYTES] = {0}, x[VG_P384_SHAREDBYTES];

    one[VG_P384_SECRETKEYBYTES - 1] = 1;
    return vg_p384_ecdh(x, one, point, VG_P384_PUBLICKEYBYTES) == VG_OK;
}

static int vgp_p256mlkem768_check_pk(const uint8_t *pk)
{
    if (!vgp_p256_point_ok(pk))
        return VG_ERR_INPUT;
    return vg_mlkem768_check_public_key(pk + VG_P256_PUBLICKEYBYTES);
}

static int vgp_p384mlkem1024_check_pk(const uint8_t *pk)
{
    if (!vgp_p384_point_ok(pk))
        return VG_ERR_INPUT;
    return vg_mlkem1024_check_public_key(pk + VG_P384_PUBLICKEYBYTES);
}

static int vgp_x25519mlkem768_check_sk(const uint8_t *sk)
{
    return vg_mlkem768_check_secret_key(sk);
}

static int vgp_p256mlkem768_check_sk(const uint8_t *sk)
{
    uint8_t pt[VG_P256_PUBLICKEYBYTES];

    if (vg_p256_public_key(pt, sk) != VG_OK)
        return VG_ERR_INPUT;
    return vg_mlkem768_check_secret_key(sk + VG_P256_SECRETKEYBYTES);
}

static int vgp_p384mlkem1024_check_sk(const uint8_t *sk)
{
    uint8_t pt[VG_P384_PUBLICKEYBYTES];

    if (vg_p384_public_key(pt, sk) != VG_OK)
        return VG_ERR_INPUT;
    return vg_mlkem1024_check_secret_key(sk + VG_P384_SECRETKEYBYTES);
}

static int vgp_p256mlkem768_pub(uint8_t *pk, const uint8_t *sk)
{
    if (vg_p256_public_key(pk, sk) != VG_OK)
        return 0;
    return vgp_mlkem768_pub(pk + VG_P256_PUBLICKEYBYTES, sk + VG_P256_SECRETKEYBYTES);
}

static int vgp_p384mlkem1024_pub(uint8_t *pk, const uint8_t *sk)
{
    if (vg_p384_public_key(pk, sk) != VG_OK)
        return 0;
    return vgp_mlkem1024_pub(pk + VG_P384_PUBLICKEYBYTES, sk + VG_P384_SECRETKEYBYTES);
}

/* Bits and security bits: the ML-KEM parameter and the NIST category's
 * classical equivalent (FIPS 203 section 8, categories 1, 3, 5); the
 * hybrids those of their ML-KEM part. */
static const struct vgp_alg vgp_mlkem512 = {
    "ML-KEM-512", VG_MLKEM512_PUBLICKEYBYTES, VG_MLKEM512_SECRETKEYBYTES,
    VG_MLKEM512_CIPHERTEXTBYTES, VG_MLKEM_SHAREDSECRETBYTES, VG_MLKEM_KEYGENSEEDBYTES, 512, 128,
    vg_mlkem512_keypair_derand, vg_mlkem512_encaps, vg_mlkem512_decaps,
    vg_mlkem512_check_public_key, vg_mlkem512_check_secret_key, vgp_mlkem512_pub};
static const struct vgp_alg vgp_mlkem768 = {
    "ML-KEM-768", VG_MLKEM768_PUBLICKEYBYTES, VG_MLKEM768_SECRETKEYBYTES,
    VG_MLKEM768_CIPHERTEXTBYTES, VG_MLKEM_SHAREDSECRETBYTES, VG_MLKEM_KEYGENSEEDBYTES, 768, 192,
    vg_mlkem768_keypair_derand, vg_mlkem768_encaps, vg_mlkem768_decaps,
    vg_mlkem768_check_public_key, vg_mlkem768_check_secret_key, vgp_mlkem768_pub};
static const struct vgp_alg vgp_mlkem1024 = {
    "ML-KEM-1024", VG_MLKEM1024_PUBLICKEYBYTES, VG_MLKEM1024_SECRETKEYBYTES,
    VG_MLKEM1024_CIPHERTEXTBYTES, VG_MLKEM_SHAREDSECRETBYTES, VG_MLKEM_KEYGENSEEDBYTES, 1024, 256,
    vg_mlkem1024_keypair_derand, vg_mlkem1024_encaps, vg_mlkem1024_decaps,
    vg_mlkem1024_check_public_key, vg_mlkem1024_check_secret_key, vgp_mlkem1024_pub};
static const struct vgp_alg vgp_x25519mlkem768 = {
    "X25519MLKEM768", VG_X25519MLKEM768_PUBLICKEYBYTES, VG_X25519MLKEM768_SECRETKEYBYTES,
    VG_X25519MLKEM768_CIPHERTEXTBYTES, VG_X25519MLKEM768_SHAREDSECRETBYTES,
    VG_X25519MLKEM768_SEEDBYTES, 768, 192,
    vg_x25519mlkem768_keypair_derand, vg_x25519mlkem768_encaps, vg_x25519mlkem768_decaps,
    vg_mlkem768_check_public_key, vgp_x25519mlkem768_check_sk, vgp_x25519mlkem768_pub};
static const struct vgp_alg vgp_p256mlkem768 = {
    "SecP256r1MLKEM768", VG_P256MLKEM768_PUBLICKEYBYTES, VG_P256MLKEM768_SECRETKEYBYTES,
    VG_P256MLKEM768_CIPHERTEXTBYTES, VG_P256MLKEM768_SHAREDSECRETBYTES,
    VG_P256MLKEM768_SEEDBYTES, 768, 192,
    vg_p256mlkem768_keypair_derand, vg_p256mlkem768_encaps, vg_p256mlkem768_decaps,
    vgp_p256mlkem768_check_pk, vgp_p256mlkem768_check_sk, vgp_p256mlkem768_pub};
static const struct vgp_alg vgp_p384mlkem1024 = {
    "SecP384r1MLKEM1024", VG_P384MLKEM1024_PUBLICKEYBYTES, VG_P384MLKEM1024_SECRETKEYBYTES,
    VG_P384MLKEM1024_CIPHERTEXTBYTES, VG_P384MLKEM1024_SHAREDSECRETBYTES,
    VG_P384MLKEM1024_SEEDBYTES, 1024, 256,
    vg_p384mlkem1024_keypair_derand, vg_p384mlkem1024_encaps, vg_p384mlkem1024_decaps,
    vgp_p384mlkem1024_check_pk, vgp_p384mlkem1024_check_sk, vgp_p384mlkem1024_pub};
static const struct vgp_alg vgp_xwing = {
    "X-Wing", VG_XWING_PUBLICKEYBYTES, VG_XWING_SECRETKEYBYTES, VG_XWING_CIPHERTEXTBYTES,
    VG_XWING_SHAREDSECRETBYTES, VG_XWING_SEEDBYTES, 768, 192,
    vg_xwing_keypair_derand, vg_xwing_encaps, vg_xwing_decaps, vgp_xwing_check_pk, NULL,
    vgp_xwing_pub};

struct vgp_key {
    const struct vgp_alg *alg;
    int has_pub, has_priv;
    int has_seed; /* the key was made from a seed, kept after the sk */
    uint8_t pk[VGP_MAX_PK];
    /* OPENSSL_secure_zalloc'd, alg->sk_len + alg->seed_len bytes, when
     * has_priv: the secret key, then (has_seed) its key-generation seed,
     * which the PKCS#8 encoder writes (the LAMPS seed form). */
    uint8_t *sk;
};

#define VGP_SEED_OF(key) ((key)->sk + (key)->alg->sk_len)

struct vgp_gen {
    const struct vgp_alg *alg;
    int selection;
    int has_seed;
    uint8_t seed[VGP_MAX_SEED];
};

struct vgp_kem_ctx {
    const struct vgp_alg *alg;
    struct vgp_key *key; /* borrowed from the EVP_PKEY, not owned */
};

/* ---- keys ---------------------------------------------------------------- */

static struct vgp_key *vgp_key_new(const struct vgp_alg *alg)
{
    struct vgp_key *key = OPENSSL_zalloc(sizeof(*key));

    if (key != NULL)
        key->alg = alg;
    return key;
}

static void vgp_key_drop_priv(struct vgp_key *key)
{
    if (key->sk != NULL)
        OPENSSL_secure_clear_free(key->sk, key->alg->sk_len + key->alg->seed_len);
    key->sk = NULL;
    key->has_priv = key->has_seed = 0;
}

static void vgp_key_free(void *vkey)
{
    struct vgp_key *key = vkey;

    if (key == NULL)
        return;
    vgp_key_drop_priv(key);
    OPENSSL_free(key);
}

static int vgp_key_alloc_priv(struct vgp_key *key)
{
    if (key->sk == NULL)
        key->sk = OPENSSL_secure_zalloc(key->alg->sk_len + key->alg->seed_len);
    return key->sk != NULL;
}

/* Fills key->pk and key->sk from a key-generation seed. */
static int vgp_key_from_seed(struct vgp_key *key, const uint8_t *seed)
{
    if (!vgp_key_alloc_priv(key))
        return 0;
    if (key->alg->keypair_derand(key->pk, key->sk, seed) != VG_OK) {
        vgp_key_drop_priv(key);
        key->has_pub = 0;
        return 0;
    }
    memcpy(VGP_SEED_OF(key), seed, key->alg->seed_len);
    key->has_pub = key->has_priv = key->has_seed = 1;
    return 1;
}

static int vgp_key_has(const void *vkey, int selection)
{
    const struct vgp_key *key = vkey;

    if (key == NULL)
        return 0;
    /* No domain parameters: the algorithm fixes everything. */
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && !key->has_pub)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && !key->has_priv)
        return 0;
    return 1;
}

static int vgp_key_match(const void *va, const void *vb, int selection)
{
    const struct vgp_key *a = va, *b = vb;

    if (a->alg != b->alg)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return 1; /* same algorithm: same (implicit) parameters */
    /* The public key determines the key pair; when either side lacks it
     * there is nothing to compare. Public data: plain memcmp. */
    if (!a->has_pub || !b->has_pub)
        return 0;
    return memcmp(a->pk, b->pk, a->alg->pk_len) == 0;
}

/* Sets the key from "pub", "priv" and "seed" (seed first: it determines
 * both halves). A "pub" given with "priv" or "seed" must equal the derived
 * public key. */
static int vgp_key_set(struct vgp_key *key, const OSSL_PARAM params[], int selection)
{
    const struct vgp_alg *alg = key->alg;
    const OSSL_PARAM *p_pub = NULL, *p_priv = NULL, *p_seed = NULL;
    const void *pub = NULL, *priv = NULL, *seed = NULL;
    size_t pub_len = 0, priv_len = 0, seed_len = 0;
    int ok = 0;

    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0) {
        p_pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
        if (p_pub == NULL)
            p_pub = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0) {
        p_priv = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
        p_seed = OSSL_PARAM_locate_const(params, VGP_PARAM_SEED);
    }
    if (p_pub != NULL && (!OSSL_PARAM_get_octet_string_ptr(p_pub, &pub, &pub_len) ||
                          pub_len != alg->pk_len))
        goto out;
    if (p_priv != NULL && (!OSSL_PARAM_get_octet_string_ptr(p_priv, &priv, &priv_len) ||
                           priv_len != alg->sk_len))
        goto out;
    if (p_seed != NULL && (!OSSL_PARAM_get_octet_string_ptr(p_seed, &seed, &seed_len) ||
                           seed_len != alg->seed_len))
        goto out;
    if (pub == NULL && priv == NULL && seed == NULL)
        goto out;

    vgp_key_drop_priv(key);
    key->has_pub = 0;
    if (seed != NULL) {
        if (!vgp_key_from_seed(key, seed))
            goto out;
        /* A dk given with the seed must be the seed's dk (OpenSSL 3.5 does
         * the same consistency check). Compared in constant time. */
        if (priv != NULL && CRYPTO_memcmp(priv, key->sk, alg->sk_len) != 0)
            goto out;
    } else if (priv != NULL) {
        /* FIPS 203 7.3: the dk's H(ek) must match its ek. */
        if (alg->check_sk != NULL && alg->check_sk(priv) != VG_OK)
            goto out;
        if (!vgp_key_alloc_priv(key))
            goto out;
        memcpy(key->sk, priv, alg->sk_len);
        if (!alg->pub_from_priv(key->pk, key->sk))
            goto out;
        key->has_pub = key->has_priv = 1;
    } else {
        /* FIPS 203 7.2: the ek's coefficients must be reduced mod q. */
        if (alg->check_pk(pub) != VG_OK)
            goto out;
        memcpy(key->pk, pub, alg->pk_len);
        key->has_pub = 1;
    }
    if (pub != NULL && key->has_priv && memcmp(pub, key->pk, alg->pk_len) != 0)
        goto out;
    ok = 1;
out:
    if (!ok) {
        vgp_key_drop_priv(key);
        key->has_pub = 0;
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
    }
    return ok;
}

static int vgp_key_import(void *vkey, int selection, const OSSL_PARAM params[])
{
    struct vgp_key *key = vkey;

    if (key == NULL || (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return key != NULL; /* parameters only: nothing to import */
    return vgp_key_set(key, params, selection);
}

static const OSSL_PARAM vgp_key_types[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_octet_string(VGP_PARAM_SEED, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_key_imexport_types(int selection)
{
    return (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) != 0 ? vgp_key_types : NULL;
}

static int vgp_key_export(void *vkey, int selection, OSSL_CALLBACK *cb, void *cbarg)
{
    struct vgp_key *key = vkey;
    OSSL_PARAM params[4];
    int n = 0;

    if (key == NULL)
        return 0;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && key->has_pub)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, key->pk,
                                                        key->alg->pk_len);
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && key->has_priv)
        params[n++] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, key->sk,
                                                        key->alg->sk_len);
    /* The seed, when the key was made from one (as OpenSSL 3.5 exports
     * ML-KEM keys); an importer given both checks that they agree. */
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && key->has_seed)
        params[n++] = OSSL_PARAM_construct_octet_string(VGP_PARAM_SEED, VGP_SEED_OF(key),
                                                        key->alg->seed_len);
    params[n] = OSSL_PARAM_construct_end();
    return cb(params, cbarg);
}

static int vgp_key_get_params(void *vkey, OSSL_PARAM params[])
{
    struct vgp_key *key = vkey;
    const struct vgp_alg *alg = key->alg;
    OSSL_PARAM *p;

    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_BITS);
    if (p != NULL && !OSSL_PARAM_set_int(p, alg->bits))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_SECURITY_BITS);
    if (p != NULL && !OSSL_PARAM_set_int(p, alg->security_bits))
        return 0;
    /* EVP_PKEY_get_size: the largest output of an operation, the
     * ciphertext here. */
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_MAX_SIZE);
    if (p != NULL && !OSSL_PARAM_set_int(p, (int)alg->ct_len))
        return 0;
    /* libssl reads the client's key share here (with a NULL buffer first
     * for the size, which OSSL_PARAM_set_octet_string answers). */
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
    if (p != NULL && (!key->has_pub || !OSSL_PARAM_set_octet_string(p, key->pk, alg->pk_len)))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PUB_KEY);
    if (p != NULL && (!key->has_pub || !OSSL_PARAM_set_octet_string(p, key->pk, alg->pk_len)))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY);
    if (p != NULL && (!key->has_priv || !OSSL_PARAM_set_octet_string(p, key->sk, alg->sk_len)))
        return 0;
    return 1;
}

static const OSSL_PARAM vgp_key_gettable[] = {
    OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),
    OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PRIV_KEY, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_key_gettable_params(void *provctx)
{
    (void)provctx;
    return vgp_key_gettable;
}

/* libssl's server sets the client's key share here on a key made by
 * paramgen (EVP_PKEY_set1_encoded_public_key); the key then holds only
 * that public key. */
static int vgp_key_set_params(void *vkey, const OSSL_PARAM params[])
{
    struct vgp_key *key = vkey;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY);
    OSSL_PARAM one[2];

    if (p == NULL)
        return 1;
    one[0] = *p;
    one[1] = OSSL_PARAM_construct_end();
    return vgp_key_set(key, one, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

static const OSSL_PARAM vgp_key_settable[] = {
    OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_key_settable_params(void *provctx)
{
    (void)provctx;
    return vgp_key_settable;
}

static void *vgp_key_dup(const void *vfrom, int selection)
{
    const struct vgp_key *from = vfrom;
    struct vgp_key *key = vgp_key_new(from->alg);

    if (key == NULL)
        return NULL;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0 && from->has_pub) {
        memcpy(key->pk, from->pk, from->alg->pk_len);
        key->has_pub = 1;
    }
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 && from->has_priv) {
        if (!vgp_key_alloc_priv(key)) {
            vgp_key_free(key);
            return NULL;
        }
        memcpy(key->sk, from->sk, from->alg->sk_len + from->alg->seed_len);
        key->has_priv = 1;
        key->has_seed = from->has_seed;
    }
    return key;
}

/* EVP_PKEY_check / public_check / private_check (`openssl pkey -check`):
 * the public key's checks (FIPS 203 7.2; SEC 1 for the NIST hybrids), the
 * secret key's (FIPS 203 7.3; the scalar's range), and for a key pair a
 * pairwise test: an encapsulation to the public key decapsulates with the
 * secret key to the same secret (FIPS 203 7.1's pairwise consistency). */
static int vgp_key_validate(const void *vkey, int selection, int checktype)
{
    const struct vgp_key *key = vkey;
    const struct vgp_alg *alg;
    uint8_t ct[VGP_MAX_CT], ss1[VGP_MAX_SS], ss2[VGP_MAX_SS];
    int ok = 1;

    (void)checktype;
    if (key == NULL)
        return 0;
    alg = key->alg;
    if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) != 0)
        ok = ok && key->has_pub && alg->check_pk(key->pk) == VG_OK;
    if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0)
        ok = ok && key->has_priv && (alg->check_sk == NULL || alg->check_sk(key->sk) == VG_OK);
    if (ok && (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == OSSL_KEYMGMT_SELECT_KEYPAIR)
        ok = alg->encaps(ct, ss1, key->pk) == VG_OK && alg->decaps(ss2, ct, key->sk) == VG_OK &&
             CRYPTO_memcmp(ss1, ss2, alg->ss_len) == 0;
    OPENSSL_cleanse(ss1, sizeof(ss1));
    OPENSSL_cleanse(ss2, sizeof(ss2));
    return ok;
}

/* A key made by this provider's decoder (codec.c): the reference is the
 * address of the key object, which the key manager takes over. The
 * decoder names the key type; the key's algorithm is checked again, so
 * that no key manager takes another type's object. */
static void *vgp_key_load(const struct vgp_alg *alg, const void *reference,
                          size_t reference_sz)
{
    struct vgp_key *key;

    if (reference == NULL || reference_sz != sizeof(key))
        return NULL;
    key = *(struct vgp_key *const *)reference;
    if (key == NULL || key->alg != alg)
        return NULL;
    *(struct vgp_key **)reference = NULL;
    return key;
}

/* ---- key generation ------------------------------------------------------ */

static void *vgp_gen_init(const struct vgp_alg *alg, int selection, const OSSL_PARAM params[]);

static int vgp_gen_set_params(void *vgen, const OSSL_PARAM params[])
{
    struct vgp_gen *gen = vgen;
    const OSSL_PARAM *p;
    const void *seed;
    size_t seed_len;

    if (gen == NULL)
        return 0;
    /* libssl names the group (EVP_PKEY_CTX_set_group_name) on every
     * key it makes; the algorithm already is the group. */
    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);
    if (p != NULL) {
        const char *name;

        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name))
            return 0;
    }
    p = OSSL_PARAM_locate_const(params, VGP_PARAM_SEED);
    if (p != NULL) {
        if (!OSSL_PARAM_get_octet_string_ptr(p, &seed, &seed_len) ||
            seed_len != gen->alg->seed_len)
            return 0;
        memcpy(gen->seed, seed, seed_len);
        gen->has_seed = 1;
    }
    return 1;
}

static void *vgp_gen_init(const struct vgp_alg *alg, int selection, const OSSL_PARAM params[])
{
    struct vgp_gen *gen = OPENSSL_zalloc(sizeof(*gen));

    if (gen == NULL)
        return NULL;
    gen->alg = alg;
    gen->selection = selection;
    if (!vgp_gen_set_params(gen, params)) {
        OPENSSL_free(gen);
        return NULL;
    }
    return gen;
}

static const OSSL_PARAM vgp_gen_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
    OSSL_PARAM_octet_string(VGP_PARAM_SEED, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_gen_settable_params(void *vgen, void *provctx)
{
    (void)vgen;
    (void)provctx;
    return vgp_gen_settable;
}

/* With only parameters selected (EVP_PKEY_paramgen, as libssl's server
 * does before setting the peer's share) the key is empty. */
static void *vgp_gen(void *vgen, OSSL_CALLBACK *cb, void *cbarg)
{
    struct vgp_gen *gen = vgen;
    struct vgp_key *key;
    int ok;

    (void)cb;
    (void)cbarg;
    key = vgp_key_new(gen->alg);
    if (key == NULL || (gen->selection & OSSL_KEYMGMT_SELECT_KEYPAIR) == 0)
        return key;
    /* Always from a seed (given, or drawn from the operating system as the
     * library's keypair functions draw theirs), which the key keeps for the
     * PKCS#8 seed form. */
    if (gen->has_seed) {
        ok = vgp_key_from_seed(key, gen->seed);
    } else {
        uint8_t seed[VGP_MAX_SEED];
        int tries;

        /* The NIST hybrids' seed starts with the EC scalar, refused when
         * >= n (probability below 2^-32 for P-256): another draw. */
        for (ok = 0, tries = 0; !ok && tries < 8; tries++)
            ok = vgp_random(seed, gen->alg->seed_len) == VG_OK && vgp_key_from_seed(key, seed);
        OPENSSL_cleanse(seed, sizeof(seed));
    }
    if (!ok) {
        vgp_key_free(key);
        return NULL;
    }
    return key;
}

static void vgp_gen_cleanup(void *vgen)
{
    if (vgen != NULL)
        OPENSSL_clear_free(vgen, sizeof(struct vgp_gen));
}

/* ---- KEM ----------------------------------------------------------------- */

static void *vgp_kem_newctx(const struct vgp_alg *alg)
{
    struct vgp_kem_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

    if (ctx != NULL)
        ctx->alg = alg;
    return ctx;
}

static void vgp_kem_freectx(void *vctx)
{
    OPENSSL_free(vctx);
}

static void *vgp_kem_dupctx(void *vctx)
{
    struct vgp_kem_ctx *ctx = vctx, *dup = OPENSSL_malloc(sizeof(*dup));

    if (dup != NULL)
        *dup = *ctx;
    return dup;
}

static int vgp_kem_init(void *vctx, void *vkey, int need_priv)
{
    struct vgp_kem_ctx *ctx = vctx;
    struct vgp_key *key = vkey;

    if (ctx == NULL || key == NULL || key->alg != ctx->alg)
        return 0;
    if (need_priv ? !key->has_priv : !key->has_pub) {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0;
    }
    ctx->key = key;
    return 1;
}

static int vgp_kem_encapsulate_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    (void)params;
    return vgp_kem_init(vctx, vkey, 0);
}

static int vgp_kem_decapsulate_init(void *vctx, void *vkey, const OSSL_PARAM params[])
{
    (void)params;
    return vgp_kem_init(vctx, vkey, 1);
}

/* out = ciphertext, secret = shared secret; NULL out asks for the sizes. */
static int vgp_kem_encapsulate(void *vctx, unsigned char *out, size_t *outlen,
                               unsigned char *secret, size_t *secretlen)
{
    struct vgp_kem_ctx *ctx = vctx;
    const struct vgp_alg *alg = ctx->alg;

    if (ctx->key == NULL)
        return 0;
    if (out == NULL) {
        if (outlen != NULL)
            *outlen = alg->ct_len;
        if (secretlen != NULL)
            *secretlen = alg->ss_len;
        return outlen != NULL || secretlen != NULL;
    }
    if (secret == NULL || (outlen != NULL && *outlen < alg->ct_len) ||
        (secretlen != NULL && *secretlen < alg->ss_len))
        return 0;
    if (alg->encaps(out, secret, ctx->key->pk) != VG_OK) {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0; /* the library zeroed out and secret */
    }
    if (outlen != NULL)
        *outlen = alg->ct_len;
    if (secretlen != NULL)
        *secretlen = alg->ss_len;
    return 1;
}

/* out = shared secret, in = ciphertext; NULL out asks for the size. A
 * wrong ML-KEM ciphertext of the right length is not an error (FIPS 203
 * implicit rejection). */
static int vgp_kem_decapsulate(void *vctx, unsigned char *out, size_t *outlen,
                               const unsigned char *in, size_t inlen)
{
    struct vgp_kem_ctx *ctx = vctx;
    const struct vgp_alg *alg = ctx->alg;

    if (ctx->key == NULL || outlen == NULL)
        return 0;
    if (out == NULL) {
        *outlen = alg->ss_len;
        return 1;
    }
    if (in == NULL || inlen != alg->ct_len || *outlen < alg->ss_len) {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0;
    }
    if (alg->decaps(out, in, ctx->key->sk) != VG_OK) {
        ERR_raise(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT);
        return 0;
    }
    *outlen = alg->ss_len;
    return 1;
}

static int vgp_kem_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    (void)vctx;
    (void)params;
    return 1;
}

static const OSSL_PARAM vgp_kem_settable[] = {OSSL_PARAM_END};

static const OSSL_PARAM *vgp_kem_settable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return vgp_kem_settable;
}

/* ---- dispatch tables ----------------------------------------------------- */

/* One set of thin entry points per algorithm, binding the algorithm
 * descriptor; everything else is shared. */
#define VGP_DEFINE(id)                                                                        \
    static void *vgp_##id##_key_new(void *provctx)                                            \
    {                                                                                         \
        (void)provctx;                                                                        \
        return vgp_key_new(&vgp_##id);                                                        \
    }                                                                                         \
    static void *vgp_##id##_gen_init(void *provctx, int selection, const OSSL_PARAM params[]) \
    {                                                                                         \
        (void)provctx;                                                                        \
        return vgp_gen_init(&vgp_##id, selection, params);                                    \
    }                                                                                         \
    static void *vgp_##id##_key_load(const void *reference, size_t reference_sz)              \
    {                                                                                         \
        return vgp_key_load(&vgp_##id, reference, reference_sz);                              \
    }                                                                                         \
    static void *vgp_##id##_kem_newctx(void *provctx)                                         \
    {                                                                                         \
        (void)provctx;                                                                        \
        return vgp_kem_newctx(&vgp_##id);                                                     \
    }                                                                                         \
    const OSSL_DISPATCH vgp_keymgmt_##id[] = {                                                \
        {OSSL_FUNC_KEYMGMT_NEW, (void (*)(void))vgp_##id##_key_new},                          \
        {OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))vgp_key_free},                               \
        {OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))vgp_key_dup},                                 \
        {OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))vgp_key_has},                                 \
        {OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))vgp_##id##_key_load},                        \
        {OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))vgp_key_match},                             \
        {OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))vgp_key_validate},                       \
        {OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))vgp_key_import},                           \
        {OSSL_FUNC_KEYMGMT_IMPORT_TYPES, (void (*)(void))vgp_key_imexport_types},             \
        {OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))vgp_key_export},                           \
        {OSSL_FUNC_KEYMGMT_EXPORT_TYPES, (void (*)(void))vgp_key_imexport_types},             \
        {OSSL_FUNC_KEYMGMT_GET_PARAMS, (void (*)(void))vgp_key_get_params},                   \
        {OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS, (void (*)(void))vgp_key_gettable_params},         \
        {OSSL_FUNC_KEYMGMT_SET_PARAMS, (void (*)(void))vgp_key_set_params},                   \
        {OSSL_FUNC_KEYMGMT_SETTABLE_PARAMS, (void (*)(void))vgp_key_settable_params},         \
        {OSSL_FUNC_KEYMGMT_GEN_INIT, (void (*)(void))vgp_##id##_gen_init},                    \
        {OSSL_FUNC_KEYMGMT_GEN_SET_PARAMS, (void (*)(void))vgp_gen_set_params},               \
        {OSSL_FUNC_KEYMGMT_GEN_SETTABLE_PARAMS, (void (*)(void))vgp_gen_settable_params},     \
        {OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))vgp_gen},                                     \
        {OSSL_FUNC_KEYMGMT_GEN_CLEANUP, (void (*)(void))vgp_gen_cleanup},                     \
        {0, NULL}};                                                                           \
    const OSSL_DISPATCH vgp_kem_##id[] = {                                                    \
        {OSSL_FUNC_KEM_NEWCTX, (void (*)(void))vgp_##id##_kem_newctx},                        \
        {OSSL_FUNC_KEM_FREECTX, (void (*)(void))vgp_kem_freectx},                             \
        {OSSL_FUNC_KEM_DUPCTX, (void (*)(void))vgp_kem_dupctx},                               \
        {OSSL_FUNC_KEM_ENCAPSULATE_INIT, (void (*)(void))vgp_kem_encapsulate_init},           \
        {OSSL_FUNC_KEM_ENCAPSULATE, (void (*)(void))vgp_kem_encapsulate},                     \
        {OSSL_FUNC_KEM_DECAPSULATE_INIT, (void (*)(void))vgp_kem_decapsulate_init},           \
        {OSSL_FUNC_KEM_DECAPSULATE, (void (*)(void))vgp_kem_decapsulate},                     \
        {OSSL_FUNC_KEM_SET_CTX_PARAMS, (void (*)(void))vgp_kem_set_ctx_params},               \
        {OSSL_FUNC_KEM_SETTABLE_CTX_PARAMS, (void (*)(void))vgp_kem_settable_ctx_params},     \
        {0, NULL}};

VGP_DEFINE(mlkem512)
VGP_DEFINE(mlkem768)
VGP_DEFINE(mlkem1024)
VGP_DEFINE(x25519mlkem768)
VGP_DEFINE(p256mlkem768)
VGP_DEFINE(p384mlkem1024)
VGP_DEFINE(xwing)
