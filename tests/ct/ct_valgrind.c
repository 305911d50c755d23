/*
 * Constant-time check under valgrind memcheck: every secret input is marked
 * undefined, each secret-handling routine runs once per implementation
 * variant, and memcheck reports any branch or memory index that depends on
 * it ("Conditional jump or move depends on uninitialised value(s)", "Use of
 * uninitialised value of size 8"). Run through run_valgrind.sh, which uses
 * `valgrind --error-exitcode=1 -q`, so any report fails the test.
 *
 * Usage:
 *   ct_valgrind --detect        print vg_cpu_detected() (run natively)
 *   ct_valgrind [--force MASK]  check every routine and variant; MASK is the
 *                               real CPU's mask from --detect (valgrind's
 *                               CPUID hides ADX, AVX-512 and SHA)
 *   ct_valgrind [--force MASK] --leaky
 *                               run only the leaky control, which must be
 *                               reported (ctest expects this run to fail)
 *
 * Secrets: hash message bytes and state; X25519 scalars k and peer
 * u-coordinates u (u is often derived from secrets, e.g. an ephemeral key,
 * so it is marked too); fixed-base scalars (X25519 secret keys, Ed25519
 * secret scalars and nonces); Ed25519 seeds and secret keys (key generation
 * and signing, once per fixed-base variant, which the signing path reaches
 * through vg_x25519_base_active(): the CPU mask is forced per variant); the
 * inputs of the scalar routines mod L (sc25519.h). Ed25519 messages,
 * signatures and public keys are public; verification is variable time by
 * design and runs once on public inputs, unmarked, for coverage only.
 *
 * Variants valgrind 3.19 cannot execute (AVX-512: SIGILL on the EVEX prefix
 * 0x62; SHA-NI: "unhandled instruction bytes 0x0F 0x38 0xCB") are skipped
 * with a printed reason; test_dudect covers them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "common.h"
#include "ct_impls.h"
#include "curve25519/curve25519.h"
#include "curve25519/fe25519.h"
#include "curve25519/ge25519.h"
#include "curve25519/sc25519.h"
#include "hash/keccak.h"
#include "hash/sha2.h"
#include "vgtest.h"
#include "ct_valgrind_main.h"

/* Mark n bytes at p secret: memcheck then tracks everything computed from
 * them and reports a branch or address that depends on them. */
#define VG_CT_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))

/* Declassification: VG_CT_DECLASSIFY from common.h (valgrind's
 * VALGRIND_MAKE_MEM_DEFINED in this build, VG_CT_TESTING), the same macro
 * the library uses. Every use carries a comment saying why the value is
 * public (or why it stops mattering) at that point. */
#if !defined(VG_CT_TESTING)
#error "ct_valgrind must link the constant-time test build of the library (vgcrypto_ct)"
#endif


/* Message lengths: below, at and across block boundaries of every rate
 * (SHA-256 64, SHA-512 128, Keccak 72/136/168), and a long one. */
static const size_t g_lens[] = {1, 55, 56, 63, 64, 65, 71, 72, 111, 112, 127, 128, 129,
                                135, 136, 137, 167, 168, 169, 300, 1000};
#define MAX_LEN 1000

static uint8_t g_msg[MAX_LEN]; /* secret message bytes (deterministic content) */

/* Fresh secret copy of the first len message bytes. */
static void secret_msg(uint8_t *buf, size_t len)
{
    memcpy(buf, g_msg, len);
    VG_CT_SECRET(buf, len);
}

/* ---- per-variant runs ------------------------------------------------------ */

static void sha256_digest(const struct vg_sha256_impl *impl, const uint8_t *m, size_t len,
                          uint8_t out[32])
{
    vg_sha256_ctx c;
    vg_sha256_ctx_init_impl(&c, impl);
    /* Two updates with an uneven split, so the buffering path runs too. */
    vg_sha256_ctx_update(&c, m, len / 3);
    vg_sha256_ctx_update(&c, m + len / 3, len - len / 3);
    vg_sha256_ctx_final(&c, out);
}

