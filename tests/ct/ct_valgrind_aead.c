/*
 * ChaCha20-Poly1305 (RFC 8439 2.8) and XChaCha20-Poly1305
 * (draft-irtf-cfrg-xchacha-03) constant-time check under valgrind memcheck:
 * the secrets are marked undefined, and memcheck reports any branch or
 * memory address computed from them ("Conditional jump or move depends on
 * uninitialised value(s)", "Use of uninitialised value of size 8"). Run
 * through run_valgrind.sh (`valgrind --error-exitcode=1`), so any report
 * fails the test.
 *
 * Secrets: the 32-byte key (and so the ChaCha20 keystream, the HChaCha20
 * subkey and the one-time Poly1305 key of RFC 8439 2.6 derived from it) and
 * the plaintext, through seal; the key through open, with the right tag and
 * with a wrong one. Nonce, AD, ciphertext and tag are public (RFC 8439
 * section 4: the nonce and AD travel in the clear, the ciphertext and tag
 * are sent) and stay defined. Raw Poly1305 with a secret one-time key and a
 * secret message, and raw ChaCha20 with a secret key and secret input.
 *
 * The one value the library declassifies is the tag verdict
 * (vg_aead_stream_verify in src/aead/aead.c: VG_CT_DECLASSIFY on the
 * result of vg_ct_memcmp; the caller learns it from the return value).
 * Everything else stays secret to the end: the harness declassifies
 * outputs only after the call has returned, to compare them with the
 * portable implementation's on the same inputs. On a wrong tag, open must
 * have zeroed pt, so the harness reads pt there without declassifying it:
 * a byte left secret would be a report.
 *
 * Each operation runs for every pair of a ChaCha20 and a Poly1305
 * implementation that valgrind can execute (portable, avx2_rows and avx2
 * ChaCha20; r44, r26, mulx and avx2 Poly1305), selected through their
 * `_get` functions with the CPU mask forced to what valgrind runs; the
 * AVX-512 variants (chacha20/avx512, poly1305/avx512ifma: EVEX, SIGILL in
 * valgrind 3.19) are skipped with a printed reason and covered by
 * test_dudect_aead. The public functions run once with the dispatch.
 *
 * Usage:
 *   ct_valgrind_aead --detect        print vg_cpu_detected() (run natively)
 *   ct_valgrind_aead [--force MASK]  the checks above
 *   ct_valgrind_aead [--force MASK] --leaky
 *       the leaky control: the AEAD tag of a secret key compared with the
 *       received one by an early-exit byte loop (as memcmp), with no
 *       declassification. memcheck must report it (ctest expects this run
 *       to fail): it shows that the key's taint reaches the tag through the
 *       library, so that the clean run above means the real comparison is
 *       branch-free up to the declassified verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "aead/aead.h"
#include "common.h"
#include "vgtest.h"
#include "ct_valgrind_main.h"

#define VG_CT_SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))

#if !defined(VG_CT_TESTING)
#error "ct_valgrind_aead must link the constant-time test build of the library (vgcrypto_ct)"
#endif

/* Lengths below, at and across the 16-byte Poly1305 block, the 64-byte
 * ChaCha20 block, the 4- and 8-block row and lane paths (256, 512 bytes),
 * the 16-block runs of the vector Poly1305 (256 bytes), the 16-block
 * AVX-512 ChaCha20 (1024, not run here but the same tail paths) and the
 * 4096-byte chunk of src/aead/aead.c. */
static const size_t g_lens[] = {0,   1,   15,  16,  17,   63,   64,   65,   127,  128, 255,
                                256, 257, 511, 512, 513, 1023, 1024, 1025, 4095, 4096, 4097,
                                5000};
#define N_LENS (sizeof g_lens / sizeof g_lens[0])
#define MAX_LEN 5000
#define MAX_AD 40

static uint8_t g_key[32], g_nonce[24], g_ad[MAX_AD], g_pt[MAX_LEN];

/* AD length per message: public, varied so that pad16(AD) takes every
 * shape (0, 13 as in TLS 1.3, 16, 33). */
static size_t ad_len_for(size_t i)
{
    static const size_t a[] = {0, 13, 16, 33};
    return a[i % 4];
}

/* Fresh secret copies of the key and of the first len plaintext bytes. */
static void secret_key(uint8_t key[32])
{
    memcpy(key, g_key, 32);
    VG_CT_SECRET(key, 32);
}

