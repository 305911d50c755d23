/*
 * The BMI2/ADX field and scalar kernels of P-256 and P-384
 * (src/nist/x86_64/fe256_adx.h, fe384_adx.h, sc256_adx.h, sc384_adx.h)
 * and the AVX-512 IFMA P-256 multiplication (fe256_ifma.h) against GMP.
 *
 * This file is compiled three times (tests/nist_adx.cmake): with
 * VG_NIST_ADX_KERNELS and -mbmi2 -madx, and with VG_NIST_IFMA_KERNELS and
 * -mavx512f -mavx512ifma, giving out-of-line wrappers of the static inline
 * kernels, and once plainly, giving the test itself, which calls each set
 * of wrappers only after vg_cpu_has says the CPU has its features (so no
 * instruction the compiler might choose runs on a CPU without it); a set
 * the CPU lacks is skipped, and with neither the test exits 77 (ctest
 * skip). With --detect / --force MASK [--leaky] it is the valgrind
 * constant-time check of the ADX kernels instead (ct_run below). The IFMA kernel reduces fully for any inputs below R, so its
 * expected results beyond the contract are a b R^-1 mod N below N.
 *
 * For every modulus N (p256, n256, p384, n384), R = 2^(64 k):
 *   mul: r = a b R^-1 mod N exactly, r < N, for a, b in [0, N); sqr: a^2;
 *   field add, sub, neg: (a + b), (a - b), (-a) mod N, r < N;
 *   beyond the contract (mul, sqr, any a, b < R): r equals the exact
 *     Montgomery model (a b + M N) / R, less N if not below N, and r < N
 *     when a b < N R (the bounds mont_adx.h derives);
 *   edges: 0, 1, 2, N-1, N-2, N-3, the values whose words are all ones
 *     where N-1 allows (every subset of words), 2^j and N - 2^j for every j,
 *     R mod N, R^2 mod N, (R^2 mod N) - 1; all edge pairs for mul, add,
 *     sub; beyond: N, N+1, N+2, R-1, R-2, (N + R) / 2, the all-ones word
 *     patterns at or above N, paired with each other and with the edges;
 *   10^5 random pairs per modulus (half uniform below N, half built from
 *     words 0, all ones and random, reduced mod N, to reach long carries);
 *   aliasing: r == a, r == b, r == a == b (each checked on every input);
 *   no write beyond the k words (a canary word after r).
 */
#include <stdint.h>

typedef void vg_adx_op2(uint64_t *r, const uint64_t *a, const uint64_t *b);
typedef void vg_adx_op1(uint64_t *r, const uint64_t *a);

vg_adx_op2 adx_fe256_mul, adx_fe256_add, adx_fe256_sub, adx_sc256_mul;
vg_adx_op1 adx_fe256_sqr, adx_fe256_neg, adx_sc256_sqr;
vg_adx_op2 adx_fe384_mul, adx_fe384_add, adx_fe384_sub, adx_sc384_mul;
vg_adx_op1 adx_fe384_sqr, adx_fe384_neg, adx_sc384_sqr;
vg_adx_op2 ifma_fe256_mul;
vg_adx_op1 ifma_fe256_sqr;

#ifdef VG_NIST_ADX_KERNELS
/* ---- the wrappers (compiled with -mbmi2 -madx) ------------------------ */
#include "nist/x86_64/fe256_adx.h"
#include "nist/x86_64/fe384_adx.h"
#include "nist/x86_64/sc256_adx.h"
#include "nist/x86_64/sc384_adx.h"

