/*
 * P-256 and P-384 in the vgcrypto command:
 *   keygen p-256|p-384 -s SECRET -p PUBLIC [--hex]
 *   ecdh p-256|p-384 -s SECRET -p PEER -o SHARED [--hex]
 *   sign p-256|p-384 -s SECRET -i MESSAGE -o SIG [--der] [--deterministic] [--hex]
 *   verify p-256|p-384 -p PUBLIC -i MESSAGE -S SIG [--der] [--hex]
 * Secret keys are the big-endian scalar (32 / 48 bytes), public keys SEC 1
 * (uncompressed written; uncompressed or compressed read), signatures r || s
 * (64 / 96 bytes) or with --der the DER SEQUENCE. The message is streamed
 * through SHA-256 (P-256) or SHA-384 (P-384) and signed as a digest
 * (vg_pNNN_sign_digest: hedged; --deterministic: RFC 6979 exactly).
 * --hex applies to keys, the shared secret and signatures, not to messages.
 *
 * The command table of main.c lists these before the generic keygen, sign
 * and verify: each runs the NIST curves and hands any other algorithm to
 * the generic command unchanged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_io.h"
#include "cli_out.h"
#include "cli_hybrid.h"
#include "cmd_nist.h"
#include "common.h"
#include "vgcrypto.h"

struct nist_alg {
    const char *name;
    size_t nb; /* scalar / coordinate bytes */
    int (*keypair)(uint8_t *, uint8_t *);
    int (*ecdh)(uint8_t *, const uint8_t *, const uint8_t *, size_t);
    int (*sign_digest)(uint8_t *, const uint8_t *, size_t, const uint8_t *);
    int (*sign_derand)(uint8_t *, const uint8_t *, size_t, const uint8_t *, const uint8_t *);
    int (*verify_digest)(const uint8_t *, const uint8_t *, size_t, const uint8_t *, size_t);
};

static int p256_sign_derand(uint8_t *s, const uint8_t *d, size_t l, const uint8_t *k,
                            const uint8_t *r)
{
    return vg_p256_sign_digest_derand(s, d, l, k, r);
}
static int p384_sign_derand(uint8_t *s, const uint8_t *d, size_t l, const uint8_t *k,
                            const uint8_t *r)
{
    return vg_p384_sign_digest_derand(s, d, l, k, r);
}

static const struct nist_alg g_algs[] = {
    {"p-256", 32, vg_p256_keypair, vg_p256_ecdh, vg_p256_sign_digest, p256_sign_derand,
     vg_p256_verify_digest},
    {"p-384", 48, vg_p384_keypair, vg_p384_ecdh, vg_p384_sign_digest, p384_sign_derand,
     vg_p384_verify_digest},
};

static const struct nist_alg *find_alg(int argc, char **argv)
{
    if (argc < 2)
        return NULL;
    for (size_t i = 0; i < sizeof g_algs / sizeof g_algs[0]; i++)
        if (strcmp(argv[1], g_algs[i].name) == 0)
            return &g_algs[i];
    return NULL;
}

/* SHA-256 (nb 32) or SHA-384 (nb 48) of the file at path ("-": standard
 * input), read in chunks. 0, or VG_CLI_EXIT_USAGE after one stderr line. */
static int hash_file(const char *cmd, const char *path, size_t nb, uint8_t *dg)
{
    static uint8_t buf[65536];
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    vg_sha256_state s256;
    vg_sha384_state s384;
    size_t n;
    if (!f)
        return vg_cli_usage_error("%s: cannot open message '%s': %s", cmd, path,
                                  strerror(errno));
    if (nb == 32)
        vg_sha256_init(&s256);
    else
        vg_sha384_init(&s384);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (nb == 32)
            vg_sha256_update(&s256, buf, n);
        else
            vg_sha384_update(&s384, buf, n);
    }
    int err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (nb == 32)
        vg_sha256_final(&s256, dg);
    else
        vg_sha384_final(&s384, dg);
    if (err)
        return vg_cli_usage_error("%s: cannot read message '%s'", cmd, path);
    return VG_CLI_EXIT_OK;
}

/* A SEC 1 public key: uncompressed (1 + 2 nb) or compressed (1 + nb) bytes,
 * raw or hex. Sets *len. Exit code as vg_cli_load_key. */
static int load_point(const char *what, const char *path, uint8_t *out, size_t nb, size_t *len,
                      int hex)
{
    uint8_t *data;
    size_t n;
    /* An SPKI file, PEM or DER (issue 17): decoded by cmd_hybrid.c. */
    int rc = vg_cli_load_encoded_key("", what, path, nb == 32 ? "p-256" : "p-384", 0, out, hex);
    if (rc >= 0) {
        *len = 1 + 2 * nb;
        return rc;
    }
    rc = vg_cli_read_all(path, 2 * (1 + 2 * nb) + 2, &data, &n);
    if (rc == VG_CLI_IO_ESYS)
        return vg_cli_usage_error("cannot read %s '%s': %s", what, path, strerror(errno));
    if (rc == VG_CLI_IO_OK) {
        const size_t lens[2] = {1 + 2 * nb, 1 + nb};
        for (int i = 0; i < 2; i++)
            if (vg_cli_parse_key(data, n, out, lens[i], hex) == VG_CLI_IO_OK) {
                *len = lens[i];
                free(data);
                return VG_CLI_EXIT_OK;
            }
        free(data);
    }
    vg_cli_error("%s '%s': not a SEC 1 point of %zu or %zu bytes%s", what, path, 1 + 2 * nb,
                 1 + nb, hex ? " in hex" : "");
    return VG_CLI_EXIT_REJECT;
}

