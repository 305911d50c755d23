/*
 * The public P-256 / P-384 functions (include/vgcrypto.h): argument checks
 * of DESIGN section 2 (NULL pointers, zeroed outputs), then the per-curve
 * code of src/nist/ecc.c; the DER converters for ECDSA signatures.
 */
#include <string.h>

#include "common.h"
#include "nist.h"
#include "nist_ecc.h"

/* Zero the n bytes at p when p is not NULL. */
static void wipe_opt(void *p, size_t n)
{
    if (p)
        vg_wipe(p, n);
}

/* ---- P-256 ---------------------------------------------------------------- */

int vg_p256_keypair(uint8_t pk[65], uint8_t sk[32])
{
    if (!pk || !sk) {
        wipe_opt(pk, 65);
        wipe_opt(sk, 32);
        return VG_ERR_INPUT;
    }
    return vg_nist_p256_keypair(pk, sk);
}

int vg_p256_public_key(uint8_t pk[65], const uint8_t sk[32])
{
    if (!pk || !sk) {
        wipe_opt(pk, 65);
        return VG_ERR_INPUT;
    }
    return vg_nist_p256_public_key(pk, sk);
}

int vg_p256_ecdh(uint8_t shared[32], const uint8_t sk[32], const uint8_t *peer, size_t peer_len)
{
    if (!shared || !sk || !peer) {
        wipe_opt(shared, 32);
        return VG_ERR_INPUT;
    }
    return vg_nist_p256_ecdh(shared, sk, peer, peer_len);
}

int vg_p256_sign_digest_derand(uint8_t sig[64], const uint8_t *digest, size_t digest_len,
                               const uint8_t sk[32], const uint8_t rnd[32])
{
    if (!sig || !digest || !sk || !rnd) {
        wipe_opt(sig, 64);
        return VG_ERR_INPUT;
    }
    return vg_nist_p256_sign_digest_derand(sig, digest, digest_len, sk, rnd);
}

int vg_p256_sign_digest(uint8_t sig[64], const uint8_t *digest, size_t digest_len,
                        const uint8_t sk[32])
{
    if (!sig || !digest || !sk) {
        wipe_opt(sig, 64);
        return VG_ERR_INPUT;
    }
    return vg_nist_p256_sign_digest(sig, digest, digest_len, sk);
}

int vg_p256_verify_digest(const uint8_t sig[64], const uint8_t *digest, size_t digest_len,
                          const uint8_t *pk, size_t pk_len)
{
    if (!sig || !digest || !pk)
        return VG_ERR_VERIFY;
    return vg_nist_p256_verify_digest(sig, digest, digest_len, pk, pk_len);
}

int vg_p256_sign(uint8_t sig[64], const uint8_t *msg, size_t msg_len, const uint8_t sk[32])
{
    uint8_t h[32];
    int rc;
    if (!sig || !sk || (!msg && msg_len)) {
        wipe_opt(sig, 64);
        return VG_ERR_INPUT;
    }
    rc = vg_sha256(h, msg, msg_len);
    if (rc == VG_OK)
        rc = vg_nist_p256_sign_digest(sig, h, sizeof h, sk);
    else
        vg_wipe(sig, 64);
    vg_wipe(h, sizeof h);
    return rc;
}

int vg_p256_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len, const uint8_t *pk,
                   size_t pk_len)
{
    uint8_t h[32];
    if (!sig || !pk || (!msg && msg_len))
        return VG_ERR_VERIFY;
    if (vg_sha256(h, msg, msg_len) != VG_OK)
        return VG_ERR_VERIFY;
    return vg_nist_p256_verify_digest(sig, h, sizeof h, pk, pk_len);
}

/* ---- P-384 ---------------------------------------------------------------- */

int vg_p384_keypair(uint8_t pk[97], uint8_t sk[48])
{
    if (!pk || !sk) {
        wipe_opt(pk, 97);
        wipe_opt(sk, 48);
        return VG_ERR_INPUT;
    }
    return vg_nist_p384_keypair(pk, sk);
}

int vg_p384_public_key(uint8_t pk[97], const uint8_t sk[48])
{
    if (!pk || !sk) {
        wipe_opt(pk, 97);
        return VG_ERR_INPUT;
    }
    return vg_nist_p384_public_key(pk, sk);
}

int vg_p384_ecdh(uint8_t shared[48], const uint8_t sk[48], const uint8_t *peer, size_t peer_len)
{
    if (!shared || !sk || !peer) {
        wipe_opt(shared, 48);
        return VG_ERR_INPUT;
    }
    return vg_nist_p384_ecdh(shared, sk, peer, peer_len);
}

int vg_p384_sign_digest_derand(uint8_t sig[96], const uint8_t *digest, size_t digest_len,
                               const uint8_t sk[48], const uint8_t rnd[48])
{
    if (!sig || !digest || !sk || !rnd) {
        wipe_opt(sig, 96);
        return VG_ERR_INPUT;
    }
    return vg_nist_p384_sign_digest_derand(sig, digest, digest_len, sk, rnd);
}

int vg_p384_sign_digest(uint8_t sig[96], const uint8_t *digest, size_t digest_len,
                        const uint8_t sk[48])
{
    if (!sig || !digest || !sk) {
        wipe_opt(sig, 96);
        return VG_ERR_INPUT;
    }
    return vg_nist_p384_sign_digest(sig, digest, digest_len, sk);
}

