/*
 * The shared 16-bit NTT of R_3329 = Z_3329[X]/(X^256 + 1)
 * (src/lattice/ntt3329.h), every available implementation:
 *  - against definitions computed here from scratch, with no table of the
 *    library: NTT(a)_{2i} + NTT(a)_{2i+1} X = a mod (X^2 - gamma_i), gamma_i
 *    = 17^(2 BitRev7(i) + 1) mod q (FIPS 203 section 4.3, Algorithm 9);
 *    invntt_tomont(A) = R NTT^-1(A); basemul_acc = R^-1 sum a o b with the
 *    products of Algorithm 12; reduce = the centred residue;
 *  - end to end against a schoolbook product mod (X^256 + 1, q):
 *    invntt_tomont(basemul_acc(ntt(a), ntt(b), 1)) = a b, and the same for
 *    sums of k <= 4 products;
 *  - against the portable implementation bit for bit (the contract: the
 *    portable values, order included);
 *  - on random inputs and on edge inputs at the contracts' bounds (|a| = q-1
 *    for the transforms, |a| = 4095 and |b| = q/2 + 1 for basemul_acc,
 *    every int16 for reduce), with every output bound checked.
 */
#include "vgtest.h"

#include "common/common.h"
#include "lattice/ntt3329.h"

#define Q VG_LATTICE_Q3329
#define N VG_LATTICE_N

static int32_t mod_q(int64_t x)
{
    int64_t r = x % Q;
    return (int32_t)(r < 0 ? r + Q : r);
}

static int32_t pow_mod(int32_t b, unsigned e)
{
    int64_t r = 1, x = b;
    for (; e; e >>= 1, x = x * x % Q)
        if (e & 1)
            r = r * x % Q;
    return (int32_t)r;
}

static unsigned bitrev7(unsigned i)
{
    unsigned r = 0;
    for (unsigned b = 0; b < 7; b++)
        r |= ((i >> b) & 1u) << (6 - b);
    return r;
}

static int32_t g_gamma[N / 2]; /* gamma_i = 17^(2 BitRev7(i) + 1) mod q */
static const int32_t R_MOD_Q = 65536 % Q, RINV_MOD_Q = 169; /* 2^16 and 2^-16 mod q */

/* NTT by definition: residues of a modulo X^2 - gamma_i (canonical). */
static void ref_ntt(int32_t out[N], const int32_t a[N])
{
    for (unsigned i = 0; i < N / 2; i++) {
        int64_t e = 0, o = 0, g = 1;
        for (unsigned j = 0; j < N / 2; j++) {
            e += a[2 * j] * g % Q;
            o += a[2 * j + 1] * g % Q;
            g = g * g_gamma[i] % Q;
        }
        out[2 * i] = mod_q(e);
        out[2 * i + 1] = mod_q(o);
    }
}

/* Schoolbook a b mod (X^256 + 1, q), canonical. */
static void ref_mul(int32_t out[N], const int32_t a[N], const int32_t b[N])
{
    int64_t c[N] = {0};
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            int64_t p = (int64_t)a[i] * b[j];
            if (i + j < N)
                c[i + j] += p;
            else
                c[i + j - N] -= p;
        }
    for (unsigned i = 0; i < N; i++)
        out[i] = mod_q(c[i]);
}

static void widen(int32_t out[N], const vg_lattice_poly16 *p)
{
    for (unsigned i = 0; i < N; i++)
        out[i] = p->coeffs[i];
}

/* Canonical residues equal, and every coefficient within |x| <= bound. */
static int same_mod_q(const vg_lattice_poly16 *p, const int32_t ref[N])
{
    for (unsigned i = 0; i < N; i++)
        if (mod_q(p->coeffs[i]) != mod_q(ref[i]))
            return 0;
    return 1;
}
static int within(const vg_lattice_poly16 *p, int bound)
{
    for (unsigned i = 0; i < N; i++)
        if (p->coeffs[i] > bound || p->coeffs[i] < -bound)
            return 0;
    return 1;
}

static void rand_poly(vg_lattice_poly16 *p, uint64_t *rs, int bound) /* |x| <= bound */
{
    for (unsigned i = 0; i < N; i++)
        p->coeffs[i] = (int16_t)(-bound + (int)(vgtest_rand64(rs) % (uint64_t)(2 * bound + 1)));
}

/* Edge inputs for rep % 8 == 0..2 (the extremes +-bound in three patterns),
 * random ones otherwise. */
static void input_poly(vg_lattice_poly16 *p, uint64_t *rs, int bound, unsigned rep)
{
    switch (rep % 8) {
    case 0:
        for (unsigned i = 0; i < N; i++)
            p->coeffs[i] = (int16_t)bound;
        break;
    case 1:
        for (unsigned i = 0; i < N; i++)
            p->coeffs[i] = (int16_t)-bound;
        break;
    case 2:
        for (unsigned i = 0; i < N; i++)
            p->coeffs[i] = (int16_t)((vgtest_rand64(rs) & 1) ? bound : -bound);
        break;
    default:
        rand_poly(p, rs, bound);
    }
}

