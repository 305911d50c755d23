/*
 * vgcrypto sign ALG -s SECRET -i MESSAGE -o SIG [--hex]
 * vgcrypto verify ALG -p PUBLIC -i MESSAGE -S SIG [--hex] [--cofactored]
 *
 * Signatures over a whole file. The message is read whole into memory:
 * Ed25519 hashes it twice (RFC 8032 section 5.1.6 steps 2 and 4: r from
 * prefix || M, then k from R || A || M), so it cannot be streamed without
 * reading the file twice, which standard input does not allow. A message
 * larger than VG_CLI_MSG_MAX (1 GiB) is refused with exit 2: a regular file
 * by its size before anything is read, standard input after at most
 * VG_CLI_MSG_MAX + 1 bytes have been read.
 *
 * --hex applies to the key and signature files (in and out), never to the
 * message, which is always taken byte for byte. "-" is standard input for
 * at most one input, and standard output for SIG.
 *
 * Results and exit codes (cli.h):
 *   sign:   0 and SIG written atomically (mode 0600, as every output);
 *           1 for a rejected key: wrong length or bad hex, or (Ed25519) a
 *             secret key whose second half is not the public key of its
 *             seed (see check_secret_ed25519), SIG then not written;
 *           2 for usage errors, unreadable inputs, an unwritable SIG, or a
 *             message over 1 GiB.
 *   verify: 0 and the line "OK" on standard output for a valid signature;
 *           1 and one line on stderr (nothing on stdout) for an invalid
 *             signature, a public key that does not decode, or a key or
 *             signature file of the wrong length or with bad hex;
 *           2 as for sign.
 * Every buffer holding key material, and the message, is wiped before it is
 * freed or goes out of scope.
 *
 * The algorithms are the rows of g_sig_algs, so ML-DSA adds a row (its
 * sizes and adapters; a --context option would go beside --cofactored).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_io.h"
#include "common.h"
#include "vgcrypto.h"

/* The largest message `sign` and `verify` read (1 GiB). */
#define VG_CLI_MSG_MAX ((size_t)1 << 30)

/* Room for the largest key and signature of any row (ML-DSA-87: secret key
 * 4896, public key 2592, signature 4627 bytes). */
#define SIG_MAX_SECRET 4896
#define SIG_MAX_PUBLIC 2592
#define SIG_MAX_SIG 4627

struct sig_alg {
    const char *name;
    size_t secret_len, public_len, sig_len;
    /* Reject a secret key that parses but is not well formed: 0 to accept,
     * -1 to reject (a one-line reason in *why). NULL: no check. */
    int (*check_secret)(const uint8_t *secret_key, const char **why);
    /* sig_len bytes into sig; VG_OK or a VG_ERR_* code. */
    int (*sign)(uint8_t *sig, const uint8_t *msg, size_t msg_len, const uint8_t *secret_key);
    /* VG_OK for a valid signature, else VG_ERR_VERIFY. */
    int (*verify)(const uint8_t *sig, const uint8_t *msg, size_t msg_len,
                  const uint8_t *public_key);
    /* The cofactored equation ([8][S]B = [8]R + [8][k]A); NULL when the
     * algorithm has no such variant (--cofactored is then a usage error). */
    int (*verify_cofactored)(const uint8_t *sig, const uint8_t *msg, size_t msg_len,
                             const uint8_t *public_key);
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

static int sign_ed25519(uint8_t *sig, const uint8_t *msg, size_t msg_len,
                        const uint8_t *secret_key)
{
    return vg_ed25519_sign(sig, msg, msg_len, secret_key);
}

static int verify_ed25519(const uint8_t *sig, const uint8_t *msg, size_t msg_len,
                          const uint8_t *public_key)
{
    return vg_ed25519_verify(sig, msg, msg_len, public_key);
}

static int verify_ed25519_cofactored(const uint8_t *sig, const uint8_t *msg, size_t msg_len,
                                     const uint8_t *public_key)
{
    return vg_ed25519_verify_cofactored(sig, msg, msg_len, public_key);
}

static const struct sig_alg g_sig_algs[] = {
    {"ed25519", VG_ED25519_SECRETKEYBYTES, VG_ED25519_PUBLICKEYBYTES, VG_ED25519_SIGBYTES,
     check_secret_ed25519, sign_ed25519, verify_ed25519, verify_ed25519_cofactored},
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

/* At most one of the n paths may be "-": standard input can be read once. */
static int one_stdin(const char *cmd, const char *const *paths, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += strcmp(paths[i], "-") == 0;
    if (k > 1)
        return vg_cli_usage_error("%s: only one input can be standard input ('-')", cmd);
    return VG_CLI_EXIT_OK;
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

int vg_cli_cmd_sign(int argc, char **argv)
{
    const char *secret_path = NULL, *msg_path = NULL, *out_path = NULL, *pos[1];
    int hex = 0, rc;
    size_t n_pos, msg_len = 0;
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &secret_path, NULL, 1, "secret key file"},
        {'i', "in", &msg_path, NULL, 1, "message file"},
        {'o', "out", &out_path, NULL, 1, "signature output file"},
        {0, "hex", NULL, &hex, 0, NULL},
    };
    uint8_t secret_key[SIG_MAX_SECRET], sig[SIG_MAX_SIG], *msg = NULL;
    const struct sig_alg *alg;
    const char *why = "";

    rc = vg_cli_parse_opts("sign", argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (!(alg = find_alg("sign", pos, n_pos)))
        return VG_CLI_EXIT_USAGE;
    const char *inputs[2] = {secret_path, msg_path};
    if ((rc = one_stdin("sign", inputs, 2)) != VG_CLI_EXIT_OK)
        return rc;

    memset(sig, 0, sizeof sig);
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
    if (alg->sign(sig, msg, msg_len, secret_key) != VG_OK) {
        /* Not reachable for Ed25519 with valid pointers; a hedged ML-DSA
         * signer could see its random source fail. */
        vg_cli_error("sign: signing failed");
        rc = VG_CLI_EXIT_USAGE;
        goto out;
    }
    rc = vg_cli_save("signature", out_path, sig, alg->sig_len, hex);
out:
    free_message(msg, msg_len);
    vg_wipe(secret_key, sizeof secret_key);
    vg_wipe(sig, sizeof sig);
    return rc;
}

int vg_cli_cmd_verify(int argc, char **argv)
{
    const char *public_path = NULL, *msg_path = NULL, *sig_path = NULL, *pos[1];
    int hex = 0, cofactored = 0, rc;
    size_t n_pos, msg_len = 0;
    const struct vg_cli_opt opts[] = {
        {'p', "public", &public_path, NULL, 1, "public key file"},
        {'i', "in", &msg_path, NULL, 1, "message file"},
        {'S', "signature", &sig_path, NULL, 1, "signature file"},
        {0, "hex", NULL, &hex, 0, NULL},
        {0, "cofactored", NULL, &cofactored, 0, NULL},
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
    const char *inputs[3] = {public_path, msg_path, sig_path};
    if ((rc = one_stdin("verify", inputs, 3)) != VG_CLI_EXIT_OK)
        return rc;

    rc = vg_cli_load_key("public key", public_path, public_key, alg->public_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_load_key("signature", sig_path, sig, alg->sig_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = load_message("verify", msg_path, &msg, &msg_len)) != VG_CLI_EXIT_OK)
        goto out;
    if ((cofactored ? alg->verify_cofactored : alg->verify)(sig, msg, msg_len, public_key) !=
        VG_OK) {
        vg_cli_error("verify: signature '%s' is not valid for message '%s' under public key "
                     "'%s'",
                     sig_path, msg_path, public_path);
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
