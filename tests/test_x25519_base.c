/*
 * Fixed-base scalar multiplication on edwards25519 (src/curve25519/
 * ge25519_base*.c), every variant (portable; adx when the CPU has BMI2+ADX;
 * ifma when it has AVX-512F/VL/IFMA, run twice: with its final inversion on
 * the ADX field and, with ADX masked out, on the portable field):
 *  - public_key (X25519(k, 9), RFC 7748 section 5) against libsodium's
 *    crypto_scalarmult_base and OpenSSL's X25519 public key derivation on
 *    random secrets, and on edge scalars (zero, all ones, single bits,
 *    values around multiples of the group order L);
 *  - ed25519_base ([a]B encoded per RFC 8032 section 5.1.2) against
 *    libsodium's crypto_scalarmult_ed25519_base_noclamp for random a < L
 *    and a in [L, 2^255), and the identity for a = 0 and a = L;
 *  - key generation of RFC 8032 section 5.1.5 (SHA-512 of the seed, clamp,
 *    [s]B) on the RFC 8032 section 7.1 vectors and the 1024 seeds of
 *    ed25519-sign-input/sign.input;
 *  - the table: every entry (j + 1) 16^(2i) B re-derived from libsodium's
 *    [n]B encodings (x, y decoded with GMP), including 2 d x y, in all
 *    three forms (fe51, fe64, IFMA lanes);
 *  - every variant equal to portable; the signed radix-16 recoding; the
 *    dispatch.
 */
#include <gmp.h>
#include <openssl/evp.h>
#include <sodium.h>

#include "common.h"
#include "curve25519/ge25519.h"
#include "vgtest.h"
#define VG_GE25519_TABLE_FE51 1
#if defined(VG_X86_64)
#define VG_GE25519_TABLE_FE64 1
#define VG_GE25519_TABLE_IFMA 1
#endif
#include "curve25519/ge25519_base_table.h"

#define MAXIMPL 4
static const struct vg_x25519_base_impl *g_impl[MAXIMPL];
static int g_nimpl;
/* The CPU mask each variant runs under: the ifma variant's inversion
 * follows the mask (ADX field or portable field). */
static uint32_t g_mask[MAXIMPL];

#define NRANDOM 10000

/* The group order L = 2^252 + 27742317777372353535851937790883648493,
 * little-endian (RFC 8032 section 5.1). */
static const uint8_t g_order[32] = {
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
};

static void unhex32(uint8_t out[32], const char *hex)
{
    if (vgtest_unhex(out, 32, hex) != 32) {
        fprintf(stderr, "bad hex constant %s\n", hex);
        exit(2);
    }
}

static void show(const char *what, const uint8_t *b)
{
    char h[65];
    vgtest_hex(h, b, 32);
    fprintf(stderr, "    %s %s\n", what, h);
}

/* OpenSSL's X25519 public key for the raw private key k; 1 on success. */
static int openssl_public(uint8_t out[32], const uint8_t k[32])
{
    EVP_PKEY *sk = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k, 32);
    size_t len = 32;
    int ok = sk && EVP_PKEY_get_raw_public_key(sk, out, &len) > 0 && len == 32;
    EVP_PKEY_free(sk);
    return ok;
}

/* Little-endian 32-byte add: r = a + b mod 2^256. */
static void add256(uint8_t r[32], const uint8_t a[32], const uint8_t b[32])
{
    unsigned c = 0;
    for (int i = 0; i < 32; i++) {
        c += (unsigned)a[i] + b[i];
        r[i] = (uint8_t)c;
        c >>= 8;
    }
}

/* r = a + d for a small signed d (mod 2^256). */
static void add_small(uint8_t r[32], const uint8_t a[32], int d)
{
    uint8_t t[32];
    memset(t, d < 0 ? 0xff : 0, 32);
    t[0] = (uint8_t)d;
    t[1] = (uint8_t)(d < 0 ? 0xff : 0);
    add256(r, a, t);
}

/* ---- X25519 public keys ------------------------------------------------------------- */

