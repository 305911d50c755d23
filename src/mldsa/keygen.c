/*
 * ML-DSA (FIPS 204) key generation for one parameter set (params.h; this
 * file is compiled once per set, vg_param_set in CMakeLists.txt). A-hat is
 * generated one row at a time (arows.h). The arithmetic is in poly.c behind
 * the backend interface of poly.h, chosen once per call (vg_mldsa_active).
 */
#include <string.h>

#include "arows.h"
#include "common.h"
#include "mldsa.h"
#include "mldsa_internal.h"
#include "params.h"
#include "poly.h"

/* ML-DSA.KeyGen_internal from line 2 on, given exp = rho || rho' || K
 * (line 1's output). Specification: FIPS 204, Algorithm 6 (with
 * Algorithms 22 pkEncode, 24 skEncode, 32 ExpandA, 33 ExpandS). A-hat is
 * generated one row at a time. */
static void vg_mldsa_keygen_expanded(const struct vg_mldsa_backend *be,
                                     uint8_t pk[VG_MLDSA_PK_BYTES], uint8_t sk[VG_MLDSA_SK_BYTES],
                                     const uint8_t exp[2 * VG_MLDSA_SYMBYTES + VG_MLDSA_CRHBYTES])
{
    struct {
        uint8_t rho[VG_MLDSA_SYMBYTES];
        vg_mldsa_poly s[VG_MLDSA_L + VG_MLDSA_K], acc, t1, t0; /* s = s1-hat || s2 */
    } ws;
    struct vg_mldsa_arows arows; /* A-hat, two rows at a time: public, not wiped */
    const uint8_t *rho = ws.rho, *rhoprime = exp + VG_MLDSA_SYMBYTES;
    const uint8_t *key = exp + VG_MLDSA_SYMBYTES + VG_MLDSA_CRHBYTES;

    /* Declassify: rho, which the public key carries in the clear (pkEncode,
     * Algorithm 22); ExpandA's rejection sampling may then run in variable
     * time on it (a copy: the caller's buffer keeps its own status). */
    memcpy(ws.rho, exp, VG_MLDSA_SYMBYTES);
    VG_CT_DECLASSIFY(ws.rho, sizeof ws.rho);
    memcpy(sk, rho, VG_MLDSA_SYMBYTES);
    memcpy(sk + VG_MLDSA_SK_KEY, key, VG_MLDSA_SYMBYTES);
    memcpy(pk, rho, VG_MLDSA_SYMBYTES);
    arows.next = 0;
    /* (s1, s2) = ExpandS(rho') (line 4): nonces 0..l-1 and l..l+k-1, four
     * at a time; packed; s1 into the NTT domain (|s1| <= eta < q). */
    vg_mldsa_poly_uniform_eta_many(be, ws.s, rhoprime, 0, VG_MLDSA_L + VG_MLDSA_K, VG_MLDSA_ETA);
    for (unsigned j = 0; j < VG_MLDSA_L; j++) {
        vg_mldsa_polyeta_pack(be, sk + VG_MLDSA_SK_S1 + j * VG_MLDSA_POLYETA_BYTES, &ws.s[j],
                              VG_MLDSA_ETA);
        be->ntt(&ws.s[j]);
    }
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        /* t[i] = NTT^-1(sum_j A-hat[i][j] o s1-hat[j]) + s2[i] (line 5):
         * the row product is < q (pointwise_acc), then invntt: < q;
         * adding |s2| <= 4 and reduce32, caddq give [0, q). */
        be->pointwise_acc(&ws.acc, vg_mldsa_arow(be, &arows, rho, i), ws.s, VG_MLDSA_L);
        be->invntt_tomont(&ws.acc);
        vg_mldsa_polyeta_pack(be, sk + VG_MLDSA_SK_S2 + i * VG_MLDSA_POLYETA_BYTES,
                              &ws.s[VG_MLDSA_L + i], VG_MLDSA_ETA);
        if (be->keygen_pass) {
            /* The four passes below in one (poly.h, keygen_pass). */
            be->keygen_pass(&ws.t1, &ws.t0, &ws.acc, &ws.s[VG_MLDSA_L + i]);
        } else {
            be->add(&ws.acc, &ws.acc, &ws.s[VG_MLDSA_L + i]);
            be->reduce(&ws.acc);
            be->caddq(&ws.acc);
            /* (t1, t0) = Power2Round(t) (line 6). */
            be->power2round(&ws.t1, &ws.t0, &ws.acc);
        }
        vg_mldsa_polyt1_pack(be, pk + VG_MLDSA_SYMBYTES + i * VG_MLDSA_POLYT1_BYTES, &ws.t1);
        vg_mldsa_polyt0_pack(be, sk + VG_MLDSA_SK_T0 + i * VG_MLDSA_POLYT0_BYTES, &ws.t0);
    }
    /* tr = H(pk, 64) (line 9). */
    vg_shake256(sk + VG_MLDSA_SK_TR, VG_MLDSA_CRHBYTES, pk, VG_MLDSA_PK_BYTES);
    vg_wipe(&ws, sizeof ws);
}

