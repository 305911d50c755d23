/*
 * The uniform rules of the public API (DESIGN section 2, "Uniform rules"),
 * over every function of include/vgcrypto.h:
 *   - a NULL pointer with a nonzero length, or a NULL fixed-size buffer,
 *     gives VG_ERR_INPUT (verification functions: VG_ERR_VERIFY), and every
 *     non-NULL output buffer is then zeroed;
 *   - a length over what the standard allows gives VG_ERR_INPUT (outputs
 *     zeroed): an ML-DSA context over 255 bytes (FIPS 204 Algorithms 2, 3),
 *     a SHA-256 message of 2^61 bytes or more (FIPS 180-4: under 2^64 bits),
 *     also through the incremental API and HMAC-SHA-256, and HKDF output
 *     over 255 * HashLen (RFC 5869 2.3);
 *   - the incremental states: a failure wipes the state (its storage is an
 *     output here), a state used after final or of another type is refused,
 *     SHAKE refuses to absorb after it squeezed.
 *
 * One table row per public function: its pointer arguments in order (input
 * or output, and the buffer size) and a thunk that calls it with nonzero
 * lengths. Each pointer is made NULL in turn, the outputs pre-filled with
 * 0xAA. Every call runs in a child process, so a function that dereferences
 * the NULL it was given shows up as one failed case rather than ending the
 * test. The table is checked against the header's declarations, so a new
 * public function without a row fails here.
 */
#define _POSIX_C_SOURCE 200809L
#include <sys/wait.h>
#include <unistd.h>

#include "vgcrypto.h"
#include "vgtest.h"

#define MSG_LEN 3    /* nonzero message / input length */
#define CTX_LEN 2    /* nonzero ML-DSA context length */
#define XOF_LEN 40   /* nonzero SHAKE output length */
#define MAX_PTRS 6

enum { IN, OUT };

struct arg {
    int dir;     /* IN or OUT */
    size_t size; /* bytes the function may touch */
};

struct row {
    const char *name;
    int expect; /* the error for a NULL pointer */
    size_t nptr;
    struct arg ptr[MAX_PTRS];
    int (*call)(uint8_t *const p[]);
};

/* ---- thunks: one per function, pointers in declaration order ---------- */

static int t_chacha20poly1305_seal(uint8_t *const p[])
{
    return vg_chacha20poly1305_seal(p[0], p[1], p[2], MSG_LEN, p[3], MSG_LEN, p[4], p[5]);
}
static int t_chacha20poly1305_open(uint8_t *const p[])
{
    return vg_chacha20poly1305_open(p[0], p[1], MSG_LEN, p[2], p[3], MSG_LEN, p[4], p[5]);
}
static int t_xchacha20poly1305_seal(uint8_t *const p[])
{
    return vg_xchacha20poly1305_seal(p[0], p[1], p[2], MSG_LEN, p[3], MSG_LEN, p[4], p[5]);
}
static int t_xchacha20poly1305_open(uint8_t *const p[])
{
    return vg_xchacha20poly1305_open(p[0], p[1], MSG_LEN, p[2], p[3], MSG_LEN, p[4], p[5]);
}
static int t_chacha20(uint8_t *const p[]) { return vg_chacha20(p[0], p[1], MSG_LEN, p[2], 1, p[3]); }
static int t_poly1305(uint8_t *const p[]) { return vg_poly1305(p[0], p[1], MSG_LEN, p[2]); }
static int t_sha256(uint8_t *const p[]) { return vg_sha256(p[0], p[1], MSG_LEN); }
static int t_sha512(uint8_t *const p[]) { return vg_sha512(p[0], p[1], MSG_LEN); }
static int t_sha3_256(uint8_t *const p[]) { return vg_sha3_256(p[0], p[1], MSG_LEN); }
static int t_sha3_512(uint8_t *const p[]) { return vg_sha3_512(p[0], p[1], MSG_LEN); }
static int t_shake128(uint8_t *const p[]) { return vg_shake128(p[0], XOF_LEN, p[1], MSG_LEN); }
static int t_shake256(uint8_t *const p[]) { return vg_shake256(p[0], XOF_LEN, p[1], MSG_LEN); }

/* The incremental hashes: each thunk sets the state up first when its
 * storage is given, so that the NULL under test is the only thing wrong
 * (and a wiped state is then visible as zeroed storage). */
static const uint8_t g_key[MSG_LEN] = {1, 2, 3};
#define HASH_STATE_THUNKS(name)                                                            \
    static int t_##name##_init(uint8_t *const p[])                                         \
    {                                                                                      \
        return vg_##name##_init((vg_##name##_state *)p[0]);                                \
    }                                                                                      \
    static int t_##name##_update(uint8_t *const p[])                                       \
    {                                                                                      \
        if (p[0])                                                                          \
            vg_##name##_init((vg_##name##_state *)p[0]);                                   \
        return vg_##name##_update((vg_##name##_state *)p[0], p[1], MSG_LEN);               \
    }                                                                                      \
    static int t_##name##_final(uint8_t *const p[])                                        \
    {                                                                                      \
        if (p[0]) {                                                                        \
            vg_##name##_init((vg_##name##_state *)p[0]);                                   \
            vg_##name##_update((vg_##name##_state *)p[0], g_key, MSG_LEN);                 \
        }                                                                                  \
        return vg_##name##_final((vg_##name##_state *)p[0], p[1]);                         \
    }
