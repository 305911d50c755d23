/*
 * ML-DSA backends (src/mldsa/poly.h interface) against the portable one:
 *  - every routine of every available backend on random inputs within the
 *    preconditions stated in poly.h (and at their extremes): outputs must be
 *    bit-identical to the portable routine's (the AVX2 backend keeps the
 *    portable coefficient order and representation), and the NTTs' outputs
 *    below q. Every variant (avx2, avx2+vbmi2, avx2+avx512,
 *    avx2+avx512vbmi) is checked through its own _get, under the feature
 *    mask that makes the dispatch pick it (when the CPU has the features);
 *  - rejection sampling on random and heavily-rejecting buffers of every
 *    length class: same count and coefficients, nothing written at r[len]
 *    or beyond;
 *  - decompose and make_hint on every value below q, both gamma2;
 *  - unpack_z (BitUnpack of z / ExpandMask's fields) for both gamma1 on
 *    random, all-zero and all-one inputs;
 *  - pointwise_acc24 (packed A-hat entries) against pointwise_acc on the
 *    unpacked entries;
 *  - SampleInBall's kernels (ball_track, ball_place) against portable on
 *    random buffers split across calls and random distinct positions;
 *  - rej_eta (RejBoundedPoly's inner loop) of every backend against a
 *    straight transcription of FIPS 204 Algorithm 31 on random and
 *    heavily-rejecting buffers of every length class;
 *  - the four-way samplers (A-hat: uniform_x4 / uniform_many; ExpandMask:
 *    uniform_gamma1_many; ExpandS: uniform_eta_many) against the single
 *    ones, under both dispatches;
 *  - the packing kernels (optional members: t1, t0, s, w1 encodings and
 *    t1 2^d) against the portable functions on random and extreme inputs,
 *    nothing written or read outside the encoding;
 *  - the fused passes (optional members: verification's row, signing's
 *    and key generation's sequences) against
 *    the portable routines run one after the other, on random and extreme
 *    inputs within their preconditions, both gamma2;
 *  - the public API end to end: pk, sk and signatures (deterministic and
 *    with random rnd) from the default dispatch (AVX2 backend and four-way
 *    Keccak where available) must equal those with every CPU feature
 *    disabled (vg_cpu_force(0): portable backend and Keccak), and verify
 *    must accept them and reject a corrupted one, on random seeds and
 *    messages for each parameter set.
 * Usage: test_mldsa_backend [seeds per parameter set, default 300].
 */
#include "vgtest.h"

#include "common/common.h"
#include "mldsa/poly.h"

static const struct vg_mldsa_backend *g_ref;

/* lo <= x <= hi */
static int32_t rand_range(uint64_t *rs, int64_t lo, int64_t hi)
{
    return (int32_t)(lo + (int64_t)(vgtest_rand64(rs) % (uint64_t)(hi - lo + 1)));
}

static void rand_poly(vg_mldsa_poly *p, uint64_t *rs, int32_t bound) /* |x| <= bound */
{
    for (int i = 0; i < VG_MLDSA_N; i++)
        p->coeffs[i] = rand_range(rs, -bound, bound);
}

/* Extremes: +-bound in a pattern chosen by `k`. */
static void extreme_poly(vg_mldsa_poly *p, int32_t bound, unsigned k)
{
    for (int i = 0; i < VG_MLDSA_N; i++)
        p->coeffs[i] = ((unsigned)i >> (k % 4)) & 1 ? -bound : bound;
}

/* The ntt / invntt_tomont postcondition of poly.h: every |a| < q. */
static int below_q(const vg_mldsa_poly *p)
{
    for (int i = 0; i < VG_MLDSA_N; i++)
        if (p->coeffs[i] <= -VG_MLDSA_Q || p->coeffs[i] >= VG_MLDSA_Q)
            return 0;
    return 1;
}

static void test_arith(const struct vg_mldsa_backend *be, unsigned reps)
{
    uint64_t rs = 0x5eed1001;
    unsigned bad_ntt = 0, bad_inv = 0, bad_mul = 0, bad_acc = 0, bad_bound = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        vg_mldsa_poly a, b, c, d;
        /* ntt: Pre |a| < q. */
        if (rep % 7 == 0)
            extreme_poly(&a, VG_MLDSA_Q - 1, rep);
        else
            rand_poly(&a, &rs, VG_MLDSA_Q - 1);
        b = a;
        g_ref->ntt(&a);
        be->ntt(&b);
        bad_ntt += memcmp(&a, &b, sizeof a) != 0;
        bad_bound += !below_q(&a) || !below_q(&b);
        /* invntt_tomont: Pre |a| < 2^27. */
        if (rep % 7 == 3)
            extreme_poly(&a, (1 << 27) - 1, rep);
        else
            rand_poly(&a, &rs, rep % 2 ? (1 << 27) - 1 : VG_MLDSA_Q - 1);
        b = a;
        g_ref->invntt_tomont(&a);
        be->invntt_tomont(&b);
        bad_inv += memcmp(&a, &b, sizeof a) != 0;
        bad_bound += !below_q(&a) || !below_q(&b);
        /* pointwise: Pre |a|, |b| < q; r may alias a. */
        if (rep % 5 == 1) {
            extreme_poly(&a, VG_MLDSA_Q - 1, rep);
            extreme_poly(&b, VG_MLDSA_Q - 1, rep + 1);
        } else {
            rand_poly(&a, &rs, VG_MLDSA_Q - 1);
            rand_poly(&b, &rs, VG_MLDSA_Q - 1);
        }
        g_ref->pointwise(&c, &a, &b);
        memset(&d, 0x55, sizeof d);
        be->pointwise(&d, &a, &b);
        bad_mul += memcmp(&c, &d, sizeof c) != 0;
        be->pointwise(&a, &a, &b);
        bad_mul += memcmp(&c, &a, sizeof c) != 0;
        /* pointwise_acc: Pre n <= 8, |a|, |b| < q. */
        vg_mldsa_poly x[8], y[8];
        unsigned n = rep % 9;
        for (unsigned v = 0; v < n; v++) {
            if (rep % 11 == 2) {
                extreme_poly(&x[v], VG_MLDSA_Q - 1, 0);
                extreme_poly(&y[v], VG_MLDSA_Q - 1, rep % 3 ? 0 : 1);
            } else {
                rand_poly(&x[v], &rs, VG_MLDSA_Q - 1);
                rand_poly(&y[v], &rs, VG_MLDSA_Q - 1);
            }
        }
        g_ref->pointwise_acc(&c, x, y, n);
        memset(&d, 0x55, sizeof d);
        be->pointwise_acc(&d, x, y, n);
        bad_acc += memcmp(&c, &d, sizeof c) != 0;
    }
    CHECK_MSG(bad_ntt == 0, "%s ntt: %u of %u differ", be->name, bad_ntt, reps);
    CHECK_MSG(bad_inv == 0, "%s invntt: %u of %u differ", be->name, bad_inv, reps);
    CHECK_MSG(bad_bound == 0, "%s ntt/invntt: %u outputs not below q (poly.h contract)", be->name,
              bad_bound);
    CHECK_MSG(bad_mul == 0, "%s pointwise: %u of %u differ", be->name, bad_mul, reps);
    CHECK_MSG(bad_acc == 0, "%s pointwise_acc: %u of %u differ", be->name, bad_acc, reps);
}

/* Random buffers, some with many rejections (bytes 0xff make a candidate
 * 0x7fffff >= q), random lengths and buffer sizes (including sizes that are
 * not multiples of 3 or 24). */
