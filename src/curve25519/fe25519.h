/*
 * Arithmetic modulo p = 2^255 - 19 and the X25519 function (RFC 7748),
 * internal interface.
 *
 * Two field representations, each behind a table of operations that is
 * reachable on its own through a `_get` function (NULL when the build or the
 * active CPU features lack it), so that the tests run every variant against
 * GMP and against each other:
 *
 *  - fe51 (fe51.c, portable): five unsigned 51-bit limbs, value
 *    sum v[i] 2^(51 i). Products use unsigned __int128 when the compiler has
 *    it, otherwise 32x32->64-bit products (VG_FE51_NO_INT128, which the
 *    tests compile as a second, twin variant "portable-noint128").
 *  - fe64 (fe64_adx.c, x86-64 BMI2 + ADX): four 64-bit words, any value
 *    below 2^256 stands for its residue; kernels in inline assembly with MULX
 *    and two carry chains (ADCX/ADOX). Its C twin is the fe51 field.
 *
 * Every X25519 variant is a `struct vg_x25519_impl`; the dispatch
 * (vg_x25519_active, in x25519.c) picks one from the active CPU mask.
 */
#ifndef VG_CURVE25519_FE25519_H
#define VG_CURVE25519_FE25519_H

#include <stdint.h>
#include <string.h>

/* out = decodeScalar25519(k) (RFC 7748 section 5; RFC 8032 section 5.1.5
 * prunes the same bits): the three low bits and bit 255 cleared, bit 254
 * set. out may equal k. */
static inline void vg_x25519_clamp(uint8_t out[32], const uint8_t k[32])
{
    memmove(out, k, 32);
    out[0] &= 248;
    out[31] &= 127;
    out[31] |= 64;
}

/* ---- radix 2^51 ----------------------------------------------------------
 * Bounds used in the pre/postconditions below:
 *   tight: every limb <= 2^51;
 *   loose: every limb < 2^54.
 * Encoding and decoding follow RFC 7748 section 5 (little-endian, bit 255 of
 * an input ignored, output fully reduced below p). */
typedef struct {
    uint64_t v[5];
} vg_fe51;

/* Limb-wise helpers, no carries, shared by fe51.c and the point code of
 * ge25519_base.c and ge25519_vartime.c (inline: each caller keeps them in
 * its own loops). */

/* h = f + g, limb by limb; the caller states the bound (tight f and g give
 * limbs <= 2^52). Any aliasing. */
static inline void vg_fe51_add_limbs(vg_fe51 *h, const vg_fe51 *f, const vg_fe51 *g)
{
    for (int i = 0; i < 5; i++)
        h->v[i] = f->v[i] + g->v[i];
}

/* h = f + 2p - g, limb by limb. Precondition: g limbs <= 2^52 - 38 (tight
 * qualifies): the limbs of 2p are 2^52 - 38, then 2^52 - 2, so no limb
 * wraps; h limbs < f limbs + 2^52 (< 2^53 for tight f). Any aliasing. */
static inline void vg_fe51_sub_limbs(vg_fe51 *h, const vg_fe51 *f, const vg_fe51 *g)
{
    h->v[0] = (f->v[0] + ((UINT64_C(1) << 52) - 38)) - g->v[0];
    for (int i = 1; i < 5; i++)
        h->v[i] = (f->v[i] + ((UINT64_C(1) << 52) - 2)) - g->v[i];
}

/* Swap f and g when mask is all-ones; leave them when it is zero. No
 * branch on mask (constant time). */
static inline void vg_fe51_cswap(vg_fe51 *f, vg_fe51 *g, uint64_t mask)
{
    for (int i = 0; i < 5; i++) {
        uint64_t t = mask & (f->v[i] ^ g->v[i]);
        f->v[i] ^= t;
        g->v[i] ^= t;
    }
}

struct vg_fe51_ops {
    const char *name; /* "portable" or "portable-noint128" */
    /* h = s mod 2^255 (bit 255 ignored); postcondition: limbs < 2^51. */
    void (*frombytes)(vg_fe51 *h, const uint8_t s[32]);
    /* Precondition: h loose. Writes the canonical encoding (value < p). */
    void (*tobytes)(uint8_t s[32], const vg_fe51 *h);
    /* Precondition: f, g tight. Postcondition: h limbs < 2^53 (not carried). */
    void (*add)(vg_fe51 *h, const vg_fe51 *f, const vg_fe51 *g);
    /* Precondition: f, g tight. h = f - g + 2p, limbs < 2^53. */
    void (*sub)(vg_fe51 *h, const vg_fe51 *f, const vg_fe51 *g);
    /* Precondition: f, g loose. Postcondition: h tight. Any aliasing. */
    void (*mul)(vg_fe51 *h, const vg_fe51 *f, const vg_fe51 *g);
    void (*sqr)(vg_fe51 *h, const vg_fe51 *f);
    /* h = 121666 f = (A + 2) / 4 f for A = 486662. Precondition: f loose.
     * Postcondition: h tight. */
    void (*mul121666)(vg_fe51 *h, const vg_fe51 *f);
    /* h = f^(p-2) (0 for f = 0), a fixed addition chain. f loose, h tight. */
    void (*invert)(vg_fe51 *h, const vg_fe51 *f);
};

const struct vg_fe51_ops *vg_fe51_get(void); /* never NULL */
/* The twin compiled with VG_FE51_NO_INT128; exists only in test programs
 * that compile fe51.c a second time with -DVG_FE51_TWIN. */
const struct vg_fe51_ops *vg_fe51nt_get(void);

/* ---- four 64-bit words (BMI2 + ADX) ----------------------------------------
 * Every input may be any value below 2^256 and every output is below 2^256
 * (not reduced mod p) except tobytes. Any aliasing of outputs and inputs. */
struct vg_fe64_ops {
    const char *name; /* "adx" */
    void (*frombytes)(uint64_t h[4], const uint8_t s[32]); /* bit 255 cleared */
    void (*tobytes)(uint8_t s[32], const uint64_t h[4]);   /* canonical, < p */
    void (*add)(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
    void (*sub)(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
    void (*mul)(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
    void (*sqr)(uint64_t h[4], const uint64_t f[4]);
    void (*mul121666)(uint64_t h[4], const uint64_t f[4]);
    void (*invert)(uint64_t h[4], const uint64_t f[4]);
    /* h = f^(2^n): n squarings in a row (n = 0 copies f). n is public. */
    void (*nsqr)(uint64_t h[4], const uint64_t f[4], unsigned n);
};

/* NULL unless the build has x86-64 code and the CPU has BMI2 and ADX. */
const struct vg_fe64_ops *vg_fe64_adx_get(void);

/* ---- X25519 ----------------------------------------------------------------- */
struct vg_x25519_impl {
    const char *name; /* "portable", "portable-noint128", "adx" */
    /* RFC 7748 section 5: out = X25519(k, u), with k clamped (decodeScalar25519)
     * and bit 255 of u ignored (decodeUCoordinate); out is the canonical
     * encoding. Constant time in k and u. Any aliasing. */
    void (*scalarmult)(uint8_t out[32], const uint8_t k[32], const uint8_t u[32]);
};

const struct vg_x25519_impl *vg_x25519_portable_get(void);   /* never NULL */
const struct vg_x25519_impl *vg_x25519_portablent_get(void); /* test twin, see above */
const struct vg_x25519_impl *vg_x25519_adx_get(void);        /* NULL without BMI2+ADX */
const struct vg_x25519_impl *vg_x25519_active(void);         /* the dispatch */

#endif
