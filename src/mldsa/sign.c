/*
 * ML-DSA (FIPS 204) signing for one parameter set (params.h; this file is
 * compiled once per set, vg_param_set in CMakeLists.txt): ML-DSA.Sign_internal
 * from mu on (Algorithm 7), in one of two layouts of the working state that
 * share the loop skeleton (vg_mldsa_sign_mu_core) and HintBitPack:
 *
 *   big-stack (ML-DSA-44, -65; ML-DSA-87 with -DVG_MLDSA87_LOWSTACK=OFF):
 *     the whole A-hat (k l polynomials) and s1-hat, s2-hat, t0-hat, y, z, w,
 *     h are kept, so that the rejection loop redoes nothing;
 *   low-stack (ML-DSA-87 by default, below 64 KiB as issue 6 asks): A-hat
 *     packed at 3 bytes a coefficient and the rest recomputed per attempt
 *     (see the comment before its state below). test_stack measures both.
 *
 * Each layout defines struct vg_mldsa_sign_state (the secret part in ws,
 * wiped at the end, with the field names the skeleton uses: in, rhopp,
 * ctilde, c) and the phases the skeleton calls: setup (skDecode, A-hat),
 * mask_w (lines 11-16), z (lines 18, 20, 23), hints (lines 19, 21-28),
 * the hint accessor of HintBitPack and encode (the rest of sigEncode).
 * Constant time apart from the number of attempts and where an attempt was
 * rejected: each norm check is computed in full over its polynomial, and an
 * attempt stops at the first polynomial whose check fails (the verdicts are
 * declassified one by one in vg_mldsa_sign_verdict; the reason below).
 */
#include <string.h>

#include "common.h"
#include "hashml.h"
#include "mldsa_internal.h"
#include "params.h"
#include "poly.h"
#include "small.h"

/* 1 when the attempt is rejected so far. Declassify: the outcome of a norm
 * check (z, r0, ct0) may be public; only the values checked must stay
 * secret. A rejected attempt's candidate is discarded, and which check
 * failed, and at which polynomial, depends on that candidate (from y, a
 * fresh mask per attempt) as the attempt count does; the Dilithium round-3
 * specification (section 5.5) argues that the rejection condition need not
 * be hidden, and mldsa-native declassifies each check the same way. What
 * stays secret: z, r0, ct0 and the hints of every attempt, and the
 * coefficient at which a check failed. */
static inline unsigned vg_mldsa_sign_verdict(unsigned reject)
{
    VG_CT_DECLASSIFY(&reject, sizeof reject);
    return vg_barrier_u32(reject) != 0;
}

#if !VG_MLDSA_SMALL_SIGN
/* ---- big-stack layout ---------------------------------------------------- */

/* The whole of A-hat (FIPS 204, Algorithm 32), four entries at a time. */
static void vg_mldsa_expand_a(const struct vg_mldsa_backend *be,
                              vg_mldsa_poly mat[VG_MLDSA_K][VG_MLDSA_L],
                              const uint8_t rho[VG_MLDSA_SYMBYTES])
{
    vg_mldsa_poly *r[VG_MLDSA_K * VG_MLDSA_L];
    uint8_t idx[VG_MLDSA_K * VG_MLDSA_L][2];
    for (unsigned i = 0; i < VG_MLDSA_K; i++)
        for (unsigned j = 0; j < VG_MLDSA_L; j++) {
            r[i * VG_MLDSA_L + j] = &mat[i][j];
            idx[i * VG_MLDSA_L + j][0] = (uint8_t)j;
            idx[i * VG_MLDSA_L + j][1] = (uint8_t)i;
        }
    vg_mldsa_poly_uniform_many(be, r, rho, (const uint8_t(*)[2])idx, VG_MLDSA_K * VG_MLDSA_L);
}

/* One row of t0 for the fast signing layout: its 32-bit NTT (q) or its
 * split small transforms (m, small.h), as vg_mldsa_small_t0_ok decides. */
typedef union {
    vg_mldsa_poly q;
    vg_mldsa_st0 m;
} vg_mldsa_t0hat;

/* ct0 = c t0 (FIPS 204 Algorithm 7 line 25), exactly (st0: c from sc, the
 * small transform; scratch overwritten) or as NTT^-1(c-hat o t0-hat) with
 * |.| < q (c-hat = chat; scratch unused). */
static void vg_mldsa_sign_ct0(const struct vg_mldsa_backend *be, int st0, vg_mldsa_poly *r,
                              const vg_mldsa_poly *chat, const vg_mldsa_spoly *sc,
                              const vg_mldsa_t0hat *t0, vg_mldsa_poly *scratch)
{
    if (st0) {
        vg_mldsa_small_t0_mul(be, r, sc, &t0->m.lo, &t0->m.hi, scratch);
    } else {
        be->pointwise(r, chat, &t0->q);
        be->invntt_tomont(r);
    }
}

struct vg_mldsa_sign_state {
    struct {
        uint8_t rho[VG_MLDSA_SYMBYTES];
        uint8_t in[VG_MLDSA_SYMBYTES * 2 + VG_MLDSA_CRHBYTES]; /* K || rnd || mu */
        uint8_t rhopp[VG_MLDSA_CRHBYTES];
        uint8_t w1enc[VG_MLDSA_K * VG_MLDSA_POLYW1_BYTES];
        uint8_t ctilde[VG_MLDSA_CTILDEBYTES];
        /* s1, s2 and c transformed for the small products (small.h). */
        _Alignas(64) vg_mldsa_spoly ss1[VG_MLDSA_L], ss2[VG_MLDSA_K], sc;
        _Alignas(64) vg_mldsa_t0hat t0[VG_MLDSA_K];
        /* y[0..L) this attempt's y; y[L..L + 3) room for the rest of a
         * four-way pass, kept for the next attempt (mask_w). */
        vg_mldsa_poly y[VG_MLDSA_L + 3], z[VG_MLDSA_L];
        vg_mldsa_poly w[VG_MLDSA_K], h[VG_MLDSA_K];
        vg_mldsa_poly c, t, u;
        unsigned ready; /* y[0..ready): made ahead, public */
    } ws;
    /* A-hat: public (ExpandA of the public rho), so outside ws and not
     * wiped (16-30 KiB less to clear per signature). */
    vg_mldsa_poly mat[VG_MLDSA_K][VG_MLDSA_L];
};

