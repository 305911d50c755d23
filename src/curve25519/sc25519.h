/*
 * Scalars modulo the group order L = 2^252 + 27742317777372353535851937790883648493
 * of edwards25519 (RFC 8032 section 5.1), internal interface.
 *
 * Scalars are 32-byte little-endian strings. Every routine here is constant
 * time in its inputs (fixed loops, no secret branch or index), because the
 * signing path feeds it the secret scalar and the nonce.
 */
#ifndef VG_CURVE25519_SC25519_H
#define VG_CURVE25519_SC25519_H

#include <stdint.h>

/* out = in mod L for a 512-bit little-endian in (RFC 8032 5.1.6 steps 2
 * and 4 reduce SHA-512 outputs this way). Postcondition: out < L.
 * out may alias the first 32 bytes of in. */
void vg_sc25519_reduce64(uint8_t out[32], const uint8_t in[64]);

/* out = (a b + c) mod L for any 256-bit a, b, c (a b + c < 2^512, so no
 * precondition). Postcondition: out < L. Any aliasing. */
void vg_sc25519_muladd(uint8_t out[32], const uint8_t a[32], const uint8_t b[32],
                       const uint8_t c[32]);

/* 1 when s < L (the canonical check of RFC 8032 5.1.7 step 1), else 0. */
int vg_sc25519_is_canonical(const uint8_t s[32]);

#endif
