/*
 * ChaCha20-Poly1305 / XChaCha20-Poly1305 statistical constant-time test,
 * dudect style (dudect.h: two input classes interleaved at random,
 * lfence; rdtsc, percentile crops, Welch's t), run natively so that the
 * AVX-512 ChaCha20 and the AVX-512 IFMA Poly1305, which valgrind cannot
 * execute, are covered too.
 *
 * Usage: test_dudect_aead [SAMPLES] [--only SUBSTRING]
 *   SAMPLES: measurements per row (default 100000; ct-long uses 10^6;
 *   at least 1000).
 *   --only: the controls and the rows whose label contains SUBSTRING.
 *
 * Rows, for every pair of a ChaCha20 implementation (portable, avx2_rows,
 * avx2, avx512) and a Poly1305 implementation (r44, r26, mulx, avx2,
 * avx512ifma) that this build and CPU have, through vg_aead_seal_impl /
 * vg_aead_open_impl:
 *   seal 64, seal 1040   the secrets are the key and the plaintext: class
 *                        0 a fixed key and plaintext (drawn once), class 1
 *                        random ones; nonce and 13 bytes of AD fixed
 *                        (public). 64 bytes: the short-message paths; 1040
 *                        = 16 ChaCha20 blocks + 16 bytes: the 16-block
 *                        AVX-512 and 8-block AVX2 loops and their tails,
 *                        and runs of 16 or more Poly1305 blocks (the
 *                        vector Poly1305 loops).
 *   open reject 64       the secret is where a wrong tag differs from the
 *                        right one: fixed key and ciphertext, class 0 the
 *                        right tag with only its last byte changed (the
 *                        longest matching prefix), class 1 a random tag;
 *                        both are rejected (and pt wiped), so a compare
 *                        that stops at the first difference would show.
 * and once, with the dispatch:
 *   xchacha seal 64      as seal 64 for XChaCha20-Poly1305 (HChaCha20 on
 *                        the secret key).
 *   tag vg_ct_memcmp     the 16-byte tag comparison of open: class 0 equal
 *                        to the expected tag, class 1 random.
 *
 * Controls:
 *   control/leaky-tag    the same comparison by an early-exit loop (as
 *                        memcmp): class 0 compares all 16 bytes, class 1
 *                        almost always stops at the first. Must reach |t|
 *                        >= 4.5, or the harness is blind to a leak of the
 *                        size a variable-time tag check has.
 *   control/null         vg_ct_memcmp on the same input in both classes:
 *                        must stay below 4.5.
 * Verdicts as in test_dudect.c (dudect.h, vg_dudect_judge): a target or the
 * null control over 4.5 is repeated with fresh samples and fails only if
 * the repeat is over too; the leaky control must show on the first run.
 * Output: a table, then "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aead/aead.h"
#include "common.h"
#include "dudect.h"
#include "peers.h"
#include "vgtest.h"

#define AD_LEN 13
#define MAX_MSG 1040

static uint8_t g_key0[32], g_pt0[MAX_MSG], g_nonce[24], g_ad[AD_LEN];
static uint8_t g_ct0[MAX_MSG], g_tag0[16];
static uint8_t g_out[MAX_MSG], g_tag[16];
static volatile int g_sink;

struct pair {
    const struct vg_chacha20_impl *c;
    const struct vg_poly1305_impl *p;
    int x;      /* 1: XChaCha20-Poly1305 */
    size_t len; /* message bytes */
};

/* ---- rows ---------------------------------------------------------------- */

/* seal: input = key (32) || pt (len). */
static void prep_seal(void *ctx, int cls, uint8_t *in)
{
    const struct pair *q = ctx;
    if (cls == 0) {
        memcpy(in, g_key0, 32);
        memcpy(in + 32, g_pt0, q->len);
    } else {
        vg_dudect_randombytes(in, 32 + q->len);
    }
}

static void meas_seal(void *ctx, const uint8_t *in)
{
    const struct pair *q = ctx;
    g_sink = vg_aead_seal_impl(q->c, q->p, q->x, g_out, g_tag, in + 32, q->len, g_ad, AD_LEN,
                               g_nonce, in);
}

/* open reject: input = tag (16); key, ct fixed (g_ct0 sealed under g_key0
 * with this pair's AEAD). */
static void prep_reject(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    if (cls == 0) {
        memcpy(in, g_tag0, 16);
        in[15] ^= 0x80;
    } else {
        vg_dudect_randombytes(in, 16);
        /* A random tag equal to the right one (2^-128) would be accepted:
         * not worth a branch in the measurement. */
    }
}

static void meas_reject(void *ctx, const uint8_t *in)
{
    const struct pair *q = ctx;
    g_sink = vg_aead_open_impl(q->c, q->p, q->x, g_out, g_ct0, q->len, in, g_ad, AD_LEN,
                               g_nonce, g_key0);
}

