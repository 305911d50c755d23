/*
 * vgcrypto OpenSSL 3 provider: declarations shared by its files
 * (provider-base(7), provider-keymgmt(7), provider-kem(7)).
 */
#ifndef VGP_H
#define VGP_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/types.h>
#include <openssl/opensslv.h>
#include <stddef.h>

/* The provider's context (OSSL_provider_init): the core's handle and a
 * child library context of the application's. */
struct vgp_provctx {
    const OSSL_CORE_HANDLE *handle;
    OSSL_LIB_CTX *libctx;
};

/* The property every algorithm of this provider carries, so that an
 * application selects it with the query "provider=vgcrypto". */
#define VGP_PROPS "provider=vgcrypto"

/* Algorithm names: the primary name as OpenSSL 3.5 spells it, then its
 * aliases and OID names. ML-KEM: FIPS 203 and the LAMPS ML-KEM certificate
 * document (id-alg-ml-kem-* under 2.16.840.1.101.3.4.4). */
#define VGP_NAMES_MLKEM512 "ML-KEM-512:MLKEM512:id-alg-ml-kem-512:2.16.840.1.101.3.4.4.1"
#define VGP_NAMES_MLKEM768 "ML-KEM-768:MLKEM768:id-alg-ml-kem-768:2.16.840.1.101.3.4.4.2"
#define VGP_NAMES_MLKEM1024 "ML-KEM-1024:MLKEM1024:id-alg-ml-kem-1024:2.16.840.1.101.3.4.4.3"
#define VGP_NAMES_XWING "X-Wing:XWING:1.3.6.1.4.1.62253.25722"
/* ML-DSA: the names of OpenSSL 3.5 (and of its objects table: short name
 * id-ml-dsa-N, long name ML-DSA-N; RFC 9881 OIDs). Ed25519: the names of
 * OpenSSL's own Ed25519 (RFC 8410 OID). Sharing a name with another
 * provider's algorithm is how OpenSSL means it: both stay reachable, a
 * property query ("provider=vgcrypto" / "provider=default") picks one, and
 * keys move between the two through the same "pub" / "priv" parameters. */
#define VGP_NAMES_MLDSA44 "ML-DSA-44:MLDSA44:2.16.840.1.101.3.4.3.17:id-ml-dsa-44"
#define VGP_NAMES_MLDSA65 "ML-DSA-65:MLDSA65:2.16.840.1.101.3.4.3.18:id-ml-dsa-65"
#define VGP_NAMES_MLDSA87 "ML-DSA-87:MLDSA87:2.16.840.1.101.3.4.3.19:id-ml-dsa-87"
#define VGP_NAMES_ED25519 "ED25519:1.3.101.112"


/* Key management and KEM implementations, one dispatch table per
 * algorithm (kem.c). */
extern const OSSL_DISPATCH vgp_keymgmt_mlkem512[];
extern const OSSL_DISPATCH vgp_keymgmt_mlkem768[];
extern const OSSL_DISPATCH vgp_keymgmt_mlkem1024[];
extern const OSSL_DISPATCH vgp_keymgmt_x25519mlkem768[];
extern const OSSL_DISPATCH vgp_keymgmt_p256mlkem768[];
extern const OSSL_DISPATCH vgp_keymgmt_p384mlkem1024[];
extern const OSSL_DISPATCH vgp_keymgmt_xwing[];
extern const OSSL_DISPATCH vgp_kem_mlkem512[];
extern const OSSL_DISPATCH vgp_kem_mlkem768[];
extern const OSSL_DISPATCH vgp_kem_mlkem1024[];
extern const OSSL_DISPATCH vgp_kem_x25519mlkem768[];
extern const OSSL_DISPATCH vgp_kem_p256mlkem768[];
extern const OSSL_DISPATCH vgp_kem_p384mlkem1024[];
extern const OSSL_DISPATCH vgp_kem_xwing[];

/* Signatures and their key managers (sig.c). */
extern const OSSL_DISPATCH vgp_keymgmt_mldsa44[];
extern const OSSL_DISPATCH vgp_keymgmt_mldsa65[];
extern const OSSL_DISPATCH vgp_keymgmt_mldsa87[];
extern const OSSL_DISPATCH vgp_keymgmt_ed25519[];
extern const OSSL_DISPATCH vgp_signature_mldsa44[];
extern const OSSL_DISPATCH vgp_signature_mldsa65[];
extern const OSSL_DISPATCH vgp_signature_mldsa87[];
extern const OSSL_DISPATCH vgp_signature_ed25519[];

/* Encoders and decoders (codec.c), and the core's BIO functions they use
 * (taken from the core's dispatch table in OSSL_provider_init). */
extern const OSSL_ALGORITHM vgp_encoder[];
extern const OSSL_ALGORITHM vgp_decoder[];
extern OSSL_FUNC_BIO_read_ex_fn *vgp_core_bio_read_ex;
extern OSSL_FUNC_BIO_write_ex_fn *vgp_core_bio_write_ex;

#if OPENSSL_VERSION_NUMBER >= 0x30200000L
/* The TLS-SIGALG capability (OpenSSL 3.2 and later; tls.c). */
int vgp_tls_sigalg_capability(OSSL_CALLBACK *cb, void *arg);
#endif

/* n bytes from the operating system's random source (getrandom(2), as the
 * library's own); VG_OK or VG_ERR_RANDOM (buf zeroed). provider.c. */
int vgp_random(unsigned char *buf, size_t n);

/* The TLS-GROUP capability (provider-base(7) "CAPABILITIES"; tls.c). */
int vgp_tls_group_capability(OSSL_CALLBACK *cb, void *arg);

#endif
