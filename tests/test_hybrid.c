/*
 * Hybrid KEMs (src/hybrid): X-Wing (draft-connolly-cfrg-xwing-kem) and
 * X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem).
 *
 * X-Wing: every vector of the draft's spec/test-vectors.json (tests/vectors/
 * xwing, SOURCES.md), then a differential on 10^3 seeds against the draft's
 * algorithms written out here from the components' public functions
 * (vg_shake256, ML-KEM-768, X25519, vg_sha3_256 of the concatenation), with
 * tampered ciphertexts. ML-KEM-768 and X25519 themselves are checked against
 * ACVP, Wycheproof, OpenSSL and libsodium by their own tests.
 * X25519MLKEM768: no published vectors; round trips on 10^3 seeds, each
 * output compared byte for byte with the draft's layout computed from the
 * components; rejection of a bad ML-KEM key, of an all-zero X25519 value and
 * of a dk failing the FIPS 203 7.3 check; the random forms and the RNG
 * failure path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgjson.h"
#include "vgcrypto.h"
#include "common.h"

#define EK 1184
#define DK 2400
#define CT 1088

/* ---- X-Wing written out from the draft, on the public components -------- */

static void ref_expand(uint8_t pk[1216], uint8_t dk[DK], uint8_t skx[32], const uint8_t sk[32])
{
    uint8_t e[96];
    vg_shake256(e, 96, sk, 32); /* expanded = SHAKE256(sk, 96 bytes) */
    vg_mlkem768_keypair_derand(pk, dk, e);
    memcpy(skx, e + 64, 32);
    vg_x25519_public_key(pk + EK, skx);
}

static void ref_combiner(uint8_t ss[32], const uint8_t ssm[32], const uint8_t ssx[32],
                         const uint8_t ctx[32], const uint8_t pkx[32])
{
    uint8_t buf[32 * 4 + 6];
    memcpy(buf, ssm, 32);
    memcpy(buf + 32, ssx, 32);
    memcpy(buf + 64, ctx, 32);
    memcpy(buf + 96, pkx, 32);
    memcpy(buf + 128, "\x5c\x2e\x2f\x2f\x5e\x5c", 6); /* XWingLabel "\./" "/^\" */
    vg_sha3_256(ss, buf, sizeof buf);
}

static void ref_encaps(uint8_t ct[1120], uint8_t ss[32], const uint8_t pk[1216],
                       const uint8_t eseed[64])
{
    uint8_t ssm[32], ssx[32];
    vg_mlkem768_encaps_derand(ct, ssm, pk, eseed);
    vg_x25519_public_key(ct + CT, eseed + 32);
    vg_x25519(ssx, eseed + 32, pk + EK);
    ref_combiner(ss, ssm, ssx, ct + CT, pk + EK);
}

static void ref_decaps(uint8_t ss[32], const uint8_t ct[1120], const uint8_t sk[32])
{
    static uint8_t pk[1216], dk[DK];
    uint8_t skx[32], ssm[32], ssx[32];
    ref_expand(pk, dk, skx, sk);
    vg_mlkem768_decaps(ssm, ct, dk);
    vg_x25519(ssx, skx, ct + CT);
    ref_combiner(ss, ssm, ssx, ct + CT, pk + EK);
}

