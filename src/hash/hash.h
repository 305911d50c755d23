/*
 * The hash area's shared header: what other parts of the library may ask of
 * src/hash besides the routines of sha2.h, keccak.h and keccak4x.h.
 */
#ifndef VG_HASH_HASH_H
#define VG_HASH_HASH_H

/* Name of the implementation the dispatch chooses now for "sha256",
 * "sha512" or "keccak" (the single-state permutation), as vg_implementation
 * reports it; NULL for any other primitive. */
const char *vg_hash_implementation(const char *primitive);

#endif
