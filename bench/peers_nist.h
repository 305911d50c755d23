/*
 * OpenSSL 3 peers of the P-256 / P-384 speed rows (bench/peers_nist.c;
 * libcrypto.so.3 through dlopen), in the shape of vg_bench_fn (peers.h).
 * NB = 32 (P-256) or 48 (P-384), PK = 1 + 2 NB (uncompressed SEC 1):
 *   ecdh:       in = secret key (NB) || peer public key (PK), out = x (NB);
 *   public_key: in = secret key (NB), out = public key (PK);
 *   sign:       in = secret key (NB) || digest (NB), out = DER signature
 *               (at most 2 NB + 8 bytes; not compared: ECDSA is randomised);
 *   verify:     in = public key (PK) || r || s (2 NB) || digest (NB),
 *               out[0] = 1 when valid.
 * What each times is said at the top of peers_nist.c. -1 when libcrypto or
 * a symbol is missing, or the call fails.
 */
#ifndef VG_BENCH_PEERS_NIST_H
#define VG_BENCH_PEERS_NIST_H

#include <stddef.h>
#include <stdint.h>

/* On: the key objects (and contexts) are made afresh on every call instead
 * of being kept for the next call with the same key (the default). */
void vg_peers_nist_no_cache(int on);

int vg_peer_openssl_p256_ecdh(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_p384_ecdh(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_p256_public_key(uint8_t *out, size_t out_len, const uint8_t *in,
                                    size_t in_len);
int vg_peer_openssl_p384_public_key(uint8_t *out, size_t out_len, const uint8_t *in,
                                    size_t in_len);
int vg_peer_openssl_p256_sign(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_p384_sign(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_p256_verify(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_p384_verify(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

/* The same four through OpenSSL's low-level EC_KEY / EC_POINT / ECDSA_SIG
 * API (deprecated in OpenSSL 3; what peers_nist.c says each times), same
 * in / out layouts; sign writes nothing (out is not compared). */
int vg_peer_ec_key_p256_ecdh(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_ec_key_p384_ecdh(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_ec_key_p256_public_key(uint8_t *out, size_t out_len, const uint8_t *in,
                                   size_t in_len);
int vg_peer_ec_key_p384_public_key(uint8_t *out, size_t out_len, const uint8_t *in,
                                   size_t in_len);
int vg_peer_ec_key_p256_sign(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_ec_key_p384_sign(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_ec_key_p256_verify(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_ec_key_p384_verify(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

#endif