int vg_p384_verify_digest(const uint8_t sig[96], const uint8_t *digest, size_t digest_len,
                          const uint8_t *pk, size_t pk_len)
{
    if (!sig || !digest || !pk)
        return VG_ERR_VERIFY;
    return vg_nist_p384_verify_digest(sig, digest, digest_len, pk, pk_len);
}

int vg_p384_sign(uint8_t sig[96], const uint8_t *msg, size_t msg_len, const uint8_t sk[48])
{
    uint8_t h[48];
    int rc;
    if (!sig || !sk || (!msg && msg_len)) {
        wipe_opt(sig, 96);
        return VG_ERR_INPUT;
    }
    rc = vg_sha384(h, msg, msg_len);
    if (rc == VG_OK)
        rc = vg_nist_p384_sign_digest(sig, h, sizeof h, sk);
    else
        vg_wipe(sig, 96);
    vg_wipe(h, sizeof h);
    return rc;
}

int vg_p384_verify(const uint8_t sig[96], const uint8_t *msg, size_t msg_len, const uint8_t *pk,
                   size_t pk_len)
{
    uint8_t h[48];
    if (!sig || !pk || (!msg && msg_len))
        return VG_ERR_VERIFY;
    if (vg_sha384(h, msg, msg_len) != VG_OK)
        return VG_ERR_VERIFY;
    return vg_nist_p384_verify_digest(sig, h, sizeof h, pk, pk_len);
}

/* ---- DER (X.690 section 10, DER; SEC 1 C.5 / RFC 3279 2.2.3) ------------ */

/* Appends INTEGER v (w bytes, big-endian, unsigned) at der + *pos. */
static int der_put_int(uint8_t *der, size_t *pos, size_t cap, const uint8_t *v, size_t w)
{
    size_t i = 0;
    while (i < w && v[i] == 0)
        i++;
    if (i == w)
        return VG_ERR_INPUT; /* 0 is no valid r or s */
    size_t len = w - i, pad = (v[i] & 0x80) ? 1 : 0;
    if (*pos + 2 + pad + len > cap)
        return VG_ERR_INPUT;
    der[(*pos)++] = 0x02;
    der[(*pos)++] = (uint8_t)(len + pad);
    if (pad)
        der[(*pos)++] = 0x00;
    memcpy(der + *pos, v + i, len);
    *pos += len;
    return VG_OK;
}

int vg_ecdsa_sig_to_der(uint8_t *der, size_t *der_len, size_t der_cap, const uint8_t *sig,
                        size_t sig_len)
{
    size_t pos = 2;
    if (der_len)
        *der_len = 0;
    if (!der || !der_len || !sig || (sig_len != 64 && sig_len != 96) || der_cap < 2) {
        wipe_opt(der, der_cap);
        return VG_ERR_INPUT;
    }
    size_t w = sig_len / 2;
    /* Content at most 2 (2 + 49) = 102 bytes: the short length form. */
    if (der_put_int(der, &pos, der_cap, sig, w) != VG_OK ||
        der_put_int(der, &pos, der_cap, sig + w, w) != VG_OK) {
        vg_wipe(der, der_cap < pos ? der_cap : pos);
        return VG_ERR_INPUT;
    }
    der[0] = 0x30;
    der[1] = (uint8_t)(pos - 2);
    *der_len = pos;
    return VG_OK;
}

/* Reads INTEGER at der[*pos..end) into out (w bytes, right-aligned). */
static int der_get_int(uint8_t *out, size_t w, const uint8_t *der, size_t *pos, size_t end)
{
    if (end - *pos < 2 || der[*pos] != 0x02)
        return VG_ERR_INPUT;
    size_t len = der[*pos + 1];
    *pos += 2;
    /* The short form only (long forms would be BER here, len < 128), a
     * nonempty content inside the SEQUENCE. */
    if (len == 0 || len >= 0x80 || len > end - *pos)
        return VG_ERR_INPUT;
    const uint8_t *c = der + *pos;
    if (c[0] & 0x80)
        return VG_ERR_INPUT; /* negative */
    if (c[0] == 0x00) {
        if (len == 1 || !(c[1] & 0x80))
            return VG_ERR_INPUT; /* zero, or a leading 0x00 DER forbids */
        c++;
        len--;
    }
    if (len > w)
        return VG_ERR_INPUT;
    memset(out, 0, w - len);
    memcpy(out + w - len, c, len);
    *pos += (size_t)(c - (der + *pos)) + len;
    return VG_OK;
}

int vg_ecdsa_sig_from_der(uint8_t *sig, size_t sig_len, const uint8_t *der, size_t der_len)
{
    size_t pos = 2;
    if (!sig || (sig_len != 64 && sig_len != 96)) {
        if (sig && sig_len <= 96)
            vg_wipe(sig, sig_len);
        return VG_ERR_INPUT;
    }
    if (!der || der_len < 2 || der[0] != 0x30 || der[1] >= 0x80 || (size_t)der[1] != der_len - 2)
        goto fail;
    if (der_get_int(sig, sig_len / 2, der, &pos, der_len) != VG_OK ||
        der_get_int(sig + sig_len / 2, sig_len / 2, der, &pos, der_len) != VG_OK || pos != der_len)
        goto fail;
    return VG_OK;
fail:
    vg_wipe(sig, sig_len);
    return VG_ERR_INPUT;
}

/* ---- vg_implementation ----------------------------------------------------- */

const char *vg_nist_implementation(const char *primitive)
{
    if (strcmp(primitive, "p256") == 0)
        return vg_nist_p256_active()->name;
    if (strcmp(primitive, "p384") == 0)
        return vg_nist_p384_active()->name;
    return NULL;
}
