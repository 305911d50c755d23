/*
 * ML-KEM internal entry points for the tests (not exported from the shared
 * library: the library is built with hidden visibility and
 * src/vgcrypto.map lists only the public API; the tests link the static
 * library).
 */
#ifndef VG_MLKEM_INTERNAL_H
#define VG_MLKEM_INTERNAL_H

#include <stdint.h>

/* ML-KEM key generation (FIPS 203 Algorithm 16 with K-PKE.KeyGen,
 * Algorithm 13, from line 3 on) with (rho, sigma) given instead of
 * G(d || k): pk and sk as vg_mlkemN_keypair_derand writes them for a d with
 * G(d || k) = rho || sigma, and z as the implicit-rejection seed. For the
 * constant-time tests, which hold the public rho fixed while the secret
 * sigma varies (rho decides how long SampleNTT runs, legitimately).
 * Pre: all pointers valid (no checks). */
void vg_mlkem512_keypair_rho_sigma(uint8_t *pk, uint8_t *sk, const uint8_t rho[32],
                                   const uint8_t sigma[32], const uint8_t z[32]);
void vg_mlkem768_keypair_rho_sigma(uint8_t *pk, uint8_t *sk, const uint8_t rho[32],
                                   const uint8_t sigma[32], const uint8_t z[32]);
void vg_mlkem1024_keypair_rho_sigma(uint8_t *pk, uint8_t *sk, const uint8_t rho[32],
                                    const uint8_t sigma[32], const uint8_t z[32]);

#endif
