/*
 * ML-KEM backends (src/mlkem/poly.h interface) against the portable one:
 *  - every routine of every available backend on random inputs within the
 *    preconditions stated in poly.h: outputs must be bit-identical to the
 *    portable routine's (the AVX2 backend keeps the portable coefficient
 *    order and representation, so no re-ordering is needed);
 *  - the public API end to end: keys, ciphertexts and shared secrets from
 *    the default dispatch (AVX2 backend and four-way Keccak where
 *    available) must equal those with every CPU feature disabled
 *    (vg_cpu_force(0): portable backend, portable single and four-way
 *    Keccak), on 10^4 random seeds per parameter set, including a
 *    corrupted-ciphertext decapsulation (implicit rejection) per seed.
 * Usage: test_mlkem_backend [seeds per parameter set, default 10000].
 */
#include "vgtest.h"

#include "common/common.h"
#include "mlkem/poly.h"

static const struct vg_mlkem_backend *g_ref;

static int16_t rand_range(uint64_t *rs, int lo, int hi) /* lo <= x <= hi */
{
    return (int16_t)(lo + (int)(vgtest_rand64(rs) % (uint64_t)(hi - lo + 1)));
}

static void rand_poly(vg_mlkem_poly *p, uint64_t *rs, int bound) /* |x| <= bound */
{
    for (int i = 0; i < VG_MLKEM_N; i++)
        p->coeffs[i] = rand_range(rs, -bound, bound);
}

static void test_arith(const struct vg_mlkem_backend *be, unsigned reps)
{
    uint64_t rs = 0x5eed0001;
    unsigned bad_ntt = 0, bad_inv = 0, bad_mul = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        vg_mlkem_poly a, b, c;
        /* ntt: Pre |a| < q. Extremes every few reps. */
        rand_poly(&a, &rs, VG_MLKEM_Q - 1);
        if (rep % 7 == 0)
            for (int i = 0; i < VG_MLKEM_N; i++)
                a.coeffs[i] = (int16_t)((i & 1 ? -1 : 1) * (VG_MLKEM_Q - 1));
        b = a;
        g_ref->ntt(&a);
        be->ntt(&b);
        bad_ntt += memcmp(&a, &b, sizeof a) != 0;
        /* invntt_tomont: Pre |a| < q. */
        rand_poly(&a, &rs, VG_MLKEM_Q - 1);
        if (rep % 7 == 3)
            for (int i = 0; i < VG_MLKEM_N; i++)
                a.coeffs[i] = (int16_t)((i & 2 ? -1 : 1) * (VG_MLKEM_Q - 1));
        b = a;
        g_ref->invntt_tomont(&a);
        be->invntt_tomont(&b);
        bad_inv += memcmp(&a, &b, sizeof a) != 0;
        /* basemul_acc: Pre 1 <= k <= 4, |a| < 4096, |b| <= q/2 + 1. */
        vg_mlkem_poly x[4], y[4];
        unsigned k = 1 + rep % 4;
        for (unsigned v = 0; v < k; v++) {
            rand_poly(&x[v], &rs, 4095);
            rand_poly(&y[v], &rs, VG_MLKEM_Q / 2 + 1);
            if (rep % 5 == 1)
                for (int i = 0; i < VG_MLKEM_N; i++) {
                    x[v].coeffs[i] = (int16_t)(i & 1 ? 4095 : -4095);
                    y[v].coeffs[i] = (int16_t)(i & 2 ? VG_MLKEM_Q / 2 + 1 : -(VG_MLKEM_Q / 2 + 1));
                }
        }
        g_ref->basemul_acc(&a, x, y, k);
        memset(&c, 0x55, sizeof c);
        be->basemul_acc(&c, x, y, k);
        bad_mul += memcmp(&a, &c, sizeof a) != 0;
    }
    CHECK_MSG(bad_ntt == 0, "%s ntt: %u of %u differ", be->name, bad_ntt, reps);
    CHECK_MSG(bad_inv == 0, "%s invntt: %u of %u differ", be->name, bad_inv, reps);
    CHECK_MSG(bad_mul == 0, "%s basemul_acc: %u of %u differ", be->name, bad_mul, reps);
}

