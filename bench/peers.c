/*
 * Peers for `vgcrypto speed`, loaded with dlopen (see peers.h).
 */
#define _XOPEN_SOURCE 700

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"

/* vg_peers_no_cache: every call makes its key objects afresh. */
static int g_no_cache;

void vg_peers_no_cache(int on) { g_no_cache = on != 0; }

/* ---- OpenSSL 3 (libcrypto.so.3): opaque types and prototypes from its
 * documentation (EVP_MD_fetch(3), EVP_DigestInit(3), OpenSSL_version(3)). */
typedef struct evp_md_st EVP_MD;
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct ossl_lib_ctx_st OSSL_LIB_CTX;
typedef struct ossl_param_st OSSL_PARAM;

enum ossl_md {
    MD_SHA256, MD_SHA512, MD_SHA3_256, MD_SHA3_512, MD_SHAKE128, MD_SHAKE256, MD_SHA384, N_MD
};

static struct {
    int loaded;
    EVP_MD *(*md_fetch)(OSSL_LIB_CTX *, const char *, const char *);
    void (*md_free)(EVP_MD *);
    EVP_MD_CTX *(*ctx_new)(void);
    void (*ctx_free)(EVP_MD_CTX *);
    int (*init_ex2)(EVP_MD_CTX *, const EVP_MD *, const OSSL_PARAM *);
    int (*update)(EVP_MD_CTX *, const void *, size_t);
    int (*final_ex)(EVP_MD_CTX *, unsigned char *, unsigned int *);
    int (*final_xof)(EVP_MD_CTX *, unsigned char *, size_t);
    const char *(*version)(int);
    EVP_MD_CTX *ctx;
    EVP_MD *md[N_MD]; /* indexed by enum ossl_md; NULL when the fetch failed */
} g_ossl;

static const char *const g_md_names[N_MD] = {"SHA256",   "SHA512",   "SHA3-256", "SHA3-512",
                                             "SHAKE128", "SHAKE256", "SHA384"};

/* OpenSSL X25519 through EVP_PKEY (EVP_PKEY_new_raw_private_key(3),
 * EVP_PKEY_derive(3)); separate from the digests so that either can be
 * missing without the other. */
typedef struct evp_pkey_st EVP_PKEY;
typedef struct evp_pkey_ctx_st EVP_PKEY_CTX;
typedef struct engine_st ENGINE;
#define OSSL_EVP_PKEY_X25519 1034 /* NID_X25519 in <openssl/obj_mac.h> */

static struct {
    int loaded;
    EVP_PKEY *(*new_raw_private)(int, ENGINE *, const unsigned char *, size_t);
    EVP_PKEY *(*new_raw_public)(int, ENGINE *, const unsigned char *, size_t);
    int (*get_raw_public)(const EVP_PKEY *, unsigned char *, size_t *);
    void (*pkey_free)(EVP_PKEY *);
    EVP_PKEY_CTX *(*ctx_new)(EVP_PKEY *, ENGINE *);
    void (*ctx_free)(EVP_PKEY_CTX *);
    int (*derive_init)(EVP_PKEY_CTX *);
    int (*derive_set_peer)(EVP_PKEY_CTX *, EVP_PKEY *);
    int (*derive)(EVP_PKEY_CTX *, unsigned char *, size_t *);
    /* The derive context prepared for the input `prepared_for` (scalar ||
     * point), so that a timed call is EVP_PKEY_derive alone. */
    EVP_PKEY *priv, *peer;
    EVP_PKEY_CTX *dctx;
    uint8_t prepared_for[64];
} g_ossl_pk;

/* OpenSSL Ed25519 through EVP_PKEY and one-shot EVP_DigestSign /
 * EVP_DigestVerify (EVP_DigestSignInit(3), EVP_DigestVerifyInit(3),
 * EVP_PKEY_new_raw_private_key(3)); Ed25519 takes no digest (NULL md). */
#define OSSL_EVP_PKEY_ED25519 1087 /* NID_ED25519 in <openssl/obj_mac.h> */

static struct {
    int loaded;
    EVP_MD_CTX *(*md_ctx_new)(void);
    void (*md_ctx_free)(EVP_MD_CTX *);
    int (*sign_init)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *, EVP_PKEY *);
    int (*sign)(EVP_MD_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
    int (*verify_init)(EVP_MD_CTX *, EVP_PKEY_CTX **, const EVP_MD *, ENGINE *, EVP_PKEY *);
    int (*verify)(EVP_MD_CTX *, const unsigned char *, size_t, const unsigned char *, size_t);
    /* One context per operation, each reused by every call (Init resets
     * it). A context that has signed cannot be re-initialised for
     * verification in OpenSSL 3.0 (EVP_DigestVerify then fails), hence two. */
    EVP_MD_CTX *sctx, *vctx;
    /* Key objects prepared for the seed / public key they were made from,
     * so that a timed call is Init + DigestSign (or DigestVerify) alone. */
    EVP_PKEY *priv, *pub;
    uint8_t priv_for[32], pub_for[32];
} g_ossl_ed;

/* OpenSSL ciphers (EVP_EncryptInit(3), EVP_CIPHER_fetch(3), the AEAD
 * controls of EVP_EncryptInit(3)) and MACs (EVP_MAC(3)). */
typedef struct evp_cipher_st EVP_CIPHER;
typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;
typedef struct evp_mac_st EVP_MAC;
typedef struct evp_mac_ctx_st EVP_MAC_CTX;
#define OSSL_EVP_CTRL_AEAD_GET_TAG 0x10 /* <openssl/evp.h> */
#define OSSL_EVP_CTRL_AEAD_SET_TAG 0x11

/* One context per (cipher, direction), each with the key it was given. */
enum ossl_ci { CI_AEAD_ENC, CI_AEAD_DEC, CI_CHACHA20, N_CI };