static void test_rej(const struct vg_mldsa_backend *be, unsigned reps)
{
    uint64_t rs = 0x5eed1002;
    unsigned bad = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        uint8_t buf[5 * 168 + 7];
        int32_t r1[VG_MLDSA_N + 16], r2[VG_MLDSA_N + 16];
        size_t buflen = (size_t)(vgtest_rand64(&rs) % (sizeof buf + 1));
        unsigned len = 1 + (unsigned)(vgtest_rand64(&rs) % VG_MLDSA_N);
        unsigned bias = rep % 4; /* 0: uniform; else a share of 0xff bytes */
        for (size_t i = 0; i < buflen; i++) {
            uint64_t t = vgtest_rand64(&rs);
            buf[i] = (bias && (t & 3) < bias) ? 0xff : (uint8_t)(t >> 56);
        }
        memset(r1, 0x77, sizeof r1);
        memset(r2, 0x77, sizeof r2);
        unsigned n1 = g_ref->rej_uniform(r1, len, buf, buflen);
        unsigned n2 = be->rej_uniform(r2, len, buf, buflen);
        int beyond = 0;
        for (unsigned i = len; i < VG_MLDSA_N + 16; i++)
            beyond |= r2[i] != 0x77777777;
        bad += n1 != n2 || memcmp(r1, r2, n1 * sizeof r1[0]) != 0 || beyond;
    }
    CHECK_MSG(bad == 0, "%s rej_uniform: %u of %u differ", be->name, bad, reps);
}

/* RejBoundedPoly's inner loop written straight from FIPS 204 Algorithm 31
 * lines 4-13 and Algorithm 15: low nibble first, stop at len. */
static unsigned ref_rej_eta(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen,
                            unsigned eta)
{
    unsigned ctr = 0;
    for (size_t i = 0; i < buflen && ctr < len; i++) {
        unsigned z[2] = {buf[i] & 15u, buf[i] >> 4};
        for (int h = 0; h < 2 && ctr < len; h++) {
            if (eta == 2 && z[h] < 15)
                r[ctr++] = 2 - (int32_t)(z[h] % 5);
            else if (eta == 4 && z[h] < 9)
                r[ctr++] = 4 - (int32_t)z[h];
        }
    }
    return ctr;
}

/* rej_eta against the reference on random buffers, buffers with many
 * rejected nibbles (0xff), every length class; nothing written at r[len]
 * or beyond. */
static void test_rej_eta(const struct vg_mldsa_backend *be, unsigned reps)
{
    uint64_t rs = 0x5eed1005;
    unsigned bad = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        uint8_t buf[3 * 136 + 5];
        int32_t r1[VG_MLDSA_N + 16], r2[VG_MLDSA_N + 16];
        unsigned eta = rep % 2 ? 4 : 2;
        size_t buflen = (size_t)(vgtest_rand64(&rs) % (sizeof buf + 1));
        unsigned len = (unsigned)(vgtest_rand64(&rs) % (VG_MLDSA_N + 1));
        unsigned bias = (rep / 2) % 4;
        for (size_t i = 0; i < buflen; i++) {
            uint64_t t = vgtest_rand64(&rs);
            buf[i] = (bias && (t & 3) < bias) ? 0xff : (uint8_t)(t >> 56);
        }
        memset(r1, 0x77, sizeof r1);
        memset(r2, 0x77, sizeof r2);
        unsigned n1 = ref_rej_eta(r1, len, buf, buflen, eta);
        unsigned n2 = be->rej_eta(r2, len, buf, buflen, eta);
        int beyond = 0;
        for (unsigned i = len; i < VG_MLDSA_N + 16; i++)
            beyond |= r2[i] != 0x77777777;
        bad += n1 != n2 || memcmp(r1, r2, n1 * sizeof r1[0]) != 0 || beyond;
    }
    CHECK_MSG(bad == 0, "%s rej_eta: %u of %u differ from the reference", be->name, bad, reps);
}

/* unpack_z against portable for both gamma1 (18- and 20-bit fields), on
 * random, all-zero and all-one bytes (fields 0 and 2^b - 1: a = gamma1 and
 * gamma1 - 2^b + 1, the two ends of (-gamma1, gamma1]). The input sits at
 * the end of a heap block of exactly its size, so an AddressSanitizer
 * build catches a read past it. */
static void test_unpack_z(const struct vg_mldsa_backend *be, unsigned reps)
{
    uint64_t rs = 0x5eed2007;
    unsigned bad = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        int32_t gamma1 = rep % 2 ? (1 << 19) : (1 << 17);
        size_t len = gamma1 == (1 << 17) ? 576 : 640;
        uint8_t *buf = malloc(len);
        vg_mldsa_poly a, b;
        if (!buf)
            abort();
        for (size_t i = 0; i < len; i++)
            buf[i] = rep < 2 ? 0 : rep < 4 ? 0xff : (uint8_t)(vgtest_rand64(&rs) >> 56);
        g_ref->unpack_z(&a, buf, gamma1);
        be->unpack_z(&b, buf, gamma1);
        int out_of_range = 0;
        for (unsigned j = 0; j < VG_MLDSA_N; j++)
            out_of_range |= b.coeffs[j] <= -gamma1 || b.coeffs[j] > gamma1;
        bad += memcmp(&a, &b, sizeof a) != 0 || out_of_range;
        free(buf);
    }
    CHECK_MSG(bad == 0, "%s unpack_z: %u of %u differ from portable", be->name, bad, reps);
}

/* pointwise_acc24 against pointwise_acc on the unpacked entries (the
 * reference's own check) and, for a faster backend, against portable:
 * random and extreme (q - 1, 0) entries, every n <= 8, r starting from a
 * random value below 2^26. */
static void test_acc24(const struct vg_mldsa_backend *be, unsigned reps)
{
    uint64_t rs = 0x5eed1007;
    unsigned bad = 0;
    static vg_mldsa_poly A[8], B[8], r1, r2, r0, acc;
    static uint8_t pk[8][3 * VG_MLDSA_N];
    for (unsigned rep = 0; rep < reps; rep++) {
        unsigned n = 1 + rep % 8;
        for (unsigned k = 0; k < n; k++) {
            for (unsigned j = 0; j < VG_MLDSA_N; j++)
                A[k].coeffs[j] = rep % 9 == 0 ? ((j + k) % 2 ? VG_MLDSA_Q - 1 : 0)
                                              : rand_range(&rs, 0, VG_MLDSA_Q - 1);
            if (rep % 9 == 0)
                extreme_poly(&B[k], VG_MLDSA_Q - 1, rep + k);
            else
                rand_poly(&B[k], &rs, VG_MLDSA_Q - 1);
            vg_mldsa_poly_pack24(g_ref, pk[k], &A[k]);
        }
        rand_poly(&r0, &rs, (1 << 26) - 1);
        r1 = r0;
        r2 = r0;
        g_ref->pointwise_acc(&acc, A, B, n);
        vg_mldsa_poly_add(g_ref, &r1, &r1, &acc);
        be->pointwise_acc24(&r2, (const uint8_t(*)[3 * VG_MLDSA_N])pk, B, n);
        bad += memcmp(&r1, &r2, sizeof r1) != 0;
    }
    CHECK_MSG(bad == 0, "%s pointwise_acc24: %u of %u differ", be->name, bad, reps);
}

