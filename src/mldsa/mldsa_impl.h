/*
 * ML-DSA (FIPS 204) for one parameter set, chosen at compile time: the file
 * that includes this one defines VG_MLDSA_MODE (44, 65 or 87) first.
 * Everything depending on (k, l) lives here, once; the parameter-independent
 * arithmetic is in poly.c behind the backend interface of poly.h.
 *
 * Naming follows FIPS 204: xi the key-generation seed, (rho, rho', K) the
 * expanded seeds, tr = H(pk), mu the message representative, M' the
 * formatted message of Algorithms 2-3.
 *
 * Stack: signing (vg_mldsa_sign_mu_core) holds the whole A-hat (k * l
 * polynomials) and s1-hat, s2-hat, t0-hat, y, z, w, h so that the rejection
 * loop redoes nothing; ML-DSA-87 signs instead with vg_mldsa_sign_mu_small
 * (A-hat packed at 3 bytes a coefficient, the rest recomputed per attempt),
 * as issue 6 asks for at most 64 KiB: test_stack measures 62.8 KiB (gcc 12)
 * / 61.3 KiB (clang 14) for vg_mldsa87_sign_derand, 122 KiB before; the
 * price is measured there. Key generation and verification generate A-hat
 * one row at a time (four entries per four-way Keccak pass).
 */
#include "common.h"
#include "mldsa_internal.h"
#include "poly.h"
#include "small.h"

#if !defined(VG_MLDSA_MODE)
#error "define VG_MLDSA_MODE before including mldsa_impl.h"
#elif VG_MLDSA_MODE == 44
#define K 4
#define L 4
#define ETA 2
#define TAU 39
#define BETA 78
#define GAMMA1 (1 << 17)
#define GAMMA2 VG_MLDSA_GAMMA2_88
#define OMEGA 80
#define CTILDEBYTES 32 /* lambda / 4 */
#define VG_MLDSA_API(name) vg_mldsa44_##name
#define VG_MLDSA_INTERNAL(name) vg_mldsa44_##name
#elif VG_MLDSA_MODE == 65
#define K 6
#define L 5
#define ETA 4
#define TAU 49
#define BETA 196
#define GAMMA1 (1 << 19)
#define GAMMA2 VG_MLDSA_GAMMA2_32
#define OMEGA 55
#define CTILDEBYTES 48
#define VG_MLDSA_API(name) vg_mldsa65_##name
#define VG_MLDSA_INTERNAL(name) vg_mldsa65_##name
#elif VG_MLDSA_MODE == 87
#define K 8
#define L 7
#define ETA 2
#define TAU 60
#define BETA 120
#define GAMMA1 (1 << 19)
#define GAMMA2 VG_MLDSA_GAMMA2_32
#define OMEGA 75
#define CTILDEBYTES 64
#define VG_MLDSA_API(name) vg_mldsa87_##name
#define VG_MLDSA_INTERNAL(name) vg_mldsa87_##name
#else
#error "VG_MLDSA_MODE must be 44, 65 or 87"
#endif

/* FIPS 204 Table 2 sizes, derived from the parameters. */
#define POLYETA_BYTES (ETA == 2 ? 96 : 128)
#define POLYZ_BYTES (GAMMA1 == (1 << 17) ? 576 : 640)
#define POLYW1_BYTES (GAMMA2 == VG_MLDSA_GAMMA2_88 ? 192 : 128)
#define PK_BYTES (VG_MLDSA_SYMBYTES + K * VG_MLDSA_POLYT1_BYTES)
#define SK_BYTES (2 * VG_MLDSA_SYMBYTES + VG_MLDSA_CRHBYTES + (K + L) * POLYETA_BYTES + \
                  K * VG_MLDSA_POLYT0_BYTES)
#define SIG_BYTES (CTILDEBYTES + L * POLYZ_BYTES + OMEGA + K)
/* Offsets inside sk = rho || K || tr || s1 || s2 || t0 (Algorithm 24). */
#define SK_KEY (VG_MLDSA_SYMBYTES)
#define SK_TR (2 * VG_MLDSA_SYMBYTES)
#define SK_S1 (SK_TR + VG_MLDSA_CRHBYTES)
#define SK_S2 (SK_S1 + L * POLYETA_BYTES)
#define SK_T0 (SK_S2 + K * POLYETA_BYTES)

#if VG_MLDSA_MODE == 44
_Static_assert(PK_BYTES == VG_MLDSA44_PUBLICKEYBYTES, "pk size");
_Static_assert(SK_BYTES == VG_MLDSA44_SECRETKEYBYTES, "sk size");
_Static_assert(SIG_BYTES == VG_MLDSA44_SIGBYTES, "sig size");
#elif VG_MLDSA_MODE == 65
_Static_assert(PK_BYTES == VG_MLDSA65_PUBLICKEYBYTES, "pk size");
_Static_assert(SK_BYTES == VG_MLDSA65_SECRETKEYBYTES, "sk size");
_Static_assert(SIG_BYTES == VG_MLDSA65_SIGBYTES, "sig size");
#else
_Static_assert(PK_BYTES == VG_MLDSA87_PUBLICKEYBYTES, "pk size");
_Static_assert(SK_BYTES == VG_MLDSA87_SECRETKEYBYTES, "sk size");
_Static_assert(SIG_BYTES == VG_MLDSA87_SIGBYTES, "sig size");
#endif

/* ML-DSA-87 signs with the small-stack layout (vg_mldsa_sign_mu_small,
 * below 64 KiB) unless built with -DVG_MLDSA87_LOWSTACK=0 (the layout of
 * vg_mldsa_sign_mu_core: ~122 KiB, faster; see the figures there). */
#ifndef VG_MLDSA87_LOWSTACK
#define VG_MLDSA87_LOWSTACK 1
#endif
#define VG_MLDSA_SMALL_SIGN (VG_MLDSA_MODE == 87 && VG_MLDSA87_LOWSTACK)

/* FIPS 204 allows a bound on the signing loop (section 6.2 note, at least
 * 814 iterations); kappa must also fit IntegerToBytes(kappa + r, 2). The
 * expected count is 4-5, so this bound is never reached with a real key. */
#define MAX_SIGN_ITERATIONS (0xffff / L)

/* A-hat row by row for key generation and verification (FIPS 204,
 * Algorithm 32: A-hat[i][j] = RejNTTPoly(rho || j || i)) without holding
 * the whole matrix: the entries are generated in row-major order four at a
 * time on the four-way Keccak (a last group of two or three padded, a
 * single one alone), so a row whose length l is not a multiple of four
 * shares a four-way pass with the next row instead of running its
 * remainder alone (ML-DSA-65: 8 four-way passes for its 30 entries instead
 * of 6 four-way and 6 single ones). Two rows are buffered: a pass started
 * in row i ends in row i + 1 at the latest (4 <= l). Public data (rho). */
struct vg_mldsa_arows {
    vg_mldsa_poly row[2][L]; /* row i in row[i % 2] */
    unsigned next;           /* the next entry to generate, row-major */
};

/* Row i of A-hat, for i = 0, 1, ..., K - 1 in this order, after
 * s->next = 0. The returned row stays valid until row i + 1 is asked for. */
