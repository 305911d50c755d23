/*
 * Stack use per operation (issue 5: "stack use measured per operation by a
 * test"; goal: at most 16 KiB for any ML-KEM-1024 operation).
 *
 * Method: each operation runs alone on a fresh thread whose stack we
 * provide (pthread_attr_setstack, STACK_SIZE bytes), painted beforehand
 * with a position-dependent byte pattern. After the join, the lowest byte
 * that no longer holds its pattern marks the deepest point the thread's
 * stack reached (the stack grows down on every target we build for). The
 * same measurement of a thread that calls an empty operation through the
 * same pointer is subtracted, which removes what glibc keeps on a
 * user-provided stack (thread descriptor, static TLS) and the start-up
 * frames, so the figure is the operation's own use, the API call included.
 * Each operation is measured with two different patterns and the larger
 * result kept, so that a value that happens to equal the pattern cannot
 * hide a byte. Inputs and outputs live in static buffers, not on the
 * measured stack. Every operation runs once on the main thread first, so
 * one-time work (CPU detection) is not counted.
 *
 * Bounds (asserted only in optimised builds without sanitizers, where the
 * figures mean what the library ships; -O0 and ASan frames are larger):
 *   - every ML-KEM-1024 operation, on each backend: <= MLKEM1024_CEILING;
 *   - ML-DSA-87 signing, on each backend: <= MLDSA87_SIGN_GOAL (issue 6);
 *   - every other operation: <= GENEROUS_BOUND (a sanity ceiling only).
 * The table is printed in every build, with a line per ML-KEM-1024
 * operation saying whether it meets issue 5's goal (MLKEM1024_GOAL).
 *
 * ML-KEM-1024 is asserted against issue 5's goal itself: for k = 4
 * src/mlkem/params.h keeps two or three rows of A-hat (keypair and decaps two,
 * encaps three) instead of the whole 4 x 4 matrix (8 KiB), encryption keeps
 * e1 and e2 as their PRF bytes until used, decapsulation compares its
 * re-encryption with the ciphertext piece by piece instead of storing it,
 * and the stages are kept out of line so that inlined frames do not add
 * up. Measured (Release, Zen 4, AVX2 backend / portable): gcc 12 keypair
 * ~13.5 / ~13.6 KiB, encaps ~14.9 / ~14.9 KiB, decaps ~12.9 / ~12.9 KiB;
 * clang 14 ~13.3 / ~13.5, ~14.5 / ~14.7, ~12.5 / ~12.7 KiB. Before (commit
 * 1a3e73a, whole matrix up front) ~17.2, ~21.3 and ~27.6 KiB. The margin
 * of encaps is about 1.2 KiB: a frame that grows by that much on its path
 * fails this test.
 */
#define _GNU_SOURCE

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common.h"
#include "mldsa/mldsa_internal.h"
#include "vgcrypto.h"
#include "vgtest.h"

#define STACK_SIZE (1024u * 1024u)
/* Issue 5's goal for ML-KEM-1024, which is also the ceiling asserted (above). */
#define MLKEM1024_GOAL 16384u
#define MLKEM1024_CEILING MLKEM1024_GOAL
/* Issue 6's goal: ML-DSA-87 signing in at most 64 KiB (asserted; it used
 * about twice that before the low-stack signing layout of src/mldsa/sign.c,
 * 62-64 KiB after, gcc 12 and clang 14 Release). */
#define MLDSA87_SIGN_GOAL 65536u
#define GENEROUS_BOUND (256u * 1024u)

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define VG_STACK_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define VG_STACK_SANITIZED 1
#endif
#if defined(__OPTIMIZE__) && !defined(VG_STACK_SANITIZED)
#define VG_STACK_ASSERT 1
#else
#define VG_STACK_ASSERT 0
#endif

/* ---- inputs and outputs (static: not on the measured stack) ----------- */

