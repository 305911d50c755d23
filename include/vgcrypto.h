/*
 * vgcrypto: X25519, Ed25519, ML-KEM, ML-DSA and the hashes they need.
 *
 * The only public header. Every function returns VG_OK (0) or a negative error
 * code. Buffers are caller-owned and of the fixed sizes given below; no
 * function allocates. On failure, secret outputs are zeroed unless stated.
 * Inputs and outputs may not overlap unless stated.
 *
 * Rules for every function: a NULL pointer with a nonzero length, or a NULL
 * fixed-size buffer, gives VG_ERR_INPUT (verification functions:
 * VG_ERR_VERIFY), and every non-NULL output buffer is then zeroed. A length
 * over what the standard allows gives VG_ERR_INPUT.
 */
#ifndef VGCRYPTO_H
#define VGCRYPTO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(VG_BUILDING_LIBRARY) && defined(__GNUC__)
#define VG_API __attribute__((visibility("default")))
#else
#define VG_API
#endif

#define VG_OK 0
#define VG_ERR_VERIFY (-1) /* a signature did not verify */
#define VG_ERR_INPUT (-2)  /* malformed or rejected input: encoding, length, key check */
#define VG_ERR_RANDOM (-3) /* the operating system's random source failed */

/* "MAJOR.MINOR.PATCH" of the library. */
VG_API const char *vg_version(void);

/* Active CPU features, comma separated, e.g. "bmi2,adx,avx2,avx512ifma";
 * "" when none (portable code only). Honours VG_CPU_FEATURES. */
VG_API const char *vg_cpu_features(void);

/* Name of the variant that runs now for a primitive: "x25519",
 * "x25519-base", "ed25519", "sha256", "sha512", "keccak", "mlkem",
 * "mldsa", "chacha20", "poly1305", "p256" or "p384"; e.g. "portable", "adx", "shani",
 * "avx2", "ifma". NULL for an
 * unknown primitive (or NULL). */
VG_API const char *vg_implementation(const char *primitive);

/* Hashes: FIPS 180-4 (SHA-2) and FIPS 202 (SHA-3, SHAKE). `in` may be NULL
 * when len is 0, `out` of SHAKE when out_len is 0. Return VG_OK, or
 * VG_ERR_INPUT (out zeroed) for a NULL pointer as above and for a SHA-256
 * message of 2^61 bytes or more (FIPS 180-4: below 2^64 bits). SHA-384 is
 * SHA-512 with its own initial value, truncated (FIPS 180-4 5.3.4, 6.5). */
VG_API int vg_sha256(uint8_t out[32], const uint8_t *in, size_t len);
VG_API int vg_sha512(uint8_t out[64], const uint8_t *in, size_t len);
VG_API int vg_sha3_256(uint8_t out[32], const uint8_t *in, size_t len);
VG_API int vg_sha3_512(uint8_t out[64], const uint8_t *in, size_t len);
VG_API int vg_shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t len);
VG_API int vg_shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t len);
VG_API int vg_sha384(uint8_t out[48], const uint8_t *in, size_t len);

/* Incremental hashing: init, any number of updates (absorbs), final.
 * final writes the digest and wipes the state. A state may be copied (plain
 * assignment or memcpy) to fork a computation: both copies go on
 * independently. The implementation (SHA-NI, AVX2, ...) is chosen at init
 * and kept by the state.
 *
 * The structs are declared here so that callers can put them on the stack;
 * their contents are private. Their sizes (bytes: SHA-256 192, SHA-384 and
 * SHA-512 288, SHA3-256, SHA3-512 and SHAKE 288, HMAC-SHA-256 384,
 * HMAC-SHA-384 and HMAC-SHA-512 576) and alignment (that of uint64_t) are
 * part of the ABI; each leaves room beyond what the library uses today.
 *
 * Errors (VG_ERR_INPUT): a NULL state; a NULL `in` with len > 0; a NULL
 * `out`; a state that init has not set up or that final (or an error) has
 * already wiped (detected with a flag that init sets and the wipe clears;
 * an uninitialised stack struct is refused with near certainty, but do not
 * rely on it); SHA-256 input reaching 2^61 bytes in total (FIPS 180-4:
 * under 2^64 bits), and for HMAC-SHA-256 the message reaching 2^61 - 64
 * bytes (the inner hash also takes the 64-byte key block). Every failure wipes the state (it must be
 * initialised again) and zeroes the output, so an ignored error cannot
 * become a digest of a different message. */
typedef struct vg_sha256_state {
    uint64_t opaque[24];
} vg_sha256_state;
typedef struct vg_sha384_state {
    uint64_t opaque[36];
} vg_sha384_state;
typedef struct vg_sha512_state {
    uint64_t opaque[36];
} vg_sha512_state;
typedef struct vg_sha3_256_state {
    uint64_t opaque[36];
} vg_sha3_256_state;
typedef struct vg_sha3_512_state {
    uint64_t opaque[36];
} vg_sha3_512_state;
VG_API int vg_sha256_init(vg_sha256_state *st);
VG_API int vg_sha256_update(vg_sha256_state *st, const uint8_t *in, size_t len);
VG_API int vg_sha256_final(vg_sha256_state *st, uint8_t out[32]);
VG_API int vg_sha384_init(vg_sha384_state *st);
VG_API int vg_sha384_update(vg_sha384_state *st, const uint8_t *in, size_t len);
VG_API int vg_sha384_final(vg_sha384_state *st, uint8_t out[48]);
VG_API int vg_sha512_init(vg_sha512_state *st);
VG_API int vg_sha512_update(vg_sha512_state *st, const uint8_t *in, size_t len);
VG_API int vg_sha512_final(vg_sha512_state *st, uint8_t out[64]);
VG_API int vg_sha3_256_init(vg_sha3_256_state *st);
VG_API int vg_sha3_256_update(vg_sha3_256_state *st, const uint8_t *in, size_t len);
VG_API int vg_sha3_256_final(vg_sha3_256_state *st, uint8_t out[32]);
VG_API int vg_sha3_512_init(vg_sha3_512_state *st);
VG_API int vg_sha3_512_update(vg_sha3_512_state *st, const uint8_t *in, size_t len);
VG_API int vg_sha3_512_final(vg_sha3_512_state *st, uint8_t out[64]);

/* SHAKE128 / SHAKE256 (FIPS 202 6.2) as a stream: absorb any number of
 * times, then squeeze any number of times (any lengths; the concatenation
 * equals one squeeze of the total length). The first squeeze ends the
 * input: absorb after squeeze gives VG_ERR_INPUT (the state wiped, as for
 * every error above). `out` may be NULL when len is 0. vg_shake_wipe ends
 * a computation (VG_ERR_INPUT only for a NULL state). */
