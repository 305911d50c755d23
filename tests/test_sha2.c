/*
 * SHA-256 / SHA-384 / SHA-512 tests (FIPS 180-4), run for every
 * implementation this build and CPU offer (portable, shani; portable, avx2;
 * SHA-384 runs on the SHA-512 ones):
 *  - the NIST example known answers ("abc", the 448- and 896-bit messages,
 *    the empty string, one million 'a'), SHA-384 included;
 *  - OpenSSL libcrypto as an independent implementation, every length
 *    0..4096 and 30 random lengths up to 1 MiB;
 *  - streaming in random pieces (empty ones, ones straddling blocks);
 *  - every variant equals the portable one;
 *  - the public API (NULL handling) and the dispatch vg_implementation
 *    reports (portable under VG_CPU_FEATURES=none);
 *  - the public incremental states (vg_sha256_init/update/final, SHA-384,
 *    SHA-512) against the one-shot functions over random splits (empty
 *    updates, splits inside a block) and forks by copying, once per variant
 *    the dispatch can pick (steered with the vg_cpu_force test hook).
 */
#include <openssl/evp.h>

#include "common.h"
#include "hash/sha2.h"
#include "vgtest.h"

#define MAXLEN (1u << 20)

static uint8_t *g_msg; /* MAXLEN deterministic pseudo-random bytes */

/* ---- helpers ------------------------------------------------------------ */

static void ours256(const struct vg_sha256_impl *impl, const uint8_t *in, size_t len,
                    uint8_t out[32])
{
    vg_sha256_ctx ctx;
    vg_sha256_ctx_init_impl(&ctx, impl);
    vg_sha256_ctx_update(&ctx, in, len);
    vg_sha256_ctx_final(&ctx, out);
}

static void ours512(const struct vg_sha512_impl *impl, const uint8_t *in, size_t len,
                    uint8_t out[64])
{
    vg_sha512_ctx ctx;
    vg_sha512_ctx_init_impl(&ctx, impl);
    vg_sha512_ctx_update(&ctx, in, len);
    vg_sha512_ctx_final(&ctx, out);
}

static void ours384(const struct vg_sha512_impl *impl, const uint8_t *in, size_t len,
                    uint8_t out[48])
{
    vg_sha512_ctx ctx;
    vg_sha384_ctx_init_impl(&ctx, impl);
    vg_sha512_ctx_update(&ctx, in, len);
    vg_sha384_ctx_final(&ctx, out);
}

static int ossl(const EVP_MD *md, const uint8_t *in, size_t len, uint8_t *out)
{
    unsigned int n = 0;
    return EVP_Digest(in, len, out, &n, md, NULL) == 1 ? (int)n : -1;
}

static int eq_hex(const uint8_t *got, size_t len, const char *hex)
{
    uint8_t want[64];
    return vgtest_unhex(want, sizeof want, hex) == (long)len && memcmp(got, want, len) == 0;
}

/* ---- FIPS 180-4 examples (NIST CSRC "Examples with intermediate values") */

static const char *const g_448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char *const g_896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                                 "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

static const struct {
    const char *msg; /* NULL: one million 'a' */
    const char *d256, *d512;
} g_kat[] = {
    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
     "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
     "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"},
    {NULL, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
     "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
     "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"},
};
static const char *const g_448_256 =
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
static const char *const g_896_512 =
    "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
    "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909";
/* NIST's SHA-256 example uses the 448-bit message and SHA-512's the
 * 896-bit one; the cross pairs are the widely published digests of the same
 * messages (and OpenSSL agrees, see the differential test). */
static const char *const g_896_256 =
    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
static const char *const g_448_512 =
    "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
    "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445";

/* SHA-384 (FIPS 180-4 6.5): NIST's examples ("abc" and the 896-bit message)
 * and the widely published digests of the empty string, the 448-bit message
 * and one million 'a' (OpenSSL agrees, see diff384). */
static const struct {
    const char *msg; /* NULL: one million 'a' */
    const char *d384;
} g_kat384[] = {
    {"abc", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
            "8086072ba1e7cc2358baeca134c825a7"},
    {"", "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da"
         "274edebfe76f65fbd51ad2f14898b95b"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6"
     "b0455a8520bc4e6f5fe95b1fe3c8452b"},
    {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
     "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
     "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712"
     "fcc7c71a557e2db966c3e9fa91746039"},
    {NULL, "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b"
           "07b8b3dc38ecc4ebae97ddd87f3d8985"},
};

