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