static void sha512_digest(const struct vg_sha512_impl *impl, const uint8_t *m, size_t len,
                          uint8_t out[64])
{
    vg_sha512_ctx c;
    vg_sha512_ctx_init_impl(&c, impl);
    vg_sha512_ctx_update(&c, m, len / 3);
    vg_sha512_ctx_update(&c, m + len / 3, len - len / 3);
    vg_sha512_ctx_final(&c, out);
}

/* One Keccak-based function: SHA-3 (ds 0x06) through vg_sha3_final, SHAKE
 * (ds 0x1f) squeezed in two pieces across a block boundary. */
static void keccak_digest(const struct vg_keccak_impl *impl, size_t rate, uint8_t ds,
                          size_t out_len, const uint8_t *m, size_t len, uint8_t *out)
{
    vg_keccak_ctx c;
    vg_keccak_init_impl(&c, rate, ds, impl);
    vg_keccak_absorb(&c, m, len / 3);
    vg_keccak_absorb(&c, m + len / 3, len - len / 3);
    if (ds == 0x06) {
        vg_sha3_final(&c, out, out_len);
    } else {
        vg_keccak_finalize(&c);
        vg_keccak_squeeze(&c, out, 10);
        vg_keccak_squeeze(&c, out + 10, out_len - 10);
        vg_wipe(&c, sizeof c);
    }
}

static const struct {
    const char *name;
    size_t rate, out_len;
    uint8_t ds;
} g_keccak_fns[] = {
    {"sha3-256", 136, 32, 0x06},
    {"sha3-512", 72, 64, 0x06},
    {"shake128", 168, 300, 0x1f},
    {"shake256", 136, 300, 0x1f},
};

/* Compare a variant's output with the portable one's. Both were computed
 * from secrets, so they are undefined: declassify them first. */
static void check_same(const char *label, const char *fn, size_t len, uint8_t *got,
                       uint8_t *ref, size_t n)
{
    /* Declassify: the harness's own functional cross-check, after the
     * routines under test have returned. A digest is what the caller
     * receives; comparing it here cannot hide a leak inside the routine. */
    VG_CT_DECLASSIFY(got, n);
    VG_CT_DECLASSIFY(ref, n);
    CHECK_MSG(memcmp(got, ref, n) == 0, "%s %s len %zu differs from portable", label, fn, len);
}

/* ---- X25519 ---------------------------------------------------------------- */

/* Scalar/u pairs reaching the ladder's edge cases: generic bytes, an all-zero
 * and an all-one scalar (clamping sets and clears bits; the ladder's swap
 * bits are then constant), u = 0 and u = 1 (small order: all-zero results),
 * u = p and u = 2^255 - 1 (non-canonical encodings, reduced by the field),
 * and bit 255 of u set (ignored by RFC 7748 section 5). Filled by init_x25519. */
#define N_X25519 7
static uint8_t g_xk[N_X25519][32], g_xu[N_X25519][32];

static void init_x25519(void)
{
    for (int n = 0; n < N_X25519; n++)
        for (int i = 0; i < 32; i++) {
            g_xk[n][i] = (uint8_t)(0x35 * (i + 1) + 0x61 * n + 3);
            g_xu[n][i] = (uint8_t)(0x5b * (i + 7) + 0x17 * n);
        }
    g_xu[0][31] |= 0x80;                  /* bit 255 set */
    memset(g_xk[1], 0, 32);               /* k = 0 (clamped: 2^254) */
    memset(g_xu[1], 0, 32);
    g_xu[1][0] = 9;                       /* the base point */
    memset(g_xk[2], 0xff, 32);            /* k = 2^256 - 1 */
    memset(g_xu[2], 0xff, 32);            /* u = 2^256 - 1: 2^255 - 1 after masking */
    memset(g_xu[3], 0, 32);               /* u = 0: shared secret all zero */
    memset(g_xu[4], 0, 32);
    g_xu[4][0] = 1;                       /* u = 1: order 4, all-zero result */
    memset(g_xu[5], 0xff, 32);            /* u = p = 2^255 - 19 */
    g_xu[5][0] = 0xed;
    g_xu[5][31] = 0x7f;
}