static void kat384(const struct vg_sha512_impl *impl)
{
    uint8_t out[48];
    for (size_t i = 0; i < sizeof g_kat384 / sizeof g_kat384[0]; i++) {
        if (g_kat384[i].msg) {
            ours384(impl, (const uint8_t *)g_kat384[i].msg, strlen(g_kat384[i].msg), out);
        } else {
            uint8_t a[1000];
            vg_sha512_ctx ctx;
            memset(a, 'a', sizeof a);
            vg_sha384_ctx_init_impl(&ctx, impl);
            for (size_t done = 0, step = 1; done < 1000000; done += step, step = step % 997 + 3) {
                if (step > 1000000 - done)
                    step = 1000000 - done;
                vg_sha512_ctx_update(&ctx, a, step);
            }
            vg_sha384_ctx_final(&ctx, out);
        }
        CHECK_MSG(eq_hex(out, 48, g_kat384[i].d384), "%s: SHA-384 KAT %zu", impl->name, i);
    }
}

static void kat256(const struct vg_sha256_impl *impl)
{
    uint8_t out[32];
    for (size_t i = 0; i < sizeof g_kat / sizeof g_kat[0]; i++) {
        if (g_kat[i].msg) {
            ours256(impl, (const uint8_t *)g_kat[i].msg, strlen(g_kat[i].msg), out);
        } else {
            /* One million 'a' in uneven pieces, through the streaming code. */
            uint8_t a[1000];
            vg_sha256_ctx ctx;
            memset(a, 'a', sizeof a);
            vg_sha256_ctx_init_impl(&ctx, impl);
            for (size_t done = 0, step = 1; done < 1000000; done += step, step = step % 997 + 3) {
                if (step > 1000000 - done)
                    step = 1000000 - done;
                vg_sha256_ctx_update(&ctx, a, step);
            }
            vg_sha256_ctx_final(&ctx, out);
        }
        CHECK_MSG(eq_hex(out, 32, g_kat[i].d256), "%s: KAT %zu", impl->name, i);
    }
    ours256(impl, (const uint8_t *)g_448, strlen(g_448), out);
    CHECK_MSG(eq_hex(out, 32, g_448_256), "%s: 448-bit", impl->name);
    ours256(impl, (const uint8_t *)g_896, strlen(g_896), out);
    CHECK_MSG(eq_hex(out, 32, g_896_256), "%s: 896-bit", impl->name);
}

static void kat512(const struct vg_sha512_impl *impl)
{
    uint8_t out[64];
    for (size_t i = 0; i < sizeof g_kat / sizeof g_kat[0]; i++) {
        if (g_kat[i].msg) {
            ours512(impl, (const uint8_t *)g_kat[i].msg, strlen(g_kat[i].msg), out);
        } else {
            uint8_t a[1000];
            vg_sha512_ctx ctx;
            memset(a, 'a', sizeof a);
            vg_sha512_ctx_init_impl(&ctx, impl);
            for (size_t done = 0, step = 1; done < 1000000; done += step, step = step % 997 + 3) {
                if (step > 1000000 - done)
                    step = 1000000 - done;
                vg_sha512_ctx_update(&ctx, a, step);
            }
            vg_sha512_ctx_final(&ctx, out);
        }
        CHECK_MSG(eq_hex(out, 64, g_kat[i].d512), "%s: KAT %zu", impl->name, i);
    }
    ours512(impl, (const uint8_t *)g_448, strlen(g_448), out);
    CHECK_MSG(eq_hex(out, 64, g_448_512), "%s: 448-bit", impl->name);
    ours512(impl, (const uint8_t *)g_896, strlen(g_896), out);
    CHECK_MSG(eq_hex(out, 64, g_896_512), "%s: 896-bit", impl->name);
}

/* ---- differential against OpenSSL and the portable variant -------------- */

/* The lengths checked: all of 0..4096, then 30 random ones up to 1 MiB. */
static size_t diff_len(size_t i, uint64_t *rng)
{
    return i <= 4096 ? i : (size_t)(vgtest_rand64(rng) % (MAXLEN + 1));
}

