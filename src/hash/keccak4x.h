/*
 * Four independent Keccak-f[1600] states side by side (FIPS 202), for callers
 * that hash four unrelated inputs at once: ML-KEM's matrix entries
 * (SHAKE128) and noise polynomials (SHAKE256).
 *
 * Layout: st[4 * i + j] is lane i (i = x + 5y, as in keccak.h) of instance j,
 * so one 256-bit load gives lane i of all four instances. Every
 * implementation keeps this layout at call boundaries.
 *
 * Implementations: AVX-512VL and AVX2 (keccak4x_avx512.c, keccak4x_avx2.c,
 * one instance per 64-bit element of a ymm register), and "bmi2" and
 * "portable", which run the BMI2 resp. portable single-state permutation four
 * times; callers always have the 4-way API. The dispatch (vg_keccak4x_active)
 * runs once per sponge: the context keeps the implementation.
 */
#ifndef VG_HASH_KECCAK4X_H
#define VG_HASH_KECCAK4X_H

#include <stddef.h>
#include <stdint.h>

struct vg_keccak4x_impl {
    const char *name; /* "portable", "bmi2", "avx2", "avx512" */
    /* Keccak-f[1600] (24 rounds, FIPS 202 Algorithm 7) on each of the four
     * interleaved states. Constant time (no data-dependent branch or index). */
    void (*permute)(uint64_t st[100]);
    /* Output of a squeeze: for j = 0..3, the first `words` lanes of instance
     * j, little-endian (FIPS 202 B.1), to out[j] (8 * words bytes, any
     * alignment). Pre: words <= 25. Never NULL. Constant time (fixed
     * pattern of loads and stores, no dependence on the state's contents). */
    void (*extract)(uint8_t *const out[4], const uint64_t st[100], size_t words);
    /* The serial variants (portable, bmi2), which permute the four states
     * one after another: that single-state permutation, so that a caller
     * with idle lanes (ML-KEM's XOF job scheduler) can permute only the busy
     * ones. NULL for the SIMD variants, whose cost does not depend on how
     * many lanes are in use. */
    void (*permute_one)(uint64_t st[25]);
};

const struct vg_keccak4x_impl *vg_keccak4x_portable_get(void); /* never NULL */
const struct vg_keccak4x_impl *vg_keccak4x_bmi2_get(void);     /* NULL unless built and BMI2 active */
const struct vg_keccak4x_impl *vg_keccak4x_avx2_get(void);     /* NULL unless built and AVX2 active */
const struct vg_keccak4x_impl *vg_keccak4x_avx512_get(void);   /* NULL unless built and AVX-512F+VL active */
const struct vg_keccak4x_impl *vg_keccak4x_active(void);       /* follows the active CPU features */

/* A four-way sponge after absorbing: the interleaved states. */
typedef struct {
    uint64_t st[100];
    const struct vg_keccak4x_impl *impl;
} vg_keccak4x_ctx;

#define VG_SHAKE128_RATE 168
#define VG_SHAKE256_RATE 136

/* SHAKE128 / SHAKE256 of four messages of the same length `len`: absorb
 * in0..in3 completely and pad (FIPS 202 domain byte 0x1f), ready to squeeze.
 * Any length; the inputs may alias one another. */
void vg_shake128x4_absorb_once(vg_keccak4x_ctx *ctx, const uint8_t *in0, const uint8_t *in1,
                               const uint8_t *in2, const uint8_t *in3, size_t len);
void vg_shake256x4_absorb_once(vg_keccak4x_ctx *ctx, const uint8_t *in0, const uint8_t *in1,
                               const uint8_t *in2, const uint8_t *in3, size_t len);

/* Squeeze nblocks full blocks (rate 168 resp. 136 bytes each) from every
 * instance: out_j receives nblocks * rate bytes. Successive calls continue
 * the output streams: the concatenation equals SHAKE(in_j) of that length. */
void vg_shake128x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,
                                 size_t nblocks, vg_keccak4x_ctx *ctx);
void vg_shake256x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,
                                 size_t nblocks, vg_keccak4x_ctx *ctx);

#endif
