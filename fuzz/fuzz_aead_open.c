/*
 * libFuzzer target: ChaCha20-Poly1305 (RFC 8439 2.8) and XChaCha20-Poly1305
 * (draft-irtf-cfrg-xchacha-03 2.3) open on any key, nonce, AD, ciphertext
 * and tag, for every implementation pair the build and CPU have.
 *
 * Input: byte 0 picks the AEAD (bit 0: XChaCha), in place (bit 1) and the
 * mode (bit 2); then key (32), nonce (24; ChaCha20-Poly1305 uses the first
 * 12), an AD length byte; the rest feeds the mode (each field cut or
 * zero-padded to its length when the input is short):
 *   mode 0 (arbitrary bytes): AD, then the ciphertext, the last 16 bytes
 *          being the tag. Almost every input is a rejection;
 *   mode 1 (a valid message, then one change): the rest is AD || a
 *          plaintext || a selector byte; the plaintext is sealed here with
 *          the dispatched seal, and the selector picks what to change
 *          (ciphertext, tag, AD or nothing) and where: one bit flipped.
 * Every buffer handed to the library is a heap block of exactly its length
 * (NULL for an empty AD or message), so that ASan sees a read or write one
 * byte past any of them.
 *
 * Checks (abort on failure), with R = the public open's result:
 *  - R is VG_OK or VG_ERR_VERIFY;
 *  - R is the verdict of the construction written out here from RFC 8439
 *    2.8 (draft-irtf-cfrg-xchacha 2.3 for XChaCha: HChaCha20 subkey and
 *    nonce 0^32 || nonce[16..23]): the Poly1305 key from ChaCha20 block 0
 *    (2.6), Poly1305 over AD || pad16 || ct || pad16 || le64 lengths, both
 *    through the public vg_chacha20 and vg_poly1305, compared with the tag;
 *  - on VG_ERR_VERIFY every byte of pt is zero (pt was filled with 0xa5);
 *  - on VG_OK pt is the ChaCha20 decryption (counter 1) and a re-seal of
 *    pt gives back the same ciphertext and tag;
 *  - every ChaCha20 x Poly1305 pair through vg_aead_open_impl gives the same
 *    result and the same pt bytes as the dispatched open;
 *  - the inputs are not written to (ciphertext, tag, AD, key, nonce);
 *  - mode 1: the unchanged message opens (seal-then-open); any one-bit
 *    change to ciphertext, tag or AD is rejected (a change that verified
 *    would be a Poly1305 forgery, probability about 2^-100 per input).
 */
#include <stdlib.h>
#include <string.h>

#include "aead/aead.h"
#include "common.h"
#include "vgcrypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

/* A heap copy of exactly n bytes (NULL for n == 0), from src (zero-padded
 * past src_len). */
static uint8_t *dup_exact(const uint8_t *src, size_t src_len, size_t n)
{
    if (n == 0)
        return NULL;
    uint8_t *p = malloc(n);
    check(p != NULL);
    memset(p, 0, n);
    if (src && src_len)
        memcpy(p, src, src_len < n ? src_len : n);
    return p;
}

/* A cursor over the fuzz input: fields are cut or zero-padded. */
struct reader {
    const uint8_t *p;
    size_t n;
};

static void take(struct reader *r, uint8_t *out, size_t len)
{
    size_t k = r->n < len ? r->n : len;
    memset(out, 0, len);
    if (k)
        memcpy(out, r->p, k);
    r->p += k;
    r->n -= k;
}

/* The ChaCha20 key and 12-byte nonce the AEAD runs ChaCha20 with (RFC 8439
 * 2.8; XChaCha: draft-irtf-cfrg-xchacha-03 2.3). */
static void chacha_key_nonce(int x, const uint8_t key[32], const uint8_t *nonce,
                             uint8_t k[32], uint8_t n[12])
{
    if (x) {
        vg_hchacha20(k, key, nonce);
        memset(n, 0, 4);
        memcpy(n + 4, nonce + 16, 8);
    } else {
        memcpy(k, key, 32);
        memcpy(n, nonce, 12);
    }
}

/* The tag RFC 8439 2.8 prescribes for (AD, ct), built from the public
 * ChaCha20 and Poly1305 functions. */