HASH_STATE_THUNKS(sha256)
HASH_STATE_THUNKS(sha384)
HASH_STATE_THUNKS(sha512)
HASH_STATE_THUNKS(sha3_256)
HASH_STATE_THUNKS(sha3_512)
static int t_sha384(uint8_t *const p[]) { return vg_sha384(p[0], p[1], MSG_LEN); }
/* Key encodings (issue 17): an X25519 key into or out of KEY_CAP bytes. */
#define KEY_CAP 200
static int t_key_encode_private(uint8_t *const p[])
{
    return vg_key_encode_private(p[0], KEY_CAP, (size_t *)p[1], VG_KEY_X25519, VG_KEY_PEM, p[2],
                                 32);
}
static int t_key_decode_private(uint8_t *const p[])
{
    return vg_key_decode_private((vg_key_alg *)p[0], (unsigned *)p[1], p[2], KEY_CAP,
                                 (size_t *)p[3], p[4], MSG_LEN);
}
static int t_key_encode_public(uint8_t *const p[])
{
    return vg_key_encode_public(p[0], KEY_CAP, (size_t *)p[1], VG_KEY_X25519, VG_KEY_DER, p[2], 32);
}
static int t_key_decode_public(uint8_t *const p[])
{
    return vg_key_decode_public((vg_key_alg *)p[0], p[1], KEY_CAP, (size_t *)p[2], p[3], MSG_LEN);
}
/* Hybrid KEMs (issue 17): fixed sizes only. */
static int t_xwing_keypair_derand(uint8_t *const p[]) { return vg_xwing_keypair_derand(p[0], p[1], p[2]); }
static int t_xwing_keypair(uint8_t *const p[]) { return vg_xwing_keypair(p[0], p[1]); }
static int t_xwing_encaps_derand(uint8_t *const p[])
{
    return vg_xwing_encaps_derand(p[0], p[1], p[2], p[3]);
}
static int t_xwing_encaps(uint8_t *const p[]) { return vg_xwing_encaps(p[0], p[1], p[2]); }
static int t_xwing_decaps(uint8_t *const p[]) { return vg_xwing_decaps(p[0], p[1], p[2]); }
static int t_x25519mlkem768_keypair_derand(uint8_t *const p[])
{
    return vg_x25519mlkem768_keypair_derand(p[0], p[1], p[2]);
}
static int t_x25519mlkem768_keypair(uint8_t *const p[]) { return vg_x25519mlkem768_keypair(p[0], p[1]); }
static int t_x25519mlkem768_encaps_derand(uint8_t *const p[])
{
    return vg_x25519mlkem768_encaps_derand(p[0], p[1], p[2], p[3]);
}
static int t_x25519mlkem768_encaps(uint8_t *const p[])
{
    return vg_x25519mlkem768_encaps(p[0], p[1], p[2]);
}
static int t_x25519mlkem768_decaps(uint8_t *const p[])
{
    return vg_x25519mlkem768_decaps(p[0], p[1], p[2]);
}
static int t_p256mlkem768_keypair_derand(uint8_t *const p[])
{
    return vg_p256mlkem768_keypair_derand(p[0], p[1], p[2]);
}
static int t_p256mlkem768_keypair(uint8_t *const p[]) { return vg_p256mlkem768_keypair(p[0], p[1]); }
static int t_p256mlkem768_encaps_derand(uint8_t *const p[])
{
    return vg_p256mlkem768_encaps_derand(p[0], p[1], p[2], p[3]);
}
static int t_p256mlkem768_encaps(uint8_t *const p[]) { return vg_p256mlkem768_encaps(p[0], p[1], p[2]); }
static int t_p256mlkem768_decaps(uint8_t *const p[]) { return vg_p256mlkem768_decaps(p[0], p[1], p[2]); }
static int t_p384mlkem1024_keypair_derand(uint8_t *const p[])
{
    return vg_p384mlkem1024_keypair_derand(p[0], p[1], p[2]);
}
static int t_p384mlkem1024_keypair(uint8_t *const p[]) { return vg_p384mlkem1024_keypair(p[0], p[1]); }
static int t_p384mlkem1024_encaps_derand(uint8_t *const p[])
{
    return vg_p384mlkem1024_encaps_derand(p[0], p[1], p[2], p[3]);
}
static int t_p384mlkem1024_encaps(uint8_t *const p[]) { return vg_p384mlkem1024_encaps(p[0], p[1], p[2]); }
static int t_p384mlkem1024_decaps(uint8_t *const p[]) { return vg_p384mlkem1024_decaps(p[0], p[1], p[2]); }
static int t_shake128_init(uint8_t *const p[]) { return vg_shake128_init((vg_shake_state *)p[0]); }
static int t_shake256_init(uint8_t *const p[]) { return vg_shake256_init((vg_shake_state *)p[0]); }
static int t_shake_absorb(uint8_t *const p[])
{
    if (p[0])
        vg_shake128_init((vg_shake_state *)p[0]);
    return vg_shake_absorb((vg_shake_state *)p[0], p[1], MSG_LEN);
}
static int t_shake_squeeze(uint8_t *const p[])
{
    if (p[0]) {
        vg_shake256_init((vg_shake_state *)p[0]);
        vg_shake_absorb((vg_shake_state *)p[0], g_key, MSG_LEN);
    }
    return vg_shake_squeeze((vg_shake_state *)p[0], p[1], XOF_LEN);
}
static int t_shake_wipe(uint8_t *const p[]) { return vg_shake_wipe((vg_shake_state *)p[0]); }

/* HMAC and HKDF. */
#define HMAC_THUNKS(n)                                                                     \
    static int t_hmac_sha##n(uint8_t *const p[])                                           \
    {                                                                                      \
        return vg_hmac_sha##n(p[0], p[1], MSG_LEN, p[2], MSG_LEN);                         \
    }                                                                                      \
    static int t_hmac_sha##n##_init(uint8_t *const p[])                                    \
    {                                                                                      \
        return vg_hmac_sha##n##_init((vg_hmac_sha##n##_state *)p[0], p[1], MSG_LEN);       \
    }                                                                                      \
    static int t_hmac_sha##n##_update(uint8_t *const p[])                                  \
    {                                                                                      \
        if (p[0])                                                                          \
            vg_hmac_sha##n##_init((vg_hmac_sha##n##_state *)p[0], g_key, MSG_LEN);         \
        return vg_hmac_sha##n##_update((vg_hmac_sha##n##_state *)p[0], p[1], MSG_LEN);     \
    }                                                                                      \
    static int t_hmac_sha##n##_final(uint8_t *const p[])                                   \
    {                                                                                      \
        if (p[0]) {                                                                        \
            vg_hmac_sha##n##_init((vg_hmac_sha##n##_state *)p[0], g_key, MSG_LEN);         \
            vg_hmac_sha##n##_update((vg_hmac_sha##n##_state *)p[0], g_key, MSG_LEN);       \
        }                                                                                  \
        return vg_hmac_sha##n##_final((vg_hmac_sha##n##_state *)p[0], p[1]);               \
    }                                                                                      \
    static int t_hkdf_sha##n##_extract(uint8_t *const p[])                                 \
    {                                                                                      \
        return vg_hkdf_sha##n##_extract(p[0], p[1], MSG_LEN, p[2], MSG_LEN);               \
    }                                                                                      \
    static int t_hkdf_sha##n##_expand(uint8_t *const p[])                                  \
    {                                                                                      \
        return vg_hkdf_sha##n##_expand(p[0], XOF_LEN, p[1], p[2], MSG_LEN);                \
    }                                                                                      \
    static int t_hkdf_sha##n(uint8_t *const p[])                                           \
    {                                                                                      \
        return vg_hkdf_sha##n(p[0], XOF_LEN, p[1], MSG_LEN, p[2], MSG_LEN, p[3], MSG_LEN); \
    }                                                                                      \
    /* One byte over RFC 5869's 255 * HashLen (the buffer holds it all). */                \
    static int t_hkdf_sha##n##_expand_long(uint8_t *const p[])                             \
    {                                                                                      \
        return vg_hkdf_sha##n##_expand(p[0], 255 * (n / 8) + 1, p[1], p[2], MSG_LEN);      \
    }                                                                                      \
    static int t_hkdf_sha##n##_long(uint8_t *const p[])                                    \
    {                                                                                      \
        return vg_hkdf_sha##n(p[0], 255 * (n / 8) + 1, p[1], MSG_LEN, p[2], MSG_LEN, p[3], \
                              MSG_LEN);                                                    \
    }
HMAC_THUNKS(256)
HMAC_THUNKS(384)
HMAC_THUNKS(512)

