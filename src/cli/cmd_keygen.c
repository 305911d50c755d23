/*
 * vgcrypto keygen ALG -s SECRET -p PUBLIC [--hex]
 *
 * Writes a fresh key pair from the operating system's random source: the
 * secret key to SECRET and the public key to PUBLIC, raw bytes (or lowercase
 * hex and a newline with --hex), both with mode 0600, all or nothing
 * (cli_out.h, docs/cli.md): both temporaries are written before either is
 * renamed into place, the secret key first, so a failure replaces neither
 * file and leaves no half of a pair behind.
 *
 * The algorithms are the rows of g_algs (sizes and the library's keypair
 * function); the three parameter sets of ML-KEM and of ML-DSA are rows
 * too. The same file holds `encaps` and `decaps` on the table g_kems
 * (below), so that the three ML-KEM sets share one implementation of each
 * command.
 *
 * Key formats (the library's, DESIGN.md section 2):
 *   x25519   secret 32 bytes (the scalar), public 32 bytes (RFC 7748)
 *   ed25519  secret 64 bytes = seed (32) || public key (32), as libsodium
 *            stores it; public 32 bytes (RFC 8032 section 5.1.5). The seed
 *            alone is RFC 8032's "private key"; `sign` checks that the
 *            second half is the public key of the first (cmd_sign.c).
 *   ml-kem-512, ml-kem-768, ml-kem-1024
 *            secret = the FIPS 203 decapsulation key dk, public = the
 *            encapsulation key ek, both in the standard byte encodings
 *            (FIPS 203 Algorithm 16; sizes in vgcrypto.h).
 *   ml-dsa-44, ml-dsa-65, ml-dsa-87
 *            secret = the FIPS 204 secret key skEncode(rho, K, tr, s1, s2, t0)
 *            (Algorithm 24), public = pkEncode(rho, t1) (Algorithm 22), as
 *            ML-DSA.KeyGen (Algorithm 1) gives them from a fresh 32-byte
 *            seed; the seed itself is not kept. Sizes in vgcrypto.h.
 */
#define _XOPEN_SOURCE 700

#include <string.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_hybrid.h"
#include "cli_io.h"
#include "cli_out.h"
#include "common.h"
#include "vgcrypto.h"

/* Room for the largest key of any row (ML-DSA-87: secret key 4896 bytes,
 * public key 2592). */
#define KEYGEN_MAX_SECRET VG_MLDSA87_SECRETKEYBYTES
#define KEYGEN_MAX_PUBLIC VG_MLDSA87_PUBLICKEYBYTES

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
    {"ml-kem-512", VG_MLKEM512_SECRETKEYBYTES, VG_MLKEM512_PUBLICKEYBYTES, vg_mlkem512_keypair},
    {"ml-kem-768", VG_MLKEM768_SECRETKEYBYTES, VG_MLKEM768_PUBLICKEYBYTES, vg_mlkem768_keypair},
    {"ml-kem-1024", VG_MLKEM1024_SECRETKEYBYTES, VG_MLKEM1024_PUBLICKEYBYTES,
     vg_mlkem1024_keypair},
    {"ml-dsa-44", VG_MLDSA44_SECRETKEYBYTES, VG_MLDSA44_PUBLICKEYBYTES, vg_mldsa44_keypair},
    {"ml-dsa-65", VG_MLDSA65_SECRETKEYBYTES, VG_MLDSA65_PUBLICKEYBYTES, vg_mldsa65_keypair},
    {"ml-dsa-87", VG_MLDSA87_SECRETKEYBYTES, VG_MLDSA87_PUBLICKEYBYTES, vg_mldsa87_keypair},
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
    char names[160];
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &secret_path, NULL, 1, "secret key file"},
        {'p', "public", &public_path, NULL, 1, "public key file"},
        {0, "hex", NULL, &hex, 0, NULL},
    };
    uint8_t secret_key[KEYGEN_MAX_SECRET], public_key[KEYGEN_MAX_PUBLIC];
    const struct keygen_alg *alg = NULL;
    /* The secret key is renamed first: after a crash between the two
     * renames the new secret key is in place, and its public key can be
     * derived from it again (docs/cli.md). */
    static const char *const whats[2] = {"secret key", "public key"};
    struct vg_cli_outputs outs;

    /* x-wing, x25519-mlkem768, --pem / --der: cmd_hybrid.c (issue 17) */
    int ext = vg_cli_keygen_ext(argc, argv);
    if (ext >= 0)
        return ext;
    outs.n = 0;
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
    const char *paths[2] = {secret_path, public_path};
    rc = vg_cli_outputs_open(&outs, "keygen", paths, whats, 2, NULL, 0);
    if (rc != VG_CLI_EXIT_OK)
        goto out;

    if (alg->keypair(public_key, secret_key) != VG_OK) {
        vg_cli_error("keygen: the operating system's random source failed");
        rc = VG_CLI_EXIT_USAGE;
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, secret_key, alg->secret_len, hex)) != 0 ||
        (rc = vg_cli_output_write(&outs, 1, public_key, alg->public_len, hex)) != 0)
        goto out;
    rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(secret_key, sizeof secret_key);
    vg_wipe(public_key, sizeof public_key);
    return rc;
}

