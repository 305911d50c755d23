/*
 * libFuzzer target: the incremental (streaming) hash interfaces against the
 * one-shot public API: the internal contexts for every implementation the
 * build and CPU offer, and the public states of include/vgcrypto.h
 * (vg_sha256_init/update/final ... vg_shake_*, vg_hmac_sha*_init/...) with
 * the implementation the dispatch picks.
 *
 * Input: byte 0 picks the algorithm, byte 1 seeds the split pattern, byte 2
 * the SHAKE output length (for HMAC: the key length, the key taken from the
 * front of the message); the rest is the message. The message is fed in
 * chunks of odd lengths (1, 3, ..., 169: straddling the 64/128-byte SHA-2
 * blocks and the 72..168-byte Keccak rates), with the occasional empty
 * update; SHAKE output is squeezed in odd chunks too. A public state is also
 * forked (copied) at a split point chosen by the seed, and the copy must
 * finish to the same value. Any difference from the one-shot functions
 * aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "hash/keccak.h"
#include "hash/sha2.h"
#include "vgcrypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const size_t g_odd[] = {1, 3, 5, 7, 31, 63, 65, 71, 73, 127, 129, 135, 137, 167, 169};
#define N_ODD (sizeof g_odd / sizeof g_odd[0])

/* The split pattern: a tiny generator over the seed byte. */
struct splitter {
    uint32_t s;
};

/* Next chunk length (odd), or 0 for an empty update now and then. */
static size_t next_len(struct splitter *sp)
{
    sp->s = sp->s * 1103515245u + 12345u;
    uint32_t r = sp->s >> 16;
    if ((r & 31) == 0)
        return 0;
    return g_odd[(r >> 5) % N_ODD];
}

static void check(int ok)
{
    if (!ok)
        abort();
}

static void fuzz_sha256(const uint8_t *msg, size_t len, uint8_t seed)
{
    uint8_t want[32], got[32];
    const struct vg_sha256_impl *impls[3] = {vg_sha256_portable_get(), vg_sha256_shani_get(),
                                             vg_sha256_avx2_get()};
    check(vg_sha256(want, msg, len) == VG_OK);
    for (int i = 0; i < 3; i++) {
        struct splitter sp = {seed};
        vg_sha256_ctx c;
        if (!impls[i])
            continue;
        vg_sha256_ctx_init_impl(&c, impls[i]);
        for (size_t off = 0; off < len;) {
            size_t n = next_len(&sp);
            n = n > len - off ? len - off : n;
            vg_sha256_ctx_update(&c, msg + off, n);
            off += n;
        }
        vg_sha256_ctx_final(&c, got);
        check(memcmp(want, got, 32) == 0);
    }
}

static void fuzz_sha512(const uint8_t *msg, size_t len, uint8_t seed)
{
    uint8_t want[64], got[64];
    const struct vg_sha512_impl *impls[2] = {vg_sha512_portable_get(), vg_sha512_avx2_get()};
    check(vg_sha512(want, msg, len) == VG_OK);
    for (int i = 0; i < 2; i++) {
        struct splitter sp = {seed};
        vg_sha512_ctx c;
        if (!impls[i])
            continue;
        vg_sha512_ctx_init_impl(&c, impls[i]);
        for (size_t off = 0; off < len;) {
            size_t n = next_len(&sp);
            n = n > len - off ? len - off : n;
            vg_sha512_ctx_update(&c, msg + off, n);
            off += n;
        }
        vg_sha512_ctx_final(&c, got);
        check(memcmp(want, got, 64) == 0);
    }
}

