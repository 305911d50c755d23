/*
 * SHA-256 (FIPS 180-4): the portable compression function, the shared
 * streaming code and the dispatch.
 *
 * Specification: FIPS 180-4, sections 4.1.2 (functions), 4.2.2 (constants),
 * 5.1.1 (padding), 5.3.3 (initial value), 6.2 (computation).
 *
 * Constant time: the only branches and indices depend on lengths, which are
 * public; the message bytes only flow through additions, rotations and
 * Boolean operations.
 */
#include <string.h>

#include "common.h"
#include "sha2.h"
#include "sha256_round.h"

/* FIPS 180-4 4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes. */
const uint32_t vg_sha256_k[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* FIPS 180-4 5.3.3: H(0). */
static const uint32_t g_iv256[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* FIPS 180-4 (4.6), (4.7); rotr32, BSIG0, BSIG1 and R256 in sha256_round.h. */
#define SSIG0(x) (rotr32((x), 7) ^ rotr32((x), 18) ^ ((x) >> 3))
#define SSIG1(x) (rotr32((x), 17) ^ rotr32((x), 19) ^ ((x) >> 10))

/* W[t] for t >= 16 in a 16-word ring (FIPS 180-4 6.2.2 step 1). */
#define SCHED256(w, t)                                                                             \
    ((w)[(t) & 15] += SSIG1((w)[((t) - 2) & 15]) + (w)[((t) - 7) & 15] + SSIG0((w)[((t) - 15) & 15]))

/* Precondition: in holds nblocks * 64 readable bytes.
 * Postcondition: h is the chaining value after those blocks. */
static void sha256_blocks_portable(uint32_t h[8], const uint8_t *in, size_t nblocks)
{
    uint32_t w[16];
    while (nblocks--) {
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        uint32_t bc = b ^ c;
        for (int i = 0; i < 16; i++)
            w[i] = vg_load32_be(in + 4 * i);
        for (int t = 0; t < 64; t += 8) {
            if (t >= 16)
                for (int i = 0; i < 8; i++)
                    SCHED256(w, t + i);
            R256(a, b, c, d, e, f, g, hh, w[(t + 0) & 15] + vg_sha256_k[t + 0]);
            R256(hh, a, b, c, d, e, f, g, w[(t + 1) & 15] + vg_sha256_k[t + 1]);
            R256(g, hh, a, b, c, d, e, f, w[(t + 2) & 15] + vg_sha256_k[t + 2]);
            R256(f, g, hh, a, b, c, d, e, w[(t + 3) & 15] + vg_sha256_k[t + 3]);
            R256(e, f, g, hh, a, b, c, d, w[(t + 4) & 15] + vg_sha256_k[t + 4]);
            R256(d, e, f, g, hh, a, b, c, w[(t + 5) & 15] + vg_sha256_k[t + 5]);
            R256(c, d, e, f, g, hh, a, b, w[(t + 6) & 15] + vg_sha256_k[t + 6]);
            R256(b, c, d, e, f, g, hh, a, w[(t + 7) & 15] + vg_sha256_k[t + 7]);
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
        in += 64;
    }
    vg_wipe(w, sizeof w);
}

static const struct vg_sha256_impl g_sha256_portable = {"portable", sha256_blocks_portable};

const struct vg_sha256_impl *vg_sha256_portable_get(void) { return &g_sha256_portable; }

#ifndef VG_X86_64
/* No SHA-NI or AVX2 code in this build (see sha256_shani.c, sha256_avx2.c). */
const struct vg_sha256_impl *vg_sha256_shani_get(void) { return NULL; }
const struct vg_sha256_impl *vg_sha256_avx2_get(void) { return NULL; }
#endif

/* The dispatch, called once per hash (vg_sha256_ctx_init; the context keeps
 * the choice): computed from the active CPU mask, so it needs no state of
 * its own and follows vg_cpu_force in tests. */
const struct vg_sha256_impl *vg_sha256_active(void)
{
    /* SHA-NI, else the AVX2 schedule with BMI2 rounds, else portable. */
    const struct vg_sha256_impl *impl = vg_sha256_shani_get();
    if (!impl)
        impl = vg_sha256_avx2_get();
    return impl ? impl : &g_sha256_portable;
}

/* ---- streaming (FIPS 180-4 5.1.1 padding) ------------------------------ */

void vg_sha256_ctx_init_impl(vg_sha256_ctx *ctx, const struct vg_sha256_impl *impl)
{
    memcpy(ctx->h, g_iv256, sizeof ctx->h);
    ctx->nbytes = 0;
    ctx->buflen = 0;
    ctx->impl = impl;
}

void vg_sha256_ctx_init(vg_sha256_ctx *ctx) { vg_sha256_ctx_init_impl(ctx, vg_sha256_active()); }

/* Precondition: in holds len readable bytes (in may be NULL when len == 0).
 * Invariant: buflen < 64 between calls; whole blocks of the input bypass the
 * buffer. */
void vg_sha256_ctx_update(vg_sha256_ctx *ctx, const uint8_t *in, size_t len)
{
    if (len == 0)
        return;
    ctx->nbytes += len;
    if (ctx->buflen) {
        size_t take = 64 - ctx->buflen;
        if (take > len)
            take = len;
        memcpy(ctx->buf + ctx->buflen, in, take);
        ctx->buflen += take;
        in += take;
        len -= take;
        if (ctx->buflen < 64)
            return;
        ctx->impl->blocks(ctx->h, ctx->buf, 1);
        ctx->buflen = 0;
    }
    if (len >= 64) {
        size_t n = len / 64;
        ctx->impl->blocks(ctx->h, in, n);
        in += 64 * n;
        len -= 64 * n;
    }
    if (len) {
        memcpy(ctx->buf, in, len);
        ctx->buflen = len;
    }
}

/* Postcondition: out is the digest; ctx is wiped and must be re-initialised
 * before further use. */
void vg_sha256_ctx_final(vg_sha256_ctx *ctx, uint8_t out[32])
{
    /* FIPS 180-4 5.1.1: a 1 bit, zeros up to 56 mod 64, then the bit length
     * as a 64-bit big-endian integer. */
    uint64_t bits = ctx->nbytes << 3;
    size_t n = ctx->buflen;
    ctx->buf[n++] = 0x80;
    if (n > 56) {
        memset(ctx->buf + n, 0, 64 - n);
        ctx->impl->blocks(ctx->h, ctx->buf, 1);
        n = 0;
    }
    memset(ctx->buf + n, 0, 56 - n);
    vg_store64_be(ctx->buf + 56, bits);
    ctx->impl->blocks(ctx->h, ctx->buf, 1);
    for (int i = 0; i < 8; i++)
        vg_store32_be(out + 4 * i, ctx->h[i]);
    vg_wipe(ctx, sizeof *ctx);
}
