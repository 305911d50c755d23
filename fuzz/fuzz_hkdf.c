/*
 * libFuzzer target: HKDF (RFC 5869) lengths, for SHA-256, SHA-384 and
 * SHA-512.
 *
 * Input: byte 0 picks the hash; bytes 1-2 the output length L (0..65535,
 * so both sides of the 255 * HashLen limit); bytes 3-5 split the rest into
 * salt, IKM and info. Properties checked:
 *  - L <= 255 * HashLen: VG_OK; the one-shot equals extract then expand;
 *    expanding to L' < L gives the first L' bytes of the longer output (the
 *    T(i) chain does not depend on L, RFC 5869 2.3); expand in place over
 *    the PRK gives the same bytes; T(1) equals HMAC(PRK, info || 0x01).
 *  - L > 255 * HashLen: VG_ERR_INPUT with all L bytes of out zeroed.
 * The output buffer is allocated with exactly L bytes, so any write past
 * it is an AddressSanitizer report.
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

struct hkdf_alg {
    size_t hl;
    int (*extract)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t);
    int (*expand)(uint8_t *, size_t, const uint8_t *, const uint8_t *, size_t);
    int (*oneshot)(uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *, size_t,
                   const uint8_t *, size_t);
    int (*mac)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t);
};

static int ex256(uint8_t *p, const uint8_t *s, size_t sl, const uint8_t *k, size_t kl)
{
    return vg_hkdf_sha256_extract(p, s, sl, k, kl);
}
static int ex384(uint8_t *p, const uint8_t *s, size_t sl, const uint8_t *k, size_t kl)
{
    return vg_hkdf_sha384_extract(p, s, sl, k, kl);
}
static int ex512(uint8_t *p, const uint8_t *s, size_t sl, const uint8_t *k, size_t kl)
{
    return vg_hkdf_sha512_extract(p, s, sl, k, kl);
}
static int xp256(uint8_t *o, size_t l, const uint8_t *p, const uint8_t *i, size_t il)
{
    return vg_hkdf_sha256_expand(o, l, p, i, il);
}
static int xp384(uint8_t *o, size_t l, const uint8_t *p, const uint8_t *i, size_t il)
{
    return vg_hkdf_sha384_expand(o, l, p, i, il);
}
static int xp512(uint8_t *o, size_t l, const uint8_t *p, const uint8_t *i, size_t il)
{
    return vg_hkdf_sha512_expand(o, l, p, i, il);
}
static int mac256(uint8_t *o, const uint8_t *k, size_t kl, const uint8_t *m, size_t ml)
{
    return vg_hmac_sha256(o, k, kl, m, ml);
}
static int mac384(uint8_t *o, const uint8_t *k, size_t kl, const uint8_t *m, size_t ml)
{
    return vg_hmac_sha384(o, k, kl, m, ml);
}
static int mac512(uint8_t *o, const uint8_t *k, size_t kl, const uint8_t *m, size_t ml)
{
    return vg_hmac_sha512(o, k, kl, m, ml);
}

static const struct hkdf_alg g_algs[3] = {
    {32, ex256, xp256, vg_hkdf_sha256, mac256},
    {48, ex384, xp384, vg_hkdf_sha384, mac384},
    {64, ex512, xp512, vg_hkdf_sha512, mac512},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6)
        return 0;
    const struct hkdf_alg *h = &g_algs[data[0] % 3u];
    size_t L = (size_t)data[1] << 8 | data[2];
    const uint8_t *rest = data + 6;
    size_t n = size - 6;
    size_t sl = n ? data[3] % (n + 1) : 0;
    size_t kl = n - sl ? data[4] % (n - sl + 1) : 0;
    size_t il = n - sl - kl;
    const uint8_t *salt = rest, *ikm = rest + sl, *info = rest + sl + kl;
    size_t shorter = L ? data[5] % (L + 1) : 0;
    uint8_t prk[64], t1[64];
    uint8_t *out = malloc(L ? L : 1), *out2 = malloc(L ? L : 1);
    uint8_t *tmsg = malloc(il + 1);
    check(out && out2 && tmsg);

    if (L > 255 * h->hl) {
        memset(out, 0xaa, L);
        check(h->oneshot(out, L, salt, sl, ikm, kl, info, il) == VG_ERR_INPUT);
        for (size_t i = 0; i < L; i++)
            check(out[i] == 0);
        memset(out, 0xaa, L);
        check(h->extract(prk, salt, sl, ikm, kl) == VG_OK);
        check(h->expand(out, L, prk, info, il) == VG_ERR_INPUT);
        for (size_t i = 0; i < L; i++)
            check(out[i] == 0);
        goto done;
    }
    check(h->oneshot(L ? out : NULL, L, salt, sl, ikm, kl, info, il) == VG_OK);
    check(h->extract(prk, salt, sl, ikm, kl) == VG_OK);
    check(h->expand(L ? out2 : NULL, L, prk, info, il) == VG_OK);
    check(L == 0 || memcmp(out, out2, L) == 0);
    /* A shorter output is a prefix. */
    check(h->expand(shorter ? out2 : NULL, shorter, prk, info, il) == VG_OK);
    check(shorter == 0 || memcmp(out, out2, shorter) == 0);
    /* T(1) = HMAC(PRK, info || 0x01), RFC 5869 2.3. */
    if (L) {
        memcpy(tmsg, info, il);
        tmsg[il] = 1;
        check(h->mac(t1, prk, h->hl, tmsg, il + 1) == VG_OK);
        check(memcmp(out, t1, L < h->hl ? L : h->hl) == 0);
    }
    /* In place: out starts with the PRK. */
    if (L >= h->hl) {
        memcpy(out2, prk, h->hl);
        check(h->expand(out2, L, out2, info, il) == VG_OK);
        check(memcmp(out, out2, L) == 0);
    }
done:
    free(out);
    free(out2);
    free(tmsg);
    return 0;
}
