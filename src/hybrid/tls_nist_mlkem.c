/*
 * SecP256r1MLKEM768 (TLS group 0x11EB) and SecP384r1MLKEM1024 (0x11ED) of
 * draft-ietf-tls-ecdhe-mlkem as KEMs.
 *
 * The draft's section "Construction": for these two groups the ECDH part
 * comes first everywhere. The client's key share (pk here) is the SEC 1
 * uncompressed point (65 / 97 bytes) followed by the ML-KEM encapsulation key
 * (1184 / 1568); the server's key share (ct here) is the server's ephemeral
 * uncompressed point followed by the ML-KEM ciphertext (1088 / 1568); the
 * shared secret is the ECDH x-coordinate (32 / 48) followed by the ML-KEM
 * shared secret (32).
 *
 * Our secret key is the EC scalar (32 / 48, big endian) followed by the
 * ML-KEM decapsulation key (2400 / 3168, FIPS 203 form), so decapsulation
 * needs no key expansion. Seeds are the components' seeds in the same order:
 * keypair_derand takes the EC scalar || ML-KEM d || z, encaps_derand the
 * ephemeral EC scalar || ML-KEM m; an EC scalar 0 or >= n is rejected
 * (VG_ERR_INPUT) rather than reduced.
 *
 * Input checks of the draft: the server runs the FIPS 203 7.2 encapsulation
 * key check (inside ML-KEM encaps) and validates the client's point; the
 * client validates the server's point (SEC 1 3.2.2.1 via vg_p256_ecdh /
 * vg_p384_ecdh: coordinates < p, on the curve). Points must be uncompressed:
 * the draft allows only that form in these key shares. Every failure gives
 * VG_ERR_INPUT with the outputs zeroed (DESIGN section 2).
 */
#include "common.h"

/* One hybrid's sizes and its EC component. */
struct nist_hybrid {
    const uint8_t *n; /* the group order, big endian, nb bytes */
    size_t nb;    /* EC scalar and x-coordinate bytes: 32 / 48 */
    size_t pt;    /* uncompressed point: 65 / 97 */
    size_t ek;    /* ML-KEM ek */
    size_t dk;    /* ML-KEM dk */
    size_t mct;   /* ML-KEM ct */
    int (*ec_public)(uint8_t *pk, const uint8_t *sk);
    int (*ec_dh)(uint8_t *shared, const uint8_t *sk, const uint8_t *peer, size_t peer_len);
    int (*kem_keypair)(uint8_t *ek, uint8_t *dk, const uint8_t *dz);
    int (*kem_encaps)(uint8_t *ct, uint8_t *ss, const uint8_t *ek, const uint8_t *m);
    int (*kem_decaps)(uint8_t *ss, const uint8_t *ct, const uint8_t *dk);
};

#define PK_LEN(h) ((h)->pt + (h)->ek)
#define SK_LEN(h) ((h)->nb + (h)->dk)
#define CT_LEN(h) ((h)->pt + (h)->mct)
#define SS_LEN(h) ((h)->nb + 32)

static int p256_public(uint8_t *pk, const uint8_t *sk) { return vg_p256_public_key(pk, sk); }
static int p384_public(uint8_t *pk, const uint8_t *sk) { return vg_p384_public_key(pk, sk); }
static int p256_dh(uint8_t *s, const uint8_t *sk, const uint8_t *peer, size_t n)
{
    return vg_p256_ecdh(s, sk, peer, n);
}
static int p384_dh(uint8_t *s, const uint8_t *sk, const uint8_t *peer, size_t n)
{
    return vg_p384_ecdh(s, sk, peer, n);
}
static int kem768_keypair(uint8_t *ek, uint8_t *dk, const uint8_t *dz)
{
    return vg_mlkem768_keypair_derand(ek, dk, dz);
}
static int kem1024_keypair(uint8_t *ek, uint8_t *dk, const uint8_t *dz)
{
    return vg_mlkem1024_keypair_derand(ek, dk, dz);
}
static int kem768_encaps(uint8_t *ct, uint8_t *ss, const uint8_t *ek, const uint8_t *m)
{
    return vg_mlkem768_encaps_derand(ct, ss, ek, m);
}
static int kem1024_encaps(uint8_t *ct, uint8_t *ss, const uint8_t *ek, const uint8_t *m)
{
    return vg_mlkem1024_encaps_derand(ct, ss, ek, m);
}
static int kem768_decaps(uint8_t *ss, const uint8_t *ct, const uint8_t *dk)
{
    return vg_mlkem768_decaps(ss, ct, dk);
}
static int kem1024_decaps(uint8_t *ss, const uint8_t *ct, const uint8_t *dk)
{
    return vg_mlkem1024_decaps(ss, ct, dk);
}

