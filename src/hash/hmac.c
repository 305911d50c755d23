/*
 * HMAC-SHA-256, HMAC-SHA-384 and HMAC-SHA-512: the shared keying and
 * finishing code (hmac.h) and the public one-shot and incremental functions.
 *
 * Specification: RFC 2104 section 2; FIPS 198-1 section 4 (the same
 * construction); RFC 4231 gives the test vectors.
 *
 * The key is hashed (when longer than the block) and XORed into the pads
 * once, at init; the state keeps the inner and outer hash states after the
 * pad blocks, so a copy of a freshly keyed state MACs another message with
 * no key work. Constant time: branches depend only on lengths; the key and
 * pads flow through XOR and the hash's own constant-time compression.
 * Every buffer that held key material is wiped before return.
 */
#include "common.h"
#include "hmac.h"
#include "sha2.h"

/* ---- descriptors: adapters from void * to the typed contexts ------------ */

static void sha256_init_v(void *c) { vg_sha256_ctx_init(c); }
static void sha256_update_v(void *c, const uint8_t *in, size_t len) { vg_sha256_ctx_update(c, in, len); }
static void sha256_final_v(void *c, uint8_t *out) { vg_sha256_ctx_final(c, out); }
static void sha384_init_v(void *c) { vg_sha384_ctx_init(c); }
static void sha512_init_v(void *c) { vg_sha512_ctx_init(c); }
static void sha512_update_v(void *c, const uint8_t *in, size_t len) { vg_sha512_ctx_update(c, in, len); }
static void sha384_final_v(void *c, uint8_t *out) { vg_sha384_ctx_final(c, out); }
static void sha512_final_v(void *c, uint8_t *out) { vg_sha512_ctx_final(c, out); }

const struct vg_hmac_hash vg_hmac_sha256_hash = {
    .block_len = 64, .out_len = 32, .max_bytes = VG_SHA256_MAX_BYTES,
    .init = sha256_init_v, .update = sha256_update_v, .final = sha256_final_v,
};
/* SHA-384 and SHA-512 take up to 2^128 bits: no size_t reaches that. */
const struct vg_hmac_hash vg_hmac_sha384_hash = {
    .block_len = 128, .out_len = 48, .max_bytes = UINT64_MAX,
    .init = sha384_init_v, .update = sha512_update_v, .final = sha384_final_v,
};
const struct vg_hmac_hash vg_hmac_sha512_hash = {
    .block_len = 128, .out_len = 64, .max_bytes = UINT64_MAX,
    .init = sha512_init_v, .update = sha512_update_v, .final = sha512_final_v,
};

/* ---- RFC 2104 ------------------------------------------------------------ */

void vg_hmac_key(const struct vg_hmac_hash *h, void *inner, void *outer, const uint8_t *key,
                 size_t key_len)
{
    uint8_t pad[128]; /* K0, then K0 ^ ipad, then K0 ^ opad */
    vg_hmac_hash_ctx t;
    size_t b = h->block_len;
    memset(pad, 0, sizeof pad);
    if (key_len > b) {
        /* Step 1 (FIPS 198-1 step 3): K0 = H(K) || zeros. */
        h->init(&t);
        h->update(&t, key, key_len);
        h->final(&t, pad); /* wipes t */
    } else if (key_len) {
        memcpy(pad, key, key_len); /* step 1 (FIPS 198-1 steps 1-2): K || zeros */
    }
    for (size_t i = 0; i < b; i++)
        pad[i] ^= 0x36; /* ipad */
    h->init(inner);
    h->update(inner, pad, b); /* one whole block: compressed at once */
    for (size_t i = 0; i < b; i++)
        pad[i] ^= 0x36 ^ 0x5c; /* from K0 ^ ipad to K0 ^ opad */
    h->init(outer);
    h->update(outer, pad, b);
    vg_wipe(pad, sizeof pad);
}

void vg_hmac_finish(const struct vg_hmac_hash *h, void *inner, void *outer, uint8_t *out)
{
    uint8_t d[64];
    h->final(inner, d); /* H((K0 ^ ipad) || text), wipes inner */
    h->update(outer, d, h->out_len);
    h->final(outer, out); /* H((K0 ^ opad) || that), wipes outer */
    vg_wipe(d, sizeof d);
}

/* ---- one-shot ------------------------------------------------------------ */