typedef struct vg_shake_state {
    uint64_t opaque[36];
} vg_shake_state;
VG_API int vg_shake128_init(vg_shake_state *st);
VG_API int vg_shake256_init(vg_shake_state *st);
VG_API int vg_shake_absorb(vg_shake_state *st, const uint8_t *in, size_t len);
VG_API int vg_shake_squeeze(vg_shake_state *st, uint8_t *out, size_t len);
VG_API int vg_shake_wipe(vg_shake_state *st);

/* HMAC (RFC 2104, FIPS 198-1) over SHA-256, SHA-384, SHA-512: keys of any
 * length (longer than the hash block, 64 or 128 bytes, are hashed first);
 * `key` may be NULL when key_len is 0, `msg` when msg_len is 0. The state
 * holds the inner and outer hash states keyed at init, so copying a state
 * right after init keys further messages at no cost. final writes the MAC
 * and wipes the state; a state abandoned before final holds key material:
 * wipe it (e.g. memset through a volatile pointer, or call final). Errors
 * as for the hashes above (VG_ERR_INPUT, state wiped, out zeroed). */
typedef struct vg_hmac_sha256_state {
    uint64_t opaque[48];
} vg_hmac_sha256_state;
typedef struct vg_hmac_sha384_state {
    uint64_t opaque[72];
} vg_hmac_sha384_state;
typedef struct vg_hmac_sha512_state {
    uint64_t opaque[72];
} vg_hmac_sha512_state;
VG_API int vg_hmac_sha256(uint8_t out[32], const uint8_t *key, size_t key_len,
                          const uint8_t *msg, size_t msg_len);
VG_API int vg_hmac_sha384(uint8_t out[48], const uint8_t *key, size_t key_len,
                          const uint8_t *msg, size_t msg_len);
VG_API int vg_hmac_sha512(uint8_t out[64], const uint8_t *key, size_t key_len,
                          const uint8_t *msg, size_t msg_len);
VG_API int vg_hmac_sha256_init(vg_hmac_sha256_state *st, const uint8_t *key, size_t key_len);
VG_API int vg_hmac_sha256_update(vg_hmac_sha256_state *st, const uint8_t *msg, size_t len);
VG_API int vg_hmac_sha256_final(vg_hmac_sha256_state *st, uint8_t out[32]);
VG_API int vg_hmac_sha384_init(vg_hmac_sha384_state *st, const uint8_t *key, size_t key_len);
VG_API int vg_hmac_sha384_update(vg_hmac_sha384_state *st, const uint8_t *msg, size_t len);
VG_API int vg_hmac_sha384_final(vg_hmac_sha384_state *st, uint8_t out[48]);
VG_API int vg_hmac_sha512_init(vg_hmac_sha512_state *st, const uint8_t *key, size_t key_len);
VG_API int vg_hmac_sha512_update(vg_hmac_sha512_state *st, const uint8_t *msg, size_t len);
VG_API int vg_hmac_sha512_final(vg_hmac_sha512_state *st, uint8_t out[64]);

/* HKDF (RFC 5869) over SHA-256, SHA-384, SHA-512 (HashLen 32, 48, 64).
 * extract: PRK = HMAC(salt, IKM); an empty salt (NULL with salt_len 0)
 * stands for HashLen zero bytes (RFC 5869 2.2), which HMAC treats alike.
 * expand: out_len bytes of T(1) || T(2) || ... (RFC 5869 2.3); out_len
 * above 255 * HashLen gives VG_ERR_INPUT with out zeroed. The one-shot
 * function is extract then expand. `out` may be NULL when out_len is 0,
 * salt, ikm and info when their lengths are 0. PRK and every intermediate
 * secret are wiped before return; on any error out (and prk) are zeroed. */
VG_API int vg_hkdf_sha256_extract(uint8_t prk[32], const uint8_t *salt, size_t salt_len,
                                  const uint8_t *ikm, size_t ikm_len);
VG_API int vg_hkdf_sha256_expand(uint8_t *out, size_t out_len, const uint8_t prk[32],
                                 const uint8_t *info, size_t info_len);
VG_API int vg_hkdf_sha256(uint8_t *out, size_t out_len, const uint8_t *salt, size_t salt_len,
                          const uint8_t *ikm, size_t ikm_len, const uint8_t *info,
                          size_t info_len);
VG_API int vg_hkdf_sha384_extract(uint8_t prk[48], const uint8_t *salt, size_t salt_len,
                                  const uint8_t *ikm, size_t ikm_len);
VG_API int vg_hkdf_sha384_expand(uint8_t *out, size_t out_len, const uint8_t prk[48],
                                 const uint8_t *info, size_t info_len);
VG_API int vg_hkdf_sha384(uint8_t *out, size_t out_len, const uint8_t *salt, size_t salt_len,
                          const uint8_t *ikm, size_t ikm_len, const uint8_t *info,
                          size_t info_len);
VG_API int vg_hkdf_sha512_extract(uint8_t prk[64], const uint8_t *salt, size_t salt_len,
                                  const uint8_t *ikm, size_t ikm_len);
VG_API int vg_hkdf_sha512_expand(uint8_t *out, size_t out_len, const uint8_t prk[64],
                                 const uint8_t *info, size_t info_len);
VG_API int vg_hkdf_sha512(uint8_t *out, size_t out_len, const uint8_t *salt, size_t salt_len,
                          const uint8_t *ikm, size_t ikm_len, const uint8_t *info,
                          size_t info_len);

/* X25519, RFC 7748. */
#define VG_X25519_BYTES 32
/* Clamps secret, ignores bit 255 of peer_public. Writes shared always;
 * returns VG_ERR_INPUT when shared is all zero (peer key of small order) or
 * a pointer is NULL (shared zeroed), VG_OK otherwise. */
VG_API int vg_x25519(uint8_t shared[32], const uint8_t secret[32], const uint8_t peer_public[32]);
/* public_key = X25519(secret, 9). */
VG_API int vg_x25519_public_key(uint8_t public_key[32], const uint8_t secret[32]);
/* A random secret from the OS and its public key; on VG_ERR_RANDOM both
 * outputs are zeroed. */
VG_API int vg_x25519_keypair(uint8_t public_key[32], uint8_t secret[32]);

/* Ed25519, RFC 8032. Secret key = seed || public key, as in libsodium. */
#define VG_ED25519_SEEDBYTES 32
#define VG_ED25519_PUBLICKEYBYTES 32
#define VG_ED25519_SECRETKEYBYTES 64
#define VG_ED25519_SIGBYTES 64
/* RFC 8032 5.1.5 from a 32-byte seed. VG_ERR_INPUT for a NULL pointer. */
VG_API int vg_ed25519_keypair_from_seed(uint8_t public_key[32], uint8_t secret_key[64],
                                        const uint8_t seed[32]);
