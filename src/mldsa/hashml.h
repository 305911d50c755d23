/*
 * HashML-DSA's pre-hash prefix and the streaming external mu (hashml.c):
 * the parts shared by the three parameter sets. sign.c and verify.c,
 * compiled once per set, hold the per-set entry points.
 */
#ifndef VG_MLDSA_HASHML_H
#define VG_MLDSA_HASHML_H

#include <stddef.h>
#include <stdint.h>

#include "mldsa.h" /* vg_mldsa_mu_start */
#include "vgcrypto.h"

/* Bytes of the DER-encoded hash OID in M' (tag, length, nine content bytes). */
#define VG_MLDSA_OID_BYTES 11
/* The largest OID || PH: 11 + 64. */
#define VG_MLDSA_OIDPH_MAX (VG_MLDSA_OID_BYTES + 64)

/* out = OID || ph for hash_id (FIPS 204 5.4.1: the DER encoding of
 * 2.16.840.1.101.3.4.2.hash_id), *out_len its length. Returns VG_OK, or
 * VG_ERR_INPUT for an unknown hash_id, a ph_len other than that hash's
 * output length, or a NULL ph (out not written then). */
int vg_mldsa_prehash_tail(uint8_t out[VG_MLDSA_OIDPH_MAX], size_t *out_len, int hash_id,
                          const uint8_t *ph, size_t ph_len);

#endif
