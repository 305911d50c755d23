/*
 * Field arithmetic mod p = 2^255 - 19, every variant against GMP:
 * the portable radix-2^51 field (with __int128), its twin without __int128
 * (fe51_twin.c), and the 4x64 BMI2/ADX kernels when the CPU has them.
 *
 * For each operation: random inputs across the whole documented input range,
 * the edges 0, 1, p-1, p, p+1, 2^255-1, 2^256-1 (as far as the
 * representation holds them), and inputs at the documented bounds
 * (every limb at its maximum). Each result is checked for congruence with
 * GMP's and for the documented output bound; encodings must equal the
 * canonical residue exactly.
 */
#include <gmp.h>

#include "common.h"
#include "curve25519/fe25519.h"
#include "vgtest.h"

static mpz_t g_p;
static uint64_t g_seed = 0x243f6a8885a308d3u;

#define NRANDOM 100000

/* ---- conversions -------------------------------------------------------- */

static void mpz_from_words(mpz_t r, const uint64_t *w, int n, int bits)
{
    mpz_set_ui(r, 0);
    for (int i = n - 1; i >= 0; i--) {
        mpz_mul_2exp(r, r, (mp_bitcnt_t)bits);
        mpz_t t;
        mpz_init(t);
        mpz_import(t, 1, -1, sizeof w[i], 0, 0, &w[i]);
        mpz_add(r, r, t);
        mpz_clear(t);
    }
}

static void mpz_from_fe51(mpz_t r, const vg_fe51 *f) { mpz_from_words(r, f->v, 5, 51); }
static void mpz_from_fe64(mpz_t r, const uint64_t f[4]) { mpz_from_words(r, f, 4, 64); }

/* x < 2^256 -> 32 little-endian bytes. */
static void mpz_to_le32(uint8_t out[32], const mpz_t x)
{
    size_t n = 0;
    memset(out, 0, 32);
    mpz_export(out, &n, -1, 1, 0, 0, x);
}

/* Split x (< 2^256) into 51-bit limbs, the top limb taking the rest. */
static void fe51_from_mpz(vg_fe51 *f, const mpz_t x)
{
    mpz_t t, q;
    mpz_init_set(t, x);
    mpz_init(q);
    for (int i = 0; i < 4; i++) {
        mpz_fdiv_r_2exp(q, t, 51);
        f->v[i] = mpz_get_ui(q);
        mpz_fdiv_q_2exp(t, t, 51);
    }
    f->v[4] = mpz_get_ui(t);
    mpz_clear(t);
    mpz_clear(q);
}

static void fe64_from_mpz(uint64_t f[4], const mpz_t x)
{
    uint8_t b[32];
    mpz_to_le32(b, x);
    for (int i = 0; i < 4; i++)
        f[i] = vg_load64_le(b + 8 * i);
}

static int congruent(const mpz_t a, const mpz_t b)
{
    mpz_t d;
    mpz_init(d);
    mpz_sub(d, a, b);
    int ok = mpz_divisible_p(d, g_p) != 0;
    mpz_clear(d);
    return ok;
}

/* ---- the edge values ------------------------------------------------------ */

enum { NEDGE = 7 };
static mpz_t g_edge[NEDGE]; /* 0, 1, p-1, p, p+1, 2^255-1, 2^256-1 */

static void edges_init(void)
{
    for (int i = 0; i < NEDGE; i++)
        mpz_init(g_edge[i]);
    mpz_set_ui(g_edge[0], 0);
    mpz_set_ui(g_edge[1], 1);
    mpz_sub_ui(g_edge[2], g_p, 1);
    mpz_set(g_edge[3], g_p);
    mpz_add_ui(g_edge[4], g_p, 1);
    mpz_ui_pow_ui(g_edge[5], 2, 255);
    mpz_sub_ui(g_edge[5], g_edge[5], 1);
    mpz_ui_pow_ui(g_edge[6], 2, 256);
    mpz_sub_ui(g_edge[6], g_edge[6], 1);
}

/* ---- radix 2^51 --------------------------------------------------------------- */

#define TIGHT (UINT64_C(1) << 51)

static int fe51_is_tight(const vg_fe51 *f)
{
    for (int i = 0; i < 5; i++)
        if (f->v[i] > TIGHT)
            return 0;
    return 1;
}
static int fe51_below(const vg_fe51 *f, uint64_t bound)
{
    for (int i = 0; i < 5; i++)
        if (f->v[i] >= bound)
            return 0;
    return 1;
}

