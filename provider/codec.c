/*
 * Encoders (provider-encoder(7)) and decoders (provider-decoder(7)) for the
 * provider's key types that have an X.509 / PKCS#8 encoding: ML-KEM-512/768/
 * 1024, X-Wing, ML-DSA-44/65/87 and Ed25519, over the library's encodings
 * (vg_key_encode_* / vg_key_decode_*, docs/encodings.md):
 *   PrivateKeyInfo (PKCS#8 OneAsymmetricKey) and SubjectPublicKeyInfo, each
 *   as DER and PEM, both ways; and a text form (encoder only), for
 *   `openssl pkey -text`.
 * The TLS hybrids (X25519MLKEM768, SecP256r1MLKEM768, SecP384r1MLKEM1024)
 * have no OID and no such encoding.
 *
 * The coders reach a key only through its key manager's dispatch table
 * (new, import, export, free): the private key written is the seed when the
 * key has one (the LAMPS documents' seed form), else the expanded key; a
 * decoded key is imported as "seed" or "priv" accordingly, with the key
 * manager's checks. Asked for a cipher (`openssl genpkey -aes256`), the
 * PrivateKeyInfo encoders write EncryptedPrivateKeyInfo (RFC 5958 3, PBES2
 * with PBKDF2, as OpenSSL's own: PKCS8_encrypt_ex over the application's
 * providers through the child library context), and fail, never writing the
 * key in the clear, when that cannot be done. Encrypted keys are read by
 * OpenSSL's own EncryptedPrivateKeyInfo decoder, which hands the
 * PrivateKeyInfo on to these.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/core_object.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>

#include "vgcrypto.h"
#include "vgp.h"

OSSL_FUNC_BIO_read_ex_fn *vgp_core_bio_read_ex;
OSSL_FUNC_BIO_write_ex_fn *vgp_core_bio_write_ex;

struct vgp_codec_type {
    const char *name; /* the key manager's primary name (the object's data type) */
    vg_key_alg alg;
    const OSSL_DISPATCH *keymgmt;
    /* A decoded private key of this length is the "seed" parameter; any
     * other length is "priv" (0: always "priv"). */
    size_t seed_len;
};

static const struct vgp_codec_type vgp_codec_mlkem512 = {"ML-KEM-512", VG_KEY_MLKEM512,
                                                         vgp_keymgmt_mlkem512, 64};
static const struct vgp_codec_type vgp_codec_mlkem768 = {"ML-KEM-768", VG_KEY_MLKEM768,
                                                         vgp_keymgmt_mlkem768, 64};
static const struct vgp_codec_type vgp_codec_mlkem1024 = {"ML-KEM-1024", VG_KEY_MLKEM1024,
                                                          vgp_keymgmt_mlkem1024, 64};
static const struct vgp_codec_type vgp_codec_xwing = {"X-Wing", VG_KEY_XWING, vgp_keymgmt_xwing,
                                                      0};
static const struct vgp_codec_type vgp_codec_mldsa44 = {"ML-DSA-44", VG_KEY_MLDSA44,
                                                        vgp_keymgmt_mldsa44, 32};
static const struct vgp_codec_type vgp_codec_mldsa65 = {"ML-DSA-65", VG_KEY_MLDSA65,
                                                        vgp_keymgmt_mldsa65, 32};
static const struct vgp_codec_type vgp_codec_mldsa87 = {"ML-DSA-87", VG_KEY_MLDSA87,
                                                        vgp_keymgmt_mldsa87, 32};
static const struct vgp_codec_type vgp_codec_ed25519 = {"ED25519", VG_KEY_ED25519,
                                                        vgp_keymgmt_ed25519, 0};

/* ---- the key manager's functions ----------------------------------------- */

static void (*vgp_km_fn(const struct vgp_codec_type *t, int id))(void)
{
    const OSSL_DISPATCH *d;

    for (d = t->keymgmt; d->function_id != 0; d++)
        if (d->function_id == id)
            return d->function;
    return NULL;
}

static void *vgp_km_new(const struct vgp_codec_type *t)
{
    OSSL_FUNC_keymgmt_new_fn *fn = (OSSL_FUNC_keymgmt_new_fn *)vgp_km_fn(t, OSSL_FUNC_KEYMGMT_NEW);

    return fn(NULL);
}

