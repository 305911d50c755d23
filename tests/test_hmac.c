/*
 * HMAC-SHA-256/384/512 (RFC 2104, FIPS 198-1) and HKDF (RFC 5869), through
 * the public API, once per SHA-2 variant this build and CPU offer (the
 * dispatch steered with the vg_cpu_force test hook):
 *  - RFC 4231 test cases 1-7 for the three hashes (case 5 truncated to 128
 *    bits as the RFC gives it; cases 6 and 7 with the 131-byte key), one-shot
 *    and incremental;
 *  - RFC 5869 appendix A.1-A.3 (HKDF-SHA-256: PRK and OKM);
 *  - OpenSSL's EVP_MAC "HMAC" as an independent implementation: every key
 *    length 0..300 (across the 64- and 128-byte blocks) with random
 *    messages, incremental over random splits (empty updates, splits inside
 *    a block) and a state forked by copying after init;
 *  - OpenSSL's EVP_KDF "HKDF" for HKDF-SHA-256/384/512 (extract only,
 *    expand only, both), random salt, IKM and info, output lengths around
 *    HashLen multiples up to 255 * HashLen;
 *  - the length limit (out_len > 255 * HashLen: VG_ERR_INPUT, out zeroed)
 *    and a few state rules (final twice, another type's state).
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "common.h"
#include "hash/sha2.h"
#include "vgcrypto.h"
#include "vgtest.h"

/* ---- the three hashes behind one table ---------------------------------- */

struct alg {
    const char *name;   /* OpenSSL's digest name */
    size_t len, block;  /* HashLen, block size */
    int (*mac)(uint8_t *out, const uint8_t *key, size_t key_len, const uint8_t *msg,
               size_t msg_len);
    /* incremental: st is a buffer of the algorithm's state size */
    size_t st_size;
    int (*init)(void *st, const uint8_t *key, size_t key_len);
    int (*update)(void *st, const uint8_t *msg, size_t len);
    int (*final)(void *st, uint8_t *out);
    int (*extract)(uint8_t *prk, const uint8_t *salt, size_t salt_len, const uint8_t *ikm,
                   size_t ikm_len);
    int (*expand)(uint8_t *out, size_t out_len, const uint8_t *prk, const uint8_t *info,
                  size_t info_len);
    int (*hkdf)(uint8_t *out, size_t out_len, const uint8_t *salt, size_t salt_len,
                const uint8_t *ikm, size_t ikm_len, const uint8_t *info, size_t info_len);
};

#define ALG_THUNKS(n)                                                                    \
    static int init##n(void *st, const uint8_t *k, size_t kl)                            \
    {                                                                                    \
        return vg_hmac_sha##n##_init(st, k, kl);                                         \
    }                                                                                    \
    static int update##n(void *st, const uint8_t *m, size_t l)                           \
    {                                                                                    \
        return vg_hmac_sha##n##_update(st, m, l);                                        \
    }                                                                                    \
    static int final##n(void *st, uint8_t *out) { return vg_hmac_sha##n##_final(st, out); }
ALG_THUNKS(256)
ALG_THUNKS(384)
ALG_THUNKS(512)

static const struct alg g_algs[3] = {
    {"SHA256", 32, 64, vg_hmac_sha256, sizeof(vg_hmac_sha256_state), init256, update256,
     final256, vg_hkdf_sha256_extract, vg_hkdf_sha256_expand, vg_hkdf_sha256},
    {"SHA384", 48, 128, vg_hmac_sha384, sizeof(vg_hmac_sha384_state), init384, update384,
     final384, vg_hkdf_sha384_extract, vg_hkdf_sha384_expand, vg_hkdf_sha384},
    {"SHA512", 64, 128, vg_hmac_sha512, sizeof(vg_hmac_sha512_state), init512, update512,
     final512, vg_hkdf_sha512_extract, vg_hkdf_sha512_expand, vg_hkdf_sha512},
};

