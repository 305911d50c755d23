/*
 * The key-encoding and hybrid-KEM parts of the vgcrypto command (issue 17):
 *
 *   keygen ALG -s SECRET -p PUBLIC [--hex | --pem | --der]
 *       ALG also x-wing, x25519-mlkem768, p256-mlkem768 and p384-mlkem1024;
 *       --pem / --der (every algorithm with an encoding, p-256 and p-384
 *       included) write a PKCS#8 secret key (the seed form for ML-KEM and
 *       ML-DSA) and an SPKI public key instead of the raw library forms.
 *   encaps x-wing|x25519-mlkem768|p256-mlkem768|p384-mlkem1024 -p PUBLIC
 *          -c CIPHERTEXT -k SHARED [--hex]
 *   decaps (the same names) -s SECRET -c CIPHERTEXT -k SHARED [--hex]
 *       X-Wing key files may be raw, PEM or DER (told apart by content);
 *       so may ML-KEM key files (a PEM or DER one is handled here, a seed-form
 *       PKCS#8 secret key expanded by KeyGen).
 *   pkey [ALG] -i IN -o OUT [--pubin] [--pubout] [--pem | --der | --raw]
 *        [--form seed|expanded|both] [--hex]
 *       converts between raw keys and PKCS#8 / SPKI, DER or PEM.
 *
 * cmd_keygen.c hands keygen, encaps and decaps over to this file when the
 * arguments name one of these algorithms or formats (vg_cli_keygen_ext and
 * friends return -1 otherwise, before touching anything).
 *
 * Raw forms (the library's): x-wing secret 32 bytes (the seed), public
 * 1216; x25519-mlkem768 secret 2432 (ML-KEM-768 dk || X25519 secret),
 * public 1216, ciphertext 1120, shared secret 64; p256-mlkem768 secret 2432
 * (P-256 scalar || ML-KEM-768 dk), public 1249, ciphertext 1153, shared 64;
 * p384-mlkem1024 secret 3216, public 1665, ciphertext 1665, shared 80.
 * Exit codes as cli.h says;
 * outputs all or nothing, mode 0600 (cli_out.h); every secret buffer wiped.
 */
#define _XOPEN_SOURCE 700

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_io.h"
#include "cli_out.h"
#include "cli_hybrid.h"
#include "common.h"
#include "vgcrypto.h"

/* The algorithms with a name on the command line. */
struct hyb_alg {
    const char *name;
    vg_key_alg key;      /* VG_KEY_NONE: no PKCS#8 / SPKI encoding */
    size_t seed_len;     /* random bytes of keygen */
    size_t raw_sk, raw_pk;
    size_t exp_len;      /* ML-KEM / ML-DSA expanded key (= raw_sk), else 0 */
};

static const struct hyb_alg g_halgs[] = {
    {"x25519", VG_KEY_X25519, 32, 32, 32, 0},
    {"ed25519", VG_KEY_ED25519, 32, 64, 32, 0},
    {"ml-kem-512", VG_KEY_MLKEM512, 64, 1632, 800, 1632},
    {"ml-kem-768", VG_KEY_MLKEM768, 64, 2400, 1184, 2400},
    {"ml-kem-1024", VG_KEY_MLKEM1024, 64, 3168, 1568, 3168},
    {"ml-dsa-44", VG_KEY_MLDSA44, 32, 2560, 1312, 2560},
    {"ml-dsa-65", VG_KEY_MLDSA65, 32, 4032, 1952, 4032},
    {"ml-dsa-87", VG_KEY_MLDSA87, 32, 4896, 2592, 4896},
    {"x-wing", VG_KEY_XWING, 32, 32, 1216, 0},
    {"x25519-mlkem768", VG_KEY_NONE, 96, 2432, 1216, 0},
    {"p256-mlkem768", VG_KEY_NONE, 96, 2432, 1249, 0},
    {"p384-mlkem1024", VG_KEY_NONE, 112, 3216, 1665, 0},
    /* keygen --pem / --der only (the raw forms stay with cmd_nist.c) */
    {"p-256", VG_KEY_P256, 32, 32, 65, 0},
    {"p-384", VG_KEY_P384, 48, 48, 97, 0},
};
#define N_HALGS (sizeof g_halgs / sizeof g_halgs[0])
#define HALG_NAMES                                                                          \
    "x25519, ed25519, ml-kem-512, ml-kem-768, ml-kem-1024, ml-dsa-44, ml-dsa-65, "          \
    "ml-dsa-87, x-wing, x25519-mlkem768, p256-mlkem768, p384-mlkem1024, p-256, p-384"

