/*
 * libFuzzer target: the incremental (streaming) hash interfaces against the
 * one-shot public API, for every implementation the build and CPU offer.
 *
 * Input: byte 0 picks the algorithm, byte 1 seeds the split pattern, byte 2
 * the SHAKE output length; the rest is the message. The message is fed in
 * chunks of odd lengths (1, 3, ..., 169: straddling the 64/128-byte SHA-2
 * blocks and the 72..168-byte Keccak rates), with the occasional empty
 * update; SHAKE output is squeezed in odd chunks too. Any difference from
 * vg_sha256 / vg_sha512 / vg_sha3_* / vg_shake* aborts.
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
    const struct vg_sha256_impl *impls[2] = {vg_sha256_portable_get(), vg_sha256_shani_get()};
    check(vg_sha256(want, msg, len) == VG_OK);
    for (int i = 0; i < 2; i++) {
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    unsigned alg = data[0] % 6u;
    uint8_t seed = data[1];
    size_t xof_len = 3u * (size_t)data[2]; /* 0 .. 765: an empty squeeze too */
    const uint8_t *msg = data + 3;
    size_t len = size - 3;
    switch (alg) {
    case 0: fuzz_sha256(msg, len, seed); break;
    case 1: fuzz_sha512(msg, len, seed); break;
    default: fuzz_keccak((int)alg - 2, msg, len, seed, xof_len); break;
    }
    return 0;
}