/* Room for any state (the largest is HMAC-SHA-512's). */
typedef union {
    vg_hmac_sha256_state s256;
    vg_hmac_sha384_state s384;
    vg_hmac_sha512_state s512;
} any_state;

static const char *g_variant = "";

static int eq_hex(const uint8_t *got, size_t len, const char *hex)
{
    uint8_t want[128];
    return vgtest_unhex(want, sizeof want, hex) == (long)len && memcmp(got, want, len) == 0;
}

/* ---- RFC 4231 ------------------------------------------------------------ */

static const struct {
    int key_byte, key_len; /* key_byte < 0: the bytes 0x01..0x19 (case 4); "Jefe" for case 2 */
    const char *data;      /* NULL: 50 bytes of data_byte */
    int data_byte;
    size_t trunc;          /* bytes of the MAC the RFC gives (case 5: 16) */
    const char *mac[3];    /* HMAC-SHA-256, -384, -512 */
} g_rfc4231[] = {
    {0x0b, 20, "Hi There", 0, 0,
     {"b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
      "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
      "faea9ea9076ede7f4af152e8b2fa9cb6",
      "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
      "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"}},
    {'J', 4, "what do ya want for nothing?", 0, 0,
     {"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
      "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e"
      "8e2240ca5e69e2c78b3239ecfab21649",
      "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
      "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"}},
    {0xaa, 20, NULL, 0xdd, 0,
     {"773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
      "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b"
      "2a5ab39dc13814b94e3ab6e101a34f27",
      "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39"
      "bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"}},
    {-1, 25, NULL, 0xcd, 0,
     {"82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
      "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e"
      "6801dd23c4a7d679ccf8a386c674cffb",
      "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3db"
      "a91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd"}},
    {0x0c, 20, "Test With Truncation", 0, 16,
     {"a3b6167473100ee06e0c796c2955552b", "3abf34c3503b2a23a46efc619baef897",
      "415fad6271580a531d4179bc891d87a6"}},
    {0xaa, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 0, 0,
     {"60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
      "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c6"
      "0c2ef6ab4030fe8296248df163f44952",
      "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
      "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"}},
    {0xaa, 131,
     "This is a test using a larger than block-size key and a larger than block-size data. "
     "The key needs to be hashed before being used by the HMAC algorithm.",
     0, 0,
     {"9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
      "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5"
      "a678cc31e799176d3860e6110c46523e",
      "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944"
      "b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58"}},
};

static void test_rfc4231(void)
{
    unsigned long n = 0;
    for (size_t c = 0; c < sizeof g_rfc4231 / sizeof g_rfc4231[0]; c++) {
        uint8_t key[131], data[200], out[64];
        size_t kl = (size_t)g_rfc4231[c].key_len, dl;
        if (g_rfc4231[c].key_byte == 'J')
            memcpy(key, "Jefe", 4);
        else if (g_rfc4231[c].key_byte < 0)
            for (size_t i = 0; i < kl; i++)
                key[i] = (uint8_t)(i + 1);
        else
            memset(key, g_rfc4231[c].key_byte, kl);
        if (g_rfc4231[c].data) {
            dl = strlen(g_rfc4231[c].data);
            memcpy(data, g_rfc4231[c].data, dl);
        } else {
            dl = 50;
            memset(data, g_rfc4231[c].data_byte, dl);
        }
        for (int a = 0; a < 3; a++) {
            const struct alg *h = &g_algs[a];
            size_t cmp = g_rfc4231[c].trunc ? g_rfc4231[c].trunc : h->len;
            any_state st;
            CHECK(h->mac(out, key, kl, data, dl) == VG_OK);
            CHECK_MSG(eq_hex(out, cmp, g_rfc4231[c].mac[a]), "%s HMAC-%s RFC 4231 case %zu",
                      g_variant, h->name, c + 1);
            /* Incremental, one byte at a time. */
            memset(out, 0, sizeof out);
            CHECK(h->init(&st, key, kl) == VG_OK);
            for (size_t i = 0; i < dl; i++)
                CHECK(h->update(&st, data + i, 1) == VG_OK);
            CHECK(h->final(&st, out) == VG_OK);
            CHECK_MSG(eq_hex(out, cmp, g_rfc4231[c].mac[a]),
                      "%s HMAC-%s RFC 4231 case %zu, incremental", g_variant, h->name, c + 1);
            n++;
        }
    }
    printf("%s: RFC 4231: %lu (case, hash) pairs\n", g_variant, n);
}

