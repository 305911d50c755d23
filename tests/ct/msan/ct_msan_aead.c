/*
 * MemorySanitizer taint check of ChaCha20, Poly1305 and the AEADs
 * (tests/ct_msan.cmake; docs/constant-time.md, "MemorySanitizer"), until the
 * valgrind harness has AEAD rows that ct_msan then runs too. Natively, so
 * every variant the CPU has runs: ChaCha20 portable, avx2_rows, avx2,
 * avx512; Poly1305 r44, r26, mulx, avx2, avx512ifma.
 *
 * Secrets (poisoned): the key, the plaintext, the Poly1305 one-time key and
 * message. Declassified: outputs compared with the portable variant's (the
 * harness's own cross-check, after the routine returned), and nothing else;
 * the AEAD open's verdict is declassified by the library (aead.c).
 *
 *   ct_msan_aead [--force MASK] [--leaky] | --detect   (as run_msan.sh runs it)
 */
#include <sanitizer/msan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aead/aead.h"
#include "common.h"
#include "vgcrypto.h"
#include "vgtest.h"

#define SECRET(p, n) __msan_poison((p), (n))
#define PUBLIC(p, n) VG_CT_DECLASSIFY((p), (n))

/* Lengths around the block sizes and the vector loops' run lengths (8 and
 * 16 ChaCha20 blocks, 16 Poly1305 blocks). */
static const size_t g_lens[] = {1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 511, 512, 1031, 2048};
#define MAX_LEN 2048

static uint8_t g_pt[MAX_LEN], g_key[32];

static void run_chacha(const char *name, const struct vg_chacha20_impl *impl)
{
    static uint8_t in[MAX_LEN], out[MAX_LEN], ref[MAX_LEN];
    uint32_t key[8], nonce[3] = {0x09000000u, 0x4a000000u, 0};
    for (size_t i = 0; i < sizeof g_lens / sizeof g_lens[0]; i++) {
        size_t len = g_lens[i];
        memcpy(in, g_pt, len);
        uint8_t k[32];
        memcpy(k, g_key, 32);
        SECRET(in, len);
        SECRET(k, 32);
        vg_chacha20_load_key(key, k);
        vg_chacha20_xor(impl, out, in, len, key, nonce, 1);
        vg_chacha20_xor(vg_chacha20_portable_get(), ref, in, len, key, nonce, 1);
        PUBLIC(out, len);
        PUBLIC(ref, len);
        CHECK_MSG(memcmp(out, ref, len) == 0, "chacha20/%s len %zu differs", name, len);
    }
    printf("  checked chacha20/%s\n", name);
}

static void run_poly(const char *name, const struct vg_poly1305_impl *impl)
{
    static uint8_t m[MAX_LEN];
    for (size_t i = 0; i < sizeof g_lens / sizeof g_lens[0]; i++) {
        size_t len = g_lens[i];
        uint8_t k[32], tag[16], ref[16];
        memcpy(k, g_key, 32);
        memcpy(m, g_pt, len);
        SECRET(k, 32);
        SECRET(m, len);
        vg_poly1305_ctx c;
        vg_poly1305_init(&c, impl, k);
        vg_poly1305_update(&c, m, len / 3); /* uneven pieces: the buffering */
        vg_poly1305_update(&c, m + len / 3, len - len / 3);
        vg_poly1305_final(&c, tag);
        vg_poly1305_init(&c, vg_poly1305_r26_get(), k);
        vg_poly1305_update(&c, m, len);
        vg_poly1305_final(&c, ref);
        PUBLIC(tag, 16);
        PUBLIC(ref, 16);
        CHECK_MSG(memcmp(tag, ref, 16) == 0, "poly1305/%s len %zu differs", name, len);
    }
    printf("  checked poly1305/%s\n", name);
}

/* seal and open (valid and tampered) through the dispatch, key and plaintext
 * secret; ciphertext and tag are public once sealed. */
