/*
 * X25519 (RFC 7748), every variant (portable, portable-noint128, adx when
 * the CPU has it):
 *  - RFC 7748 section 5.2 vectors and the iterated test after 1 and 1,000
 *    iterations (1,000,000 with --long, ctest label x25519-long);
 *  - RFC 7748 section 6.1 Diffie-Hellman example through the public API;
 *  - Wycheproof x25519_test.json, all cases, with the all-zero rule;
 *  - differential against libsodium (crypto_scalarmult) and OpenSSL (EVP
 *    X25519 derive) on random inputs, non-canonical u >= p, u with bit 255
 *    set and small-order points; every variant equal to the portable one;
 *  - the API: error codes, key generation, RNG failure, dispatch names.
 */
#include <openssl/evp.h>
#include <sodium.h>

#include "common.h"
#include "curve25519/fe25519.h"
#include "curve25519/x25519_ifma.h"
#include "vgtest.h"

#define MAXIMPL 8
static const struct vg_x25519_impl *g_impl[MAXIMPL];
static int g_nimpl;

static void unhex32(uint8_t out[32], const char *hex)
{
    if (vgtest_unhex(out, 32, hex) != 32) {
        fprintf(stderr, "bad hex constant %s\n", hex);
        exit(2);
    }
}

static int is_zero32(const uint8_t b[32])
{
    uint8_t acc = 0;
    for (int i = 0; i < 32; i++)
        acc |= b[i];
    return acc == 0;
}

/* ---- RFC 7748 section 5.2 ------------------------------------------------------ */

static void test_rfc_vectors(const struct vg_x25519_impl *im, int long_run)
{
    static const char *const vec[2][3] = {
        {"a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
         "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
         "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"},
        {"4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
         "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
         "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"},
    };
    uint8_t k[32], u[32], want[32], out[32];
    for (int i = 0; i < 2; i++) {
        unhex32(k, vec[i][0]);
        unhex32(u, vec[i][1]);
        unhex32(want, vec[i][2]);
        im->scalarmult(out, k, u);
        CHECK_MSG(memcmp(out, want, 32) == 0, "%s RFC 7748 5.2 vector %d", im->name, i + 1);
        /* aliasing: out over u */
        memcpy(out, u, 32);
        im->scalarmult(out, k, out);
        CHECK_MSG(memcmp(out, want, 32) == 0, "%s RFC 7748 5.2 vector %d in place", im->name, i + 1);
    }

    /* Iterated: k = u = 9; each round u, k = k, X25519(k, u). */
    static const char *const iter1 = "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079";
    static const char *const iter1k = "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51";
    static const char *const iter1m = "7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424";
    long rounds = long_run ? 1000000 : 1000;
    memset(k, 0, 32);
    memset(u, 0, 32);
    k[0] = u[0] = 9;
    for (long r = 1; r <= rounds; r++) {
        im->scalarmult(out, k, u);
        memcpy(u, k, 32);
        memcpy(k, out, 32);
        if (r == 1 || r == 1000 || r == 1000000) {
            unhex32(want, r == 1 ? iter1 : r == 1000 ? iter1k : iter1m);
            CHECK_MSG(memcmp(k, want, 32) == 0, "%s RFC 7748 5.2 after %ld iterations", im->name, r);
            printf("  %-18s iterated test after %ld: %s\n", im->name, r,
                   memcmp(k, want, 32) == 0 ? "ok" : "MISMATCH");
        }
    }
}

/* ---- RFC 7748 section 6.1 through the API ------------------------------------------ */