/* Fresh secret copies of pair n. */
static void secret_pair(int n, uint8_t k[32], uint8_t u[32])
{
    memcpy(k, g_xk[n], 32);
    memcpy(u, g_xu[n], 32);
    VG_CT_SECRET(k, 32);
    VG_CT_SECRET(u, 32);
}

static void run_x25519(const struct vg_x25519_impl *im, const char *label)
{
    uint8_t k[32], u[32], out[32], ref[32];
    char fn[32];
    for (int n = 0; n < N_X25519; n++) {
        secret_pair(n, k, u);
        im->scalarmult(out, k, u);
        secret_pair(n, k, u);
        vg_x25519_portable_get()->scalarmult(ref, k, u);
        snprintf(fn, sizeof fn, "scalarmult #%d", n);
        check_same(label, fn, 32, out, ref, 32);
        /* Aliasing: out = k (allowed by the contract). */
        secret_pair(n, k, u);
        im->scalarmult(k, k, u);
        snprintf(fn, sizeof fn, "scalarmult alias #%d", n);
        check_same(label, fn, 32, k, ref, 32);
    }
}

static void run_x25519_base(const struct vg_x25519_base_impl *im, const char *label)
{
    uint8_t k[32], u9[32], out[32], ref[32];
    char fn[32];
    memset(u9, 0, 32);
    u9[0] = 9;
    for (int n = 0; n < N_X25519; n++) {
        /* X25519 public key: against the portable ladder on u = 9. */
        memcpy(k, g_xk[n], 32);
        VG_CT_SECRET(k, 32);
        im->public_key(out, k);
        memcpy(k, g_xk[n], 32);
        VG_CT_SECRET(k, 32);
        vg_x25519_portable_get()->scalarmult(ref, k, u9);
        snprintf(fn, sizeof fn, "public_key #%d", n);
        check_same(label, fn, 32, out, ref, 32);
        /* Ed25519 [a]B, precondition a < 2^255: against the portable
         * fixed-base variant (the ladder gives only u, not the encoding). */
        memcpy(k, g_xk[n], 32);
        k[31] &= 0x7f;
        VG_CT_SECRET(k, 32);
        im->ed25519_base(out, k);
        memcpy(k, g_xk[n], 32);
        k[31] &= 0x7f;
        VG_CT_SECRET(k, 32);
        vg_x25519_base_portable_get()->ed25519_base(ref, k);
        snprintf(fn, sizeof fn, "ed25519_base #%d", n);
        check_same(label, fn, 32, out, ref, 32);
    }
}

/* The X25519 API with whatever the dispatch picks. */
static void run_api_x25519(void)
{
    uint8_t k[32], u[32], out[32], ref[32];
    for (int n = 0; n < N_X25519; n++) {
        secret_pair(n, k, u);
        int rc = vg_x25519(out, k, u);
        /* Declassify the return code: it says whether the shared secret is
         * all zero, which RFC 7748 section 6.1 makes a public verdict (the
         * peer sent a point of small order; the caller aborts the protocol,
         * visibly). It is computed from the secret output (an OR over all 32
         * bytes, then a mask), so memcheck marks it undefined and the test
         * below would be a report in this harness, not in the library.
         * Anything inside vg_x25519 that branches on the secret, including a
         * branch on the verdict itself, is reported before this line runs,
         * so this declassification hides nothing inside the routine. */
        VG_CT_DECLASSIFY(&rc, sizeof rc);
        secret_pair(n, k, u);
        vg_x25519_portable_get()->scalarmult(ref, k, u);
        VG_CT_DECLASSIFY(ref, 32); /* the harness's own cross-check, as in check_same */
        uint64_t acc = 0;
        for (int i = 0; i < 32; i++)
            acc |= ref[i];
        CHECK_MSG(rc == (acc ? VG_OK : VG_ERR_INPUT), "vg_x25519 #%d: return %d", n, rc);
        check_same("api", "vg_x25519", (size_t)n, out, ref, 32);

        memcpy(k, g_xk[n], 32);
        VG_CT_SECRET(k, 32);
        CHECK(vg_x25519_public_key(out, k) == VG_OK); /* a constant: defined */
        memcpy(k, g_xk[n], 32);
        VG_CT_SECRET(k, 32);
        vg_x25519_base_portable_get()->public_key(ref, k);
        check_same("api", "vg_x25519_public_key", (size_t)n, out, ref, 32);
    }
    /* vg_x25519_keypair: the secret comes from the OS inside the call, where
     * the harness cannot mark it (memcheck treats getrandom's output as
     * defined), so this only runs the path; its secret-key work is
     * vg_x25519_public_key, checked above with the scalar marked. */
    CHECK(vg_x25519_keypair(out, k) == VG_OK);
    vg_x25519_base_portable_get()->public_key(ref, k);
    CHECK_MSG(memcmp(out, ref, 32) == 0, "vg_x25519_keypair: public key mismatch");
    printf("  checked api: vg_x25519 (%s), vg_x25519_public_key (%s), vg_x25519_keypair (run "
           "only: RNG output not markable)\n",
           vg_x25519_active()->name, vg_x25519_base_active()->name);
}