/* The coefficientwise passes (reduce, caddq, add, sub, chknorm,
 * power2round) against portable on random inputs within their
 * preconditions and at the ends of the ranges; chknorm also with one
 * coefficient placed just below, at and above the bound (each verdict must
 * occur). */
static void test_passes(const struct vg_mldsa_backend *be, unsigned reps)
{
    static const int32_t bounds[] = {VG_MLDSA_GAMMA2_88 - 78, VG_MLDSA_GAMMA2_32 - 196,
                                     (1 << 17) - 78, (1 << 19) - 120, VG_MLDSA_GAMMA2_88};
    uint64_t rs = 0x5eed1009;
    unsigned bad = 0, seen[2] = {0, 0};
    for (unsigned rep = 0; rep < reps; rep++) {
        vg_mldsa_poly a, b, r1, r2, s1, s2;
        /* reduce32: a <= 2^31 - 2^22 - 1 (and as low as -2^31). */
        for (int i = 0; i < VG_MLDSA_N; i++)
            a.coeffs[i] = rep % 4 == 0 ? (i % 2 ? INT32_MIN : 2147483647 - (1 << 22))
                                       : rand_range(&rs, INT32_MIN, 2147483647 - (1 << 22));
        r1 = a;
        r2 = a;
        g_ref->reduce(&r1);
        be->reduce(&r2);
        bad += memcmp(&r1, &r2, sizeof r1) != 0;
        /* caddq: |a| < q. */
        if (rep % 4 == 1)
            extreme_poly(&a, VG_MLDSA_Q - 1, rep / 4);
        else
            rand_poly(&a, &rs, VG_MLDSA_Q - 1);
        r1 = a;
        r2 = a;
        g_ref->caddq(&r1);
        be->caddq(&r2);
        bad += memcmp(&r1, &r2, sizeof r1) != 0;
        /* add, sub (also in place): |a|, |b| < 2^30. */
        rand_poly(&a, &rs, (1 << 30) - 1);
        rand_poly(&b, &rs, (1 << 30) - 1);
        g_ref->add(&r1, &a, &b);
        be->add(&r2, &a, &b);
        bad += memcmp(&r1, &r2, sizeof r1) != 0;
        g_ref->sub(&r1, &a, &b);
        be->sub(&r2, &a, &b);
        bad += memcmp(&r1, &r2, sizeof r1) != 0;
        r2 = a;
        be->sub(&r2, &r2, &b);
        bad += memcmp(&r1, &r2, sizeof r1) != 0;
        /* chknorm: |a| <= 6283008; mostly below the bound, with one
         * coefficient at bound - 1, bound or bound + 1 (either sign). */
        int32_t bound = bounds[rep % 5];
        rand_poly(&a, &rs, bound - 1);
        if (rep % 3 != 0) {
            int32_t v = bound - 2 + (int32_t)(rep % 3) + (int32_t)((rep / 3) % 2);
            a.coeffs[vgtest_rand64(&rs) % VG_MLDSA_N] = rep % 2 ? v : -v;
        }
        if (rep % 7 == 0)
            rand_poly(&a, &rs, 6283008);
        unsigned v1 = g_ref->chknorm(&a, bound), v2 = be->chknorm(&a, bound);
        bad += v1 != v2;
        seen[v1 & 1]++;
        /* power2round: 0 <= a < q. */
        for (int i = 0; i < VG_MLDSA_N; i++)
            a.coeffs[i] =
                rep % 4 == 2 ? (i % 2 ? 0 : VG_MLDSA_Q - 1) : rand_range(&rs, 0, VG_MLDSA_Q - 1);
        g_ref->power2round(&r1, &s1, &a);
        be->power2round(&r2, &s2, &a);
        bad += memcmp(&r1, &r2, sizeof r1) != 0 || memcmp(&s1, &s2, sizeof s1) != 0;
    }
    CHECK_MSG(bad == 0, "%s coefficientwise passes: %u differ", be->name, bad);
    CHECK_MSG(seen[0] > 0 && seen[1] > 0, "chknorm verdicts not both exercised");
}

/* decompose and make_hint against portable on every a in [0, q) for both
 * gamma2 (a0 = NULL too), make_hint with v1 the true high bits of a
 * shifted input (so both hint values occur). */
static void test_rounding(const struct vg_mldsa_backend *be)
{
    static const int32_t g2s[2] = {VG_MLDSA_GAMMA2_88, VG_MLDSA_GAMMA2_32};
    static vg_mldsa_poly a, a1, a0, b1, b0, v1, h1, h2;
    unsigned bad = 0;
    for (int g = 0; g < 2; g++) {
        for (int32_t base = 0; base < VG_MLDSA_Q; base += VG_MLDSA_N) {
            for (unsigned j = 0; j < VG_MLDSA_N; j++)
                a.coeffs[j] = base + (int32_t)j < VG_MLDSA_Q ? base + (int32_t)j : 0;
            g_ref->decompose(&a1, &a0, &a, g2s[g]);
            be->decompose(&b1, &b0, &a, g2s[g]);
            bad += memcmp(&a1, &b1, sizeof a1) != 0 || memcmp(&a0, &b0, sizeof a0) != 0;
            be->decompose(&b1, NULL, &a, g2s[g]);
            bad += memcmp(&a1, &b1, sizeof a1) != 0;
            for (unsigned j = 0; j < VG_MLDSA_N; j++)
                a.coeffs[j] = (a.coeffs[j] + 3000 * (int32_t)(j % 7)) % VG_MLDSA_Q;
            g_ref->decompose(&v1, NULL, &a, g2s[g]);
            for (unsigned j = 0; j < VG_MLDSA_N; j++)
                a.coeffs[j] = (a.coeffs[j] + 40000 * (int32_t)(j % 3)) % VG_MLDSA_Q;
            unsigned n1 = g_ref->make_hint(&h1, &a, &v1, g2s[g]);
            unsigned n2 = be->make_hint(&h2, &a, &v1, g2s[g]);
            bad += n1 != n2 || memcmp(&h1, &h2, sizeof h1) != 0;
        }
    }
    CHECK_MSG(bad == 0, "%s decompose/make_hint: %u blocks differ from portable", be->name, bad);
}

/* SampleInBall kernels against the portable ones: ball_track over random
 * buffers in one or several calls (random split points, every tau) from
 * the same start, then ball_place of the resulting positions with random
 * signs; and ball_place on random distinct positions. */