/* A random element with every limb below `bound` (a power of two), biased
 * towards the extremes so that the bounds themselves are exercised. */
static void fe51_random(vg_fe51 *f, uint64_t bound)
{
    uint64_t sel = vgtest_rand64(&g_seed);
    for (int i = 0; i < 5; i++) {
        uint64_t r = vgtest_rand64(&g_seed) & (bound - 1);
        switch ((sel >> (3 * i)) & 7) {
        case 0: r = bound - 1; break;
        case 1: r = 0; break;
        case 2: r = TIGHT <= bound - 1 ? TIGHT : bound - 1; break;
        default: break;
        }
        f->v[i] = r;
    }
}

/* Inputs for a given precondition bound: edges that fit, the all-limbs-at-
 * bound value, then random ones. Returns 0 when done. */
static int fe51_input(vg_fe51 *f, int idx, uint64_t bound, int tight)
{
    if (idx < NEDGE) {
        fe51_from_mpz(f, g_edge[idx]);
        /* The split of 2^256-1 has a top limb of 2^52-1: loose, not tight.
         * Where tight inputs are required, 0 stands in for it (the
         * all-limbs-2^51 input below covers the tight maximum). */
        if (tight && !fe51_is_tight(f))
            fe51_from_mpz(f, g_edge[0]);
        return 1;
    }
    if (idx == NEDGE) {
        for (int i = 0; i < 5; i++)
            f->v[i] = tight ? TIGHT : bound - 1;
        return 1;
    }
    if (idx - NEDGE - 1 >= NRANDOM)
        return 0;
    fe51_random(f, bound);
    if (tight)
        for (int i = 0; i < 5; i++)
            if (f->v[i] > TIGHT)
                f->v[i] = TIGHT;
    return 1;
}

static void test_fe51(const struct vg_fe51_ops *ops)
{
    mpz_t a, b, r, e;
    vg_fe51 f, g, h;
    unsigned long n = 0;
    const uint64_t loose = UINT64_C(1) << 54;
    mpz_inits(a, b, r, e, NULL);

    /* Binary operations: the edge and bound inputs are paired with each
     * other (all pairs), the random ones with random ones. */
    for (int op = 0; op < 3; op++) {
        int tight = op != 2; /* add, sub: tight inputs; mul: loose */
        for (int i = 0; fe51_input(&f, i, loose, tight); i++) {
            int jmax = i <= NEDGE ? NEDGE + 1 : i + 1;
            for (int j = i <= NEDGE ? 0 : i; j < jmax; j++) {
                if (i <= NEDGE)
                    fe51_input(&g, j, loose, tight);
                else
                    fe51_input(&g, NEDGE + 1, loose, tight); /* random */
                mpz_from_fe51(a, &f);
                mpz_from_fe51(b, &g);
                int ok;
                if (op == 0) {
                    ops->add(&h, &f, &g);
                    mpz_add(e, a, b);
                    ok = fe51_below(&h, UINT64_C(1) << 53);
                } else if (op == 1) {
                    ops->sub(&h, &f, &g);
                    mpz_sub(e, a, b);
                    ok = fe51_below(&h, UINT64_C(1) << 53);
                } else {
                    /* aliasing: h = f, then h *= g */
                    h = f;
                    ops->mul(&h, &h, &g);
                    mpz_mul(e, a, b);
                    ok = fe51_is_tight(&h);
                }
                mpz_from_fe51(r, &h);
                ok = ok && congruent(r, e);
                n++;
                CHECK_MSG(ok, "%s op %d input %d/%d", ops->name, op, i, j);
            }
        }
    }

    /* Unary operations on loose inputs: sqr, mul121666, invert, tobytes. */
    for (int i = 0; fe51_input(&f, i, loose, 0); i++) {
        if (i > NEDGE + 2000 && (i % 10) != 0)
            continue; /* invert is 265 products: a tenth of the random ones */
        uint8_t s[32], s2[32];
        mpz_from_fe51(a, &f);

        ops->sqr(&h, &f);
        mpz_mul(e, a, a);
        mpz_from_fe51(r, &h);
        CHECK_MSG(fe51_is_tight(&h) && congruent(r, e), "%s sqr input %d", ops->name, i);

        ops->mul121666(&h, &f);
        mpz_mul_ui(e, a, 121666);
        mpz_from_fe51(r, &h);
        CHECK_MSG(fe51_is_tight(&h) && congruent(r, e), "%s mul121666 input %d", ops->name, i);

        ops->invert(&h, &f);
        mpz_mod(e, a, g_p);
        if (mpz_sgn(e) != 0)
            mpz_invert(e, e, g_p);
        mpz_from_fe51(r, &h);
        CHECK_MSG(fe51_is_tight(&h) && congruent(r, e), "%s invert input %d", ops->name, i);

        ops->tobytes(s, &f);
        mpz_mod(e, a, g_p);
        mpz_to_le32(s2, e);
        CHECK_MSG(memcmp(s, s2, 32) == 0, "%s tobytes input %d", ops->name, i);
        n += 4;
    }

    /* frombytes: bit 255 ignored, limbs < 2^51, value = s mod 2^255. */
    for (int i = 0; i < NRANDOM; i++) {
        uint8_t s[32];
        vgtest_randbytes(&g_seed, s, 32);
        if (i < NEDGE)
            mpz_to_le32(s, g_edge[i]);
        ops->frombytes(&f, s);
        mpz_import(e, 32, -1, 1, 0, 0, s);
        mpz_fdiv_r_2exp(e, e, 255);
        mpz_from_fe51(r, &f);
        CHECK_MSG(fe51_below(&f, TIGHT) && mpz_cmp(r, e) == 0, "%s frombytes %d", ops->name, i);
        n++;
    }
    printf("  fe51 %-18s %lu checks\n", ops->name, n);
    mpz_clears(a, b, r, e, NULL);
}

