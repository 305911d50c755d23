/*
 * Hybrid KEMs (src/hybrid): X-Wing (draft-connolly-cfrg-xwing-kem) and
 * the TLS hybrids of draft-ietf-tls-ecdhe-mlkem (X25519MLKEM768,
 * SecP256r1MLKEM768, SecP384r1MLKEM1024).
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
 * SecP256r1MLKEM768 and SecP384r1MLKEM1024: likewise on 10^3 seeds each
 * against the components (P-256/P-384 public key and ECDH, ML-KEM derand),
 * EC share first; rejection of seed scalars 0, n and above, a bad ML-KEM
 * key, client and server points off the curve, compressed or x >= p, and a
 * dk failing FIPS 203 7.3; the random forms and the RNG failure path.
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

/* ---- SecP256r1MLKEM768 and SecP384r1MLKEM1024 ---------------------------- */

/* One NIST hybrid: its sizes, its public functions and its components'. */
struct nh {
    const char *name;
    size_t nb, pt, ek, dk, mct;
    uint64_t rs;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    int (*keypair)(uint8_t *, uint8_t *);
    int (*encaps_derand)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
    int (*encaps)(uint8_t *, uint8_t *, const uint8_t *);
    int (*decaps)(uint8_t *, const uint8_t *, const uint8_t *);
    int (*ec_public)(uint8_t *, const uint8_t *);
    int (*ec_dh)(uint8_t *, const uint8_t *, const uint8_t *, size_t);
    int (*kem_keypair)(uint8_t *, uint8_t *, const uint8_t *);
    int (*kem_encaps)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
    int (*kem_decaps)(uint8_t *, const uint8_t *, const uint8_t *);
    const uint8_t *n; /* the group order, big endian */
};

static int p256_pub(uint8_t *pk, const uint8_t *sk) { return vg_p256_public_key(pk, sk); }
static int p384_pub(uint8_t *pk, const uint8_t *sk) { return vg_p384_public_key(pk, sk); }
static int p256_dh(uint8_t *s, const uint8_t *sk, const uint8_t *p, size_t n)
{
    return vg_p256_ecdh(s, sk, p, n);
}
static int p384_dh(uint8_t *s, const uint8_t *sk, const uint8_t *p, size_t n)
{
    return vg_p384_ecdh(s, sk, p, n);
}
static int k768_kp(uint8_t *e, uint8_t *d, const uint8_t *s) { return vg_mlkem768_keypair_derand(e, d, s); }
static int k1024_kp(uint8_t *e, uint8_t *d, const uint8_t *s) { return vg_mlkem1024_keypair_derand(e, d, s); }
static int k768_enc(uint8_t *c, uint8_t *k, const uint8_t *e, const uint8_t *m)
{
    return vg_mlkem768_encaps_derand(c, k, e, m);
}
static int k1024_enc(uint8_t *c, uint8_t *k, const uint8_t *e, const uint8_t *m)
{
    return vg_mlkem1024_encaps_derand(c, k, e, m);
}
static int k768_dec(uint8_t *k, const uint8_t *c, const uint8_t *d) { return vg_mlkem768_decaps(k, c, d); }
static int k1024_dec(uint8_t *k, const uint8_t *c, const uint8_t *d) { return vg_mlkem1024_decaps(k, c, d); }

/* SP 800-186 3.2.1.3 / 3.2.1.4. */
static const uint8_t n256[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};
static const uint8_t n384[48] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc7, 0x63, 0x4d, 0x81, 0xf4, 0x37, 0x2d, 0xdf,
    0x58, 0x1a, 0x0d, 0xb2, 0x48, 0xb0, 0xa7, 0x7a, 0xec, 0xec, 0x19, 0x6a, 0xcc, 0xc5, 0x29, 0x73};

static const struct nh g_nh[2] = {
    {"p256mlkem768", 32, 65, 1184, 2400, 1088, 0x11eb, vg_p256mlkem768_keypair_derand,
     vg_p256mlkem768_keypair, vg_p256mlkem768_encaps_derand, vg_p256mlkem768_encaps,
     vg_p256mlkem768_decaps, p256_pub, p256_dh, k768_kp, k768_enc, k768_dec, n256},
    {"p384mlkem1024", 48, 97, 1568, 3168, 1568, 0x11ed, vg_p384mlkem1024_keypair_derand,
     vg_p384mlkem1024_keypair, vg_p384mlkem1024_encaps_derand, vg_p384mlkem1024_encaps,
     vg_p384mlkem1024_decaps, p384_pub, p384_dh, k1024_kp, k1024_enc, k1024_dec, n384},
};