static int t_x25519(uint8_t *const p[]) { return vg_x25519(p[0], p[1], p[2]); }
static int t_x25519_public_key(uint8_t *const p[]) { return vg_x25519_public_key(p[0], p[1]); }
static int t_x25519_keypair(uint8_t *const p[]) { return vg_x25519_keypair(p[0], p[1]); }

/* P-256 / P-384: the digest is MSG_LEN (3) bytes, valid for bits2int; the
 * peer and public keys uncompressed. */
#define NIST_THUNKS(c, pkb)                                                                \
    static int t_##c##_keypair(uint8_t *const p[]) { return vg_##c##_keypair(p[0], p[1]); } \
    static int t_##c##_public_key(uint8_t *const p[])                                      \
    {                                                                                      \
        return vg_##c##_public_key(p[0], p[1]);                                            \
    }                                                                                      \
    static int t_##c##_ecdh(uint8_t *const p[]) { return vg_##c##_ecdh(p[0], p[1], p[2], pkb); } \
    static int t_##c##_sign_digest_derand(uint8_t *const p[])                              \
    {                                                                                      \
        return vg_##c##_sign_digest_derand(p[0], p[1], MSG_LEN, p[2], p[3]);               \
    }                                                                                      \
    static int t_##c##_sign_digest(uint8_t *const p[])                                     \
    {                                                                                      \
        return vg_##c##_sign_digest(p[0], p[1], MSG_LEN, p[2]);                            \
    }                                                                                      \
    static int t_##c##_verify_digest(uint8_t *const p[])                                   \
    {                                                                                      \
        return vg_##c##_verify_digest(p[0], p[1], MSG_LEN, p[2], pkb);                     \
    }                                                                                      \
    static int t_##c##_sign(uint8_t *const p[]) { return vg_##c##_sign(p[0], p[1], MSG_LEN, p[2]); } \
    static int t_##c##_verify(uint8_t *const p[])                                          \
    {                                                                                      \
        return vg_##c##_verify(p[0], p[1], MSG_LEN, p[2], pkb);                            \
    }
NIST_THUNKS(p256, 65)
NIST_THUNKS(p384, 97)
static int t_ecdsa_sig_to_der(uint8_t *const p[])
{
    return vg_ecdsa_sig_to_der(p[0], (size_t *)(void *)p[1], 72, p[2], 64);
}
static int t_ecdsa_sig_from_der(uint8_t *const p[])
{
    return vg_ecdsa_sig_from_der(p[0], 64, p[1], 8);
}
static int t_ed25519_keypair_from_seed(uint8_t *const p[])
{
    return vg_ed25519_keypair_from_seed(p[0], p[1], p[2]);
}
static int t_ed25519_keypair(uint8_t *const p[]) { return vg_ed25519_keypair(p[0], p[1]); }
static int t_ed25519_sign(uint8_t *const p[]) { return vg_ed25519_sign(p[0], p[1], MSG_LEN, p[2]); }
static int t_ed25519_verify(uint8_t *const p[])
{
    return vg_ed25519_verify(p[0], p[1], MSG_LEN, p[2]);
}
static int t_ed25519_verify_cofactored(uint8_t *const p[])
{
    return vg_ed25519_verify_cofactored(p[0], p[1], MSG_LEN, p[2]);
}

#define MLKEM_THUNKS(n)                                                                    \
    static int t_mlkem##n##_keypair_derand(uint8_t *const p[])                             \
    {                                                                                      \
        return vg_mlkem##n##_keypair_derand(p[0], p[1], p[2]);                             \
    }                                                                                      \
    static int t_mlkem##n##_keypair(uint8_t *const p[])                                    \
    {                                                                                      \
        return vg_mlkem##n##_keypair(p[0], p[1]);                                          \
    }                                                                                      \
    static int t_mlkem##n##_encaps_derand(uint8_t *const p[])                              \
    {                                                                                      \
        return vg_mlkem##n##_encaps_derand(p[0], p[1], p[2], p[3]);                        \
    }                                                                                      \
    static int t_mlkem##n##_encaps(uint8_t *const p[])                                     \
    {                                                                                      \
        return vg_mlkem##n##_encaps(p[0], p[1], p[2]);                                     \
    }                                                                                      \
    static int t_mlkem##n##_decaps(uint8_t *const p[])                                     \
    {                                                                                      \
        return vg_mlkem##n##_decaps(p[0], p[1], p[2]);                                     \
    }                                                                                      \
    static int t_mlkem##n##_check_public_key(uint8_t *const p[])                           \
    {                                                                                      \
        return vg_mlkem##n##_check_public_key(p[0]);                                       \
    }                                                                                      \
    static int t_mlkem##n##_check_secret_key(uint8_t *const p[])                           \
    {                                                                                      \
        return vg_mlkem##n##_check_secret_key(p[0]);                                       \
    }
MLKEM_THUNKS(512)
MLKEM_THUNKS(768)
MLKEM_THUNKS(1024)

#define MLDSA_THUNKS(n)                                                                    \
    static int t_mldsa##n##_keypair_derand(uint8_t *const p[])                             \
    {                                                                                      \
        return vg_mldsa##n##_keypair_derand(p[0], p[1], p[2]);                             \
    }                                                                                      \
    static int t_mldsa##n##_keypair(uint8_t *const p[])                                    \
    {                                                                                      \
        return vg_mldsa##n##_keypair(p[0], p[1]);                                          \
    }                                                                                      \
    static int t_mldsa##n##_sign_derand(uint8_t *const p[])                                \
    {                                                                                      \
        return vg_mldsa##n##_sign_derand(p[0], p[1], MSG_LEN, p[2], CTX_LEN, p[3], p[4]);  \
    }                                                                                      \
    static int t_mldsa##n##_sign(uint8_t *const p[])                                       \
    {                                                                                      \
        return vg_mldsa##n##_sign(p[0], p[1], MSG_LEN, p[2], CTX_LEN, p[3]);               \
    }                                                                                      \
    static int t_mldsa##n##_verify(uint8_t *const p[])                                     \
    {                                                                                      \
        return vg_mldsa##n##_verify(p[0], VG_MLDSA##n##_SIGBYTES, p[1], MSG_LEN, p[2],     \
                                    CTX_LEN, p[3]);                                        \
    }                                                                                      \
    static int t_mldsa##n##_sign_mu(uint8_t *const p[])                                    \
    {                                                                                      \
        return vg_mldsa##n##_sign_mu(p[0], p[1], p[2], p[3]);                              \
    }                                                                                      \
    static int t_mldsa##n##_verify_mu(uint8_t *const p[])                                  \
    {                                                                                      \
        return vg_mldsa##n##_verify_mu(p[0], VG_MLDSA##n##_SIGBYTES, p[1], p[2]);          \
    }                                                                                      \
    static int t_mldsa##n##_sign_internal(uint8_t *const p[])                              \
    {                                                                                      \
        return vg_mldsa##n##_sign_internal(p[0], p[1], MSG_LEN, p[2], p[3]);               \
    }                                                                                      \
    static int t_mldsa##n##_verify_internal(uint8_t *const p[])                            \
    {                                                                                      \
        return vg_mldsa##n##_verify_internal(p[0], VG_MLDSA##n##_SIGBYTES, p[1], MSG_LEN,  \
                                             p[2]);                                        \
    }                                                                                      \
    /* Context one byte over FIPS 204's 255 (the buffer holds all 256). */                 \
    static int t_mldsa##n##_sign_derand_ctx256(uint8_t *const p[])                         \
    {                                                                                      \
        return vg_mldsa##n##_sign_derand(p[0], p[1], MSG_LEN, p[2], 256, p[3], p[4]);      \
    }                                                                                      \
    static int t_mldsa##n##_sign_ctx256(uint8_t *const p[])                                \
    {                                                                                      \
        return vg_mldsa##n##_sign(p[0], p[1], MSG_LEN, p[2], 256, p[3]);                   \
    }                                                                                      \
    static int t_mldsa##n##_verify_ctx256(uint8_t *const p[])                              \
    {                                                                                      \
        return vg_mldsa##n##_verify(p[0], VG_MLDSA##n##_SIGBYTES, p[1], MSG_LEN, p[2], 256, \
                                    p[3]);                                                 \
    }
