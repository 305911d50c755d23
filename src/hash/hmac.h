/*
 * HMAC over the SHA-2 contexts (RFC 2104, FIPS 198-1), internal interface
 * shared by hmac.c (the public HMAC functions) and hkdf.c (RFC 5869).
 *
 * One descriptor per hash (struct vg_hmac_hash) lets the HMAC and HKDF code
 * be written once; the contexts it takes are the hash's own (vg_sha256_ctx
 * or vg_sha512_ctx), passed as void * and sized by vg_hmac_hash_ctx.
 */
#ifndef VG_HASH_HMAC_H
#define VG_HASH_HMAC_H

#include <stddef.h>
#include <stdint.h>

#include "sha2.h"

struct vg_hmac_hash {
    size_t block_len;   /* B of RFC 2104: 64 (SHA-256) or 128 (SHA-384/512) */
    size_t out_len;     /* L: 32, 48 or 64 */
    uint64_t max_bytes; /* most input bytes the hash takes (FIPS 180-4 1) */
    void (*init)(void *ctx);
    void (*update)(void *ctx, const uint8_t *in, size_t len);
    void (*final)(void *ctx, uint8_t *out); /* writes L bytes, wipes ctx */
};

extern const struct vg_hmac_hash vg_hmac_sha256_hash;
extern const struct vg_hmac_hash vg_hmac_sha384_hash;
extern const struct vg_hmac_hash vg_hmac_sha512_hash;

/* Storage for any one of the contexts. */
typedef union {
    vg_sha256_ctx s256;
    vg_sha512_ctx s512;
} vg_hmac_hash_ctx;

/* RFC 2104 section 2 steps 1-3 and the start of 5-6: K0 is the key (hashed
 * first when longer than B) padded with zeros to B bytes; inner is the hash
 * state after K0 ^ ipad, outer after K0 ^ opad.
 * Pre: key holds key_len bytes (may be NULL when key_len == 0) and key_len
 * <= max_bytes. Post: inner and outer set; no copy of the key remains on
 * the stack. */
void vg_hmac_key(const struct vg_hmac_hash *h, void *inner, void *outer, const uint8_t *key,
                 size_t key_len);

/* RFC 2104 steps 4-7 after the message went into inner: out = H(outer part
 * || H(inner part)), L bytes. Post: inner and outer wiped. */
void vg_hmac_finish(const struct vg_hmac_hash *h, void *inner, void *outer, uint8_t *out);

#endif
