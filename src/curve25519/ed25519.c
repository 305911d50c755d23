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
    vg_sha512_ctx_init(&ctx);
    vg_sha512_ctx_update(&ctx, seed, 32);
    vg_sha512_ctx_final(&ctx, h);
    vg_x25519_clamp(h, h);
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
    vg_sha512_ctx_init(&ctx);
    vg_sha512_ctx_update(&ctx, h + 32, 32);
    vg_sha512_ctx_update(&ctx, msg, msg_len);
    vg_sha512_ctx_final(&ctx, r);
    vg_sc25519_reduce64(rs, r);
    /* Step 3: R = [r]B (r < L < 2^255). The signature may alias msg only
     * where the API allows; we write R into a local first. */
    uint8_t big_r[32];
    vg_x25519_base_active()->ed25519_base(big_r, rs);
    /* Step 4: k = SHA-512(R || A || M) mod L. */
    vg_sha512_ctx_init(&ctx);
    vg_sha512_ctx_update(&ctx, big_r, 32);
    vg_sha512_ctx_update(&ctx, secret_key + 32, 32);
    vg_sha512_ctx_update(&ctx, msg, msg_len);
    vg_sha512_ctx_final(&ctx, k);
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

/* RFC 8032 5.1.7 on the variant impl: step 1's S < L check and step 2's
 * hash here, the decoding of A and R and step 3's equation in impl->check. */
int vg_ed25519_verify_with(const struct vg_ed25519_verify_impl *impl, const uint8_t sig[64],
                           const uint8_t *msg, size_t msg_len, const uint8_t public_key[32],
                           int cofactored)
{
    uint8_t k[64];
    vg_sha512_ctx ctx;
    if (!impl || !sig || !public_key || (!msg && msg_len))
        return VG_ERR_VERIFY;
    /* Step 1: S < L, no reduction (A and R are decoded by impl->check). */
    if (!vg_sc25519_is_canonical(sig + 32))
        return VG_ERR_VERIFY;
    /* Step 2: k = SHA-512(R || A || M) mod L, over the bytes as given. */
    vg_sha512_ctx_init(&ctx);
    vg_sha512_ctx_update(&ctx, sig, 32);
    vg_sha512_ctx_update(&ctx, public_key, 32);
    vg_sha512_ctx_update(&ctx, msg, msg_len);
    vg_sha512_ctx_final(&ctx, k);
    vg_sc25519_reduce64(k, k);
    /* Step 3: [S]B = R + [k]A, or its cofactored form. */
    return impl->check(sig, public_key, sig + 32, k, cofactored) ? VG_OK : VG_ERR_VERIFY;
}

int vg_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                      const uint8_t public_key[32])
{
    return vg_ed25519_verify_with(vg_ed25519_verify_active(), sig, msg, msg_len, public_key, 0);
}

int vg_ed25519_verify_cofactored(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                                 const uint8_t public_key[32])
{
    return vg_ed25519_verify_with(vg_ed25519_verify_active(), sig, msg, msg_len, public_key, 1);
}
