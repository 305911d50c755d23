/*
 * ML-KEM backends (src/mlkem/poly.h interface) against the portable one:
 *  - every routine of every available backend on random inputs within the
 *    preconditions stated in poly.h, plus edge values (every coefficient
 *    -(q-1)..q-1 for compression, tomsg and tobytes; all-zero, all-one and
 *    0x55 bytes for the decoders and CBD; int16 extremes for reduce/tomont), with a
 *    canary after each encoder's output: outputs must be bit-identical to
 *    the portable routine's (the AVX2 backend keeps the portable coefficient
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
#include "mlkem/mlkem.h"
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

/* Coefficient sweep: poly number `chunk` of the values lo, lo + 1, ..., hi
 * (wrapping back to lo), so that sweep_polys(lo, hi) polys cover them all. */
static void sweep_poly(vg_mlkem_poly *p, int lo, int hi, unsigned chunk)
{
    for (int i = 0; i < VG_MLKEM_N; i++)
        p->coeffs[i] = (int16_t)(lo + (int)((chunk * VG_MLKEM_N + (unsigned)i) % (unsigned)(hi - lo + 1)));
}
static unsigned sweep_polys(int lo, int hi) { return (unsigned)(hi - lo + VG_MLKEM_N) / VG_MLKEM_N; }

/* Bytes written beyond the contract's length: a canary of 0xa5 must stay. */
static int canary_hit(const uint8_t *buf, size_t from, size_t to)
{
    int hit = 0;
    for (size_t i = from; i < to; i++)
        hit |= buf[i] != 0xa5;
    return hit;
}

/* The coefficientwise helpers and encodings (poly.h contracts), each against
 * the portable routine: random in-bound inputs plus edge values. */
