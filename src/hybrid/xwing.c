/*
 * X-Wing (draft-connolly-cfrg-xwing-kem, the version whose decapsulation key
 * is a 32-byte seed expanded with SHAKE256; the MLKEM768-X25519 of
 * draft-irtf-cfrg-concrete-hybrid-kems): ML-KEM-768 and X25519 joined by the
 * SHA3-256 combiner of the draft's section "Combiner".
 *
 * The components are the library's own: the public ML-KEM-768 and X25519
 * functions (each picks the fastest variant once per call) and the Keccak
 * sponge of hash/keccak.h for SHAKE256 and SHA3-256. Nothing here branches on
 * or indexes by a secret.
 */
#include "common.h"
#include "../hash/keccak.h"

/* Sizes of the components (FIPS 203 for ML-KEM-768, RFC 7748 for X25519). */
#define MLKEM_EK 1184
#define MLKEM_DK 2400
#define MLKEM_CT 1088
#define X_BYTES 32

/* XWingLabel, the 6 bytes "\./" "/^\" of the draft (hex 5c2e2f2f5e5c). */
static const uint8_t g_xwing_label[6] = {0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c};

/* Combiner(ss_M, ss_X, ct_X, pk_X) = SHA3-256(ss_M || ss_X || ct_X || pk_X ||
 * XWingLabel), the draft's section "Combiner"; absorbed piecewise, so the
 * 134-byte concatenation never sits in a buffer of its own. */
static void xwing_combiner(uint8_t ss[32], const uint8_t ss_m[32], const uint8_t ss_x[32],
                           const uint8_t ct_x[32], const uint8_t pk_x[32])
{
    vg_keccak_ctx h;
    vg_sha3_256_ctx_init(&h);
    vg_keccak_absorb(&h, ss_m, 32);
    vg_keccak_absorb(&h, ss_x, 32);
    vg_keccak_absorb(&h, ct_x, 32);
    vg_keccak_absorb(&h, pk_x, 32);
    vg_keccak_absorb(&h, g_xwing_label, sizeof g_xwing_label);
    vg_sha3_final(&h, ss, 32); /* wipes h */
}

/* expandDecapsulationKey(sk) of the draft: expanded = SHAKE256(sk, 96 bytes);
 * (pk_M, sk_M) = ML-KEM-768.KeyGen_internal(expanded[0:32], expanded[32:64]);
 * sk_X = expanded[64:96]; pk_X = X25519(sk_X, base). pk_m may be the first
 * 1184 bytes of the X-Wing public key and pk_x its last 32. */
static int xwing_expand(uint8_t pk_m[MLKEM_EK], uint8_t dk_m[MLKEM_DK], uint8_t sk_x[32],
                        uint8_t pk_x[32], const uint8_t sk[32])
{
    uint8_t expanded[96];
    vg_keccak_ctx h;
    int rc;
    vg_shake256_ctx_init(&h);
    vg_keccak_absorb(&h, sk, 32);
    vg_keccak_finalize(&h);
    vg_keccak_squeeze(&h, expanded, sizeof expanded);
    vg_wipe(&h, sizeof h);
    /* ML-KEM's keypair_derand takes d || z, the draft's expanded[0:64]. */
    rc = vg_mlkem768_keypair_derand(pk_m, dk_m, expanded);
    memcpy(sk_x, expanded + 64, 32);
    if (rc == VG_OK)
        rc = vg_x25519_public_key(pk_x, sk_x);
    vg_wipe(expanded, sizeof expanded);
    return rc;
}

int vg_xwing_keypair_derand(uint8_t pk[1216], uint8_t sk[32], const uint8_t seed[32])
{
    uint8_t dk_m[MLKEM_DK], sk_x[32];
    int rc = VG_ERR_INPUT;
    if (!pk || !sk || !seed)
        goto out;
    /* GenerateKeyPairDerand: the decapsulation key is the seed itself; the
     * encapsulation key is pk_M || pk_X. */
    rc = xwing_expand(pk, dk_m, sk_x, pk + MLKEM_EK, seed);
    if (rc == VG_OK)
        memmove(sk, seed, 32); /* seed and sk may be the same buffer */
out:
    vg_wipe(dk_m, sizeof dk_m);
    vg_wipe(sk_x, sizeof sk_x);
    if (rc != VG_OK) {
        if (pk)
            vg_wipe(pk, VG_XWING_PUBLICKEYBYTES);
        if (sk)
            vg_wipe(sk, VG_XWING_SECRETKEYBYTES);
    }
    return rc;
}