static void vgp_km_free(const struct vgp_codec_type *t, void *key)
{
    OSSL_FUNC_keymgmt_free_fn *fn =
        (OSSL_FUNC_keymgmt_free_fn *)vgp_km_fn(t, OSSL_FUNC_KEYMGMT_FREE);

    fn(key);
}

static int vgp_km_import(const struct vgp_codec_type *t, void *key, int selection,
                         const OSSL_PARAM params[])
{
    OSSL_FUNC_keymgmt_import_fn *fn =
        (OSSL_FUNC_keymgmt_import_fn *)vgp_km_fn(t, OSSL_FUNC_KEYMGMT_IMPORT);

    return fn(key, selection, params);
}

static int vgp_km_export(const struct vgp_codec_type *t, void *key, int selection,
                         OSSL_CALLBACK *cb, void *cbarg)
{
    OSSL_FUNC_keymgmt_export_fn *fn =
        (OSSL_FUNC_keymgmt_export_fn *)vgp_km_fn(t, OSSL_FUNC_KEYMGMT_EXPORT);

    return fn(key, selection, cb, cbarg);
}

/* A key's material, as its key manager exports it (pointers into the key,
 * valid while it lives). */
struct vgp_material {
    const uint8_t *pub, *priv, *seed;
    size_t pub_len, priv_len, seed_len;
};

static int vgp_collect(const OSSL_PARAM params[], void *arg)
{
    struct vgp_material *m = arg;
    const OSSL_PARAM *p;
    const void *v;
    size_t len;

    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY);
    if (p != NULL && OSSL_PARAM_get_octet_string_ptr(p, &v, &len)) {
        m->pub = v;
        m->pub_len = len;
    }
    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY);
    if (p != NULL && OSSL_PARAM_get_octet_string_ptr(p, &v, &len)) {
        m->priv = v;
        m->priv_len = len;
    }
    p = OSSL_PARAM_locate_const(params, "seed");
    if (p != NULL && OSSL_PARAM_get_octet_string_ptr(p, &v, &len)) {
        m->seed = v;
        m->seed_len = len;
    }
    return 1;
}

/* ---- selections ---------------------------------------------------------- */

/* As OpenSSL's own coders read a selection: the highest level asked for
 * (private key, then public key, then parameters) decides; 0 = any. */
static int vgp_selection_ok(int selection, int supported)
{
    static const int levels[] = {OSSL_KEYMGMT_SELECT_PRIVATE_KEY, OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
                                 OSSL_KEYMGMT_SELECT_ALL_PARAMETERS};
    size_t i;

    if (selection == 0)
        return 1;
    for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
        if ((selection & levels[i]) != 0)
            return (supported & levels[i]) != 0;
    return 0;
}

static int vgp_does_priv(void *provctx, int selection)
{
    (void)provctx;
    return vgp_selection_ok(selection, OSSL_KEYMGMT_SELECT_PRIVATE_KEY);
}

static int vgp_does_pub(void *provctx, int selection)
{
    (void)provctx;
    return vgp_selection_ok(selection, OSSL_KEYMGMT_SELECT_PUBLIC_KEY);
}

static int vgp_does_text(void *provctx, int selection)
{
    (void)provctx;
    return vgp_selection_ok(selection, OSSL_KEYMGMT_SELECT_KEYPAIR);
}

/* ---- encoder ------------------------------------------------------------- */

enum vgp_form { VGP_DER_PRIV, VGP_PEM_PRIV, VGP_DER_PUB, VGP_PEM_PUB, VGP_TEXT };

struct vgp_coder_ctx {
    const struct vgp_codec_type *type;
    enum vgp_form form;
    OSSL_LIB_CTX *libctx; /* the provider's child library context */
    char *cipher;         /* the encryption cipher's name, when one was set */
};

static void *vgp_coder_newctx(void *provctx, const struct vgp_codec_type *type,
                              enum vgp_form form)
{
    struct vgp_coder_ctx *ctx = OPENSSL_zalloc(sizeof(*ctx));

    if (ctx != NULL) {
        ctx->type = type;
        ctx->form = form;
        ctx->libctx = provctx != NULL ? ((struct vgp_provctx *)provctx)->libctx : NULL;
    }
    return ctx;
}

static void vgp_coder_freectx(void *vctx)
{
    struct vgp_coder_ctx *ctx = vctx;

    if (ctx != NULL)
        OPENSSL_free(ctx->cipher);
    OPENSSL_free(ctx);
}

