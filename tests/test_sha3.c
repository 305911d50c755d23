/*
 * SHA-3 and SHAKE (FIPS 202): every Keccak implementation (portable, and the
 * x86-64 BMI2 and AVX-512VL variants when the CPU has them) against NIST's
 * example values, against OpenSSL's libcrypto, incrementally, streaming
 * against the portable code, and permutation against permutation; then the
 * public API and the dispatch, and the public incremental states
 * (vg_sha3_256_*, vg_sha3_512_*, vg_shake_*) against the one-shot functions
 * over random splits (empty updates, splits inside a block), random squeeze
 * lengths and forks by copying, once per Keccak variant the dispatch can
 * pick (steered with the vg_cpu_force test hook).
 *
 * Run also with VG_CPU_FEATURES=none (second ctest entry): the active
 * implementation must then be the portable one.
 */
#include <openssl/evp.h>

#include "common.h"
#include "hash/keccak.h"
#include "vgtest.h"

#define MAX_IMPLS 3

enum alg { SHA3_256, SHA3_512, SHAKE128, SHAKE256, NUM_ALGS };

static const struct {
    const char *name;
    size_t rate;
    uint8_t dsbyte;
    size_t digest; /* fixed output length, 0 for the XOFs */
} g_algs[NUM_ALGS] = {
    {"SHA3-256", 136, 0x06, 32},
    {"SHA3-512", 72, 0x06, 64},
    {"SHAKE128", 168, 0x1f, 0},
    {"SHAKE256", 136, 0x1f, 0},
};

static const struct vg_keccak_impl *g_impls[MAX_IMPLS];
static size_t g_nimpls;
static EVP_MD *g_md[NUM_ALGS];
static EVP_MD_CTX *g_evp;

/* Our hash with a given implementation, through the incremental API. */
static void ours(const struct vg_keccak_impl *impl, enum alg a, uint8_t *out, size_t out_len,
                 const uint8_t *in, size_t len)
{
    vg_keccak_ctx ctx;
    vg_keccak_init_impl(&ctx, g_algs[a].rate, g_algs[a].dsbyte, impl);
    vg_keccak_absorb(&ctx, in, len);
    vg_sha3_final(&ctx, out, out_len);
}

/* OpenSSL's hash; returns 0 on success. */
static int openssl(enum alg a, uint8_t *out, size_t out_len, const uint8_t *in, size_t len)
{
    unsigned int n = 0;
    if (!EVP_DigestInit_ex2(g_evp, g_md[a], NULL) || !EVP_DigestUpdate(g_evp, in, len))
        return -1;
    if (g_algs[a].digest)
        return EVP_DigestFinal_ex(g_evp, out, &n) && n == out_len ? 0 : -1;
    return EVP_DigestFinalXOF(g_evp, out, out_len) ? 0 : -1;
}

static int hexeq(const uint8_t *got, size_t len, const char *want)
{
    uint8_t buf[256];
    long n = vgtest_unhex(buf, sizeof buf, want);
    return n == (long)len && memcmp(got, buf, len) == 0;
}

/* ---- NIST example values ------------------------------------------------ */

/*
 * Source: NIST CSRC "Cryptographic Standards and Guidelines: Examples with
 * Intermediate Values", FIPS 202 files SHA3-256_Msg0.pdf, SHA3-256_Msg1600.pdf,
 * SHA3-512_Msg0.pdf, SHA3-512_Msg1600.pdf, SHAKE128_Msg0.pdf,
 * SHAKE128_Msg1600.pdf, SHAKE256_Msg0.pdf, SHAKE256_Msg1600.pdf (Msg1600 is
 * 200 bytes of 0xa3; the SHAKE examples print 4096 bits = 512 bytes of
 * output; we check the first and the last 32 bytes). The "abc" digests are
 * not in NIST's FIPS 202 example set: they are the values published by many
 * independent implementations, and like every value here they were
 * cross-checked against OpenSSL 3.0 (Python hashlib) when written.
 */
