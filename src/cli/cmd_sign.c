/*
 * vgcrypto sign ALG -s SECRET -i MESSAGE -o SIG [--hex] [--context STR] [--deterministic]
 * vgcrypto verify ALG -p PUBLIC -i MESSAGE -S SIG [--hex] [--context STR] [--cofactored]
 *
 * Signatures over a whole file. The message is read whole into memory:
 * Ed25519 hashes it twice (RFC 8032 section 5.1.6 steps 2 and 4: r from
 * prefix || M, then k from R || A || M), so it cannot be streamed without
 * reading the file twice, which standard input does not allow; the
 * library's ML-DSA calls take the message whole too. A message larger than
 * VG_CLI_MSG_MAX (1 GiB) is refused with exit 2: a regular file by its size
 * before anything is read, standard input after at most VG_CLI_MSG_MAX + 1
 * bytes have been read.
 *
 * --hex applies to the key and signature files (in and out), never to the
 * message, which is always taken byte for byte. "-" is standard input for
 * at most one input, and standard output for SIG.
 *
 * ML-DSA (FIPS 204) options, usage errors (exit 2) with Ed25519:
 *   --context STR    the context string ctx of ML-DSA.Sign / ML-DSA.Verify
 *                    (Algorithms 2 and 3): the bytes of STR as given, 0 to
 *                    255 of them (section 5.2: longer is an error; the CLI
 *                    refuses it as a usage error, exit 2, before reading any
 *                    file). Absent or "": the empty context. Verification
 *                    needs the same context as signing.
 *   --deterministic  the deterministic variant: rnd = 32 zero bytes
 *                    (Algorithm 2 line 7 with rnd = {0}^32), so the same key,
 *                    message and context always give the same signature.
 *                    Default: hedged, rnd fresh from the operating system.
 * The ML-DSA signature is the pure (not pre-hash) variant.
 *
 * Results and exit codes (cli.h):
 *   sign:   0 and SIG written atomically (mode 0600, as every output;
 *             cli_out.h: SIG may not be the message or the key file);
 *           1 for a rejected key: wrong length or bad hex, or (Ed25519) a
 *             secret key whose second half is not the public key of its
 *             seed (see check_secret_ed25519), or (ML-DSA) a secret key
 *             the library refuses (s1 or s2 coefficients outside
 *             [-eta, eta], FIPS 204 Algorithm 25's skDecode range), SIG
 *             then not written;
 *           2 for usage errors (including a context over 255 bytes),
 *             unreadable inputs, an unwritable SIG, a message over 1 GiB,
 *             or a failing random source (hedged ML-DSA).
 *   verify: 0 and the line "OK" on standard output for a valid signature;
 *           1 and one line on stderr (nothing on stdout) for an invalid
 *             signature, a public key that does not decode, or a key or
 *             signature file of the wrong length or with bad hex;
 *           2 as for sign.
 * Every buffer holding key material, and the message, is wiped before it is
 * freed or goes out of scope.
 *
 * The algorithms are the rows of g_sig_algs: Ed25519 and the three ML-DSA
 * parameter sets, each with its sizes and adapters to the library.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_io.h"
#include "cli_out.h"
#include "common.h"
#include "vgcrypto.h"

/* The largest message `sign` and `verify` read (1 GiB). */
#define VG_CLI_MSG_MAX ((size_t)1 << 30)

/* Room for the largest key and signature of any row (ML-DSA-87: secret key
 * 4896, public key 2592, signature 4627 bytes). */
#define SIG_MAX_SECRET VG_MLDSA87_SECRETKEYBYTES
#define SIG_MAX_PUBLIC VG_MLDSA87_PUBLICKEYBYTES
#define SIG_MAX_SIG VG_MLDSA87_SIGBYTES

struct sig_alg {
    const char *name;
    size_t secret_len, public_len, sig_len;
    /* Reject a secret key that parses but is not well formed: 0 to accept,
     * -1 to reject (a one-line reason in *why). NULL: no check. */
    int (*check_secret)(const uint8_t *secret_key, const char **why);
    /* sig_len bytes into sig over msg with context ctx (ctx_len <= 255;
     * always 0 when has_context is 0); deterministic != 0 asks for the
     * deterministic variant (only when has_context is 1). VG_OK or the
     * library's VG_ERR_* code (sig then zeroed). */
    int (*sign)(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                size_t ctx_len, const uint8_t *secret_key, int deterministic);
    /* VG_OK for a valid signature of sig_len bytes, else an error code. */
    int (*verify)(const uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                  size_t ctx_len, const uint8_t *public_key);
    /* The cofactored equation ([8][S]B = [8]R + [8][k]A); NULL when the
     * algorithm has no such variant (--cofactored is then a usage error). */
    int (*verify_cofactored)(const uint8_t *sig, const uint8_t *msg, size_t msg_len,
                             const uint8_t *public_key);
    /* 1: ML-DSA, which takes --context and --deterministic; 0: Ed25519
     * (RFC 8032's pure Ed25519 has no context, and is always deterministic),
     * where those options are usage errors. */
    int has_context;
};

