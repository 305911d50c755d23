/*
 * Small products (src/mldsa/small.h; the small_* members of every ML-DSA
 * variant, through each variant's _get: portable C, the AVX2 route modulo 3329
 * (src/lattice)
 * of avx2 and avx2+vbmi2, the AVX-512 kernel of avx2+avx512 and
 * avx2+avx512vbmi) against an independent
 * schoolbook product in Z[X]/(X^256 + 1) computed in int64:
 *  - signing's shapes: c with tau = 39, 49, 60 nonzero +-1 coefficients
 *    at random distinct positions times s with |s_i| <= eta, eta = 2, 4
 *    (random, and with s at +-eta only);
 *  - the extremes: c = +-1 at tau positions times s = +-eta everywhere,
 *    signs arranged so that coefficients reach +-tau eta (196 for tau = 49,
 *    eta = 4) and -tau eta;
 *  - general small polynomials, |a_i|, |b_i| <= 4, kept when every
 *    product coefficient is within VG_MLDSA_SMALL_BOUND (sparse ones and
 *    dense ones whose products happen to stay within the bound), and
 *    products that reach exactly +-VG_MLDSA_SMALL_BOUND;
 *  - the zero polynomial, and +-1 at position 0 and 255 (X^255 X = -1:
 *    rotation and negation wrap);
 *  - ntt is deterministic and mul symmetric in its two inputs;
 *  - for the tables over 7681 (portable, AVX-512) also the wider range
 *    (ntt inputs |a| <= 64, products up to 3840) and c t0 through the
 *    split t0 = 64 hi + lo (vg_mldsa_small_t0_*), what signing uses.
 * Usage: test_mldsa_small [random pairs per (tau, eta), default 2000].
 * The x86-64 implementations are reported as skipped where they are not
 * available (VG_PORTABLE builds, other architectures, masked CPUs); the
 * portable one always runs.
 */
#include "vgtest.h"

#include "common/common.h"
#include "mldsa/poly.h"
#include "mldsa/small.h"

static int32_t rand_range(uint64_t *rs, int32_t lo, int32_t hi) /* lo <= x <= hi */
{
    return lo + (int32_t)(vgtest_rand64(rs) % (uint64_t)(hi - lo + 1));
}

/* r = a b in Z[X]/(X^256 + 1), in int64. Returns max |r_i|. */
static int64_t schoolbook(int64_t r[VG_MLDSA_N], const vg_mldsa_poly *a, const vg_mldsa_poly *b)
{
    int64_t m = 0;
    for (int i = 0; i < VG_MLDSA_N; i++)
        r[i] = 0;
    for (int i = 0; i < VG_MLDSA_N; i++)
        for (int j = 0; j < VG_MLDSA_N; j++) {
            int64_t p = (int64_t)a->coeffs[i] * b->coeffs[j];
            if (i + j < VG_MLDSA_N)
                r[i + j] += p;
            else
                r[i + j - VG_MLDSA_N] -= p;
        }
    for (int i = 0; i < VG_MLDSA_N; i++)
        m = r[i] > m ? r[i] : -r[i] > m ? -r[i] : m;
    return m;
}

/* c: tau coefficients +-1 at distinct random positions (sign = +1, -1, or
 * random when sign == 0), the others 0. */
static void rand_ball(vg_mldsa_poly *c, uint64_t *rs, unsigned tau, int sign)
{
    memset(c, 0, sizeof *c);
    for (unsigned t = 0; t < tau;) {
        unsigned pos = (unsigned)(vgtest_rand64(rs) % VG_MLDSA_N);
        if (c->coeffs[pos] != 0)
            continue;
        c->coeffs[pos] = sign ? sign : (vgtest_rand64(rs) & 1 ? 1 : -1);
        t++;
    }
}

static void rand_small(vg_mldsa_poly *p, uint64_t *rs, int32_t eta)
{
    for (int i = 0; i < VG_MLDSA_N; i++)
        p->coeffs[i] = rand_range(rs, -eta, eta);
}

static unsigned long g_products;
static unsigned g_general, g_at_bound; /* products checked in those groups */

