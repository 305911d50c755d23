/*
 * ChaCha20, Poly1305, ChaCha20-Poly1305 and XChaCha20-Poly1305 (src/aead).
 *
 * Every implementation the build and the CPU have (vg_chacha20_*_get,
 * vg_poly1305_*_get: portable, AVX2 rows, AVX2, AVX-512; r44, r26, MULX,
 * AVX2, AVX-512 IFMA) runs over:
 *  - RFC 8439 sections 2.3.2, 2.4.2, 2.5.2, 2.6.2, 2.8.2 and appendix
 *    A.1-A.5, typed in from the RFC text;
 *  - draft-irtf-cfrg-xchacha-03 2.2.1 (HChaCha20), A.3.1 (AEAD) and A.3.2
 *    (XChaCha20 stream, through HChaCha20 + ChaCha20);
 *  - every case of Wycheproof chacha20_poly1305_test.json and
 *    xchacha20_poly1305_test.json, valid and invalid;
 *  - OpenSSL (EVP chacha20-poly1305, EVP chacha20) and libsodium (the _ietf
 *    AEADs, crypto_stream_chacha20_ietf_xor_ic, crypto_onetimeauth) as
 *    independent implementations, on every length 0..4096 and random
 *    lengths up to 1 MiB, AD lengths 0..300, in place and out of place,
 *    unaligned and with guard bytes around the output;
 *  - every ChaCha20 variant against the portable one on every length
 *    0..4096 and to 1 MiB, counter starts up to 2^32 - 1, unaligned,
 *    in place, guard bytes; every Poly1305 variant against libsodium in
 *    one piece (the vector loops) and in pieces;
 *  - a GMP model of Poly1305 (RFC 8439 2.5.1 pseudocode) on edge inputs
 *    (final accumulator at and around 2^130 - 5 and 2^128, also after 16
 *    to 40 blocks through the 8-lane loop, all-0xff blocks and keys,
 *    s-addition carries), limb states at each layout's invariant bounds,
 *    and random inputs, for every Poly1305 variant;
 *  - wrong tags (pt zeroed), the NULL and length rules, the 32-bit counter.
 */
#define _DEFAULT_SOURCE /* mmap, mprotect, sysconf */
#include <gmp.h>
#include <openssl/evp.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sodium.h>

#include "aead/aead.h"
#include "common.h"
#include "vgtest.h"
#include "vgjson.h"

/* ---- implementations under test ------------------------------------------ */

static const struct vg_chacha20_impl *g_chacha[8];
static int g_nchacha;
static const struct vg_poly1305_impl *g_poly[8];
static int g_npoly;

static void collect_impls(void)
{
    const struct vg_chacha20_impl *c[] = {vg_chacha20_portable_get(), vg_chacha20_avx2_rows_get(),
                                          vg_chacha20_avx2_get(), vg_chacha20_avx512_get()};
    const struct vg_poly1305_impl *p[] = {vg_poly1305_r64_get(), vg_poly1305_r44_get(), vg_poly1305_r26_get(),
                                          vg_poly1305_mulx_get(), vg_poly1305_avx2_get(),
                                          vg_poly1305_ifma_get()};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (c[i])
            g_chacha[g_nchacha++] = c[i];
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        if (p[i])
            g_poly[g_npoly++] = p[i];
    CHECK(g_nchacha >= 1);
    CHECK(vg_poly1305_r26_get() != NULL);
#if defined(__SIZEOF_INT128__)
    CHECK(vg_poly1305_r44_get() != NULL); /* every portable path on this compiler */
    CHECK(vg_poly1305_r64_get() != NULL);
#endif
    /* Each x86-64 variant is present exactly when the build has it and the
     * active features (VG_CPU_FEATURES included) allow it: none is skipped
     * silently. */
#if defined(VG_X86_64)
    CHECK((vg_chacha20_avx2_rows_get() != NULL) == vg_cpu_has(VG_CPU_AVX2));
    CHECK((vg_chacha20_avx2_get() != NULL) == vg_cpu_has(VG_CPU_AVX2));
    CHECK((vg_chacha20_avx512_get() != NULL) == vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL));
    CHECK((vg_poly1305_mulx_get() != NULL) == vg_cpu_has(VG_CPU_BMI2));
    CHECK((vg_poly1305_avx2_get() != NULL) == vg_cpu_has(VG_CPU_AVX2 | VG_CPU_BMI2));
    CHECK((vg_poly1305_ifma_get() != NULL) ==
          vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA | VG_CPU_BMI2));
#else
    CHECK(vg_chacha20_avx2_get() == NULL && vg_chacha20_avx512_get() == NULL &&
          vg_chacha20_avx2_rows_get() == NULL && vg_poly1305_mulx_get() == NULL &&
          vg_poly1305_ifma_get() == NULL && vg_poly1305_avx2_get() == NULL);
#endif
    /* The dispatch picks one of the implementations listed. */
    int found = 0;
    for (int i = 0; i < g_npoly; i++)
        found |= vg_poly1305_active() == g_poly[i];
    CHECK(found);
    found = 0;
    for (int i = 0; i < g_nchacha; i++)
        found |= vg_chacha20_active() == g_chacha[i];
    CHECK(found);
    /* The dispatch order (chacha20.c, poly1305.c): the first present. */
    const struct vg_chacha20_impl *cw = vg_chacha20_avx512_get();
    if (!cw)
        cw = vg_chacha20_avx2_get();
    CHECK(vg_chacha20_active() == (cw ? cw : vg_chacha20_portable_get()));
    const struct vg_poly1305_impl *pw = vg_poly1305_ifma_get();
    if (!pw)
        pw = vg_poly1305_avx2_get();
    if (!pw)
        pw = vg_poly1305_mulx_get();
    if (!pw)
        pw = vg_poly1305_r64_get();
    if (!pw)
        pw = vg_poly1305_r44_get();
    CHECK(vg_poly1305_active() == (pw ? pw : vg_poly1305_r26_get()));
    printf("chacha20:");
    for (int i = 0; i < g_nchacha; i++)
        printf(" %s", g_chacha[i]->name);
    printf("; poly1305:");
    for (int i = 0; i < g_npoly; i++)
        printf(" %s", g_poly[i]->name);
    printf("; active %s / %s\n", vg_chacha20_active()->name, vg_poly1305_active()->name);
}

/* ---- small helpers --------------------------------------------------------- */

/* Hex into out (at most cap bytes); a malformed vector is a bug in this file,
 * so it stops the program. */
static size_t unhex(uint8_t *out, size_t cap, const char *hex)
{
    long n = vgtest_unhex(out, cap, hex);
    if (n < 0) {
        fprintf(stderr, "bad hex vector: %.40s...\n", hex);
        exit(2);
    }
    return (size_t)n;
}

static int is_zero(const uint8_t *p, size_t n)
{
    uint8_t a = 0;
    for (size_t i = 0; i < n; i++)
        a |= p[i];
    return a == 0;
}

/* Poly1305 over an implementation, the message fed in pieces of `step`
 * bytes (0: one piece). */
static void poly_impl(const struct vg_poly1305_impl *impl, uint8_t tag[16], const uint8_t *m,
                      size_t len, const uint8_t key[32], size_t step)
{
    vg_poly1305_ctx ctx;
    vg_poly1305_init(&ctx, impl, key);
    if (step == 0)
        step = len ? len : 1;
    for (size_t off = 0; off < len; off += step)
        vg_poly1305_update(&ctx, m + off, len - off < step ? len - off : step);
    vg_poly1305_final(&ctx, tag);
}

/* ChaCha20 over an implementation. */
static void chacha_impl(const struct vg_chacha20_impl *impl, uint8_t *out, const uint8_t *in,
                        size_t len, const uint8_t nonce[12], uint32_t counter,
                        const uint8_t key[32])
{
    uint32_t k[8], n[3];
    vg_chacha20_load_key(k, key);
    vg_chacha20_load_nonce(n, nonce);
    vg_chacha20_xor(impl, out, in, len, k, n, counter);
}

/* ---- RFC 8439 -------------------------------------------------------------- */

static const char *SUNSCREEN = "Ladies and Gentlemen of the class of '99: If I could offer you "
                               "only one tip for the future, sunscreen would be it.";

/* A.2 #2, A.3 #2/#3 (375 bytes). */
static const char *IETF_TEXT =
    "Any submission to the IETF intended by the Contributor for publication as all or part of "
    "an IETF Internet-Draft or RFC and any statement made within the context of an IETF "
    "activity is considered an \"IETF Contribution\". Such statements include oral statements "
    "in IETF sessions, as well as written and electronic communications made at any time or "
    "place, which are addressed to";

/* A.2 #3, A.3 #4 (127 bytes). */
static const char *JABBERWOCKY = "'Twas brillig, and the slithy toves\nDid gyre and gimble in the "
                                 "wabe:\nAll mimsy were the borogoves,\nAnd the mome raths "
                                 "outgrabe.";

/* A.5 (265 bytes; the RFC's curly quotes are UTF-8). */
static const char *DRAFTS_TEXT =
    "Internet-Drafts are draft documents valid for a maximum of six months and may be updated, "
    "replaced, or obsoleted by other documents at any time. It is inappropriate to use "
    "Internet-Drafts as reference material or to cite them other than as "
    "/\xe2\x80\x9cwork in progress./\xe2\x80\x9d";

#define KEY_00_1F "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define KEY_80_9F "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
#define KEY_ZERO "0000000000000000000000000000000000000000000000000000000000000000"
#define KEY_ONE "0000000000000000000000000000000000000000000000000000000000000001"
#define KEY_1C92 "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0"

/* One ChaCha20 case: keystream or ciphertext from (key, nonce, counter, pt). */
struct chacha_vec {
    const char *what, *key, *nonce;
    uint32_t counter;
    const char *pt; /* text, or NULL for `ptlen` zero bytes */
    size_t ptlen;
    const char *ct; /* hex */
};