static const vg_mldsa_poly *vg_mldsa_arow(struct vg_mldsa_arows *s,
                                          const uint8_t rho[VG_MLDSA_SYMBYTES], unsigned i)
{
    while (s->next < (i + 1) * L) {
        vg_mldsa_poly *r[4];
        uint8_t idx[4][2];
        unsigned n = K * L - s->next < 4 ? K * L - s->next : 4;
        for (unsigned k = 0; k < n; k++) {
            unsigned f = s->next + k, fi = f / L, fj = f % L; /* public indices */
            r[k] = &s->row[fi % 2][fj];
            idx[k][0] = (uint8_t)fj;
            idx[k][1] = (uint8_t)fi;
        }
        vg_mldsa_poly_uniform_many(r, rho, (const uint8_t(*)[2])idx, n);
        s->next += n;
    }
    return s->row[i % 2];
}

#if !VG_MLDSA_SMALL_SIGN
/* The whole of A-hat (FIPS 204, Algorithm 32), four entries at a time. */
static void vg_mldsa_expand_a(vg_mldsa_poly mat[K][L], const uint8_t rho[VG_MLDSA_SYMBYTES])
{
    vg_mldsa_poly *r[K * L];
    uint8_t idx[K * L][2];
    for (unsigned i = 0; i < K; i++)
        for (unsigned j = 0; j < L; j++) {
            r[i * L + j] = &mat[i][j];
            idx[i * L + j][0] = (uint8_t)j;
            idx[i * L + j][1] = (uint8_t)i;
        }
    vg_mldsa_poly_uniform_many(r, rho, (const uint8_t(*)[2])idx, K * L);
}

#endif

/* ---- keys -------------------------------------------------------------- */

/* ML-DSA.KeyGen_internal from line 2 on, given exp = rho || rho' || K
 * (line 1's output). Specification: FIPS 204, Algorithm 6 (with
 * Algorithms 22 pkEncode, 24 skEncode, 32 ExpandA, 33 ExpandS). A-hat is
 * generated one row at a time. */
static void vg_mldsa_keygen_expanded(uint8_t pk[PK_BYTES], uint8_t sk[SK_BYTES],
                                     const uint8_t exp[2 * VG_MLDSA_SYMBYTES + VG_MLDSA_CRHBYTES])
{
    const struct vg_mldsa_backend *be = vg_mldsa_active();
    const struct vg_mldsa_fused *fu = vg_mldsa_fused_get(be); /* NULL: separate passes */
    struct {
        uint8_t rho[VG_MLDSA_SYMBYTES];
        vg_mldsa_poly s[L + K], acc, t1, t0; /* s = s1-hat || s2 */
    } ws;
    struct vg_mldsa_arows arows; /* A-hat, two rows at a time: public, not wiped */
    const uint8_t *rho = ws.rho, *rhoprime = exp + VG_MLDSA_SYMBYTES;
    const uint8_t *key = exp + VG_MLDSA_SYMBYTES + VG_MLDSA_CRHBYTES;

    /* Declassify: rho, which the public key carries in the clear (pkEncode,
     * Algorithm 22); ExpandA's rejection sampling may then run in variable
     * time on it (a copy: the caller's buffer keeps its own status). */
    memcpy(ws.rho, exp, VG_MLDSA_SYMBYTES);
    VG_CT_DECLASSIFY(ws.rho, sizeof ws.rho);
    memcpy(sk, rho, VG_MLDSA_SYMBYTES);
    memcpy(sk + SK_KEY, key, VG_MLDSA_SYMBYTES);
    memcpy(pk, rho, VG_MLDSA_SYMBYTES);
    arows.next = 0;
    /* (s1, s2) = ExpandS(rho') (line 4): nonces 0..l-1 and l..l+k-1, four
     * at a time; packed; s1 into the NTT domain (|s1| <= eta < q). */
    vg_mldsa_poly_uniform_eta_many(ws.s, rhoprime, 0, L + K, ETA);
    for (unsigned j = 0; j < L; j++) {
        vg_mldsa_polyeta_pack(sk + SK_S1 + j * POLYETA_BYTES, &ws.s[j], ETA);
        be->ntt(&ws.s[j]);
    }
    for (unsigned i = 0; i < K; i++) {
        /* t[i] = NTT^-1(sum_j A-hat[i][j] o s1-hat[j]) + s2[i] (line 5):
         * the row product is < q (pointwise_acc), then invntt: < q;
         * adding |s2| <= 4 and reduce32, caddq give [0, q). */
        be->pointwise_acc(&ws.acc, vg_mldsa_arow(&arows, rho, i), ws.s, L);
        be->invntt_tomont(&ws.acc);
        vg_mldsa_polyeta_pack(sk + SK_S2 + i * POLYETA_BYTES, &ws.s[L + i], ETA);
        if (fu) {
            /* The four passes below in one (poly.h, keygen_pass). */
            fu->keygen_pass(&ws.t1, &ws.t0, &ws.acc, &ws.s[L + i]);
        } else {
            be->add(&ws.acc, &ws.acc, &ws.s[L + i]);
            be->reduce(&ws.acc);
            be->caddq(&ws.acc);
            /* (t1, t0) = Power2Round(t) (line 6). */
            be->power2round(&ws.t1, &ws.t0, &ws.acc);
        }
        vg_mldsa_polyt1_pack(pk + VG_MLDSA_SYMBYTES + i * VG_MLDSA_POLYT1_BYTES, &ws.t1);
        vg_mldsa_polyt0_pack(sk + SK_T0 + i * VG_MLDSA_POLYT0_BYTES, &ws.t0);
    }
    /* tr = H(pk, 64) (line 9). */
    vg_shake256(sk + SK_TR, VG_MLDSA_CRHBYTES, pk, PK_BYTES);
    vg_wipe(&ws, sizeof ws);
}

/* ML-DSA.KeyGen_internal(xi). Specification: FIPS 204, Algorithm 6. */
static void vg_mldsa_keygen(uint8_t pk[PK_BYTES], uint8_t sk[SK_BYTES],
                            const uint8_t xi[VG_MLDSA_SYMBYTES])
{
    uint8_t seedbuf[VG_MLDSA_SYMBYTES + 2];
    uint8_t exp[2 * VG_MLDSA_SYMBYTES + VG_MLDSA_CRHBYTES]; /* rho || rho' || K */
    /* (rho, rho', K) = H(xi || k || l, 128) (line 1). */
    memcpy(seedbuf, xi, VG_MLDSA_SYMBYTES);
    seedbuf[VG_MLDSA_SYMBYTES] = (uint8_t)K;
    seedbuf[VG_MLDSA_SYMBYTES + 1] = (uint8_t)L;
    vg_shake256(exp, sizeof exp, seedbuf, sizeof seedbuf);
    vg_mldsa_keygen_expanded(pk, sk, exp);
    vg_wipe(seedbuf, sizeof seedbuf);
    vg_wipe(exp, sizeof exp);
}

void VG_MLDSA_INTERNAL(keypair_expanded)(uint8_t *pk, uint8_t *sk, const uint8_t exp[128])
{
    vg_mldsa_keygen_expanded(pk, sk, exp);
}

/* ---- signing ----------------------------------------------------------- */

#if !VG_MLDSA_SMALL_SIGN /* ML-DSA-87 signs with vg_mldsa_sign_mu_small below */
/* One row of t0 for the fast signing layout: its 32-bit NTT (q) or its
 * split small transforms (m, small.h), as vg_mldsa_small_t0_ok decides. */