/* tag compare: input = tag (16). */
static void prep_tag(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    if (cls == 0)
        memcpy(in, g_tag0, 16);
    else
        vg_dudect_randombytes(in, 16);
}

static void prep_null(void *ctx, int cls, uint8_t *in)
{
    (void)ctx;
    (void)cls;
    memcpy(in, g_tag0, 16);
}

static void meas_ct_memcmp(void *ctx, const uint8_t *in)
{
    (void)ctx;
    g_sink = vg_ct_memcmp(in, g_tag0, 16);
}

/* Returns at the first differing byte: time grows with the common prefix. */
__attribute__((noinline)) static int early_exit_compare(const uint8_t *a, const uint8_t *b,
                                                        size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 1;
    return 0;
}

static void meas_leaky(void *ctx, const uint8_t *in)
{
    (void)ctx;
    g_sink = early_exit_compare(in, g_tag0, 16);
}

/* ---- peers ----------------------------------------------------------------
 * libsodium's crypto_aead_chacha20poly1305_ietf_encrypt_detached and
 * OpenSSL's EVP ChaCha20-Poly1305 (bench/peers.c, dlopen) sealing the same
 * classes (fixed key and plaintext vs random ones, the same nonce), with
 * the empty AD their peers.c entry points take (AD is public). OpenSSL sets
 * its key on every call (vg_peers_no_cache), so both classes pay it. */
struct peer {
    vg_bench_fn fn;
    size_t len;
};

static void prep_peer_seal(void *ctx, int cls, uint8_t *in)
{
    const struct peer *q = ctx;
    if (cls == 0) {
        memcpy(in, g_key0, 32);
        memcpy(in + 32, g_pt0, q->len);
    } else {
        vg_dudect_randombytes(in, 32 + q->len);
    }
}

static void meas_peer_seal(void *ctx, const uint8_t *in)
{
    const struct peer *q = ctx;
    uint8_t buf[32 + 12 + MAX_MSG];
    memcpy(buf, in, 32);
    memcpy(buf + 32, g_nonce, 12);
    memcpy(buf + 44, in + 32, q->len);
    g_sink = q->fn(g_out, q->len + 16, buf, 44 + q->len);
}

/* ---- driver ------------------------------------------------------------- */

struct entry {
    struct vg_dudect_routine r;
    enum vg_dudect_role role;
    struct pair q;
    char label[72];
};

#define MAX_ENTRIES 96
static struct entry g_entries[MAX_ENTRIES];
static size_t g_n;

static void add(const char *label, enum vg_dudect_role role, size_t input_len,
                void (*prep)(void *, int, uint8_t *), void (*meas)(void *, const uint8_t *),
                struct pair q)
{
    if (g_n >= MAX_ENTRIES) {
        fprintf(stderr, "test_dudect_aead: too many rows\n");
        exit(2);
    }
    struct entry *e = &g_entries[g_n++];
    memset(e, 0, sizeof *e); /* optional routine fields stay NULL */
    snprintf(e->label, sizeof e->label, "%s", label);
    e->q = q;
    e->r.name = e->label;
    e->r.input_len = input_len;
    e->r.prepare = prep;
    e->r.measure = meas;
    e->r.ctx = &e->q;
    e->role = role;
}

