/*
 * Four-way Keccak (keccak4x.h): the implementations built from the
 * single-state permutation, the dispatch and the SHAKE128/SHAKE256
 * absorb-once / squeeze-blocks helpers shared by every implementation.
 *
 * "portable" de-interleaves each instance, runs the portable single-state
 * permutation (keccak.c) on it and interleaves it back: no speed-up, but
 * every caller can use the 4-way API on any CPU. "bmi2" does the same with
 * the BMI2 permutation (keccak_x86.c), for x86-64 CPUs without AVX2. Each
 * names its permutation itself, so a four-way variant never re-dispatches.
 */
#include "keccak4x.h"

#include "common.h"
#include "keccak.h"

/* Pre: st holds four interleaved states (keccak4x.h layout). Post: each
 * permuted by `one`, a single-state Keccak-f[1600]. */
static void keccak4x_permute_x1(uint64_t st[100], void (*one)(uint64_t st[25]))
{
    uint64_t s[25];
    for (unsigned j = 0; j < 4; j++) {
        for (unsigned i = 0; i < 25; i++)
            s[i] = st[4 * i + j];
        one(s);
        for (unsigned i = 0; i < 25; i++)
            st[4 * i + j] = s[i];
    }
    vg_wipe(s, sizeof s);
}

/* The portable single-state permutation, named once so that both members of
 * the portable variant use it. */
static void keccak4x_permute_one_portable(uint64_t st[25])
{
    vg_keccak_portable_get()->permute(st);
}

static void keccak4x_permute_portable(uint64_t st[100])
{
    keccak4x_permute_x1(st, vg_keccak_portable_get()->permute);
}

/* The extract hook (keccak4x.h), one word at a time. */
static void keccak4x_extract_portable(uint8_t *const out[4], const uint64_t st[100], size_t words)
{
    for (unsigned j = 0; j < 4; j++)
        for (size_t i = 0; i < words; i++)
            vg_store64_le(out[j] + 8 * i, st[4 * i + j]);
}

static const struct vg_keccak4x_impl g_keccak4x_portable = {
    .name = "portable",
    .permute = keccak4x_permute_portable,
    .extract = keccak4x_extract_portable,
    .permute_one = keccak4x_permute_one_portable,
};

const struct vg_keccak4x_impl *vg_keccak4x_portable_get(void) { return &g_keccak4x_portable; }

#ifdef VG_X86_64
static void keccak4x_permute_bmi2(uint64_t st[100])
{
    keccak4x_permute_x1(st, vg_keccak_permute_bmi2);
}

static const struct vg_keccak4x_impl g_keccak4x_bmi2 = {
    .name = "bmi2",
    .permute = keccak4x_permute_bmi2,
    .extract = keccak4x_extract_portable,
    .permute_one = vg_keccak_permute_bmi2,
};

const struct vg_keccak4x_impl *vg_keccak4x_bmi2_get(void)
{
    return vg_cpu_has(VG_CPU_BMI2) ? &g_keccak4x_bmi2 : NULL;
}
#else
/* No x86-64 code in this build (VG_PORTABLE or another CPU). */
const struct vg_keccak4x_impl *vg_keccak4x_bmi2_get(void) { return NULL; }
const struct vg_keccak4x_impl *vg_keccak4x_avx2_get(void) { return NULL; }
const struct vg_keccak4x_impl *vg_keccak4x_avx512_get(void) { return NULL; }
#endif

/* The dispatch, called once per sponge (absorb; the context keeps the
 * choice): AVX-512VL, else AVX2, else BMI2 (four single-state
 * permutations), else portable, when built and active, the fastest first
 * (on Zen 4, for the four-way permutation and for ML-KEM as a whole; see
 * docs/benchmarks.md). The _get functions check the feature mask, so
 * VG_CPU_FEATURES and vg_cpu_force apply. */