#define MAX_SK 4896
#define MAX_PK 2592
#define MAX_CT 1665 /* p384-mlkem1024 */
#define MAX_SS 80
#define MAX_FILE 16384

static const struct hyb_alg *find_alg(const char *name)
{
    /* the TLS groups' own spellings */
    if (name && strcmp(name, "x25519mlkem768") == 0)
        name = "x25519-mlkem768";
    if (name && strcmp(name, "secp256r1mlkem768") == 0)
        name = "p256-mlkem768";
    if (name && strcmp(name, "secp384r1mlkem1024") == 0)
        name = "p384-mlkem1024";
    for (size_t i = 0; name && i < N_HALGS; i++)
        if (strcmp(name, g_halgs[i].name) == 0)
            return &g_halgs[i];
    return NULL;
}

static int is_hybrid_name(const char *s)
{
    return strcmp(s, "x-wing") == 0 || strcmp(s, "x25519-mlkem768") == 0 ||
           strcmp(s, "x25519mlkem768") == 0 || strcmp(s, "p256-mlkem768") == 0 ||
           strcmp(s, "secp256r1mlkem768") == 0 || strcmp(s, "p384-mlkem1024") == 0 ||
           strcmp(s, "secp384r1mlkem1024") == 0;
}

/* The NIST hybrids: the EC scalar leads their seeds and must be in [1, n-1]
 * (keygen draws it again otherwise, as vg_p256_keypair does). */
static int is_p256h(const struct hyb_alg *a) { return strcmp(a->name, "p256-mlkem768") == 0; }
static int is_p384h(const struct hyb_alg *a) { return strcmp(a->name, "p384-mlkem1024") == 0; }

/* Raw secret key, public key and encodable key (seed form) of a fresh
 * seed: the library's key generation from the seed. */
static int keys_of_seed(const struct hyb_alg *a, const uint8_t *seed, uint8_t *sk, uint8_t *pk)
{
    switch (a->key) {
    case VG_KEY_X25519: memcpy(sk, seed, 32); return vg_x25519_public_key(pk, sk);
    case VG_KEY_ED25519: return vg_ed25519_keypair_from_seed(pk, sk, seed);
    case VG_KEY_MLKEM512: return vg_mlkem512_keypair_derand(pk, sk, seed);
    case VG_KEY_MLKEM768: return vg_mlkem768_keypair_derand(pk, sk, seed);
    case VG_KEY_MLKEM1024: return vg_mlkem1024_keypair_derand(pk, sk, seed);
    case VG_KEY_MLDSA44: return vg_mldsa44_keypair_derand(pk, sk, seed);
    case VG_KEY_MLDSA65: return vg_mldsa65_keypair_derand(pk, sk, seed);
    case VG_KEY_MLDSA87: return vg_mldsa87_keypair_derand(pk, sk, seed);
    case VG_KEY_XWING: return vg_xwing_keypair_derand(pk, sk, seed);
    case VG_KEY_P256: memcpy(sk, seed, 32); return vg_p256_public_key(pk, sk);
    case VG_KEY_P384: memcpy(sk, seed, 48); return vg_p384_public_key(pk, sk);
    default:
        if (is_p256h(a))
            return vg_p256mlkem768_keypair_derand(pk, sk, seed);
        if (is_p384h(a))
            return vg_p384mlkem1024_keypair_derand(pk, sk, seed);
        return vg_x25519mlkem768_keypair_derand(pk, sk, seed);
    }
}

