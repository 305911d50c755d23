/*
 * Public SHA-256, SHA-384 and SHA-512 (FIPS 180-4): the one-shot functions
 * and the incremental states of include/vgcrypto.h, over the streaming code
 * in sha256.c / sha512.c with the implementation chosen by the dispatch at
 * init.
 *
 * A public state (vg_sha256_state, ...) is caller storage holding the
 * internal context and a `magic` word that init sets to a per-type value
 * and every wipe clears: update and final refuse a state whose magic is
 * wrong (never initialised, already finalised, wiped after an error, or a
 * state of another hash), at the cost of one compare. Every failure wipes
 * the state and zeroes the output (DESIGN 2, uniform rules).
 */
#include "common.h"
#include "sha2.h"

/* The view of the caller's storage. may_alias: the storage's declared type
 * is the public struct (an array of uint64_t), read here through another
 * type, so type-based alias analysis must not reorder the two. */
typedef struct {
    vg_sha256_ctx c;
    uint64_t magic;
} __attribute__((may_alias)) sha256_st;

typedef struct {
    vg_sha512_ctx c;
    uint64_t magic;
} __attribute__((may_alias)) sha512_st;

_Static_assert(sizeof(sha256_st) <= sizeof(vg_sha256_state), "vg_sha256_state too small");
_Static_assert(sizeof(sha512_st) <= sizeof(vg_sha384_state), "vg_sha384_state too small");
_Static_assert(sizeof(sha512_st) <= sizeof(vg_sha512_state), "vg_sha512_state too small");
_Static_assert(_Alignof(sha256_st) <= _Alignof(vg_sha256_state), "vg_sha256_state alignment");
_Static_assert(_Alignof(sha512_st) <= _Alignof(vg_sha512_state), "vg_sha512_state alignment");
_Static_assert(_Alignof(sha512_st) <= _Alignof(vg_sha384_state), "vg_sha384_state alignment");

/* Arbitrary distinct nonzero values ("vgsha256" etc. in ASCII). */
#define MAGIC_SHA256 0x7667736861323536ULL
#define MAGIC_SHA384 0x7667736861333834ULL
#define MAGIC_SHA512 0x7667736861353132ULL

/* in may be NULL only when len == 0. Returns VG_ERR_INPUT (out, when given,
 * zeroed: DESIGN 2, uniform rules) for a NULL out, a NULL in with len > 0,
 * or for SHA-256 a message of 2^61 bytes or more (FIPS 180-4 1: SHA-256
 * takes messages below 2^64 bits); VG_OK otherwise. */
int vg_sha256(uint8_t out[32], const uint8_t *in, size_t len)
{
    vg_sha256_ctx ctx;
    if (!out || (!in && len) || ((uint64_t)len >> 61) != 0) {
        if (out)
            vg_wipe(out, 32);
        return VG_ERR_INPUT;
    }
    vg_sha256_ctx_init(&ctx);
    vg_sha256_ctx_update(&ctx, in, len);
    vg_sha256_ctx_final(&ctx, out); /* wipes ctx */
    return VG_OK;
}

/* SHA-512's limit, 2^128 bits, is beyond any size_t. */
int vg_sha512(uint8_t out[64], const uint8_t *in, size_t len)
{
    vg_sha512_ctx ctx;
    if (!out || (!in && len)) {
        if (out)
            vg_wipe(out, 64);
        return VG_ERR_INPUT;
    }
    vg_sha512_ctx_init(&ctx);
    vg_sha512_ctx_update(&ctx, in, len);
    vg_sha512_ctx_final(&ctx, out); /* wipes ctx */
    return VG_OK;
}

/* FIPS 180-4 5.3.4 and 6.5; limit as SHA-512's. */
int vg_sha384(uint8_t out[48], const uint8_t *in, size_t len)
{
    vg_sha512_ctx ctx;
    if (!out || (!in && len)) {
        if (out)
            vg_wipe(out, 48);
        return VG_ERR_INPUT;
    }
    vg_sha384_ctx_init(&ctx);
    vg_sha512_ctx_update(&ctx, in, len);
    vg_sha384_ctx_final(&ctx, out); /* wipes ctx */
    return VG_OK;
}