/* Each routine against its definition, with its output bound. */
static void test_definitions(const struct vg_lattice_ntt3329 *impl, unsigned reps)
{
    uint64_t rs = 0x1a771ce0001ull;
    unsigned bad_ntt = 0, bad_inv = 0, bad_mul = 0, bad_bound = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        vg_lattice_poly16 a, x[4], y[4], r;
        int32_t wa[N], ref[N];

        /* ntt: Pre |a| < q; Post |a| <= q/2, the residues of Algorithm 9. */
        input_poly(&a, &rs, Q - 1, rep);
        widen(wa, &a);
        ref_ntt(ref, wa);
        impl->ntt(&a);
        bad_ntt += !same_mod_q(&a, ref);
        bad_bound += !within(&a, Q / 2);

        /* invntt_tomont: Pre |A| < q; Post |a| < q and NTT(a) = R A. */
        input_poly(&a, &rs, Q - 1, rep + 3);
        widen(wa, &a);
        impl->invntt_tomont(&a);
        bad_bound += !within(&a, Q - 1);
        {
            int32_t back[N], ra[N];
            widen(back, &a);
            ref_ntt(ra, back);
            for (unsigned i = 0; i < N; i++)
                ref[i] = (int32_t)((int64_t)mod_q(wa[i]) * R_MOD_Q % Q);
            int ok = 1;
            for (unsigned i = 0; i < N; i++)
                ok &= ra[i] == ref[i];
            bad_inv += !ok;
        }

        /* basemul_acc: Pre 1 <= k <= 4, |a| < 4096, |b| <= q/2 + 1;
         * Post |r| <= q/2, r = R^-1 sum a o b (Algorithm 12 per pair). */
        unsigned k = 1 + rep % 4;
        int64_t acc[N] = {0};
        for (unsigned v = 0; v < k; v++) {
            input_poly(&x[v], &rs, 4095, rep + v);
            input_poly(&y[v], &rs, Q / 2 + 1, rep + 2 * v + 1);
            for (unsigned i = 0; i < N / 2; i++) {
                int64_t a0 = x[v].coeffs[2 * i], a1 = x[v].coeffs[2 * i + 1];
                int64_t b0 = y[v].coeffs[2 * i], b1 = y[v].coeffs[2 * i + 1];
                acc[2 * i] += a0 * b0 % Q + mod_q(a1 * b1) * (int64_t)g_gamma[i] % Q;
                acc[2 * i + 1] += a0 * b1 + a1 * b0;
            }
        }
        for (unsigned i = 0; i < N; i++)
            ref[i] = (int32_t)((int64_t)mod_q(acc[i]) * RINV_MOD_Q % Q);
        memset(&r, 0x55, sizeof r);
        impl->basemul_acc(&r, x, y, k);
        bad_mul += !same_mod_q(&r, ref);
        bad_bound += !within(&r, Q / 2);
    }
    CHECK_MSG(bad_ntt == 0, "%s ntt: %u of %u wrong", impl->name, bad_ntt, reps);
    CHECK_MSG(bad_inv == 0, "%s invntt_tomont: %u of %u wrong", impl->name, bad_inv, reps);
    CHECK_MSG(bad_mul == 0, "%s basemul_acc: %u of %u wrong", impl->name, bad_mul, reps);
    CHECK_MSG(bad_bound == 0, "%s: %u outputs out of bounds", impl->name, bad_bound);
}

/* reduce on every int16 value: the centred residue, |r| <= q/2. */
static void test_reduce(const struct vg_lattice_ntt3329 *impl)
{
    unsigned bad = 0;
    for (unsigned chunk = 0; chunk < 65536 / N; chunk++) {
        vg_lattice_poly16 p;
        for (unsigned i = 0; i < N; i++)
            p.coeffs[i] = (int16_t)((int32_t)(chunk * N + i) - 32768);
        impl->reduce(&p);
        for (unsigned i = 0; i < N; i++) {
            int32_t x = (int32_t)(chunk * N + i) - 32768;
            bad += mod_q(p.coeffs[i]) != mod_q(x) || p.coeffs[i] > Q / 2 || p.coeffs[i] < -(Q / 2);
        }
    }
    CHECK_MSG(bad == 0, "%s reduce: %u of 65536 wrong", impl->name, bad);
}

/* End to end: the product of polynomials through the transform, against
 * the schoolbook product, for sums of k = 1..4 products (the ML-KEM matrix
 * row and ML-DSA's single small product). */