void adx_fe256_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { fe256_mul(r, a, b); }
void adx_fe256_add(uint64_t *r, const uint64_t *a, const uint64_t *b) { fe256_add(r, a, b); }
void adx_fe256_sub(uint64_t *r, const uint64_t *a, const uint64_t *b) { fe256_sub(r, a, b); }
void adx_fe256_sqr(uint64_t *r, const uint64_t *a) { fe256_sqr(r, a); }
void adx_fe256_neg(uint64_t *r, const uint64_t *a) { fe256_neg(r, a); }
void adx_sc256_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { sc256_mul(r, a, b); }
void adx_sc256_sqr(uint64_t *r, const uint64_t *a) { sc256_sqr(r, a); }
void adx_fe384_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { fe384_mul(r, a, b); }
void adx_fe384_add(uint64_t *r, const uint64_t *a, const uint64_t *b) { fe384_add(r, a, b); }
void adx_fe384_sub(uint64_t *r, const uint64_t *a, const uint64_t *b) { fe384_sub(r, a, b); }
void adx_fe384_sqr(uint64_t *r, const uint64_t *a) { fe384_sqr(r, a); }
void adx_fe384_neg(uint64_t *r, const uint64_t *a) { fe384_neg(r, a); }
void adx_sc384_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { sc384_mul(r, a, b); }
void adx_sc384_sqr(uint64_t *r, const uint64_t *a) { sc384_sqr(r, a); }

#elif defined(VG_NIST_IFMA_KERNELS)
/* ---- the IFMA wrappers (compiled with -mavx512f -mavx512ifma) ----------- */
#include "nist/x86_64/fe256_ifma.h"

void ifma_fe256_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) { fe256_ifma_mul(r, a, b); }
void ifma_fe256_sqr(uint64_t *r, const uint64_t *a) { fe256_ifma_sqr(r, a); }

#else
/* ---- the test ----------------------------------------------------------- */
#include <stdio.h> /* before gmp.h, for gmp_fprintf */

#include <gmp.h>

#include "common.h"
#include "vgtest.h"

#define NRANDOM 100000
#define MAXW 6
#define CANARY 0x5a5a5a5aa5a5a5a5u

struct modulus {
    const char *name;
    const char *hex; /* N, from SP 800-186 section 3.2.1 */
    int k;           /* words */
    vg_adx_op2 *mul;
    vg_adx_op1 *sqr;
    vg_adx_op2 *add; /* NULL for the scalar moduli (no add/sub/neg kernels) */
    vg_adx_op2 *sub;
    vg_adx_op1 *neg;
    uint32_t need;  /* CPU features the kernels need */
    int always_reduced; /* output below N for any inputs below R (IFMA) */
};

static const struct modulus g_mods[] = {
    {"p256", "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 4, adx_fe256_mul,
     adx_fe256_sqr, adx_fe256_add, adx_fe256_sub, adx_fe256_neg, VG_CPU_BMI2 | VG_CPU_ADX, 0},
    {"n256", "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 4, adx_sc256_mul,
     adx_sc256_sqr, NULL, NULL, NULL, VG_CPU_BMI2 | VG_CPU_ADX, 0},
    {"p384",
     "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000"
     "ffffffff",
     6, adx_fe384_mul, adx_fe384_sqr, adx_fe384_add, adx_fe384_sub, adx_fe384_neg,
     VG_CPU_BMI2 | VG_CPU_ADX, 0},
    {"n384",
     "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196a"
     "ccc52973",
     6, adx_sc384_mul, adx_sc384_sqr, NULL, NULL, NULL, VG_CPU_BMI2 | VG_CPU_ADX, 0},
    {"p256 ifma", "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff", 4,
     ifma_fe256_mul, ifma_fe256_sqr, NULL, NULL, NULL, VG_CPU_AVX512F | VG_CPU_AVX512IFMA, 1},
};

/* per-modulus state */
static mpz_t g_n, g_r, g_rinv, g_nr, g_ninvr; /* N, R = 2^(64 k), R^-1 mod N, N R, N^-1 mod R */
static int g_k;
static const struct modulus *g_m;
static const char *g_phase = ""; /* edges, beyond, random: named in failures */
static unsigned long g_fail[3];    /* failures per phase */
static unsigned long g_count[5]; /* results checked per operation: mul sqr add sub neg */
static uint64_t g_seed = 0x3243f6a8885a308du;

static void to_mpz(mpz_t x, const uint64_t *w) { mpz_import(x, (size_t)g_k, -1, 8, 0, 0, w); }

/* x < R -> k words */
static void from_mpz(uint64_t *w, const mpz_t x)
{
    size_t n = 0;
    memset(w, 0, sizeof(uint64_t) * (size_t)g_k);
    mpz_export(w, &n, -1, 8, 0, 0, x);
}