static struct {
    int loaded;
    EVP_CIPHER *(*fetch)(OSSL_LIB_CTX *, const char *, const char *);
    void (*cipher_free)(EVP_CIPHER *);
    EVP_CIPHER_CTX *(*ctx_new)(void);
    void (*ctx_free)(EVP_CIPHER_CTX *);
    int (*enc_init)(EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *, const unsigned char *,
                    const unsigned char *);
    int (*enc_update)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int);
    int (*enc_final)(EVP_CIPHER_CTX *, unsigned char *, int *);
    int (*dec_init)(EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *, const unsigned char *,
                    const unsigned char *);
    int (*dec_update)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int);
    int (*dec_final)(EVP_CIPHER_CTX *, unsigned char *, int *);
    int (*ctrl)(EVP_CIPHER_CTX *, int, int, void *);
    EVP_CIPHER *aead, *chacha20;
    EVP_CIPHER_CTX *ctx[N_CI];
    int keyed[N_CI];
    uint8_t key_for[N_CI][32];
} g_ossl_ci;

/* OSSL_PARAM(3): the public layout of a parameter; an array ends with an
 * entry whose key is NULL. */
struct ossl_param_st {
    const char *key;
    unsigned int data_type;
    void *data;
    size_t data_size;
    size_t return_size;
};
#define OSSL_PARAM_UTF8_STRING 4
#define OSSL_PARAM_OCTET_STRING 5
#define OSSL_PARAM_UNMODIFIED ((size_t)-1)

typedef struct evp_kdf_st EVP_KDF;
typedef struct evp_kdf_ctx_st EVP_KDF_CTX;

static struct {
    int loaded;
    EVP_MAC *(*fetch)(OSSL_LIB_CTX *, const char *, const char *);
    void (*mac_free)(EVP_MAC *);
    EVP_MAC_CTX *(*ctx_new)(EVP_MAC *);
    void (*ctx_free)(EVP_MAC_CTX *);
    int (*init)(EVP_MAC_CTX *, const unsigned char *, size_t, const OSSL_PARAM *);
    int (*update)(EVP_MAC_CTX *, const unsigned char *, size_t);
    int (*final)(EVP_MAC_CTX *, unsigned char *, size_t *, size_t);
    EVP_MAC *poly1305, *hmac;
    EVP_MAC_CTX *poly1305_ctx, *hmac_ctx;
    /* The HMAC context keyed (with SHA-256) for hmac_key_for, once. */
    int hmac_keyed;
    uint8_t hmac_key_for[32];
} g_ossl_mac;

/* EVP_KDF(3) "HKDF": one context, its parameters (digest, key, salt, info)
 * set once per input. */
static struct {
    int loaded;
    EVP_KDF *(*fetch)(OSSL_LIB_CTX *, const char *, const char *);
    void (*kdf_free)(EVP_KDF *);
    EVP_KDF_CTX *(*ctx_new)(EVP_KDF *);
    void (*ctx_free)(EVP_KDF_CTX *);
    int (*set_params)(EVP_KDF_CTX *, const OSSL_PARAM *);
    int (*derive)(EVP_KDF_CTX *, unsigned char *, size_t, const OSSL_PARAM *);
    EVP_KDF *hkdf;
    EVP_KDF_CTX *ctx;
    int prepared;
    uint8_t prepared_for[96]; /* ikm || salt || info of the row input */
} g_ossl_kdf;

/* ---- libsodium (libsodium.so.23) ---------------------------------------- */
static struct {
    int ed_loaded; /* the crypto_sign_* entry points below */
    int (*sign_seed_keypair)(unsigned char *, unsigned char *, const unsigned char *);
    int (*sign_detached)(unsigned char *, unsigned long long *, const unsigned char *,
                         unsigned long long, const unsigned char *);
    int (*sign_verify_detached)(const unsigned char *, const unsigned char *, unsigned long long,
                                const unsigned char *);
    int loaded;
    int (*hash_sha256)(unsigned char *, const unsigned char *, unsigned long long);
    int (*hash_sha512)(unsigned char *, const unsigned char *, unsigned long long);
    int (*scalarmult)(unsigned char *, const unsigned char *, const unsigned char *);
    int (*scalarmult_base)(unsigned char *, const unsigned char *);
    const char *(*version)(void);
    /* The AEAD, stream and one-time-auth entry points (crypto_aead_*(3) of
     * libsodium's documentation), all or none. */
    int sym_loaded;
    int (*aead_enc[2])(unsigned char *, unsigned char *, unsigned long long *,
                       const unsigned char *, unsigned long long, const unsigned char *,
                       unsigned long long, const unsigned char *, const unsigned char *,
                       const unsigned char *);
    int (*aead_dec[2])(unsigned char *, unsigned char *, const unsigned char *,
                       unsigned long long, const unsigned char *, const unsigned char *,
                       unsigned long long, const unsigned char *, const unsigned char *);
    int (*stream_xor_ic)(unsigned char *, const unsigned char *, unsigned long long,
                         const unsigned char *, uint32_t, const unsigned char *);
    int (*onetimeauth)(unsigned char *, const unsigned char *, unsigned long long,
                       const unsigned char *);
    /* crypto_core_hchacha20(out, in16, k, c): c NULL = the ChaCha constants. */
    int (*hchacha20)(unsigned char *, const unsigned char *, const unsigned char *,
                     const unsigned char *);
    int hchacha_loaded;
    /* crypto_auth_hmacsha256 (32-byte key), on its own. */
    int (*hmac_sha256)(unsigned char *, const unsigned char *, unsigned long long,
                       const unsigned char *);
} g_sodium;

static int g_load_done;

/* dlsym into a function pointer. ISO C has no conversion from void * to a
 * function pointer; POSIX guarantees the representations agree. */
