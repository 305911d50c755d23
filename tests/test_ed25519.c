/*
 * Ed25519 (RFC 8032 section 5.1): vg_ed25519_* against
 *  - RFC 8032 section 7.1 (TEST 1, 2, 3, 1024, SHA(abc)): keys, signatures,
 *    verification;
 *  - the 1024 lines of sign.input (keys, signatures, verification, and a
 *    changed message that must not verify);
 *  - the 151 Wycheproof ed25519_test.json cases (valid -> VG_OK,
 *    invalid -> VG_ERR_VERIFY);
 *  - libsodium and OpenSSL on random seeds and messages of length 0..1000
 *    (keys, signatures, verification of valid and one-bit-flipped ones);
 *  - edge cases built here with an independent GMP model of edwards25519
 *    (affine formulas of RFC 8032 5.1.4, decoding of 5.1.3): S >= L,
 *    non-canonical and small-order A and R (the eight small-order points
 *    derived from the curve equation), undecodable points, a signature that
 *    holds only under the cofactored equation; each row also runs libsodium
 *    and OpenSSL and prints what they say (docs/ed25519-verdicts.md);
 *  - NULL arguments.
 * Every verification above runs the public API (the dispatched variant) and
 * each variant of ge25519_vartime.h available on this build and CPU
 * (vg_ed25519_verify_with): all must give the same verdict.
 */
#include <cjson/cJSON.h>
#include <gmp.h>
#include <openssl/evp.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgcrypto.h"
#include "vgtest.h"
#include "common.h"
#include "curve25519/curve25519.h"
#include "curve25519/ge25519_vartime.h"

static void unhex(uint8_t *out, size_t n, const char *hex)
{
    if (vgtest_unhex(out, n, hex) != (long)n) {
        fprintf(stderr, "bad hex constant\n");
        exit(2);
    }
}

/* ---- peers ---------------------------------------------------------------- */

static int ossl_verify(const uint8_t sig[64], const uint8_t *m, size_t n, const uint8_t pk[32])
{
    EVP_PKEY *k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pk, 32);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int ok = 0;
    if (k && c && EVP_DigestVerifyInit(c, NULL, NULL, NULL, k) == 1)
        ok = EVP_DigestVerify(c, sig, 64, m, n) == 1;
    EVP_MD_CTX_free(c);
    EVP_PKEY_free(k);
    return ok;
}

/* 1 on success: pk and sig from OpenSSL for the seed. */
static int ossl_sign(uint8_t pk[32], uint8_t sig[64], const uint8_t seed[32], const uint8_t *m,
                     size_t n)
{
    EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    size_t pl = 32, sl = 64;
    int ok = k && c && EVP_PKEY_get_raw_public_key(k, pk, &pl) == 1 && pl == 32 &&
             EVP_DigestSignInit(c, NULL, NULL, NULL, k) == 1 &&
             EVP_DigestSign(c, sig, &sl, m, n) == 1 && sl == 64;
    EVP_MD_CTX_free(c);
    EVP_PKEY_free(k);
    return ok;
}

static int sodium_verify(const uint8_t sig[64], const uint8_t *m, size_t n, const uint8_t pk[32])
{
    return crypto_sign_verify_detached(sig, m, n, pk) == 0;
}

/* ---- every verification variant ------------------------------------------------ */

static unsigned long g_variant_runs;

/* The public API's verdict (vg_ed25519_verify, or _cofactored when cof),
 * checked equal to each available variant's (portable, adx). */
static int verify_variants(const uint8_t sig[64], const uint8_t *m, size_t n, const uint8_t pk[32],
                           int cof)
{
    const struct vg_ed25519_verify_impl *impls[] = {vg_ed25519_verify_portable_get(),
                                                    vg_ed25519_verify_adx_get()};
    int rc = cof ? vg_ed25519_verify_cofactored(sig, m, n, pk) : vg_ed25519_verify(sig, m, n, pk);
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++) {
        if (!impls[i])
            continue;
        g_variant_runs++;
        CHECK_MSG(vg_ed25519_verify_with(impls[i], sig, m, n, pk, cof) == rc,
                  "variant %s disagrees with the API (cofactored %d, API %d)", impls[i]->name, cof,
                  rc);
    }
    return rc;
}

static int verify_all(const uint8_t sig[64], const uint8_t *m, size_t n, const uint8_t pk[32])
{
    return verify_variants(sig, m, n, pk, 0);
}

static int verify_all8(const uint8_t sig[64], const uint8_t *m, size_t n, const uint8_t pk[32])
{
    return verify_variants(sig, m, n, pk, 1);
}

/* ---- RFC 8032 7.1 ----------------------------------------------------------- */

static uint8_t *g_msg1024; /* TEST 1024's message = sign.input line 1024 */
static size_t g_msg1024_len;

static void check_vector(const char *name, const uint8_t seed[32], const uint8_t want_pk[32],
                         const uint8_t *m, size_t n, const uint8_t want_sig[64])
{
    uint8_t pk[32], sk[64], sig[64];
    CHECK_MSG(vg_ed25519_keypair_from_seed(pk, sk, seed) == VG_OK, "%s keypair", name);
    CHECK_MSG(memcmp(pk, want_pk, 32) == 0, "%s public key", name);
    CHECK_MSG(memcmp(sk, seed, 32) == 0 && memcmp(sk + 32, want_pk, 32) == 0, "%s secret key", name);
    CHECK_MSG(vg_ed25519_sign(sig, m, n, sk) == VG_OK, "%s sign", name);
    CHECK_MSG(memcmp(sig, want_sig, 64) == 0, "%s signature", name);
    CHECK_MSG(verify_all(want_sig, m, n, want_pk) == VG_OK, "%s verify", name);
    CHECK_MSG(verify_all8(want_sig, m, n, want_pk) == VG_OK, "%s verify8", name);
}