static void print_words(const char *what, const uint64_t *w)
{
    fprintf(stderr, "  %s = 0x", what);
    for (int i = g_k - 1; i >= 0; i--)
        fprintf(stderr, "%016llx", (unsigned long long)w[i]);
    fputc('\n', stderr);
}

/* Compare r (k words + canary) with the expected value e; `bound` the
 * documented output bound (N or R). */
static void check_result(const char *op, const char *how, const uint64_t *r, const mpz_t e,
                         const mpz_t bound, const uint64_t *a, const uint64_t *b)
{
    mpz_t got;
    mpz_init(got);
    to_mpz(got, r);
    int ok = mpz_cmp(got, e) == 0 && mpz_cmp(got, bound) < 0 && r[g_k] == CANARY;
    CHECK_MSG(ok, "%s %s %s (%s)", g_m->name, op, how, g_phase);
    if (!ok)
        g_fail[g_phase[0] == 'e' ? 0 : g_phase[0] == 'b' ? 1 : 2]++;
    if (!ok && vgtest_failed <= 10) {
        print_words("a", a);
        if (b)
            print_words("b", b);
        print_words("r", r);
        gmp_fprintf(stderr, "  expected 0x%Zx\n", e);
    }
    mpz_clear(got);
}

/* Run a two-input kernel plainly and with r == a, r == b (and r == a == b
 * when a == b), checking each result against e. */
static void run2(vg_adx_op2 *f, const char *op, const uint64_t *a, const uint64_t *b,
                 const mpz_t e, const mpz_t bound)
{
    uint64_t r[MAXW + 1];
    memset(r, 0, sizeof r);
    r[g_k] = CANARY;
    f(r, a, b);
    check_result(op, "r distinct", r, e, bound, a, b);
    memcpy(r, a, sizeof(uint64_t) * (size_t)g_k);
    f(r, r, b);
    check_result(op, "r == a", r, e, bound, a, b);
    memcpy(r, b, sizeof(uint64_t) * (size_t)g_k);
    f(r, a, r);
    check_result(op, "r == b", r, e, bound, a, b);
    if (memcmp(a, b, sizeof(uint64_t) * (size_t)g_k) == 0) {
        memcpy(r, a, sizeof(uint64_t) * (size_t)g_k);
        f(r, r, r);
        check_result(op, "r == a == b", r, e, bound, a, b);
    }
}

static void run1(vg_adx_op1 *f, const char *op, const uint64_t *a, const mpz_t e,
                 const mpz_t bound)
{
    uint64_t r[MAXW + 1];
    memset(r, 0, sizeof r);
    r[g_k] = CANARY;
    f(r, a);
    check_result(op, "r distinct", r, e, bound, a, NULL);
    memcpy(r, a, sizeof(uint64_t) * (size_t)g_k);
    f(r, r);
    check_result(op, "r == a", r, e, bound, a, NULL);
}

/* mul, and sqr when a == b. The kernels compute t = (a b + M N) / R with
 * the unique M < R making it exact (M = -a b N^-1 mod R, whatever the order
 * of the word-by-word reductions), then t - N if t >= N: this model gives
 * the exact expected result for any a, b < R. Inside the contract
 * (a b < N R, e.g. a, b < N) it must also be below N and equal
 * a b R^-1 mod N, which GMP checks separately. */
