/*
 * The peers of `vgcrypto speed`: OpenSSL's libcrypto.so.3 and libsodium.so.23,
 * loaded at run time with dlopen so that the command runs without them
 * (DESIGN.md section 1). Their headers are not needed: the few entry points
 * are declared in peers.c from the libraries' documented prototypes.
 *
 * Every operation has the uniform shape of a benchmark row (vg_bench_fn):
 * it writes out_len bytes to out from in_len bytes at in and returns 0, or
 * -1 when the peer is absent or failed (the row then shows "-").
 */
#ifndef VG_BENCH_PEERS_H
#define VG_BENCH_PEERS_H

#include <stddef.h>
#include <stdint.h>

typedef int (*vg_bench_fn)(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

/* Load both peers once (idempotent). With enable == 0, or when the
 * environment has VG_SPEED_NO_PEERS set to anything but "" or "0", nothing
 * is loaded and every peer operation fails. Never fails itself. */
void vg_peers_load(int enable);

/* Release the OpenSSL objects. The libraries stay mapped: OpenSSL 3 registers
 * an exit handler, so unloading it before exit is not safe. */
void vg_peers_release(void);

/* on = 1: the OpenSSL X25519, Ed25519 signing and AEAD calls make their key
 * objects (or set their key) on every call instead of reusing them for a
 * repeated input. The benchmark reuses (one input throughout); the
 * statistical harness (tests/ct) must not, since one class repeats a fixed
 * input and would be measured without the setup that the other class pays. */
void vg_peers_no_cache(int on);

/* Version strings, or NULL when the library is not loaded. */
const char *vg_peers_openssl_version(void);
const char *vg_peers_sodium_version(void);

/* OpenSSL: EVP_MD fetched once per algorithm, one EVP_MD_CTX reused;
 * EVP_DigestInit_ex2 + EVP_DigestUpdate + EVP_DigestFinal_ex (FinalXOF for
 * SHAKE, out_len bytes). */
int vg_peer_openssl_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_sha512(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_sha3_256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_sha3_512(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

/* X25519 (RFC 7748), in = scalar (32) || point (32), out 32 bytes. What is
 * timed: EVP_PKEY_derive on a context prepared once per input
 * (EVP_PKEY_new_raw_private_key / EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519),
 * EVP_PKEY_derive_init, EVP_PKEY_derive_set_peer), plus a 64-byte compare
 * that detects a new input; the least overhead OpenSSL's API allows. */
int vg_peer_openssl_x25519(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
/* X25519 public key, in = scalar (32): EVP_PKEY_new_raw_private_key (which
 * computes the public key) + EVP_PKEY_get_raw_public_key + EVP_PKEY_free;
 * the figure includes the key object's creation and release. */
int vg_peer_openssl_x25519_base(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

/* libsodium (after sodium_init): crypto_hash_sha256 / crypto_hash_sha512. */
int vg_peer_sodium_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_sodium_sha512(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
/* crypto_scalarmult (X25519): in = scalar (32) || point (32), out 32 bytes. */
int vg_peer_sodium_x25519(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
/* crypto_scalarmult_base: in = scalar (32), out = its public key (32). */
int vg_peer_sodium_x25519_base(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

/* Ed25519 (RFC 8032). Inputs of the three operations:
 *   keypair: in = seed (32), out = public key (32);
 *   sign:    in = secret key (64, seed || public key) || message, out = the
 *            signature (64);
 *   verify:  in = public key (32) || signature (64) || message, out[0] = 1
 *            when the signature is valid, 0 when not (out_len 1).
 * libsodium: crypto_sign_seed_keypair, crypto_sign_detached,
 * crypto_sign_verify_detached.
 * OpenSSL: keypair = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519) +
 * EVP_PKEY_get_raw_public_key + EVP_PKEY_free (includes creating the key
 * object). sign = EVP_DigestSignInit + EVP_DigestSign on a reused
 * EVP_MD_CTX, with the key object made once per seed (from in[0..31]);
 * verify = EVP_DigestVerifyInit + EVP_DigestVerify likewise, the key object
 * made once per public key. Init per message is OpenSSL's normal one-shot
 * usage (a context signs or verifies once after Init). */
int vg_peer_openssl_ed25519_keypair(uint8_t *out, size_t out_len, const uint8_t *in,
                                    size_t in_len);
int vg_peer_openssl_ed25519_sign(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_openssl_ed25519_verify(uint8_t *out, size_t out_len, const uint8_t *in,
                                   size_t in_len);
int vg_peer_sodium_ed25519_keypair(uint8_t *out, size_t out_len, const uint8_t *in,
                                   size_t in_len);
int vg_peer_sodium_ed25519_sign(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_sodium_ed25519_verify(uint8_t *out, size_t out_len, const uint8_t *in,
                                  size_t in_len);

/* ChaCha20-Poly1305 (RFC 8439 2.8) and XChaCha20-Poly1305, empty AD:
 *   seal: in = key (32) || nonce (12; 24 for XChaCha) || pt, out = ct || tag
 *         (out_len = in_len - 44 + 16, resp. - 56 + 16);
 *   open: in = key || nonce || ct || tag, out = verdict (1 byte: 1 when the
 *         tag verified) || pt, so that a rejection is a MISMATCH, not "-".
 * OpenSSL: EVP_CIPHER "ChaCha20-Poly1305" fetched once, one EVP_CIPHER_CTX
 * per direction made once, the key set once per key (a 32-byte compare per
 * call detects a new one); per call EVP_{En,De}cryptInit_ex with the nonce
 * only, Update, Final and the tag through EVP_CIPHER_CTX_ctrl.
 * libsodium: crypto_aead_[x]chacha20poly1305_ietf_{en,de}crypt_detached. */
int vg_peer_openssl_chacha20poly1305_seal(uint8_t *out, size_t out_len, const uint8_t *in,
                                          size_t in_len);
int vg_peer_openssl_chacha20poly1305_open(uint8_t *out, size_t out_len, const uint8_t *in,
                                          size_t in_len);
int vg_peer_sodium_chacha20poly1305_seal(uint8_t *out, size_t out_len, const uint8_t *in,
                                         size_t in_len);
int vg_peer_sodium_chacha20poly1305_open(uint8_t *out, size_t out_len, const uint8_t *in,
                                         size_t in_len);
int vg_peer_sodium_xchacha20poly1305_seal(uint8_t *out, size_t out_len, const uint8_t *in,
                                          size_t in_len);
int vg_peer_sodium_xchacha20poly1305_open(uint8_t *out, size_t out_len, const uint8_t *in,
                                          size_t in_len);
/* ChaCha20 (RFC 8439 2.4) from block counter 1: in = key (32) || nonce (12)
 * || data, out = data XOR keystream. OpenSSL: EVP_CIPHER "ChaCha20" (16-byte
 * IV = le32(counter) || nonce), context and key made once, per call
 * EVP_EncryptInit_ex with the IV and one Update. libsodium:
 * crypto_stream_chacha20_ietf_xor_ic. */
int vg_peer_openssl_chacha20(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_sodium_chacha20(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
/* Poly1305 (RFC 8439 2.5): in = one-time key (32) || message, out = tag
 * (16). OpenSSL: EVP_MAC "POLY1305", one EVP_MAC_CTX made once, per call
 * EVP_MAC_init with the key (a one-time key: a new one per message),
 * Update, Final. libsodium: crypto_onetimeauth (Poly1305). */
int vg_peer_openssl_poly1305(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_sodium_poly1305(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_sodium_hchacha20(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

/* SHA-384 (FIPS 180-4) through the reused EVP_MD_CTX, as the other digests. */
int vg_peer_openssl_sha384(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
/* HMAC-SHA-256 (RFC 2104): in = key (32) || message, out = 32 bytes.
 * OpenSSL: EVP_MAC "HMAC", one EVP_MAC_CTX keyed once per key
 * (EVP_MAC_init with the key and digest SHA256; a 32-byte compare per call
 * detects a new key); per call EVP_MAC_init with no key (restart with the
 * same key) + update + final. libsodium: crypto_auth_hmacsha256. */
int vg_peer_openssl_hmac_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
int vg_peer_sodium_hmac_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);
/* HKDF-SHA-256 (RFC 5869), extract and expand: in = ikm (32) || salt (32)
 * || info (32), out = out_len bytes of OKM. OpenSSL: EVP_KDF "HKDF", one
 * EVP_KDF_CTX whose parameters (digest, key, salt, info) are set once per
 * input (a 96-byte compare per call); per call EVP_KDF_derive. libsodium
 * 1.0.18 has no HKDF. */
int vg_peer_openssl_hkdf_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len);

#endif /* VG_BENCH_PEERS_H */