/* VG_ERR_INPUT (out zeroed) for a NULL out, a NULL key or msg with a
 * nonzero length, or a key or (block + message) over the hash's limit. */
static int hmac_oneshot(const struct vg_hmac_hash *h, uint8_t *out, const uint8_t *key,
                        size_t key_len, const uint8_t *msg, size_t msg_len)
{
    vg_hmac_hash_ctx inner, outer;
    if (!out || (!key && key_len) || (!msg && msg_len) || (uint64_t)key_len > h->max_bytes ||
        (uint64_t)msg_len > h->max_bytes - h->block_len) {
        if (out)
            vg_wipe(out, h->out_len);
        return VG_ERR_INPUT;
    }
    vg_hmac_key(h, &inner, &outer, key, key_len);
    h->update(&inner, msg, msg_len);
    vg_hmac_finish(h, &inner, &outer, out); /* wipes inner and outer */
    return VG_OK;
}

int vg_hmac_sha256(uint8_t out[32], const uint8_t *key, size_t key_len, const uint8_t *msg,
                   size_t msg_len)
{
    return hmac_oneshot(&vg_hmac_sha256_hash, out, key, key_len, msg, msg_len);
}

int vg_hmac_sha384(uint8_t out[48], const uint8_t *key, size_t key_len, const uint8_t *msg,
                   size_t msg_len)
{
    return hmac_oneshot(&vg_hmac_sha384_hash, out, key, key_len, msg, msg_len);
}

int vg_hmac_sha512(uint8_t out[64], const uint8_t *key, size_t key_len, const uint8_t *msg,
                   size_t msg_len)
{
    return hmac_oneshot(&vg_hmac_sha512_hash, out, key, key_len, msg, msg_len);
}

/* ---- incremental --------------------------------------------------------- */

/* The views of the caller's storage (may_alias: see sha2_api.c). magic is
 * set by init and cleared by every wipe, as for the hash states. */
typedef struct {
    vg_sha256_ctx inner, outer;
    uint64_t magic;
} __attribute__((may_alias)) hmac256_st;

typedef struct {
    vg_sha512_ctx inner, outer;
    uint64_t magic;
} __attribute__((may_alias)) hmac512_st; /* HMAC-SHA-384 and HMAC-SHA-512 */

_Static_assert(sizeof(hmac256_st) <= sizeof(vg_hmac_sha256_state), "HMAC-SHA-256 state");
_Static_assert(sizeof(hmac512_st) <= sizeof(vg_hmac_sha384_state), "HMAC-SHA-384 state");
_Static_assert(sizeof(hmac512_st) <= sizeof(vg_hmac_sha512_state), "HMAC-SHA-512 state");
_Static_assert(_Alignof(hmac256_st) <= _Alignof(vg_hmac_sha256_state), "alignment");
_Static_assert(_Alignof(hmac512_st) <= _Alignof(vg_hmac_sha384_state), "alignment");
_Static_assert(_Alignof(hmac512_st) <= _Alignof(vg_hmac_sha512_state), "alignment");

#define MAGIC_HMAC256 0x76676d6163323536ULL
#define MAGIC_HMAC384 0x76676d6163333834ULL
#define MAGIC_HMAC512 0x76676d6163353132ULL

/* Shared bodies. st (non-NULL, size bytes) is the storage whose inner,
 * outer and magic fields the caller passes; on failure it is wiped. */
static int hmac_init(const struct vg_hmac_hash *h, void *st, size_t size, void *inner,
                     void *outer, uint64_t *magic, uint64_t want, const uint8_t *key,
                     size_t key_len)
{
    vg_wipe(st, size); /* the unused tail too: a copy holds no stale bytes */
    if ((!key && key_len) || (uint64_t)key_len > h->max_bytes)
        return VG_ERR_INPUT;
    vg_hmac_key(h, inner, outer, key, key_len);
    *magic = want;
    return VG_OK;
}

/* ok: the state's magic is right and len more bytes fit the hash. */
static int hmac_update(const struct vg_hmac_hash *h, void *st, size_t size, int ok, void *inner,
                       const uint8_t *msg, size_t len)
{
    if (!ok || (!msg && len)) {
        vg_wipe(st, size);
        return VG_ERR_INPUT;
    }
    h->update(inner, msg, len);
    return VG_OK;
}