/* A random seed from the OS; on VG_ERR_RANDOM both outputs are zeroed. */
VG_API int vg_ed25519_keypair(uint8_t public_key[32], uint8_t secret_key[64]);
/* RFC 8032 5.1.6. msg may be NULL when msg_len is 0. VG_ERR_INPUT for a
 * NULL pointer (sig zeroed). */
VG_API int vg_ed25519_sign(uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                           const uint8_t secret_key[64]);
/* RFC 8032 5.1.7, cofactorless: VG_OK or VG_ERR_VERIFY. Rules in
 * docs/ed25519-verdicts.md. */
VG_API int vg_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                             const uint8_t public_key[32]);
/* [8][S]B = [8]R + [8][k]A, same decoding rules; for agreement with batch
 * verifiers. */
VG_API int vg_ed25519_verify_cofactored(const uint8_t sig[64], const uint8_t *msg,
                                        size_t msg_len, const uint8_t public_key[32]);

/* ---- Ed25519ctx and Ed25519ph (RFC 8032 5.1) ------------------------------
 * The same keys and signature format as Ed25519, with dom2(phflag, ctx)
 * hashed first (RFC 8032 5.1). Ed25519ctx: ctx of 1 to 255 bytes (5.1: it
 * SHOULD NOT be empty; use Ed25519 for no context). Ed25519ph: ctx of 0 to
 * 255 bytes; _sign / _verify hash msg with SHA-512 themselves,
 * _prehashed take the 64-byte SHA-512 digest. A ctx length out of range
 * gives VG_ERR_INPUT (sign: sig zeroed), for verification too. Otherwise the
 * rules of vg_ed25519_sign and vg_ed25519_verify (cofactorless,
 * docs/ed25519-verdicts.md): NULL pointers give VG_ERR_INPUT for signing
 * (sig zeroed) and VG_ERR_VERIFY for verification; msg may be NULL when
 * msg_len is 0, ctx when ctx_len is 0. */
VG_API int vg_ed25519ctx_sign(uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                              const uint8_t *ctx, size_t ctx_len, const uint8_t secret_key[64]);
VG_API int vg_ed25519ctx_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                                const uint8_t *ctx, size_t ctx_len,
                                const uint8_t public_key[32]);
VG_API int vg_ed25519ph_sign(uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                             const uint8_t *ctx, size_t ctx_len, const uint8_t secret_key[64]);
VG_API int vg_ed25519ph_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                               const uint8_t *ctx, size_t ctx_len, const uint8_t public_key[32]);
VG_API int vg_ed25519ph_sign_prehashed(uint8_t sig[64], const uint8_t ph[64], const uint8_t *ctx,
                                       size_t ctx_len, const uint8_t secret_key[64]);
VG_API int vg_ed25519ph_verify_prehashed(const uint8_t sig[64], const uint8_t ph[64],
                                         const uint8_t *ctx, size_t ctx_len,
                                         const uint8_t public_key[32]);
/* ---- end of Ed25519ctx and Ed25519ph -------------------------------------- */

/* ML-KEM, FIPS 203. pk = encapsulation key ek, sk = decapsulation key dk
 * (dk_pke || ek || H(ek) || z), ct = ciphertext, ss = shared secret K.
 * NULL pointers give VG_ERR_INPUT. On failure every output (ct too) is
 * zeroed. */
#define VG_MLKEM512_PUBLICKEYBYTES 800
#define VG_MLKEM512_SECRETKEYBYTES 1632
#define VG_MLKEM512_CIPHERTEXTBYTES 768
#define VG_MLKEM768_PUBLICKEYBYTES 1184
#define VG_MLKEM768_SECRETKEYBYTES 2400
#define VG_MLKEM768_CIPHERTEXTBYTES 1088
#define VG_MLKEM1024_PUBLICKEYBYTES 1568
#define VG_MLKEM1024_SECRETKEYBYTES 3168
#define VG_MLKEM1024_CIPHERTEXTBYTES 1568
#define VG_MLKEM_SHAREDSECRETBYTES 32
#define VG_MLKEM_KEYGENSEEDBYTES 64 /* d || z */
#define VG_MLKEM_ENCAPSSEEDBYTES 32 /* m */
/* ML-KEM-512. keypair_derand: ML-KEM.KeyGen_internal(d, z), seed = d || z.
 * encaps: VG_ERR_INPUT when pk fails the FIPS 203 7.2 modulus check.
 * decaps: VG_ERR_INPUT when sk fails the FIPS 203 7.3 hash check; otherwise
 * VG_OK, with implicit rejection of a bad ciphertext.
 * keypair/encaps: VG_ERR_RANDOM when the OS random source fails. */
VG_API int vg_mlkem512_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[64]);
VG_API int vg_mlkem512_keypair(uint8_t *pk, uint8_t *sk);
VG_API int vg_mlkem512_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *pk,
                                     const uint8_t m[32]);
VG_API int vg_mlkem512_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *pk);
VG_API int vg_mlkem512_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *sk);
VG_API int vg_mlkem512_check_public_key(const uint8_t *pk); /* 7.2: VG_OK or VG_ERR_INPUT */
VG_API int vg_mlkem512_check_secret_key(const uint8_t *sk); /* 7.3: VG_OK or VG_ERR_INPUT */
/* ML-KEM-768. keypair_derand: ML-KEM.KeyGen_internal(d, z), seed = d || z.
 * encaps: VG_ERR_INPUT when pk fails the FIPS 203 7.2 modulus check.
 * decaps: VG_ERR_INPUT when sk fails the FIPS 203 7.3 hash check; otherwise
 * VG_OK, with implicit rejection of a bad ciphertext.
 * keypair/encaps: VG_ERR_RANDOM when the OS random source fails. */
VG_API int vg_mlkem768_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[64]);
VG_API int vg_mlkem768_keypair(uint8_t *pk, uint8_t *sk);
VG_API int vg_mlkem768_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *pk,
                                     const uint8_t m[32]);
VG_API int vg_mlkem768_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *pk);
VG_API int vg_mlkem768_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *sk);
VG_API int vg_mlkem768_check_public_key(const uint8_t *pk); /* 7.2: VG_OK or VG_ERR_INPUT */
VG_API int vg_mlkem768_check_secret_key(const uint8_t *sk); /* 7.3: VG_OK or VG_ERR_INPUT */
/* ML-KEM-1024. keypair_derand: ML-KEM.KeyGen_internal(d, z), seed = d || z.
 * encaps: VG_ERR_INPUT when pk fails the FIPS 203 7.2 modulus check.
 * decaps: VG_ERR_INPUT when sk fails the FIPS 203 7.3 hash check; otherwise
 * VG_OK, with implicit rejection of a bad ciphertext.
 * keypair/encaps: VG_ERR_RANDOM when the OS random source fails. */
