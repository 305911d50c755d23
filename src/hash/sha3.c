/*
 * The sponge construction for SHA-3 and SHAKE (FIPS 202, Sections 4, 5.1
 * and 6), incremental, and the public one-shot functions.
 *
 * Byte i of the state is byte i % 8 (little-endian) of lane i / 8 (FIPS 202,
 * Section 3.1.2 with the bit ordering of B.1), so absorbing and squeezing
 * read and write lanes with 64-bit little-endian loads and stores; only the
 * ragged ends of a call touch single bytes. Whole blocks go straight
 * between the caller's buffer and the state, with no intermediate copy.
 *
 * Context invariants: rate is a multiple of 8 in 8..168. While absorbing,
 * 0 <= pos < rate (a full block is permuted at once). While squeezing,
 * 0 <= pos <= rate, and pos == rate means the next byte needs a permutation
 * first (so finalize and whole-block squeezes never permute more than
 * needed). No branch or index depends on the data, only on lengths.
 */
#include <string.h>

#include "common.h"
#include "keccak.h"

/* XOR len bytes of in into the state bytes at offset pos.
 * Pre: pos + len <= 200. */
static void xor_bytes(uint64_t st[25], size_t pos, const uint8_t *in, size_t len)
{
    /* Head: up to the next lane boundary. */
    while (len && (pos & 7)) {
        st[pos / 8] ^= (uint64_t)*in++ << (8 * (pos & 7));
        pos++;
        len--;
    }
    for (; len >= 8; len -= 8, pos += 8, in += 8)
        st[pos / 8] ^= vg_load64_le(in);
    for (size_t i = 0; i < len; i++)
        st[pos / 8] ^= (uint64_t)in[i] << (8 * i);
}

/* Copy len state bytes from offset pos to out. Pre: pos + len <= 200. */
static void read_bytes(const uint64_t st[25], size_t pos, uint8_t *out, size_t len)
{
    while (len && (pos & 7)) {
        *out++ = (uint8_t)(st[pos / 8] >> (8 * (pos & 7)));
        pos++;
        len--;
    }
    for (; len >= 8; len -= 8, pos += 8, out += 8)
        vg_store64_le(out, st[pos / 8]);
    for (size_t i = 0; i < len; i++)
        out[i] = (uint8_t)(st[pos / 8] >> (8 * i));
}

void vg_keccak_init_impl(vg_keccak_ctx *ctx, size_t rate, uint8_t dsbyte,
                         const struct vg_keccak_impl *impl)
{
    memset(ctx->st, 0, sizeof ctx->st);
    ctx->rate = rate;
    ctx->pos = 0;
    ctx->dsbyte = dsbyte;
    ctx->squeezing = 0;
    ctx->impl = impl;
}

/* Rates r = 1600 - 2 * (security strength) bits (FIPS 202, Sections 6.1
 * and 6.2); domain bytes: the suffix 01 (SHA-3) or 1111 (SHAKE) followed by
 * the first 1 of pad10*1, read LSB first (FIPS 202, B.2). */
void vg_shake128_ctx_init(vg_keccak_ctx *ctx) { vg_keccak_init_impl(ctx, 168, 0x1f, vg_keccak_active()); }
void vg_shake256_ctx_init(vg_keccak_ctx *ctx) { vg_keccak_init_impl(ctx, 136, 0x1f, vg_keccak_active()); }
void vg_sha3_256_ctx_init(vg_keccak_ctx *ctx) { vg_keccak_init_impl(ctx, 136, 0x06, vg_keccak_active()); }
void vg_sha3_512_ctx_init(vg_keccak_ctx *ctx) { vg_keccak_init_impl(ctx, 72, 0x06, vg_keccak_active()); }

