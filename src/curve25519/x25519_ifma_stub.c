/*
 * The IFMA X25519 variant in builds without x86-64 code (VG_PORTABLE or
 * another CPU): x25519_ifma.c is not compiled, and its `get` says so.
 */
#include <stddef.h>

#include "common.h"
#include "x25519_ifma.h"

#ifndef VG_X86_64
const struct vg_x25519_impl *vg_x25519_ifma_get(void) { return NULL; }
#else
/* ISO C forbids an empty translation unit. */
typedef int vg_x25519_ifma_stub_unused;
#endif
