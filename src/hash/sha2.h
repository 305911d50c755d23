/*
 * SHA-256 and SHA-512 (FIPS 180-4), internal interface.
 *
 * Each compression-function implementation is a `struct vg_sha2xx_impl`,
 * reachable on its own through its `_get` function (NULL when the build or
 * the active CPU features lack it), so tests run every one over the same
 * vectors. The streaming code (init/update/final) is shared; a context
 * remembers the implementation chosen at init.
 */
#ifndef VG_HASH_SHA2_H
#define VG_HASH_SHA2_H

#include <stddef.h>
#include <stdint.h>

struct vg_sha256_impl {
    const char *name; /* "portable", "shani", "avx2" */
    /* Compress nblocks 64-byte blocks into h. in need not be aligned. */
    void (*blocks)(uint32_t h[8], const uint8_t *in, size_t nblocks);
};

struct vg_sha512_impl {
    const char *name; /* "portable", "avx2" */
    /* Compress nblocks 128-byte blocks into h. in need not be aligned. */
    void (*blocks)(uint64_t h[8], const uint8_t *in, size_t nblocks);
};

/* FIPS 180-4 4.2.2 and 4.2.3 round constants, 16-byte aligned (sha256.c,
 * sha512.c), shared by every implementation. */
extern const uint32_t vg_sha256_k[64];
extern const uint64_t vg_sha512_k[80];

const struct vg_sha256_impl *vg_sha256_portable_get(void); /* never NULL */
const struct vg_sha256_impl *vg_sha256_shani_get(void);    /* NULL unless SHA-NI */
const struct vg_sha256_impl *vg_sha256_avx2_get(void);     /* NULL unless AVX2 and BMI2 */
const struct vg_sha256_impl *vg_sha256_active(void);       /* the dispatch */

const struct vg_sha512_impl *vg_sha512_portable_get(void); /* never NULL */
const struct vg_sha512_impl *vg_sha512_avx2_get(void);     /* NULL unless AVX2 */
const struct vg_sha512_impl *vg_sha512_active(void);

typedef struct {
    uint32_t h[8];
    uint64_t nbytes; /* total absorbed, < 2^61 by FIPS 180-4 */
    uint8_t buf[64];
    size_t buflen;
    const struct vg_sha256_impl *impl;
} vg_sha256_ctx;

typedef struct {
    uint64_t h[8];
    uint64_t nbytes; /* total absorbed; 2^64 bytes is out of reach */
    uint8_t buf[128];
    size_t buflen;
    const struct vg_sha512_impl *impl;
} vg_sha512_ctx;

void vg_sha256_ctx_init(vg_sha256_ctx *ctx); /* with vg_sha256_active() */
void vg_sha256_ctx_init_impl(vg_sha256_ctx *ctx, const struct vg_sha256_impl *impl);
void vg_sha256_ctx_update(vg_sha256_ctx *ctx, const uint8_t *in, size_t len);
void vg_sha256_ctx_final(vg_sha256_ctx *ctx, uint8_t out[32]); /* wipes ctx */

void vg_sha512_ctx_init(vg_sha512_ctx *ctx);
void vg_sha512_ctx_init_impl(vg_sha512_ctx *ctx, const struct vg_sha512_impl *impl);
void vg_sha512_ctx_update(vg_sha512_ctx *ctx, const uint8_t *in, size_t len);
void vg_sha512_ctx_final(vg_sha512_ctx *ctx, uint8_t out[64]); /* wipes ctx */

/* SHA-384 (FIPS 180-4 5.3.4, 6.5): the SHA-512 context and compression with
 * SHA-384's initial value; final writes the first 48 bytes of the SHA-512
 * output and wipes ctx. */
void vg_sha384_ctx_init(vg_sha512_ctx *ctx);
void vg_sha384_ctx_init_impl(vg_sha512_ctx *ctx, const struct vg_sha512_impl *impl);
void vg_sha384_ctx_final(vg_sha512_ctx *ctx, uint8_t out[48]); /* wipes ctx */

/* SHA-256 takes messages under 2^64 bits (FIPS 180-4 1), i.e. at most
 * VG_SHA256_MAX_BYTES bytes; 1 when len more bytes still fit. */
#define VG_SHA256_MAX_BYTES (((uint64_t)1 << 61) - 1)
static inline int vg_sha256_ctx_room(const vg_sha256_ctx *ctx, size_t len)
{
    return (uint64_t)len <= VG_SHA256_MAX_BYTES - ctx->nbytes;
}

#endif
