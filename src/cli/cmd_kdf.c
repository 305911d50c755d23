/*
 * vgcrypto kdf hkdf-sha256|hkdf-sha384|hkdf-sha512 --ikm FILE [--salt FILE]
 *              [--info STR] --length N -o OUT [--hex]
 *
 * HKDF (RFC 5869): OKM = HKDF-Expand(HKDF-Extract(salt, IKM), info, L) with
 * L = N bytes, 1 <= N <= 255 * HashLen (RFC 5869 2.3; 8160, 12240 or 16320
 * bytes), through the library's one-shot vg_hkdf_sha*.
 *   --ikm FILE   the input keying material, the whole file (at most
 *                KDF_INPUT_MAX bytes; "-" standard input);
 *   --salt FILE  the salt, the whole file; absent: no salt, which RFC 5869
 *                2.2 defines as HashLen zero bytes (the same result);
 *   --info STR   the bytes of STR as given (may be empty; default empty);
 *   --hex        IKM and salt files in hex (an even number of digits,
 *                optionally one newline), OUT as hex and a newline.
 * OUT is written atomically (cli_out.h, mode 0600) and may not be the IKM
 * or salt file. Exit codes (cli.h): 0; 1 for an IKM or salt file with bad
 * hex; 2 for usage errors (a length of 0 or over 255 * HashLen, checked
 * before any file is read), unreadable or oversized inputs, an unwritable
 * OUT.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_io.h"
#include "cli_out.h"
#include "common.h"
#include "vgcrypto.h"

/* The largest IKM or salt file (16 MiB): both are read whole. */
#define KDF_INPUT_MAX ((size_t)16 << 20)

struct kdf_alg {
    const char *name;
    size_t hash_len; /* HashLen: 32, 48, 64 */
    int (*hkdf)(uint8_t *out, size_t out_len, const uint8_t *salt, size_t salt_len,
                const uint8_t *ikm, size_t ikm_len, const uint8_t *info, size_t info_len);
};

static const struct kdf_alg g_kdf_algs[] = {
    {"hkdf-sha256", 32, vg_hkdf_sha256},
    {"hkdf-sha384", 48, vg_hkdf_sha384},
    {"hkdf-sha512", 64, vg_hkdf_sha512},
};
#define KDF_NAMES "hkdf-sha256, hkdf-sha384, hkdf-sha512"

/* One secret input file, whole. Exit code after at most one line. */
static int load_input(const char *what, const char *path, int hex, uint8_t **out, size_t *len)
{
    int rc = vg_cli_read_secret(path, KDF_INPUT_MAX, hex, out, len);
    if (rc == VG_CLI_IO_OK)
        return VG_CLI_EXIT_OK;
    if (rc == VG_CLI_IO_ETOOBIG)
        return vg_cli_usage_error("kdf: %s '%s' is larger than 16 MiB", what, path);
    if (rc == VG_CLI_IO_EFORMAT) {
        vg_cli_error("kdf: %s '%s' must be an even number of hex digits (optionally one "
                     "newline)",
                     what, path);
        return VG_CLI_EXIT_REJECT;
    }
    return vg_cli_usage_error("kdf: cannot read %s '%s': %s", what, path, strerror(errno));
}

int vg_cli_cmd_kdf(int argc, char **argv)
{
    const char *ikm_path = NULL, *salt_path = NULL, *info = NULL, *length = NULL;
    const char *out_path = NULL, *pos[1];
    int hex = 0, rc;
    size_t n_pos, out_len = 0, ikm_len = 0, salt_len = 0;
    uint8_t *ikm = NULL, *salt = NULL, *okm = NULL;
    const struct kdf_alg *alg = NULL;
    static const char *const what = "output key";
    struct vg_cli_outputs outs;
    const struct vg_cli_opt opts[] = {
        {0, "ikm", &ikm_path, NULL, 1, "input keying material file"},
        {0, "salt", &salt_path, NULL, 0, "salt file"},
        {0, "info", &info, NULL, VG_CLI_OPT_EMPTY_OK, "info string"},
        {0, "length", &length, NULL, 1, "number of bytes"},
        {'o', "out", &out_path, NULL, 1, "output file"},
        {0, "hex", NULL, &hex, 0, NULL},
    };
    outs.n = 0;
    rc = vg_cli_parse_opts("kdf", argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (n_pos == 0)
        return vg_cli_usage_error("kdf: missing algorithm (one of: %s)", KDF_NAMES);
    for (size_t i = 0; i < sizeof g_kdf_algs / sizeof g_kdf_algs[0]; i++)
        if (strcmp(pos[0], g_kdf_algs[i].name) == 0)
            alg = &g_kdf_algs[i];
    if (!alg)
        return vg_cli_usage_error("kdf: unknown algorithm '%s' (one of: %s)", pos[0], KDF_NAMES);
    /* RFC 5869 2.3: L <= 255 * HashLen. */
    if (vg_cli_parse_size(length, 1, 255 * alg->hash_len, &out_len) != 0)
        return vg_cli_usage_error("kdf: --length must be a number from 1 to %zu for %s "
                                  "(RFC 5869: 255 * HashLen), not '%s'",
                                  255 * alg->hash_len, alg->name, length);
    const char *inputs[2] = {ikm_path, salt_path};
    if ((rc = vg_cli_one_stdin("kdf", inputs, 2)) != VG_CLI_EXIT_OK)
        return rc;
    rc = vg_cli_outputs_open(&outs, "kdf", &out_path, &what, 1, inputs, 2);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = load_input("input keying material", ikm_path, hex, &ikm, &ikm_len)) != 0)
        goto out;
    if (salt_path && (rc = load_input("salt", salt_path, hex, &salt, &salt_len)) != 0)
        goto out;
    rc = VG_CLI_EXIT_USAGE;
    if (!(okm = malloc(out_len))) {
        vg_cli_error("kdf: out of memory");
        goto out;
    }
    /* Lengths and pointers are valid, so VG_OK; anything else is a bug,
     * reported rather than written. */
    if (alg->hkdf(okm, out_len, salt, salt_len, ikm, ikm_len, (const uint8_t *)info,
                  info ? strlen(info) : 0) != VG_OK) {
        vg_cli_error("kdf: %s failed", alg->name);
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, okm, out_len, hex)) == VG_CLI_EXIT_OK)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    if (okm) {
        vg_wipe(okm, out_len);
        free(okm);
    }
    if (ikm) {
        vg_wipe(ikm, ikm_len);
        free(ikm);
    }
    if (salt) {
        vg_wipe(salt, salt_len);
        free(salt);
    }
    return rc;
}