static uint8_t g_seed64[64], g_seed32[32], g_m[32], g_msg[1024];
static uint8_t g_pk[VG_MLKEM1024_PUBLICKEYBYTES], g_sk[VG_MLKEM1024_SECRETKEYBYTES];
static uint8_t g_ct[VG_MLKEM1024_CIPHERTEXTBYTES], g_ss[32];
static uint8_t g_pk2[VG_MLKEM1024_PUBLICKEYBYTES], g_sk2[VG_MLKEM1024_SECRETKEYBYTES];
static uint8_t g_ct2[VG_MLKEM1024_CIPHERTEXTBYTES];
static uint8_t g_xk[32], g_xpk[32], g_xout[32];
static uint8_t g_edpk[32], g_edsk[64], g_edsig[64], g_edpk2[32], g_edsk2[64], g_edsig2[64];
static uint8_t g_dpk[VG_MLDSA87_PUBLICKEYBYTES], g_dsk[VG_MLDSA87_SECRETKEYBYTES];
static uint8_t g_dsig[VG_MLDSA87_SIGBYTES], g_dpk2[VG_MLDSA87_PUBLICKEYBYTES];
static uint8_t g_dsk2[VG_MLDSA87_SECRETKEYBYTES], g_dsig2[VG_MLDSA87_SIGBYTES];
static uint8_t g_hout[64];
static int g_rc; /* the operation's return value, checked after the join */

/* One ML-KEM parameter set's operations, as row functions. */
#define MLKEM_OPS(n)                                                                     \
    static void mlkem##n##_keypair_derand(void)                                          \
    {                                                                                    \
        g_rc = vg_mlkem##n##_keypair_derand(g_pk2, g_sk2, g_seed64);                     \
    }                                                                                    \
    static void mlkem##n##_keypair(void) { g_rc = vg_mlkem##n##_keypair(g_pk2, g_sk2); } \
    static void mlkem##n##_encaps_derand(void)                                           \
    {                                                                                    \
        g_rc = vg_mlkem##n##_encaps_derand(g_ct2, g_ss, g_pk, g_m);                      \
    }                                                                                    \
    static void mlkem##n##_encaps(void) { g_rc = vg_mlkem##n##_encaps(g_ct2, g_ss, g_pk); } \
    static void mlkem##n##_decaps(void) { g_rc = vg_mlkem##n##_decaps(g_ss, g_ct, g_sk); } \
    static void mlkem##n##_check_pk(void) { g_rc = vg_mlkem##n##_check_public_key(g_pk); } \
    static void mlkem##n##_check_sk(void) { g_rc = vg_mlkem##n##_check_secret_key(g_sk); } \
    /* The inputs the operations above read: a key pair and a ciphertext. */           \
    static int mlkem##n##_prepare(void)                                                  \
    {                                                                                    \
        return vg_mlkem##n##_keypair_derand(g_pk, g_sk, g_seed64) == VG_OK &&             \
               vg_mlkem##n##_encaps_derand(g_ct, g_ss, g_pk, g_m) == VG_OK;               \
    }
MLKEM_OPS(512)
MLKEM_OPS(768)
MLKEM_OPS(1024)

static void x25519_op(void) { g_rc = vg_x25519(g_xout, g_xk, g_xpk); }
static void x25519_public_key(void) { g_rc = vg_x25519_public_key(g_xout, g_xk); }
static void ed25519_keypair(void) { g_rc = vg_ed25519_keypair_from_seed(g_edpk2, g_edsk2, g_seed32); }
static void ed25519_sign(void) { g_rc = vg_ed25519_sign(g_edsig2, g_msg, 64, g_edsk); }
static void ed25519_verify(void) { g_rc = vg_ed25519_verify(g_edsig, g_msg, 64, g_edpk); }
static void sha256_1k(void) { g_rc = vg_sha256(g_hout, g_msg, sizeof g_msg); }
static void sha512_1k(void) { g_rc = vg_sha512(g_hout, g_msg, sizeof g_msg); }
static void sha3_256_1k(void) { g_rc = vg_sha3_256(g_hout, g_msg, sizeof g_msg); }
static void shake256_1k(void) { g_rc = vg_shake256(g_hout, 64, g_msg, sizeof g_msg); }
static void sha384_1k(void) { g_rc = vg_sha384(g_hout, g_msg, sizeof g_msg); }
static void hmac_sha256_1k(void)
{
    g_rc = vg_hmac_sha256(g_hout, g_seed32, 32, g_msg, sizeof g_msg);
}
static void hmac_sha512_1k(void)
{
    g_rc = vg_hmac_sha512(g_hout, g_seed32, 32, g_msg, sizeof g_msg);
}
static void hkdf_sha256_32(void)
{
    g_rc = vg_hkdf_sha256(g_hout, 32, g_m, 32, g_seed32, 32, g_msg, 16);
}
static void hkdf_sha384_255(void)
{
    static uint8_t okm[255];
    g_rc = vg_hkdf_sha384(okm, sizeof okm, g_m, 32, g_seed32, 32, g_msg, 16);
}
/* AEAD rows: the short path (64 B) and the chunked one (16 KiB), in place
 * on g_big; open opens what the matching seal row produced (prepare). */
