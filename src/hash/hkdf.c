/*
 * HKDF over SHA-256, SHA-384 and SHA-512: extract, expand and the one-shot
 * extract-then-expand, written once over the HMAC descriptors of hmac.h.
 *
 * Specification: RFC 5869 sections 2.2 (extract) and 2.3 (expand).
 *
 * Constant time: branches depend only on lengths. PRK, the keyed HMAC
 * states and every T(i) are wiped before return.
 */
#include "common.h"
#include "hmac.h"

/* RFC 5869 2.2: PRK = HMAC-Hash(salt, IKM). An absent salt is HashLen zero
 * bytes, and HMAC pads a short key with zeros to the block, so the empty
 * salt gives the same K0: no special case.
 * VG_ERR_INPUT (prk zeroed when given) for a NULL prk, a NULL salt or ikm
 * with a nonzero length, or lengths over the hash's limit. */
static int hkdf_extract(const struct vg_hmac_hash *h, uint8_t *prk, const uint8_t *salt,
                        size_t salt_len, const uint8_t *ikm, size_t ikm_len)
{
    vg_hmac_hash_ctx inner, outer;
    if (!prk || (!salt && salt_len) || (!ikm && ikm_len) || (uint64_t)salt_len > h->max_bytes ||
        (uint64_t)ikm_len > h->max_bytes - h->block_len) {
        if (prk)
            vg_wipe(prk, h->out_len);
        return VG_ERR_INPUT;
    }
    vg_hmac_key(h, &inner, &outer, salt, salt_len);
    h->update(&inner, ikm, ikm_len);
    vg_hmac_finish(h, &inner, &outer, prk); /* wipes inner and outer */
    return VG_OK;
}

/* RFC 5869 2.3: T(0) empty, T(i) = HMAC-Hash(PRK, T(i-1) || info || i),
 * out = the first out_len bytes of T(1) || T(2) || ..., N = ceil(L / HashLen)
 * <= 255. The HMAC keyed with PRK once and copied for each T(i). prk is
 * read only before out is written, so out may overlap prk.
 * VG_ERR_INPUT (out zeroed when given) for a NULL out with out_len > 0, a
 * NULL prk, a NULL info with info_len > 0, out_len > 255 * HashLen, or an
 * info too long for the hash (B + HashLen + info + 1 bytes). */
static int hkdf_expand(const struct vg_hmac_hash *h, uint8_t *out, size_t out_len,
                       const uint8_t *prk, const uint8_t *info, size_t info_len)
{
    vg_hmac_hash_ctx base_in, base_out, inner, outer;
    uint8_t t[64];
    size_t hl = h->out_len;
    if (!out && out_len)
        return VG_ERR_INPUT;
    if (!prk || (!info && info_len) || out_len > 255 * hl ||
        (uint64_t)info_len > h->max_bytes - h->block_len - hl - 1) {
        if (out_len)
            vg_wipe(out, out_len);
        return VG_ERR_INPUT;
    }
    if (out_len == 0)
        return VG_OK;
    vg_hmac_key(h, &base_in, &base_out, prk, hl);
    for (size_t done = 0, i = 1; done < out_len; i++) {
        uint8_t ctr = (uint8_t)i; /* i <= 255 by the out_len check */
        size_t n = out_len - done < hl ? out_len - done : hl;
        inner = base_in;
        outer = base_out;
        if (i > 1)
            h->update(&inner, t, hl);
        h->update(&inner, info, info_len);
        h->update(&inner, &ctr, 1);
        vg_hmac_finish(h, &inner, &outer, t); /* wipes inner and outer */
        memcpy(out + done, t, n);
        done += n;
    }
    vg_wipe(&base_in, sizeof base_in);
    vg_wipe(&base_out, sizeof base_out);
    vg_wipe(t, sizeof t);
    return VG_OK;
}

/* Extract then expand, every argument checked before any work so that a
 * rejected call leaves out zeroed whatever failed. */
static int hkdf(const struct vg_hmac_hash *h, uint8_t *out, size_t out_len, const uint8_t *salt,
                size_t salt_len, const uint8_t *ikm, size_t ikm_len, const uint8_t *info,
                size_t info_len)
{
    uint8_t prk[64];
    int rc = VG_ERR_INPUT;
    if (!out && out_len)
        return VG_ERR_INPUT;
    if ((!info && info_len) || out_len > 255 * h->out_len ||
        (uint64_t)info_len > h->max_bytes - h->block_len - h->out_len - 1) {
        if (out_len)
            vg_wipe(out, out_len);
        goto out;
    }
    rc = hkdf_extract(h, prk, salt, salt_len, ikm, ikm_len);
    if (rc != VG_OK) {
        if (out_len)
            vg_wipe(out, out_len);
        goto out;
    }
    rc = hkdf_expand(h, out, out_len, prk, info, info_len);
out:
    vg_wipe(prk, sizeof prk);
    return rc;
}

int vg_hkdf_sha256_extract(uint8_t prk[32], const uint8_t *salt, size_t salt_len,
                           const uint8_t *ikm, size_t ikm_len)
{
    return hkdf_extract(&vg_hmac_sha256_hash, prk, salt, salt_len, ikm, ikm_len);
}

int vg_hkdf_sha256_expand(uint8_t *out, size_t out_len, const uint8_t prk[32],
                          const uint8_t *info, size_t info_len)
{
    return hkdf_expand(&vg_hmac_sha256_hash, out, out_len, prk, info, info_len);
}

int vg_hkdf_sha256(uint8_t *out, size_t out_len, const uint8_t *salt, size_t salt_len,
                   const uint8_t *ikm, size_t ikm_len, const uint8_t *info, size_t info_len)
{
    return hkdf(&vg_hmac_sha256_hash, out, out_len, salt, salt_len, ikm, ikm_len, info, info_len);
}

int vg_hkdf_sha384_extract(uint8_t prk[48], const uint8_t *salt, size_t salt_len,
                           const uint8_t *ikm, size_t ikm_len)
{
    return hkdf_extract(&vg_hmac_sha384_hash, prk, salt, salt_len, ikm, ikm_len);
}

int vg_hkdf_sha384_expand(uint8_t *out, size_t out_len, const uint8_t prk[48],
                          const uint8_t *info, size_t info_len)
{
    return hkdf_expand(&vg_hmac_sha384_hash, out, out_len, prk, info, info_len);
}

int vg_hkdf_sha384(uint8_t *out, size_t out_len, const uint8_t *salt, size_t salt_len,
                   const uint8_t *ikm, size_t ikm_len, const uint8_t *info, size_t info_len)
{
    return hkdf(&vg_hmac_sha384_hash, out, out_len, salt, salt_len, ikm, ikm_len, info, info_len);
}

int vg_hkdf_sha512_extract(uint8_t prk[64], const uint8_t *salt, size_t salt_len,
                           const uint8_t *ikm, size_t ikm_len)
{
    return hkdf_extract(&vg_hmac_sha512_hash, prk, salt, salt_len, ikm, ikm_len);
}

int vg_hkdf_sha512_expand(uint8_t *out, size_t out_len, const uint8_t prk[64],
                          const uint8_t *info, size_t info_len)
{
    return hkdf_expand(&vg_hmac_sha512_hash, out, out_len, prk, info, info_len);
}

int vg_hkdf_sha512(uint8_t *out, size_t out_len, const uint8_t *salt, size_t salt_len,
                   const uint8_t *ikm, size_t ikm_len, const uint8_t *info, size_t info_len)
{
    return hkdf(&vg_hmac_sha512_hash, out, out_len, salt, salt_len, ikm, ikm_len, info, info_len);
}
