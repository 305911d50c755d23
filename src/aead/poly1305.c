/*
 * Poly1305 (RFC 8439 section 2.5): the streaming layer shared by every
 * implementation, the dispatch and the public vg_poly1305. The arithmetic
 * lives in poly1305_r64.h (radix 2^64, unsigned __int128 products; the
 * portable poly1305_r64_portable.c and the x86-64 variants), poly1305_r44.c
 * (radix 2^44, __int128 products) and poly1305_r26.c (32-bit limbs,
 * 32x32->64 products, no __int128).
 *
 * Constant time: branches and indices depend only on lengths.
 */
#include <string.h>

#include "aead.h"
#include "common.h"

#ifndef VG_X86_64
/* No x86-64 code in this build (see src/aead/x86_64/). */
const struct vg_poly1305_impl *vg_poly1305_mulx_get(void) { return NULL; }
const struct vg_poly1305_impl *vg_poly1305_ifma_get(void) { return NULL; }
const struct vg_poly1305_impl *vg_poly1305_avx2_get(void) { return NULL; }
#endif

/* The dispatch, recomputed at each call; one call per public operation.
 * Order by design (not measured): the IFMA variant first (8 blocks per
 * step at 18 IFMA products; its short inputs run the MULX code, so it
 * never does worse than MULX by more than one length test per blocks
 * call), then AVX2 (4 blocks per step at 25 VPMULUDQ, the same short
 * path), then MULX (4 wide multiplications a block in radix 2^64 against
 * 9 in radix 2^44), then the portable radix-2^64 code (the same
 * arithmetic as MULX with MUL) and radix 2^44 where the compiler has
 * __int128, then radix 2^26. r64 ahead of r44: see docs/benchmarks.md. */
const struct vg_poly1305_impl *vg_poly1305_active(void)
{
    const struct vg_poly1305_impl *impl = vg_poly1305_ifma_get();
    if (!impl)
        impl = vg_poly1305_avx2_get();
    if (!impl)
        impl = vg_poly1305_mulx_get();
    if (!impl)
        impl = vg_poly1305_r64_get();
    if (!impl)
        impl = vg_poly1305_r44_get();
    return impl ? impl : vg_poly1305_r26_get();
}

void vg_poly1305_init(vg_poly1305_ctx *ctx, const struct vg_poly1305_impl *impl,
                      const uint8_t key[32])
{
    ctx->impl = impl;
    ctx->buflen = 0;
    impl->init(&ctx->st, key);
}

/* Invariant: buflen < 16 between calls; whole blocks of the input bypass
 * the buffer. */
void vg_poly1305_update(vg_poly1305_ctx *ctx, const uint8_t *in, size_t len)
{
    if (len == 0)
        return;
    if (ctx->buflen) {
        size_t take = 16 - ctx->buflen;
        if (take > len)
            take = len;
        memcpy(ctx->buf + ctx->buflen, in, take);
        ctx->buflen += take;
        in += take;
        len -= take;
        if (ctx->buflen < 16)
            return;
        ctx->impl->blocks(&ctx->st, ctx->buf, 1, 1);
        ctx->buflen = 0;
    }
    if (len >= 16) {
        size_t n = len / 16;
        ctx->impl->blocks(&ctx->st, in, n, 1);
        in += 16 * n;
        len -= 16 * n;
    }
    if (len) {
        memcpy(ctx->buf, in, len);
        ctx->buflen = len;
    }
}

void vg_poly1305_pad16(vg_poly1305_ctx *ctx)
{
    /* RFC 8439 2.8: the zero padding is part of the message, so the padded
     * block is an ordinary full block (2^128 added). */
    if (ctx->buflen) {
        memset(ctx->buf + ctx->buflen, 0, 16 - ctx->buflen);
        ctx->impl->blocks(&ctx->st, ctx->buf, 1, 1);
        ctx->buflen = 0;
    }
}

void vg_poly1305_final(vg_poly1305_ctx *ctx, uint8_t tag[16])
{
    if (ctx->buflen) {
        /* RFC 8439 2.5: the short last block with a 0x01 byte after it and
         * zeros to 16 bytes, no 2^128. */
        ctx->buf[ctx->buflen] = 1;
        memset(ctx->buf + ctx->buflen + 1, 0, 15 - ctx->buflen);
        ctx->impl->blocks(&ctx->st, ctx->buf, 1, 0);
    }
    ctx->impl->finish(&ctx->st, tag);
    vg_wipe(ctx, sizeof *ctx);
}

/* Public: RFC 8439 2.5. VG_ERR_INPUT for a NULL tag or key, or a NULL msg
 * with len > 0; tag (when not NULL) is then zeroed. */
int vg_poly1305(uint8_t tag[16], const uint8_t *msg, size_t len, const uint8_t key[32])
{
    vg_poly1305_ctx ctx;
    if (!tag || !key || (!msg && len)) {
        if (tag)
            vg_wipe(tag, 16);
        return VG_ERR_INPUT;
    }
    vg_poly1305_init(&ctx, vg_poly1305_active(), key);
    vg_poly1305_update(&ctx, msg, len);
    vg_poly1305_final(&ctx, tag); /* wipes ctx */
    return VG_OK;
}