/* ---- incremental -------------------------------------------------------- */

int vg_sha256_init(vg_sha256_state *st)
{
    sha256_st *s = (sha256_st *)st;
    if (!st)
        return VG_ERR_INPUT;
    vg_wipe(st, sizeof *st); /* the unused tail too: a copy holds no stale bytes */
    vg_sha256_ctx_init(&s->c);
    s->magic = MAGIC_SHA256;
    return VG_OK;
}

/* Refused (state wiped): a NULL in with len > 0, a state not set up, or a
 * total of 2^61 bytes or more. */
int vg_sha256_update(vg_sha256_state *st, const uint8_t *in, size_t len)
{
    sha256_st *s = (sha256_st *)st;
    if (!st)
        return VG_ERR_INPUT;
    if ((!in && len) || s->magic != MAGIC_SHA256 || !vg_sha256_ctx_room(&s->c, len)) {
        vg_wipe(st, sizeof *st);
        return VG_ERR_INPUT;
    }
    vg_sha256_ctx_update(&s->c, in, len);
    return VG_OK;
}

int vg_sha256_final(vg_sha256_state *st, uint8_t out[32])
{
    sha256_st *s = (sha256_st *)st;
    int rc = VG_ERR_INPUT;
    if (st && out && s->magic == MAGIC_SHA256) {
        vg_sha256_ctx_final(&s->c, out);
        rc = VG_OK;
    } else if (out) {
        vg_wipe(out, 32);
    }
    if (st)
        vg_wipe(st, sizeof *st); /* clears magic: a second final is refused */
    return rc;
}

/* SHA-384 and SHA-512 share the context type; the magic tells them apart,
 * so one type's state given to the other's functions is refused. */
static int sha512_init_common(sha512_st *s, size_t size, uint64_t magic)
{
    if (!s)
        return VG_ERR_INPUT;
    vg_wipe(s, size);
    if (magic == MAGIC_SHA384)
        vg_sha384_ctx_init(&s->c);
    else
        vg_sha512_ctx_init(&s->c);
    s->magic = magic;
    return VG_OK;
}

static int sha512_update_common(sha512_st *s, size_t size, uint64_t magic, const uint8_t *in,
                                size_t len)
{
    if (!s)
        return VG_ERR_INPUT;
    if ((!in && len) || s->magic != magic) {
        vg_wipe(s, size);
        return VG_ERR_INPUT;
    }
    vg_sha512_ctx_update(&s->c, in, len);
    return VG_OK;
}

static int sha512_final_common(sha512_st *s, size_t size, uint64_t magic, uint8_t *out,
                               size_t out_len)
{
    int rc = VG_ERR_INPUT;
    if (s && out && s->magic == magic) {
        if (magic == MAGIC_SHA384)
            vg_sha384_ctx_final(&s->c, out);
        else
            vg_sha512_ctx_final(&s->c, out);
        rc = VG_OK;
    } else if (out) {
        vg_wipe(out, out_len);
    }
    if (s)
        vg_wipe(s, size);
    return rc;
}

int vg_sha384_init(vg_sha384_state *st)
{
    return sha512_init_common((sha512_st *)st, sizeof *st, MAGIC_SHA384);
}

int vg_sha384_update(vg_sha384_state *st, const uint8_t *in, size_t len)
{
    return sha512_update_common((sha512_st *)st, sizeof *st, MAGIC_SHA384, in, len);
}

int vg_sha384_final(vg_sha384_state *st, uint8_t out[48])
{
    return sha512_final_common((sha512_st *)st, sizeof *st, MAGIC_SHA384, out, 48);
}

int vg_sha512_init(vg_sha512_state *st)
{
    return sha512_init_common((sha512_st *)st, sizeof *st, MAGIC_SHA512);
}

int vg_sha512_update(vg_sha512_state *st, const uint8_t *in, size_t len)
{
    return sha512_update_common((sha512_st *)st, sizeof *st, MAGIC_SHA512, in, len);
}

int vg_sha512_final(vg_sha512_state *st, uint8_t out[64])
{
    return sha512_final_common((sha512_st *)st, sizeof *st, MAGIC_SHA512, out, 64);
}