static void run_variant(const struct vg_ct_variant *v)
{
    uint8_t m[MAX_LEN], out[300], ref[300];
    char label[48];
    vg_ct_variant_label(v, label, sizeof label);
    if (v->kind == VG_CT_X25519 || v->kind == VG_CT_X25519_BASE) {
        if (v->kind == VG_CT_X25519)
            run_x25519(v->impl, label);
        else
            run_x25519_base(v->impl, label);
        printf("  checked %-20s (needs 0x%03x)\n", label, (unsigned)v->needs);
        return;
    }
    for (size_t i = 0; i < sizeof g_lens / sizeof g_lens[0]; i++) {
        size_t len = g_lens[i];
        switch (v->kind) {
        case VG_CT_SHA256:
            secret_msg(m, len);
            sha256_digest(v->impl, m, len, out);
            sha256_digest(vg_sha256_portable_get(), m, len, ref);
            check_same(label, "sha256", len, out, ref, 32);
            break;
        case VG_CT_SHA512:
            secret_msg(m, len);
            sha512_digest(v->impl, m, len, out);
            sha512_digest(vg_sha512_portable_get(), m, len, ref);
            check_same(label, "sha512", len, out, ref, 64);
            break;
        case VG_CT_KECCAK:
            for (size_t f = 0; f < sizeof g_keccak_fns / sizeof g_keccak_fns[0]; f++) {
                secret_msg(m, len);
                keccak_digest(v->impl, g_keccak_fns[f].rate, g_keccak_fns[f].ds,
                              g_keccak_fns[f].out_len, m, len, out);
                keccak_digest(vg_keccak_portable_get(), g_keccak_fns[f].rate,
                              g_keccak_fns[f].ds, g_keccak_fns[f].out_len, m, len, ref);
                check_same(label, g_keccak_fns[f].name, len, out, ref, g_keccak_fns[f].out_len);
            }
            break;
        case VG_CT_X25519:
        case VG_CT_X25519_BASE:
            break; /* handled above */
        }
    }
    if (v->kind == VG_CT_KECCAK) {
        /* The permutation and block absorb directly, on a secret state. */
        const struct vg_keccak_impl *k = v->impl;
        uint64_t st[25];
        memcpy(st, g_msg, sizeof st);
        VG_CT_SECRET(st, sizeof st);
        k->permute(st);
        secret_msg(m, 3 * 168);
        k->absorb(st, m, 3, 168);
        k->absorb(st, m, 2, 72);
        vg_wipe(st, sizeof st);
    }
    printf("  checked %-20s (needs 0x%03x)\n", label, (unsigned)v->needs);
}

/* ---- the public API, through whatever the dispatch picks ---------------- */