/* A fresh keygen seed for a: random bytes; for the EC algorithms redrawn
 * while the leading scalar is 0 or >= n (probability 2^-32 or less a draw),
 * the verdict coming from the public-key function's range check. */
static int fresh_seed(const struct hyb_alg *a, uint8_t *seed, uint8_t *sk, uint8_t *pk)
{
    for (int tries = 0; tries < 64; tries++) {
        if (vg_randombytes(seed, a->seed_len) != VG_OK)
            return VG_ERR_RANDOM;
        int rc = keys_of_seed(a, seed, sk, pk);
        if (rc != VG_ERR_INPUT || (a->key != VG_KEY_P256 && a->key != VG_KEY_P384 &&
                                   !is_p256h(a) && !is_p384h(a)))
            return rc;
    }
    return VG_ERR_RANDOM;
}

/* 1 when argv (after the command name) contains s. */
static int has_arg(int argc, char **argv, int (*pred)(const char *))
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            continue;
        if (pred(argv[i]))
            return 1;
    }
    return 0;
}
static int is_kem_name(const char *s)
{
    return is_hybrid_name(s) || strcmp(s, "ml-kem-512") == 0 || strcmp(s, "ml-kem-768") == 0 ||
           strcmp(s, "ml-kem-1024") == 0;
}
static int is_format_flag(const char *s) { return strcmp(s, "--pem") == 0 || strcmp(s, "--der") == 0; }

/* ---- keygen -------------------------------------------------------------- */

int vg_cli_keygen_ext(int argc, char **argv)
{
    const char *secret_path = NULL, *public_path = NULL, *pos[1];
    int hex = 0, pem = 0, der = 0, rc;
    size_t n_pos, sk_len, pk_len;
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &secret_path, NULL, 1, "secret key file"},
        {'p', "public", &public_path, NULL, 1, "public key file"},
        {0, "hex", NULL, &hex, 0, NULL},
        {0, "pem", NULL, &pem, 0, NULL},
        {0, "der", NULL, &der, 0, NULL},
    };
    static const char *const whats[2] = {"secret key", "public key"};
    struct vg_cli_outputs outs;
    struct {
        uint8_t seed[112], sk[MAX_SK], pk[MAX_PK];
        uint8_t esk[VG_KEY_ENCODED_MAXBYTES], epk[VG_KEY_ENCODED_MAXBYTES];
    } *w = NULL;
    const struct hyb_alg *alg;

    if (!has_arg(argc, argv, is_format_flag) && !has_arg(argc, argv, is_hybrid_name))
        return -1; /* cmd_keygen.c's own */
    outs.n = 0;
    rc = vg_cli_parse_opts("keygen", argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (n_pos == 0)
        return vg_cli_usage_error("keygen: missing algorithm (one of: %s)", HALG_NAMES);
    if (!(alg = find_alg(pos[0])))
        return vg_cli_usage_error("keygen: unknown algorithm '%s' (one of: %s)", pos[0],
                                  HALG_NAMES);
    if (pem + der + hex > 1)
        return vg_cli_usage_error("keygen: --hex, --pem and --der exclude each other");
    if ((pem || der) && alg->key == VG_KEY_NONE)
        return vg_cli_usage_error("keygen: %s has no PKCS#8 / SPKI encoding; use the raw form",
                                  alg->name);
    if (!(w = calloc(1, sizeof *w))) {
        vg_cli_error("keygen: out of memory");
        return VG_CLI_EXIT_USAGE;
    }
    const char *paths[2] = {secret_path, public_path};
    rc = vg_cli_outputs_open(&outs, "keygen", paths, whats, 2, NULL, 0);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = VG_CLI_EXIT_USAGE;
    int kr = fresh_seed(alg, w->seed, w->sk, w->pk);
    if (kr == VG_ERR_RANDOM) {
        vg_cli_error("keygen: the operating system's random source failed");
        goto out;
    }
    if (kr != VG_OK) {
        vg_cli_error("keygen: %s key generation failed", alg->name);
        goto out;
    }
    if (pem || der) {
        unsigned f = pem ? VG_KEY_PEM : VG_KEY_DER;
        /* The seed form: the seed is the key (LAMPS documents, RFC 8410). */
        if (vg_key_encode_private(w->esk, sizeof w->esk, &sk_len, alg->key, f, w->seed,
                                  alg->key == VG_KEY_ED25519 ? 32 : alg->seed_len) != VG_OK ||
            vg_key_encode_public(w->epk, sizeof w->epk, &pk_len, alg->key, f, w->pk,
                                 alg->raw_pk) != VG_OK) {
            vg_cli_error("keygen: encoding the %s key failed", alg->name);
            goto out;
        }
        if ((rc = vg_cli_output_write(&outs, 0, w->esk, sk_len, 0)) != 0 ||
            (rc = vg_cli_output_write(&outs, 1, w->epk, pk_len, 0)) != 0)
            goto out;
    } else {
        if ((rc = vg_cli_output_write(&outs, 0, w->sk, alg->raw_sk, hex)) != 0 ||
            (rc = vg_cli_output_write(&outs, 1, w->pk, alg->raw_pk, hex)) != 0)
            goto out;
    }
    rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    if (w) {
        vg_wipe(w, sizeof *w);
        free(w);
    }
    return rc;
}