static void secret_pt(uint8_t *pt, size_t len)
{
    memcpy(pt, g_pt, len);
    if (len)
        VG_CT_SECRET(pt, len);
}

/* The harness's own cross-check, after the routine under test returned:
 * what is compared is what the caller receives (ciphertext and tag are
 * sent; the opened plaintext is the caller's), so declassifying it here
 * cannot hide a leak inside the routine. */
static void check_same(const char *what, size_t len, uint8_t *got, const uint8_t *want,
                       size_t n)
{
    if (n)
        VG_CT_DECLASSIFY(got, n);
    CHECK_MSG(n == 0 || memcmp(got, want, n) == 0, "%s len %zu differs from portable", what, len);
}

/* ---- one pair of implementations ---------------------------------------- */

static void run_pair(const struct vg_chacha20_impl *c, const struct vg_poly1305_impl *p)
{
    static uint8_t pt[MAX_LEN], ct[MAX_LEN], ref_ct[MAX_LEN];
    const struct vg_chacha20_impl *c0 = vg_chacha20_portable_get();
    const struct vg_poly1305_impl *p0 = vg_poly1305_r26_get();
    uint8_t key[32], tag[16], ref_tag[16], bad[16];
    char what[96];
    for (int x = 0; x < 2; x++) {
        const char *aead = x ? "xchacha20-poly1305" : "chacha20-poly1305";
        for (size_t i = 0; i < N_LENS; i++) {
            size_t len = g_lens[i], ad_len = ad_len_for(i);
            /* Reference on defined inputs: portable ChaCha20 and r26. */
            CHECK(vg_aead_seal_impl(c0, p0, x, ref_ct, ref_tag, g_pt, len, g_ad, ad_len, g_nonce,
                                    g_key) == VG_OK);

            /* seal: key and plaintext secret. The return code is a
             * constant (VG_OK): defined unless the routine made it depend
             * on a secret, which memcheck would report here. */
            secret_key(key);
            secret_pt(pt, len);
            int rc = vg_aead_seal_impl(c, p, x, ct, tag, pt, len, g_ad, ad_len, g_nonce, key);
            CHECK(rc == VG_OK);
            snprintf(what, sizeof what, "%s seal %s+%s ct", aead, c->name, p->name);
            check_same(what, len, ct, ref_ct, len);
            snprintf(what, sizeof what, "%s seal %s+%s tag", aead, c->name, p->name);
            check_same(what, len, tag, ref_tag, 16);

            /* seal in place (pt == ct). */
            secret_key(key);
            secret_pt(pt, len);
            CHECK(vg_aead_seal_impl(c, p, x, pt, tag, pt, len, g_ad, ad_len, g_nonce, key) ==
                  VG_OK);
            snprintf(what, sizeof what, "%s seal in place %s+%s", aead, c->name, p->name);
            check_same(what, len, pt, ref_ct, len);
            check_same(what, len, tag, ref_tag, 16);

            /* open, right tag: key secret; the verdict is defined because
             * the library declassifies it (and only it). */
            secret_key(key);
            rc = vg_aead_open_impl(c, p, x, pt, ref_ct, len, ref_tag, g_ad, ad_len, g_nonce, key);
            CHECK_MSG(rc == VG_OK, "%s open %s+%s len %zu: %d", aead, c->name, p->name, len, rc);
            snprintf(what, sizeof what, "%s open %s+%s pt", aead, c->name, p->name);
            check_same(what, len, pt, g_pt, len);

            /* open in place. */
            memcpy(ct, ref_ct, len);
            secret_key(key);
            rc = vg_aead_open_impl(c, p, x, ct, ct, len, ref_tag, g_ad, ad_len, g_nonce, key);
            CHECK(rc == VG_OK);
            snprintf(what, sizeof what, "%s open in place %s+%s pt", aead, c->name, p->name);
            check_same(what, len, ct, g_pt, len);

            /* open, wrong tag (one bit flipped, at a position that moves
             * with the length): VG_ERR_VERIFY and pt all zero, read with
             * no declassification (the wipe writes constants). */
            memcpy(bad, ref_tag, 16);
            bad[i % 16] ^= (uint8_t)(1u << (i % 8));
            secret_key(key);
            memset(pt, 0xa5, len);
            rc = vg_aead_open_impl(c, p, x, pt, ref_ct, len, bad, g_ad, ad_len, g_nonce, key);
            CHECK_MSG(rc == VG_ERR_VERIFY, "%s open %s+%s len %zu wrong tag: %d", aead, c->name,
                      p->name, len, rc);
            int nonzero = 0;
            for (size_t k = 0; k < len; k++)
                nonzero |= pt[k];
            CHECK_MSG(nonzero == 0, "%s open %s+%s len %zu wrong tag: pt not zeroed", aead,
                      c->name, p->name, len);
        }
    }
    printf("  checked %-10s + %-8s seal, open (right and wrong tag), in place, both AEADs, "
           "%zu lengths\n", c->name, p->name, N_LENS);
}