static int vgp_enc_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    struct vgp_coder_ctx *ctx = vctx;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_ENCODER_PARAM_CIPHER);
    const char *name;

    if (p != NULL) {
        if (!OSSL_PARAM_get_utf8_string_ptr(p, &name))
            return 0;
        OPENSSL_free(ctx->cipher);
        ctx->cipher = NULL;
        if (name != NULL && name[0] != '\0' && (ctx->cipher = OPENSSL_strdup(name)) == NULL)
            return 0;
    }
    return 1;
}

static const OSSL_PARAM vgp_enc_settable[] = {
    OSSL_PARAM_utf8_string(OSSL_ENCODER_PARAM_CIPHER, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_enc_settable_ctx_params(void *provctx)
{
    (void)provctx;
    return vgp_enc_settable;
}

static int vgp_write(OSSL_CORE_BIO *out, const void *buf, size_t len)
{
    size_t written = 0;

    return vgp_core_bio_write_ex != NULL && vgp_core_bio_write_ex(out, buf, len, &written) &&
           written == len;
}

static int vgp_write_str(OSSL_CORE_BIO *out, const char *s)
{
    return vgp_write(out, s, strlen(s));
}

/* "label:" and the bytes in hex, 15 a line, as OpenSSL prints keys. */
static int vgp_write_hex(OSSL_CORE_BIO *out, const char *label, const uint8_t *buf, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    char line[4 + 15 * 3 + 2];
    size_t i, n = 0;

    if (!vgp_write_str(out, label) || !vgp_write_str(out, ":\n"))
        return 0;
    for (i = 0; i < len; i++) {
        if (i % 15 == 0) {
            memcpy(line, "    ", 4);
            n = 4;
        }
        line[n++] = hex[buf[i] >> 4];
        line[n++] = hex[buf[i] & 15];
        if (i + 1 < len)
            line[n++] = ':';
        if (i % 15 == 14 || i + 1 == len) {
            line[n++] = '\n';
            if (!vgp_write(out, line, n))
                return 0;
        }
    }
    OPENSSL_cleanse(line, sizeof(line));
    return 1;
}

static int vgp_encode_text(const struct vgp_codec_type *t, OSSL_CORE_BIO *out,
                           const struct vgp_material *m, int selection)
{
    int priv = (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) != 0 || selection == 0;

    if (priv && m->priv == NULL)
        priv = 0;
    if (!priv && m->pub == NULL)
        return 0;
    if (!vgp_write_str(out, t->name) ||
        !vgp_write_str(out, priv ? " Private-Key:\n" : " Public-Key:\n"))
        return 0;
    if (priv && m->seed != NULL && !vgp_write_hex(out, "seed", m->seed, m->seed_len))
        return 0;
    if (priv && !vgp_write_hex(out, "priv", m->priv, m->priv_len))
        return 0;
    if (m->pub != NULL && !vgp_write_hex(out, "pub", m->pub, m->pub_len))
        return 0;
    return 1;
}

/* EncryptedPrivateKeyInfo of a PrivateKeyInfo DER: PBES2 with the asked
 * cipher and PBKDF2 (PKCS8_encrypt_ex's defaults: random salt, OpenSSL's
 * default iteration count, HMAC-SHA-256), the passphrase from the caller's
 * callback; DER, or PEM with the label ENCRYPTED PRIVATE KEY (RFC 7468 11). */
static int vgp_write_encrypted(struct vgp_coder_ctx *ctx, OSSL_CORE_BIO *out, const uint8_t *der,
                               size_t der_len, OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    const unsigned char *p = der;
    PKCS8_PRIV_KEY_INFO *p8inf = NULL;
    X509_SIG *p8 = NULL;
    EVP_CIPHER *cipher = NULL;
    BIO *mem = NULL;
    BUF_MEM *bm = NULL;
    char pass[1024];
    size_t pass_len = 0;
    int ok = 0;

    if (cb == NULL || !cb(pass, sizeof(pass), &pass_len, NULL, cbarg) ||
        pass_len > sizeof(pass)) {
        ERR_raise_data(ERR_LIB_PROV, ERR_R_PASSED_INVALID_ARGUMENT, "no passphrase");
        goto out;
    }
    p8inf = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)der_len);
    cipher = EVP_CIPHER_fetch(ctx->libctx, ctx->cipher, NULL);
    if (p8inf == NULL || cipher == NULL)
        goto out;
    p8 = PKCS8_encrypt_ex(-1, cipher, pass, (int)pass_len, NULL, 0, 0, p8inf, ctx->libctx, NULL);
    mem = BIO_new(BIO_s_mem());
    if (p8 == NULL || mem == NULL)
        goto out;
    if (ctx->form == VGP_PEM_PRIV ? !PEM_write_bio_PKCS8(mem, p8) : !i2d_PKCS8_bio(mem, p8))
        goto out;
    BIO_get_mem_ptr(mem, &bm);
    ok = bm != NULL && vgp_write(out, bm->data, bm->length);
out:
    OPENSSL_cleanse(pass, sizeof(pass));
    BIO_free(mem);
    X509_SIG_free(p8);
    PKCS8_PRIV_KEY_INFO_free(p8inf); /* clears the key octets */
    EVP_CIPHER_free(cipher);
    return ok;
}