static int sym(void *lib, const char *name, void *fnptr, size_t size)
{
    void *p = dlsym(lib, name);
    if (!p)
        return -1;
    memcpy(fnptr, &p, size);
    return 0;
}
#define SYM(lib, name, field) sym(lib, name, &(field), sizeof(field))

/* The cipher and MAC entry points; each group stays unloaded when a symbol
 * or an algorithm is missing. */
static void load_openssl_symmetric(void *lib)
{
    if (!SYM(lib, "EVP_CIPHER_fetch", g_ossl_ci.fetch) &&
        !SYM(lib, "EVP_CIPHER_free", g_ossl_ci.cipher_free) &&
        !SYM(lib, "EVP_CIPHER_CTX_new", g_ossl_ci.ctx_new) &&
        !SYM(lib, "EVP_CIPHER_CTX_free", g_ossl_ci.ctx_free) &&
        !SYM(lib, "EVP_EncryptInit_ex", g_ossl_ci.enc_init) &&
        !SYM(lib, "EVP_EncryptUpdate", g_ossl_ci.enc_update) &&
        !SYM(lib, "EVP_EncryptFinal_ex", g_ossl_ci.enc_final) &&
        !SYM(lib, "EVP_DecryptInit_ex", g_ossl_ci.dec_init) &&
        !SYM(lib, "EVP_DecryptUpdate", g_ossl_ci.dec_update) &&
        !SYM(lib, "EVP_DecryptFinal_ex", g_ossl_ci.dec_final) &&
        !SYM(lib, "EVP_CIPHER_CTX_ctrl", g_ossl_ci.ctrl)) {
        int ok = 1;
        g_ossl_ci.aead = g_ossl_ci.fetch(NULL, "ChaCha20-Poly1305", NULL);
        g_ossl_ci.chacha20 = g_ossl_ci.fetch(NULL, "ChaCha20", NULL);
        for (int i = 0; i < N_CI; i++)
            ok &= (g_ossl_ci.ctx[i] = g_ossl_ci.ctx_new()) != NULL;
        g_ossl_ci.loaded = ok;
    }
    if (!SYM(lib, "EVP_MAC_fetch", g_ossl_mac.fetch) &&
        !SYM(lib, "EVP_MAC_free", g_ossl_mac.mac_free) &&
        !SYM(lib, "EVP_MAC_CTX_new", g_ossl_mac.ctx_new) &&
        !SYM(lib, "EVP_MAC_CTX_free", g_ossl_mac.ctx_free) &&
        !SYM(lib, "EVP_MAC_init", g_ossl_mac.init) &&
        !SYM(lib, "EVP_MAC_update", g_ossl_mac.update) &&
        !SYM(lib, "EVP_MAC_final", g_ossl_mac.final)) {
        g_ossl_mac.poly1305 = g_ossl_mac.fetch(NULL, "POLY1305", NULL);
        if (g_ossl_mac.poly1305)
            g_ossl_mac.poly1305_ctx = g_ossl_mac.ctx_new(g_ossl_mac.poly1305);
        g_ossl_mac.hmac = g_ossl_mac.fetch(NULL, "HMAC", NULL);
        if (g_ossl_mac.hmac)
            g_ossl_mac.hmac_ctx = g_ossl_mac.ctx_new(g_ossl_mac.hmac);
        g_ossl_mac.loaded = 1;
    }
    if (!SYM(lib, "EVP_KDF_fetch", g_ossl_kdf.fetch) &&
        !SYM(lib, "EVP_KDF_free", g_ossl_kdf.kdf_free) &&
        !SYM(lib, "EVP_KDF_CTX_new", g_ossl_kdf.ctx_new) &&
        !SYM(lib, "EVP_KDF_CTX_free", g_ossl_kdf.ctx_free) &&
        !SYM(lib, "EVP_KDF_CTX_set_params", g_ossl_kdf.set_params) &&
        !SYM(lib, "EVP_KDF_derive", g_ossl_kdf.derive)) {
        g_ossl_kdf.hkdf = g_ossl_kdf.fetch(NULL, "HKDF", NULL);
        if (g_ossl_kdf.hkdf)
            g_ossl_kdf.ctx = g_ossl_kdf.ctx_new(g_ossl_kdf.hkdf);
        g_ossl_kdf.loaded = g_ossl_kdf.ctx != NULL;
    }
}