static const struct chacha_vec g_chacha_vecs[] = {
    /* 2.3.2: the block function (keystream = encryption of zeros). */
    {"2.3.2", KEY_00_1F, "000000090000004a00000000", 1, NULL, 64,
     "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
     "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"},
    /* 2.4.2 */
    {"2.4.2", KEY_00_1F, "000000000000004a00000000", 1, "sunscreen", 114,
     "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
     "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
     "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
     "5af90bbf74a35be6b40b8eedf2785e42874d"},
    /* 2.6.2: the Poly1305 key is the first 32 bytes of block 0. */
    {"2.6.2", KEY_80_9F, "000000000001020304050607", 0, NULL, 32,
     "8ad5a08b905f81cc815040274ab29471a833b637e3fd0da508dbb8e2fdd1a646"},
    /* 2.8.2's one-time key (sender id 7). */
    {"2.8.2 otk", KEY_80_9F, "070000004041424344454647", 0, NULL, 32,
     "7bac2b252db447af09b67a55a4e955840ae1d6731075d9eb2a9375783ed553ff"},
    /* A.1 #1-#5: the block function. */
    {"A.1 #1", KEY_ZERO, "000000000000000000000000", 0, NULL, 64,
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
     "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"},
    {"A.1 #2", KEY_ZERO, "000000000000000000000000", 1, NULL, 64,
     "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
     "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f"},
    {"A.1 #3", KEY_ONE, "000000000000000000000000", 1, NULL, 64,
     "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a"
     "8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0"},
    {"A.1 #4", "00ff000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 2, NULL, 64,
     "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca"
     "13b25aa26cb4a648cb9b9d1be65b2c0924a66c54d545ec1b7374f4872e99f096"},
    {"A.1 #5", KEY_ZERO, "000000000000000000000002", 0, NULL, 64,
     "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c7"
     "8a970e0e955c14f3a88e741b97c286f75f8fc299e8148362fa198a39531bed6d"},
    /* A.2 #1-#3: encryption. */
    {"A.2 #1", KEY_ZERO, "000000000000000000000000", 0, NULL, 64,
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
     "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"},
    {"A.2 #2", KEY_ONE, "000000000000000000000002", 1, "ietf", 375,
     "a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec"
     "2a97948bd3722915c8f3d337f7d370050e9e96d647b7c39f56e031ca5eb6250d"
     "4042e02785ececfa4b4bb5e8ead0440e20b6e8db09d881a7c6132f420e527950"
     "42bdfa7773d8a9051447b3291ce1411c680465552aa6c405b7764d5e87bea85a"
     "d00f8449ed8f72d0d662ab052691ca66424bc86d2df80ea41f43abf937d3259d"
     "c4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b"
     "0871cdac638939e25e8a1e0ef9d5280fa8ca328b351c3c765989cbcf3daa8b6c"
     "cc3aaf9f3979c92b3720fc88dc95ed84a1be059c6499b9fda236e7e818b04b0b"
     "c39c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80ef2554d7189c411f"
     "5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5bce0911934fda79a86f6e6"
     "98ced759c3ff9b6477338f3da4f9cd8514ea9982ccafb341b2384dd902f3d1ab"
     "7ac61dd29c6f21ba5b862f3730e37cfdc4fd806c22f221"},
    {"A.2 #3", KEY_1C92, "000000000000000000000002", 42, "jabberwocky", 127,
     "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf"
     "166d3df2d721caf9b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553eb"
     "f39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f77"
     "04c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1"},
    /* A.4 #1-#3: Poly1305 key generation (block 0, first 32 bytes). */
    {"A.4 #1", KEY_ZERO, "000000000000000000000000", 0, NULL, 32,
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"},
    {"A.4 #2", KEY_ONE, "000000000000000000000002", 0, NULL, 32,
     "ecfa254f845f647473d3cb140da9e87606cb33066c447b87bc2666dde3fbb739"},
    {"A.4 #3", KEY_1C92, "000000000000000000000002", 0, NULL, 32,
     "965e3bc6f9ec7ed9560808f4d229f94b137ff275ca9b3fcbdd59deaad23310ae"},
    /* A.5's one-time key. */
    {"A.5 otk", KEY_1C92, "000000000102030405060708", 0, NULL, 32,
     "bdf04aa95ce4de8995b14bb6a18fecaf26478f50c054f563dbc0a21e261572aa"},
};

static const char *named_text(const char *name)
{
    if (strcmp(name, "sunscreen") == 0)
        return SUNSCREEN;
    if (strcmp(name, "ietf") == 0)
        return IETF_TEXT;
    if (strcmp(name, "jabberwocky") == 0)
        return JABBERWOCKY;
    return NULL;
}

static void test_rfc_chacha20(void)
{
    static uint8_t key[32], nonce[12], pt[512], ct[512], want[512], buf[512];
    CHECK(strlen(SUNSCREEN) == 114 && strlen(IETF_TEXT) == 375 && strlen(JABBERWOCKY) == 127 &&
          strlen(DRAFTS_TEXT) == 265);
    for (size_t v = 0; v < sizeof g_chacha_vecs / sizeof g_chacha_vecs[0]; v++) {
        const struct chacha_vec *t = &g_chacha_vecs[v];
        unhex(key, 32, t->key);
        unhex(nonce, 12, t->nonce);
        size_t n = t->ptlen;
        memset(pt, 0, sizeof pt);
        if (t->pt)
            memcpy(pt, named_text(t->pt), n);
        CHECK_MSG(unhex(want, sizeof want, t->ct) == n, "%s length", t->what);
        /* Public API, out of place and in place. */
        CHECK_MSG(vg_chacha20(ct, pt, n, nonce, t->counter, key) == VG_OK, "%s", t->what);
        CHECK_MSG(memcmp(ct, want, n) == 0, "RFC 8439 %s", t->what);
        memcpy(buf, pt, n);
        CHECK(vg_chacha20(buf, buf, n, nonce, t->counter, key) == VG_OK);
        CHECK_MSG(memcmp(buf, want, n) == 0, "RFC 8439 %s in place", t->what);
        /* Decryption is the same operation. */
        CHECK(vg_chacha20(buf, want, n, nonce, t->counter, key) == VG_OK);
        CHECK_MSG(memcmp(buf, pt, n) == 0, "RFC 8439 %s decrypt", t->what);
        /* Every implementation. */
        for (int i = 0; i < g_nchacha; i++) {
            memset(buf, 0, sizeof buf);
            chacha_impl(g_chacha[i], buf, pt, n, nonce, t->counter, key);
            CHECK_MSG(memcmp(buf, want, n) == 0, "RFC 8439 %s on %s", t->what, g_chacha[i]->name);
        }
    }
}

struct poly_vec {
    const char *what, *key, *msg; /* msg: hex, or "@name" for a text */
    const char *tag;
};

static const struct poly_vec g_poly_vecs[] = {
    {"2.5.2", "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
     "@Cryptographic Forum Research Group", "a8061dc1305136c6c22b8baf0c0127a9"},
    {"A.3 #1", KEY_ZERO,
     "0000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000",
     "00000000000000000000000000000000"},
    {"A.3 #2", "0000000000000000000000000000000036e5f6b5c5e06070f0efca96227a863e", "@ietf",
     "36e5f6b5c5e06070f0efca96227a863e"},
    {"A.3 #3", "36e5f6b5c5e06070f0efca96227a863e00000000000000000000000000000000", "@ietf",
     "f3477e7cd95417af89a6b8794c310cf0"},
    {"A.3 #4", KEY_1C92, "@jabberwocky", "4541669a7eaaee61e708dc7cbcc5eb62"},
    {"A.3 #5", "0200000000000000000000000000000000000000000000000000000000000000",
     "ffffffffffffffffffffffffffffffff", "03000000000000000000000000000000"},
    {"A.3 #6", "02000000000000000000000000000000ffffffffffffffffffffffffffffffff",
     "02000000000000000000000000000000", "03000000000000000000000000000000"},
    {"A.3 #7", "0100000000000000000000000000000000000000000000000000000000000000",
     "ffffffffffffffffffffffffffffffff"
     "f0ffffffffffffffffffffffffffffff"
     "11000000000000000000000000000000",
     "05000000000000000000000000000000"},
    {"A.3 #8", "0100000000000000000000000000000000000000000000000000000000000000",
     "ffffffffffffffffffffffffffffffff"
     "fbfefefefefefefefefefefefefefefe"
     "01010101010101010101010101010101",
     "00000000000000000000000000000000"},
    {"A.3 #9", "0200000000000000000000000000000000000000000000000000000000000000",
     "fdffffffffffffffffffffffffffffff", "faffffffffffffffffffffffffffffff"},
    {"A.3 #10", "0100000000000000040000000000000000000000000000000000000000000000",
     "e33594d7505e43b90000000000000000"
     "3394d7505e4379cd0100000000000000"
     "00000000000000000000000000000000"
     "01000000000000000000000000000000",
     "14000000000000005500000000000000"},
    {"A.3 #11", "0100000000000000040000000000000000000000000000000000000000000000",
     "e33594d7505e43b90000000000000000"
     "3394d7505e4379cd0100000000000000"
     "00000000000000000000000000000000",
     "13000000000000000000000000000000"},
};

static void test_rfc_poly1305(void)
{
    static uint8_t key[32], msg[512], want[16], tag[16];
    for (size_t v = 0; v < sizeof g_poly_vecs / sizeof g_poly_vecs[0]; v++) {
        const struct poly_vec *t = &g_poly_vecs[v];
        size_t n;
        unhex(key, 32, t->key);
        if (t->msg[0] == '@') {
            const char *s = named_text(t->msg + 1);
            if (!s)
                s = t->msg + 1;
            n = strlen(s);
            memcpy(msg, s, n);
        } else {
            n = unhex(msg, sizeof msg, t->msg);
        }
        unhex(want, 16, t->tag);
        CHECK(vg_poly1305(tag, msg, n, key) == VG_OK);
        CHECK_MSG(memcmp(tag, want, 16) == 0, "RFC 8439 %s", t->what);
        for (int i = 0; i < g_npoly; i++)
            for (size_t step = 0; step <= 17; step += 1) {
                memset(tag, 0, 16);
                poly_impl(g_poly[i], tag, msg, n, key, step);
                CHECK_MSG(memcmp(tag, want, 16) == 0, "RFC 8439 %s on %s, pieces of %zu", t->what,
                          g_poly[i]->name, step);
            }
    }
}

/* One AEAD case, sealed and opened with every implementation pair and
 * through the public API. */
static void check_aead_case(const char *what, int extended, const uint8_t *key,
                            const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
                            const uint8_t *pt, size_t len, const uint8_t *want_ct,
                            const uint8_t *want_tag)
{
    uint8_t *ct = malloc(len + 1), *back = malloc(len + 1), tag[16];
    for (int c = 0; c < g_nchacha; c++)
        for (int p = 0; p < g_npoly; p++) {
            memset(tag, 0, 16);
            CHECK(vg_aead_seal_impl(g_chacha[c], g_poly[p], extended, ct, tag, pt, len, ad, ad_len,
                                    nonce, key) == VG_OK);
            CHECK_MSG(memcmp(ct, want_ct, len) == 0 && memcmp(tag, want_tag, 16) == 0,
                      "%s seal on %s/%s", what, g_chacha[c]->name, g_poly[p]->name);
            CHECK(vg_aead_open_impl(g_chacha[c], g_poly[p], extended, back, want_ct, len,
                                    want_tag, ad, ad_len, nonce, key) == VG_OK);
            CHECK_MSG(memcmp(back, pt, len) == 0, "%s open on %s/%s", what, g_chacha[c]->name,
                      g_poly[p]->name);
        }
    int (*seal)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                const uint8_t *, const uint8_t *) =
        extended ? vg_xchacha20poly1305_seal : vg_chacha20poly1305_seal;
    int (*open)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *, size_t,
                const uint8_t *, const uint8_t *) =
        extended ? vg_xchacha20poly1305_open : vg_chacha20poly1305_open;
    CHECK(seal(ct, tag, pt, len, ad, ad_len, nonce, key) == VG_OK);
    CHECK_MSG(memcmp(ct, want_ct, len) == 0 && memcmp(tag, want_tag, 16) == 0, "%s seal", what);
    CHECK(open(back, ct, len, tag, ad, ad_len, nonce, key) == VG_OK);
    CHECK_MSG(memcmp(back, pt, len) == 0, "%s open", what);
    free(ct);
    free(back);
}

static void test_rfc_aead(void)
{
    static uint8_t key[32], nonce[12], ad[16], ct[512], tag[16];
    size_t n, adn;

    /* 2.8.2 */
    unhex(key, 32, KEY_80_9F);
    unhex(nonce, 12, "070000004041424344454647");
    adn = unhex(ad, sizeof ad, "50515253c0c1c2c3c4c5c6c7");
    n = unhex(ct, sizeof ct,
              "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
              "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
              "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
              "3ff4def08e4b7a9de576d26586cec64b6116");
    unhex(tag, 16, "1ae10b594f09e26a7e902ecbd0600691");
    CHECK(n == 114);
    check_aead_case("RFC 8439 2.8.2", 0, key, nonce, ad, adn, (const uint8_t *)SUNSCREEN, n, ct,
                    tag);

    /* A.5 */
    unhex(key, 32, KEY_1C92);
    unhex(nonce, 12, "000000000102030405060708");
    adn = unhex(ad, sizeof ad, "f33388860000000000004e91");
    n = unhex(ct, sizeof ct,
              "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb2"
              "4c6cfc18755d43eea09ee94e382d26b0bdb7b73c321b0100d4f03b7f355894cf"
              "332f830e710b97ce98c8a84abd0b948114ad176e008d33bd60f982b1ff37c855"
              "9797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0f9f6157b53c867e4"
              "b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523e"
              "af4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a"
              "0bb2316053fa76991955ebd63159434ecebb4e466dae5a1073a6727627097a10"
              "49e617d91d361094fa68f0ff77987130305beaba2eda04df997b714d6c6f2c29"
              "a6ad5cb4022b02709b");
    unhex(tag, 16, "eead9d67890cbb22392336fea1851f38");
    CHECK(n == 265);
    check_aead_case("RFC 8439 A.5", 0, key, nonce, ad, adn, (const uint8_t *)DRAFTS_TEXT, n, ct,
                    tag);
}