MLDSA_THUNKS(44)
MLDSA_THUNKS(65)
MLDSA_THUNKS(87)

/* HashML-DSA and the mu state (issue 21). The prehash thunks use SHA-256
 * (32-byte digest); the mu thunks set the state up first when given, with
 * a fixed public key (any bytes hash to some tr). */
static const uint8_t g_pk[VG_MLDSA87_PUBLICKEYBYTES];
#define HASHML_THUNKS(n)                                                                   \
    static int t_mldsa##n##_sign_prehash_derand(uint8_t *const p[])                        \
    {                                                                                      \
        return vg_mldsa##n##_sign_prehash_derand(p[0], p[1], 32, VG_HASH_SHA256, p[2],     \
                                                 CTX_LEN, p[3], p[4]);                     \
    }                                                                                      \
    static int t_mldsa##n##_sign_prehash(uint8_t *const p[])                               \
    {                                                                                      \
        return vg_mldsa##n##_sign_prehash(p[0], p[1], 32, VG_HASH_SHA256, p[2], CTX_LEN,   \
                                          p[3]);                                           \
    }                                                                                      \
    static int t_mldsa##n##_verify_prehash(uint8_t *const p[])                             \
    {                                                                                      \
        return vg_mldsa##n##_verify_prehash(p[0], VG_MLDSA##n##_SIGBYTES, p[1], 32,        \
                                            VG_HASH_SHA256, p[2], CTX_LEN, p[3]);          \
    }                                                                                      \
    static int t_mldsa##n##_mu_init(uint8_t *const p[])                                    \
    {                                                                                      \
        return vg_mldsa##n##_mu_init((vg_mldsa_mu_state *)p[0], p[1], p[2], CTX_LEN);      \
    }                                                                                      \
    /* Over the limits, every pointer given: VG_ERR_INPUT, outputs zeroed. */              \
    static int t_mldsa##n##_sign_prehash_derand_ctx256(uint8_t *const p[])                 \
    {                                                                                      \
        return vg_mldsa##n##_sign_prehash_derand(p[0], p[1], 32, VG_HASH_SHA256, p[2],     \
                                                 256, p[3], p[4]);                         \
    }                                                                                      \
    static int t_mldsa##n##_sign_prehash_derand_badlen(uint8_t *const p[])                 \
    {                                                                                      \
        return vg_mldsa##n##_sign_prehash_derand(p[0], p[1], 31, VG_HASH_SHA256, p[2],     \
                                                 CTX_LEN, p[3], p[4]);                     \
    }                                                                                      \
    static int t_mldsa##n##_sign_prehash_badid(uint8_t *const p[])                         \
    {                                                                                      \
        return vg_mldsa##n##_sign_prehash(p[0], p[1], 32, 13, p[2], CTX_LEN, p[3]);        \
    }                                                                                      \
    static int t_mldsa##n##_verify_prehash_badid(uint8_t *const p[])                       \
    {                                                                                      \
        return vg_mldsa##n##_verify_prehash(p[0], VG_MLDSA##n##_SIGBYTES, p[1], 32, 0,     \
                                            p[2], CTX_LEN, p[3]);                          \
    }                                                                                      \
    static int t_mldsa##n##_mu_init_ctx256(uint8_t *const p[])                             \
    {                                                                                      \
        return vg_mldsa##n##_mu_init((vg_mldsa_mu_state *)p[0], p[1], p[2], 256);          \
    }
HASHML_THUNKS(44)
HASHML_THUNKS(65)
HASHML_THUNKS(87)
static int t_mldsa_mu_update(uint8_t *const p[])
{
    if (p[0])
        vg_mldsa65_mu_init((vg_mldsa_mu_state *)p[0], g_pk, NULL, 0);
    return vg_mldsa_mu_update((vg_mldsa_mu_state *)p[0], p[1], MSG_LEN);
}
static int t_mldsa_mu_final(uint8_t *const p[])
{
    if (p[0]) {
        vg_mldsa44_mu_init((vg_mldsa_mu_state *)p[0], g_pk, NULL, 0);
        vg_mldsa_mu_update((vg_mldsa_mu_state *)p[0], g_key, MSG_LEN);
    }
    return vg_mldsa_mu_final((vg_mldsa_mu_state *)p[0], p[1]);
}
static int t_mldsa_mu_final_twice(uint8_t *const p[])
{
    uint8_t mu[64];
    vg_mldsa87_mu_init((vg_mldsa_mu_state *)p[0], g_pk, NULL, 0);
    vg_mldsa_mu_final((vg_mldsa_mu_state *)p[0], mu);
    return vg_mldsa_mu_final((vg_mldsa_mu_state *)p[0], p[1]);
}
/* ---- end of HashML-DSA and the mu state -------------------------------- */

/* Ed25519ctx and Ed25519ph (issue 21). */
static int t_ed25519ctx_sign(uint8_t *const p[])
{
    return vg_ed25519ctx_sign(p[0], p[1], MSG_LEN, p[2], CTX_LEN, p[3]);
}
static int t_ed25519ctx_verify(uint8_t *const p[])
{
    return vg_ed25519ctx_verify(p[0], p[1], MSG_LEN, p[2], CTX_LEN, p[3]);
}
static int t_ed25519ph_sign(uint8_t *const p[])
{
    return vg_ed25519ph_sign(p[0], p[1], MSG_LEN, p[2], CTX_LEN, p[3]);
}
static int t_ed25519ph_verify(uint8_t *const p[])
{
    return vg_ed25519ph_verify(p[0], p[1], MSG_LEN, p[2], CTX_LEN, p[3]);
}
static int t_ed25519ph_sign_prehashed(uint8_t *const p[])
{
    return vg_ed25519ph_sign_prehashed(p[0], p[1], p[2], CTX_LEN, p[3]);
}
static int t_ed25519ph_verify_prehashed(uint8_t *const p[])
{
    return vg_ed25519ph_verify_prehashed(p[0], p[1], p[2], CTX_LEN, p[3]);
}
/* Context lengths the instances refuse: Ed25519ctx 0 and 256, Ed25519ph 256. */
static int t_ed25519ctx_sign_ctx0(uint8_t *const p[])
{
    return vg_ed25519ctx_sign(p[0], p[1], MSG_LEN, p[2], 0, p[3]);
}
static int t_ed25519ctx_sign_ctx256(uint8_t *const p[])
{
    return vg_ed25519ctx_sign(p[0], p[1], MSG_LEN, p[2], 256, p[3]);
}
static int t_ed25519ctx_verify_ctx0(uint8_t *const p[])
{
    return vg_ed25519ctx_verify(p[0], p[1], MSG_LEN, p[2], 0, p[3]);
}
static int t_ed25519ph_sign_ctx256(uint8_t *const p[])
{
    return vg_ed25519ph_sign(p[0], p[1], MSG_LEN, p[2], 256, p[3]);
}
static int t_ed25519ph_verify_prehashed_ctx256(uint8_t *const p[])
{
    return vg_ed25519ph_verify_prehashed(p[0], p[1], p[2], 256, p[3]);
}
/* ---- end of Ed25519ctx and Ed25519ph ------------------------------------ */

