/*
 * ECDH, key generation and ECDSA on P-256 or P-384 (VG_NIST_BITS = 256 or
 * 384; compiled once per curve, CMakeLists.txt). The public functions are
 * thin wrappers in src/nist/api.c; the group operations come from the
 * curve's backend (src/nist/nist.h), asked once per operation.
 *
 * Specification: FIPS 186-5 section 6.4 (ECDSA), RFC 6979 (deterministic
 * nonces, section 3.2; additional data, section 3.6), SEC 1 v2 sections
 * 2.3.4 (point decoding), 3.2.1 (key generation) and 3.3.1 (ECDH).
 */
#include <string.h>

#include "common.h"
#include "../hash/hmac.h"
#include "nist.h"
#include "nist_ecc.h"
#include "params.h"
#include "sc_portable.h"

#if VG_NIST_BITS == 256
#define NL 4
#define NB 32
#define SC(f) sc256_##f
#define C(name) vg_p256_##name
#define NAME(n) vg_nist_p256_##n
#define HMAC_HASH (&vg_hmac_sha256_hash)
#elif VG_NIST_BITS == 384
#define NL 6
#define NB 48
#define SC(f) sc384_##f
#define C(name) vg_p384_##name
#define NAME(n) vg_nist_p384_##n
#define HMAC_HASH (&vg_hmac_sha384_hash)
#else
#error "VG_NIST_BITS must be 256 or 384"
#endif

typedef uint64_t sc[NL];

/* ---- dispatch -------------------------------------------------------------- */

const struct vg_nist_backend *NAME(portable_get)(void) { return &NAME(portable_backend); }

const struct vg_nist_backend *NAME(adx_get)(void)
{
#if defined(VG_NIST_HAVE_ADX)
    if (vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX))
        return &NAME(adx_backend);
#endif
    return NULL;
}

/* The fastest available variant: BMI2/ADX field kernels when the build has
 * them and the CPU has both, else portable. */
const struct vg_nist_backend *NAME(active)(void)
{
    const struct vg_nist_backend *b = NAME(adx_get)();
    return b ? b : NAME(portable_get)();
}

/* ---- scalars ------------------------------------------------------------- */

static void limbs_from_bytes(uint64_t r[NL], const uint8_t b[NB])
{
    for (size_t i = 0; i < NL; i++) {
        uint64_t w = 0;
        for (size_t j = 0; j < 8; j++)
            w = (w << 8) | b[NB - 8 * (i + 1) + j];
        r[i] = w;
    }
}

static void limbs_to_bytes(uint8_t b[NB], const uint64_t a[NL])
{
    for (size_t i = 0; i < NL; i++)
        for (size_t j = 0; j < 8; j++)
            b[NB - 8 * (i + 1) + j] = (uint8_t)(a[i] >> (56 - 8 * j));
}

/* t = a - n; returns all-ones when a < n (it borrowed). */
static uint64_t limbs_sub_n(uint64_t t[NL], const uint64_t a[NL])
{
    uint64_t borrow = 0;
    for (size_t i = 0; i < NL; i++)
        borrow = vg_mont_sbb(&t[i], a[i], C(n)[i], borrow);
    return vg_barrier_u64(0 - borrow);
}

/* r = (b mod n) as a plain integer (b any NB-byte value: b < 2^(8 NB) < 2 n,
 * one subtraction). */
static void bytes_mod_n(uint8_t r[NB], const uint8_t b[NB])
{
    uint64_t a[NL], t[NL];
    limbs_from_bytes(a, b);
    uint64_t lt = limbs_sub_n(t, a);
    for (size_t i = 0; i < NL; i++)
        a[i] = (a[i] & lt) | (t[i] & ~lt);
    limbs_to_bytes(r, a);
    vg_wipe(a, sizeof a);
    vg_wipe(t, sizeof t);
}

/* All-ones when 1 <= b < n (b big-endian NB bytes), constant time. */
static uint64_t scalar_valid(const uint8_t b[NB])
{
    uint64_t a[NL], t[NL], acc = 0;
    limbs_from_bytes(a, b);
    for (size_t i = 0; i < NL; i++)
        acc |= a[i];
    uint64_t ok = limbs_sub_n(t, a) & vg_ct_mask_nonzero_u64(acc);
    vg_wipe(a, sizeof a);
    vg_wipe(t, sizeof t);
    return ok;
}

/* r = b R mod n for b < n (bytes). */
static void sc_from_bytes(sc r, const uint8_t b[NB])
{
    uint64_t a[NL];
    limbs_from_bytes(a, b);
    SC(mul)(r, a, C(r2_n));
    vg_wipe(a, sizeof a);
}