/* Raw Poly1305 with a secret one-time key and a secret message, split in
 * two updates (the buffering path), against r26 on defined inputs. */
static void run_poly1305(const struct vg_poly1305_impl *p)
{
    static uint8_t msg[MAX_LEN];
    uint8_t key[32], tag[16], ref[16];
    vg_poly1305_ctx ctx;
    for (size_t i = 0; i < N_LENS; i++) {
        size_t len = g_lens[i];
        vg_poly1305_init(&ctx, vg_poly1305_r26_get(), g_key);
        vg_poly1305_update(&ctx, g_pt, len);
        vg_poly1305_final(&ctx, ref);
        secret_key(key);
        secret_pt(msg, len);
        vg_poly1305_init(&ctx, p, key);
        vg_poly1305_update(&ctx, msg, len / 3);
        vg_poly1305_update(&ctx, msg + len / 3, len - len / 3);
        vg_poly1305_final(&ctx, tag);
        check_same(p->name, len, tag, ref, 16);
    }
    printf("  checked poly1305/%-8s secret key and message, %zu lengths\n", p->name, N_LENS);
}

/* Raw ChaCha20 with a secret key and secret input, from block counter 1. */
static void run_chacha20(const struct vg_chacha20_impl *c)
{
    static uint8_t buf[MAX_LEN], ref[MAX_LEN];
    uint8_t key[32];
    uint32_t k[8], n[3];
    vg_chacha20_load_nonce(n, g_nonce);
    for (size_t i = 0; i < N_LENS; i++) {
        size_t len = g_lens[i];
        vg_chacha20_load_key(k, g_key);
        vg_chacha20_xor(vg_chacha20_portable_get(), ref, g_pt, len, k, n, 1);
        secret_key(key);
        vg_chacha20_load_key(k, key);
        secret_pt(buf, len);
        vg_chacha20_xor(c, buf, buf, len, k, n, 1);
        check_same(c->name, len, buf, ref, len);
    }
    vg_wipe(k, sizeof k);
    printf("  checked chacha20/%-9s secret key and input, %zu lengths\n", c->name, N_LENS);
}

/* The public functions with whatever the dispatch picks. */
static void run_api(void)
{
    static uint8_t pt[MAX_LEN], ct[MAX_LEN], ref_ct[MAX_LEN], out[MAX_LEN];
    uint8_t key[32], tag[16], ref_tag[16];
    for (size_t i = 0; i < N_LENS; i++) {
        size_t len = g_lens[i], ad_len = ad_len_for(i);
        CHECK(vg_aead_seal_impl(vg_chacha20_portable_get(), vg_poly1305_r26_get(), 0, ref_ct,
                                ref_tag, g_pt, len, g_ad, ad_len, g_nonce, g_key) == VG_OK);
        secret_key(key);
        secret_pt(pt, len);
        CHECK(vg_chacha20poly1305_seal(ct, tag, pt, len, g_ad, ad_len, g_nonce, key) == VG_OK);
        check_same("api chacha20poly1305_seal", len, ct, ref_ct, len);
        check_same("api chacha20poly1305_seal tag", len, tag, ref_tag, 16);
        secret_key(key);
        CHECK(vg_chacha20poly1305_open(out, ref_ct, len, ref_tag, g_ad, ad_len, g_nonce, key) ==
              VG_OK);
        check_same("api chacha20poly1305_open", len, out, g_pt, len);

        CHECK(vg_aead_seal_impl(vg_chacha20_portable_get(), vg_poly1305_r26_get(), 1, ref_ct,
                                ref_tag, g_pt, len, g_ad, ad_len, g_nonce, g_key) == VG_OK);
        secret_key(key);
        secret_pt(pt, len);
        CHECK(vg_xchacha20poly1305_seal(ct, tag, pt, len, g_ad, ad_len, g_nonce, key) == VG_OK);
        check_same("api xchacha20poly1305_seal", len, ct, ref_ct, len);
        check_same("api xchacha20poly1305_seal tag", len, tag, ref_tag, 16);
        secret_key(key);
        ref_tag[0] ^= 1;
        CHECK(vg_xchacha20poly1305_open(out, ref_ct, len, ref_tag, g_ad, ad_len, g_nonce, key) ==
              VG_ERR_VERIFY);

        secret_key(key);
        secret_pt(pt, len);
        CHECK(vg_chacha20(ct, pt, len, g_nonce, 7, key) == VG_OK);
        secret_key(key);
        secret_pt(pt, len);
        CHECK(vg_poly1305(tag, pt, len, key) == VG_OK);
    }
    printf("  checked api: vg_chacha20poly1305_seal/open, vg_xchacha20poly1305_seal/open, "
           "vg_chacha20, vg_poly1305 (chacha20 %s, poly1305 %s)\n",
           vg_chacha20_active()->name, vg_poly1305_active()->name);
}