/* ---- draft-irtf-cfrg-xchacha-03 ------------------------------------------- */

/* A.3.2 (the XChaCha20 stream itself, counters 0 and 1): plaintext, key and
 * IV shared; the hex below copied from the draft's developer-friendly
 * section. */
static const char *XCHACHA_PT =
    "5468652064686f6c65202870726f6e6f756e6365642022646f6c652229206973"
    "20616c736f206b6e6f776e2061732074686520417369617469632077696c6420"
    "646f672c2072656420646f672c20616e642077686973746c696e6720646f672e"
    "2049742069732061626f7574207468652073697a65206f662061204765726d61"
    "6e20736865706865726420627574206c6f6f6b73206d6f7265206c696b652061"
    "206c6f6e672d6c656767656420666f782e205468697320686967686c7920656c"
    "757369766520616e6420736b696c6c6564206a756d70657220697320636c6173"
    "736966696564207769746820776f6c7665732c20636f796f7465732c206a6163"
    "6b616c732c20616e6420666f78657320696e20746865207461786f6e6f6d6963"
    "2066616d696c792043616e696461652e";
static const char *XCHACHA_CT0 =
    "4559abba4e48c16102e8bb2c05e6947f50a786de162f9b0b7e592a9b53d0d4e9"
    "8d8d6410d540a1a6375b26d80dace4fab52384c731acbf16a5923c0c48d3575d"
    "4d0d2c673b666faa731061277701093a6bf7a158a8864292a41c48e3a9b4c0da"
    "ece0f8d98d0d7e05b37a307bbb66333164ec9e1b24ea0d6c3ffddcec4f68e744"
    "3056193a03c810e11344ca06d8ed8a2bfb1e8d48cfa6bc0eb4e2464b74814240"
    "7c9f431aee769960e15ba8b96890466ef2457599852385c661f752ce20f9da0c"
    "09ab6b19df74e76a95967446f8d0fd415e7bee2a12a114c20eb5292ae7a349ae"
    "577820d5520a1f3fb62a17ce6a7e68fa7c79111d8860920bc048ef43fe84486c"
    "cb87c25f0ae045f0cce1e7989a9aa220a28bdd4827e751a24a6d5c62d790a663"
    "93b93111c1a55dd7421a10184974c7c5";
static const char *XCHACHA_CT1 =
    "7d0a2e6b7f7c65a236542630294e063b7ab9b555a5d5149aa21e4ae1e4fbce87"
    "ecc8e08a8b5e350abe622b2ffa617b202cfad72032a3037e76ffdcdc4376ee05"
    "3a190d7e46ca1de04144850381b9cb29f051915386b8a710b8ac4d027b8b050f"
    "7cba5854e028d564e453b8a968824173fc16488b8970cac828f11ae53cabd201"
    "12f87107df24ee6183d2274fe4c8b1485534ef2c5fbc1ec24bfc3663efaa08bc"
    "047d29d25043532db8391a8a3d776bf4372a6955827ccb0cdd4af403a7ce4c63"
    "d595c75a43e045f0cce1f29c8b93bd65afc5974922f214a40b7c402cdb91ae73"
    "c0b63615cdad0480680f16515a7ace9d39236464328a37743ffc28f4ddb324f4"
    "d0f5bbdc270c65b1749a6efff1fbaa09536175ccd29fb9e6057b307320d31683"
    "8a9c71f70b5b5907a66f7ea49aadc409";

static void test_xchacha_draft(void)
{
    static uint8_t key[32], n16[16], sub[32], want[512], nonce[24], ad[16], pt[512], ct[512],
        tag[16], n12[12], buf[512];
    size_t n, adn;

    /* 2.2.1: HChaCha20. */
    unhex(key, 32, KEY_00_1F);
    unhex(n16, 16, "000000090000004a0000000031415927");
    unhex(want, 32, "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc");
    vg_hchacha20(sub, key, n16);
    CHECK_MSG(memcmp(sub, want, 32) == 0, "draft-irtf-cfrg-xchacha 2.2.1 HChaCha20");

    /* A.3.1: AEAD_XChaCha20_Poly1305. */
    unhex(key, 32, KEY_80_9F);
    unhex(nonce, 24, "404142434445464748494a4b4c4d4e4f5051525354555657");
    adn = unhex(ad, sizeof ad, "50515253c0c1c2c3c4c5c6c7");
    n = unhex(ct, sizeof ct,
              "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb"
              "731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452"
              "2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9"
              "21f9664c97637da9768812f615c68b13b52e");
    unhex(tag, 16, "c0875924c1c7987947deafd8780acf49");
    CHECK(n == 114);
    check_aead_case("xchacha A.3.1", 1, key, nonce, ad, adn, (const uint8_t *)SUNSCREEN, n, ct,
                    tag);
    /* A.3.1 also gives the Poly1305 key: block 0 under the subkey. */
    vg_hchacha20(sub, key, nonce);
    memset(n12, 0, 4);
    memcpy(n12 + 4, nonce + 16, 8);
    memset(buf, 0, 32);
    CHECK(vg_chacha20(buf, buf, 32, n12, 0, sub) == VG_OK);
    unhex(want, 32, "7b191f80f361f099094f6f4b8fb97df847cc6873a8f2b190dd73807183f907d5");
    CHECK_MSG(memcmp(buf, want, 32) == 0, "xchacha A.3.1 Poly1305 key");

    /* A.3.2.1 / A.3.2.2: XChaCha20 = ChaCha20 under HChaCha20's subkey
     * (2.3.1 pseudocode), counters 0 and 1. */
    n = unhex(pt, sizeof pt, XCHACHA_PT);
    CHECK(n == 304);
    unhex(nonce, 24, "404142434445464748494a4b4c4d4e4f5051525354555658");
    vg_hchacha20(sub, key, nonce);
    memcpy(n12 + 4, nonce + 16, 8);
    for (uint32_t ctr = 0; ctr < 2; ctr++) {
        unhex(want, sizeof want, ctr ? XCHACHA_CT1 : XCHACHA_CT0);
        for (int i = 0; i < g_nchacha; i++) {
            memset(buf, 0, sizeof buf);
            chacha_impl(g_chacha[i], buf, pt, n, n12, ctr, sub);
            CHECK_MSG(memcmp(buf, want, n) == 0, "xchacha A.3.2 counter %u on %s", ctr,
                      g_chacha[i]->name);
        }
    }
}

/* ---- Wycheproof --------------------------------------------------------------- */

static void test_wycheproof_file(const char *file, int extended, int want_total)
{
    cJSON *j = load_json(file);
    CHECK_MSG(j != NULL, "%s", file);
    if (!j)
        return;
    const size_t want_iv = extended ? 24 : 12;
    int total = 0, valid = 0, invalid = 0, bad_iv = 0;
    const cJSON *g, *t;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "testGroups"))
    {
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            size_t kl = 0, il = 0, al = 0, ml = 0, cl = 0, tl = 0;
            uint8_t *key = jhex(t, "key", &kl), *iv = jhex(t, "iv", &il), *ad = jhex(t, "aad", &al),
                    *msg = jhex(t, "msg", &ml), *ct = jhex(t, "ct", &cl),
                    *tag = jhex(t, "tag", &tl);
            const char *res = jstr(t, "result");
            int id = jint(t, "tcId");
            int want_ok = res && strcmp(res, "valid") == 0;
            total++;
            CHECK_MSG(key && iv && ad && msg && ct && tag && res, "%s tc %d fields", file, id);
            if (!(key && iv && ad && msg && ct && tag && res))
                goto next;
            if (il != want_iv) {
                /* Our API takes exactly a 12-byte (24-byte) nonce: a case
                 * with another nonce size cannot be expressed, and the
                 * file must call it invalid. */
                bad_iv++;
                CHECK_MSG(!want_ok, "%s tc %d: valid with a %zu-byte nonce", file, id, il);
                goto next;
            }
            CHECK_MSG(kl == 32 && tl == 16 && cl == ml, "%s tc %d sizes", file, id);
            if (kl != 32 || tl != 16 || cl != ml)
                goto next;
            want_ok ? valid++ : invalid++;
            uint8_t *out = malloc(ml + 1), mytag[16];
            for (int c = 0; c < g_nchacha; c++)
                for (int p = 0; p < g_npoly; p++) {
                    /* seal: valid cases give exactly (ct, tag); invalid
                     * ones (modified tags, ...) must not reproduce it. */
                    CHECK(vg_aead_seal_impl(g_chacha[c], g_poly[p], extended, out, mytag, msg, ml,
                                            ad, al, iv, key) == VG_OK);
                    int same = memcmp(out, ct, ml) == 0 && memcmp(mytag, tag, 16) == 0;
                    CHECK_MSG(same == want_ok, "%s tc %d seal on %s/%s", file, id,
                              g_chacha[c]->name, g_poly[p]->name);
                    /* open: VG_OK with msg, or VG_ERR_VERIFY with pt zeroed. */
                    memset(out, 0xa5, ml + 1);
                    int rc = vg_aead_open_impl(g_chacha[c], g_poly[p], extended, out, ct, ml, tag,
                                               ad, al, iv, key);
                    if (want_ok)
                        CHECK_MSG(rc == VG_OK && memcmp(out, msg, ml) == 0, "%s tc %d open on %s/%s",
                                  file, id, g_chacha[c]->name, g_poly[p]->name);
                    else
                        CHECK_MSG(rc == VG_ERR_VERIFY && is_zero(out, ml) && out[ml] == 0xa5,
                                  "%s tc %d open on %s/%s: %d", file, id, g_chacha[c]->name,
                                  g_poly[p]->name, rc);
                }
            free(out);
        next:
            free(key);
            free(iv);
            free(ad);
            free(msg);
            free(ct);
            free(tag);
        }
    }
    printf("%s: %d cases (%d valid, %d invalid, %d invalid nonce sizes)\n", file, total, valid,
           invalid, bad_iv);
    CHECK_MSG(total == want_total, "%s: %d cases", file, total);
    cJSON_Delete(j);
}

/* ---- independent implementations ---------------------------------------------- */

static int ossl_seal(uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                     const uint8_t *ad, size_t ad_len, const uint8_t nonce[12],
                     const uint8_t key[32])
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int outl = 0, ok = c != NULL;
    ok = ok && EVP_EncryptInit_ex(c, EVP_chacha20_poly1305(), NULL, NULL, NULL);
    ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL);
    ok = ok && EVP_EncryptInit_ex(c, NULL, NULL, key, nonce);
    if (ad_len)
        ok = ok && EVP_EncryptUpdate(c, NULL, &outl, ad, (int)ad_len);
    if (len)
        ok = ok && EVP_EncryptUpdate(c, ct, &outl, pt, (int)len);
    ok = ok && EVP_EncryptFinal_ex(c, ct + len, &outl);
    ok = ok && EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, 16, tag);
    EVP_CIPHER_CTX_free(c);
    return ok;
}

/* EVP_chacha20: the 16-byte IV is the 32-bit counter (little-endian) ||
 * the 96-bit nonce. */