static void sc_to_bytes(uint8_t b[NB], const sc a)
{
    static const sc one = {1};
    sc t;
    SC(mul)(t, a, one);
    limbs_to_bytes(b, t);
    vg_wipe(t, sizeof t);
}

/* r = a^(n - 2) = 1 / a (Fermat; n prime). The exponent is public, so its
 * window indexes the table; a (the nonce) stays secret. */
static void sc_inv(sc r, const sc a)
{
    sc tab[16], acc;
    memcpy(tab[0], C(n_one_mont), sizeof(sc));
    memcpy(tab[1], a, sizeof(sc));
    for (size_t i = 2; i < 16; i++)
        SC(mul)(tab[i], tab[i - 1], a);
    memcpy(acc, C(n_one_mont), sizeof(sc));
    for (size_t i = NL * 16; i-- > 0;) {
        for (int k = 0; k < 4; k++)
            SC(sqr)(acc, acc);
        unsigned nib = (unsigned)(C(n_minus_2)[i / 16] >> (4 * (i % 16))) & 15u;
        SC(mul)(acc, acc, tab[nib]);
    }
    memcpy(r, acc, sizeof(sc));
    vg_wipe(tab, sizeof tab);
    vg_wipe(acc, sizeof acc);
}

/* The same by Bernstein-Yang divsteps (inv_divsteps.h). Signing and
 * verification use it where the compiler has __int128 (the field's
 * divsteps timed faster than its Fermat chain on both curves, and the
 * scalar inversion has the same shape); -DVG_NIST_INV_FERMAT keeps sc_inv.
 * Both are tested against GMP (test_nist). */
#if defined(__SIZEOF_INT128__)
#define VG_NIST_HAVE_DIVSTEPS 1
#define DS_NAME sc_inv_divsteps
#define DS_NL NL
#define DS_MUL(r, a, b) SC(mul)(r, a, b)
#define DS_ADD(r, a, b) SC(add)(r, a, b)
#define DS_NEG(r, a) SC(neg)(r, a)
#define DS_MOD C(n)
#define DS_K C(divsteps_k_n)
#define DS_BATCHES (VG_NIST_BITS == 256 ? 13 : 19)
#include "inv_divsteps.h"
#endif

/* RFC 6979 section 2.3.2 bits2int for qlen = 8 NB (both n have exactly
 * 256 resp. 384 bits), then mod n (2.3.4 bits2octets without the encoding):
 * the leftmost qlen bits of the digest, i.e. its first NB bytes, or the
 * whole digest right-aligned when shorter. Pre: 1 <= len <= 64. */
static void bits2int_mod_n(uint8_t out[NB], const uint8_t *digest, size_t len)
{
    uint8_t t[NB] = {0};
    if (len >= NB)
        memcpy(t, digest, NB);
    else
        memcpy(t + NB - len, digest, len);
    bytes_mod_n(out, t);
}

/* ---- keys and ECDH ------------------------------------------------------- */

int NAME(public_key)(uint8_t pk[1 + 2 * NB], const uint8_t sk[NB])
{
    const struct vg_nist_backend *be = NAME(active)();
    uint64_t ok = scalar_valid(sk);
    /* Rejecting an invalid key says only that it is invalid. */
    VG_CT_DECLASSIFY(&ok, sizeof ok);
    if (!ok) {
        vg_wipe(pk, 1 + 2 * NB);
        return VG_ERR_INPUT;
    }
    pk[0] = 0x04;
    be->base_mul(pk + 1, sk);
    /* The public key is public. */
    VG_CT_DECLASSIFY(pk, 1 + 2 * NB);
    return VG_OK;
}

int NAME(keypair)(uint8_t pk[1 + 2 * NB], uint8_t sk[NB])
{
    /* SEC 1 3.2.1 / FIPS 186-5 A.4.2: rejection sampling of d in [1, n-1]
     * (a rejection has probability below 2^-32 for both curves). */
    for (int tries = 0; tries < 64; tries++) {
        if (vg_randombytes(sk, NB) != VG_OK)
            break;
        uint64_t ok = scalar_valid(sk);
        /* Whether a candidate is rejected says nothing about the one kept. */
        VG_CT_DECLASSIFY(&ok, sizeof ok);
        if (ok)
            return NAME(public_key)(pk, sk);
    }
    vg_wipe(sk, NB);
    vg_wipe(pk, 1 + 2 * NB);
    return VG_ERR_RANDOM;
}

int NAME(point_uncompressed)(uint8_t out[1 + 2 * NB], const uint8_t *in, size_t len)
{
    const struct vg_nist_backend *be = NAME(active)();
    if (!in || be->decode_point(out + 1, in, len) != VG_OK) {
        memset(out, 0, 1 + 2 * NB);
        return VG_ERR_INPUT;
    }
    out[0] = 0x04;
    return VG_OK;
}