const struct vg_keccak4x_impl *vg_keccak4x_active(void)
{
    const struct vg_keccak4x_impl *impl = vg_keccak4x_avx512_get();
    if (impl == NULL)
        impl = vg_keccak4x_avx2_get();
    if (impl == NULL)
        impl = vg_keccak4x_bmi2_get();
    return impl ? impl : &g_keccak4x_portable;
}

/* XOR `len` bytes (len <= rate) of in into lanes of instance j, starting at
 * lane 0. Little-endian lanes (FIPS 202 B.1 bit order). */
static void xor_bytes(uint64_t st[100], unsigned j, const uint8_t *in, size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8)
        st[4 * (i / 8) + j] ^= vg_load64_le(in + i);
    for (; i < len; i++)
        st[4 * (i / 8) + j] ^= (uint64_t)in[i] << (8 * (i % 8));
}

/* Absorb four equal-length messages and apply the SHAKE padding
 * (domain bits 1111 then pad10*1: byte 0x1f, and 0x80 in the last byte of
 * the block, FIPS 202 Sections 5.1 and 6.2). The last (padded) block is
 * XORed in but not permuted: squeezeblocks permutes before each output. */
static void shake_x4_absorb(vg_keccak4x_ctx *ctx, size_t rate, const uint8_t *in[4], size_t len)
{
    ctx->impl = vg_keccak4x_active();
    memset(ctx->st, 0, sizeof ctx->st);
    size_t off = 0;
    while (len - off >= rate) {
        for (unsigned j = 0; j < 4; j++)
            xor_bytes(ctx->st, j, in[j] + off, rate);
        ctx->impl->permute(ctx->st);
        off += rate;
    }
    size_t rest = len - off;
    for (unsigned j = 0; j < 4; j++) {
        xor_bytes(ctx->st, j, in[j] + off, rest);
        ctx->st[4 * (rest / 8) + j] ^= (uint64_t)0x1f << (8 * (rest % 8));
        ctx->st[4 * ((rate - 1) / 8) + j] ^= (uint64_t)0x80 << (8 * ((rate - 1) % 8));
    }
}

/* Squeeze: permute, then the implementation's extract hook writes each
 * instance's rate / 8 lanes (the AVX2 4x4 transpose of keccak4x_impl.h is
 * faster than word-by-word stores on Zen 4; see docs/benchmarks.md). */
static void shake_x4_squeeze(uint8_t *out[4], size_t nblocks, size_t rate, vg_keccak4x_ctx *ctx)
{
    for (size_t b = 0; b < nblocks; b++) {
        ctx->impl->permute(ctx->st);
        uint8_t *const dst[4] = {out[0] + b * rate, out[1] + b * rate, out[2] + b * rate,
                                 out[3] + b * rate};
        ctx->impl->extract(dst, ctx->st, rate / 8);
    }
}

void vg_shake128x4_absorb_once(vg_keccak4x_ctx *ctx, const uint8_t *in0, const uint8_t *in1,
                               const uint8_t *in2, const uint8_t *in3, size_t len)
{
    const uint8_t *in[4] = {in0, in1, in2, in3};
    shake_x4_absorb(ctx, VG_SHAKE128_RATE, in, len);
}

void vg_shake256x4_absorb_once(vg_keccak4x_ctx *ctx, const uint8_t *in0, const uint8_t *in1,
                               const uint8_t *in2, const uint8_t *in3, size_t len)
{
    const uint8_t *in[4] = {in0, in1, in2, in3};
    shake_x4_absorb(ctx, VG_SHAKE256_RATE, in, len);
}

void vg_shake128x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,
                                 size_t nblocks, vg_keccak4x_ctx *ctx)
{
    uint8_t *out[4] = {out0, out1, out2, out3};
    shake_x4_squeeze(out, nblocks, VG_SHAKE128_RATE, ctx);
}

void vg_shake256x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,
                                 size_t nblocks, vg_keccak4x_ctx *ctx)
{
    uint8_t *out[4] = {out0, out1, out2, out3};
    shake_x4_squeeze(out, nblocks, VG_SHAKE256_RATE, ctx);
}