static void test_ball(const struct vg_mldsa_backend *be, unsigned reps)
{
    static const unsigned taus[3] = {39, 49, 60};
    uint64_t rs = 0x5eed1006;
    unsigned bad = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        unsigned tau = taus[rep % 3];
        uint8_t buf[300], p1[64], p2[64];
        int32_t c1[VG_MLDSA_N], c2[VG_MLDSA_N];
        unsigned len = (unsigned)(vgtest_rand64(&rs) % sizeof buf);
        unsigned split = len ? (unsigned)(vgtest_rand64(&rs) % (len + 1)) : 0;
        vgtest_randbytes(&rs, buf, sizeof buf);
        if (rep % 5 == 4) /* many rejections: large bytes */
            for (unsigned k = 0; k < len; k++)
                buf[k] |= 0xe0;
        memset(p1, 0, 64);
        memset(p2, 0, 64);
        unsigned n1 = g_ref->ball_track(p1, 0, buf, split, tau);
        n1 = g_ref->ball_track(p1, n1, buf + split, len - split, tau);
        unsigned n2 = be->ball_track(p2, 0, buf, split, tau);
        n2 = be->ball_track(p2, n2, buf + split, len - split, tau);
        bad += n1 != n2 || memcmp(p1, p2, n1) != 0;
        if (n1 == tau) {
            uint64_t signs = vgtest_rand64(&rs);
            g_ref->ball_place(c1, p1, signs, tau);
            be->ball_place(c2, p2, signs, tau);
            bad += memcmp(c1, c2, sizeof c1) != 0;
        }
        /* Random distinct positions (a partial Fisher-Yates of 0..255). */
        uint8_t perm[256], pp[64];
        for (unsigned k = 0; k < 256; k++)
            perm[k] = (uint8_t)k;
        for (unsigned t = 0; t < tau; t++) {
            unsigned j = t + (unsigned)(vgtest_rand64(&rs) % (256 - t));
            uint8_t x = perm[t];
            perm[t] = perm[j];
            perm[j] = x;
            pp[t] = perm[t];
        }
        memset(pp + tau, 0, 64 - tau);
        uint64_t signs = vgtest_rand64(&rs);
        g_ref->ball_place(c1, pp, signs, tau);
        be->ball_place(c2, pp, signs, tau);
        bad += memcmp(c1, c2, sizeof c1) != 0;
    }
    CHECK_MSG(bad == 0, "%s ball_track/ball_place: %u differ from portable", be->name, bad);
}

/* uniform_many (groups of four, padded and single remainders) against the
 * single sampler, with the active dispatch. */
static void test_x4_sampler(const struct vg_mldsa_backend *be)
{
    const char *label = be->name;
    uint64_t rs = 0x5eed1003;
    unsigned bad = 0, total = 0;
    static vg_mldsa_poly a[9], b;
    for (unsigned rep = 0; rep < 60; rep++) {
        uint8_t rho[32], idx[9][2];
        vg_mldsa_poly *r[9];
        unsigned n = 1 + rep % 9;
        vgtest_randbytes(&rs, rho, 32);
        vgtest_randbytes(&rs, &idx[0][0], sizeof idx);
        for (unsigned l = 0; l < 9; l++)
            r[l] = &a[l];
        vg_mldsa_poly_uniform_many(be, r, rho, (const uint8_t(*)[2])idx, n);
        for (unsigned l = 0; l < n; l++, total++) {
            vg_mldsa_poly_uniform(be, &b, rho, idx[l][0], idx[l][1]);
            bad += memcmp(&a[l], &b, sizeof b) != 0;
        }
    }
    CHECK_MSG(bad == 0, "uniform_many (%s): %u of %u differ", label, bad, total);
    /* ExpandMask four at a time against the single sampler, both gamma1. */
    bad = total = 0;
    for (unsigned rep = 0; rep < 40; rep++) {
        uint8_t rhopp[64];
        unsigned n = 1 + rep % 8;
        int32_t gamma1 = rep % 2 ? 1 << 19 : 1 << 17;
        uint16_t nonce0 = (uint16_t)vgtest_rand64(&rs);
        vgtest_randbytes(&rs, rhopp, 64);
        vg_mldsa_poly_uniform_gamma1_many(be, a, rhopp, nonce0, n, gamma1);
        for (unsigned l = 0; l < n; l++, total++) {
            vg_mldsa_poly_uniform_gamma1(be, &b, rhopp, (uint16_t)(nonce0 + l), gamma1);
            bad += memcmp(&a[l], &b, sizeof b) != 0;
        }
    }
    CHECK_MSG(bad == 0, "uniform_gamma1_many (%s): %u of %u differ", label, bad, total);
    /* ExpandMask's bytes four at a time (mask_bytes_4): decoded, the
     * single sampler's entries; nothing written outside out[k]'s bytes. */
    bad = total = 0;
    for (unsigned rep = 0; rep < 40; rep++) {
        uint8_t rhopp[64];
        static uint8_t buf[4][640 + 32];
        uint8_t *out[4];
        unsigned n = 1 + rep % 4;
        int32_t gamma1 = (rep / 4) % 2 ? 1 << 19 : 1 << 17;
        size_t len = vg_mldsa_polyz_bytes(gamma1);
        uint16_t nonce0 = (uint16_t)vgtest_rand64(&rs);
        vgtest_randbytes(&rs, rhopp, 64);
        memset(buf, 0xa5, sizeof buf);
        for (unsigned l = 0; l < 4; l++)
            out[l] = buf[l] + 16;
        vg_mldsa_poly_mask_bytes_4(out, rhopp, nonce0, n, gamma1);
        for (unsigned l = 0; l < 4; l++) {
            for (size_t i = 0; i < sizeof buf[l]; i++)
                bad += (i < 16 || i >= 16 + (l < n ? len : 0)) && buf[l][i] != 0xa5;
            if (l >= n)
                continue;
            vg_mldsa_polyz_unpack(be, &a[0], out[l], gamma1);
            vg_mldsa_poly_uniform_gamma1(be, &b, rhopp, (uint16_t)(nonce0 + l), gamma1);
            bad += memcmp(&a[0], &b, sizeof b) != 0;
            total++;
        }
    }
    CHECK_MSG(bad == 0, "mask_bytes_4 (%s): %u of %u differ or wrote outside", label, bad, total);
    /* ExpandS four at a time against the single sampler, both eta. */
    bad = total = 0;
    for (unsigned rep = 0; rep < 40; rep++) {
        uint8_t rhop[64];
        unsigned n = 1 + rep % 9;
        unsigned eta = rep % 2 ? 4 : 2;
        uint16_t nonce0 = (uint16_t)vgtest_rand64(&rs);
        vgtest_randbytes(&rs, rhop, 64);
        vg_mldsa_poly_uniform_eta_many(be, a, rhop, nonce0, n, eta);
        for (unsigned l = 0; l < n; l++, total++) {
            vg_mldsa_poly_uniform_eta(be, &b, rhop, (uint16_t)(nonce0 + l), eta);
            bad += memcmp(&a[l], &b, sizeof b) != 0;
        }
    }
    CHECK_MSG(bad == 0, "uniform_eta_many (%s): %u of %u differ", label, bad, total);
}

typedef int (*kp_fn)(uint8_t *, uint8_t *, const uint8_t *);
typedef int (*sign_fn)(uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                       const uint8_t *, const uint8_t *);
typedef int (*verify_fn)(const uint8_t *, size_t, const uint8_t *, size_t, const uint8_t *,
                         size_t, const uint8_t *);
static const struct {
    const char *name;
    kp_fn kp;
    sign_fn sign;
    verify_fn verify;
    size_t pk, sk, sig;
} params[3] = {
    {"ML-DSA-44", vg_mldsa44_keypair_derand, vg_mldsa44_sign_derand, vg_mldsa44_verify, 1312,
     2560, 2420},
    {"ML-DSA-65", vg_mldsa65_keypair_derand, vg_mldsa65_sign_derand, vg_mldsa65_verify, 1952,
     4032, 3309},
    {"ML-DSA-87", vg_mldsa87_keypair_derand, vg_mldsa87_sign_derand, vg_mldsa87_verify, 2592,
     4896, 4627},
};

struct outs {
    uint8_t pk[2592], sk[4896], sig_det[4627], sig_rnd[4627];
    int rc, v_ok, v_bad;
};

