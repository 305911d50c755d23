/*
 * vgcrypto keygen ALG -s SECRET -p PUBLIC [--hex]
 *
 * Writes a fresh key pair from the operating system's random source: the
 * secret key to SECRET and the public key to PUBLIC, raw bytes (or lowercase
 * hex and a newline with --hex), each atomically (cli_io.h), both with mode
 * 0600. If the public key cannot be written, the secret key file just
 * written is removed again, so a failure leaves no half of a pair behind.
 *
 * The algorithms are the rows of g_algs: a later issue adds ML-KEM-768 or
 * ML-DSA with one row (sizes and the library's keypair function).
 *
 * Key formats (the library's, DESIGN.md section 2):
 *   x25519   secret 32 bytes (the scalar), public 32 bytes (RFC 7748)
 *   ed25519  secret 64 bytes = seed (32) || public key (32), as libsodium
 *            stores it; public 32 bytes (RFC 8032 section 5.1.5). The seed
 *            alone is RFC 8032's "private key"; `sign` checks that the
 *            second half is the public key of the first (cmd_sign.c).
 */
#define _XOPEN_SOURCE 700

#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_io.h"
#include "common.h"
#include "vgcrypto.h"

/* Room for the largest key of any row (ML-DSA-87 secret key, 4896 bytes). */
#define KEYGEN_MAX_SECRET 4896
#define KEYGEN_MAX_PUBLIC 2592

struct keygen_alg {
    const char *name;
    size_t secret_len, public_len;
    /* The library's keypair: VG_OK, or VG_ERR_RANDOM with outputs zeroed. */
    int (*keypair)(uint8_t *public_key, uint8_t *secret_key);
};

static int keypair_x25519(uint8_t *public_key, uint8_t *secret_key)
{
    return vg_x25519_keypair(public_key, secret_key);
}

static int keypair_ed25519(uint8_t *public_key, uint8_t *secret_key)
{
    return vg_ed25519_keypair(public_key, secret_key);
}

static const struct keygen_alg g_algs[] = {
    {"x25519", VG_X25519_BYTES, VG_X25519_BYTES, keypair_x25519},
    {"ed25519", VG_ED25519_SECRETKEYBYTES, VG_ED25519_PUBLICKEYBYTES, keypair_ed25519},
};
#define N_ALGS (sizeof g_algs / sizeof g_algs[0])

/* "x25519, ed25519" for the error lines. */
static void alg_list(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < N_ALGS && used < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", g_algs[i].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int vg_cli_cmd_keygen(int argc, char **argv)
{
    const char *secret_path = NULL, *public_path = NULL, *pos[1];
    int hex = 0, rc;
    size_t n_pos;
    char names[128];
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &secret_path, NULL, 1, "secret key file"},
        {'p', "public", &public_path, NULL, 1, "public key file"},
        {0, "hex", NULL, &hex, 0, NULL},
    };
    uint8_t secret_key[KEYGEN_MAX_SECRET], public_key[KEYGEN_MAX_PUBLIC];
    const struct keygen_alg *alg = NULL;

    alg_list(names, sizeof names);
    if (argc < 2)
        return vg_cli_usage_error("keygen: missing algorithm (one of: %s)", names);
    rc = vg_cli_parse_opts("keygen", argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (n_pos == 0)
        return vg_cli_usage_error("keygen: missing algorithm (one of: %s)", names);
    for (size_t i = 0; i < N_ALGS; i++)
        if (strcmp(pos[0], g_algs[i].name) == 0)
            alg = &g_algs[i];
    if (!alg)
        return vg_cli_usage_error("keygen: unknown algorithm '%s' (one of: %s)", pos[0], names);
    rc = vg_cli_distinct_outputs("keygen", secret_path, public_path);
    if (rc != VG_CLI_EXIT_OK)
        return rc;

    if (alg->keypair(public_key, secret_key) != VG_OK) {
        vg_cli_error("keygen: the operating system's random source failed");
        rc = VG_CLI_EXIT_USAGE;
        goto out;
    }
    rc = vg_cli_save("secret key", secret_path, secret_key, alg->secret_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_save("public key", public_path, public_key, alg->public_len, hex);
    if (rc != VG_CLI_EXIT_OK && strcmp(secret_path, "-") != 0)
        (void)unlink(secret_path); /* no secret key without its public key */
out:
    vg_wipe(secret_key, sizeof secret_key);
    vg_wipe(public_key, sizeof public_key);
    return rc;
}