typedef union {
    vg_mldsa_poly q;
    vg_mldsa_st0 m;
} vg_mldsa_t0hat;

/* ct0 = c t0 (FIPS 204 Algorithm 7 line 25), exactly (st0: c from sc, the
 * small transform; scratch overwritten) or as NTT^-1(c-hat o t0-hat) with
 * |.| < q (c-hat = chat; scratch unused). */
static void vg_mldsa_sign_ct0(const struct vg_mldsa_backend *be, const struct vg_mldsa_small *sm,
                              int st0, vg_mldsa_poly *r, const vg_mldsa_poly *chat,
                              const vg_mldsa_spoly *sc, const vg_mldsa_t0hat *t0,
                              vg_mldsa_poly *scratch)
{
    if (st0) {
        vg_mldsa_small_t0_mul(sm, r, sc, &t0->m.lo, &t0->m.hi, scratch);
    } else {
        be->pointwise(r, chat, &t0->q);
        be->invntt_tomont(r);
    }
}

/* ML-DSA.Sign_internal from mu on (Algorithm 7 lines 7-33; lines 1-6 are
 * skDecode and the precomputations, done here too). Returns VG_OK, or
 * VG_ERR_INPUT for a secret key whose s1/s2 fields are out of range
 * (skDecode would give coefficients below -eta: not a KeyGen output) or when
 * the iteration bound is hit; sig is zeroed then.
 * Constant time apart from the number of loop iterations: every rejection
 * test is computed in full and only the combined verdict is branched on.
 * Specification: FIPS 204, Algorithm 7 (with 25 skDecode, 26 sigEncode,
 * 28 w1Encode, 29 SampleInBall, 34 ExpandMask, 39 MakeHint). */
