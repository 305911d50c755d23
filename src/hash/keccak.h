/*
 * Keccak-f[1600], SHA-3 and SHAKE (FIPS 202), internal interface.
 *
 * The state is 25 little-endian 64-bit lanes, lane (x, y) at index x + 5y,
 * in the standard representation at every call boundary (an implementation
 * may use lane complementing inside, but undoes it before it returns).
 */
#ifndef VG_HASH_KECCAK_H
#define VG_HASH_KECCAK_H

#include <stddef.h>
#include <stdint.h>

struct vg_keccak_impl {
    const char *name; /* "portable", "avx512vl", ... */
    /* Keccak-f[1600] on st: 24 rounds (FIPS 202 Algorithm 7). */
    void (*permute)(uint64_t st[25]);
    /* XOR nblocks blocks of `rate` bytes (rate a multiple of 8, <= 168) into
     * st, permuting after each block. Returns nothing; in need not be aligned. */
    void (*absorb)(uint64_t st[25], const uint8_t *in, size_t nblocks, size_t rate);
};

const struct vg_keccak_impl *vg_keccak_portable_get(void); /* never NULL */
const struct vg_keccak_impl *vg_keccak_x86_get(void);      /* NULL unless available */
/* AVX-512VL (keccak_avx512.c): NULL unless built and AVX512F+VL are active. */
const struct vg_keccak_impl *vg_keccak_avx512_get(void);
/* The dispatch, once per sponge: the context keeps what it returned. */
const struct vg_keccak_impl *vg_keccak_active(void);
#if defined(__x86_64__) && !defined(VG_PORTABLE)
/* The BMI2 permutation itself (keccak_x86.c), for the four-way "bmi2"
 * variant. Pre: BMI2 active (the caller's _get checked it). */
void vg_keccak_permute_bmi2(uint64_t st[25]);
#endif

/* Incremental sponge for SHA-3 and SHAKE. Absorb any number of times, then
 * finalize once, then squeeze any number of times (any lengths). */
typedef struct {
    uint64_t st[25];
    size_t rate;    /* bytes: 168 SHAKE128, 136 SHAKE256/SHA3-256, 72 SHA3-512 */
    size_t pos;     /* bytes absorbed into / squeezed from the current block */
    uint8_t dsbyte; /* 0x1f SHAKE, 0x06 SHA-3 */
    uint8_t squeezing;
    const struct vg_keccak_impl *impl;
} vg_keccak_ctx;

void vg_shake128_ctx_init(vg_keccak_ctx *ctx);
void vg_shake256_ctx_init(vg_keccak_ctx *ctx);
void vg_sha3_256_ctx_init(vg_keccak_ctx *ctx);
void vg_sha3_512_ctx_init(vg_keccak_ctx *ctx);
/* Same, with a given implementation (tests). */
void vg_keccak_init_impl(vg_keccak_ctx *ctx, size_t rate, uint8_t dsbyte,
                         const struct vg_keccak_impl *impl);
void vg_keccak_absorb(vg_keccak_ctx *ctx, const uint8_t *in, size_t len);
void vg_keccak_finalize(vg_keccak_ctx *ctx);
void vg_keccak_squeeze(vg_keccak_ctx *ctx, uint8_t *out, size_t len);
/* SHA-3 output: finalize and squeeze out_len bytes, then wipe ctx. */
void vg_sha3_final(vg_keccak_ctx *ctx, uint8_t *out, size_t out_len);

#endif
