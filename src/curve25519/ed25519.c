/*
 * Ed25519 (RFC 8032 section 5.1): key generation, signing, verification.
 *
 * Secret key = seed || public key (the libsodium layout). Signing runs in
 * constant time in the seed and the derived scalar and nonce: SHA-512,
 * the fixed-base [a]B of the active vg_x25519_base_impl and the scalar
 * routines of sc25519.c are all constant time. Verification works on public
 * data only and uses the variable-time code of ge25519_vartime.c.
 * The rules for accepting a signature are in docs/ed25519-verdicts.md.
 */
#include <string.h>

#include "../hash/sha2.h"
#include "common.h"
#include "curve25519.h"
#include "ge25519.h"
#include "ge25519_vartime.h"
#include "sc25519.h"

/* RFC 8032 5.1.5 steps 1-4: h = SHA-512(seed); s = clamp(h[0..31]); the
 * public key is the encoding of [s]B. s < 2^255 (bit 255 cleared), as
 * ed25519_base requires. */
static void ed25519_expand(uint8_t h[64], const uint8_t seed[32])
{
    vg_sha512_ctx ctx;
    vg_sha512_ctx_init(&ctx);
    vg_sha512_ctx_update(&ctx, seed, 32);
    vg_sha512_ctx_final(&ctx, h);
    vg_x25519_clamp(h, h);
}

int vg_ed25519_keypair_from_seed(uint8_t public_key[32], uint8_t secret_key[64],
                                 const uint8_t seed[32])
{
    uint8_t h[64];
    if (!public_key || !secret_key || !seed) {
        if (public_key)
            vg_wipe(public_key, 32);
        if (secret_key)
            vg_wipe(secret_key, 64);
        return VG_ERR_INPUT;
    }
    ed25519_expand(h, seed);
    vg_x25519_base_active()->ed25519_base(public_key, h);
    /* seed may alias secret_key: copy it before writing the public part */
    memmove(secret_key, seed, 32);
    memcpy(secret_key + 32, public_key, 32);
    vg_wipe(h, sizeof h);
    return VG_OK;
}

int vg_ed25519_keypair(uint8_t public_key[32], uint8_t secret_key[64])
{
    uint8_t seed[32];
    int rc;
    if (!public_key || !secret_key) {
        if (public_key)
            vg_wipe(public_key, 32);
        if (secret_key)
            vg_wipe(secret_key, 64);
        return VG_ERR_INPUT;
    }
    if (vg_randombytes(seed, sizeof seed) != VG_OK) {
        vg_wipe(public_key, 32);
        vg_wipe(secret_key, 64);
        return VG_ERR_RANDOM;
    }
    rc = vg_ed25519_keypair_from_seed(public_key, secret_key, seed);
    vg_wipe(seed, sizeof seed);
    return rc;
}

/* ---- signing: Ed25519, Ed25519ctx, Ed25519ph (RFC 8032 5.1.6) -------------
 * The three instances differ only in the dom2 prefix hashed before the
 * other inputs of both hashes (RFC 8032 5.1: empty for Ed25519, dom2(0, ctx)
 * for Ed25519ctx, dom2(1, ctx) for Ed25519ph) and in the message (PH(M) =
 * SHA-512(M) for Ed25519ph). A message source is a feed: a function that
 * absorbs the whole message through the callback it is given, so that the
 * CLI can stream a file (read twice: both hashes cover M) and the one-shot
 * API passes a buffer. */

/* dom2(x, y) = "SigEd25519 no Ed25519 collisions" || octet(x) ||
 * octet(OLEN(y)) || y (RFC 8032 5.1). Pre: ctx_len <= 255. Returns its
 * length (34 + ctx_len). */
#define ED25519_DOM2_MAX (32 + 2 + 255)
static size_t ed25519_dom2(uint8_t out[ED25519_DOM2_MAX], int phflag, const uint8_t *ctx,
                           size_t ctx_len)
{
    static const char tag[32] = "SigEd25519 no Ed25519 collisions"; /* 32 bytes, no NUL */
    memcpy(out, tag, 32);
    out[32] = (uint8_t)phflag;
    out[33] = (uint8_t)ctx_len;
    if (ctx_len)
        memcpy(out + 34, ctx, ctx_len);
    return 34 + ctx_len;
}

/* The absorb callback a feed calls: the message into the hash of the pass
 * (h) and, when `check` is set (a streamed message), into a plain SHA-512
 * of the message (chk), whose values of the two signing passes must agree
 * (see ed25519_sign_dom). */
struct ed25519_sink {
    vg_sha512_ctx h, chk;
    int check;
};

static void ed25519_sink_absorb(void *arg, const uint8_t *in, size_t len)
{
    struct ed25519_sink *s = arg;
    if (len) {
        vg_sha512_ctx_update(&s->h, in, len);
        if (s->check)
            vg_sha512_ctx_update(&s->chk, in, len);
    }
}