/* Random buffers, some with many rejections (bytes biased to 0xff), every
 * length/buffer-size combination class, and the stores must stay within
 * r[0..len). */
static void test_rej(const struct vg_mlkem_backend *be, unsigned reps)
{
    uint64_t rs = 0x5eed0002;
    unsigned bad = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        uint8_t buf[3 * 168 + 5];
        int16_t r1[VG_MLKEM_N + 32], r2[VG_MLKEM_N + 32];
        size_t buflen = (size_t)(vgtest_rand64(&rs) % sizeof buf);
        unsigned len = 1 + (unsigned)(vgtest_rand64(&rs) % VG_MLKEM_N);
        unsigned bias = rep % 4; /* 0: uniform; else a share of 0xff bytes */
        for (size_t i = 0; i < buflen; i++) {
            uint64_t t = vgtest_rand64(&rs);
            buf[i] = (bias && (t & 3) < bias) ? 0xff : (uint8_t)(t >> 56);
        }
        memset(r1, 0x77, sizeof r1);
        memset(r2, 0x77, sizeof r2);
        unsigned n1 = g_ref->rej_uniform(r1, len, buf, buflen);
        unsigned n2 = be->rej_uniform(r2, len, buf, buflen);
        /* Same count and coefficients; entries r[n..len) are scratch (poly.h),
         * but nothing at or beyond r[len] may be written. */
        int beyond = 0;
        for (unsigned i = len; i < VG_MLKEM_N + 32; i++)
            beyond |= r2[i] != 0x7777;
        bad += n1 != n2 || memcmp(r1, r2, n1 * sizeof r1[0]) != 0 || beyond;
    }
    CHECK_MSG(bad == 0, "%s rej_uniform: %u of %u differ", be->name, bad, reps);
}

typedef int (*kp_fn)(uint8_t *, uint8_t *, const uint8_t *);
typedef int (*enc_fn)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
typedef int (*dec_fn)(uint8_t *, const uint8_t *, const uint8_t *);
static const struct {
    const char *name;
    kp_fn kp;
    enc_fn enc;
    dec_fn dec;
    size_t pk, sk, ct;
} params[3] = {
    {"ML-KEM-512", vg_mlkem512_keypair_derand, vg_mlkem512_encaps_derand, vg_mlkem512_decaps, 800,
     1632, 768},
    {"ML-KEM-768", vg_mlkem768_keypair_derand, vg_mlkem768_encaps_derand, vg_mlkem768_decaps, 1184,
     2400, 1088},
    {"ML-KEM-1024", vg_mlkem1024_keypair_derand, vg_mlkem1024_encaps_derand, vg_mlkem1024_decaps,
     1568, 3168, 1568},
};

struct outs {
    uint8_t pk[1568], sk[3168], ct[1568], ss[32], ss_dec[32], ss_rej[32];
    int rc;
};

static void run_api(int p, const uint8_t seed[64], const uint8_t m[32], size_t flip,
                    struct outs *o)
{
    memset(o, 0, sizeof *o);
    o->rc = params[p].kp(o->pk, o->sk, seed);
    o->rc |= params[p].enc(o->ct, o->ss, o->pk, m);
    o->rc |= params[p].dec(o->ss_dec, o->ct, o->sk);
    o->ct[flip % params[p].ct] ^= (uint8_t)(1u << (flip % 8));
    o->rc |= params[p].dec(o->ss_rej, o->ct, o->sk);
}