static void run_aead(uint32_t mask)
{
    static uint8_t ct[MAX_LEN], pt[MAX_LEN], back[MAX_LEN];
    uint8_t nonce[24] = {7}, ad[13] = {1, 2, 3};
    vg_cpu_force(mask);
    for (size_t i = 0; i < sizeof g_lens / sizeof g_lens[0]; i++) {
        size_t len = g_lens[i];
        uint8_t k[32], tag[16];
        memcpy(k, g_key, 32);
        memcpy(pt, g_pt, len);
        SECRET(k, 32);
        SECRET(pt, len);
        for (int x = 0; x < 2; x++) {
            int rc = x ? vg_xchacha20poly1305_seal(ct, tag, pt, len, ad, sizeof ad, nonce, k)
                       : vg_chacha20poly1305_seal(ct, tag, pt, len, ad, sizeof ad, nonce, k);
            CHECK(rc == VG_OK);
            PUBLIC(ct, len); /* the ciphertext and tag go on the wire */
            PUBLIC(tag, 16);
            rc = x ? vg_xchacha20poly1305_open(back, ct, len, tag, ad, sizeof ad, nonce, k)
                   : vg_chacha20poly1305_open(back, ct, len, tag, ad, sizeof ad, nonce, k);
            CHECK(rc == VG_OK);
            PUBLIC(back, len); /* cross-check only */
            CHECK(memcmp(back, g_pt, len) == 0);
            tag[0] ^= 1;
            rc = x ? vg_xchacha20poly1305_open(back, ct, len, tag, ad, sizeof ad, nonce, k)
                   : vg_chacha20poly1305_open(back, ct, len, tag, ad, sizeof ad, nonce, k);
            CHECK(rc != VG_OK);
        }
    }
    printf("  checked (x)chacha20poly1305 seal/open (valid, tampered) under mask 0x%03x "
           "(chacha20 %s, poly1305 %s)\n",
           (unsigned)mask, vg_chacha20_active()->name, vg_poly1305_active()->name);
}

static volatile unsigned g_sink;

/* The leaky control: a branch on a secret byte, which MSan must report. */
__attribute__((noinline)) static void leaky_control(const uint8_t *secret)
{
    if (secret[0] & 1)
        g_sink++;
}

int main(int argc, char **argv)
{
    uint32_t mask = vg_cpu_detected();
    int leaky = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--detect") == 0) {
            printf("0x%x\n", (unsigned)vg_cpu_detected());
            return 0;
        } else if (strcmp(argv[i], "--force") == 0 && i + 1 < argc) {
            mask = (uint32_t)strtoul(argv[++i], NULL, 0) & VG_CPU_ALL;
        } else if (strcmp(argv[i], "--leaky") == 0) {
            leaky = 1;
        } else {
            fprintf(stderr, "usage: %s --detect | [--force MASK] [--leaky]\n", argv[0]);
            return 2;
        }
    }
    if (leaky) {
        uint8_t s[1] = {0x5b};
        SECRET(s, 1);
        leaky_control(s);
        printf("  ran the leaky control (MSan must report it)\n");
        return 0;
    }
    for (size_t i = 0; i < MAX_LEN; i++)
        g_pt[i] = (uint8_t)(i * 29 + 3);
    for (size_t i = 0; i < 32; i++)
        g_key[i] = (uint8_t)(0x80 + i * 7);
    vg_cpu_force(mask);
    const struct {
        const char *name;
        const struct vg_chacha20_impl *impl;
    } cc[] = {{"portable", vg_chacha20_portable_get()},
              {"avx2_rows", vg_chacha20_avx2_rows_get()},
              {"avx2", vg_chacha20_avx2_get()},
              {"avx512", vg_chacha20_avx512_get()}};
    const struct {
        const char *name;
        const struct vg_poly1305_impl *impl;
    } pc[] = {{"r64", vg_poly1305_r64_get()},
              {"r44", vg_poly1305_r44_get()},
              {"r26", vg_poly1305_r26_get()},
              {"mulx", vg_poly1305_mulx_get()},
              {"avx2", vg_poly1305_avx2_get()},
              {"avx512ifma", vg_poly1305_ifma_get()}};
    for (size_t i = 0; i < sizeof cc / sizeof cc[0]; i++) {
        if (cc[i].impl)
            run_chacha(cc[i].name, cc[i].impl);
        else
            printf("  SKIP    chacha20/%s: not built or the CPU lacks its features\n", cc[i].name);
    }
    for (size_t i = 0; i < sizeof pc / sizeof pc[0]; i++) {
        if (pc[i].impl)
            run_poly(pc[i].name, pc[i].impl);
        else
            printf("  SKIP    poly1305/%s: not built or the CPU lacks its features\n", pc[i].name);
    }
    /* The API: the best variants, then without AVX-512, then without AVX2. */
    run_aead(mask);
    run_aead(mask & ~(uint32_t)(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA));
    run_aead(mask & ~(uint32_t)(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA |
                                VG_CPU_AVX2));
    vg_cpu_force(mask);
    return vgtest_done("ct_msan_aead");
}
