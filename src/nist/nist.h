/*
 * NIST P-256 and P-384: the internal interface of src/nist.
 *
 * The group arithmetic (point formulas, scalar multiplication, point
 * decoding) is src/nist/curve.c, compiled once per curve and per field
 * variant (portable; BMI2/ADX when the build has it, -DVG_NIST_ADX=ON); each
 * compilation gives one backend struct. ECDH, key generation and ECDSA
 * (src/nist/ecc.c, once per curve) ask the dispatch function of their curve
 * once per public operation and pass the struct down.
 *
 * Byte strings are big-endian, NB = 32 (P-256) or 48 (P-384) bytes an
 * integer; a point "xy" is x || y, 2 NB bytes, affine, both < p.
 */
#ifndef VG_NIST_H
#define VG_NIST_H

#include <stddef.h>
#include <stdint.h>

struct vg_nist_backend {
    const char *name; /* "portable", "adx" */
    /* xy = [k]G. Pre: k < n, k != 0 (not checked here). Constant time in k.
     * Specification: fixed-base signed-window scalar multiplication with the
     * complete mixed addition of Renes-Costello-Batina 2016, Algorithm 5. */
    void (*base_mul)(uint8_t *xy, const uint8_t *k);
    /* x = the x-coordinate of [k]P, P = xy a point decode_point accepted.
     * Pre: k < n, k != 0. VG_OK, or VG_ERR_INPUT (x zeroed) if the result
     * is the identity. Constant time in k (the verdict is declassified).
     * Specification: SEC 1 v2 section 3.3.1 (the primitive), with a signed
     * window and RCB 2016 Algorithms 4 and 6. */
    int (*ecdh)(uint8_t *x, const uint8_t *k, const uint8_t *xy);
    /* SEC 1 v2 section 2.3.4: in (len 1 + 2 NB: 04 || x || y; 1 + NB:
     * 02/03 || x) to xy; VG_ERR_INPUT for any other form, a coordinate >= p,
     * a point off the curve, or no square root. Variable time (public). */
    int (*decode_point)(uint8_t *xy, const uint8_t *in, size_t len);
    /* ECDSA verification's last step (FIPS 186-5 section 6.4.2 steps 5-8):
     * VG_OK when R = [u1]G + [u2]Q is not the identity and x(R) mod n = r,
     * else VG_ERR_VERIFY. Pre: u1, u2, r < n; Q = xy accepted by
     * decode_point. Variable time (public inputs only), wNAF. */
    int (*verify)(const uint8_t *u1, const uint8_t *u2, const uint8_t *xy, const uint8_t *r);
    /* ECDSA's scalar arithmetic mod n with this variant's scalar kernels
     * (big-endian NB-byte integers below n). sign_s: s = k^-1 (e + r d),
     * FIPS 186-5 section 6.4.1 steps 4 and 7, k != 0; constant time in k
     * and d. verify_u: u1 = e s^-1, u2 = r s^-1, section 6.4.2 steps 4-5,
     * s != 0; public inputs. The inversion is divsteps where the compiler
     * has __int128 (else, or with -DVG_NIST_INV_FERMAT, Fermat). */
    void (*sign_s)(uint8_t *s, const uint8_t *k, const uint8_t *r, const uint8_t *d,
                   const uint8_t *e);
    void (*verify_u)(uint8_t *u1, uint8_t *u2, const uint8_t *e, const uint8_t *r,
                     const uint8_t *s);
    /* Test interface (the library does not call it): the point formulas on
     * affine inputs, each point given as xy with inf = 1 for the identity
     * (xy then ignored). op 0: P + Q with Algorithm 4 (both inputs first
     * scaled by random-looking Z to exercise projective inputs), 1: P + Q
     * with Algorithm 5 (Q not the identity), 2: 2 P with Algorithm 6,
     * 3: 2 P and 4: 2^5 P through the Jacobian doubling run of curve.c
     * (projective to Jacobian, dbl-2001-b, back); 5: P + Q and 6: P + Q
     * with Q affine (not the identity) through the variable-time Jacobian
     * additions of verification (add-2007-bl, madd-2007-bl, with their
     * exceptional cases: doubling, P + (-P), the identity).
     * Writes the affine result, returns 1 when it is the identity. */
    int (*test_formula)(int op, uint8_t *r, const uint8_t *p, int p_inf, const uint8_t *q,
                        int q_inf);
    /* Test interface: out = 1 / in mod p (0 for 0), the field inversion of
     * this variant (Fermat, in^(p-2)). Pre: in < p. */
    void (*test_inv)(uint8_t *out, const uint8_t *in);
    /* Test interface: the same by Bernstein-Yang divsteps (inv_divsteps.h);
     * NULL where the compiler has no __int128. The operations use it where
     * it exists (the faster; -DVG_NIST_INV_FERMAT keeps Fermat). */
    void (*test_inv_divsteps)(uint8_t *out, const uint8_t *in);
    /* Test interface: out = 1 / in mod n (0 for 0), in < n, with this
     * variant's scalar kernels: the inversion sign_s and verify_u use, and
     * the Fermat chain. */
    void (*test_sc_inv)(uint8_t *out, const uint8_t *in);
    void (*test_sc_inv_fermat)(uint8_t *out, const uint8_t *in);
};

/* The variants' structs (src/nist/curve.c, one compilation each). */
extern const struct vg_nist_backend vg_nist_p256_portable_backend;
extern const struct vg_nist_backend vg_nist_p384_portable_backend;
#if defined(VG_NIST_HAVE_ADX)
extern const struct vg_nist_backend vg_nist_p256_adx_backend;
extern const struct vg_nist_backend vg_nist_p384_adx_backend;
#endif

/* Each variant on its own: _portable_get never NULL; _adx_get NULL unless
 * the build has it and the CPU has BMI2 and ADX. */
const struct vg_nist_backend *vg_nist_p256_portable_get(void);
const struct vg_nist_backend *vg_nist_p256_adx_get(void);
const struct vg_nist_backend *vg_nist_p384_portable_get(void);
const struct vg_nist_backend *vg_nist_p384_adx_get(void);

/* The dispatch: the fastest available variant. */
const struct vg_nist_backend *vg_nist_p256_active(void);
const struct vg_nist_backend *vg_nist_p384_active(void);

/* vg_implementation("p256") / ("p384"). */
const char *vg_nist_implementation(const char *primitive);

#endif
