/*
 * The per-curve operations of src/nist/ecc.c (compiled once per curve), which
 * the public functions of src/nist/api.c wrap. Contracts as in
 * include/vgcrypto.h (vg_p256_*), except that the pointers are not checked
 * for NULL here (api.c does) and sk is checked (1 <= sk < n) here.
 */
#ifndef VG_NIST_ECC_H
#define VG_NIST_ECC_H

#include <stddef.h>
#include <stdint.h>

int vg_nist_p256_public_key(uint8_t pk[65], const uint8_t sk[32]);
int vg_nist_p256_keypair(uint8_t pk[65], uint8_t sk[32]);
int vg_nist_p256_ecdh(uint8_t shared[32], const uint8_t sk[32], const uint8_t *peer, size_t peer_len);
int vg_nist_p256_sign_digest_derand(uint8_t sig[64], const uint8_t *digest, size_t digest_len,
                             const uint8_t sk[32], const uint8_t rnd[32]);
int vg_nist_p256_sign_digest(uint8_t sig[64], const uint8_t *digest, size_t digest_len,
                      const uint8_t sk[32]);
int vg_nist_p256_verify_digest(const uint8_t sig[64], const uint8_t *digest, size_t digest_len,
                        const uint8_t *pk, size_t pk_len);

int vg_nist_p384_public_key(uint8_t pk[97], const uint8_t sk[48]);
int vg_nist_p384_keypair(uint8_t pk[97], uint8_t sk[48]);
int vg_nist_p384_ecdh(uint8_t shared[48], const uint8_t sk[48], const uint8_t *peer, size_t peer_len);
int vg_nist_p384_sign_digest_derand(uint8_t sig[96], const uint8_t *digest, size_t digest_len,
                             const uint8_t sk[48], const uint8_t rnd[48]);
int vg_nist_p384_sign_digest(uint8_t sig[96], const uint8_t *digest, size_t digest_len,
                      const uint8_t sk[48]);
int vg_nist_p384_verify_digest(const uint8_t sig[96], const uint8_t *digest, size_t digest_len,
                        const uint8_t *pk, size_t pk_len);

/* For the key encodings (src/encoding): the SEC 1 point in (len 1 + 2 NB:
 * 04 || x || y, or 1 + NB: 02/03 || x, decompressed as SEC 1 v2 2.3.4 says)
 * validated as ECDH validates a peer key (coordinates < p, on the curve)
 * and written uncompressed to out; VG_ERR_INPUT (out zeroed) otherwise.
 * Public data: variable time. */
int vg_nist_p256_point_uncompressed(uint8_t out[65], const uint8_t *in, size_t len);
int vg_nist_p384_point_uncompressed(uint8_t out[97], const uint8_t *in, size_t len);

/* Test interface: out = 1 / in mod n (0 for 0), in < n; the scalar inversion
 * ECDSA uses (Fermat, in^(n-2)). */
void vg_nist_p256_test_sc_inv(uint8_t out[32], const uint8_t in[32]);
void vg_nist_p384_test_sc_inv(uint8_t out[48], const uint8_t in[48]);
/* The divsteps inversion mod n likewise; returns 0 (out zeroed) when the
 * build has none. */
int vg_nist_p256_test_sc_inv_divsteps(uint8_t out[32], const uint8_t in[32]);
int vg_nist_p384_test_sc_inv_divsteps(uint8_t out[48], const uint8_t in[48]);

#endif