static void test_mul(const uint64_t *a, const uint64_t *b)
{
    mpz_t x, y, e, ab, m;
    mpz_inits(x, y, e, ab, m, NULL);
    to_mpz(x, a);
    to_mpz(y, b);
    mpz_mul(ab, x, y);
    mpz_mul(m, ab, g_ninvr);
    mpz_neg(m, m);
    mpz_mod(m, m, g_r);
    mpz_mul(e, m, g_n);
    mpz_add(e, e, ab);
    mpz_tdiv_q_2exp(e, e, (mp_bitcnt_t)(64 * g_k));
    if (mpz_cmp(e, g_n) >= 0)
        mpz_sub(e, e, g_n);
    if (g_m->always_reduced)
        mpz_mod(e, e, g_n);
    int inside = mpz_cmp(ab, g_nr) < 0;
    mpz_mul(m, ab, g_rinv); /* a b R^-1 mod N, the contract */
    mpz_mod(m, m, g_n);
    if (inside)
        CHECK_MSG(mpz_cmp(m, e) == 0, "%s: the model disagrees with a b R^-1 mod N", g_m->name);
    mpz_mod(x, e, g_n);
    CHECK_MSG(mpz_cmp(m, x) == 0, "%s: the model is not congruent to a b R^-1", g_m->name);
    mpz_srcptr bound = inside || g_m->always_reduced ? g_n : g_r;
    run2(g_m->mul, inside ? "mul" : "mul (beyond)", a, b, e, bound);
    g_count[0]++;
    if (memcmp(a, b, sizeof(uint64_t) * (size_t)g_k) == 0) {
        run1(g_m->sqr, inside ? "sqr" : "sqr (beyond)", a, e, bound);
        g_count[1]++;
    }
    mpz_clears(x, y, e, ab, m, NULL);
}

/* add, sub (a, b < N) and neg (a < N). */
static void test_addsub(const uint64_t *a, const uint64_t *b)
{
    if (!g_m->add)
        return;
    mpz_t x, y, e;
    mpz_inits(x, y, e, NULL);
    to_mpz(x, a);
    to_mpz(y, b);
    mpz_add(e, x, y);
    mpz_mod(e, e, g_n);
    run2(g_m->add, "add", a, b, e, g_n);
    mpz_sub(e, x, y);
    mpz_mod(e, e, g_n);
    run2(g_m->sub, "sub", a, b, e, g_n);
    g_count[2]++;
    g_count[3]++;
    if (mpz_cmp(x, y) == 0) {
        mpz_neg(e, x);
        mpz_mod(e, e, g_n);
        run1(g_m->neg, "neg", a, e, g_n);
        g_count[4]++;
    }
    mpz_clears(x, y, e, NULL);
}

/* One pair of in-contract inputs: every operation. */
static void test_pair(const uint64_t *a, const uint64_t *b)
{
    test_mul(a, b);
    test_mul(a, a);
    test_addsub(a, b);
    test_addsub(a, a);
}

#define MAXEDGE 1024

static int edges(uint64_t (*e)[MAXW])
{
    int n = 0;
    mpz_t x, t;
    mpz_inits(x, t, NULL);
    static const long small[] = {0, 1, 2, 3};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++) {
        mpz_set_si(x, small[i]);
        from_mpz(e[n++], x);
        mpz_sub_ui(x, g_n, (unsigned long)small[i] + 1); /* N-1 .. N-4 */
        from_mpz(e[n++], x);
    }
    /* every subset of words set to all ones, the rest from N - 1, if < N */
    mpz_sub_ui(t, g_n, 1);
    uint64_t nm1[MAXW];
    from_mpz(nm1, t);
    for (unsigned mask = 1; mask < (1u << g_k); mask++) {
        uint64_t w[MAXW];
        for (int j = 0; j < g_k; j++)
            w[j] = (mask >> j) & 1 ? ~(uint64_t)0 : nm1[j];
        to_mpz(x, w);
        if (mpz_cmp(x, g_n) < 0)
            memcpy(e[n++], w, sizeof w);
        /* and with the other words zero */
        for (int j = 0; j < g_k; j++)
            w[j] = (mask >> j) & 1 ? ~(uint64_t)0 : 0;
        to_mpz(x, w);
        if (mpz_cmp(x, g_n) < 0)
            memcpy(e[n++], w, sizeof w);
    }
    for (int j = 0; j < 64 * g_k; j++) {
        mpz_set_ui(x, 0);
        mpz_setbit(x, (mp_bitcnt_t)j);
        if (mpz_cmp(x, g_n) < 0)
            from_mpz(e[n++], x);
        mpz_sub(t, g_n, x);
        if (mpz_sgn(t) > 0)
            from_mpz(e[n++], t);
    }
    mpz_mod(x, g_r, g_n); /* R mod N: Montgomery 1 */
    from_mpz(e[n++], x);
    mpz_mul(x, g_r, g_r);
    mpz_mod(x, x, g_n); /* R^2 mod N: the conversion constant */
    from_mpz(e[n++], x);
    mpz_sub_ui(x, x, 1);
    from_mpz(e[n++], x);
    mpz_mul(x, g_r, g_r);
    mpz_mul(x, x, g_r);
    mpz_mod(x, x, g_n); /* R^3 mod N */
    from_mpz(e[n++], x);
    mpz_clears(x, t, NULL);
    if (n > MAXEDGE)
        abort();
    return n;
}