static void check_public(const struct vg_x25519_base_impl *im, const uint8_t k[32], const char *what)
{
    uint8_t ours[32], sod[32], ossl[32], alias[32];
    im->public_key(ours, k);
    int sod_ok = crypto_scalarmult_base(sod, k) == 0;
    int ossl_ok = openssl_public(ossl, k);
    CHECK_MSG(sod_ok && memcmp(ours, sod, 32) == 0, "%s public_key = libsodium (%s)", im->name, what);
    CHECK_MSG(ossl_ok && memcmp(ours, ossl, 32) == 0, "%s public_key = OpenSSL (%s)", im->name, what);
    memcpy(alias, k, 32);
    im->public_key(alias, alias);
    CHECK_MSG(memcmp(ours, alias, 32) == 0, "%s public_key in place (%s)", im->name, what);
    if (memcmp(ours, sod, 32) != 0) {
        show("k     ", k);
        show("ours  ", ours);
        show("sodium", sod);
    }
}

static void test_public_random(const struct vg_x25519_base_impl *im)
{
    uint64_t seed = 0x243f6a8885a308d3u;
    uint8_t k[32];
    unsigned long before = vgtest_failed;
    for (int n = 0; n < NRANDOM; n++) {
        vgtest_randbytes(&seed, k, 32);
        check_public(im, k, "random");
        if (vgtest_failed - before > 10)
            break;
    }
    printf("  %-8s public_key: %d random secrets vs libsodium and OpenSSL\n", im->name, NRANDOM);
}

static void test_public_edges(const struct vg_x25519_base_impl *im)
{
    uint8_t k[32], m[32];
    int n = 0;
    memset(k, 0, 32);
    check_public(im, k, "all zero"), n++;
    memset(k, 0xff, 32);
    check_public(im, k, "all 0xff"), n++;
    for (int b = 0; b < 256; b++) {
        memset(k, 0, 32);
        k[b >> 3] = (uint8_t)(1u << (b & 7));
        check_public(im, k, "single bit"), n++;
        memset(k, 0xff, 32);
        k[b >> 3] = (uint8_t)~(1u << (b & 7));
        check_public(im, k, "single zero bit"), n++;
    }
    /* Around j L for j = 1..16 (clamping clears the low 3 bits and bit 255,
     * sets bit 254: the clamped values land on j' L + small for several j'). */
    memset(m, 0, 32);
    for (int j = 1; j <= 16; j++) {
        add256(m, m, g_order);
        for (int d = -9; d <= 9; d++) {
            add_small(k, m, d);
            check_public(im, k, "near j L"), n++;
        }
    }
    /* A clamped scalar equal to 8 (2^251 + c) with the lowest digits all 8
     * or all -8 after recoding: bytes 0x88 and 0x77 patterns. */
    memset(k, 0x88, 32);
    check_public(im, k, "0x88"), n++;
    memset(k, 0x77, 32);
    check_public(im, k, "0x77"), n++;
    memset(k, 0xf8, 32);
    check_public(im, k, "0xf8"), n++;
    printf("  %-8s public_key: %d edge scalars\n", im->name, n);
}

/* ---- Ed25519 [a]B -------------------------------------------------------------------- */

/* a mod 2^255 < L check is not needed: libsodium clears bit 255 too and
 * accepts any a < 2^255; it fails (-1) for a = 0 and when [a]B is the identity. */
static void check_ed(const struct vg_x25519_base_impl *im, const uint8_t a[32], const char *what)
{
    uint8_t ours[32], sod[32], alias[32];
    im->ed25519_base(ours, a);
    int rc = crypto_scalarmult_ed25519_base_noclamp(sod, a);
    CHECK_MSG(rc == 0 && memcmp(ours, sod, 32) == 0, "%s ed25519_base = libsodium (%s)", im->name, what);
    memcpy(alias, a, 32);
    im->ed25519_base(alias, alias);
    CHECK_MSG(memcmp(ours, alias, 32) == 0, "%s ed25519_base in place (%s)", im->name, what);
    if (rc != 0 || memcmp(ours, sod, 32) != 0) {
        show("a     ", a);
        show("ours  ", ours);
        show("sodium", sod);
    }
}

