/*
 * Variable-time edwards25519 arithmetic for Ed25519 verification (RFC 8032
 * section 5.1.7), internal interface.
 *
 * Everything here handles public data only (public keys, signatures,
 * hashes of public data): it branches and indexes on its inputs.
 *
 * Method (the variants share it; they differ in the field):
 *  - strict decoding of A and R (RFC 8032 5.1.3);
 *  - Q = [S]B - [k]A by one interleaved double-and-add over signed
 *    non-adjacent forms: width 8 for S with a static table of the odd
 *    multiples B, 3B, ..., 127B in affine (y + x, y - x, 2 d x y) form
 *    (ge25519_vartime_table.h, made by tools/gen_ed25519_vartime_table.c),
 *    width 5 for k with the odd multiples A, ..., 15A computed per call;
 *    extended coordinates (X : Y : Z : T), x = X/Z, y = Y/Z, x y = T/Z
 *    (Hisil, Wong, Carter, Dawson, "Twisted Edwards curves revisited",
 *    2008);
 *  - the equation of 5.1.7 step 3 checked projectively against the decoded
 *    R (no inversion): Q = R, or [8](Q - R) = identity for the cofactored
 *    check.
 *
 * Every variant is a `struct vg_ed25519_verify_impl`, reachable on its own
 * (`_get`, NULL when the build or the CPU lacks it); vg_ed25519_verify_active
 * is the dispatch.
 */
#ifndef VG_CURVE25519_GE25519_VARTIME_H
#define VG_CURVE25519_GE25519_VARTIME_H

#include <stddef.h>
#include <stdint.h>

struct vg_ed25519_verify_impl {
    const char *name; /* "portable", "adx" */
    /* RFC 8032 5.1.7 steps 1 (decoding of A and R) and 3, the rest done by
     * the caller: s is S (the caller has checked S < L), k is
     * SHA-512(R || A || M) mod L (< L). Returns 1 when r_enc and a_enc are
     * canonical encodings of curve points (small order allowed) and
     * [S]B = R + [k]A (cofactored = 0) or [8][S]B = [8]R + [8][k]A
     * (cofactored = 1); else 0. Variable time (public inputs). */
    int (*check)(const uint8_t r_enc[32], const uint8_t a_enc[32], const uint8_t s[32],
                 const uint8_t k[32], int cofactored);
};

const struct vg_ed25519_verify_impl *vg_ed25519_verify_portable_get(void); /* never NULL */
const struct vg_ed25519_verify_impl *vg_ed25519_verify_adx_get(void); /* NULL without BMI2+ADX */
/* The dispatch: adx when the CPU has it, else portable. */
const struct vg_ed25519_verify_impl *vg_ed25519_verify_active(void);

/* RFC 8032 5.1.7 in full on a given variant (ed25519.c): returns VG_OK or
 * VG_ERR_VERIFY exactly as vg_ed25519_verify (cofactored = 0) or
 * vg_ed25519_verify_cofactored (cofactored = 1) would with that variant
 * active. For the tests, which run every variant. */
int vg_ed25519_verify_with(const struct vg_ed25519_verify_impl *impl, const uint8_t sig[64],
                           const uint8_t *msg, size_t msg_len, const uint8_t public_key[32],
                           int cofactored);

/* The same with a prefix dom (dom_len bytes) hashed first: k =
 * SHA-512(dom || R || A || M) (RFC 8032 5.1: dom2(x, ctx) for Ed25519ctx
 * and Ed25519ph, where M is then PH(M)). For the tests of those instances. */
int vg_ed25519_verify_dom_with(const struct vg_ed25519_verify_impl *impl, const uint8_t sig[64],
                               const uint8_t *dom, size_t dom_len, const uint8_t *msg,
                               size_t msg_len, const uint8_t public_key[32], int cofactored);

/* r[i] for i < 256: the width-w non-adjacent form of s, digits odd in
 * (-2^(w-1), 2^(w-1)) or 0, sum r[i] 2^i = s. Preconditions: s < 2^253,
 * 2 <= w <= 8. Variable time. */
void vg_ge25519_wnaf_vartime(int8_t r[256], const uint8_t s[32], int w);

#endif