/* Inputs at or above N (below R): mul and sqr only. N, N+1, N+2, R-1,
 * R-2, the midpoint of [N, R), and the words-all-ones patterns that are not
 * below N. */
static int beyond(uint64_t (*e)[MAXW])
{
    int n = 0;
    mpz_t x;
    mpz_init(x);
    for (unsigned long d = 0; d < 3; d++) {
        mpz_add_ui(x, g_n, d);
        from_mpz(e[n++], x);
    }
    for (unsigned long d = 1; d < 3; d++) {
        mpz_sub_ui(x, g_r, d);
        from_mpz(e[n++], x);
    }
    mpz_add(x, g_n, g_r);
    mpz_tdiv_q_2exp(x, x, 1);
    from_mpz(e[n++], x);
    for (unsigned mask = 1; mask < (1u << g_k); mask++) {
        uint64_t w[MAXW];
        for (int j = 0; j < g_k; j++)
            w[j] = (mask >> j) & 1 ? ~(uint64_t)0 : 0;
        to_mpz(x, w);
        if (mpz_cmp(x, g_n) >= 0 && n < 64)
            memcpy(e[n++], w, sizeof w);
    }
    mpz_clear(x);
    return n;
}

/* Random value below N: uniform, or from words 0 / all ones / random. */
static void random_below(uint64_t *w, int sparse)
{
    mpz_t x;
    mpz_init(x);
    for (int j = 0; j < g_k; j++) {
        uint64_t v = vgtest_rand64(&g_seed);
        if (sparse) {
            unsigned kind = (unsigned)(vgtest_rand64(&g_seed) % 4);
            v = kind == 0 ? 0 : kind == 1 ? ~(uint64_t)0 : v;
        }
        w[j] = v;
    }
    to_mpz(x, w);
    mpz_mod(x, x, g_n);
    from_mpz(w, x);
    mpz_clear(x);
}

static void test_modulus(const struct modulus *m)
{
    static uint64_t e[MAXEDGE][MAXW], z[64][MAXW];
    g_m = m;
    g_k = m->k;
    memset(g_count, 0, sizeof g_count);
    mpz_set_str(g_n, m->hex, 16);
    mpz_set_ui(g_r, 0);
    mpz_setbit(g_r, (mp_bitcnt_t)(64 * g_k));
    if (!mpz_invert(g_rinv, g_r, g_n))
        abort();
    mpz_mul(g_nr, g_n, g_r);
    if (!mpz_invert(g_ninvr, g_n, g_r))
        abort();
    unsigned long before = vgtest_failed;

    memset(g_fail, 0, sizeof g_fail);
    g_phase = "edges";
    int ne = edges(e);
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne; j++) {
            test_mul(e[i], e[j]);
            test_addsub(e[i], e[j]);
        }
    g_phase = "beyond";
    int nz = beyond(z);
    for (int i = 0; i < nz; i++) {
        for (int j = 0; j < nz; j++)
            test_mul(z[i], z[j]);
        for (int j = 0; j < ne; j++) {
            test_mul(z[i], e[j]);
            test_mul(e[j], z[i]);
        }
    }
    g_phase = "random";
    for (int i = 0; i < NRANDOM; i++) {
        uint64_t a[MAXW], b[MAXW];
        random_below(a, i & 1);
        random_below(b, (i >> 1) & 1);
        test_pair(a, b);
    }
    printf("%s: %d edges, %d beyond-contract inputs, %d random pairs; results checked "
           "(each in up to four aliasing forms): mul %lu, sqr %lu, add %lu, sub %lu, neg %lu; %s"
           " (failed: %lu edges, %lu beyond, %lu random)\n",
           m->name, ne, nz, NRANDOM, g_count[0], g_count[1], g_count[2], g_count[3], g_count[4],
           vgtest_failed == before ? "ok" : "FAILED", g_fail[0], g_fail[1], g_fail[2]);
}

