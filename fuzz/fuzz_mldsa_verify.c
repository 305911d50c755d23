/*
 * libFuzzer target: ML-DSA verification (FIPS 204 Algorithm 3, ML-DSA.Verify)
 * on any public key, signature, message and context bytes, for the three
 * parameter sets.
 *
 * Input: byte 0 picks the set (mod 3) and the mode (bit 2); the rest feeds
 * the mode:
 *   mode 0 (arbitrary bytes): ctx_len (2 bytes, mod 300, so lengths over
 *          the 255-byte limit occur), a signature-length byte (below 224:
 *          the set's length; else the set's length - 16 .. + 15), then pk,
 *          the signature and the context (each cut or zero-padded to its
 *          length), and the message = the rest. Almost every input is a
 *          rejection, reached through every decoding path (z out of range,
 *          hints out of order or too many, wrong length);
 *   mode 1 (a valid signature, then one change): xi (32) and rnd (32) give
 *          a key pair and a signature (ML-DSA.KeyGen_internal and
 *          Sign_internal through keypair_derand / sign_derand) of a message
 *          under a context (lengths from the input); a target byte picks
 *          what to change (signature, public key, message, context, or the
 *          signature's length), a 2-byte offset where, and the rest is
 *          XORed in from there.
 * Every buffer handed to the library is a heap block of exactly its length
 * (NULL for an empty message or context), so that ASan sees a read one
 * byte past any of them.
 *
 * Checks (abort on failure), with V = vg_mldsaN_verify(sig, sig_len, msg,
 * ctx, pk):
 *  - V is VG_OK or VG_ERR_VERIFY, or VG_ERR_INPUT exactly when ctx_len >
 *    255 (FIPS 204 Algorithm 3 line 1; section 5.2);
 *  - a signature of the wrong length is rejected (VG_ERR_VERIFY);
 *  - V is the verdict of verify_internal on M' = 0 || ctx_len || ctx || M
 *    (Algorithm 3 line 5, built here) and of verify_mu on mu = H(H(pk, 64)
 *    || M', 64) with H = SHAKE256 (Algorithm 8 lines 6-7, computed here
 *    through vg_shake256): the three entry points agree;
 *  - the portable code (feature mask forced to none) gives the same V, and
 *    a second call too (verification is deterministic);
 *  - verification does not write to its inputs;
 *  - mode 1: sign_derand succeeds and its signature verifies when nothing
 *    was changed (sign-then-verify); any change to the signature, public
 *    key, message or context, or to the signature's length, is rejected.
 *    (A changed signature that still verified would be a strong forgery;
 *    FIPS 204's unique hint encoding leaves no byte free to change.)
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "vgcrypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fuzz_dsa {
    size_t pk_len, sk_len, sig_len;
    int (*keypair_derand)(uint8_t *pk, uint8_t *sk, const uint8_t seed[32]);
    int (*sign_derand)(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                       size_t ctx_len, const uint8_t *sk, const uint8_t rnd[32]);
    int (*verify)(const uint8_t *sig, size_t sig_len, const uint8_t *msg, size_t msg_len,
                  const uint8_t *ctx, size_t ctx_len, const uint8_t *pk);
    int (*verify_mu)(const uint8_t *sig, size_t sig_len, const uint8_t mu[64], const uint8_t *pk);
    int (*verify_internal)(const uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                           size_t mprime_len, const uint8_t *pk);
};

#define FUZZ_DSA(n)                                                                        \
    {VG_MLDSA##n##_PUBLICKEYBYTES, VG_MLDSA##n##_SECRETKEYBYTES, VG_MLDSA##n##_SIGBYTES,   \
     vg_mldsa##n##_keypair_derand, vg_mldsa##n##_sign_derand, vg_mldsa##n##_verify,        \
     vg_mldsa##n##_verify_mu, vg_mldsa##n##_verify_internal}
static const struct fuzz_dsa g_sets[3] = {FUZZ_DSA(44), FUZZ_DSA(65), FUZZ_DSA(87)};

#define MAX_SK VG_MLDSA87_SECRETKEYBYTES
#define CTX_MAX VG_MLDSA_CTXMAXBYTES

static void fuzz_check(int ok)
{
    if (!ok)
        abort();
}

/* Copy min(n, len) bytes of data into out[0..len), zero the rest. */
static void take(uint8_t *out, size_t len, const uint8_t **data, size_t *n)
{
    size_t t = *n < len ? *n : len;
    if (len)
        memset(out, 0, len);
    if (t)
        memcpy(out, *data, t);
    *data += t;
    *n -= t;
}