static int ossl_chacha20(uint8_t *out, const uint8_t *in, size_t len, const uint8_t nonce[12],
                         uint32_t counter, const uint8_t key[32])
{
    uint8_t iv[16];
    vg_store32_le(iv, counter);
    memcpy(iv + 4, nonce, 12);
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int outl = 0, ok = c != NULL;
    ok = ok && EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, key, iv);
    if (len)
        ok = ok && EVP_EncryptUpdate(c, out, &outl, in, (int)len);
    ok = ok && EVP_EncryptFinal_ex(c, out + len, &outl);
    EVP_CIPHER_CTX_free(c);
    return ok;
}

/* Guarded buffers: GUARD bytes of a pattern on each side of the n bytes
 * handed out at an offset `mis` (0..63) from a 64-byte boundary, so that
 * unaligned addresses are exercised and any write outside is seen. */
#define GUARD 80
struct gbuf {
    uint8_t *base, *p;
    size_t n;
};

static void gbuf_make(struct gbuf *g, size_t n, size_t mis)
{
    g->base = aligned_alloc(64, (n + 2 * GUARD + 128 + 63) / 64 * 64);
    g->p = g->base + GUARD + 64 - (GUARD % 64) + mis; /* 64-aligned + mis */
    g->n = n;
    memset(g->base, 0xc5, (size_t)(g->p - g->base));
    memset(g->p + n, 0xc5, GUARD);
}

static int gbuf_ok(const struct gbuf *g)
{
    for (uint8_t *q = g->base; q < g->p; q++)
        if (*q != 0xc5)
            return 0;
    for (size_t i = 0; i < GUARD; i++)
        if (g->p[g->n + i] != 0xc5)
            return 0;
    return 1;
}

/* Seal (ours, every implementation pair, out of place and in place) against
 * OpenSSL and libsodium, then open the peers' output. */
static void diff_aead_one(int extended, size_t len, size_t ad_len, uint64_t *seed)
{
    uint8_t key[32], nonce[24], tag[16], t_peer[16], t_sod[16];
    uint8_t *pt = malloc(len + 1), *ad = malloc(ad_len + 1), *c_peer = malloc(len + 16),
            *c_sod = malloc(len + 16);
    unsigned long long mlen = 0;
    /* ct and buf: guarded, unaligned (checked after every call below). */
    struct gbuf gct, gbf;
    gbuf_make(&gct, len, (size_t)(vgtest_rand64(seed) % 64));
    gbuf_make(&gbf, len, (size_t)(vgtest_rand64(seed) % 64));
    uint8_t *ct = gct.p, *buf = gbf.p;
    vgtest_randbytes(seed, key, sizeof key);
    vgtest_randbytes(seed, nonce, sizeof nonce);
    vgtest_randbytes(seed, pt, len);
    vgtest_randbytes(seed, ad, ad_len);

    if (extended) {
        CHECK(crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
                  c_sod, t_sod, &mlen, pt, len, ad, ad_len, NULL, nonce, key) == 0);
        memcpy(c_peer, c_sod, len);
        memcpy(t_peer, t_sod, 16);
    } else {
        CHECK(ossl_seal(c_peer, t_peer, pt, len, ad, ad_len, nonce, key));
        CHECK(crypto_aead_chacha20poly1305_ietf_encrypt_detached(c_sod, t_sod, &mlen, pt, len, ad,
                                                                 ad_len, NULL, nonce, key) == 0);
        CHECK_MSG(memcmp(c_peer, c_sod, len) == 0 && memcmp(t_peer, t_sod, 16) == 0,
                  "OpenSSL and libsodium disagree at len %zu", len);
    }
    for (int c = 0; c < g_nchacha; c++)
        for (int p = 0; p < g_npoly; p++) {
            const struct vg_chacha20_impl *ci = g_chacha[c];
            const struct vg_poly1305_impl *pi = g_poly[p];
            CHECK(vg_aead_seal_impl(ci, pi, extended, ct, tag, pt, len, ad, ad_len, nonce, key) ==
                  VG_OK);
            CHECK_MSG(memcmp(ct, c_sod, len) == 0 && memcmp(tag, t_sod, 16) == 0,
                      "%s seal len %zu ad %zu on %s/%s", extended ? "xchacha" : "chacha", len,
                      ad_len, ci->name, pi->name);
            /* in place */
            memcpy(buf, pt, len);
            CHECK(vg_aead_seal_impl(ci, pi, extended, buf, tag, buf, len, ad, ad_len, nonce, key) ==
                  VG_OK);
            CHECK_MSG(memcmp(buf, c_sod, len) == 0 && memcmp(tag, t_sod, 16) == 0,
                      "seal in place len %zu on %s/%s", len, ci->name, pi->name);
            /* open the peers' ciphertext, out of place and in place */
            memset(buf, 0, len);
            CHECK(vg_aead_open_impl(ci, pi, extended, buf, c_peer, len, t_peer, ad, ad_len, nonce,
                                    key) == VG_OK);
            CHECK_MSG(memcmp(buf, pt, len) == 0, "open len %zu on %s/%s", len, ci->name, pi->name);
            memcpy(buf, c_sod, len);
            CHECK(vg_aead_open_impl(ci, pi, extended, buf, buf, len, t_sod, ad, ad_len, nonce,
                                    key) == VG_OK);
            CHECK_MSG(memcmp(buf, pt, len) == 0, "open in place len %zu on %s/%s", len, ci->name,
                      pi->name);
            CHECK_MSG(gbuf_ok(&gct) && gbuf_ok(&gbf), "write outside ct/pt: len %zu on %s/%s", len,
                      ci->name, pi->name);
        }
    /* And the peers open ours (public API). */
    int (*seal)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                const uint8_t *, const uint8_t *) =
        extended ? vg_xchacha20poly1305_seal : vg_chacha20poly1305_seal;
    CHECK(seal(ct, tag, pt, len, ad, ad_len, nonce, key) == VG_OK);
    if (extended)
        CHECK(crypto_aead_xchacha20poly1305_ietf_decrypt_detached(buf, NULL, ct, len, tag, ad,
                                                                  ad_len, nonce, key) == 0);
    else
        CHECK(crypto_aead_chacha20poly1305_ietf_decrypt_detached(buf, NULL, ct, len, tag, ad,
                                                                 ad_len, nonce, key) == 0);
    CHECK(memcmp(buf, pt, len) == 0);
    free(pt);
    free(ad);
    free(gct.base);
    free(c_peer);
    free(c_sod);
    free(gbf.base);
}

static void test_differential_aead(void)
{
    uint64_t seed = 0x6165616431353031ULL;
    for (int x = 0; x < 2; x++) {
        /* Every length 0..4096, the AD length cycling through 0..300. */
        for (size_t len = 0; len <= 4096; len++)
            diff_aead_one(x, len, (len * 37) % 301, &seed);
        /* Every AD length 0..300 at a few message lengths. */
        for (size_t ad = 0; ad <= 300; ad++)
            diff_aead_one(x, ad % 3 == 0 ? 0 : ad % 3 == 1 ? 63 : 200, ad, &seed);
        /* Random lengths up to 64 KiB, across the 4096-byte chunks. */
        for (int i = 0; i < 24; i++) {
            size_t len = (size_t)(vgtest_rand64(&seed) % (64 * 1024 + 1));
            diff_aead_one(x, len, (size_t)(vgtest_rand64(&seed) % 301), &seed);
        }
        diff_aead_one(x, 4096, 0, &seed);
        diff_aead_one(x, 4097, 1, &seed);
        diff_aead_one(x, 65536, 300, &seed);
        /* Random lengths up to 1 MiB, and 1 MiB itself. */
        for (int i = 0; i < 4; i++)
            diff_aead_one(x, (size_t)(vgtest_rand64(&seed) % ((1u << 20) + 1)),
                          (size_t)(vgtest_rand64(&seed) % 301), &seed);
        diff_aead_one(x, 1u << 20, 17, &seed);
    }
}

static void test_differential_chacha20(void)
{
    uint64_t seed = 0x6368616368613230ULL;
    static uint8_t in[70000], a[70000], b[70000], c[70000];
    uint8_t key[32], nonce[12];
    for (size_t len = 0; len <= 1024 + 300; len++) {
        size_t n = len <= 1024 ? len : (size_t)(vgtest_rand64(&seed) % sizeof in);
        uint32_t counter = (uint32_t)vgtest_rand64(&seed);
        if (len % 3 == 0)
            counter = 0;
        /* Stay within the 32-bit counter (both peers would go past it). */
        if (!vg_chacha20_len_ok(n, counter))
            counter = 1;
        vgtest_randbytes(&seed, key, 32);
        vgtest_randbytes(&seed, nonce, 12);
        vgtest_randbytes(&seed, in, n);
        CHECK(ossl_chacha20(b, in, n, nonce, counter, key));
        CHECK(crypto_stream_chacha20_ietf_xor_ic(c, in, n, nonce, counter, key) == 0);
        CHECK_MSG(memcmp(b, c, n) == 0, "OpenSSL and libsodium ChaCha20 disagree at %zu", n);
        CHECK(vg_chacha20(a, in, n, nonce, counter, key) == VG_OK);
        CHECK_MSG(memcmp(a, c, n) == 0, "chacha20 len %zu counter %u", n, counter);
        for (int i = 0; i < g_nchacha; i++) {
            memcpy(a, in, n);
            chacha_impl(g_chacha[i], a, a, n, nonce, counter, key);
            CHECK_MSG(memcmp(a, c, n) == 0, "chacha20 in place len %zu on %s", n,
                      g_chacha[i]->name);
        }
    }
}

/* One ChaCha20 run of every implementation against the portable one (which
 * test_differential_chacha20 holds to OpenSSL and libsodium): out of
 * place with in and out at their own misalignments, and in place; nothing
 * written outside out. */
static void chacha_variants_one(size_t len, uint32_t counter, uint64_t *seed)
{
    uint8_t key[32], nonce[12];
    struct gbuf in, out, io;
    size_t m1 = (size_t)(vgtest_rand64(seed) % 64), m2 = (size_t)(vgtest_rand64(seed) % 64);
    uint8_t *want = malloc(len + 1);
    vgtest_randbytes(seed, key, 32);
    vgtest_randbytes(seed, nonce, 12);
    gbuf_make(&in, len, m1);
    gbuf_make(&out, len, m2);
    gbuf_make(&io, len, m1);
    vgtest_randbytes(seed, in.p, len);
    chacha_impl(vg_chacha20_portable_get(), want, in.p, len, nonce, counter, key);
    for (int i = 0; i < g_nchacha; i++) {
        memset(out.p, 0, len);
        chacha_impl(g_chacha[i], out.p, in.p, len, nonce, counter, key);
        CHECK_MSG(memcmp(out.p, want, len) == 0 && gbuf_ok(&out) && gbuf_ok(&in),
                  "chacha20 %s len %zu counter %u misalign %zu/%zu", g_chacha[i]->name, len,
                  counter, m1, m2);
        memcpy(io.p, in.p, len);
        chacha_impl(g_chacha[i], io.p, io.p, len, nonce, counter, key);
        CHECK_MSG(memcmp(io.p, want, len) == 0 && gbuf_ok(&io),
                  "chacha20 %s in place len %zu counter %u", g_chacha[i]->name, len, counter);
    }
    free(in.base);
    free(out.base);
    free(io.base);
    free(want);
}

/* Every implementation on every length 0..4096 and random lengths up to
 * 1 MiB, at counter starts 0, random, and the last ones before 2^32 (every
 * start from 2^32 - 40 on, with every length those blocks allow in
 * steps). */
