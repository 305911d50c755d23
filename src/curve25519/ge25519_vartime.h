/*
 * Variable-time edwards25519 arithmetic for Ed25519 verification (RFC 8032
 * section 5.1.7), portable radix-2^51 field (fe51.c), internal interface.
 *
 * Everything here handles public data only (public keys, signatures,
 * hashes of public data): it branches and indexes on its inputs.
 *
 * Points are in extended coordinates (X : Y : Z : T), x = X/Z, y = Y/Z,
 * x y = T/Z (Hisil, Wong, Carter, Dawson, "Twisted Edwards curves
 * revisited", 2008); every coordinate is tight (limbs <= 2^51, see
 * fe25519.h) on output.
 */
#ifndef VG_CURVE25519_GE25519_VARTIME_H
#define VG_CURVE25519_GE25519_VARTIME_H

#include <stdint.h>

#include "fe25519.h"

typedef struct {
    vg_fe51 X, Y, Z, T;
} vg_ge51_p3;

/* RFC 8032 section 5.1.3 decoding, strict: returns 0 and sets h when s is
 * the canonical encoding of a curve point; returns -1 (h unspecified) when
 * y >= p, when x^2 = (y^2 - 1) / (d y^2 + 1) has no root, or when x = 0 and
 * the sign bit (bit 255) is set. Small-order points are accepted. */
int vg_ge25519_frombytes_vartime(vg_ge51_p3 *h, const uint8_t s[32]);

/* r = [s]B - [k]A for the base point B and scalars s, k < 2^253 (the
 * callers pass values below L). Sliding-window (width-5 NAF) double-scalar
 * multiplication, odd-multiple tables of A and B computed per call. */
void vg_ge25519_double_scalarmult_vartime(vg_ge51_p3 *r, const uint8_t k[32],
                                          const vg_ge51_p3 *a, const uint8_t s[32]);

/* 1 when p and q are the same point (projective compare), else 0. */
int vg_ge25519_equal_vartime(const vg_ge51_p3 *p, const vg_ge51_p3 *q);

/* 1 when [8](p - q) is the identity, i.e. p and q differ by a point of
 * small order, else 0 (the cofactored check of RFC 8032 5.1.7 step 3). */
int vg_ge25519_equal_cofactored_vartime(const vg_ge51_p3 *p, const vg_ge51_p3 *q);

/* RFC 8032 section 5.1.2 encoding of p (for tests). */
void vg_ge25519_tobytes_vartime(uint8_t s[32], const vg_ge51_p3 *p);

#endif
