/*
 * P-256 / P-384 constant-time check under valgrind memcheck: the secrets
 * are marked undefined, and memcheck reports any branch or memory address
 * computed from them. Run through run_valgrind.sh, so any report fails.
 *
 * Secrets: the scalar k of the backends' [k]G (fixed-base table scan) and
 * [k]P (signed window), for every variant valgrind runs (portable; adx when
 * built); through the public API with the dispatch: the secret key of
 * vg_pNNN_public_key, of vg_pNNN_ecdh (the peer key public), and the secret
 * key and rnd of vg_pNNN_sign_digest_derand (and so the RFC 6979 nonce k
 * derived from them, its inverse and the products with it). keypair draws
 * its secret inside the call (the OS's bytes are not marked); its public-key
 * step is the public_key checked here.
 *
 * What the library declassifies (VG_CT_DECLASSIFY, each with its reason in
 * src/nist/ecc.c and curve.c): the verdicts "secret key in [1, n-1]", "nonce
 * candidate in [1, n-1]", "rnd all zero" and "ECDH result is the identity /
 * all zero"; the public key; r and s of the signature. The harness
 * declassifies outputs only after a call returns, to compare them with the
 * same call on unmarked inputs.
 *
 * Usage: ct_valgrind_nist --detect | [--force MASK] [--leaky]
 *   --leaky: the control: the variable-time verification routine (wNAF,
 *   zero digits skipped) given a secret scalar; memcheck must report it
 *   (ctest expects the run to fail), which shows that the marking reaches
 *   the scalar recoding, so that the clean run means the secret paths are
 *   branch-free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "common.h"
#include "nist/nist.h"
#include "vgtest.h"
#include "ct_valgrind_main.h"

#define VG_CT_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define VG_CT_PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

#if !defined(VG_CT_TESTING)
#error "ct_valgrind_nist must link the constant-time test build of the library (vgcrypto_ct)"
#endif

struct curve {
    const char *name;
    size_t nb;
    const struct vg_nist_backend *(*portable)(void);
    const struct vg_nist_backend *(*adx)(void);
    int (*public_key)(uint8_t *, const uint8_t *);
    int (*keypair)(uint8_t *, uint8_t *);
    int (*ecdh)(uint8_t *, const uint8_t *, const uint8_t *, size_t);
    int (*sign)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *);
};

static int sign256(uint8_t *s, const uint8_t *d, size_t l, const uint8_t *k, const uint8_t *r)
{
    return vg_p256_sign_digest_derand(s, d, l, k, r);
}
static int sign384(uint8_t *s, const uint8_t *d, size_t l, const uint8_t *k, const uint8_t *r)
{
    return vg_p384_sign_digest_derand(s, d, l, k, r);
}

static const struct curve g_curves[2] = {
    {"p256", 32, vg_nist_p256_portable_get, vg_nist_p256_adx_get, vg_p256_public_key,
     vg_p256_keypair, vg_p256_ecdh, sign256},
    {"p384", 48, vg_nist_p384_portable_get, vg_nist_p384_adx_get, vg_p384_public_key,
     vg_p384_keypair, vg_p384_ecdh, sign384},
};

/* Scalars: small, large (top bits set, below n for both curves: the top
 * byte 0x7f), and patterned. */
static void scalar(uint8_t *k, size_t nb, int i)
{
    for (size_t j = 0; j < nb; j++)
        k[j] = (uint8_t)(0x11 * (unsigned)i + 37 * j + 1);
    if (i == 0) {
        memset(k, 0, nb);
        k[nb - 1] = 1;
    }
    if (i == 1) {
        memset(k, 0xff, nb);
        k[0] = 0x7f;
    }
    k[0] &= 0x7f;
}

