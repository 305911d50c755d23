/*
 * The TLS-GROUP capability (provider-base(7) "CAPABILITIES"): the TLS 1.3
 * key-exchange groups this provider adds to libssl, so that "-groups
 * X25519MLKEM768" and "Groups = X25519MLKEM768" work. Each group is a KEM
 * group (tls-group-is-kem = 1): the client's key share is the public key,
 * the server's is the ciphertext, the shared secret is the KEM's.
 *
 * Code points: IANA "TLS Supported Groups", MLKEM512/768/1024 = 0x0200,
 * 0x0201, 0x0202 (draft-ietf-tls-mlkem), SecP256r1MLKEM768 = 0x11EB,
 * X25519MLKEM768 = 0x11EC, SecP384r1MLKEM1024 = 0x11ED
 * (draft-ietf-tls-ecdhe-mlkem). Security bits: those of the ML-KEM part
 * (category 3: 192, category 5: 256), as for the pure groups. TLS 1.3 only and no DTLS: these groups are
 * defined for TLS 1.3 key shares (RFC 8446 4.2.8); -1 for DTLS tells libssl
 * the group is not usable there.
 */
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>

#include "vgp.h"

struct vgp_group {
    const char *name;     /* the IANA name, what -groups takes */
    const char *alg;      /* the key manager / KEM algorithm name */
    unsigned int id;      /* the code point */
    unsigned int secbits; /* the ML-KEM category 1/3/5: 128/192/256 */
};

static const struct vgp_group vgp_groups[] = {
    {"MLKEM512", "ML-KEM-512", 0x0200, 128},
    {"MLKEM768", "ML-KEM-768", 0x0201, 192},
    {"MLKEM1024", "ML-KEM-1024", 0x0202, 256},
    {"SecP256r1MLKEM768", "SecP256r1MLKEM768", 0x11EB, 192},
    {"X25519MLKEM768", "X25519MLKEM768", 0x11EC, 192},
    {"SecP384r1MLKEM1024", "SecP384r1MLKEM1024", 0x11ED, 256},
};

int vgp_tls_group_capability(OSSL_CALLBACK *cb, void *arg)
{
    size_t i;

    for (i = 0; i < sizeof(vgp_groups) / sizeof(vgp_groups[0]); i++) {
        const struct vgp_group *g = &vgp_groups[i];
        unsigned int id = g->id, secbits = g->secbits, is_kem = 1;
        int min_tls = TLS1_3_VERSION, max_tls = 0, min_dtls = -1, max_dtls = -1;
        OSSL_PARAM params[11];

        /* libssl copies every value during the callback, so the locals
         * may go out of scope afterwards. */
        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME,
                                                     (char *)g->name, 0);
        params[1] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL,
                                                     (char *)g->alg, 0);
        params[2] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_ID, &id);
        params[3] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG,
                                                     (char *)g->alg, 0);
        params[4] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS, &secbits);
        params[5] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_GROUP_IS_KEM, &is_kem);
        params[6] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, &min_tls);
        params[7] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, &max_tls);
        params[8] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, &min_dtls);
        params[9] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, &max_dtls);
        params[10] = OSSL_PARAM_construct_end();
        if (!cb(params, arg))
            return 0;
    }
    return 1;
}

#if OPENSSL_VERSION_NUMBER >= 0x30200000L
/*
 * The TLS-SIGALG capability (OpenSSL 3.2 and later): ML-DSA-44/65/87 as TLS
 * 1.3 signature schemes, code points 0x0904, 0x0905, 0x0906
 * (draft-ietf-tls-mldsa, IANA TLS SignatureScheme). Ed25519 (0x0807) is
 * libssl's own and not announced again. Compiled only against OpenSSL >=
 * 3.2 headers; Debian 12's 3.0 has no such capability, so this part is not
 * built or tested there.
 */
struct vgp_sigalg {
    const char *name;   /* IANA name */
    const char *alg;    /* signature / key type name */
    const char *oid;
    unsigned int code;
    unsigned int secbits;
};

static const struct vgp_sigalg vgp_sigalgs[] = {
    {"mldsa44", "ML-DSA-44", "2.16.840.1.101.3.4.3.17", 0x0904, 128},
    {"mldsa65", "ML-DSA-65", "2.16.840.1.101.3.4.3.18", 0x0905, 192},
    {"mldsa87", "ML-DSA-87", "2.16.840.1.101.3.4.3.19", 0x0906, 256},
};

int vgp_tls_sigalg_capability(OSSL_CALLBACK *cb, void *arg)
{
    size_t i;

    for (i = 0; i < sizeof(vgp_sigalgs) / sizeof(vgp_sigalgs[0]); i++) {
        const struct vgp_sigalg *s = &vgp_sigalgs[i];
        unsigned int code = s->code, secbits = s->secbits;
        int min_tls = TLS1_3_VERSION, max_tls = 0;
        OSSL_PARAM params[9];

        params[0] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_IANA_NAME,
                                                     (char *)s->name, 0);
        params[1] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_SIGALG_CODE_POINT, &code);
        params[2] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_NAME,
                                                     (char *)s->alg, 0);
        params[3] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_OID,
                                                     (char *)s->oid, 0);
        params[4] = OSSL_PARAM_construct_utf8_string(OSSL_CAPABILITY_TLS_SIGALG_KEYTYPE,
                                                     (char *)s->alg, 0);
        params[5] = OSSL_PARAM_construct_uint(OSSL_CAPABILITY_TLS_SIGALG_SECURITY_BITS,
                                              &secbits);
        params[6] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_SIGALG_MIN_TLS, &min_tls);
        params[7] = OSSL_PARAM_construct_int(OSSL_CAPABILITY_TLS_SIGALG_MAX_TLS, &max_tls);
        params[8] = OSSL_PARAM_construct_end();
        if (!cb(params, arg))
            return 0;
    }
    return 1;
}
#endif