VG_API int vg_mlkem1024_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[64]);
VG_API int vg_mlkem1024_keypair(uint8_t *pk, uint8_t *sk);
VG_API int vg_mlkem1024_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *pk,
                                     const uint8_t m[32]);
VG_API int vg_mlkem1024_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *pk);
VG_API int vg_mlkem1024_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *sk);
VG_API int vg_mlkem1024_check_public_key(const uint8_t *pk); /* 7.2: VG_OK or VG_ERR_INPUT */
VG_API int vg_mlkem1024_check_secret_key(const uint8_t *sk); /* 7.3: VG_OK or VG_ERR_INPUT */

/* ML-DSA, FIPS 204. pk = public key, sk = secret key (rho || K || tr || s1 ||
 * s2 || t0), sig = signature; msg may be NULL when msg_len is 0, ctx when
 * ctx_len is 0. Key generation and signing: NULL pointers give VG_ERR_INPUT,
 * with every non-NULL output zeroed. Signing: on any failure sig is zeroed; VG_ERR_INPUT also for ctx_len > 255 and for a secret key whose
 * s1/s2 fields are out of range; VG_ERR_RANDOM when the OS random source
 * fails. Verification: VG_OK or VG_ERR_VERIFY (a wrong sig_len and NULL
 * pointers too); VG_ERR_INPUT for ctx_len > 255. */
#define VG_MLDSA44_PUBLICKEYBYTES 1312
#define VG_MLDSA44_SECRETKEYBYTES 2560
#define VG_MLDSA44_SIGBYTES 2420
#define VG_MLDSA65_PUBLICKEYBYTES 1952
#define VG_MLDSA65_SECRETKEYBYTES 4032
#define VG_MLDSA65_SIGBYTES 3309
#define VG_MLDSA87_PUBLICKEYBYTES 2592
#define VG_MLDSA87_SECRETKEYBYTES 4896
#define VG_MLDSA87_SIGBYTES 4627
#define VG_MLDSA_SEEDBYTES 32 /* xi */
#define VG_MLDSA_RNDBYTES 32
#define VG_MLDSA_MUBYTES 64
#define VG_MLDSA_CTXMAXBYTES 255
/* ML-DSA-44. keypair_derand: ML-DSA.KeyGen_internal(seed). sign_derand: rnd
 * all zero gives the deterministic variant; sign is hedged. sign_mu /
 * verify_mu: external mu (FIPS 204 Algorithms 7 and 8 from mu on).
 * sign_internal / verify_internal: ML-DSA.Sign_internal / Verify_internal
 * on M' as given. */
VG_API int vg_mldsa44_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
VG_API int vg_mldsa44_keypair(uint8_t *pk, uint8_t *sk);
VG_API int vg_mldsa44_sign_derand(uint8_t *sig, const uint8_t *msg, size_t msg_len,
                                  const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                                  const uint8_t rnd[32]);
VG_API int vg_mldsa44_sign(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                           size_t ctx_len, const uint8_t *sk);
VG_API int vg_mldsa44_verify(const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                             size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                             const uint8_t *pk);
VG_API int vg_mldsa44_sign_mu(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                              const uint8_t rnd[32]);
VG_API int vg_mldsa44_verify_mu(const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                                const uint8_t *pk);
VG_API int vg_mldsa44_sign_internal(uint8_t *sig, const uint8_t *mprime, size_t mprime_len,
                                    const uint8_t *sk, const uint8_t rnd[32]);
VG_API int vg_mldsa44_verify_internal(const uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                                      size_t mprime_len, const uint8_t *pk);
/* ML-DSA-65. keypair_derand: ML-DSA.KeyGen_internal(seed). sign_derand: rnd
 * all zero gives the deterministic variant; sign is hedged. sign_mu /
 * verify_mu: external mu (FIPS 204 Algorithms 7 and 8 from mu on).
 * sign_internal / verify_internal: ML-DSA.Sign_internal / Verify_internal
 * on M' as given. */
VG_API int vg_mldsa65_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
VG_API int vg_mldsa65_keypair(uint8_t *pk, uint8_t *sk);
VG_API int vg_mldsa65_sign_derand(uint8_t *sig, const uint8_t *msg, size_t msg_len,
                                  const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                                  const uint8_t rnd[32]);
VG_API int vg_mldsa65_sign(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                           size_t ctx_len, const uint8_t *sk);
VG_API int vg_mldsa65_verify(const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                             size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                             const uint8_t *pk);
VG_API int vg_mldsa65_sign_mu(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                              const uint8_t rnd[32]);
VG_API int vg_mldsa65_verify_mu(const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                                const uint8_t *pk);
VG_API int vg_mldsa65_sign_internal(uint8_t *sig, const uint8_t *mprime, size_t mprime_len,
                                    const uint8_t *sk, const uint8_t rnd[32]);
VG_API int vg_mldsa65_verify_internal(const uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                                      size_t mprime_len, const uint8_t *pk);
/* ML-DSA-87. keypair_derand: ML-DSA.KeyGen_internal(seed). sign_derand: rnd
 * all zero gives the deterministic variant; sign is hedged. sign_mu /
 * verify_mu: external mu (FIPS 204 Algorithms 7 and 8 from mu on).
 * sign_internal / verify_internal: ML-DSA.Sign_internal / Verify_internal
 * on M' as given. */
VG_API int vg_mldsa87_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
VG_API int vg_mldsa87_keypair(uint8_t *pk, uint8_t *sk);
VG_API int vg_mldsa87_sign_derand(uint8_t *sig, const uint8_t *msg, size_t msg_len,
                                  const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                                  const uint8_t rnd[32]);
VG_API int vg_mldsa87_sign(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                           size_t ctx_len, const uint8_t *sk);
VG_API int vg_mldsa87_verify(const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                             size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                             const uint8_t *pk);
VG_API int vg_mldsa87_sign_mu(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                              const uint8_t rnd[32]);
VG_API int vg_mldsa87_verify_mu(const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                                const uint8_t *pk);
VG_API int vg_mldsa87_sign_internal(uint8_t *sig, const uint8_t *mprime, size_t mprime_len,
                                    const uint8_t *sk, const uint8_t rnd[32]);
VG_API int vg_mldsa87_verify_internal(const uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                                      size_t mprime_len, const uint8_t *pk);