/* A secret key: a PKCS#8 file (PEM or DER, decoded by cmd_hybrid.c), or
 * the raw scalar (hex with --hex). */
static int load_secret(const char *cmd, const struct nist_alg *a, const char *path, uint8_t *sk,
                       int hex)
{
    int rc = vg_cli_load_encoded_key(cmd, "secret key", path, a->name, 1, sk, hex);
    return rc >= 0 ? rc : vg_cli_load_key("secret key", path, sk, a->nb, hex);
}

int vg_cli_cmd_nist_keygen(int argc, char **argv)
{
    const struct nist_alg *a = find_alg(argc, argv);
    if (!a)
        return vg_cli_cmd_keygen(argc, argv);
    /* --pem / --der: PKCS#8 and SPKI files, written by cmd_hybrid.c (issue 17) */
    int ext = vg_cli_keygen_ext(argc, argv);
    if (ext >= 0)
        return ext;
    const char *sk_path = NULL, *pk_path = NULL;
    int hex = 0, rc;
    size_t n_pos;
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &sk_path, NULL, 1, "secret key output file"},
        {'p', "public", &pk_path, NULL, 1, "public key output file"},
        {0, "hex", NULL, &hex, 0, NULL},
    };
    uint8_t sk[48], pk[97];
    struct vg_cli_outputs outs;
    const char *paths[2], *whats[2] = {"secret key", "public key"};
    outs.n = 0;
    rc = vg_cli_parse_opts("keygen", argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    paths[0] = sk_path;
    paths[1] = pk_path;
    memset(sk, 0, sizeof sk);
    rc = vg_cli_outputs_open(&outs, "keygen", paths, whats, 2, NULL, 0);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if (a->keypair(pk, sk) != VG_OK) {
        rc = vg_cli_usage_error("keygen: the random source failed");
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, sk, a->nb, hex)) == 0 &&
        (rc = vg_cli_output_write(&outs, 1, pk, 1 + 2 * a->nb, hex)) == 0)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(sk, sizeof sk);
    return rc;
}

int vg_cli_cmd_nist_ecdh(int argc, char **argv)
{
    const struct nist_alg *a = find_alg(argc, argv);
    if (!a)
        return vg_cli_usage_error("ecdh: the first argument must be p-256 or p-384");
    const char *sk_path = NULL, *peer_path = NULL, *out_path = NULL;
    int hex = 0, rc;
    size_t n_pos, peer_len = 0;
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &sk_path, NULL, 1, "secret key file"},
        {'p', "peer", &peer_path, NULL, 1, "peer public key file"},
        {'o', "out", &out_path, NULL, 1, "shared secret output file"},
        {0, "hex", NULL, &hex, 0, NULL},
    };
    uint8_t sk[48], peer[97], shared[48];
    static const char *const what = "shared secret";
    struct vg_cli_outputs outs;
    outs.n = 0;
    rc = vg_cli_parse_opts("ecdh", argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    const char *inputs[2] = {sk_path, peer_path};
    if ((rc = vg_cli_one_stdin("ecdh", inputs, 2)) != VG_CLI_EXIT_OK)
        return rc;
    memset(sk, 0, sizeof sk);
    memset(shared, 0, sizeof shared);
    rc = vg_cli_outputs_open(&outs, "ecdh", &out_path, &what, 1, inputs, 2);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = load_secret("ecdh", a, sk_path, sk, hex)) != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = load_point("peer public key", peer_path, peer, a->nb, &peer_len, hex)) !=
        VG_CLI_EXIT_OK)
        goto out;
    if (a->ecdh(shared, sk, peer, peer_len) != VG_OK) {
        vg_cli_error("ecdh: rejected: a secret key not in [1, n-1], a peer key not on %s, or "
                     "an all-zero shared secret; nothing written", a->name);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, shared, a->nb, hex)) == 0)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(sk, sizeof sk);
    vg_wipe(shared, sizeof shared);
    return rc;
}