/* ---- key files: raw (or hex), PEM or DER, told apart by content ---------- */

/* Load a key of algorithm a: secret (want_secret) or public. A PEM text
 * or a DER object of another length than the raw key is decoded as
 * PKCS#8 / SPKI and must be of algorithm a; anything else is the raw form
 * (hex with --hex). out gets the raw library form (for X-Wing the same
 * bytes). Returns the exit code after at most one stderr line. */
static int load_any(const char *cmd, const char *what, const char *path, const struct hyb_alg *a,
                    int want_secret, uint8_t *out, int hex)
{
    uint8_t *data = NULL;
    size_t n = 0, raw = want_secret ? a->raw_sk : a->raw_pk, kl;
    int rc = vg_cli_read_all(path, MAX_FILE, &data, &n);
    if (rc != VG_CLI_IO_OK) {
        if (data) {
            vg_wipe(data, n);
            free(data);
        }
        if (rc == VG_CLI_IO_ETOOBIG) {
            vg_cli_error("%s: the %s file '%s' is too large", cmd, what, path);
            return VG_CLI_EXIT_REJECT;
        }
        /* read_all leaves errno set */
        return vg_cli_load_key(what, path, out, raw, hex);
    }
    size_t i = 0;
    while (i < n && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    int pem = n - i >= 11 && memcmp(data + i, "-----BEGIN ", 11) == 0;
    int der = !pem && !hex && n != raw && n > 0 && data[0] == 0x30;
    if (a->key != VG_KEY_NONE && (pem || der)) {
        vg_key_alg got = VG_KEY_NONE;
        unsigned fl;
        static uint8_t key[VG_KEY_SECRET_MAXBYTES];
        rc = want_secret ? vg_key_decode_private(&got, &fl, key, sizeof key, &kl, data, n)
                         : vg_key_decode_public(&got, key, sizeof key, &kl, data, n);
        if (rc == VG_OK && got == a->key && kl == raw) {
            memcpy(out, key, kl);
            rc = VG_CLI_EXIT_OK;
        } else if (rc == VG_OK && got == a->key && want_secret && kl == a->seed_len) {
            /* a seed-form PKCS#8 key: the raw secret key is its KeyGen's */
            static uint8_t pk[MAX_PK];
            rc = keys_of_seed(a, key, out, pk) == VG_OK ? VG_CLI_EXIT_OK : VG_CLI_EXIT_REJECT;
        } else {
            vg_cli_error("%s: the %s in '%s' is not a valid %s %s of %s", cmd, what, path,
                         pem ? "PEM" : "DER", want_secret ? "PKCS#8 key" : "SPKI key", a->name);
            rc = VG_CLI_EXIT_REJECT;
        }
        vg_wipe(key, sizeof key);
    } else if (vg_cli_parse_key(data, n, out, raw, hex) == VG_CLI_IO_OK) {
        rc = VG_CLI_EXIT_OK;
    } else {
        vg_cli_error("%s: the %s in '%s' is not %zu bytes%s%s", cmd, what, path, raw,
                     hex ? " of hex" : "", a->key != VG_KEY_NONE ? " (nor PEM or DER)" : "");
        rc = VG_CLI_EXIT_REJECT;
    }
    vg_wipe(data, n);
    free(data);
    return rc;
}

/* ---- encaps / decaps ------------------------------------------------------ */

/* The KEMs these commands run here: the two hybrids always, ML-KEM when its
 * key file is PEM or DER (raw ML-KEM keys stay with cmd_keygen.c). */
struct kem_ops {
    size_t ct_len, ss_len;
    int (*encaps)(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
    int (*decaps)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);
    int (*check_pk)(const uint8_t *pk);
    int (*check_sk)(const uint8_t *sk);
};

static int xwing_check_sk(const uint8_t *sk)
{
    (void)sk;
    return VG_OK;
}

/* The ML-KEM parts of the NIST hybrids' keys (after the EC point or
 * scalar), for the error messages. */
static int p256h_check_pk(const uint8_t *pk) { return vg_mlkem768_check_public_key(pk + 65); }
static int p256h_check_sk(const uint8_t *sk) { return vg_mlkem768_check_secret_key(sk + 32); }
static int p384h_check_pk(const uint8_t *pk) { return vg_mlkem1024_check_public_key(pk + 97); }
static int p384h_check_sk(const uint8_t *sk) { return vg_mlkem1024_check_secret_key(sk + 48); }

static const struct kem_ops *ops_of(const struct hyb_alg *a)
{
    static const struct kem_ops xw = {1120, 32, vg_xwing_encaps, vg_xwing_decaps,
                                      vg_mlkem768_check_public_key, xwing_check_sk};
    static const struct kem_ops hy = {1120, 64, vg_x25519mlkem768_encaps, vg_x25519mlkem768_decaps,
                                      vg_mlkem768_check_public_key, vg_mlkem768_check_secret_key};
    static const struct kem_ops k512 = {768, 32, vg_mlkem512_encaps, vg_mlkem512_decaps,
                                        vg_mlkem512_check_public_key, vg_mlkem512_check_secret_key};
    static const struct kem_ops k768 = {1088, 32, vg_mlkem768_encaps, vg_mlkem768_decaps,
                                        vg_mlkem768_check_public_key, vg_mlkem768_check_secret_key};
    static const struct kem_ops k1024 = {1568, 32, vg_mlkem1024_encaps, vg_mlkem1024_decaps,
                                         vg_mlkem1024_check_public_key,
                                         vg_mlkem1024_check_secret_key};
    static const struct kem_ops p256h = {1153, 64, vg_p256mlkem768_encaps,
                                         vg_p256mlkem768_decaps, p256h_check_pk, p256h_check_sk};
    static const struct kem_ops p384h = {1665, 80, vg_p384mlkem1024_encaps,
                                         vg_p384mlkem1024_decaps, p384h_check_pk, p384h_check_sk};
    switch (a->key) {
    case VG_KEY_XWING: return &xw;
    case VG_KEY_NONE: return is_p256h(a) ? &p256h : is_p384h(a) ? &p384h : &hy;
    case VG_KEY_MLKEM512: return &k512;
    case VG_KEY_MLKEM768: return &k768;
    case VG_KEY_MLKEM1024: return &k1024;
    default: return NULL;
    }
}

/* 1 when the file at path (not standard input, which can be read once) is
 * PEM text or a DER object of another length than raw_len. */
static int file_is_encoded(const char *path, size_t raw_len)
{
    uint8_t *data = NULL;
    size_t n = 0, i = 0;
    int enc = 0;
    if (!path || strcmp(path, "-") == 0 || vg_cli_read_all(path, MAX_FILE, &data, &n) != VG_CLI_IO_OK) {
        free(data);
        return 0;
    }
    while (i < n && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    enc = (n - i >= 11 && memcmp(data + i, "-----BEGIN ", 11) == 0) ||
          (n != raw_len && n > 0 && data[0] == 0x30);
    vg_wipe(data, n);
    free(data);
    return enc;
}

int vg_cli_load_encoded_key(const char *cmd, const char *what, const char *path,
                            const char *alg, int want_secret, uint8_t *out, int hex)
{
    const struct hyb_alg *a = find_alg(alg);
    if (!a || a->key == VG_KEY_NONE || hex ||
        !file_is_encoded(path, want_secret ? a->raw_sk : a->raw_pk))
        return -1;
    return load_any(cmd[0] ? cmd : "vgcrypto", what, path, a, want_secret, out, 0);
}

/* Ours: a hybrid, or ML-KEM with an encoded key file. */
static int kem_is_ours(const struct hyb_alg *a, const char *key_path, int secret, int hex)
{
    if (!a || !ops_of(a))
        return 0;
    if (is_hybrid_name(a->name))
        return 1;
    return !hex && file_is_encoded(key_path, secret ? a->raw_sk : a->raw_pk);
}

static int kem_parse(const char *cmd, int decaps, int argc, char **argv,
                     const struct hyb_alg **alg, const char **key_path, const char **ct_path,
                     const char **ss_path, int *hex)
{
    const char *pos[1];
    size_t n_pos;
    const struct vg_cli_opt opts[] = {
        {decaps ? 's' : 'p', decaps ? "secret" : "public", key_path, NULL, 1,
         decaps ? "secret key file" : "public key file"},
        {'c', "ciphertext", ct_path, NULL, 1, "ciphertext file"},
        {'k', "shared", ss_path, NULL, 1, "shared secret output file"},
        {0, "hex", NULL, hex, 0, NULL},
    };
    int rc = vg_cli_parse_opts(cmd, argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                               &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    *alg = n_pos ? find_alg(pos[0]) : NULL;
    return VG_CLI_EXIT_OK;
}

int vg_cli_encaps_ext(int argc, char **argv)
{
    const char *pk_path = NULL, *ct_path = NULL, *ss_path = NULL;
    const struct hyb_alg *alg = NULL;
    int hex = 0, rc, r;
    uint8_t pk[MAX_PK], ct[MAX_CT], ss[MAX_SS];
    static const char *const whats[2] = {"ciphertext", "shared secret"};
    struct vg_cli_outputs outs;
    const struct kem_ops *ops;

    if (!has_arg(argc, argv, is_kem_name))
        return -1;
    outs.n = 0;
    memset(ss, 0, sizeof ss);
    memset(ct, 0, sizeof ct);
    rc = kem_parse("encaps", 0, argc, argv, &alg, &pk_path, &ct_path, &ss_path, &hex);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (!kem_is_ours(alg, pk_path, 0, hex))
        return -1; /* not ours: cmd_keygen.c decides (and reports usage errors) */
    ops = ops_of(alg);
    const char *paths[2] = {ct_path, ss_path};
    rc = vg_cli_outputs_open(&outs, "encaps", paths, whats, 2, &pk_path, 1);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = load_any("encaps", "public key", pk_path, alg, 0, pk, hex)) != VG_CLI_EXIT_OK)
        goto out;
    r = ops->encaps(ct, ss, pk);
    if (r == VG_ERR_INPUT) {
        if (ops->check_pk(pk) != VG_OK)
            vg_cli_error("encaps: the ML-KEM part of the %s public key in '%s' has a "
                         "coefficient >= q (FIPS 203 section 7.2); nothing written",
                         alg->name, pk_path);
        else if (is_p256h(alg) || is_p384h(alg))
            vg_cli_error("encaps: the EC part of the %s public key in '%s' is not a valid "
                         "uncompressed point (SEC 1 3.2.2.1); nothing written",
                         alg->name, pk_path);
        else
            vg_cli_error("encaps: the X25519 part of the %s public key in '%s' has small order "
                         "(all-zero shared secret, RFC 8446 7.4.2); nothing written",
                         alg->name, pk_path);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    if (r != VG_OK) {
        vg_cli_error("encaps: the operating system's random source failed");
        rc = VG_CLI_EXIT_USAGE;
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, ct, ops->ct_len, hex)) != 0 ||
        (rc = vg_cli_output_write(&outs, 1, ss, ops->ss_len, hex)) != 0)
        goto out;
    rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(ss, sizeof ss);
    vg_wipe(ct, sizeof ct);
    return rc;
}