static void test_rfc8032(void)
{
    static const struct {
        const char *name, *seed, *pk, *msg, *sig;
    } v[] = {
        {"TEST 1", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e3970"
         "1cf9b46bd25bf5f0595bbe24655141438e7a100b"},
        {"TEST 2", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613"
         "d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
        {"TEST 3", "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
         "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
         "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760"
         "984dc6594a7c15e9716ed28dc027beceea1ec40a"},
        {"TEST 1024", "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
         "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e", NULL,
         "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23"
         "c436d94b5e8fcd4f681e30a6ac00a9704a188a03"},
        {"TEST SHA(abc)", "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
         "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
         "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c2"
         "3a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
         "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c6"
         "6431e0303dca179c138ac17ad9bef1177331a704"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t seed[32], pk[32], sig[64], m[64];
        const uint8_t *msg = m;
        size_t n;
        unhex(seed, 32, v[i].seed);
        unhex(pk, 32, v[i].pk);
        unhex(sig, 64, v[i].sig);
        if (v[i].msg) {
            n = strlen(v[i].msg) / 2;
            unhex(m, n, v[i].msg);
        } else {
            msg = g_msg1024;
            n = g_msg1024_len;
            CHECK_MSG(n == 1023, "TEST 1024 message from sign.input has %zu bytes", n);
        }
        check_vector(v[i].name, seed, pk, msg, n, sig);
    }
    printf("  RFC 8032 7.1: 5 vectors\n");
}

/* ---- sign.input --------------------------------------------------------------- */

static void test_sign_input(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/ed25519-sign-input/sign.input", VG_VECTORS_DIR);
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "open %s", path);
    if (!f)
        return;
    static char line[8192];
    int lines = 0;
    while (fgets(line, sizeof line, f)) {
        char *fld[5];
        int nf = 0;
        char *p = line;
        line[strcspn(line, "\n")] = 0;
        for (char *q = p;; q++) {
            if (*q == ':' || *q == 0) {
                int end = *q == 0;
                *q = 0;
                if (nf < 5)
                    fld[nf++] = p;
                p = q + 1;
                if (end)
                    break;
            }
        }
        if (nf < 4)
            continue;
        lines++;
        uint8_t sk_want[64], pk_want[32], pk[32], sk[64], sig[64];
        size_t n = strlen(fld[2]) / 2;
        uint8_t *m = malloc(n + 1), *sm = malloc(n + 64);
        unhex(sk_want, 64, fld[0]);
        unhex(pk_want, 32, fld[1]);
        if (n)
            unhex(m, n, fld[2]);
        unhex(sm, n + 64, fld[3]);
        if (lines == 1024) {
            g_msg1024 = malloc(n + 1);
            memcpy(g_msg1024, m, n);
            g_msg1024_len = n;
        }
        CHECK(vg_ed25519_keypair_from_seed(pk, sk, sk_want) == VG_OK);
        CHECK_MSG(memcmp(pk, pk_want, 32) == 0 && memcmp(sk, sk_want, 64) == 0, "line %d keys", lines);
        CHECK(vg_ed25519_sign(sig, m, n, sk) == VG_OK);
        CHECK_MSG(memcmp(sig, sm, 64) == 0 && memcmp(sm + 64, m, n) == 0, "line %d signature", lines);
        CHECK_MSG(verify_all(sm, m, n, pk_want) == VG_OK, "line %d verify", lines);
        CHECK_MSG(verify_all8(sm, m, n, pk_want) == VG_OK, "line %d verify8", lines);
        /* another message: one byte changed (or one byte added to an empty one) */
        if (n) {
            m[n / 2] ^= 1;
            CHECK_MSG(verify_all(sm, m, n, pk_want) == VG_ERR_VERIFY, "line %d changed msg", lines);
        } else {
            m[0] = 0;
            CHECK_MSG(verify_all(sm, m, 1, pk_want) == VG_ERR_VERIFY, "line %d added byte", lines);
        }
        free(m);
        free(sm);
    }
    fclose(f);
    CHECK_MSG(lines == 1024, "sign.input: %d lines", lines);
    printf("  sign.input: %d lines (keys, signatures, verify, changed message)\n", lines);
}

/* ---- Wycheproof ------------------------------------------------------------------ */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)sz + 1);
    if (fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
        free(buf);
        fclose(f);
        return NULL;
    }
    buf[sz] = 0;
    fclose(f);
    return buf;
}

static void test_wycheproof(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/wycheproof/ed25519_test.json", VG_VECTORS_DIR);
    char *text = read_file(path);
    CHECK_MSG(text != NULL, "read %s", path);
    if (!text)
        return;
    cJSON *root = cJSON_Parse(text);
    CHECK(root != NULL);
    int total = 0, valid = 0, invalid = 0, badlen = 0, cof_differs = 0;
    const cJSON *groups = cJSON_GetObjectItem(root, "testGroups"), *g;
    cJSON_ArrayForEach(g, groups)
    {
        uint8_t pk[32];
        const char *pkh = cJSON_GetObjectItem(cJSON_GetObjectItem(g, "publicKey"), "pk")->valuestring;
        CHECK(strlen(pkh) == 64);
        unhex(pk, 32, pkh);
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItem(g, "tests"))
        {
            int id = cJSON_GetObjectItem(t, "tcId")->valueint;
            const char *mh = cJSON_GetObjectItem(t, "msg")->valuestring;
            const char *sh = cJSON_GetObjectItem(t, "sig")->valuestring;
            const char *res = cJSON_GetObjectItem(t, "result")->valuestring;
            int want_ok = strcmp(res, "valid") == 0;
            CHECK_MSG(want_ok || strcmp(res, "invalid") == 0, "tc %d result %s", id, res);
            size_t n = strlen(mh) / 2;
            uint8_t *m = malloc(n + 1);
            if (n)
                unhex(m, n, mh);
            total++;
            want_ok ? valid++ : invalid++;
            if (strlen(sh) != 128) {
                /* the API takes exactly 64 bytes: such a signature cannot
                 * even be passed; Wycheproof must call it invalid */
                badlen++;
                CHECK_MSG(!want_ok, "tc %d: valid signature of length %zu", id, strlen(sh) / 2);
                free(m);
                continue;
            }
            uint8_t sig[64];
            unhex(sig, 64, sh);
            int rc = verify_all(sig, m, n, pk);
            int rc8 = verify_all8(sig, m, n, pk);
            CHECK_MSG(rc == (want_ok ? VG_OK : VG_ERR_VERIFY), "wycheproof tc %d: %d, want %s", id, rc, res);
            if (want_ok)
                CHECK_MSG(rc8 == VG_OK, "wycheproof tc %d cofactored", id);
            else if (rc8 != VG_ERR_VERIFY)
                cof_differs++;
            free(m);
        }
    }
    CHECK_MSG(total == 151, "wycheproof: %d cases", total);
    printf("  Wycheproof ed25519: %d cases (%d valid, %d invalid, %d of them with a signature "
           "length != 64); cofactored accepts %d of the invalid ones\n",
           total, valid, invalid, badlen, cof_differs);
    cJSON_Delete(root);
    free(text);
}

/* ---- differential ------------------------------------------------------------------ */

static void test_differential(int count)
{
    uint64_t st = 0x0ed25519d1ff0001ULL;
    static uint8_t m[1001];
    int agree_flip = 0;
    for (int i = 0; i < count; i++) {
        uint8_t seed[32], pk[32], sk[64], sig[64], spk[32], ssk[64], ssig[64], opk[32], osig[64];
        size_t n = (size_t)(vgtest_rand64(&st) % 1001);
        vgtest_randbytes(&st, seed, 32);
        vgtest_randbytes(&st, m, n);
        CHECK(vg_ed25519_keypair_from_seed(pk, sk, seed) == VG_OK);
        CHECK(vg_ed25519_sign(sig, m, n, sk) == VG_OK);
        crypto_sign_seed_keypair(spk, ssk, seed);
        crypto_sign_detached(ssig, NULL, m, n, ssk);
        CHECK(ossl_sign(opk, osig, seed, m, n));
        CHECK_MSG(memcmp(pk, spk, 32) == 0 && memcmp(sk, ssk, 64) == 0, "random %d keys vs libsodium", i);
        CHECK_MSG(memcmp(pk, opk, 32) == 0, "random %d public key vs OpenSSL", i);
        CHECK_MSG(memcmp(sig, ssig, 64) == 0 && memcmp(sig, osig, 64) == 0, "random %d signature", i);
        CHECK_MSG(verify_all(sig, m, n, pk) == VG_OK, "random %d verify", i);
        CHECK_MSG(verify_all8(sig, m, n, pk) == VG_OK, "random %d verify8", i);
        CHECK(sodium_verify(sig, m, n, pk) && ossl_verify(sig, m, n, pk));
        unsigned bit = (unsigned)(vgtest_rand64(&st) % 512);
        sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        int ours = verify_all(sig, m, n, pk) == VG_OK;
        int ours8 = verify_all8(sig, m, n, pk) == VG_OK;
        int so = sodium_verify(sig, m, n, pk), os = ossl_verify(sig, m, n, pk);
        CHECK_MSG(!ours && !ours8 && !so && !os, "random %d bit %u flipped: ours %d/%d sodium %d openssl %d",
                  i, bit, ours, ours8, so, os);
        agree_flip += !ours && !so && !os;
    }
    printf("  differential: %d random seeds and messages (length 0..1000): keys and signatures = "
           "libsodium = OpenSSL; all verify; %d one-bit-flipped signatures rejected by all three\n",
           count, agree_flip);
}