static uint8_t g_big[16384], g_tag[16];
static void c20p_seal_64(void)
{
    g_rc = vg_chacha20poly1305_seal(g_big, g_tag, g_msg, 64, g_m, 13, g_m, g_seed32);
}
static void c20p_seal_16k(void)
{
    g_rc = vg_chacha20poly1305_seal(g_big, g_tag, g_big, sizeof g_big, g_m, 13, g_m, g_seed32);
}
static void xc20p_seal_1k(void)
{
    g_rc = vg_xchacha20poly1305_seal(g_big, g_tag, g_msg, sizeof g_msg, NULL, 0, g_seed64,
                                     g_seed32);
}
static uint8_t g_openbuf[16384];
static void c20p_open_16k(void)
{
    g_rc = vg_chacha20poly1305_open(g_openbuf, g_big, sizeof g_big, g_tag, g_m, 13, g_m,
                                    g_seed32);
}
static int c20p_open_prepare(void)
{
    return vg_chacha20poly1305_seal(g_big, g_tag, g_big, sizeof g_big, g_m, 13, g_m,
                                    g_seed32) == VG_OK;
}
static void chacha20_1k(void) { g_rc = vg_chacha20(g_big, g_msg, sizeof g_msg, g_m, 1, g_seed32); }
static void poly1305_1k(void) { g_rc = vg_poly1305(g_hout, g_msg, sizeof g_msg, g_seed32); }
/* One ML-DSA parameter set's operations (buffers sized for ML-DSA-87, the
 * largest). */
#define MLDSA_OPS(n)                                                                     \
    static void mldsa##n##_keypair(void)                                                 \
    {                                                                                    \
        g_rc = vg_mldsa##n##_keypair_derand(g_dpk2, g_dsk2, g_seed32);                   \
    }                                                                                    \
    static void mldsa##n##_sign(void)                                                    \
    {                                                                                    \
        g_rc = vg_mldsa##n##_sign_derand(g_dsig2, g_msg, 64, NULL, 0, g_dsk, g_m);       \
    }                                                                                    \
    static void mldsa##n##_verify(void)                                                  \
    {                                                                                    \
        g_rc = vg_mldsa##n##_verify(g_dsig, VG_MLDSA##n##_SIGBYTES, g_msg, 64, NULL, 0,  \
                                    g_dpk);                                              \
    }                                                                                    \
    /* The inputs the operations above read: a key pair and a signature. */            \
    static int mldsa##n##_prepare(void)                                                  \
    {                                                                                    \
        return vg_mldsa##n##_keypair_derand(g_dpk, g_dsk, g_seed32) == VG_OK &&          \
               vg_mldsa##n##_sign_derand(g_dsig, g_msg, 64, NULL, 0, g_dsk, g_m) == VG_OK; \
    }
MLDSA_OPS(44)
MLDSA_OPS(65)
MLDSA_OPS(87)

static void empty_op(void) { g_rc = VG_OK; }

/* Calibration: an operation whose stack use is known, to check the method
 * itself. It must report CALIB_BYTES within -256 / +1024 bytes: the
 * baseline's own deepest write (glibc's thread start, below the point where
 * the operation's frame begins) is subtracted too, so figures can read a
 * few dozen bytes low (48 with gcc 12 and clang 14 here). */
#define CALIB_BYTES 24576u
static void calib_op(void)
{
    volatile uint8_t buf[CALIB_BYTES];
    for (size_t i = 0; i < CALIB_BYTES; i++)
        buf[i] = (uint8_t)(i ^ 0x5a);
    g_rc = buf[CALIB_BYTES - 1] == (uint8_t)((CALIB_BYTES - 1) ^ 0x5a) ? VG_OK : -1;
}

/* ---- the measurement ---------------------------------------------------- */

static uint8_t *g_stack; /* STACK_SIZE bytes, page aligned */

static uint8_t pattern(size_t i, unsigned which)
{
    return (uint8_t)(which ? (i * 167u + 91u) ^ (i >> 8) : (i * 131u + 7u) ^ (i >> 9));
}