static void load_openssl(void)
{
    void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    if (SYM(lib, "EVP_MD_fetch", g_ossl.md_fetch) || SYM(lib, "EVP_MD_free", g_ossl.md_free) ||
        SYM(lib, "EVP_MD_CTX_new", g_ossl.ctx_new) || SYM(lib, "EVP_MD_CTX_free", g_ossl.ctx_free) ||
        SYM(lib, "EVP_DigestInit_ex2", g_ossl.init_ex2) ||
        SYM(lib, "EVP_DigestUpdate", g_ossl.update) ||
        SYM(lib, "EVP_DigestFinal_ex", g_ossl.final_ex) ||
        SYM(lib, "EVP_DigestFinalXOF", g_ossl.final_xof) ||
        SYM(lib, "OpenSSL_version", g_ossl.version))
        return; /* not a usable OpenSSL 3: stay unloaded (the mapping is kept) */
    if (!SYM(lib, "EVP_PKEY_new_raw_private_key", g_ossl_pk.new_raw_private) &&
        !SYM(lib, "EVP_PKEY_new_raw_public_key", g_ossl_pk.new_raw_public) &&
        !SYM(lib, "EVP_PKEY_get_raw_public_key", g_ossl_pk.get_raw_public) &&
        !SYM(lib, "EVP_PKEY_free", g_ossl_pk.pkey_free) &&
        !SYM(lib, "EVP_PKEY_CTX_new", g_ossl_pk.ctx_new) &&
        !SYM(lib, "EVP_PKEY_CTX_free", g_ossl_pk.ctx_free) &&
        !SYM(lib, "EVP_PKEY_derive_init", g_ossl_pk.derive_init) &&
        !SYM(lib, "EVP_PKEY_derive_set_peer", g_ossl_pk.derive_set_peer) &&
        !SYM(lib, "EVP_PKEY_derive", g_ossl_pk.derive))
        g_ossl_pk.loaded = 1;
    if (g_ossl_pk.loaded && !SYM(lib, "EVP_MD_CTX_new", g_ossl_ed.md_ctx_new) &&
        !SYM(lib, "EVP_MD_CTX_free", g_ossl_ed.md_ctx_free) &&
        !SYM(lib, "EVP_DigestSignInit", g_ossl_ed.sign_init) &&
        !SYM(lib, "EVP_DigestSign", g_ossl_ed.sign) &&
        !SYM(lib, "EVP_DigestVerifyInit", g_ossl_ed.verify_init) &&
        !SYM(lib, "EVP_DigestVerify", g_ossl_ed.verify) &&
        (g_ossl_ed.sctx = g_ossl_ed.md_ctx_new()) != NULL &&
        (g_ossl_ed.vctx = g_ossl_ed.md_ctx_new()) != NULL)
        g_ossl_ed.loaded = 1;
    load_openssl_symmetric(lib);
    g_ossl.ctx = g_ossl.ctx_new();
    if (!g_ossl.ctx)
        return;
    for (int i = 0; i < N_MD; i++)
        g_ossl.md[i] = g_ossl.md_fetch(NULL, g_md_names[i], NULL);
    g_ossl.loaded = 1;
}

static void load_sodium(void)
{
    int (*init)(void);
    void *lib = dlopen("libsodium.so.23", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    if (SYM(lib, "sodium_init", init) || SYM(lib, "crypto_hash_sha256", g_sodium.hash_sha256) ||
        SYM(lib, "crypto_hash_sha512", g_sodium.hash_sha512) ||
        SYM(lib, "crypto_scalarmult", g_sodium.scalarmult) ||
        SYM(lib, "crypto_scalarmult_base", g_sodium.scalarmult_base) ||
        SYM(lib, "sodium_version_string", g_sodium.version))
        return;
    /* sodium_init: 0 on success, 1 when already initialised, -1 on failure. */
    if (init() < 0)
        return;
    g_sodium.loaded = 1;
    if (!SYM(lib, "crypto_sign_seed_keypair", g_sodium.sign_seed_keypair) &&
        !SYM(lib, "crypto_sign_detached", g_sodium.sign_detached) &&
        !SYM(lib, "crypto_sign_verify_detached", g_sodium.sign_verify_detached))
        g_sodium.ed_loaded = 1;
    if (!SYM(lib, "crypto_aead_chacha20poly1305_ietf_encrypt_detached", g_sodium.aead_enc[0]) &&
        !SYM(lib, "crypto_aead_chacha20poly1305_ietf_decrypt_detached", g_sodium.aead_dec[0]) &&
        !SYM(lib, "crypto_aead_xchacha20poly1305_ietf_encrypt_detached", g_sodium.aead_enc[1]) &&
        !SYM(lib, "crypto_aead_xchacha20poly1305_ietf_decrypt_detached", g_sodium.aead_dec[1]) &&
        !SYM(lib, "crypto_stream_chacha20_ietf_xor_ic", g_sodium.stream_xor_ic) &&
        !SYM(lib, "crypto_onetimeauth", g_sodium.onetimeauth))
        g_sodium.sym_loaded = 1;
    if (!SYM(lib, "crypto_core_hchacha20", g_sodium.hchacha20))
        g_sodium.hchacha_loaded = 1;
    (void)SYM(lib, "crypto_auth_hmacsha256", g_sodium.hmac_sha256); /* stays NULL if missing */
}

void vg_peers_load(int enable)
{
    const char *env = getenv("VG_SPEED_NO_PEERS");
    if (g_load_done)
        return;
    g_load_done = 1;
    if (!enable || (env && env[0] && strcmp(env, "0") != 0))
        return;
    load_openssl();
    load_sodium();
}

static void ossl_x25519_unprepare(void)
{
    if (g_ossl_pk.dctx)
        g_ossl_pk.ctx_free(g_ossl_pk.dctx);
    if (g_ossl_pk.priv)
        g_ossl_pk.pkey_free(g_ossl_pk.priv);
    if (g_ossl_pk.peer)
        g_ossl_pk.pkey_free(g_ossl_pk.peer);
    g_ossl_pk.dctx = NULL;
    g_ossl_pk.priv = g_ossl_pk.peer = NULL;
}

static void ossl_ed_unprepare(void)
{
    if (g_ossl_ed.priv)
        g_ossl_pk.pkey_free(g_ossl_ed.priv);
    if (g_ossl_ed.pub)
        g_ossl_pk.pkey_free(g_ossl_ed.pub);
    g_ossl_ed.priv = g_ossl_ed.pub = NULL;
}

void vg_peers_release(void)
{
    if (g_ossl_ci.loaded) {
        for (int i = 0; i < N_CI; i++)
            g_ossl_ci.ctx_free(g_ossl_ci.ctx[i]);
        if (g_ossl_ci.aead)
            g_ossl_ci.cipher_free(g_ossl_ci.aead);
        if (g_ossl_ci.chacha20)
            g_ossl_ci.cipher_free(g_ossl_ci.chacha20);
        memset(&g_ossl_ci, 0, sizeof g_ossl_ci);
    }
    if (g_ossl_mac.loaded) {
        if (g_ossl_mac.poly1305_ctx)
            g_ossl_mac.ctx_free(g_ossl_mac.poly1305_ctx);
        if (g_ossl_mac.poly1305)
            g_ossl_mac.mac_free(g_ossl_mac.poly1305);
        if (g_ossl_mac.hmac_ctx)
            g_ossl_mac.ctx_free(g_ossl_mac.hmac_ctx);
        if (g_ossl_mac.hmac)
            g_ossl_mac.mac_free(g_ossl_mac.hmac);
        memset(&g_ossl_mac, 0, sizeof g_ossl_mac);
    }
    if (g_ossl_kdf.loaded) {
        g_ossl_kdf.ctx_free(g_ossl_kdf.ctx);
        g_ossl_kdf.kdf_free(g_ossl_kdf.hkdf);
        memset(&g_ossl_kdf, 0, sizeof g_ossl_kdf);
    }
    if (g_ossl_ed.loaded) {
        ossl_ed_unprepare();
        g_ossl_ed.md_ctx_free(g_ossl_ed.sctx);
        g_ossl_ed.md_ctx_free(g_ossl_ed.vctx);
        memset(&g_ossl_ed, 0, sizeof g_ossl_ed);
    }
    if (g_ossl_pk.loaded) {
        ossl_x25519_unprepare();
        g_ossl_pk.loaded = 0;
    }
    if (!g_ossl.loaded)
        return;
    for (int i = 0; i < N_MD; i++)
        if (g_ossl.md[i])
            g_ossl.md_free(g_ossl.md[i]);
    g_ossl.ctx_free(g_ossl.ctx);
    memset(&g_ossl, 0, sizeof g_ossl);
}

const char *vg_peers_openssl_version(void)
{
    return g_ossl.loaded ? g_ossl.version(0 /* OPENSSL_VERSION */) : NULL;
}

const char *vg_peers_sodium_version(void) { return g_sodium.loaded ? g_sodium.version() : NULL; }

/* One digest through the reused context. Fixed-size digests are written by
 * EVP_DigestFinal_ex, whose output must have room for the full digest: the
 * rows pass out_len equal to it. */
static int ossl_digest(enum ossl_md md, int xof, uint8_t *out, size_t out_len, const uint8_t *in,
                       size_t in_len)
{
    unsigned int n;
    if (!g_ossl.loaded || !g_ossl.md[md])
        return -1;
    if (g_ossl.init_ex2(g_ossl.ctx, g_ossl.md[md], NULL) != 1 ||
        g_ossl.update(g_ossl.ctx, in, in_len) != 1)
        return -1;
    if (xof)
        return g_ossl.final_xof(g_ossl.ctx, out, out_len) == 1 ? 0 : -1;
    return g_ossl.final_ex(g_ossl.ctx, out, &n) == 1 && n == out_len ? 0 : -1;
}

int vg_peer_openssl_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    return ossl_digest(MD_SHA256, 0, out, out_len, in, in_len);
}
int vg_peer_openssl_sha512(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    return ossl_digest(MD_SHA512, 0, out, out_len, in, in_len);
}
int vg_peer_openssl_sha3_256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    return ossl_digest(MD_SHA3_256, 0, out, out_len, in, in_len);
}
int vg_peer_openssl_sha3_512(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    return ossl_digest(MD_SHA3_512, 0, out, out_len, in, in_len);
}
int vg_peer_openssl_shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    return ossl_digest(MD_SHAKE128, 1, out, out_len, in, in_len);
}
int vg_peer_openssl_shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    return ossl_digest(MD_SHAKE256, 1, out, out_len, in, in_len);
}