/* ---- leaky control ------------------------------------------------------ */

static volatile int g_sink;

/* Returns at the first differing byte: the variable-time comparison that
 * vg_ct_memcmp exists to avoid. */
__attribute__((noinline)) static int early_exit_compare(const uint8_t *a, const uint8_t *b,
                                                        size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 1;
    return 0;
}

static void run_leaky(void)
{
    static uint8_t pt[256];
    uint8_t key[32], want[16], got[16];
    vg_aead_stream s;
    CHECK(vg_aead_seal_impl(vg_chacha20_portable_get(), vg_poly1305_r26_get(), 0, pt, got, g_pt,
                            sizeof pt, NULL, 0, g_nonce, g_key) == VG_OK);
    secret_key(key);
    vg_aead_stream_init(&s, vg_chacha20_portable_get(), vg_poly1305_r26_get(), 0, g_nonce, key,
                        NULL, 0);
    CHECK(vg_aead_stream_decrypt(&s, pt, pt, sizeof pt) == VG_OK);
    vg_aead_stream_tag(&s, want); /* computed from the secret key */
    g_sink = early_exit_compare(want, got, 16);
    printf("  ran the leaky control (memcheck must report it)\n");
}

int main(int argc, char **argv)
{
    struct vg_ctv_opts opt;
    int rc = vg_ctv_parse(argc, argv, "ct_valgrind_aead", 0, &opt);
    if (rc >= 0)
        return rc;
    for (size_t i = 0; i < 32; i++)
        g_key[i] = (uint8_t)(0x80 + 3 * i);
    for (size_t i = 0; i < 24; i++)
        g_nonce[i] = (uint8_t)(0x40 + i);
    for (size_t i = 0; i < MAX_AD; i++)
        g_ad[i] = (uint8_t)(0x50 + 7 * i);
    for (size_t i = 0; i < MAX_LEN; i++)
        g_pt[i] = (uint8_t)(i * 131 + 7);
    vg_cpu_force(opt.runnable);

    if (opt.leaky) {
        run_leaky();
        return 0;
    }

    if (opt.on_valgrind && (opt.avail & NO_VALGRIND_AVX512))
        printf("  SKIP    chacha20/avx512, poly1305/avx512ifma: AVX-512, which valgrind 3.19 "
               "cannot execute (covered by test_dudect_aead)\n");
    /* The _get functions under the forced (runnable) mask: NULL for what
     * this CPU or valgrind lacks. */
    const struct vg_chacha20_impl *cs[] = {vg_chacha20_portable_get(),
                                           vg_chacha20_avx2_rows_get(), vg_chacha20_avx2_get(),
                                           vg_chacha20_avx512_get()};
    const struct vg_poly1305_impl *ps[] = {vg_poly1305_r64_get(), vg_poly1305_r44_get(), vg_poly1305_r26_get(),
                                           vg_poly1305_mulx_get(), vg_poly1305_avx2_get(),
                                           vg_poly1305_ifma_get()};
    for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++)
        if (ps[j])
            run_poly1305(ps[j]);
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        if (cs[i])
            run_chacha20(cs[i]);
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++)
            if (cs[i] && ps[j])
                run_pair(cs[i], ps[j]);
    run_api();
    return vgtest_done("ct_valgrind_aead");
}
