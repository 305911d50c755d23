/*
 * ML-DSA test hooks: internal entry points of the three parameter sets
 * (keygen.c, sign.c), for the constant-time harnesses. Hidden like every
 * vg_<area>_ function (not exported from the shared library); the public
 * API is in include/vgcrypto.h.
 */
#ifndef VG_MLDSA_INTERNAL_H
#define VG_MLDSA_INTERNAL_H

#include <stdint.h>

/* ML-DSA.KeyGen_internal from line 2 on: exp = rho || rho' || K (32 + 64 +
 * 32 bytes, the output of line 1). Lets a test hold rho (public) fixed while
 * the secret seeds vary. Specification: FIPS 204, Algorithm 6. */
void vg_mldsa44_keypair_expanded(uint8_t *pk, uint8_t *sk, const uint8_t exp[128]);
void vg_mldsa65_keypair_expanded(uint8_t *pk, uint8_t *sk, const uint8_t exp[128]);
void vg_mldsa87_keypair_expanded(uint8_t *pk, uint8_t *sk, const uint8_t exp[128]);

/* vg_mldsaN_sign_mu that also reports the number of signing attempts (the
 * rejection loop's iterations, public by design; 0 on an error). */
int vg_mldsa44_sign_mu_counted(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                               const uint8_t rnd[32], unsigned *attempts);
int vg_mldsa65_sign_mu_counted(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                               const uint8_t rnd[32], unsigned *attempts);
int vg_mldsa87_sign_mu_counted(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                               const uint8_t rnd[32], unsigned *attempts);

/* 1 when ML-DSA-87 signs with the low-stack layout (the CMake option
 * VG_MLDSA87_LOWSTACK, default ON), 0 for the big-stack one: test_stack
 * asserts the 64 KiB goal only for the former. */
int vg_mldsa87_sign_lowstack(void);

#endif