static void test_ed_random(const struct vg_x25519_base_impl *im)
{
    uint64_t seed = 0x13198a2e03707344u;
    uint8_t a[32], wide[64];
    unsigned long before = vgtest_failed;
    int n = 0;
    for (int i = 0; i < NRANDOM; i++) {
        /* a < L: reduce 512 random bits mod L with libsodium */
        vgtest_randbytes(&seed, wide, 64);
        crypto_core_ed25519_scalar_reduce(a, wide);
        check_ed(im, a, "random a < L"), n++;
        if (vgtest_failed - before > 10)
            break;
    }
    for (int i = 0; i < 1000; i++) {
        /* L <= a < 2^255: random 255-bit values are almost all >= L */
        vgtest_randbytes(&seed, a, 32);
        a[31] &= 127;
        a[31] |= 16;
        check_ed(im, a, "random L <= a < 2^255"), n++;
    }
    memset(a, 0xff, 32);
    a[31] = 0x7f;
    check_ed(im, a, "2^255 - 1"), n++;
    for (int b = 0; b < 255; b++) {
        memset(a, 0, 32);
        a[b >> 3] = (uint8_t)(1u << (b & 7));
        check_ed(im, a, "single bit"), n++;
    }
    add_small(a, g_order, -1);
    check_ed(im, a, "L - 1"), n++;
    add_small(a, g_order, 1);
    check_ed(im, a, "L + 1"), n++;
    memset(a, 0x88, 32);
    a[31] = 0x08;
    check_ed(im, a, "0x88.."), n++;
    /* [0]B and [L]B are the identity (0, 1): encoding 01 00 .. 00. */
    uint8_t ident[32] = {1}, out[32], zero[32] = {0};
    im->ed25519_base(out, zero);
    CHECK_MSG(memcmp(out, ident, 32) == 0, "%s [0]B = identity", im->name);
    im->ed25519_base(out, g_order);
    CHECK_MSG(memcmp(out, ident, 32) == 0, "%s [L]B = identity", im->name);
    printf("  %-8s ed25519_base: %d scalars vs libsodium, [0]B and [L]B\n", im->name, n);
}

/* RFC 8032 section 5.1.5: h = SHA-512(seed), s = clamp(h[0..31]), A = [s]B. */
static void ed_public_from_seed(const struct vg_x25519_base_impl *im, uint8_t pk[32], const uint8_t seed[32])
{
    uint8_t h[64];
    vg_sha512(h, seed, 32);
    h[0] &= 248;
    h[31] &= 127;
    h[31] |= 64;
    im->ed25519_base(pk, h);
}

static void test_rfc8032(const struct vg_x25519_base_impl *im)
{
    /* RFC 8032 section 7.1: TEST 1, 2, 3, 1024, SHA(abc): SECRET KEY, PUBLIC KEY */
    static const char *const vec[][2] = {
        {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"},
        {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c"},
        {"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
         "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025"},
        {"f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
         "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e"},
        {"833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
         "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf"},
    };
    uint8_t seed[32], want[32], pk[32];
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++) {
        unhex32(seed, vec[i][0]);
        unhex32(want, vec[i][1]);
        ed_public_from_seed(im, pk, seed);
        CHECK_MSG(memcmp(pk, want, 32) == 0, "%s RFC 8032 7.1 vector %zu", im->name, i);
    }
    /* sign.input: seed||pk : pk : msg : sig||msg, one line per key */
    FILE *f = fopen(VG_VECTORS_DIR "/ed25519-sign-input/sign.input", "r");
    CHECK_MSG(f != NULL, "open sign.input");
    if (!f)
        return;
    static char line[8192];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char hex[65];
        if (strlen(line) < 129)
            continue;
        memcpy(hex, line, 64);
        hex[64] = 0;
        unhex32(seed, hex);
        memcpy(hex, line + 64, 64);
        unhex32(want, hex);
        ed_public_from_seed(im, pk, seed);
        CHECK_MSG(memcmp(pk, want, 32) == 0, "%s sign.input line %d", im->name, n + 1);
        n++;
    }
    fclose(f);
    CHECK(n == 1024);
    printf("  %-8s RFC 8032 7.1 public keys (5) and sign.input public keys (%d)\n", im->name, n);
}