int vg_cli_cmd_nist_sign(int argc, char **argv)
{
    const struct nist_alg *a = find_alg(argc, argv);
    if (!a)
        return vg_cli_cmd_sign(argc, argv);
    const char *sk_path = NULL, *in_path = NULL, *out_path = NULL;
    int hex = 0, der = 0, det = 0, rc;
    size_t n_pos;
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &sk_path, NULL, 1, "secret key file"},
        {'i', "in", &in_path, NULL, 1, "message file"},
        {'o', "out", &out_path, NULL, 1, "signature output file"},
        {0, "hex", NULL, &hex, 0, NULL},
        {0, "der", NULL, &der, 0, NULL},
        {0, "deterministic", NULL, &det, 0, NULL},
    };
    uint8_t sk[48], dg[48], sig[96], dbuf[112], zero[48] = {0};
    size_t dlen = 0;
    static const char *const what = "signature";
    struct vg_cli_outputs outs;
    outs.n = 0;
    rc = vg_cli_parse_opts("sign", argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    const char *inputs[2] = {sk_path, in_path};
    if ((rc = vg_cli_one_stdin("sign", inputs, 2)) != VG_CLI_EXIT_OK)
        return rc;
    memset(sk, 0, sizeof sk);
    rc = vg_cli_outputs_open(&outs, "sign", &out_path, &what, 1, inputs, 2);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = load_secret("sign", a, sk_path, sk, hex)) != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = hash_file("sign", in_path, a->nb, dg)) != VG_CLI_EXIT_OK)
        goto out;
    int s = det ? a->sign_derand(sig, dg, a->nb, sk, zero) : a->sign_digest(sig, dg, a->nb, sk);
    if (s == VG_ERR_RANDOM) {
        rc = vg_cli_usage_error("sign: the random source failed");
        goto out;
    }
    if (s != VG_OK) {
        vg_cli_error("sign: the secret key is not in [1, n-1] for %s", a->name);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    if (der) {
        if (vg_ecdsa_sig_to_der(dbuf, &dlen, sizeof dbuf, sig, 2 * a->nb) != VG_OK) {
            rc = vg_cli_usage_error("sign: DER encoding failed");
            goto out;
        }
        rc = vg_cli_output_write(&outs, 0, dbuf, dlen, hex);
    } else {
        rc = vg_cli_output_write(&outs, 0, sig, 2 * a->nb, hex);
    }
    if (rc == 0)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(sk, sizeof sk);
    return rc;
}

int vg_cli_cmd_nist_verify(int argc, char **argv)
{
    const struct nist_alg *a = find_alg(argc, argv);
    if (!a)
        return vg_cli_cmd_verify(argc, argv);
    const char *pk_path = NULL, *in_path = NULL, *sig_path = NULL;
    int hex = 0, der = 0, rc;
    size_t n_pos, pk_len = 0;
    const struct vg_cli_opt opts[] = {
        {'p', "public", &pk_path, NULL, 1, "public key file"},
        {'i', "in", &in_path, NULL, 1, "message file"},
        {'S', "sig", &sig_path, NULL, 1, "signature file"},
        {0, "hex", NULL, &hex, 0, NULL},
        {0, "der", NULL, &der, 0, NULL},
    };
    uint8_t pk[97], dg[48], sig[96];
    rc = vg_cli_parse_opts("verify", argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    const char *inputs[3] = {pk_path, in_path, sig_path};
    if ((rc = vg_cli_one_stdin("verify", inputs, 3)) != VG_CLI_EXIT_OK)
        return rc;
    if ((rc = load_point("public key", pk_path, pk, a->nb, &pk_len, hex)) != VG_CLI_EXIT_OK)
        return rc;
    if (der) {
        uint8_t *data, raw[112];
        size_t n;
        int r = vg_cli_read_all(sig_path, 2 * sizeof raw + 2, &data, &n);
        if (r == VG_CLI_IO_ESYS)
            return vg_cli_usage_error("verify: cannot read signature '%s': %s", sig_path,
                                      strerror(errno));
        size_t rl = 0;
        int ok = 0;
        if (r == VG_CLI_IO_OK) {
            if (!hex && n <= sizeof raw) {
                memcpy(raw, data, n);
                rl = n;
                ok = 1;
            } else if (hex) {
                for (size_t l = 8; l <= sizeof raw && !ok; l++)
                    if (vg_cli_parse_key(data, n, raw, l, 1) == VG_CLI_IO_OK)
                        rl = l, ok = 1;
            }
        }
        free(data);
        if (!ok || vg_ecdsa_sig_from_der(sig, 2 * a->nb, raw, rl) != VG_OK) {
            vg_cli_error("verify: signature '%s' is not a strict DER ECDSA signature for %s",
                         sig_path, a->name);
            return VG_CLI_EXIT_REJECT;
        }
    } else if ((rc = vg_cli_load_key("signature", sig_path, sig, 2 * a->nb, hex)) !=
               VG_CLI_EXIT_OK) {
        return rc;
    }
    if ((rc = hash_file("verify", in_path, a->nb, dg)) != VG_CLI_EXIT_OK)
        return rc;
    if (a->verify_digest(sig, dg, a->nb, pk, pk_len) != VG_OK) {
        vg_cli_error("verify: invalid signature (or a public key not on %s)", a->name);
        return VG_CLI_EXIT_REJECT;
    }
    printf("OK\n");
    return VG_CLI_EXIT_OK;
}