int NAME(ecdh)(uint8_t shared[NB], const uint8_t sk[NB], const uint8_t *peer, size_t peer_len)
{
    const struct vg_nist_backend *be = NAME(active)();
    uint8_t xy[2 * NB];
    int rc = VG_ERR_INPUT;
    uint64_t ok = scalar_valid(sk);
    VG_CT_DECLASSIFY(&ok, sizeof ok); /* as in public_key */
    if (!ok || !peer || be->decode_point(xy, peer, peer_len) != VG_OK)
        goto out;
    rc = be->ecdh(shared, sk, xy);
    if (rc != VG_OK)
        goto out;
    /* An all-zero shared secret is rejected (DESIGN 2b). Both curves have
     * points with x = 0 (Wycheproof's EdgeCaseSharedSecret cases reach one),
     * so this refuses a result SEC 1 would accept, as the contract says. */
    uint8_t acc = 0;
    for (size_t i = 0; i < NB; i++)
        acc |= shared[i];
    VG_CT_DECLASSIFY(&acc, sizeof acc); /* only "all zero or not" is public */
    rc = acc ? VG_OK : VG_ERR_INPUT;
out:
    if (rc != VG_OK)
        vg_wipe(shared, NB);
    vg_wipe(xy, sizeof xy);
    return rc;
}

/* ---- ECDSA ---------------------------------------------------------------- */

/* out = HMAC_K(a || [sep] || b || c || d), any part may be NULL/0. */
static void hmac_parts(uint8_t *out, const uint8_t *key, const uint8_t *a, size_t a_len, int sep,
                       const uint8_t *b, size_t b_len, const uint8_t *c, size_t c_len,
                       const uint8_t *d, size_t d_len)
{
    const struct vg_hmac_hash *h = HMAC_HASH;
    vg_hmac_hash_ctx inner, outer;
    vg_hmac_key(h, &inner, &outer, key, h->out_len);
    h->update(&inner, a, a_len);
    if (sep >= 0) {
        uint8_t s = (uint8_t)sep;
        h->update(&inner, &s, 1);
    }
    if (b_len)
        h->update(&inner, b, b_len);
    if (c_len)
        h->update(&inner, c, c_len);
    if (d_len)
        h->update(&inner, d, d_len);
    vg_hmac_finish(h, &inner, &outer, out);
}

/* The output length of the HMAC hash is NB on both curves (SHA-256 with
 * P-256, SHA-384 with P-384), so one V block is one candidate k. */
struct rfc6979 {
    uint8_t k[NB], v[NB];
};

/* RFC 6979 3.2 steps b-f, with 3.6's additional data (rnd, NB bytes, or
 * none when rnd is NULL). */
static void rfc6979_init(struct rfc6979 *st, const uint8_t x[NB], const uint8_t h1[NB],
                         const uint8_t *rnd)
{
    size_t rl = rnd ? NB : 0;
    memset(st->v, 0x01, NB);
    memset(st->k, 0x00, NB);
    hmac_parts(st->k, st->k, st->v, NB, 0x00, x, NB, h1, NB, rnd, rl); /* d */
    hmac_parts(st->v, st->k, st->v, NB, -1, NULL, 0, NULL, 0, NULL, 0); /* e */
    hmac_parts(st->k, st->k, st->v, NB, 0x01, x, NB, h1, NB, rnd, rl); /* f */
    hmac_parts(st->v, st->k, st->v, NB, -1, NULL, 0, NULL, 0, NULL, 0); /* g */
}

/* Step h: the next candidate (tlen = qlen = 8 NB: T = V). */
static void rfc6979_next(struct rfc6979 *st, uint8_t cand[NB])
{
    hmac_parts(st->v, st->k, st->v, NB, -1, NULL, 0, NULL, 0, NULL, 0);
    memcpy(cand, st->v, NB);
}

/* Step h.3 after a rejected candidate. */
static void rfc6979_reseed(struct rfc6979 *st)
{
    hmac_parts(st->k, st->k, st->v, NB, 0x00, NULL, 0, NULL, 0, NULL, 0);
    hmac_parts(st->v, st->k, st->v, NB, -1, NULL, 0, NULL, 0, NULL, 0);
}