/* ---- four 64-bit words ------------------------------------------------------- */

/* Inputs: the edges, values at the fold boundaries (2^256 - 38 and around),
 * then random ones biased to all-zero and all-one words. */
static int fe64_input(uint64_t f[4], int idx)
{
    static const uint64_t special[][4] = {
        {~UINT64_C(0) - 37, ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0)}, /* 2^256 - 38 */
        {~UINT64_C(0) - 38, ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0)}, /* 2^256 - 39 */
        {37, 0, 0, 0},
        {38, 0, 0, 0},
        {0, 0, 0, UINT64_C(1) << 63},                                  /* 2^255 */
        {~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), 0},                 /* 2^192 - 1 */
    };
    enum { NSPECIAL = sizeof special / sizeof special[0] };
    if (idx < NEDGE) {
        fe64_from_mpz(f, g_edge[idx]);
        return 1;
    }
    if (idx < NEDGE + NSPECIAL) {
        memcpy(f, special[idx - NEDGE], 32);
        return 1;
    }
    if (idx - NEDGE - NSPECIAL >= NRANDOM)
        return 0;
    uint64_t sel = vgtest_rand64(&g_seed);
    for (int i = 0; i < 4; i++) {
        f[i] = vgtest_rand64(&g_seed);
        switch ((sel >> (2 * i)) & 7) {
        case 0: f[i] = ~UINT64_C(0); break;
        case 1: f[i] = 0; break;
        default: break;
        }
    }
    return 1;
}
#define FE64_NFIXED (NEDGE + 6)