static void test_encodings(const struct vg_mlkem_backend *be, unsigned reps)
{
    static const unsigned ds[4] = {4, 5, 10, 11};
    uint64_t rs = 0x5eed0005;
    unsigned bad_add = 0, bad_sub = 0, bad_red = 0, bad_mont = 0, bad_tar = 0, bad_tob = 0, bad_fromb = 0;
    unsigned bad_fmsg = 0, bad_tmsg = 0, bad_comp[4] = {0}, bad_decomp[4] = {0}, bad_cbd = 0;
    /* Inputs: random reps, then edge cases. */
    for (unsigned rep = 0; rep < reps + 3; rep++) {
        vg_mlkem_poly a, b, r1, r2;
        uint8_t in[384], o1[384 + 32], o2[384 + 32];
        int edge = rep >= reps ? (int)(rep - reps) : -1; /* 0: zeros, 1: ones/max, 2: min */
        /* add/sub: Pre |a +- b| < 2^15: |a|, |b| < 2^14. */
        rand_poly(&a, &rs, (1 << 14) - 1);
        rand_poly(&b, &rs, (1 << 14) - 1);
        if (edge >= 0)
            for (int i = 0; i < VG_MLKEM_N; i++) {
                a.coeffs[i] = (int16_t)(edge == 0 ? 0 : edge == 1 ? 16383 : -16383);
                b.coeffs[i] = (int16_t)(edge == 0 ? 0 : edge == 1 ? 16383 : 16383);
            }
        g_ref->poly_add(&r1, &a, &b);
        be->poly_add(&r2, &a, &b);
        bad_add += memcmp(&r1, &r2, sizeof r1) != 0;
        g_ref->poly_sub(&r1, &a, &b);
        be->poly_sub(&r2, &a, &b);
        bad_sub += memcmp(&r1, &r2, sizeof r1) != 0;
        /* reduce, tomont: any int16, including -2^15 and 2^15 - 1. */
        for (int i = 0; i < VG_MLKEM_N; i++)
            a.coeffs[i] = (int16_t)(uint16_t)vgtest_rand64(&rs);
        if (edge >= 0)
            for (int i = 0; i < VG_MLKEM_N; i++)
                a.coeffs[i] = (int16_t)(edge == 0 ? 0 : edge == 1 ? 32767 : -32768);
        r1 = a;
        r2 = a;
        g_ref->poly_reduce(&r1);
        be->poly_reduce(&r2);
        bad_red += memcmp(&r1, &r2, sizeof r1) != 0;
        r1 = a;
        r2 = a;
        g_ref->poly_tomont(&r1);
        be->poly_tomont(&r2);
        bad_mont += memcmp(&r1, &r2, sizeof r1) != 0;
        /* tomont_add_reduce: r any int16 (a), |e| <= 2^15 - q; it must
         * equal tomont, add, reduce in sequence (checked on the reference
         * too, so the fused contract itself is tested). */
        rand_poly(&b, &rs, 32768 - VG_MLKEM_Q);
        if (edge >= 0)
            for (int i = 0; i < VG_MLKEM_N; i++)
                b.coeffs[i] = (int16_t)(edge == 0   ? 0
                                        : edge == 1 ? 32768 - VG_MLKEM_Q
                                                    : -(32768 - VG_MLKEM_Q));
        r1 = a;
        g_ref->poly_tomont(&r1);
        g_ref->poly_add(&r1, &r1, &b);
        g_ref->poly_reduce(&r1);
        r2 = a;
        be->tomont_add_reduce(&r2, &b);
        bad_tar += memcmp(&r1, &r2, sizeof r1) != 0;
        r2 = a;
        g_ref->tomont_add_reduce(&r2, &b);
        bad_tar += memcmp(&r1, &r2, sizeof r1) != 0;
        /* tobytes, tomsg, compress: Pre |a| < q. */
        rand_poly(&a, &rs, VG_MLKEM_Q - 1);
        if (edge >= 0)
            for (int i = 0; i < VG_MLKEM_N; i++)
                a.coeffs[i] = (int16_t)(edge == 0 ? 0 : edge == 1 ? VG_MLKEM_Q - 1 : -(VG_MLKEM_Q - 1));
        memset(o1, 0xa5, sizeof o1);
        memset(o2, 0xa5, sizeof o2);
        g_ref->tobytes(o1, &a);
        be->tobytes(o2, &a);
        bad_tob += memcmp(o1, o2, sizeof o1) != 0 || canary_hit(o2, 384, sizeof o2);
        g_ref->tomsg(o1, &a);
        be->tomsg(o2, &a);
        bad_tmsg += memcmp(o1, o2, 32) != 0;
        for (unsigned k = 0; k < 4; k++) {
            memset(o1, 0xa5, sizeof o1);
            memset(o2, 0xa5, sizeof o2);
            g_ref->compress(o1, &a, ds[k]);
            be->compress(o2, &a, ds[k]);
            bad_comp[k] += memcmp(o1, o2, sizeof o1) != 0 || canary_hit(o2, 32 * ds[k], sizeof o2);
        }
        /* frombytes, frommsg, decompress: any bytes; edges all 0x00, all 0xff, 0x55. */
        vgtest_randbytes(&rs, in, sizeof in);
        if (edge >= 0)
            memset(in, edge == 0 ? 0x00 : edge == 1 ? 0xff : 0x55, sizeof in);
        g_ref->frombytes(&r1, in);
        be->frombytes(&r2, in);
        bad_fromb += memcmp(&r1, &r2, sizeof r1) != 0;
        g_ref->frommsg(&r1, in);
        be->frommsg(&r2, in);
        bad_fmsg += memcmp(&r1, &r2, sizeof r1) != 0;
        for (unsigned k = 0; k < 4; k++) {
            g_ref->decompress(&r1, in, ds[k]);
            memset(&r2, 0x55, sizeof r2);
            be->decompress(&r2, in, ds[k]);
            bad_decomp[k] += memcmp(&r1, &r2, sizeof r1) != 0;
        }
        /* cbd: any 64 eta bytes. */
        for (unsigned eta = 2; eta <= 3; eta++) {
            g_ref->cbd(&r1, in, eta);
            memset(&r2, 0x55, sizeof r2);
            be->cbd(&r2, in, eta);
            bad_cbd += memcmp(&r1, &r2, sizeof r1) != 0;
        }
        /* Exact-size heap buffers, for valgrind and ASan to see any access
         * past the contract's length (first and last reps only: cost). */
        if (rep < 4 || rep >= reps) {
            uint8_t *h = malloc(384);
            CHECK(h != NULL);
            memcpy(h, in, 384);
            be->frombytes(&r2, h);
            be->tobytes(h, &r2);
            free(h);
            for (unsigned k = 0; k < 4; k++) {
                h = malloc(32 * ds[k]);
                CHECK(h != NULL);
                memcpy(h, in, 32 * ds[k]);
                be->decompress(&r2, h, ds[k]);
                be->compress(h, &r2, ds[k]);
                /* Compress_d(Decompress_d(y)) = y for d < 12 (FIPS 203 4.2.1). */
                bad_decomp[k] += memcmp(h, in, 32 * ds[k]) != 0;
                free(h);
            }
            for (unsigned eta = 2; eta <= 3; eta++) {
                h = malloc(64 * eta);
                CHECK(h != NULL);
                memcpy(h, in, 64 * eta);
                be->cbd(&r2, h, eta);
                g_ref->cbd(&r1, h, eta);
                bad_cbd += memcmp(&r1, &r2, sizeof r1) != 0;
                free(h);
            }
            h = malloc(32);
            CHECK(h != NULL);
            memcpy(h, in, 32);
            be->frommsg(&r2, h);
            be->tomsg(h, &r2);
            bad_fmsg += memcmp(h, in, 32) != 0; /* the same for d = 1 */
            free(h);
        }
    }
    /* Every coefficient value -(q-1)..q-1 through tomsg, tobytes and compress. */
    for (unsigned c = 0; c < sweep_polys(-(VG_MLKEM_Q - 1), VG_MLKEM_Q - 1); c++) {
        vg_mlkem_poly a;
        uint8_t o1[384], o2[384];
        sweep_poly(&a, -(VG_MLKEM_Q - 1), VG_MLKEM_Q - 1, c);
        g_ref->tomsg(o1, &a);
        be->tomsg(o2, &a);
        bad_tmsg += memcmp(o1, o2, 32) != 0;
        g_ref->tobytes(o1, &a);
        be->tobytes(o2, &a);
        bad_tob += memcmp(o1, o2, 384) != 0;
        for (unsigned k = 0; k < 4; k++) {
            g_ref->compress(o1, &a, ds[k]);
            be->compress(o2, &a, ds[k]);
            bad_comp[k] += memcmp(o1, o2, 32 * ds[k]) != 0;
        }
    }
    CHECK_MSG(bad_add == 0, "%s poly_add: %u differ", be->name, bad_add);
    CHECK_MSG(bad_sub == 0, "%s poly_sub: %u differ", be->name, bad_sub);
    CHECK_MSG(bad_red == 0, "%s poly_reduce: %u differ", be->name, bad_red);
    CHECK_MSG(bad_mont == 0, "%s poly_tomont: %u differ", be->name, bad_mont);
    CHECK_MSG(bad_tar == 0, "%s tomont_add_reduce: %u differ", be->name, bad_tar);
    CHECK_MSG(bad_tob == 0, "%s tobytes: %u differ", be->name, bad_tob);
    CHECK_MSG(bad_fromb == 0, "%s frombytes: %u differ", be->name, bad_fromb);
    CHECK_MSG(bad_fmsg == 0, "%s frommsg: %u differ", be->name, bad_fmsg);
    CHECK_MSG(bad_tmsg == 0, "%s tomsg: %u differ", be->name, bad_tmsg);
    CHECK_MSG(bad_cbd == 0, "%s cbd: %u differ", be->name, bad_cbd);
    for (unsigned k = 0; k < 4; k++) {
        CHECK_MSG(bad_comp[k] == 0, "%s compress d=%u: %u differ", be->name, ds[k], bad_comp[k]);
        CHECK_MSG(bad_decomp[k] == 0, "%s decompress d=%u: %u differ", be->name, ds[k],
                  bad_decomp[k]);
    }
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

/* The four-way samplers against the single ones (FIPS 203 Algorithms 7, 8),
 * on backend be, and against the portable backend's single samplers. */
static void test_x4_samplers(const struct vg_mlkem_backend *be)
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
        vg_mlkem_poly_uniform_x4(be, r, seed, (const uint8_t(*)[2])ji);
        for (unsigned l = 0; l < 4; l++) {
            vg_mlkem_poly_uniform(g_ref, &b, seed, ji[l][0], ji[l][1]);
            bad_u += memcmp(&a[l], &b, sizeof b) != 0;
        }
        unsigned eta = 2 + rep % 2, n = 1 + rep % 16;
        vg_mlkem_poly_getnoise_many(be, r, nonce, n, seed, eta);
        for (unsigned l = 0; l < n; l++) {
            vg_mlkem_poly_getnoise(g_ref, &b, seed, nonce[l], eta);
            bad_n += memcmp(&a[l], &b, sizeof b) != 0;
        }
    }
    CHECK_MSG(bad_u == 0, "%s uniform_x4: %u differ", be->name, bad_u);
    CHECK_MSG(bad_n == 0, "%s getnoise_many: %u differ", be->name, bad_n);
}