/* A message in memory as a feed. */
struct ed25519_buf {
    const uint8_t *p;
    size_t n;
};

static int ed25519_buf_feed(void *arg, vg_ed25519_absorb_fn absorb, void *sink)
{
    const struct ed25519_buf *b = arg;
    absorb(sink, b->p, b->n);
    return 0;
}

/* RFC 8032 5.1.6 with the prefix dom (dom_len bytes, 0 for Ed25519) and
 * the message from feed (called twice). The public key is taken from
 * secret_key[32..63], as libsodium does; a secret key whose halves do not
 * match signs with the given public key (the caller's responsibility, as
 * in libsodium). check: compare the two passes' messages (a streamed one;
 * a buffer of the one-shot API cannot change unless the caller races
 * itself). Returns VG_OK, or VG_ERR_INPUT (sig zeroed) when a feed fails or
 * the two passes saw different messages. Pre: sig, secret_key, feed not
 * NULL, dom not NULL if dom_len. */
static int ed25519_sign_dom(uint8_t sig[64], const uint8_t *dom, size_t dom_len,
                            vg_ed25519_feed_fn feed, void *arg, int check,
                            const uint8_t secret_key[64])
{
    uint8_t h[64], r[64], k[64], rs[32], big_r[32], chk1[64] = {0}, chk2[64] = {0};
    struct ed25519_sink s;
    int ret = VG_ERR_INPUT;
    s.check = check;
    /* Step 1: s = clamp(H(seed)[0..31]), prefix = H(seed)[32..63]. */
    ed25519_expand(h, secret_key);
    /* Step 2: r = SHA-512(dom2 || prefix || PH(M)) mod L. */
    vg_sha512_ctx_init(&s.h);
    vg_sha512_ctx_init(&s.chk);
    if (dom_len)
        vg_sha512_ctx_update(&s.h, dom, dom_len);
    vg_sha512_ctx_update(&s.h, h + 32, 32);
    if (feed(arg, ed25519_sink_absorb, &s) != 0)
        goto out;
    vg_sha512_ctx_final(&s.h, r);
    vg_sha512_ctx_final(&s.chk, chk1);
    vg_sc25519_reduce64(rs, r);
    /* Step 3: R = [r]B (r < L < 2^255), into a local: sig may alias msg
     * only where the API allows. */
    vg_x25519_base_active()->ed25519_base(big_r, rs);
    /* Step 4: k = SHA-512(dom2 || R || A || PH(M)) mod L. */
    vg_sha512_ctx_init(&s.h);
    vg_sha512_ctx_init(&s.chk);
    if (dom_len)
        vg_sha512_ctx_update(&s.h, dom, dom_len);
    vg_sha512_ctx_update(&s.h, big_r, 32);
    vg_sha512_ctx_update(&s.h, secret_key + 32, 32);
    if (feed(arg, ed25519_sink_absorb, &s) != 0)
        goto out;
    vg_sha512_ctx_final(&s.h, k);
    vg_sha512_ctx_final(&s.chk, chk2);
    /* Two passes over different messages would give two signatures with
     * the same r and different k, from which the secret scalar follows
     * (S1 - S2 = (k1 - k2) s): a message that changed between the passes
     * (a file written to while it is signed) gives no signature. The
     * message digests are not secret. */
    if (vg_ct_memcmp(chk1, chk2, 64) != 0)
        goto out;
    vg_sc25519_reduce64(k, k);
    /* Step 5: S = (r + k s) mod L. */
    vg_sc25519_muladd(sig + 32, k, h, rs);
    memcpy(sig, big_r, 32);
    ret = VG_OK;
out:
    if (ret != VG_OK)
        vg_wipe(sig, 64);
    vg_wipe(h, sizeof h);
    vg_wipe(r, sizeof r);
    vg_wipe(rs, sizeof rs);
    vg_wipe(k, sizeof k);
    vg_wipe(&s, sizeof s);
    return ret;
}

/* A one-shot signature over msg with the prefix dom; the argument checks
 * every signing entry point shares: VG_ERR_INPUT (sig zeroed) for a NULL
 * secret key or message. */
static int ed25519_sign_buf(uint8_t sig[64], const uint8_t *dom, size_t dom_len,
                            const uint8_t *msg, size_t msg_len, const uint8_t secret_key[64])
{
    struct ed25519_buf b = {msg, msg_len};
    if (!sig)
        return VG_ERR_INPUT;
    if (!secret_key || (!msg && msg_len)) {
        vg_wipe(sig, 64);
        return VG_ERR_INPUT;
    }
    return ed25519_sign_dom(sig, dom, dom_len, ed25519_buf_feed, &b, 0, secret_key);
}

