/*
 * vgcrypto pkey [ALG] -i IN -o OUT [--pubin] [--pubout] [--pem | --der | --raw]
 *               [--form seed|expanded|both] [--hex]
 *
 * Converts a key between the library's raw form and PKCS#8 / SPKI in DER or
 * PEM (docs/encodings.md). IN is told apart by content: PEM text, a DER
 * PKCS#8 or SPKI object, or else a raw key of algorithm ALG (a secret key
 * unless --pubin; --hex: in hex). Raw secret keys may also be the seed:
 * 64 bytes for ML-KEM, 32 for ML-DSA and Ed25519.
 * Output (default --pem): --pubout writes the public key (SPKI, or --raw the
 * raw public key); otherwise a secret key stays secret: PKCS#8 in the form
 * --form (default: the seed when there is one), or --raw the library's raw
 * secret key (ML-KEM dk, ML-DSA sk, Ed25519 seed || public key). The public
 * key of an ML-DSA key given only in its expanded form cannot be derived
 * (the library's ML-DSA API regenerates keys from seeds only): exit 1.
 * Exit 1 for a malformed or inconsistent key, 2 for usage errors.
 */
#define _XOPEN_SOURCE 700

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_hybrid.h"
#include "cli_io.h"
#include "cli_out.h"
#include "common.h"
#include "vgcrypto.h"

struct pk_alg {
    const char *name;
    vg_key_alg key;
    size_t seed, exp, pk; /* seed (or the key for X25519/X-Wing), expanded, public */
};

static const struct pk_alg g_palgs[] = {
    {"x25519", VG_KEY_X25519, 32, 0, 32},
    {"ed25519", VG_KEY_ED25519, 32, 0, 32},
    {"ml-kem-512", VG_KEY_MLKEM512, 64, 1632, 800},
    {"ml-kem-768", VG_KEY_MLKEM768, 64, 2400, 1184},
    {"ml-kem-1024", VG_KEY_MLKEM1024, 64, 3168, 1568},
    {"ml-dsa-44", VG_KEY_MLDSA44, 32, 2560, 1312},
    {"ml-dsa-65", VG_KEY_MLDSA65, 32, 4032, 1952},
    {"ml-dsa-87", VG_KEY_MLDSA87, 32, 4896, 2592},
    {"x-wing", VG_KEY_XWING, 32, 0, 1216},
    {"p-256", VG_KEY_P256, 32, 0, 65},
    {"p-384", VG_KEY_P384, 48, 0, 97},
};
#define N_PALGS (sizeof g_palgs / sizeof g_palgs[0])
#define PALG_NAMES                                                                          \
    "x25519, ed25519, ml-kem-512, ml-kem-768, ml-kem-1024, ml-dsa-44, ml-dsa-65, "          \
    "ml-dsa-87, x-wing, p-256, p-384"

/* The work area: every key buffer, wiped at the exit. */
struct pkey_ws {
    uint8_t key[VG_KEY_SECRET_MAXBYTES]; /* seed, or expanded key, or raw secret */
    uint8_t exp[VG_KEY_SECRET_MAXBYTES];
    uint8_t pk[VG_KEY_PUBLIC_MAXBYTES];
    uint8_t out[VG_KEY_ENCODED_MAXBYTES];
    uint8_t edsk[64];
};

/* Public key (and, for lattice seeds, the expanded key into exp) of key
 * (key_len bytes: the seed, or the expanded key). VG_ERR_INPUT when it
 * cannot be derived (ML-DSA expanded only). */
static int derive(const struct pk_alg *a, struct pkey_ws *w, size_t key_len)
{
    int seed = key_len == a->seed;
    switch (a->key) {
    case VG_KEY_X25519: return vg_x25519_public_key(w->pk, w->key);
    case VG_KEY_ED25519: return vg_ed25519_keypair_from_seed(w->pk, w->edsk, w->key);
    case VG_KEY_XWING: return vg_xwing_keypair_derand(w->pk, w->edsk, w->key);
    case VG_KEY_P256: return vg_p256_public_key(w->pk, w->key);
    case VG_KEY_P384: return vg_p384_public_key(w->pk, w->key);
    case VG_KEY_MLKEM512:
    case VG_KEY_MLKEM768:
    case VG_KEY_MLKEM1024:
        if (!seed) { /* dk = dk_pke || ek || H(ek) || z (FIPS 203 Algorithm 16) */
            memcpy(w->exp, w->key, a->exp);
            memcpy(w->pk, w->key + (a->exp - a->pk - 64), a->pk);
            return VG_OK;
        }
        return a->key == VG_KEY_MLKEM512   ? vg_mlkem512_keypair_derand(w->pk, w->exp, w->key)
               : a->key == VG_KEY_MLKEM768 ? vg_mlkem768_keypair_derand(w->pk, w->exp, w->key)
                                           : vg_mlkem1024_keypair_derand(w->pk, w->exp, w->key);
    default:
        if (!seed) {
            memcpy(w->exp, w->key, a->exp);
            return VG_ERR_INPUT;
        }
        return a->key == VG_KEY_MLDSA44   ? vg_mldsa44_keypair_derand(w->pk, w->exp, w->key)
               : a->key == VG_KEY_MLDSA65 ? vg_mldsa65_keypair_derand(w->pk, w->exp, w->key)
                                          : vg_mldsa87_keypair_derand(w->pk, w->exp, w->key);
    }
}

