/*
 * P-256 / P-384 field and scalar arithmetic against GMP: the constants of
 * src/nist/params.h recomputed from p, n and b as FIPS 186-5 gives them;
 * the Montgomery kernels mul, sqr, add, sub, neg (mod p256, p384, n256,
 * n384) on edge values (0, 1, 2, m - 1, m - 2, R mod m and R^2 mod m and
 * their neighbours, 2^(64 j) - 1 and m minus it, 2^k, m - 2^k) and random
 * values, for the 64-bit path (unsigned __int128, or clang's carry builtins
 * under clang) and the 32-bit-multiply path (nist_fe_twin.c); the field
 * inversion of every backend variant and the scalar inversion, against
 * mpz_invert.
 */
#include <gmp.h>

#include "vgtest.h"

#define NIST_OPS_FN nist_ops_int128
#include "nist_fe_ops.h"
#include "nist/nist.h"
#include "nist/nist_ecc.h"
#include "nist/params.h"

void nist_ops_noint128(struct nist_ops out[4]);

static void sc256_divsteps(uint8_t *out, const uint8_t *in)
{
    (void)vg_nist_p256_test_sc_inv_divsteps(out, in);
}
static void sc384_divsteps(uint8_t *out, const uint8_t *in)
{
    (void)vg_nist_p384_test_sc_inv_divsteps(out, in);
}

static const char *P256_P = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
static const char *P256_N = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
static const char *P256_B = "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b";
static const char *P384_P = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff";
static const char *P384_N = "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973";
static const char *P384_B = "b3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef";

static void to_mpz(mpz_t r, const uint64_t *a, size_t nl)
{
    mpz_import(r, nl, -1, sizeof(uint64_t), 0, 0, a);
}

static void from_mpz(uint64_t *a, const mpz_t v, size_t nl)
{
    size_t cnt = 0;
    memset(a, 0, nl * 8);
    mpz_export(a, &cnt, -1, sizeof(uint64_t), 0, 0, v);
}

static int eq_mpz(const uint64_t *a, const mpz_t v, size_t nl)
{
    mpz_t t;
    mpz_init(t);
    to_mpz(t, a, nl);
    int r = mpz_cmp(t, v) == 0;
    mpz_clear(t);
    return r;
}

static void check_const(const char *what, const uint64_t *a, const mpz_t v, size_t nl)
{
    CHECK_MSG(eq_mpz(a, v, nl), "%s", what);
}

