/*
 * libFuzzer target: X-Wing, X25519MLKEM768, SecP256r1MLKEM768 and
 * SecP384r1MLKEM1024 decapsulation of any ciphertext, under keys derived
 * from the input's first byte. Properties:
 *   X-Wing: VG_OK for every 1120-byte ciphertext (ML-KEM's implicit
 *     rejection; an all-zero X25519 value is not an error there), and the
 *     same secret twice;
 *   X25519MLKEM768: VG_OK, or VG_ERR_INPUT with the secret zeroed, which
 *     happens exactly when the X25519 value of the ciphertext's last 32
 *     bytes is all zero (vg_x25519 says which);
 *   SecP256r1MLKEM768 / SecP384r1MLKEM1024: VG_OK, or VG_ERR_INPUT with the
 *     secret zeroed, which happens exactly when the ciphertext's leading
 *     point is rejected by vg_p256_ecdh / vg_p384_ecdh (or is not in the
 *     uncompressed form); on VG_OK the EC half equals that ECDH;
 *   an honest encapsulation (eseed from the input) decapsulates to its secret.
 * Any violation aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "vgcrypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

static uint8_t g_xpk[1216], g_hpk[1216], g_hsk[2432], g_ct[1120];
static uint8_t g_npk[1665], g_nsk[3216], g_nct[1665];

/* One NIST hybrid on the input: decaps of the bytes as a ciphertext, then an
 * honest round trip. */
static void nist_hybrid(const uint8_t *data, size_t size, size_t nb, size_t pt, size_t ctl,
                        int (*kp)(uint8_t *, uint8_t *, const uint8_t *),
                        int (*enc)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *),
                        int (*dec)(uint8_t *, const uint8_t *, const uint8_t *),
                        int (*dh)(uint8_t *, const uint8_t *, const uint8_t *, size_t))
{
    uint8_t seed[112], eseed[80] = {0}, ss[80], ss2[80], tmp[48];
    const size_t ssl = nb + 32;
    memset(seed, data[0] & 0x7f, sizeof seed);
    seed[nb - 1] |= 1; /* scalar in [1, n-1] */
    check(kp(g_npk, g_nsk, seed) == VG_OK);
    memset(g_nct, 0, sizeof g_nct);
    memcpy(g_nct, data + 1, size - 1 < ctl ? size - 1 : ctl);
    int rc = dec(ss, g_nct, g_nsk);
    int ok = g_nct[0] == 0x04 && dh(tmp, g_nsk, g_nct, pt) == VG_OK;
    if (!ok) {
        uint8_t acc = 0;
        for (size_t i = 0; i < ssl; i++)
            acc |= ss[i];
        check(rc == VG_ERR_INPUT && acc == 0);
    } else {
        check(rc == VG_OK && memcmp(ss, tmp, nb) == 0);
        check(dec(ss2, g_nct, g_nsk) == VG_OK && memcmp(ss, ss2, ssl) == 0);
    }
    memcpy(eseed, data + 1, size - 1 < nb + 32 ? size - 1 : nb + 32);
    eseed[0] &= 0x7f;
    eseed[nb - 1] |= 1; /* scalar in [1, n-1] */
    check(enc(g_nct, ss, g_npk, eseed) == VG_OK);
    check(dec(ss2, g_nct, g_nsk) == VG_OK && memcmp(ss, ss2, ssl) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t seed[96] = {0}, xsk[32], ss[64], ss2[64], eseed[64] = {0}, tmp[32];
    if (size == 0)
        return 0;
    memset(seed, data[0], sizeof seed);
    check(vg_xwing_keypair_derand(g_xpk, xsk, seed) == VG_OK);
    check(vg_x25519mlkem768_keypair_derand(g_hpk, g_hsk, seed) == VG_OK);
    memset(g_ct, 0, sizeof g_ct);
    memcpy(g_ct, data + 1, size - 1 < sizeof g_ct ? size - 1 : sizeof g_ct);

    check(vg_xwing_decaps(ss, g_ct, xsk) == VG_OK);
    check(vg_xwing_decaps(ss2, g_ct, xsk) == VG_OK && memcmp(ss, ss2, 32) == 0);

    int rc = vg_x25519mlkem768_decaps(ss, g_ct, g_hsk);
    int zero = vg_x25519(tmp, g_hsk + 2400, g_ct + 1088) == VG_ERR_INPUT;
    if (zero) {
        uint8_t acc = 0;
        for (int i = 0; i < 64; i++)
            acc |= ss[i];
        check(rc == VG_ERR_INPUT && acc == 0);
    } else {
        check(rc == VG_OK && memcmp(ss + 32, tmp, 32) == 0);
    }

    /* An honest round trip with the input as eseed. */
    memcpy(eseed, data + 1, size - 1 < sizeof eseed ? size - 1 : sizeof eseed);
    check(vg_xwing_encaps_derand(g_ct, ss, g_xpk, eseed) == VG_OK);
    check(vg_xwing_decaps(ss2, g_ct, xsk) == VG_OK && memcmp(ss, ss2, 32) == 0);
    rc = vg_x25519mlkem768_encaps_derand(g_ct, ss, g_hpk, eseed);
    check(rc == VG_OK); /* our own X25519 key is not of small order */
    check(vg_x25519mlkem768_decaps(ss2, g_ct, g_hsk) == VG_OK && memcmp(ss, ss2, 64) == 0);

    nist_hybrid(data, size, 32, 65, 1153, vg_p256mlkem768_keypair_derand,
                vg_p256mlkem768_encaps_derand, vg_p256mlkem768_decaps, vg_p256_ecdh);
    nist_hybrid(data, size, 48, 97, 1665, vg_p384mlkem1024_keypair_derand,
                vg_p384mlkem1024_encaps_derand, vg_p384mlkem1024_decaps, vg_p384_ecdh);
    return 0;
}