/* skDecode (line 1), with the range check of s1 and s2; lines 2-5: their
 * small transforms, t0-hat (|t0| <= 2^12 < q) and A-hat. VG_ERR_INPUT for
 * s1/s2 fields out of range (then the transforms' values do not matter). */
static int vg_mldsa_sign_setup(const struct vg_mldsa_backend *be, struct vg_mldsa_sign_state *st,
                               const uint8_t sk[VG_MLDSA_SK_BYTES])
{
    const int st0 = vg_mldsa_small_t0_ok(be); /* c t0 through the small products */
    unsigned bad = 0;
    for (unsigned j = 0; j < VG_MLDSA_L; j++) {
        bad |= vg_mldsa_polyeta_unpack(
            be, &st->ws.t, sk + VG_MLDSA_SK_S1 + j * VG_MLDSA_POLYETA_BYTES, VG_MLDSA_ETA);
        be->small_ntt(&st->ws.ss1[j], &st->ws.t);
    }
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        const uint8_t *t0 = sk + VG_MLDSA_SK_T0 + i * VG_MLDSA_POLYT0_BYTES;
        bad |= vg_mldsa_polyeta_unpack(
            be, &st->ws.t, sk + VG_MLDSA_SK_S2 + i * VG_MLDSA_POLYETA_BYTES, VG_MLDSA_ETA);
        be->small_ntt(&st->ws.ss2[i], &st->ws.t);
        if (st0) {
            vg_mldsa_polyt0_unpack(be, &st->ws.t, t0);
            vg_mldsa_small_t0_ntt(be, &st->ws.t0[i].m.lo, &st->ws.t0[i].m.hi, &st->ws.t, &st->ws.u);
        } else {
            vg_mldsa_polyt0_unpack(be, &st->ws.t0[i].q, t0);
            be->ntt(&st->ws.t0[i].q);
        }
    }
    /* Declassify: the verdict on the key, which is the function's result
     * (public output: VG_ERR_INPUT). */
    VG_CT_DECLASSIFY(&bad, sizeof bad);
    if (vg_barrier_u32(bad))
        return VG_ERR_INPUT;
    /* Declassify: rho, the first field of sk, is the public key's first
     * field too (Algorithms 22, 24): ExpandA may run in variable time on it. */
    memcpy(st->ws.rho, sk, VG_MLDSA_SYMBYTES);
    VG_CT_DECLASSIFY(st->ws.rho, sizeof st->ws.rho);
    vg_mldsa_expand_a(be, st->mat, st->ws.rho);
    st->ws.ready = 0;
    return VG_OK;
}

/* Lines 11-16: y = ExpandMask(rho'', kappa), w = NTT^-1(A-hat o NTT(y)),
 * w1 = HighBits(w), c-tilde = H(mu || w1Encode(w1)), c = SampleInBall. */
static void vg_mldsa_sign_mask_w(const struct vg_mldsa_backend *be, struct vg_mldsa_sign_state *st,
                                 uint8_t sig[VG_MLDSA_SIG_BYTES],
                                 const uint8_t mu[VG_MLDSA_CRHBYTES], unsigned kappa)
{
    vg_keccak_ctx ctx;
    (void)sig;
    /* |y| <= gamma1 < q. Entry j is the polynomial of nonce kappa + j, so
     * the attempts together use nonces 0, 1, 2, ... in order: they are
     * drawn as one stream, four per four-way pass, and a pass that passes
     * y[L - 1] makes the next attempt's first ones (ready; moved to the
     * front by vg_mldsa_sign_z), instead of running a remainder of l mod 4
     * on its own. Made-ahead entries of the last attempt are unused and
     * wiped with ws; a nonce past 2^16 - 1 there wraps (no attempt reaches
     * it: VG_MLDSA_MAX_SIGN_ITERATIONS). */
    for (unsigned j = st->ws.ready; j < VG_MLDSA_L; j += 4)
        vg_mldsa_poly_uniform_gamma1_4(be, &st->ws.y[j], st->ws.rhopp, (uint16_t)(kappa + j), 4,
                                       VG_MLDSA_GAMMA1);
    for (unsigned j = 0; j < VG_MLDSA_L; j++) {
        st->ws.z[j] = st->ws.y[j];
        be->ntt(&st->ws.z[j]);
    }
    /* w in [0, q) (line 12); w1 = HighBits(w) (line 14), packed. */
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        be->pointwise_acc(&st->ws.w[i], st->mat[i], st->ws.z, VG_MLDSA_L);
        be->invntt_tomont(&st->ws.w[i]);
        if (be->sign_w_pass) {
            be->sign_w_pass(&st->ws.w[i], &st->ws.t, VG_MLDSA_GAMMA2);
        } else {
            be->caddq(&st->ws.w[i]);
            be->decompose(&st->ws.t, NULL, &st->ws.w[i], VG_MLDSA_GAMMA2);
        }
        vg_mldsa_polyw1_pack(be, st->ws.w1enc + i * VG_MLDSA_POLYW1_BYTES, &st->ws.t,
                             VG_MLDSA_GAMMA2);
    }
    /* c-tilde = H(mu || w1Encode(w1), lambda/4) (line 15). */
    vg_shake256_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, mu, VG_MLDSA_CRHBYTES);
    vg_keccak_absorb(&ctx, st->ws.w1enc, sizeof st->ws.w1enc);
    vg_keccak_finalize(&ctx);
    vg_keccak_squeeze(&ctx, st->ws.ctilde, VG_MLDSA_CTILDEBYTES);
    vg_mldsa_poly_challenge(be, &st->ws.c, st->ws.ctilde, VG_MLDSA_CTILDEBYTES, VG_MLDSA_TAU);
    vg_wipe(&ctx, sizeof ctx);
}

/* z = y + c s1 (lines 18, 20): exact, |cs1| <= 196; |y| <= gamma1, the sum
 * is reduce32'd; returns ||z|| >= gamma1 - beta (line 23). Also c for the
 * small products (line 17); c-hat for t0, where needed, is made by the
 * hints phase, which a rejected z skips. */