/* One product through s, compared with the schoolbook one (which must be
 * within the bound: the harness only asks for products the contract
 * covers); also b a and determinism of ntt. */
static void check_pair_bound(const struct vg_mldsa_backend *s, const vg_mldsa_poly *a,
                             const vg_mldsa_poly *b, const char *what, int64_t bound)
{
    static _Alignas(64) vg_mldsa_spoly ah, bh, ah2; /* small.h: callers align to 64 */
    static vg_mldsa_poly r, r2;
    int64_t ref[VG_MLDSA_N];
    int64_t m = schoolbook(ref, a, b);
    if (m > bound) {
        CHECK_MSG(0, "harness: %s has a product coefficient %lld over the bound", what,
                  (long long)m);
        return;
    }
    s->small_ntt(&ah, a);
    s->small_ntt(&bh, b);
    s->small_mul(&r, &ah, &bh);
    s->small_mul(&r2, &bh, &ah);
    s->small_ntt(&ah2, a);
    unsigned bad = 0, bad2 = 0;
    int first = -1;
    for (int i = 0; i < VG_MLDSA_N; i++) {
        if (r.coeffs[i] != ref[i]) {
            bad++;
            if (first < 0)
                first = i;
        }
        bad2 += r2.coeffs[i] != ref[i];
    }
    CHECK_MSG(bad == 0, "%s %s: %u coefficients differ, first [%d]: %ld, expected %lld", s->name,
              what, bad, first, first >= 0 ? (long)r.coeffs[first] : 0L,
              first >= 0 ? (long long)ref[first] : 0LL);
    CHECK_MSG(bad2 == 0, "%s %s: b a differs from a b (%u)", s->name, what, bad2);
    CHECK_MSG(memcmp(&ah, &ah2, sizeof ah) == 0, "%s %s: ntt not deterministic", s->name, what);
    g_products++;
}

static void check_pair(const struct vg_mldsa_backend *s, const vg_mldsa_poly *a,
                       const vg_mldsa_poly *b, const char *what)
{
    check_pair_bound(s, a, b, what, VG_MLDSA_SMALL_BOUND);
}

/* The wider contract of the tables over 7681 (ntt inputs |a| <= 64, exact
 * products up to 3840 = (7681 - 1) / 2), which c t0 through the
 * split t0 = 64 hi + lo needs: c (tau <= 60) times |b| <= 64, and the
 * extremes +-3840. */
static void test_wide(const struct vg_mldsa_backend *s, unsigned reps)
{
    uint64_t rs = 0x5eed3840;
    vg_mldsa_poly a, b;
    char what[96];
    for (unsigned rep = 0; rep < reps; rep++) {
        rand_ball(&a, &rs, 1 + (unsigned)(vgtest_rand64(&rs) % 60), 0);
        if (rep & 1)
            rand_small(&b, &rs, 64); /* t0's hi part */
        else
            for (int i = 0; i < VG_MLDSA_N; i++)
                b.coeffs[i] = rand_range(&rs, -32, 31); /* t0's lo part */
        if (rep % 8 == 3) /* +-64 only */
            for (int i = 0; i < VG_MLDSA_N; i++)
                b.coeffs[i] = vgtest_rand64(&rs) & 1 ? 64 : -64;
        snprintf(what, sizeof what, "wide c t0-part #%u", rep);
        check_pair_bound(s, &a, &b, what, 3840);
        /* both sides up to 64, sparse enough to stay within 3840 */
        memset(&a, 0, sizeof a);
        for (unsigned t = 0; t < 8; t++)
            a.coeffs[vgtest_rand64(&rs) % VG_MLDSA_N] = rand_range(&rs, -64, 64);
        rand_small(&b, &rs, 7);
        snprintf(what, sizeof what, "wide sparse #%u", rep);
        check_pair_bound(s, &a, &b, what, 3840);
    }
    for (unsigned k = 0; k < VG_MLDSA_N; k += 15)
        for (int sign = -1; sign <= 1; sign += 2) {
            int64_t ref[VG_MLDSA_N];
            rand_ball(&a, &rs, 60, sign);
            rand_small(&b, &rs, 64);
            for (int p = 0; p < VG_MLDSA_N; p++)
                if (a.coeffs[p] != 0) {
                    if ((int)k >= p)
                        b.coeffs[k - (unsigned)p] = 64;
                    else
                        b.coeffs[k - (unsigned)p + VG_MLDSA_N] = -64;
                }
            schoolbook(ref, &a, &b);
            CHECK(ref[k] == sign * 3840);
            snprintf(what, sizeof what, "wide extreme at %u sign %d", k, sign);
            check_pair_bound(s, &a, &b, what, 3840);
        }
}

