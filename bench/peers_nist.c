/*
 * OpenSSL 3 peers of the P-256 / P-384 speed rows (peers_nist.h), through
 * EVP with libcrypto.so.3 loaded by dlopen as in peers.c. Key objects are
 * made once per input (a compare per call detects a new input), so that a
 * timed call is the operation itself:
 *   ecdh:       EVP_PKEY_derive on a context with the peer set;
 *   public key: d2i_PrivateKey of an RFC 5915 ECPrivateKey without its
 *               public key (OpenSSL computes it) + EVP_PKEY_get_octet_string_param
 *               ("pub") + EVP_PKEY_free: the key object's creation is timed;
 *   sign:       EVP_PKEY_sign on a context made once per key (DER output);
 *   verify:     EVP_PKEY_verify on a context made once per public key, the
 *               DER form of the signature made once per input.
 */
#define _XOPEN_SOURCE 700

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "peers_nist.h"

typedef struct evp_pkey_st EVP_PKEY;
typedef struct evp_pkey_ctx_st EVP_PKEY_CTX;
typedef struct engine_st ENGINE;
#define OSSL_EVP_PKEY_EC 408 /* NID_X9_62_id_ecPublicKey in <openssl/obj_mac.h> */

static struct {
    int tried, loaded;
    EVP_PKEY *(*d2i_priv)(int, EVP_PKEY **, const unsigned char **, long);
    EVP_PKEY *(*d2i_pub)(EVP_PKEY **, const unsigned char **, long);
    int (*get_oct)(const EVP_PKEY *, const char *, unsigned char *, size_t, size_t *);
    void (*pkey_free)(EVP_PKEY *);
    EVP_PKEY_CTX *(*ctx_new)(EVP_PKEY *, ENGINE *);
    void (*ctx_free)(EVP_PKEY_CTX *);
    int (*derive_init)(EVP_PKEY_CTX *);
    int (*derive_set_peer)(EVP_PKEY_CTX *, EVP_PKEY *);
    int (*derive)(EVP_PKEY_CTX *, unsigned char *, size_t *);
    int (*sign_init)(EVP_PKEY_CTX *);
    int (*sign)(EVP_PKEY_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
    int (*verify_init)(EVP_PKEY_CTX *);
    int (*verify)(EVP_PKEY_CTX *, const unsigned char *, size_t, const unsigned char *, size_t);
} g_o;

/* One prepared state per operation and curve (index 0: P-256, 1: P-384). */
struct prep {
    uint8_t for_in[256];
    size_t for_len;
    EVP_PKEY *a, *b;
    EVP_PKEY_CTX *ctx;
    uint8_t der[112];
    size_t der_len;
};
static struct prep g_ecdh[2], g_sign[2], g_verify[2];

#define SYM(lib, name, dst) (*(void **)(&(dst)) = dlsym((lib), (name))) == NULL

static int load(void)
{
    if (g_o.tried)
        return g_o.loaded ? 0 : -1;
    g_o.tried = 1;
    void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    if (SYM(lib, "d2i_PrivateKey", g_o.d2i_priv) || SYM(lib, "d2i_PUBKEY", g_o.d2i_pub) ||
        SYM(lib, "EVP_PKEY_get_octet_string_param", g_o.get_oct) ||
        SYM(lib, "EVP_PKEY_free", g_o.pkey_free) || SYM(lib, "EVP_PKEY_CTX_new", g_o.ctx_new) ||
        SYM(lib, "EVP_PKEY_CTX_free", g_o.ctx_free) ||
        SYM(lib, "EVP_PKEY_derive_init", g_o.derive_init) ||
        SYM(lib, "EVP_PKEY_derive_set_peer", g_o.derive_set_peer) ||
        SYM(lib, "EVP_PKEY_derive", g_o.derive) || SYM(lib, "EVP_PKEY_sign_init", g_o.sign_init) ||
        SYM(lib, "EVP_PKEY_sign", g_o.sign) || SYM(lib, "EVP_PKEY_verify_init", g_o.verify_init) ||
        SYM(lib, "EVP_PKEY_verify", g_o.verify))
        return -1;
    g_o.loaded = 1;
    return 0;
}

static size_t nb_of(int c) { return c ? 48 : 32; }

/* RFC 5915 ECPrivateKey { version 1, privateKey, [0] namedCurve }, no public key. */
static EVP_PKEY *priv_key(int c, const uint8_t *sk)
{
    static const uint8_t oid256[] = {0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07};
    static const uint8_t oid384[] = {0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22};
    const uint8_t *oid = c ? oid384 : oid256;
    size_t ol = c ? sizeof oid384 : sizeof oid256, nb = nb_of(c), n = 0;
    uint8_t der[96];
    der[n++] = 0x30;
    der[n++] = (uint8_t)(3 + 2 + nb + 2 + ol);
    der[n++] = 0x02, der[n++] = 0x01, der[n++] = 0x01;
    der[n++] = 0x04, der[n++] = (uint8_t)nb;
    memcpy(der + n, sk, nb), n += nb;
    der[n++] = 0xa0, der[n++] = (uint8_t)ol;
    memcpy(der + n, oid, ol), n += ol;
    const unsigned char *p = der;
    EVP_PKEY *k = g_o.d2i_priv(OSSL_EVP_PKEY_EC, NULL, &p, (long)n);
    memset(der, 0, sizeof der);
    return k;
}

/* SubjectPublicKeyInfo of an uncompressed point (RFC 5480). */
static EVP_PKEY *pub_key(int c, const uint8_t *pt)
{
    static const uint8_t pre256[] = {0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48,
                                     0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
                                     0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00};
    static const uint8_t pre384[] = {0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86,
                                     0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b,
                                     0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00};
    uint8_t der[128];
    size_t pl = c ? sizeof pre384 : sizeof pre256, n = pl + 1 + 2 * nb_of(c);
    memcpy(der, c ? pre384 : pre256, pl);
    memcpy(der + pl, pt, 1 + 2 * nb_of(c));
    const unsigned char *p = der;
    return g_o.d2i_pub(NULL, &p, (long)n);
}

static void prep_clear(struct prep *s)
{
    if (s->ctx)
        g_o.ctx_free(s->ctx);
    if (s->a)
        g_o.pkey_free(s->a);
    if (s->b)
        g_o.pkey_free(s->b);
    memset(s, 0, sizeof *s);
}

/* vg_peers_nist_no_cache: every call makes its key objects afresh (the
 * statistical tests: both classes pay the same setup). */
static int g_no_cache;

void vg_peers_nist_no_cache(int on) { g_no_cache = on != 0; }

/* 1 when s is already prepared for in (never with no-cache). */
static int prepared(const struct prep *s, const uint8_t *in, size_t in_len)
{
    return !g_no_cache && s->ctx && s->for_len == in_len && memcmp(s->for_in, in, in_len) == 0;
}

static void remember(struct prep *s, const uint8_t *in, size_t in_len)
{
    memcpy(s->for_in, in, in_len);
    s->for_len = in_len;
}

static int ecdh(int c, uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t nb = nb_of(c), len = out_len;
    struct prep *s = &g_ecdh[c];
    if (load() != 0 || in_len != 1 + 3 * nb || out_len < nb || in_len > sizeof s->for_in)
        return -1;
    if (!prepared(s, in, in_len)) {
        prep_clear(s);
        s->a = priv_key(c, in);
        s->b = pub_key(c, in + nb);
        if (!s->a || !s->b || !(s->ctx = g_o.ctx_new(s->a, NULL)) ||
            g_o.derive_init(s->ctx) != 1 || g_o.derive_set_peer(s->ctx, s->b) != 1) {
            prep_clear(s);
            return -1;
        }
        remember(s, in, in_len);
    }
    return g_o.derive(s->ctx, out, &len) == 1 && len == nb ? 0 : -1;
}

static int public_key(int c, uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t nb = nb_of(c), len = 0;
    if (load() != 0 || in_len != nb || out_len < 1 + 2 * nb)
        return -1;
    EVP_PKEY *k = priv_key(c, in);
    if (!k)
        return -1;
    int rc = g_o.get_oct(k, "pub", out, out_len, &len) == 1 && len == 1 + 2 * nb ? 0 : -1;
    g_o.pkey_free(k);
    return rc;
}

static int sign(int c, uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t nb = nb_of(c), len = out_len;
    struct prep *s = &g_sign[c];
    if (load() != 0 || in_len != 2 * nb)
        return -1;
    if (!prepared(s, in, nb)) {
        prep_clear(s);
        s->a = priv_key(c, in);
        if (!s->a || !(s->ctx = g_o.ctx_new(s->a, NULL)) || g_o.sign_init(s->ctx) != 1) {
            prep_clear(s);
            return -1;
        }
        remember(s, in, nb);
    }
    return g_o.sign(s->ctx, out, &len, in + nb, nb) == 1 ? 0 : -1;
}

/* DER of r || s (nb bytes each), as vg_ecdsa_sig_to_der would write it. */
static size_t der_sig(uint8_t *der, const uint8_t *sig, size_t nb)
{
    size_t n = 2;
    for (size_t h = 0; h < 2; h++) {
        const uint8_t *v = sig + h * nb;
        size_t i = 0;
        while (i + 1 < nb && v[i] == 0)
            i++;
        size_t pad = v[i] & 0x80 ? 1 : 0;
        der[n++] = 0x02;
        der[n++] = (uint8_t)(nb - i + pad);
        if (pad)
            der[n++] = 0;
        memcpy(der + n, v + i, nb - i);
        n += nb - i;
    }
    der[0] = 0x30;
    der[1] = (uint8_t)(n - 2);
    return n;
}

static int verify(int c, uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t nb = nb_of(c);
    struct prep *s = &g_verify[c];
    if (load() != 0 || in_len != 1 + 5 * nb || out_len < 1 || in_len > sizeof s->for_in)
        return -1;
    if (!prepared(s, in, in_len)) {
        prep_clear(s);
        s->a = pub_key(c, in);
        if (!s->a || !(s->ctx = g_o.ctx_new(s->a, NULL)) || g_o.verify_init(s->ctx) != 1) {
            prep_clear(s);
            return -1;
        }
        s->der_len = der_sig(s->der, in + 1 + 2 * nb, nb);
        remember(s, in, in_len);
    }
    out[0] = g_o.verify(s->ctx, s->der, s->der_len, in + 1 + 4 * nb, nb) == 1;
    return 0;
}

int vg_peer_openssl_p256_ecdh(uint8_t *o, size_t ol, const uint8_t *i, size_t il)
{
    return ecdh(0, o, ol, i, il);
}
int vg_peer_openssl_p384_ecdh(uint8_t *o, size_t ol, const uint8_t *i, size_t il)
{
    return ecdh(1, o, ol, i, il);
}
int vg_peer_openssl_p256_public_key(uint8_t *o, size_t ol, const uint8_t *i, size_t il)
{
    return public_key(0, o, ol, i, il);
}
int vg_peer_openssl_p384_public_key(uint8_t *o, size_t ol, const uint8_t *i, size_t il)
{
    return public_key(1, o, ol, i, il);
}
int vg_peer_openssl_p256_sign(uint8_t *o, size_t ol, const uint8_t *i, size_t il)
{
    return sign(0, o, ol, i, il);
}
int vg_peer_openssl_p384_sign(uint8_t *o, size_t ol, const uint8_t *i, size_t il)
{
    return sign(1, o, ol, i, il);
}
int vg_peer_openssl_p256_verify(uint8_t *o, size_t ol, const uint8_t *i, size_t il)
{
    return verify(0, o, ol, i, il);
}
int vg_peer_openssl_p384_verify(uint8_t *o, size_t ol, const uint8_t *i, size_t il)
{
    return verify(1, o, ol, i, il);
}

/* ---- the low-level EC_KEY path (deprecated in OpenSSL 3, still what older
 * applications call): the same operations on EC_KEY / EC_POINT objects made
 * once per input, so that a timed call is
 *   ecdh:       ECDH_compute_key (no KDF);
 *   public key: EC_POINT_mul(G, sk) + EC_POINT_point2oct (uncompressed), the
 *               BIGNUM of sk made once per input;
 *   sign:       ECDSA_do_sign + ECDSA_SIG_free;
 *   verify:     ECDSA_do_verify, the ECDSA_SIG made once per input. */

typedef struct ec_key_st EC_KEY;
typedef struct ec_group_st EC_GROUP;
typedef struct ec_point_st EC_POINT;
typedef struct bignum_st BIGNUM;
typedef struct bignum_ctx BN_CTX;
typedef struct ECDSA_SIG_st ECDSA_SIG;
#define OSSL_NID_P256 415 /* NID_X9_62_prime256v1 */
#define OSSL_NID_P384 715 /* NID_secp384r1 */
#define OSSL_POINT_UNCOMPRESSED 4

static struct {
    int tried, loaded;
    EC_KEY *(*key_new)(int);
    void (*key_free)(EC_KEY *);
    int (*set_priv)(EC_KEY *, const BIGNUM *);
    int (*set_pub)(EC_KEY *, const EC_POINT *);
    const EC_GROUP *(*group)(const EC_KEY *);
    EC_POINT *(*pt_new)(const EC_GROUP *);
    void (*pt_free)(EC_POINT *);
    int (*oct2pt)(const EC_GROUP *, EC_POINT *, const unsigned char *, size_t, BN_CTX *);
    size_t (*pt2oct)(const EC_GROUP *, const EC_POINT *, int, unsigned char *, size_t, BN_CTX *);
    int (*pt_mul)(const EC_GROUP *, EC_POINT *, const BIGNUM *, const EC_POINT *, const BIGNUM *,
                  BN_CTX *);
    int (*ecdh)(void *, size_t, const EC_POINT *, const EC_KEY *, void *);
    ECDSA_SIG *(*do_sign)(const unsigned char *, int, EC_KEY *);
    int (*do_verify)(const unsigned char *, int, const ECDSA_SIG *, EC_KEY *);
    ECDSA_SIG *(*sig_new)(void);
    void (*sig_free)(ECDSA_SIG *);
    int (*sig_set0)(ECDSA_SIG *, BIGNUM *, BIGNUM *);
    BIGNUM *(*bin2bn)(const unsigned char *, int, BIGNUM *);
    void (*bn_free)(BIGNUM *);
} g_k;

static int load_ec_key(void)
{
    if (g_k.tried)
        return g_k.loaded ? 0 : -1;
    g_k.tried = 1;
    void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    if (SYM(lib, "EC_KEY_new_by_curve_name", g_k.key_new) || SYM(lib, "EC_KEY_free", g_k.key_free) ||
        SYM(lib, "EC_KEY_set_private_key", g_k.set_priv) ||
        SYM(lib, "EC_KEY_set_public_key", g_k.set_pub) ||
        SYM(lib, "EC_KEY_get0_group", g_k.group) || SYM(lib, "EC_POINT_new", g_k.pt_new) ||
        SYM(lib, "EC_POINT_free", g_k.pt_free) || SYM(lib, "EC_POINT_oct2point", g_k.oct2pt) ||
        SYM(lib, "EC_POINT_point2oct", g_k.pt2oct) || SYM(lib, "EC_POINT_mul", g_k.pt_mul) ||
        SYM(lib, "ECDH_compute_key", g_k.ecdh) || SYM(lib, "ECDSA_do_sign", g_k.do_sign) ||
        SYM(lib, "ECDSA_do_verify", g_k.do_verify) || SYM(lib, "ECDSA_SIG_new", g_k.sig_new) ||
        SYM(lib, "ECDSA_SIG_free", g_k.sig_free) || SYM(lib, "ECDSA_SIG_set0", g_k.sig_set0) ||
        SYM(lib, "BN_bin2bn", g_k.bin2bn) || SYM(lib, "BN_clear_free", g_k.bn_free))
        return -1;
    g_k.loaded = 1;
    return 0;
}

/* One prepared state per operation and curve, as struct prep above. */
struct kprep {
    uint8_t for_in[256];
    size_t for_len;
    EC_KEY *key;
    EC_POINT *pt;
    BIGNUM *bn;
    ECDSA_SIG *sig;
};
static struct kprep g_kecdh[2], g_kpub[2], g_ksign[2], g_kverify[2];

static void kprep_clear(struct kprep *s)
{
    if (s->sig)
        g_k.sig_free(s->sig);
    if (s->bn)
        g_k.bn_free(s->bn);
    if (s->pt)
        g_k.pt_free(s->pt);
    if (s->key)
        g_k.key_free(s->key);
    memset(s, 0, sizeof *s);
}

static int kprepared(const struct kprep *s, const uint8_t *in, size_t in_len)
{
    return !g_no_cache && s->key && s->for_len == in_len && memcmp(s->for_in, in, in_len) == 0;
}

/* s->key for curve c (with the private key sk when sk != NULL; the BIGNUM
 * is kept in s->bn) and, when pt != NULL, s->pt decoded from it. */
static int kprep_make(struct kprep *s, int c, const uint8_t *sk, const uint8_t *pt)
{
    size_t nb = nb_of(c);
    kprep_clear(s);
    s->key = g_k.key_new(c ? OSSL_NID_P384 : OSSL_NID_P256);
    if (!s->key)
        return -1;
    if (sk && (!(s->bn = g_k.bin2bn(sk, (int)nb, NULL)) || g_k.set_priv(s->key, s->bn) != 1))
        return -1;
    if (pt && (!(s->pt = g_k.pt_new(g_k.group(s->key))) ||
               g_k.oct2pt(g_k.group(s->key), s->pt, pt, 1 + 2 * nb, NULL) != 1))
        return -1;
    return 0;
}

static int k_ecdh(int c, uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t nb = nb_of(c);
    struct kprep *s = &g_kecdh[c];
    if (load_ec_key() != 0 || in_len != 1 + 3 * nb || out_len < nb)
        return -1;
    if (!kprepared(s, in, in_len)) {
        if (kprep_make(s, c, in, in + nb) != 0) {
            kprep_clear(s);
            return -1;
        }
        memcpy(s->for_in, in, in_len);
        s->for_len = in_len;
    }
    return g_k.ecdh(out, nb, s->pt, s->key, NULL) == (int)nb ? 0 : -1;
}

static int k_public_key(int c, uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t nb = nb_of(c);
    struct kprep *s = &g_kpub[c];
    if (load_ec_key() != 0 || in_len != nb || out_len < 1 + 2 * nb)
        return -1;
    if (!kprepared(s, in, in_len)) {
        if (kprep_make(s, c, in, NULL) != 0 || !(s->pt = g_k.pt_new(g_k.group(s->key)))) {
            kprep_clear(s);
            return -1;
        }
        memcpy(s->for_in, in, in_len);
        s->for_len = in_len;
    }
    const EC_GROUP *g = g_k.group(s->key);
    if (g_k.pt_mul(g, s->pt, s->bn, NULL, NULL, NULL) != 1)
        return -1;
    return g_k.pt2oct(g, s->pt, OSSL_POINT_UNCOMPRESSED, out, 1 + 2 * nb, NULL) == 1 + 2 * nb
               ? 0
               : -1;
}

static int k_sign(int c, uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t nb = nb_of(c);
    struct kprep *s = &g_ksign[c];
    (void)out;
    (void)out_len;
    if (load_ec_key() != 0 || in_len != 2 * nb)
        return -1;
    if (!kprepared(s, in, nb)) {
        if (kprep_make(s, c, in, NULL) != 0) {
            kprep_clear(s);
            return -1;
        }
        memcpy(s->for_in, in, nb);
        s->for_len = nb;
    }
    ECDSA_SIG *sig = g_k.do_sign(in + nb, (int)nb, s->key);
    if (!sig)
        return -1;
    g_k.sig_free(sig);
    return 0;
}

static int k_verify(int c, uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    size_t nb = nb_of(c);
    struct kprep *s = &g_kverify[c];
    if (load_ec_key() != 0 || in_len != 1 + 5 * nb || out_len < 1)
        return -1;
    if (!kprepared(s, in, in_len)) {
        BIGNUM *r = NULL, *sv = NULL;
        if (kprep_make(s, c, NULL, in) != 0 || g_k.set_pub(s->key, s->pt) != 1 ||
            !(s->sig = g_k.sig_new()) ||
            !(r = g_k.bin2bn(in + 1 + 2 * nb, (int)nb, NULL)) ||
            !(sv = g_k.bin2bn(in + 1 + 3 * nb, (int)nb, NULL)) || g_k.sig_set0(s->sig, r, sv) != 1) {
            if (r)
                g_k.bn_free(r);
            if (sv)
                g_k.bn_free(sv);
            kprep_clear(s);
            return -1;
        }
        memcpy(s->for_in, in, in_len);
        s->for_len = in_len;
    }
    out[0] = g_k.do_verify(in + 1 + 4 * nb, (int)nb, s->sig, s->key) == 1;
    return 0;
}

#define K_PEERS(c, i)                                                                      \
    int vg_peer_ec_key_##c##_ecdh(uint8_t *o, size_t ol, const uint8_t *in, size_t il)    \
    {                                                                                      \
        return k_ecdh(i, o, ol, in, il);                                                   \
    }                                                                                      \
    int vg_peer_ec_key_##c##_public_key(uint8_t *o, size_t ol, const uint8_t *in,         \
                                        size_t il)                                         \
    {                                                                                      \
        return k_public_key(i, o, ol, in, il);                                             \
    }                                                                                      \
    int vg_peer_ec_key_##c##_sign(uint8_t *o, size_t ol, const uint8_t *in, size_t il)    \
    {                                                                                      \
        return k_sign(i, o, ol, in, il);                                                   \
    }                                                                                      \
    int vg_peer_ec_key_##c##_verify(uint8_t *o, size_t ol, const uint8_t *in, size_t il)  \
    {                                                                                      \
        return k_verify(i, o, ol, in, il);                                                 \
    }
K_PEERS(p256, 0)
K_PEERS(p384, 1)