static int vg_mldsa_sign_mu_core(uint8_t sig[SIG_BYTES], const uint8_t mu[VG_MLDSA_CRHBYTES],
                                 const uint8_t sk[SK_BYTES], const uint8_t rnd[VG_MLDSA_SYMBYTES],
                                 unsigned *attempts)
{
    const struct vg_mldsa_backend *be = vg_mldsa_active();
    /* The one-pass sequences of poly.h where the backend has them, else the
     * separate passes; the same values either way. */
    const struct vg_mldsa_fused *fu = vg_mldsa_fused_get(be);
    /* c s1 and c s2 as exact products through a 16-bit NTT (small.h:
     * |c s| <= tau eta <= 196); c t0 the same way where the table allows
     * it (small.h), else by the 32-bit NTT. */
    const struct vg_mldsa_small *sm = vg_mldsa_small_get(be);
    const int st0 = vg_mldsa_small_t0_ok(sm);
    struct {
        uint8_t rho[VG_MLDSA_SYMBYTES];
        uint8_t in[VG_MLDSA_SYMBYTES * 2 + VG_MLDSA_CRHBYTES]; /* K || rnd || mu */
        uint8_t rhopp[VG_MLDSA_CRHBYTES];
        uint8_t w1enc[K * POLYW1_BYTES];
        uint8_t ctilde[CTILDEBYTES];
        /* s1, s2 and c transformed for the small products (small.h). */
        _Alignas(64) vg_mldsa_spoly ss1[L], ss2[K], sc;
        _Alignas(64) vg_mldsa_t0hat t0[K];
        /* y[0..L) this attempt's y; y[L..L + 3) room for the rest of a
         * four-way pass, kept for the next attempt (see below). */
        vg_mldsa_poly y[L + 3], z[L];
        vg_mldsa_poly w[K], h[K];
        vg_mldsa_poly c, t, u;
    } ws;
    /* A-hat: public (ExpandA of the public rho), so outside ws and not
     * wiped (16-30 KiB less to clear per signature). */
    vg_mldsa_poly mat[K][L];
    vg_keccak_ctx ctx;
    unsigned bad = 0;
    int ret = VG_OK;

    if (attempts)
        *attempts = 0;
    /* skDecode (line 1), with the range check of s1 and s2; lines 2-4:
     * their transforms (|s| <= eta, in range: if not, the key is rejected
     * below and the transforms' values do not matter) and t0-hat
     * (|t0| <= 2^12 < q). */
    for (unsigned j = 0; j < L; j++) {
        bad |= vg_mldsa_polyeta_unpack(&ws.t, sk + SK_S1 + j * POLYETA_BYTES, ETA);
        sm->ntt(&ws.ss1[j], &ws.t);
    }
    for (unsigned i = 0; i < K; i++) {
        bad |= vg_mldsa_polyeta_unpack(&ws.t, sk + SK_S2 + i * POLYETA_BYTES, ETA);
        sm->ntt(&ws.ss2[i], &ws.t);
        if (st0) {
            vg_mldsa_polyt0_unpack(&ws.t, sk + SK_T0 + i * VG_MLDSA_POLYT0_BYTES);
            vg_mldsa_small_t0_ntt(sm, &ws.t0[i].m.lo, &ws.t0[i].m.hi, &ws.t, &ws.u);
        } else {
            vg_mldsa_polyt0_unpack(&ws.t0[i].q, sk + SK_T0 + i * VG_MLDSA_POLYT0_BYTES);
            be->ntt(&ws.t0[i].q);
        }
    }
    /* Declassify: the verdict on the key, which is the function's result
     * (public output: VG_ERR_INPUT). */
    VG_CT_DECLASSIFY(&bad, sizeof bad);
    if (vg_barrier_u32(bad)) {
        ret = VG_ERR_INPUT;
        goto out;
    }
    /* Declassify: rho, the first field of sk, is the public key's first
     * field too (Algorithms 22, 24): ExpandA may run in variable time on it. */
    memcpy(ws.rho, sk, VG_MLDSA_SYMBYTES);
    VG_CT_DECLASSIFY(ws.rho, sizeof ws.rho);
    vg_mldsa_expand_a(mat, ws.rho);
    /* rho'' = H(K || rnd || mu, 64) (line 7). */
    memcpy(ws.in, sk + SK_KEY, VG_MLDSA_SYMBYTES);
    memcpy(ws.in + VG_MLDSA_SYMBYTES, rnd, VG_MLDSA_SYMBYTES);
    memcpy(ws.in + 2 * VG_MLDSA_SYMBYTES, mu, VG_MLDSA_CRHBYTES);
    vg_shake256(ws.rhopp, sizeof ws.rhopp, ws.in, sizeof ws.in);

    unsigned iter = 0, ready = 0; /* y[0..ready): made ahead, nonces kappa.. */
    for (unsigned kappa = 0;; iter++, kappa += L) {
        unsigned reject = 0, nhints = 0;
        if (iter == MAX_SIGN_ITERATIONS) {
            ret = VG_ERR_INPUT;
            goto out;
        }
        /* y = ExpandMask(rho'', kappa) (line 11): |y| <= gamma1 < q.
         * Entry j is the polynomial of nonce kappa + j, so the attempts
         * together use nonces 0, 1, 2, ... in order: they are drawn as one
         * stream, four per four-way pass, and a pass that passes y[L - 1]
         * makes the next attempt's first ones (ready), instead of running
         * a remainder of l mod 4 on its own (ML-DSA-65: 1.25 four-way
         * passes an attempt instead of one four-way and one single-lane
         * sponge). Made-ahead entries of the last attempt are unused and
         * wiped with ws; a nonce past 2^16 - 1 there wraps (no attempt
         * reaches it: MAX_SIGN_ITERATIONS). */
        for (unsigned j = ready; j < L; j += 4)
            vg_mldsa_poly_uniform_gamma1_4(&ws.y[j], ws.rhopp, (uint16_t)(kappa + j), 4, GAMMA1);
        for (unsigned j = 0; j < L; j++) {
            ws.z[j] = ws.y[j];
            be->ntt(&ws.z[j]);
        }
        /* w = NTT^-1(A-hat o NTT(y)) (line 12), in [0, q); w1 = HighBits(w). */
        for (unsigned i = 0; i < K; i++) {
            be->pointwise_acc(&ws.w[i], mat[i], ws.z, L);
            be->invntt_tomont(&ws.w[i]);
            if (fu) {
                fu->sign_w_pass(&ws.w[i], &ws.t, GAMMA2);
            } else {
                be->caddq(&ws.w[i]);
                be->decompose(&ws.t, NULL, &ws.w[i], GAMMA2);
            }
            vg_mldsa_polyw1_pack(ws.w1enc + i * POLYW1_BYTES, &ws.t, GAMMA2);
        }
        /* c-tilde = H(mu || w1Encode(w1), lambda/4) (line 15). */
        vg_shake256_ctx_init(&ctx);
        vg_keccak_absorb(&ctx, mu, VG_MLDSA_CRHBYTES);
        vg_keccak_absorb(&ctx, ws.w1enc, sizeof ws.w1enc);
        vg_keccak_finalize(&ctx);
        vg_keccak_squeeze(&ctx, ws.ctilde, CTILDEBYTES);
        /* c = SampleInBall(c-tilde), c-hat = NTT(c) (lines 16-17). */
        vg_mldsa_poly_challenge(&ws.c, ws.ctilde, CTILDEBYTES, TAU);
        sm->ntt(&ws.sc, &ws.c); /* |c| <= 1 */
        if (!st0)
            be->ntt(&ws.c); /* else ws.c is scratch from here */
        /* z = y + c s1 (lines 18, 20): exact, |cs1| <= 196; |y| <= gamma1,
         * the sum is reduce32'd; check ||z|| >= gamma1 - beta (line 23). */
        for (unsigned j = 0; j < L; j++) {
            sm->mul(&ws.z[j], &ws.sc, &ws.ss1[j]);
            if (fu) {
                reject |= fu->sign_z_pass(&ws.z[j], &ws.y[j], GAMMA1 - BETA);
                continue;
            }
            be->add(&ws.z[j], &ws.z[j], &ws.y[j]);
            be->reduce(&ws.z[j]);
            reject |= be->chknorm(&ws.z[j], GAMMA1 - BETA);
        }
        for (unsigned i = 0; i < K; i++) {
            /* r = w - <<c s2>> (lines 19, 21): r0 = LowBits(r), check
             * ||r0|| >= gamma2 - beta (line 23). t keeps r in [0, q). */
            sm->mul(&ws.t, &ws.sc, &ws.ss2[i]); /* exact, |.| <= 196 */
            if (fu) {
                /* The passes below in two (poly.h, sign_r_pass and
                 * sign_h_pass): r in t, HighBits(r) kept in h[i] (not
                 * computed twice), ct0 in u, the hints over h[i]. */
                unsigned nh;
                reject |= fu->sign_r_pass(&ws.t, &ws.h[i], &ws.w[i], GAMMA2, GAMMA2 - BETA);
                vg_mldsa_sign_ct0(be, sm, st0, &ws.u, &ws.c, &ws.sc, &ws.t0[i], &ws.c);
                reject |= fu->sign_h_pass(&ws.h[i], &nh, &ws.u, &ws.t, &ws.h[i], GAMMA2, GAMMA2);
                nhints += nh;
                continue;
            }
            be->sub(&ws.t, &ws.w[i], &ws.t);
            be->reduce(&ws.t);
            be->caddq(&ws.t);
            be->decompose(&ws.u, &ws.h[i], &ws.t, GAMMA2); /* h[i]: scratch r0 */
            reject |= be->chknorm(&ws.h[i], GAMMA2 - BETA);
            /* ct0 = <<c t0>> (line 25), check ||ct0|| >= gamma2 (line 28). */
            vg_mldsa_sign_ct0(be, sm, st0, &ws.u, &ws.c, &ws.sc, &ws.t0[i], &ws.c);
            be->reduce(&ws.u); /* the range chknorm needs */
            reject |= be->chknorm(&ws.u, GAMMA2);
            /* h = MakeHint(-ct0, w - cs2 + ct0) (line 26) =
             * [HighBits(w - cs2 + ct0) != HighBits(w - cs2)]. */
            be->add(&ws.u, &ws.t, &ws.u);
            be->reduce(&ws.u);
            be->caddq(&ws.u);
            be->decompose(&ws.t, NULL, &ws.t, GAMMA2); /* HighBits(w - cs2) */
            nhints += be->make_hint(&ws.h[i], &ws.u, &ws.t, GAMMA2);
        }
        /* More than omega hints (line 28): the top bit of omega - nhints. */
        reject |= (unsigned)(OMEGA - (int)nhints) >> (sizeof(unsigned) * 8 - 1);
        /* The made-ahead entries (nonces kappa + L ..) to the front. */
        {
            unsigned made = ready + 4 * ((L - ready + 3) / 4); /* entries filled */
            ready = made - L;                                 /* 0..3, public */
            for (unsigned j = 0; j < ready; j++)
                ws.y[j] = ws.y[L + j];
        }
        /* Declassify: the verdict of this attempt (every norm check and
         * the hint count folded into one bit). Whether an attempt is
         * rejected is public by design: the number of attempts shows in
         * the signing time, and the security argument of Fiat-Shamir with
         * aborts covers it; the values checked (z, r0, ct0, the hints of a
         * rejected attempt) stay secret. The one branch on secret-derived
         * data in the loop. */
        VG_CT_DECLASSIFY(&reject, sizeof reject);
        if (vg_barrier_u32(reject) == 0)
            break;
    }
    if (attempts)
        *attempts = iter + 1;
    /* Declassify: the accepted attempt's hints are the signature's last
     * field (sigEncode, Algorithm 26), a public output; HintBitPack below
     * indexes memory with their running count. z and c-tilde are copied
     * without branches. */
    VG_CT_DECLASSIFY(ws.h, sizeof ws.h);
    /* sigEncode(c-tilde, z mod+- q, h) (line 33). z is centred already
     * (|z| < gamma1 - beta after the check). */
    memcpy(sig, ws.ctilde, CTILDEBYTES);
    for (unsigned j = 0; j < L; j++)
        vg_mldsa_polyz_pack(sig + CTILDEBYTES + j * POLYZ_BYTES, &ws.z[j], GAMMA1);
    {
        /* HintBitPack (Algorithm 20), without a branch per coefficient
         * (the same work whatever the hints, so the signing time does not
         * vary with their pattern): every index is stored at the running
         * count, which advances by the hint bit. The count never passes
         * omega (checked above), so hb[OMEGA] is the only spill slot; the
         * unused tail is zeroed by mask. */
        uint8_t *hp = sig + CTILDEBYTES + L * POLYZ_BYTES;
        uint8_t hb[OMEGA + 1];
        unsigned idx = 0;
        memset(hb, 0, sizeof hb);
        for (unsigned i = 0; i < K; i++) {
            for (unsigned j = 0; j < VG_MLDSA_N; j++) {
                hb[idx] = (uint8_t)j;
                idx += (unsigned)ws.h[i].coeffs[j]; /* 0 or 1 */
            }
            hp[OMEGA + i] = (uint8_t)idx;
        }
        for (unsigned k = 0; k < OMEGA; k++)
            hp[k] = (uint8_t)(hb[k] & ~vg_mldsa_mask_zero_u32(((uint32_t)k - idx) >> 31));
    }
out:
    if (ret != VG_OK)
        memset(sig, 0, SIG_BYTES);
    vg_wipe(&ws, sizeof ws);
    vg_wipe(&ctx, sizeof ctx);
    return ret;
}

