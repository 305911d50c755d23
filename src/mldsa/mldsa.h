/*
 * ML-DSA's shared header for the other areas of the library (src/common's
 * vg_implementation, the CLI, the benchmark): what they may use of
 * src/mldsa. The public API is in include/vgcrypto.h; everything else in
 * this directory is private to the area.
 */
#ifndef VG_MLDSA_MLDSA_H
#define VG_MLDSA_MLDSA_H

/* The name of the ML-DSA variant that runs now (the one vg_mldsa_active in
 * poly.c picks for the active CPU features): "portable", "avx2",
 * "avx2+vbmi2", "avx2+avx512" or "avx2+avx512vbmi". For
 * vg_implementation("mldsa"). Never NULL. */
const char *vg_mldsa_implementation(void);

#endif