/* ---- RFC 5869 appendix A.1-A.3 (SHA-256) ---------------------------------- */

static void fill_seq(uint8_t *p, size_t n, unsigned first)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(first + i);
}

static void test_rfc5869(void)
{
    static const struct {
        size_t ikm_len, salt_len, info_len, L;
        int seq; /* 1: A.2's sequences, 0: A.1 / A.3 bytes */
        const char *prk, *okm;
    } v[3] = {
        {22, 13, 10, 42, 0, "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
         "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"},
        {80, 80, 80, 82, 1, "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
         "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
         "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
         "cc30c58179ec3e87c14c01d5c1f3434f1d87"},
        {22, 0, 0, 42, 0, "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
         "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"},
    };
    for (int c = 0; c < 3; c++) {
        uint8_t ikm[80], salt[80], info[80], prk[32], okm[82];
        if (v[c].seq) {
            fill_seq(ikm, 80, 0x00);
            fill_seq(salt, 80, 0x60);
            fill_seq(info, 80, 0xb0);
        } else {
            memset(ikm, 0x0b, v[c].ikm_len);
            fill_seq(salt, v[c].salt_len, 0x00);
            fill_seq(info, v[c].info_len, 0xf0);
        }
        /* A.3 has no salt and no info: passed as NULL. */
        const uint8_t *sp = v[c].salt_len ? salt : NULL, *ip = v[c].info_len ? info : NULL;
        CHECK(vg_hkdf_sha256_extract(prk, sp, v[c].salt_len, ikm, v[c].ikm_len) == VG_OK);
        CHECK_MSG(eq_hex(prk, 32, v[c].prk), "%s RFC 5869 A.%d PRK", g_variant, c + 1);
        CHECK(vg_hkdf_sha256_expand(okm, v[c].L, prk, ip, v[c].info_len) == VG_OK);
        CHECK_MSG(eq_hex(okm, v[c].L, v[c].okm), "%s RFC 5869 A.%d OKM", g_variant, c + 1);
        memset(okm, 0, sizeof okm);
        CHECK(vg_hkdf_sha256(okm, v[c].L, sp, v[c].salt_len, ikm, v[c].ikm_len, ip,
                             v[c].info_len) == VG_OK);
        CHECK_MSG(eq_hex(okm, v[c].L, v[c].okm), "%s RFC 5869 A.%d one-shot", g_variant, c + 1);
    }
}

/* ---- OpenSSL as the independent implementation ---------------------------- */

static EVP_MAC *g_mac;
static EVP_KDF *g_kdf;

static int ossl_hmac(const struct alg *h, const uint8_t *key, size_t kl, const uint8_t *msg,
                     size_t ml, uint8_t *out)
{
    static const uint8_t empty[1] = {0};
    OSSL_PARAM p[2];
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(g_mac);
    size_t outl = 0;
    int ok;
    p[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)h->name, 0);
    p[1] = OSSL_PARAM_construct_end();
    /* A NULL key would mean "keep the previous one": give the empty key. */
    ok = ctx && EVP_MAC_init(ctx, kl ? key : empty, kl, p) == 1 &&
         EVP_MAC_update(ctx, msg, ml) == 1 && EVP_MAC_final(ctx, out, &outl, 64) == 1 &&
         outl == h->len;
    EVP_MAC_CTX_free(ctx);
    return ok;
}