static void test_rfc_dh(void)
{
    uint8_t a[32], apub[32], b[32], bpub[32], shared[32], out[32], out2[32];
    unhex32(a, "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
    unhex32(apub, "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
    unhex32(b, "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
    unhex32(bpub, "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
    unhex32(shared, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    CHECK(vg_x25519_public_key(out, a) == VG_OK && memcmp(out, apub, 32) == 0);
    CHECK(vg_x25519_public_key(out, b) == VG_OK && memcmp(out, bpub, 32) == 0);
    CHECK(vg_x25519(out, a, bpub) == VG_OK && memcmp(out, shared, 32) == 0);
    CHECK(vg_x25519(out2, b, apub) == VG_OK && memcmp(out2, shared, 32) == 0);
}

/* ---- Wycheproof ------------------------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

/* The string value of "key" in [obj, end), copied to out; 0 when absent.
 * Enough JSON for Wycheproof's flat test objects (no escapes in values). */
static int json_str(const char *obj, const char *end, const char *key, char *out, size_t cap)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(obj, pat);
    if (!p || p >= end)
        return 0;
    p += strlen(pat);
    while (*p == ' ' || *p == ':' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    if (*p != '"')
        return 0;
    p++;
    const char *q = strchr(p, '"');
    if (!q || q >= end || (size_t)(q - p) >= cap)
        return 0;
    memcpy(out, p, (size_t)(q - p));
    out[q - p] = '\0';
    return 1;
}

static void test_wycheproof(void)
{
    size_t len;
    char *json = read_file(VG_VECTORS_DIR "/wycheproof/x25519_test.json", &len);
    CHECK_MSG(json != NULL, "cannot read %s", VG_VECTORS_DIR "/wycheproof/x25519_test.json");
    if (!json)
        return;
    uint32_t saved = vg_cpu_active();
    int declared = 0, cases = 0, zero_cases = 0;
    const char *nt = strstr(json, "\"numberOfTests\"");
    if (nt)
        declared = atoi(nt + strcspn(nt, "0123456789"));
    for (const char *p = strstr(json, "\"tcId\""); p;) {
        const char *next = strstr(p + 1, "\"tcId\"");
        const char *end = next ? next : json + len;
        char pub[80], priv[80], shared[80], result[32];
        int id = atoi(p + strcspn(p, "0123456789"));
        uint8_t u[32], k[32], want[32], out[32];
        int ok = json_str(p, end, "public", pub, sizeof pub) &&
                 json_str(p, end, "private", priv, sizeof priv) &&
                 json_str(p, end, "shared", shared, sizeof shared) &&
                 json_str(p, end, "result", result, sizeof result) &&
                 vgtest_unhex(u, 32, pub) == 32 && vgtest_unhex(k, 32, priv) == 32 &&
                 vgtest_unhex(want, 32, shared) == 32;
        CHECK_MSG(ok, "tcId %d: cannot parse", id);
        if (ok) {
            cases++;
            int zero = is_zero32(want);
            zero_cases += zero;
            /* The file has only "valid" and "acceptable" cases: every one
             * has a defined X25519 output (acceptable ones are the
             * all-zero and twist cases, which the API must still compute). */
            CHECK_MSG(strcmp(result, "valid") == 0 || strcmp(result, "acceptable") == 0,
                      "tcId %d: unexpected result %s", id, result);
            for (int i = 0; i < g_nimpl; i++) {
                g_impl[i]->scalarmult(out, k, u);
                CHECK_MSG(memcmp(out, want, 32) == 0, "%s tcId %d", g_impl[i]->name, id);
            }
            /* The API under each CPU mask that selects a different variant. */
            for (int m = 0; m < 2; m++) {
                vg_cpu_force(m ? saved : 0);
                memset(out, 0xaa, 32);
                int rc = vg_x25519(out, k, u);
                CHECK_MSG(memcmp(out, want, 32) == 0 && rc == (zero ? VG_ERR_INPUT : VG_OK),
                          "API (%s) tcId %d rc %d", vg_x25519_active()->name, id, rc);
            }
            vg_cpu_force(saved);
        }
        p = next;
    }
    printf("  wycheproof x25519: %d cases (file declares %d), %d with an all-zero shared secret, "
           "run on %d variants and the API\n",
           cases, declared, zero_cases, g_nimpl);
    CHECK(cases == declared && cases == 518);
    CHECK(zero_cases > 0);
    free(json);
}

/* ---- differential ------------------------------------------------------------------ */

/* OpenSSL's X25519: 1 and out written, or 0 when it refuses (all-zero result). */
static int openssl_x25519(uint8_t out[32], const uint8_t k[32], const uint8_t u[32])
{
    EVP_PKEY *sk = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k, 32);
    EVP_PKEY *pk = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, u, 32);
    EVP_PKEY_CTX *ctx = sk ? EVP_PKEY_CTX_new(sk, NULL) : NULL;
    size_t len = 32;
    int ok = sk && pk && ctx && EVP_PKEY_derive_init(ctx) > 0 && EVP_PKEY_derive_set_peer(ctx, pk) > 0 &&
             EVP_PKEY_derive(ctx, out, &len) > 0 && len == 32;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(pk);
    EVP_PKEY_free(sk);
    return ok;
}

/* u-coordinates of small order (0, 1, the two of order 8, p-1, p, p+1),
 * little-endian; the test also sets bit 255 on them. */
static const char *const g_small_order[] = {
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
};
#define NSMALL (int)(sizeof g_small_order / sizeof g_small_order[0])

#define NDIFF 100000    /* inputs (issue 3: at least 10^5); each variant vs libsodium */
#define OPENSSL_EVERY 1 /* and vs OpenSSL on every input */
#define TWIN_EVERY 8    /* the slow no-__int128 twin on every eighth */

static void test_differential(void)
{
    uint64_t seed = 0x9e3779b97f4a7c15u;
    unsigned long vs_sodium = 0, vs_openssl = 0, noncanon = 0, top = 0, small = 0, zero_seen = 0;
    for (int n = 0; n < NDIFF; n++) {
        uint8_t k[32], u[32], ref[32], out[32], peer[32];
        vgtest_randbytes(&seed, k, 32);
        vgtest_randbytes(&seed, u, 32);
        switch (n % 8) {
        case 1: /* non-canonical: p <= u mod 2^255 <= 2^255 - 1 */
            memset(u + 1, 0xff, 30);
            u[0] = (uint8_t)(0xed + vgtest_rand64(&seed) % 19);
            u[31] = (u[31] & 0x80) | 0x7f;
            noncanon++;
            break;
        case 2: /* small order, with bit 255 as drawn */
            unhex32(peer, g_small_order[(n / 8) % NSMALL]);
            peer[31] |= u[31] & 0x80;
            memcpy(u, peer, 32);
            small++;
            break;
        default:
            break;
        }
        top += u[31] >> 7;
        int twin_now = n % TWIN_EVERY == 0;
        g_impl[0]->scalarmult(ref, k, u);
        int zero = is_zero32(ref);
        unsigned long ran = 1; /* variants run on this input, portable included */
        zero_seen += zero;
        for (int i = 1; i < g_nimpl; i++) {
            if (strcmp(g_impl[i]->name, "portable-noint128") == 0 && !twin_now)
                continue;
            g_impl[i]->scalarmult(out, k, u);
            CHECK_MSG(memcmp(out, ref, 32) == 0, "%s differs from portable, input %d", g_impl[i]->name, n);
            ran++;
        }
        /* libsodium: -1 for a small-order peer (it may then leave q unwritten). */
        int rc = crypto_scalarmult(peer, k, u);
        CHECK_MSG(rc == 0 ? memcmp(peer, ref, 32) == 0 && !zero : zero, "libsodium input %d rc %d", n, rc);
        vs_sodium += ran;
        if (n % OPENSSL_EVERY == 0 || n % 8 == 1 || n % 8 == 2) {
            int ok = openssl_x25519(peer, k, u);
            CHECK_MSG(ok ? memcmp(peer, ref, 32) == 0 && !zero : zero, "OpenSSL input %d", n);
            vs_openssl += ran;
        }
    }
    printf("  differential: %d inputs (%lu non-canonical u >= p, %lu with bit 255 set, %lu small-order, "
           "%lu all-zero results); %lu variant-vs-libsodium and %lu variant-vs-OpenSSL comparisons\n",
           NDIFF, noncanon, top, small, zero_seen, vs_sodium, vs_openssl);
    CHECK(zero_seen >= small);
    CHECK(NDIFF >= 100000 && vs_sodium >= NDIFF && vs_openssl >= NDIFF);
}

/* ---- API ---------------------------------------------------------------------------- */

static void test_api(void)
{
    uint8_t pk[32] = {0}, sk[32] = {0}, pk2[32], sk2[32], s1[32], s2[32], zero[32] = {0}, out[32];
    CHECK(vg_x25519(NULL, sk, pk) == VG_ERR_INPUT);
    CHECK(vg_x25519_public_key(NULL, sk) == VG_ERR_INPUT);
    CHECK(vg_x25519_keypair(pk, NULL) == VG_ERR_INPUT);

    /* small-order peer: output written (all zero) and VG_ERR_INPUT */
    memset(out, 0x55, 32);
    memset(sk, 0x11, 32);
    CHECK(vg_x25519(out, sk, zero) == VG_ERR_INPUT && is_zero32(out));

    /* key generation and agreement */
    CHECK(vg_x25519_keypair(pk, sk) == VG_OK);
    CHECK(vg_x25519_keypair(pk2, sk2) == VG_OK);
    CHECK(memcmp(sk, sk2, 32) != 0);
    CHECK(vg_x25519_public_key(out, sk) == VG_OK && memcmp(out, pk, 32) == 0);
    CHECK(vg_x25519(s1, sk, pk2) == VG_OK && vg_x25519(s2, sk2, pk) == VG_OK && memcmp(s1, s2, 32) == 0);
    CHECK(crypto_scalarmult_base(out, sk) == 0 && memcmp(out, pk, 32) == 0);

    /* RNG failure: both outputs zeroed */
    memset(pk, 0xaa, 32);
    memset(sk, 0xaa, 32);
    vg_random_fail_next(1);
    CHECK(vg_x25519_keypair(pk, sk) == VG_ERR_RANDOM);
    CHECK(is_zero32(pk) && is_zero32(sk));
    vg_random_fail_next(0);

    /* dispatch and names */
    uint32_t saved = vg_cpu_active();
    const char *name = vg_implementation("x25519");
    CHECK(name && strcmp(name, vg_x25519_active()->name) == 0);
    vg_cpu_force(0);
    CHECK(strcmp(vg_implementation("x25519"), "portable") == 0);
    CHECK(vg_x25519_adx_get() == NULL);
    vg_cpu_force(saved);
    int adx = vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX);
#if defined(VG_X86_64)
    int ifma = vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA);
    /* IFMA is preferred over ADX where both exist (x25519.c). */
    CHECK(strcmp(vg_implementation("x25519"), ifma ? "ifma" : adx ? "adx" : "portable") == 0);
    vg_cpu_force(saved & ~(uint32_t)VG_CPU_AVX512IFMA);
    CHECK(strcmp(vg_implementation("x25519"), adx ? "adx" : "portable") == 0);
    vg_cpu_force(saved);
#else
    CHECK(!adx || vg_x25519_adx_get() == NULL);
    CHECK(strcmp(vg_implementation("x25519"), "portable") == 0);
#endif
    printf("  API: active variant \"%s\" (features \"%s\")\n", vg_implementation("x25519"),
           vg_cpu_features());
}

int main(int argc, char **argv)
{
    int long_run = argc > 1 && strcmp(argv[1], "--long") == 0;
    if (sodium_init() < 0) {
        fprintf(stderr, "sodium_init failed\n");
        return 2;
    }
    g_impl[g_nimpl++] = vg_x25519_portable_get();
    g_impl[g_nimpl++] = vg_x25519_portablent_get();
    if (vg_x25519_adx_get())
        g_impl[g_nimpl++] = vg_x25519_adx_get();
    if (vg_x25519_ifma_get())
        g_impl[g_nimpl++] = vg_x25519_ifma_get();
    printf("  variants:");
    for (int i = 0; i < g_nimpl; i++)
        printf(" %s", g_impl[i]->name);
    printf("\n");

    for (int i = 0; i < g_nimpl; i++)
        test_rfc_vectors(g_impl[i], long_run);
    if (!long_run) {
        test_rfc_dh();
        test_wycheproof();
        test_differential();
        test_api();
    }
    return vgtest_done(long_run ? "test_x25519 --long" : "test_x25519");
}
