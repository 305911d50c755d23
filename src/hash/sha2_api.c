/*
 * Public one-shot SHA-256 and SHA-512 (FIPS 180-4) over the streaming code
 * in sha256.c / sha512.c, with the implementation chosen by the dispatch.
 */
#include "common.h"
#include "sha2.h"

/* in may be NULL only when len == 0. Returns VG_ERR_INPUT (out, when given,
 * zeroed: DESIGN 2, uniform rules) for a NULL out, a NULL in with len > 0,
 * or for SHA-256 a message of 2^61 bytes or more (FIPS 180-4 1: SHA-256
 * takes messages below 2^64 bits); VG_OK otherwise. */
int vg_sha256(uint8_t out[32], const uint8_t *in, size_t len)
{
    vg_sha256_ctx ctx;
    if (!out || (!in && len) || ((uint64_t)len >> 61) != 0) {
        if (out)
            vg_wipe(out, 32);
        return VG_ERR_INPUT;
    }
    vg_sha256_ctx_init(&ctx);
    vg_sha256_ctx_update(&ctx, in, len);
    vg_sha256_ctx_final(&ctx, out); /* wipes ctx */
    return VG_OK;
}

/* SHA-512's limit, 2^128 bits, is beyond any size_t. */
int vg_sha512(uint8_t out[64], const uint8_t *in, size_t len)
{
    vg_sha512_ctx ctx;
    if (!out || (!in && len)) {
        if (out)
            vg_wipe(out, 64);
        return VG_ERR_INPUT;
    }
    vg_sha512_ctx_init(&ctx);
    vg_sha512_ctx_update(&ctx, in, len);
    vg_sha512_ctx_final(&ctx, out); /* wipes ctx */
    return VG_OK;
}