static void expected_tag(int x, const uint8_t key[32], const uint8_t *nonce, const uint8_t *ad,
                         size_t ad_len, const uint8_t *ct, size_t len, uint8_t tag[16])
{
    uint8_t k[32], n[12], zero[32] = {0}, otk[32];
    size_t pad_ad = (16 - ad_len % 16) % 16, pad_ct = (16 - len % 16) % 16;
    size_t mlen = ad_len + pad_ad + len + pad_ct + 16;
    uint8_t *m = malloc(mlen);
    check(m != NULL);
    chacha_key_nonce(x, key, nonce, k, n);
    /* 2.6: the one-time key is the first 32 bytes of block 0. */
    check(vg_chacha20(otk, zero, 32, n, 0, k) == VG_OK);
    memset(m, 0, mlen);
    if (ad_len)
        memcpy(m, ad, ad_len);
    if (len)
        memcpy(m + ad_len + pad_ad, ct, len);
    vg_store64_le(m + mlen - 16, (uint64_t)ad_len);
    vg_store64_le(m + mlen - 8, (uint64_t)len);
    check(vg_poly1305(tag, m, mlen, otk) == VG_OK);
    free(m);
}

static int open_public(int x, uint8_t *pt, const uint8_t *ct, size_t len, const uint8_t *tag,
                       const uint8_t *ad, size_t ad_len, const uint8_t *nonce,
                       const uint8_t *key)
{
    return x ? vg_xchacha20poly1305_open(pt, ct, len, tag, ad, ad_len, nonce, key)
             : vg_chacha20poly1305_open(pt, ct, len, tag, ad, ad_len, nonce, key);
}

static int seal_public(int x, uint8_t *ct, uint8_t *tag, const uint8_t *pt, size_t len,
                       const uint8_t *ad, size_t ad_len, const uint8_t *nonce,
                       const uint8_t *key)
{
    return x ? vg_xchacha20poly1305_seal(ct, tag, pt, len, ad, ad_len, nonce, key)
             : vg_chacha20poly1305_seal(ct, tag, pt, len, ad, ad_len, nonce, key);
}

