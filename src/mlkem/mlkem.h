/*
 * The ML-KEM area's shared header (stand-in: the ML-KEM branch owns the
 * real one).
 */
#ifndef VG_MLKEM_MLKEM_H
#define VG_MLKEM_MLKEM_H

/* Name of the backend ML-KEM runs now, as vg_implementation("mlkem")
 * reports it. */
const char *vg_mlkem_implementation(void);

#endif