/* The functions without pointer arguments, and vg_implementation(NULL),
 * which answers NULL (an unknown primitive). Return 0 when they behave. */
static int t_version(uint8_t *const p[])
{
    (void)p;
    return vg_version() != NULL && vg_version()[0] != '\0' ? 0 : VG_ERR_INPUT;
}
static int t_cpu_features(uint8_t *const p[])
{
    (void)p;
    return vg_cpu_features() != NULL ? 0 : VG_ERR_INPUT;
}
static int t_implementation(uint8_t *const p[])
{
    (void)p;
    return vg_implementation(NULL) == NULL && vg_implementation("sha256") != NULL ? 0
                                                                                : VG_ERR_INPUT;
}

/* A SHA-256 message of 2^61 bytes (only 16 are there: the function must
 * reject the length before reading). */
static int t_sha256_len61(uint8_t *const p[]) { return vg_sha256(p[0], p[1], (size_t)1 << 61); }
/* The same through the incremental API (the state then wiped), and HMAC's
 * inner hash: the 64-byte key block plus the message reach 2^61 bytes. */
static int t_sha256_update_len61(uint8_t *const p[])
{
    vg_sha256_init((vg_sha256_state *)p[0]);
    return vg_sha256_update((vg_sha256_state *)p[0], p[1], (size_t)1 << 61);
}
static int t_hmac_sha256_len61(uint8_t *const p[])
{
    return vg_hmac_sha256(p[0], p[1], MSG_LEN, p[2], ((size_t)1 << 61) - 64);
}
static int t_hmac_sha256_update_len61(uint8_t *const p[])
{
    vg_hmac_sha256_init((vg_hmac_sha256_state *)p[0], g_key, MSG_LEN);
    return vg_hmac_sha256_update((vg_hmac_sha256_state *)p[0], p[1], ((size_t)1 << 61) - 64);
}
/* States used after final, and SHAKE absorbing after it squeezed: refused,
 * the state wiped (and final's output zeroed). */
static int t_sha256_final_twice(uint8_t *const p[])
{
    vg_sha256_init((vg_sha256_state *)p[0]);
    vg_sha256_final((vg_sha256_state *)p[0], p[1]);
    return vg_sha256_final((vg_sha256_state *)p[0], p[1]);
}
static int t_sha3_512_update_after_final(uint8_t *const p[])
{
    vg_sha3_512_init((vg_sha3_512_state *)p[0]);
    vg_sha3_512_final((vg_sha3_512_state *)p[0], p[1]);
    return vg_sha3_512_update((vg_sha3_512_state *)p[0], p[1], MSG_LEN);
}
static int t_hmac_sha384_final_twice(uint8_t *const p[])
{
    vg_hmac_sha384_init((vg_hmac_sha384_state *)p[0], g_key, MSG_LEN);
    vg_hmac_sha384_final((vg_hmac_sha384_state *)p[0], p[1]);
    return vg_hmac_sha384_final((vg_hmac_sha384_state *)p[0], p[1]);
}
static int t_shake_absorb_after_squeeze(uint8_t *const p[])
{
    vg_shake128_init((vg_shake_state *)p[0]);
    vg_shake_squeeze((vg_shake_state *)p[0], p[1], MSG_LEN);
    return vg_shake_absorb((vg_shake_state *)p[0], p[1], MSG_LEN);
}
/* A SHA-512 state given to SHA-384's final (same size, other type). */
static int t_sha384_final_of_sha512(uint8_t *const p[])
{
    vg_sha512_init((vg_sha512_state *)p[0]);
    return vg_sha384_final((vg_sha384_state *)p[0], p[1]);
}

/* ---- the table ---------------------------------------------------------- */

