/*
 * Scalars modulo L (src/curve25519/sc25519.h) against GMP.
 *
 * L = 2^252 + 27742317777372353535851937790883648493 (RFC 8032 section 5.1)
 * is computed here with GMP from its decimal definition, independently of
 * the library's limb constants. Every routine sc25519.h exports is checked:
 *  - vg_sc25519_reduce64: edge values (0, L-1, L, L+1, 2^252, 2^256-1,
 *    2^512-1, the largest multiples of L below 2^512 and small multiples,
 *    each +- small offsets, 2^k +- 1 for every k) and random 512-bit inputs
 *    (uniform bytes, and biased ones with long runs of 0x00 / 0xff bytes);
 *    also with out aliasing in (the documented aliasing);
 *  - vg_sc25519_muladd: a, b, c from an edge set (0, 1, L-1, L, L+1,
 *    2^252, 2^255, 2^256-1, ...) in every combination, and random inputs;
 *    every aliasing of out with a, b, c;
 *  - vg_sc25519_is_canonical: the edge set and values near L, random ones.
 * The expected values are the mathematical definitions (x mod L,
 * (a b + c) mod L, s < L) evaluated by GMP.
 */
#include <gmp.h>

#include "curve25519/sc25519.h"
#include "vgtest.h"

static mpz_t g_l;
static uint64_t g_seed = 0x5c25519bULL;

/* x (0 <= x < 2^(8 n)) as n little-endian bytes. */
static void to_bytes(uint8_t *out, size_t n, const mpz_t x)
{
    size_t cnt = 0;
    memset(out, 0, n);
    if (mpz_sgn(x) == 0)
        return;
    if (mpz_sizeinbase(x, 2) > 8 * n) {
        fprintf(stderr, "to_bytes: value too large\n");
        exit(2);
    }
    mpz_export(out, &cnt, -1, 1, 0, 0, x);
}

static void from_bytes(mpz_t x, const uint8_t *in, size_t n)
{
    mpz_import(x, n, -1, 1, 0, 0, in);
}

static void hexdump(const char *what, const uint8_t *p, size_t n)
{
    char buf[2 * 64 + 1];
    vgtest_hex(buf, p, n);
    fprintf(stderr, "  %s = %s (little-endian)\n", what, buf);
}

/* ---- reduce64 ------------------------------------------------------------ */

static unsigned long g_reduce_fail;

static void check_reduce(const mpz_t x, const char *what)
{
    uint8_t in[64], out[32], want[32], alias[64];
    mpz_t r;
    mpz_init(r);
    to_bytes(in, 64, x);
    mpz_mod(r, x, g_l);
    to_bytes(want, 32, r);
    vg_sc25519_reduce64(out, in);
    int ok = memcmp(out, want, 32) == 0;
    /* out aliasing the first 32 bytes of in */
    memcpy(alias, in, 64);
    vg_sc25519_reduce64(alias, alias);
    ok &= memcmp(alias, want, 32) == 0;
    CHECK_MSG(ok, "reduce64 %s", what);
    if (!ok && ++g_reduce_fail <= 5) {
        hexdump("in", in, 64);
        hexdump("got", out, 32);
        hexdump("want", want, 32);
    }
    mpz_clear(r);
}

/* Random 512-bit value: uniform bytes, or (one in two) bytes drawn from
 * {0x00, 0xff, random} in runs, which reaches carry and borrow chains that
 * uniform bytes almost never do. */
static void random_bytes_biased(uint8_t *out, size_t n)
{
    if (vgtest_rand64(&g_seed) & 1) {
        vgtest_randbytes(&g_seed, out, n);
        return;
    }
    size_t i = 0;
    while (i < n) {
        uint64_t r = vgtest_rand64(&g_seed);
        size_t run = 1 + (size_t)(r % 16);
        unsigned kind = (unsigned)((r >> 8) % 3);
        for (size_t j = 0; j < run && i < n; j++, i++)
            out[i] = kind == 0 ? 0x00 : kind == 1 ? 0xff : (uint8_t)(vgtest_rand64(&g_seed) >> 56);
    }
}

