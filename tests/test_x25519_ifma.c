/*
 * The AVX-512 IFMA X25519 ladder (src/curve25519/x25519_ifma.c):
 *  - RFC 7748 section 5.2: both test vectors (also in place) and the
 *    iterated test after 1 and 1,000 iterations;
 *  - Wycheproof x25519_test.json (all 518 cases, parsed with cJSON);
 *  - edge inputs: u = 0, 1, p - 1, p, p + 1, 2^255 - 1 and each with bit 255
 *    set or cleared, the points of order 1, 2, 4 and 8 (RFC 7748 section 6.1:
 *    the result must be all zero, since every clamped k is a multiple of 8),
 *    k all 0xff and all 0x00;
 *  - >= 10^5 random (k, u) against the portable ladder and against
 *    libsodium's crypto_scalarmult;
 *  - all of it again (10^4 random) with ADX masked out, which moves the
 *    final inversion from the BMI2+ADX field to the portable one.
 * Skips (exit 0, says so) when the CPU or the build lacks IFMA.
 */
#include <cjson/cJSON.h>
#include <sodium.h>

#include "common.h"
#include "curve25519/fe25519.h"
#include "curve25519/x25519_ifma.h"
#include "vgtest.h"

static const struct vg_x25519_impl *g_ifma, *g_ref;

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

static void show(const char *what, const uint8_t k[32], const uint8_t u[32])
{
    char hk[65], hu[65];
    vgtest_hex(hk, k, 32);
    vgtest_hex(hu, u, 32);
    fprintf(stderr, "  %s: k=%s u=%s\n", what, hk, hu);
}

/* ---- RFC 7748 section 5.2 ------------------------------------------------------ */

static void test_rfc(void)
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
        g_ifma->scalarmult(out, k, u);
        CHECK_MSG(memcmp(out, want, 32) == 0, "RFC 7748 5.2 vector %d", i + 1);
        memcpy(out, u, 32);
        g_ifma->scalarmult(out, k, out); /* out aliases u */
        CHECK_MSG(memcmp(out, want, 32) == 0, "RFC 7748 5.2 vector %d in place", i + 1);
        memcpy(out, k, 32);
        g_ifma->scalarmult(out, out, u); /* out aliases k */
        CHECK_MSG(memcmp(out, want, 32) == 0, "RFC 7748 5.2 vector %d, out over k", i + 1);
    }
    /* Iterated: k = u = 9; each round (k, u) = (X25519(k, u), k). */
    uint8_t want1[32], want1k[32];
    unhex32(want1, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079");
    unhex32(want1k, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51");
    memset(k, 0, 32);
    memset(u, 0, 32);
    k[0] = u[0] = 9;
    for (int r = 1; r <= 1000; r++) {
        g_ifma->scalarmult(out, k, u);
        memcpy(u, k, 32);
        memcpy(k, out, 32);
        if (r == 1)
            CHECK_MSG(memcmp(k, want1, 32) == 0, "RFC 7748 5.2 after 1 iteration");
        if (r == 1000)
            CHECK_MSG(memcmp(k, want1k, 32) == 0, "RFC 7748 5.2 after 1,000 iterations");
    }
}

/* ---- Wycheproof ------------------------------------------------------------------- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* Every case, valid or acceptable, gives its shared value: X25519 itself
 * accepts every input (RFC 7748 section 5); rejecting the all-zero result
 * is the API's business (x25519.c), not the ladder's. */
static void test_wycheproof(void)
{
    const char *path = VG_VECTORS_DIR "/wycheproof/x25519_test.json";
    char *text = slurp(path);
    CHECK_MSG(text != NULL, "cannot read %s", path);
    if (!text)
        return;
    cJSON *root = cJSON_Parse(text);
    CHECK_MSG(root != NULL, "cannot parse %s", path);
    int count = 0;
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(root, "testGroups"), *g, *t;
    cJSON_ArrayForEach(g, groups)
    {
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            const cJSON *pub = cJSON_GetObjectItemCaseSensitive(t, "public");
            const cJSON *priv = cJSON_GetObjectItemCaseSensitive(t, "private");
            const cJSON *shared = cJSON_GetObjectItemCaseSensitive(t, "shared");
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(t, "tcId");
            uint8_t k[32], u[32], want[32], out[32];
            if (!cJSON_IsString(pub) || !cJSON_IsString(priv) || !cJSON_IsString(shared) ||
                vgtest_unhex(u, 32, pub->valuestring) != 32 ||
                vgtest_unhex(k, 32, priv->valuestring) != 32 ||
                vgtest_unhex(want, 32, shared->valuestring) != 32) {
                CHECK_MSG(0, "malformed Wycheproof case %d", cJSON_IsNumber(id) ? id->valueint : -1);
                continue;
            }
            g_ifma->scalarmult(out, k, u);
            CHECK_MSG(memcmp(out, want, 32) == 0, "Wycheproof tcId %d",
                      cJSON_IsNumber(id) ? id->valueint : -1);
            count++;
        }
    }
    CHECK_MSG(count == 518, "Wycheproof: %d cases, expected 518", count);
    printf("  Wycheproof: %d cases run\n", count);
    cJSON_Delete(root);
    free(text);
}

/* ---- edge inputs ---------------------------------------------------------------------- */

/* Compare ifma with the portable ladder and with libsodium (which fails, and
 * writes zeros, exactly when the result is zero). */