static void run_api(void)
{
    uint8_t m[MAX_LEN], out[300];
    for (size_t i = 0; i < sizeof g_lens / sizeof g_lens[0]; i++) {
        size_t len = g_lens[i];
        /* Return codes are constants (VG_OK), defined: checking them is no
         * branch on a secret unless the routine made them depend on one,
         * which memcheck would then report. */
        secret_msg(m, len);
        CHECK(vg_sha256(out, m, len) == VG_OK);
        CHECK(vg_sha512(out, m, len) == VG_OK);
        CHECK(vg_sha3_256(out, m, len) == VG_OK);
        CHECK(vg_sha3_512(out, m, len) == VG_OK);
        CHECK(vg_shake128(out, 300, m, len) == VG_OK);
        CHECK(vg_shake256(out, 300, m, len) == VG_OK);
    }
    printf("  checked api: vg_sha256 (%s), vg_sha512 (%s), vg_sha3_256, vg_sha3_512, "
           "vg_shake128, vg_shake256 (keccak %s)\n",
           vg_implementation("sha256"), vg_implementation("sha512"), vg_implementation("keccak"));
}

/* ---- Ed25519 (RFC 8032 section 5.1) ------------------------------------------ */

/* Seeds: generic bytes, all zero, all 0xff. Messages (public): lengths 0
 * (RFC 8032 7.1 TEST 1 style), 1, 64, and 200 (SHA-512 over more than one
 * block together with the 32-byte prefix). */
#define N_ED_SEEDS 3
static uint8_t g_ed_seed[N_ED_SEEDS][32];
static const size_t g_ed_msg_lens[] = {0, 1, 64, 200};
#define N_ED_MSGS (sizeof g_ed_msg_lens / sizeof g_ed_msg_lens[0])
/* Reference outputs, computed before any secret is marked (portable path). */
static uint8_t g_ed_ref_pk[N_ED_SEEDS][32], g_ed_ref_sk[N_ED_SEEDS][64];
static uint8_t g_ed_ref_sig[N_ED_SEEDS][N_ED_MSGS][64];
/* Ed25519ctx and Ed25519ph (RFC 8032 5.1, issue 21) over the 200-byte
 * message, with the public context g_ed_ctx, and the streamed Ed25519
 * signer the CLI uses (vg_ed25519_sign_feed, two passes over a buffer). */
static const uint8_t g_ed_ctx[3] = {'c', 't', 'x'};
static uint8_t g_ed_ref_ctx_sig[N_ED_SEEDS][64], g_ed_ref_ph_sig[N_ED_SEEDS][64];

static int ed_buf_feed(void *arg, vg_ed25519_absorb_fn absorb, void *sink)
{
    absorb(sink, arg, g_ed_msg_lens[N_ED_MSGS - 1]);
    return 0;
}

static void init_ed25519(void)
{
    for (int n = 0; n < N_ED_SEEDS; n++)
        for (int i = 0; i < 32; i++)
            g_ed_seed[n][i] = (uint8_t)(0x4d * (i + 3) + 0x29 * n + 1);
    memset(g_ed_seed[1], 0, 32);
    memset(g_ed_seed[2], 0xff, 32);
    vg_cpu_force(0); /* portable everything: the reference */
    for (int n = 0; n < N_ED_SEEDS; n++) {
        CHECK(vg_ed25519_keypair_from_seed(g_ed_ref_pk[n], g_ed_ref_sk[n], g_ed_seed[n]) == VG_OK);
        for (size_t m = 0; m < N_ED_MSGS; m++)
            CHECK(vg_ed25519_sign(g_ed_ref_sig[n][m], g_msg, g_ed_msg_lens[m], g_ed_ref_sk[n]) ==
                  VG_OK);
        CHECK(vg_ed25519ctx_sign(g_ed_ref_ctx_sig[n], g_msg, g_ed_msg_lens[N_ED_MSGS - 1],
                                 g_ed_ctx, sizeof g_ed_ctx, g_ed_ref_sk[n]) == VG_OK);
        CHECK(vg_ed25519ph_sign(g_ed_ref_ph_sig[n], g_msg, g_ed_msg_lens[N_ED_MSGS - 1],
                                g_ed_ctx, sizeof g_ed_ctx, g_ed_ref_sk[n]) == VG_OK);
    }
}

/* Key generation from a secret seed and signing with a secret key, with the
 * CPU mask forced so that vg_x25519_base_active() is `impl`. The outputs
 * (public key, signature) are public; they are declassified only to be
 * compared with the reference. */