static void test_xwing_vectors(void)
{
    cJSON *j = load_json("xwing/test-vectors.json");
    const cJSON *t;
    int n = 0;
    CHECK(j != NULL);
    cJSON_ArrayForEach(t, j)
    {
        size_t ls = 0, le = 0;
        uint8_t *seed = jhex(t, "seed", &ls), *eseed = jhex(t, "eseed", &le);
        uint8_t pk[1216], sk[32], ct[1120], ss[32], ss2[32];
        CHECK(seed && ls == 32 && eseed && le == 64);
        if (!seed || !eseed || ls != 32 || le != 64) {
            free(seed);
            free(eseed);
            continue;
        }
        CHECK(vg_xwing_keypair_derand(pk, sk, seed) == VG_OK);
        CHECK(eq_hex(pk, sizeof pk, t, "pk"));
        CHECK(eq_hex(sk, sizeof sk, t, "sk")); /* the seed form: sk = seed */
        CHECK(vg_xwing_encaps_derand(ct, ss, pk, eseed) == VG_OK);
        CHECK(eq_hex(ct, sizeof ct, t, "ct"));
        CHECK(eq_hex(ss, sizeof ss, t, "ss"));
        CHECK(vg_xwing_decaps(ss2, ct, sk) == VG_OK);
        CHECK(eq_hex(ss2, sizeof ss2, t, "ss"));
        /* In place: seed and sk the same buffer. */
        memcpy(sk, seed, 32);
        CHECK(vg_xwing_keypair_derand(pk, sk, sk) == VG_OK && eq_hex(sk, 32, t, "sk"));
        free(seed);
        free(eseed);
        n++;
    }
    cJSON_Delete(j);
    CHECK(n == 3); /* the draft's file has three */
    printf("xwing: %d draft vectors\n", n);
}

static void test_xwing_differential(void)
{
    static uint8_t pk[1216], rpk[1216], rdk[DK], ct[1120], rct[1120];
    uint8_t sk[32], seed[32], eseed[64], ss[32], rss[32], skx[32], ss_ok[32];
    uint64_t rs = 0x5857494e47ull; /* "XWING" */
    int bad = 0;
    for (int i = 0; i < 1000; i++) {
        vgtest_randbytes(&rs, seed, 32);
        vgtest_randbytes(&rs, eseed, 64);
        bad += vg_xwing_keypair_derand(pk, sk, seed) != VG_OK;
        ref_expand(rpk, rdk, skx, seed);
        bad += memcmp(pk, rpk, sizeof pk) != 0 || memcmp(sk, seed, 32) != 0;
        bad += vg_xwing_encaps_derand(ct, ss, pk, eseed) != VG_OK;
        ref_encaps(rct, rss, pk, eseed);
        bad += memcmp(ct, rct, sizeof ct) != 0 || memcmp(ss, rss, 32) != 0;
        memcpy(ss_ok, ss, 32);
        bad += vg_xwing_decaps(ss, ct, sk) != VG_OK || memcmp(ss, ss_ok, 32) != 0;
        /* Tampered: one bit of the ML-KEM part, then of the X25519 part. The
         * result must be the draft's (implicit rejection for ct_M, a different
         * ss_X for ct_X), and differ from the honest secret. */
        for (int part = 0; part < 2; part++) {
            size_t at = part == 0 ? (size_t)(vgtest_rand64(&rs) % CT)
                                  : CT + (size_t)(vgtest_rand64(&rs) % 31);
            ct[at] ^= (uint8_t)(1u << (vgtest_rand64(&rs) % 8));
            bad += vg_xwing_decaps(ss, ct, sk) != VG_OK;
            ref_decaps(rss, ct, sk);
            bad += memcmp(ss, rss, 32) != 0 || memcmp(ss, ss_ok, 32) == 0;
            memcpy(ct, rct, sizeof ct);
        }
    }
    CHECK_MSG(bad == 0, "%d mismatches", bad);
    printf("xwing: 1000 seeds against the components, 2000 tampered ciphertexts\n");
}

/* A public key whose ML-KEM part has a coefficient >= q (FIPS 203 7.2):
 * the first 12-bit coefficient set to 4095. */
static void make_bad_ek(uint8_t *pk)
{
    pk[0] = 0xff;
    pk[1] |= 0x0f;
}