/* ---- the table ---------------------------------------------------------------------------- */

static mpz_t g_p, g_d;

static void mpz_from_le(mpz_t r, const uint8_t b[32])
{
    mpz_import(r, 32, -1, 1, 0, 0, b);
}

/* The affine (x, y) encoded in enc (RFC 8032 section 5.1.3, x recovered
 * with a square root); the encodings come from libsodium. */
static void decode_point(mpz_t x, mpz_t y, const uint8_t enc[32])
{
    uint8_t b[32];
    mpz_t u, v, e, t;
    mpz_inits(u, v, e, t, NULL);
    memcpy(b, enc, 32);
    int sign = b[31] >> 7;
    b[31] &= 127;
    mpz_from_le(y, b);
    mpz_mul(t, y, y);
    mpz_sub_ui(u, t, 1);
    mpz_mul(v, t, g_d);
    mpz_add_ui(v, v, 1);
    mpz_invert(v, v, g_p);
    mpz_mul(u, u, v);
    mpz_mod(u, u, g_p);
    mpz_add_ui(e, g_p, 3);
    mpz_fdiv_q_2exp(e, e, 3);
    mpz_powm(x, u, e, g_p);
    mpz_powm_ui(t, x, 2, g_p);
    if (mpz_cmp(t, u) != 0) {
        mpz_sub_ui(e, g_p, 1);
        mpz_fdiv_q_2exp(e, e, 2);
        mpz_set_ui(t, 2);
        mpz_powm(t, t, e, g_p);
        mpz_mul(x, x, t);
        mpz_mod(x, x, g_p);
    }
    if ((int)mpz_odd_p(x) != sign)
        mpz_sub(x, g_p, x);
    mpz_mod(x, x, g_p);
    mpz_clears(u, v, e, t, NULL);
}

/* value of a limb vector; also checks each limb is below 2^bits */
static int limbs_value(mpz_t r, const uint64_t *w, int n, int bits)
{
    int ok = 1;
    mpz_set_ui(r, 0);
    for (int k = n - 1; k >= 0; k--) {
        if (bits < 64 && (w[k] >> bits) != 0)
            ok = 0;
        mpz_mul_2exp(r, r, (mp_bitcnt_t)bits);
        mpz_add_ui(r, r, w[k]);
    }
    return ok && mpz_cmp(r, g_p) < 0;
}

static int check_coord(const uint64_t *w, int n, int bits, const mpz_t want)
{
    mpz_t v;
    mpz_init(v);
    int ok = limbs_value(v, w, n, bits) && mpz_cmp(v, want) == 0;
    mpz_clear(v);
    return ok;
}