/* The next byte (0 when none is left). */
static unsigned take_byte(const uint8_t **data, size_t *n)
{
    uint8_t b;
    take(&b, 1, data, n);
    return b;
}

static unsigned take_u16(const uint8_t **data, size_t *n)
{
    unsigned lo = take_byte(data, n);
    return lo | take_byte(data, n) << 8;
}

/* A heap block of exactly len bytes (NULL for len 0, which the API allows
 * for msg and ctx), or abort. */
static uint8_t *exact(size_t len)
{
    if (!len)
        return NULL;
    uint8_t *p = malloc(len);
    fuzz_check(p != NULL);
    return p;
}

/* The inputs of one verification, each in its own exact-size block. */
struct vin {
    uint8_t *pk, *sig, *msg, *ctx;
    size_t sig_len, msg_len, ctx_len;
};

static void vin_free(struct vin *v)
{
    free(v->pk);
    free(v->sig);
    free(v->msg);
    free(v->ctx);
}

/* Every check of the header that does not depend on the mode; returns V. */
static int check_verify(const struct fuzz_dsa *set, const struct vin *v)
{
    size_t pk_len = set->pk_len;
    uint8_t *copy = exact(pk_len + v->sig_len + v->msg_len + v->ctx_len + 1);
    uint8_t *c = copy;
    memcpy(c, v->pk, pk_len);
    c += pk_len;
    if (v->sig_len)
        memcpy(c, v->sig, v->sig_len);
    c += v->sig_len;
    if (v->msg_len)
        memcpy(c, v->msg, v->msg_len);
    c += v->msg_len;
    if (v->ctx_len)
        memcpy(c, v->ctx, v->ctx_len);

    int rc = set->verify(v->sig, v->sig_len, v->msg, v->msg_len, v->ctx, v->ctx_len, v->pk);
    if (v->ctx_len > CTX_MAX) {
        fuzz_check(rc == VG_ERR_INPUT);
    } else {
        fuzz_check(rc == VG_OK || rc == VG_ERR_VERIFY);
        if (v->sig_len != set->sig_len)
            fuzz_check(rc == VG_ERR_VERIFY);

        /* M' = 0 || ctx_len || ctx || M (Algorithm 3 line 5). */
        size_t mp_len = 2 + v->ctx_len + v->msg_len;
        uint8_t *tr_mp = exact(64 + mp_len), mu[64];
        uint8_t *mp = tr_mp + 64;
        mp[0] = 0;
        mp[1] = (uint8_t)v->ctx_len;
        if (v->ctx_len)
            memcpy(mp + 2, v->ctx, v->ctx_len);
        if (v->msg_len)
            memcpy(mp + 2 + v->ctx_len, v->msg, v->msg_len);
        fuzz_check(set->verify_internal(v->sig, v->sig_len, mp, mp_len, v->pk) == rc);
        /* tr = H(pk, 64); mu = H(tr || M', 64) (Algorithm 8 lines 6-7). */
        fuzz_check(vg_shake256(tr_mp, 64, v->pk, pk_len) == VG_OK);
        fuzz_check(vg_shake256(mu, sizeof mu, tr_mp, 64 + mp_len) == VG_OK);
        fuzz_check(set->verify_mu(v->sig, v->sig_len, mu, v->pk) == rc);
        free(tr_mp);
    }
    fuzz_check(set->verify(v->sig, v->sig_len, v->msg, v->msg_len, v->ctx, v->ctx_len, v->pk) ==
               rc);
    /* The portable code throughout (single-threaded: vg_cpu_force). */
    uint32_t saved = vg_cpu_active();
    vg_cpu_force(0);
    int rc_portable =
        set->verify(v->sig, v->sig_len, v->msg, v->msg_len, v->ctx, v->ctx_len, v->pk);
    vg_cpu_force(saved);
    fuzz_check(rc_portable == rc);

    /* Nothing written to the inputs. */
    c = copy;
    fuzz_check(memcmp(c, v->pk, pk_len) == 0);
    c += pk_len;
    fuzz_check(v->sig_len == 0 || memcmp(c, v->sig, v->sig_len) == 0);
    c += v->sig_len;
    fuzz_check(v->msg_len == 0 || memcmp(c, v->msg, v->msg_len) == 0);
    c += v->msg_len;
    fuzz_check(v->ctx_len == 0 || memcmp(c, v->ctx, v->ctx_len) == 0);
    free(copy);
    return rc;
}