static int vgp_encode_material(struct vgp_coder_ctx *ctx, OSSL_CORE_BIO *out,
                               const struct vgp_material *m, int selection,
                               OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    const struct vgp_codec_type *t = ctx->type;
    uint8_t *buf;
    size_t len = 0;
    int ok = 0, rc;

    if (ctx->form == VGP_TEXT)
        return vgp_encode_text(t, out, m, selection);
    buf = OPENSSL_secure_malloc(VG_KEY_ENCODED_MAXBYTES);
    if (buf == NULL)
        return 0;
    if (ctx->form == VGP_DER_PRIV || ctx->form == VGP_PEM_PRIV) {
        unsigned flags = ctx->form == VGP_PEM_PRIV && ctx->cipher == NULL ? VG_KEY_PEM
                                                                           : VG_KEY_DER;
        const uint8_t *key = m->seed != NULL ? m->seed : m->priv;
        size_t key_len = m->seed != NULL ? m->seed_len : m->priv_len;

        if (key == NULL)
            goto out;
        rc = vg_key_encode_private(buf, VG_KEY_ENCODED_MAXBYTES, &len, t->alg, flags, key,
                                   key_len);
        if (rc == VG_OK && ctx->cipher != NULL) {
            ok = vgp_write_encrypted(ctx, out, buf, len, cb, cbarg);
            goto out;
        }
    } else {
        unsigned flags = ctx->form == VGP_PEM_PUB ? VG_KEY_PEM : VG_KEY_DER;

        if (m->pub == NULL)
            goto out;
        rc = vg_key_encode_public(buf, VG_KEY_ENCODED_MAXBYTES, &len, t->alg, flags, m->pub,
                                  m->pub_len);
    }
    ok = rc == VG_OK && vgp_write(out, buf, len);
out:
    OPENSSL_secure_clear_free(buf, VG_KEY_ENCODED_MAXBYTES);
    return ok;
}

static void *vgp_enc_import_object(void *vctx, int selection, const OSSL_PARAM params[])
{
    struct vgp_coder_ctx *ctx = vctx;
    void *key = vgp_km_new(ctx->type);

    if (key != NULL && !vgp_km_import(ctx->type, key, selection, params)) {
        vgp_km_free(ctx->type, key);
        key = NULL;
    }
    return key;
}

static int vgp_encode(void *vctx, OSSL_CORE_BIO *out, const void *obj_raw,
                      const OSSL_PARAM obj_abstract[], int selection,
                      OSSL_PASSPHRASE_CALLBACK *cb, void *cbarg)
{
    struct vgp_coder_ctx *ctx = vctx;
    struct vgp_material m = {0};
    void *tmp = NULL;
    const void *key = obj_raw;
    int ok;

    /* A key of another provider comes as parameters: imported first. */
    if (key == NULL && obj_abstract != NULL)
        key = tmp = vgp_enc_import_object(ctx, selection, obj_abstract);
    if (key == NULL)
        return 0;
    /* Everything the key has; the form and the selection say what is
     * written. */
    ok = vgp_km_export(ctx->type, (void *)key, OSSL_KEYMGMT_SELECT_KEYPAIR, vgp_collect, &m) &&
         vgp_encode_material(ctx, out, &m, selection, cb, cbarg);
    if (tmp != NULL)
        vgp_km_free(ctx->type, tmp);
    return ok;
}