static void run_backend(const struct curve *c, const struct vg_nist_backend *be)
{
    uint8_t k[48], ref[96], out[96], peer[96];
    scalar(k, c->nb, 5);
    be->base_mul(peer, k); /* a public peer point */
    for (int i = 0; i < 6; i++) {
        scalar(k, c->nb, i);
        be->base_mul(ref, k);
        VG_CT_SECRET(k, c->nb);
        be->base_mul(out, k);
        VG_CT_PUBLIC(out, 2 * c->nb);
        CHECK_MSG(memcmp(out, ref, 2 * c->nb) == 0, "%s %s base_mul", c->name, be->name);
        VG_CT_PUBLIC(k, c->nb);
        CHECK(be->ecdh(ref, k, peer) == VG_OK);
        VG_CT_SECRET(k, c->nb);
        int rc = be->ecdh(out, k, peer);
        VG_CT_PUBLIC(out, c->nb);
        CHECK_MSG(rc == VG_OK && memcmp(out, ref, c->nb) == 0, "%s %s ecdh", c->name, be->name);
    }
    /* Both field inversions (Fermat, which the operations use, and
     * divsteps) on secret inputs. */
    for (int i = 0; i < 6; i++) {
        scalar(k, c->nb, i);
        be->test_inv(ref, k);
        VG_CT_SECRET(k, c->nb);
        be->test_inv(out, k);
        VG_CT_PUBLIC(out, c->nb);
        CHECK(memcmp(out, ref, c->nb) == 0);
        if (be->test_inv_divsteps) {
            be->test_inv_divsteps(out, k);
            VG_CT_PUBLIC(out, c->nb);
            CHECK(memcmp(out, ref, c->nb) == 0);
        }
        VG_CT_PUBLIC(k, c->nb);
    }
    printf("  %s/%s: base_mul, ecdh, field inversion (Fermat%s) on 6 secret values each\n",
           c->name, be->name, be->test_inv_divsteps ? ", divsteps" : "");
}

static void run_api(const struct curve *c)
{
    size_t nb = c->nb;
    uint8_t sk[48], pk[97], peer_sk[48], peer[97], ref[96], out[96], rnd[48], dg[48];
    scalar(peer_sk, nb, 7);
    CHECK(c->public_key(peer, peer_sk) == VG_OK);
    for (size_t j = 0; j < sizeof dg; j++)
        dg[j] = (uint8_t)(j * 5 + 3);
    for (int i = 0; i < 4; i++) {
        scalar(sk, nb, i);
        /* public_key */
        CHECK(c->public_key(ref, sk) == VG_OK);
        VG_CT_SECRET(sk, nb);
        CHECK(c->public_key(pk, sk) == VG_OK); /* the return value: the declassified verdict */
        VG_CT_PUBLIC(pk, 1 + 2 * nb);
        CHECK(memcmp(pk, ref, 1 + 2 * nb) == 0);
        /* ecdh */
        VG_CT_PUBLIC(sk, nb);
        CHECK(c->ecdh(ref, sk, peer, 1 + 2 * nb) == VG_OK);
        VG_CT_SECRET(sk, nb);
        CHECK(c->ecdh(out, sk, peer, 1 + 2 * nb) == VG_OK);
        VG_CT_PUBLIC(out, nb);
        CHECK(memcmp(out, ref, nb) == 0);
        /* sign: deterministic (rnd zero) and hedged */
        for (int h = 0; h < 2; h++) {
            for (size_t j = 0; j < nb; j++)
                rnd[j] = h ? (uint8_t)(0xa5 ^ j) : 0;
            VG_CT_PUBLIC(sk, nb);
            CHECK(c->sign(ref, dg, nb, sk, rnd) == VG_OK);
            VG_CT_SECRET(sk, nb);
            VG_CT_SECRET(rnd, nb);
            CHECK(c->sign(out, dg, nb, sk, rnd) == VG_OK);
            VG_CT_PUBLIC(out, 2 * nb);
            CHECK(memcmp(out, ref, 2 * nb) == 0);
            VG_CT_PUBLIC(rnd, nb);
        }
        VG_CT_PUBLIC(sk, nb);
    }
    /* keypair: the OS's secret is not marked (see the header comment). */
    CHECK(c->keypair(pk, sk) == VG_OK);
    printf("  %s/%s: public_key, ecdh, sign_digest_derand (4 keys, 2 rnd), keypair\n", c->name,
           vg_implementation(c->name));
}

static void run_leaky(void)
{
    const struct vg_nist_backend *be = vg_nist_p256_portable_get();
    uint8_t u1[32], u2[32], q[64], r[32];
    scalar(u1, 32, 3);
    scalar(u2, 32, 4);
    be->base_mul(q, u2);
    memset(r, 1, sizeof r);
    VG_CT_SECRET(u1, sizeof u1);
    (void)be->verify(u1, u2, q, r);
    printf("  ran the leaky control (memcheck must report it)\n");
}

int main(int argc, char **argv)
{
    struct vg_ctv_opts opt;
    int rc = vg_ctv_parse(argc, argv, "ct_valgrind_nist", 0, &opt);
    if (rc >= 0)
        return rc;
    vg_cpu_force(opt.runnable);
    if (opt.leaky) {
        run_leaky();
        return 0;
    }
    for (int ci = 0; ci < 2; ci++) {
        const struct curve *c = &g_curves[ci];
        const struct vg_nist_backend *v[2] = {c->portable(), c->adx()};
        for (int i = 0; i < 2; i++)
            if (v[i])
                run_backend(c, v[i]);
        run_api(c);
    }
    return vgtest_done("ct_valgrind_nist");
}