/* Pre: not yet finalized; in may be NULL when len == 0. */
void vg_keccak_absorb(vg_keccak_ctx *ctx, const uint8_t *in, size_t len)
{
    size_t rate = ctx->rate;
    if (len == 0)
        return;
    if (ctx->pos) {
        size_t take = rate - ctx->pos;
        if (take > len)
            take = len;
        xor_bytes(ctx->st, ctx->pos, in, take);
        ctx->pos += take;
        in += take;
        len -= take;
        if (ctx->pos < rate)
            return; /* len is now 0 */
        ctx->impl->permute(ctx->st);
        ctx->pos = 0;
    }
    if (len >= rate) {
        /* len / rate without a division (both public; the instruction audit,
         * tools/ct-audit.py, allows no DIV in a function that absorbs secret
         * bytes): at most len / 72 subtractions beside len bytes absorbed. */
        size_t nblocks = 0;
        for (size_t left = len; left >= rate; left -= rate)
            nblocks++;
        ctx->impl->absorb(ctx->st, in, nblocks, rate);
        in += nblocks * rate;
        len -= nblocks * rate;
    }
    if (len) {
        xor_bytes(ctx->st, 0, in, len);
        ctx->pos = len;
    }
}

/* pad10*1 with the domain suffix (FIPS 202, 5.1 and B.2): dsbyte at the
 * first free byte, 0x80 in the last byte of the block (both in one byte
 * when pos == rate - 1). The permutation is left for the first squeeze.
 * Pre: absorbing. Post: squeezing, pos == rate. */
void vg_keccak_finalize(vg_keccak_ctx *ctx)
{
    size_t last = ctx->rate - 1;
    ctx->st[ctx->pos / 8] ^= (uint64_t)ctx->dsbyte << (8 * (ctx->pos & 7));
    ctx->st[last / 8] ^= (uint64_t)0x80 << (8 * (last & 7));
    ctx->pos = ctx->rate;
    ctx->squeezing = 1;
}

/* Pre: finalized. Any number of calls, any lengths; the concatenated output
 * equals one squeeze of the total length. out may be NULL when len == 0. */
void vg_keccak_squeeze(vg_keccak_ctx *ctx, uint8_t *out, size_t len)
{
    size_t rate = ctx->rate;
    while (len) {
        size_t take;
        if (ctx->pos == rate) {
            ctx->impl->permute(ctx->st);
            ctx->pos = 0;
        }
        take = rate - ctx->pos;
        if (take > len)
            take = len;
        read_bytes(ctx->st, ctx->pos, out, take);
        ctx->pos += take;
        out += take;
        len -= take;
    }
}

void vg_sha3_final(vg_keccak_ctx *ctx, uint8_t *out, size_t out_len)
{
    vg_keccak_finalize(ctx);
    vg_keccak_squeeze(ctx, out, out_len);
    vg_wipe(ctx, sizeof *ctx);
}

/* ---- public one-shot functions ---------------------------------------- */

/* Shared body: checks pointers, hashes, wipes the stack context. On a NULL
 * input with a nonzero length, out (when given) is zeroed. */
static int keccak_oneshot(size_t rate, uint8_t dsbyte, uint8_t *out, size_t out_len,
                          const uint8_t *in, size_t len)
{
    vg_keccak_ctx ctx;
    if (out == NULL && out_len != 0)
        return VG_ERR_INPUT;
    if (in == NULL && len != 0) {
        if (out_len)
            memset(out, 0, out_len);
        return VG_ERR_INPUT;
    }
    vg_keccak_init_impl(&ctx, rate, dsbyte, vg_keccak_active());
    vg_keccak_absorb(&ctx, in, len);
    vg_sha3_final(&ctx, out, out_len); /* wipes ctx */
    return VG_OK;
}

int vg_sha3_256(uint8_t out[32], const uint8_t *in, size_t len)
{
    if (out == NULL)
        return VG_ERR_INPUT;
    return keccak_oneshot(136, 0x06, out, 32, in, len);
}

int vg_sha3_512(uint8_t out[64], const uint8_t *in, size_t len)
{
    if (out == NULL)
        return VG_ERR_INPUT;
    return keccak_oneshot(72, 0x06, out, 64, in, len);
}

int vg_shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t len)
{
    return keccak_oneshot(168, 0x1f, out, out_len, in, len);
}

int vg_shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t len)
{
    return keccak_oneshot(136, 0x1f, out, out_len, in, len);
}