static void test_chacha_variants(void)
{
    uint64_t seed = 0x76617269616e7473ULL;
    for (size_t len = 0; len <= 4096; len++) {
        uint32_t counter = len % 3 == 0 ? 0 : (uint32_t)vgtest_rand64(&seed);
        if (len % 3 == 2) /* the run ends within 0..2 blocks of 2^32 - 1 */
            counter = (uint32_t)(((uint64_t)1 << 32) - (len + 63) / 64 -
                                 vgtest_rand64(&seed) % 3);
        if (!vg_chacha20_len_ok(len, counter))
            counter = 1;
        chacha_variants_one(len, counter, &seed);
    }
    for (uint32_t back = 1; back <= 40; back++) {
        uint32_t counter = (uint32_t)(((uint64_t)1 << 32) - back);
        for (size_t len = 1; len <= 64 * (size_t)back; len += 1 + len / 3)
            chacha_variants_one(len, counter, &seed);
        chacha_variants_one(64 * (size_t)back, counter, &seed);
    }
    for (int i = 0; i < 12; i++)
        chacha_variants_one((size_t)(vgtest_rand64(&seed) % ((1u << 20) + 1)),
                            (uint32_t)vgtest_rand64(&seed) % 1000, &seed);
    chacha_variants_one(1u << 20, 7, &seed);
}

/* Buffers against inaccessible pages: two mappings of four pages each,
 * pages 0 and 3 PROT_NONE; a buffer placed to end at page 3 or to start at
 * page 1 faults on any read or write past its end or before its start.
 * Every ChaCha20 and Poly1305 variant and seal/open, in and out at either
 * edge, lengths 0..1100 and a few up to two pages. */
static uint8_t *edge_place(uint8_t *map, size_t pg, size_t len, int at_end)
{
    return at_end ? map + 3 * pg - len : map + pg;
}

static void edge_one(uint8_t *ma, uint8_t *mb, size_t pg, size_t len, uint64_t *seed)
{
    uint8_t key[32], nonce[24], tag[16], want_tag[16];
    uint8_t *want = malloc(len + 1), *src = malloc(len + 1);
    vgtest_randbytes(seed, key, 32);
    vgtest_randbytes(seed, nonce, 24);
    vgtest_randbytes(seed, src, len);
    chacha_impl(vg_chacha20_portable_get(), want, src, len, nonce, 5, key);
    CHECK(crypto_onetimeauth_poly1305(want_tag, src, len, key) == 0);
    for (int e = 0; e < 4; e++) {
        uint8_t *in = edge_place(ma, pg, len, e & 1), *out = edge_place(mb, pg, len, e >> 1);
        for (int i = 0; i < g_nchacha; i++) {
            memcpy(in, src, len);
            chacha_impl(g_chacha[i], out, in, len, nonce, 5, key);
            CHECK_MSG(memcmp(out, want, len) == 0, "chacha20 %s at page edges len %zu",
                      g_chacha[i]->name, len);
            chacha_impl(g_chacha[i], in, in, len, nonce, 5, key);
            CHECK_MSG(memcmp(in, want, len) == 0, "chacha20 %s in place at a page edge len %zu",
                      g_chacha[i]->name, len);
        }
        memcpy(in, src, len);
        for (int k = 0; k < g_npoly; k++) {
            poly_impl(g_poly[k], tag, in, len, key, 0);
            CHECK_MSG(memcmp(tag, want_tag, 16) == 0, "poly1305 %s at a page edge len %zu",
                      g_poly[k]->name, len);
        }
        for (int c = 0; c < g_nchacha; c++)
            for (int k = 0; k < g_npoly; k++) {
                memcpy(in, src, len);
                CHECK(vg_aead_seal_impl(g_chacha[c], g_poly[k], e & 1, out, tag, in, len, in,
                                        len < 300 ? len : 300, nonce, key) == VG_OK);
                CHECK(vg_aead_open_impl(g_chacha[c], g_poly[k], e & 1, out, out, len, tag, in,
                                        len < 300 ? len : 300, nonce, key) == VG_OK);
                CHECK_MSG(memcmp(out, src, len) == 0, "seal/open at page edges len %zu on %s/%s",
                          len, g_chacha[c]->name, g_poly[k]->name);
            }
    }
    free(want);
    free(src);
}

static void test_page_edges(void)
{
    uint64_t seed = 0x7061676565646765ULL;
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *ma = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint8_t *mb = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(ma != MAP_FAILED && mb != MAP_FAILED);
    if (ma == MAP_FAILED || mb == MAP_FAILED)
        return;
    CHECK(mprotect(ma, pg, PROT_NONE) == 0 && mprotect(ma + 3 * pg, pg, PROT_NONE) == 0);
    CHECK(mprotect(mb, pg, PROT_NONE) == 0 && mprotect(mb + 3 * pg, pg, PROT_NONE) == 0);
    for (size_t len = 0; len <= 1100; len++)
        edge_one(ma, mb, pg, len, &seed);
    for (int i = 0; i < 40; i++)
        edge_one(ma, mb, pg, 1100 + (size_t)(vgtest_rand64(&seed) % (2 * pg - 1100 + 1)), &seed);
    edge_one(ma, mb, pg, 2 * pg, &seed);
    munmap(ma, 4 * pg);
    munmap(mb, 4 * pg);
}

/* Poly1305 of every implementation against libsodium on every length
 * 0..4096 and random lengths up to 1 MiB, unaligned: in one piece (so
 * that long runs reach the vector loops), in random pieces, and in pieces
 * of whole blocks after a first short one (vector loops entered with the
 * powers already made, from an accumulator that is not zero). */
static void test_poly_variants(void)
{
    uint64_t seed = 0x706f6c7976617273ULL;
    uint8_t key[32], want[16], tag[16];
    for (size_t i = 0; i <= 4096 + 16; i++) {
        size_t len = i <= 4096 ? i : (size_t)(vgtest_rand64(&seed) % ((1u << 20) + 1));
        size_t mis = (size_t)(vgtest_rand64(&seed) % 64);
        struct gbuf m;
        gbuf_make(&m, len, mis);
        vgtest_randbytes(&seed, key, 32);
        vgtest_randbytes(&seed, m.p, len);
        if (i % 7 == 0)
            memset(m.p, 0xff, len);
        CHECK(crypto_onetimeauth_poly1305(want, m.p, len, key) == 0);
        for (int k = 0; k < g_npoly; k++) {
            poly_impl(g_poly[k], tag, m.p, len, key, 0);
            CHECK_MSG(memcmp(tag, want, 16) == 0, "poly1305 %s len %zu one piece", g_poly[k]->name,
                      len);
            size_t step = 1 + (size_t)(vgtest_rand64(&seed) % 700);
            poly_impl(g_poly[k], tag, m.p, len, key, step);
            CHECK_MSG(memcmp(tag, want, 16) == 0, "poly1305 %s len %zu pieces %zu",
                      g_poly[k]->name, len, step);
            /* A short first piece, then pieces of 16..64 blocks. */
            vg_poly1305_ctx ctx;
            size_t off = len < 40 ? len : (size_t)(vgtest_rand64(&seed) % 40);
            vg_poly1305_init(&ctx, g_poly[k], key);
            vg_poly1305_update(&ctx, m.p, off);
            while (off < len) {
                size_t n = 16 * (16 + (size_t)(vgtest_rand64(&seed) % 49));
                if (n > len - off)
                    n = len - off;
                vg_poly1305_update(&ctx, m.p + off, n);
                off += n;
            }
            vg_poly1305_final(&ctx, tag);
            CHECK_MSG(memcmp(tag, want, 16) == 0, "poly1305 %s len %zu block pieces",
                      g_poly[k]->name, len);
        }
        free(m.base);
    }
}

static void test_differential_poly1305(void)
{
    uint64_t seed = 0x706f6c7931333035ULL;
    static uint8_t m[70000];
    uint8_t key[32], t_sod[16], tag[16];
    for (size_t len = 0; len <= 1024 + 100; len++) {
        size_t n = len <= 1024 ? len : (size_t)(vgtest_rand64(&seed) % sizeof m);
        vgtest_randbytes(&seed, key, 32);
        vgtest_randbytes(&seed, m, n);
        CHECK(crypto_onetimeauth_poly1305(t_sod, m, n, key) == 0);
        CHECK(vg_poly1305(tag, m, n, key) == VG_OK);
        CHECK_MSG(memcmp(tag, t_sod, 16) == 0, "poly1305 len %zu", n);
        for (int i = 0; i < g_npoly; i++) {
            size_t step = (size_t)(vgtest_rand64(&seed) % 40);
            poly_impl(g_poly[i], tag, m, n, key, step);
            CHECK_MSG(memcmp(tag, t_sod, 16) == 0, "poly1305 len %zu on %s pieces %zu", n,
                      g_poly[i]->name, step);
        }
    }
}

/* ---- Poly1305 against GMP --------------------------------------------------------- */

/* RFC 8439 2.5.1, literally: a = ((a + block + 2^(8 len)) * r) mod p per
 * block, then (a + s) mod 2^128. */
static void gmp_poly1305(uint8_t tag[16], const uint8_t *m, size_t len, const uint8_t key[32])
{
    mpz_t r, s, a, p, n, t;
    uint8_t rb[16];
    mpz_inits(r, s, a, p, n, t, NULL);
    memcpy(rb, key, 16);
    rb[3] &= 15;
    rb[7] &= 15;
    rb[11] &= 15;
    rb[15] &= 15;
    rb[4] &= 252;
    rb[8] &= 252;
    rb[12] &= 252;
    mpz_import(r, 16, -1, 1, 0, 0, rb);
    mpz_import(s, 16, -1, 1, 0, 0, key + 16);
    mpz_ui_pow_ui(p, 2, 130);
    mpz_sub_ui(p, p, 5);
    for (size_t off = 0; off < len; off += 16) {
        size_t k = len - off < 16 ? len - off : 16;
        mpz_import(n, k, -1, 1, 0, 0, m + off);
        mpz_setbit(n, 8 * k);
        mpz_add(a, a, n);
        mpz_mul(a, a, r);
        mpz_mod(a, a, p);
    }
    mpz_add(a, a, s);
    mpz_fdiv_r_2exp(a, a, 128);
    memset(tag, 0, 16);
    size_t cnt = 0;
    mpz_export(tag, &cnt, -1, 1, 0, 0, a);
    mpz_clears(r, s, a, p, n, t, NULL);
}

static void gmp_check(const char *what, const uint8_t *m, size_t len, const uint8_t key[32])
{
    uint8_t want[16], tag[16];
    gmp_poly1305(want, m, len, key);
    for (int i = 0; i < g_npoly; i++) {
        poly_impl(g_poly[i], tag, m, len, key, 0);
        CHECK_MSG(memcmp(tag, want, 16) == 0, "poly1305 vs GMP: %s len %zu on %s", what, len,
                  g_poly[i]->name);
    }
}

/* a = the GMP accumulator (mod p) after the full blocks of m. */
static void gmp_acc(mpz_t a, const uint8_t *m, size_t nblocks, const mpz_t r, const mpz_t p)
{
    mpz_t n;
    mpz_init(n);
    mpz_set_ui(a, 0);
    for (size_t i = 0; i < nblocks; i++) {
        mpz_import(n, 16, -1, 1, 0, 0, m + 16 * i);
        mpz_setbit(n, 128);
        mpz_add(a, a, n);
        mpz_mul(a, a, r);
        mpz_mod(a, a, p);
    }
    mpz_clear(n);
}

/* With the key's r, find a message whose accumulator ends at exactly T
 * (before s is added): random full blocks, then a last full block
 * b = T r^-1 - acc - 2^128 (mod p), retried until that b is < 2^128. Then
 * both implementations against GMP. */
