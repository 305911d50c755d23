/*
 * X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem, TLS group 0x11EC) as a KEM.
 *
 * The draft's section "Construction": the client's key share (pk here) is
 * the ML-KEM-768 encapsulation key (1184 bytes) followed by the client's
 * X25519 public key (32); the server's key share (ct here) is the ML-KEM-768
 * ciphertext (1088) followed by the server's ephemeral X25519 public key (32);
 * the shared secret is the ML-KEM shared secret (32) followed by the X25519
 * shared secret (32). ML-KEM comes first in all three, unlike the two NIST
 * curve groups.
 *
 * Our secret key is the ML-KEM-768 decapsulation key (2400 bytes, FIPS 203
 * form) followed by the X25519 secret (32), so decapsulation needs no key
 * expansion. Input checks of the draft: the server (encaps) runs the FIPS 203
 * 7.2 encapsulation key check; both sides reject an all-zero X25519 value
 * (RFC 8446 7.4.2, RFC 7748 6.1); failures give VG_ERR_INPUT with the
 * outputs zeroed (DESIGN section 2).
 */
#include "common.h"

#define MLKEM_EK 1184
#define MLKEM_DK 2400
#define MLKEM_CT 1088

/* The X25519 step of both sides: shared = X25519(secret, peer), VG_ERR_INPUT
 * for an all-zero result. Whether X25519 with a clamped scalar (a multiple
 * of the cofactor 8) gives zero depends only on the peer's point having small
 * order, i.e. on the peer's public share, not on our secret: the verdict is
 * public and may steer the caller's branch. */
static int x25519_checked(uint8_t shared[32], const uint8_t secret[32], const uint8_t peer[32])
{
    int rc = vg_x25519(shared, secret, peer);
    VG_CT_DECLASSIFY(&rc, sizeof rc); /* public: see above */
    return rc;
}

int vg_x25519mlkem768_keypair_derand(uint8_t pk[1216], uint8_t sk[2432], const uint8_t seed[96])
{
    int rc = VG_ERR_INPUT;
    if (!pk || !sk || !seed)
        goto out;
    /* seed = ML-KEM-768's d || z (64) || the X25519 secret (32). */
    rc = vg_mlkem768_keypair_derand(pk, sk, seed);
    if (rc != VG_OK)
        goto out;
    memcpy(sk + MLKEM_DK, seed + 64, 32);
    rc = vg_x25519_public_key(pk + MLKEM_EK, sk + MLKEM_DK);
out:
    if (rc != VG_OK) {
        if (pk)
            vg_wipe(pk, VG_X25519MLKEM768_PUBLICKEYBYTES);
        if (sk)
            vg_wipe(sk, VG_X25519MLKEM768_SECRETKEYBYTES);
    }
    return rc;
}

int vg_x25519mlkem768_keypair(uint8_t pk[1216], uint8_t sk[2432])
{
    uint8_t seed[96];
    int rc = VG_ERR_INPUT;
    if (!pk || !sk)
        goto out;
    rc = vg_randombytes(seed, sizeof seed);
    if (rc == VG_OK)
        rc = vg_x25519mlkem768_keypair_derand(pk, sk, seed);
out:
    vg_wipe(seed, sizeof seed);
    if (rc != VG_OK) {
        if (pk)
            vg_wipe(pk, VG_X25519MLKEM768_PUBLICKEYBYTES);
        if (sk)
            vg_wipe(sk, VG_X25519MLKEM768_SECRETKEYBYTES);
    }
    return rc;
}

int vg_x25519mlkem768_encaps_derand(uint8_t ct[1120], uint8_t ss[64], const uint8_t pk[1216],
                                    const uint8_t eseed[64])
{
    int rc = VG_ERR_INPUT;
    if (!ct || !ss || !pk || !eseed)
        goto out;
    /* eseed = ML-KEM's m (32) || the server's ephemeral X25519 secret (32).
     * ML-KEM first: its encapsulation runs the FIPS 203 7.2 check. */
    rc = vg_mlkem768_encaps_derand(ct, ss, pk, eseed);
    if (rc != VG_OK)
        goto out;
    rc = vg_x25519_public_key(ct + MLKEM_CT, eseed + 32);
    if (rc != VG_OK)
        goto out;
    rc = x25519_checked(ss + 32, eseed + 32, pk + MLKEM_EK);
out:
    if (rc != VG_OK) {
        if (ct)
            vg_wipe(ct, VG_X25519MLKEM768_CIPHERTEXTBYTES);
        if (ss)
            vg_wipe(ss, VG_X25519MLKEM768_SHAREDSECRETBYTES);
    }
    return rc;
}

int vg_x25519mlkem768_encaps(uint8_t ct[1120], uint8_t ss[64], const uint8_t pk[1216])
{
    uint8_t eseed[64];
    int rc = VG_ERR_INPUT;
    if (!ct || !ss || !pk)
        goto out;
    rc = vg_randombytes(eseed, sizeof eseed);
    if (rc == VG_OK)
        rc = vg_x25519mlkem768_encaps_derand(ct, ss, pk, eseed);
out:
    vg_wipe(eseed, sizeof eseed);
    if (rc != VG_OK) {
        if (ct)
            vg_wipe(ct, VG_X25519MLKEM768_CIPHERTEXTBYTES);
        if (ss)
            vg_wipe(ss, VG_X25519MLKEM768_SHAREDSECRETBYTES);
    }
    return rc;
}

int vg_x25519mlkem768_decaps(uint8_t ss[64], const uint8_t ct[1120], const uint8_t sk[2432])
{
    int rc = VG_ERR_INPUT;
    if (!ss || !ct || !sk)
        goto out;
    /* ML-KEM-768 decapsulation: VG_ERR_INPUT when the dk fails the FIPS 203
     * 7.3 hash check, otherwise VG_OK (implicit rejection of a bad ct). */
    rc = vg_mlkem768_decaps(ss, ct, sk);
    if (rc != VG_OK)
        goto out;
    rc = x25519_checked(ss + 32, sk + MLKEM_DK, ct + MLKEM_CT);
out:
    if (rc != VG_OK && ss)
        vg_wipe(ss, VG_X25519MLKEM768_SHAREDSECRETBYTES);
    return rc;
}
