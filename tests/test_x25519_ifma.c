/*
 * What only the AVX-512 IFMA X25519 ladder (src/curve25519/x25519_ifma.c)
 * needs beyond test_x25519, which runs it with every other variant over
 * RFC 7748 section 5.2, Wycheproof and 10^5 random inputs against libsodium
 * and OpenSSL:
 *  - edge inputs: u = 0, 1, p - 1, p, p + 1, 2^255 - 1, values at the
 *    radix-2^51 limb boundaries, each with bit 255 set or cleared, the points
 *    of order 1, 2, 4 and 8 (RFC 7748 section 6.1: the result must be all
 *    zero, since every clamped k is a multiple of 8), k all 0xff and 0x00;
 *  - 10^4 random (k, u) against the portable ladder and libsodium;
 *  - both again with ADX masked out, which moves the final inversion from
 *    the BMI2+ADX field to the portable one.
 * Skips (exit 0, says so) when the CPU or the build lacks IFMA.
 */
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
    long n = 10000;
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
        test_edges();
        test_random(n);
    }
    vg_cpu_force(full);
    return vgtest_done("test_x25519_ifma");
}