static unsigned vg_mldsa_sign_z(const struct vg_mldsa_backend *be, struct vg_mldsa_sign_state *st,
                                uint8_t sig[VG_MLDSA_SIG_BYTES],
                                const uint8_t sk[VG_MLDSA_SK_BYTES])
{
    unsigned reject = 0;
    (void)sig;
    (void)sk;
    be->small_ntt(&st->ws.sc, &st->ws.c); /* |c| <= 1 */
    for (unsigned j = 0; j < VG_MLDSA_L; j++) {
        be->small_mul(&st->ws.z[j], &st->ws.sc, &st->ws.ss1[j]);
        if (be->sign_z_pass) {
            reject |= be->sign_z_pass(&st->ws.z[j], &st->ws.y[j], VG_MLDSA_GAMMA1 - VG_MLDSA_BETA);
        } else {
            be->add(&st->ws.z[j], &st->ws.z[j], &st->ws.y[j]);
            be->reduce(&st->ws.z[j]);
            reject |= be->chknorm(&st->ws.z[j], VG_MLDSA_GAMMA1 - VG_MLDSA_BETA);
        }
        if (vg_mldsa_sign_verdict(reject))
            break; /* z_j too long: the attempt is rejected */
    }
    /* The made-ahead entries (nonces kappa + L ..) to the front: y[0..L) is
     * not read again in this attempt. */
    unsigned made = st->ws.ready + 4 * ((VG_MLDSA_L - st->ws.ready + 3) / 4); /* entries filled */
    st->ws.ready = made - VG_MLDSA_L;                                         /* 0..3, public */
    for (unsigned j = 0; j < st->ws.ready; j++)
        st->ws.y[j] = st->ws.y[VG_MLDSA_L + j];
    return reject;
}

/* Per row: r = w - <<c s2>> (lines 19, 21), ||LowBits(r)|| (line 23),
 * ct0 = <<c t0>> (line 25, check line 28), h = MakeHint(-ct0, w - cs2 +
 * ct0) (line 26) = [HighBits(w - cs2 + ct0) != HighBits(w - cs2)], into
 * ws.h. Returns the verdict, stopping at the first row whose r0 check
 * fails; *nhints the number of hints. */
static unsigned vg_mldsa_sign_hints(const struct vg_mldsa_backend *be,
                                    struct vg_mldsa_sign_state *st,
                                    const uint8_t sk[VG_MLDSA_SK_BYTES], unsigned *nhints)
{
    const int st0 = vg_mldsa_small_t0_ok(be);
    unsigned reject = 0;
    (void)sk;
    if (!st0)
        be->ntt(&st->ws.c); /* c-hat for t0; else ws.c is scratch from here */
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        /* t keeps r in [0, q). */
        be->small_mul(&st->ws.t, &st->ws.sc, &st->ws.ss2[i]); /* exact, |.| <= 196 */
        if (be->sign_r_pass) {
            /* The passes below in two (poly.h, sign_r_pass and sign_h_pass):
             * r in t, HighBits(r) kept in h[i] (not computed twice), ct0 in
             * u, the hints over h[i]. */
            unsigned nh;
            reject |= be->sign_r_pass(&st->ws.t, &st->ws.h[i], &st->ws.w[i], VG_MLDSA_GAMMA2,
                                      VG_MLDSA_GAMMA2 - VG_MLDSA_BETA);
            if (vg_mldsa_sign_verdict(reject))
                break; /* r0 of row i too long */
            vg_mldsa_sign_ct0(be, st0, &st->ws.u, &st->ws.c, &st->ws.sc, &st->ws.t0[i], &st->ws.c);
            reject |= be->sign_h_pass(&st->ws.h[i], &nh, &st->ws.u, &st->ws.t, &st->ws.h[i],
                                      VG_MLDSA_GAMMA2, VG_MLDSA_GAMMA2);
            *nhints += nh;
            continue;
        }
        be->sub(&st->ws.t, &st->ws.w[i], &st->ws.t);
        be->reduce(&st->ws.t);
        be->caddq(&st->ws.t);
        be->decompose(&st->ws.u, &st->ws.h[i], &st->ws.t, VG_MLDSA_GAMMA2); /* h[i]: scratch r0 */
        reject |= be->chknorm(&st->ws.h[i], VG_MLDSA_GAMMA2 - VG_MLDSA_BETA);
        if (vg_mldsa_sign_verdict(reject))
            break; /* r0 of row i too long */
        vg_mldsa_sign_ct0(be, st0, &st->ws.u, &st->ws.c, &st->ws.sc, &st->ws.t0[i], &st->ws.c);
        be->reduce(&st->ws.u); /* the range chknorm needs */
        reject |= be->chknorm(&st->ws.u, VG_MLDSA_GAMMA2);
        be->add(&st->ws.u, &st->ws.t, &st->ws.u);
        be->reduce(&st->ws.u);
        be->caddq(&st->ws.u);
        be->decompose(&st->ws.t, NULL, &st->ws.t, VG_MLDSA_GAMMA2); /* HighBits(w - cs2) */
        *nhints += be->make_hint(&st->ws.h[i], &st->ws.u, &st->ws.t, VG_MLDSA_GAMMA2);
    }
    return reject;
}

/* Hint bit j of row i of the accepted attempt (HintBitPack's input). */
static inline unsigned vg_mldsa_sign_hint(const struct vg_mldsa_sign_state *st, unsigned i,
                                          unsigned j)
{
    return (unsigned)st->ws.h[i].coeffs[j]; /* 0 or 1 */
}

/* sigEncode's z field (line 33; z is centred already: |z| < gamma1 - beta
 * after the check), and the declassification of the hints. */
static void vg_mldsa_sign_encode_z(const struct vg_mldsa_backend *be,
                                   struct vg_mldsa_sign_state *st, uint8_t sig[VG_MLDSA_SIG_BYTES])
{
    /* Declassify: the accepted attempt's hints are the signature's last
     * field (sigEncode, Algorithm 26), a public output; HintBitPack
     * indexes memory with their running count. */
    VG_CT_DECLASSIFY(st->ws.h, sizeof st->ws.h);
    for (unsigned j = 0; j < VG_MLDSA_L; j++)
        vg_mldsa_polyz_pack(be, sig + VG_MLDSA_CTILDEBYTES + j * VG_MLDSA_POLYZ_BYTES, &st->ws.z[j],
                            VG_MLDSA_GAMMA1);
}