/* RFC 8032 5.1.6, Ed25519 (no prefix). */
int vg_ed25519_sign(uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                    const uint8_t secret_key[64])
{
    return ed25519_sign_buf(sig, NULL, 0, msg, msg_len, secret_key);
}

int vg_ed25519_sign_feed(uint8_t sig[64], const uint8_t *ctx, size_t ctx_len,
                         vg_ed25519_feed_fn feed, void *arg, const uint8_t secret_key[64])
{
    uint8_t dom[ED25519_DOM2_MAX];
    size_t dom_len = 0;
    if (!sig)
        return VG_ERR_INPUT;
    if (!feed || !secret_key || (ctx && (ctx_len == 0 || ctx_len > 255)) || (!ctx && ctx_len)) {
        vg_wipe(sig, 64);
        return VG_ERR_INPUT;
    }
    if (ctx)
        dom_len = ed25519_dom2(dom, 0, ctx, ctx_len); /* Ed25519ctx */
    return ed25519_sign_dom(sig, dom, dom_len, feed, arg, 1, secret_key);
}

/* Ed25519ctx: dom2(0, ctx), ctx of 1 to 255 bytes (RFC 8032 5.1: the
 * context SHOULD NOT be empty; an empty one is refused, as Ed25519 is
 * meant then). */
int vg_ed25519ctx_sign(uint8_t sig[64], const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                       size_t ctx_len, const uint8_t secret_key[64])
{
    uint8_t dom[ED25519_DOM2_MAX];
    if (!sig)
        return VG_ERR_INPUT;
    if (!ctx || ctx_len == 0 || ctx_len > 255) {
        vg_wipe(sig, 64);
        return VG_ERR_INPUT;
    }
    size_t dom_len = ed25519_dom2(dom, 0, ctx, ctx_len);
    return ed25519_sign_buf(sig, dom, dom_len, msg, msg_len, secret_key);
}

/* Ed25519ph on a digest: dom2(1, ctx), ctx of 0 to 255 bytes, PH(M) = ph. */
int vg_ed25519ph_sign_prehashed(uint8_t sig[64], const uint8_t ph[64], const uint8_t *ctx,
                                size_t ctx_len, const uint8_t secret_key[64])
{
    uint8_t dom[ED25519_DOM2_MAX];
    if (!sig)
        return VG_ERR_INPUT;
    if (!ph || (!ctx && ctx_len) || ctx_len > 255) {
        vg_wipe(sig, 64);
        return VG_ERR_INPUT;
    }
    size_t dom_len = ed25519_dom2(dom, 1, ctx, ctx_len);
    return ed25519_sign_buf(sig, dom, dom_len, ph, 64, secret_key);
}

/* Ed25519ph: PH(M) = SHA-512(M) (RFC 8032 5.1), then as above. */
int vg_ed25519ph_sign(uint8_t sig[64], const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                      size_t ctx_len, const uint8_t secret_key[64])
{
    uint8_t ph[64];
    vg_sha512_ctx c;
    int ret;
    if (!sig)
        return VG_ERR_INPUT;
    if ((!msg && msg_len) || (!ctx && ctx_len) || ctx_len > 255 || !secret_key) {
        vg_wipe(sig, 64);
        return VG_ERR_INPUT;
    }
    vg_sha512_ctx_init(&c);
    vg_sha512_ctx_update(&c, msg, msg_len);
    vg_sha512_ctx_final(&c, ph);
    ret = vg_ed25519ph_sign_prehashed(sig, ph, ctx, ctx_len, secret_key);
    vg_wipe(ph, sizeof ph);
    return ret;
}

/* ---- verification (RFC 8032 5.1.7) ------------------------------------- */

/* RFC 8032 5.1.7 on the variant impl with the prefix dom, the message from
 * feed (called once): step 1's S < L check and step 2's hash here, the
 * decoding of A and R and step 3's equation in impl->check. Public data
 * only. VG_ERR_VERIFY also when the feed fails. */
static int ed25519_verify_dom(const struct vg_ed25519_verify_impl *impl, const uint8_t sig[64],
                              const uint8_t *dom, size_t dom_len, vg_ed25519_feed_fn feed,
                              void *arg, const uint8_t public_key[32], int cofactored)
{
    uint8_t k[64];
    struct ed25519_sink s;
    /* Step 1: S < L, no reduction (A and R are decoded by impl->check). */
    if (!vg_sc25519_is_canonical(sig + 32))
        return VG_ERR_VERIFY;
    /* Step 2: k = SHA-512(dom2 || R || A || PH(M)) mod L, over the bytes
     * as given. */
    vg_sha512_ctx_init(&s.h);
    s.check = 0; /* one pass: nothing to compare */
    if (dom_len)
        vg_sha512_ctx_update(&s.h, dom, dom_len);
    vg_sha512_ctx_update(&s.h, sig, 32);
    vg_sha512_ctx_update(&s.h, public_key, 32);
    if (feed(arg, ed25519_sink_absorb, &s) != 0) {
        vg_wipe(&s, sizeof s);
        return VG_ERR_VERIFY;
    }
    vg_sha512_ctx_final(&s.h, k);
    vg_wipe(&s, sizeof s);
    vg_sc25519_reduce64(k, k);
    /* Step 3: [S]B = R + [k]A, or its cofactored form. */
    return impl->check(sig, public_key, sig + 32, k, cofactored) ? VG_OK : VG_ERR_VERIFY;
}