int vg_xwing_keypair(uint8_t pk[1216], uint8_t sk[32])
{
    uint8_t seed[32];
    int rc = VG_ERR_INPUT;
    if (!pk || !sk)
        goto out;
    rc = vg_randombytes(seed, sizeof seed);
    if (rc == VG_OK)
        rc = vg_xwing_keypair_derand(pk, sk, seed);
out:
    vg_wipe(seed, sizeof seed);
    if (rc != VG_OK) {
        if (pk)
            vg_wipe(pk, VG_XWING_PUBLICKEYBYTES);
        if (sk)
            vg_wipe(sk, VG_XWING_SECRETKEYBYTES);
    }
    return rc;
}

int vg_xwing_encaps_derand(uint8_t ct[1120], uint8_t ss[32], const uint8_t pk[1216],
                           const uint8_t eseed[64])
{
    uint8_t ss_m[32], ss_x[32], ct_x[32];
    const uint8_t *pk_x = pk ? pk + MLKEM_EK : NULL;
    int rc = VG_ERR_INPUT;
    if (!ct || !ss || !pk || !eseed)
        goto out;
    /* EncapsulateDerand: ek_X = eseed[32:64], m = eseed[0:32]. ML-KEM's
     * encapsulation runs the FIPS 203 7.2 key check the draft requires and
     * returns VG_ERR_INPUT when pk_M fails it. */
    rc = vg_mlkem768_encaps_derand(ct, ss_m, pk, eseed);
    if (rc != VG_OK)
        goto out;
    rc = vg_x25519_public_key(ct_x, eseed + 32);
    if (rc != VG_OK)
        goto out;
    /* The draft takes ss_X = X25519(ek_X, pk_X) as it comes: an all-zero
     * value (pk_X of small order) is not an error for X-Wing, whose combiner
     * binds ct_X and pk_X (the draft's security considerations), so the
     * VG_ERR_INPUT of vg_x25519 for that case is deliberately ignored; the
     * shared value is written in every case. */
    (void)vg_x25519(ss_x, eseed + 32, pk_x);
    xwing_combiner(ss, ss_m, ss_x, ct_x, pk_x);
    memcpy(ct + MLKEM_CT, ct_x, 32);
out:
    vg_wipe(ss_m, sizeof ss_m);
    vg_wipe(ss_x, sizeof ss_x);
    vg_wipe(ct_x, sizeof ct_x);
    if (rc != VG_OK) {
        if (ct)
            vg_wipe(ct, VG_XWING_CIPHERTEXTBYTES);
        if (ss)
            vg_wipe(ss, VG_XWING_SHAREDSECRETBYTES);
    }
    return rc;
}

int vg_xwing_encaps(uint8_t ct[1120], uint8_t ss[32], const uint8_t pk[1216])
{
    uint8_t eseed[64];
    int rc = VG_ERR_INPUT;
    if (!ct || !ss || !pk)
        goto out;
    /* Encapsulate(pk) = EncapsulateDerand(pk, random(64)) (the draft). */
    rc = vg_randombytes(eseed, sizeof eseed);
    if (rc == VG_OK)
        rc = vg_xwing_encaps_derand(ct, ss, pk, eseed);
out:
    vg_wipe(eseed, sizeof eseed);
    if (rc != VG_OK) {
        if (ct)
            vg_wipe(ct, VG_XWING_CIPHERTEXTBYTES);
        if (ss)
            vg_wipe(ss, VG_XWING_SHAREDSECRETBYTES);
    }
    return rc;
}

int vg_xwing_decaps(uint8_t ss[32], const uint8_t ct[1120], const uint8_t sk[32])
{
    struct {
        uint8_t pk_m[MLKEM_EK], dk_m[MLKEM_DK];
        uint8_t sk_x[32], pk_x[32], ss_m[32], ss_x[32];
    } ws;
    int rc = VG_ERR_INPUT;
    if (!ss || !ct || !sk)
        goto out;
    rc = xwing_expand(ws.pk_m, ws.dk_m, ws.sk_x, ws.pk_x, sk);
    if (rc != VG_OK)
        goto out;
    /* ML-KEM decapsulation: implicit rejection for a bad ct_M, so VG_OK for
     * any ciphertext; the 7.3 hash check it runs cannot fail on a key we
     * have just generated (the draft does not require it). */
    rc = vg_mlkem768_decaps(ws.ss_m, ct, ws.dk_m);
    if (rc != VG_OK)
        goto out;
    /* ss_X as it comes, all-zero included (see vg_xwing_encaps_derand). */
    (void)vg_x25519(ws.ss_x, ws.sk_x, ct + MLKEM_CT);
    xwing_combiner(ss, ws.ss_m, ws.ss_x, ct + MLKEM_CT, ws.pk_x);
out:
    vg_wipe(&ws, sizeof ws);
    if (rc != VG_OK && ss)
        vg_wipe(ss, VG_XWING_SHAREDSECRETBYTES);
    return rc;
}