#else
/* ---- low-stack layout ---------------------------------------------------- */

/* ML-DSA-87 signing in less stack (issue 6: at most 64 KiB; the layout
 * above needs about twice that, test_stack). What the fast layout keeps for the whole loop and
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
struct vg_mldsa_sign_state {
    struct {
        uint8_t rho[VG_MLDSA_SYMBYTES];
        uint8_t in[VG_MLDSA_SYMBYTES * 2 + VG_MLDSA_CRHBYTES]; /* K || rnd || mu */
        uint8_t rhopp[VG_MLDSA_CRHBYTES];
        uint8_t ctilde[VG_MLDSA_CTILDEBYTES];
        uint8_t w1row[VG_MLDSA_POLYW1_BYTES];
        uint8_t hbits[VG_MLDSA_K][VG_MLDSA_N / 8];
        uint8_t apk[VG_MLDSA_K * VG_MLDSA_L][3 * VG_MLDSA_N];
        vg_mldsa_poly w[VG_MLDSA_K];
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
};

/* skDecode's range check of s1 and s2 (line 1; the values are unpacked
 * again where used); A-hat (line 5), four entries at a time through ws.y,
 * packed. VG_ERR_INPUT for s1/s2 fields out of range. */
static int vg_mldsa_sign_setup(const struct vg_mldsa_backend *be, struct vg_mldsa_sign_state *st,
                               const uint8_t sk[VG_MLDSA_SK_BYTES])
{
    unsigned bad = 0;
    for (unsigned j = 0; j < VG_MLDSA_L + VG_MLDSA_K; j++)
        bad |= vg_mldsa_polyeta_unpack(
            be, &st->ws.tu.t, sk + VG_MLDSA_SK_S1 + j * VG_MLDSA_POLYETA_BYTES, VG_MLDSA_ETA);
    /* Declassify: the verdict on the key, which is the function's result
     * (public output: VG_ERR_INPUT). */
    VG_CT_DECLASSIFY(&bad, sizeof bad);
    if (vg_barrier_u32(bad))
        return VG_ERR_INPUT;
    /* Declassify: rho, the first field of sk, is the public key's first
     * field too (Algorithms 22, 24): ExpandA may run in variable time on it. */
    memcpy(st->ws.rho, sk, VG_MLDSA_SYMBYTES);
    VG_CT_DECLASSIFY(st->ws.rho, sizeof st->ws.rho);
    /* Entry e = i l + j is A-hat[i][j] = RejNTTPoly(rho || j || i). */
    for (unsigned e = 0; e < VG_MLDSA_K * VG_MLDSA_L; e += 4) {
        vg_mldsa_poly *r[4];
        uint8_t idx[4][2];
        for (unsigned k = 0; k < 4; k++) {
            unsigned ee = e + k < VG_MLDSA_K * VG_MLDSA_L ? e + k : VG_MLDSA_K * VG_MLDSA_L - 1;
            r[k] = &st->ws.y[k];
            idx[k][0] = (uint8_t)(ee % VG_MLDSA_L);
            idx[k][1] = (uint8_t)(ee / VG_MLDSA_L);
        }
        vg_mldsa_poly_uniform_x4_small(be, r, st->ws.rho, (const uint8_t(*)[2])idx);
        for (unsigned k = 0; k < 4 && e + k < VG_MLDSA_K * VG_MLDSA_L; k++)
            vg_mldsa_poly_pack24(be, st->ws.apk[e + k], &st->ws.y[k]);
    }
    return VG_OK;
}

/* Lines 11-16: w = NTT^-1(A-hat o NTT(y)), four columns at a time, y kept
 * as ExpandMask's bytes in sig's z field: each group's sum is
 * Montgomery-reduced (< q), so w stays below 2q < 2^27, the inverse NTT's
 * bound. c-tilde = H(mu || w1Encode(w1)), w1Encode absorbed row by row as
 * each is packed; c = SampleInBall(c-tilde). */
static void vg_mldsa_sign_mask_w(const struct vg_mldsa_backend *be, struct vg_mldsa_sign_state *st,
                                 uint8_t sig[VG_MLDSA_SIG_BYTES],
                                 const uint8_t mu[VG_MLDSA_CRHBYTES], unsigned kappa)
{
    vg_keccak_ctx ctx;
    memset(st->ws.w, 0, sizeof st->ws.w);
    for (unsigned j0 = 0; j0 < VG_MLDSA_L; j0 += 4) {
        unsigned n = VG_MLDSA_L - j0 < 4 ? VG_MLDSA_L - j0 : 4;
        uint8_t *yb[4];
        for (unsigned k = 0; k < 4; k++)
            yb[k] = sig + VG_MLDSA_CTILDEBYTES + (j0 + (k < n ? k : 0)) * VG_MLDSA_POLYZ_BYTES;
        vg_mldsa_poly_mask_bytes_4(yb, st->ws.rhopp, (uint16_t)(kappa + j0), n, VG_MLDSA_GAMMA1);
        for (unsigned k = 0; k < n; k++) {
            vg_mldsa_polyz_unpack(be, &st->ws.y[k], yb[k], VG_MLDSA_GAMMA1);
            be->ntt(&st->ws.y[k]);
        }
        for (unsigned i = 0; i < VG_MLDSA_K; i++)
            be->pointwise_acc24(&st->ws.w[i], &st->ws.apk[i * VG_MLDSA_L + j0], st->ws.y, n);
    }
    vg_shake256_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, mu, VG_MLDSA_CRHBYTES);
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        be->invntt_tomont(&st->ws.w[i]);
        if (be->sign_w_pass) {
            be->sign_w_pass(&st->ws.w[i], &st->ws.tu.t, VG_MLDSA_GAMMA2);
        } else {
            be->caddq(&st->ws.w[i]);
            be->decompose(&st->ws.tu.t, NULL, &st->ws.w[i], VG_MLDSA_GAMMA2);
        }
        vg_mldsa_polyw1_pack(be, st->ws.w1row, &st->ws.tu.t, VG_MLDSA_GAMMA2);
        vg_keccak_absorb(&ctx, st->ws.w1row, sizeof st->ws.w1row);
    }
    vg_keccak_finalize(&ctx);
    vg_keccak_squeeze(&ctx, st->ws.ctilde, VG_MLDSA_CTILDEBYTES);
    vg_mldsa_poly_challenge(be, &st->ws.c, st->ws.ctilde, VG_MLDSA_CTILDEBYTES, VG_MLDSA_TAU);
    vg_wipe(&ctx, sizeof ctx);
}