/* ---- independent model of edwards25519 (GMP, affine) ------------------------------- */

static mpz_t P, D, L, SQRTM1;
typedef struct {
    mpz_t x, y;
} pt;

static void pt_init(pt *a) { mpz_inits(a->x, a->y, NULL); }
static void pt_clear(pt *a) { mpz_clears(a->x, a->y, NULL); }
static void pt_set(pt *r, const pt *a) { mpz_set(r->x, a->x); mpz_set(r->y, a->y); }

/* RFC 8032 5.1.4 (affine): x3 = (x1 y2 + x2 y1) / (1 + d x1 x2 y1 y2),
 * y3 = (y1 y2 + x1 x2) / (1 - d x1 x2 y1 y2). */
static void pt_add(pt *r, const pt *a, const pt *b)
{
    mpz_t t, u, v, w;
    mpz_inits(t, u, v, w, NULL);
    mpz_mul(t, a->x, b->x);
    mpz_mul(t, t, a->y);
    mpz_mul(t, t, b->y);
    mpz_mul(t, t, D);
    mpz_mod(t, t, P); /* d x1 x2 y1 y2 */
    mpz_mul(u, a->x, b->y);
    mpz_addmul(u, b->x, a->y);
    mpz_add_ui(v, t, 1);
    mpz_invert(v, v, P);
    mpz_mul(u, u, v);
    mpz_mul(w, a->y, b->y);
    mpz_addmul(w, a->x, b->x);
    mpz_ui_sub(v, 1, t);
    mpz_mod(v, v, P);
    mpz_invert(v, v, P);
    mpz_mul(w, w, v);
    mpz_mod(r->x, u, P);
    mpz_mod(r->y, w, P);
    mpz_clears(t, u, v, w, NULL);
}

static void pt_mul(pt *r, const mpz_t k, const pt *a)
{
    pt acc, b;
    pt_init(&acc);
    pt_init(&b);
    mpz_set_ui(acc.x, 0);
    mpz_set_ui(acc.y, 1);
    pt_set(&b, a);
    for (size_t i = 0; i < mpz_sizeinbase(k, 2); i++) {
        if (mpz_tstbit(k, i))
            pt_add(&acc, &acc, &b);
        pt_add(&b, &b, &b);
    }
    pt_set(r, &acc);
    pt_clear(&acc);
    pt_clear(&b);
}

static int pt_is_identity(const pt *a) { return mpz_sgn(a->x) == 0 && mpz_cmp_ui(a->y, 1) == 0; }

static void enc_int(uint8_t out[32], const mpz_t v)
{
    memset(out, 0, 32);
    mpz_export(out, NULL, -1, 1, 0, 0, v);
}

/* RFC 8032 5.1.2 */
static void pt_encode(uint8_t out[32], const pt *a)
{
    enc_int(out, a->y);
    out[31] = (uint8_t)(out[31] | (mpz_tstbit(a->x, 0) << 7));
}

/* x with x^2 = (y^2 - 1) / (d y^2 + 1) and parity sign; 0 if none. y mod p
 * taken as is (lenient: for building points only). */
static int pt_from_y(pt *r, const mpz_t y, int sign)
{
    mpz_t u, v, x, e;
    int ok = 1;
    mpz_inits(u, v, x, e, NULL);
    mpz_mod(r->y, y, P);
    mpz_mul(u, r->y, r->y);
    mpz_mul(v, u, D);
    mpz_sub_ui(u, u, 1);
    mpz_add_ui(v, v, 1);
    mpz_invert(v, v, P);
    mpz_mul(u, u, v);
    mpz_mod(u, u, P); /* x^2 */
    mpz_add_ui(e, P, 3);
    mpz_fdiv_q_2exp(e, e, 3);
    mpz_powm(x, u, e, P);
    mpz_mul(v, x, x);
    mpz_sub(v, v, u);
    if (!mpz_divisible_p(v, P)) {
        mpz_mul(x, x, SQRTM1);
        mpz_mod(x, x, P);
        mpz_mul(v, x, x);
        mpz_sub(v, v, u);
        ok = mpz_divisible_p(v, P);
    }
    if (ok && mpz_tstbit(x, 0) != (sign != 0))
        mpz_sub(x, P, x);
    mpz_mod(r->x, x, P);
    mpz_clears(u, v, x, e, NULL);
    return ok;
}

static void hash_mod_l(mpz_t k, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                       const uint8_t *c, size_t nc)
{
    crypto_hash_sha512_state s;
    uint8_t h[64];
    crypto_hash_sha512_init(&s);
    crypto_hash_sha512_update(&s, a, na);
    crypto_hash_sha512_update(&s, b, nb);
    crypto_hash_sha512_update(&s, c, nc);
    crypto_hash_sha512_final(&s, h);
    mpz_import(k, 64, -1, 1, 0, 0, h);
    mpz_mod(k, k, L);
}

/* ---- edge cases --------------------------------------------------------------------- */

static int g_rows;
/* Run every verifier on (sig, msg, pk), check ours against the expected
 * verdicts, print one row of the verdict table. */
static void edge(const char *what, const uint8_t sig[64], const uint8_t *m, size_t n,
                 const uint8_t pk[32], int want, int want8)
{
    int v = verify_all(sig, m, n, pk) == VG_OK;
    int v8 = verify_all8(sig, m, n, pk) == VG_OK;
    int so = sodium_verify(sig, m, n, pk), os = ossl_verify(sig, m, n, pk);
    CHECK_MSG(v == want && v8 == want8, "edge '%s': ours %d/%d, want %d/%d", what, v, v8, want, want8);
    printf("  | %-58s | %-6s | %-6s | %-6s | %-6s |\n", what, v ? "accept" : "reject",
           v8 ? "accept" : "reject", so ? "accept" : "reject", os ? "accept" : "reject");
    g_rows++;
}

