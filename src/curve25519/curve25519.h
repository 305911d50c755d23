/*
 * The curve25519 area's shared header: what other parts of the library may
 * ask of src/curve25519 (the field, point and scalar headers are private to
 * the area).
 */
#ifndef VG_CURVE25519_CURVE25519_H
#define VG_CURVE25519_CURVE25519_H

#include <stddef.h>
#include <stdint.h>

/* Name of the variant the dispatch chooses now for "x25519" (the ladder),
 * "x25519-base" (fixed-base multiplication: X25519 public keys, Ed25519 key
 * generation and signing) or "ed25519" (verification), as vg_implementation
 * reports it; NULL for any other primitive. */
const char *vg_curve25519_implementation(const char *primitive);

/* Ed25519 over a message the caller streams (the CLI, for files of any
 * size). A feed absorbs the whole message, in pieces of any size, by calling
 * absorb(sink, piece, len), and returns 0, or nonzero when it cannot (the
 * operation then fails). */
typedef void (*vg_ed25519_absorb_fn)(void *sink, const uint8_t *in, size_t len);
typedef int (*vg_ed25519_feed_fn)(void *arg, vg_ed25519_absorb_fn absorb, void *sink);
/* vg_ed25519_sign (ctx NULL, ctx_len 0) or vg_ed25519ctx_sign (ctx of 1 to
 * 255 bytes) over the fed message. The feed is called twice (RFC 8032 5.1.6
 * hashes M in steps 2 and 4) and must give the same bytes both times; if
 * the two passes differ (checked with a SHA-512 of each), a feed fails or
 * an argument is wrong, no signature is produced: VG_ERR_INPUT, sig
 * zeroed. */
int vg_ed25519_sign_feed(uint8_t sig[64], const uint8_t *ctx, size_t ctx_len,
                         vg_ed25519_feed_fn feed, void *arg, const uint8_t secret_key[64]);
/* vg_ed25519_verify / vg_ed25519ctx_verify likewise over the fed message
 * (one pass), with the cofactored equation of vg_ed25519_verify_cofactored
 * when cofactored != 0: VG_OK or VG_ERR_VERIFY (a failing feed or a wrong
 * argument too). */
int vg_ed25519_verify_feed(const uint8_t sig[64], const uint8_t *ctx, size_t ctx_len,
                           int cofactored, vg_ed25519_feed_fn feed, void *arg,
                           const uint8_t public_key[32]);

#endif
