/*
 * Public incremental SHA3-256, SHA3-512 and SHAKE128/256 (FIPS 202) of
 * include/vgcrypto.h, over the sponge of sha3.c (vg_keccak_ctx) with the
 * permutation chosen by the dispatch at init.
 *
 * As in sha2_api.c, the caller's storage holds the internal context and a
 * per-type `magic` word that init sets and every wipe clears; update, final,
 * absorb and squeeze refuse a state with the wrong magic, and every failure
 * wipes the state and zeroes the output (DESIGN 2, uniform rules).
 */
#include "common.h"
#include "keccak.h"

/* may_alias: see sha2_api.c. */
typedef struct {
    vg_keccak_ctx c;
    uint64_t magic;
} __attribute__((may_alias)) keccak_st;

_Static_assert(sizeof(keccak_st) <= sizeof(vg_sha3_256_state), "vg_sha3_256_state too small");
_Static_assert(sizeof(keccak_st) <= sizeof(vg_sha3_512_state), "vg_sha3_512_state too small");
_Static_assert(sizeof(keccak_st) <= sizeof(vg_shake_state), "vg_shake_state too small");
_Static_assert(_Alignof(keccak_st) <= _Alignof(vg_sha3_256_state), "vg_sha3_256_state alignment");
_Static_assert(_Alignof(keccak_st) <= _Alignof(vg_sha3_512_state), "vg_sha3_512_state alignment");
_Static_assert(_Alignof(keccak_st) <= _Alignof(vg_shake_state), "vg_shake_state alignment");

/* Arbitrary distinct nonzero values. */
#define MAGIC_SHA3_256 0x7667736861335f32ULL
#define MAGIC_SHA3_512 0x76677368613335f5ULL
#define MAGIC_SHAKE 0x766773686b616b21ULL

/* Shared init: the whole storage wiped first (a copy holds no stale bytes),
 * then the sponge for the rate and domain byte given. */
static int keccak_state_init(keccak_st *s, size_t size, uint64_t magic,
                             void (*ctx_init)(vg_keccak_ctx *))
{
    if (!s)
        return VG_ERR_INPUT;
    vg_wipe(s, size);
    ctx_init(&s->c);
    s->magic = magic;
    return VG_OK;
}

/* Absorb; refused (state wiped) for a NULL in with len > 0, a state not set
 * up for this type, or (SHAKE) one that has begun squeezing. */
static int keccak_state_absorb(keccak_st *s, size_t size, uint64_t magic, const uint8_t *in,
                               size_t len)
{
    if (!s)
        return VG_ERR_INPUT;
    if ((!in && len) || s->magic != magic || s->c.squeezing) {
        vg_wipe(s, size);
        return VG_ERR_INPUT;
    }
    vg_keccak_absorb(&s->c, in, len);
    return VG_OK;
}

static int sha3_state_final(keccak_st *s, size_t size, uint64_t magic, uint8_t *out,
                            size_t out_len)
{
    int rc = VG_ERR_INPUT;
    if (s && out && s->magic == magic) {
        vg_sha3_final(&s->c, out, out_len); /* wipes the context */
        rc = VG_OK;
    } else if (out) {
        vg_wipe(out, out_len);
    }
    if (s)
        vg_wipe(s, size); /* clears magic: a second final is refused */
    return rc;
}

int vg_sha3_256_init(vg_sha3_256_state *st)
{
    return keccak_state_init((keccak_st *)st, sizeof *st, MAGIC_SHA3_256, vg_sha3_256_ctx_init);
}

int vg_sha3_256_update(vg_sha3_256_state *st, const uint8_t *in, size_t len)
{
    return keccak_state_absorb((keccak_st *)st, sizeof *st, MAGIC_SHA3_256, in, len);
}

int vg_sha3_256_final(vg_sha3_256_state *st, uint8_t out[32])
{
    return sha3_state_final((keccak_st *)st, sizeof *st, MAGIC_SHA3_256, out, 32);
}

int vg_sha3_512_init(vg_sha3_512_state *st)
{
    return keccak_state_init((keccak_st *)st, sizeof *st, MAGIC_SHA3_512, vg_sha3_512_ctx_init);
}

int vg_sha3_512_update(vg_sha3_512_state *st, const uint8_t *in, size_t len)
{
    return keccak_state_absorb((keccak_st *)st, sizeof *st, MAGIC_SHA3_512, in, len);
}

int vg_sha3_512_final(vg_sha3_512_state *st, uint8_t out[64])
{
    return sha3_state_final((keccak_st *)st, sizeof *st, MAGIC_SHA3_512, out, 64);
}

/* ---- SHAKE -------------------------------------------------------------- */

int vg_shake128_init(vg_shake_state *st)
{
    return keccak_state_init((keccak_st *)st, sizeof *st, MAGIC_SHAKE, vg_shake128_ctx_init);
}

int vg_shake256_init(vg_shake_state *st)
{
    return keccak_state_init((keccak_st *)st, sizeof *st, MAGIC_SHAKE, vg_shake256_ctx_init);
}

int vg_shake_absorb(vg_shake_state *st, const uint8_t *in, size_t len)
{
    return keccak_state_absorb((keccak_st *)st, sizeof *st, MAGIC_SHAKE, in, len);
}

/* The first squeeze pads the input (FIPS 202 5.1); later ones continue the
 * output stream (vg_keccak_squeeze keeps the position). Refused (state
 * wiped, out zeroed): a NULL out with len > 0 or a state not set up. */
int vg_shake_squeeze(vg_shake_state *st, uint8_t *out, size_t len)
{
    keccak_st *s = (keccak_st *)st;
    if (!st || (!out && len) || s->magic != MAGIC_SHAKE) {
        if (out && len)
            vg_wipe(out, len);
        if (st)
            vg_wipe(st, sizeof *st);
        return VG_ERR_INPUT;
    }
    if (!s->c.squeezing)
        vg_keccak_finalize(&s->c);
    vg_keccak_squeeze(&s->c, out, len);
    return VG_OK;
}

int vg_shake_wipe(vg_shake_state *st)
{
    if (!st)
        return VG_ERR_INPUT;
    vg_wipe(st, sizeof *st);
    return VG_OK;
}