static void test_edge_cases(void)
{
    mpz_t a, r, k, s, t;
    pt B, A, R, T, Q;
    uint8_t seed[32], h[64], pk[32], sk[64], sig[64], enc[32], sm[64];
    static const uint8_t msg[] = "vgcrypto edge case";
    const size_t n = sizeof msg - 1;
    mpz_inits(a, r, k, s, t, NULL);
    pt_init(&B);
    pt_init(&A);
    pt_init(&R);
    pt_init(&T);
    pt_init(&Q);

    /* B = (x, 4/5), x even (RFC 8032 5.1). */
    mpz_set_ui(t, 5);
    mpz_invert(t, t, P);
    mpz_mul_ui(t, t, 4);
    CHECK(pt_from_y(&B, t, 0));
    /* key pair: a = clamp(SHA-512(seed)[0..31]), A = [a]B, checked against ours */
    memset(seed, 0x42, 32);
    crypto_hash_sha512(h, seed, 32);
    h[0] &= 248;
    h[31] &= 127;
    h[31] |= 64;
    mpz_import(a, 32, -1, 1, 0, 0, h);
    pt_mul(&A, a, &B);
    pt_encode(enc, &A);
    CHECK(vg_ed25519_keypair_from_seed(pk, sk, seed) == VG_OK);
    CHECK_MSG(memcmp(pk, enc, 32) == 0, "GMP model public key = ours");
    CHECK(vg_ed25519_sign(sig, msg, n, sk) == VG_OK);

    printf("  | %-58s | %-6s | %-6s | %-6s | %-6s |\n", "input", "verify", "cof.", "sodium", "openssl");
    edge("valid signature", sig, msg, n, pk, 1, 1);
    CHECK(vg_ed25519_sign(sm, NULL, 0, sk) == VG_OK);
    edge("valid signature, empty message", sm, NULL, 0, pk, 1, 1);

    /* S >= L */
    {
        mpz_t S2;
        mpz_init(S2);
        mpz_import(S2, 32, -1, 1, 0, 0, sig + 32);
        memcpy(sm, sig, 64);
        mpz_add(t, S2, L); /* S + L < 2^256: the same residue */
        enc_int(sm + 32, t);
        edge("S + L (same residue, S >= L)", sm, msg, n, pk, 0, 0);
        enc_int(sm + 32, L);
        edge("S = L", sm, msg, n, pk, 0, 0);
        mpz_add_ui(t, L, 1);
        enc_int(sm + 32, t);
        edge("S = L + 1", sm, msg, n, pk, 0, 0);
        memset(sm + 32, 0xff, 32);
        edge("S = 2^256 - 1", sm, msg, n, pk, 0, 0);
        mpz_clear(S2);
    }

    /* The eight points of small order (dividing 8). Order 1: (0, 1); 2: (0, -1);
     * 4: (+-sqrt(-1), 0); 8: doubling (x, y) gives y' = (x^2 + y^2) / (2 - y^2 + x^2)
     * (a = -1) and y' = 0 exactly for x^2 = -y^2, which with the curve equation
     * gives d y^4 + 2 y^2 - 1 = 0, y^2 = (-1 +- sqrt(1 + d)) / d; the root that is
     * a square gives four points (+-x, +-y) with x = sqrt(-1) y up to sign. */
    pt small[8];
    int order[8];
    for (int i = 0; i < 8; i++)
        pt_init(&small[i]);
    mpz_set_ui(small[0].x, 0), mpz_set_ui(small[0].y, 1), order[0] = 1;
    mpz_set_ui(small[1].x, 0), mpz_sub_ui(small[1].y, P, 1), order[1] = 2;
    mpz_set(small[2].x, SQRTM1), mpz_set_ui(small[2].y, 0), order[2] = 4;
    mpz_sub(small[3].x, P, SQRTM1), mpz_set_ui(small[3].y, 0), order[3] = 4;
    {
        mpz_t y2, e, y, dinv;
        int found = 0;
        mpz_inits(y2, e, y, dinv, NULL);
        mpz_invert(dinv, D, P);
        for (int sgn = 0; sgn < 2 && !found; sgn++) {
            mpz_add_ui(t, D, 1);
            mpz_add_ui(e, P, 3);
            mpz_fdiv_q_2exp(e, e, 3);
            mpz_powm(s, t, e, P); /* candidate sqrt(1 + d) */
            mpz_mul(r, s, s);
            mpz_sub(r, r, t);
            if (!mpz_divisible_p(r, P))
                mpz_mul(s, s, SQRTM1);
            if (sgn)
                mpz_neg(s, s);
            mpz_sub_ui(y2, s, 1);
            mpz_mul(y2, y2, dinv);
            mpz_mod(y2, y2, P);
            mpz_powm(y, y2, e, P);
            mpz_mul(r, y, y);
            mpz_sub(r, r, y2);
            if (!mpz_divisible_p(r, P)) {
                mpz_mul(y, y, SQRTM1);
                mpz_mod(y, y, P);
                mpz_mul(r, y, y);
                mpz_sub(r, r, y2);
            }
            if (mpz_divisible_p(r, P))
                found = 1;
        }
        CHECK_MSG(found, "an order-8 y exists");
        for (int j = 0; j < 4; j++) {
            pt *q = &small[4 + j];
            mpz_mul(q->x, y, SQRTM1);
            if (j & 1)
                mpz_neg(q->x, q->x);
            mpz_set(q->y, y);
            if (j & 2)
                mpz_neg(q->y, q->y);
            mpz_mod(q->x, q->x, P);
            mpz_mod(q->y, q->y, P);
            order[4 + j] = 8;
        }
        mpz_clears(y2, e, y, dinv, NULL);
    }
    /* each is on the curve and has exactly the stated order */
    for (int i = 0; i < 8; i++) {
        mpz_t lhs, rhs;
        mpz_inits(lhs, rhs, NULL);
        mpz_mul(lhs, small[i].y, small[i].y);
        mpz_submul(lhs, small[i].x, small[i].x);
        mpz_mul(rhs, small[i].x, small[i].y);
        mpz_mul(rhs, rhs, rhs);
        mpz_mul(rhs, rhs, D);
        mpz_add_ui(rhs, rhs, 1);
        mpz_sub(lhs, lhs, rhs);
        CHECK_MSG(mpz_divisible_p(lhs, P), "small-order point %d on the curve", i);
        mpz_set_ui(t, (unsigned long)order[i]);
        pt_mul(&Q, t, &small[i]);
        int ok = pt_is_identity(&Q);
        if (order[i] > 1) {
            mpz_set_ui(t, (unsigned long)order[i] / 2);
            pt_mul(&Q, t, &small[i]);
            ok = ok && !pt_is_identity(&Q);
        }
        CHECK_MSG(ok, "small-order point %d has order %d", i, order[i]);
        mpz_clears(lhs, rhs, NULL);
    }
    /* every canonical encoding decodes (in our verifier) to that point: a
     * signature by key T with S = r, R = [r]B and k = 0 mod 8 verifies */
    char what[128];
    for (int i = 0; i < 8; i++) {
        uint8_t tp[32], rb[32];
        pt_encode(tp, &small[i]);
        /* (1) A = T small order, R = [r]B, S = r, with k = H(R || A || M) = 0 mod 8:
         * [k]T = O, so [S]B = R + [k]A holds: valid in both equations. */
        for (unsigned long rr = 1;; rr++) {
            mpz_set_ui(r, rr * 7919 + 12345);
            pt_mul(&R, r, &B);
            pt_encode(rb, &R);
            hash_mod_l(k, rb, 32, tp, 32, msg, n);
            if (mpz_fdiv_ui(k, 8) == 0)
                break;
        }
        memcpy(sm, rb, 32);
        enc_int(sm + 32, r);
        snprintf(what, sizeof what, "A small order %d (#%d), k = 0 mod 8, S = r", order[i], i);
        edge(what, sm, msg, n, tp, 1, 1);
        /* (2) same with k mod order != 0: [k]T != O, cofactorless fails, [8]
         * clears it. */
        if (order[i] > 1) {
            for (unsigned long rr = 1;; rr++) {
                mpz_set_ui(r, rr * 104729 + 99);
                pt_mul(&R, r, &B);
                pt_encode(rb, &R);
                hash_mod_l(k, rb, 32, tp, 32, msg, n);
                if (mpz_fdiv_ui(k, (unsigned long)order[i]) != 0)
                    break;
            }
            memcpy(sm, rb, 32);
            enc_int(sm + 32, r);
            snprintf(what, sizeof what, "A small order %d (#%d), k != 0 mod %d, S = r", order[i], i, order[i]);
            edge(what, sm, msg, n, tp, 0, 1);
        }
        /* (3) R = T, A = [a]B, S = k a: [S]B = [k]A = R + [k]A - T, so
         * cofactorless holds only for T = O; cofactored always. */
        hash_mod_l(k, tp, 32, pk, 32, msg, n);
        mpz_mul(s, k, a);
        mpz_mod(s, s, L);
        memcpy(sm, tp, 32);
        enc_int(sm + 32, s);
        snprintf(what, sizeof what, "R small order %d (#%d), S = k a", order[i], i);
        edge(what, sm, msg, n, pk, order[i] == 1, 1);
        /* (4) R = [r]B + T, S = r + k a (mixed order): only cofactored holds
         * (for T != O). */
        mpz_set_ui(r, 0xabcdef + (unsigned long)i);
        pt_mul(&R, r, &B);
        pt_add(&R, &R, &small[i]);
        pt_encode(rb, &R);
        hash_mod_l(k, rb, 32, pk, 32, msg, n);
        mpz_mul(s, k, a);
        mpz_add(s, s, r);
        mpz_mod(s, s, L);
        memcpy(sm, rb, 32);
        enc_int(sm + 32, s);
        snprintf(what, sizeof what, "R = [r]B + T, T order %d (#%d), S = r + k a", order[i], i);
        edge(what, sm, msg, n, pk, order[i] == 1, 1);
    }
    /* Non-canonical encodings: y + p < 2^255 only for y in {0, 1} (y = p, p + 1),
     * either sign; and x = 0 with the sign bit set (y = 1, y = p - 1). */
    struct {
        const char *name;
        int y_plus_p; /* encode y + p */
        unsigned long y;
        int sign, neg_y;
    } nc[] = {
        {"y = p (0 + p), sign 0 (order 4)", 1, 0, 0, 0},
        {"y = p (0 + p), sign 1 (order 4)", 1, 0, 1, 0},
        {"y = p + 1 (identity), sign 0", 1, 1, 0, 0},
        {"y = p + 1 (identity), sign 1", 1, 1, 1, 0},
        {"y = 1, x = 0 with sign bit (identity)", 0, 1, 1, 0},
        {"y = p - 1, x = 0 with sign bit (order 2)", 0, 1, 1, 1},
    };
    for (size_t i = 0; i < sizeof nc / sizeof nc[0]; i++) {
        uint8_t np[32], rb[32];
        pt V;
        pt_init(&V);
        mpz_set_ui(t, nc[i].y);
        if (nc[i].neg_y)
            mpz_sub(t, P, t);
        CHECK(pt_from_y(&V, t, nc[i].sign)); /* the point it stands for, leniently */
        if (nc[i].y_plus_p)
            mpz_add(t, t, P);
        enc_int(np, t);
        np[31] = (uint8_t)(np[31] | (nc[i].sign << 7));
        /* as A: R = [r]B, S = r, k = 0 mod 8 (valid if A were decoded leniently) */
        for (unsigned long rr = 1;; rr++) {
            mpz_set_ui(r, rr * 31337 + 5);
            pt_mul(&R, r, &B);
            pt_encode(rb, &R);
            hash_mod_l(k, rb, 32, np, 32, msg, n);
            if (mpz_fdiv_ui(k, 8) == 0)
                break;
        }
        memcpy(sm, rb, 32);
        enc_int(sm + 32, r);
        snprintf(what, sizeof what, "A non-canonical: %s", nc[i].name);
        edge(what, sm, msg, n, np, 0, 0);
        /* as R: S = k a, valid under a lenient decoding when V = O
         * (cofactored when V has small order: always here) */
        hash_mod_l(k, np, 32, pk, 32, msg, n);
        mpz_mul(s, k, a);
        mpz_mod(s, s, L);
        memcpy(sm, np, 32);
        enc_int(sm + 32, s);
        snprintf(what, sizeof what, "R non-canonical: %s", nc[i].name);
        edge(what, sm, msg, n, pk, 0, 0);
        pt_clear(&V);
    }
    /* Points that do not decode: the smallest y whose x^2 is not a square (as
     * A and as R of an otherwise valid signature); and the y + p encoding of
     * a large-order point (y < 19 on the curve) as A. */
    {
        uint8_t ub[32];
        pt V;
        pt_init(&V);
        unsigned long y = 2;
        for (;; y++) {
            mpz_set_ui(t, y);
            if (!pt_from_y(&V, t, 0))
                break;
        }
        memset(ub, 0, 32);
        ub[0] = (uint8_t)y;
        memcpy(sm, sig, 64);
        snprintf(what, sizeof what, "A not on the curve (y = %lu)", y);
        edge(what, sig, msg, n, ub, 0, 0);
        memcpy(sm, ub, 32);
        snprintf(what, sizeof what, "R not on the curve (y = %lu)", y);
        edge(what, sm, msg, n, pk, 0, 0);
        /* y = p + y' for a large-order point with y' < 19: A non-canonical */
        for (y = 2; y < 19; y++) {
            mpz_set_ui(t, y);
            if (pt_from_y(&V, t, 0))
                break;
        }
        mpz_add_ui(t, P, y);
        enc_int(ub, t);
        snprintf(what, sizeof what, "A = y + p encoding of a curve point (y = %lu)", y);
        edge(what, sig, msg, n, ub, 0, 0);
        pt_clear(&V);
    }
    /* a valid signature with the sign bit of R flipped, and of A flipped */
    memcpy(sm, sig, 64);
    sm[31] ^= 0x80;
    edge("R with its sign bit flipped", sm, msg, n, pk, 0, 0);
    memcpy(enc, pk, 32);
    enc[31] ^= 0x80;
    edge("A with its sign bit flipped", sig, msg, n, enc, 0, 0);

    for (int i = 0; i < 8; i++)
        pt_clear(&small[i]);
    pt_clear(&B);
    pt_clear(&A);
    pt_clear(&R);
    pt_clear(&T);
    pt_clear(&Q);
    mpz_clears(a, r, k, s, t, NULL);
    printf("  edge cases: %d rows\n", g_rows);
}