/* The group orders (FIPS 186-5 / SP 800-186 section 3.2.1.3 and 3.2.1.4). */
static const uint8_t g_n256[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
};
static const uint8_t g_n384[48] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc7, 0x63, 0x4d, 0x81, 0xf4, 0x37, 0x2d, 0xdf,
    0x58, 0x1a, 0x0d, 0xb2, 0x48, 0xb0, 0xa7, 0x7a, 0xec, 0xec, 0x19, 0x6a, 0xcc, 0xc5, 0x29, 0x73,
};

static const struct nist_hybrid g_p256mlkem768 = {
    g_n256, 32, 65, 1184, 2400, 1088, p256_public, p256_dh, kem768_keypair, kem768_encaps, kem768_decaps,
};
static const struct nist_hybrid g_p384mlkem1024 = {
    g_n384, 48, 97, 1568, 3168, 1568, p384_public, p384_dh, kem1024_keypair, kem1024_encaps,
    kem1024_decaps,
};

/* 1 when the big-endian scalar s is in [1, n-1], else 0, in constant time
 * (the borrow of s - n, and an OR of all bytes); used by the random forms to
 * draw a scalar again without computing a point for a rejected one. */
static uint64_t scalar_in_range(const struct nist_hybrid *h, const uint8_t *s)
{
    uint64_t borrow = 0, acc = 0;
    for (size_t i = h->nb; i-- > 0;) {
        uint64_t d = (uint64_t)s[i] - h->n[i] - borrow;
        borrow = (d >> 63) & 1;
        acc |= s[i];
    }
    /* borrow = 1 iff s < n; acc != 0 iff s != 0. */
    return borrow & ((acc + 0xff) >> 8);
}

/* The EC step of both sides on the peer's share: uncompressed only (the
 * draft), then the component's SEC 1 validation and ECDH. The peer's share
 * is public; the component declassifies only the validity of our scalar and
 * whether the x-coordinate is zero. */
static int nist_hybrid_dh(const struct nist_hybrid *h, uint8_t *shared, const uint8_t *sk,
                          const uint8_t *peer)
{
    if (peer[0] != 0x04)
        return VG_ERR_INPUT;
    return h->ec_dh(shared, sk, peer, h->pt);
}

static int nist_hybrid_keypair_derand(const struct nist_hybrid *h, uint8_t *pk, uint8_t *sk,
                                      const uint8_t *seed)
{
    int rc = VG_ERR_INPUT;
    if (!pk || !sk || !seed)
        goto out;
    /* seed = EC scalar (nb) || ML-KEM d || z (64). */
    rc = h->ec_public(pk, seed);
    if (rc != VG_OK)
        goto out;
    rc = h->kem_keypair(pk + h->pt, sk + h->nb, seed + h->nb);
    if (rc != VG_OK)
        goto out;
    memcpy(sk, seed, h->nb);
out:
    if (rc != VG_OK) {
        if (pk)
            vg_wipe(pk, PK_LEN(h));
        if (sk)
            vg_wipe(sk, SK_LEN(h));
    }
    return rc;
}

static int nist_hybrid_keypair(const struct nist_hybrid *h, uint8_t *pk, uint8_t *sk)
{
    uint8_t seed[48 + 64];
    int rc = VG_ERR_INPUT;
    if (!pk || !sk)
        goto out;
    /* A random scalar is >= n with probability about 2^-32 (P-256) or 2^-189
     * (P-384): draw it again then, as vg_p256_keypair does. Whether a
     * candidate is rejected says nothing about the one kept. */
    for (int tries = 0; tries < 64; tries++) {
        rc = vg_randombytes(seed, h->nb + 64);
        if (rc != VG_OK)
            goto out;
        uint64_t ok = scalar_in_range(h, seed);
        VG_CT_DECLASSIFY(&ok, sizeof ok); /* public: see above */
        rc = VG_ERR_RANDOM;
        if (ok) {
            rc = nist_hybrid_keypair_derand(h, pk, sk, seed);
            break;
        }
    }
out:
    vg_wipe(seed, sizeof seed);
    if (rc != VG_OK) {
        if (pk)
            vg_wipe(pk, PK_LEN(h));
        if (sk)
            vg_wipe(sk, SK_LEN(h));
    }
    return rc;
}

static int nist_hybrid_encaps_derand(const struct nist_hybrid *h, uint8_t *ct, uint8_t *ss,
                                     const uint8_t *pk, const uint8_t *eseed)
{
    int rc = VG_ERR_INPUT;
    if (!ct || !ss || !pk || !eseed)
        goto out;
    /* eseed = ephemeral EC scalar (nb) || ML-KEM m (32). */
    rc = h->ec_public(ct, eseed);
    if (rc != VG_OK)
        goto out;
    rc = nist_hybrid_dh(h, ss, eseed, pk);
    if (rc != VG_OK)
        goto out;
    /* ML-KEM encapsulation runs the FIPS 203 7.2 check of the ek. */
    rc = h->kem_encaps(ct + h->pt, ss + h->nb, pk + h->pt, eseed + h->nb);
out:
    if (rc != VG_OK) {
        if (ct)
            vg_wipe(ct, CT_LEN(h));
        if (ss)
            vg_wipe(ss, SS_LEN(h));
    }
    return rc;
}