static void test_reduce64(void)
{
    mpz_t x, m, t, top;
    mpz_inits(x, m, t, top, NULL);
    mpz_ui_pow_ui(top, 2, 512); /* inputs must stay below 2^512 */
    unsigned long before = vgtest_passed + vgtest_failed;

    /* Single edge values. */
    mpz_set_ui(x, 0);
    check_reduce(x, "0");
    mpz_sub_ui(x, g_l, 1);
    check_reduce(x, "L-1");
    check_reduce(g_l, "L");
    mpz_add_ui(x, g_l, 1);
    check_reduce(x, "L+1");
    mpz_ui_pow_ui(x, 2, 252);
    check_reduce(x, "2^252");
    mpz_ui_pow_ui(x, 2, 256);
    mpz_sub_ui(x, x, 1);
    check_reduce(x, "2^256-1");
    mpz_sub_ui(x, top, 1);
    check_reduce(x, "2^512-1");

    /* 2^k - 1, 2^k, 2^k + 1 for every k that fits. */
    for (unsigned k = 0; k < 512; k++) {
        char what[32];
        mpz_ui_pow_ui(x, 2, k);
        snprintf(what, sizeof what, "2^%u", k);
        check_reduce(x, what);
        mpz_sub_ui(t, x, 1);
        snprintf(what, sizeof what, "2^%u-1", k);
        check_reduce(t, what);
        mpz_add_ui(t, x, 1);
        if (mpz_cmp(t, top) < 0) {
            snprintf(what, sizeof what, "2^%u+1", k);
            check_reduce(t, what);
        }
    }

    /* Multiples of L +- small: q L + d for q in a set of small multipliers
     * and the largest ones that fit (q = floor((2^512 - 1) / L) - j), and
     * d in [-4, 4]. These sit where Barrett's quotient estimate is tightest. */
    mpz_sub_ui(t, top, 1);
    mpz_fdiv_q(m, t, g_l); /* qmax */
    for (int pass = 0; pass < 2; pass++) {
        for (unsigned long j = 0; j < 64; j++) {
            mpz_t q;
            mpz_init(q);
            if (pass == 0)
                mpz_set_ui(q, j + 1);
            else
                mpz_sub_ui(q, m, j);
            for (long d = -4; d <= 4; d++) {
                mpz_mul(x, q, g_l);
                if (d < 0)
                    mpz_sub_ui(x, x, (unsigned long)-d);
                else
                    mpz_add_ui(x, x, (unsigned long)d);
                if (mpz_sgn(x) < 0 || mpz_cmp(x, top) >= 0)
                    continue;
                char what[48];
                snprintf(what, sizeof what, "%s q L %+ld (j=%lu)", pass ? "qmax-j" : "j+1", d, j);
                check_reduce(x, what);
            }
            mpz_clear(q);
        }
    }
    /* Multiples of L by powers of two, +- 1 (b^k L, the Barrett boundary). */
    for (unsigned k = 0; k + 253 <= 512; k++) {
        mpz_mul_2exp(x, g_l, k);
        if (mpz_cmp(x, top) >= 0)
            break;
        check_reduce(x, "L 2^k");
        mpz_sub_ui(t, x, 1);
        check_reduce(t, "L 2^k - 1");
        mpz_add_ui(t, x, 1);
        if (mpz_cmp(t, top) < 0)
            check_reduce(t, "L 2^k + 1");
    }

    /* Random inputs. */
    for (int i = 0; i < 200000; i++) {
        uint8_t in[64];
        random_bytes_biased(in, 64);
        from_bytes(x, in, 64);
        check_reduce(x, "random");
    }
    printf("reduce64: %lu inputs checked\n", vgtest_passed + vgtest_failed - before);
    mpz_clears(x, m, t, top, NULL);
}