/* mode: EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND, _EXTRACT_ONLY or _EXPAND_ONLY;
 * key is the IKM (or the PRK for expand only). OpenSSL needs a nonempty key. */
static int ossl_hkdf(const struct alg *h, int mode, uint8_t *out, size_t out_len,
                     const uint8_t *salt, size_t sl, const uint8_t *key, size_t kl,
                     const uint8_t *info, size_t il)
{
    OSSL_PARAM p[6], *q = p;
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(g_kdf);
    int ok;
    *q++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)h->name, 0);
    *q++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
    *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)key, kl);
    if (sl)
        *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, sl);
    if (il)
        *q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, il);
    *q = OSSL_PARAM_construct_end();
    ok = ctx && EVP_KDF_derive(ctx, out, out_len, p) == 1;
    EVP_KDF_CTX_free(ctx);
    return ok;
}

/* A random split of len bytes: pieces of 0 (an empty update), a few bytes,
 * about a block, or more, so that splits fall inside and across blocks. */
static size_t piece(uint64_t *rng, size_t block, size_t left)
{
    uint64_t r = vgtest_rand64(rng);
    size_t p;
    switch (r % 5) {
    case 0: p = 0; break;
    case 1: p = (size_t)(r >> 8) % 8 + 1; break;
    case 2: p = block - 1 + (size_t)(r >> 8) % 3; break;
    case 3: p = (size_t)(r >> 8) % (3 * block); break;
    default: p = (size_t)(r >> 8) % 1500; break;
    }
    return p < left ? p : left;
}

static void test_hmac_vs_openssl(const uint8_t *buf, uint64_t *rng)
{
    unsigned long n = 0;
    for (int a = 0; a < 3; a++) {
        const struct alg *h = &g_algs[a];
        for (size_t kl = 0; kl <= 300; kl++) {
            uint8_t key[300], want[64], got[64], fork[64];
            any_state st, copy;
            size_t ml = (size_t)(vgtest_rand64(rng) % 3000);
            const uint8_t *msg = buf + vgtest_rand64(rng) % 4096;
            vgtest_randbytes(rng, key, kl);
            CHECK(ossl_hmac(h, key, kl, msg, ml, want));
            CHECK(h->mac(got, key, kl, msg, ml) == VG_OK);
            CHECK_MSG(memcmp(got, want, h->len) == 0, "%s HMAC-%s key %zu msg %zu", g_variant,
                      h->name, kl, ml);
            /* Incremental over random splits; a copy taken right after init
             * MACs the same message to the same value. */
            CHECK(h->init(&st, kl ? key : NULL, kl) == VG_OK);
            memcpy(&copy, &st, h->st_size);
            for (size_t done = 0; done < ml;) {
                size_t p = piece(rng, h->block, ml - done);
                CHECK(h->update(&st, msg + done, p) == VG_OK);
                done += p;
            }
            CHECK(h->update(&st, NULL, 0) == VG_OK);
            CHECK(h->final(&st, got) == VG_OK);
            CHECK_MSG(memcmp(got, want, h->len) == 0, "%s HMAC-%s incremental key %zu msg %zu",
                      g_variant, h->name, kl, ml);
            CHECK(h->update(&copy, msg, ml) == VG_OK);
            CHECK(h->final(&copy, fork) == VG_OK);
            CHECK_MSG(memcmp(fork, want, h->len) == 0, "%s HMAC-%s forked key %zu", g_variant,
                      h->name, kl);
            n++;
        }
    }
    printf("%s: HMAC vs OpenSSL EVP_MAC: %lu keys (0..300 bytes) x 3 hashes\n", g_variant,
           n / 3);
}