static void diff256(const struct vg_sha256_impl *impl)
{
    uint64_t rng = 0x5a5a0256;
    unsigned long bad_ossl = 0, bad_port = 0, n = 0;
    for (size_t i = 0; i < 4097 + 30; i++) {
        size_t len = diff_len(i, &rng);
        /* Vary the start so unaligned inputs are covered too. */
        const uint8_t *in = g_msg + (len < MAXLEN ? i % (MAXLEN - len + 1) % 64 : 0);
        uint8_t got[32], want[32], port[32];
        ours256(impl, in, len, got);
        ours256(vg_sha256_portable_get(), in, len, port);
        CHECK(ossl(EVP_sha256(), in, len, want) == 32);
        bad_ossl += memcmp(got, want, 32) != 0;
        bad_port += memcmp(got, port, 32) != 0;
        n++;
        CHECK_MSG(memcmp(got, want, 32) == 0, "%s: vs OpenSSL, len %zu", impl->name, len);
        CHECK_MSG(memcmp(got, port, 32) == 0, "%s: vs portable, len %zu", impl->name, len);
    }
    printf("sha256 %-8s: %lu lengths, %lu differ from OpenSSL, %lu from portable\n", impl->name,
           n, bad_ossl, bad_port);
}

static void diff512(const struct vg_sha512_impl *impl)
{
    uint64_t rng = 0x5a5a0512;
    unsigned long bad_ossl = 0, bad_port = 0, n = 0;
    for (size_t i = 0; i < 4097 + 30; i++) {
        size_t len = diff_len(i, &rng);
        const uint8_t *in = g_msg + (len < MAXLEN ? i % (MAXLEN - len + 1) % 64 : 0);
        uint8_t got[64], want[64], port[64];
        ours512(impl, in, len, got);
        ours512(vg_sha512_portable_get(), in, len, port);
        CHECK(ossl(EVP_sha512(), in, len, want) == 64);
        bad_ossl += memcmp(got, want, 64) != 0;
        bad_port += memcmp(got, port, 64) != 0;
        n++;
        CHECK_MSG(memcmp(got, want, 64) == 0, "%s: vs OpenSSL, len %zu", impl->name, len);
        CHECK_MSG(memcmp(got, port, 64) == 0, "%s: vs portable, len %zu", impl->name, len);
    }
    printf("sha512 %-8s: %lu lengths, %lu differ from OpenSSL, %lu from portable\n", impl->name,
           n, bad_ossl, bad_port);
}

static void diff384(const struct vg_sha512_impl *impl)
{
    uint64_t rng = 0x5a5a0384;
    unsigned long bad_ossl = 0, bad_port = 0, n = 0;
    for (size_t i = 0; i < 4097 + 30; i++) {
        size_t len = diff_len(i, &rng);
        const uint8_t *in = g_msg + (len < MAXLEN ? i % (MAXLEN - len + 1) % 64 : 0);
        uint8_t got[48], want[48], port[48];
        ours384(impl, in, len, got);
        ours384(vg_sha512_portable_get(), in, len, port);
        CHECK(ossl(EVP_sha384(), in, len, want) == 48);
        bad_ossl += memcmp(got, want, 48) != 0;
        bad_port += memcmp(got, port, 48) != 0;
        n++;
        CHECK_MSG(memcmp(got, want, 48) == 0, "%s: SHA-384 vs OpenSSL, len %zu", impl->name, len);
        CHECK_MSG(memcmp(got, port, 48) == 0, "%s: SHA-384 vs portable, len %zu", impl->name,
                  len);
    }
    printf("sha384 %-8s: %lu lengths, %lu differ from OpenSSL, %lu from portable\n", impl->name,
           n, bad_ossl, bad_port);
}

/* ---- streaming ------------------------------------------------------------ */

/* A piece size: often 0, often small, sometimes a block or more, so pieces
 * start and end everywhere relative to the block boundary. */
static size_t piece(uint64_t *rng, size_t block)
{
    uint64_t r = vgtest_rand64(rng);
    switch (r % 5) {
    case 0:
        return 0;
    case 1:
        return (size_t)(r >> 8) % 8 + 1;
    case 2:
        return block - 1 + (size_t)(r >> 8) % 3; /* block-1 .. block+1 */
    case 3:
        return (size_t)(r >> 8) % (3 * block);
    default:
        return (size_t)(r >> 8) % 2000;
    }
}