static void *thread_main(void *arg)
{
    void (*op)(void);
    memcpy(&op, arg, sizeof op);
    op();
    return NULL;
}

/* Deepest use of the thread stack by op, in bytes from the top; 0 when
 * the thread could not run. */
static size_t depth_once(void (*op)(void), unsigned which)
{
    pthread_attr_t attr;
    pthread_t t;
    size_t i;
    for (i = 0; i < STACK_SIZE; i++)
        g_stack[i] = pattern(i, which);
    if (pthread_attr_init(&attr) != 0)
        return 0;
    if (pthread_attr_setstack(&attr, g_stack, STACK_SIZE) != 0 ||
        pthread_create(&t, &attr, thread_main, &op) != 0) {
        pthread_attr_destroy(&attr);
        return 0;
    }
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    for (i = 0; i < STACK_SIZE && g_stack[i] == pattern(i, which); i++)
        ;
    return STACK_SIZE - i;
}

static size_t depth(void (*op)(void))
{
    size_t a = depth_once(op, 0), b = depth_once(op, 1);
    return a > b ? a : b;
}


/* NIST P-256 / P-384 (issue 16): key pair, ECDH, sign, verify on prepared keys. */
static uint8_t g_nsk[48], g_nsk2[48], g_npk[97], g_npeer[97], g_nsig[96], g_nout[97];
#define NIST_OPS(c, NB)                                                                  \
    static void c##_public_key(void) { g_rc = vg_##c##_public_key(g_nout, g_nsk); }      \
    static void c##_keypair(void) { g_rc = vg_##c##_keypair(g_nout, g_nsk2); }           \
    static void c##_ecdh(void) { g_rc = vg_##c##_ecdh(g_nout, g_nsk, g_npeer, 1 + 2 * NB); } \
    static void c##_sign(void) { g_rc = vg_##c##_sign(g_nout, g_msg, 64, g_nsk); }       \
    static void c##_verify(void) { g_rc = vg_##c##_verify(g_nsig, g_msg, 64, g_npk, 1 + 2 * NB); } \
    static int c##_prepare(void)                                                         \
    {                                                                                    \
        uint8_t sk2[NB];                                                                 \
        return vg_##c##_keypair(g_npk, g_nsk) == VG_OK &&                                \
               vg_##c##_keypair(g_npeer, sk2) == VG_OK &&                                \
               vg_##c##_sign(g_nsig, g_msg, 64, g_nsk) == VG_OK;                         \
    }
NIST_OPS(p256, 32)
NIST_OPS(p384, 48)

/* Hybrid KEMs and PKCS#8 decoding (issue 17): keypair_derand, encaps_derand
 * and decaps of X-Wing and the three TLS hybrids on prepared keys; decoding
 * of seed-form ML-KEM-768 and ML-DSA-65 keys and of a P-256 key (each runs
 * its key checks: ML-KEM/ML-DSA none for a bare seed, P-256 its point). */
static uint8_t g_hpk[1665], g_hsk[3216], g_hct[1665], g_hct2[1665], g_hss[80], g_hseed[112],
    g_heseed[80], g_hder[VG_KEY_ENCODED_MAXBYTES], g_hkey[VG_KEY_SECRET_MAXBYTES];
static size_t g_hder_len;
#define HYB_OPS(c)                                                                       \
    static void c##_keypair(void) { g_rc = vg_##c##_keypair_derand(g_hpk, g_hsk, g_hseed); } \
    static void c##_encaps(void) { g_rc = vg_##c##_encaps_derand(g_hct2, g_hss, g_hpk, g_heseed); } \
    static void c##_decaps(void) { g_rc = vg_##c##_decaps(g_hss, g_hct, g_hsk); }        \
    static int c##_prepare(void)                                                         \
    {                                                                                    \
        memcpy(g_hseed, g_seed64, 64);                                                   \
        memcpy(g_hseed + 64, g_seed32, 32);                                              \
        memcpy(g_hseed + 96, g_seed32, 16);                                              \
        memcpy(g_heseed, g_m, 32);                                                       \
        memcpy(g_heseed + 32, g_seed32, 32);                                             \
        memcpy(g_heseed + 64, g_m, 16);                                                  \
        g_hseed[0] &= 0x7f; /* an EC scalar leads the NIST hybrids' seeds: < n */       \
        g_heseed[0] &= 0x7f;                                                             \
        return vg_##c##_keypair_derand(g_hpk, g_hsk, g_hseed) == VG_OK &&                \
               vg_##c##_encaps_derand(g_hct, g_hss, g_hpk, g_heseed) == VG_OK;           \
    }