/* Output lengths checked: around each multiple of HashLen, and the limit. */
static size_t hkdf_len(const struct alg *h, uint64_t *rng, int i)
{
    switch (i % 4) {
    case 0: return (size_t)(vgtest_rand64(rng) % (255 * h->len)) + 1;
    case 1: {
        size_t L = h->len * (1 + (size_t)(vgtest_rand64(rng) % 255)) - 1 + (size_t)(i % 3);
        return L < 255 * h->len ? L : 255 * h->len;
    }
    case 2: return 255 * h->len - (size_t)(i % 3);
    default: return (size_t)((i / 4) % 70); /* 0 (an empty output) first */
    }
}

static void test_hkdf_vs_openssl(const uint8_t *buf, uint64_t *rng)
{
    static uint8_t want[255 * 64], got[255 * 64];
    unsigned long n = 0;
    for (int a = 0; a < 3; a++) {
        const struct alg *h = &g_algs[a];
        for (int i = 0; i < 120; i++) {
            size_t sl = (size_t)(vgtest_rand64(rng) % 300), il = (size_t)(vgtest_rand64(rng) % 300);
            size_t kl = 1 + (size_t)(vgtest_rand64(rng) % 300);
            size_t L = hkdf_len(h, rng, i);
            const uint8_t *salt = buf + vgtest_rand64(rng) % 1024;
            const uint8_t *ikm = buf + 1024 + vgtest_rand64(rng) % 1024;
            const uint8_t *info = buf + 2048 + vgtest_rand64(rng) % 1024;
            uint8_t prk[64], prk_ossl[64];
            if (i % 10 == 0)
                sl = 0; /* the default salt, HashLen zeros */
            if (i % 10 == 1)
                il = 0;
            /* Extract only. */
            CHECK(ossl_hkdf(h, EVP_KDF_HKDF_MODE_EXTRACT_ONLY, prk_ossl, h->len, salt, sl, ikm, kl,
                            NULL, 0));
            CHECK(h->extract(prk, sl ? salt : NULL, sl, ikm, kl) == VG_OK);
            CHECK_MSG(memcmp(prk, prk_ossl, h->len) == 0, "%s HKDF-%s extract salt %zu ikm %zu",
                      g_variant, h->name, sl, kl);
            if (L == 0) {
                /* OpenSSL refuses an empty output; ours writes nothing. */
                CHECK(h->expand(NULL, 0, prk, info, il) == VG_OK);
                CHECK(h->hkdf(NULL, 0, salt, sl, ikm, kl, info, il) == VG_OK);
                continue;
            }
            /* Expand only, from OpenSSL's PRK. */
            CHECK(ossl_hkdf(h, EVP_KDF_HKDF_MODE_EXPAND_ONLY, want, L, NULL, 0, prk_ossl, h->len,
                            info, il));
            memset(got, 0, L);
            CHECK(h->expand(got, L, prk, il ? info : NULL, il) == VG_OK);
            CHECK_MSG(memcmp(got, want, L) == 0, "%s HKDF-%s expand L %zu info %zu", g_variant,
                      h->name, L, il);
            /* Both. */
            CHECK(ossl_hkdf(h, EVP_KDF_HKDF_MODE_EXTRACT_AND_EXPAND, want, L, salt, sl, ikm, kl,
                            info, il));
            memset(got, 0, L);
            CHECK(h->hkdf(got, L, salt, sl, ikm, kl, info, il) == VG_OK);
            CHECK_MSG(memcmp(got, want, L) == 0, "%s HKDF-%s L %zu", g_variant, h->name, L);
            /* Expand in place: out over prk (prk is read before out is written). */
            if (L >= h->len) {
                memcpy(got, prk, h->len);
                CHECK(h->expand(got, L, got, il ? info : NULL, il) == VG_OK);
                CHECK_MSG(memcmp(got, want, L) == 0, "%s HKDF-%s expand in place", g_variant,
                          h->name);
            }
            n++;
        }
    }
    printf("%s: HKDF vs OpenSSL EVP_KDF: %lu cases (extract, expand, both)\n", g_variant, n);
}

