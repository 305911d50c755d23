/*
 * vgcrypto OpenSSL 3 provider: entry point, provider parameters and the
 * algorithm tables (provider-base(7)).
 *
 * Names (vgp.h): the primary name as OpenSSL 3.5 spells it, then its
 * aliases and, where there is one, the OID name and OID.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>

#include "vgcrypto.h"
#include "vgp.h"

static const OSSL_ALGORITHM vgp_keymgmt[] = {
    {VGP_NAMES_MLKEM512, VGP_PROPS,
     vgp_keymgmt_mlkem512, "vgcrypto ML-KEM-512 (FIPS 203)"},
    {VGP_NAMES_MLKEM768, VGP_PROPS,
     vgp_keymgmt_mlkem768, "vgcrypto ML-KEM-768 (FIPS 203)"},
    {VGP_NAMES_MLKEM1024, VGP_PROPS,
     vgp_keymgmt_mlkem1024, "vgcrypto ML-KEM-1024 (FIPS 203)"},
    {"X25519MLKEM768", VGP_PROPS, vgp_keymgmt_x25519mlkem768,
     "vgcrypto X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem)"},
    {"SecP256r1MLKEM768", VGP_PROPS, vgp_keymgmt_p256mlkem768,
     "vgcrypto SecP256r1MLKEM768 (draft-ietf-tls-ecdhe-mlkem)"},
    {"SecP384r1MLKEM1024", VGP_PROPS, vgp_keymgmt_p384mlkem1024,
     "vgcrypto SecP384r1MLKEM1024 (draft-ietf-tls-ecdhe-mlkem)"},
    {VGP_NAMES_XWING, VGP_PROPS, vgp_keymgmt_xwing,
     "vgcrypto X-Wing (draft-connolly-cfrg-xwing-kem)"},
    {VGP_NAMES_MLDSA44, VGP_PROPS, vgp_keymgmt_mldsa44, "vgcrypto ML-DSA-44 (FIPS 204)"},
    {VGP_NAMES_MLDSA65, VGP_PROPS, vgp_keymgmt_mldsa65, "vgcrypto ML-DSA-65 (FIPS 204)"},
    {VGP_NAMES_MLDSA87, VGP_PROPS, vgp_keymgmt_mldsa87, "vgcrypto ML-DSA-87 (FIPS 204)"},
    {VGP_NAMES_ED25519, VGP_PROPS, vgp_keymgmt_ed25519, "vgcrypto Ed25519 (RFC 8032)"},
    {NULL, NULL, NULL, NULL}};

/* The signature of each key type carries its key manager's names. */
static const OSSL_ALGORITHM vgp_signature[] = {
    {VGP_NAMES_MLDSA44, VGP_PROPS, vgp_signature_mldsa44, "vgcrypto ML-DSA-44 (FIPS 204)"},
    {VGP_NAMES_MLDSA65, VGP_PROPS, vgp_signature_mldsa65, "vgcrypto ML-DSA-65 (FIPS 204)"},
    {VGP_NAMES_MLDSA87, VGP_PROPS, vgp_signature_mldsa87, "vgcrypto ML-DSA-87 (FIPS 204)"},
    {VGP_NAMES_ED25519, VGP_PROPS, vgp_signature_ed25519, "vgcrypto Ed25519 (RFC 8032)"},
    {NULL, NULL, NULL, NULL}};

/* The KEM of each key type carries the same names: EVP finds the KEM of a
 * key by its key manager's name. */
static const OSSL_ALGORITHM vgp_kem[] = {
    {VGP_NAMES_MLKEM512, VGP_PROPS, vgp_kem_mlkem512,
     "vgcrypto ML-KEM-512 (FIPS 203)"},
    {VGP_NAMES_MLKEM768, VGP_PROPS, vgp_kem_mlkem768,
     "vgcrypto ML-KEM-768 (FIPS 203)"},
    {VGP_NAMES_MLKEM1024, VGP_PROPS,
     vgp_kem_mlkem1024, "vgcrypto ML-KEM-1024 (FIPS 203)"},
    {"X25519MLKEM768", VGP_PROPS, vgp_kem_x25519mlkem768,
     "vgcrypto X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem)"},
    {"SecP256r1MLKEM768", VGP_PROPS, vgp_kem_p256mlkem768,
     "vgcrypto SecP256r1MLKEM768 (draft-ietf-tls-ecdhe-mlkem)"},
    {"SecP384r1MLKEM1024", VGP_PROPS, vgp_kem_p384mlkem1024,
     "vgcrypto SecP384r1MLKEM1024 (draft-ietf-tls-ecdhe-mlkem)"},
    {VGP_NAMES_XWING, VGP_PROPS, vgp_kem_xwing, "vgcrypto X-Wing (draft-connolly-cfrg-xwing-kem)"},
    {NULL, NULL, NULL, NULL}};

static const OSSL_ALGORITHM *vgp_query(void *provctx, int operation_id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    switch (operation_id) {
    case OSSL_OP_KEYMGMT:
        return vgp_keymgmt;
    case OSSL_OP_KEM:
        return vgp_kem;
    case OSSL_OP_SIGNATURE:
        return vgp_signature;
    case OSSL_OP_ENCODER:
        return vgp_encoder;
    case OSSL_OP_DECODER:
        return vgp_decoder;
    default:
        return NULL;
    }
}