/* ---- HashML-DSA and the streaming external mu (FIPS 204 5.4, 6.2) ---------
 * HashML-DSA (FIPS 204 Algorithms 4 and 5) on a digest the caller computed:
 * M' = 1 || |ctx| || ctx || OID || PH, then ML-DSA.Sign_internal /
 * Verify_internal. hash_id names the hash of FIPS 204 section 5.4; its
 * value is the last arc of the hash's OID 2.16.840.1.101.3.4.2.x. ph_len
 * must be that hash's output length (28, 32, 48 or 64 bytes; SHAKE128 and
 * SHAKE256 with 256- and 512-bit outputs: 32 and 64). An unknown hash_id, a
 * wrong ph_len or ctx_len > 255 gives VG_ERR_INPUT (sign: sig zeroed), for
 * verification too; a NULL pointer gives VG_ERR_INPUT for signing (sig
 * zeroed) and VG_ERR_VERIFY for verification. sign_prehash is hedged (rnd
 * from the OS); sign_prehash_derand with rnd all zero is deterministic. */
#define VG_HASH_SHA256 1
#define VG_HASH_SHA384 2
#define VG_HASH_SHA512 3
#define VG_HASH_SHA224 4
#define VG_HASH_SHA512_224 5
#define VG_HASH_SHA512_256 6
#define VG_HASH_SHA3_224 7
#define VG_HASH_SHA3_256 8
#define VG_HASH_SHA3_384 9
#define VG_HASH_SHA3_512 10
#define VG_HASH_SHAKE128 11
#define VG_HASH_SHAKE256 12
VG_API int vg_mldsa44_sign_prehash_derand(uint8_t *sig, const uint8_t *ph, size_t ph_len,
                                          int hash_id, const uint8_t *ctx, size_t ctx_len,
                                          const uint8_t *sk, const uint8_t rnd[32]);
VG_API int vg_mldsa44_sign_prehash(uint8_t *sig, const uint8_t *ph, size_t ph_len, int hash_id,
                                   const uint8_t *ctx, size_t ctx_len, const uint8_t *sk);
VG_API int vg_mldsa44_verify_prehash(const uint8_t *sig, size_t sig_len, const uint8_t *ph,
                                     size_t ph_len, int hash_id, const uint8_t *ctx,
                                     size_t ctx_len, const uint8_t *pk);
VG_API int vg_mldsa65_sign_prehash_derand(uint8_t *sig, const uint8_t *ph, size_t ph_len,
                                          int hash_id, const uint8_t *ctx, size_t ctx_len,
                                          const uint8_t *sk, const uint8_t rnd[32]);
VG_API int vg_mldsa65_sign_prehash(uint8_t *sig, const uint8_t *ph, size_t ph_len, int hash_id,
                                   const uint8_t *ctx, size_t ctx_len, const uint8_t *sk);
VG_API int vg_mldsa65_verify_prehash(const uint8_t *sig, size_t sig_len, const uint8_t *ph,
                                     size_t ph_len, int hash_id, const uint8_t *ctx,
                                     size_t ctx_len, const uint8_t *pk);
VG_API int vg_mldsa87_sign_prehash_derand(uint8_t *sig, const uint8_t *ph, size_t ph_len,
                                          int hash_id, const uint8_t *ctx, size_t ctx_len,
                                          const uint8_t *sk, const uint8_t rnd[32]);
VG_API int vg_mldsa87_sign_prehash(uint8_t *sig, const uint8_t *ph, size_t ph_len, int hash_id,
                                   const uint8_t *ctx, size_t ctx_len, const uint8_t *sk);
VG_API int vg_mldsa87_verify_prehash(const uint8_t *sig, size_t sig_len, const uint8_t *ph,
                                     size_t ph_len, int hash_id, const uint8_t *ctx,
                                     size_t ctx_len, const uint8_t *pk);
/* Streaming external mu for pure ML-DSA: mu = H(tr || 0 || |ctx| || ctx ||
 * M, 64) (FIPS 204 Algorithm 2 line 10 with Algorithm 7 line 6) absorbed in
 * pieces, then vg_mldsaN_sign_mu / verify_mu. init computes tr = H(pk, 64)
 * from the public key of its parameter set and absorbs the context prefix
 * (ctx_len > 255 or a NULL st, pk or ctx with ctx_len > 0: VG_ERR_INPUT).
 * update absorbs message bytes (msg may be NULL when len is 0); final
 * writes mu and wipes the state. As for vg_shake_state, a state that init
 * has not set up or that final or an error has wiped is refused
 * (VG_ERR_INPUT, mu zeroed), and a state may be copied to fork. */
typedef struct vg_mldsa_mu_state {
    uint64_t opaque[36];
} vg_mldsa_mu_state;
VG_API int vg_mldsa44_mu_init(vg_mldsa_mu_state *st, const uint8_t *pk, const uint8_t *ctx,
                              size_t ctx_len);
VG_API int vg_mldsa65_mu_init(vg_mldsa_mu_state *st, const uint8_t *pk, const uint8_t *ctx,
                              size_t ctx_len);
VG_API int vg_mldsa87_mu_init(vg_mldsa_mu_state *st, const uint8_t *pk, const uint8_t *ctx,
                              size_t ctx_len);
VG_API int vg_mldsa_mu_update(vg_mldsa_mu_state *st, const uint8_t *msg, size_t len);
VG_API int vg_mldsa_mu_final(vg_mldsa_mu_state *st, uint8_t mu[64]);
/* ---- end of HashML-DSA and the streaming external mu ---------------------- */

/* ChaCha20-Poly1305 (RFC 8439 2.8) and XChaCha20-Poly1305
 * (draft-irtf-cfrg-xchacha-03), detached 16-byte tag. pt and ct may be the
 * same buffer (in place); otherwise they may not overlap. ad may be NULL
 * when ad_len is 0, pt and ct when len is 0.
 * seal: VG_ERR_INPUT for a NULL pointer (tag and ct then zeroed) and for
 * len above the RFC 8439 limit of 2^38 - 64 bytes (tag zeroed, ct not
 * touched).
 * open: VG_OK, or VG_ERR_VERIFY for a wrong tag, with pt zeroed; the tag is
 * compared in constant time. A NULL pointer also gives VG_ERR_VERIFY (pt
 * zeroed); len above 2^38 - 64 gives VG_ERR_INPUT (pt not touched). */
#define VG_CHACHA20POLY1305_KEYBYTES 32
#define VG_CHACHA20POLY1305_NONCEBYTES 12
#define VG_XCHACHA20POLY1305_NONCEBYTES 24
#define VG_AEAD_TAGBYTES 16
VG_API int vg_chacha20poly1305_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                                    const uint8_t *ad, size_t ad_len, const uint8_t nonce[12],
                                    const uint8_t key[32]);
VG_API int vg_chacha20poly1305_open(uint8_t *pt, const uint8_t *ct, size_t len,
                                    const uint8_t tag[16], const uint8_t *ad, size_t ad_len,
                                    const uint8_t nonce[12], const uint8_t key[32]);