/* z = y + <<c s1>> (lines 18, 20), y unpacked from sig again; returns
 * ||z|| >= gamma1 - beta (line 23); z packed into sig over y (sigEncode's
 * z field). c transformed for the products with s1 and s2 (|c| <= 1). */
static unsigned vg_mldsa_sign_z(const struct vg_mldsa_backend *be, struct vg_mldsa_sign_state *st,
                                uint8_t sig[VG_MLDSA_SIG_BYTES],
                                const uint8_t sk[VG_MLDSA_SK_BYTES])
{
    unsigned reject = 0;
    be->small_ntt(&st->ws.sc, &st->ws.c);
    for (unsigned j = 0; j < VG_MLDSA_L; j++) {
        uint8_t *zb = sig + VG_MLDSA_CTILDEBYTES + j * VG_MLDSA_POLYZ_BYTES;
        vg_mldsa_polyz_unpack(be, &st->ws.y[0], zb, VG_MLDSA_GAMMA1);
        (void)vg_mldsa_polyeta_unpack(
            be, &st->ws.tu.t, sk + VG_MLDSA_SK_S1 + j * VG_MLDSA_POLYETA_BYTES, VG_MLDSA_ETA);
        be->small_ntt(&st->ws.ss, &st->ws.tu.t);
        be->small_mul(&st->ws.tu.t, &st->ws.sc, &st->ws.ss); /* exact, |.| <= 196 */
        if (be->sign_z_pass) {
            reject |= be->sign_z_pass(&st->ws.tu.t, &st->ws.y[0], VG_MLDSA_GAMMA1 - VG_MLDSA_BETA);
        } else {
            be->add(&st->ws.tu.t, &st->ws.tu.t, &st->ws.y[0]);
            be->reduce(&st->ws.tu.t);
            reject |= be->chknorm(&st->ws.tu.t, VG_MLDSA_GAMMA1 - VG_MLDSA_BETA);
        }
        /* A rejected attempt leaves sig partly y, partly z: the next
         * attempt's mask_w writes all of its y there again. */
        if (vg_mldsa_sign_verdict(reject))
            break; /* z_j too long: the attempt is rejected */
        vg_mldsa_polyz_pack(be, zb, &st->ws.tu.t, VG_MLDSA_GAMMA1);
    }
    return reject;
}

/* Per row, with ws.y[0..3] as scratch (named r, r1, r0/r1', ct0): the
 * checks and hints of lines 19, 21-28 as in the big-stack layout; the hints
 * kept as bits (ws.hbits). Returns the verdict (stopping as there); *nhints the
 * number of hints. */
static unsigned vg_mldsa_sign_hints(const struct vg_mldsa_backend *be,
                                    struct vg_mldsa_sign_state *st,
                                    const uint8_t sk[VG_MLDSA_SK_BYTES], unsigned *nhints)
{
    const int st0 = vg_mldsa_small_t0_ok(be);
    unsigned reject = 0;
    if (!st0)
        be->ntt(&st->ws.c); /* c-hat for t0 (|c| <= 1) */
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        vg_mldsa_poly *r = &st->ws.y[0], *r1 = &st->ws.y[1], *lo = &st->ws.y[2],
                      *ct0 = &st->ws.y[3];
        (void)vg_mldsa_polyeta_unpack(be, r, sk + VG_MLDSA_SK_S2 + i * VG_MLDSA_POLYETA_BYTES,
                                      VG_MLDSA_ETA);
        be->small_ntt(&st->ws.ss, r);
        be->small_mul(r, &st->ws.sc, &st->ws.ss); /* exact, |.| <= 196 */
        if (be->sign_r_pass) {
            reject |= be->sign_r_pass(r, r1, &st->ws.w[i], VG_MLDSA_GAMMA2,
                                      VG_MLDSA_GAMMA2 - VG_MLDSA_BETA);
        } else {
            be->sub(r, &st->ws.w[i], r);
            be->reduce(r);
            be->caddq(r);
            be->decompose(r1, lo, r, VG_MLDSA_GAMMA2);
            reject |= be->chknorm(lo, VG_MLDSA_GAMMA2 - VG_MLDSA_BETA);
        }
        if (vg_mldsa_sign_verdict(reject))
            break; /* r0 of row i too long */
        /* ct0 (ws.ss and lo are free here: scratch; lo's r0 was only
         * needed for its check). */
        vg_mldsa_polyt0_unpack(be, ct0, sk + VG_MLDSA_SK_T0 + i * VG_MLDSA_POLYT0_BYTES);
        if (st0) {
            vg_mldsa_small_t0_ntt(be, &st->ws.ss, &st->ws.tu.shi, ct0, lo);
            vg_mldsa_small_t0_mul(be, ct0, &st->ws.sc, &st->ws.ss, &st->ws.tu.shi, lo);
        } else {
            be->ntt(ct0);
            be->pointwise(ct0, &st->ws.c, ct0);
            be->invntt_tomont(ct0);
        }
        if (be->sign_r_pass) {
            unsigned nh;
            reject |= be->sign_h_pass(lo, &nh, ct0, r, r1, VG_MLDSA_GAMMA2, VG_MLDSA_GAMMA2);
            *nhints += nh;
        } else {
            be->reduce(ct0);
            reject |= be->chknorm(ct0, VG_MLDSA_GAMMA2);
            be->add(ct0, r, ct0);
            be->reduce(ct0);
            be->caddq(ct0);
            *nhints += be->make_hint(lo, ct0, r1, VG_MLDSA_GAMMA2);
        }
        vg_mldsa_poly_bits(be, st->ws.hbits[i], lo);
    }
    return reject;
}

static inline unsigned vg_mldsa_sign_hint(const struct vg_mldsa_sign_state *st, unsigned i,
                                          unsigned j)
{
    return (st->ws.hbits[i][j >> 3] >> (j & 7)) & 1u;
}

/* The z field is in sig already (vg_mldsa_sign_z); the hints are
 * declassified as in the big-stack layout. */