int vg_peer_sodium_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    if (!g_sodium.loaded || out_len != 32)
        return -1;
    return g_sodium.hash_sha256(out, in, (unsigned long long)in_len) == 0 ? 0 : -1;
}

int vg_peer_sodium_sha512(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    if (!g_sodium.loaded || out_len != 64)
        return -1;
    return g_sodium.hash_sha512(out, in, (unsigned long long)in_len) == 0 ? 0 : -1;
}

int vg_peer_sodium_x25519(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    if (!g_sodium.loaded || out_len != 32 || in_len != 64)
        return -1;
    return g_sodium.scalarmult(out, in, in + 32) == 0 ? 0 : -1;
}

int vg_peer_sodium_x25519_base(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    if (!g_sodium.loaded || out_len != 32 || in_len != 32)
        return -1;
    return g_sodium.scalarmult_base(out, in) == 0 ? 0 : -1;
}

/* Key objects and a derive context for in = scalar || point. 0 or -1. */
static int ossl_x25519_prepare(const uint8_t in[64])
{
    ossl_x25519_unprepare();
    g_ossl_pk.priv = g_ossl_pk.new_raw_private(OSSL_EVP_PKEY_X25519, NULL, in, 32);
    g_ossl_pk.peer = g_ossl_pk.new_raw_public(OSSL_EVP_PKEY_X25519, NULL, in + 32, 32);
    if (!g_ossl_pk.priv || !g_ossl_pk.peer)
        goto fail;
    g_ossl_pk.dctx = g_ossl_pk.ctx_new(g_ossl_pk.priv, NULL);
    if (!g_ossl_pk.dctx || g_ossl_pk.derive_init(g_ossl_pk.dctx) != 1 ||
        g_ossl_pk.derive_set_peer(g_ossl_pk.dctx, g_ossl_pk.peer) != 1)
        goto fail;
    memcpy(g_ossl_pk.prepared_for, in, 64);
    return 0;
fail:
    ossl_x25519_unprepare();
    return -1;
}