/* ML-DSA.KeyGen_internal(xi). Specification: FIPS 204, Algorithm 6. */
static void vg_mldsa_keygen(const struct vg_mldsa_backend *be, uint8_t pk[VG_MLDSA_PK_BYTES],
                            uint8_t sk[VG_MLDSA_SK_BYTES], const uint8_t xi[VG_MLDSA_SYMBYTES])
{
    uint8_t seedbuf[VG_MLDSA_SYMBYTES + 2];
    uint8_t exp[2 * VG_MLDSA_SYMBYTES + VG_MLDSA_CRHBYTES]; /* rho || rho' || K */
    /* (rho, rho', K) = H(xi || k || l, 128) (line 1). */
    memcpy(seedbuf, xi, VG_MLDSA_SYMBYTES);
    seedbuf[VG_MLDSA_SYMBYTES] = (uint8_t)VG_MLDSA_K;
    seedbuf[VG_MLDSA_SYMBYTES + 1] = (uint8_t)VG_MLDSA_L;
    vg_shake256(exp, sizeof exp, seedbuf, sizeof seedbuf);
    vg_mldsa_keygen_expanded(be, pk, sk, exp);
    vg_wipe(seedbuf, sizeof seedbuf);
    vg_wipe(exp, sizeof exp);
}

/* Whether an expanded secret key sk = rho || K || tr || s1 || s2 || t0
 * (skEncode, FIPS 204 Algorithm 24) is the one KeyGen_internal gives for its
 * own rho, s1 and s2: s1 and s2 within [-eta, eta] (what skDecode,
 * Algorithm 25, can produce), t = NTT^-1(A-hat o NTT(s1)) + s2 regenerated
 * from rho (Algorithm 6 line 5), (t1, t0) = Power2Round(t) (line 6), and
 * the key's t0 and tr equal to the regenerated t0 and H(rho || t1, 64)
 * (lines 8-9). K is unconstrained (any 32 bytes are a valid K). Returns 0
 * or -1, NOT declassified (the caller makes the verdict public); s1, s2,
 * t0 and t1 are handled as keygen handles them, and the comparisons are
 * vg_ct_memcmp. rho is declassified on a copy, as keygen does (the public
 * key carries it). The work area is wiped. */
static int vg_mldsa_check_expanded(const struct vg_mldsa_backend *be,
                                   const uint8_t sk[VG_MLDSA_SK_BYTES])
{
    struct {
        uint8_t rho[VG_MLDSA_SYMBYTES];
        uint8_t pk[VG_MLDSA_PK_BYTES];
        uint8_t t0[VG_MLDSA_K * VG_MLDSA_POLYT0_BYTES];
        uint8_t tr[VG_MLDSA_CRHBYTES];
        vg_mldsa_poly s[VG_MLDSA_L + VG_MLDSA_K], acc, t1, t0p; /* s = s1-hat || s2 */
    } ws;
    struct vg_mldsa_arows arows; /* A-hat, two rows at a time: public, not wiped */
    unsigned range = 0;
    int diff;

    memcpy(ws.rho, sk, VG_MLDSA_SYMBYTES);
    VG_CT_DECLASSIFY(ws.rho, sizeof ws.rho);
    memcpy(ws.pk, ws.rho, VG_MLDSA_SYMBYTES);
    arows.next = 0;
    /* skDecode of s1 and s2, with the range verdict (constant time). */
    for (unsigned j = 0; j < VG_MLDSA_L + VG_MLDSA_K; j++)
        range |= vg_mldsa_polyeta_unpack(be, &ws.s[j], sk + VG_MLDSA_SK_S1 +
                                                           j * VG_MLDSA_POLYETA_BYTES,
                                         VG_MLDSA_ETA);
    /* Out-of-range fields decode to eta - 2^b < s < -eta: still small
     * enough for the arithmetic below, whose result is then refused. */
    for (unsigned j = 0; j < VG_MLDSA_L; j++)
        be->ntt(&ws.s[j]);
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        be->pointwise_acc(&ws.acc, vg_mldsa_arow(be, &arows, ws.rho, i), ws.s, VG_MLDSA_L);
        be->invntt_tomont(&ws.acc);
        if (be->keygen_pass) {
            be->keygen_pass(&ws.t1, &ws.t0p, &ws.acc, &ws.s[VG_MLDSA_L + i]);
        } else {
            be->add(&ws.acc, &ws.acc, &ws.s[VG_MLDSA_L + i]);
            be->reduce(&ws.acc);
            be->caddq(&ws.acc);
            be->power2round(&ws.t1, &ws.t0p, &ws.acc);
        }
        vg_mldsa_polyt1_pack(be, ws.pk + VG_MLDSA_SYMBYTES + i * VG_MLDSA_POLYT1_BYTES, &ws.t1);
        vg_mldsa_polyt0_pack(be, ws.t0 + i * VG_MLDSA_POLYT0_BYTES, &ws.t0p);
    }
    vg_shake256(ws.tr, VG_MLDSA_CRHBYTES, ws.pk, VG_MLDSA_PK_BYTES);
    /* BitPack of t0 is injective (every 13-bit field is a value), so equal
     * bytes are equal polynomials. */
    diff = vg_ct_memcmp(ws.t0, sk + VG_MLDSA_SK_T0, sizeof ws.t0) |
           vg_ct_memcmp(ws.tr, sk + VG_MLDSA_SK_TR, VG_MLDSA_CRHBYTES) | -(int)(range & 1);
    vg_wipe(&ws, sizeof ws);
    return diff;
}

