/*
 * ML-KEM AVX2 backend: internal declarations shared by the files of
 * src/mlkem/x86_64 (compiled with -mavx2; called only when
 * vg_cpu_has(VG_CPU_AVX2)). The backend itself is vg_mlkem_avx2_get()
 * (poly.h); its routines produce the portable backend's exact outputs.
 */
#ifndef VG_MLKEM_AVX2_H
#define VG_MLKEM_AVX2_H

#include "../../common/common.h"
#include "../poly.h"

/* Rejection sampling (the backend's rej_uniform; contract in poly.h):
 * identical output and return value to the portable routine.
 * Variable time in the (public) buffer contents: the number of accepted
 * candidates decides the store offsets and the loop count. */
unsigned vg_mlkem_rej_uniform_avx2(int16_t *r, unsigned len, const uint8_t *buf, size_t buflen);

#endif