static void test_impl(const struct vg_mldsa_backend *s, unsigned reps)
{
    static const unsigned taus[3] = {39, 49, 60};
    static const int32_t etas[2] = {2, 4};
    uint64_t rs = 0x5eed5a11;
    vg_mldsa_poly a, b;
    char what[96];

    /* Signing's shapes: c (tau ones) times s (|s_i| <= eta). */
    for (unsigned ti = 0; ti < 3; ti++)
        for (unsigned ei = 0; ei < 2; ei++)
            for (unsigned rep = 0; rep < reps; rep++) {
                rand_ball(&a, &rs, taus[ti], 0);
                if (rep % 8 == 7) /* s at +-eta only */
                    for (int i = 0; i < VG_MLDSA_N; i++)
                        b.coeffs[i] = vgtest_rand64(&rs) & 1 ? etas[ei] : -etas[ei];
                else
                    rand_small(&b, &rs, etas[ei]);
                snprintf(what, sizeof what, "c (tau %u) s (eta %d) #%u", taus[ti], (int)etas[ei],
                         rep);
                check_pair(s, &a, &b, what);
            }

    /* The extremes: c = sign (all +1 or all -1) at tau positions p, and
     * s_(k - p) = eta for p <= k, s_(k - p + 256) = -eta for p > k (X^p
     * X^(k - p + 256) = -X^k), so that every term of coefficient k agrees:
     * (c s)_k = sign tau eta (196 for tau = 49, eta = 4); the other
     * coefficients of s random in [-eta, eta], then all set to +-eta. */
    for (unsigned ti = 0; ti < 3; ti++)
        for (unsigned ei = 0; ei < 2; ei++)
            for (int sign = -1; sign <= 1; sign += 2)
                for (unsigned k = 0; k < VG_MLDSA_N; k += 51) {
                    rand_ball(&a, &rs, taus[ti], sign);
                    rand_small(&b, &rs, etas[ei]);
                    for (int p = 0; p < VG_MLDSA_N; p++) {
                        if (a.coeffs[p] == 0)
                            continue;
                        /* X^p X^j = X^k for j = k - p, or -X^k for j = k - p + 256 */
                        if ((int)k >= p)
                            b.coeffs[k - (unsigned)p] = etas[ei];
                        else
                            b.coeffs[k - (unsigned)p + VG_MLDSA_N] = -etas[ei];
                    }
                    int64_t ref[VG_MLDSA_N];
                    schoolbook(ref, &a, &b);
                    CHECK(ref[k] == (int64_t)sign * taus[ti] * etas[ei]);
                    snprintf(what, sizeof what, "extreme tau %u eta %d sign %d at %u", taus[ti],
                             (int)etas[ei], sign, k);
                    check_pair(s, &a, &b, what);
                    /* c all sign, s all +-eta with the same pattern elsewhere */
                    for (int i = 0; i < VG_MLDSA_N; i++)
                        if (b.coeffs[i] != etas[ei] && b.coeffs[i] != -etas[ei])
                            b.coeffs[i] = etas[ei];
                    check_pair(s, &a, &b, what);
                }

    /* General small polynomials within the bound: sparse a (up to 100
     * nonzero in [-4, 4]) times dense b, and dense times dense (kept only
     * when the product stays within the bound). */
    for (unsigned rep = 0; rep < 4 * reps; rep++) {
        int64_t ref[VG_MLDSA_N];
        unsigned w = 1 + (unsigned)(vgtest_rand64(&rs) % 100);
        memset(&a, 0, sizeof a);
        for (unsigned t = 0; t < w; t++)
            a.coeffs[vgtest_rand64(&rs) % VG_MLDSA_N] = rand_range(&rs, -4, 4);
        rand_small(&b, &rs, 4);
        if (rep & 1) {
            rand_small(&a, &rs, 4); /* dense: |products| ~ 4 * 4 * sqrt(256) / 3 typically */
            if (schoolbook(ref, &a, &b) > VG_MLDSA_SMALL_BOUND)
                continue;
        } else if (schoolbook(ref, &a, &b) > VG_MLDSA_SMALL_BOUND) {
            continue;
        }
        snprintf(what, sizeof what, "general #%u", rep);
        check_pair(s, &a, &b, what);
        g_general++;
    }
    /* Exactly at the bound: a = 4 at 104 positions (4 * 4 * 104 = 1664),
     * b = 4 at the matching positions for coefficient k, with either sign. */
    for (unsigned k = 0; k < VG_MLDSA_N; k += 37)
        for (int sign = -1; sign <= 1; sign += 2) {
            int64_t ref[VG_MLDSA_N];
            rand_ball(&a, &rs, VG_MLDSA_SMALL_BOUND / 16, sign);
            for (int i = 0; i < VG_MLDSA_N; i++)
                a.coeffs[i] *= 4;
            memset(&b, 0, sizeof b);
            for (int p = 0; p < VG_MLDSA_N; p++)
                if (a.coeffs[p] != 0) {
                    if ((int)k >= p)
                        b.coeffs[k - (unsigned)p] = 4;
                    else
                        b.coeffs[k - (unsigned)p + VG_MLDSA_N] = -4;
                }
            int64_t m = schoolbook(ref, &a, &b);
            CHECK(ref[k] == (int64_t)sign * (VG_MLDSA_SMALL_BOUND / 16) * 16);
            if (m > VG_MLDSA_SMALL_BOUND)
                continue; /* another coefficient over the bound: not covered */
            snprintf(what, sizeof what, "at the bound, coefficient %u sign %d", k, sign);
            check_pair(s, &a, &b, what);
            g_at_bound++;
        }

    /* Zero; +-1 at 0 and 255 (X^255 X^255 = -X^254, X^255 X = -1). */
    memset(&a, 0, sizeof a);
    rand_small(&b, &rs, 4);
    check_pair(s, &a, &b, "zero");
    static const int pos[2] = {0, 255};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int sa = -1; sa <= 1; sa += 2) {
                memset(&a, 0, sizeof a);
                memset(&b, 0, sizeof b);
                a.coeffs[pos[i]] = sa;
                b.coeffs[pos[j]] = 1;
                snprintf(what, sizeof what, "monomials %dX^%d X^%d", sa, pos[i], pos[j]);
                check_pair(s, &a, &b, what);
                rand_small(&b, &rs, 4); /* a rotation (and negation) of b */
                snprintf(what, sizeof what, "%dX^%d times random", sa, pos[i]);
                check_pair(s, &a, &b, what);
            }
}