int vg_peer_openssl_x25519(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t n = out_len;
    if (!g_ossl_pk.loaded || out_len != 32 || in_len != 64)
        return -1;
    /* The benchmark calls with one input throughout: after the first call
     * only this 64-byte compare runs beside EVP_PKEY_derive. */
    if ((g_no_cache || !g_ossl_pk.dctx || memcmp(g_ossl_pk.prepared_for, in, 64) != 0) &&
        ossl_x25519_prepare(in) != 0)
        return -1;
    return g_ossl_pk.derive(g_ossl_pk.dctx, out, &n) == 1 && n == 32 ? 0 : -1;
}

int vg_peer_openssl_x25519_base(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t n = out_len;
    int rc = -1;
    if (!g_ossl_pk.loaded || out_len != 32 || in_len != 32)
        return -1;
    /* OpenSSL computes the public key when the key object is created from
     * the raw private key; there is no cheaper public entry point. */
    EVP_PKEY *k = g_ossl_pk.new_raw_private(OSSL_EVP_PKEY_X25519, NULL, in, 32);
    if (!k)
        return -1;
    if (g_ossl_pk.get_raw_public(k, out, &n) == 1 && n == 32)
        rc = 0;
    g_ossl_pk.pkey_free(k);
    return rc;
}

/* ---- Ed25519 ------------------------------------------------------------- */

int vg_peer_sodium_ed25519_keypair(uint8_t *out, size_t out_len, const uint8_t *in,
                                   size_t in_len)
{
    uint8_t sk[64];
    int rc;
    if (!g_sodium.ed_loaded || out_len != 32 || in_len != 32)
        return -1;
    rc = g_sodium.sign_seed_keypair(out, sk, in) == 0 ? 0 : -1;
    memset(sk, 0, sizeof sk); /* benchmark data, but keep the habit cheap */
    return rc;
}

int vg_peer_sodium_ed25519_sign(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    unsigned long long n = 0;
    if (!g_sodium.ed_loaded || out_len != 64 || in_len < 64)
        return -1;
    if (g_sodium.sign_detached(out, &n, in + 64, (unsigned long long)(in_len - 64), in) != 0)
        return -1;
    return n == 64 ? 0 : -1;
}

int vg_peer_sodium_ed25519_verify(uint8_t *out, size_t out_len, const uint8_t *in,
                                  size_t in_len)
{
    if (!g_sodium.ed_loaded || out_len != 1 || in_len < 96)
        return -1;
    out[0] = g_sodium.sign_verify_detached(in + 32, in + 96, (unsigned long long)(in_len - 96),
                                           in) == 0;
    return 0;
}

int vg_peer_openssl_ed25519_keypair(uint8_t *out, size_t out_len, const uint8_t *in,
                                    size_t in_len)
{
    size_t n = out_len;
    int rc = -1;
    if (!g_ossl_ed.loaded || out_len != 32 || in_len != 32)
        return -1;
    /* As for X25519: the public key is computed when the key object is
     * created from the raw private key (the seed). */
    EVP_PKEY *k = g_ossl_pk.new_raw_private(OSSL_EVP_PKEY_ED25519, NULL, in, 32);
    if (!k)
        return -1;
    if (g_ossl_pk.get_raw_public(k, out, &n) == 1 && n == 32)
        rc = 0;
    g_ossl_pk.pkey_free(k);
    return rc;
}

int vg_peer_openssl_ed25519_sign(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t n = out_len;
    if (!g_ossl_ed.loaded || out_len != 64 || in_len < 64)
        return -1;
    /* The key object for this seed (in[0..31]), made once. */
    if (g_no_cache || !g_ossl_ed.priv || memcmp(g_ossl_ed.priv_for, in, 32) != 0) {
        if (g_ossl_ed.priv)
            g_ossl_pk.pkey_free(g_ossl_ed.priv);
        g_ossl_ed.priv = g_ossl_pk.new_raw_private(OSSL_EVP_PKEY_ED25519, NULL, in, 32);
        if (!g_ossl_ed.priv)
            return -1;
        memcpy(g_ossl_ed.priv_for, in, 32);
    }
    if (g_ossl_ed.sign_init(g_ossl_ed.sctx, NULL, NULL, NULL, g_ossl_ed.priv) != 1 ||
        g_ossl_ed.sign(g_ossl_ed.sctx, out, &n, in + 64, in_len - 64) != 1)
        return -1;
    return n == 64 ? 0 : -1;
}

int vg_peer_openssl_ed25519_verify(uint8_t *out, size_t out_len, const uint8_t *in,
                                   size_t in_len)
{
    if (!g_ossl_ed.loaded || out_len != 1 || in_len < 96)
        return -1;
    if (!g_ossl_ed.pub || memcmp(g_ossl_ed.pub_for, in, 32) != 0) {
        if (g_ossl_ed.pub)
            g_ossl_pk.pkey_free(g_ossl_ed.pub);
        g_ossl_ed.pub = g_ossl_pk.new_raw_public(OSSL_EVP_PKEY_ED25519, NULL, in, 32);
        if (!g_ossl_ed.pub)
            return -1;
        memcpy(g_ossl_ed.pub_for, in, 32);
    }
    if (g_ossl_ed.verify_init(g_ossl_ed.vctx, NULL, NULL, NULL, g_ossl_ed.pub) != 1)
        return -1;
    /* EVP_DigestVerify: 1 valid, 0 invalid, negative on other errors. */
    out[0] = g_ossl_ed.verify(g_ossl_ed.vctx, in + 32, 64, in + 96, in_len - 96) == 1;
    return 0;
}

/* ---- ChaCha20, Poly1305 and the AEADs ------------------------------------- */

#define AEAD_KEY 32
#define AEAD_TAG 16

/* Context i keyed with key (EVP_{En,De}cryptInit_ex with the cipher and the
 * key, no IV), once per key. 0 or -1. */