static void check_params(void)
{
    mpz_t p, n, b, R, t, e;
    mpz_inits(p, n, b, R, t, e, NULL);
    for (int c = 0; c < 2; c++) {
        size_t nl = c ? 6 : 4;
        mpz_set_str(p, c ? P384_P : P256_P, 16);
        mpz_set_str(n, c ? P384_N : P256_N, 16);
        mpz_set_str(b, c ? P384_B : P256_B, 16);
        /* The primes as the standard writes them. */
        mpz_set_ui(t, 0);
        if (c == 0) {
            mpz_setbit(t, 256);
            mpz_set_ui(e, 0), mpz_setbit(e, 224), mpz_sub(t, t, e);
            mpz_set_ui(e, 0), mpz_setbit(e, 192), mpz_add(t, t, e);
            mpz_set_ui(e, 0), mpz_setbit(e, 96), mpz_add(t, t, e);
            mpz_sub_ui(t, t, 1);
        } else {
            mpz_setbit(t, 384);
            mpz_set_ui(e, 0), mpz_setbit(e, 128), mpz_sub(t, t, e);
            mpz_set_ui(e, 0), mpz_setbit(e, 96), mpz_sub(t, t, e);
            mpz_set_ui(e, 0), mpz_setbit(e, 32), mpz_add(t, t, e);
            mpz_sub_ui(t, t, 1);
        }
        CHECK(mpz_cmp(t, p) == 0);
        CHECK(mpz_probab_prime_p(p, 30) > 0);
        CHECK(mpz_probab_prime_p(n, 30) > 0);
        CHECK(mpz_fdiv_ui(p, 4) == 3); /* the square root exponent needs it */
        mpz_set_ui(R, 0);
        mpz_setbit(R, (mp_bitcnt_t)(64 * nl));
        check_const("p", c ? vg_p384_p : vg_p256_p, p, nl);
        check_const("n", c ? vg_p384_n : vg_p256_n, n, nl);
        mpz_mul(t, b, R), mpz_mod(t, t, p);
        check_const("b_mont", c ? vg_p384_b_mont : vg_p256_b_mont, t, nl);
        mpz_mod(t, R, p);
        check_const("one_mont", c ? vg_p384_one_mont : vg_p256_one_mont, t, nl);
        mpz_mul(t, R, R), mpz_mod(t, t, p);
        check_const("r2_p", c ? vg_p384_r2_p : vg_p256_r2_p, t, nl);
        mpz_sub_ui(t, p, 2);
        check_const("p_minus_2", c ? vg_p384_p_minus_2 : vg_p256_p_minus_2, t, nl);
        mpz_add_ui(t, p, 1), mpz_fdiv_q_2exp(t, t, 2);
        check_const("p_sqrt_exp", c ? vg_p384_p_sqrt_exp : vg_p256_p_sqrt_exp, t, nl);
        mpz_mod(t, R, n);
        check_const("n_one_mont", c ? vg_p384_n_one_mont : vg_p256_n_one_mont, t, nl);
        mpz_mul(t, R, R), mpz_mod(t, t, n);
        check_const("r2_n", c ? vg_p384_r2_n : vg_p256_r2_n, t, nl);
        mpz_sub_ui(t, n, 2);
        check_const("n_minus_2", c ? vg_p384_n_minus_2 : vg_p256_n_minus_2, t, nl);
        /* the divsteps factors R^(B + 3) 2^(-62 B), B = 13 / 19 batches */
        {
            unsigned long B = c ? 19 : 13;
            mpz_t k, two;
            mpz_inits(k, two, NULL);
            for (int w = 0; w < 2; w++) {
                const mpz_t *m = w ? &n : &p;
                mpz_powm_ui(k, R, B + 3, *m);
                mpz_set_ui(two, 2);
                mpz_powm_ui(two, two, 62 * B, *m);
                mpz_invert(two, two, *m);
                mpz_mul(k, k, two);
                mpz_mod(k, k, *m);
                const uint64_t *have = c ? (w ? vg_p384_divsteps_k_n : vg_p384_divsteps_k_p)
                                         : (w ? vg_p256_divsteps_k_n : vg_p256_divsteps_k_p);
                check_const("divsteps_k", have, k, nl);
            }
            mpz_clears(k, two, NULL);
        }
        /* -n^-1 mod 2^64 */
        mpz_set_ui(e, 0), mpz_setbit(e, 64);
        mpz_invert(t, n, e), mpz_sub(t, e, t);
        CHECK(mpz_get_ui(t) == (c ? VG_P384_N0INV : VG_P256_N0INV));
    }
    mpz_clears(p, n, b, R, t, e, NULL);
}

/* Edge and random operands below m. */
static size_t make_operands(mpz_t *v, size_t cap, const mpz_t m, size_t nl, uint64_t *seed)
{
    size_t k = 0;
    size_t bits = 64 * nl;
    mpz_set_ui(v[k++], 0);
    mpz_set_ui(v[k++], 1);
    mpz_set_ui(v[k++], 2);
    mpz_sub_ui(v[k++], m, 1);
    mpz_sub_ui(v[k++], m, 2);
    /* R mod m (Montgomery 1), R^2 mod m and their neighbours: products with
     * them land on the edges of the kernels' final subtraction (the result
     * before it in [0, 2 m), see fe256_reduce_once). */
    mpz_set_ui(v[k], 0), mpz_setbit(v[k], (mp_bitcnt_t)bits), mpz_mod(v[k], v[k], m);
    mpz_add_ui(v[k + 1], v[k], 1), mpz_mod(v[k + 1], v[k + 1], m);
    mpz_sub_ui(v[k + 2], v[k], 1);
    mpz_mul(v[k + 3], v[k], v[k]), mpz_mod(v[k + 3], v[k + 3], m);
    mpz_sub(v[k + 4], m, v[k]);
    k += 5;
    /* Limb-aligned runs: 2^(64 j) - 1 and m - (2^(64 j) - 1), j < nl (the
     * carry and borrow chains run through every limb). */
    for (size_t j = 1; j < nl; j++) {
        mpz_set_ui(v[k], 0), mpz_setbit(v[k], (mp_bitcnt_t)(64 * j)), mpz_sub_ui(v[k], v[k], 1);
        mpz_sub(v[k + 1], m, v[k]);
        k += 2;
    }
    for (size_t e = 1; e < bits && k + 2 < cap; e += 7) {
        mpz_set_ui(v[k], 0);
        mpz_setbit(v[k], (mp_bitcnt_t)e);
        if (mpz_cmp(v[k], m) < 0)
            k++;
        mpz_set_ui(v[k], 0);
        mpz_setbit(v[k], (mp_bitcnt_t)e);
        mpz_sub(v[k], m, v[k]);
        if (mpz_sgn(v[k]) > 0)
            k++;
    }
    while (k < cap) {
        uint64_t a[6];
        for (size_t i = 0; i < nl; i++)
            a[i] = vgtest_rand64(seed);
        /* Some with long runs of ones or zeros (carry chains). */
        if (k % 5 == 0)
            a[k % nl] = ~0ull;
        if (k % 7 == 0)
            a[(k + 1) % nl] = 0;
        to_mpz(v[k], a, nl);
        mpz_mod(v[k], v[k], m);
        k++;
    }
    return k;
}