/* ---- limits and state rules ---------------------------------------------- */

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static void test_limits(void)
{
    static uint8_t out[255 * 64 + 1];
    uint8_t prk[64] = {1}, mac[64];
    for (int a = 0; a < 3; a++) {
        const struct alg *h = &g_algs[a];
        size_t max = 255 * h->len;
        any_state st;
        CHECK(h->expand(out, max, prk, NULL, 0) == VG_OK);
        CHECK(!all_zero(out + max - h->len, h->len));
        memset(out, 0xaa, sizeof out);
        CHECK(h->expand(out, max + 1, prk, NULL, 0) == VG_ERR_INPUT);
        CHECK(all_zero(out, max + 1));
        memset(out, 0xaa, sizeof out);
        CHECK(h->hkdf(out, max + 1, NULL, 0, prk, 1, NULL, 0) == VG_ERR_INPUT);
        CHECK(all_zero(out, max + 1));
        memset(out, 0xaa, sizeof out);
        CHECK(h->hkdf(out, max, NULL, 0, prk, 1, NULL, 0) == VG_OK);
        CHECK(!all_zero(out + max - h->len, h->len));
        /* final twice: the second is refused and zeroes its output. */
        CHECK(h->init(&st, prk, 3) == VG_OK);
        CHECK(h->final(&st, mac) == VG_OK);
        memset(mac, 0xaa, sizeof mac);
        CHECK(h->final(&st, mac) == VG_ERR_INPUT);
        CHECK(all_zero(mac, h->len));
        CHECK(h->update(&st, prk, 1) == VG_ERR_INPUT);
        /* A state never initialised (all zero) is refused. */
        memset(&st, 0, sizeof st);
        CHECK(h->update(&st, prk, 1) == VG_ERR_INPUT);
    }
    /* An HMAC-SHA-512 state given to HMAC-SHA-384 (same size). */
    {
        vg_hmac_sha512_state s;
        CHECK(vg_hmac_sha512_init(&s, prk, 3) == VG_OK);
        CHECK(vg_hmac_sha384_update((vg_hmac_sha384_state *)&s, prk, 1) == VG_ERR_INPUT);
    }
}

/* ---- variants --------------------------------------------------------------- */

static void run_all(const uint8_t *buf)
{
    uint64_t rng = 0x4d4143;
    test_rfc4231();
    test_rfc5869();
    test_hmac_vs_openssl(buf, &rng);
    test_hkdf_vs_openssl(buf, &rng);
    test_limits();
}

int main(void)
{
    static uint8_t buf[8192];
    uint64_t seed = 0x686b6466;
    uint32_t saved = vg_cpu_active();
    /* Masks that change the SHA-2 dispatch: everything, SHA-NI off, AVX2 off, none. */
    const uint32_t masks[4] = {saved, saved & ~VG_CPU_SHA, saved & ~VG_CPU_AVX2, 0};
    char seen[4][64];
    int nseen = 0;

    g_mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    g_kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    CHECK(g_mac != NULL && g_kdf != NULL);
    if (!g_mac || !g_kdf)
        return vgtest_done("test_hmac");
    vgtest_randbytes(&seed, buf, sizeof buf);

    for (int m = 0; m < 4; m++) {
        char name[64];
        int dup = 0;
        vg_cpu_force(masks[m]);
        snprintf(name, sizeof name, "sha256 %s, sha512 %s", vg_sha256_active()->name,
                 vg_sha512_active()->name);
        for (int i = 0; i < nseen; i++)
            dup |= strcmp(seen[i], name) == 0;
        if (dup)
            continue;
        memcpy(seen[nseen++], name, sizeof name);
        g_variant = seen[nseen - 1];
        run_all(buf);
    }
    vg_cpu_force(saved);
    EVP_MAC_free(g_mac);
    EVP_KDF_free(g_kdf);
    return vgtest_done("test_hmac");
}