static void test_api_identical(unsigned seeds, uint32_t fast_mask)
{
    static struct outs fast, slow;
    uint64_t rs = 0x5eed0003;
    for (int p = 0; p < 3; p++) {
        unsigned bad = 0, bad_rt = 0;
        for (unsigned s = 0; s < seeds; s++) {
            uint8_t seed[64], m[32];
            vgtest_randbytes(&rs, seed, 64);
            vgtest_randbytes(&rs, m, 32);
            size_t flip = (size_t)vgtest_rand64(&rs);
            vg_cpu_force(fast_mask);
            run_api(p, seed, m, flip, &fast);
            vg_cpu_force(0);
            run_api(p, seed, m, flip, &slow);
            bad += memcmp(&fast, &slow, sizeof fast) != 0;
            bad_rt += fast.rc != 0 || memcmp(fast.ss, fast.ss_dec, 32) != 0 ||
                      memcmp(fast.ss, fast.ss_rej, 32) == 0;
        }
        vg_cpu_force(fast_mask);
        CHECK_MSG(bad == 0, "%s: %u of %u seeds differ from portable", params[p].name, bad, seeds);
        CHECK_MSG(bad_rt == 0, "%s: %u of %u round trips failed", params[p].name, bad_rt, seeds);
        printf("%s: %u seeds, %s vs portable: %u differ, %u round-trip failures\n",
               params[p].name, seeds, vg_mlkem_active()->name, bad, bad_rt);
    }
}

/* The four-way samplers against the single ones (FIPS 203 Algorithms 7, 8). */
static void test_x4_samplers(void)
{
    uint64_t rs = 0x5eed0004;
    unsigned bad_u = 0, bad_n = 0;
    for (unsigned rep = 0; rep < 200; rep++) {
        uint8_t seed[32], ji[4][2], nonce[16];
        vg_mlkem_poly a[16], b;
        vg_mlkem_poly *r[16];
        vgtest_randbytes(&rs, seed, 32);
        vgtest_randbytes(&rs, &ji[0][0], 8);
        vgtest_randbytes(&rs, nonce, 16);
        for (unsigned l = 0; l < 16; l++)
            r[l] = &a[l];
        vg_mlkem_poly_uniform_x4(r, seed, (const uint8_t(*)[2])ji);
        for (unsigned l = 0; l < 4; l++) {
            vg_mlkem_poly_uniform(&b, seed, ji[l][0], ji[l][1]);
            bad_u += memcmp(&a[l], &b, sizeof b) != 0;
        }
        unsigned eta = 2 + rep % 2, n = 1 + rep % 16;
        vg_mlkem_poly_getnoise_many(r, nonce, n, seed, eta);
        for (unsigned l = 0; l < n; l++) {
            vg_mlkem_poly_getnoise(&b, seed, nonce[l], eta);
            bad_n += memcmp(&a[l], &b, sizeof b) != 0;
        }
    }
    CHECK_MSG(bad_u == 0, "uniform_x4: %u differ", bad_u);
    CHECK_MSG(bad_n == 0, "getnoise_many: %u differ", bad_n);
}

int main(int argc, char **argv)
{
    unsigned seeds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 10000;
    uint32_t mask = vg_cpu_active();
    g_ref = vg_mlkem_portable_get();
    const struct vg_mlkem_backend *avx2 = vg_mlkem_avx2_get();
    CHECK(strcmp(vg_implementation("mlkem"), vg_mlkem_active()->name) == 0);
#if defined(__x86_64__) && !defined(VG_PORTABLE)
    /* Built with the AVX2 backend: it must be chosen exactly when AVX2 is active. */
    CHECK((avx2 != NULL) == vg_cpu_has(VG_CPU_AVX2));
    CHECK(vg_mlkem_active() == (avx2 ? avx2 : g_ref));
#else
    CHECK(avx2 == NULL);
#endif
    vg_cpu_force(0);
    CHECK(vg_mlkem_avx2_get() == NULL && vg_mlkem_active() == g_ref &&
          strcmp(vg_implementation("mlkem"), "portable") == 0);
    vg_cpu_force(mask);

    test_arith(g_ref, 100); /* the reference against itself: the harness runs */
    test_rej(g_ref, 100);
    if (avx2) {
        test_arith(avx2, 20000);
        test_rej(avx2, 100000);
    } else {
        printf("test_mlkem_backend: AVX2 backend not available here; API check is portable vs portable\n");
    }
    test_x4_samplers();
    vg_cpu_force(0);
    test_x4_samplers();
    vg_cpu_force(mask);
    test_api_identical(seeds, mask);
    return vgtest_done("test_mlkem_backend");
}
