/*
 * P-256 / P-384 statistical constant-time test, dudect style (dudect.h: two
 * input classes interleaved at random, lfence; rdtsc, percentile crops,
 * Welch's t), run natively on every variant the build and CPU have
 * (portable; adx), chosen through vg_cpu_force before each call.
 *
 * Usage: test_dudect_nist [SAMPLES] [--only SUBSTRING]
 *   SAMPLES: measurements per row (default 100000; ct-long uses 10^6; at
 *   least 1000). --only: the controls and the rows whose label contains
 *   SUBSTRING.
 *
 * Rows, per curve and variant, the secret being the scalar: class 0 one
 * fixed secret key (drawn once), class 1 a fresh random one (in [1, n-1]:
 * the top bit cleared, so below n; zero has probability 2^-255):
 *   ecdh          vg_pNNN_ecdh with a fixed peer public key (public);
 *   public_key    vg_pNNN_public_key;
 *   sign          vg_pNNN_sign_digest_derand with a fixed digest and fixed
 *                 rnd (so the RFC 6979 nonce is fixed in class 0, random
 *                 in class 1).
 * OpenSSL 3 EVP peers (bench/peers_nist.c, key objects made on every call,
 * vg_peers_nist_no_cache) on the same class designs: a target that
 * separates twice is judged again in a later period when a peer separates
 * too (dudect.h, vg_dudect_judge).
 *
 * Controls:
 *   control/leaky   a loop whose length is the number of set bits of the
 *                   secret key's first byte: fixed in class 0, varying in
 *                   class 1. Must reach |t| >= 4.5.
 *   control/null    vg_p256_public_key on the fixed key in both classes:
 *                   must stay below 4.5.
 * Output: a table, then "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "dudect.h"
#include "peers_nist.h"
#include "vgcrypto.h"
#include "vgtest.h"

enum op { OP_ECDH, OP_PK, OP_SIGN };

struct row {
    int curve;     /* 0 P-256, 1 P-384 */
    enum op op;
    uint32_t mask; /* vg_cpu_force mask that selects the variant */
};

static uint8_t g_sk0[2][48], g_peer[2][97], g_digest[48], g_rnd[48];
static uint8_t g_out[128];
static volatile int g_sink;

static size_t nb_of(int c) { return c ? 48 : 32; }

/* class 0: the fixed key; class 1: a random key below n. */
static void prep_sk(void *ctx, int cls, uint8_t *in)
{
    const struct row *q = ctx;
    size_t nb = nb_of(q->curve);
    if (cls == 0) {
        memcpy(in, g_sk0[q->curve], nb);
    } else {
        vg_dudect_randombytes(in, nb);
        in[0] &= 0x7f;
    }
}

static void meas(void *ctx, const uint8_t *in)
{
    const struct row *q = ctx;
    vg_cpu_force(q->mask); /* the same in both classes */
    int c = q->curve;
    switch (q->op) {
    case OP_ECDH:
        g_sink = c ? vg_p384_ecdh(g_out, in, g_peer[1], 97) : vg_p256_ecdh(g_out, in, g_peer[0], 65);
        break;
    case OP_PK:
        g_sink = c ? vg_p384_public_key(g_out, in) : vg_p256_public_key(g_out, in);
        break;
    case OP_SIGN:
        g_sink = c ? vg_p384_sign_digest_derand(g_out, g_digest, 48, in, g_rnd)
                   : vg_p256_sign_digest_derand(g_out, g_digest, 32, in, g_rnd);
        break;
    }
}

/* ---- peers --------------------------------------------------------------- */

typedef int (*peer_fn)(uint8_t *, size_t, const uint8_t *, size_t);

struct peer {
    int curve;
    enum op op;
    peer_fn fn;
};

static void prep_peer(void *ctx, int cls, uint8_t *in)
{
    const struct peer *p = ctx;
    struct row q = {p->curve, p->op, 0};
    prep_sk(&q, cls, in);
}

static void meas_peer(void *ctx, const uint8_t *in)
{
    const struct peer *p = ctx;
    size_t nb = nb_of(p->curve), pk = 1 + 2 * nb;
    uint8_t buf[48 + 97];
    memcpy(buf, in, nb);
    switch (p->op) {
    case OP_ECDH:
        memcpy(buf + nb, g_peer[p->curve], pk);
        g_sink = p->fn(g_out, sizeof g_out, buf, nb + pk);
        break;
    case OP_PK:
        g_sink = p->fn(g_out, sizeof g_out, buf, nb);
        break;
    case OP_SIGN:
        memcpy(buf + nb, g_digest, nb);
        g_sink = p->fn(g_out, sizeof g_out, buf, 2 * nb);
        break;
    }
}

/* ---- controls ----------------------------------------------------------- */

static void meas_leaky(void *ctx, const uint8_t *in)
{
    (void)ctx;
    unsigned n = (unsigned)__builtin_popcount(in[0]);
    volatile unsigned x = 0;
    for (unsigned i = 0; i < 200 * n; i++) /* the planted leak */
        x += i;
    g_sink = (int)x;
}

static void prep_null(void *ctx, int cls, uint8_t *in)
{
    (void)cls;
    prep_sk(ctx, 0, in);
}

/* ---- driver ------------------------------------------------------------- */

struct entry {
    struct vg_dudect_routine r;
    enum vg_dudect_role role;
    struct row q;
    struct peer p;
    char label[72];
};

#define MAX_ENTRIES 48
static struct entry g_entries[MAX_ENTRIES];
static size_t g_n;