static void run_api(int p, const uint8_t seed[32], const uint8_t *msg, size_t msg_len,
                    const uint8_t rnd[32], size_t flip, struct outs *o)
{
    static const uint8_t zero[32];
    static const uint8_t ctx[3] = {'v', 'g', 0};
    memset(o, 0, sizeof *o);
    o->rc = params[p].kp(o->pk, o->sk, seed);
    o->rc |= params[p].sign(o->sig_det, msg, msg_len, NULL, 0, o->sk, zero);
    o->rc |= params[p].sign(o->sig_rnd, msg, msg_len, ctx, sizeof ctx, o->sk, rnd);
    o->v_ok = params[p].verify(o->sig_det, params[p].sig, msg, msg_len, NULL, 0, o->pk) |
              params[p].verify(o->sig_rnd, params[p].sig, msg, msg_len, ctx, sizeof ctx, o->pk);
    o->sig_rnd[flip % params[p].sig] ^= (uint8_t)(1u << (flip % 8));
    o->v_bad = params[p].verify(o->sig_rnd, params[p].sig, msg, msg_len, ctx, sizeof ctx, o->pk);
}

static void test_api_identical(unsigned seeds, uint32_t fast_mask)
{
    static struct outs fast, slow;
    uint64_t rs = 0x5eed1004;
    for (int p = 0; p < 3; p++) {
        unsigned bad = 0, bad_rt = 0;
        for (unsigned s = 0; s < seeds; s++) {
            uint8_t seed[32], rnd[32], msg[200];
            size_t msg_len = (size_t)(vgtest_rand64(&rs) % sizeof msg);
            vgtest_randbytes(&rs, seed, 32);
            vgtest_randbytes(&rs, rnd, 32);
            vgtest_randbytes(&rs, msg, msg_len);
            size_t flip = (size_t)vgtest_rand64(&rs);
            vg_cpu_force(fast_mask);
            run_api(p, seed, msg, msg_len, rnd, flip, &fast);
            vg_cpu_force(0);
            run_api(p, seed, msg, msg_len, rnd, flip, &slow);
            bad += memcmp(&fast, &slow, sizeof fast) != 0;
            bad_rt += fast.rc != 0 || fast.v_ok != 0 || fast.v_bad != VG_ERR_VERIFY;
        }
        vg_cpu_force(fast_mask);
        CHECK_MSG(bad == 0, "%s: %u of %u seeds differ from portable", params[p].name, bad, seeds);
        CHECK_MSG(bad_rt == 0, "%s: %u of %u round trips failed", params[p].name, bad_rt, seeds);
        printf("%s: %u seeds, %s vs portable: %u differ, %u round-trip failures\n",
               params[p].name, seeds, vg_mldsa_active()->name, bad, bad_rt);
    }
}

/* The fused passes of be (if any) against the separate portable routines:
 * bit-identical outputs. */
static void test_fused(const struct vg_mldsa_backend *be, uint32_t mask, unsigned reps)
{
    uint64_t rs = 0x5eed7007;
    unsigned bad = 0, bad_range = 0;
    if (!be->verify_row) {
        printf("  backend %s: no fused operations\n", be->name);
        return;
    }
    for (unsigned rep = 0; rep < reps; rep++) {
        const int32_t g2 = rep % 2 ? VG_MLDSA_GAMMA2_32 : VG_MLDSA_GAMMA2_88;
        const int32_t top = g2 == VG_MLDSA_GAMMA2_88 ? 44 : 16;
        vg_mldsa_poly acc, c, t1, h, ref, t, out, acc_in;
        /* verify_row: Pre |acc|, |c|, |t1| < q, h in {0, 1}. */
        if (rep % 13 == 5) {
            extreme_poly(&acc, VG_MLDSA_Q - 1, rep);
            extreme_poly(&c, VG_MLDSA_Q - 1, rep + 1);
            extreme_poly(&t1, VG_MLDSA_Q - 1, rep + 2);
        } else {
            rand_poly(&acc, &rs, VG_MLDSA_Q - 1);
            rand_poly(&c, &rs, VG_MLDSA_Q - 1);
            rand_poly(&t1, &rs, VG_MLDSA_Q - 1);
        }
        for (int i = 0; i < VG_MLDSA_N; i++)
            h.coeffs[i] = rep % 7 == 0 ? 1 : rep % 7 == 1 ? 0 : (int32_t)(vgtest_rand64(&rs) & 1);
        acc_in = acc;
        vg_cpu_force(0);
        g_ref->pointwise(&t, &t1, &c);
        g_ref->sub(&ref, &acc, &t);
        g_ref->invntt_tomont(&ref);
        g_ref->caddq(&ref);
        vg_mldsa_poly_use_hint(g_ref, &ref, &ref, &h, g2);
        vg_cpu_force(mask);
        memset(&out, 0x55, sizeof out);
        be->verify_row(&out, &acc, &c, &t1, &h, g2);
        bad += memcmp(&ref, &out, sizeof ref) != 0 || memcmp(&acc, &acc_in, sizeof acc) != 0;
        for (int i = 0; i < VG_MLDSA_N; i++)
            bad_range += out.coeffs[i] < 0 || out.coeffs[i] >= top;
    }
    CHECK_MSG(bad == 0, "backend %s: fused verify_row differs from the separate routines in %u "
              "of %u cases", be->name, bad, reps);
    CHECK_MSG(bad_range == 0, "backend %s: verify_row output out of range", be->name);

    /* The one-pass sequences against the separate portable passes. */
    unsigned bad_z = 0, bad_r = 0, bad_h = 0, bad_w = 0, bad_k = 0, verdicts[2] = {0, 0};
    for (unsigned rep = 0; rep < reps; rep++) {
        const int32_t g2 = rep % 2 ? VG_MLDSA_GAMMA2_32 : VG_MLDSA_GAMMA2_88;
        const int ext = rep % 11 == 3;
        vg_mldsa_poly a, b, r1, ref, ref1, out, out1, x;
        unsigned vr, vo, nr, no;
        /* sign_z_pass: |z| < q, |y| <= 2^19; bound varies so both verdicts
         * occur. */
        int32_t bz = rep % 3 ? (1 << 19) - 196 : (int32_t)(rep % 4000) + 1;
        if (ext) {
            extreme_poly(&a, VG_MLDSA_Q - 1, rep);
            extreme_poly(&b, 1 << 19, rep + 1);
        } else {
            rand_poly(&a, &rs, rep % 5 ? 300000 : VG_MLDSA_Q - 1);
            rand_poly(&b, &rs, 1 << 19);
        }
        ref = a;
        out = a;
        g_ref->add(&ref, &ref, &b);
        g_ref->reduce(&ref);
        vr = g_ref->chknorm(&ref, bz);
        vo = be->sign_z_pass(&out, &b, bz);
        bad_z += vr != vo || memcmp(&ref, &out, sizeof ref) != 0;
        verdicts[vr & 1]++;
        /* sign_r_pass: 0 <= w < q (b), |r| < q (a). */
        int32_t br = rep % 3 ? g2 - 196 : (int32_t)(rep % 90000) + 1;
        for (int i = 0; i < VG_MLDSA_N; i++)
            b.coeffs[i] = ext ? (i & 1 ? VG_MLDSA_Q - 1 : 0) : rand_range(&rs, 0, VG_MLDSA_Q - 1);
        if (rep % 11 == 4) {
            /* w - r = q and w - r = 0 exactly: the ends of the range the
             * one-pass canonical representative handles. */
            for (int i = 0; i < VG_MLDSA_N; i++) {
                b.coeffs[i] = rand_range(&rs, 1, VG_MLDSA_Q - 1);
                a.coeffs[i] = i & 1 ? b.coeffs[i] - VG_MLDSA_Q : b.coeffs[i];
            }
        }
        g_ref->sub(&ref, &b, &a);
        g_ref->reduce(&ref);
        g_ref->caddq(&ref);
        g_ref->decompose(&ref1, &x, &ref, g2);
        vr = g_ref->chknorm(&x, br);
        out = a;
        memset(&out1, 0x55, sizeof out1);
        vo = be->sign_r_pass(&out, &out1, &b, g2, br);
        bad_r += vr != vo || memcmp(&ref, &out, sizeof ref) != 0 ||
                 memcmp(&ref1, &out1, sizeof ref1) != 0;
        verdicts[vr & 1]++;
        /* sign_h_pass: |ct0| < q (a), 0 <= r < q (ref from above, r1 =
         * ref1 = HighBits(r)); h written over r1 (the aliasing signing
         * uses). */
        int32_t bh = rep % 3 ? g2 : (int32_t)(rep % 90000) + 1;
        if (!ext)
            rand_poly(&a, &rs, rep % 4 ? g2 - 1 : VG_MLDSA_Q - 1);
        if (rep % 11 == 4) {
            /* r + reduce32(ct0) = q exactly in every other lane. */
            for (int i = 0; i < VG_MLDSA_N; i += 2) {
                ref.coeffs[i] = VG_MLDSA_Q - rand_range(&rs, 1, 1 << 21);
                a.coeffs[i] = VG_MLDSA_Q - ref.coeffs[i];
            }
            g_ref->decompose(&ref1, NULL, &ref, g2);
        }
        x = a;
        g_ref->reduce(&x);
        vr = g_ref->chknorm(&x, bh);
        g_ref->add(&x, &ref, &x);
        g_ref->reduce(&x);
        g_ref->caddq(&x);
        nr = g_ref->make_hint(&r1, &x, &ref1, g2);
        out1 = ref1;
        vo = be->sign_h_pass(&out1, &no, &a, &ref, &out1, g2, bh);
        bad_h += vr != vo || nr != no || memcmp(&r1, &out1, sizeof r1) != 0;
        verdicts[vr & 1]++;
        /* sign_w_pass: |w| < q. */
        ref = a;
        g_ref->caddq(&ref);
        g_ref->decompose(&ref1, NULL, &ref, g2);
        out = a;
        be->sign_w_pass(&out, &out1, g2);
        bad_w += memcmp(&ref, &out, sizeof ref) != 0 || memcmp(&ref1, &out1, sizeof ref1) != 0;
        /* keygen_pass: |t| < q, |s2| <= 4; t0 written over t. */
        if (ext)
            extreme_poly(&b, 4, rep);
        else
            rand_poly(&b, &rs, 4);
        ref = a;
        g_ref->add(&ref, &ref, &b);
        g_ref->reduce(&ref);
        g_ref->caddq(&ref);
        g_ref->power2round(&ref1, &x, &ref);
        out = a;
        be->keygen_pass(&out1, &out, &out, &b);
        bad_k += memcmp(&ref1, &out1, sizeof ref1) != 0 || memcmp(&x, &out, sizeof x) != 0;
    }
    /* Every value below q through the decompositions of the passes (r1
     * and r0 checked via the stored r1 and the verdicts on a bound that
     * cuts through r0's range). */
    for (int32_t v0 = 0; v0 < VG_MLDSA_Q; v0 += VG_MLDSA_N) {
        for (int g = 0; g < 2; g++) {
            const int32_t g2 = g ? VG_MLDSA_GAMMA2_32 : VG_MLDSA_GAMMA2_88;
            vg_mldsa_poly w, zero, ref1, r0, out, out1;
            memset(&zero, 0, sizeof zero);
            for (int i = 0; i < VG_MLDSA_N; i++)
                w.coeffs[i] = v0 + i < VG_MLDSA_Q ? v0 + i : VG_MLDSA_Q - 1;
            g_ref->decompose(&ref1, &r0, &w, g2);
            out = w;
            be->sign_w_pass(&out, &out1, g2);
            bad_w += memcmp(&ref1, &out1, sizeof ref1) != 0;
            for (int32_t bnd = 1; bnd <= g2 + 1; bnd += g2 / 3) {
                out = zero;
                unsigned vo = be->sign_r_pass(&out, &out1, &w, g2, bnd);
                bad_r += vo != g_ref->chknorm(&r0, bnd) || memcmp(&ref1, &out1, sizeof ref1) != 0 ||
                         memcmp(&out, &w, sizeof w) != 0;
            }
        }
    }
    CHECK_MSG(bad_z + bad_r + bad_h + bad_w + bad_k == 0,
              "backend %s: one-pass sequences differ from the separate routines: z %u, r %u, "
              "h %u, w %u, keygen %u", be->name, bad_z, bad_r, bad_h, bad_w, bad_k);
    CHECK_MSG(verdicts[0] > reps / 8 && verdicts[1] > reps / 8,
              "verdict mix too one-sided: %u pass, %u fail", verdicts[0], verdicts[1]);
}