/* ---- encaps and decaps (ML-KEM, FIPS 203) -------------------------------
 *
 * vgcrypto encaps ALG -p PUBLIC -c CIPHERTEXT -k SHARED [--hex]
 *     ML-KEM.Encaps (FIPS 203 Algorithm 20) with fresh randomness: writes
 *     the ciphertext to CIPHERTEXT and the 32-byte shared secret to SHARED.
 * vgcrypto decaps ALG -s SECRET -c CIPHERTEXT -k SHARED [--hex]
 *     ML-KEM.Decaps (Algorithm 21): writes the 32-byte shared secret.
 *
 * Exit codes (cli.h): 1 for a key or ciphertext of the wrong length or
 * with bad hex, an encapsulation key failing the modulus check (FIPS 203
 * section 7.2: a 12-bit coefficient >= q) and a decapsulation key failing
 * the hash check (section 7.3: the stored H(ek) differs from the hash of
 * the stored ek); nothing is written then. A ciphertext of the right length
 * is never rejected: decapsulation of a wrong one gives the implicit
 * rejection secret (Algorithm 18 line 9 onwards), as the standard says.
 * 2 for usage errors, unreadable inputs, unwritable outputs and a failing
 * random source. Outputs are written all or nothing (mode 0600, cli_out.h):
 * encaps replaces neither CIPHERTEXT nor SHARED unless both were written,
 * and renames CIPHERTEXT first. Every buffer holding the secret key or
 * shared secret is wiped.
 */

/* Room for the largest sizes of any row (ML-KEM-1024). */
#define KEM_MAX_PUBLIC VG_MLKEM1024_PUBLICKEYBYTES
#define KEM_MAX_SECRET VG_MLKEM1024_SECRETKEYBYTES
#define KEM_MAX_CT VG_MLKEM1024_CIPHERTEXTBYTES

struct kem_alg {
    const char *name;
    size_t public_len, secret_len, ct_len;
    /* VG_OK; VG_ERR_INPUT (modulus check) or VG_ERR_RANDOM, outputs zeroed. */
    int (*encaps)(uint8_t *ct, uint8_t ss[32], const uint8_t *pk);
    /* VG_OK; VG_ERR_INPUT (hash check), ss zeroed. */
    int (*decaps)(uint8_t ss[32], const uint8_t *ct, const uint8_t *sk);
};

static const struct kem_alg g_kems[] = {
    {"ml-kem-512", VG_MLKEM512_PUBLICKEYBYTES, VG_MLKEM512_SECRETKEYBYTES,
     VG_MLKEM512_CIPHERTEXTBYTES, vg_mlkem512_encaps, vg_mlkem512_decaps},
    {"ml-kem-768", VG_MLKEM768_PUBLICKEYBYTES, VG_MLKEM768_SECRETKEYBYTES,
     VG_MLKEM768_CIPHERTEXTBYTES, vg_mlkem768_encaps, vg_mlkem768_decaps},
    {"ml-kem-1024", VG_MLKEM1024_PUBLICKEYBYTES, VG_MLKEM1024_SECRETKEYBYTES,
     VG_MLKEM1024_CIPHERTEXTBYTES, vg_mlkem1024_encaps, vg_mlkem1024_decaps},
};
#define N_KEMS (sizeof g_kems / sizeof g_kems[0])
#define KEM_NAMES "ml-kem-512, ml-kem-768, ml-kem-1024"

/* Options and algorithm of encaps (decaps = 0) or decaps (decaps = 1).
 * Post: VG_CLI_EXIT_OK with *alg and the paths set, else the exit code
 * after one stderr line. */