static void test_table(void)
{
    mpz_t x, y, ypx, ymx, t2d;
    mpz_inits(x, y, ypx, ymx, t2d, NULL);
    mpz_init_set_ui(g_p, 1);
    mpz_mul_2exp(g_p, g_p, 255);
    mpz_sub_ui(g_p, g_p, 19);
    mpz_init_set_ui(g_d, 121666);
    mpz_invert(g_d, g_d, g_p);
    mpz_mul_si(g_d, g_d, -121665);
    mpz_mod(g_d, g_d, g_p);
    int n = 0;
    for (int i = 0; i < 32; i++) {
        for (int j = 0; j < 8; j++) {
            /* n = (j + 1) 16^(2 i) = (j + 1) 2^(8 i): byte i holds j + 1 */
            uint8_t s[32] = {0}, enc[32];
            s[i] = (uint8_t)(j + 1);
            CHECK(crypto_scalarmult_ed25519_base_noclamp(enc, s) == 0);
            decode_point(x, y, enc);
            mpz_add(ypx, y, x);
            mpz_mod(ypx, ypx, g_p);
            mpz_sub(ymx, y, x);
            mpz_mod(ymx, ymx, g_p);
            mpz_mul(t2d, x, y);
            mpz_mul(t2d, t2d, g_d);
            mpz_mul_ui(t2d, t2d, 2);
            mpz_mod(t2d, t2d, g_p);
            const vg_ge51_niels *e51 = &vg_ge25519_base_table51[i][j];
            CHECK_MSG(check_coord(e51->ypx.v, 5, 51, ypx) && check_coord(e51->ymx.v, 5, 51, ymx) &&
                          check_coord(e51->t2d.v, 5, 51, t2d),
                      "table51[%d][%d] = (j+1) 16^(2i) B", i, j);
#if defined(VG_X86_64)
            const vg_ge64_niels *e64 = &vg_ge25519_base_table64[i][j];
            CHECK_MSG(check_coord(e64->ypx, 4, 64, ypx) && check_coord(e64->ymx, 4, 64, ymx) &&
                          check_coord(e64->t2d, 4, 64, t2d),
                      "table64[%d][%d] = (j+1) 16^(2i) B", i, j);
            {
                /* lane form: limb k = (y - x, y + x, 2 d x y, 0) */
                uint64_t c[4][5];
                for (int l = 0; l < 4; l++)
                    for (int k = 0; k < 5; k++)
                        c[l][k] = vg_ge25519_base_table_ifma[i][j][k][l];
                mpz_t zero;
                mpz_init_set_ui(zero, 0);
                CHECK_MSG(check_coord(c[0], 5, 51, ymx) && check_coord(c[1], 5, 51, ypx) &&
                              check_coord(c[2], 5, 51, t2d) && check_coord(c[3], 5, 51, zero),
                          "table_ifma[%d][%d] = (j+1) 16^(2i) B", i, j);
                mpz_clear(zero);
            }
#endif
            n++;
        }
    }
    printf("  table: %d entries re-derived from libsodium's [n]B (every form)\n", n);
    mpz_clears(x, y, ypx, ymx, t2d, g_p, g_d, NULL);
}

/* ---- recoding, cross-variant, dispatch --------------------------------------------------- */

static void test_recode(void)
{
    uint64_t seed = 0xa4093822299f31d0u;
    uint8_t a[32], back[32];
    int8_t e[64];
    int ok = 1;
    for (int n = 0; n < 2000; n++) {
        vgtest_randbytes(&seed, a, 32);
        if (n == 0)
            memset(a, 0xff, 32);
        if (n == 1)
            memset(a, 0x88, 32);
        a[31] &= 127;
        vg_ge25519_recode16(e, a);
        /* sum e[i] 16^i with GMP */
        mpz_t v, w;
        mpz_inits(v, w, NULL);
        for (int i = 63; i >= 0; i--) {
            mpz_mul_2exp(v, v, 4);
            if (e[i] >= 0)
                mpz_add_ui(v, v, (unsigned long)e[i]);
            else
                mpz_sub_ui(v, v, (unsigned long)-e[i]);
            if (e[i] < -8 || e[i] > (i == 63 ? 8 : 7))
                ok = 0;
        }
        mpz_import(w, 32, -1, 1, 0, 0, a);
        if (mpz_cmp(v, w) != 0)
            ok = 0;
        memset(back, 0, 32);
        mpz_clears(v, w, NULL);
    }
    CHECK_MSG(ok, "recode16: digits in range and sum e_i 16^i = a");
}

/* Every variant against g_impl[0] (portable) on the same random scalars. */
static void test_cross(void)
{
    for (int v = 1; v < g_nimpl; v++) {
        uint64_t seed = 0x082efa98ec4e6c89u;
        uint8_t k[32], o0[32], o1[32];
        int same = 1;
        vg_cpu_force(g_mask[v]);
        for (int n = 0; n < NRANDOM; n++) {
            vgtest_randbytes(&seed, k, 32);
            g_impl[0]->public_key(o0, k);
            g_impl[v]->public_key(o1, k);
            same &= memcmp(o0, o1, 32) == 0;
            k[31] &= 127;
            g_impl[0]->ed25519_base(o0, k);
            g_impl[v]->ed25519_base(o1, k);
            same &= memcmp(o0, o1, 32) == 0;
        }
        vg_cpu_force(vg_cpu_detected());
        CHECK_MSG(same, "%s equals %s (mask %#x)", g_impl[v]->name, g_impl[0]->name, (unsigned)g_mask[v]);
        printf("  %s = %s on %d random scalars (both functions, mask %#x)\n", g_impl[v]->name,
               g_impl[0]->name, NRANDOM, (unsigned)g_mask[v]);
    }
}

