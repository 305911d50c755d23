/*
 * vgcrypto x25519 -s SECRET -p PEER_PUBLIC -o SHARED [--hex]
 *
 * The X25519 shared secret (RFC 7748 section 6.1) of our secret key and the
 * peer's public key, each a 32-byte file (64 hex digits with --hex, which
 * applies to the inputs and the output alike). Input errors follow
 * vg_cli_load_key: unreadable file -> 2, wrong length or bad hex -> 1.
 * An all-zero shared secret (the peer key has small order) is rejected
 * input: exit 1 and SHARED is not written. The output is written
 * atomically (cli_out.h) and may not be one of the inputs; every buffer
 * holding key material is wiped.
 */
#include <string.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_hybrid.h"
#include "cli_io.h"
#include "cli_out.h"
#include "common.h"
#include "vgcrypto.h"

int vg_cli_cmd_x25519(int argc, char **argv)
{
    const char *secret_path = NULL, *peer_path = NULL, *out_path = NULL;
    int hex = 0, rc;
    size_t n_pos;
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &secret_path, NULL, 1, "secret key file"},
        {'p', "peer", &peer_path, NULL, 1, "peer public key file"},
        {'o', "out", &out_path, NULL, 1, "shared secret output file"},
        {0, "hex", NULL, &hex, 0, NULL},
    };
    uint8_t secret[VG_X25519_BYTES], peer[VG_X25519_BYTES], shared[VG_X25519_BYTES];
    static const char *const what = "shared secret";
    struct vg_cli_outputs outs;

    outs.n = 0;

    rc = vg_cli_parse_opts("x25519", argc, argv, 1, opts, sizeof opts / sizeof opts[0], NULL, 0,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    const char *inputs[2] = {secret_path, peer_path};
    if ((rc = vg_cli_one_stdin("x25519", inputs, 2)) != VG_CLI_EXIT_OK)
        return rc;

    memset(secret, 0, sizeof secret);
    memset(shared, 0, sizeof shared);
    rc = vg_cli_outputs_open(&outs, "x25519", &out_path, &what, 1, inputs, 2);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    /* PKCS#8 / SPKI (PEM or DER) files too, told apart by content (issue 17) */
    rc = vg_cli_load_encoded_key("x25519", "secret key", secret_path, "x25519", 1, secret, hex);
    if (rc < 0)
        rc = vg_cli_load_key("secret key", secret_path, secret, sizeof secret, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_load_encoded_key("x25519", "peer public key", peer_path, "x25519", 0, peer, hex);
    if (rc < 0)
        rc = vg_cli_load_key("peer public key", peer_path, peer, sizeof peer, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if (vg_x25519(shared, secret, peer) != VG_OK) {
        vg_cli_error("x25519: the shared secret is all zero (the peer public key has small "
                     "order, RFC 7748 section 6.1); nothing written");
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, shared, sizeof shared, hex)) == 0)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(secret, sizeof secret);
    vg_wipe(peer, sizeof peer);
    vg_wipe(shared, sizeof shared);
    return rc;
}
