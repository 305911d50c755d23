/*
 * Ed25519 (RFC 8032 section 5.1): key generation, signing, verification.
 *
 * Secret key = seed || public key (the libsodium layout). Signing runs in
 * constant time in the seed and the derived scalar and nonce: SHA-512,
 * the fixed-base [a]B of the active vg_x25519_base_impl and the scalar
 * routines of sc25519.c are all constant time. Verification works on public
 * data only and uses the variable-time code of ge25519_vartime.c.
 * The rules for accepting a signature are in docs/ed25519-verdicts.md.
 */
#include <string.h>

#include "../hash/sha2.h"
#include "common.h"
#include "ge25519.h"
#include "ge25519_vartime.h"
#include "sc25519.h"

/* RFC 8032 5.1.5 steps 1-4: h = SHA-512(seed); s = clamp(h[0..31]); the
 * public key is the encoding of [s]B. s < 2^255 (bit 255 cleared), as
 * ed25519_base requires. */
static void ed25519_expand(uint8_t h[64], const uint8_t seed[32])
{
    vg_sha512_ctx ctx;
    vg_sha512_init(&ctx);
    vg_sha512_update(&ctx, seed, 32);
    vg_sha512_final(&ctx, h);
    h[0] &= 248;
    h[31] &= 127;
    h[31] |= 64;
}

int vg_ed25519_keypair_from_seed(uint8_t public_key[32], uint8_t secret_key[64],
                                 const uint8_t seed[32])
{
    uint8_t h[64];
    if (!public_key || !secret_key || !seed) {
        if (public_key)
            vg_wipe(public_key, 32);
        if (secret_key)
            vg_wipe(secret_key, 64);
        return VG_ERR_INPUT;
    }
    ed25519_expand(h, seed);
    vg_x25519_base_active()->ed25519_base(public_key, h);
    /* seed may alias secret_key: copy it before writing the public part */
    memmove(secret_key, seed, 32);
    memcpy(secret_key + 32, public_key, 32);
    vg_wipe(h, sizeof h);
    return VG_OK;
}

int vg_ed25519_keypair(uint8_t public_key[32], uint8_t secret_key[64])
{
    uint8_t seed[32];
    int rc;
    if (!public_key || !secret_key) {
        if (public_key)
            vg_wipe(public_key, 32);
        if (secret_key)
            vg_wipe(secret_key, 64);
        return VG_ERR_INPUT;
    }
    if (vg_randombytes(seed, sizeof seed) != VG_OK) {
        vg_wipe(public_key, 32);
        vg_wipe(secret_key, 64);
        return VG_ERR_RANDOM;
    }
    rc = vg_ed25519_keypair_from_seed(public_key, secret_key, seed);
    vg_wipe(seed, sizeof seed);
    return rc;
}

/* RFC 8032 5.1.6. The public key is taken from secret_key[32..63], as
 * libsodium does; a secret key whose halves do not match signs with the
 * given public key (the caller's responsibility, as in libsodium). */
int vg_ed25519_sign(uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                    const uint8_t secret_key[64])
{
    uint8_t h[64], r[64], k[64], rs[32];
    vg_sha512_ctx ctx;
    if (!sig)
        return VG_ERR_INPUT;
    if (!secret_key || (!msg && msg_len)) {
        vg_wipe(sig, 64);
        return VG_ERR_INPUT;
    }
    /* Step 1: s = clamp(H(seed)[0..31]), prefix = H(seed)[32..63]. */
    ed25519_expand(h, secret_key);
    /* Step 2: r = SHA-512(prefix || M) mod L. */
    vg_sha512_init(&ctx);
    vg_sha512_update(&ctx, h + 32, 32);
    vg_sha512_update(&ctx, msg, msg_len);
    vg_sha512_final(&ctx, r);
    vg_sc25519_reduce64(rs, r);
    /* Step 3: R = [r]B (r < L < 2^255). The signature may alias msg only
     * where the API allows; we write R into a local first. */
    uint8_t big_r[32];
    vg_x25519_base_active()->ed25519_base(big_r, rs);
    /* Step 4: k = SHA-512(R || A || M) mod L. */
    vg_sha512_init(&ctx);
    vg_sha512_update(&ctx, big_r, 32);
    vg_sha512_update(&ctx, secret_key + 32, 32);
    vg_sha512_update(&ctx, msg, msg_len);
    vg_sha512_final(&ctx, k);
    vg_sc25519_reduce64(k, k);
    /* Step 5: S = (r + k s) mod L. */
    vg_sc25519_muladd(sig + 32, k, h, rs);
    memcpy(sig, big_r, 32);
    vg_wipe(h, sizeof h);
    vg_wipe(r, sizeof r);
    vg_wipe(rs, sizeof rs);
    vg_wipe(k, sizeof k);
    return VG_OK;
}

/* RFC 8032 5.1.7 steps 1-2, shared by both checks: decode (strictly) and
 * compute Q = [S]B - [k]A. Returns 0, or -1 when an input is rejected. */
static int ed25519_verify_prepare(vg_ge51_p3 *q, vg_ge51_p3 *big_r, const uint8_t sig[64],
                                  const uint8_t *msg, size_t msg_len, const uint8_t pk[32])
{
    vg_ge51_p3 a;
    uint8_t k[64];
    vg_sha512_ctx ctx;
    if (!sig || !pk || (!msg && msg_len))
        return -1;
    /* Step 1: S < L, no reduction; A and R canonical curve points. */
    if (!vg_sc25519_is_canonical(sig + 32))
        return -1;
    if (vg_ge25519_frombytes_vartime(&a, pk) != 0)
        return -1;
    if (vg_ge25519_frombytes_vartime(big_r, sig) != 0)
        return -1;
    /* Step 2: k = SHA-512(R || A || M) mod L, over the bytes as given. */
    vg_sha512_init(&ctx);
    vg_sha512_update(&ctx, sig, 32);
    vg_sha512_update(&ctx, pk, 32);
    vg_sha512_update(&ctx, msg, msg_len);
    vg_sha512_final(&ctx, k);
    vg_sc25519_reduce64(k, k);
    /* Step 3, rearranged: [S]B = R + [k]A  <=>  [S]B - [k]A = R. */
    vg_ge25519_double_scalarmult_vartime(q, k, &a, sig + 32);
    return 0;
}

int vg_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                      const uint8_t public_key[32])
{
    vg_ge51_p3 q, big_r;
    if (ed25519_verify_prepare(&q, &big_r, sig, msg, msg_len, public_key) != 0)
        return VG_ERR_VERIFY;
    return vg_ge25519_equal_vartime(&q, &big_r) ? VG_OK : VG_ERR_VERIFY;
}

int vg_ed25519_verify_cofactored(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                                 const uint8_t public_key[32])
{
    vg_ge51_p3 q, big_r;
    if (ed25519_verify_prepare(&q, &big_r, sig, msg, msg_len, public_key) != 0)
        return VG_ERR_VERIFY;
    return vg_ge25519_equal_cofactored_vartime(&q, &big_r) ? VG_OK : VG_ERR_VERIFY;
}
