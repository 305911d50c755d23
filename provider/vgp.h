/*
 * vgcrypto OpenSSL 3 provider: declarations shared by its files
 * (provider-base(7), provider-keymgmt(7), provider-kem(7)).
 */
#ifndef VGP_H
#define VGP_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

/* The property every algorithm of this provider carries, so that an
 * application selects it with the query "provider=vgcrypto". */
#define VGP_PROPS "provider=vgcrypto"

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

/* The TLS-GROUP capability (provider-base(7) "CAPABILITIES"; tls.c). */
int vgp_tls_group_capability(OSSL_CALLBACK *cb, void *arg);

#endif