static void test_xwing_errors(void)
{
    static uint8_t pk[1216], ct[1120];
    uint8_t sk[32], ss[32], eseed[64] = {1}, seed[32] = {2};
    CHECK(vg_xwing_keypair_derand(pk, sk, seed) == VG_OK);
    make_bad_ek(pk);
    memset(ct, 0xaa, sizeof ct);
    memset(ss, 0xaa, sizeof ss);
    CHECK(vg_xwing_encaps_derand(ct, ss, pk, eseed) == VG_ERR_INPUT);
    CHECK(all_zero(ct, sizeof ct) && all_zero(ss, sizeof ss));
    memset(ss, 0xaa, sizeof ss);
    CHECK(vg_xwing_encaps(ct, ss, pk) == VG_ERR_INPUT && all_zero(ss, sizeof ss));
    /* Random forms: two calls differ, and round-trip. */
    static uint8_t pk2[1216], ct2[1120];
    uint8_t sk2[32], ss2[32], ssd[32];
    CHECK(vg_xwing_keypair(pk, sk) == VG_OK && vg_xwing_keypair(pk2, sk2) == VG_OK);
    CHECK(memcmp(sk, sk2, 32) != 0);
    CHECK(vg_xwing_encaps(ct, ss, pk) == VG_OK && vg_xwing_encaps(ct2, ss2, pk) == VG_OK);
    CHECK(memcmp(ct, ct2, sizeof ct) != 0);
    CHECK(vg_xwing_decaps(ssd, ct, sk) == VG_OK && memcmp(ssd, ss, 32) == 0);
    /* An X25519 part of small order (u = 0): not an error for X-Wing; the
     * result is the draft's, with ss_X all zero. */
    memset(pk + EK, 0, 32);
    CHECK(vg_xwing_encaps_derand(ct, ss, pk, eseed) == VG_OK);
    uint8_t rss[32];
    ref_encaps(ct2, rss, pk, eseed);
    CHECK(memcmp(ss, rss, 32) == 0);
    /* RNG failure: VG_ERR_RANDOM, outputs zeroed. */
    vg_random_fail_next(1);
    memset(sk, 0xaa, 32);
    CHECK(vg_xwing_keypair(pk, sk) == VG_ERR_RANDOM && all_zero(sk, 32) && all_zero(pk, 1216));
    CHECK(vg_xwing_keypair(pk, sk) == VG_OK);
    vg_random_fail_next(1);
    memset(ss, 0xaa, 32);
    CHECK(vg_xwing_encaps(ct, ss, pk) == VG_ERR_RANDOM && all_zero(ss, 32) && all_zero(ct, 1120));
    vg_random_fail_next(0);
}

/* ---- X25519MLKEM768 ------------------------------------------------------ */

