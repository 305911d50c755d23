/*
 * ML-KEM AVX2 backend: internal declarations shared by the files of
 * src/mlkem/x86_64 (compiled with -mavx2; called only when
 * vg_cpu_has(VG_CPU_AVX2)). The backend tables are in backend_avx2.c
 * (vg_mlkem_avx2_get, poly.h); their routines produce the portable
 * backend's exact outputs. The NTT routines are the lattice module's
 * (src/lattice/ntt3329.h).
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
/* The same with AVX-512 F/VL/BW (rej_avx512.c, compiled with those flags;
 * called only when they are active, through the backend table). */
unsigned vg_mlkem_rej_uniform_avx512(int16_t *r, unsigned len, const uint8_t *buf, size_t buflen);

/* poly_avx2.c: the coefficientwise helpers and encodings of the backend
 * (contracts in poly.h and beside each definition); the same outputs as
 * portable, constant time in every input. */
void vg_mlkem_poly_add_avx2(vg_mlkem_poly *r, const vg_mlkem_poly *a, const vg_mlkem_poly *b);
void vg_mlkem_poly_sub_avx2(vg_mlkem_poly *r, const vg_mlkem_poly *a, const vg_mlkem_poly *b);
void vg_mlkem_poly_tomont_avx2(vg_mlkem_poly *r);
void vg_mlkem_tomont_add_reduce_avx2(vg_mlkem_poly *r, const vg_mlkem_poly *e);
void vg_mlkem_poly_tobytes_avx2(uint8_t r[VG_MLKEM_POLYBYTES], const vg_mlkem_poly *a);
void vg_mlkem_poly_frombytes_avx2(vg_mlkem_poly *r, const uint8_t a[VG_MLKEM_POLYBYTES]);
void vg_mlkem_poly_frommsg_avx2(vg_mlkem_poly *r, const uint8_t msg[VG_MLKEM_SYMBYTES]);
void vg_mlkem_poly_tomsg_avx2(uint8_t msg[VG_MLKEM_SYMBYTES], const vg_mlkem_poly *a);
void vg_mlkem_poly_compress_avx2(uint8_t *r, const vg_mlkem_poly *a, unsigned d);
void vg_mlkem_poly_decompress_avx2(vg_mlkem_poly *r, const uint8_t *a, unsigned d);

/* cbd_avx2.c: SamplePolyCBD_eta, eta in {2, 3}; constant time. */
void vg_mlkem_cbd_avx2(vg_mlkem_poly *r, const uint8_t *buf, unsigned eta);

#endif
