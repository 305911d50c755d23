/*
 * libFuzzer target: X-Wing and X25519MLKEM768 decapsulation of any
 * ciphertext, under keys derived from the input's first byte. Properties:
 *   X-Wing: VG_OK for every 1120-byte ciphertext (ML-KEM's implicit
 *     rejection; an all-zero X25519 value is not an error there), and the
 *     same secret twice;
 *   X25519MLKEM768: VG_OK, or VG_ERR_INPUT with the secret zeroed, which
 *     happens exactly when the X25519 value of the ciphertext's last 32
 *     bytes is all zero (vg_x25519 says which);
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
    return 0;
}