int main(int argc, char **argv)
{
    size_t samples = 100000;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            char *end;
            unsigned long long v = strtoull(argv[i], &end, 10);
            if (*end || v < 1000) {
                fprintf(stderr, "usage: %s [SAMPLES >= 1000] [--only SUBSTRING]\n", argv[0]);
                return 2;
            }
            samples = (size_t)v;
        }
    }

    const uint32_t det = vg_cpu_detected();
    vg_cpu_force(det);
    vg_dudect_randombytes(g_key0, sizeof g_key0);
    vg_dudect_randombytes(g_pt0, sizeof g_pt0);
    vg_dudect_randombytes(g_nonce, sizeof g_nonce);
    vg_dudect_randombytes(g_ad, sizeof g_ad);
    /* The fixed ciphertext and tag of the reject rows and the tag rows
     * (64 bytes, ChaCha20-Poly1305): the same under every pair, which the
     * variants' tests (test_aead) establish; checked here once more. */
    CHECK(vg_chacha20poly1305_seal(g_ct0, g_tag0, g_pt0, 64, g_ad, AD_LEN, g_nonce, g_key0) ==
          VG_OK);

    const struct pair none = {NULL, NULL, 0, 0};
    /* Peer rows first: the seal rows of the same length point at them. */
    static struct peer peer_ctx[4];
    static const struct vg_dudect_routine *peers64[2], *peers_max[2];
    static size_t npeers64, npeers_max;
    {
        const struct {
            const char *name;
            vg_bench_fn fn;
        } libs[] = {{"libsodium", vg_peer_sodium_chacha20poly1305_seal},
                    {"openssl", vg_peer_openssl_chacha20poly1305_seal}};
        const size_t lens[] = {64, MAX_MSG};
        size_t k = 0;
        vg_peers_load(1);
        vg_peers_no_cache(1);
        for (size_t l = 0; l < 2; l++)
            for (size_t b = 0; b < 2; b++) {
                uint8_t trial_in[44 + 64] = {0}, trial_out[64 + 16];
                if (libs[b].fn(trial_out, sizeof trial_out, trial_in, sizeof trial_in) != 0)
                    continue; /* that library is not installed */
                char l2[72];
                peer_ctx[k].fn = libs[b].fn;
                peer_ctx[k].len = lens[l];
                snprintf(l2, sizeof l2, "peer/%s seal %zu", libs[b].name, lens[l]);
                add(l2, VG_DUDECT_PEER, 32 + lens[l], prep_peer_seal, meas_peer_seal, none);
                g_entries[g_n - 1].r.ctx = &peer_ctx[k++];
                if (l == 0)
                    peers64[npeers64++] = &g_entries[g_n - 1].r;
                else
                    peers_max[npeers_max++] = &g_entries[g_n - 1].r;
            }
    }
    add("control/leaky-tag", VG_DUDECT_LEAKY, 16, prep_tag, meas_leaky, none);
    add("control/null (vg_ct_memcmp)", VG_DUDECT_NULL, 16, prep_null, meas_ct_memcmp, none);
    add("tag vg_ct_memcmp", VG_DUDECT_TARGET, 16, prep_tag, meas_ct_memcmp, none);
    const struct pair dispatch = {vg_chacha20_active(), vg_poly1305_active(), 1, 64};
    add("xchacha seal 64 (dispatch)", VG_DUDECT_TARGET, 32 + 64, prep_seal, meas_seal, dispatch);

    const struct vg_chacha20_impl *cs[] = {vg_chacha20_portable_get(),
                                           vg_chacha20_avx2_rows_get(), vg_chacha20_avx2_get(),
                                           vg_chacha20_avx512_get()};
    const struct vg_poly1305_impl *ps[] = {vg_poly1305_r64_get(), vg_poly1305_r44_get(), vg_poly1305_r26_get(),
                                           vg_poly1305_mulx_get(), vg_poly1305_avx2_get(),
                                           vg_poly1305_ifma_get()};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
            if (!cs[i] || !ps[j])
                continue;
            char l[72];
            uint8_t ct[64], tag[16];
            struct pair q = {cs[i], ps[j], 0, 64};
            CHECK_MSG(vg_aead_seal_impl(cs[i], ps[j], 0, ct, tag, g_pt0, 64, g_ad, AD_LEN,
                                        g_nonce, g_key0) == VG_OK &&
                          memcmp(ct, g_ct0, 64) == 0 && memcmp(tag, g_tag0, 16) == 0,
                      "%s+%s: seal differs from the dispatch", cs[i]->name, ps[j]->name);
            snprintf(l, sizeof l, "%s+%s seal 64", cs[i]->name, ps[j]->name);
            add(l, VG_DUDECT_TARGET, 32 + 64, prep_seal, meas_seal, q);
            g_entries[g_n - 1].r.peers = peers64;
            g_entries[g_n - 1].r.npeers = npeers64;
            q.len = MAX_MSG;
            snprintf(l, sizeof l, "%s+%s seal %d", cs[i]->name, ps[j]->name, MAX_MSG);
            add(l, VG_DUDECT_TARGET, 32 + MAX_MSG, prep_seal, meas_seal, q);
            g_entries[g_n - 1].r.peers = peers_max;
            g_entries[g_n - 1].r.npeers = npeers_max;
            q.len = 64;
            snprintf(l, sizeof l, "%s+%s open reject 64", cs[i]->name, ps[j]->name);
            add(l, VG_DUDECT_TARGET, 16, prep_reject, meas_reject, q);
        }

    char feat[96];
    vg_cpu_format(det, feat, sizeof feat);
    printf("test_dudect_aead: %zu measurements per row, threshold |t| < %.1f, features %s\n",
           samples, VG_DUDECT_THRESHOLD, feat[0] ? feat : "(none)");
    vg_dudect_print_header(40, "row (chacha20+poly1305 op)");
    for (size_t i = 0; i < g_n; i++) {
        const struct entry *e = &g_entries[i];
        if (only && (e->role == VG_DUDECT_TARGET || e->role == VG_DUDECT_PEER) &&
            !strstr(e->label, only))
            continue;
        struct vg_dudect_result res;
        int ok = vg_dudect_judge(&e->r, e->role, samples, 0x61656100u + i, 40, &res);
        if (ok < 0) {
            fprintf(stderr, "test_dudect_aead: out of memory\n");
            return 2;
        }
        CHECK_MSG(ok, "%s: |t| = %.2f: %s", e->label, res.max_abs_t,
                  e->role == VG_DUDECT_LEAKY ? "the leaky control was not detected"
                                             : "over the threshold in two runs");
    }
    return vg_dudect_exit(vgtest_done("test_dudect_aead"));
}