static void compare(const uint8_t k[32], const uint8_t u[32], const char *what)
{
    uint8_t a[32], b[32], c[32];
    g_ifma->scalarmult(a, k, u);
    g_ref->scalarmult(b, k, u);
    int rc = crypto_scalarmult(c, k, u);
    int ok_ref = memcmp(a, b, 32) == 0;
    int ok_sod = rc == 0 ? memcmp(a, c, 32) == 0 : is_zero32(a);
    CHECK(ok_ref);
    CHECK(ok_sod);
    if (!ok_ref || !ok_sod)
        show(what, k, u);
}

static void test_edges(void)
{
    /* u values (little-endian hex as in RFC 7748), each also with bit 255 flipped below. */
    static const char *const edge_u[] = {
        /* 0, 1 */
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        /* p - 1, p, p + 1 */
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        /* 2^255 - 1 (= p + 18) and 2^255 - 2 */
        "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "feffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        /* 9 (the base point), 2^254 */
        "0900000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000040",
        /* limbs at the radix-2^51 boundaries: 2^51 - 1, 2^51, 2^204 - 1 */
        "ffffffffffff0700000000000000000000000000000000000000000000000000",
        "0000000000000800000000000000000000000000000000000000000000000000",
        "ffffffffffffffffffffffffffffffffffffffffffffffffff0f000000000000",
    };
    /* u of small order: 0 (order 2, the point (0, 0)), 1 and p - 1 (order 4 on
     * the curve or its twist), the two u of order 8 (checked offline: x-only
     * doubling three times reaches the point at infinity), and the
     * non-canonical forms p and p + 1 (the order-8 values exceed 19, so
     * adding p to them overflows 255 bits). */
    static const char *const small_u[] = {
        "0000000000000000000000000000000000000000000000000000000000000000", /* 0 */
        "0100000000000000000000000000000000000000000000000000000000000000", /* 1 */
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p - 1 */
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800", /* order 8 */
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157", /* order 8 */
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p = 0 */
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p + 1 = 1 */
    };
    uint8_t k[5][32], u[32], out[32];
    memset(k[0], 0xff, 32);
    memset(k[1], 0x00, 32);
    unhex32(k[2], "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
    memset(k[3], 0x55, 32);
    memset(k[4], 0xaa, 32);
    for (size_t i = 0; i < sizeof edge_u / sizeof edge_u[0]; i++) {
        for (int hb = 0; hb < 2; hb++) {
            unhex32(u, edge_u[i]);
            u[31] = (uint8_t)((u[31] & 0x7f) | (hb << 7));
            for (int j = 0; j < 5; j++)
                compare(k[j], u, "edge u");
        }
    }
    for (size_t i = 0; i < sizeof small_u / sizeof small_u[0]; i++) {
        for (int hb = 0; hb < 2; hb++) {
            unhex32(u, small_u[i]);
            u[31] = (uint8_t)((u[31] & 0x7f) | (hb << 7));
            for (int j = 0; j < 5; j++) {
                g_ifma->scalarmult(out, k[j], u);
                CHECK_MSG(is_zero32(out), "small-order u #%zu (bit 255 %d), k #%d: nonzero", i, hb, j);
                compare(k[j], u, "small-order u");
            }
        }
    }
}

/* ---- random inputs ------------------------------------------------------------------ */

static void test_random(long n)
{
    uint64_t seed = 0x1f2e3d4c5b6a7988ULL;
    uint8_t k[32], u[32];
    unsigned long before = vgtest_failed;
    for (long i = 0; i < n; i++) {
        vgtest_randbytes(&seed, k, 32);
        vgtest_randbytes(&seed, u, 32); /* bit 255 random: set in half the cases */
        /* Every 16th case: u in [p, 2^255), the non-canonical range. */
        if ((i & 15) == 5) {
            memset(u + 1, 0xff, 30);
            u[31] = (uint8_t)(u[31] | 0x7f);
            u[0] = (uint8_t)(0xed + (u[0] % 0x13));
        }
        compare(k, u, "random");
    }
    printf("  random: %ld pairs vs portable and libsodium, %lu failures\n", n,
           vgtest_failed - before);
}

int main(int argc, char **argv)
{
    long n = 100000;
    if (argc > 1)
        n = atol(argv[1]);
    g_ifma = vg_x25519_ifma_get();
    if (!g_ifma) {
        printf("test_x25519_ifma: skipped (no AVX-512 IFMA in this build or on this CPU)\n");
        return 0;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "sodium_init failed\n");
        return 2;
    }
    g_ref = vg_x25519_portable_get();
    CHECK(strcmp(g_ifma->name, "ifma") == 0);
    /* Pass 1: the active features (the final inversion on the BMI2+ADX field
     * when the CPU has it). Pass 2: ADX masked out, so the inversion runs
     * on the portable field. */
    uint32_t full = vg_cpu_active();
    for (int pass = 0; pass < 2; pass++) {
        vg_cpu_force(pass == 0 ? full : full & ~VG_CPU_ADX);
        g_ifma = vg_x25519_ifma_get();
        CHECK(g_ifma != NULL);
        if (!g_ifma)
            break;
        printf("  pass %d: ADX %s\n", pass + 1, vg_cpu_has(VG_CPU_ADX) ? "on" : "off");
        test_rfc();
        test_wycheproof();
        test_edges();
        test_random(pass == 0 ? n : n / 10);
    }
    vg_cpu_force(full);
    return vgtest_done("test_x25519_ifma");
}
