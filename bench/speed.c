/*
 * vgcrypto speed [NAME...] [--json] [--samples N]
 *
 * Method (TOOLING.md "Timing"): `lfence; rdtsc` around each sample; the
 * median of many samples; operations under ~5,000 ticks are timed in
 * batches (the TSC advances in steps of ~26 ticks) and the sample divided
 * by the batch; ours and the peers alternate in chunks of a few samples
 * within the same run, after a warm-up, so that clock boost and noise hit
 * every column alike. Before and after timing, each peer's output is
 * compared with ours on the same input: a difference (or a failing call
 * after the timing) is reported and the exit code is 1.
 *
 * To add an operation (Ed25519, ML-KEM, ML-DSA), add a row to g_rows: every
 * operation is "out_len bytes from in_len bytes"; a setup function can
 * prepare a structured input (keys, a signature to verify). Rows named
 * "op/variant" time one internal variant (its `_get`) against the same
 * peers, so variant ratios come from one run; a row whose variant is
 * unavailable in this build or on this CPU (VG_CPU_FEATURES included) is
 * left out.
 *
 * ML-KEM rows ("ml-kem-N-keypair", "-encaps", "-decaps") have no peer on
 * our machines (OpenSSL 3.0 and libsodium 1.0.18 have no ML-KEM), so their
 * yardstick is libsodium's X25519 (crypto_scalarmult), measured in the same
 * run just before the first ML-KEM row: a footnote (and the JSON field
 * "ours_per_sodium_x25519") gives each ML-KEM row's median divided by it.
 */
#define _XOPEN_SOURCE 700 /* clock_gettime in tsc.h's portable branch */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "curve25519/fe25519.h"
#include "curve25519/ge25519.h"
#include "curve25519/ge25519_vartime.h"
#include "curve25519/x25519_ifma.h"
#include "peers.h"
#include "speed.h"
#include "tsc.h"
#include "vgcrypto.h"

/* ---- our side, in the row shape --------------------------------------- */

static int ours_sha256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    (void)out_len;
    return vg_sha256(out, in, in_len);
}
static int ours_sha512(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    (void)out_len;
    return vg_sha512(out, in, in_len);
}
static int ours_sha3_256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    (void)out_len;
    return vg_sha3_256(out, in, in_len);
}
static int ours_shake128(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    return vg_shake128(out, out_len, in, in_len);
}
static int ours_shake256(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    return vg_shake256(out, out_len, in, in_len);
}

/* X25519 rows: in = scalar (32) || u-coordinate (32), out = 32 bytes. The
 * API also checks the result for all zero, which the variants leave out;
 * the input is pseudo-random, so never of small order. */
static int ours_x25519(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    (void)out_len;
    (void)in_len;
    return vg_x25519(out, in, in + 32) == VG_OK ? 0 : -1;
}
/* Public key rows: in = scalar (32). */
static int ours_x25519_base(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    (void)out_len;
    (void)in_len;
    return vg_x25519_public_key(out, in);
}

/* One function pair per variant: `present` for the row filter, the row
 * function through the variant's `_get` (a pointer, looked up per call:
 * a few ticks beside tens of thousands). */
#define X25519_VARIANT(tag, get)                                                          \
    static int present_x25519_##tag(void) { return get() != NULL; }                       \
    static int ours_x25519_##tag(uint8_t *out, size_t out_len, const uint8_t *in,         \
                                 size_t in_len)                                           \
    {                                                                                     \
        const struct vg_x25519_impl *impl = get();                                        \
        (void)out_len;                                                                    \
        (void)in_len;                                                                     \
        if (!impl)                                                                        \
            return -1;                                                                    \
        impl->scalarmult(out, in, in + 32);                                               \
        return 0;                                                                         \
    }
#define X25519_BASE_VARIANT(tag, get)                                                     \
    static int present_x25519_base_##tag(void) { return get() != NULL; }                  \
    static int ours_x25519_base_##tag(uint8_t *out, size_t out_len, const uint8_t *in,    \
                                      size_t in_len)                                      \
    {                                                                                     \
        const struct vg_x25519_base_impl *impl = get();                                   \
        (void)out_len;                                                                    \
        (void)in_len;                                                                     \
        if (!impl)                                                                        \
            return -1;                                                                    \
        impl->public_key(out, in);                                                        \
        return 0;                                                                         \
    }
X25519_VARIANT(portable, vg_x25519_portable_get)
X25519_VARIANT(adx, vg_x25519_adx_get)
X25519_VARIANT(ifma, vg_x25519_ifma_get)
X25519_BASE_VARIANT(portable, vg_x25519_base_portable_get)
X25519_BASE_VARIANT(adx, vg_x25519_base_adx_get)
X25519_BASE_VARIANT(ifma, vg_x25519_base_ifma_get)