#endif

#if VG_MLDSA_SMALL_SIGN
/* ML-DSA-87 signing in less stack (issue 6: at most 64 KiB; the layout
 * above needs ~122 KiB). What the fast layout keeps for the whole loop and
 * what this one does instead:
 *   A-hat (k l polynomials, 56 KiB)  kept packed, 3 bytes a coefficient
 *                                    (42 KiB), unpacked one entry at a time;
 *   s1-hat, s2-hat, t0-hat (23 KiB)  unpacked from sk and transformed again
 *                                    where each attempt uses them;
 *   y, NTT(y) (7 KiB)                kept as ExpandMask's bytes (the
 *                                    encoding of z) in sig's z field, four
 *                                    entries at a time unpacked and
 *                                    transformed for w (accumulated column
 *                                    by column), one at a time for z;
 *   z, h (15 KiB)                    z packed into sig over y's bytes as
 *                                    computed, the hints kept as bits (256
 *                                    bytes).
 * (sig holds y between the passes of an attempt and the z of a rejected
 * attempt until the next one overwrites it, as the fast layout's stack
 * does; it is zeroed if signing fails.)
 * Same bytes as the fast layout (test_mldsa's ACVP and Wycheproof vectors,
 * test_mldsa_backend's cross-checks). Same constant-time structure: every
 * check is computed in full and only the combined verdict of an attempt
 * is declassified. Specification: FIPS 204, Algorithm 7 (as above). */