/* ---- muladd -------------------------------------------------------------- */

static unsigned long g_muladd_fail;

static void check_muladd(const uint8_t a[32], const uint8_t b[32], const uint8_t c[32],
                         const char *what)
{
    mpz_t za, zb, zc, r;
    uint8_t want[32], out[32], buf[32];
    mpz_inits(za, zb, zc, r, NULL);
    from_bytes(za, a, 32);
    from_bytes(zb, b, 32);
    from_bytes(zc, c, 32);
    mpz_mul(r, za, zb);
    mpz_add(r, r, zc);
    mpz_mod(r, r, g_l);
    to_bytes(want, 32, r);

    vg_sc25519_muladd(out, a, b, c);
    int ok = memcmp(out, want, 32) == 0;
    /* every aliasing of out with an input ("any aliasing") */
    memcpy(buf, a, 32);
    vg_sc25519_muladd(buf, buf, b, c);
    ok &= memcmp(buf, want, 32) == 0;
    memcpy(buf, b, 32);
    vg_sc25519_muladd(buf, a, buf, c);
    ok &= memcmp(buf, want, 32) == 0;
    memcpy(buf, c, 32);
    vg_sc25519_muladd(buf, a, b, buf);
    ok &= memcmp(buf, want, 32) == 0;
    CHECK_MSG(ok, "muladd %s", what);
    if (!ok && ++g_muladd_fail <= 5) {
        hexdump("a", a, 32);
        hexdump("b", b, 32);
        hexdump("c", c, 32);
        hexdump("got", out, 32);
        hexdump("want", want, 32);
    }
    mpz_clears(za, zb, zc, r, NULL);
}

/* The 256-bit edge set shared by muladd and is_canonical. */
#define N_EDGE 14
static uint8_t g_edge[N_EDGE][32];
static const char *g_edge_name[N_EDGE] = {"0",     "1",       "2",       "L-2",   "L-1",
                                          "L",     "L+1",     "2^252",   "2^252-1", "2^253",
                                          "2^255", "2^255-19", "2^256-1", "2L-1"};

static void init_edges(void)
{
    mpz_t x;
    mpz_init(x);
    for (int i = 0; i < N_EDGE; i++) {
        switch (i) {
        case 0: mpz_set_ui(x, 0); break;
        case 1: mpz_set_ui(x, 1); break;
        case 2: mpz_set_ui(x, 2); break;
        case 3: mpz_sub_ui(x, g_l, 2); break;
        case 4: mpz_sub_ui(x, g_l, 1); break;
        case 5: mpz_set(x, g_l); break;
        case 6: mpz_add_ui(x, g_l, 1); break;
        case 7: mpz_ui_pow_ui(x, 2, 252); break;
        case 8: mpz_ui_pow_ui(x, 2, 252); mpz_sub_ui(x, x, 1); break;
        case 9: mpz_ui_pow_ui(x, 2, 253); break;
        case 10: mpz_ui_pow_ui(x, 2, 255); break;
        case 11: mpz_ui_pow_ui(x, 2, 255); mpz_sub_ui(x, x, 19); break;
        case 12: mpz_ui_pow_ui(x, 2, 256); mpz_sub_ui(x, x, 1); break;
        default: mpz_mul_ui(x, g_l, 2); mpz_sub_ui(x, x, 1); break;
        }
        to_bytes(g_edge[i], 32, x);
    }
    mpz_clear(x);
}