VG_API int vg_xchacha20poly1305_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                                     const uint8_t *ad, size_t ad_len, const uint8_t nonce[24],
                                     const uint8_t key[32]);
VG_API int vg_xchacha20poly1305_open(uint8_t *pt, const uint8_t *ct, size_t len,
                                     const uint8_t tag[16], const uint8_t *ad, size_t ad_len,
                                     const uint8_t nonce[24], const uint8_t key[32]);
/* ChaCha20 keystream XOR (RFC 8439 2.4): out = in XOR the keystream from
 * block `counter` on (out == in allowed). The block counter is 32 bits and
 * never wraps: VG_ERR_INPUT (out not touched) when len would need a block
 * beyond counter 2^32 - 1, i.e. ceil(len / 64) > 2^32 - counter.
 * VG_ERR_INPUT for a NULL key or nonce or a NULL in/out with len > 0 (out
 * then zeroed). */
VG_API int vg_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                       uint32_t counter, const uint8_t key[32]);
/* Poly1305 (RFC 8439 2.5) with a one-time 32-byte key r || s. VG_ERR_INPUT
 * for a NULL tag or key or a NULL msg with len > 0 (tag then zeroed). */
VG_API int vg_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32]);

/* ---- Hybrid KEMs --------------------------------------------------------
 * X-Wing: draft-connolly-cfrg-xwing-kem (the version whose decapsulation key
 * is a 32-byte seed expanded with SHAKE256 to ML-KEM-768's d || z and the
 * X25519 secret; = MLKEM768-X25519 of draft-irtf-cfrg-concrete-hybrid-kems).
 * pk = ML-KEM-768 ek || X25519 public key; ct = ML-KEM-768 ct || X25519
 * ephemeral public key; ss = SHA3-256(ss_M || ss_X || ct_X || pk_X ||
 * XWingLabel), XWingLabel the 6 bytes 5c 2e 2f 2f 5e 5c.
 * keypair_derand: sk = seed (seed and sk may be the same buffer).
 * encaps_derand: eseed = ML-KEM's m (32) || the X25519 ephemeral secret (32).
 * encaps: VG_ERR_INPUT (ct and ss zeroed) when the ML-KEM part of pk fails the
 * FIPS 203 7.2 check. An all-zero X25519 value is not an error for X-Wing (the
 * draft: the combiner binds ct_X and pk_X). decaps: VG_OK for any ciphertext
 * (ML-KEM's implicit rejection). Random forms: VG_ERR_RANDOM, outputs zeroed,
 * when the system's random source fails. */
#define VG_XWING_PUBLICKEYBYTES 1216
#define VG_XWING_SECRETKEYBYTES 32
#define VG_XWING_CIPHERTEXTBYTES 1120
#define VG_XWING_SHAREDSECRETBYTES 32
#define VG_XWING_SEEDBYTES 32
#define VG_XWING_ENCAPSSEEDBYTES 64
VG_API int vg_xwing_keypair_derand(uint8_t pk[1216], uint8_t sk[32], const uint8_t seed[32]);
VG_API int vg_xwing_keypair(uint8_t pk[1216], uint8_t sk[32]);
VG_API int vg_xwing_encaps_derand(uint8_t ct[1120], uint8_t ss[32], const uint8_t pk[1216],
                                  const uint8_t eseed[64]);
VG_API int vg_xwing_encaps(uint8_t ct[1120], uint8_t ss[32], const uint8_t pk[1216]);
VG_API int vg_xwing_decaps(uint8_t ss[32], const uint8_t ct[1120], const uint8_t sk[32]);
/* X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem, TLS 1.3 group 0x11EC) as a
 * KEM. pk = the client's key share = ML-KEM-768 ek (1184) || X25519 public
 * key (32); ct = the server's key share = ML-KEM-768 ct (1088) || X25519
 * ephemeral public key (32); ss = ML-KEM ss (32) || X25519 ss (32): ML-KEM
 * first in all three (the draft). sk = ML-KEM-768 dk (2400, FIPS 203) ||
 * X25519 secret (32). keypair_derand: seed = ML-KEM's d || z (64) || the
 * X25519 secret (32). encaps_derand: eseed = ML-KEM's m (32) || the ephemeral
 * X25519 secret (32). VG_ERR_INPUT, outputs zeroed: encaps when the ML-KEM
 * part of pk fails the FIPS 203 7.2 check; encaps and decaps when the X25519
 * value is all zero (a peer share of small order, RFC 8446 7.4.2); decaps
 * when the dk fails the FIPS 203 7.3 check. A wrong ML-KEM ciphertext gives
 * ML-KEM's implicit-rejection secret (VG_OK). */
#define VG_X25519MLKEM768_PUBLICKEYBYTES 1216
#define VG_X25519MLKEM768_SECRETKEYBYTES 2432
#define VG_X25519MLKEM768_CIPHERTEXTBYTES 1120
#define VG_X25519MLKEM768_SHAREDSECRETBYTES 64
#define VG_X25519MLKEM768_SEEDBYTES 96
#define VG_X25519MLKEM768_ENCAPSSEEDBYTES 64
VG_API int vg_x25519mlkem768_keypair_derand(uint8_t pk[1216], uint8_t sk[2432],
                                            const uint8_t seed[96]);
VG_API int vg_x25519mlkem768_keypair(uint8_t pk[1216], uint8_t sk[2432]);
VG_API int vg_x25519mlkem768_encaps_derand(uint8_t ct[1120], uint8_t ss[64],
                                           const uint8_t pk[1216], const uint8_t eseed[64]);
VG_API int vg_x25519mlkem768_encaps(uint8_t ct[1120], uint8_t ss[64], const uint8_t pk[1216]);
VG_API int vg_x25519mlkem768_decaps(uint8_t ss[64], const uint8_t ct[1120],
                                    const uint8_t sk[2432]);
/* SecP256r1MLKEM768 (0x11EB) and SecP384r1MLKEM1024 (0x11ED) of
 * draft-ietf-tls-ecdhe-mlkem as KEMs: the EC part first in all three.
 * pk = SEC 1 uncompressed point (65 / 97) || ML-KEM ek (1184 / 1568);
 * ct = the server's uncompressed ephemeral point || ML-KEM ct (1088 / 1568);
 * ss = ECDH x-coordinate (32 / 48) || ML-KEM ss (32). sk = EC scalar (32 /
 * 48, big endian) || ML-KEM dk (2400 / 3168, FIPS 203). keypair_derand:
 * seed = EC scalar || ML-KEM d || z (64); encaps_derand: eseed = ephemeral EC
 * scalar || ML-KEM m (32). VG_ERR_INPUT, outputs zeroed: a seed scalar 0 or
 * >= n; encaps when the ML-KEM part of pk fails FIPS 203 7.2 or the client's
 * point fails SEC 1 validation (not uncompressed, coordinate >= p, off the
 * curve); decaps when the server's point fails it or the dk fails FIPS 203
 * 7.3. A wrong ML-KEM ciphertext gives ML-KEM's implicit-rejection secret
 * (VG_OK). Random forms: VG_ERR_RANDOM, outputs zeroed, when the system's
 * random source fails. */