int vg_ed25519_verify_dom_with(const struct vg_ed25519_verify_impl *impl, const uint8_t sig[64],
                               const uint8_t *dom, size_t dom_len, const uint8_t *msg,
                               size_t msg_len, const uint8_t public_key[32], int cofactored)
{
    struct ed25519_buf b = {msg, msg_len};
    if (!impl || !sig || !public_key || (!msg && msg_len) || (!dom && dom_len))
        return VG_ERR_VERIFY;
    return ed25519_verify_dom(impl, sig, dom, dom_len, ed25519_buf_feed, &b, public_key,
                              cofactored);
}

int vg_ed25519_verify_with(const struct vg_ed25519_verify_impl *impl, const uint8_t sig[64],
                           const uint8_t *msg, size_t msg_len, const uint8_t public_key[32],
                           int cofactored)
{
    return vg_ed25519_verify_dom_with(impl, sig, NULL, 0, msg, msg_len, public_key, cofactored);
}

int vg_ed25519_verify_feed(const uint8_t sig[64], const uint8_t *ctx, size_t ctx_len,
                           int cofactored, vg_ed25519_feed_fn feed, void *arg,
                           const uint8_t public_key[32])
{
    uint8_t dom[ED25519_DOM2_MAX];
    size_t dom_len = 0;
    if (!sig || !feed || !public_key || (ctx && (ctx_len == 0 || ctx_len > 255)) ||
        (!ctx && ctx_len))
        return VG_ERR_VERIFY;
    if (ctx)
        dom_len = ed25519_dom2(dom, 0, ctx, ctx_len);
    return ed25519_verify_dom(vg_ed25519_verify_active(), sig, dom, dom_len, feed, arg,
                              public_key, cofactored != 0);
}

/* Ed25519ctx verification: ctx of 1 to 255 bytes, else VG_ERR_INPUT (a
 * length the instance does not allow; DESIGN 2). */
int vg_ed25519ctx_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                         const uint8_t *ctx, size_t ctx_len, const uint8_t public_key[32])
{
    uint8_t dom[ED25519_DOM2_MAX];
    if (ctx_len == 0 || ctx_len > 255)
        return VG_ERR_INPUT;
    if (!ctx)
        return VG_ERR_VERIFY;
    size_t dom_len = ed25519_dom2(dom, 0, ctx, ctx_len);
    return vg_ed25519_verify_dom_with(vg_ed25519_verify_active(), sig, dom, dom_len, msg, msg_len,
                                      public_key, 0);
}

int vg_ed25519ph_verify_prehashed(const uint8_t sig[64], const uint8_t ph[64], const uint8_t *ctx,
                                  size_t ctx_len, const uint8_t public_key[32])
{
    uint8_t dom[ED25519_DOM2_MAX];
    if (ctx_len > 255)
        return VG_ERR_INPUT;
    if (!ph || (!ctx && ctx_len))
        return VG_ERR_VERIFY;
    size_t dom_len = ed25519_dom2(dom, 1, ctx, ctx_len);
    return vg_ed25519_verify_dom_with(vg_ed25519_verify_active(), sig, dom, dom_len, ph, 64,
                                      public_key, 0);
}

int vg_ed25519ph_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                        const uint8_t *ctx, size_t ctx_len, const uint8_t public_key[32])
{
    uint8_t ph[64];
    vg_sha512_ctx c;
    if (ctx_len > 255)
        return VG_ERR_INPUT;
    if (!msg && msg_len)
        return VG_ERR_VERIFY;
    vg_sha512_ctx_init(&c);
    vg_sha512_ctx_update(&c, msg, msg_len);
    vg_sha512_ctx_final(&c, ph);
    return vg_ed25519ph_verify_prehashed(sig, ph, ctx, ctx_len, public_key);
}

int vg_ed25519_verify(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                      const uint8_t public_key[32])
{
    return vg_ed25519_verify_with(vg_ed25519_verify_active(), sig, msg, msg_len, public_key, 0);
}

int vg_ed25519_verify_cofactored(const uint8_t sig[64], const uint8_t *msg, size_t msg_len,
                                 const uint8_t public_key[32])
{
    return vg_ed25519_verify_with(vg_ed25519_verify_active(), sig, msg, msg_len, public_key, 1);
}