static int vg_mldsa_sign_mu_small(uint8_t sig[SIG_BYTES], const uint8_t mu[VG_MLDSA_CRHBYTES],
                                  const uint8_t sk[SK_BYTES], const uint8_t rnd[VG_MLDSA_SYMBYTES],
                                  unsigned *attempts)
{
    const struct vg_mldsa_backend *be = vg_mldsa_active();
    const struct vg_mldsa_fused *fu = vg_mldsa_fused_get(be); /* as in the fast layout */
    const struct vg_mldsa_small *sm = vg_mldsa_small_get(be); /* as well */
    const int st0 = vg_mldsa_small_t0_ok(sm);                 /* c t0 too */
    struct {
        uint8_t rho[VG_MLDSA_SYMBYTES];
        uint8_t in[VG_MLDSA_SYMBYTES * 2 + VG_MLDSA_CRHBYTES]; /* K || rnd || mu */
        uint8_t rhopp[VG_MLDSA_CRHBYTES];
        uint8_t ctilde[CTILDEBYTES];
        uint8_t w1row[POLYW1_BYTES];
        uint8_t hbits[K][VG_MLDSA_N / 8];
        uint8_t apk[K * L][3 * VG_MLDSA_N];
        vg_mldsa_poly w[K];
        vg_mldsa_poly y[4]; /* a group of y / NTT(y); scratch elsewhere */
        vg_mldsa_poly c;
        /* t: scratch; its storage holds the transform of t0's high part
         * in the hint loop (shi), where t is not used. */
        _Alignas(64) union {
            vg_mldsa_poly t;
            vg_mldsa_spoly shi;
        } tu;
        /* c and one of s1, s2 (or t0's low part) transformed for the small
         * products (small.h). */
        _Alignas(64) vg_mldsa_spoly sc, ss;
    } ws;
    vg_keccak_ctx ctx;
    unsigned bad = 0, iter = 0;
    int ret = VG_OK;

    if (attempts)
        *attempts = 0;
    /* skDecode's range check of s1 and s2 (line 1); the values are
     * unpacked again where used. */
    for (unsigned j = 0; j < L + K; j++)
        bad |= vg_mldsa_polyeta_unpack(&ws.tu.t, sk + SK_S1 + j * POLYETA_BYTES, ETA);
    /* Declassify: the verdict on the key, which is the function's result
     * (public output: VG_ERR_INPUT). */
    VG_CT_DECLASSIFY(&bad, sizeof bad);
    if (vg_barrier_u32(bad)) {
        ret = VG_ERR_INPUT;
        goto out;
    }
    /* Declassify: rho, the first field of sk, is the public key's first
     * field too (Algorithms 22, 24): ExpandA may run in variable time on it. */
    memcpy(ws.rho, sk, VG_MLDSA_SYMBYTES);
    VG_CT_DECLASSIFY(ws.rho, sizeof ws.rho);
    /* A-hat (line 5), four entries at a time through ws.y, packed. Entry
     * e = i l + j is A-hat[i][j] = RejNTTPoly(rho || j || i). */
    for (unsigned e = 0; e < K * L; e += 4) {
        vg_mldsa_poly *r[4];
        uint8_t idx[4][2];
        for (unsigned k = 0; k < 4; k++) {
            unsigned ee = e + k < K * L ? e + k : K * L - 1;
            r[k] = &ws.y[k];
            idx[k][0] = (uint8_t)(ee % L);
            idx[k][1] = (uint8_t)(ee / L);
        }
        vg_mldsa_poly_uniform_x4(r, ws.rho, (const uint8_t(*)[2])idx);
        for (unsigned k = 0; k < 4 && e + k < K * L; k++)
            vg_mldsa_poly_pack24(ws.apk[e + k], &ws.y[k]);
    }
    /* rho'' = H(K || rnd || mu, 64) (line 7). */
    memcpy(ws.in, sk + SK_KEY, VG_MLDSA_SYMBYTES);
    memcpy(ws.in + VG_MLDSA_SYMBYTES, rnd, VG_MLDSA_SYMBYTES);
    memcpy(ws.in + 2 * VG_MLDSA_SYMBYTES, mu, VG_MLDSA_CRHBYTES);
    vg_shake256(ws.rhopp, sizeof ws.rhopp, ws.in, sizeof ws.in);

    for (unsigned kappa = 0;; iter++, kappa += L) {
        unsigned reject = 0, nhints = 0;
        if (iter == MAX_SIGN_ITERATIONS) {
            ret = VG_ERR_INPUT;
            goto out;
        }
        /* w = NTT^-1(A-hat o NTT(y)) (lines 11-12), four columns at a
         * time: each group's sum is Montgomery-reduced (< q), so w stays
         * below 2q < 2^27, the inverse NTT's bound. */
        memset(ws.w, 0, sizeof ws.w);
        for (unsigned j0 = 0; j0 < L; j0 += 4) {
            unsigned n = L - j0 < 4 ? L - j0 : 4;
            uint8_t *yb[4];
            for (unsigned k = 0; k < 4; k++)
                yb[k] = sig + CTILDEBYTES + (j0 + (k < n ? k : 0)) * POLYZ_BYTES;
            vg_mldsa_poly_mask_bytes_4(yb, ws.rhopp, (uint16_t)(kappa + j0), n, GAMMA1);
            for (unsigned k = 0; k < n; k++) {
                vg_mldsa_polyz_unpack(&ws.y[k], yb[k], GAMMA1);
                be->ntt(&ws.y[k]);
            }
            for (unsigned i = 0; i < K; i++)
                be->pointwise_acc24(&ws.w[i], &ws.apk[i * L + j0], ws.y, n);
        }
        /* c-tilde = H(mu || w1Encode(w1), lambda/4) (line 15), w1Encode
         * absorbed row by row as each is packed; c-hat (lines 16-17). */
        vg_shake256_ctx_init(&ctx);
        vg_keccak_absorb(&ctx, mu, VG_MLDSA_CRHBYTES);
        for (unsigned i = 0; i < K; i++) {
            be->invntt_tomont(&ws.w[i]);
            if (fu) {
                fu->sign_w_pass(&ws.w[i], &ws.tu.t, GAMMA2);
            } else {
                be->caddq(&ws.w[i]);
                be->decompose(&ws.tu.t, NULL, &ws.w[i], GAMMA2);
            }
            vg_mldsa_polyw1_pack(ws.w1row, &ws.tu.t, GAMMA2);
            vg_keccak_absorb(&ctx, ws.w1row, sizeof ws.w1row);
        }
        vg_keccak_finalize(&ctx);
        vg_keccak_squeeze(&ctx, ws.ctilde, CTILDEBYTES);
        vg_mldsa_poly_challenge(&ws.c, ws.ctilde, CTILDEBYTES, TAU);
        /* c transformed for the products with s1 and s2 (|c| <= 1); the
         * 32-bit c-hat (for t0) only after the z loop. */
        sm->ntt(&ws.sc, &ws.c);
        /* z = y + <<c s1>> (lines 18, 20), y unpacked from sig again;
         * check ||z|| >= gamma1 - beta (line 23); packed into sig over y
         * (sigEncode's z field). */
        for (unsigned j = 0; j < L; j++) {
            uint8_t *zb = sig + CTILDEBYTES + j * POLYZ_BYTES;
            vg_mldsa_polyz_unpack(&ws.y[0], zb, GAMMA1);
            (void)vg_mldsa_polyeta_unpack(&ws.tu.t, sk + SK_S1 + j * POLYETA_BYTES, ETA);
            sm->ntt(&ws.ss, &ws.tu.t);
            sm->mul(&ws.tu.t, &ws.sc, &ws.ss); /* exact, |.| <= 196 */
            if (fu) {
                reject |= fu->sign_z_pass(&ws.tu.t, &ws.y[0], GAMMA1 - BETA);
            } else {
                be->add(&ws.tu.t, &ws.tu.t, &ws.y[0]);
                be->reduce(&ws.tu.t);
                reject |= be->chknorm(&ws.tu.t, GAMMA1 - BETA);
            }
            vg_mldsa_polyz_pack(zb, &ws.tu.t, GAMMA1);
        }
        /* Per row, with ws.y[0..3] as scratch (named r, r1, r0/r1', ct0):
         * r = w - <<c s2>> (lines 19, 21), ||LowBits(r)|| (line 23),
         * ct0 = <<c t0>> (line 25, check line 28), h = MakeHint(-ct0,
         * w - cs2 + ct0) (line 26) as in the fast layout. */
        if (!st0)
            be->ntt(&ws.c); /* c-hat for t0 (|c| <= 1) */
        for (unsigned i = 0; i < K; i++) {
            vg_mldsa_poly *r = &ws.y[0], *r1 = &ws.y[1], *lo = &ws.y[2], *ct0 = &ws.y[3];
            (void)vg_mldsa_polyeta_unpack(r, sk + SK_S2 + i * POLYETA_BYTES, ETA);
            sm->ntt(&ws.ss, r);
            sm->mul(r, &ws.sc, &ws.ss); /* exact, |.| <= 196 */
            /* ct0 (ws.ss and lo are free here: scratch). */
            vg_mldsa_polyt0_unpack(ct0, sk + SK_T0 + i * VG_MLDSA_POLYT0_BYTES);
            if (st0) {
                vg_mldsa_small_t0_ntt(sm, &ws.ss, &ws.tu.shi, ct0, lo);
                vg_mldsa_small_t0_mul(sm, ct0, &ws.sc, &ws.ss, &ws.tu.shi, lo);
            } else {
                be->ntt(ct0);
                be->pointwise(ct0, &ws.c, ct0);
                be->invntt_tomont(ct0);
            }
            if (fu) {
                unsigned nh;
                reject |= fu->sign_r_pass(r, r1, &ws.w[i], GAMMA2, GAMMA2 - BETA);
                reject |= fu->sign_h_pass(lo, &nh, ct0, r, r1, GAMMA2, GAMMA2);
                nhints += nh;
            } else {
                be->sub(r, &ws.w[i], r);
                be->reduce(r);
                be->caddq(r);
                be->decompose(r1, lo, r, GAMMA2);
                reject |= be->chknorm(lo, GAMMA2 - BETA);
                be->reduce(ct0);
                reject |= be->chknorm(ct0, GAMMA2);
                be->add(ct0, r, ct0);
                be->reduce(ct0);
                be->caddq(ct0);
                nhints += be->make_hint(lo, ct0, r1, GAMMA2);
            }
            vg_mldsa_poly_bits(ws.hbits[i], lo);
        }
        reject |= (unsigned)(OMEGA - (int)nhints) >> (sizeof(unsigned) * 8 - 1);
        /* Declassify: the verdict of this attempt, as in the fast layout. */
        VG_CT_DECLASSIFY(&reject, sizeof reject);
        if (vg_barrier_u32(reject) == 0)
            break;
    }
    if (attempts)
        *attempts = iter + 1;
    /* Declassify: the accepted hints, a field of the signature (public
     * output), as in the fast layout. */
    VG_CT_DECLASSIFY(ws.hbits, sizeof ws.hbits);
    memcpy(sig, ws.ctilde, CTILDEBYTES);
    {
        /* HintBitPack (Algorithm 20), branch-free as in the fast layout. */
        uint8_t *hp = sig + CTILDEBYTES + L * POLYZ_BYTES;
        uint8_t hb[OMEGA + 1];
        unsigned idx = 0;
        memset(hb, 0, sizeof hb);
        for (unsigned i = 0; i < K; i++) {
            for (unsigned j = 0; j < VG_MLDSA_N; j++) {
                hb[idx] = (uint8_t)j;
                idx += (ws.hbits[i][j >> 3] >> (j & 7)) & 1u;
            }
            hp[OMEGA + i] = (uint8_t)idx;
        }
        for (unsigned k = 0; k < OMEGA; k++)
            hp[k] = (uint8_t)(hb[k] & ~vg_mldsa_mask_zero_u32(((uint32_t)k - idx) >> 31));
    }
out:
    if (ret != VG_OK)
        memset(sig, 0, SIG_BYTES);
    vg_wipe(&ws, sizeof ws);
    vg_wipe(&ctx, sizeof ctx);
    return ret;
}
#define VG_MLDSA_SIGN_CORE vg_mldsa_sign_mu_small
#else
#define VG_MLDSA_SIGN_CORE vg_mldsa_sign_mu_core
#endif