static void run_ed25519(const struct vg_x25519_base_impl *impl, uint32_t mask, const char *label)
{
    uint8_t seed[32], pk[32], sk[64], sig[64];
    char fn[48];
    vg_cpu_force(mask);
    if (vg_x25519_base_active() != impl) {
        CHECK_MSG(0, "ed25519 %s: mask 0x%03x does not select it", label, (unsigned)mask);
        return;
    }
    for (int n = 0; n < N_ED_SEEDS; n++) {
        memcpy(seed, g_ed_seed[n], 32);
        VG_CT_SECRET(seed, 32);
        int rc = vg_ed25519_keypair_from_seed(pk, sk, seed);
        CHECK(rc == VG_OK); /* a constant: defined unless the routine made it depend on the seed */
        /* Declassify: the public key is public output, and sk[32..63] is a
         * copy of it; compared only after the routine has returned. */
        VG_CT_DECLASSIFY(pk, 32);
        VG_CT_DECLASSIFY(sk + 32, 32);
        snprintf(fn, sizeof fn, "keypair_from_seed #%d", n);
        CHECK_MSG(memcmp(pk, g_ed_ref_pk[n], 32) == 0 && memcmp(sk + 32, g_ed_ref_pk[n], 32) == 0,
                  "%s %s: public key differs from the portable reference", label, fn);
        /* Aliasing allowed by the API: seed in secret_key's first half. */
        memcpy(sk, g_ed_seed[n], 32);
        VG_CT_SECRET(sk, 32);
        CHECK(vg_ed25519_keypair_from_seed(pk, sk, sk) == VG_OK);
        VG_CT_DECLASSIFY(pk, 32); /* public output, as above */
        CHECK_MSG(memcmp(pk, g_ed_ref_pk[n], 32) == 0, "%s %s alias: public key differs", label,
                  fn);

        for (size_t m = 0; m < N_ED_MSGS; m++) {
            /* The whole 64-byte secret key marked, the public-key half too
             * (stricter than needed: it is public). The message is public. */
            memcpy(sk, g_ed_ref_sk[n], 64);
            VG_CT_SECRET(sk, 64);
            rc = vg_ed25519_sign(sig, g_msg, g_ed_msg_lens[m], sk);
            CHECK(rc == VG_OK);
            /* Declassify: the signature is public output (R = [r]B and
             * S = r + k s mod L are sent to the verifier); a branch or index
             * on the nonce or the scalar inside vg_ed25519_sign has been
             * reported by the time this line runs. */
            VG_CT_DECLASSIFY(sig, 64);
            snprintf(fn, sizeof fn, "sign #%d len %zu", n, g_ed_msg_lens[m]);
            CHECK_MSG(memcmp(sig, g_ed_ref_sig[n][m], 64) == 0,
                      "%s %s: signature differs from the portable reference", label, fn);
        }
        /* Ed25519ctx, Ed25519ph, and the streamed signer: the secret key
         * marked as above; message and context public. Declassify each
         * signature (public output) only after its call returned. */
        const size_t ml = g_ed_msg_lens[N_ED_MSGS - 1];
        memcpy(sk, g_ed_ref_sk[n], 64);
        VG_CT_SECRET(sk, 64);
        CHECK(vg_ed25519ctx_sign(sig, g_msg, ml, g_ed_ctx, sizeof g_ed_ctx, sk) == VG_OK);
        VG_CT_DECLASSIFY(sig, 64);
        CHECK_MSG(memcmp(sig, g_ed_ref_ctx_sig[n], 64) == 0,
                  "%s ed25519ctx #%d: signature differs from the portable reference", label, n);
        CHECK(vg_ed25519ph_sign(sig, g_msg, ml, g_ed_ctx, sizeof g_ed_ctx, sk) == VG_OK);
        VG_CT_DECLASSIFY(sig, 64);
        CHECK_MSG(memcmp(sig, g_ed_ref_ph_sig[n], 64) == 0,
                  "%s ed25519ph #%d: signature differs from the portable reference", label, n);
        CHECK(vg_ed25519_sign_feed(sig, NULL, 0, ed_buf_feed, (void *)g_msg, sk) == VG_OK);
        VG_CT_DECLASSIFY(sig, 64);
        CHECK_MSG(memcmp(sig, g_ed_ref_sig[n][N_ED_MSGS - 1], 64) == 0,
                  "%s ed25519 streamed #%d: signature differs from the one-shot", label, n);
    }
    printf("  checked ed25519 keygen+sign via %-10s (mask 0x%03x; %d seeds, %zu messages; "
           "ed25519ctx, ed25519ph, streamed sign)\n",
           impl->name, (unsigned)mask, N_ED_SEEDS, N_ED_MSGS);
}