/* ---- NULL arguments and the random key pair ------------------------------------------ */

/* ---- Ed25519ctx and Ed25519ph (RFC 8032 5.1) ------------------------------ */

/* dom2(x, ctx), built here from the RFC's definition (5.1) for the variant
 * checks: "SigEd25519 no Ed25519 collisions" || x || |ctx| || ctx. */
static size_t t_dom2(uint8_t out[34 + 255], int x, const uint8_t *ctx, size_t ctx_len)
{
    memcpy(out, "SigEd25519 no Ed25519 collisions", 32);
    out[32] = (uint8_t)x;
    out[33] = (uint8_t)ctx_len;
    if (ctx_len)
        memcpy(out + 34, ctx, ctx_len);
    return 34 + ctx_len;
}

static void t_sha512(uint8_t out[64], const uint8_t *m, size_t n)
{
    unsigned int len = 0;
    CHECK(EVP_Digest(m, n, out, &len, EVP_sha512(), NULL) == 1 && len == 64);
}

/* The public API's verdict for Ed25519ctx (ph = 0) or Ed25519ph (ph = 1, m
 * the message), checked equal to every variant's verdict on the same input
 * through vg_ed25519_verify_dom_with. */
static int verify_dom_variants(int ph, const uint8_t sig[64], const uint8_t *m, size_t n,
                               const uint8_t *ctx, size_t ctx_len, const uint8_t pk[32])
{
    const struct vg_ed25519_verify_impl *impls[] = {vg_ed25519_verify_portable_get(),
                                                    vg_ed25519_verify_adx_get()};
    uint8_t dom[34 + 255], digest[64];
    size_t dom_len = t_dom2(dom, ph, ctx, ctx_len);
    int rc = ph ? vg_ed25519ph_verify(sig, m, n, ctx, ctx_len, pk)
                : vg_ed25519ctx_verify(sig, m, n, ctx, ctx_len, pk);
    if (ph) {
        t_sha512(digest, m, n);
        CHECK(vg_ed25519ph_verify_prehashed(sig, digest, ctx, ctx_len, pk) == rc);
    }
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++) {
        if (!impls[i])
            continue;
        g_variant_runs++;
        CHECK_MSG(vg_ed25519_verify_dom_with(impls[i], sig, dom, dom_len, ph ? digest : m,
                                             ph ? 64 : n, pk, 0) == rc,
                  "variant %s disagrees with the API on Ed25519%s", impls[i]->name,
                  ph ? "ph" : "ctx");
    }
    return rc;
}