/* ---- decoder ------------------------------------------------------------- */

/* Reads the whole input, at most one byte more than any encoding's size;
 * *len = VG_KEY_ENCODED_MAXBYTES + 1 means too long (not ours). */
static int vgp_read_all(OSSL_CORE_BIO *in, uint8_t *buf, size_t cap, size_t *len)
{
    size_t got;

    *len = 0;
    while (*len < cap) {
        got = 0;
        if (!vgp_core_bio_read_ex(in, buf + *len, cap - *len, &got) || got == 0)
            break;
        *len += got;
    }
    return 1;
}

/* PEM as the library tells it (docs/encodings.md): "-----BEGIN " after
 * optional whitespace. */
static int vgp_is_pem(const uint8_t *buf, size_t len)
{
    static const char begin[] = "-----BEGIN ";
    size_t i = 0;

    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
        i++;
    return len - i >= sizeof(begin) - 1 && memcmp(buf + i, begin, sizeof(begin) - 1) == 0;
}

static int vgp_decode(void *vctx, OSSL_CORE_BIO *in, int selection, OSSL_CALLBACK *data_cb,
                      void *data_cbarg, OSSL_PASSPHRASE_CALLBACK *pw_cb, void *pw_cbarg)
{
    struct vgp_coder_ctx *ctx = vctx;
    const struct vgp_codec_type *t = ctx->type;
    int is_priv = ctx->form == VGP_DER_PRIV || ctx->form == VGP_PEM_PRIV;
    const size_t cap = VG_KEY_ENCODED_MAXBYTES + 1;
    uint8_t *buf = NULL, *key_bytes = NULL;
    size_t len = 0, key_len = 0;
    vg_key_alg alg = VG_KEY_NONE;
    unsigned flags = 0; /* written by the private-key decoder, unused here */
    void *key = NULL;
    OSSL_PARAM kp[2];
    int ok = 1; /* "not ours" is not an error: the chain tries the next decoder */

    (void)pw_cb;
    (void)pw_cbarg;
    if (vgp_core_bio_read_ex == NULL)
        return 0;
    if (!vgp_selection_ok(selection, is_priv ? OSSL_KEYMGMT_SELECT_PRIVATE_KEY
                                             : OSSL_KEYMGMT_SELECT_PUBLIC_KEY))
        return 1;
    buf = OPENSSL_secure_malloc(cap);
    key_bytes = OPENSSL_secure_malloc(VG_KEY_SECRET_MAXBYTES);
    if (buf == NULL || key_bytes == NULL) {
        ok = 0;
        goto out;
    }
    vgp_read_all(in, buf, cap, &len);
    if (len == 0 || len == cap)
        goto out;
    if (is_priv) {
        if (vg_key_decode_private(&alg, &flags, key_bytes, VG_KEY_SECRET_MAXBYTES, &key_len,
                                  buf, len) != VG_OK)
            goto out;
        kp[0] = OSSL_PARAM_construct_octet_string(
            t->seed_len != 0 && key_len == t->seed_len ? "seed" : OSSL_PKEY_PARAM_PRIV_KEY,
            key_bytes, key_len);
    } else {
        if (vg_key_decode_public(&alg, key_bytes, VG_KEY_PUBLIC_MAXBYTES, &key_len, buf, len) !=
            VG_OK)
            goto out;
        kp[0] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, key_bytes, key_len);
    }
    /* Input of the other form for this decoder (a DER decoder given PEM
     * or the reverse) is left to the decoder of that form. */
    if (alg != t->alg ||
        vgp_is_pem(buf, len) != (ctx->form == VGP_PEM_PRIV || ctx->form == VGP_PEM_PUB))
        goto out;
    kp[1] = OSSL_PARAM_construct_end();
    key = vgp_km_new(t);
    if (key == NULL) {
        ok = 0;
        goto out;
    }
    if (!vgp_km_import(t, key, is_priv ? OSSL_KEYMGMT_SELECT_PRIVATE_KEY
                                       : OSSL_KEYMGMT_SELECT_PUBLIC_KEY,
                       kp)) {
        ERR_clear_error(); /* a rejected key: not an object; the chain goes on */
        goto out;
    }
    {
        int object_type = OSSL_OBJECT_PKEY;
        OSSL_PARAM params[4];

        params[0] = OSSL_PARAM_construct_int(OSSL_OBJECT_PARAM_TYPE, &object_type);
        params[1] =
            OSSL_PARAM_construct_utf8_string(OSSL_OBJECT_PARAM_DATA_TYPE, (char *)t->name, 0);
        /* The reference is the key's address; the key manager's load takes
         * the key and clears it here. */
        params[2] = OSSL_PARAM_construct_octet_string(OSSL_OBJECT_PARAM_REFERENCE, &key,
                                                      sizeof(key));
        params[3] = OSSL_PARAM_construct_end();
        ok = data_cb(params, data_cbarg);
    }
