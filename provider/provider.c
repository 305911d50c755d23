/*
 * vgcrypto OpenSSL 3 provider: entry point, provider parameters and the
 * algorithm tables (provider-base(7)).
 *
 * Names: the primary name as OpenSSL 3.5 spells it, then its aliases and,
 * for ML-KEM, the NIST OID name and OID (FIPS 203; the LAMPS ML-KEM
 * certificate draft, id-alg-ml-kem-* under 2.16.840.1.101.3.4.4).
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/opensslv.h>
#include <openssl/params.h>

#include "vgcrypto.h"
#include "vgp.h"

static const OSSL_ALGORITHM vgp_keymgmt[] = {
    {"ML-KEM-512:MLKEM512:id-alg-ml-kem-512:2.16.840.1.101.3.4.4.1", VGP_PROPS,
     vgp_keymgmt_mlkem512, "vgcrypto ML-KEM-512 (FIPS 203)"},
    {"ML-KEM-768:MLKEM768:id-alg-ml-kem-768:2.16.840.1.101.3.4.4.2", VGP_PROPS,
     vgp_keymgmt_mlkem768, "vgcrypto ML-KEM-768 (FIPS 203)"},
    {"ML-KEM-1024:MLKEM1024:id-alg-ml-kem-1024:2.16.840.1.101.3.4.4.3", VGP_PROPS,
     vgp_keymgmt_mlkem1024, "vgcrypto ML-KEM-1024 (FIPS 203)"},
    {"X25519MLKEM768", VGP_PROPS, vgp_keymgmt_x25519mlkem768,
     "vgcrypto X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem)"},
    {"SecP256r1MLKEM768", VGP_PROPS, vgp_keymgmt_p256mlkem768,
     "vgcrypto SecP256r1MLKEM768 (draft-ietf-tls-ecdhe-mlkem)"},
    {"SecP384r1MLKEM1024", VGP_PROPS, vgp_keymgmt_p384mlkem1024,
     "vgcrypto SecP384r1MLKEM1024 (draft-ietf-tls-ecdhe-mlkem)"},
    {"X-Wing:XWING", VGP_PROPS, vgp_keymgmt_xwing,
     "vgcrypto X-Wing (draft-connolly-cfrg-xwing-kem)"},
    {NULL, NULL, NULL, NULL}};

/* The KEM of each key type carries the same names: EVP finds the KEM of a
 * key by its key manager's name. */
static const OSSL_ALGORITHM vgp_kem[] = {
    {"ML-KEM-512:MLKEM512:id-alg-ml-kem-512:2.16.840.1.101.3.4.4.1", VGP_PROPS, vgp_kem_mlkem512,
     "vgcrypto ML-KEM-512 (FIPS 203)"},
    {"ML-KEM-768:MLKEM768:id-alg-ml-kem-768:2.16.840.1.101.3.4.4.2", VGP_PROPS, vgp_kem_mlkem768,
     "vgcrypto ML-KEM-768 (FIPS 203)"},
    {"ML-KEM-1024:MLKEM1024:id-alg-ml-kem-1024:2.16.840.1.101.3.4.4.3", VGP_PROPS,
     vgp_kem_mlkem1024, "vgcrypto ML-KEM-1024 (FIPS 203)"},
    {"X25519MLKEM768", VGP_PROPS, vgp_kem_x25519mlkem768,
     "vgcrypto X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem)"},
    {"SecP256r1MLKEM768", VGP_PROPS, vgp_kem_p256mlkem768,
     "vgcrypto SecP256r1MLKEM768 (draft-ietf-tls-ecdhe-mlkem)"},
    {"SecP384r1MLKEM1024", VGP_PROPS, vgp_kem_p384mlkem1024,
     "vgcrypto SecP384r1MLKEM1024 (draft-ietf-tls-ecdhe-mlkem)"},
    {"X-Wing:XWING", VGP_PROPS, vgp_kem_xwing, "vgcrypto X-Wing (draft-connolly-cfrg-xwing-kem)"},
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
    return 0; /* no other capability (TLS-SIGALG: a later step) */
}

static void vgp_teardown(void *provctx)
{
    (void)provctx;
}

static const OSSL_DISPATCH vgp_dispatch[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))vgp_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))vgp_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))vgp_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))vgp_query},
    {OSSL_FUNC_PROVIDER_GET_CAPABILITIES, (void (*)(void))vgp_get_capabilities},
    {0, NULL}};

/* The only symbol the module exports (provider/vgcrypto-provider.map). The
 * provider keeps no state: its algorithms use the library, which draws its
 * randomness from the operating system. Declared in <openssl/core.h>; the
 * module is compiled with hidden visibility, so it is marked default. */
__attribute__((visibility("default"))) int
OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                   const OSSL_DISPATCH **out, void **provctx)
{
    (void)in;
    *provctx = (void *)handle;
    *out = vgp_dispatch;
    return 1;
}