/* ---- bit packing kernels (optional members of struct vg_mldsa_backend) ---------------------------
 * Each packing kernel of be against the portable function of
 * the same name (the vg_mldsa_poly* call with every CPU feature off) on
 * random inputs, on the ends of each field's range (every coefficient at
 * the minimum, at the maximum, alternating in patterns) and, for the
 * unpacking kernels, on random, all-zero and all-0xff bytes and, for
 * BitUnpack of s, valid encodings (fields up to 2 eta) and valid
 * encodings with one field set to 2 eta + 1, to 2^b - 1 or between (the
 * range verdict must match). Packed outputs go to a buffer with guard
 * bytes on both sides (nothing may be written outside); unpacking inputs
 * sit at the end of a heap block of exactly their size (an
 * AddressSanitizer build catches a read past it). */

/* Coefficient k of pattern `kind` in [lo, hi]: 0 random, 1 all lo, 2 all
 * hi, 3.. lo and hi alternating in runs of 1, 2, 4, ... */
static int32_t pack_coeff(uint64_t *rs, unsigned kind, unsigned k, int32_t lo, int32_t hi)
{
    if (kind == 0)
        return rand_range(rs, lo, hi);
    if (kind == 1)
        return lo;
    if (kind == 2)
        return hi;
    return (k >> ((kind - 3) % 6)) & 1 ? hi : lo;
}

static void pack_poly(vg_mldsa_poly *a, uint64_t *rs, unsigned kind, int32_t lo, int32_t hi)
{
    for (unsigned k = 0; k < VG_MLDSA_N; k++)
        a->coeffs[k] = pack_coeff(rs, kind, k, lo, hi);
}

#define PACK_GUARD 16
#define PACK_MAX 416 /* the longest encoding here (t0) */

/* 1 when the len bytes at out + PACK_GUARD differ from those at ref +
 * PACK_GUARD, or a guard byte of out (0xa5) was overwritten. */
static int pack_differs(const uint8_t *ref, const uint8_t *out, size_t len)
{
    int bad = memcmp(ref + PACK_GUARD, out + PACK_GUARD, len) != 0;
    for (size_t i = 0; i < PACK_GUARD; i++)
        bad |= out[i] != 0xa5 || out[PACK_GUARD + len + i] != 0xa5;
    return bad;
}

