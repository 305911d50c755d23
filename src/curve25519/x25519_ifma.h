/*
 * X25519 (RFC 7748 section 5) on AVX-512 IFMA: the Montgomery ladder with the
 * independent field multiplications of each step side by side in the four
 * 64-bit lanes of a ymm register (x25519_ifma.c).
 */
#ifndef VG_CURVE25519_X25519_IFMA_H
#define VG_CURVE25519_X25519_IFMA_H

#include "fe25519.h"

/* NULL unless the build has x86-64 code and the active CPU features include
 * AVX-512F, AVX-512VL and AVX-512 IFMA; the portable build defines it in
 * x25519_ifma_stub.c, returning NULL. The implementation's name is "ifma". */
const struct vg_x25519_impl *vg_x25519_ifma_get(void);

#endif