static int ossl_ci_key(enum ossl_ci i, const EVP_CIPHER *cipher, const uint8_t key[32])
{
    int dec = i == CI_AEAD_DEC;
    if (!g_ossl_ci.loaded || !cipher)
        return -1;
    if (!g_no_cache && g_ossl_ci.keyed[i] && memcmp(g_ossl_ci.key_for[i], key, 32) == 0)
        return 0;
    g_ossl_ci.keyed[i] = 0;
    if ((dec ? g_ossl_ci.dec_init : g_ossl_ci.enc_init)(g_ossl_ci.ctx[i], cipher, NULL, key,
                                                         NULL) != 1)
        return -1;
    memcpy(g_ossl_ci.key_for[i], key, 32);
    g_ossl_ci.keyed[i] = 1;
    return 0;
}

int vg_peer_openssl_chacha20poly1305_seal(uint8_t *out, size_t out_len, const uint8_t *in,
                                          size_t in_len)
{
    EVP_CIPHER_CTX *c = g_ossl_ci.ctx[CI_AEAD_ENC];
    size_t len = in_len - AEAD_KEY - 12;
    int n = 0, m = 0;
    if (in_len < AEAD_KEY + 12 || out_len != len + AEAD_TAG || len > 0x7fffffff ||
        ossl_ci_key(CI_AEAD_ENC, g_ossl_ci.aead, in) != 0)
        return -1;
    /* A new nonce, the key kept: OpenSSL restarts the AEAD state. */
    if (g_ossl_ci.enc_init(c, NULL, NULL, NULL, in + AEAD_KEY) != 1 ||
        g_ossl_ci.enc_update(c, out, &n, in + AEAD_KEY + 12, (int)len) != 1 ||
        g_ossl_ci.enc_final(c, out + n, &m) != 1 || (size_t)(n + m) != len ||
        g_ossl_ci.ctrl(c, OSSL_EVP_CTRL_AEAD_GET_TAG, AEAD_TAG, out + len) != 1)
        return -1;
    return 0;
}

int vg_peer_openssl_chacha20poly1305_open(uint8_t *out, size_t out_len, const uint8_t *in,
                                          size_t in_len)
{
    EVP_CIPHER_CTX *c = g_ossl_ci.ctx[CI_AEAD_DEC];
    size_t len = in_len - AEAD_KEY - 12 - AEAD_TAG;
    int n = 0, m = 0;
    if (in_len < AEAD_KEY + 12 + AEAD_TAG || out_len != 1 + len || len > 0x7fffffff ||
        ossl_ci_key(CI_AEAD_DEC, g_ossl_ci.aead, in) != 0)
        return -1;
    /* The tag is const in the caller's buffer; OpenSSL's ctrl takes void *
     * and only reads it for SET_TAG. */
    uint8_t tag[AEAD_TAG];
    memcpy(tag, in + in_len - AEAD_TAG, AEAD_TAG);
    if (g_ossl_ci.dec_init(c, NULL, NULL, NULL, in + AEAD_KEY) != 1 ||
        g_ossl_ci.ctrl(c, OSSL_EVP_CTRL_AEAD_SET_TAG, AEAD_TAG, tag) != 1 ||
        g_ossl_ci.dec_update(c, out + 1, &n, in + AEAD_KEY + 12, (int)len) != 1)
        return -1;
    /* EVP_DecryptFinal_ex: > 0 when the tag verified. */
    out[0] = g_ossl_ci.dec_final(c, out + 1 + n, &m) > 0 && (size_t)(n + m) == len;
    return 0;
}

/* libsodium's AEADs: x = 0 ChaCha20-Poly1305 (12-byte nonce), 1 XChaCha. */
static int sodium_aead_seal(int x, uint8_t *out, size_t out_len, const uint8_t *in,
                            size_t in_len)
{
    size_t nlen = x ? 24 : 12, len = in_len - AEAD_KEY - nlen;
    unsigned long long tl = 0;
    if (!g_sodium.sym_loaded || in_len < AEAD_KEY + nlen || out_len != len + AEAD_TAG)
        return -1;
    if (g_sodium.aead_enc[x](out, out + len, &tl, in + AEAD_KEY + nlen, len, NULL, 0, NULL,
                             in + AEAD_KEY, in) != 0)
        return -1;
    return tl == AEAD_TAG ? 0 : -1;
}

static int sodium_aead_open(int x, uint8_t *out, size_t out_len, const uint8_t *in,
                            size_t in_len)
{
    size_t nlen = x ? 24 : 12, len = in_len - AEAD_KEY - nlen - AEAD_TAG;
    if (!g_sodium.sym_loaded || in_len < AEAD_KEY + nlen + AEAD_TAG || out_len != 1 + len)
        return -1;
    out[0] = g_sodium.aead_dec[x](out + 1, NULL, in + AEAD_KEY + nlen, len,
                                  in + in_len - AEAD_TAG, NULL, 0, in + AEAD_KEY, in) == 0;
    return 0;
}

int vg_peer_sodium_chacha20poly1305_seal(uint8_t *out, size_t out_len, const uint8_t *in,
                                         size_t in_len)
{
    return sodium_aead_seal(0, out, out_len, in, in_len);
}
int vg_peer_sodium_chacha20poly1305_open(uint8_t *out, size_t out_len, const uint8_t *in,
                                         size_t in_len)
{
    return sodium_aead_open(0, out, out_len, in, in_len);
}
int vg_peer_sodium_xchacha20poly1305_seal(uint8_t *out, size_t out_len, const uint8_t *in,
                                          size_t in_len)
{
    return sodium_aead_seal(1, out, out_len, in, in_len);
}
int vg_peer_sodium_xchacha20poly1305_open(uint8_t *out, size_t out_len, const uint8_t *in,
                                          size_t in_len)
{
    return sodium_aead_open(1, out, out_len, in, in_len);
}