/* Ed25519 rows (peers.h gives the layouts): keypair in = seed (32), out =
 * public key; sign in = secret key (64) || message (64), out = signature;
 * verify in = public key (32) || signature (64) || message (64), out[0] =
 * 1 for valid. The message is 64 bytes, a typical hash-and-sign size. */
#define ED_MSG 64
static int ours_ed25519_keypair(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    uint8_t sk[VG_ED25519_SECRETKEYBYTES];
    (void)out_len;
    (void)in_len;
    int rc = vg_ed25519_keypair_from_seed(out, sk, in);
    vg_wipe(sk, sizeof sk);
    return rc;
}
static int ours_ed25519_sign(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    (void)out_len;
    return vg_ed25519_sign(out, in + 64, in_len - 64, in);
}
static int ours_ed25519_verify(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)
{
    (void)out_len;
    out[0] = vg_ed25519_verify(in + 32, in + 96, in_len - 96, in) == VG_OK;
    return 0;
}
/* One verify variant through vg_ed25519_verify_with (the whole of RFC 8032
 * 5.1.7 on that variant, as the API runs it when the variant is active). */
#define ED25519_VERIFY_VARIANT(tag, get)                                                  \
    static int present_ed25519_verify_##tag(void) { return get() != NULL; }               \
    static int ours_ed25519_verify_##tag(uint8_t *out, size_t out_len, const uint8_t *in, \
                                         size_t in_len)                                   \
    {                                                                                     \
        const struct vg_ed25519_verify_impl *impl = get();                                \
        (void)out_len;                                                                    \
        if (!impl)                                                                        \
            return -1;                                                                    \
        out[0] = vg_ed25519_verify_with(impl, in + 32, in + 96, in_len - 96, in, 0) ==    \
                 VG_OK;                                                                   \
        return 0;                                                                         \
    }
ED25519_VERIFY_VARIANT(portable, vg_ed25519_verify_portable_get)
ED25519_VERIFY_VARIANT(adx, vg_ed25519_verify_adx_get)

/* The pseudo-random first 32 bytes become a seed; the secret key derived
 * from it replaces them (sign) or the public key and a signature of the
 * message do (verify). Post: 0, and for verify the signature is one we
 * accept, so that the peers' agreement check compares "valid" verdicts. */
static int setup_ed25519_sign(uint8_t *in, size_t in_len)
{
    uint8_t pk[VG_ED25519_PUBLICKEYBYTES], sk[VG_ED25519_SECRETKEYBYTES];
    if (in_len < 64 || vg_ed25519_keypair_from_seed(pk, sk, in) != VG_OK)
        return -1;
    memcpy(in, sk, sizeof sk);
    vg_wipe(sk, sizeof sk);
    return 0;
}
static int setup_ed25519_verify(uint8_t *in, size_t in_len)
{
    uint8_t pk[VG_ED25519_PUBLICKEYBYTES], sk[VG_ED25519_SECRETKEYBYTES];
    uint8_t sig[VG_ED25519_SIGBYTES];
    int rc = -1;
    if (in_len < 96)
        return -1;
    if (vg_ed25519_keypair_from_seed(pk, sk, in) == VG_OK &&
        vg_ed25519_sign(sig, in + 96, in_len - 96, sk) == VG_OK) {
        memcpy(in, pk, sizeof pk);
        memcpy(in + 32, sig, sizeof sig);
        rc = vg_ed25519_verify(sig, in + 96, in_len - 96, pk) == VG_OK ? 0 : -1;
    }
    vg_wipe(sk, sizeof sk);
    return rc;
}

/* ML-KEM rows, the derandomized functions on fixed (pseudo-random,
 * deterministic) seeds, so every run times the same inputs:
 *   keypair: in = d || z (64), out = ek || dk;
 *   encaps:  in = ek || m (32), out = ct || ss;
 *   decaps:  in = dk || ct, out = ss (a valid ciphertext, so no rejection
 *            path: decapsulation is constant time and takes the same work
 *            either way, FIPS 203 Algorithm 18).
 * The "/portable" and "/avx2" rows run the same API call with the feature
 * mask forced (vg_cpu_force, the static library's test hook) for the call
 * and restored after it: "/portable" with no features at all (as
 * VG_CPU_FEATURES=none: portable NTT and portable Keccak), "/avx2" with the
 * active set minus AVX-512 (AVX2 backend and the AVX2 four-way Keccak). The
 * plain rows use whatever is active. */
#define MLKEM_NO_AVX512                                                                    \
    (VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW | VG_CPU_AVX512DQ | VG_CPU_AVX512IFMA)