/* RFC 8032 7.2 (the four Ed25519ctx vectors) and 7.3 (Ed25519ph, "abc"),
 * from tests/vectors/rfc8032/ctx-ph.txt: key, signature (from the message
 * and from its digest for ph), verification, and rejection under another
 * instance, another context, a changed message. */
static void test_rfc8032_ctx_ph(void)
{
    char path[1024], line[1024];
    unsigned n_ctx = 0, n_ph = 0;
    snprintf(path, sizeof path, "%s/rfc8032/ctx-ph.txt", VG_VECTORS_DIR);
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *fld[7];
        int nf = 0;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        for (char *p = line; nf < 7; nf++) {
            fld[nf] = p;
            char *c = strchr(p, ':');
            if (!c) {
                nf++;
                break;
            }
            *c = '\0';
            p = c + 1;
        }
        CHECK_MSG(nf == 7, "ctx-ph.txt: %d fields", nf);
        if (nf != 7)
            continue;
        int ph = strcmp(fld[0], "ph") == 0;
        uint8_t seed[32], want_pk[32], want_sig[64], m[64], c[64], pk[32], sk[64], sig[64];
        uint8_t digest[64];
        size_t mn = strlen(fld[4]) / 2, cn = strlen(fld[5]) / 2;
        unhex(seed, 32, fld[2]);
        unhex(want_pk, 32, fld[3]);
        unhex(m, mn, fld[4]);
        unhex(c, cn, fld[5]);
        unhex(want_sig, 64, fld[6]);
        CHECK(vg_ed25519_keypair_from_seed(pk, sk, seed) == VG_OK);
        CHECK_MSG(memcmp(pk, want_pk, 32) == 0, "RFC 8032 %s %s public key", fld[0], fld[1]);
        if (ph) {
            CHECK(vg_ed25519ph_sign(sig, m, mn, c, cn, sk) == VG_OK);
            CHECK_MSG(memcmp(sig, want_sig, 64) == 0, "RFC 8032 7.3 %s signature", fld[1]);
            t_sha512(digest, m, mn);
            CHECK(vg_ed25519ph_sign_prehashed(sig, digest, c, cn, sk) == VG_OK);
            CHECK_MSG(memcmp(sig, want_sig, 64) == 0, "RFC 8032 7.3 %s prehashed", fld[1]);
            /* not an Ed25519 signature of M or of PH(M), nor Ed25519ctx */
            CHECK(verify_all(want_sig, m, mn, pk) == VG_ERR_VERIFY);
            CHECK(verify_all(want_sig, digest, 64, pk) == VG_ERR_VERIFY);
            CHECK(vg_ed25519ctx_verify(want_sig, m, mn, (const uint8_t *)"x", 1, pk) ==
                  VG_ERR_VERIFY);
            CHECK(verify_dom_variants(1, want_sig, m, mn, (const uint8_t *)"x", 1, pk) ==
                  VG_ERR_VERIFY);
            n_ph++;
        } else {
            CHECK(vg_ed25519ctx_sign(sig, m, mn, c, cn, sk) == VG_OK);
            CHECK_MSG(memcmp(sig, want_sig, 64) == 0, "RFC 8032 7.2 %s signature", fld[1]);
            CHECK(verify_all(want_sig, m, mn, pk) == VG_ERR_VERIFY);
            CHECK(verify_dom_variants(1, want_sig, m, mn, c, cn, pk) == VG_ERR_VERIFY);
            c[0] ^= 1;
            CHECK(verify_dom_variants(0, want_sig, m, mn, c, cn, pk) == VG_ERR_VERIFY);
            c[0] ^= 1;
            n_ctx++;
        }
        CHECK_MSG(verify_dom_variants(ph, want_sig, m, mn, c, cn, pk) == VG_OK,
                  "RFC 8032 %s %s verify", fld[0], fld[1]);
        m[0] ^= 0x80;
        CHECK(verify_dom_variants(ph, want_sig, m, mn, c, cn, pk) == VG_ERR_VERIFY);
    }
    fclose(f);
    CHECK(n_ctx == 4 && n_ph == 1);
    printf("  RFC 8032 7.2: %u Ed25519ctx vectors; 7.3: %u Ed25519ph vector\n", n_ctx, n_ph);
}

/* Ed25519ph with an empty context against libsodium's crypto_sign_ed25519ph
 * (RFC 8032 Ed25519ph, context always empty): the same signatures, each
 * verifying the other's, one flipped bit rejected by both. Then random
 * contexts (no peer here: OpenSSL 3.0 has no Ed25519ctx/ph, libsodium no
 * context): sign/verify, and the verification rules of
 * docs/ed25519-verdicts.md that do not depend on the message hash. */
static void test_ctx_ph_differential(int count)
{
    uint64_t rs = 0xed25519fULL;
    unsigned bad = 0;
    /* L, little-endian (RFC 8032 5.1: 2^252 + 27742317777372353535851937790883648493). */
    static const uint8_t ell[32] = {0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
                                    0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
                                    [31] = 0x10};
    for (int it = 0; it < count; it++) {
        uint8_t seed[32], pk[32], sk[64], spk[32], ssk[64], sig[64], ssig[64], m[300], c[255];
        size_t n = (size_t)(vgtest_rand64(&rs) % sizeof m);
        size_t cn = 1 + (size_t)(vgtest_rand64(&rs) % 255);
        vgtest_randbytes(&rs, seed, 32);
        vgtest_randbytes(&rs, m, n);
        vgtest_randbytes(&rs, c, cn);
        bad += vg_ed25519_keypair_from_seed(pk, sk, seed) != VG_OK;
        bad += crypto_sign_seed_keypair(spk, ssk, seed) != 0 || memcmp(pk, spk, 32) != 0;
        crypto_sign_ed25519ph_state st;
        crypto_sign_ed25519ph_init(&st);
        crypto_sign_ed25519ph_update(&st, m, n);
        bad += crypto_sign_ed25519ph_final_create(&st, ssig, NULL, ssk) != 0;
        bad += vg_ed25519ph_sign(sig, m, n, NULL, 0, sk) != VG_OK || memcmp(sig, ssig, 64) != 0;
        bad += verify_dom_variants(1, ssig, m, n, NULL, 0, pk) != VG_OK;
        crypto_sign_ed25519ph_init(&st);
        crypto_sign_ed25519ph_update(&st, m, n);
        bad += crypto_sign_ed25519ph_final_verify(&st, sig, pk) != 0;
        size_t pos = (size_t)(vgtest_rand64(&rs) % 64);
        uint8_t bit = (uint8_t)(1u << (vgtest_rand64(&rs) % 8));
        sig[pos] ^= bit;
        bad += verify_dom_variants(1, sig, m, n, NULL, 0, pk) != VG_ERR_VERIFY;
        crypto_sign_ed25519ph_init(&st);
        crypto_sign_ed25519ph_update(&st, m, n);
        bad += crypto_sign_ed25519ph_final_verify(&st, sig, pk) == 0;
        /* With a context: both instances, and no cross-instance verdicts. */
        uint8_t csig[64], psig[64], t[64];
        bad += vg_ed25519ctx_sign(csig, m, n, c, cn, sk) != VG_OK;
        bad += vg_ed25519ph_sign(psig, m, n, c, cn, sk) != VG_OK;
        bad += verify_dom_variants(0, csig, m, n, c, cn, pk) != VG_OK;
        bad += verify_dom_variants(1, psig, m, n, c, cn, pk) != VG_OK;
        bad += verify_dom_variants(1, csig, m, n, c, cn, pk) != VG_ERR_VERIFY;
        bad += verify_dom_variants(0, psig, m, n, c, cn, pk) != VG_ERR_VERIFY;
        bad += verify_all(csig, m, n, pk) != VG_ERR_VERIFY;
        bad += verify_dom_variants(0, csig, m, n, c, cn - (cn > 1), pk) != (cn > 1 ? VG_ERR_VERIFY : VG_OK);
        /* Rule 1 (S < L): S + L, the same residue, rejected. */
        for (int which = 0; which < 2; which++) {
            memcpy(t, which ? psig : csig, 64);
            unsigned carry = 0;
            for (int i = 0; i < 32; i++) {
                carry += (unsigned)t[32 + i] + ell[i];
                t[32 + i] = (uint8_t)carry;
                carry >>= 8;
            }
            bad += verify_dom_variants(which, t, m, n, c, cn, pk) != VG_ERR_VERIFY;
            /* R with its sign bit flipped: a different point (rule 2 /
             * equation). */
            memcpy(t, which ? psig : csig, 64);
            t[31] ^= 0x80;
            bad += verify_dom_variants(which, t, m, n, c, cn, pk) != VG_ERR_VERIFY;
        }
    }
    CHECK_MSG(bad == 0, "Ed25519ctx/ph differential: %u bad", bad);
    printf("  Ed25519ph vs libsodium crypto_sign_ed25519ph (empty context): %d random cases; "
           "Ed25519ctx/ph with random contexts: sign/verify, cross-instance, S + L, R sign\n",
           count);
}