static void check_ops(const struct nist_ops *o, const char *m_hex, const char *path)
{
    enum { NV = 160 };
    mpz_t v[NV], m, R, Ri, want, t;
    uint64_t seed = 0x1234567 + o->nl;
    mpz_inits(m, R, Ri, want, t, NULL);
    for (int i = 0; i < NV; i++)
        mpz_init(v[i]);
    mpz_set_str(m, m_hex, 16);
    mpz_set_ui(R, 0);
    mpz_setbit(R, (mp_bitcnt_t)(64 * o->nl));
    mpz_invert(Ri, R, m);
    size_t nv = make_operands(v, NV, m, o->nl, &seed);
    unsigned long bad = 0;
    for (size_t i = 0; i < nv; i++) {
        uint64_t a[6], b[6], r[6];
        from_mpz(a, v[i], o->nl);
        /* sqr, neg */
        o->sqr(r, a);
        mpz_mul(want, v[i], v[i]), mpz_mul(want, want, Ri), mpz_mod(want, want, m);
        bad += !eq_mpz(r, want, o->nl);
        o->neg(r, a);
        mpz_neg(want, v[i]), mpz_mod(want, want, m);
        bad += !eq_mpz(r, want, o->nl);
        for (size_t j = 0; j < nv; j++) {
            from_mpz(b, v[j], o->nl);
            o->mul(r, a, b);
            mpz_mul(want, v[i], v[j]), mpz_mul(want, want, Ri), mpz_mod(want, want, m);
            bad += !eq_mpz(r, want, o->nl);
            o->add(r, a, b);
            mpz_add(want, v[i], v[j]), mpz_mod(want, want, m);
            bad += !eq_mpz(r, want, o->nl);
            o->sub(r, a, b);
            mpz_sub(want, v[i], v[j]), mpz_mod(want, want, m);
            bad += !eq_mpz(r, want, o->nl);
        }
        /* Aliasing: r = a. */
        memcpy(r, a, sizeof a);
        o->mul(r, r, r);
        mpz_mul(want, v[i], v[i]), mpz_mul(want, want, Ri), mpz_mod(want, want, m);
        bad += !eq_mpz(r, want, o->nl);
    }
    CHECK_MSG(bad == 0, "%s (%s): %lu wrong results", o->name, path, bad);
    printf("%s %s: %zu operands, %zu pairs\n", o->name, path, nv, nv * nv);
    for (int i = 0; i < NV; i++)
        mpz_clear(v[i]);
    mpz_clears(m, R, Ri, want, t, NULL);
}

static void be_from_mpz(uint8_t *out, size_t nb, const mpz_t v)
{
    size_t cnt = 0;
    uint8_t tmp[64] = {0};
    mpz_export(tmp, &cnt, 1, 1, 0, 0, v);
    memset(out, 0, nb);
    memcpy(out + nb - cnt, tmp, cnt);
}