/* SHA-3 (xof == 0, out_len the digest size) or SHAKE (xof == 1). */
static void fuzz_keccak(int which, const uint8_t *msg, size_t len, uint8_t seed, size_t xof_len)
{
    static const size_t rates[4] = {136, 72, 168, 136};
    static const size_t sizes[4] = {32, 64, 0, 0};
    uint8_t want[800], got[800];
    int xof = which >= 2;
    size_t out_len = xof ? xof_len : sizes[which];
    const struct vg_keccak_impl *impls[3] = {vg_keccak_portable_get(), vg_keccak_x86_get(),
                                             vg_keccak_avx512_get()};
    switch (which) {
    case 0: check(vg_sha3_256(want, msg, len) == VG_OK); break;
    case 1: check(vg_sha3_512(want, msg, len) == VG_OK); break;
    case 2: check(vg_shake128(want, out_len, msg, len) == VG_OK); break;
    default: check(vg_shake256(want, out_len, msg, len) == VG_OK); break;
    }
    for (int i = 0; i < 3; i++) {
        struct splitter sp = {seed};
        vg_keccak_ctx c;
        if (!impls[i])
            continue;
        vg_keccak_init_impl(&c, rates[which], xof ? 0x1f : 0x06, impls[i]);
        for (size_t off = 0; off < len;) {
            size_t n = next_len(&sp);
            n = n > len - off ? len - off : n;
            vg_keccak_absorb(&c, msg + off, n);
            off += n;
        }
        memset(got, 0, sizeof got);
        if (!xof) {
            vg_sha3_final(&c, got, out_len);
        } else {
            vg_keccak_finalize(&c);
            for (size_t off = 0; off < out_len;) {
                size_t n = next_len(&sp);
                n = n > out_len - off ? out_len - off : n;
                vg_keccak_squeeze(&c, got + off, n);
                off += n;
            }
        }
        check(memcmp(want, got, out_len) == 0);
    }
}

/* SHA-384 on each SHA-512 implementation (internal contexts). */
static void fuzz_sha384(const uint8_t *msg, size_t len, uint8_t seed)
{
    uint8_t want[48], got[48];
    const struct vg_sha512_impl *impls[2] = {vg_sha512_portable_get(), vg_sha512_avx2_get()};
    check(vg_sha384(want, msg, len) == VG_OK);
    for (int i = 0; i < 2; i++) {
        struct splitter sp = {seed};
        vg_sha512_ctx c;
        if (!impls[i])
            continue;
        vg_sha384_ctx_init_impl(&c, impls[i]);
        for (size_t off = 0; off < len;) {
            size_t n = next_len(&sp);
            n = n > len - off ? len - off : n;
            vg_sha512_ctx_update(&c, msg + off, n);
            off += n;
        }
        vg_sha384_ctx_final(&c, got);
        check(memcmp(want, got, 48) == 0);
    }
}

/* ---- the public states ---------------------------------------------------- */

/* Storage for any public state. */
typedef union {
    vg_sha256_state s256;
    vg_sha384_state s384;
    vg_sha512_state s512;
    vg_sha3_256_state s3_256;
    vg_sha3_512_state s3_512;
    vg_hmac_sha256_state h256;
    vg_hmac_sha384_state h384;
    vg_hmac_sha512_state h512;
} any_state;

struct pub {
    size_t out_len;
    int (*oneshot)(uint8_t *out, const uint8_t *in, size_t len);
    int (*init)(any_state *st);
    int (*update)(any_state *st, const uint8_t *in, size_t len);
    int (*final)(any_state *st, uint8_t *out);
};
#define PUB(n, field)                                                                     \
    static int init_##n(any_state *st) { return vg_##n##_init(&st->field); }             \
    static int update_##n(any_state *st, const uint8_t *in, size_t len)                  \
    {                                                                                     \
        return vg_##n##_update(&st->field, in, len);                                      \
    }                                                                                     \
    static int final_##n(any_state *st, uint8_t *out) { return vg_##n##_final(&st->field, out); }