/* The largest of a few feature masks (subsets of `runnable`) under which the
 * dispatch picks `impl`; 0 with *found = 0 when none does. */
static uint32_t mask_for_base(const struct vg_x25519_base_impl *impl, uint32_t runnable,
                              int *found)
{
    const uint32_t avx512 = NO_VALGRIND_AVX512;
    const uint32_t cand[] = {runnable, runnable & ~VG_CPU_AVX512IFMA, runnable & ~avx512,
                             runnable & ~(avx512 | VG_CPU_ADX | VG_CPU_BMI2), 0};
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
        vg_cpu_force(cand[i]);
        if (vg_x25519_base_active() == impl) {
            *found = 1;
            return cand[i];
        }
    }
    *found = 0;
    return 0;
}

/* The scalar routines mod L on secret inputs: SHA-512 outputs (nonce r,
 * challenge k) reduced, S = r + k s, and the canonical check. Edge inputs:
 * 0, all-ones, L-ish values, generic bytes. */
static void run_sc25519(void)
{
    static const uint8_t l_le[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
                                     0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
                                     0,    0,    0,    0,    0,    0,    0,    0,
                                     0,    0,    0,    0,    0,    0,    0,    0x10};
    uint8_t in[4][64], x[64], a[32], b[32], c[32], out[32];
    for (int i = 0; i < 64; i++)
        in[0][i] = (uint8_t)(0x3b * i + 0x11);
    memset(in[1], 0, 64);
    memset(in[2], 0xff, 64);
    memset(in[3], 0, 64);
    memcpy(in[3], l_le, 32); /* L */
    for (int n = 0; n < 4; n++) {
        memcpy(x, in[n], 64);
        VG_CT_SECRET(x, 64);
        vg_sc25519_reduce64(out, x);
        vg_sc25519_reduce64(x, x); /* aliased */
        for (int m = 0; m < 4; m++) {
            memcpy(a, in[n], 32);
            memcpy(b, in[m], 32);
            memcpy(c, in[(n + m) & 3] + 32, 32);
            VG_CT_SECRET(a, 32);
            VG_CT_SECRET(b, 32);
            VG_CT_SECRET(c, 32);
            vg_sc25519_muladd(out, a, b, c);
            vg_sc25519_muladd(a, a, b, c); /* aliased */
        }
        memcpy(a, in[n], 32);
        VG_CT_SECRET(a, 32);
        int canon = vg_sc25519_is_canonical(a);
        /* Declassify the verdict: on the signing side nobody asks it of a
         * secret, but the routine itself must not branch on its input, which
         * memcheck has checked by now. */
        VG_CT_DECLASSIFY(&canon, sizeof canon);
        /* only the all-zero input is below L (in[0] ends in 0x36, in[3] = L) */
        CHECK(canon == (n == 1));
    }
    printf("  checked sc25519: reduce64, muladd, is_canonical on secret inputs\n");
}

/* Verification is variable time by design (public inputs only): run it once,
 * unmarked, so the harness covers the path and would see it crash. */