/* c t0 through the split t0 = 64 hi + lo (small.h: vg_mldsa_small_t0_ntt,
 * vg_mldsa_small_t0_mul) against the schoolbook product: c with tau = 60
 * (random signs, all +1, all -1), t0 random in (-2^12, 2^12], at the ends
 * (all 2^12, all -2^12 + 1, alternating), and values next to multiples of
 * 64 (where the split's parts change). */
static void test_t0(const struct vg_mldsa_backend *s, unsigned reps)
{
    uint64_t rs = 0x7040;
    static _Alignas(64) vg_mldsa_spoly ch, lo, hi;
    static vg_mldsa_poly c, t0, t, r, scratch;
    int64_t ref[VG_MLDSA_N];
    for (unsigned rep = 0; rep < reps; rep++) {
        unsigned kind = rep % 8;
        rand_ball(&c, &rs, 60, kind == 1 ? 1 : kind == 2 ? -1 : 0);
        for (int i = 0; i < VG_MLDSA_N; i++) {
            int32_t v = rand_range(&rs, -4095, 4096);
            if (kind == 3)
                v = 4096;
            else if (kind == 4)
                v = -4095;
            else if (kind == 5)
                v = i & 1 ? 4096 : -4095;
            else if (kind == 6)
                v = 64 * rand_range(&rs, -63, 63) + rand_range(&rs, -33, 33);
            if (v > 4096 || v < -4095)
                v = 0;
            t0.coeffs[i] = v;
        }
        schoolbook(ref, &c, &t0);
        s->small_ntt(&ch, &c);
        t = t0;
        vg_mldsa_small_t0_ntt(s, &lo, &hi, &t, &scratch);
        vg_mldsa_small_t0_mul(s, &r, &ch, &lo, &hi, &scratch);
        unsigned bad = 0;
        for (int i = 0; i < VG_MLDSA_N; i++)
            bad += r.coeffs[i] != ref[i];
        CHECK_MSG(bad == 0, "%s c t0 (kind %u, rep %u): %u coefficients differ", s->name, kind, rep,
                  bad);
        g_products++;
    }
}