static void test_kat(const struct vg_keccak_impl *impl)
{
    uint8_t a3[200], out[512];
    memset(a3, 0xa3, sizeof a3);

    ours(impl, SHA3_256, out, 32, NULL, 0);
    CHECK_MSG(hexeq(out, 32, "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"), "%s", impl->name);
    ours(impl, SHA3_256, out, 32, (const uint8_t *)"abc", 3);
    CHECK_MSG(hexeq(out, 32, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"), "%s", impl->name);
    ours(impl, SHA3_256, out, 32, a3, 200);
    CHECK_MSG(hexeq(out, 32, "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"), "%s", impl->name);

    ours(impl, SHA3_512, out, 64, NULL, 0);
    CHECK_MSG(hexeq(out, 64, "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
                             "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"), "%s", impl->name);
    ours(impl, SHA3_512, out, 64, (const uint8_t *)"abc", 3);
    CHECK_MSG(hexeq(out, 64, "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
                             "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"), "%s", impl->name);
    ours(impl, SHA3_512, out, 64, a3, 200);
    CHECK_MSG(hexeq(out, 64, "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8"
                             "1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00"), "%s", impl->name);

    ours(impl, SHAKE128, out, 32, NULL, 0);
    CHECK_MSG(hexeq(out, 32, "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"), "%s", impl->name);
    ours(impl, SHAKE128, out, 512, a3, 200);
    CHECK_MSG(hexeq(out, 32, "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037"), "%s", impl->name);
    CHECK_MSG(hexeq(out + 480, 32, "44c9fb359fd56ac0a9a75a743cff6862f17d7259ab075216c0699511643b6439"), "%s", impl->name);

    ours(impl, SHAKE256, out, 32, NULL, 0);
    CHECK_MSG(hexeq(out, 32, "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"), "%s", impl->name);
    ours(impl, SHAKE256, out, 512, a3, 200);
    CHECK_MSG(hexeq(out, 32, "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d"), "%s", impl->name);
    CHECK_MSG(hexeq(out + 480, 32, "6a1a9d7846436e4dca5728b6f760eef0ca92bf0be5615e96959d767197a0beeb"), "%s", impl->name);
}

/* ---- the permutation ---------------------------------------------------- */

static void test_permutation(const struct vg_keccak_impl *impl, uint64_t *seed)
{
    /* Keccak-f[1600] of the all-zero state: lanes 0 and 1 of the Keccak
     * team's KeccakF-1600-IntermediateValues.txt (first call, "After
     * permutation"). */
    uint64_t st[25] = {0}, ref[25];
    impl->permute(st);
    CHECK_MSG(st[0] == 0xF1258F7940E1DDE7ULL && st[1] == 0x84D5CCF933C0478AULL, "%s", impl->name);

    /* Bit-identical to the portable code on random states. */
    const struct vg_keccak_impl *p = vg_keccak_portable_get();
    int same = 1;
    for (int t = 0; t < 2000; t++) {
        for (int i = 0; i < 25; i++)
            st[i] = ref[i] = vgtest_rand64(seed);
        impl->permute(st);
        p->permute(ref);
        same &= memcmp(st, ref, sizeof st) == 0;
    }
    CHECK_MSG(same, "%s permutation differs from portable", impl->name);

    /* absorb(n blocks) == XOR + permute, n times, at every rate we use. */
    static const size_t rates[] = {168, 136, 104, 72, 8};
    uint8_t blocks[3 * 168 + 1]; /* +1: read from offset 1 */
    vgtest_randbytes(seed, blocks, sizeof blocks);
    for (size_t r = 0; r < sizeof rates / sizeof rates[0]; r++) {
        for (int i = 0; i < 25; i++)
            st[i] = ref[i] = vgtest_rand64(seed);
        impl->absorb(st, blocks + 1, 3 - (r & 1), rates[r]); /* unaligned input */
        for (size_t b = 0; b < 3 - (r & 1); b++) {
            for (size_t i = 0; i < rates[r] / 8; i++)
                ref[i] ^= vg_load64_le(blocks + 1 + b * rates[r] + 8 * i);
            p->permute(ref);
        }
        CHECK_MSG(memcmp(st, ref, sizeof st) == 0, "%s absorb rate %zu", impl->name, rates[r]);
    }
}

/* ---- differential against OpenSSL ----------------------------------------- */

static const size_t g_xof_lens[] = {0, 1, 7, 8, 31, 32, 64, 135, 136, 137, 167, 168, 169, 200, 336, 1000, 1345};
#define NXOF (sizeof g_xof_lens / sizeof g_xof_lens[0])

static size_t out_len_for(enum alg a, size_t i)
{
    return g_algs[a].digest ? g_algs[a].digest : g_xof_lens[i % NXOF];
}

/* One comparison; counts mismatches instead of a CHECK each, so that the
 * tens of thousands of cases show up as one line per (impl, alg). */
static int differs(const struct vg_keccak_impl *impl, enum alg a, const uint8_t *msg, size_t len,
                   size_t out_len)
{
    static uint8_t got[1400], want[1400];
    memset(got, 0x55, sizeof got);
    ours(impl, a, got, out_len, msg, len);
    if (out_len == 0)
        return got[0] != 0x55; /* nothing written */
    if (openssl(a, want, out_len, msg, len) != 0)
        return 1;
    return memcmp(got, want, out_len) != 0 || got[out_len] != 0x55;
}

static void test_vs_openssl(const struct vg_keccak_impl *impl, const uint8_t *big, size_t big_len,
                            uint64_t *seed)
{
    for (int a = 0; a < NUM_ALGS; a++) {
        unsigned long bad = 0, n = 0;
        for (size_t len = 0; len <= 4096; len++, n++)
            bad += (unsigned long)differs(impl, (enum alg)a, big, len, out_len_for((enum alg)a, len));
        for (int t = 0; t < 30; t++, n++) {
            size_t len = (size_t)(vgtest_rand64(seed) % (big_len + 1));
            size_t off = (size_t)(vgtest_rand64(seed) % 8); /* misaligned input too */
            if (len + off > big_len)
                len = big_len - off;
            bad += (unsigned long)differs(impl, (enum alg)a, big + off, len,
                                          out_len_for((enum alg)a, (size_t)t));
        }
        CHECK_MSG(bad == 0, "%s %s: %lu of %lu differ from OpenSSL", impl->name, g_algs[a].name, bad, n);
    }
}

/* ---- incremental -------------------------------------------------------- */

/* Random absorb splits (including empty calls) and random squeeze splits
 * equal the one-shot output; also squeezing whole blocks one at a time, as
 * ML-KEM and ML-DSA do. */
static void test_incremental(const struct vg_keccak_impl *impl, const uint8_t *msg, uint64_t *seed)
{
    static uint8_t once[2000], inc[2000];
    for (int a = 0; a < NUM_ALGS; a++) {
        int ok = 1;
        for (int t = 0; t < 300; t++) {
            size_t len = (size_t)(vgtest_rand64(seed) % 1500);
            size_t out_len = g_algs[a].digest ? g_algs[a].digest : (size_t)(vgtest_rand64(seed) % 2000);
            vg_keccak_ctx ctx;
            ours(impl, (enum alg)a, once, out_len, msg, len);
            vg_keccak_init_impl(&ctx, g_algs[a].rate, g_algs[a].dsbyte, impl);
            for (size_t done = 0; done < len;) {
                size_t step = (size_t)(vgtest_rand64(seed) % 300) % (len - done + 1);
                vg_keccak_absorb(&ctx, msg + done, step);
                done += step;
            }
            vg_keccak_finalize(&ctx);
            for (size_t done = 0; done < out_len;) {
                size_t step = (size_t)(vgtest_rand64(seed) % 400) % (out_len - done + 1);
                vg_keccak_squeeze(&ctx, inc + done, step);
                done += step;
            }
            ok &= memcmp(once, inc, out_len) == 0;
        }
        CHECK_MSG(ok, "%s %s random splits", impl->name, g_algs[a].name);

        /* Byte by byte, then block by block across block boundaries. */
        if (!g_algs[a].digest) {
            size_t rate = g_algs[a].rate;
            vg_keccak_ctx ctx;
            ours(impl, (enum alg)a, once, 5 * rate + 3, msg, 333);
            vg_keccak_init_impl(&ctx, rate, g_algs[a].dsbyte, impl);
            for (size_t i = 0; i < 333; i++)
                vg_keccak_absorb(&ctx, msg + i, 1);
            vg_keccak_finalize(&ctx);
            vg_keccak_squeeze(&ctx, inc, 3);          /* ragged start */
            for (size_t b = 0; b < 4; b++)             /* crosses 4 block ends */
                vg_keccak_squeeze(&ctx, inc + 3 + b * rate, rate);
            vg_keccak_squeeze(&ctx, inc + 3 + 4 * rate, rate);
            CHECK_MSG(memcmp(once, inc, 5 * rate + 3) == 0, "%s %s blockwise", impl->name, g_algs[a].name);
        }
    }
}

/* ---- streaming against the portable implementation ---------------------- */

/* One sponge fed through random absorb splits (empty calls included) and
 * read through random squeeze splits, on impl and on the portable code with
 * independent splits: the outputs must be equal byte for byte. Covers the
 * absorb hook with 0 to 22 blocks a call, the
 * permutations between partial blocks and the squeeze permutations. */
static void test_stream_vs_portable(const struct vg_keccak_impl *impl, const uint8_t *msg,
                                    uint64_t *seed)
{
    static uint8_t got[3000], want[3000];
    const struct vg_keccak_impl *p = vg_keccak_portable_get();
    for (int a = 0; a < NUM_ALGS; a++) {
        unsigned long bad = 0, n = 0;
        for (int t = 0; t < 200; t++, n++) {
            size_t len = (size_t)(vgtest_rand64(seed) % 2000);
            size_t out_len = (size_t)(vgtest_rand64(seed) % sizeof got);
            vg_keccak_ctx c[2];
            uint8_t *outs[2] = {got, want};
            vg_keccak_init_impl(&c[0], g_algs[a].rate, g_algs[a].dsbyte, impl);
            vg_keccak_init_impl(&c[1], g_algs[a].rate, g_algs[a].dsbyte, p);
            for (int k = 0; k < 2; k++) {
                for (size_t done = 0; done < len;) {
                    size_t step = (size_t)(vgtest_rand64(seed) % 1600) % (len - done + 1);
                    vg_keccak_absorb(&c[k], msg + done, step);
                    done += step;
                }
                vg_keccak_finalize(&c[k]);
                for (size_t done = 0; done < out_len;) {
                    size_t step = (size_t)(vgtest_rand64(seed) % 700) % (out_len - done + 1);
                    vg_keccak_squeeze(&c[k], outs[k] + done, step);
                    done += step;
                }
            }
            bad += (unsigned long)(memcmp(got, want, out_len) != 0 ||
                                   memcmp(c[0].st, c[1].st, sizeof c[0].st) != 0);
        }
        CHECK_MSG(bad == 0, "%s %s: %lu of %lu streams differ from portable", impl->name,
                  g_algs[a].name, bad, n);
    }
}

/* ---- public API and dispatch ---------------------------------------------- */

static void test_public_api(const uint8_t *msg)
{
    uint8_t out[64], want[64], x[300], xw[300];
    typedef int (*fixed_fn)(uint8_t *, const uint8_t *, size_t);
    typedef int (*xof_fn)(uint8_t *, size_t, const uint8_t *, size_t);
    static const struct {
        fixed_fn f;
        enum alg a;
    } fixed[] = {{vg_sha3_256, SHA3_256}, {vg_sha3_512, SHA3_512}};
    static const struct {
        xof_fn f;
        enum alg a;
    } xofs[] = {{vg_shake128, SHAKE128}, {vg_shake256, SHAKE256}};

    for (int i = 0; i < 2; i++) {
        size_t n = g_algs[fixed[i].a].digest;
        CHECK(fixed[i].f(out, msg, 1000) == VG_OK && openssl(fixed[i].a, want, n, msg, 1000) == 0 &&
              memcmp(out, want, n) == 0);
        CHECK(fixed[i].f(out, NULL, 0) == VG_OK && openssl(fixed[i].a, want, n, NULL, 0) == 0 &&
              memcmp(out, want, n) == 0);
        CHECK(fixed[i].f(NULL, msg, 3) == VG_ERR_INPUT);
        memset(out, 0xff, sizeof out);
        CHECK(fixed[i].f(out, NULL, 5) == VG_ERR_INPUT);
        memset(want, 0, sizeof want);
        CHECK(memcmp(out, want, n) == 0); /* zeroed on failure */
    }
    for (int i = 0; i < 2; i++) {
        CHECK(xofs[i].f(x, 300, msg, 777) == VG_OK && openssl(xofs[i].a, xw, 300, msg, 777) == 0 &&
              memcmp(x, xw, 300) == 0);
        CHECK(xofs[i].f(x, 17, NULL, 0) == VG_OK && openssl(xofs[i].a, xw, 17, NULL, 0) == 0 &&
              memcmp(x, xw, 17) == 0);
        CHECK(xofs[i].f(NULL, 0, msg, 10) == VG_OK);
        CHECK(xofs[i].f(NULL, 0, NULL, 0) == VG_OK);
        CHECK(xofs[i].f(NULL, 5, msg, 10) == VG_ERR_INPUT);
        CHECK(xofs[i].f(x, 5, NULL, 10) == VG_ERR_INPUT);
    }
}

/* A piece length: 0 (an empty call), a few bytes, about a block, or more. */
static size_t piece(uint64_t *rng, size_t rate, size_t left)
{
    uint64_t r = vgtest_rand64(rng);
    size_t p;
    switch (r % 5) {
    case 0: p = 0; break;
    case 1: p = (size_t)(r >> 8) % 8 + 1; break;
    case 2: p = rate - 1 + (size_t)(r >> 8) % 3; break;
    case 3: p = (size_t)(r >> 8) % (3 * rate); break;
    default: p = (size_t)(r >> 8) % 1500; break;
    }
    return p < left ? p : left;
}

static void test_public_stream_fixed(const char *variant, const uint8_t *msg, uint64_t *rng)
{
    for (int which = 0; which < 2; which++) {
        size_t n = which ? 64 : 32, rate = which ? 72 : 136;
        for (int trial = 0; trial < 200; trial++) {
            size_t len = (size_t)(vgtest_rand64(rng) % (trial < 150 ? 600 : 9000));
            size_t fork_at = (size_t)(vgtest_rand64(rng) % (len + 1));
            uint8_t one[64], many[64], forked[64];
            union {
                vg_sha3_256_state a;
                vg_sha3_512_state b;
            } st, copy;
            int copied = 0;
            if (which) {
                CHECK(vg_sha3_512(one, msg, len) == VG_OK);
                CHECK(vg_sha3_512_init(&st.b) == VG_OK);
            } else {
                CHECK(vg_sha3_256(one, msg, len) == VG_OK);
                CHECK(vg_sha3_256_init(&st.a) == VG_OK);
            }
            for (size_t done = 0; done < len || !copied;) {
                size_t p = piece(rng, rate, len - done);
                if (!copied && done + p >= fork_at) {
                    p = fork_at - done;
                    copied = 1;
                }
                CHECK((which ? vg_sha3_512_update(&st.b, msg + done, p)
                             : vg_sha3_256_update(&st.a, msg + done, p)) == VG_OK);
                done += p;
                if (copied == 1) {
                    copy = st; /* fork: the copy finishes the same message */
                    copied = 2;
                }
            }
            CHECK((which ? vg_sha3_512_final(&st.b, many) : vg_sha3_256_final(&st.a, many)) ==
                  VG_OK);
            CHECK((which ? vg_sha3_512_update(&copy.b, msg + fork_at, len - fork_at)
                         : vg_sha3_256_update(&copy.a, msg + fork_at, len - fork_at)) == VG_OK);
            CHECK((which ? vg_sha3_512_final(&copy.b, forked)
                         : vg_sha3_256_final(&copy.a, forked)) == VG_OK);
            CHECK_MSG(memcmp(one, many, n) == 0, "%s SHA3-%d incremental len %zu", variant,
                      which ? 512 : 256, len);
            CHECK_MSG(memcmp(one, forked, n) == 0, "%s SHA3-%d fork at %zu of %zu", variant,
                      which ? 512 : 256, fork_at, len);
        }
    }
}

static void test_public_stream_shake(const char *variant, const uint8_t *msg, uint64_t *rng)
{
    static uint8_t want[5000], got[5000], got2[5000];
    for (int which = 0; which < 2; which++) {
        size_t rate = which ? 136 : 168;
        for (int trial = 0; trial < 200; trial++) {
            size_t len = (size_t)(vgtest_rand64(rng) % (trial < 150 ? 600 : 9000));
            size_t out_len = (size_t)(vgtest_rand64(rng) % sizeof want);
            size_t fork_at = (size_t)(vgtest_rand64(rng) % (out_len + 1));
            vg_shake_state st, copy;
            int copied = 0;
            CHECK((which ? vg_shake256(want, out_len, msg, len)
                         : vg_shake128(want, out_len, msg, len)) == VG_OK);
            CHECK((which ? vg_shake256_init(&st) : vg_shake128_init(&st)) == VG_OK);
            for (size_t done = 0; done < len;) {
                size_t p = piece(rng, rate, len - done);
                CHECK(vg_shake_absorb(&st, msg + done, p) == VG_OK);
                done += p;
            }
            CHECK(vg_shake_absorb(&st, NULL, 0) == VG_OK);
            memset(got, 0, out_len);
            /* Squeeze in random pieces; fork by copying at fork_at (the copy
             * must go on with the same stream). */
            for (size_t done = 0; done < out_len || !copied;) {
                size_t p = piece(rng, rate, out_len - done);
                if (!copied && done + p >= fork_at) {
                    p = fork_at - done;
                    copied = 1;
                }
                CHECK(vg_shake_squeeze(&st, p ? got + done : NULL, p) == VG_OK);
                done += p;
                if (copied == 1) {
                    copy = st;
                    copied = 2;
                }
            }
            CHECK_MSG(memcmp(got, want, out_len) == 0, "%s SHAKE%d len %zu out %zu", variant,
                      which ? 256 : 128, len, out_len);
            memset(got2, 0, out_len);
            CHECK(vg_shake_squeeze(&copy, got2 + fork_at, out_len - fork_at) == VG_OK);
            CHECK_MSG(memcmp(got2 + fork_at, want + fork_at, out_len - fork_at) == 0,
                      "%s SHAKE%d fork at %zu of %zu", variant, which ? 256 : 128, fork_at,
                      out_len);
            /* Absorb after squeeze: refused, the state wiped (so a squeeze
             * after it is refused too, with its output zeroed). */
            CHECK(vg_shake_absorb(&st, msg, 1) == VG_ERR_INPUT);
            memset(got2, 0xee, 8);
            CHECK(vg_shake_squeeze(&st, got2, 8) == VG_ERR_INPUT);
            CHECK(got2[0] == 0 && got2[7] == 0);
            CHECK(vg_shake_wipe(&copy) == VG_OK);
            CHECK(vg_shake_squeeze(&copy, got2, 8) == VG_ERR_INPUT);
        }
    }
    CHECK(vg_shake_wipe(NULL) == VG_ERR_INPUT);
}

/* Once per distinct Keccak dispatch choice. */
static void test_public_stream(const uint8_t *msg, uint64_t *rng)
{
    uint32_t saved = vg_cpu_active();
    const uint32_t masks[3] = {saved, saved & ~(VG_CPU_AVX512F | VG_CPU_AVX512VL), 0};
    const struct vg_keccak_impl *seen[3];
    int nseen = 0;
    for (int m = 0; m < 3; m++) {
        int dup = 0;
        vg_cpu_force(masks[m]);
        for (int i = 0; i < nseen; i++)
            dup |= seen[i] == vg_keccak_active();
        if (dup)
            continue;
        seen[nseen++] = vg_keccak_active();
        test_public_stream_fixed(vg_keccak_active()->name, msg, rng);
        test_public_stream_shake(vg_keccak_active()->name, msg, rng);
        printf("public incremental SHA-3/SHAKE vs one-shot: %s\n", vg_keccak_active()->name);
    }
    vg_cpu_force(saved);
}

static void test_dispatch(void)
{
    const char *env = getenv("VG_CPU_FEATURES");
    const char *name = vg_implementation("keccak");
    CHECK(name != NULL && strcmp(name, vg_keccak_active()->name) == 0);
    if (env && strcmp(env, "none") == 0) {
        CHECK(strcmp(vg_keccak_active()->name, "portable") == 0);
        CHECK(vg_keccak_x86_get() == NULL);
        CHECK(vg_keccak_avx512_get() == NULL);
        CHECK(vg_keccak_active() == vg_keccak_portable_get());
    }
#if defined(VG_X86_64)
    /* Default build, no restriction: AVX-512VL when the CPU has AVX512F and
     * AVX512VL, else BMI2 when it has BMI2. */
    uint32_t det = vg_cpu_detected();
    if (!env && (det & (VG_CPU_AVX512F | VG_CPU_AVX512VL)) == (VG_CPU_AVX512F | VG_CPU_AVX512VL)) {
        CHECK(vg_keccak_avx512_get() != NULL);
        CHECK(strcmp(vg_keccak_active()->name, "avx512vl") == 0);
    } else if (!env && (det & VG_CPU_BMI2)) {
        CHECK(vg_keccak_x86_get() != NULL);
        CHECK(strcmp(vg_keccak_active()->name, "bmi2") == 0);
    }
    /* The choice follows the active set (test hook; only features the CPU
     * has are forced). */
    uint32_t saved = vg_cpu_active();
    vg_cpu_force(det & VG_CPU_BMI2);
    CHECK(vg_keccak_avx512_get() == NULL);
    CHECK(vg_keccak_active() == (vg_keccak_x86_get() ? vg_keccak_x86_get() : vg_keccak_portable_get()));
    vg_cpu_force(det & VG_CPU_AVX512F); /* F without VL is not enough */
    CHECK(vg_keccak_avx512_get() == NULL);
    if ((det & (VG_CPU_AVX512F | VG_CPU_AVX512VL)) == (VG_CPU_AVX512F | VG_CPU_AVX512VL)) {
        vg_cpu_force(VG_CPU_AVX512F | VG_CPU_AVX512VL);
        CHECK(vg_keccak_avx512_get() != NULL && vg_keccak_active() == vg_keccak_avx512_get());
        CHECK(strcmp(vg_implementation("keccak"), "avx512vl") == 0);
    }
    vg_cpu_force(0);
    CHECK(vg_keccak_active() == vg_keccak_portable_get());
    vg_cpu_force(saved);
#else
    CHECK(vg_keccak_x86_get() == NULL);
    CHECK(vg_keccak_avx512_get() == NULL);
#endif
    printf("keccak implementation: %s\n", name ? name : "(null)");
}

int main(void)
{
    static const char *md_names[NUM_ALGS] = {"SHA3-256", "SHA3-512", "SHAKE128", "SHAKE256"};
    size_t big_len = (size_t)1 << 20;
    uint8_t *big = malloc(big_len);
    uint64_t seed = 0x5ba3c0ffee123457ULL;
    if (!big)
        return 2;
    vgtest_randbytes(&seed, big, big_len);
    g_evp = EVP_MD_CTX_new();
    for (int a = 0; a < NUM_ALGS; a++) {
        g_md[a] = EVP_MD_fetch(NULL, md_names[a], NULL);
        if (!g_md[a] || !g_evp) {
            fprintf(stderr, "OpenSSL lacks %s\n", md_names[a]);
            return 2;
        }
    }

    g_impls[g_nimpls++] = vg_keccak_portable_get();
    if (vg_keccak_x86_get())
        g_impls[g_nimpls++] = vg_keccak_x86_get();
    if (vg_keccak_avx512_get())
        g_impls[g_nimpls++] = vg_keccak_avx512_get();
    CHECK(g_impls[0] != NULL);

    for (size_t i = 0; i < g_nimpls; i++) {
        printf("testing %s\n", g_impls[i]->name);
        test_kat(g_impls[i]);
        test_permutation(g_impls[i], &seed);
        test_vs_openssl(g_impls[i], big, big_len, &seed);
        test_incremental(g_impls[i], big, &seed);
        test_stream_vs_portable(g_impls[i], big, &seed);
    }
    test_public_api(big);
    test_public_stream(big, &seed);
    test_dispatch();

    for (int a = 0; a < NUM_ALGS; a++)
        EVP_MD_free(g_md[a]);
    EVP_MD_CTX_free(g_evp);
    free(big);
    return vgtest_done("test_sha3");
}