int vg_cli_cmd_pkey(int argc, char **argv)
{
    const char *in_path = NULL, *out_path = NULL, *form_s = NULL, *pos[1];
    int pubin = 0, pubout = 0, pem = 0, der = 0, raw = 0, hex = 0, rc;
    size_t n_pos, n = 0, key_len = 0, out_len = 0;
    const struct vg_cli_opt opts[] = {
        {'i', "in", &in_path, NULL, 1, "input key file"},
        {'o', "out", &out_path, NULL, 1, "output key file"},
        {0, "form", &form_s, NULL, 0, "private key form"},
        {0, "pubin", NULL, &pubin, 0, NULL},
        {0, "pubout", NULL, &pubout, 0, NULL},
        {0, "pem", NULL, &pem, 0, NULL},
        {0, "der", NULL, &der, 0, NULL},
        {0, "raw", NULL, &raw, 0, NULL},
        {0, "hex", NULL, &hex, 0, NULL},
    };
    const struct pk_alg *alg = NULL;
    struct pkey_ws *w = NULL;
    uint8_t *data = NULL;
    unsigned form = VG_KEY_SEED, in_form = VG_KEY_SEED;
    int is_public = 0;
    static const char *const what = "output key";
    struct vg_cli_outputs outs;

    outs.n = 0;
    rc = vg_cli_parse_opts("pkey", argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (pem + der + raw > 1)
        return vg_cli_usage_error("pkey: --pem, --der and --raw exclude each other");
    if (hex && !raw && !n_pos)
        return vg_cli_usage_error("pkey: --hex applies to raw keys only");
    if (form_s) {
        if (strcmp(form_s, "seed") == 0)
            form = VG_KEY_SEED;
        else if (strcmp(form_s, "expanded") == 0)
            form = VG_KEY_EXPANDED;
        else if (strcmp(form_s, "both") == 0)
            form = VG_KEY_BOTH;
        else
            return vg_cli_usage_error("pkey: --form must be seed, expanded or both");
    }
    if (n_pos) {
        for (size_t i = 0; i < N_PALGS; i++)
            if (strcmp(pos[0], g_palgs[i].name) == 0)
                alg = &g_palgs[i];
        if (!alg)
            return vg_cli_usage_error("pkey: unknown algorithm '%s' (one of: %s)", pos[0],
                                      PALG_NAMES);
    }
    if (!(w = calloc(1, sizeof *w))) {
        vg_cli_error("pkey: out of memory");
        return VG_CLI_EXIT_USAGE;
    }
    rc = vg_cli_outputs_open(&outs, "pkey", &out_path, &what, 1, &in_path, 1);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_read_all(in_path, 16384, &data, &n);
    if (rc != VG_CLI_IO_OK) {
        vg_cli_error("pkey: cannot read '%s'%s", in_path,
                     rc == VG_CLI_IO_ETOOBIG ? ": too large for a key" : "");
        rc = rc == VG_CLI_IO_ETOOBIG ? VG_CLI_EXIT_REJECT : VG_CLI_EXIT_USAGE;
        goto out;
    }
    /* PKCS#8, then SPKI (PEM or DER); else raw of ALG. */
    {
        vg_key_alg got = VG_KEY_NONE;
        unsigned fl = 0;
        if (vg_key_decode_private(&got, &fl, w->key, sizeof w->key, &key_len, data, n) == VG_OK) {
            in_form = fl & (VG_KEY_EXPANDED | VG_KEY_BOTH);
        } else if (vg_key_decode_public(&got, w->pk, sizeof w->pk, &key_len, data, n) == VG_OK) {
            is_public = 1;
        } else if (alg) {
            size_t i = 0;
            while (i < n && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r'))
                i++;
            if (n - i >= 11 && memcmp(data + i, "-----BEGIN ", 11) == 0) {
                vg_cli_error("pkey: '%s' is not a valid PEM PKCS#8 or SPKI key", in_path);
                rc = VG_CLI_EXIT_REJECT;
                goto out;
            }
            got = alg->key;
            is_public = pubin;
            /* The raw lengths: public; secret = seed, expanded, or Ed25519's 64. */
            size_t lens[3] = {alg->seed, alg->exp, alg->key == VG_KEY_ED25519 ? 64 : 0};
            int ok = 0;
            if (pubin) {
                ok = vg_cli_parse_key(data, n, w->pk, alg->pk, hex) == VG_CLI_IO_OK;
                key_len = alg->pk;
            } else {
                for (int k = 0; k < 3 && !ok; k++)
                    if (lens[k] && vg_cli_parse_key(data, n, w->key, lens[k], hex) == VG_CLI_IO_OK) {
                        ok = 1;
                        key_len = lens[k];
                    }
            }
            if (!ok) {
                vg_cli_error("pkey: '%s' is neither PKCS#8 nor SPKI nor a raw %s %s key%s",
                             in_path, alg->name, pubin ? "public" : "secret",
                             hex ? " in hex" : "");
                rc = VG_CLI_EXIT_REJECT;
                goto out;
            }
            if (alg->key == VG_KEY_ED25519 && key_len == 64) {
                /* seed || public key: the second half must be the seed's */
                if (vg_ed25519_keypair_from_seed(w->pk, w->edsk, w->key) != VG_OK ||
                    vg_ct_memcmp(w->pk, w->key + 32, 32) != 0) {
                    vg_cli_error("pkey: the Ed25519 secret key in '%s' is inconsistent (its "
                                 "second half is not the public key of its seed)", in_path);
                    rc = VG_CLI_EXIT_REJECT;
                    goto out;
                }
                key_len = 32;
            }
            if (alg->exp && key_len == alg->exp)
                in_form = VG_KEY_EXPANDED;
        } else {
            vg_cli_error("pkey: '%s' is not a valid PKCS#8 or SPKI key (a raw key needs ALG)",
                         in_path);
            rc = VG_CLI_EXIT_REJECT;
            goto out;
        }
        const struct pk_alg *found = NULL;
        for (size_t i = 0; i < N_PALGS; i++)
            if (g_palgs[i].key == got)
                found = &g_palgs[i];
        if (!found || (alg && found != alg)) {
            vg_cli_error("pkey: '%s' holds a %s key, not %s", in_path,
                         found ? found->name : "unsupported", alg ? alg->name : "");
            rc = VG_CLI_EXIT_REJECT;
            goto out;
        }
        alg = found;
    }
    if (is_public) /* a public key can only be written as one */
        pubout = 1;
    if (!is_public && (pubout || raw || in_form == VG_KEY_EXPANDED || form != VG_KEY_SEED)) {
        if (derive(alg, w, key_len) != VG_OK && pubout) {
            vg_cli_error("pkey: the public key of an expanded-only %s key cannot be "
                         "derived (keep the seed form)", alg->name);
            rc = VG_CLI_EXIT_REJECT;
            goto out;
        }
    }
    rc = VG_CLI_EXIT_REJECT;
    if (pubout) {
        if (raw) {
            rc = vg_cli_output_write(&outs, 0, w->pk, alg->pk, hex);
        } else if (vg_key_encode_public(w->out, sizeof w->out, &out_len, alg->key,
                                        der ? VG_KEY_DER : VG_KEY_PEM, w->pk, alg->pk) == VG_OK) {
            rc = vg_cli_output_write(&outs, 0, w->out, out_len, 0);
        } else {
            vg_cli_error("pkey: the %s public key in '%s' is rejected", alg->name, in_path);
            goto out;
        }
    } else if (raw) {
        /* The library's raw secret key. */
        const uint8_t *p = w->key;
        size_t len = key_len;
        if (alg->key == VG_KEY_ED25519) {
            memcpy(w->edsk + 32, w->pk, 32); /* edsk = seed || public key from derive */
            p = w->edsk;
            len = 64;
        } else if (alg->exp) {
            p = w->exp;
            len = alg->exp;
        }
        rc = vg_cli_output_write(&outs, 0, p, len, hex);
    } else {
        if (in_form == VG_KEY_EXPANDED && form != VG_KEY_SEED && form != VG_KEY_EXPANDED) {
            vg_cli_error("pkey: '%s' holds no seed: only --form expanded is possible", in_path);
            goto out;
        }
        if (!form_s)
            form = in_form == VG_KEY_EXPANDED ? VG_KEY_EXPANDED : VG_KEY_SEED;
        if (vg_key_encode_private(w->out, sizeof w->out, &out_len, alg->key,
                                  (der ? VG_KEY_DER : VG_KEY_PEM) | (alg->exp ? form : 0),
                                  w->key, key_len) != VG_OK) {
            vg_cli_error("pkey: the %s secret key in '%s' is rejected (FIPS 203 / FIPS 204 "
                         "checks, or a form it cannot have)", alg->name, in_path);
            goto out;
        }
        rc = vg_cli_output_write(&outs, 0, w->out, out_len, 0);
    }
    if (rc == VG_CLI_EXIT_OK)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    if (data) {
        vg_wipe(data, n);
        free(data);
    }
    if (w) {
        vg_wipe(w, sizeof *w);
        free(w);
    }
    return rc;
}