static void test_muladd(void)
{
    unsigned long before = vgtest_passed + vgtest_failed;
    char what[64];
    for (int i = 0; i < N_EDGE; i++)
        for (int j = 0; j < N_EDGE; j++)
            for (int k = 0; k < N_EDGE; k++) {
                snprintf(what, sizeof what, "a=%s b=%s c=%s", g_edge_name[i], g_edge_name[j],
                         g_edge_name[k]);
                check_muladd(g_edge[i], g_edge[j], g_edge[k], what);
            }
    /* Edge values mixed with random ones. */
    for (int i = 0; i < N_EDGE; i++)
        for (int n = 0; n < 200; n++) {
            uint8_t r1[32], r2[32];
            random_bytes_biased(r1, 32);
            random_bytes_biased(r2, 32);
            snprintf(what, sizeof what, "edge %s with random", g_edge_name[i]);
            check_muladd(g_edge[i], r1, r2, what);
            check_muladd(r1, g_edge[i], r2, what);
            check_muladd(r1, r2, g_edge[i], what);
        }
    /* Random a, b, c over the full 256-bit range (signing passes k, r < L
     * and a clamped s < 2^255, all inside it). */
    for (int n = 0; n < 100000; n++) {
        uint8_t a[32], b[32], c[32];
        random_bytes_biased(a, 32);
        random_bytes_biased(b, 32);
        random_bytes_biased(c, 32);
        check_muladd(a, b, c, "random");
    }
    printf("muladd: %lu inputs checked (each also with out aliasing a, b and c)\n",
           vgtest_passed + vgtest_failed - before);
}

/* ---- is_canonical --------------------------------------------------------- */

static void check_canonical(const uint8_t s[32], const char *what)
{
    mpz_t x;
    mpz_init(x);
    from_bytes(x, s, 32);
    int want = mpz_cmp(x, g_l) < 0;
    int got = vg_sc25519_is_canonical(s);
    CHECK_MSG(got == want, "is_canonical %s: got %d, want %d", what, got, want);
    mpz_clear(x);
}

static void test_is_canonical(void)
{
    unsigned long before = vgtest_passed + vgtest_failed;
    mpz_t x;
    mpz_init(x);
    for (int i = 0; i < N_EDGE; i++)
        check_canonical(g_edge[i], g_edge_name[i]);
    /* L + d for d in [-300, 300]: every low-byte neighbour of L. */
    for (long d = -300; d <= 300; d++) {
        uint8_t s[32];
        if (d < 0)
            mpz_sub_ui(x, g_l, (unsigned long)-d);
        else
            mpz_add_ui(x, g_l, (unsigned long)d);
        to_bytes(s, 32, x);
        check_canonical(s, "L+d");
    }
    /* L with one byte changed by +-1 (each limb of the comparison decides
     * once), and random values, half of them with bits 253-255 clear so
     * both verdicts are common. */
    uint8_t lb[32];
    to_bytes(lb, 32, g_l);
    for (int i = 0; i < 32; i++) {
        uint8_t s[32];
        memcpy(s, lb, 32);
        s[i]++;
        check_canonical(s, "L with a byte +1");
        memcpy(s, lb, 32);
        s[i]--;
        check_canonical(s, "L with a byte -1");
    }
    for (int n = 0; n < 100000; n++) {
        uint8_t s[32];
        random_bytes_biased(s, 32);
        if (n & 1) {
            s[31] &= 0x1f;
            if (n & 2)
                s[31] = 0x10; /* top limb equal to L's: lower limbs decide */
        }
        check_canonical(s, "random");
    }
    printf("is_canonical: %lu inputs checked\n", vgtest_passed + vgtest_failed - before);
    mpz_clear(x);
}

int main(void)
{
    mpz_init(g_l);
    /* RFC 8032 section 5.1: L = 2^252 + 27742317777372353535851937790883648493. */
    mpz_set_str(g_l, "27742317777372353535851937790883648493", 10);
    mpz_t t;
    mpz_init(t);
    mpz_ui_pow_ui(t, 2, 252);
    mpz_add(g_l, g_l, t);
    mpz_clear(t);
    init_edges();

    test_reduce64();
    test_muladd();
    test_is_canonical();
    mpz_clear(g_l);
    return vgtest_done("test_sc25519");
}
