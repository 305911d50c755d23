/*
 * ML-KEM's area header: what other areas may use of src/mlkem beyond the
 * public API of include/vgcrypto.h. Everything else in this directory is
 * private to it.
 */
#ifndef VG_MLKEM_MLKEM_H
#define VG_MLKEM_MLKEM_H

/* The name of the ML-KEM variant that runs now under the active CPU
 * features ("avx2+avx512", "avx2" or "portable"): the backend each public
 * ML-KEM function chooses at its start (vg_mlkem_active, poly.c). For
 * vg_implementation("mlkem"). Never NULL. */
const char *vg_mlkem_implementation(void);

#endif
