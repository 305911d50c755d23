/*
 * The ML-DSA area's shared header (stand-in: the ML-DSA branch owns the
 * real one).
 */
#ifndef VG_MLDSA_MLDSA_H
#define VG_MLDSA_MLDSA_H

/* Name of the backend ML-DSA runs now, as vg_implementation("mldsa")
 * reports it. */
const char *vg_mldsa_implementation(void);

#endif
