/*
 * libFuzzer target: P-256 / P-384 inputs from outside (src/nist).
 *
 * Input: byte 0 picks the curve (bit 0) and the mode (bits 1-2, mod 3);
 * the rest is the mode's data:
 *   mode 0, ECDH peer-key decoding (SEC 1 2.3.4): the rest is the peer's
 *          public key, any length, with a fixed valid secret key;
 *          rc must be VG_OK or VG_ERR_INPUT, the shared secret zeroed on
 *          VG_ERR_INPUT and not all zero on VG_OK; an uncompressed key
 *          accepted must also be accepted compressed (the same x and
 *          y's parity) with the same result;
 *   mode 1, verification: a digest-length byte (1..64, others fold into it),
 *          then the signature (2 NB bytes, cut or zero-padded), the digest,
 *          and the public key = the rest; vg_pNNN_verify_digest must return
 *          VG_OK or VG_ERR_VERIFY, the same twice;
 *   mode 2, DER parsing: the rest is a DER signature; vg_ecdsa_sig_from_der
 *          must return VG_OK or VG_ERR_INPUT (sig zeroed), and when it
 *          accepts, vg_ecdsa_sig_to_der must give back exactly the input
 *          (strict DER has one encoding per value).
 * Every buffer handed to the library is a heap block of exactly its length.
 */
#include <stdlib.h>
#include <string.h>

#include "vgcrypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
    uint8_t *b = malloc(n ? n : 1);
    if (!b)
        abort();
    if (n)
        memcpy(b, p, n);
    return b;
}

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static void mode_ecdh(int c, const uint8_t *d, size_t n)
{
    size_t nb = c ? 48 : 32;
    uint8_t sk[48], shared[48], shared2[48];
    memset(sk, 0x35, nb); /* below n on both curves */
    uint8_t *peer = dup_exact(d, n);
    int rc = c ? vg_p384_ecdh(shared, sk, peer, n) : vg_p256_ecdh(shared, sk, peer, n);
    if (rc != VG_OK && rc != VG_ERR_INPUT)
        abort();
    if (rc == VG_ERR_INPUT && !all_zero(shared, nb))
        abort();
    if (rc == VG_OK && all_zero(shared, nb))
        abort();
    if (rc == VG_OK && n == 1 + 2 * nb) {
        uint8_t *comp = dup_exact(d, 1 + nb);
        comp[0] = (uint8_t)(2 | (d[2 * nb] & 1));
        int rc2 = c ? vg_p384_ecdh(shared2, sk, comp, 1 + nb)
                    : vg_p256_ecdh(shared2, sk, comp, 1 + nb);
        if (rc2 != VG_OK || memcmp(shared, shared2, nb) != 0)
            abort();
        free(comp);
    }
    free(peer);
}

static void mode_verify(int c, const uint8_t *d, size_t n)
{
    size_t nb = c ? 48 : 32;
    if (n < 1)
        return;
    size_t dl = 1 + d[0] % 64;
    d++, n--;
    uint8_t *sig = calloc(1, 2 * nb), *dg = calloc(1, dl);
    if (!sig || !dg)
        abort();
    size_t t = n < 2 * nb ? n : 2 * nb;
    memcpy(sig, d, t);
    d += t, n -= t;
    t = n < dl ? n : dl;
    memcpy(dg, d, t);
    d += t, n -= t;
    uint8_t *pk = dup_exact(d, n);
    int r1 = c ? vg_p384_verify_digest(sig, dg, dl, pk, n) : vg_p256_verify_digest(sig, dg, dl, pk, n);
    int r2 = c ? vg_p384_verify_digest(sig, dg, dl, pk, n) : vg_p256_verify_digest(sig, dg, dl, pk, n);
    if ((r1 != VG_OK && r1 != VG_ERR_VERIFY) || r1 != r2)
        abort();
    free(sig);
    free(dg);
    free(pk);
}

static void mode_der(int c, const uint8_t *d, size_t n)
{
    size_t sl = c ? 96 : 64;
    uint8_t sig[96], back[128];
    size_t bl = 0;
    uint8_t *der = dup_exact(d, n);
    memset(sig, 0xaa, sizeof sig);
    int rc = vg_ecdsa_sig_from_der(sig, sl, der, n);
    if (rc != VG_OK && rc != VG_ERR_INPUT)
        abort();
    if (rc == VG_ERR_INPUT && !all_zero(sig, sl))
        abort();
    if (rc == VG_OK) {
        if (vg_ecdsa_sig_to_der(back, &bl, sizeof back, sig, sl) != VG_OK || bl != n ||
            memcmp(back, d, n) != 0)
            abort();
    }
    free(der);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int c = data[0] & 1, mode = ((data[0] >> 1) & 3) % 3;
    if (mode == 0)
        mode_ecdh(c, data + 1, size - 1);
    else if (mode == 1)
        mode_verify(c, data + 1, size - 1);
    else
        mode_der(c, data + 1, size - 1);
    return 0;
}