/* The library takes sk[32..63] as the public key without checking it (as
 * libsodium does). Signing with a wrong public half gives a signature that
 * verifies under neither key (k = H(R || A || M) uses the wrong A), and
 * repeated signatures with different A on one seed reveal the secret
 * scalar (the nonce r depends only on the seed's prefix and M, so two
 * signatures (R, S), (R, S') with k != k' give s = (S - S') / (k - k') mod L).
 * So the CLI recomputes the public key from the seed (RFC 8032 5.1.5) and
 * refuses a mismatch. The comparison is constant time; only the verdict,
 * which is printed anyway, leaves it. */
static int check_secret_ed25519(const uint8_t *secret_key, const char **why)
{
    uint8_t pk[VG_ED25519_PUBLICKEYBYTES], sk[VG_ED25519_SECRETKEYBYTES];
    int rc = -1;
    *why = "its second half is not the public key of its first half (the seed)";
    if (vg_ed25519_keypair_from_seed(pk, sk, secret_key) == VG_OK &&
        vg_ct_memcmp(pk, secret_key + VG_ED25519_SEEDBYTES, sizeof pk) == 0)
        rc = 0;
    vg_wipe(sk, sizeof sk);
    vg_wipe(pk, sizeof pk);
    return rc;
}

static int sign_ed25519(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                        size_t ctx_len, const uint8_t *secret_key, int deterministic)
{
    (void)ctx;
    (void)ctx_len;       /* 0: has_context is 0 */
    (void)deterministic; /* RFC 8032 signatures are deterministic anyway */
    return vg_ed25519_sign(sig, msg, msg_len, secret_key);
}

static int verify_ed25519(const uint8_t *sig, const uint8_t *msg, size_t msg_len,
                          const uint8_t *ctx, size_t ctx_len, const uint8_t *public_key)
{
    (void)ctx;
    (void)ctx_len;
    return vg_ed25519_verify(sig, msg, msg_len, public_key);
}

static int verify_ed25519_cofactored(const uint8_t *sig, const uint8_t *msg, size_t msg_len,
                                     const uint8_t *public_key)
{
    return vg_ed25519_verify_cofactored(sig, msg, msg_len, public_key);
}

/* ML-DSA-N: hedged ML-DSA.Sign (FIPS 204 Algorithm 2, rnd from the OS) or,
 * with deterministic set, rnd = {0}^32 through sign_derand; verification is
 * ML-DSA.Verify (Algorithm 3) on a signature of exactly the set's length
 * (the file reader has already checked it). */
#define MLDSA_ADAPTERS(n)                                                                   \
    static int sign_mldsa##n(uint8_t *sig, const uint8_t *msg, size_t msg_len,             \
                             const uint8_t *ctx, size_t ctx_len, const uint8_t *secret_key, \
                             int deterministic)                                            \
    {                                                                                      \
        static const uint8_t zero_rnd[VG_MLDSA_RNDBYTES] = {0};                            \
        if (deterministic)                                                                 \
            return vg_mldsa##n##_sign_derand(sig, msg, msg_len, ctx, ctx_len, secret_key,  \
                                             zero_rnd);                                    \
        return vg_mldsa##n##_sign(sig, msg, msg_len, ctx, ctx_len, secret_key);            \
    }                                                                                      \
    static int verify_mldsa##n(const uint8_t *sig, const uint8_t *msg, size_t msg_len,     \
                               const uint8_t *ctx, size_t ctx_len,                         \
                               const uint8_t *public_key)                                  \
    {                                                                                      \
        return vg_mldsa##n##_verify(sig, VG_MLDSA##n##_SIGBYTES, msg, msg_len, ctx,        \
                                    ctx_len, public_key);                                  \
    }
MLDSA_ADAPTERS(44)
MLDSA_ADAPTERS(65)
MLDSA_ADAPTERS(87)