/* Field inversion of a backend and the scalar inversion, against GMP. */
static void check_inv(const char *name, size_t nb, const char *m_hex,
                      void (*inv)(uint8_t *, const uint8_t *))
{
    enum { NV = 1000 };
    mpz_t v[NV], m, want, got;
    uint64_t seed = 99 + nb;
    mpz_inits(m, want, got, NULL);
    for (int i = 0; i < NV; i++)
        mpz_init(v[i]);
    mpz_set_str(m, m_hex, 16);
    size_t nv = make_operands(v, NV, m, nb / 8, &seed);
    unsigned long bad = 0;
    for (size_t i = 0; i < nv; i++) {
        uint8_t in[48], out[48];
        be_from_mpz(in, nb, v[i]);
        inv(out, in);
        if (mpz_sgn(v[i]) == 0)
            mpz_set_ui(want, 0);
        else
            mpz_invert(want, v[i], m);
        mpz_import(got, nb, 1, 1, 0, 0, out);
        bad += mpz_cmp(got, want) != 0;
    }
    CHECK_MSG(bad == 0, "%s: %lu wrong inverses", name, bad);
    printf("%s: %zu inversions\n", name, nv);
    for (int i = 0; i < NV; i++)
        mpz_clear(v[i]);
    mpz_clears(m, want, got, NULL);
}

int main(void)
{
    struct nist_ops a[4], b[4];
    const char *m[4] = {P256_P, P384_P, P256_N, P384_N};
    check_params();
    nist_ops_int128(a);
    nist_ops_noint128(b);
    for (int i = 0; i < 4; i++) {
#if defined(VG_MONT_ADDC)
        check_ops(&a[i], m[i], "int128, carry builtins");
#else
        check_ops(&a[i], m[i], "int128");
#endif
        check_ops(&b[i], m[i], "32-bit");
    }
    const struct vg_nist_backend *v256[2] = {vg_nist_p256_portable_get(), vg_nist_p256_adx_get()};
    const struct vg_nist_backend *v384[2] = {vg_nist_p384_portable_get(), vg_nist_p384_adx_get()};
    for (int i = 0; i < 2; i++) {
        char nm[64];
        if (v256[i]) {
            snprintf(nm, sizeof nm, "p256 field inverse (%s)", v256[i]->name);
            check_inv(nm, 32, P256_P, v256[i]->test_inv);
        }
        if (v384[i]) {
            snprintf(nm, sizeof nm, "p384 field inverse (%s)", v384[i]->name);
            check_inv(nm, 48, P384_P, v384[i]->test_inv);
        }
        if (v256[i] && v256[i]->test_inv_divsteps) {
            snprintf(nm, sizeof nm, "p256 field inverse, divsteps (%s)", v256[i]->name);
            check_inv(nm, 32, P256_P, v256[i]->test_inv_divsteps);
        }
        if (v384[i] && v384[i]->test_inv_divsteps) {
            snprintf(nm, sizeof nm, "p384 field inverse, divsteps (%s)", v384[i]->name);
            check_inv(nm, 48, P384_P, v384[i]->test_inv_divsteps);
        }
        /* The scalar inversion sign_s / verify_u use, and the Fermat chain,
         * with the variant's scalar kernels. */
        if (v256[i]) {
            snprintf(nm, sizeof nm, "p256 scalar inverse (%s)", v256[i]->name);
            check_inv(nm, 32, P256_N, v256[i]->test_sc_inv);
            snprintf(nm, sizeof nm, "p256 scalar inverse, Fermat (%s)", v256[i]->name);
            check_inv(nm, 32, P256_N, v256[i]->test_sc_inv_fermat);
        }
        if (v384[i]) {
            snprintf(nm, sizeof nm, "p384 scalar inverse (%s)", v384[i]->name);
            check_inv(nm, 48, P384_N, v384[i]->test_sc_inv);
            snprintf(nm, sizeof nm, "p384 scalar inverse, Fermat (%s)", v384[i]->name);
            check_inv(nm, 48, P384_N, v384[i]->test_sc_inv_fermat);
        }
    }
    check_inv("p256 scalar inverse", 32, P256_N, vg_nist_p256_test_sc_inv);
    check_inv("p384 scalar inverse", 48, P384_N, vg_nist_p384_test_sc_inv);
    {
        uint8_t z[48] = {0}, o[48];
        if (vg_nist_p256_test_sc_inv_divsteps(o, z))
            check_inv("p256 scalar inverse, divsteps", 32, P256_N, sc256_divsteps);
        if (vg_nist_p384_test_sc_inv_divsteps(o, z))
            check_inv("p384 scalar inverse, divsteps", 48, P384_N, sc384_divsteps);
    }
    return vgtest_done("test_nist_fe");
}