/* ---- verification ------------------------------------------------------ */

/* sigDecode's hint part, HintBitUnpack: 0 and h on success, -1 for a
 * malformed encoding (indices not strictly increasing within a row,
 * counts decreasing or above omega, nonzero padding).
 * Specification: FIPS 204, Algorithm 21. */
static int vg_mldsa_unpack_hints(vg_mldsa_poly h[K], const uint8_t y[OMEGA + K])
{
    unsigned idx = 0;
    memset(h, 0, K * sizeof(vg_mldsa_poly));
    for (unsigned i = 0; i < K; i++) {
        unsigned end = y[OMEGA + i];
        if (end < idx || end > OMEGA)
            return -1;
        for (unsigned first = idx; idx < end; idx++) {
            if (idx > first && y[idx - 1] >= y[idx])
                return -1;
            h[i].coeffs[y[idx]] = 1;
        }
    }
    for (; idx < OMEGA; idx++)
        if (y[idx] != 0)
            return -1;
    return 0;
}

/* ML-DSA.Verify_internal from mu on (Algorithm 8 lines 1-13 with mu given).
 * Public data throughout: variable time is fine. VG_OK or VG_ERR_VERIFY.
 * A-hat is generated one row at a time.
 * Specification: FIPS 204, Algorithm 8 (with 23 pkDecode, 27 sigDecode). */
static int vg_mldsa_verify_mu_core(const uint8_t sig[SIG_BYTES],
                                   const uint8_t mu[VG_MLDSA_CRHBYTES], const uint8_t pk[PK_BYTES])
{
    const struct vg_mldsa_backend *be = vg_mldsa_active();
    const struct vg_mldsa_fused *fu = vg_mldsa_fused_get(be); /* NULL: separate passes */
    struct {
        uint8_t w1enc[K * POLYW1_BYTES];
        uint8_t ctilde2[CTILDEBYTES];
        vg_mldsa_poly z[L], h[K];
        vg_mldsa_poly c, acc, t, w1;
        struct vg_mldsa_arows arows;
    } ws;
    vg_keccak_ctx ctx;
    const uint8_t *rho = pk;

    if (vg_mldsa_unpack_hints(ws.h, sig + CTILDEBYTES + L * POLYZ_BYTES) != 0)
        return VG_ERR_VERIFY;
    /* ||z|| < gamma1 - beta (line 13); z from BitUnpack is centred. */
    for (unsigned j = 0; j < L; j++) {
        vg_mldsa_polyz_unpack(&ws.z[j], sig + CTILDEBYTES + j * POLYZ_BYTES, GAMMA1);
        if (be->chknorm(&ws.z[j], GAMMA1 - BETA))
            return VG_ERR_VERIFY;
        be->ntt(&ws.z[j]);
    }
    vg_mldsa_poly_challenge(&ws.c, sig, CTILDEBYTES, TAU);
    be->ntt(&ws.c);
    ws.arows.next = 0;
    for (unsigned i = 0; i < K; i++) {
        /* w'_Approx = NTT^-1(A-hat o NTT(z) - NTT(c) o NTT(t1 2^d)) (line 9):
         * the row product < q minus one product < q: |acc| < 2q < 2^27. */
        be->pointwise_acc(&ws.acc, vg_mldsa_arow(&ws.arows, rho, i), ws.z, L);
        vg_mldsa_polyt1_unpack(&ws.t, pk + VG_MLDSA_SYMBYTES + i * VG_MLDSA_POLYT1_BYTES);
        vg_mldsa_poly_shiftl(&ws.t);
        be->ntt(&ws.t);
        if (fu) {
            /* The sequence below in one pass (poly.h, verify_row). */
            fu->verify_row(&ws.w1, &ws.acc, &ws.c, &ws.t, &ws.h[i], GAMMA2);
        } else {
            be->pointwise(&ws.t, &ws.t, &ws.c);
            be->sub(&ws.acc, &ws.acc, &ws.t);
            be->invntt_tomont(&ws.acc);
            be->caddq(&ws.acc);
            /* w1' = UseHint(h, w'_Approx) (line 10). */
            vg_mldsa_poly_use_hint(&ws.w1, &ws.acc, &ws.h[i], GAMMA2);
        }
        vg_mldsa_polyw1_pack(ws.w1enc + i * POLYW1_BYTES, &ws.w1, GAMMA2);
    }
    /* c-tilde' = H(mu || w1Encode(w1'), lambda/4) (line 12). */
    vg_shake256_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, mu, VG_MLDSA_CRHBYTES);
    vg_keccak_absorb(&ctx, ws.w1enc, sizeof ws.w1enc);
    vg_keccak_finalize(&ctx);
    vg_keccak_squeeze(&ctx, ws.ctilde2, CTILDEBYTES);
    return vg_ct_memcmp(ws.ctilde2, sig, CTILDEBYTES) == 0 ? VG_OK : VG_ERR_VERIFY;
}

/* mu = H(tr || prefix || msg, 64), where tr = H(pk, 64) or read from sk.
 * prefix is M' minus the message: empty (internal interface) or
 * 0 || |ctx| || ctx (pure ML-DSA, Algorithms 2-3 line 5/ line 5). */
static void vg_mldsa_mu(uint8_t mu[VG_MLDSA_CRHBYTES], const uint8_t tr[VG_MLDSA_CRHBYTES],
                        const uint8_t *prefix, size_t prefix_len, const uint8_t *ctx_bytes,
                        size_t ctx_len, const uint8_t *msg, size_t msg_len)
{
    vg_keccak_ctx ctx;
    vg_shake256_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, tr, VG_MLDSA_CRHBYTES);
    if (prefix_len)
        vg_keccak_absorb(&ctx, prefix, prefix_len);
    if (ctx_len)
        vg_keccak_absorb(&ctx, ctx_bytes, ctx_len);
    if (msg_len)
        vg_keccak_absorb(&ctx, msg, msg_len);
    vg_keccak_finalize(&ctx);
    vg_keccak_squeeze(&ctx, mu, VG_MLDSA_CRHBYTES);
    vg_wipe(&ctx, sizeof ctx);
}

/* ---- public API --------------------------------------------------------- */

/* ML-DSA.KeyGen_internal(xi). Specification: FIPS 204, Algorithm 6. */
int VG_MLDSA_API(keypair_derand)(uint8_t *pk, uint8_t *sk, const uint8_t seed[32])
{
    if (!pk || !sk || !seed) {
        if (pk)
            memset(pk, 0, PK_BYTES);
        if (sk)
            vg_wipe(sk, SK_BYTES);
        return VG_ERR_INPUT;
    }
    vg_mldsa_keygen(pk, sk, seed);
    return VG_OK;
}