static void gmp_target(const char *what, const uint8_t key[32], const mpz_t T, uint64_t *seed)
{
    mpz_t r, p, a, x, lim, inv;
    uint8_t rb[16], m[16 * 40];
    mpz_inits(r, p, a, x, lim, inv, NULL);
    memcpy(rb, key, 16);
    rb[3] &= 15;
    rb[7] &= 15;
    rb[11] &= 15;
    rb[15] &= 15;
    rb[4] &= 252;
    rb[8] &= 252;
    rb[12] &= 252;
    mpz_import(r, 16, -1, 1, 0, 0, rb);
    mpz_ui_pow_ui(p, 2, 130);
    mpz_sub_ui(p, p, 5);
    mpz_ui_pow_ui(lim, 2, 128);
    if (mpz_sgn(r) == 0 || !mpz_invert(inv, r, p)) {
        mpz_clears(r, p, a, x, lim, inv, NULL);
        return;
    }
    for (int tries = 0; tries < 400; tries++) {
        /* 0..6 random blocks first, or 15, 23, 31, 39: then the message is
         * 16, 24, 32 or 40 blocks, all through an 8-lane loop, whose final
         * fold must reach the target itself. */
        size_t k = (size_t)(vgtest_rand64(seed) % 7);
        if (vgtest_rand64(seed) % 2)
            k = 15 + 8 * (size_t)(vgtest_rand64(seed) % 4);
        vgtest_randbytes(seed, m, 16 * k);
        gmp_acc(a, m, k, r, p);
        mpz_mul(x, T, inv);
        mpz_sub(x, x, a);
        mpz_sub(x, x, lim);
        mpz_mod(x, x, p);
        if (mpz_cmp(x, lim) >= 0)
            continue;
        size_t cnt = 0;
        memset(m + 16 * k, 0, 16);
        mpz_export(m + 16 * k, &cnt, -1, 1, 0, 0, x);
        gmp_check(what, m, 16 * (k + 1), key);
        /* Confirm the construction: with s = 0 the tag is T mod 2^128. */
        uint8_t k0[32], want[16], got[16];
        memcpy(k0, key, 16);
        memset(k0 + 16, 0, 16);
        mpz_fdiv_r_2exp(x, T, 128);
        memset(want, 0, 16);
        mpz_export(want, &cnt, -1, 1, 0, 0, x);
        gmp_poly1305(got, m, 16 * (k + 1), k0);
        CHECK_MSG(memcmp(got, want, 16) == 0, "GMP target construction %s", what);
        mpz_clears(r, p, a, x, lim, inv, NULL);
        return;
    }
    CHECK_MSG(0, "no message found for target %s", what);
    mpz_clears(r, p, a, x, lim, inv, NULL);
}

static void test_gmp_poly1305(void)
{
    uint64_t seed = 0x676d70706f6c7931ULL;
    static uint8_t m[4096 + 64];
    uint8_t key[32];

    /* All-0xff keys (largest clamped r, s = 2^128 - 1) and all-0xff blocks,
     * every length 0..300 and a long one; and all-0xff messages under
     * random keys, and random messages under the all-0xff key. */
    memset(key, 0xff, 32);
    memset(m, 0xff, sizeof m);
    for (size_t len = 0; len <= 300; len++)
        gmp_check("all-0xff key and message", m, len, key);
    gmp_check("all-0xff key and message", m, 4096, key);
    for (int i = 0; i < 200; i++) {
        vgtest_randbytes(&seed, key, 32);
        gmp_check("all-0xff message", m, (size_t)(vgtest_rand64(&seed) % 600), key);
    }
    memset(key, 0xff, 32);
    for (int i = 0; i < 200; i++) {
        size_t len = (size_t)(vgtest_rand64(&seed) % 600);
        vgtest_randbytes(&seed, m, len);
        gmp_check("all-0xff key", m, len, key);
    }
    /* r = 1 and r = 2 with all-0xff blocks: the accumulator walks through
     * sums of 2^129 - 1 with reductions at every multiple of p; s = 0 and
     * s all-0xff (the final carry out of 2^128). */
    for (int rv = 1; rv <= 2; rv++)
        for (int sv = 0; sv < 2; sv++) {
            memset(key, 0, 32);
            key[0] = (uint8_t)rv;
            memset(key + 16, sv ? 0xff : 0, 16);
            memset(m, 0xff, sizeof m);
            for (size_t len = 0; len <= 16 * 40; len++)
                gmp_check("small r, 0xff blocks", m, len, key);
        }

    /* Random keys and messages, every length 0..300 and longer ones. */
    for (int i = 0; i < 3000; i++) {
        size_t len = i <= 300 ? (size_t)i : (size_t)(vgtest_rand64(&seed) % (sizeof m));
        vgtest_randbytes(&seed, key, 32);
        vgtest_randbytes(&seed, m, len);
        gmp_check("random", m, len, key);
    }
}

/* Final accumulators at the edges, for random r and s = 0 / s = all ones /
 * random s (and once the largest r): 0..9, p - 10..p - 1, 2^128 - 3 ..
 * 2^128 + 3 and 2^129 - 3 .. 2^129 + 3 (where adding s carries out of
 * 2^128 or not), and 2^128 - s, 2^129 - s (T + s exactly 2^128 or 2^129). */
static void test_gmp_targets(void)
{
    uint64_t seed = 0x7461726765747331ULL;
    uint8_t key[32];
    mpz_t T, p, two128;
    mpz_inits(T, p, two128, NULL);
    mpz_ui_pow_ui(p, 2, 130);
    mpz_sub_ui(p, p, 5);
    mpz_ui_pow_ui(two128, 2, 128);
    for (int kk = 0; kk < 12; kk++) {
        vgtest_randbytes(&seed, key, 32);
        if (kk % 3 == 0)
            memset(key + 16, 0, 16);
        if (kk % 3 == 1)
            memset(key + 16, 0xff, 16);
        if (kk == 4)
            memset(key, 0xff, 16); /* largest r */
        for (int v = 0; v < 10; v++) {
            mpz_set_ui(T, (unsigned long)v);
            gmp_target("T = small", key, T, &seed);
            mpz_sub_ui(T, p, (unsigned long)(v + 1));
            gmp_target("T = p - k", key, T, &seed);
        }
        for (int v = -3; v <= 3; v++) {
            mpz_set(T, two128);
            if (v < 0)
                mpz_sub_ui(T, T, (unsigned long)-v);
            else
                mpz_add_ui(T, T, (unsigned long)v);
            gmp_target("T = 2^128 + k", key, T, &seed);
            mpz_mul_2exp(T, two128, 1);
            if (v < 0)
                mpz_sub_ui(T, T, (unsigned long)-v);
            else
                mpz_add_ui(T, T, (unsigned long)v);
            gmp_target("T = 2^129 + k", key, T, &seed);
        }
        /* T mod 2^128 = 2^128 - 1 - s + 1: T + s crosses 2^128 by one. */
        mpz_import(T, 16, -1, 1, 0, 0, key + 16);
        mpz_sub(T, two128, T);
        gmp_target("T = 2^128 - s", key, T, &seed);
        mpz_add(T, T, two128);
        gmp_target("T = 2^129 - s", key, T, &seed);
    }
    mpz_clears(T, p, two128, NULL);
}

/* The accumulator set directly at the edges of each implementation's
 * invariant (aead.h documents the state layout): every limb at 0, 1, its
 * bound - 1 and its bound - 2, plus random values. Then
 *  - finish must give ((V mod p) + s) mod 2^128 for the value V the limbs
 *    represent (GMP), which covers V in [p, 2^130 + ...) and the s carry;
 *  - one block (all-0xff or random, full or padded-final) under the largest
 *    clamped r or a random r must give limbs that represent (V + m) r mod p
 *    and satisfy the invariant again: the bounds written beside the carries
 *    are then what the code does at its extremes. */
/* The state layout of each implementation: 'a' r44, 'b' r26, 'c' the
 * radix-2^64 words of mulx, avx2 and avx512ifma (h2 <= 4). A bound of 0
 * stands for 2^64. */
static int layout_of(const struct vg_poly1305_impl *impl)
{
    if (strcmp(impl->name, "r44") == 0)
        return 'a';
    if (strcmp(impl->name, "r26") == 0)
        return 'b';
    if (strcmp(impl->name, "mulx") == 0 || strcmp(impl->name, "avx512ifma") == 0 ||
        strcmp(impl->name, "avx2") == 0)
        return 'c';
    return 0;
}

static int state_limbs(const struct vg_poly1305_impl *impl, unsigned *n, unsigned *w,
                       uint64_t bound[5])
{
    switch (layout_of(impl)) {
    case 'a':
        *n = 3;
        *w = 44;
        bound[0] = (uint64_t)1 << 44;
        bound[1] = ((uint64_t)1 << 44) + 64;
        bound[2] = (uint64_t)1 << 42;
        return 1;
    case 'b':
        *n = 5;
        *w = 26;
        for (int i = 0; i < 5; i++)
            bound[i] = (uint64_t)1 << 26;
        bound[1] += 64;
        return 1;
    case 'c':
        *n = 3;
        *w = 64;
        bound[0] = bound[1] = 0; /* 2^64 */
        bound[2] = 5;
        return 1;
    default:
        return 0;
    }
}

static uint64_t get_limb(const struct vg_poly1305_impl *impl, const vg_poly1305_state *st, int i)
{
    switch (layout_of(impl)) {
    case 'a': return st->r44.h[i];
    case 'b': return st->r26.h[i];
    default: return st->r64.h[i];
    }
}

static void set_limb(const struct vg_poly1305_impl *impl, vg_poly1305_state *st, int i, uint64_t v)
{
    switch (layout_of(impl)) {
    case 'a': st->r44.h[i] = v; break;
    case 'b': st->r26.h[i] = (uint32_t)v; break;
    default: st->r64.h[i] = v; break;
    }
}

static void state_value(mpz_t v, const struct vg_poly1305_impl *impl, const vg_poly1305_state *st,
                        unsigned n, unsigned w)
{
    mpz_t t;
    mpz_init(t);
    mpz_set_ui(v, 0);
    for (int i = (int)n - 1; i >= 0; i--) {
        mpz_mul_2exp(v, v, w);
        mpz_set_ui(t, 0);
        mpz_import(t, 1, -1, sizeof(uint64_t), 0, 0, (uint64_t[]){get_limb(impl, st, i)});
        mpz_add(v, v, t);
    }
    mpz_clear(t);
}

/* Long: the edge-state loop does finish and one block per state, and each
 * needs its own GMP model of the limbs; split, the two halves would share
 * every local. */