static int nist_hybrid_encaps(const struct nist_hybrid *h, uint8_t *ct, uint8_t *ss,
                              const uint8_t *pk)
{
    uint8_t eseed[48 + 32];
    int rc = VG_ERR_INPUT;
    if (!ct || !ss || !pk)
        goto out;
    for (int tries = 0; tries < 64; tries++) {
        rc = vg_randombytes(eseed, h->nb + 32);
        if (rc != VG_OK)
            goto out;
        uint64_t ok = scalar_in_range(h, eseed);
        VG_CT_DECLASSIFY(&ok, sizeof ok); /* as in keypair */
        rc = VG_ERR_RANDOM;
        if (ok) {
            rc = nist_hybrid_encaps_derand(h, ct, ss, pk, eseed);
            break;
        }
    }
out:
    vg_wipe(eseed, sizeof eseed);
    if (rc != VG_OK) {
        if (ct)
            vg_wipe(ct, CT_LEN(h));
        if (ss)
            vg_wipe(ss, SS_LEN(h));
    }
    return rc;
}

static int nist_hybrid_decaps(const struct nist_hybrid *h, uint8_t *ss, const uint8_t *ct,
                              const uint8_t *sk)
{
    int rc = VG_ERR_INPUT;
    if (!ss || !ct || !sk)
        goto out;
    rc = nist_hybrid_dh(h, ss, sk, ct);
    if (rc != VG_OK)
        goto out;
    /* VG_ERR_INPUT when the dk fails the FIPS 203 7.3 check, else VG_OK
     * (implicit rejection of a bad ML-KEM ciphertext). */
    rc = h->kem_decaps(ss + h->nb, ct + h->pt, sk + h->nb);
out:
    if (rc != VG_OK && ss)
        vg_wipe(ss, SS_LEN(h));
    return rc;
}

/* ---- SecP256r1MLKEM768 ---------------------------------------------------- */

int vg_p256mlkem768_keypair_derand(uint8_t pk[1249], uint8_t sk[2432], const uint8_t seed[96])
{
    return nist_hybrid_keypair_derand(&g_p256mlkem768, pk, sk, seed);
}

int vg_p256mlkem768_keypair(uint8_t pk[1249], uint8_t sk[2432])
{
    return nist_hybrid_keypair(&g_p256mlkem768, pk, sk);
}

int vg_p256mlkem768_encaps_derand(uint8_t ct[1153], uint8_t ss[64], const uint8_t pk[1249],
                                  const uint8_t eseed[64])
{
    return nist_hybrid_encaps_derand(&g_p256mlkem768, ct, ss, pk, eseed);
}

int vg_p256mlkem768_encaps(uint8_t ct[1153], uint8_t ss[64], const uint8_t pk[1249])
{
    return nist_hybrid_encaps(&g_p256mlkem768, ct, ss, pk);
}

int vg_p256mlkem768_decaps(uint8_t ss[64], const uint8_t ct[1153], const uint8_t sk[2432])
{
    return nist_hybrid_decaps(&g_p256mlkem768, ss, ct, sk);
}

/* ---- SecP384r1MLKEM1024 --------------------------------------------------- */

int vg_p384mlkem1024_keypair_derand(uint8_t pk[1665], uint8_t sk[3216], const uint8_t seed[112])
{
    return nist_hybrid_keypair_derand(&g_p384mlkem1024, pk, sk, seed);
}

int vg_p384mlkem1024_keypair(uint8_t pk[1665], uint8_t sk[3216])
{
    return nist_hybrid_keypair(&g_p384mlkem1024, pk, sk);
}

int vg_p384mlkem1024_encaps_derand(uint8_t ct[1665], uint8_t ss[80], const uint8_t pk[1665],
                                   const uint8_t eseed[80])
{
    return nist_hybrid_encaps_derand(&g_p384mlkem1024, ct, ss, pk, eseed);
}

int vg_p384mlkem1024_encaps(uint8_t ct[1665], uint8_t ss[80], const uint8_t pk[1665])
{
    return nist_hybrid_encaps(&g_p384mlkem1024, ct, ss, pk);
}

int vg_p384mlkem1024_decaps(uint8_t ss[80], const uint8_t ct[1665], const uint8_t sk[3216])
{
    return nist_hybrid_decaps(&g_p384mlkem1024, ss, ct, sk);
}