static void test_fe64(const struct vg_fe64_ops *ops)
{
    mpz_t a, b, r, e;
    uint64_t f[4], g[4], h[4];
    unsigned long n = 0;
    mpz_inits(a, b, r, e, NULL);

    for (int op = 0; op < 3; op++) {
        for (int i = 0; fe64_input(f, i); i++) {
            int fixed = i < FE64_NFIXED;
            for (int j = fixed ? 0 : i; j < (fixed ? FE64_NFIXED : i + 1); j++) {
                if (fixed)
                    fe64_input(g, j);
                else
                    fe64_input(g, FE64_NFIXED); /* random */
                mpz_from_fe64(a, f);
                mpz_from_fe64(b, g);
                memcpy(h, f, sizeof h); /* aliasing h = f */
                if (op == 0) {
                    ops->add(h, h, g);
                    mpz_add(e, a, b);
                } else if (op == 1) {
                    ops->sub(h, h, g);
                    mpz_sub(e, a, b);
                } else {
                    ops->mul(h, h, g);
                    mpz_mul(e, a, b);
                }
                mpz_from_fe64(r, h); /* < 2^256 by construction of the type */
                CHECK_MSG(congruent(r, e), "%s op %d input %d/%d", ops->name, op, i, j);
                n++;
            }
        }
    }
    for (int i = 0; fe64_input(f, i); i++) {
        uint8_t s[32], s2[32];
        mpz_from_fe64(a, f);

        ops->sqr(h, f);
        mpz_mul(e, a, a);
        mpz_from_fe64(r, h);
        CHECK_MSG(congruent(r, e), "%s sqr input %d", ops->name, i);

        ops->mul121666(h, f);
        mpz_mul_ui(e, a, 121666);
        mpz_from_fe64(r, h);
        CHECK_MSG(congruent(r, e), "%s mul121666 input %d", ops->name, i);

        ops->tobytes(s, f);
        mpz_mod(e, a, g_p);
        mpz_to_le32(s2, e);
        CHECK_MSG(memcmp(s, s2, 32) == 0, "%s tobytes input %d", ops->name, i);
        n += 3;

        /* nsqr: h = f^(2^n) for run lengths the inversion chain uses, 0 (a copy)
         * and 1; all fixed inputs (the bounds 2^256 - 1, 2^256 - 38, ...), then
         * a sample of the random ones. Also with h aliasing f. */
        if (i < FE64_NFIXED + 500 || i % 20 == 0) {
            static const unsigned runs[] = {0, 1, 2, 3, 5, 10, 20, 50, 100, 254};
            for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
                mpz_set_ui(b, 1);
                mpz_mul_2exp(b, b, runs[k]);
                mpz_powm(e, a, b, g_p);
                if (k & 1) {
                    ops->nsqr(h, f, runs[k]);
                } else {
                    memcpy(h, f, sizeof h);
                    ops->nsqr(h, h, runs[k]);
                }
                mpz_from_fe64(r, h);
                CHECK_MSG(congruent(r, e), "%s nsqr %u input %d", ops->name, runs[k], i);
                n++;
            }
        }

        if (i < FE64_NFIXED + 2000 || i % 10 == 0) {
            ops->invert(h, f);
            mpz_mod(e, a, g_p);
            if (mpz_sgn(e) != 0)
                mpz_invert(e, e, g_p);
            mpz_from_fe64(r, h);
            CHECK_MSG(congruent(r, e), "%s invert input %d", ops->name, i);
            n++;
        }
    }
    for (int i = 0; i < NRANDOM; i++) {
        uint8_t s[32];
        vgtest_randbytes(&g_seed, s, 32);
        if (i < NEDGE)
            mpz_to_le32(s, g_edge[i]);
        ops->frombytes(f, s);
        mpz_import(e, 32, -1, 1, 0, 0, s);
        mpz_fdiv_r_2exp(e, e, 255);
        mpz_from_fe64(r, f);
        CHECK_MSG(mpz_cmp(r, e) == 0, "%s frombytes %d", ops->name, i);
        n++;
    }
    printf("  fe64 %-18s %lu checks\n", ops->name, n);
    mpz_clears(a, b, r, e, NULL);
}

int main(void)
{
    mpz_init(g_p);
    mpz_ui_pow_ui(g_p, 2, 255);
    mpz_sub_ui(g_p, g_p, 19);
    edges_init();

    test_fe51(vg_fe51_get());
    test_fe51(vg_fe51nt_get());
    CHECK(strcmp(vg_fe51_get()->name, "portable") == 0);
    CHECK(strcmp(vg_fe51nt_get()->name, "portable-noint128") == 0);

    const struct vg_fe64_ops *adx = vg_fe64_adx_get();
    if (adx)
        test_fe64(adx);
    else
        printf("  fe64 adx: not available (build or CPU), skipped\n");
#if defined(VG_X86_64)
    /* The get must follow the CPU mask: NULL once BMI2/ADX are masked off. */
    uint32_t saved = vg_cpu_active();
    vg_cpu_force(saved & ~VG_CPU_ADX);
    CHECK(vg_fe64_adx_get() == NULL);
    vg_cpu_force(saved);
    CHECK((vg_fe64_adx_get() != NULL) == ((vg_cpu_detected() & (VG_CPU_BMI2 | VG_CPU_ADX)) ==
                                             (VG_CPU_BMI2 | VG_CPU_ADX) &&
                                         vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX)));
#else
    CHECK(vg_fe64_adx_get() == NULL);
#endif

    for (int i = 0; i < NEDGE; i++)
        mpz_clear(g_edge[i]);
    mpz_clear(g_p);
    return vgtest_done("test_fe25519");
}