/* Every routine of one variant against the portable backend. */
static void test_variant(const struct vg_mlkem_backend *be)
{
    test_arith(be, 20000);
    test_rej(be, 100000);
    test_encodings(be, 20000);
    test_x4_samplers(be);
}

int main(int argc, char **argv)
{
    unsigned seeds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 10000;
    uint32_t mask = vg_cpu_active();
    g_ref = vg_mlkem_portable_get();
    const struct vg_mlkem_backend *avx2 = vg_mlkem_avx2_get();
    const struct vg_mlkem_backend *avx512 = vg_mlkem_avx2_avx512_get();
    const struct vg_mlkem_backend *active = vg_mlkem_active();
    /* The dispatch: the first available of avx2+avx512, avx2, portable, and
     * the name reported is that of the backend that runs. */
    CHECK(active == (avx512 ? avx512 : avx2 ? avx2 : g_ref));
    CHECK(strcmp(vg_mlkem_implementation(), active->name) == 0);
    CHECK(strcmp(vg_implementation("mlkem"), active->name) == 0);
    CHECK(strcmp(g_ref->name, "portable") == 0);
#if defined(__x86_64__) && !defined(VG_PORTABLE)
    /* Built with the x86-64 backends: each available exactly when its
     * features are active. */
    CHECK((avx2 != NULL) == vg_cpu_has(VG_CPU_AVX2));
    CHECK((avx512 != NULL) ==
          vg_cpu_has(VG_CPU_AVX2 | VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW));
    CHECK(!avx2 || strcmp(avx2->name, "avx2") == 0);
    CHECK(!avx512 || strcmp(avx512->name, "avx2+avx512") == 0);
#else
    CHECK(avx2 == NULL && avx512 == NULL);
#endif
    vg_cpu_force(0);
    CHECK(vg_mlkem_avx2_get() == NULL && vg_mlkem_avx2_avx512_get() == NULL &&
          vg_mlkem_active() == g_ref && strcmp(vg_mlkem_implementation(), "portable") == 0 &&
          strcmp(vg_implementation("mlkem"), "portable") == 0);
    vg_cpu_force(mask);

    /* The reference against itself: the harness runs. */
    test_arith(g_ref, 100);
    test_rej(g_ref, 100);
    test_encodings(g_ref, 100);
    test_x4_samplers(g_ref);
    if (avx2)
        test_variant(avx2);
    if (avx512)
        test_variant(avx512);
    if (!avx2 && !avx512)
        printf("test_mlkem_backend: no x86-64 backend here; API check is portable vs portable\n");
    vg_cpu_force(0);
    test_x4_samplers(g_ref);
    vg_cpu_force(mask);
    /* The public API under the default dispatch against portable, and, when
     * the default is avx2+avx512, once more with AVX-512 masked off (the
     * avx2 variant). */
    test_api_identical(seeds, mask);
    if (avx512 && avx2) {
        uint32_t no512 = mask & ~(uint32_t)VG_CPU_AVX512BW;
        vg_cpu_force(no512);
        CHECK(vg_mlkem_active() == avx2);
        vg_cpu_force(mask);
        test_api_identical(seeds / 4 + 1, no512);
    }
    return vgtest_done("test_mlkem_backend");
}