static void stream256(const struct vg_sha256_impl *impl)
{
    uint64_t rng = 0x57256;
    for (int trial = 0; trial < 200; trial++) {
        size_t len = (size_t)(vgtest_rand64(&rng) % 9000);
        uint8_t one[32], many[32];
        vg_sha256_ctx ctx;
        ours256(impl, g_msg, len, one);
        vg_sha256_ctx_init_impl(&ctx, impl);
        for (size_t done = 0; done < len;) {
            size_t p = piece(&rng, 64);
            if (p > len - done)
                p = len - done;
            vg_sha256_ctx_update(&ctx, g_msg + done, p);
            done += p;
        }
        vg_sha256_ctx_update(&ctx, NULL, 0);
        vg_sha256_ctx_final(&ctx, many);
        CHECK_MSG(memcmp(one, many, 32) == 0, "%s: streaming, len %zu", impl->name, len);
    }
}

static void stream512(const struct vg_sha512_impl *impl)
{
    uint64_t rng = 0x57512;
    for (int trial = 0; trial < 200; trial++) {
        size_t len = (size_t)(vgtest_rand64(&rng) % 9000);
        uint8_t one[64], many[64];
        vg_sha512_ctx ctx;
        ours512(impl, g_msg, len, one);
        vg_sha512_ctx_init_impl(&ctx, impl);
        for (size_t done = 0; done < len;) {
            size_t p = piece(&rng, 128);
            if (p > len - done)
                p = len - done;
            vg_sha512_ctx_update(&ctx, g_msg + done, p);
            done += p;
        }
        vg_sha512_ctx_update(&ctx, NULL, 0);
        vg_sha512_ctx_final(&ctx, many);
        CHECK_MSG(memcmp(one, many, 64) == 0, "%s: streaming, len %zu", impl->name, len);
    }
}

/* ---- the public incremental states ---------------------------------------- */

/* One table row per public state: the one-shot function and the three
 * incremental ones, through void * so that one loop serves all. */
struct pub {
    const char *name;
    size_t out_len, block, st_size;
    int (*oneshot)(uint8_t *out, const uint8_t *in, size_t len);
    int (*init)(void *st);
    int (*update)(void *st, const uint8_t *in, size_t len);
    int (*final)(void *st, uint8_t *out);
};
#define PUB_THUNKS(n)                                                                        \
    static int p_init##n(void *st) { return vg_sha##n##_init(st); }                          \
    static int p_update##n(void *st, const uint8_t *in, size_t len)                          \
    {                                                                                        \
        return vg_sha##n##_update(st, in, len);                                              \
    }                                                                                        \
    static int p_final##n(void *st, uint8_t *out) { return vg_sha##n##_final(st, out); }
PUB_THUNKS(256)
PUB_THUNKS(384)
PUB_THUNKS(512)
static const struct pub g_pub[3] = {
    {"sha256", 32, 64, sizeof(vg_sha256_state), vg_sha256, p_init256, p_update256, p_final256},
    {"sha384", 48, 128, sizeof(vg_sha384_state), vg_sha384, p_init384, p_update384, p_final384},
    {"sha512", 64, 128, sizeof(vg_sha512_state), vg_sha512, p_init512, p_update512, p_final512},
};
typedef union {
    vg_sha256_state a;
    vg_sha384_state b;
    vg_sha512_state c;
} any_state;

/* For each state: random lengths, random splits; a copy taken at a random
 * split point finishes the same message to the same digest; a copy given
 * a different tail gives that message's digest. */