static void vg_mldsa_sign_encode_z(const struct vg_mldsa_backend *be,
                                   struct vg_mldsa_sign_state *st, uint8_t sig[VG_MLDSA_SIG_BYTES])
{
    (void)be;
    (void)sig;
    /* Declassify: the accepted hints, a field of the signature (public
     * output). */
    VG_CT_DECLASSIFY(st->ws.hbits, sizeof st->ws.hbits);
}
#endif

/* ---- the loop skeleton (both layouts) ------------------------------------ */

/* HintBitPack (Algorithm 20) of the accepted attempt's hints into hp,
 * without a branch per coefficient (the same work whatever the hints, so
 * the signing time does not vary with their pattern): every index is
 * stored at the running count, which advances by the hint bit. The count
 * never passes omega (checked in the loop), so hb[OMEGA] is the only spill
 * slot; the unused tail is zeroed by mask. */
static void vg_mldsa_hint_pack(uint8_t hp[VG_MLDSA_OMEGA + VG_MLDSA_K],
                               const struct vg_mldsa_sign_state *st)
{
    uint8_t hb[VG_MLDSA_OMEGA + 1];
    unsigned idx = 0;
    memset(hb, 0, sizeof hb);
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        for (unsigned j = 0; j < VG_MLDSA_N; j++) {
            hb[idx] = (uint8_t)j;
            idx += vg_mldsa_sign_hint(st, i, j);
        }
        hp[VG_MLDSA_OMEGA + i] = (uint8_t)idx;
    }
    for (unsigned k = 0; k < VG_MLDSA_OMEGA; k++)
        hp[k] = (uint8_t)(hb[k] & ~vg_mldsa_mask_zero_u32(((uint32_t)k - idx) >> 31));
}

/* ML-DSA.Sign_internal from mu on (Algorithm 7 lines 7-33; lines 1-6 are
 * skDecode and the precomputations, done in setup). Returns VG_OK, or
 * VG_ERR_INPUT for a secret key whose s1/s2 fields are out of range
 * (skDecode would give coefficients below -eta: not a KeyGen output) or when
 * the iteration bound is hit; sig is zeroed then. *attempts (if not NULL):
 * the number of attempts, 0 on an error.
 * Specification: FIPS 204, Algorithm 7 (with 25 skDecode, 26 sigEncode,
 * 28 w1Encode, 29 SampleInBall, 34 ExpandMask, 39 MakeHint). */
static int vg_mldsa_sign_mu_core(const struct vg_mldsa_backend *be, uint8_t sig[VG_MLDSA_SIG_BYTES],
                                 const uint8_t mu[VG_MLDSA_CRHBYTES],
                                 const uint8_t sk[VG_MLDSA_SK_BYTES],
                                 const uint8_t rnd[VG_MLDSA_SYMBYTES], unsigned *attempts)
{
    struct vg_mldsa_sign_state st;
    unsigned iter = 0;
    int ret;

    if (attempts)
        *attempts = 0;
    ret = vg_mldsa_sign_setup(be, &st, sk);
    if (ret != VG_OK)
        goto out;
    /* rho'' = H(K || rnd || mu, 64) (line 7). */
    memcpy(st.ws.in, sk + VG_MLDSA_SK_KEY, VG_MLDSA_SYMBYTES);
    memcpy(st.ws.in + VG_MLDSA_SYMBYTES, rnd, VG_MLDSA_SYMBYTES);
    memcpy(st.ws.in + 2 * VG_MLDSA_SYMBYTES, mu, VG_MLDSA_CRHBYTES);
    vg_shake256(st.ws.rhopp, sizeof st.ws.rhopp, st.ws.in, sizeof st.ws.in);
    for (unsigned kappa = 0;; iter++, kappa += VG_MLDSA_L) {
        unsigned reject, nhints = 0;
        if (iter == VG_MLDSA_MAX_SIGN_ITERATIONS) {
            ret = VG_ERR_INPUT;
            goto out;
        }
        vg_mldsa_sign_mask_w(be, &st, sig, mu, kappa);
        reject = vg_mldsa_sign_z(be, &st, sig, sk);
        if (vg_mldsa_sign_verdict(reject))
            continue; /* z rejected: no r0, ct0 or hints for this attempt */
        reject = vg_mldsa_sign_hints(be, &st, sk, &nhints);
        /* More than omega hints (line 28): the top bit of omega - nhints. */
        reject |= (unsigned)(VG_MLDSA_OMEGA - (int)nhints) >> (sizeof(unsigned) * 8 - 1);
        /* Whether an attempt is rejected is public by design: the number
         * of attempts shows in the signing time, and the security argument
         * of Fiat-Shamir with aborts covers it (vg_mldsa_sign_verdict). */
        if (!vg_mldsa_sign_verdict(reject))
            break;
    }
    if (attempts)
        *attempts = iter + 1;
    /* sigEncode(c-tilde, z mod+- q, h) (line 33). */
    memcpy(sig, st.ws.ctilde, VG_MLDSA_CTILDEBYTES);
    vg_mldsa_sign_encode_z(be, &st, sig);
    vg_mldsa_hint_pack(sig + VG_MLDSA_CTILDEBYTES + VG_MLDSA_L * VG_MLDSA_POLYZ_BYTES, &st);
out:
    if (ret != VG_OK)
        memset(sig, 0, VG_MLDSA_SIG_BYTES);
    vg_wipe(&st.ws, sizeof st.ws);
    return ret;
}

/* ---- public API ------------------------------------------------------------ */

/* External mu: Algorithm 7 from line 7 on. */
static int vg_mldsa_sign_mu_impl(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                                 const uint8_t rnd[32])
{
    if (!sig)
        return VG_ERR_INPUT;
    if (!mu || !sk || !rnd) {
        memset(sig, 0, VG_MLDSA_SIG_BYTES);
        return VG_ERR_INPUT;
    }
    return vg_mldsa_sign_mu_core(vg_mldsa_active(), sig, mu, sk, rnd, NULL);
}