static void test_poly_states(void)
{
    uint64_t seed = 0x7374617465733133ULL;
    mpz_t p, v, r, m, want, got, s;
    mpz_inits(p, v, r, m, want, got, s, NULL);
    mpz_ui_pow_ui(p, 2, 130);
    mpz_sub_ui(p, p, 5);
    for (int ii = 0; ii < g_npoly; ii++) {
        const struct vg_poly1305_impl *impl = g_poly[ii];
        unsigned n, w;
        uint64_t bound[5];
        if (!state_limbs(impl, &n, &w, bound))
            continue;
        unsigned combos = 1;
        for (unsigned i = 0; i < n; i++)
            combos *= 5;
        unsigned cases = 0, inv_fail = 0;
        for (unsigned cidx = 0; cidx < combos; cidx++)
            for (int kv = 0; kv < 3; kv++) {
                uint8_t key[32], tag[16], wtag[16], blk[16], rb[16];
                vg_poly1305_state st;
                vgtest_randbytes(&seed, key, 32);
                if (kv == 0)
                    memset(key, 0xff, 32); /* largest r, s = 2^128 - 1 */
                if (kv == 1)
                    memset(key, 0xff, 16);
                impl->init(&st, key);
                unsigned cc = cidx;
                for (unsigned i = 0; i < n; i++, cc /= 5) {
                    uint64_t b = bound[i], x;
                    switch (cc % 5) {
                    case 0: x = 0; break;
                    case 1: x = 1; break;
                    case 2: x = b - 1; break;
                    case 3: x = b - 2; break;
                    default: x = b ? vgtest_rand64(&seed) % b : vgtest_rand64(&seed); break;
                    }
                    set_limb(impl, &st, (int)i, x);
                }
                vg_poly1305_state st2 = st, st3 = st;
                /* finish */
                state_value(v, impl, &st, n, w);
                mpz_mod(want, v, p);
                mpz_import(s, 16, -1, 1, 0, 0, key + 16);
                mpz_add(want, want, s);
                mpz_fdiv_r_2exp(want, want, 128);
                memset(wtag, 0, 16);
                mpz_export(wtag, NULL, -1, 1, 0, 0, want);
                impl->finish(&st, tag);
                CHECK_MSG(memcmp(tag, wtag, 16) == 0, "%s finish at edge state %u", impl->name, cidx);
                /* one block */
                uint32_t hibit = (uint32_t)(cidx & 1);
                if (cidx % 3)
                    memset(blk, 0xff, 16);
                else
                    vgtest_randbytes(&seed, blk, 16);
                memcpy(rb, key, 16);
                rb[3] &= 15;
                rb[7] &= 15;
                rb[11] &= 15;
                rb[15] &= 15;
                rb[4] &= 252;
                rb[8] &= 252;
                rb[12] &= 252;
                mpz_import(r, 16, -1, 1, 0, 0, rb);
                mpz_import(m, 16, -1, 1, 0, 0, blk);
                if (hibit)
                    mpz_setbit(m, 128);
                state_value(v, impl, &st2, n, w);
                mpz_add(want, v, m);
                mpz_mul(want, want, r);
                mpz_mod(want, want, p);
                impl->blocks(&st2, blk, 1, hibit);
                state_value(got, impl, &st2, n, w);
                mpz_mod(got, got, p);
                CHECK_MSG(mpz_cmp(got, want) == 0, "%s block at edge state %u", impl->name, cidx);
                for (unsigned i = 0; i < n; i++)
                    if (bound[i] && get_limb(impl, &st2, (int)i) >= bound[i])
                        inv_fail++;
                /* From the same edge state, a run of 16 or 24 blocks (the
                 * 8-lane loops start from it), then finish, against GMP. */
                size_t nb = cidx & 2 ? 24 : 16;
                uint8_t run[16 * 24];
                if (cidx % 3)
                    memset(run, 0xff, sizeof run);
                else
                    vgtest_randbytes(&seed, run, sizeof run);
                state_value(want, impl, &st3, n, w);
                for (size_t b = 0; b < nb; b++) {
                    mpz_import(m, 16, -1, 1, 0, 0, run + 16 * b);
                    if (hibit)
                        mpz_setbit(m, 128);
                    mpz_add(want, want, m);
                    mpz_mul(want, want, r);
                    mpz_mod(want, want, p);
                }
                impl->blocks(&st3, run, nb, hibit);
                state_value(got, impl, &st3, n, w);
                mpz_mod(got, got, p);
                CHECK_MSG(mpz_cmp(got, want) == 0, "%s %zu blocks at edge state %u", impl->name, nb,
                          cidx);
                for (unsigned i = 0; i < n; i++)
                    if (bound[i] && get_limb(impl, &st3, (int)i) >= bound[i])
                        inv_fail++;
                mpz_add(want, want, s);
                mpz_fdiv_r_2exp(want, want, 128);
                memset(wtag, 0, 16);
                mpz_export(wtag, NULL, -1, 1, 0, 0, want);
                impl->finish(&st3, tag);
                CHECK_MSG(memcmp(tag, wtag, 16) == 0, "%s finish after %zu blocks at edge state %u",
                          impl->name, nb, cidx);
                cases++;
            }
        CHECK_MSG(inv_fail == 0, "%s: %u limbs outside the invariant", impl->name, inv_fail);
        printf("poly1305 %s: %u edge states (finish, one block, a 16- or 24-block run each)\n", impl->name, cases);
    }
    mpz_clears(p, v, r, m, want, got, s, NULL);
}

/* The incremental core (aead.h): random splits into whole-block pieces plus
 * a last piece of any length give the one-shot bytes; decrypt + verify
 * accept them and reject a wrong tag; a piece after a partial one, and a
 * total over P_MAX, are refused with nothing written. */
static void test_stream(void) /* long: the random splits, then each refusal */
{
    uint64_t seed = 0x73747265616d3135ULL;
    static uint8_t pt[20000], ct[20000], ct2[20000], back[20000];
    uint8_t key[32], nonce[24], ad[300], tag[16], tag2[16];
    for (int i = 0; i < 400; i++) {
        int x = i & 1;
        const struct vg_chacha20_impl *ci = g_chacha[(size_t)i % (size_t)g_nchacha];
        const struct vg_poly1305_impl *pi = g_poly[(size_t)(i / 2) % (size_t)g_npoly];
        size_t len = (size_t)(vgtest_rand64(&seed) % (i < 200 ? 600 : sizeof pt));
        size_t ad_len = (size_t)(vgtest_rand64(&seed) % sizeof ad);
        vgtest_randbytes(&seed, key, 32);
        vgtest_randbytes(&seed, nonce, 24);
        vgtest_randbytes(&seed, ad, ad_len);
        vgtest_randbytes(&seed, pt, len);
        CHECK(vg_aead_seal_impl(ci, pi, x, ct, tag, pt, len, ad, ad_len, nonce, key) == VG_OK);
        vg_aead_stream st;
        vg_aead_stream_init(&st, ci, pi, x, nonce, key, ad, ad_len);
        size_t off = 0;
        while (off < len) {
            /* 0 to 80 blocks, or the whole rest; empty pieces too. */
            size_t m = 64 * (size_t)(vgtest_rand64(&seed) % 81);
            if (m > len - off || vgtest_rand64(&seed) % 8 == 0)
                m = len - off;
            CHECK(vg_aead_stream_encrypt(&st, ct2 + off, pt + off, m) == VG_OK);
            off += m;
        }
        vg_aead_stream_tag(&st, tag2);
        CHECK_MSG(memcmp(ct2, ct, len) == 0 && memcmp(tag2, tag, 16) == 0,
                  "stream seal len %zu on %s/%s", len, ci->name, pi->name);
        /* Decrypt in place in pieces, then verify. */
        memcpy(back, ct, len);
        vg_aead_stream_init(&st, ci, pi, x, nonce, key, ad, ad_len);
        for (off = 0; off < len;) {
            size_t m = 64 * (size_t)(vgtest_rand64(&seed) % 81);
            if (m > len - off)
                m = len - off;
            CHECK(vg_aead_stream_decrypt(&st, back + off, back + off, m) == VG_OK);
            off += m;
        }
        CHECK(vg_aead_stream_verify(&st, tag) == VG_OK);
        CHECK_MSG(memcmp(back, pt, len) == 0, "stream open len %zu", len);
        vg_aead_stream_init(&st, ci, pi, x, nonce, key, ad, ad_len);
        CHECK(vg_aead_stream_decrypt(&st, back, ct, len) == VG_OK);
        tag2[0] = (uint8_t)(tag[0] ^ 0x40);
        memcpy(tag2 + 1, tag + 1, 15);
        CHECK(vg_aead_stream_verify(&st, tag2) == VG_ERR_VERIFY);
    }
    /* A piece after a partial one: refused, nothing written. */
    vg_aead_stream st;
    vg_aead_stream_init(&st, g_chacha[0], g_poly[0], 0, nonce, key, NULL, 0);
    CHECK(vg_aead_stream_encrypt(&st, ct, pt, 100) == VG_OK);
    memset(ct2, 0x77, 64);
    CHECK(vg_aead_stream_encrypt(&st, ct2, pt, 64) == VG_ERR_INPUT);
    CHECK(vg_aead_stream_encrypt(&st, ct2, pt, 0) == VG_OK);
    CHECK(ct2[0] == 0x77 && ct2[63] == 0x77);
    vg_aead_stream_tag(&st, tag);
    CHECK(vg_aead_seal_impl(g_chacha[0], g_poly[0], 0, ct2, tag2, pt, 100, NULL, 0, nonce, key) ==
          VG_OK);
    CHECK(memcmp(ct, ct2, 100) == 0 && memcmp(tag, tag2, 16) == 0);
    /* The total length: P_MAX bytes at most. The state is moved to just
     * below the limit by hand (s.len and s.counter as after P_MAX - 128
     * bytes). */
    vg_aead_stream_init(&st, g_chacha[0], g_poly[0], 0, nonce, key, NULL, 0);
    st.len = VG_AEAD_MAXLEN - 128;
    st.counter = (uint32_t)(1 + st.len / 64);
    memset(ct2, 0x77, 256);
    CHECK(vg_aead_stream_encrypt(&st, ct2, pt, 129) == VG_ERR_INPUT);
    CHECK(ct2[0] == 0x77 && ct2[128] == 0x77);
    CHECK(vg_aead_stream_encrypt(&st, ct2, pt, 64) == VG_OK);
    CHECK(vg_aead_stream_encrypt(&st, ct2 + 64, pt + 64, 64) == VG_OK);
    CHECK(st.counter == 0); /* past block 2^32 - 1: the unused wrap */
    CHECK(vg_aead_stream_encrypt(&st, ct2, pt, 1) == VG_ERR_INPUT);
    /* The last two blocks are keystream blocks 2^32 - 2 and 2^32 - 1. */
    uint8_t n12[12];
    memcpy(n12, nonce, 12);
    CHECK(crypto_stream_chacha20_ietf_xor_ic(back, pt, 128, n12, 0xfffffffeu, key) == 0);
    CHECK(memcmp(back, ct2, 128) == 0);
    vg_aead_stream_tag(&st, tag);
}

/* ---- wrong tags, NULL and length rules, the counter ------------------------------------ */

static void test_reject(void)
{
    uint64_t seed = 0x72656a6563740a00ULL;
    uint8_t key[32], nonce[24], ad[40], pt[200], ct[200], tag[16], bad[16], out[201];
    vgtest_randbytes(&seed, key, 32);
    vgtest_randbytes(&seed, nonce, 24);
    vgtest_randbytes(&seed, ad, sizeof ad);
    vgtest_randbytes(&seed, pt, sizeof pt);
    for (int x = 0; x < 2; x++)
        for (int c = 0; c < g_nchacha; c++)
            for (int p = 0; p < g_npoly; p++) {
                const struct vg_chacha20_impl *ci = g_chacha[c];
                const struct vg_poly1305_impl *pi = g_poly[p];
                size_t len = sizeof pt;
                CHECK(vg_aead_seal_impl(ci, pi, x, ct, tag, pt, len, ad, sizeof ad, nonce, key) ==
                      VG_OK);
                /* Every single-bit change of the tag. */
                for (int bit = 0; bit < 128; bit++) {
                    memcpy(bad, tag, 16);
                    bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                    memset(out, 0x5a, sizeof out);
                    CHECK(vg_aead_open_impl(ci, pi, x, out, ct, len, bad, ad, sizeof ad, nonce,
                                            key) == VG_ERR_VERIFY);
                    CHECK(is_zero(out, len) && out[len] == 0x5a);
                }
                /* A changed ciphertext byte, AD byte, nonce byte, key byte,
                 * shorter AD or ciphertext. */
                for (int what = 0; what < 6; what++) {
                    uint8_t c2[200], a2[40], n2[24], k2[32];
                    size_t alen = sizeof ad, clen = len;
                    memcpy(c2, ct, len);
                    memcpy(a2, ad, sizeof ad);
                    memcpy(n2, nonce, 24);
                    memcpy(k2, key, 32);
                    if (what == 0)
                        c2[vgtest_rand64(&seed) % len] ^= 1;
                    if (what == 1)
                        a2[vgtest_rand64(&seed) % sizeof ad] ^= 0x80;
                    if (what == 2)
                        n2[vgtest_rand64(&seed) % (x ? 24 : 12)] ^= 4;
                    if (what == 3)
                        k2[vgtest_rand64(&seed) % 32] ^= 0x10;
                    if (what == 4)
                        alen--;
                    if (what == 5)
                        clen--;
                    memset(out, 0x5a, sizeof out);
                    CHECK(vg_aead_open_impl(ci, pi, x, out, c2, clen, tag, a2, alen, n2, k2) ==
                          VG_ERR_VERIFY);
                    CHECK(is_zero(out, clen) && out[clen] == 0x5a);
                }
                /* In place with a wrong tag: the buffer is zeroed. */
                memcpy(out, ct, len);
                memcpy(bad, tag, 16);
                bad[15] ^= 0x80;
                CHECK(vg_aead_open_impl(ci, pi, x, out, out, len, bad, ad, sizeof ad, nonce, key) ==
                      VG_ERR_VERIFY);
                CHECK(is_zero(out, len));
                /* Empty message, wrong tag. */
                memcpy(bad, tag, 16);
                CHECK(vg_aead_seal_impl(ci, pi, x, NULL, bad, NULL, 0, NULL, 0, nonce, key) ==
                      VG_OK);
                CHECK(vg_aead_open_impl(ci, pi, x, NULL, NULL, 0, bad, NULL, 0, nonce, key) ==
                      VG_OK);
                bad[0] ^= 1;
                CHECK(vg_aead_open_impl(ci, pi, x, NULL, NULL, 0, bad, NULL, 0, nonce, key) ==
                      VG_ERR_VERIFY);
            }
}