static void test_dispatch(void)
{
    uint32_t saved = vg_cpu_active();
#if defined(VG_X86_64)
    const uint32_t ifma_need = VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA;
    int adx = vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX);
    int ifma = vg_cpu_has(ifma_need);
    CHECK(strcmp(vg_x25519_base_active()->name, ifma ? "ifma" : adx ? "adx" : "portable") == 0);
    CHECK((vg_x25519_base_adx_get() != NULL) == adx);
    CHECK((vg_x25519_base_ifma_get() != NULL) == ifma);
    if (ifma) {
        vg_cpu_force(saved & ~ifma_need);
        CHECK(vg_x25519_base_ifma_get() == NULL);
        CHECK(strcmp(vg_x25519_base_active()->name, adx ? "adx" : "portable") == 0);
        vg_cpu_force(saved & ~VG_CPU_AVX512IFMA);
        CHECK(vg_x25519_base_ifma_get() == NULL);
    }
#else
    CHECK(vg_x25519_base_adx_get() == NULL);
    CHECK(vg_x25519_base_ifma_get() == NULL);
    CHECK(strcmp(vg_x25519_base_active()->name, "portable") == 0);
#endif
    vg_cpu_force(0);
    CHECK(vg_x25519_base_adx_get() == NULL);
    CHECK(vg_x25519_base_ifma_get() == NULL);
    CHECK(strcmp(vg_x25519_base_active()->name, "portable") == 0);
    vg_cpu_force(saved);
    printf("  dispatch: \"%s\"\n", vg_x25519_base_active()->name);
}

int main(void)
{
    if (sodium_init() < 0) {
        fprintf(stderr, "sodium_init failed\n");
        return 2;
    }
    uint32_t all = vg_cpu_detected();
    g_mask[g_nimpl] = all;
    g_impl[g_nimpl++] = vg_x25519_base_portable_get();
    if (vg_x25519_base_adx_get()) {
        g_mask[g_nimpl] = all;
        g_impl[g_nimpl++] = vg_x25519_base_adx_get();
    }
    if (vg_x25519_base_ifma_get()) {
        g_mask[g_nimpl] = all;
        g_impl[g_nimpl++] = vg_x25519_base_ifma_get();
    }
    printf("  variants:");
    for (int i = 0; i < g_nimpl; i++)
        printf(" %s", g_impl[i]->name);
    printf("\n");
    test_recode();
    test_table();
    for (int i = 0; i < g_nimpl; i++) {
        vg_cpu_force(g_mask[i]);
        test_public_edges(g_impl[i]);
        test_public_random(g_impl[i]);
        test_ed_random(g_impl[i]);
        test_rfc8032(g_impl[i]);
        vg_cpu_force(all);
    }
    /* The ifma variant once more with ADX masked out: its final inversion
     * then runs on the portable field. */
    if (vg_x25519_base_ifma_get() && (all & VG_CPU_ADX)) {
        vg_cpu_force(all & ~(VG_CPU_ADX | VG_CPU_BMI2));
        const struct vg_x25519_base_impl *im = vg_x25519_base_ifma_get();
        CHECK(im != NULL);
        if (im) {
            printf("  ifma with BMI2/ADX masked out:\n");
            test_public_edges(im);
            test_public_random(im);
            test_ed_random(im);
            test_rfc8032(im);
            g_mask[g_nimpl] = all & ~(VG_CPU_ADX | VG_CPU_BMI2);
            g_impl[g_nimpl++] = im;
        }
        vg_cpu_force(all);
    }
    test_cross();
    test_dispatch();
    return vgtest_done("test_x25519_base");
}