/* Mode 0: everything from the input. */
static void run_arbitrary(const struct fuzz_dsa *set, const uint8_t *data, size_t size)
{
    struct vin v;
    v.ctx_len = take_u16(&data, &size) % 300;
    unsigned l = take_byte(&data, &size);
    v.sig_len = l < 224 ? set->sig_len : set->sig_len - 16 + (l - 224);
    v.pk = exact(set->pk_len);
    take(v.pk, set->pk_len, &data, &size);
    v.sig = exact(v.sig_len);
    take(v.sig, v.sig_len, &data, &size);
    v.ctx = exact(v.ctx_len);
    take(v.ctx, v.ctx_len, &data, &size);
    v.msg_len = size;
    v.msg = exact(size);
    take(v.msg, size, &data, &size);
    (void)check_verify(set, &v);
    vin_free(&v);
}

/* Mode 1: a valid signature, then one change. */
static void run_valid(const struct fuzz_dsa *set, const uint8_t *data, size_t size)
{
    uint8_t seed[32], rnd[32], sk[MAX_SK];
    struct vin v;
    take(seed, sizeof seed, &data, &size);
    take(rnd, sizeof rnd, &data, &size);
    v.ctx_len = take_byte(&data, &size); /* 0..255 */
    v.msg_len = take_u16(&data, &size) % 1024;
    unsigned target = take_byte(&data, &size) % 5, offset = take_u16(&data, &size);
    v.pk = exact(set->pk_len);
    v.sig_len = set->sig_len;
    v.sig = exact(v.sig_len);
    v.ctx = exact(v.ctx_len);
    take(v.ctx, v.ctx_len, &data, &size);
    v.msg = exact(v.msg_len);
    take(v.msg, v.msg_len, &data, &size);

    fuzz_check(set->keypair_derand(v.pk, sk, seed) == VG_OK);
    fuzz_check(set->sign_derand(v.sig, v.msg, v.msg_len, v.ctx, v.ctx_len, sk, rnd) == VG_OK);
    vg_wipe(sk, sizeof sk);

    /* The change: XOR the rest of the input into the target from offset
     * (target 4: the signature's length moves by 1 + the next byte mod 16,
     * down or up by bit 4 of it). */
    int changed = 0;
    if (target == 4 && size > 0) {
        unsigned d = take_byte(&data, &size);
        size_t len = (d & 16) ? set->sig_len + 1 + (d % 16) : set->sig_len - 1 - (d % 16);
        uint8_t *s = exact(len);
        memcpy(s, v.sig, len < set->sig_len ? len : set->sig_len);
        if (len > set->sig_len)
            memset(s + set->sig_len, 0, len - set->sig_len);
        free(v.sig);
        v.sig = s;
        v.sig_len = len;
        changed = 1;
    } else if (target < 4) {
        uint8_t *p[4] = {v.sig, v.pk, v.msg, v.ctx};
        size_t n[4] = {v.sig_len, set->pk_len, v.msg_len, v.ctx_len};
        if (n[target] > 0)
            for (size_t i = offset % n[target]; i < n[target] && size > 0; i++) {
                uint8_t x = (uint8_t)take_byte(&data, &size);
                p[target][i] ^= x;
                changed |= x != 0;
            }
    }
    int rc = check_verify(set, &v);
    fuzz_check(rc == (changed ? VG_ERR_VERIFY : VG_OK));
    vin_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const struct fuzz_dsa *set = &g_sets[data[0] % 3];
    unsigned mode = (data[0] >> 2) & 1;
    if (mode == 0)
        run_arbitrary(set, data + 1, size - 1);
    else
        run_valid(set, data + 1, size - 1);
    return 0;
}