#define VG_P256MLKEM768_PUBLICKEYBYTES 1249
#define VG_P256MLKEM768_SECRETKEYBYTES 2432
#define VG_P256MLKEM768_CIPHERTEXTBYTES 1153
#define VG_P256MLKEM768_SHAREDSECRETBYTES 64
#define VG_P256MLKEM768_SEEDBYTES 96
#define VG_P256MLKEM768_ENCAPSSEEDBYTES 64
#define VG_P384MLKEM1024_PUBLICKEYBYTES 1665
#define VG_P384MLKEM1024_SECRETKEYBYTES 3216
#define VG_P384MLKEM1024_CIPHERTEXTBYTES 1665
#define VG_P384MLKEM1024_SHAREDSECRETBYTES 80
#define VG_P384MLKEM1024_SEEDBYTES 112
#define VG_P384MLKEM1024_ENCAPSSEEDBYTES 80
VG_API int vg_p256mlkem768_keypair_derand(uint8_t pk[1249], uint8_t sk[2432],
                                          const uint8_t seed[96]);
VG_API int vg_p256mlkem768_keypair(uint8_t pk[1249], uint8_t sk[2432]);
VG_API int vg_p256mlkem768_encaps_derand(uint8_t ct[1153], uint8_t ss[64],
                                         const uint8_t pk[1249], const uint8_t eseed[64]);
VG_API int vg_p256mlkem768_encaps(uint8_t ct[1153], uint8_t ss[64], const uint8_t pk[1249]);
VG_API int vg_p256mlkem768_decaps(uint8_t ss[64], const uint8_t ct[1153],
                                  const uint8_t sk[2432]);
VG_API int vg_p384mlkem1024_keypair_derand(uint8_t pk[1665], uint8_t sk[3216],
                                           const uint8_t seed[112]);
VG_API int vg_p384mlkem1024_keypair(uint8_t pk[1665], uint8_t sk[3216]);
VG_API int vg_p384mlkem1024_encaps_derand(uint8_t ct[1665], uint8_t ss[80],
                                          const uint8_t pk[1665], const uint8_t eseed[80]);
VG_API int vg_p384mlkem1024_encaps(uint8_t ct[1665], uint8_t ss[80], const uint8_t pk[1665]);
VG_API int vg_p384mlkem1024_decaps(uint8_t ss[80], const uint8_t ct[1665],
                                   const uint8_t sk[3216]);
/* ---- end of Hybrid KEMs ---- */

/* ---- Key encodings ------------------------------------------------------
 * PKCS#8 OneAsymmetricKey (RFC 5958) and SubjectPublicKeyInfo (RFC 5280), in
 * DER or PEM (RFC 7468 labels "PRIVATE KEY" and "PUBLIC KEY"), for X25519
 * and Ed25519 (RFC 8410), ML-KEM-512/768/1024 (the LAMPS ML-KEM certificates
 * document), ML-DSA-44/65/87 (RFC 9881) and X-Wing (its draft's "Use in
 * X.509"), P-256 and P-384 (RFC 5480 SPKI: id-ecPublicKey with the
 * namedCurve OID, an uncompressed point; RFC 5915 ECPrivateKey inside
 * PKCS#8, written as OpenSSL 3 writes it: no [0] parameters, [1] publicKey
 * present; read with or without either, [0] equal to the curve, [1] equal
 * to the scalar's point); docs/encodings.md has the details.
 *
 * The private key material ("key") is, per algorithm:
 *   X25519: the 32-byte secret; X-Wing: the 32-byte decapsulation key;
 *   P-256 / P-384: the 32 / 48-byte big-endian scalar, in [1, n-1] (public
 *     keys: the 65 / 97-byte uncompressed point, validated; encode and decode
 *     also take a compressed point, 33 / 49 bytes, and give it uncompressed);
 *   Ed25519: the 32-byte seed (encode also takes the 64-byte seed || public
 *     key, checked: its second half must be the seed's public key);
 *   ML-KEM: the 64-byte seed d || z, or the expanded dk (1632/2400/3168);
 *   ML-DSA: the 32-byte seed xi, or the expanded sk (2560/4032/4896).
 * flags: VG_KEY_DER or VG_KEY_PEM, ORed (private keys of ML-KEM and ML-DSA)
 * with the form of the CHOICE: VG_KEY_SEED (the default, 0) writes seed [0]
 * when given a seed; VG_KEY_EXPANDED writes expandedKey, VG_KEY_BOTH writes
 * both (computed from the seed: VG_KEY_BOTH with an expanded key is
 * VG_ERR_INPUT); an expanded key given is always written as expandedKey.
 *
 * encode: writes *out_len bytes to out (out_cap bytes); out NULL with
 * out_cap 0 only asks the size (*out_len, VG_OK). VG_ERR_INPUT (out zeroed,
 * *out_len 0) for an unknown or reserved alg, unknown flags, a wrong key
 * length, out_cap too small, an expanded key failing its checks (ML-KEM:
 * FIPS 203 7.3 and a pairwise encapsulation check; ML-DSA: s1 and s2 within
 * [-eta, eta], t0 and tr those of rho, s1, s2), an ML-KEM or X-Wing public key
 * failing FIPS 203 7.2.
 * decode: DER or PEM, told apart by content; strict DER (definite minimal
 * lengths, exact sizes, no trailing data, parameters absent but EC's
 * namedCurve); writes the algorithm, the flags that re-encode the input
 * (DER/PEM and the form found), and the key as encode takes it: the seed when the input has one,
 * else the expanded key. Checks: "both" regenerated from the seed and
 * compared (constant time); an expanded key as for encode; a publicKey
 * field (version 1) equal to the key's own; X-Wing's publicKey absent.
 * decode_private also reads P-256 / P-384 keys in the SEC 1 form of
 * `openssl ec` (RFC 5915 ECPrivateKey outside PKCS#8, [0] namedCurve
 * required; DER, or PEM "EC PRIVATE KEY" optionally after an "EC
 * PARAMETERS" block), flags then VG_KEY_DER or VG_KEY_PEM.
 * VG_ERR_INPUT (outputs zeroed, *alg VG_KEY_NONE) on any failure. */
