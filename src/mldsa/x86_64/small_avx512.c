/*
 * Small products c s (small.h) in AVX-512: placeholder until the kernel
 * lands; vg_mldsa_small_get falls back to the ML-KEM AVX2 route (small.c).
 */
#include "common.h"
#include "../small.h"

const struct vg_mldsa_small *vg_mldsa_small_avx512_get(void) { return NULL; }