#ifdef VG_NIST_ADX_MEMCHECK
#include <valgrind/memcheck.h>

/* Constant-time check under valgrind memcheck (tests/ct/run_valgrind.sh
 * runs `test_nist_adx --force MASK [--leaky]` under valgrind, MASK from
 * `--detect` run natively, as valgrind's CPUID hides ADX): every ADX kernel
 * on inputs marked undefined (secret); memcheck reports any branch or
 * memory index that depends on them, and valgrind then exits 1. The results
 * are declassified only after the kernels. --leaky adds one branch on a
 * result before that, which memcheck must report (the leaky control).
 * Valgrind cannot run AVX-512, so the IFMA kernel is not checked here. */
static int ct_run(uint32_t mask, int leaky)
{
    if ((mask & (VG_CPU_BMI2 | VG_CPU_ADX)) != (VG_CPU_BMI2 | VG_CPU_ADX)) {
        printf("SKIP: the CPU lacks BMI2/ADX\n");
        return 77;
    }
    uint64_t sum = 0;
    unsigned long calls = 0;
    for (size_t i = 0; i < sizeof g_mods / sizeof g_mods[0]; i++) {
        const struct modulus *m = &g_mods[i];
        if (m->need != (VG_CPU_BMI2 | VG_CPU_ADX))
            continue;
        for (int n = 0; n < 200; n++) {
            uint64_t a[MAXW], b[MAXW], r[MAXW];
            for (int j = 0; j < m->k; j++) {
                a[j] = vgtest_rand64(&g_seed);
                b[j] = vgtest_rand64(&g_seed);
            }
            a[m->k - 1] = 0; /* top word 0: below N */
            b[m->k - 1] >>= 1 + (n & 31); /* below N, some small values */
            VALGRIND_MAKE_MEM_UNDEFINED(a, sizeof a);
            VALGRIND_MAKE_MEM_UNDEFINED(b, sizeof b);
            m->mul(r, a, b);
            m->sqr(r, r);
            m->mul(a, a, a);
            calls += 3;
            if (m->add) {
                m->add(r, r, a);
                m->sub(r, r, b);
                m->neg(b, b);
                m->sub(r, b, r);
                calls += 4;
            }
            if (leaky && i == 0 && n == 0 && (r[0] & 1)) /* the planted leak */
                sum ^= 1;
            VALGRIND_MAKE_MEM_DEFINED(r, sizeof r);
            for (int j = 0; j < m->k; j++)
                sum += r[j];
        }
    }
    printf("ct: %lu kernel calls on undefined inputs%s (checksum %016llx)\n", calls,
           leaky ? ", with the leaky control" : "", (unsigned long long)sum);
    return 0;
}
#endif

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--detect") == 0) {
        printf("%u\n", (unsigned)vg_cpu_detected());
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "--force") == 0) {
#ifdef VG_NIST_ADX_MEMCHECK
        return ct_run((uint32_t)strtoul(argv[2], NULL, 0), argc >= 4 && strcmp(argv[3], "--leaky") == 0);
#else
        printf("SKIP: built without valgrind/memcheck.h\n");
        return 77;
#endif
    }
    int ran = 0;
    mpz_inits(g_n, g_r, g_rinv, g_nr, g_ninvr, NULL);
    for (size_t i = 0; i < sizeof g_mods / sizeof g_mods[0]; i++) {
        if (!vg_cpu_has(g_mods[i].need)) {
            printf("%s: skipped, the CPU (or VG_CPU_FEATURES) lacks its features\n",
                   g_mods[i].name);
            continue;
        }
        test_modulus(&g_mods[i]);
        ran++;
    }
    if (!ran) {
        mpz_clears(g_n, g_r, g_rinv, g_nr, g_ninvr, NULL);
        printf("SKIP: the CPU (or VG_CPU_FEATURES) has neither BMI2/ADX nor AVX-512 IFMA\n");
        return 77;
    }
    mpz_clears(g_n, g_r, g_rinv, g_nr, g_ninvr, NULL);
    return vgtest_done("test_nist_adx");
}
#endif