/* The streamed signer (vg_ed25519_sign_feed, for the CLI) equals the
 * one-shot vg_ed25519_sign; a message that changes between its two passes,
 * or a failing feed, gives VG_ERR_INPUT and a zeroed signature. */
struct t_feed {
    const uint8_t *m;
    size_t n;
    uint64_t rs;
    int calls, change_on, fail_on;
};

static int t_feed_fn(void *arg, vg_ed25519_absorb_fn absorb, void *sink)
{
    struct t_feed *f = arg;
    f->calls++;
    if (f->calls == f->fail_on)
        return -1;
    for (size_t off = 0; off < f->n;) {
        size_t piece = (size_t)(vgtest_rand64(&f->rs) % 200);
        if (piece > f->n - off)
            piece = f->n - off;
        if (f->calls == f->change_on && off == 0 && piece > 0) {
            uint8_t b[200];
            memcpy(b, f->m, piece);
            b[0] ^= 1;
            absorb(sink, b, piece);
        } else {
            absorb(sink, f->m + off, piece);
        }
        off += piece;
    }
    return 0;
}

static void test_sign_feed(void)
{
    uint64_t rs = 0xfeedULL;
    unsigned bad = 0;
    for (int it = 0; it < 200; it++) {
        uint8_t seed[32], pk[32], sk[64], sig[64], sig2[64], m[2000];
        size_t n = (size_t)(vgtest_rand64(&rs) % sizeof m);
        vgtest_randbytes(&rs, seed, 32);
        vgtest_randbytes(&rs, m, n);
        vg_ed25519_keypair_from_seed(pk, sk, seed);
        struct t_feed f = {m, n, rs, 0, 0, 0};
        bad += vg_ed25519_sign(sig, m, n, sk) != VG_OK;
        bad += vg_ed25519_sign_feed(sig2, NULL, 0, t_feed_fn, &f, sk) != VG_OK || f.calls != 2 ||
               memcmp(sig, sig2, 64) != 0;
        f.calls = 0;
        bad += vg_ed25519_verify_feed(sig, NULL, 0, 0, t_feed_fn, &f, pk) != VG_OK || f.calls != 1;
        if (n) {
            f = (struct t_feed){m, n, rs, 0, 2, 0};
            memset(sig2, 0xaa, 64);
            bad += vg_ed25519_sign_feed(sig2, NULL, 0, t_feed_fn, &f, sk) != VG_ERR_INPUT ||
                   vg_ct_memcmp(sig2, (const uint8_t[64]){0}, 64) != 0;
        }
        for (int fail = 1; fail <= 2; fail++) {
            f = (struct t_feed){m, n, rs, 0, 0, fail};
            memset(sig2, 0xaa, 64);
            bad += vg_ed25519_sign_feed(sig2, NULL, 0, t_feed_fn, &f, sk) != VG_ERR_INPUT ||
                   vg_ct_memcmp(sig2, (const uint8_t[64]){0}, 64) != 0;
        }
        f = (struct t_feed){m, n, rs, 0, 0, 1};
        bad += vg_ed25519_verify_feed(sig, NULL, 0, 0, t_feed_fn, &f, pk) != VG_ERR_VERIFY;
        /* Ed25519ctx through the feed = vg_ed25519ctx_sign. */
        uint8_t c[3] = {'a', 'b', (uint8_t)it};
        f = (struct t_feed){m, n, rs, 0, 0, 0};
        bad += vg_ed25519ctx_sign(sig, m, n, c, 3, sk) != VG_OK;
        bad += vg_ed25519_sign_feed(sig2, c, 3, t_feed_fn, &f, sk) != VG_OK ||
               memcmp(sig, sig2, 64) != 0;
        f.calls = 0;
        bad += vg_ed25519_verify_feed(sig, c, 3, 0, t_feed_fn, &f, pk) != VG_OK;
        bad += vg_ed25519_verify_feed(sig, NULL, 0, 0, t_feed_fn, &f, pk) != VG_ERR_VERIFY;
        bad += vg_ed25519_sign_feed(sig2, c, 0, t_feed_fn, &f, sk) != VG_ERR_INPUT;
    }
    CHECK_MSG(bad == 0, "streamed Ed25519: %u bad", bad);
    printf("  streamed Ed25519 and Ed25519ctx (two passes): 200 messages = one-shot; changed "
           "second pass and failing feeds refused\n");
}