PUB(sha256, s256)
PUB(sha384, s384)
PUB(sha512, s512)
PUB(sha3_256, s3_256)
PUB(sha3_512, s3_512)
static const struct pub g_pub[5] = {
    {32, vg_sha256, init_sha256, update_sha256, final_sha256},
    {48, vg_sha384, init_sha384, update_sha384, final_sha384},
    {64, vg_sha512, init_sha512, update_sha512, final_sha512},
    {32, vg_sha3_256, init_sha3_256, update_sha3_256, final_sha3_256},
    {64, vg_sha3_512, init_sha3_512, update_sha3_512, final_sha3_512},
};

/* Feed msg through st in split pieces; at the piece boundary after `fork`
 * pieces (or at the end, for fewer pieces), copy the state into *copy and
 * feed the copy the rest. */
static void feed_forked(const struct pub *h, any_state *st, any_state *copy, const uint8_t *msg,
                        size_t len, uint8_t seed)
{
    struct splitter sp = {seed};
    size_t fork = seed % 7u, k = 0, off = 0, fork_off = 0;
    int forked = 0;
    for (;;) {
        if (!forked && (k == fork || off >= len)) {
            *copy = *st;
            fork_off = off;
            forked = 1;
        }
        if (off >= len)
            break;
        size_t n = next_len(&sp);
        n = n > len - off ? len - off : n;
        check(h->update(st, msg + off, n) == VG_OK);
        off += n;
        k++;
    }
    check(h->update(copy, msg + fork_off, len - fork_off) == VG_OK);
}

static void fuzz_public(int which, const uint8_t *msg, size_t len, uint8_t seed)
{
    const struct pub *h = &g_pub[which];
    uint8_t want[64], got[64], got2[64];
    any_state st, copy;
    check(h->oneshot(want, msg, len) == VG_OK);
    check(h->init(&st) == VG_OK);
    feed_forked(h, &st, &copy, msg, len, seed);
    check(h->final(&st, got) == VG_OK);
    check(h->final(&copy, got2) == VG_OK);
    check(memcmp(want, got, h->out_len) == 0 && memcmp(want, got2, h->out_len) == 0);
    /* The state is spent: a second final is refused and zeroes out. */
    check(h->final(&st, got) == VG_ERR_INPUT);
    for (size_t i = 0; i < h->out_len; i++)
        check(got[i] == 0);
}

/* SHAKE through vg_shake_*: absorb in pieces, squeeze in pieces, fork by
 * copying at a squeeze boundary. */
static void fuzz_public_shake(int is256, const uint8_t *msg, size_t len, uint8_t seed,
                              size_t out_len)
{
    uint8_t want[800], got[800], got2[800];
    struct splitter sp = {seed};
    vg_shake_state st, copy;
    size_t fork_off = 0;
    int forked = 0;
    check((is256 ? vg_shake256(want, out_len, msg, len) : vg_shake128(want, out_len, msg, len)) ==
          VG_OK);
    check((is256 ? vg_shake256_init(&st) : vg_shake128_init(&st)) == VG_OK);
    for (size_t off = 0; off < len;) {
        size_t n = next_len(&sp);
        n = n > len - off ? len - off : n;
        check(vg_shake_absorb(&st, msg + off, n) == VG_OK);
        off += n;
    }
    for (size_t off = 0, k = 0;; k++) {
        if (!forked && (k == seed % 5u || off >= out_len)) {
            copy = st;
            fork_off = off;
            forked = 1;
        }
        if (off >= out_len)
            break;
        size_t n = next_len(&sp);
        n = n > out_len - off ? out_len - off : n;
        check(vg_shake_squeeze(&st, got + off, n) == VG_OK);
        off += n;
    }
    check(vg_shake_squeeze(&copy, got2 + fork_off, out_len - fork_off) == VG_OK);
    check(memcmp(want, got, out_len) == 0);
    check(memcmp(want + fork_off, got2 + fork_off, out_len - fork_off) == 0);
    /* Any squeeze, even of 0 bytes, ends the input: absorb is refused. */
    check(vg_shake_squeeze(&st, NULL, 0) == VG_OK);
    check(vg_shake_absorb(&st, msg, len) == VG_ERR_INPUT);
    check(vg_shake_wipe(&copy) == VG_OK);
}