#define MLKEM_SET(n)                                                                       \
    static int ours_mlkem##n##_keypair(uint8_t *out, size_t out_len, const uint8_t *in,    \
                                       size_t in_len)                                      \
    {                                                                                      \
        (void)out_len;                                                                     \
        (void)in_len;                                                                      \
        return vg_mlkem##n##_keypair_derand(out, out + VG_MLKEM##n##_PUBLICKEYBYTES, in);  \
    }                                                                                      \
    static int ours_mlkem##n##_encaps(uint8_t *out, size_t out_len, const uint8_t *in,     \
                                      size_t in_len)                                       \
    {                                                                                      \
        (void)out_len;                                                                     \
        (void)in_len;                                                                      \
        return vg_mlkem##n##_encaps_derand(out, out + VG_MLKEM##n##_CIPHERTEXTBYTES, in,   \
                                           in + VG_MLKEM##n##_PUBLICKEYBYTES);             \
    }                                                                                      \
    static int ours_mlkem##n##_decaps(uint8_t *out, size_t out_len, const uint8_t *in,     \
                                      size_t in_len)                                       \
    {                                                                                      \
        (void)out_len;                                                                     \
        (void)in_len;                                                                      \
        return vg_mlkem##n##_decaps(out, in + VG_MLKEM##n##_SECRETKEYBYTES, in);           \
    }                                                                                      \
    /* in: pseudo-random seed (64) || m (32) || ... -> ek || m. */                         \
    static int setup_mlkem##n##_encaps(uint8_t *in, size_t in_len)                         \
    {                                                                                      \
        uint8_t seed[64], m[32], sk[VG_MLKEM##n##_SECRETKEYBYTES];                         \
        int rc;                                                                            \
        if (in_len != VG_MLKEM##n##_PUBLICKEYBYTES + 32)                                   \
            return -1;                                                                     \
        memcpy(seed, in, 64);                                                              \
        memcpy(m, in + 64, 32);                                                            \
        rc = vg_mlkem##n##_keypair_derand(in, sk, seed);                                   \
        memcpy(in + VG_MLKEM##n##_PUBLICKEYBYTES, m, 32);                                  \
        vg_wipe(sk, sizeof sk);                                                            \
        return rc == VG_OK ? 0 : -1;                                                       \
    }                                                                                      \
    /* in: pseudo-random seed (64) || m (32) || ... -> dk || ct. */                        \
    static int setup_mlkem##n##_decaps(uint8_t *in, size_t in_len)                         \
    {                                                                                      \
        uint8_t seed[64], m[32], pk[VG_MLKEM##n##_PUBLICKEYBYTES], ss[32];                 \
        int rc;                                                                            \
        if (in_len != VG_MLKEM##n##_SECRETKEYBYTES + VG_MLKEM##n##_CIPHERTEXTBYTES)        \
            return -1;                                                                     \
        memcpy(seed, in, 64);                                                              \
        memcpy(m, in + 64, 32);                                                            \
        rc = vg_mlkem##n##_keypair_derand(pk, in, seed);                                   \
        if (rc == VG_OK)                                                                   \
            rc = vg_mlkem##n##_encaps_derand(in + VG_MLKEM##n##_SECRETKEYBYTES, ss, pk, m); \
        vg_wipe(ss, sizeof ss);                                                            \
        return rc == VG_OK ? 0 : -1;                                                       \
    }
MLKEM_SET(512)
MLKEM_SET(768)
MLKEM_SET(1024)

/* One forced-features variant of an ML-KEM row function. */
static int present_mlkem_avx2(void) { return vg_cpu_has(VG_CPU_AVX2); }
#define MLKEM_FORCED(fn, tag, mask_expr)                                                   \
    static int fn##_##tag(uint8_t *out, size_t out_len, const uint8_t *in, size_t in_len)  \
    {                                                                                      \
        uint32_t saved = vg_cpu_active();                                                  \
        vg_cpu_force(mask_expr);                                                           \
        int rc = fn(out, out_len, in, in_len);                                             \
        vg_cpu_force(saved);                                                               \
        return rc;                                                                         \
    }
#define MLKEM_FORCED_SET(n)                                                                \
    MLKEM_FORCED(ours_mlkem##n##_keypair, portable, 0)                                     \
    MLKEM_FORCED(ours_mlkem##n##_encaps, portable, 0)                                      \
    MLKEM_FORCED(ours_mlkem##n##_decaps, portable, 0)                                      \
    MLKEM_FORCED(ours_mlkem##n##_keypair, avx2, saved & ~MLKEM_NO_AVX512)                  \
    MLKEM_FORCED(ours_mlkem##n##_encaps, avx2, saved & ~MLKEM_NO_AVX512)                   \
    MLKEM_FORCED(ours_mlkem##n##_decaps, avx2, saved & ~MLKEM_NO_AVX512)
MLKEM_FORCED_SET(512)
MLKEM_FORCED_SET(768)
MLKEM_FORCED_SET(1024)

#define NOTE_MLKEM                                                                        \
    "ML-KEM: derand functions on fixed seeds; no peer has ML-KEM here; /portable = "      \
    "feature mask forced to none, /avx2 = active set minus AVX-512, for each call"

/* ---- the rows ------------------------------------------------------------ */

struct speed_row {
    const char *name;
    size_t in_len, out_len;
    vg_bench_fn ours, openssl, sodium; /* NULL: no such column ("-") */
    /* Prepare the input; NULL: pseudo-random bytes. Returns 0 on success. */
    int (*setup)(uint8_t *in, size_t in_len);
    int compare; /* outputs are deterministic: ours must equal each peer's */
    /* NULL: always shown; else the row is left out when it returns 0. */
    int (*present)(void);
    /* A footnote on what a column includes, or NULL. */
    const char *note;
};

#define NOTE_OSSL_PUBKEY                                                                  \
    "openssl = EVP_PKEY_new_raw_private_key + EVP_PKEY_get_raw_public_key + EVP_PKEY_free " \
    "(includes creating the key object)"

#define NOTE_OSSL_ED_SIGN                                                                 \
    "openssl = EVP_DigestSignInit + EVP_DigestSign per message (key object made once); "  \
    "64-byte message"
#define NOTE_OSSL_ED_VERIFY                                                               \
    "openssl = EVP_DigestVerifyInit + EVP_DigestVerify per message (key object made "     \
    "once); 64-byte message"

#define KIB16 16384
static const struct speed_row g_rows[] = {
    {"sha256-64", 64, 32, ours_sha256, vg_peer_openssl_sha256, vg_peer_sodium_sha256, NULL, 1, NULL, NULL},
    {"sha256-16k", KIB16, 32, ours_sha256, vg_peer_openssl_sha256, vg_peer_sodium_sha256, NULL, 1, NULL, NULL},
    {"sha512-64", 64, 64, ours_sha512, vg_peer_openssl_sha512, vg_peer_sodium_sha512, NULL, 1, NULL, NULL},
    {"sha512-16k", KIB16, 64, ours_sha512, vg_peer_openssl_sha512, vg_peer_sodium_sha512, NULL, 1, NULL, NULL},
    {"sha3-256-64", 64, 32, ours_sha3_256, vg_peer_openssl_sha3_256, NULL, NULL, 1, NULL, NULL},
    {"sha3-256-16k", KIB16, 32, ours_sha3_256, vg_peer_openssl_sha3_256, NULL, NULL, 1, NULL, NULL},
    {"shake128-16k", KIB16, 32, ours_shake128, vg_peer_openssl_shake128, NULL, NULL, 1, NULL, NULL},
    {"shake256-16k", KIB16, 32, ours_shake256, vg_peer_openssl_shake256, NULL, NULL, 1, NULL, NULL},
    /* X25519: also the yardstick the later issues compare against (the
     * libsodium column is crypto_scalarmult). openssl = EVP_PKEY_derive on a
     * prepared context (bench/peers.h). */
    {"x25519", 64, 32, ours_x25519, vg_peer_openssl_x25519, vg_peer_sodium_x25519, NULL, 1, NULL,
     NULL},
    {"x25519/portable", 64, 32, ours_x25519_portable, vg_peer_openssl_x25519,
     vg_peer_sodium_x25519, NULL, 1, present_x25519_portable, NULL},
    {"x25519/adx", 64, 32, ours_x25519_adx, vg_peer_openssl_x25519, vg_peer_sodium_x25519, NULL,
     1, present_x25519_adx, NULL},
    {"x25519/ifma", 64, 32, ours_x25519_ifma, vg_peer_openssl_x25519, vg_peer_sodium_x25519, NULL,
     1, present_x25519_ifma, NULL},
    {"x25519-public-key", 32, 32, ours_x25519_base, vg_peer_openssl_x25519_base,
     vg_peer_sodium_x25519_base, NULL, 1, NULL, NOTE_OSSL_PUBKEY},
    {"x25519-public-key/portable", 32, 32, ours_x25519_base_portable, vg_peer_openssl_x25519_base,
     vg_peer_sodium_x25519_base, NULL, 1, present_x25519_base_portable, NOTE_OSSL_PUBKEY},
    {"x25519-public-key/adx", 32, 32, ours_x25519_base_adx, vg_peer_openssl_x25519_base,
     vg_peer_sodium_x25519_base, NULL, 1, present_x25519_base_adx, NOTE_OSSL_PUBKEY},
    {"x25519-public-key/ifma", 32, 32, ours_x25519_base_ifma, vg_peer_openssl_x25519_base,
     vg_peer_sodium_x25519_base, NULL, 1, present_x25519_base_ifma, NOTE_OSSL_PUBKEY},
    /* Ed25519 (RFC 8032); signatures are deterministic, so compared byte for
     * byte; verify compares the verdicts (all "valid", setup_ed25519_verify). */
    {"ed25519-keypair", 32, 32, ours_ed25519_keypair, vg_peer_openssl_ed25519_keypair,
     vg_peer_sodium_ed25519_keypair, NULL, 1, NULL, NOTE_OSSL_PUBKEY},
    {"ed25519-sign", 64 + ED_MSG, 64, ours_ed25519_sign, vg_peer_openssl_ed25519_sign,
     vg_peer_sodium_ed25519_sign, setup_ed25519_sign, 1, NULL, NOTE_OSSL_ED_SIGN},
    {"ed25519-verify", 96 + ED_MSG, 1, ours_ed25519_verify, vg_peer_openssl_ed25519_verify,
     vg_peer_sodium_ed25519_verify, setup_ed25519_verify, 1, NULL, NOTE_OSSL_ED_VERIFY},
    {"ed25519-verify/portable", 96 + ED_MSG, 1, ours_ed25519_verify_portable,
     vg_peer_openssl_ed25519_verify, vg_peer_sodium_ed25519_verify, setup_ed25519_verify, 1,
     present_ed25519_verify_portable, NOTE_OSSL_ED_VERIFY},
    {"ed25519-verify/adx", 96 + ED_MSG, 1, ours_ed25519_verify_adx,
     vg_peer_openssl_ed25519_verify, vg_peer_sodium_ed25519_verify, setup_ed25519_verify, 1,
     present_ed25519_verify_adx, NOTE_OSSL_ED_VERIFY},
    /* ML-KEM (FIPS 203): three rows per set, each set followed by its forced
     * variants. */
#define MLKEM_ROWS(n)                                                                      \
    {"ml-kem-" #n "-keypair", 64, VG_MLKEM##n##_PUBLICKEYBYTES + VG_MLKEM##n##_SECRETKEYBYTES, \
     ours_mlkem##n##_keypair, NULL, NULL, NULL, 1, NULL, NOTE_MLKEM},                      \
    {"ml-kem-" #n "-encaps", VG_MLKEM##n##_PUBLICKEYBYTES + 32,                            \
     VG_MLKEM##n##_CIPHERTEXTBYTES + 32, ours_mlkem##n##_encaps, NULL, NULL,               \
     setup_mlkem##n##_encaps, 1, NULL, NOTE_MLKEM},                                        \
    {"ml-kem-" #n "-decaps", VG_MLKEM##n##_SECRETKEYBYTES + VG_MLKEM##n##_CIPHERTEXTBYTES, 32, \
     ours_mlkem##n##_decaps, NULL, NULL, setup_mlkem##n##_decaps, 1, NULL, NOTE_MLKEM}
#define MLKEM_VARIANT_ROWS(n, tag, present)                                                \
    {"ml-kem-" #n "-keypair/" #tag, 64,                                                    \
     VG_MLKEM##n##_PUBLICKEYBYTES + VG_MLKEM##n##_SECRETKEYBYTES,                          \
     ours_mlkem##n##_keypair_##tag, NULL, NULL, NULL, 1, present, NOTE_MLKEM},             \
    {"ml-kem-" #n "-encaps/" #tag, VG_MLKEM##n##_PUBLICKEYBYTES + 32,                      \
     VG_MLKEM##n##_CIPHERTEXTBYTES + 32, ours_mlkem##n##_encaps_##tag, NULL, NULL,         \
     setup_mlkem##n##_encaps, 1, present, NOTE_MLKEM},                                     \
    {"ml-kem-" #n "-decaps/" #tag,                                                         \
     VG_MLKEM##n##_SECRETKEYBYTES + VG_MLKEM##n##_CIPHERTEXTBYTES, 32,                     \
     ours_mlkem##n##_decaps_##tag, NULL, NULL, setup_mlkem##n##_decaps, 1, present,        \
     NOTE_MLKEM}
    MLKEM_ROWS(512),
    MLKEM_VARIANT_ROWS(512, portable, NULL),
    MLKEM_VARIANT_ROWS(512, avx2, present_mlkem_avx2),
    MLKEM_ROWS(768),
    MLKEM_VARIANT_ROWS(768, portable, NULL),
    MLKEM_VARIANT_ROWS(768, avx2, present_mlkem_avx2),
    MLKEM_ROWS(1024),
    MLKEM_VARIANT_ROWS(1024, portable, NULL),
    MLKEM_VARIANT_ROWS(1024, avx2, present_mlkem_avx2),
};
#define N_ROWS (sizeof g_rows / sizeof g_rows[0])

/* ---- measurement ------------------------------------------------------------ */

enum { COL_OURS, COL_OPENSSL, COL_SODIUM, N_COLS };
static const char *const g_col_names[N_COLS] = {"ours", "openssl", "libsodium"};

#define CHUNK 5              /* samples per column before switching */
#define BATCH_TARGET 20000u  /* ticks a sample should last at least */
#define SINGLE_MIN 5000u     /* above this, time single calls */
#define WARM_TICKS 2000000u  /* per column and row, ~0.8 ms */
#define WARM_START 100000000u /* once before the first row, ~40 ms */

struct result {
    int avail[N_COLS];
    double median[N_COLS]; /* ticks per call */
    int mismatch[N_COLS];
};

static uint64_t time_calls(vg_bench_fn fn, uint8_t *out, size_t out_len, const uint8_t *in,
                           size_t in_len, unsigned calls)
{
    uint64_t t0 = vg_tsc_now();
    for (unsigned i = 0; i < calls; i++)
        (void)fn(out, out_len, in, in_len);
    return vg_tsc_now() - t0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t median_u64(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    return v[n / 2];
}

/* Deterministic filler (xorshift64): inputs are the same on every run. */
static void fill(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t s = seed | 1;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        p[i] = (uint8_t)(s >> 32);
    }
}

/* Measure one row. Returns 0, or -1 when out of memory. */
static int measure_row(const struct speed_row *row, size_t samples, struct result *res)
{
    vg_bench_fn fn[N_COLS] = {row->ours, row->openssl, row->sodium};
    uint8_t *in = malloc(row->in_len + 1), *out = malloc(row->out_len), *ref = malloc(row->out_len);
    uint64_t *t[N_COLS] = {NULL, NULL, NULL};
    int rc = -1, any = 0;
    memset(res, 0, sizeof *res);
    if (!in || !out || !ref)
        goto out;
    fill(in, row->in_len, 0x9e3779b97f4a7c15u ^ row->in_len);
    if (row->setup && row->setup(in, row->in_len) != 0)
        goto done; /* nothing available: every column "-" */

    /* Availability and agreement: one call each on the same input. */
    for (int c = 0; c < N_COLS; c++) {
        res->avail[c] = fn[c] && fn[c](out, row->out_len, in, row->in_len) == 0;
        if (!res->avail[c])
            continue;
        if (!any)
            memcpy(ref, out, row->out_len);
        else if (row->compare && memcmp(ref, out, row->out_len) != 0)
            res->mismatch[c] = 1;
        any = 1;
    }
    if (!any)
        goto done;

    /* Warm-up, then the batch size from the fastest column's single calls. */
    uint64_t fastest = UINT64_MAX;
    for (int c = 0; c < N_COLS; c++) {
        if (!res->avail[c])
            continue;
        uint64_t spent = 0, single[9];
        for (unsigned k = 0; k < 4 || spent < WARM_TICKS; k++)
            spent += time_calls(fn[c], out, row->out_len, in, row->in_len, 1);
        for (int k = 0; k < 9; k++)
            single[k] = time_calls(fn[c], out, row->out_len, in, row->in_len, 1);
        uint64_t m = median_u64(single, 9);
        if (m < fastest)
            fastest = m;
    }
    unsigned batch = 1;
    if (fastest < SINGLE_MIN)
        batch = (unsigned)((BATCH_TARGET + (fastest ? fastest : 1) - 1) / (fastest ? fastest : 1));

    for (int c = 0; c < N_COLS; c++)
        if (res->avail[c] && !(t[c] = malloc(samples * sizeof *t[c])))
            goto out;
    /* Alternate: CHUNK samples of each column in turn, rotating which
     * column goes first so none always follows the same neighbour. */
    for (size_t done = 0, round = 0; done < samples; round++) {
        size_t n = samples - done < CHUNK ? samples - done : CHUNK;
        for (int k = 0; k < N_COLS; k++) {
            int c = (int)((round + (size_t)k) % N_COLS);
            if (!res->avail[c])
                continue;
            for (size_t j = 0; j < n; j++)
                t[c][done + j] = time_calls(fn[c], out, row->out_len, in, row->in_len, batch);
        }
        done += n;
    }
    for (int c = 0; c < N_COLS; c++)
        if (res->avail[c])
            res->median[c] = (double)median_u64(t[c], samples) / (double)batch;
    /* Agreement again after the timed calls: a peer whose reused context
     * went stale (an error after the first call) would otherwise be timed
     * failing fast. The output buffer is cleared so that a call that writes
     * nothing cannot pass on another column's bytes. */
    for (int c = 0; c < N_COLS; c++) {
        if (!res->avail[c])
            continue;
        memset(out, 0, row->out_len);
        if (fn[c](out, row->out_len, in, row->in_len) != 0 ||
            (row->compare && memcmp(ref, out, row->out_len) != 0))
            res->mismatch[c] = 1;
    }
done:
    rc = 0;
out:
    for (int c = 0; c < N_COLS; c++)
        free(t[c]);
    free(in);
    free(out);
    free(ref);
    return rc;
}

/* Busy work before the first row, so that the core has left its idle clock
 * and the first row is measured at the same boost as the others (without
 * it, the first row read ~30% high in every column on our VMs). */
static void warm_start(void)
{
    uint8_t buf[1024], out[32];
    fill(buf, sizeof buf, 1);
    uint64_t t0 = vg_tsc_now();
    while (vg_tsc_now() - t0 < WARM_START)
        (void)vg_sha256(out, buf, sizeof buf);
}

/* ---- output -------------------------------------------------------------- */

static void cell_ticks(char *buf, size_t n, const struct result *r, int c)
{
    if (!r->avail[c])
        snprintf(buf, n, "-");
    else if (r->median[c] < 1000.0)
        snprintf(buf, n, "%.1f", r->median[c]);
    else
        snprintf(buf, n, "%.0f", r->median[c]);
}

static void cell_ratio(char *buf, size_t n, const struct result *r, int c)
{
    if (r->mismatch[c])
        snprintf(buf, n, "MISMATCH");
    else if (!r->avail[COL_OURS] || !r->avail[c] || r->median[c] <= 0.0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.2f", r->median[COL_OURS] / r->median[c]);
}

static void json_num(const struct result *r, int c, int ratio)
{
    if (ratio && !r->mismatch[c] && r->avail[COL_OURS] && r->avail[c] && r->median[c] > 0.0)
        printf("%.3f", r->median[COL_OURS] / r->median[c]);
    else if (!ratio && r->avail[c])
        printf("%.1f", r->median[c]);
    else
        printf("null");
}

static void print_header(size_t samples)
{
    const char *feat = vg_cpu_features();
    const char *ossl = vg_peers_openssl_version(), *sod = vg_peers_sodium_version();
    printf("# vgcrypto %s speed: median %s per operation over %zu samples (lower is better)\n",
           vg_version(), vg_tsc_unit(), samples);
    printf("# vg_cpu_features() = \"%s\"; openssl: %s; libsodium: %s\n", feat[0] ? feat : "none",
           ossl ? ossl : "not loaded", sod ? sod : "not loaded");
    printf("%-30s %12s %12s %13s %12s %15s\n", "operation", "ours", "openssl", "ours/openssl",
           "libsodium", "ours/libsodium");
}

static void print_row(const char *name, const struct result *r)
{
    char a[32], b[32], c[32], d[32], e[32];
    cell_ticks(a, sizeof a, r, COL_OURS);
    cell_ticks(b, sizeof b, r, COL_OPENSSL);
    cell_ratio(c, sizeof c, r, COL_OPENSSL);
    cell_ticks(d, sizeof d, r, COL_SODIUM);
    cell_ratio(e, sizeof e, r, COL_SODIUM);
    printf("%-30s %12s %12s %13s %12s %15s\n", name, a, b, c, d, e);
    fflush(stdout); /* rows appear as they are measured */
}

/* The yardstick of the ML-KEM rows: libsodium's X25519 median in this run
 * (0 when libsodium is not loaded or a measurement failed). */
static double g_yardstick;

static int is_mlkem_row(const char *name) { return strncmp(name, "ml-kem-", 7) == 0; }

/* Measure libsodium's crypto_scalarmult alone, as the "x25519" row does. */
static double measure_yardstick(size_t samples)
{
    const struct speed_row row = {"x25519", 64, 32, NULL, NULL, vg_peer_sodium_x25519, NULL, 0,
                                  NULL, NULL};
    struct result res;
    if (measure_row(&row, samples, &res) != 0 || !res.avail[COL_SODIUM] ||
        res.mismatch[COL_SODIUM])
        return 0.0;
    return res.median[COL_SODIUM];
}

static void print_json_row(const char *name, const char *note, const struct result *r,
                           int first)
{
    const char *feat = vg_cpu_features();
    printf("%s\n  {\"operation\": \"%s\", \"unit\": \"%s\", \"cpu_features\": \"%s\", \"ours\": ",
           first ? "" : ",", name, vg_tsc_unit(), feat);
    json_num(r, COL_OURS, 0);
    printf(", \"openssl\": ");
    json_num(r, COL_OPENSSL, 0);
    printf(", \"ours_openssl\": ");
    json_num(r, COL_OPENSSL, 1);
    printf(", \"libsodium\": ");
    json_num(r, COL_SODIUM, 0);
    printf(", \"ours_libsodium\": ");
    json_num(r, COL_SODIUM, 1);
    if (is_mlkem_row(name)) {
        printf(", \"sodium_x25519\": ");
        if (g_yardstick > 0.0)
            printf("%.1f, \"ours_per_sodium_x25519\": ", g_yardstick);
        else
            printf("null, \"ours_per_sodium_x25519\": ");
        if (g_yardstick > 0.0 && r->avail[COL_OURS])
            printf("%.3f", r->median[COL_OURS] / g_yardstick);
        else
            printf("null");
    }
    if (note)
        printf(", \"note\": \"%s\"", note); /* notes hold no '"' or '\\' */
    printf("}");
}

/* ---- the command ----------------------------------------------------------- */

int vg_cli_cmd_speed(int argc, char **argv)
{
    int json = 0, selected[N_ROWS], shown[N_ROWS], any_name = 0, rc = VG_CLI_EXIT_OK, first = 1;
    size_t samples = 1001;
    double mlkem_median[N_ROWS] = {0};
    g_yardstick = 0.0;
    memset(selected, 0, sizeof selected);
    memset(shown, 0, sizeof shown);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--json") == 0) {
            json = 1;
        } else if (strcmp(s, "--samples") == 0) {
            if (i + 1 >= argc)
                return vg_cli_usage_error("speed: option '--samples' needs a number");
            if (vg_cli_parse_size(argv[++i], 11, 1000000, &samples) != 0)
                return vg_cli_usage_error("speed: --samples must be a number from 11 to 1000000");
        } else if (s[0] == '-') {
            return vg_cli_usage_error("speed: unknown option '%s'", s);
        } else {
            int hit = 0;
            for (size_t r = 0; r < N_ROWS; r++)
                if (strncmp(g_rows[r].name, s, strlen(s)) == 0)
                    selected[r] = hit = 1;
            if (!hit)
                return vg_cli_usage_error("speed: no operation matches '%s'", s);
            any_name = 1;
        }
    }
    vg_peers_load(1);
    warm_start();
    if (json)
        printf("[");
    else
        print_header(samples);
    for (size_t r = 0; r < N_ROWS; r++) {
        struct result res;
        if ((any_name && !selected[r]) || (g_rows[r].present && !g_rows[r].present()))
            continue;
        /* The yardstick just before the first ML-KEM row, so that it sees
         * the same clock as the rows it scales. */
        if (is_mlkem_row(g_rows[r].name) && g_yardstick == 0.0 && vg_peers_sodium_version())
            g_yardstick = measure_yardstick(samples);
        if (measure_row(&g_rows[r], samples, &res) != 0) {
            rc = vg_cli_usage_error("speed: out of memory");
            break;
        }
        if (is_mlkem_row(g_rows[r].name) && res.avail[COL_OURS])
            mlkem_median[r] = res.median[COL_OURS];
        for (int c = 1; c < N_COLS; c++)
            if (res.mismatch[c] && rc == VG_CLI_EXIT_OK) {
                /* Deferred so that the table stays whole; one line only. */
                rc = VG_CLI_EXIT_REJECT;
                fprintf(stderr, "vgcrypto: speed: %s: our output differs from %s's\n",
                        g_rows[r].name, g_col_names[c]);
            }
        if (json)
            print_json_row(g_rows[r].name, g_rows[r].note, &res, first);
        else
            print_row(g_rows[r].name, &res);
        first = 0;
        shown[r] = 1;
    }
    if (json) {
        printf("\n]\n");
    } else {
        /* Each distinct note once, after the table, with the first row it applies to. */
        for (size_t r = 0; r < N_ROWS; r++) {
            int seen = 0;
            if (!shown[r] || !g_rows[r].note)
                continue;
            for (size_t q = 0; q < r; q++)
                if (shown[q] && g_rows[q].note && strcmp(g_rows[q].note, g_rows[r].note) == 0)
                    seen = 1;
            if (!seen)
                printf("# %s...: %s\n", g_rows[r].name, g_rows[r].note);
        }
        /* The ML-KEM rows against the yardstick (DESIGN: peers have no ML-KEM). */
        int header = 0;
        for (size_t r = 0; r < N_ROWS; r++) {
            if (!shown[r] || mlkem_median[r] <= 0.0)
                continue;
            if (!header) {
                if (g_yardstick > 0.0)
                    printf("# ML-KEM rows / libsodium X25519 (crypto_scalarmult, %.0f %s, "
                           "measured in this run):\n", g_yardstick, vg_tsc_unit());
                else
                    printf("# ML-KEM rows / libsodium X25519: - (libsodium not loaded)\n");
                header = 1;
            }
            if (g_yardstick > 0.0)
                printf("#   %-30s %6.3f\n", g_rows[r].name, mlkem_median[r] / g_yardstick);
        }
    }
    vg_peers_release();
    return rc;
}