static const OSSL_PARAM vgp_param_types[] = {
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_NAME, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_VERSION, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_BUILDINFO, OSSL_PARAM_UTF8_PTR, NULL, 0),
    OSSL_PARAM_DEFN(OSSL_PROV_PARAM_STATUS, OSSL_PARAM_INTEGER, NULL, 0),
    OSSL_PARAM_END};

static const OSSL_PARAM *vgp_gettable_params(void *provctx)
{
    (void)provctx;
    return vgp_param_types;
}

static int vgp_get_params(void *provctx, OSSL_PARAM params[])
{
    OSSL_PARAM *p;

    (void)provctx;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, "vgcrypto provider"))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, vg_version()))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
    if (p != NULL && !OSSL_PARAM_set_utf8_ptr(p, "vgcrypto " OPENSSL_VERSION_TEXT))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
    if (p != NULL && !OSSL_PARAM_set_int(p, 1))
        return 0;
    return 1;
}

static int vgp_get_capabilities(void *provctx, const char *capability, OSSL_CALLBACK *cb,
                                void *arg)
{
    (void)provctx;
    if (strcmp(capability, "TLS-GROUP") == 0)
        return vgp_tls_group_capability(cb, arg);
#if OPENSSL_VERSION_NUMBER >= 0x30200000L
    if (strcmp(capability, "TLS-SIGALG") == 0)
        return vgp_tls_sigalg_capability(cb, arg);
#endif
    return 0;
}

static void vgp_teardown(void *provctx)
{
    struct vgp_provctx *pc = provctx;

    if (pc != NULL) {
        OSSL_LIB_CTX_free(pc->libctx);
        OPENSSL_free(pc);
    }
}

static const OSSL_DISPATCH vgp_dispatch[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))vgp_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))vgp_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))vgp_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))vgp_query},
    {OSSL_FUNC_PROVIDER_GET_CAPABILITIES, (void (*)(void))vgp_get_capabilities},
    {0, NULL}};

int vgp_random(unsigned char *buf, size_t n)
{
    size_t done = 0;

    while (done < n) {
        ssize_t got = getrandom(buf + done, n - done, 0);

        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            OPENSSL_cleanse(buf, n);
            return VG_ERR_RANDOM;
        }
        done += (size_t)got;
    }
    return VG_OK;
}

/* The signature OIDs OpenSSL 3.0 does not know: X.509 signing and
 * verification look the signature algorithm up in the objects table
 * (OBJ_find_sigid_algs: "no digest, key type ML-DSA-N"), so the provider
 * adds them through the core (provider-base(7) core_obj_create and
 * core_obj_add_sigid, which succeed without change where OpenSSL already
 * has them, as 3.5 does). Ed25519 is in every OpenSSL 3 table. */
static int vgp_register_objects(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in)
{
    static const struct {
        const char *oid, *sn, *ln;
    } objs[] = {
        {"2.16.840.1.101.3.4.3.17", "id-ml-dsa-44", "ML-DSA-44"},
        {"2.16.840.1.101.3.4.3.18", "id-ml-dsa-65", "ML-DSA-65"},
        {"2.16.840.1.101.3.4.3.19", "id-ml-dsa-87", "ML-DSA-87"},
    };
    OSSL_FUNC_core_obj_create_fn *obj_create = NULL;
    OSSL_FUNC_core_obj_add_sigid_fn *obj_add_sigid = NULL;
    size_t i;

    for (; in != NULL && in->function_id != 0; in++) {
        if (in->function_id == OSSL_FUNC_CORE_OBJ_CREATE)
            obj_create = OSSL_FUNC_core_obj_create(in);
        else if (in->function_id == OSSL_FUNC_CORE_OBJ_ADD_SIGID)
            obj_add_sigid = OSSL_FUNC_core_obj_add_sigid(in);
    }
    if (obj_create == NULL || obj_add_sigid == NULL)
        return 0;
    for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
        if (!obj_create(handle, objs[i].oid, objs[i].sn, objs[i].ln) ||
            !obj_add_sigid(handle, objs[i].sn, NULL, objs[i].sn))
            return 0;
    }
    return 1;
}

/* The only symbol the module exports (provider/vgcrypto-provider.map). The
 * algorithms use the library, which draws its randomness from the operating
 * system; the provider's context holds only a child library context (the
 * application's providers, seen from inside), which the PKCS#8 encoder uses
 * for the ciphers and PBKDF2 of encrypted private keys. Declared in
 * <openssl/core.h>; the module is compiled with hidden visibility, so it is
 * marked default. */
__attribute__((visibility("default"))) int
OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                   const OSSL_DISPATCH **out, void **provctx)
{
    struct vgp_provctx *pc;
    const OSSL_DISPATCH *d;

    if (!vgp_register_objects(handle, in))
        return 0;
    /* The core's BIO functions, through which the encoders and decoders
     * write and read (the same in every library context). */
    for (d = in; d != NULL && d->function_id != 0; d++) {
        if (d->function_id == OSSL_FUNC_BIO_READ_EX)
            vgp_core_bio_read_ex = OSSL_FUNC_BIO_read_ex(d);
        else if (d->function_id == OSSL_FUNC_BIO_WRITE_EX)
            vgp_core_bio_write_ex = OSSL_FUNC_BIO_write_ex(d);
    }
    pc = OPENSSL_zalloc(sizeof(*pc));
    if (pc == NULL)
        return 0;
    pc->handle = handle;
    pc->libctx = OSSL_LIB_CTX_new_child(handle, in);
    if (pc->libctx == NULL) {
        OPENSSL_free(pc);
        return 0;
    }
    *provctx = pc;
    *out = vgp_dispatch;
    return 1;
}