static void test_pack(const struct vg_mldsa_backend *be, uint32_t mask, unsigned reps)
{
    uint64_t rs = 0x5eed3001;
    unsigned bad_t1 = 0, bad_t1u = 0, bad_t0 = 0, bad_t0u = 0, bad_eta = 0, bad_etau = 0;
    unsigned bad_w1 = 0, bad_sh = 0, verdicts[2] = {0, 0};
    uint8_t ref[PACK_MAX + 2 * PACK_GUARD], out[PACK_MAX + 2 * PACK_GUARD];
    if (!be->t1_pack) {
        printf("backend %s: no packing kernels\n", be->name);
        return;
    }
    printf("backend %s: packing kernels vs portable\n", be->name);
    for (unsigned rep = 0; rep < reps; rep++) {
        unsigned kind = rep % 10;
        unsigned eta = (rep / 10) % 2 ? 4 : 2;
        int32_t g2 = (rep / 20) % 2 ? VG_MLDSA_GAMMA2_32 : VG_MLDSA_GAMMA2_88;
        vg_mldsa_poly a, b, c;
        memset(ref, 0xa5, sizeof ref);
        memset(out, 0xa5, sizeof out);

        /* t1: SimpleBitPack(t1, 2^10 - 1), then t1 2^d. */
        pack_poly(&a, &rs, kind, 0, (1 << 10) - 1);
        vg_cpu_force(0);
        vg_mldsa_polyt1_pack(g_ref, ref + PACK_GUARD, &a);
        b = a;
        vg_mldsa_poly_shiftl(g_ref, &b);
        vg_cpu_force(mask);
        be->t1_pack(out + PACK_GUARD, &a);
        bad_t1 += pack_differs(ref, out, VG_MLDSA_POLYT1_BYTES);
        c = a;
        be->shiftl(&c);
        bad_sh += memcmp(&b, &c, sizeof b) != 0;

        /* t0: BitPack(t0, 2^12 - 1, 2^12). */
        pack_poly(&a, &rs, kind, -(1 << 12) + 1, 1 << 12);
        memset(ref, 0xa5, sizeof ref);
        memset(out, 0xa5, sizeof out);
        vg_cpu_force(0);
        vg_mldsa_polyt0_pack(g_ref, ref + PACK_GUARD, &a);
        vg_cpu_force(mask);
        be->t0_pack(out + PACK_GUARD, &a);
        bad_t0 += pack_differs(ref, out, VG_MLDSA_POLYT0_BYTES);

        /* s: BitPack(s, eta, eta). */
        pack_poly(&a, &rs, kind, -(int32_t)eta, (int32_t)eta);
        memset(ref, 0xa5, sizeof ref);
        memset(out, 0xa5, sizeof out);
        vg_cpu_force(0);
        vg_mldsa_polyeta_pack(g_ref, ref + PACK_GUARD, &a, eta);
        vg_cpu_force(mask);
        be->eta_pack(out + PACK_GUARD, &a, eta);
        bad_eta += pack_differs(ref, out, vg_mldsa_polyeta_bytes(eta));

        /* w1: SimpleBitPack(w1, (q - 1) / (2 gamma2) - 1). */
        pack_poly(&a, &rs, kind, 0, (VG_MLDSA_Q - 1) / (2 * g2) - 1);
        memset(ref, 0xa5, sizeof ref);
        memset(out, 0xa5, sizeof out);
        vg_cpu_force(0);
        vg_mldsa_polyw1_pack(g_ref, ref + PACK_GUARD, &a, g2);
        vg_cpu_force(mask);
        be->w1_pack(out + PACK_GUARD, &a, g2);
        bad_w1 += pack_differs(ref, out, vg_mldsa_polyw1_bytes(g2));

        /* Unpacking: every byte string decodes. kind 1: all zero, 2: all
         * 0xff, else random; for s also (kind >= 5) a valid encoding,
         * with (kind odd) one field above 2 eta. */
        size_t elen = vg_mldsa_polyeta_bytes(eta);
        uint8_t *in1 = malloc(VG_MLDSA_POLYT1_BYTES), *in0 = malloc(VG_MLDSA_POLYT0_BYTES);
        uint8_t *ine = malloc(elen);
        if (!in1 || !in0 || !ine)
            abort();
        for (size_t i = 0; i < VG_MLDSA_POLYT0_BYTES; i++) {
            uint8_t v = kind == 1 ? 0 : kind == 2 ? 0xff : (uint8_t)(vgtest_rand64(&rs) >> 56);
            in0[i] = v;
            if (i < VG_MLDSA_POLYT1_BYTES)
                in1[i] = (uint8_t)(v ^ 0x5a * (kind > 2));
            if (i < elen)
                ine[i] = v;
        }
        if (kind >= 5) {
            pack_poly(&a, &rs, 0, -(int32_t)eta, (int32_t)eta);
            vg_cpu_force(0);
            vg_mldsa_polyeta_pack(g_ref, ine, &a, eta);
            vg_cpu_force(mask);
            if (kind % 2) {
                /* Field j (bits b j ..) out of range: 2 eta + 1 (the
                 * smallest), 2^b - 1 (the largest) or between. */
                unsigned bits = eta == 2 ? 3 : 4, j = (unsigned)(vgtest_rand64(&rs) % VG_MLDSA_N);
                unsigned hi = (1u << bits) - 1, lo = 2 * eta + 1;
                unsigned f = kind == 5 ? lo : kind == 7 ? hi : (unsigned)rand_range(&rs, lo, hi);
                for (unsigned t = 0; t < bits; t++) {
                    uint8_t bit = (uint8_t)(1u << ((bits * j + t) % 8));
                    ine[(bits * j + t) / 8] = (uint8_t)((ine[(bits * j + t) / 8] & ~bit) |
                                                        ((f >> t) & 1 ? bit : 0));
                }
            }
        }
        vg_cpu_force(0);
        vg_mldsa_polyt1_unpack(g_ref, &a, in1);
        vg_cpu_force(mask);
        memset(&b, 0x55, sizeof b);
        be->t1_unpack(&b, in1);
        bad_t1u += memcmp(&a, &b, sizeof a) != 0;
        vg_cpu_force(0);
        vg_mldsa_polyt0_unpack(g_ref, &a, in0);
        vg_cpu_force(mask);
        memset(&b, 0x55, sizeof b);
        be->t0_unpack(&b, in0);
        bad_t0u += memcmp(&a, &b, sizeof a) != 0;
        vg_cpu_force(0);
        unsigned v1 = vg_mldsa_polyeta_unpack(g_ref, &a, ine, eta);
        vg_cpu_force(mask);
        memset(&b, 0x55, sizeof b);
        unsigned v2 = be->eta_unpack(&b, ine, eta);
        bad_etau += v1 != v2 || memcmp(&a, &b, sizeof a) != 0;
        verdicts[v1 & 1]++;
        free(in1);
        free(in0);
        free(ine);
    }
    CHECK_MSG(bad_t1 + bad_t1u + bad_t0 + bad_t0u + bad_eta + bad_etau + bad_w1 + bad_sh == 0,
              "packing kernels %s differ from portable (of %u): t1 pack %u, unpack %u; t0 pack "
              "%u, unpack %u; eta pack %u, unpack %u; w1 pack %u; shiftl %u",
              be->name, reps, bad_t1, bad_t1u, bad_t0, bad_t0u, bad_eta, bad_etau, bad_w1, bad_sh);
    CHECK_MSG(verdicts[0] > reps / 8 && verdicts[1] > reps / 8,
              "eta unpack verdict mix too one-sided: %u in range, %u not", verdicts[0],
              verdicts[1]);
}

/* The packing kernels of signing's low-stack layout (pack24, bits, z_pack)
 * against the portable routines, with guard bytes around the output. */