out:
    if (key != NULL)
        vgp_km_free(t, key);
    if (buf != NULL)
        OPENSSL_secure_clear_free(buf, cap);
    if (key_bytes != NULL)
        OPENSSL_secure_clear_free(key_bytes, VG_KEY_SECRET_MAXBYTES);
    return ok;
}

/* For a key manager of another provider: the decoded key as parameters. */
static int vgp_dec_export_object(void *vctx, const void *objref, size_t objref_sz,
                                 OSSL_CALLBACK *export_cb, void *export_cbarg)
{
    struct vgp_coder_ctx *ctx = vctx;
    void *key;

    if (objref == NULL || objref_sz != sizeof(key))
        return 0;
    key = *(void *const *)objref;
    return key != NULL && vgp_km_export(ctx->type, key, OSSL_KEYMGMT_SELECT_ALL, export_cb,
                                        export_cbarg);
}

/* ---- dispatch tables ----------------------------------------------------- */

#define VGP_ENC_TABLE(id, form, fname, does)                                                  \
    static void *vgp_enc_##id##_##fname##_newctx(void *provctx)                               \
    {                                                                                         \
        return vgp_coder_newctx(provctx, &vgp_codec_##id, form);                              \
    }                                                                                         \
    static const OSSL_DISPATCH vgp_enc_##id##_##fname[] = {                                   \
        {OSSL_FUNC_ENCODER_NEWCTX, (void (*)(void))vgp_enc_##id##_##fname##_newctx},          \
        {OSSL_FUNC_ENCODER_FREECTX, (void (*)(void))vgp_coder_freectx},                       \
        {OSSL_FUNC_ENCODER_SET_CTX_PARAMS, (void (*)(void))vgp_enc_set_ctx_params},           \
        {OSSL_FUNC_ENCODER_SETTABLE_CTX_PARAMS, (void (*)(void))vgp_enc_settable_ctx_params}, \
        {OSSL_FUNC_ENCODER_DOES_SELECTION, (void (*)(void))does},                             \
        {OSSL_FUNC_ENCODER_ENCODE, (void (*)(void))vgp_encode},                               \
        {OSSL_FUNC_ENCODER_IMPORT_OBJECT, (void (*)(void))vgp_enc_import_object},             \
        {OSSL_FUNC_ENCODER_FREE_OBJECT, (void (*)(void))vgp_enc_##id##_free_object},          \
        {0, NULL}};

#define VGP_DEC_TABLE(id, form, fname, does)                                                  \
    static void *vgp_dec_##id##_##fname##_newctx(void *provctx)                               \
    {                                                                                         \
        return vgp_coder_newctx(provctx, &vgp_codec_##id, form);                              \
    }                                                                                         \
    static const OSSL_DISPATCH vgp_dec_##id##_##fname[] = {                                   \
        {OSSL_FUNC_DECODER_NEWCTX, (void (*)(void))vgp_dec_##id##_##fname##_newctx},          \
        {OSSL_FUNC_DECODER_FREECTX, (void (*)(void))vgp_coder_freectx},                       \
        {OSSL_FUNC_DECODER_DOES_SELECTION, (void (*)(void))does},                             \
        {OSSL_FUNC_DECODER_DECODE, (void (*)(void))vgp_decode},                               \
        {OSSL_FUNC_DECODER_EXPORT_OBJECT, (void (*)(void))vgp_dec_export_object},             \
        {0, NULL}};

#define VGP_CODEC(id)                                                                         \
    static void vgp_enc_##id##_free_object(void *key)                                         \
    {                                                                                         \
        vgp_km_free(&vgp_codec_##id, key);                                                    \
    }                                                                                         \
    VGP_ENC_TABLE(id, VGP_DER_PRIV, der_priv, vgp_does_priv)                                  \
    VGP_ENC_TABLE(id, VGP_PEM_PRIV, pem_priv, vgp_does_priv)                                  \
    VGP_ENC_TABLE(id, VGP_DER_PUB, der_pub, vgp_does_pub)                                     \
    VGP_ENC_TABLE(id, VGP_PEM_PUB, pem_pub, vgp_does_pub)                                     \
    VGP_ENC_TABLE(id, VGP_TEXT, text, vgp_does_text)                                          \
    VGP_DEC_TABLE(id, VGP_DER_PRIV, der_priv, vgp_does_priv)                                  \
    VGP_DEC_TABLE(id, VGP_PEM_PRIV, pem_priv, vgp_does_priv)                                  \
    VGP_DEC_TABLE(id, VGP_DER_PUB, der_pub, vgp_does_pub)                                     \
    VGP_DEC_TABLE(id, VGP_PEM_PUB, pem_pub, vgp_does_pub)

VGP_CODEC(mlkem512)
VGP_CODEC(mlkem768)
VGP_CODEC(mlkem1024)
VGP_CODEC(xwing)
VGP_CODEC(mldsa44)
VGP_CODEC(mldsa65)
VGP_CODEC(mldsa87)
VGP_CODEC(ed25519)

#define VGP_P_PRIV ",structure=PrivateKeyInfo"
#define VGP_P_PUB ",structure=SubjectPublicKeyInfo"
#define VGP_ENC_ENTRIES(names, id)                                                            \
    {names, VGP_PROPS ",output=der" VGP_P_PRIV, vgp_enc_##id##_der_priv, NULL},               \
        {names, VGP_PROPS ",output=pem" VGP_P_PRIV, vgp_enc_##id##_pem_priv, NULL},           \
        {names, VGP_PROPS ",output=der" VGP_P_PUB, vgp_enc_##id##_der_pub, NULL},             \
        {names, VGP_PROPS ",output=pem" VGP_P_PUB, vgp_enc_##id##_pem_pub, NULL},             \
        {names, VGP_PROPS ",output=text", vgp_enc_##id##_text, NULL}
#define VGP_DEC_ENTRIES(names, id)                                                            \
    {names, VGP_PROPS ",input=der" VGP_P_PRIV, vgp_dec_##id##_der_priv, NULL},                \
        {names, VGP_PROPS ",input=pem" VGP_P_PRIV, vgp_dec_##id##_pem_priv, NULL},            \
        {names, VGP_PROPS ",input=der" VGP_P_PUB, vgp_dec_##id##_der_pub, NULL},              \
        {names, VGP_PROPS ",input=pem" VGP_P_PUB, vgp_dec_##id##_pem_pub, NULL}

const OSSL_ALGORITHM vgp_encoder[] = {
    VGP_ENC_ENTRIES(VGP_NAMES_MLKEM512, mlkem512),   VGP_ENC_ENTRIES(VGP_NAMES_MLKEM768, mlkem768),
    VGP_ENC_ENTRIES(VGP_NAMES_MLKEM1024, mlkem1024), VGP_ENC_ENTRIES(VGP_NAMES_XWING, xwing),
    VGP_ENC_ENTRIES(VGP_NAMES_MLDSA44, mldsa44),     VGP_ENC_ENTRIES(VGP_NAMES_MLDSA65, mldsa65),
    VGP_ENC_ENTRIES(VGP_NAMES_MLDSA87, mldsa87),     VGP_ENC_ENTRIES(VGP_NAMES_ED25519, ed25519),
    {NULL, NULL, NULL, NULL}};

const OSSL_ALGORITHM vgp_decoder[] = {
    VGP_DEC_ENTRIES(VGP_NAMES_MLKEM512, mlkem512),   VGP_DEC_ENTRIES(VGP_NAMES_MLKEM768, mlkem768),
    VGP_DEC_ENTRIES(VGP_NAMES_MLKEM1024, mlkem1024), VGP_DEC_ENTRIES(VGP_NAMES_XWING, xwing),
    VGP_DEC_ENTRIES(VGP_NAMES_MLDSA44, mldsa44),     VGP_DEC_ENTRIES(VGP_NAMES_MLDSA65, mldsa65),
    VGP_DEC_ENTRIES(VGP_NAMES_MLDSA87, mldsa87),     VGP_DEC_ENTRIES(VGP_NAMES_ED25519, ed25519),
    {NULL, NULL, NULL, NULL}};