/* st may be NULL here (then out is zeroed); ok as above. */
static int hmac_final(const struct vg_hmac_hash *h, void *st, size_t size, int ok, void *inner,
                      void *outer, uint8_t *out)
{
    int rc = VG_ERR_INPUT;
    if (st && ok && out) {
        vg_hmac_finish(h, inner, outer, out);
        rc = VG_OK;
    } else if (out) {
        vg_wipe(out, h->out_len);
    }
    if (st)
        vg_wipe(st, size); /* clears magic: a second final is refused */
    return rc;
}

int vg_hmac_sha256_init(vg_hmac_sha256_state *st, const uint8_t *key, size_t key_len)
{
    hmac256_st *s = (hmac256_st *)st;
    if (!st)
        return VG_ERR_INPUT;
    return hmac_init(&vg_hmac_sha256_hash, st, sizeof *st, &s->inner, &s->outer, &s->magic,
                     MAGIC_HMAC256, key, key_len);
}

int vg_hmac_sha256_update(vg_hmac_sha256_state *st, const uint8_t *msg, size_t len)
{
    hmac256_st *s = (hmac256_st *)st;
    if (!st)
        return VG_ERR_INPUT;
    return hmac_update(&vg_hmac_sha256_hash, st, sizeof *st,
                       s->magic == MAGIC_HMAC256 && vg_sha256_ctx_room(&s->inner, len),
                       &s->inner, msg, len);
}

int vg_hmac_sha256_final(vg_hmac_sha256_state *st, uint8_t out[32])
{
    hmac256_st *s = (hmac256_st *)st;
    if (!st)
        return hmac_final(&vg_hmac_sha256_hash, NULL, 0, 0, NULL, NULL, out);
    return hmac_final(&vg_hmac_sha256_hash, st, sizeof *st, s->magic == MAGIC_HMAC256,
                      &s->inner, &s->outer, out);
}

int vg_hmac_sha384_init(vg_hmac_sha384_state *st, const uint8_t *key, size_t key_len)
{
    hmac512_st *s = (hmac512_st *)st;
    if (!st)
        return VG_ERR_INPUT;
    return hmac_init(&vg_hmac_sha384_hash, st, sizeof *st, &s->inner, &s->outer, &s->magic,
                     MAGIC_HMAC384, key, key_len);
}

int vg_hmac_sha384_update(vg_hmac_sha384_state *st, const uint8_t *msg, size_t len)
{
    hmac512_st *s = (hmac512_st *)st;
    if (!st)
        return VG_ERR_INPUT;
    return hmac_update(&vg_hmac_sha384_hash, st, sizeof *st, s->magic == MAGIC_HMAC384,
                       &s->inner, msg, len);
}

int vg_hmac_sha384_final(vg_hmac_sha384_state *st, uint8_t out[48])
{
    hmac512_st *s = (hmac512_st *)st;
    if (!st)
        return hmac_final(&vg_hmac_sha384_hash, NULL, 0, 0, NULL, NULL, out);
    return hmac_final(&vg_hmac_sha384_hash, st, sizeof *st, s->magic == MAGIC_HMAC384,
                      &s->inner, &s->outer, out);
}

int vg_hmac_sha512_init(vg_hmac_sha512_state *st, const uint8_t *key, size_t key_len)
{
    hmac512_st *s = (hmac512_st *)st;
    if (!st)
        return VG_ERR_INPUT;
    return hmac_init(&vg_hmac_sha512_hash, st, sizeof *st, &s->inner, &s->outer, &s->magic,
                     MAGIC_HMAC512, key, key_len);
}

int vg_hmac_sha512_update(vg_hmac_sha512_state *st, const uint8_t *msg, size_t len)
{
    hmac512_st *s = (hmac512_st *)st;
    if (!st)
        return VG_ERR_INPUT;
    return hmac_update(&vg_hmac_sha512_hash, st, sizeof *st, s->magic == MAGIC_HMAC512,
                       &s->inner, msg, len);
}

int vg_hmac_sha512_final(vg_hmac_sha512_state *st, uint8_t out[64])
{
    hmac512_st *s = (hmac512_st *)st;
    if (!st)
        return hmac_final(&vg_hmac_sha512_hash, NULL, 0, 0, NULL, NULL, out);
    return hmac_final(&vg_hmac_sha512_hash, st, sizeof *st, s->magic == MAGIC_HMAC512,
                      &s->inner, &s->outer, out);
}