HYB_OPS(x25519mlkem768)
HYB_OPS(p256mlkem768)
HYB_OPS(p384mlkem1024)
static void xwing_keypair(void) { g_rc = vg_xwing_keypair_derand(g_hpk, g_hsk, g_seed32); }
static void xwing_encaps(void) { g_rc = vg_xwing_encaps_derand(g_hct2, g_hss, g_hpk, g_seed64); }
static void xwing_decaps(void) { g_rc = vg_xwing_decaps(g_hss, g_hct, g_hsk); }
static int xwing_prepare(void)
{
    return vg_xwing_keypair_derand(g_hpk, g_hsk, g_seed32) == VG_OK &&
           vg_xwing_encaps_derand(g_hct, g_hss, g_hpk, g_seed64) == VG_OK;
}
static void pkcs8_decode(void)
{
    vg_key_alg a;
    unsigned fl;
    size_t kl;
    g_rc = vg_key_decode_private(&a, &fl, g_hkey, sizeof g_hkey, &kl, g_hder, g_hder_len);
}
static int pkcs8_prepare(vg_key_alg alg, const uint8_t *key, size_t len)
{
    return vg_key_encode_private(g_hder, sizeof g_hder, &g_hder_len, alg, VG_KEY_DER, key, len) ==
           VG_OK;
}
static int pkcs8_mlkem768_prepare(void) { return pkcs8_prepare(VG_KEY_MLKEM768, g_seed64, 64); }
static int pkcs8_mldsa65_prepare(void) { return pkcs8_prepare(VG_KEY_MLDSA65, g_seed32, 32); }
/* The heaviest decoding check: an ML-DSA-87 expandedKey (t regenerated
 * from rho, s1, s2 in src/mldsa on top of the decoder's work area). */
static int pkcs8_mldsa87_exp_prepare(void)
{
    return vg_key_encode_private(g_hder, sizeof g_hder, &g_hder_len, VG_KEY_MLDSA87,
                                 VG_KEY_DER | VG_KEY_EXPANDED, g_seed32, 32) == VG_OK;
}
static int pkcs8_p256_prepare(void)
{
    uint8_t k[32];
    memcpy(k, g_seed32, 32);
    k[0] &= 0x7f;
    return pkcs8_prepare(VG_KEY_P256, k, 32);
}

struct stack_op {
    const char *name;
    void (*op)(void);
    int (*prepare)(void); /* NULL: the common inputs suffice */
    unsigned bound;       /* asserted bound in bytes */
};