int vg_cli_decaps_ext(int argc, char **argv)
{
    const char *sk_path = NULL, *ct_path = NULL, *ss_path = NULL;
    const struct hyb_alg *alg = NULL;
    int hex = 0, rc;
    uint8_t sk[3216], ct[MAX_CT], ss[MAX_SS];
    static const char *const what = "shared secret";
    struct vg_cli_outputs outs;
    const struct kem_ops *ops;

    if (!has_arg(argc, argv, is_kem_name))
        return -1;
    outs.n = 0;
    memset(sk, 0, sizeof sk);
    memset(ss, 0, sizeof ss);
    rc = kem_parse("decaps", 1, argc, argv, &alg, &sk_path, &ct_path, &ss_path, &hex);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (!kem_is_ours(alg, sk_path, 1, hex))
        return -1;
    ops = ops_of(alg);
    const char *inputs[2] = {sk_path, ct_path};
    if ((rc = vg_cli_one_stdin("decaps", inputs, 2)) != VG_CLI_EXIT_OK)
        return rc;
    rc = vg_cli_outputs_open(&outs, "decaps", &ss_path, &what, 1, inputs, 2);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = load_any("decaps", "secret key", sk_path, alg, 1, sk, hex)) != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = vg_cli_load_key("ciphertext", ct_path, ct, ops->ct_len, hex)) != VG_CLI_EXIT_OK)
        goto out;
    if (ops->decaps(ss, ct, sk) != VG_OK) {
        /* X-Wing never fails here; ML-KEM: the dk check; X25519MLKEM768: that or a
         * small-order share */
        if (ops->check_sk(sk) != VG_OK)
            vg_cli_error("decaps: the ML-KEM part of the %s secret key in '%s' fails the "
                         "FIPS 203 section 7.3 hash check; nothing written", alg->name, sk_path);
        else if (is_p256h(alg) || is_p384h(alg))
            vg_cli_error("decaps: the EC part of the ciphertext in '%s' is not a valid "
                         "uncompressed point (SEC 1 3.2.2.1), or the secret scalar is not in "
                         "[1, n-1]; nothing written", ct_path);
        else
            vg_cli_error("decaps: the X25519 part of the ciphertext in '%s' has small order "
                         "(all-zero shared secret, RFC 8446 7.4.2); nothing written", ct_path);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    if ((rc = vg_cli_output_write(&outs, 0, ss, ops->ss_len, hex)) == 0)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(sk, sizeof sk);
    vg_wipe(ss, sizeof ss);
    return rc;
}