static void test_x25519mlkem768(void)
{
    static uint8_t pk[1216], sk[2432], ct[1120], rek[EK], rdk[DK], rct[CT];
    uint8_t seed[96], eseed[64], ss[64], ss2[64], rss[32], rx[32], rxpk[32], rxct[32];
    uint64_t rs = 0x11ec;
    int bad = 0;
    for (int i = 0; i < 1000; i++) {
        vgtest_randbytes(&rs, seed, sizeof seed);
        vgtest_randbytes(&rs, eseed, sizeof eseed);
        bad += vg_x25519mlkem768_keypair_derand(pk, sk, seed) != VG_OK;
        /* Client share: ML-KEM-768 ek (1184) then X25519 public key (32). */
        vg_mlkem768_keypair_derand(rek, rdk, seed);
        vg_x25519_public_key(rxpk, seed + 64);
        bad += memcmp(pk, rek, EK) != 0 || memcmp(pk + EK, rxpk, 32) != 0;
        bad += memcmp(sk, rdk, DK) != 0 || memcmp(sk + DK, seed + 64, 32) != 0;
        bad += vg_x25519mlkem768_encaps_derand(ct, ss, pk, eseed) != VG_OK;
        /* Server share: ML-KEM ct (1088) then ephemeral X25519 key (32);
         * ss = ML-KEM ss || X25519 ss. */
        vg_mlkem768_encaps_derand(rct, rss, rek, eseed);
        vg_x25519_public_key(rxct, eseed + 32);
        vg_x25519(rx, eseed + 32, rxpk);
        bad += memcmp(ct, rct, CT) != 0 || memcmp(ct + CT, rxct, 32) != 0;
        bad += memcmp(ss, rss, 32) != 0 || memcmp(ss + 32, rx, 32) != 0;
        bad += vg_x25519mlkem768_decaps(ss2, ct, sk) != VG_OK || memcmp(ss, ss2, 64) != 0;
        /* Tampered ML-KEM part: ML-KEM's implicit rejection, X25519 half kept. */
        ct[vgtest_rand64(&rs) % CT] ^= 1;
        vg_mlkem768_decaps(rss, ct, rdk);
        bad += vg_x25519mlkem768_decaps(ss2, ct, sk) != VG_OK || memcmp(ss2, rss, 32) != 0 ||
               memcmp(ss2 + 32, rx, 32) != 0 || memcmp(ss2, ss, 32) == 0;
    }
    CHECK_MSG(bad == 0, "%d mismatches", bad);
    printf("x25519mlkem768: 1000 seeds, layouts against the components\n");

    /* Rejections, outputs zeroed. */
    uint8_t ss3[64];
    vg_x25519mlkem768_keypair_derand(pk, sk, seed);
    memcpy(rek, pk, EK);
    make_bad_ek(pk);
    memset(ct, 0xaa, sizeof ct);
    memset(ss3, 0xaa, sizeof ss3);
    CHECK(vg_x25519mlkem768_encaps_derand(ct, ss3, pk, eseed) == VG_ERR_INPUT);
    CHECK(all_zero(ct, sizeof ct) && all_zero(ss3, sizeof ss3));
    memcpy(pk, rek, EK);
    /* Client X25519 share of small order (u = 0 and u = 1): the server's
     * X25519 value is all zero. */
    for (int u = 0; u < 2; u++) {
        memset(pk + EK, 0, 32);
        pk[EK] = (uint8_t)u;
        memset(ss3, 0xaa, sizeof ss3);
        CHECK(vg_x25519mlkem768_encaps_derand(ct, ss3, pk, eseed) == VG_ERR_INPUT);
        CHECK(all_zero(ct, sizeof ct) && all_zero(ss3, sizeof ss3));
    }
    vg_x25519mlkem768_keypair_derand(pk, sk, seed);
    CHECK(vg_x25519mlkem768_encaps_derand(ct, ss, pk, eseed) == VG_OK);
    /* Server X25519 share of small order: the client rejects. */
    memset(ct + CT, 0, 32);
    memset(ss3, 0xaa, sizeof ss3);
    CHECK(vg_x25519mlkem768_decaps(ss3, ct, sk) == VG_ERR_INPUT && all_zero(ss3, 64));
    /* dk failing FIPS 203 7.3 (its stored H(ek) changed). */
    CHECK(vg_x25519mlkem768_encaps_derand(ct, ss, pk, eseed) == VG_OK);
    sk[DK - 64] ^= 1;
    memset(ss3, 0xaa, sizeof ss3);
    CHECK(vg_x25519mlkem768_decaps(ss3, ct, sk) == VG_ERR_INPUT && all_zero(ss3, 64));
    sk[DK - 64] ^= 1;
    /* Random forms. */
    static uint8_t pk2[1216], sk2[2432];
    CHECK(vg_x25519mlkem768_keypair(pk2, sk2) == VG_OK && memcmp(sk2, sk, sizeof sk) != 0);
    CHECK(vg_x25519mlkem768_encaps(ct, ss, pk2) == VG_OK);
    CHECK(vg_x25519mlkem768_decaps(ss2, ct, sk2) == VG_OK && memcmp(ss, ss2, 64) == 0);
    vg_random_fail_next(1);
    memset(ss3, 0xaa, sizeof ss3);
    CHECK(vg_x25519mlkem768_encaps(ct, ss3, pk2) == VG_ERR_RANDOM && all_zero(ss3, 64) &&
          all_zero(ct, sizeof ct));
    vg_random_fail_next(1);
    CHECK(vg_x25519mlkem768_keypair(pk2, sk2) == VG_ERR_RANDOM && all_zero(sk2, sizeof sk2) &&
          all_zero(pk2, sizeof pk2));
    vg_random_fail_next(0);
}

int main(void)
{
    test_xwing_vectors();
    test_xwing_differential();
    test_xwing_errors();
    test_x25519mlkem768();
    return vgtest_done("test_hybrid");
}