/* ML-DSA.Sign_internal(sk, M', rnd). Specification: FIPS 204, Algorithm 7. */
static int vg_mldsa_sign_internal_impl(uint8_t *sig, const uint8_t *mprime, size_t mprime_len,
                                       const uint8_t *sk, const uint8_t rnd[32])
{
    uint8_t mu[VG_MLDSA_CRHBYTES];
    int ret;
    if (!sig)
        return VG_ERR_INPUT;
    if ((!mprime && mprime_len) || !sk || !rnd) {
        memset(sig, 0, VG_MLDSA_SIG_BYTES);
        return VG_ERR_INPUT;
    }
    vg_mldsa_mu(mu, sk + VG_MLDSA_SK_TR, NULL, 0, NULL, 0, mprime, mprime_len); /* line 6 */
    ret = vg_mldsa_sign_mu_core(vg_mldsa_active(), sig, mu, sk, rnd, NULL);
    vg_wipe(mu, sizeof mu);
    return ret;
}

/* ML-DSA.Sign with rnd given: M' = 0 || |ctx| || ctx || M.
 * Specification: FIPS 204, Algorithm 2 (lines 5-10 with rnd supplied). */
static int vg_mldsa_sign_derand_impl(uint8_t *sig, const uint8_t *msg, size_t msg_len,
                                     const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                                     const uint8_t rnd[32])
{
    uint8_t mu[VG_MLDSA_CRHBYTES], prefix[2];
    int ret;
    if (!sig)
        return VG_ERR_INPUT;
    if ((!msg && msg_len) || (!ctx && ctx_len) || ctx_len > VG_MLDSA_CTXMAXBYTES || !sk || !rnd) {
        memset(sig, 0, VG_MLDSA_SIG_BYTES);
        return VG_ERR_INPUT;
    }
    prefix[0] = 0;
    prefix[1] = (uint8_t)ctx_len;
    vg_mldsa_mu(mu, sk + VG_MLDSA_SK_TR, prefix, 2, ctx, ctx_len, msg, msg_len);
    ret = vg_mldsa_sign_mu_core(vg_mldsa_active(), sig, mu, sk, rnd, NULL);
    vg_wipe(mu, sizeof mu);
    return ret;
}

/* ML-DSA.Sign, hedged: rnd from the OS. Specification: FIPS 204, Algorithm 2. */
static int vg_mldsa_sign_impl(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                              size_t ctx_len, const uint8_t *sk)
{
    uint8_t rnd[VG_MLDSA_RNDBYTES];
    int ret;
    if (!sig)
        return VG_ERR_INPUT;
    if ((!msg && msg_len) || (!ctx && ctx_len) || ctx_len > VG_MLDSA_CTXMAXBYTES || !sk) {
        memset(sig, 0, VG_MLDSA_SIG_BYTES);
        return VG_ERR_INPUT;
    }
    if (vg_randombytes(rnd, sizeof rnd) != VG_OK) {
        memset(sig, 0, VG_MLDSA_SIG_BYTES);
        return VG_ERR_RANDOM;
    }
    ret = vg_mldsa_sign_derand_impl(sig, msg, msg_len, ctx, ctx_len, sk, rnd);
    vg_wipe(rnd, sizeof rnd);
    return ret;
}

/* HashML-DSA.Sign with rnd given, on the caller's digest ph:
 * M' = 1 || |ctx| || ctx || OID || ph, then Sign_internal. A wrong hash_id
 * or ph_len is VG_ERR_INPUT (sig zeroed).
 * Specification: FIPS 204, Algorithm 4 (lines 10-24 with PH given). */
static int vg_mldsa_sign_prehash_derand_impl(uint8_t *sig, const uint8_t *ph, size_t ph_len,
                                             int hash_id, const uint8_t *ctx, size_t ctx_len,
                                             const uint8_t *sk, const uint8_t rnd[32])
{
    uint8_t mu[VG_MLDSA_CRHBYTES], prefix[2], tail[VG_MLDSA_OIDPH_MAX];
    size_t tail_len = 0;
    int ret = VG_ERR_INPUT;
    if (!sig)
        return VG_ERR_INPUT;
    if ((!ctx && ctx_len) || ctx_len > VG_MLDSA_CTXMAXBYTES || !sk || !rnd ||
        vg_mldsa_prehash_tail(tail, &tail_len, hash_id, ph, ph_len) != VG_OK) {
        memset(sig, 0, VG_MLDSA_SIG_BYTES);
        return VG_ERR_INPUT;
    }
    prefix[0] = 1;
    prefix[1] = (uint8_t)ctx_len;
    /* mu = H(tr || M', 64) (Algorithm 7 line 6), tr read from sk. */
    vg_mldsa_mu(mu, sk + VG_MLDSA_SK_TR, prefix, 2, ctx, ctx_len, tail, tail_len);
    ret = vg_mldsa_sign_mu_core(vg_mldsa_active(), sig, mu, sk, rnd, NULL);
    vg_wipe(mu, sizeof mu);
    vg_wipe(tail, sizeof tail); /* the digest of a message that may be secret */
    return ret;
}

/* HashML-DSA.Sign, hedged: rnd from the OS. Specification: FIPS 204,
 * Algorithm 4. */
static int vg_mldsa_sign_prehash_impl(uint8_t *sig, const uint8_t *ph, size_t ph_len,
                                      int hash_id, const uint8_t *ctx, size_t ctx_len,
                                      const uint8_t *sk)
{
    uint8_t rnd[VG_MLDSA_RNDBYTES], tail[VG_MLDSA_OIDPH_MAX];
    size_t tail_len;
    int ret;
    if (!sig)
        return VG_ERR_INPUT;
    /* Checked before the RNG is asked, so a bad argument is VG_ERR_INPUT. */
    if ((!ctx && ctx_len) || ctx_len > VG_MLDSA_CTXMAXBYTES || !sk ||
        vg_mldsa_prehash_tail(tail, &tail_len, hash_id, ph, ph_len) != VG_OK) {
        memset(sig, 0, VG_MLDSA_SIG_BYTES);
        return VG_ERR_INPUT;
    }
    vg_wipe(tail, sizeof tail);
    if (vg_randombytes(rnd, sizeof rnd) != VG_OK) {
        memset(sig, 0, VG_MLDSA_SIG_BYTES);
        return VG_ERR_RANDOM;
    }
    ret = vg_mldsa_sign_prehash_derand_impl(sig, ph, ph_len, hash_id, ctx, ctx_len, sk, rnd);
    vg_wipe(rnd, sizeof rnd);
    return ret;
}