#define MLDSA_ROW(n)                                                                        \
    {"ml-dsa-" #n, VG_MLDSA##n##_SECRETKEYBYTES, VG_MLDSA##n##_PUBLICKEYBYTES,             \
     VG_MLDSA##n##_SIGBYTES, NULL, sign_mldsa##n, verify_mldsa##n, NULL, 1}

static const struct sig_alg g_sig_algs[] = {
    {"ed25519", VG_ED25519_SECRETKEYBYTES, VG_ED25519_PUBLICKEYBYTES, VG_ED25519_SIGBYTES,
     check_secret_ed25519, sign_ed25519, verify_ed25519, verify_ed25519_cofactored, 0},
    MLDSA_ROW(44),
    MLDSA_ROW(65),
    MLDSA_ROW(87),
};
#define N_SIG_ALGS (sizeof g_sig_algs / sizeof g_sig_algs[0])

/* The row named by the first positional argument, or NULL after one usage
 * line. n_pos is 0 when the algorithm was not given. */
static const struct sig_alg *find_alg(const char *cmd, const char *const *pos, size_t n_pos)
{
    char names[128];
    size_t used = 0;
    names[0] = '\0';
    for (size_t i = 0; i < N_SIG_ALGS && used < sizeof names; i++) {
        int w = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                         g_sig_algs[i].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (n_pos == 0) {
        vg_cli_usage_error("%s: missing algorithm (one of: %s)", cmd, names);
        return NULL;
    }
    for (size_t i = 0; i < N_SIG_ALGS; i++)
        if (strcmp(pos[0], g_sig_algs[i].name) == 0)
            return &g_sig_algs[i];
    vg_cli_usage_error("%s: unknown algorithm '%s' (one of: %s)", cmd, pos[0], names);
    return NULL;
}

/* Read the message file whole. Returns the exit code (0, or 2 after one
 * line on stderr); on success *msg is a malloc'd buffer of *n bytes. */
static int load_message(const char *cmd, const char *path, uint8_t **msg, size_t *n)
{
    int rc = vg_cli_read_all(path, VG_CLI_MSG_MAX, msg, n);
    if (rc == VG_CLI_IO_OK)
        return VG_CLI_EXIT_OK;
    if (rc == VG_CLI_IO_ETOOBIG)
        return vg_cli_usage_error("%s: message '%s' is larger than 1 GiB (1073741824 bytes)",
                                  cmd, path);
    return vg_cli_usage_error("%s: cannot read message '%s': %s", cmd, path, strerror(errno));
}

static void free_message(uint8_t *msg, size_t n)
{
    if (msg) {
        vg_wipe(msg, n);
        free(msg);
    }
}

/* The ML-DSA options against the row: --context STR (the bytes of STR, at
 * most VG_MLDSA_CTXMAXBYTES) and --deterministic apply only to rows with
 * has_context. Post: VG_CLI_EXIT_OK with *ctx_len set (0 without
 * --context), or VG_CLI_EXIT_USAGE after one stderr line. The context is
 * checked here, before any file is read, so a long one never reaches the
 * library (whose VG_ERR_INPUT for it is then unreachable). */
static int context_arg(const char *cmd, const struct sig_alg *alg, const char *context,
                       int deterministic, size_t *ctx_len)
{
    *ctx_len = 0;
    if (deterministic && !alg->has_context)
        return vg_cli_usage_error("%s: --deterministic does not apply to %s (its signatures "
                                  "are always deterministic)",
                                  cmd, alg->name);
    if (!context)
        return VG_CLI_EXIT_OK;
    if (!alg->has_context)
        return vg_cli_usage_error("%s: --context does not apply to %s (RFC 8032 Ed25519 has no "
                                  "context string)",
                                  cmd, alg->name);
    *ctx_len = strlen(context);
    if (*ctx_len > VG_MLDSA_CTXMAXBYTES)
        return vg_cli_usage_error("%s: the context string has %zu bytes; FIPS 204 allows at "
                                  "most %d",
                                  cmd, *ctx_len, VG_MLDSA_CTXMAXBYTES);
    return VG_CLI_EXIT_OK;
}

int vg_cli_cmd_sign(int argc, char **argv)
{
    const char *secret_path = NULL, *msg_path = NULL, *out_path = NULL, *context = NULL;
    const char *pos[1];
    int hex = 0, deterministic = 0, rc, r;
    size_t n_pos, msg_len = 0, ctx_len = 0;
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &secret_path, NULL, 1, "secret key file"},
        {'i', "in", &msg_path, NULL, 1, "message file"},
        {'o', "out", &out_path, NULL, 1, "signature output file"},
        {0, "hex", NULL, &hex, 0, NULL},
        {0, "context", &context, NULL, VG_CLI_OPT_EMPTY_OK, "context string"},
        {0, "deterministic", NULL, &deterministic, 0, NULL},
    };
    uint8_t secret_key[SIG_MAX_SECRET], sig[SIG_MAX_SIG], *msg = NULL;
    const struct sig_alg *alg;
    const char *why = "";
    static const char *const what = "signature";
    struct vg_cli_outputs outs;

    outs.n = 0;

    rc = vg_cli_parse_opts("sign", argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (!(alg = find_alg("sign", pos, n_pos)))
        return VG_CLI_EXIT_USAGE;
    if ((rc = context_arg("sign", alg, context, deterministic, &ctx_len)) != VG_CLI_EXIT_OK)
        return rc;
    const char *inputs[2] = {secret_path, msg_path};
    if ((rc = vg_cli_one_stdin("sign", inputs, 2)) != VG_CLI_EXIT_OK)
        return rc;

    memset(sig, 0, sizeof sig);
    memset(secret_key, 0, sizeof secret_key);
    rc = vg_cli_outputs_open(&outs, "sign", &out_path, &what, 1, inputs, 2);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_load_key("secret key", secret_path, secret_key, alg->secret_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if (alg->check_secret && alg->check_secret(secret_key, &why) != 0) {
        vg_cli_error("sign: secret key '%s' rejected: %s", secret_path, why);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    if ((rc = load_message("sign", msg_path, &msg, &msg_len)) != VG_CLI_EXIT_OK)
        goto out;
    r = alg->sign(sig, msg, msg_len, (const uint8_t *)context, ctx_len, secret_key,
                  deterministic);
    if (r == VG_ERR_INPUT) {
        /* Lengths and the context are checked above, so the library refused
         * the key itself: ML-DSA's skDecode range check on s1 and s2. */
        vg_cli_error("sign: secret key '%s' rejected: the %s key does not decode (s1 or s2 "
                     "coefficients outside [-eta, eta], FIPS 204 Algorithm 25)",
                     secret_path, alg->name);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    if (r != VG_OK) {
        /* VG_ERR_RANDOM: hedged ML-DSA could not get its 32 bytes of rnd.
         * Not reachable for Ed25519 with valid pointers. */
        vg_cli_error("sign: signing failed (the operating system's random source failed)");
        rc = VG_CLI_EXIT_USAGE;
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, sig, alg->sig_len, hex)) == 0)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    free_message(msg, msg_len);
    vg_wipe(secret_key, sizeof secret_key);
    vg_wipe(sig, sizeof sig);
    return rc;
}

int vg_cli_cmd_verify(int argc, char **argv)
{
    const char *public_path = NULL, *msg_path = NULL, *sig_path = NULL, *context = NULL;
    const char *pos[1];
    int hex = 0, cofactored = 0, rc, r;
    size_t n_pos, msg_len = 0, ctx_len = 0;
    const struct vg_cli_opt opts[] = {
        {'p', "public", &public_path, NULL, 1, "public key file"},
        {'i', "in", &msg_path, NULL, 1, "message file"},
        {'S', "signature", &sig_path, NULL, 1, "signature file"},
        {0, "hex", NULL, &hex, 0, NULL},
        {0, "cofactored", NULL, &cofactored, 0, NULL},
        {0, "context", &context, NULL, VG_CLI_OPT_EMPTY_OK, "context string"},
    };
    uint8_t public_key[SIG_MAX_PUBLIC], sig[SIG_MAX_SIG], *msg = NULL;
    const struct sig_alg *alg;

    rc = vg_cli_parse_opts("verify", argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (!(alg = find_alg("verify", pos, n_pos)))
        return VG_CLI_EXIT_USAGE;
    if (cofactored && !alg->verify_cofactored)
        return vg_cli_usage_error("verify: --cofactored does not apply to %s", alg->name);
    if ((rc = context_arg("verify", alg, context, 0, &ctx_len)) != VG_CLI_EXIT_OK)
        return rc;
    const char *inputs[3] = {public_path, msg_path, sig_path};
    if ((rc = vg_cli_one_stdin("verify", inputs, 3)) != VG_CLI_EXIT_OK)
        return rc;

    rc = vg_cli_load_key("public key", public_path, public_key, alg->public_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_load_key("signature", sig_path, sig, alg->sig_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = load_message("verify", msg_path, &msg, &msg_len)) != VG_CLI_EXIT_OK)
        goto out;
    if (cofactored)
        r = alg->verify_cofactored(sig, msg, msg_len, public_key);
    else
        r = alg->verify(sig, msg, msg_len, (const uint8_t *)context, ctx_len, public_key);
    if (r != VG_OK) {
        vg_cli_error("verify: signature '%s' is not valid for message '%s'%s under public key "
                     "'%s'",
                     sig_path, msg_path, ctx_len ? " and the given context" : "", public_path);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    printf("OK\n");
    rc = VG_CLI_EXIT_OK;
out:
    free_message(msg, msg_len);
    vg_wipe(public_key, sizeof public_key);
    vg_wipe(sig, sizeof sig);
    return rc;
}