#define MLKEM_ROWS(n, bound)                                                              \
    {"ml-kem-" #n " keypair_derand", mlkem##n##_keypair_derand, mlkem##n##_prepare, bound}, \
    {"ml-kem-" #n " keypair", mlkem##n##_keypair, mlkem##n##_prepare, bound},               \
    {"ml-kem-" #n " encaps_derand", mlkem##n##_encaps_derand, mlkem##n##_prepare, bound},   \
    {"ml-kem-" #n " encaps", mlkem##n##_encaps, mlkem##n##_prepare, bound},                 \
    {"ml-kem-" #n " decaps", mlkem##n##_decaps, mlkem##n##_prepare, bound},                 \
    {"ml-kem-" #n " check_public_key", mlkem##n##_check_pk, mlkem##n##_prepare, bound},     \
    {"ml-kem-" #n " check_secret_key", mlkem##n##_check_sk, mlkem##n##_prepare, bound}

#define MLDSA_ROWS(n, bound)                                                              \
    {"ml-dsa-" #n " keypair_derand", mldsa##n##_keypair, mldsa##n##_prepare, bound},        \
    {"ml-dsa-" #n " sign_derand (64 B)", mldsa##n##_sign, mldsa##n##_prepare, bound},       \
    {"ml-dsa-" #n " verify (64 B)", mldsa##n##_verify, mldsa##n##_prepare, bound}

#define NIST_STACK_ROWS(c)                                                                \
    {#c " keypair", c##_keypair, c##_prepare, GENEROUS_BOUND},                            \
    {#c " public_key", c##_public_key, c##_prepare, GENEROUS_BOUND},                      \
    {#c " ecdh", c##_ecdh, c##_prepare, GENEROUS_BOUND},                                  \
    {#c " sign (64 B)", c##_sign, c##_prepare, GENEROUS_BOUND},                           \
    {#c " verify (64 B)", c##_verify, c##_prepare, GENEROUS_BOUND}

#define HYB_STACK_ROWS(c, label)                                                          \
    {label " keypair_derand", c##_keypair, c##_prepare, GENEROUS_BOUND},                  \
    {label " encaps_derand", c##_encaps, c##_prepare, GENEROUS_BOUND},                    \
    {label " decaps", c##_decaps, c##_prepare, GENEROUS_BOUND}

static const struct stack_op g_ops[] = {
    MLKEM_ROWS(512, GENEROUS_BOUND),
    MLKEM_ROWS(768, GENEROUS_BOUND),
    MLKEM_ROWS(1024, MLKEM1024_CEILING),
    {"x25519", x25519_op, NULL, GENEROUS_BOUND},
    NIST_STACK_ROWS(p256),
    NIST_STACK_ROWS(p384),
    {"x25519 public_key", x25519_public_key, NULL, GENEROUS_BOUND},
    {"ed25519 keypair_from_seed", ed25519_keypair, NULL, GENEROUS_BOUND},
    {"ed25519 sign (64 B)", ed25519_sign, NULL, GENEROUS_BOUND},
    {"ed25519 verify (64 B)", ed25519_verify, NULL, GENEROUS_BOUND},
    {"sha256 (1 KiB)", sha256_1k, NULL, GENEROUS_BOUND},
    {"sha512 (1 KiB)", sha512_1k, NULL, GENEROUS_BOUND},
    {"sha3-256 (1 KiB)", sha3_256_1k, NULL, GENEROUS_BOUND},
    {"shake256 (1 KiB -> 64 B)", shake256_1k, NULL, GENEROUS_BOUND},
    {"sha384 (1 KiB)", sha384_1k, NULL, GENEROUS_BOUND},
    {"hmac-sha256 (1 KiB)", hmac_sha256_1k, NULL, GENEROUS_BOUND},
    {"hmac-sha512 (1 KiB)", hmac_sha512_1k, NULL, GENEROUS_BOUND},
    {"hkdf-sha256 (32 B)", hkdf_sha256_32, NULL, GENEROUS_BOUND},
    {"hkdf-sha384 (255 B)", hkdf_sha384_255, NULL, GENEROUS_BOUND},
    {"chacha20-poly1305 seal (64 B)", c20p_seal_64, NULL, GENEROUS_BOUND},
    {"chacha20-poly1305 seal (16 KiB)", c20p_seal_16k, NULL, GENEROUS_BOUND},
    {"chacha20-poly1305 open (16 KiB)", c20p_open_16k, c20p_open_prepare, GENEROUS_BOUND},
    {"xchacha20-poly1305 seal (1 KiB)", xc20p_seal_1k, NULL, GENEROUS_BOUND},
    {"chacha20 (1 KiB)", chacha20_1k, NULL, GENEROUS_BOUND},
    {"poly1305 (1 KiB)", poly1305_1k, NULL, GENEROUS_BOUND},
    MLDSA_ROWS(44, GENEROUS_BOUND),
    MLDSA_ROWS(65, GENEROUS_BOUND),
    {"ml-dsa-87 keypair_derand", mldsa87_keypair, mldsa87_prepare, GENEROUS_BOUND},
    {"ml-dsa-87 sign_derand (64 B)", mldsa87_sign, mldsa87_prepare, MLDSA87_SIGN_GOAL},
    {"ml-dsa-87 verify (64 B)", mldsa87_verify, mldsa87_prepare, GENEROUS_BOUND},
    HYB_STACK_ROWS(xwing, "x-wing"),
    HYB_STACK_ROWS(x25519mlkem768, "x25519mlkem768"),
    HYB_STACK_ROWS(p256mlkem768, "p256-mlkem768"),
    HYB_STACK_ROWS(p384mlkem1024, "p384-mlkem1024"),
    {"pkcs8 decode ml-kem-768 seed", pkcs8_decode, pkcs8_mlkem768_prepare, GENEROUS_BOUND},
    {"pkcs8 decode ml-dsa-65 seed", pkcs8_decode, pkcs8_mldsa65_prepare, GENEROUS_BOUND},
    {"pkcs8 decode p-256", pkcs8_decode, pkcs8_p256_prepare, GENEROUS_BOUND},
    {"pkcs8 decode ml-dsa-87 expanded", pkcs8_decode, pkcs8_mldsa87_exp_prepare, GENEROUS_BOUND},
};
#define N_OPS (sizeof g_ops / sizeof g_ops[0])

/* Common inputs: fixed pseudo-random bytes, keys and signatures from them. */
static int prepare_common(void)
{
    uint64_t s = 0x243f6a8885a308d3u;
    uint8_t *bufs[] = {g_seed64, g_seed32, g_m, g_msg, g_xk, g_xpk};
    size_t lens[] = {sizeof g_seed64, sizeof g_seed32, sizeof g_m, sizeof g_msg, sizeof g_xk,
                     sizeof g_xpk};
    for (size_t b = 0; b < sizeof bufs / sizeof bufs[0]; b++)
        for (size_t i = 0; i < lens[b]; i++) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            bufs[b][i] = (uint8_t)(s >> 24);
        }
    return vg_ed25519_keypair_from_seed(g_edpk, g_edsk, g_seed32) == VG_OK &&
           vg_ed25519_sign(g_edsig, g_msg, 64, g_edsk) == VG_OK;
}

/* Measure every row under the current feature mask; `backend` names it. */
static void measure_all(const char *backend)
{
    size_t base = depth(empty_op);
    printf("# backend %s (mlkem: %s); baseline (thread start, TLS) %zu bytes subtracted\n",
           backend, vg_implementation("mlkem"), base);
    CHECK(base > 0 && base < STACK_SIZE / 2);
    g_rc = -100;
    size_t calib = depth(calib_op) - base;
    printf("# calibration: a %u-byte local array measures %zu bytes\n", CALIB_BYTES, calib);
    CHECK(g_rc == VG_OK);
    CHECK_MSG(calib + 256 >= CALIB_BYTES && calib <= CALIB_BYTES + 1024, "calibration %zu", calib);
    for (size_t r = 0; r < N_OPS; r++) {
        const struct stack_op *o = &g_ops[r];
        if (o->prepare)
            CHECK(o->prepare());
        o->op(); /* once on the main thread: one-time work is not counted */
        CHECK_MSG(g_rc == VG_OK, "%s (%s) returned %d", o->name, backend, g_rc);
        g_rc = -100;
        size_t d = depth(o->op);
        /* The operation really ran, successfully, on the measured thread. */
        CHECK_MSG(g_rc == VG_OK, "%s (%s) on the thread returned %d", o->name, backend, g_rc);
        size_t net = d > base ? d - base : 0;
        /* ML-DSA-87 signing's goal holds for the low-stack layout only; a
         * build with -DVG_MLDSA87_LOWSTACK=OFF gets the generous bound. */
        unsigned bound = o->bound;
        if (bound == MLDSA87_SIGN_GOAL && !vg_mldsa87_sign_lowstack())
            bound = GENEROUS_BOUND;
        if (bound == MLKEM1024_CEILING || bound == MLDSA87_SIGN_GOAL)
            printf("%-32s %-9s %7zu  goal %u: %s\n", o->name, backend, net, bound,
                   net <= bound ? "met" : "NOT met");
        else
            printf("%-32s %-9s %7zu\n", o->name, backend, net);
        if (VG_STACK_ASSERT)
            CHECK_MSG(net <= bound, "%s (%s): %zu bytes > bound %u", o->name, backend, net, bound);
    }
}

int main(void)
{
    g_stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(g_stack != MAP_FAILED);
    if (g_stack == MAP_FAILED)
        return vgtest_done("test_stack");
    CHECK(prepare_common());
    printf("# stack use per operation, bytes (optimised build: %s; bounds %s)\n",
           VG_STACK_ASSERT ? "yes" : "no", VG_STACK_ASSERT ? "asserted" : "not asserted");
    printf("%-32s %-9s %7s\n", "operation", "backend", "bytes");
    uint32_t saved = vg_cpu_active();
    measure_all("active");
    vg_cpu_force(0);
    measure_all("portable");
    vg_cpu_force(saved);
    munmap(g_stack, STACK_SIZE);
    return vgtest_done("test_stack");
}