static int kem_args(const char *cmd, int decaps, int argc, char **argv,
                    const struct kem_alg **alg, const char **key_path, const char **ct_path,
                    const char **ss_path, int *hex)
{
    const char *pos[1];
    size_t n_pos;
    int rc;
    const struct vg_cli_opt opts[] = {
        {decaps ? 's' : 'p', decaps ? "secret" : "public", key_path, NULL, 1,
         decaps ? "secret key file" : "public key file"},
        {'c', "ciphertext", ct_path, NULL, 1, "ciphertext file"},
        {'k', "shared", ss_path, NULL, 1, "shared secret output file"},
        {0, "hex", NULL, hex, 0, NULL},
    };
    if (argc < 2)
        return vg_cli_usage_error("%s: missing algorithm (one of: %s)", cmd, KEM_NAMES);
    rc = vg_cli_parse_opts(cmd, argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (n_pos == 0)
        return vg_cli_usage_error("%s: missing algorithm (one of: %s)", cmd, KEM_NAMES);
    *alg = NULL;
    for (size_t i = 0; i < N_KEMS; i++)
        if (strcmp(pos[0], g_kems[i].name) == 0)
            *alg = &g_kems[i];
    if (!*alg)
        return vg_cli_usage_error("%s: unknown algorithm '%s' (one of: %s)", cmd, pos[0],
                                  KEM_NAMES);
    return VG_CLI_EXIT_OK;
}

int vg_cli_cmd_encaps(int argc, char **argv)
{
    const char *pk_path = NULL, *ct_path = NULL, *ss_path = NULL;
    const struct kem_alg *alg = NULL;
    int hex = 0, rc, r;
    uint8_t pk[KEM_MAX_PUBLIC], ct[KEM_MAX_CT], ss[VG_MLKEM_SHAREDSECRETBYTES];
    static const char *const whats[2] = {"ciphertext", "shared secret"};
    struct vg_cli_outputs outs;

    /* x-wing, x25519-mlkem768: cmd_hybrid.c (issue 17) */
    int ext = vg_cli_encaps_ext(argc, argv);
    if (ext >= 0)
        return ext;
    outs.n = 0;
    memset(ss, 0, sizeof ss);
    memset(ct, 0, sizeof ct);
    rc = kem_args("encaps", 0, argc, argv, &alg, &pk_path, &ct_path, &ss_path, &hex);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    const char *paths[2] = {ct_path, ss_path};
    rc = vg_cli_outputs_open(&outs, "encaps", paths, whats, 2, &pk_path, 1);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_load_key("public key", pk_path, pk, alg->public_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    r = alg->encaps(ct, ss, pk);
    if (r == VG_ERR_INPUT) {
        vg_cli_error("encaps: the %s public key in '%s' has a coefficient >= q (FIPS 203 "
                     "section 7.2 modulus check); nothing written", alg->name, pk_path);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    if (r != VG_OK) {
        vg_cli_error("encaps: the operating system's random source failed");
        rc = VG_CLI_EXIT_USAGE;
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, ct, alg->ct_len, hex)) != 0 ||
        (rc = vg_cli_output_write(&outs, 1, ss, sizeof ss, hex)) != 0)
        goto out;
    rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(ss, sizeof ss);
    vg_wipe(ct, sizeof ct); /* not secret, but derived from the secret m */
    return rc;
}

int vg_cli_cmd_decaps(int argc, char **argv)
{
    const char *sk_path = NULL, *ct_path = NULL, *ss_path = NULL;
    const struct kem_alg *alg = NULL;
    int hex = 0, rc;
    uint8_t sk[KEM_MAX_SECRET], ct[KEM_MAX_CT], ss[VG_MLKEM_SHAREDSECRETBYTES];
    static const char *const what = "shared secret";
    struct vg_cli_outputs outs;

    /* x-wing, x25519-mlkem768: cmd_hybrid.c (issue 17) */
    int ext = vg_cli_decaps_ext(argc, argv);
    if (ext >= 0)
        return ext;
    outs.n = 0;
    memset(sk, 0, sizeof sk);
    memset(ss, 0, sizeof ss);
    rc = kem_args("decaps", 1, argc, argv, &alg, &sk_path, &ct_path, &ss_path, &hex);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    const char *inputs[2] = {sk_path, ct_path};
    if ((rc = vg_cli_one_stdin("decaps", inputs, 2)) != VG_CLI_EXIT_OK)
        return rc;
    rc = vg_cli_outputs_open(&outs, "decaps", &ss_path, &what, 1, inputs, 2);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_load_key("secret key", sk_path, sk, alg->secret_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_load_key("ciphertext", ct_path, ct, alg->ct_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if (alg->decaps(ss, ct, sk) != VG_OK) {
        vg_cli_error("decaps: the %s secret key in '%s' fails the FIPS 203 section 7.3 hash "
                     "check (its H(ek) field is not the hash of its ek); nothing written",
                     alg->name, sk_path);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, ss, sizeof ss, hex)) == 0)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(sk, sizeof sk);
    vg_wipe(ss, sizeof ss);
    return rc;
}