#if VG_MLDSA_MODE == 87
int vg_mldsa87_sign_lowstack(void) { return VG_MLDSA_SMALL_SIGN; }
#endif

static int vg_mldsa_sign_mu_counted_impl(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                                         const uint8_t rnd[32], unsigned *attempts)
{
    return vg_mldsa_sign_mu_core(vg_mldsa_active(), sig, mu, sk, rnd, attempts);
}

/* ---- the names of this set's functions ---------------------------------
 * Thin wrappers (inlined: each _impl above has this one caller), so that
 * every public function is defined under its full name. */
#if VG_MLDSA_MODE == 44
int vg_mldsa44_sign_mu(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk, const uint8_t rnd[32])
{
    return vg_mldsa_sign_mu_impl(sig, mu, sk, rnd);
}

int vg_mldsa44_sign_internal(uint8_t *sig, const uint8_t *mprime, size_t mprime_len,
                             const uint8_t *sk, const uint8_t rnd[32])
{
    return vg_mldsa_sign_internal_impl(sig, mprime, mprime_len, sk, rnd);
}

int vg_mldsa44_sign_derand(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                           size_t ctx_len, const uint8_t *sk, const uint8_t rnd[32])
{
    return vg_mldsa_sign_derand_impl(sig, msg, msg_len, ctx, ctx_len, sk, rnd);
}

int vg_mldsa44_sign(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                    size_t ctx_len, const uint8_t *sk)
{
    return vg_mldsa_sign_impl(sig, msg, msg_len, ctx, ctx_len, sk);
}

int vg_mldsa44_sign_mu_counted(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                               const uint8_t rnd[32], unsigned *attempts)
{
    return vg_mldsa_sign_mu_counted_impl(sig, mu, sk, rnd, attempts);
}

int vg_mldsa44_sign_prehash_derand(uint8_t *sig, const uint8_t *ph, size_t ph_len, int hash_id,
                                   const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                                   const uint8_t rnd[32])
{
    return vg_mldsa_sign_prehash_derand_impl(sig, ph, ph_len, hash_id, ctx, ctx_len, sk, rnd);
}

int vg_mldsa44_sign_prehash(uint8_t *sig, const uint8_t *ph, size_t ph_len, int hash_id,
                            const uint8_t *ctx, size_t ctx_len, const uint8_t *sk)
{
    return vg_mldsa_sign_prehash_impl(sig, ph, ph_len, hash_id, ctx, ctx_len, sk);
}
#elif VG_MLDSA_MODE == 65
int vg_mldsa65_sign_mu(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk, const uint8_t rnd[32])
{
    return vg_mldsa_sign_mu_impl(sig, mu, sk, rnd);
}

int vg_mldsa65_sign_internal(uint8_t *sig, const uint8_t *mprime, size_t mprime_len,
                             const uint8_t *sk, const uint8_t rnd[32])
{
    return vg_mldsa_sign_internal_impl(sig, mprime, mprime_len, sk, rnd);
}

int vg_mldsa65_sign_derand(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                           size_t ctx_len, const uint8_t *sk, const uint8_t rnd[32])
{
    return vg_mldsa_sign_derand_impl(sig, msg, msg_len, ctx, ctx_len, sk, rnd);
}

int vg_mldsa65_sign(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                    size_t ctx_len, const uint8_t *sk)
{
    return vg_mldsa_sign_impl(sig, msg, msg_len, ctx, ctx_len, sk);
}

int vg_mldsa65_sign_mu_counted(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                               const uint8_t rnd[32], unsigned *attempts)
{
    return vg_mldsa_sign_mu_counted_impl(sig, mu, sk, rnd, attempts);
}

int vg_mldsa65_sign_prehash_derand(uint8_t *sig, const uint8_t *ph, size_t ph_len, int hash_id,
                                   const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                                   const uint8_t rnd[32])
{
    return vg_mldsa_sign_prehash_derand_impl(sig, ph, ph_len, hash_id, ctx, ctx_len, sk, rnd);
}

int vg_mldsa65_sign_prehash(uint8_t *sig, const uint8_t *ph, size_t ph_len, int hash_id,
                            const uint8_t *ctx, size_t ctx_len, const uint8_t *sk)
{
    return vg_mldsa_sign_prehash_impl(sig, ph, ph_len, hash_id, ctx, ctx_len, sk);
}
#elif VG_MLDSA_MODE == 87
int vg_mldsa87_sign_mu(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk, const uint8_t rnd[32])
{
    return vg_mldsa_sign_mu_impl(sig, mu, sk, rnd);
}

int vg_mldsa87_sign_internal(uint8_t *sig, const uint8_t *mprime, size_t mprime_len,
                             const uint8_t *sk, const uint8_t rnd[32])
{
    return vg_mldsa_sign_internal_impl(sig, mprime, mprime_len, sk, rnd);
}

int vg_mldsa87_sign_derand(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                           size_t ctx_len, const uint8_t *sk, const uint8_t rnd[32])
{
    return vg_mldsa_sign_derand_impl(sig, msg, msg_len, ctx, ctx_len, sk, rnd);
}

int vg_mldsa87_sign(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                    size_t ctx_len, const uint8_t *sk)
{
    return vg_mldsa_sign_impl(sig, msg, msg_len, ctx, ctx_len, sk);
}

int vg_mldsa87_sign_mu_counted(uint8_t *sig, const uint8_t mu[64], const uint8_t *sk,
                               const uint8_t rnd[32], unsigned *attempts)
{
    return vg_mldsa_sign_mu_counted_impl(sig, mu, sk, rnd, attempts);
}

int vg_mldsa87_sign_prehash_derand(uint8_t *sig, const uint8_t *ph, size_t ph_len, int hash_id,
                                   const uint8_t *ctx, size_t ctx_len, const uint8_t *sk,
                                   const uint8_t rnd[32])
{
    return vg_mldsa_sign_prehash_derand_impl(sig, ph, ph_len, hash_id, ctx, ctx_len, sk, rnd);
}

int vg_mldsa87_sign_prehash(uint8_t *sig, const uint8_t *ph, size_t ph_len, int hash_id,
                            const uint8_t *ctx, size_t ctx_len, const uint8_t *sk)
{
    return vg_mldsa_sign_prehash_impl(sig, ph, ph_len, hash_id, ctx, ctx_len, sk);
}
#endif