static void test_ctx_ph_api(void)
{
    uint8_t pk[32], sk[64], sig[64], seed[32] = {7}, m[3] = {1, 2, 3}, c[256] = {0}, ph[64] = {0};
    const uint8_t zero[64] = {0};
    CHECK(vg_ed25519_keypair_from_seed(pk, sk, seed) == VG_OK);
    /* Context lengths: ctx 1..255, ph 0..255. */
    CHECK(vg_ed25519ctx_sign(sig, m, 3, c, 255, sk) == VG_OK &&
          vg_ed25519ctx_verify(sig, m, 3, c, 255, pk) == VG_OK);
    CHECK(vg_ed25519ctx_sign(sig, m, 3, c, 1, sk) == VG_OK &&
          vg_ed25519ctx_verify(sig, m, 3, c, 1, pk) == VG_OK);
    memset(sig, 0xaa, 64);
    CHECK(vg_ed25519ctx_sign(sig, m, 3, c, 0, sk) == VG_ERR_INPUT && memcmp(sig, zero, 64) == 0);
    memset(sig, 0xaa, 64);
    CHECK(vg_ed25519ctx_sign(sig, m, 3, c, 256, sk) == VG_ERR_INPUT && memcmp(sig, zero, 64) == 0);
    CHECK(vg_ed25519ctx_verify(sig, m, 3, c, 0, pk) == VG_ERR_INPUT);
    CHECK(vg_ed25519ctx_verify(sig, m, 3, c, 256, pk) == VG_ERR_INPUT);
    CHECK(vg_ed25519ph_sign(sig, m, 3, NULL, 0, sk) == VG_OK &&
          vg_ed25519ph_verify(sig, m, 3, NULL, 0, pk) == VG_OK);
    CHECK(vg_ed25519ph_sign(sig, m, 3, c, 255, sk) == VG_OK &&
          vg_ed25519ph_verify(sig, m, 3, c, 255, pk) == VG_OK);
    memset(sig, 0xaa, 64);
    CHECK(vg_ed25519ph_sign(sig, m, 3, c, 256, sk) == VG_ERR_INPUT && memcmp(sig, zero, 64) == 0);
    memset(sig, 0xaa, 64);
    CHECK(vg_ed25519ph_sign_prehashed(sig, ph, c, 256, sk) == VG_ERR_INPUT &&
          memcmp(sig, zero, 64) == 0);
    CHECK(vg_ed25519ph_verify(sig, m, 3, c, 256, pk) == VG_ERR_INPUT);
    CHECK(vg_ed25519ph_verify_prehashed(sig, ph, c, 256, pk) == VG_ERR_INPUT);
    /* NULL arguments. */
    memset(sig, 0xaa, 64);
    CHECK(vg_ed25519ctx_sign(sig, m, 3, NULL, 1, sk) == VG_ERR_INPUT && memcmp(sig, zero, 64) == 0);
    memset(sig, 0xaa, 64);
    CHECK(vg_ed25519ph_sign(sig, NULL, 3, NULL, 0, sk) == VG_ERR_INPUT &&
          memcmp(sig, zero, 64) == 0);
    memset(sig, 0xaa, 64);
    CHECK(vg_ed25519ph_sign_prehashed(sig, NULL, NULL, 0, sk) == VG_ERR_INPUT &&
          memcmp(sig, zero, 64) == 0);
    CHECK(vg_ed25519ph_sign(sig, NULL, 0, NULL, 0, sk) == VG_OK &&
          vg_ed25519ph_verify(sig, NULL, 0, NULL, 0, pk) == VG_OK);
    CHECK(vg_ed25519ph_verify(NULL, m, 3, NULL, 0, pk) == VG_ERR_VERIFY);
    CHECK(vg_ed25519ph_verify(sig, NULL, 3, NULL, 0, pk) == VG_ERR_VERIFY);
    CHECK(vg_ed25519ph_verify_prehashed(sig, NULL, NULL, 0, pk) == VG_ERR_VERIFY);
    CHECK(vg_ed25519ctx_verify(sig, m, 3, NULL, 1, pk) == VG_ERR_VERIFY);
    CHECK(vg_ed25519ctx_verify(sig, m, 3, c, 1, NULL) == VG_ERR_VERIFY);
    printf("  Ed25519ctx/ph API: context lengths, NULL arguments\n");
}

static void test_api(void)
{
    uint8_t pk[32], sk[64], sig[64], seed[32] = {1};
    CHECK(vg_ed25519_keypair_from_seed(NULL, sk, seed) == VG_ERR_INPUT);
    CHECK(vg_ed25519_keypair_from_seed(pk, NULL, seed) == VG_ERR_INPUT);
    memset(pk, 0xaa, 32);
    memset(sk, 0xaa, 64);
    CHECK(vg_ed25519_keypair_from_seed(pk, sk, NULL) == VG_ERR_INPUT);
    CHECK(vg_ct_memcmp(pk, (const uint8_t[32]){0}, 32) == 0 && vg_ct_memcmp(sk, (const uint8_t[64]){0}, 64) == 0);
    CHECK(vg_ed25519_keypair(NULL, sk) == VG_ERR_INPUT);
    CHECK(vg_ed25519_keypair(pk, NULL) == VG_ERR_INPUT);
    CHECK(vg_ed25519_keypair_from_seed(pk, sk, seed) == VG_OK);
    CHECK(vg_ed25519_sign(NULL, seed, 1, sk) == VG_ERR_INPUT);
    memset(sig, 0xaa, 64);
    CHECK(vg_ed25519_sign(sig, seed, 1, NULL) == VG_ERR_INPUT);
    CHECK(vg_ct_memcmp(sig, (const uint8_t[64]){0}, 64) == 0);
    CHECK(vg_ed25519_sign(sig, NULL, 1, sk) == VG_ERR_INPUT);
    CHECK(vg_ed25519_sign(sig, NULL, 0, sk) == VG_OK);
    CHECK(verify_all(sig, NULL, 0, pk) == VG_OK);
    CHECK(verify_all(NULL, NULL, 0, pk) == VG_ERR_VERIFY);
    CHECK(verify_all(sig, NULL, 0, NULL) == VG_ERR_VERIFY);
    CHECK(verify_all(sig, NULL, 5, pk) == VG_ERR_VERIFY);
    CHECK(verify_all8(NULL, NULL, 0, pk) == VG_ERR_VERIFY);
    /* aliasing of seed and secret key is allowed by the implementation */
    uint8_t sk2[64], pk2[32];
    memcpy(sk2, seed, 32);
    CHECK(vg_ed25519_keypair_from_seed(pk2, sk2, sk2) == VG_OK && memcmp(sk2, sk, 64) == 0);
    /* random key pairs: they work, and they differ */
    CHECK(vg_ed25519_keypair(pk, sk) == VG_OK);
    CHECK(vg_ed25519_keypair(pk2, sk2) == VG_OK);
    CHECK(memcmp(sk, sk2, 32) != 0);
    CHECK(vg_ed25519_sign(sig, seed, 32, sk) == VG_OK && verify_all(sig, seed, 32, pk) == VG_OK);
    CHECK(crypto_sign_verify_detached(sig, seed, 32, pk) == 0);
    /* RNG failure: both outputs zeroed */
    memset(pk, 0xaa, 32);
    memset(sk, 0xaa, 64);
    vg_random_fail_next(1);
    CHECK(vg_ed25519_keypair(pk, sk) == VG_ERR_RANDOM);
    vg_random_fail_next(0);
    CHECK(vg_ct_memcmp(pk, (const uint8_t[32]){0}, 32) == 0 && vg_ct_memcmp(sk, (const uint8_t[64]){0}, 64) == 0);
    CHECK(vg_implementation("ed25519") != NULL);
    printf("  API: NULL arguments, aliasing, random key pairs, RNG failure (ed25519 impl: %s, "
           "signing base: %s)\n", vg_implementation("ed25519"), vg_implementation("x25519-base"));
}

int main(int argc, char **argv)
{
    int count = 10000;
    if (argc > 1)
        count = atoi(argv[1]);
    if (sodium_init() < 0)
        return 2;
    mpz_inits(P, D, L, SQRTM1, NULL);
    mpz_ui_pow_ui(P, 2, 255);
    mpz_sub_ui(P, P, 19);
    mpz_set_ui(D, 121666);
    mpz_invert(D, D, P);
    mpz_mul_si(D, D, -121665);
    mpz_mod(D, D, P);
    mpz_set_str(L, "27742317777372353535851937790883648493", 10);
    mpz_setbit(L, 252);
    mpz_sub_ui(SQRTM1, P, 1);
    mpz_fdiv_q_2exp(SQRTM1, SQRTM1, 2);
    {
        mpz_t two;
        mpz_init_set_ui(two, 2);
        mpz_powm(SQRTM1, two, SQRTM1, P);
        mpz_clear(two);
    }
    test_sign_input(); /* first: it loads TEST 1024's message */
    test_rfc8032();
    test_wycheproof();
    test_edge_cases();
    test_api();
    test_rfc8032_ctx_ph();
    test_ctx_ph_api();
    test_sign_feed();
    test_differential(count);
    test_ctx_ph_differential(count / 10 > 0 ? count / 10 : 1);
    {
        const struct vg_ed25519_verify_impl *adx = vg_ed25519_verify_adx_get();
        printf("  variants: %lu verifications by a variant (portable%s) = the API's verdict "
               "(active: %s)\n", g_variant_runs, adx ? ", adx" : "",
               vg_ed25519_verify_active()->name);
        CHECK(g_variant_runs > 0);
    }
    free(g_msg1024);
    mpz_clears(P, D, L, SQRTM1, NULL);
    return vgtest_done("test_ed25519");
}