static struct entry *add(const char *label, enum vg_dudect_role role, size_t input_len,
                         void (*prep)(void *, int, uint8_t *), void (*m)(void *, const uint8_t *))
{
    if (g_n >= MAX_ENTRIES) {
        fprintf(stderr, "test_dudect_nist: too many rows\n");
        exit(2);
    }
    struct entry *e = &g_entries[g_n++];
    memset(e, 0, sizeof *e);
    snprintf(e->label, sizeof e->label, "%s", label);
    e->r.name = e->label;
    e->r.input_len = input_len;
    e->r.prepare = prep;
    e->r.measure = m;
    e->r.ctx = &e->q;
    e->role = role;
    return e;
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
    for (int c = 0; c < 2; c++) {
        uint8_t sk[48];
        vg_dudect_randombytes(g_sk0[c], nb_of(c));
        g_sk0[c][0] &= 0x7f;
        vg_dudect_randombytes(sk, nb_of(c));
        sk[0] &= 0x7f;
        CHECK(c ? vg_p384_public_key(g_peer[1], sk) == VG_OK
                : vg_p256_public_key(g_peer[0], sk) == VG_OK);
    }
    vg_dudect_randombytes(g_digest, sizeof g_digest);
    vg_dudect_randombytes(g_rnd, sizeof g_rnd);

    static const char *const opname[] = {"ecdh", "public_key", "sign"};
    /* Peers first: the rows of the same curve and operation point at them. */
    static const struct vg_dudect_routine *peers[2][3][1];
    static size_t npeers[2][3];
    vg_peers_nist_no_cache(1);
    {
        const peer_fn fns[2][3] = {
                {vg_peer_openssl_p256_ecdh, vg_peer_openssl_p256_public_key,
                 vg_peer_openssl_p256_sign},
                {vg_peer_openssl_p384_ecdh, vg_peer_openssl_p384_public_key,
                 vg_peer_openssl_p384_sign}};
        for (int c = 0; c < 2; c++)
            for (int o = 0; o < 3; o++) {
                struct peer p = {c, (enum op)o, fns[c][o]};
                uint8_t in[48 + 97] = {0};
                size_t nb = nb_of(c);
                memcpy(in, g_sk0[c], nb);
                memcpy(in + nb, o == OP_ECDH ? g_peer[c] : g_digest, o == OP_ECDH ? 1 + 2 * nb : nb);
                size_t il = o == OP_ECDH ? 1 + 3 * nb : o == OP_PK ? nb : 2 * nb;
                if (p.fn(g_out, sizeof g_out, in, il) != 0)
                    continue; /* libcrypto not installed */
                char l[72];
                snprintf(l, sizeof l, "peer/openssl p%d %s", c ? 384 : 256, opname[o]);
                struct entry *e = add(l, VG_DUDECT_PEER, nb, prep_peer, meas_peer);
                e->p = p;
                e->r.ctx = &e->p;
                peers[c][o][npeers[c][o]++] = &e->r;
            }
    }
    struct entry *e = add("control/leaky", VG_DUDECT_LEAKY, 32, prep_sk, meas_leaky);
    e->q.curve = 0;
    e = add("control/null (p256 public_key)", VG_DUDECT_NULL, 32, prep_null, meas);
    e->q = (struct row){0, OP_PK, det};

    /* The variants: the detected features (adx when built and present),
     * then none (portable). */
    uint32_t masks[2] = {det, 0};
    int nv = vg_implementation("p256") && strcmp(vg_implementation("p256"), "portable") != 0 ? 2 : 1;
    for (int v = 0; v < nv; v++) {
        uint32_t mask = nv == 1 ? det : masks[v];
        vg_cpu_force(mask);
        const char *impl = vg_implementation("p256");
        for (int c = 0; c < 2; c++)
            for (int o = 0; o < 3; o++) {
                char l[72];
                snprintf(l, sizeof l, "p%d/%s %s", c ? 384 : 256, impl, opname[o]);
                e = add(l, VG_DUDECT_TARGET, nb_of(c), prep_sk, meas);
                e->q = (struct row){c, (enum op)o, mask};
                e->r.peers = peers[c][o];
                e->r.npeers = npeers[c][o];
            }
    }
    vg_cpu_force(det);

    char feat[96];
    vg_cpu_format(det, feat, sizeof feat);
    printf("test_dudect_nist: %zu measurements per row, threshold |t| < %.1f, features %s\n",
           samples, VG_DUDECT_THRESHOLD, feat[0] ? feat : "(none)");
    vg_dudect_print_header(40, "row (curve/variant op)");
    for (size_t i = 0; i < g_n; i++) {
        const struct entry *en = &g_entries[i];
        if (only && (en->role == VG_DUDECT_TARGET || en->role == VG_DUDECT_PEER) &&
            !strstr(en->label, only))
            continue;
        struct vg_dudect_result res;
        int ok = vg_dudect_judge(&en->r, en->role, samples, 0x6e697300u + i, 40, &res);
        if (ok < 0) {
            fprintf(stderr, "test_dudect_nist: out of memory\n");
            return 2;
        }
        CHECK_MSG(ok, "%s: |t| = %.2f: %s", en->label, res.max_abs_t,
                  en->role == VG_DUDECT_LEAKY ? "the leaky control was not detected"
                                              : "over the threshold in two runs");
    }
    vg_cpu_force(det);
    return vg_dudect_exit(vgtest_done("test_dudect_nist"));
}