/* ML-DSA.KeyGen: xi from the OS. Specification: FIPS 204, Algorithm 1. */
int VG_MLDSA_API(keypair)(uint8_t *pk, uint8_t *sk)
{
    uint8_t xi[VG_MLDSA_SYMBYTES];
    int ret;
    if (!pk || !sk) {
        ret = VG_MLDSA_API(keypair_derand)(pk, sk, NULL);
    } else if (vg_randombytes(xi, sizeof xi) != VG_OK) {
        memset(pk, 0, PK_BYTES);
        vg_wipe(sk, SK_BYTES);
        ret = VG_ERR_RANDOM;
    } else {
        ret = VG_MLDSA_API(keypair_derand)(pk, sk, xi);
    }
    vg_wipe(xi, sizeof xi);
    return ret;
}

/* External mu: Algorithm 7 from line 7 on. */
int VG_MLDSA_API(sign_mu)(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                          const uint8_t rnd[32])
{
    if (!sig)
        return VG_ERR_INPUT;
    if (!mu || !sk || !rnd) {
        memset(sig, 0, SIG_BYTES);
        return VG_ERR_INPUT;
    }
    return VG_MLDSA_SIGN_CORE(sig, mu, sk, rnd, NULL);
}

/* ML-DSA.Sign_internal(sk, M', rnd). Specification: FIPS 204, Algorithm 7. */
int VG_MLDSA_API(sign_internal)(uint8_t *sig, const uint8_t *mprime, size_t mprime_len,
                                const uint8_t *sk, const uint8_t rnd[32])
{
    uint8_t mu[VG_MLDSA_CRHBYTES];
    int ret;
    if (!sig)
        return VG_ERR_INPUT;
    if ((!mprime && mprime_len) || !sk || !rnd) {
        memset(sig, 0, SIG_BYTES);
        return VG_ERR_INPUT;
    }
    vg_mldsa_mu(mu, sk + SK_TR, NULL, 0, NULL, 0, mprime, mprime_len); /* line 6 */
    ret = VG_MLDSA_SIGN_CORE(sig, mu, sk, rnd, NULL);
    vg_wipe(mu, sizeof mu);
    return ret;
}

/* ML-DSA.Sign with rnd given: M' = 0 || |ctx| || ctx || M.
 * Specification: FIPS 204, Algorithm 2 (lines 5-10 with rnd supplied). */
int VG_MLDSA_API(sign_derand)(uint8_t *sig, const uint8_t *msg, size_t msg_len,
                              const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                              const uint8_t rnd[32])
{
    uint8_t mu[VG_MLDSA_CRHBYTES], prefix[2];
    int ret;
    if (!sig)
        return VG_ERR_INPUT;
    if ((!msg && msg_len) || (!ctx && ctx_len) || ctx_len > VG_MLDSA_CTXMAXBYTES || !sk || !rnd) {
        memset(sig, 0, SIG_BYTES);
        return VG_ERR_INPUT;
    }
    prefix[0] = 0;
    prefix[1] = (uint8_t)ctx_len;
    vg_mldsa_mu(mu, sk + SK_TR, prefix, 2, ctx, ctx_len, msg, msg_len);
    ret = VG_MLDSA_SIGN_CORE(sig, mu, sk, rnd, NULL);
    vg_wipe(mu, sizeof mu);
    return ret;
}

/* ML-DSA.Sign, hedged: rnd from the OS. Specification: FIPS 204, Algorithm 2. */
int VG_MLDSA_API(sign)(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                       size_t ctx_len, const uint8_t *sk)
{
    uint8_t rnd[VG_MLDSA_RNDBYTES];
    int ret;
    if (!sig)
        return VG_ERR_INPUT;
    if ((!msg && msg_len) || (!ctx && ctx_len) || ctx_len > VG_MLDSA_CTXMAXBYTES || !sk) {
        memset(sig, 0, SIG_BYTES);
        return VG_ERR_INPUT;
    }
    if (vg_randombytes(rnd, sizeof rnd) != VG_OK) {
        memset(sig, 0, SIG_BYTES);
        return VG_ERR_RANDOM;
    }
    ret = VG_MLDSA_API(sign_derand)(sig, msg, msg_len, ctx, ctx_len, sk, rnd);
    vg_wipe(rnd, sizeof rnd);
    return ret;
}

int VG_MLDSA_INTERNAL(sign_mu_counted)(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                                       const uint8_t rnd[32], unsigned *attempts)
{
    return VG_MLDSA_SIGN_CORE(sig, mu, sk, rnd, attempts);
}

/* External mu: Algorithm 8 from line 7 on (tr and mu are the caller's). */
int VG_MLDSA_API(verify_mu)(const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                            const uint8_t *pk)
{
    if (!sig || !mu || !pk)
        return VG_ERR_INPUT;
    if (sig_len != SIG_BYTES)
        return VG_ERR_VERIFY;
    return vg_mldsa_verify_mu_core(sig, mu, pk);
}

/* ML-DSA.Verify_internal(pk, M', sigma). Specification: FIPS 204, Algorithm 8. */
int VG_MLDSA_API(verify_internal)(const uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                                  size_t mprime_len, const uint8_t *pk)
{
    uint8_t tr[VG_MLDSA_CRHBYTES], mu[VG_MLDSA_CRHBYTES];
    if (!sig || (!mprime && mprime_len) || !pk)
        return VG_ERR_INPUT;
    if (sig_len != SIG_BYTES)
        return VG_ERR_VERIFY;
    vg_shake256(tr, sizeof tr, pk, PK_BYTES); /* line 6 */
    vg_mldsa_mu(mu, tr, NULL, 0, NULL, 0, mprime, mprime_len); /* line 7 */
    return vg_mldsa_verify_mu_core(sig, mu, pk);
}

/* ML-DSA.Verify: M' = 0 || |ctx| || ctx || M.
 * Specification: FIPS 204, Algorithm 3. */
int VG_MLDSA_API(verify)(const uint8_t *sig, size_t sig_len, const uint8_t *msg, size_t msg_len,
                         const uint8_t *ctx, size_t ctx_len, const uint8_t *pk)
{
    uint8_t tr[VG_MLDSA_CRHBYTES], mu[VG_MLDSA_CRHBYTES], prefix[2];
    if (!sig || (!msg && msg_len) || (!ctx && ctx_len) || !pk || ctx_len > VG_MLDSA_CTXMAXBYTES)
        return VG_ERR_INPUT;
    if (sig_len != SIG_BYTES)
        return VG_ERR_VERIFY;
    prefix[0] = 0;
    prefix[1] = (uint8_t)ctx_len;
    vg_shake256(tr, sizeof tr, pk, PK_BYTES);
    vg_mldsa_mu(mu, tr, prefix, 2, ctx, ctx_len, msg, msg_len);
    return vg_mldsa_verify_mu_core(sig, mu, pk);
}

#undef K
#undef L
#undef ETA
#undef TAU
#undef BETA
#undef GAMMA1
#undef GAMMA2
#undef OMEGA
#undef CTILDEBYTES
#undef POLYETA_BYTES
#undef POLYZ_BYTES
#undef POLYW1_BYTES
#undef PK_BYTES
#undef SK_BYTES
#undef SIG_BYTES
#undef SK_KEY
#undef SK_TR
#undef SK_S1
#undef SK_S2
#undef SK_T0
#undef MAX_SIGN_ITERATIONS
#undef VG_MLDSA_INTERNAL
#undef VG_MLDSA_SIGN_CORE
#undef VG_MLDSA_SMALL_SIGN
