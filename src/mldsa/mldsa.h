/*
 * ML-DSA's shared header for the other areas of the library (src/common's
 * vg_implementation, the CLI, the benchmark): what they may use of
 * src/mldsa. The public API is in include/vgcrypto.h; everything else in
 * this directory is private to the area.
 */
#ifndef VG_MLDSA_MLDSA_H
#define VG_MLDSA_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "vgcrypto.h"

/* The name of the ML-DSA variant that runs now (the one vg_mldsa_active in
 * poly.c picks for the active CPU features): "portable", "avx2",
 * "avx2+vbmi2", "avx2+avx512" or "avx2+avx512vbmi". For
 * vg_implementation("mldsa"). Never NULL. */
const char *vg_mldsa_implementation(void);

/* The mu state's start for any parameter set (hashml.c; vg_mldsaN_mu_init
 * is this with tr = H(pk, 64)): wipes st, starts SHAKE256 on the dispatched
 * Keccak, absorbs tr (64 bytes) || 0 || ctx_len || ctx (pure ML-DSA's M'
 * prefix, FIPS 204 Algorithm 2 line 10) and marks st as live. For the CLI,
 * which signs with only the secret key: tr is sk[64..127] (Algorithm 24).
 * Pre: st and tr not NULL, ctx_len <= 255, ctx not NULL if ctx_len. */
void vg_mldsa_mu_start(vg_mldsa_mu_state *st, const uint8_t tr[64], const uint8_t *ctx,
                       size_t ctx_len);

/* For the key decoder (src/encoding): 0 when the expanded secret key sk
 * (FIPS 204 skEncode, Algorithm 24; VG_MLDSAN_SECRETKEYBYTES) is the one
 * KeyGen_internal gives for its own rho, s1 and s2 (s1, s2 within [-eta,
 * eta]; t regenerated from rho, s1, s2; its t0 and tr = H(rho || t1, 64)
 * equal to the key's), -1 otherwise. Constant time in the secret parts of
 * sk; the result is a secret verdict the caller declassifies. K is not
 * checked (any value is valid). Pre: sk not NULL. */
int vg_mldsa44_check_expanded(const uint8_t *sk);
int vg_mldsa65_check_expanded(const uint8_t *sk);
int vg_mldsa87_check_expanded(const uint8_t *sk);

#endif