static void test_nist_hybrid(const struct nh *h)
{
    /* Sized for P-384 + ML-KEM-1024, the larger. */
    static uint8_t pk[1665], sk[3216], ct[1665], rek[1568], rdk[3168], rct[1568], pk2[1665],
        sk2[3216], ct2[1665];
    uint8_t seed[112], eseed[80], ss[80], ss2[80], ss3[80], rss[32], rdh[48], rdh2[48],
        rpt[97], rept[97];
    const size_t pkl = h->pt + h->ek, skl = h->nb + h->dk, ctl = h->pt + h->mct,
                 ssl = h->nb + 32, sdl = h->nb + 64, esl = h->nb + 32;
    uint64_t rs = h->rs;
    int bad = 0;
    CHECK(h->nb == 32 ? (pkl == VG_P256MLKEM768_PUBLICKEYBYTES &&
                         skl == VG_P256MLKEM768_SECRETKEYBYTES &&
                         ctl == VG_P256MLKEM768_CIPHERTEXTBYTES &&
                         ssl == VG_P256MLKEM768_SHAREDSECRETBYTES &&
                         sdl == VG_P256MLKEM768_SEEDBYTES && esl == VG_P256MLKEM768_ENCAPSSEEDBYTES)
                      : (pkl == VG_P384MLKEM1024_PUBLICKEYBYTES &&
                         skl == VG_P384MLKEM1024_SECRETKEYBYTES &&
                         ctl == VG_P384MLKEM1024_CIPHERTEXTBYTES &&
                         ssl == VG_P384MLKEM1024_SHAREDSECRETBYTES &&
                         sdl == VG_P384MLKEM1024_SEEDBYTES &&
                         esl == VG_P384MLKEM1024_ENCAPSSEEDBYTES));
    for (int i = 0; i < 1000; i++) {
        vgtest_randbytes(&rs, seed, sdl);
        vgtest_randbytes(&rs, eseed, esl);
        /* Scalars >= n are rejected, not reduced; a random draw is < n
         * except with negligible probability, but keep the test exact. */
        seed[0] &= 0x7f;
        eseed[0] &= 0x7f;
        bad += h->keypair_derand(pk, sk, seed) != VG_OK;
        /* Client share: uncompressed point, then the ML-KEM ek. */
        bad += h->ec_public(rpt, seed) != VG_OK;
        h->kem_keypair(rek, rdk, seed + h->nb);
        bad += rpt[0] != 0x04 || memcmp(pk, rpt, h->pt) != 0 || memcmp(pk + h->pt, rek, h->ek) != 0;
        bad += memcmp(sk, seed, h->nb) != 0 || memcmp(sk + h->nb, rdk, h->dk) != 0;
        bad += h->encaps_derand(ct, ss, pk, eseed) != VG_OK;
        /* Server share: ephemeral uncompressed point, then the ML-KEM ct;
         * ss = ECDH x-coordinate || ML-KEM ss. */
        bad += h->ec_public(rept, eseed) != VG_OK;
        bad += h->ec_dh(rdh, eseed, rpt, h->pt) != VG_OK;
        bad += h->ec_dh(rdh2, seed, rept, h->pt) != VG_OK || memcmp(rdh, rdh2, h->nb) != 0;
        h->kem_encaps(rct, rss, rek, eseed + h->nb);
        bad += memcmp(ct, rept, h->pt) != 0 || memcmp(ct + h->pt, rct, h->mct) != 0;
        bad += memcmp(ss, rdh, h->nb) != 0 || memcmp(ss + h->nb, rss, 32) != 0;
        bad += h->decaps(ss2, ct, sk) != VG_OK || memcmp(ss, ss2, ssl) != 0;
        /* Tampered ML-KEM part: implicit rejection, the ECDH half kept. */
        ct[h->pt + vgtest_rand64(&rs) % h->mct] ^= 1;
        h->kem_decaps(rss, ct + h->pt, rdk);
        bad += h->decaps(ss2, ct, sk) != VG_OK || memcmp(ss2 + h->nb, rss, 32) != 0 ||
               memcmp(ss2, rdh, h->nb) != 0 || memcmp(ss2 + h->nb, ss + h->nb, 32) == 0;
    }
    CHECK_MSG(bad == 0, "%s: %d mismatches", h->name, bad);
    printf("%s: 1000 seeds, layouts against the components\n", h->name);

    /* Rejections, outputs zeroed. */
    h->keypair_derand(pk, sk, seed);
    /* Seed scalars 0, n and n + 1 (the top byte ff: >= n). */
    for (int v = 0; v < 3; v++) {
        if (v == 0)
            memset(seed, 0, h->nb);
        else
            memcpy(seed, h->n, h->nb);
        if (v == 2)
            memset(seed, 0xff, h->nb);
        memset(pk2, 0xaa, pkl);
        memset(sk2, 0xaa, skl);
        CHECK(h->keypair_derand(pk2, sk2, seed) == VG_ERR_INPUT);
        CHECK(all_zero(pk2, pkl) && all_zero(sk2, skl));
        memcpy(eseed, seed, h->nb);
        memset(ct2, 0xaa, ctl);
        memset(ss3, 0xaa, ssl);
        CHECK(h->encaps_derand(ct2, ss3, pk, eseed) == VG_ERR_INPUT);
        CHECK(all_zero(ct2, ctl) && all_zero(ss3, ssl));
    }
    /* The scalar n - 1 is valid. */
    memcpy(seed, h->n, h->nb);
    seed[h->nb - 1] -= 1;
    CHECK(h->keypair_derand(pk2, sk2, seed) == VG_OK);
    vgtest_randbytes(&rs, eseed, esl);
    eseed[0] &= 0x7f;
    /* Bad ML-KEM ek (a coefficient >= q, FIPS 203 7.2). */
    memcpy(pk2, pk, pkl);
    make_bad_ek(pk2 + h->pt);
    memset(ct2, 0xaa, ctl);
    memset(ss3, 0xaa, ssl);
    CHECK(h->encaps_derand(ct2, ss3, pk2, eseed) == VG_ERR_INPUT);
    CHECK(all_zero(ct2, ctl) && all_zero(ss3, ssl));
    /* Client point off the curve (y + 1), compressed, identity-like zero
     * point, x >= p (all ones). */
    for (int v = 0; v < 4; v++) {
        memcpy(pk2, pk, pkl);
        if (v == 0)
            pk2[h->pt - 1] ^= 1;
        if (v == 1)
            pk2[0] = 0x02;
        if (v == 2)
            memset(pk2 + 1, 0, h->pt - 1);
        if (v == 3)
            memset(pk2 + 1, 0xff, h->nb);
        memset(ct2, 0xaa, ctl);
        memset(ss3, 0xaa, ssl);
        CHECK_MSG(h->encaps_derand(ct2, ss3, pk2, eseed) == VG_ERR_INPUT, "%s pk case %d", h->name, v);
        CHECK(all_zero(ct2, ctl) && all_zero(ss3, ssl));
    }
    /* Server point off the curve or compressed: the client rejects. */
    CHECK(h->encaps_derand(ct, ss, pk, eseed) == VG_OK);
    for (int v = 0; v < 2; v++) {
        memcpy(ct2, ct, ctl);
        if (v == 0)
            ct2[h->pt - 1] ^= 1;
        else
            ct2[0] = 0x03;
        memset(ss3, 0xaa, ssl);
        CHECK(h->decaps(ss3, ct2, sk) == VG_ERR_INPUT && all_zero(ss3, ssl));
    }
    /* dk failing FIPS 203 7.3 (its stored H(ek) changed). */
    sk[skl - 64] ^= 1;
    memset(ss3, 0xaa, ssl);
    CHECK(h->decaps(ss3, ct, sk) == VG_ERR_INPUT && all_zero(ss3, ssl));
    sk[skl - 64] ^= 1;
    CHECK(h->decaps(ss2, ct, sk) == VG_OK && memcmp(ss, ss2, ssl) == 0);
    /* Random forms. */
    CHECK(h->keypair(pk2, sk2) == VG_OK && memcmp(sk2, sk, skl) != 0);
    CHECK(h->encaps(ct, ss, pk2) == VG_OK);
    CHECK(h->decaps(ss2, ct, sk2) == VG_OK && memcmp(ss, ss2, ssl) == 0);
    vg_random_fail_next(1);
    memset(ss3, 0xaa, ssl);
    CHECK(h->encaps(ct, ss3, pk2) == VG_ERR_RANDOM && all_zero(ss3, ssl) && all_zero(ct, ctl));
    vg_random_fail_next(1);
    CHECK(h->keypair(pk2, sk2) == VG_ERR_RANDOM && all_zero(sk2, skl) && all_zero(pk2, pkl));
    vg_random_fail_next(0);
    /* NULL arguments. */
    CHECK(h->decaps(ss3, NULL, sk) == VG_ERR_INPUT && all_zero(ss3, ssl));
}

int main(void)
{
    test_xwing_vectors();
    test_xwing_differential();
    test_xwing_errors();
    test_x25519mlkem768();
    test_nist_hybrid(&g_nh[0]);
    test_nist_hybrid(&g_nh[1]);
    return vgtest_done("test_hybrid");
}