static void run_ed25519_verify_public(void)
{
    for (int n = 0; n < N_ED_SEEDS; n++)
        for (size_t m = 0; m < N_ED_MSGS; m++) {
            CHECK(vg_ed25519_verify(g_ed_ref_sig[n][m], g_msg, g_ed_msg_lens[m], g_ed_ref_pk[n]) ==
                  VG_OK);
            CHECK(vg_ed25519_verify_cofactored(g_ed_ref_sig[n][m], g_msg, g_ed_msg_lens[m],
                                               g_ed_ref_pk[n]) == VG_OK);
        }
    /* vg_ed25519_keypair: the seed comes from the OS inside the call and
     * cannot be marked (as for vg_x25519_keypair): run only. */
    uint8_t pk[32], sk[64], sig[64];
    CHECK(vg_ed25519_keypair(pk, sk) == VG_OK);
    CHECK(vg_ed25519_sign(sig, g_msg, 10, sk) == VG_OK);
    CHECK(vg_ed25519_verify(sig, g_msg, 10, pk) == VG_OK);
    printf("  ran ed25519 verify (public inputs, unmarked: variable time by design) and "
           "vg_ed25519_keypair (run only)\n");
}

/* ---- leaky control --------------------------------------------------------- */

static volatile unsigned g_sink;
static const uint8_t g_table[256] = {1};

/* Branches on a secret byte and indexes a table with another: both are what
 * the harness exists to catch, so memcheck must report this function. The
 * volatile store cannot be made unconditional, so the branch survives -O3. */
__attribute__((noinline)) static void leaky_control(const uint8_t *secret)
{
    if (secret[0] & 1)
        g_sink++;
    g_sink = g_table[secret[1]];
}

static void run_leaky(void)
{
    uint8_t s[2] = {0x5a, 0x17};
    VG_CT_SECRET(s, sizeof s);
    leaky_control(s);
    printf("  ran the leaky control (memcheck must report it)\n");
}

int main(int argc, char **argv)
{
    struct vg_ctv_opts opt;
    int rc = vg_ctv_parse(argc, argv, "ct_valgrind", 0, &opt);
    if (rc >= 0)
        return rc;
    const int leaky = opt.leaky, on_valgrind = opt.on_valgrind;
    const uint32_t avail = opt.avail, runnable = opt.runnable;

    if (leaky) {
        run_leaky();
        return 0;
    }

    for (size_t i = 0; i < MAX_LEN; i++)
        g_msg[i] = (uint8_t)(i * 131 + 7);
    init_x25519();
    init_ed25519();

    /* Every variant that any subset of the CPU's features reaches. */
    static struct vg_ct_variant v[VG_CT_MAX_VARIANTS];
    size_t n = vg_ct_variants(avail, v, VG_CT_MAX_VARIANTS);
    for (size_t i = 0; i < n; i++) {
        char label[48];
        vg_ct_variant_label(&v[i], label, sizeof label);
        if (on_valgrind && (v[i].needs & NO_VALGRIND_AVX512)) {
            printf("  SKIP    %-20s needs AVX-512, which valgrind 3.19 cannot execute "
                   "(covered by test_dudect)\n", label);
            continue;
        }
        if (on_valgrind && (v[i].needs & NO_VALGRIND_SHA)) {
            printf("  SKIP    %-20s needs SHA-NI, which valgrind 3.19 cannot execute "
                   "(covered by test_dudect)\n", label);
            continue;
        }
        run_variant(&v[i]);
    }

    /* The public API with the best variants valgrind can run. */
    vg_cpu_force(runnable);
    run_api();
    run_api_x25519();

    /* Ed25519 keygen and signing once per fixed-base variant valgrind can
     * run, selected through the dispatch by forcing the CPU mask. */
    for (size_t i = 0; i < n; i++) {
        if (v[i].kind != VG_CT_X25519_BASE)
            continue;
        char label[48];
        vg_ct_variant_label(&v[i], label, sizeof label);
        if (on_valgrind && (v[i].needs & NO_VALGRIND_AVX512)) {
            printf("  SKIP    ed25519 via %-10s needs AVX-512, which valgrind 3.19 cannot "
                   "execute (covered by test_dudect)\n", v[i].name);
            continue;
        }
        int found;
        uint32_t mask = mask_for_base(v[i].impl, runnable, &found);
        CHECK_MSG(found, "ed25519: no CPU mask selects %s", label);
        if (found)
            run_ed25519(v[i].impl, mask, label);
    }
    vg_cpu_force(runnable);
    run_sc25519();
    run_ed25519_verify_public();
    return vgtest_done("ct_valgrind");
}
