/*
 * Points of edwards25519 and the fixed-base scalar multiplication [k]B,
 * internal interface.
 *
 * Curve (RFC 8032 section 5.1): -x^2 + y^2 = 1 + d x^2 y^2 over GF(p),
 * p = 2^255 - 19, d = -121665/121666, base point B = (x, 4/5), x even.
 * It is birationally equivalent to Curve25519 (RFC 7748 section 4.1) by
 * u = (1 + y) / (1 - y), which maps B to u = 9; so the X25519 public key
 * [clamp(k)]9 is the u of [clamp(k)]B, and one table serves X25519 key
 * generation and Ed25519 key generation and signing.
 *
 * Method (the variants share it; they differ in the field):
 *  - the scalar (< 2^255) in 64 signed radix-16 digits e_i in [-8, 8];
 *  - a table (ge25519_base_table.h, made by tools/gen_base_table.c) of
 *    (j + 1) 16^(2 i) B for i < 32, j < 8, affine, in the form
 *    (y + x, y - x, 2 d x y);
 *  - [k]B = 16 (sum_i e_{2i+1} 16^(2i) B) + sum_i e_{2i} 16^(2i) B:
 *    64 mixed additions in extended coordinates (X:Y:Z:T), x = X/Z,
 *    y = Y/Z, x y = T/Z (Hisil, Wong, Carter, Dawson, "Twisted Edwards
 *    curves revisited", 2008), 4 doublings, one inversion at the end;
 *  - each table lookup reads all 8 entries of its row and selects with
 *    masks (constant time), then negates conditionally.
 *
 * The AVX-512 IFMA variant (ge25519_base_ifma.c) keeps X, Y, Z, T in the
 * four lanes of a vector and reads the table in a lane form, (y - x, y + x,
 * 2 d x y, 0) per limb.
 *
 * Every variant is a `struct vg_x25519_base_impl`, reachable on its own
 * (`_get`, NULL when the build or the CPU lacks it); vg_x25519_base_active
 * is the dispatch.
 */
#ifndef VG_CURVE25519_GE25519_H
#define VG_CURVE25519_GE25519_H

#include <stdint.h>

#include "fe25519.h"

/* A table entry: the affine point (x, y) as (y + x, y - x, 2 d x y). */
typedef struct {
    vg_fe51 ypx, ymx, t2d;
} vg_ge51_niels;

typedef struct {
    uint64_t ypx[4], ymx[4], t2d[4];
} vg_ge64_niels;

struct vg_x25519_base_impl {
    const char *name; /* "portable", "adx", "ifma" */
    /* out = the u-coordinate of [clamp(k)]B, i.e. X25519(k, 9) of RFC 7748
     * section 5 (k clamped by decodeScalar25519), canonical encoding.
     * Constant time in k. Any aliasing of out and k. */
    void (*public_key)(uint8_t out[32], const uint8_t k[32]);
    /* out = the RFC 8032 section 5.1.2 encoding of [a]B (y little-endian,
     * bit 255 = the low bit of x), for a little-endian scalar a.
     * Precondition: a < 2^255 (bit 255 clear; no clamping, no reduction
     * mod L: [a]B for a >= L equals [a mod L]B). Constant time in a.
     * Any aliasing of out and a. */
    void (*ed25519_base)(uint8_t out[32], const uint8_t a[32]);
};

const struct vg_x25519_base_impl *vg_x25519_base_portable_get(void); /* never NULL */
const struct vg_x25519_base_impl *vg_x25519_base_adx_get(void);      /* NULL without BMI2+ADX */
/* NULL without AVX-512F, AVX-512VL and AVX-512 IFMA (ge25519_base_ifma.c);
 * its final inversion uses the BMI2+ADX field when the CPU has it. */
const struct vg_x25519_base_impl *vg_x25519_base_ifma_get(void);
/* The dispatch: ifma when the CPU has it, else adx, else portable. */
const struct vg_x25519_base_impl *vg_x25519_base_active(void);

/* Signed radix-16 recoding shared by the variants (ge25519_base.c).
 * Precondition: a < 2^255. Postcondition: e[i] in [-8, 8) for i < 63,
 * e[63] in [-8, 8], and sum e[i] 16^i = a. No branch on a. */
void vg_ge25519_recode16(int8_t e[64], const uint8_t a[32]);

#endif