int NAME(sign_digest_derand)(uint8_t sig[2 * NB], const uint8_t *digest, size_t digest_len,
                             const uint8_t sk[NB], const uint8_t rnd[NB])
{
    const struct vg_nist_backend *be = NAME(active)();
    struct rfc6979 st;
    uint8_t h1[NB], kb[NB], rxy[2 * NB], rb[NB];
    int rc = VG_ERR_INPUT;
    uint64_t ok = scalar_valid(sk);
    VG_CT_DECLASSIFY(&ok, sizeof ok); /* as in public_key */
    if (!ok || !digest || digest_len < 1 || digest_len > 64 || !rnd)
        goto out;
    bits2int_mod_n(h1, digest, digest_len); /* e of FIPS 186-5 6.4.1 step 3 */
    /* rnd all zero: RFC 6979 exactly, no additional data (DESIGN 2b). Only
     * this one bit of rnd is revealed by the branch. */
    uint8_t acc = 0;
    for (size_t i = 0; i < NB; i++)
        acc |= rnd[i];
    VG_CT_DECLASSIFY(&acc, sizeof acc);
    rfc6979_init(&st, sk, h1, acc ? rnd : NULL);
    for (;;) {
        rfc6979_next(&st, kb);
        uint64_t kok = scalar_valid(kb);
        /* A rejected candidate is independent of the k finally used. */
        VG_CT_DECLASSIFY(&kok, sizeof kok);
        if (kok) {
            be->base_mul(rxy, kb);            /* (x1, y1) = [k]G, step 5 */
            bytes_mod_n(rb, rxy);             /* r = x1 mod n, step 6 */
            /* r is part of the signature: public. */
            VG_CT_DECLASSIFY(rb, NB);
            uint8_t rz = 0;
            for (size_t i = 0; i < NB; i++)
                rz |= rb[i];
            if (rz) {
                /* s = k^-1 (e + r d), steps 4 and 7, with the variant's
                 * scalar kernels. */
                be->sign_s(sig + NB, kb, rb, sk, h1);
                /* s is part of the signature: public. */
                VG_CT_DECLASSIFY(sig + NB, NB);
                uint8_t sz = 0;
                for (size_t i = 0; i < NB; i++)
                    sz |= sig[NB + i];
                if (sz) {
                    memcpy(sig, rb, NB);
                    rc = VG_OK;
                    break;
                }
            }
        }
        rfc6979_reseed(&st);
    }
out:
    if (rc != VG_OK && sig)
        vg_wipe(sig, 2 * NB);
    vg_wipe(&st, sizeof st);
    vg_wipe(h1, sizeof h1);
    vg_wipe(kb, sizeof kb);
    vg_wipe(rxy, sizeof rxy);
    return rc;
}

int NAME(sign_digest)(uint8_t sig[2 * NB], const uint8_t *digest, size_t digest_len,
                      const uint8_t sk[NB])
{
    uint8_t rnd[NB];
    int rc;
    if (vg_randombytes(rnd, NB) != VG_OK) {
        if (sig)
            vg_wipe(sig, 2 * NB);
        return VG_ERR_RANDOM;
    }
    /* An all-zero draw (probability 2^-256 or less) would mean "plain RFC
     * 6979", which is still a correct, deterministic signature. */
    rc = NAME(sign_digest_derand)(sig, digest, digest_len, sk, rnd);
    vg_wipe(rnd, sizeof rnd);
    return rc;
}

int NAME(verify_digest)(const uint8_t sig[2 * NB], const uint8_t *digest, size_t digest_len,
                        const uint8_t *pk, size_t pk_len)
{
    const struct vg_nist_backend *be = NAME(active)();
    uint8_t xy[2 * NB], eb[NB], u1b[NB], u2b[NB];
    if (!sig || !digest || digest_len < 1 || digest_len > 64 || !pk)
        return VG_ERR_VERIFY;
    /* FIPS 186-5 6.4.2 step 1: r, s in [1, n-1]. */
    if (!scalar_valid(sig) || !scalar_valid(sig + NB))
        return VG_ERR_VERIFY;
    if (be->decode_point(xy, pk, pk_len) != VG_OK)
        return VG_ERR_VERIFY;
    bits2int_mod_n(eb, digest, digest_len); /* steps 2-3 */
    be->verify_u(u1b, u2b, eb, sig, sig + NB); /* steps 4-5 */
    return be->verify(u1b, u2b, xy, sig) == VG_OK ? VG_OK : VG_ERR_VERIFY; /* steps 6-8 */
}

/* Test interface (nist_ecc.h): out = 1 / in mod n, in < n. */
void NAME(test_sc_inv)(uint8_t out[NB], const uint8_t in[NB])
{
    sc a;
    sc_from_bytes(a, in);
    sc_inv(a, a);
    sc_to_bytes(out, a);
}

/* Test interface (nist_ecc.h): the divsteps inversion mod n; 0 when the
 * build has none (no __int128). */
int NAME(test_sc_inv_divsteps)(uint8_t out[NB], const uint8_t in[NB])
{
#if defined(VG_NIST_HAVE_DIVSTEPS)
    sc a;
    sc_from_bytes(a, in);
    sc_inv_divsteps(a, a);
    sc_to_bytes(out, a);
    return 1;
#else
    (void)in;
    memset(out, 0, NB);
    return 0;
#endif
}