#define I(n) {IN, (n)}
#define O(n) {OUT, (n)}
#define ROW(fn, expect, ...)                                                                \
    {#fn, expect, sizeof((struct arg[]){__VA_ARGS__}) / sizeof(struct arg), {__VA_ARGS__}, \
     t_##fn}
#define ROW0(fn, thunk) {#fn, 0, 0, {{0, 0}}, thunk}
#define EI VG_ERR_INPUT
#define EV VG_ERR_VERIFY

#define MLKEM_ROWS(n)                                                                       \
    ROW(mlkem##n##_keypair_derand, EI, O(VG_MLKEM##n##_PUBLICKEYBYTES),                    \
        O(VG_MLKEM##n##_SECRETKEYBYTES), I(64)),                                           \
    ROW(mlkem##n##_keypair, EI, O(VG_MLKEM##n##_PUBLICKEYBYTES),                           \
        O(VG_MLKEM##n##_SECRETKEYBYTES)),                                                  \
    ROW(mlkem##n##_encaps_derand, EI, O(VG_MLKEM##n##_CIPHERTEXTBYTES), O(32),             \
        I(VG_MLKEM##n##_PUBLICKEYBYTES), I(32)),                                           \
    ROW(mlkem##n##_encaps, EI, O(VG_MLKEM##n##_CIPHERTEXTBYTES), O(32),                    \
        I(VG_MLKEM##n##_PUBLICKEYBYTES)),                                                  \
    ROW(mlkem##n##_decaps, EI, O(32), I(VG_MLKEM##n##_CIPHERTEXTBYTES),                    \
        I(VG_MLKEM##n##_SECRETKEYBYTES)),                                                  \
    ROW(mlkem##n##_check_public_key, EI, I(VG_MLKEM##n##_PUBLICKEYBYTES)),                 \
    ROW(mlkem##n##_check_secret_key, EI, I(VG_MLKEM##n##_SECRETKEYBYTES))

#define MLDSA_ROWS(n)                                                                       \
    ROW(mldsa##n##_keypair_derand, EI, O(VG_MLDSA##n##_PUBLICKEYBYTES),                    \
        O(VG_MLDSA##n##_SECRETKEYBYTES), I(32)),                                           \
    ROW(mldsa##n##_keypair, EI, O(VG_MLDSA##n##_PUBLICKEYBYTES),                           \
        O(VG_MLDSA##n##_SECRETKEYBYTES)),                                                  \
    ROW(mldsa##n##_sign_derand, EI, O(VG_MLDSA##n##_SIGBYTES), I(MSG_LEN), I(CTX_LEN),     \
        I(VG_MLDSA##n##_SECRETKEYBYTES), I(32)),                                           \
    ROW(mldsa##n##_sign, EI, O(VG_MLDSA##n##_SIGBYTES), I(MSG_LEN), I(CTX_LEN),            \
        I(VG_MLDSA##n##_SECRETKEYBYTES)),                                                  \
    ROW(mldsa##n##_verify, EV, I(VG_MLDSA##n##_SIGBYTES), I(MSG_LEN), I(CTX_LEN),          \
        I(VG_MLDSA##n##_PUBLICKEYBYTES)),                                                  \
    ROW(mldsa##n##_sign_mu, EI, O(VG_MLDSA##n##_SIGBYTES), I(64),                          \
        I(VG_MLDSA##n##_SECRETKEYBYTES), I(32)),                                           \
    ROW(mldsa##n##_verify_mu, EV, I(VG_MLDSA##n##_SIGBYTES), I(64),                        \
        I(VG_MLDSA##n##_PUBLICKEYBYTES)),                                                  \
    ROW(mldsa##n##_sign_internal, EI, O(VG_MLDSA##n##_SIGBYTES), I(MSG_LEN),               \
        I(VG_MLDSA##n##_SECRETKEYBYTES), I(32)),                                           \
    ROW(mldsa##n##_verify_internal, EV, I(VG_MLDSA##n##_SIGBYTES), I(MSG_LEN),             \
        I(VG_MLDSA##n##_PUBLICKEYBYTES))

/* HashML-DSA and the mu state (issue 21). */
#define HASHML_ROWS(n)                                                                      \
    ROW(mldsa##n##_sign_prehash_derand, EI, O(VG_MLDSA##n##_SIGBYTES), I(32), I(CTX_LEN),  \
        I(VG_MLDSA##n##_SECRETKEYBYTES), I(32)),                                           \
    ROW(mldsa##n##_sign_prehash, EI, O(VG_MLDSA##n##_SIGBYTES), I(32), I(CTX_LEN),         \
        I(VG_MLDSA##n##_SECRETKEYBYTES)),                                                  \
    ROW(mldsa##n##_verify_prehash, EV, I(VG_MLDSA##n##_SIGBYTES), I(32), I(CTX_LEN),       \
        I(VG_MLDSA##n##_PUBLICKEYBYTES)),                                                  \
    ROW(mldsa##n##_mu_init, EI, O(sizeof(vg_mldsa_mu_state)),                              \
        I(VG_MLDSA##n##_PUBLICKEYBYTES), I(CTX_LEN))
#define HASHML_LIMIT_ROWS(n)                                                                \
    ROW(mldsa##n##_sign_prehash_derand_ctx256, EI, O(VG_MLDSA##n##_SIGBYTES), I(32),       \
        I(256), I(VG_MLDSA##n##_SECRETKEYBYTES), I(32)),                                   \
    ROW(mldsa##n##_sign_prehash_derand_badlen, EI, O(VG_MLDSA##n##_SIGBYTES), I(32),       \
        I(CTX_LEN), I(VG_MLDSA##n##_SECRETKEYBYTES), I(32)),                               \
    ROW(mldsa##n##_sign_prehash_badid, EI, O(VG_MLDSA##n##_SIGBYTES), I(32), I(CTX_LEN),   \
        I(VG_MLDSA##n##_SECRETKEYBYTES)),                                                  \
    ROW(mldsa##n##_verify_prehash_badid, EI, I(VG_MLDSA##n##_SIGBYTES), I(32),             \
        I(CTX_LEN), I(VG_MLDSA##n##_PUBLICKEYBYTES)),                                      \
    ROW(mldsa##n##_mu_init_ctx256, EI, O(sizeof(vg_mldsa_mu_state)),                       \
        I(VG_MLDSA##n##_PUBLICKEYBYTES), I(256))
#define NIST_ROWS(c, skb, pkb, sigb)                                                        \
    ROW(c##_keypair, EI, O(pkb), O(skb)),                                                  \
    ROW(c##_public_key, EI, O(pkb), I(skb)),                                               \
    ROW(c##_ecdh, EI, O(skb), I(skb), I(pkb)),                                             \
    ROW(c##_sign_digest_derand, EI, O(sigb), I(MSG_LEN), I(skb), I(skb)),                  \
    ROW(c##_sign_digest, EI, O(sigb), I(MSG_LEN), I(skb)),                                 \
    ROW(c##_verify_digest, EV, I(sigb), I(MSG_LEN), I(pkb)),                               \
    ROW(c##_sign, EI, O(sigb), I(MSG_LEN), I(skb)),                                        \
    ROW(c##_verify, EV, I(sigb), I(MSG_LEN), I(pkb))

/* State storage is an output: a failure wipes it. */
#define HASH_STATE_ROWS(name, outlen)                                                       \
    ROW(name##_init, EI, O(sizeof(vg_##name##_state))),                                    \
    ROW(name##_update, EI, O(sizeof(vg_##name##_state)), I(MSG_LEN)),                      \
    ROW(name##_final, EI, O(sizeof(vg_##name##_state)), O(outlen))

#define HMAC_ROWS(n)                                                                        \
    ROW(hmac_sha##n, EI, O(n / 8), I(MSG_LEN), I(MSG_LEN)),                                \
    ROW(hmac_sha##n##_init, EI, O(sizeof(vg_hmac_sha##n##_state)), I(MSG_LEN)),            \
    ROW(hmac_sha##n##_update, EI, O(sizeof(vg_hmac_sha##n##_state)), I(MSG_LEN)),          \
    ROW(hmac_sha##n##_final, EI, O(sizeof(vg_hmac_sha##n##_state)), O(n / 8)),             \
    ROW(hkdf_sha##n##_extract, EI, O(n / 8), I(MSG_LEN), I(MSG_LEN)),                      \
    ROW(hkdf_sha##n##_expand, EI, O(XOF_LEN), I(n / 8), I(MSG_LEN)),                       \
    ROW(hkdf_sha##n, EI, O(XOF_LEN), I(MSG_LEN), I(MSG_LEN), I(MSG_LEN))

static const struct row g_rows[] = {
    ROW0(version, t_version),
    ROW0(cpu_features, t_cpu_features),
    ROW0(implementation, t_implementation),
    ROW(sha256, EI, O(32), I(MSG_LEN)),
    ROW(sha512, EI, O(64), I(MSG_LEN)),
    ROW(sha3_256, EI, O(32), I(MSG_LEN)),
    ROW(sha3_512, EI, O(64), I(MSG_LEN)),
    ROW(shake128, EI, O(XOF_LEN), I(MSG_LEN)),
    ROW(shake256, EI, O(XOF_LEN), I(MSG_LEN)),
    ROW(sha384, EI, O(48), I(MSG_LEN)),
    HASH_STATE_ROWS(sha256, 32),
    HASH_STATE_ROWS(sha384, 48),
    HASH_STATE_ROWS(sha512, 64),
    HASH_STATE_ROWS(sha3_256, 32),
    HASH_STATE_ROWS(sha3_512, 64),
    ROW(shake128_init, EI, O(sizeof(vg_shake_state))),
    ROW(shake256_init, EI, O(sizeof(vg_shake_state))),
    ROW(shake_absorb, EI, O(sizeof(vg_shake_state)), I(MSG_LEN)),
    ROW(shake_squeeze, EI, O(sizeof(vg_shake_state)), O(XOF_LEN)),
    ROW(shake_wipe, EI, O(sizeof(vg_shake_state))),
    HMAC_ROWS(256),
    HMAC_ROWS(384),
    HMAC_ROWS(512),
    ROW(x25519, EI, O(32), I(32), I(32)),
    ROW(x25519_public_key, EI, O(32), I(32)),
    ROW(x25519_keypair, EI, O(32), O(32)),
    NIST_ROWS(p256, 32, 65, 64),
    NIST_ROWS(p384, 48, 97, 96),
    ROW(ecdsa_sig_to_der, EI, O(72), O(sizeof(size_t)), I(64)),
    ROW(ecdsa_sig_from_der, EI, O(64), I(8)),
    ROW(ed25519_keypair_from_seed, EI, O(32), O(64), I(32)),
    ROW(ed25519_keypair, EI, O(32), O(64)),
    ROW(ed25519_sign, EI, O(64), I(MSG_LEN), I(64)),
    ROW(ed25519_verify, EV, I(64), I(MSG_LEN), I(32)),
    ROW(ed25519_verify_cofactored, EV, I(64), I(MSG_LEN), I(32)),
    ROW(ed25519ctx_sign, EI, O(64), I(MSG_LEN), I(CTX_LEN), I(64)),
    ROW(ed25519ctx_verify, EV, I(64), I(MSG_LEN), I(CTX_LEN), I(32)),
    ROW(ed25519ph_sign, EI, O(64), I(MSG_LEN), I(CTX_LEN), I(64)),
    ROW(ed25519ph_verify, EV, I(64), I(MSG_LEN), I(CTX_LEN), I(32)),
    ROW(ed25519ph_sign_prehashed, EI, O(64), I(64), I(CTX_LEN), I(64)),
    ROW(ed25519ph_verify_prehashed, EV, I(64), I(64), I(CTX_LEN), I(32)),
    MLKEM_ROWS(512),
    MLKEM_ROWS(768),
    MLKEM_ROWS(1024),
    MLDSA_ROWS(44),
    MLDSA_ROWS(65),
    MLDSA_ROWS(87),
    HASHML_ROWS(44),
    HASHML_ROWS(65),
    HASHML_ROWS(87),
    ROW(mldsa_mu_update, EI, O(sizeof(vg_mldsa_mu_state)), I(MSG_LEN)),
    ROW(mldsa_mu_final, EI, O(sizeof(vg_mldsa_mu_state)), O(64)),
    ROW(chacha20poly1305_seal, EI, O(MSG_LEN), O(16), I(MSG_LEN), I(MSG_LEN), I(12), I(32)),
    ROW(chacha20poly1305_open, EV, O(MSG_LEN), I(MSG_LEN), I(16), I(MSG_LEN), I(12), I(32)),
    ROW(xchacha20poly1305_seal, EI, O(MSG_LEN), O(16), I(MSG_LEN), I(MSG_LEN), I(24), I(32)),
    ROW(xchacha20poly1305_open, EV, O(MSG_LEN), I(MSG_LEN), I(16), I(MSG_LEN), I(24), I(32)),
    ROW(chacha20, EI, O(MSG_LEN), I(MSG_LEN), I(12), I(32)),
    ROW(poly1305, EI, O(16), I(MSG_LEN), I(32)),
    /* Hybrid KEMs (issue 17) */
    ROW(xwing_keypair_derand, EI, O(1216), O(32), I(32)),
    ROW(xwing_keypair, EI, O(1216), O(32)),
    ROW(xwing_encaps_derand, EI, O(1120), O(32), I(1216), I(64)),
    ROW(xwing_encaps, EI, O(1120), O(32), I(1216)),
    ROW(xwing_decaps, EI, O(32), I(1120), I(32)),
    ROW(x25519mlkem768_keypair_derand, EI, O(1216), O(2432), I(96)),
    ROW(x25519mlkem768_keypair, EI, O(1216), O(2432)),
    ROW(x25519mlkem768_encaps_derand, EI, O(1120), O(64), I(1216), I(64)),
    ROW(x25519mlkem768_encaps, EI, O(1120), O(64), I(1216)),
    ROW(x25519mlkem768_decaps, EI, O(64), I(1120), I(2432)),
    ROW(p256mlkem768_keypair_derand, EI, O(1249), O(2432), I(96)),
    ROW(p256mlkem768_keypair, EI, O(1249), O(2432)),
    ROW(p256mlkem768_encaps_derand, EI, O(1153), O(64), I(1249), I(64)),
    ROW(p256mlkem768_encaps, EI, O(1153), O(64), I(1249)),
    ROW(p256mlkem768_decaps, EI, O(64), I(1153), I(2432)),
    ROW(p384mlkem1024_keypair_derand, EI, O(1665), O(3216), I(112)),
    ROW(p384mlkem1024_keypair, EI, O(1665), O(3216)),
    ROW(p384mlkem1024_encaps_derand, EI, O(1665), O(80), I(1665), I(80)),
    ROW(p384mlkem1024_encaps, EI, O(1665), O(80), I(1665)),
    ROW(p384mlkem1024_decaps, EI, O(80), I(1665), I(3216)),
    /* Key encodings (issue 17) */
    ROW(key_encode_private, EI, O(KEY_CAP), O(sizeof(size_t)), I(32)),
    ROW(key_decode_private, EI, O(sizeof(vg_key_alg)), O(sizeof(unsigned)), O(KEY_CAP),
        O(sizeof(size_t)), I(MSG_LEN)),
    ROW(key_encode_public, EI, O(KEY_CAP), O(sizeof(size_t)), I(32)),
    ROW(key_decode_public, EI, O(sizeof(vg_key_alg)), O(KEY_CAP), O(sizeof(size_t)),
        I(MSG_LEN)),
};

/* Lengths over the standard's limit, every pointer given: VG_ERR_INPUT and
 * the outputs zeroed. */
#define MLDSA_LIMIT_ROWS(n)                                                                 \
    ROW(mldsa##n##_sign_derand_ctx256, EI, O(VG_MLDSA##n##_SIGBYTES), I(MSG_LEN), I(256),  \
        I(VG_MLDSA##n##_SECRETKEYBYTES), I(32)),                                           \
    ROW(mldsa##n##_sign_ctx256, EI, O(VG_MLDSA##n##_SIGBYTES), I(MSG_LEN), I(256),         \
        I(VG_MLDSA##n##_SECRETKEYBYTES)),                                                  \
    ROW(mldsa##n##_verify_ctx256, EI, I(VG_MLDSA##n##_SIGBYTES), I(MSG_LEN), I(256),       \
        I(VG_MLDSA##n##_PUBLICKEYBYTES))
static const struct row g_limit_rows[] = {
    ROW(sha256_len61, EI, O(32), I(16)),
    ROW(sha256_update_len61, EI, O(sizeof(vg_sha256_state)), I(16)),
    ROW(hmac_sha256_len61, EI, O(32), I(MSG_LEN), I(16)),
    ROW(hmac_sha256_update_len61, EI, O(sizeof(vg_hmac_sha256_state)), I(16)),
    ROW(sha256_final_twice, EI, O(sizeof(vg_sha256_state)), O(32)),
    ROW(sha3_512_update_after_final, EI, O(sizeof(vg_sha3_512_state)), I(64)),
    ROW(hmac_sha384_final_twice, EI, O(sizeof(vg_hmac_sha384_state)), O(48)),
    ROW(shake_absorb_after_squeeze, EI, O(sizeof(vg_shake_state)), I(MSG_LEN)),
    ROW(sha384_final_of_sha512, EI, O(sizeof(vg_sha384_state)), O(48)),
    ROW(hkdf_sha256_expand_long, EI, O(255 * 32 + 1), I(32), I(MSG_LEN)),
    ROW(hkdf_sha384_expand_long, EI, O(255 * 48 + 1), I(48), I(MSG_LEN)),
    ROW(hkdf_sha512_expand_long, EI, O(255 * 64 + 1), I(64), I(MSG_LEN)),
    ROW(hkdf_sha256_long, EI, O(255 * 32 + 1), I(MSG_LEN), I(MSG_LEN), I(MSG_LEN)),
    ROW(hkdf_sha384_long, EI, O(255 * 48 + 1), I(MSG_LEN), I(MSG_LEN), I(MSG_LEN)),
    ROW(hkdf_sha512_long, EI, O(255 * 64 + 1), I(MSG_LEN), I(MSG_LEN), I(MSG_LEN)),
    MLDSA_LIMIT_ROWS(44),
    MLDSA_LIMIT_ROWS(65),
    MLDSA_LIMIT_ROWS(87),
    HASHML_LIMIT_ROWS(44),
    HASHML_LIMIT_ROWS(65),
    HASHML_LIMIT_ROWS(87),
    ROW(mldsa_mu_final_twice, EI, O(sizeof(vg_mldsa_mu_state)), O(64)),
    ROW(ed25519ctx_sign_ctx0, EI, O(64), I(MSG_LEN), I(1), I(64)),
    ROW(ed25519ctx_sign_ctx256, EI, O(64), I(MSG_LEN), I(256), I(64)),
    ROW(ed25519ctx_verify_ctx0, EI, I(64), I(MSG_LEN), I(1), I(32)),
    ROW(ed25519ph_sign_ctx256, EI, O(64), I(MSG_LEN), I(256), I(64)),
    ROW(ed25519ph_verify_prehashed_ctx256, EI, I(64), I(64), I(256), I(32)),
};

/* ---- running a case ------------------------------------------------------ */

/* Child exit codes. */
enum { C_OK = 0, C_RC = 1, C_NOT_ZERO = 2 };

/* Call r->call with pointer `null_at` NULL (or none: null_at == r->nptr),
 * in the child; the exit code says what went wrong. */
static int run_child(const struct row *r, size_t null_at, int want)
{
    uint8_t *p[MAX_PTRS] = {0};
    uint64_t rs = 0x0a11ce5eedull;
    for (size_t i = 0; i < r->nptr; i++) {
        if (i == null_at)
            continue;
        /* Exact sizes, so an address sanitizer sees any overrun. */
        p[i] = malloc(r->ptr[i].size);
        if (!p[i])
            _exit(3);
        if (r->ptr[i].dir == OUT)
            memset(p[i], 0xAA, r->ptr[i].size);
        else
            vgtest_randbytes(&rs, p[i], r->ptr[i].size);
    }
    int rc = r->call(p);
    if (rc != want) {
        fprintf(stderr, "  vg_%s, pointer %zu NULL: returned %d, want %d\n", r->name, null_at,
                rc, want);
        _exit(C_RC);
    }
    for (size_t i = 0; i < r->nptr; i++) {
        if (!p[i] || r->ptr[i].dir != OUT)
            continue;
        for (size_t j = 0; j < r->ptr[i].size; j++)
            if (p[i][j] != 0) {
                fprintf(stderr, "  vg_%s, pointer %zu NULL: output %zu byte %zu is %#x\n",
                        r->name, null_at, i, j, p[i][j]);
                _exit(C_NOT_ZERO);
            }
    }
    _exit(C_OK);
}

/* One case in a child process; 1 when it behaved. */
static int run_case(const struct row *r, size_t null_at, int want)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 0;
    }
    if (pid == 0)
        run_child(r, null_at, want);
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return 0;
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "  vg_%s, pointer %zu NULL: killed by signal %d\n", r->name, null_at,
                WTERMSIG(status));
        return 0;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == C_OK;
}

/* ---- the header's declarations ------------------------------------------ */

/* 1 when `name` (without "vg_") has a row. */
static int has_row(const char *name)
{
    for (size_t i = 0; i < sizeof g_rows / sizeof g_rows[0]; i++)
        if (strcmp(g_rows[i].name, name) == 0)
            return 1;
    return 0;
}

/* Every "VG_API ... vg_name(" of the header has a row, and every row names a
 * declared function. */
static void check_table_covers_header(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    size_t declared = 0;
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *api = strstr(line, "VG_API ");
        char *paren = api ? strchr(api, '(') : NULL;
        if (!paren)
            continue;
        char *start = paren;
        while (start > api && (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
                               (start[-1] >= '0' && start[-1] <= '9')))
            start--;
        *paren = '\0';
        if (strncmp(start, "vg_", 3) != 0)
            continue;
        declared++;
        CHECK_MSG(has_row(start + 3), "%s has no row in test_api.c", start);
    }
    fclose(f);
    CHECK_MSG(declared == sizeof g_rows / sizeof g_rows[0],
              "header declares %zu functions, table has %zu rows", declared,
              sizeof g_rows / sizeof g_rows[0]);
}

int main(void)
{
    check_table_covers_header(VG_PUBLIC_HEADER);
    for (size_t i = 0; i < sizeof g_rows / sizeof g_rows[0]; i++) {
        const struct row *r = &g_rows[i];
        if (r->nptr == 0) {
            CHECK_MSG(run_case(r, 0, 0), "vg_%s", r->name);
            continue;
        }
        for (size_t k = 0; k < r->nptr; k++)
            CHECK_MSG(run_case(r, k, r->expect), "vg_%s with pointer %zu NULL", r->name, k);
    }
    for (size_t i = 0; i < sizeof g_limit_rows / sizeof g_limit_rows[0]; i++) {
        const struct row *r = &g_limit_rows[i];
        CHECK_MSG(run_case(r, r->nptr, r->expect), "vg_%s (length over the limit)", r->name);
    }
    return vgtest_done("test_api");
}