typedef enum vg_key_alg {
    VG_KEY_NONE = 0,
    VG_KEY_X25519 = 1,
    VG_KEY_ED25519 = 2,
    VG_KEY_MLKEM512 = 3,
    VG_KEY_MLKEM768 = 4,
    VG_KEY_MLKEM1024 = 5,
    VG_KEY_MLDSA44 = 6,
    VG_KEY_MLDSA65 = 7,
    VG_KEY_MLDSA87 = 8,
    VG_KEY_XWING = 9,
    VG_KEY_P256 = 10,
    VG_KEY_P384 = 11
} vg_key_alg;
#define VG_KEY_DER 0x0u
#define VG_KEY_PEM 0x1u
#define VG_KEY_SEED 0x0u
#define VG_KEY_EXPANDED 0x2u
#define VG_KEY_BOTH 0x4u
#define VG_KEY_ENCODED_MAXBYTES 8192 /* any encoding written or read, PEM included */
#define VG_KEY_SECRET_MAXBYTES 4896  /* the longest "key" (ML-DSA-87's expanded sk) */
#define VG_KEY_PUBLIC_MAXBYTES 2592  /* the longest public key (ML-DSA-87) */
VG_API int vg_key_encode_private(uint8_t *out, size_t out_cap, size_t *out_len, vg_key_alg alg,
                                 unsigned flags, const uint8_t *key, size_t key_len);
VG_API int vg_key_decode_private(vg_key_alg *alg, unsigned *flags, uint8_t *key, size_t key_cap,
                                 size_t *key_len, const uint8_t *in, size_t in_len);
VG_API int vg_key_encode_public(uint8_t *out, size_t out_cap, size_t *out_len, vg_key_alg alg,
                                unsigned flags, const uint8_t *pk, size_t pk_len);
VG_API int vg_key_decode_public(vg_key_alg *alg, uint8_t *pk, size_t pk_cap, size_t *pk_len,
                                const uint8_t *in, size_t in_len);
/* ---- end of Key encodings ---- */
/* ---- NIST P-256 and P-384 ------------------------------------------------
 * FIPS 186-5, SEC 1 v2. Secret keys are big-endian scalars in [1, n-1];
 * public keys SEC 1 uncompressed (0x04 || x || y) on output, uncompressed or
 * compressed (0x02/0x03 || x) accepted on input and validated (coordinates
 * < p, on the curve; the identity has no accepted encoding); signatures
 * r || s big-endian, fixed width (IEEE P1363), DER through the converters
 * below. VG_ERR_INPUT for a secret key 0 or >= n, a rejected peer key, or an
 * all-zero shared secret (outputs zeroed). */
#define VG_P256_SECRETKEYBYTES 32
#define VG_P256_PUBLICKEYBYTES 65
#define VG_P256_COMPRESSEDBYTES 33
#define VG_P256_SHAREDBYTES 32 /* the x-coordinate */
#define VG_P256_SIGBYTES 64
#define VG_P384_SECRETKEYBYTES 48
#define VG_P384_PUBLICKEYBYTES 97
#define VG_P384_COMPRESSEDBYTES 49
#define VG_P384_SHAREDBYTES 48
#define VG_P384_SIGBYTES 96
VG_API int vg_p256_keypair(uint8_t pk[65], uint8_t sk[32]);
VG_API int vg_p256_public_key(uint8_t pk[65], const uint8_t sk[32]);
VG_API int vg_p256_ecdh(uint8_t shared[32], const uint8_t sk[32], const uint8_t *peer,
                        size_t peer_len);
/* ECDSA (FIPS 186-5 6.4) with the nonce of RFC 6979 (HMAC-SHA-256; P-384:
 * HMAC-SHA-384): rnd all zero gives RFC 6979 exactly, any other rnd is its
 * section 3.6 additional data (hedged). digest: 1..64 bytes, taken by
 * bits2int (its leftmost 256 resp. 384 bits). */
VG_API int vg_p256_sign_digest_derand(uint8_t sig[64], const uint8_t *digest, size_t digest_len,
                                      const uint8_t sk[32], const uint8_t rnd[32]);
VG_API int vg_p256_sign_digest(uint8_t sig[64], const uint8_t *digest, size_t digest_len,
                               const uint8_t sk[32]); /* hedged with fresh randomness */
/* VG_OK or VG_ERR_VERIFY (also for r or s outside [1, n-1], a bad key or
 * digest length). */
VG_API int vg_p256_verify_digest(const uint8_t sig[64], const uint8_t *digest, size_t digest_len,
                                 const uint8_t *pk, size_t pk_len);
/* The message hashed with SHA-256 (P-384: SHA-384). */
VG_API int vg_p256_sign(uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                        const uint8_t sk[32]);
VG_API int vg_p256_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                          const uint8_t *pk, size_t pk_len);
VG_API int vg_p384_keypair(uint8_t pk[97], uint8_t sk[48]);
VG_API int vg_p384_public_key(uint8_t pk[97], const uint8_t sk[48]);
VG_API int vg_p384_ecdh(uint8_t shared[48], const uint8_t sk[48], const uint8_t *peer,
                        size_t peer_len);
VG_API int vg_p384_sign_digest_derand(uint8_t sig[96], const uint8_t *digest, size_t digest_len,
                                      const uint8_t sk[48], const uint8_t rnd[48]);
VG_API int vg_p384_sign_digest(uint8_t sig[96], const uint8_t *digest, size_t digest_len,
                               const uint8_t sk[48]);
VG_API int vg_p384_verify_digest(const uint8_t sig[96], const uint8_t *digest, size_t digest_len,
                                 const uint8_t *pk, size_t pk_len);
VG_API int vg_p384_sign(uint8_t sig[96], const uint8_t *msg, size_t msg_len,
                        const uint8_t sk[48]);
VG_API int vg_p384_verify(const uint8_t sig[96], const uint8_t *msg, size_t msg_len,
                          const uint8_t *pk, size_t pk_len);
/* DER (X.690) ECDSA-Sig-Value SEQUENCE { r INTEGER, s INTEGER } from / to
 * r || s (sig_len 64 or 96). to_der: der_cap bytes at der, *der_len set;
 * VG_ERR_INPUT if it does not fit or r or s is 0. from_der: strict DER,
 * VG_ERR_INPUT for any BER form, extra bytes, a negative or zero integer,
 * or r or s of more than sig_len / 2 bytes (sig zeroed). */
VG_API int vg_ecdsa_sig_to_der(uint8_t *der, size_t *der_len, size_t der_cap, const uint8_t *sig,
                               size_t sig_len);
VG_API int vg_ecdsa_sig_from_der(uint8_t *sig, size_t sig_len, const uint8_t *der,
                                 size_t der_len);

#ifdef __cplusplus
}
#endif

#endif /* VGCRYPTO_H */