/* Every check on one (key, nonce, AD, ct, tag); all buffers exact-size. */
static void check_open(int x, int in_place, const uint8_t *key, const uint8_t *nonce,
                       const uint8_t *ad, size_t ad_len, const uint8_t *ct, size_t len,
                       const uint8_t *tag, int must_open, int must_fail)
{
    uint8_t want_tag[16], k[32], n[12], tag2[16];
    uint8_t *pt = dup_exact(NULL, 0, len), *dec = dup_exact(NULL, 0, len);
    uint8_t *ct2 = dup_exact(NULL, 0, len), *other = dup_exact(NULL, 0, len);
    uint8_t *saved = dup_exact(ct, len, len);
    const size_t nonce_len = x ? 24 : 12;
    uint8_t saved_tag[16], saved_key[32], saved_nonce[24];
    uint8_t *saved_ad = dup_exact(ad, ad_len, ad_len);
    memcpy(saved_tag, tag, 16);
    memcpy(saved_key, key, 32);
    memcpy(saved_nonce, nonce, nonce_len);

    /* The oracle: the expected tag and the ChaCha20 decryption. */
    expected_tag(x, key, nonce, ad, ad_len, ct, len, want_tag);
    chacha_key_nonce(x, key, nonce, k, n);
    check(vg_chacha20(dec, ct, len, n, 1, k) == VG_OK);
    int want_ok = memcmp(want_tag, tag, 16) == 0;

    int rc;
    if (in_place) {
        if (len)
            memcpy(pt, ct, len);
        rc = open_public(x, pt, pt, len, tag, ad, ad_len, nonce, key);
    } else {
        if (len)
            memset(pt, 0xa5, len);
        rc = open_public(x, pt, ct, len, tag, ad, ad_len, nonce, key);
    }
    check(rc == VG_OK || rc == VG_ERR_VERIFY);
    check((rc == VG_OK) == want_ok);
    check(!must_open || rc == VG_OK);
    check(!must_fail || rc == VG_ERR_VERIFY);
    if (rc == VG_OK) {
        check(len == 0 || memcmp(pt, dec, len) == 0);
        check(seal_public(x, ct2, tag2, pt, len, ad, ad_len, nonce, key) == VG_OK);
        check(len == 0 || memcmp(ct2, ct, len) == 0);
        check(memcmp(tag2, tag, 16) == 0);
    } else {
        for (size_t i = 0; i < len; i++)
            check(pt[i] == 0);
    }

    /* Every pair of implementations the build and CPU have. */
    const struct vg_chacha20_impl *cs[] = {vg_chacha20_portable_get(),
                                           vg_chacha20_avx2_rows_get(), vg_chacha20_avx2_get(),
                                           vg_chacha20_avx512_get()};
    const struct vg_poly1305_impl *ps[] = {vg_poly1305_r64_get(), vg_poly1305_r44_get(), vg_poly1305_r26_get(),
                                           vg_poly1305_mulx_get(), vg_poly1305_avx2_get(),
                                           vg_poly1305_ifma_get()};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
            if (!cs[i] || !ps[j])
                continue;
            if (len)
                memset(other, 0x5a, len);
            int r2 = vg_aead_open_impl(cs[i], ps[j], x, other, ct, len, tag, ad, ad_len, nonce,
                                       key);
            check(r2 == rc);
            check(len == 0 || memcmp(other, pt, len) == 0);
        }

    /* Inputs unwritten (in place, ct is the library's pt buffer, a copy). */
    check(len == 0 || memcmp(ct, saved, len) == 0);
    check(memcmp(tag, saved_tag, 16) == 0 && memcmp(key, saved_key, 32) == 0 &&
          memcmp(nonce, saved_nonce, nonce_len) == 0);
    check(ad_len == 0 || memcmp(ad, saved_ad, ad_len) == 0);
    free(pt);
    free(dec);
    free(ct2);
    free(other);
    free(saved);
    free(saved_ad);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct reader r = {data, size};
    uint8_t mode_b, key_b[32], nonce_b[24], adl_b;
    take(&r, &mode_b, 1);
    take(&r, key_b, 32);
    take(&r, nonce_b, 24);
    take(&r, &adl_b, 1);
    const int x = mode_b & 1, in_place = (mode_b >> 1) & 1, valid = (mode_b >> 2) & 1;
    /* Exact-size copies: a 12-byte nonce for ChaCha20-Poly1305. */
    uint8_t *key = dup_exact(key_b, 32, 32);
    uint8_t *nonce = dup_exact(nonce_b, 24, x ? 24 : 12);
    size_t ad_len = adl_b < r.n ? adl_b : r.n;
    uint8_t *ad = dup_exact(r.p, r.n, ad_len);
    r.p += ad_len;
    r.n -= ad_len;

    if (!valid) {
        /* ct || tag: the tag is the last 16 bytes (zero-padded when short). */
        size_t len = r.n > 16 ? r.n - 16 : 0;
        uint8_t tag[16] = {0};
        uint8_t *ct = dup_exact(r.p, r.n, len);
        if (r.n > len)
            memcpy(tag, r.p + len, r.n - len);
        uint8_t *tagp = dup_exact(tag, 16, 16);
        check_open(x, in_place, key, nonce, ad, ad_len, ct, len, tagp, 0, 0);
        free(ct);
        free(tagp);
    } else {
        /* The rest (but its last byte, the change selector) is the
         * plaintext; sealed here, then one bit flipped (or none). */
        uint8_t sel = r.n ? r.p[r.n - 1] : 0;
        size_t len = r.n ? r.n - 1 : 0;
        uint8_t *pt = dup_exact(r.p, len, len), *ct = dup_exact(NULL, 0, len);
        uint8_t *tagp = dup_exact(NULL, 0, 16);
        check(seal_public(x, ct, tagp, pt, len, ad, ad_len, nonce, key) == VG_OK);
        int changed = 1;
        switch (sel & 3) {
        case 0:
            changed = 0;
            break;
        case 1:
            if (len)
                ct[(sel >> 2) % len] ^= (uint8_t)(1u << (sel & 7));
            else
                changed = 0;
            break;
        case 2:
            tagp[(sel >> 2) % 16] ^= (uint8_t)(1u << ((sel >> 5) & 7));
            break;
        default:
            if (ad_len)
                ad[(sel >> 2) % ad_len] ^= (uint8_t)(1u << ((sel >> 5) & 7));
            else
                changed = 0;
            break;
        }
        check_open(x, in_place, key, nonce, ad, ad_len, ct, len, tagp, !changed,
                   changed);
        free(pt);
        free(ct);
        free(tagp);
    }
    free(key);
    free(nonce);
    free(ad);
    return 0;
}