/* Long: one line per rule of DESIGN section 2 for each public function, so
 * that the rules read as a list. */
static void test_api_rules(void)
{
    uint8_t key[32] = {1}, nonce[24] = {2}, ad[8] = {3}, pt[64] = {4}, ct[64], tag[16], out[64];
    typedef int (*seal_fn)(uint8_t *, uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t,
                           const uint8_t *, const uint8_t *);
    typedef int (*open_fn)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *,
                           size_t, const uint8_t *, const uint8_t *);
    seal_fn seals[2] = {vg_chacha20poly1305_seal, vg_xchacha20poly1305_seal};
    open_fn opens[2] = {vg_chacha20poly1305_open, vg_xchacha20poly1305_open};

    for (int x = 0; x < 2; x++) {
        seal_fn seal = seals[x];
        open_fn open = opens[x];
        /* seal: NULL fixed-size buffers or NULL with a length: VG_ERR_INPUT,
         * tag and ct zeroed. */
#define SEAL_NULL(ct_, tag_, pt_, len_, ad_, adl_, n_, k_)                                          \
    do {                                                                                           \
        memset(ct, 0x77, sizeof ct);                                                               \
        memset(tag, 0x77, sizeof tag);                                                             \
        CHECK(seal(ct_, tag_, pt_, len_, ad_, adl_, n_, k_) == VG_ERR_INPUT);                      \
        CHECK(is_zero(tag, 16) || (tag_) == NULL);                                                 \
        CHECK(is_zero(ct, sizeof ct) || (ct_) == NULL);                                            \
    } while (0)
        SEAL_NULL(ct, tag, pt, 64, ad, 8, nonce, NULL);
        SEAL_NULL(ct, tag, pt, 64, ad, 8, NULL, key);
        SEAL_NULL(ct, tag, NULL, 64, ad, 8, nonce, key);
        SEAL_NULL(ct, tag, pt, 64, NULL, 8, nonce, key);
        SEAL_NULL(NULL, tag, pt, 64, ad, 8, nonce, key);
        SEAL_NULL(ct, NULL, pt, 64, ad, 8, nonce, key);
#undef SEAL_NULL
        /* NULL with zero lengths is fine. */
        CHECK(seal(NULL, tag, NULL, 0, NULL, 0, nonce, key) == VG_OK);
        CHECK(open(NULL, NULL, 0, tag, NULL, 0, nonce, key) == VG_OK);
        CHECK(seal(ct, tag, pt, 64, ad, 8, nonce, key) == VG_OK);
        /* open: a verification function, so NULLs give VG_ERR_VERIFY, pt
         * zeroed. */
#define OPEN_NULL(pt_, ct_, len_, tag_, ad_, adl_, n_, k_)                                          \
    do {                                                                                           \
        memset(out, 0x77, sizeof out);                                                             \
        CHECK(open(pt_, ct_, len_, tag_, ad_, adl_, n_, k_) == VG_ERR_VERIFY);                     \
        CHECK(is_zero(out, sizeof out) || (pt_) == NULL);                                          \
    } while (0)
        OPEN_NULL(out, ct, 64, tag, ad, 8, nonce, NULL);
        OPEN_NULL(out, ct, 64, tag, ad, 8, NULL, key);
        OPEN_NULL(out, ct, 64, NULL, ad, 8, nonce, key);
        OPEN_NULL(out, ct, 64, tag, NULL, 8, nonce, key);
        OPEN_NULL(out, NULL, 64, tag, ad, 8, nonce, key);
        OPEN_NULL(NULL, ct, 64, tag, ad, 8, nonce, key);
#undef OPEN_NULL
        CHECK(open(out, ct, 64, tag, ad, 8, nonce, key) == VG_OK);
        CHECK(memcmp(out, pt, 64) == 0);
        /* len above RFC 8439's P_MAX = 2^38 - 64: VG_ERR_INPUT; seal zeroes
         * the tag and leaves ct alone, open leaves pt alone (the buffers
         * here are small on purpose: neither may be written). */
        if (sizeof(size_t) >= 8) {
            size_t big = (size_t)VG_AEAD_MAXLEN + 1;
            memset(ct, 0x77, sizeof ct);
            memset(tag, 0x77, sizeof tag);
            CHECK(seal(ct, tag, pt, big, ad, 8, nonce, key) == VG_ERR_INPUT);
            CHECK(is_zero(tag, 16) && ct[0] == 0x77 && ct[63] == 0x77);
            memset(out, 0x77, sizeof out);
            CHECK(open(out, ct, big, tag, ad, 8, nonce, key) == VG_ERR_INPUT);
            CHECK(out[0] == 0x77 && out[63] == 0x77);
            CHECK(seal(ct, tag, pt, (size_t)-1, ad, 8, nonce, key) == VG_ERR_INPUT);
        }
    }
    CHECK(VG_AEAD_MAXLEN == (((uint64_t)1 << 32) - 1) * 64);

    /* vg_poly1305 */
    memset(tag, 0x77, 16);
    CHECK(vg_poly1305(tag, NULL, 1, key) == VG_ERR_INPUT && is_zero(tag, 16));
    memset(tag, 0x77, 16);
    CHECK(vg_poly1305(tag, pt, 1, NULL) == VG_ERR_INPUT && is_zero(tag, 16));
    CHECK(vg_poly1305(NULL, pt, 1, key) == VG_ERR_INPUT);
    CHECK(vg_poly1305(tag, NULL, 0, key) == VG_OK);

    /* vg_chacha20: NULLs */
    memset(out, 0x77, sizeof out);
    CHECK(vg_chacha20(out, NULL, 64, nonce, 0, key) == VG_ERR_INPUT && is_zero(out, 64));
    memset(out, 0x77, sizeof out);
    CHECK(vg_chacha20(out, pt, 64, NULL, 0, key) == VG_ERR_INPUT && is_zero(out, 64));
    memset(out, 0x77, sizeof out);
    CHECK(vg_chacha20(out, pt, 64, nonce, 0, NULL) == VG_ERR_INPUT && is_zero(out, 64));
    CHECK(vg_chacha20(NULL, pt, 64, nonce, 0, key) == VG_ERR_INPUT);
    CHECK(vg_chacha20(NULL, NULL, 0, nonce, 0, key) == VG_OK);
}

/* The 32-bit block counter: the last blocks before 2^32 agree with
 * libsodium; a length needing one more block is VG_ERR_INPUT, out untouched. */
static void test_counter_limit(void)
{
    uint8_t key[32], nonce[12], in[256], a[256], b[256];
    uint64_t seed = 0x636f756e74657221ULL;
    vgtest_randbytes(&seed, key, 32);
    vgtest_randbytes(&seed, nonce, 12);
    vgtest_randbytes(&seed, in, sizeof in);
    for (uint32_t back = 1; back <= 3; back++) {
        uint32_t counter = (uint32_t)(((uint64_t)1 << 32) - back);
        for (size_t len = 64 * back - 63; len <= 64 * back; len += 21) {
            CHECK(vg_chacha20(a, in, len, nonce, counter, key) == VG_OK);
            CHECK(crypto_stream_chacha20_ietf_xor_ic(b, in, len, nonce, counter, key) == 0);
            CHECK_MSG(memcmp(a, b, len) == 0, "counter %u len %zu", counter, len);
        }
        memset(a, 0x77, sizeof a);
        CHECK(vg_chacha20(a, in, 64 * back + 1, nonce, counter, key) == VG_ERR_INPUT);
        CHECK(a[0] == 0x77 && a[255] == 0x77);
    }
    CHECK(vg_chacha20_len_ok(64, 0xffffffffu));
    CHECK(!vg_chacha20_len_ok(65, 0xffffffffu));
    CHECK(vg_chacha20_len_ok((size_t)1 << 30, 0));
    if (sizeof(size_t) >= 8) {
        CHECK(vg_chacha20_len_ok((size_t)((uint64_t)1 << 38), 0));
        CHECK(!vg_chacha20_len_ok((size_t)((uint64_t)1 << 38) + 1, 0));
        CHECK(vg_chacha20_len_ok((size_t)VG_AEAD_MAXLEN, 1));
        CHECK(!vg_chacha20_len_ok((size_t)VG_AEAD_MAXLEN + 1, 1));
        CHECK(!vg_chacha20_len_ok((size_t)-1, 0));
        memset(a, 0x77, sizeof a);
        CHECK(vg_chacha20(a, in, (size_t)((uint64_t)1 << 38) + 1, nonce, 0, key) == VG_ERR_INPUT);
        CHECK(a[0] == 0x77);
    }
}

int main(void)
{
    if (sodium_init() < 0) {
        fprintf(stderr, "sodium_init failed\n");
        return 1;
    }
    /* Each test function under RUN: its own count of failures is printed
     * when not zero, so a broken kernel shows which tests see it. */
#define RUN(call)                                                                                  \
    do {                                                                                           \
        unsigned long before_ = vgtest_failed;                                                     \
        call;                                                                                      \
        if (vgtest_failed != before_)                                                              \
            fprintf(stderr, "%s: %lu failed\n", #call, vgtest_failed - before_);                   \
    } while (0)
    RUN(collect_impls());
    RUN(test_rfc_chacha20());
    RUN(test_rfc_poly1305());
    RUN(test_rfc_aead());
    RUN(test_xchacha_draft());
    RUN(test_wycheproof_file("wycheproof/chacha20_poly1305_test.json", 0, 325));
    RUN(test_wycheproof_file("wycheproof/xchacha20_poly1305_test.json", 1, 315));
    RUN(test_differential_chacha20());
    RUN(test_differential_poly1305());
    RUN(test_chacha_variants());
    RUN(test_poly_variants());
    RUN(test_page_edges());
    RUN(test_differential_aead());
    RUN(test_gmp_poly1305());
    RUN(test_gmp_targets());
    RUN(test_poly_states());
    RUN(test_stream());
    RUN(test_reject());
    RUN(test_api_rules());
    RUN(test_counter_limit());
    return vgtest_done("test_aead");
}