int main(int argc, char **argv)
{
    unsigned reps = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 2000;
    /* Every variant through its own _get; variants that share their small
     * products with one checked before are not checked twice. */
    const struct vg_mldsa_backend *vars[5] = {
        vg_mldsa_portable_get(),     vg_mldsa_avx2_get(),           vg_mldsa_avx2_vbmi2_get(),
        vg_mldsa_avx2_avx512_get(), vg_mldsa_avx2_avx512vbmi_get(),
    };
    static const char *names[5] = {"portable", "avx2", "avx2+vbmi2", "avx2+avx512",
                                   "avx2+avx512vbmi"};
#if defined(__x86_64__) && !defined(VG_PORTABLE)
    /* The AVX-512 small products exist exactly when AVX-512 F/VL/BW are
     * active (in the variants that have them). */
    CHECK((vars[3] != NULL) ==
          vg_cpu_has(VG_CPU_AVX2 | VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW));
#endif
    CHECK(vars[0] != NULL);
    for (int i = 0; i < 5; i++) {
        const struct vg_mldsa_backend *be = vars[i];
        if (be == NULL) {
            printf("test_mldsa_small: %s not available here (skipped)\n", names[i]);
            continue;
        }
        CHECK(strcmp(be->name, names[i]) == 0);
        int seen = -1;
        for (int j = 0; j < i; j++)
            if (vars[j] && vars[j]->small_ntt == be->small_ntt &&
                vars[j]->small_mul == be->small_mul && vars[j]->small_t0_ntt == be->small_t0_ntt &&
                vars[j]->small_t0_mul == be->small_t0_mul)
                seen = j;
        if (seen >= 0) {
            printf("test_mldsa_small: %s: the small products of %s (checked above)\n", be->name,
                   vars[seen]->name);
            continue;
        }
        unsigned long before = g_products;
        g_general = g_at_bound = 0;
        test_impl(be, reps);
        printf("test_mldsa_small: %s: %lu products checked (%u general, %u at the bound)\n",
               be->name, g_products - before, g_general, g_at_bound);
        /* The groups that keep only products within the bound did run. */
        CHECK(g_general >= reps && g_at_bound >= 8);
        /* The implementations over 7681 (portable, AVX-512) take c t0; the
         * route modulo 3329 (the avx2 and avx2+vbmi2 variants) does not. */
        const int kem = i == 1 || i == 2;
        CHECK(be->small_bound == (kem ? 1664 : 3840));
        CHECK(vg_mldsa_small_t0_ok(be) == !kem);
        if (vg_mldsa_small_t0_ok(be)) {
            before = g_products;
            test_wide(be, reps);
            printf("test_mldsa_small: %s: %lu products in the wider range (|a| <= 64, "
                   "|a b| <= 3840)\n",
                   be->name, g_products - before);
            before = g_products;
            test_t0(be, reps);
            printf("test_mldsa_small: %s: %lu products c t0 (split t0)\n", be->name,
                   g_products - before);
        }
    }
    return vgtest_done("test_mldsa_small");
}