static void vg_mldsa_keypair_expanded_impl(uint8_t *pk, uint8_t *sk, const uint8_t exp[128])
{
    vg_mldsa_keygen_expanded(vg_mldsa_active(), pk, sk, exp);
}

/* ML-DSA.KeyGen_internal(xi). Specification: FIPS 204, Algorithm 6. */
static int vg_mldsa_keypair_derand_impl(uint8_t *pk, uint8_t *sk, const uint8_t seed[32])
{
    if (!pk || !sk || !seed) {
        if (pk)
            memset(pk, 0, VG_MLDSA_PK_BYTES);
        if (sk)
            vg_wipe(sk, VG_MLDSA_SK_BYTES);
        return VG_ERR_INPUT;
    }
    vg_mldsa_keygen(vg_mldsa_active(), pk, sk, seed);
    return VG_OK;
}

/* ML-DSA.KeyGen: xi from the OS. Specification: FIPS 204, Algorithm 1. */
static int vg_mldsa_keypair_impl(uint8_t *pk, uint8_t *sk)
{
    uint8_t xi[VG_MLDSA_SYMBYTES];
    int ret;
    if (!pk || !sk) {
        ret = vg_mldsa_keypair_derand_impl(pk, sk, NULL);
    } else if (vg_randombytes(xi, sizeof xi) != VG_OK) {
        memset(pk, 0, VG_MLDSA_PK_BYTES);
        vg_wipe(sk, VG_MLDSA_SK_BYTES);
        ret = VG_ERR_RANDOM;
    } else {
        ret = vg_mldsa_keypair_derand_impl(pk, sk, xi);
    }
    vg_wipe(xi, sizeof xi);
    return ret;
}

/* ---- the names of this set's functions ---------------------------------
 * Thin wrappers (inlined: each _impl above has this one caller), so that
 * every public function is defined under its full name. */
#if VG_MLDSA_MODE == 44
void vg_mldsa44_keypair_expanded(uint8_t *pk, uint8_t *sk, const uint8_t exp[128])
{
    vg_mldsa_keypair_expanded_impl(pk, sk, exp);
}

int vg_mldsa44_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[32])
{
    return vg_mldsa_keypair_derand_impl(pk, sk, seed);
}

int vg_mldsa44_keypair(uint8_t *pk, uint8_t *sk) { return vg_mldsa_keypair_impl(pk, sk); }

int vg_mldsa44_check_expanded(const uint8_t *sk)
{
    return vg_mldsa_check_expanded(vg_mldsa_active(), sk);
}
#elif VG_MLDSA_MODE == 65
void vg_mldsa65_keypair_expanded(uint8_t *pk, uint8_t *sk, const uint8_t exp[128])
{
    vg_mldsa_keypair_expanded_impl(pk, sk, exp);
}

int vg_mldsa65_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[32])
{
    return vg_mldsa_keypair_derand_impl(pk, sk, seed);
}

int vg_mldsa65_keypair(uint8_t *pk, uint8_t *sk) { return vg_mldsa_keypair_impl(pk, sk); }

int vg_mldsa65_check_expanded(const uint8_t *sk)
{
    return vg_mldsa_check_expanded(vg_mldsa_active(), sk);
}
#elif VG_MLDSA_MODE == 87
void vg_mldsa87_keypair_expanded(uint8_t *pk, uint8_t *sk, const uint8_t exp[128])
{
    vg_mldsa_keypair_expanded_impl(pk, sk, exp);
}

int vg_mldsa87_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[32])
{
    return vg_mldsa_keypair_derand_impl(pk, sk, seed);
}

int vg_mldsa87_keypair(uint8_t *pk, uint8_t *sk) { return vg_mldsa_keypair_impl(pk, sk); }

int vg_mldsa87_check_expanded(const uint8_t *sk)
{
    return vg_mldsa_check_expanded(vg_mldsa_active(), sk);
}
#endif
