/*
 * The curve25519 area's shared header: what other parts of the library may
 * ask of src/curve25519 (the field, point and scalar headers are private to
 * the area).
 */
#ifndef VG_CURVE25519_CURVE25519_H
#define VG_CURVE25519_CURVE25519_H

/* Name of the variant the dispatch chooses now for "x25519" (the ladder),
 * "x25519-base" (fixed-base multiplication: X25519 public keys, Ed25519 key
 * generation and signing) or "ed25519" (verification), as vg_implementation
 * reports it; NULL for any other primitive. */
const char *vg_curve25519_implementation(const char *primitive);

#endif