static void test_schoolbook(const struct vg_lattice_ntt3329 *impl, unsigned reps)
{
    uint64_t rs = 0x1a771ce0002ull;
    unsigned bad = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        unsigned k = 1 + rep % 4;
        vg_lattice_poly16 x[4], y[4], r;
        int32_t sum[N] = {0};
        for (unsigned v = 0; v < k; v++) {
            int32_t wa[N], wb[N], prod[N];
            input_poly(&x[v], &rs, Q - 1, rep + v);
            input_poly(&y[v], &rs, Q - 1, rep + 5 * v + 2);
            widen(wa, &x[v]);
            widen(wb, &y[v]);
            ref_mul(prod, wa, wb);
            for (unsigned i = 0; i < N; i++)
                sum[i] = (sum[i] + prod[i]) % Q;
            impl->ntt(&x[v]);
            impl->ntt(&y[v]);
        }
        impl->basemul_acc(&r, x, y, k);
        impl->invntt_tomont(&r);
        bad += !same_mod_q(&r, sum) || !within(&r, Q - 1);
        impl->reduce(&r);
        bad += !same_mod_q(&r, sum) || !within(&r, Q / 2);
    }
    CHECK_MSG(bad == 0, "%s schoolbook: %u of %u products wrong", impl->name, bad, reps);
}

/* Bit for bit against the portable implementation. */
static void test_against_portable(const struct vg_lattice_ntt3329 *impl, unsigned reps)
{
    const struct vg_lattice_ntt3329 *ref = vg_lattice_ntt3329_portable_get();
    uint64_t rs = 0x1a771ce0003ull;
    unsigned bad_ntt = 0, bad_inv = 0, bad_mul = 0, bad_red = 0;
    for (unsigned rep = 0; rep < reps; rep++) {
        vg_lattice_poly16 a, b, x[4], y[4];
        input_poly(&a, &rs, Q - 1, rep);
        b = a;
        ref->ntt(&a);
        impl->ntt(&b);
        bad_ntt += memcmp(&a, &b, sizeof a) != 0;
        input_poly(&a, &rs, Q - 1, rep + 1);
        b = a;
        ref->invntt_tomont(&a);
        impl->invntt_tomont(&b);
        bad_inv += memcmp(&a, &b, sizeof a) != 0;
        unsigned k = 1 + rep % 4;
        for (unsigned v = 0; v < k; v++) {
            input_poly(&x[v], &rs, 4095, rep + v + 2);
            input_poly(&y[v], &rs, Q / 2 + 1, rep + v + 5);
        }
        ref->basemul_acc(&a, x, y, k);
        memset(&b, 0x55, sizeof b);
        impl->basemul_acc(&b, x, y, k);
        bad_mul += memcmp(&a, &b, sizeof a) != 0;
        input_poly(&a, &rs, 32767, rep + 1);
        b = a;
        ref->reduce(&a);
        impl->reduce(&b);
        bad_red += memcmp(&a, &b, sizeof a) != 0;
    }
    CHECK_MSG(bad_ntt == 0, "%s ntt: %u of %u differ from portable", impl->name, bad_ntt, reps);
    CHECK_MSG(bad_inv == 0, "%s invntt: %u of %u differ from portable", impl->name, bad_inv, reps);
    CHECK_MSG(bad_mul == 0, "%s basemul: %u of %u differ from portable", impl->name, bad_mul, reps);
    CHECK_MSG(bad_red == 0, "%s reduce: %u of %u differ from portable", impl->name, bad_red, reps);
}

static void test_impl(const struct vg_lattice_ntt3329 *impl)
{
    CHECK(impl->name && impl->ntt && impl->invntt_tomont && impl->basemul_acc && impl->reduce);
    test_definitions(impl, 400);
    test_reduce(impl);
    test_schoolbook(impl, 40);
    test_against_portable(impl, 20000);
    printf("test_lattice: %s checked\n", impl->name);
}

int main(void)
{
    for (unsigned i = 0; i < N / 2; i++)
        g_gamma[i] = pow_mod(17, 2 * bitrev7(i) + 1);
    CHECK(RINV_MOD_Q * R_MOD_Q % Q == 1);

    const struct vg_lattice_ntt3329 *portable = vg_lattice_ntt3329_portable_get();
    CHECK(portable != NULL && strcmp(portable->name, "portable") == 0);
    test_impl(portable);

    uint32_t mask = vg_cpu_active();
    const struct vg_lattice_ntt3329 *avx2 = vg_lattice_ntt3329_avx2_get();
#if defined(__x86_64__) && !defined(VG_PORTABLE)
    CHECK((avx2 != NULL) == vg_cpu_has(VG_CPU_AVX2));
#else
    CHECK(avx2 == NULL);
#endif
    if (avx2) {
        CHECK(strcmp(avx2->name, "avx2") == 0);
        test_impl(avx2);
    } else {
        printf("test_lattice: AVX2 implementation not available here\n");
    }
    vg_cpu_force(0);
    CHECK(vg_lattice_ntt3329_avx2_get() == NULL);
    vg_cpu_force(mask);
    return vgtest_done("test_lattice");
}