/* HMAC: the first key_len message bytes are the key, the rest the message. */
static void fuzz_hmac(int which, const uint8_t *data, size_t size, uint8_t seed, size_t key_len)
{
    static const size_t out_lens[3] = {32, 48, 64};
    uint8_t want[64], got[64], got2[64];
    struct splitter sp = {seed};
    any_state st, copy;
    const uint8_t *key = data, *msg;
    size_t len, fork_off = 0;
    int forked = 0;
    if (key_len > size)
        key_len = size;
    msg = data + key_len;
    len = size - key_len;
    switch (which) {
    case 0:
        check(vg_hmac_sha256(want, key, key_len, msg, len) == VG_OK);
        check(vg_hmac_sha256_init(&st.h256, key, key_len) == VG_OK);
        break;
    case 1:
        check(vg_hmac_sha384(want, key, key_len, msg, len) == VG_OK);
        check(vg_hmac_sha384_init(&st.h384, key, key_len) == VG_OK);
        break;
    default:
        check(vg_hmac_sha512(want, key, key_len, msg, len) == VG_OK);
        check(vg_hmac_sha512_init(&st.h512, key, key_len) == VG_OK);
        break;
    }
    for (size_t off = 0, k = 0;; k++) {
        if (!forked && (k == seed % 5u || off >= len)) {
            copy = st;
            fork_off = off;
            forked = 1;
        }
        if (off >= len)
            break;
        size_t n = next_len(&sp);
        n = n > len - off ? len - off : n;
        check((which == 0   ? vg_hmac_sha256_update(&st.h256, msg + off, n)
               : which == 1 ? vg_hmac_sha384_update(&st.h384, msg + off, n)
                            : vg_hmac_sha512_update(&st.h512, msg + off, n)) == VG_OK);
        off += n;
    }
    switch (which) {
    case 0:
        check(vg_hmac_sha256_update(&copy.h256, msg + fork_off, len - fork_off) == VG_OK);
        check(vg_hmac_sha256_final(&st.h256, got) == VG_OK);
        check(vg_hmac_sha256_final(&copy.h256, got2) == VG_OK);
        break;
    case 1:
        check(vg_hmac_sha384_update(&copy.h384, msg + fork_off, len - fork_off) == VG_OK);
        check(vg_hmac_sha384_final(&st.h384, got) == VG_OK);
        check(vg_hmac_sha384_final(&copy.h384, got2) == VG_OK);
        break;
    default:
        check(vg_hmac_sha512_update(&copy.h512, msg + fork_off, len - fork_off) == VG_OK);
        check(vg_hmac_sha512_final(&st.h512, got) == VG_OK);
        check(vg_hmac_sha512_final(&copy.h512, got2) == VG_OK);
        break;
    }
    check(memcmp(want, got, out_lens[which]) == 0);
    check(memcmp(want, got2, out_lens[which]) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    unsigned alg = data[0] % 17u;
    uint8_t seed = data[1];
    size_t xof_len = 3u * (size_t)data[2]; /* 0 .. 765: an empty squeeze too */
    const uint8_t *msg = data + 3;
    size_t len = size - 3;
    switch (alg) {
    case 0: fuzz_sha256(msg, len, seed); break;
    case 1: fuzz_sha512(msg, len, seed); break;
    case 2: case 3: case 4: case 5: fuzz_keccak((int)alg - 2, msg, len, seed, xof_len); break;
    case 6: fuzz_sha384(msg, len, seed); break;
    case 7: case 8: case 9: case 10: case 11: fuzz_public((int)alg - 7, msg, len, seed); break;
    case 12: case 13: fuzz_public_shake((int)alg - 12, msg, len, seed, xof_len); break;
    default: fuzz_hmac((int)alg - 14, msg, len, seed, data[2]); break;
    }
    return 0;
}
