/*
 * SHA-512 (FIPS 180-4): the portable compression function, the shared
 * streaming code and the dispatch.
 *
 * Specification: FIPS 180-4, sections 4.1.3 (functions), 4.2.3 (constants),
 * 5.1.2 (padding), 5.3.5 (initial value), 6.4 (computation).
 *
 * Constant time: branches and indices depend only on lengths (public).
 */
#include <string.h>

#include "common.h"
#include "sha2.h"

/* FIPS 180-4 4.2.3: the first 64 bits of the fractional parts of the cube
 * roots of the first 80 primes. */
const uint64_t vg_sha512_k[80] __attribute__((aligned(16))) = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

/* FIPS 180-4 5.3.5: H(0). */
static const uint64_t g_iv512[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

/* FIPS 180-4 5.3.4: SHA-384's H(0). */
static const uint64_t g_iv384[8] = {
    0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
    0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
};

static inline uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

/* FIPS 180-4 (4.10)-(4.13). */
#define BSIG0(x) (rotr64((x), 28) ^ rotr64((x), 34) ^ rotr64((x), 39))
#define BSIG1(x) (rotr64((x), 14) ^ rotr64((x), 18) ^ rotr64((x), 41))
#define SSIG0(x) (rotr64((x), 1) ^ rotr64((x), 8) ^ ((x) >> 7))
#define SSIG1(x) (rotr64((x), 19) ^ rotr64((x), 61) ^ ((x) >> 6))

/* One round of FIPS 180-4 6.4.2 step 3, variables renamed instead of
 * shifted; `bc` carries b ^ c for Maj (see sha256.c). */
#define R512(a, b, c, d, e, f, g, h, wk)                                                           \
    do {                                                                                           \
        uint64_t t1_ = (h) + (wk) + ((((f) ^ (g)) & (e)) ^ (g)) + BSIG1(e);                        \
        uint64_t ab_ = (a) ^ (b);                                                                  \
        (d) += t1_;                                                                                \
        (h) = t1_ + BSIG0(a) + ((ab_ & bc) ^ (b));                                                 \
        bc = ab_;                                                                                  \
    } while (0)

#define SCHED512(w, t)                                                                             \
    ((w)[(t) & 15] += SSIG1((w)[((t) - 2) & 15]) + (w)[((t) - 7) & 15] + SSIG0((w)[((t) - 15) & 15]))

/* Precondition: in holds nblocks * 128 readable bytes.
 * Postcondition: h is the chaining value after those blocks. */
static void sha512_blocks_portable(uint64_t h[8], const uint8_t *in, size_t nblocks)
{
    uint64_t w[16];
    while (nblocks--) {
        uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        uint64_t bc = b ^ c;
        for (int i = 0; i < 16; i++)
            w[i] = vg_load64_be(in + 8 * i);
        for (int t = 0; t < 80; t += 8) {
            if (t >= 16)
                for (int i = 0; i < 8; i++)
                    SCHED512(w, t + i);
            R512(a, b, c, d, e, f, g, hh, w[(t + 0) & 15] + vg_sha512_k[t + 0]);
            R512(hh, a, b, c, d, e, f, g, w[(t + 1) & 15] + vg_sha512_k[t + 1]);
            R512(g, hh, a, b, c, d, e, f, w[(t + 2) & 15] + vg_sha512_k[t + 2]);
            R512(f, g, hh, a, b, c, d, e, w[(t + 3) & 15] + vg_sha512_k[t + 3]);
            R512(e, f, g, hh, a, b, c, d, w[(t + 4) & 15] + vg_sha512_k[t + 4]);
            R512(d, e, f, g, hh, a, b, c, w[(t + 5) & 15] + vg_sha512_k[t + 5]);
            R512(c, d, e, f, g, hh, a, b, w[(t + 6) & 15] + vg_sha512_k[t + 6]);
            R512(b, c, d, e, f, g, hh, a, w[(t + 7) & 15] + vg_sha512_k[t + 7]);
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
        in += 128;
    }
    vg_wipe(w, sizeof w);
}

static const struct vg_sha512_impl g_sha512_portable = {"portable", sha512_blocks_portable};

const struct vg_sha512_impl *vg_sha512_portable_get(void) { return &g_sha512_portable; }

#ifndef VG_X86_64
/* No AVX2 code in this build (see sha512_avx2.c). */
const struct vg_sha512_impl *vg_sha512_avx2_get(void) { return NULL; }
#endif

/* The dispatch, called once per hash (vg_sha512_ctx_init; the context keeps
 * the choice), computed from the active CPU mask. */
const struct vg_sha512_impl *vg_sha512_active(void)
{
    const struct vg_sha512_impl *impl = vg_sha512_avx2_get();
    return impl ? impl : &g_sha512_portable;
}

/* ---- streaming (FIPS 180-4 5.1.2 padding) ------------------------------ */

void vg_sha512_ctx_init_impl(vg_sha512_ctx *ctx, const struct vg_sha512_impl *impl)
{
    memcpy(ctx->h, g_iv512, sizeof ctx->h);
    ctx->nbytes = 0;
    ctx->buflen = 0;
    ctx->impl = impl;
}

void vg_sha512_ctx_init(vg_sha512_ctx *ctx) { vg_sha512_ctx_init_impl(ctx, vg_sha512_active()); }

/* SHA-384 differs from SHA-512 only in H(0) and the truncation (FIPS 180-4
 * 6.5), so it shares the context, update and padding. */
void vg_sha384_ctx_init_impl(vg_sha512_ctx *ctx, const struct vg_sha512_impl *impl)
{
    vg_sha512_ctx_init_impl(ctx, impl);
    memcpy(ctx->h, g_iv384, sizeof ctx->h);
}

void vg_sha384_ctx_init(vg_sha512_ctx *ctx) { vg_sha384_ctx_init_impl(ctx, vg_sha512_active()); }

/* Precondition: in holds len readable bytes (in may be NULL when len == 0).
 * Invariant: buflen < 128 between calls. */
void vg_sha512_ctx_update(vg_sha512_ctx *ctx, const uint8_t *in, size_t len)
{
    if (len == 0)
        return;
    ctx->nbytes += len;
    if (ctx->buflen) {
        size_t take = 128 - ctx->buflen;
        if (take > len)
            take = len;
        memcpy(ctx->buf + ctx->buflen, in, take);
        ctx->buflen += take;
        in += take;
        len -= take;
        if (ctx->buflen < 128)
            return;
        ctx->impl->blocks(ctx->h, ctx->buf, 1);
        ctx->buflen = 0;
    }
    if (len >= 128) {
        size_t n = len / 128;
        ctx->impl->blocks(ctx->h, in, n);
        in += 128 * n;
        len -= 128 * n;
    }
    if (len) {
        memcpy(ctx->buf, in, len);
        ctx->buflen = len;
    }
}

/* Postcondition: out is the digest; ctx is wiped. */
void vg_sha512_ctx_final(vg_sha512_ctx *ctx, uint8_t out[64])
{
    /* FIPS 180-4 5.1.2: a 1 bit, zeros up to 112 mod 128, then the bit
     * length as a 128-bit big-endian integer (its top 61 bits are zero here
     * since nbytes < 2^64). */
    size_t n = ctx->buflen;
    ctx->buf[n++] = 0x80;
    if (n > 112) {
        memset(ctx->buf + n, 0, 128 - n);
        ctx->impl->blocks(ctx->h, ctx->buf, 1);
        n = 0;
    }
    memset(ctx->buf + n, 0, 112 - n);
    vg_store64_be(ctx->buf + 112, ctx->nbytes >> 61);
    vg_store64_be(ctx->buf + 120, ctx->nbytes << 3);
    ctx->impl->blocks(ctx->h, ctx->buf, 1);
    for (int i = 0; i < 8; i++)
        vg_store64_be(out + 8 * i, ctx->h[i]);
    vg_wipe(ctx, sizeof *ctx);
}

/* Postcondition: out is the 48-byte digest (the leftmost 384 bits of the
 * final H, FIPS 180-4 6.5); ctx and the full-width scratch are wiped. */
void vg_sha384_ctx_final(vg_sha512_ctx *ctx, uint8_t out[48])
{
    uint8_t full[64];
    vg_sha512_ctx_final(ctx, full); /* wipes ctx */
    memcpy(out, full, 48);
    vg_wipe(full, sizeof full);
}