static void public_stream(const char *variant)
{
    uint64_t rng = 0x9b11c;
    unsigned long n = 0;
    for (int a = 0; a < 3; a++) {
        const struct pub *h = &g_pub[a];
        for (int trial = 0; trial < 300; trial++) {
            size_t len = (size_t)(vgtest_rand64(&rng) % (trial < 200 ? 700 : 20000));
            size_t fork_at = len ? (size_t)(vgtest_rand64(&rng) % (len + 1)) : 0;
            uint8_t one[64], many[64], other[64], want_other[64];
            any_state st, copy;
            int copied = 0;
            CHECK(h->oneshot(one, g_msg, len) == VG_OK);
            CHECK(h->init(&st) == VG_OK);
            for (size_t done = 0; done < len || !copied;) {
                size_t p = piece(&rng, h->block);
                if (!copied && done + p >= fork_at) {
                    p = fork_at - done; /* split exactly at fork_at */
                    CHECK(h->update(&st, g_msg + done, p) == VG_OK);
                    done += p;
                    memcpy(&copy, &st, h->st_size);
                    copied = 1;
                    continue;
                }
                if (p > len - done)
                    p = len - done;
                CHECK(h->update(&st, g_msg + done, p) == VG_OK);
                done += p;
            }
            CHECK(h->update(&st, NULL, 0) == VG_OK);
            CHECK(h->final(&st, many) == VG_OK);
            CHECK_MSG(memcmp(one, many, h->out_len) == 0, "%s %s: incremental, len %zu",
                      variant, h->name, len);
            /* The fork: the copy continues with another tail (offset by one
             * byte in g_msg), and must equal the one-shot of that message. */
            {
                static uint8_t msg2[20001];
                memcpy(msg2, g_msg, fork_at);
                memcpy(msg2 + fork_at, g_msg + fork_at + 1, len - fork_at);
                CHECK(h->oneshot(want_other, msg2, len) == VG_OK);
                CHECK(h->update(&copy, g_msg + fork_at + 1, len - fork_at) == VG_OK);
                CHECK(h->final(&copy, other) == VG_OK);
                CHECK_MSG(memcmp(other, want_other, h->out_len) == 0,
                          "%s %s: fork at %zu of %zu", variant, h->name, fork_at, len);
            }
            n++;
        }
        /* After final the state is refused, and its output zeroed. */
        {
            any_state st;
            uint8_t out[64];
            CHECK(h->init(&st) == VG_OK);
            CHECK(h->final(&st, out) == VG_OK);
            memset(out, 0xee, sizeof out);
            CHECK(h->final(&st, out) == VG_ERR_INPUT);
            CHECK(out[0] == 0 && out[h->out_len - 1] == 0);
            CHECK(h->update(&st, g_msg, 1) == VG_ERR_INPUT);
        }
    }
    printf("%s: public incremental SHA-256/384/512 vs one-shot: %lu messages\n", variant, n);
}

/* Run public_stream once per distinct dispatch choice. */
static void public_stream_variants(void)
{
    uint32_t saved = vg_cpu_active();
    const uint32_t masks[4] = {saved, saved & ~VG_CPU_SHA, saved & ~VG_CPU_AVX2, 0};
    char seen[4][64];
    int nseen = 0;
    for (int m = 0; m < 4; m++) {
        int dup = 0;
        vg_cpu_force(masks[m]);
        snprintf(seen[nseen], sizeof seen[nseen], "sha256 %s, sha512 %s",
                 vg_sha256_active()->name, vg_sha512_active()->name);
        for (int i = 0; i < nseen; i++)
            dup |= strcmp(seen[i], seen[nseen]) == 0;
        if (dup)
            continue;
        public_stream(seen[nseen++]);
    }
    vg_cpu_force(saved);
}

/* ---- public API and dispatch -------------------------------------------- */

static void public_api(void)
{
    uint8_t out[64], want[64];
    const size_t lens[] = {0, 1, 55, 56, 64, 111, 112, 128, 1000, 70000};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        CHECK(vg_sha256(out, g_msg, lens[i]) == VG_OK);
        CHECK(ossl(EVP_sha256(), g_msg, lens[i], want) == 32 && memcmp(out, want, 32) == 0);
        CHECK(vg_sha512(out, g_msg, lens[i]) == VG_OK);
        CHECK(ossl(EVP_sha512(), g_msg, lens[i], want) == 64 && memcmp(out, want, 64) == 0);
        CHECK(vg_sha384(out, g_msg, lens[i]) == VG_OK);
        CHECK(ossl(EVP_sha384(), g_msg, lens[i], want) == 48 && memcmp(out, want, 48) == 0);
    }
    /* in == NULL with len == 0 is the empty message. */
    memset(out, 0xee, sizeof out);
    CHECK(vg_sha256(out, NULL, 0) == VG_OK);
    CHECK(eq_hex(out, 32, g_kat[1].d256));
    CHECK(vg_sha512(out, NULL, 0) == VG_OK);
    CHECK(eq_hex(out, 64, g_kat[1].d512));
    /* Rejected: NULL out; NULL in with a length, out then zeroed (DESIGN 2,
     * uniform rules). */
    CHECK(vg_sha256(NULL, g_msg, 3) == VG_ERR_INPUT);
    CHECK(vg_sha512(NULL, g_msg, 3) == VG_ERR_INPUT);
    CHECK(vg_sha256(NULL, NULL, 0) == VG_ERR_INPUT);
    CHECK(vg_sha512(NULL, NULL, 0) == VG_ERR_INPUT);
    memset(out, 0xee, sizeof out);
    CHECK(vg_sha256(out, NULL, 1) == VG_ERR_INPUT);
    CHECK(out[0] == 0 && out[31] == 0 && out[32] == 0xee);
    memset(out, 0xee, sizeof out);
    CHECK(vg_sha512(out, NULL, 1) == VG_ERR_INPUT);
    CHECK(out[0] == 0 && out[63] == 0);
}