int vg_peer_openssl_chacha20(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    EVP_CIPHER_CTX *c = g_ossl_ci.ctx[CI_CHACHA20];
    size_t len = in_len - AEAD_KEY - 12;
    uint8_t iv[16] = {1, 0, 0, 0}; /* le32(block counter 1) || nonce */
    int n = 0;
    if (in_len < AEAD_KEY + 12 || out_len != len || len > 0x7fffffff ||
        ossl_ci_key(CI_CHACHA20, g_ossl_ci.chacha20, in) != 0)
        return -1;
    memcpy(iv + 4, in + AEAD_KEY, 12);
    if (g_ossl_ci.enc_init(c, NULL, NULL, NULL, iv) != 1 ||
        g_ossl_ci.enc_update(c, out, &n, in + AEAD_KEY + 12, (int)len) != 1)
        return -1;
    return (size_t)n == len ? 0 : -1;
}

int vg_peer_sodium_chacha20(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t len = in_len - AEAD_KEY - 12;
    if (!g_sodium.sym_loaded || in_len < AEAD_KEY + 12 || out_len != len)
        return -1;
    return g_sodium.stream_xor_ic(out, in + AEAD_KEY + 12, len, in + AEAD_KEY, 1, in) == 0 ? 0
                                                                                           : -1;
}

int vg_peer_openssl_poly1305(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    EVP_MAC_CTX *c = g_ossl_mac.poly1305_ctx;
    size_t n = 0;
    if (!g_ossl_mac.loaded || !c || out_len != AEAD_TAG || in_len < AEAD_KEY)
        return -1;
    if (g_ossl_mac.init(c, in, AEAD_KEY, NULL) != 1 ||
        g_ossl_mac.update(c, in + AEAD_KEY, in_len - AEAD_KEY) != 1 ||
        g_ossl_mac.final(c, out, &n, AEAD_TAG) != 1)
        return -1;
    return n == AEAD_TAG ? 0 : -1;
}

int vg_peer_sodium_poly1305(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    if (!g_sodium.sym_loaded || out_len != AEAD_TAG || in_len < AEAD_KEY)
        return -1;
    return g_sodium.onetimeauth(out, in + AEAD_KEY, in_len - AEAD_KEY, in) == 0 ? 0 : -1;
}

/* in = key (32) || nonce (16), out = the 32-byte HChaCha20 subkey. */
int vg_peer_sodium_hchacha20(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    if (!g_sodium.hchacha_loaded || out_len != 32 || in_len != 48)
        return -1;
    return g_sodium.hchacha20(out, in + 32, in, NULL) == 0 ? 0 : -1;
}

/* ---- SHA-384, HMAC-SHA-256, HKDF-SHA-256 ------------------------------------ */

int vg_peer_openssl_sha384(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    return ossl_digest(MD_SHA384, 0, out, out_len, in, in_len);
}

int vg_peer_openssl_hmac_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    EVP_MAC_CTX *c = g_ossl_mac.hmac_ctx;
    size_t n = 0;
    if (!g_ossl_mac.loaded || !c || out_len != 32 || in_len < 32)
        return -1;
    if (!g_ossl_mac.hmac_keyed || memcmp(g_ossl_mac.hmac_key_for, in, 32) != 0) {
        char digest[] = "SHA256";
        OSSL_PARAM params[2] = {
            {"digest", OSSL_PARAM_UTF8_STRING, digest, sizeof digest - 1, OSSL_PARAM_UNMODIFIED},
            {NULL, 0, NULL, 0, 0}};
        g_ossl_mac.hmac_keyed = 0;
        if (g_ossl_mac.init(c, in, 32, params) != 1)
            return -1;
        memcpy(g_ossl_mac.hmac_key_for, in, 32);
        g_ossl_mac.hmac_keyed = 1;
    } else if (g_ossl_mac.init(c, NULL, 0, NULL) != 1) {
        /* EVP_MAC_init with no key: HMAC restarts with the key it has. */
        return -1;
    }
    if (g_ossl_mac.update(c, in + 32, in_len - 32) != 1 || g_ossl_mac.final(c, out, &n, 32) != 1)
        return -1;
    return n == 32 ? 0 : -1;
}

int vg_peer_sodium_hmac_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    if (!g_sodium.loaded || !g_sodium.hmac_sha256 || out_len != 32 || in_len < 32)
        return -1;
    return g_sodium.hmac_sha256(out, in + 32, in_len - 32, in) == 0 ? 0 : -1;
}

int vg_peer_openssl_hkdf_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    if (!g_ossl_kdf.loaded || in_len != sizeof g_ossl_kdf.prepared_for)
        return -1;
    if (!g_ossl_kdf.prepared || memcmp(g_ossl_kdf.prepared_for, in, in_len) != 0) {
        char digest[] = "SHA256";
        uint8_t *p = g_ossl_kdf.prepared_for;
        memcpy(p, in, in_len);
        OSSL_PARAM params[5] = {
            {"digest", OSSL_PARAM_UTF8_STRING, digest, sizeof digest - 1, OSSL_PARAM_UNMODIFIED},
            {"key", OSSL_PARAM_OCTET_STRING, p, 32, OSSL_PARAM_UNMODIFIED},
            {"salt", OSSL_PARAM_OCTET_STRING, p + 32, 32, OSSL_PARAM_UNMODIFIED},
            {"info", OSSL_PARAM_OCTET_STRING, p + 64, 32, OSSL_PARAM_UNMODIFIED},
            {NULL, 0, NULL, 0, 0}};
        g_ossl_kdf.prepared = 0;
        if (g_ossl_kdf.set_params(g_ossl_kdf.ctx, params) != 1)
            return -1;
        g_ossl_kdf.prepared = 1;
    }
    return g_ossl_kdf.derive(g_ossl_kdf.ctx, out, out_len, NULL) == 1 ? 0 : -1;
}