static void test_pack_sign(const struct vg_mldsa_backend *be, uint32_t mask, unsigned reps)
{
    uint64_t rs = 0x5eed3002;
    unsigned bad24 = 0, badb = 0, badz = 0, badzu = 0;
    static uint8_t ref[768 + 2 * PACK_GUARD], out[768 + 2 * PACK_GUARD];
    if (!be->pack24)
        return;
    for (unsigned rep = 0; rep < reps; rep++) {
        unsigned kind = rep % 10;
        int32_t gamma1 = (rep / 10) % 2 ? 1 << 19 : 1 << 17;
        vg_mldsa_poly a;
        uint8_t rb[VG_MLDSA_N / 8], ob[VG_MLDSA_N / 8];

        /* pack24: 0 <= a < 2^24 (A-hat entries: < q). */
        pack_poly(&a, &rs, kind, 0, (1 << 24) - 1);
        memset(ref, 0xa5, sizeof ref);
        memset(out, 0xa5, sizeof out);
        vg_cpu_force(0);
        vg_mldsa_poly_pack24(g_ref, ref + PACK_GUARD, &a);
        vg_cpu_force(mask);
        be->pack24(out + PACK_GUARD, &a);
        bad24 += pack_differs(ref, out, 3 * VG_MLDSA_N);

        /* bits: a in {0, 1}. */
        pack_poly(&a, &rs, kind, 0, 1);
        vg_cpu_force(0);
        vg_mldsa_poly_bits(g_ref, rb, &a);
        vg_cpu_force(mask);
        be->bits(ob, &a);
        badb += memcmp(rb, ob, sizeof rb) != 0;

        /* z: -gamma1 < z <= gamma1. */
        pack_poly(&a, &rs, kind, -gamma1 + 1, gamma1);
        memset(ref, 0xa5, sizeof ref);
        memset(out, 0xa5, sizeof out);
        vg_cpu_force(0);
        vg_mldsa_polyz_pack(g_ref, ref + PACK_GUARD, &a, gamma1);
        vg_cpu_force(mask);
        be->z_pack(out + PACK_GUARD, &a, gamma1);
        badz += pack_differs(ref, out, vg_mldsa_polyz_bytes(gamma1));

        /* z unpack: any bytes decode; the input is a heap block of exactly
         * the encoding's length, so the sanitizer build sees any read past
         * it. */
        {
            size_t zlen = vg_mldsa_polyz_bytes(gamma1);
            uint8_t *in = malloc(zlen);
            vg_mldsa_poly b;
            if (!in)
                abort();
            for (size_t i = 0; i < zlen; i++)
                in[i] = kind == 1 ? 0 : kind == 2 ? 0xff : (uint8_t)(vgtest_rand64(&rs) >> 56);
            vg_cpu_force(0);
            vg_mldsa_polyz_unpack(g_ref, &a, in, gamma1);
            vg_cpu_force(mask);
            memset(&b, 0x55, sizeof b);
            be->unpack_z(&b, in, gamma1);
            badzu += memcmp(&a, &b, sizeof a) != 0;
            free(in);
        }
    }
    CHECK_MSG(bad24 + badb + badz + badzu == 0,
              "packing kernels %s differ from portable (of %u): pack24 %u, bits %u, z pack %u, "
              "z unpack %u",
              be->name, reps, bad24, badb, badz, badzu);
}

static void test_backend(const struct vg_mldsa_backend *be, uint32_t mask)
{
    vg_cpu_force(mask);
    printf("backend %s: arithmetic and sampling vs portable\n", be->name);
    test_arith(be, 20000);
    test_rej(be, 20000);
    test_rej_eta(be, 20000);
    test_ball(be, 3000);
    test_acc24(be, 5000);
    test_rounding(be);
    test_passes(be, 20000);
    test_unpack_z(be, 4000);
    test_fused(be, mask, 20000);
    test_pack(be, mask, 20000);
    test_pack_sign(be, mask, 20000);
}

int main(int argc, char **argv)
{
    unsigned seeds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 300;
    uint32_t mask = vg_cpu_active();
    const uint32_t vl = VG_CPU_AVX512VL, vbmi2 = VG_CPU_AVX512VBMI2;
    const uint32_t wide = VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW | VG_CPU_AVX512VBMI2;
    /* Every x86-64 variant, each with the mask under which the dispatch
     * picks it (and its own _get is non-NULL) when the CPU has the
     * features; the dispatch order is this table's. */
    const struct {
        const char *name;
        const struct vg_mldsa_backend *(*get)(void);
        uint32_t mask;
    } variants[] = {
        {"avx2+avx512vbmi", vg_mldsa_avx2_avx512vbmi_get, mask},
        {"avx2+avx512", vg_mldsa_avx2_avx512_get, mask & ~vbmi2},
        {"avx2+vbmi2", vg_mldsa_avx2_vbmi2_get, mask & ~vl},
        {"avx2", vg_mldsa_avx2_get, mask & ~wide},
    };
    unsigned tested = 0;

    g_ref = vg_mldsa_portable_get();
    CHECK(g_ref != NULL && strcmp(g_ref->name, "portable") == 0);
    /* The dispatch: the first available variant in the table's order. */
    {
        const struct vg_mldsa_backend *want = g_ref;
        for (int v = 3; v >= 0; v--)
            if (variants[v].get())
                want = variants[v].get();
        CHECK(vg_mldsa_active() == want);
    }
#if defined(VG_X86_64)
    if (vg_cpu_detected() & VG_CPU_AVX2)
        CHECK_MSG((mask & VG_CPU_AVX2) == 0 || vg_mldsa_avx2_get() != NULL,
                  "AVX2 active but no backend");
#endif
    vg_cpu_force(0);
    CHECK(vg_mldsa_avx2_get() == NULL && vg_mldsa_avx2_vbmi2_get() == NULL &&
          vg_mldsa_avx2_avx512_get() == NULL && vg_mldsa_avx2_avx512vbmi_get() == NULL &&
          vg_mldsa_active() == g_ref);
    test_x4_sampler(g_ref);
    vg_cpu_force(mask);

    test_arith(g_ref, 200); /* the harness itself: portable vs portable */
    test_passes(g_ref, 200);
    test_rej_eta(g_ref, 20000);
    test_acc24(g_ref, 500);
    test_unpack_z(g_ref, 100);
    /* portable: the separate routines, the portable packing, and the c t0
     * split through small_ntt / small_mul. */
    CHECK(g_ref->verify_row == NULL && g_ref->sign_z_pass == NULL && g_ref->t1_pack == NULL &&
          g_ref->z_pack == NULL && g_ref->small_t0_ntt == NULL);
    for (unsigned v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        vg_cpu_force(variants[v].mask);
        const struct vg_mldsa_backend *be = variants[v].get();
        if (be == NULL) {
            printf("variant %s: not available in this build/CPU\n", variants[v].name);
            continue;
        }
        CHECK(strcmp(be->name, variants[v].name) == 0);
        CHECK_MSG(vg_mldsa_active() == be, "mask %#x: dispatch gives %s, not %s",
                  (unsigned)variants[v].mask, vg_mldsa_active()->name, be->name);
        test_backend(be, variants[v].mask);
        test_x4_sampler(be);
        tested++;
    }
    vg_cpu_force(mask);
    if (tested == 0)
        printf("no x86-64 variant in this build/CPU: only portable checked\n");
    test_api_identical(seeds, mask);
    return vgtest_done("test_mldsa_backend");
}