static const char *nn(const char *s) { return s ? s : "NULL"; }

static void dispatch(void)
{
    const char *env = getenv("VG_CPU_FEATURES");
    const char *n256 = vg_implementation("sha256"), *n512 = vg_implementation("sha512");
    CHECK(n256 && strcmp(n256, vg_sha256_active()->name) == 0);
    CHECK(n512 && strcmp(n512, vg_sha512_active()->name) == 0);
    if (env && strcmp(env, "none") == 0) {
        CHECK_MSG(n256 && strcmp(n256, "portable") == 0, "sha256 under none: %s", nn(n256));
        CHECK_MSG(n512 && strcmp(n512, "portable") == 0, "sha512 under none: %s", nn(n512));
        CHECK(vg_sha256_shani_get() == NULL);
        CHECK(vg_sha256_avx2_get() == NULL);
        CHECK(vg_sha512_avx2_get() == NULL);
    }
#ifdef VG_X86_64
    /* With nothing restricted, a CPU that has the features gets the variant. */
    if (!env) {
        uint32_t cpu = vg_cpu_detected();
        if ((cpu & VG_CPU_SHA) == VG_CPU_SHA)
            CHECK_MSG(n256 && strcmp(n256, "shani") == 0, "sha256 picks %s", nn(n256));
        else if ((cpu & (VG_CPU_AVX2 | VG_CPU_BMI2)) == (VG_CPU_AVX2 | VG_CPU_BMI2))
            CHECK_MSG(n256 && strcmp(n256, "avx2") == 0, "sha256 picks %s", nn(n256));
        if ((cpu & (VG_CPU_AVX2 | VG_CPU_BMI2)) == (VG_CPU_AVX2 | VG_CPU_BMI2))
            CHECK_MSG(n512 && strcmp(n512, "avx2") == 0, "sha512 picks %s", nn(n512));
    }
    /* Without SHA-NI, AVX2 with BMI2 gets the AVX2 schedule. */
    if (env && strcmp(env, "avx2,bmi2,adx") == 0 &&
        (vg_cpu_detected() & (VG_CPU_AVX2 | VG_CPU_BMI2)) == (VG_CPU_AVX2 | VG_CPU_BMI2))
        CHECK_MSG(n256 && strcmp(n256, "avx2") == 0, "sha256 under %s: %s", env, nn(n256));
#else
    CHECK(vg_sha256_shani_get() == NULL);
    CHECK(vg_sha256_avx2_get() == NULL);
    CHECK(vg_sha512_avx2_get() == NULL);
#endif
    printf("dispatch: VG_CPU_FEATURES=%s, sha256 %s, sha512 %s\n", env ? env : "(unset)",
           nn(n256), nn(n512));
}

int main(void)
{
    const struct vg_sha256_impl *i256[3] = {vg_sha256_portable_get(), vg_sha256_shani_get(),
                                            vg_sha256_avx2_get()};
    const struct vg_sha512_impl *i512[2] = {vg_sha512_portable_get(), vg_sha512_avx2_get()};
    uint64_t rng = 0x1802f1b5;

    g_msg = malloc(MAXLEN);
    if (!g_msg)
        return 2;
    vgtest_randbytes(&rng, g_msg, MAXLEN);

    CHECK(i256[0] != NULL && i512[0] != NULL);
    for (int k = 0; k < 3; k++) {
        if (!i256[k]) {
            printf("sha256: variant %d not available here\n", k);
            continue;
        }
        kat256(i256[k]);
        diff256(i256[k]);
        stream256(i256[k]);
    }
    for (int k = 0; k < 2; k++) {
        if (!i512[k]) {
            printf("sha512: variant %d not available here\n", k);
            continue;
        }
        kat512(i512[k]);
        diff512(i512[k]);
        stream512(i512[k]);
        kat384(i512[k]);
        diff384(i512[k]);
    }
    public_api();
    public_stream_variants();
    dispatch();
    free(g_msg);
    return vgtest_done("test_sha2");
}
