/*
 * vgcrypto sign ALG -s SECRET -i MESSAGE -o SIG [--hex] [options]
 * vgcrypto verify ALG -p PUBLIC -i MESSAGE -S SIG [--hex] [options]
 *
 * Signatures over a whole file of any size: the message is read in chunks
 * of 1 MiB (cli_msg.h), never whole.
 *   ML-DSA (pure): mu = H(tr || 0 || |ctx| || ctx || M) is absorbed as the
 *     file is read (the library's mu state, FIPS 204 Algorithm 2 line 10 /
 *     Algorithm 7 line 6), then ML-DSA.Sign / Verify from mu on.
 *   HashML-DSA (--prehash H) and Ed25519ph (--ph): the file is hashed as it
 *     is read, and the digest signed (FIPS 204 Algorithms 4 and 5, RFC 8032
 *     5.1 with PH = SHA-512).
 *   Ed25519 and Ed25519ctx (--ctx): RFC 8032 5.1.6 hashes the message twice
 *     (steps 2 and 4), so signing reads the file twice; the library refuses
 *     (no signature, exit 2) a file whose two passes differ, as two
 *     signatures with one nonce would reveal the key. A non-seekable input
 *     (standard input from a pipe) cannot be read twice: it is held in
 *     memory instead, up to 1 GiB; a longer one is refused with exit 2 and
 *     a line saying to give a regular file or use --ph. Verification reads
 *     the message once, so every input works.
 *
 * --hex applies to the key and signature files (in and out), never to the
 * message, which is always taken byte for byte. "-" is standard input for
 * at most one input, and standard output for SIG.
 *
 * ML-DSA (FIPS 204) options, usage errors (exit 2) with Ed25519:
 *   --context STR    the context string ctx (Algorithms 2-5): the bytes of
 *                    STR, 0 to 255 of them (longer: exit 2, before any file
 *                    is read). Absent or "": the empty context.
 *   --deterministic  rnd = 32 zero bytes (Algorithm 2 line 7 with
 *                    rnd = {0}^32). Default: hedged, rnd from the OS.
 *   --prehash H      HashML-DSA with the hash H computed here: sha256,
 *                    sha384, sha512, sha3-256, sha3-512, shake128 (256-bit
 *                    output), shake256 (512-bit) - the FIPS 204 section 5.4
 *                    hashes the library implements. (The library's
 *                    vg_mldsaN_sign_prehash also takes SHA-224, SHA-512/224,
 *                    SHA-512/256, SHA3-224 and SHA3-384 digests computed by
 *                    the caller.) Verification needs the same H.
 * Ed25519 (RFC 8032 5.1) options, usage errors with ML-DSA:
 *   --ph             Ed25519ph: PH(M) = SHA-512(M), dom2(1, ctx).
 *   --context STR    with --ph only: its context, 0 to 255 bytes.
 *   --ctx STR        Ed25519ctx: dom2(0, ctx), STR of 1 to 255 bytes.
 *   --cofactored     (verify, pure Ed25519 only) the cofactored equation.
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
 *           2 for usage errors (including a context of a length the
 *             algorithm does not allow), unreadable inputs, an unwritable
 *             SIG, a message that changed while it was read twice, a
 *             non-seekable Ed25519 / Ed25519ctx message over 1 GiB, or a
 *             failing random source (hedged ML-DSA).
 *   verify: 0 and the line "OK" on standard output for a valid signature;
 *           1 and one line on stderr (nothing on stdout) for an invalid
 *             signature, a public key that does not decode, or a key or
 *             signature file of the wrong length or with bad hex;
 *           2 as for sign.
 * Every buffer holding key material, and the message, is wiped before it is
 * freed or goes out of scope.
 *
 * The algorithms are the rows of g_sig_algs: Ed25519 and the three ML-DSA
 * parameter sets, each with its sizes and entry points.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_hybrid.h"
#include "cli_io.h"
#include "cli_msg.h"
#include "cli_out.h"
#include "common.h"
#include "curve25519/curve25519.h"
#include "mldsa/mldsa.h"
#include "vgcrypto.h"

/* The largest non-seekable message pure Ed25519 / Ed25519ctx signing holds
 * in memory (1 GiB). */
#define VG_CLI_MSG_MAX ((size_t)1 << 30)

/* Room for the largest key and signature of any row (ML-DSA-87: secret key
 * 4896, public key 2592, signature 4627 bytes). */
#define SIG_MAX_SECRET VG_MLDSA87_SECRETKEYBYTES
#define SIG_MAX_PUBLIC VG_MLDSA87_PUBLICKEYBYTES
#define SIG_MAX_SIG VG_MLDSA87_SIGBYTES

/* An ML-DSA parameter set's entry points (NULL members for Ed25519). */
struct mldsa_ops {
    int (*mu_init)(vg_mldsa_mu_state *, const uint8_t *, const uint8_t *, size_t);
    int (*sign_mu)(uint8_t *, const uint8_t *, const uint8_t *, const uint8_t *);
    int (*verify_mu)(const uint8_t *, size_t, const uint8_t *, const uint8_t *);
    int (*sign_prehash_derand)(uint8_t *, const uint8_t *, size_t, int, const uint8_t *, size_t,
                               const uint8_t *, const uint8_t *);
    int (*verify_prehash)(const uint8_t *, size_t, const uint8_t *, size_t, int,
                          const uint8_t *, size_t, const uint8_t *);
};

struct sig_alg {
    const char *name;
    size_t secret_len, public_len, sig_len;
    /* Reject a secret key that parses but is not well formed: 0 to accept,
     * -1 to reject (a one-line reason in *why). NULL: no check. */
    int (*check_secret)(const uint8_t *secret_key, const char **why);
    const struct mldsa_ops *mldsa; /* NULL: Ed25519 */
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

#define MLDSA_OPS(n)                                                                        \
    static const struct mldsa_ops g_mldsa##n##_ops = {                                     \
        vg_mldsa##n##_mu_init, vg_mldsa##n##_sign_mu, vg_mldsa##n##_verify_mu,             \
        vg_mldsa##n##_sign_prehash_derand, vg_mldsa##n##_verify_prehash};
MLDSA_OPS(44)
MLDSA_OPS(65)
MLDSA_OPS(87)

#define MLDSA_ROW(n)                                                                        \
    {"ml-dsa-" #n, VG_MLDSA##n##_SECRETKEYBYTES, VG_MLDSA##n##_PUBLICKEYBYTES,             \
     VG_MLDSA##n##_SIGBYTES, NULL, &g_mldsa##n##_ops}

static const struct sig_alg g_sig_algs[] = {
    {"ed25519", VG_ED25519_SECRETKEYBYTES, VG_ED25519_PUBLICKEYBYTES, VG_ED25519_SIGBYTES,
     check_secret_ed25519, NULL},
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

/* ---- the hashes of --prehash and --ph --------------------------------------- */

/* A streaming hash of the library's public API, behind one interface. */
union ph_state {
    vg_sha256_state sha256;
    vg_sha384_state sha384;
    vg_sha512_state sha512;
    vg_sha3_256_state sha3_256;
    vg_sha3_512_state sha3_512;
    vg_shake_state shake;
};

struct ph_hash {
    const char *name; /* as `vgcrypto hash` names it */
    int id;           /* VG_HASH_* (FIPS 204 section 5.4) */
    size_t out_len;   /* the HashML-DSA digest length (XOFs: 32 and 64 bytes) */
    int (*init)(union ph_state *);
    int (*update)(union ph_state *, const uint8_t *, size_t);
    int (*final)(union ph_state *, uint8_t *, size_t);
};

#define PH_FIXED(nm, len)                                                                   \
    static int ph_init_##nm(union ph_state *s) { return vg_##nm##_init(&s->nm); }          \
    static int ph_update_##nm(union ph_state *s, const uint8_t *in, size_t n)              \
    {                                                                                      \
        return vg_##nm##_update(&s->nm, in, n);                                            \
    }                                                                                      \
    static int ph_final_##nm(union ph_state *s, uint8_t *out, size_t n)                    \
    {                                                                                      \
        (void)n; /* len */                                                                 \
        return vg_##nm##_final(&s->nm, out);                                               \
    }
PH_FIXED(sha256, 32)
PH_FIXED(sha384, 48)
PH_FIXED(sha512, 64)
PH_FIXED(sha3_256, 32)
PH_FIXED(sha3_512, 64)
static int ph_init_shake128(union ph_state *s) { return vg_shake128_init(&s->shake); }
static int ph_init_shake256(union ph_state *s) { return vg_shake256_init(&s->shake); }
static int ph_update_shake(union ph_state *s, const uint8_t *in, size_t n)
{
    return vg_shake_absorb(&s->shake, in, n);
}
static int ph_final_shake(union ph_state *s, uint8_t *out, size_t n)
{
    int rc = vg_shake_squeeze(&s->shake, out, n);
    vg_shake_wipe(&s->shake);
    return rc;
}

static const struct ph_hash g_ph_hashes[] = {
    {"sha256", VG_HASH_SHA256, 32, ph_init_sha256, ph_update_sha256, ph_final_sha256},
    {"sha384", VG_HASH_SHA384, 48, ph_init_sha384, ph_update_sha384, ph_final_sha384},
    {"sha512", VG_HASH_SHA512, 64, ph_init_sha512, ph_update_sha512, ph_final_sha512},
    {"sha3-256", VG_HASH_SHA3_256, 32, ph_init_sha3_256, ph_update_sha3_256, ph_final_sha3_256},
    {"sha3-512", VG_HASH_SHA3_512, 64, ph_init_sha3_512, ph_update_sha3_512, ph_final_sha3_512},
    {"shake128", VG_HASH_SHAKE128, 32, ph_init_shake128, ph_update_shake, ph_final_shake},
    {"shake256", VG_HASH_SHAKE256, 64, ph_init_shake256, ph_update_shake, ph_final_shake},
};
#define PH_NAMES "sha256, sha384, sha512, sha3-256, sha3-512, shake128, shake256"

static const struct ph_hash *find_ph_hash(const char *name)
{
    for (size_t i = 0; i < sizeof g_ph_hashes / sizeof g_ph_hashes[0]; i++)
        if (strcmp(g_ph_hashes[i].name, name) == 0)
            return &g_ph_hashes[i];
    return NULL;
}

/* ---- one pass of the message into a sink ------------------------------------ */

struct hash_sink {
    const struct ph_hash *h;
    union ph_state st;
    int failed;
};

static void hash_sink_fn(void *arg, const uint8_t *in, size_t len)
{
    struct hash_sink *s = arg;
    if (!s->failed && s->h->update(&s->st, in, len) != VG_OK)
        s->failed = 1;
}

static void mu_sink_fn(void *arg, const uint8_t *in, size_t len)
{
    vg_mldsa_mu_update(arg, in, len); /* a valid state: cannot fail */
}

/* The Ed25519 feed: one pass of the message per call. */
struct ed_feed {
    struct vg_cli_msg *msg;
    int read_errno; /* nonzero after a failed pass */
};

static int ed_feed_fn(void *arg, vg_ed25519_absorb_fn absorb, void *sink)
{
    struct ed_feed *f = arg;
    if (vg_cli_msg_pass(f->msg, absorb, sink) != VG_CLI_IO_OK) {
        f->read_errno = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

/* Open the message; the exit code (0, or 2 after one line). */
static int open_message(const char *cmd, const char *path, int two_passes, struct vg_cli_msg *m)
{
    int rc = vg_cli_msg_open(m, path, two_passes, VG_CLI_MSG_MAX);
    if (rc == VG_CLI_IO_OK)
        return VG_CLI_EXIT_OK;
    if (rc == VG_CLI_IO_ETOOBIG)
        return vg_cli_usage_error("%s: message '%s' cannot be read twice (not seekable: a pipe "
                                  "or terminal) and is larger than the 1 GiB held in memory; "
                                  "Ed25519 signing hashes the message twice (RFC 8032 5.1.6): "
                                  "give a regular file, or use --ph",
                                  cmd, path);
    return vg_cli_usage_error("%s: cannot read message '%s': %s", cmd, path, strerror(errno));
}

static int read_error(const char *cmd, const char *path, int err)
{
    return vg_cli_usage_error("%s: cannot read message '%s': %s", cmd, path, strerror(err));
}

/* The digest of the whole message under h into out (h->out_len bytes).
 * Exit code. */
static int hash_message(const char *cmd, const char *path, const struct ph_hash *h,
                        struct vg_cli_msg *m, uint8_t *out)
{
    struct hash_sink s;
    int rc = VG_CLI_EXIT_OK;
    memset(&s, 0, sizeof s);
    s.h = h;
    if (h->init(&s.st) != VG_OK || vg_cli_msg_pass(m, hash_sink_fn, &s) != VG_CLI_IO_OK) {
        rc = read_error(cmd, path, errno ? errno : EIO);
    } else if (s.failed || h->final(&s.st, out, h->out_len) != VG_OK) {
        /* Only SHA-256 has a reachable limit (2^61 bytes). */
        rc = vg_cli_usage_error("%s: message '%s' is too long for %s", cmd, path, h->name);
    }
    vg_wipe(&s, sizeof s);
    return rc;
}

/* ---- options ----------------------------------------------------------------- */

struct sig_opts {
    const char *context, *ctx, *prehash;
    int deterministic, ph, cofactored;
    /* derived */
    const uint8_t *c; /* the context bytes (ML-DSA, Ed25519ph, Ed25519ctx), or NULL */
    size_t c_len;
    const struct ph_hash *hash; /* --prehash's hash, or SHA-512 for --ph; NULL otherwise */
};

/* The options against the row. Post: VG_CLI_EXIT_OK with the derived
 * fields set, or VG_CLI_EXIT_USAGE after one stderr line. Contexts are
 * checked here, before any file is read. */
static int check_opts(const char *cmd, const struct sig_alg *alg, struct sig_opts *o)
{
    o->c = NULL;
    o->c_len = 0;
    o->hash = NULL;
    if (alg->mldsa) {
        if (o->ph || o->ctx || o->cofactored)
            return vg_cli_usage_error("%s: %s does not apply to %s (Ed25519 only)", cmd,
                                      o->ph ? "--ph" : o->ctx ? "--ctx" : "--cofactored",
                                      alg->name);
        if (o->prehash && !(o->hash = find_ph_hash(o->prehash)))
            return vg_cli_usage_error("%s: unknown --prehash hash '%s' (one of: %s)", cmd,
                                      o->prehash, PH_NAMES);
        if (o->context) {
            o->c = (const uint8_t *)o->context;
            o->c_len = strlen(o->context);
            if (o->c_len > VG_MLDSA_CTXMAXBYTES)
                return vg_cli_usage_error("%s: the context string has %zu bytes; FIPS 204 "
                                          "allows at most %d",
                                          cmd, o->c_len, VG_MLDSA_CTXMAXBYTES);
        }
        return VG_CLI_EXIT_OK;
    }
    if (o->deterministic)
        return vg_cli_usage_error("%s: --deterministic does not apply to %s (its signatures "
                                  "are always deterministic)",
                                  cmd, alg->name);
    if (o->prehash)
        return vg_cli_usage_error("%s: --prehash does not apply to %s (use --ph for Ed25519ph)",
                                  cmd, alg->name);
    if (o->ph && o->ctx)
        return vg_cli_usage_error("%s: --ph and --ctx exclude each other (Ed25519ph takes its "
                                  "context with --context)",
                                  cmd);
    if (o->cofactored && (o->ph || o->ctx))
        return vg_cli_usage_error("%s: --cofactored applies to pure Ed25519 only", cmd);
    if (o->context && !o->ph)
        return vg_cli_usage_error("%s: --context applies to %s only with --ph (Ed25519ph); for "
                                  "Ed25519ctx use --ctx STR (RFC 8032 Ed25519 has no context)",
                                  cmd, alg->name);
    if (o->ph) {
        o->hash = find_ph_hash("sha512");
        if (o->context) {
            o->c = (const uint8_t *)o->context;
            o->c_len = strlen(o->context);
        }
    } else if (o->ctx) {
        o->c = (const uint8_t *)o->ctx;
        o->c_len = strlen(o->ctx);
        if (o->c_len == 0)
            return vg_cli_usage_error("%s: --ctx needs 1 to 255 bytes (RFC 8032 5.1: the "
                                      "Ed25519ctx context SHOULD NOT be empty; use plain "
                                      "Ed25519)",
                                      cmd);
    }
    if (o->c_len > 255)
        return vg_cli_usage_error("%s: the context string has %zu bytes; RFC 8032 allows at "
                                  "most 255",
                                  cmd, o->c_len);
    return VG_CLI_EXIT_OK;
}

/* ---- signing ------------------------------------------------------------------- */

/* The signature of the message into sig. Exit code; on a rejected key or an
 * error, one stderr line. */
static int sign_message(const struct sig_alg *alg, const struct sig_opts *o,
                        const char *secret_path, const char *msg_path, const uint8_t *sk,
                        uint8_t *sig)
{
    static const uint8_t zero_rnd[VG_MLDSA_RNDBYTES] = {0};
    uint8_t digest[64], rnd[VG_MLDSA_RNDBYTES], mu[VG_MLDSA_MUBYTES];
    struct vg_cli_msg m;
    vg_mldsa_mu_state st;
    int two_passes = !alg->mldsa && !o->hash; /* Ed25519, Ed25519ctx */
    int rc, r = VG_OK;

    memset(rnd, 0, sizeof rnd);
    if ((rc = open_message("sign", msg_path, two_passes, &m)) != VG_CLI_EXIT_OK)
        return rc;
    if (alg->mldsa && !o->deterministic && vg_randombytes(rnd, sizeof rnd) != VG_OK) {
        vg_cli_error("sign: signing failed (the operating system's random source failed)");
        rc = VG_CLI_EXIT_USAGE;
        goto out;
    }
    const uint8_t *rp = o->deterministic ? zero_rnd : rnd;
    if (o->hash) {
        if ((rc = hash_message("sign", msg_path, o->hash, &m, digest)) != VG_CLI_EXIT_OK)
            goto out;
        if (alg->mldsa)
            r = alg->mldsa->sign_prehash_derand(sig, digest, o->hash->out_len, o->hash->id,
                                                o->c, o->c_len, sk, rp);
        else
            r = vg_ed25519ph_sign_prehashed(sig, digest, o->c, o->c_len, sk);
    } else if (alg->mldsa) {
        /* tr is sk[64..127] (FIPS 204 Algorithm 24), as sign_derand uses. */
        vg_mldsa_mu_start(&st, sk + 64, o->c, o->c_len);
        if (vg_cli_msg_pass(&m, mu_sink_fn, &st) != VG_CLI_IO_OK) {
            rc = read_error("sign", msg_path, errno ? errno : EIO);
            goto out;
        }
        vg_mldsa_mu_final(&st, mu);
        r = alg->mldsa->sign_mu(sig, mu, sk, rp);
    } else {
        struct ed_feed f = {&m, 0};
        r = vg_ed25519_sign_feed(sig, o->c, o->c_len, ed_feed_fn, &f, sk);
        if (r != VG_OK && f.read_errno) {
            rc = read_error("sign", msg_path, f.read_errno);
            goto out;
        }
        if (r != VG_OK) {
            /* The key was checked and the context length too: the two
             * passes read different bytes. */
            rc = vg_cli_usage_error("sign: message '%s' changed between the two passes that "
                                    "Ed25519 signing reads it in (RFC 8032 5.1.6); no "
                                    "signature written",
                                    msg_path);
            goto out;
        }
    }
    if (r == VG_ERR_INPUT) {
        /* Lengths and the context are checked above, so the library refused
         * the key itself: ML-DSA's skDecode range check on s1 and s2. */
        vg_cli_error("sign: secret key '%s' rejected: the %s key does not decode (s1 or s2 "
                     "coefficients outside [-eta, eta], FIPS 204 Algorithm 25)",
                     secret_path, alg->name);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    rc = r == VG_OK ? VG_CLI_EXIT_OK : VG_CLI_EXIT_USAGE;
    if (rc != VG_CLI_EXIT_OK)
        vg_cli_error("sign: signing failed (error %d)", r);
out:
    vg_cli_msg_close(&m);
    vg_wipe(&st, sizeof st);
    vg_wipe(mu, sizeof mu);
    vg_wipe(rnd, sizeof rnd);
    vg_wipe(digest, sizeof digest);
    return rc;
}

int vg_cli_cmd_sign(int argc, char **argv)
{
    const char *secret_path = NULL, *msg_path = NULL, *out_path = NULL;
    const char *pos[1];
    int hex = 0, rc;
    size_t n_pos;
    struct sig_opts o;
    memset(&o, 0, sizeof o);
    const struct vg_cli_opt opts[] = {
        {'s', "secret", &secret_path, NULL, 1, "secret key file"},
        {'i', "in", &msg_path, NULL, 1, "message file"},
        {'o', "out", &out_path, NULL, 1, "signature output file"},
        {0, "hex", NULL, &hex, 0, NULL},
        {0, "context", &o.context, NULL, VG_CLI_OPT_EMPTY_OK, "context string"},
        {0, "deterministic", NULL, &o.deterministic, 0, NULL},
        {0, "prehash", &o.prehash, NULL, 0, "hash name"},
        {0, "ph", NULL, &o.ph, 0, NULL},
        {0, "ctx", &o.ctx, NULL, VG_CLI_OPT_EMPTY_OK, "Ed25519ctx context string"},
    };
    uint8_t secret_key[SIG_MAX_SECRET], sig[SIG_MAX_SIG];
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
    if ((rc = check_opts("sign", alg, &o)) != VG_CLI_EXIT_OK)
        return rc;
    const char *inputs[2] = {secret_path, msg_path};
    if ((rc = vg_cli_one_stdin("sign", inputs, 2)) != VG_CLI_EXIT_OK)
        return rc;

    memset(sig, 0, sizeof sig);
    memset(secret_key, 0, sizeof secret_key);
    rc = vg_cli_outputs_open(&outs, "sign", &out_path, &what, 1, inputs, 2);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    /* PKCS#8 (PEM or DER) files too, told apart by content (issue 17) */
    rc = vg_cli_load_encoded_key("sign", "secret key", secret_path, alg->name, 1, secret_key, hex);
    if (rc < 0)
        rc = vg_cli_load_key("secret key", secret_path, secret_key, alg->secret_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if (alg->check_secret && alg->check_secret(secret_key, &why) != 0) {
        vg_cli_error("sign: secret key '%s' rejected: %s", secret_path, why);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    rc = sign_message(alg, &o, secret_path, msg_path, secret_key, sig);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = vg_cli_output_write(&outs, 0, sig, alg->sig_len, hex)) == 0)
        rc = vg_cli_outputs_commit(&outs);
out:
    vg_cli_outputs_close(&outs);
    vg_wipe(secret_key, sizeof secret_key);
    vg_wipe(sig, sizeof sig);
    return rc;
}

/* ---- verification ------------------------------------------------------------- */

/* VG_OK or the library's verdict in *verdict; the exit code for reading. */
static int verify_message(const struct sig_alg *alg, const struct sig_opts *o,
                          const char *msg_path, const uint8_t *pk, const uint8_t *sig,
                          int *verdict)
{
    uint8_t digest[64], mu[VG_MLDSA_MUBYTES];
    struct vg_cli_msg m;
    vg_mldsa_mu_state st;
    int rc = VG_CLI_EXIT_OK;

    *verdict = VG_ERR_VERIFY;
    if ((rc = open_message("verify", msg_path, 0, &m)) != VG_CLI_EXIT_OK)
        return rc;
    if (o->hash) {
        if ((rc = hash_message("verify", msg_path, o->hash, &m, digest)) != VG_CLI_EXIT_OK)
            goto out;
        if (alg->mldsa)
            *verdict = alg->mldsa->verify_prehash(sig, alg->sig_len, digest, o->hash->out_len,
                                                  o->hash->id, o->c, o->c_len, pk);
        else
            *verdict = vg_ed25519ph_verify_prehashed(sig, digest, o->c, o->c_len, pk);
    } else if (alg->mldsa) {
        if (alg->mldsa->mu_init(&st, pk, o->c, o->c_len) != VG_OK) {
            rc = vg_cli_usage_error("verify: internal error (mu state)");
            goto out;
        }
        if (vg_cli_msg_pass(&m, mu_sink_fn, &st) != VG_CLI_IO_OK) {
            rc = read_error("verify", msg_path, errno ? errno : EIO);
            goto out;
        }
        vg_mldsa_mu_final(&st, mu);
        *verdict = alg->mldsa->verify_mu(sig, alg->sig_len, mu, pk);
    } else {
        struct ed_feed f = {&m, 0};
        *verdict = vg_ed25519_verify_feed(sig, o->c, o->c_len, o->cofactored, ed_feed_fn, &f,
                                          pk);
        if (f.read_errno)
            rc = read_error("verify", msg_path, f.read_errno);
    }
out:
    vg_cli_msg_close(&m);
    vg_wipe(&st, sizeof st);
    return rc;
}

int vg_cli_cmd_verify(int argc, char **argv)
{
    const char *public_path = NULL, *msg_path = NULL, *sig_path = NULL;
    const char *pos[1];
    int hex = 0, rc, verdict;
    size_t n_pos;
    struct sig_opts o;
    memset(&o, 0, sizeof o);
    const struct vg_cli_opt opts[] = {
        {'p', "public", &public_path, NULL, 1, "public key file"},
        {'i', "in", &msg_path, NULL, 1, "message file"},
        {'S', "signature", &sig_path, NULL, 1, "signature file"},
        {0, "hex", NULL, &hex, 0, NULL},
        {0, "cofactored", NULL, &o.cofactored, 0, NULL},
        {0, "context", &o.context, NULL, VG_CLI_OPT_EMPTY_OK, "context string"},
        {0, "prehash", &o.prehash, NULL, 0, "hash name"},
        {0, "ph", NULL, &o.ph, 0, NULL},
        {0, "ctx", &o.ctx, NULL, VG_CLI_OPT_EMPTY_OK, "Ed25519ctx context string"},
    };
    uint8_t public_key[SIG_MAX_PUBLIC], sig[SIG_MAX_SIG];
    const struct sig_alg *alg;

    rc = vg_cli_parse_opts("verify", argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (!(alg = find_alg("verify", pos, n_pos)))
        return VG_CLI_EXIT_USAGE;
    if ((rc = check_opts("verify", alg, &o)) != VG_CLI_EXIT_OK)
        return rc;
    const char *inputs[3] = {public_path, msg_path, sig_path};
    if ((rc = vg_cli_one_stdin("verify", inputs, 3)) != VG_CLI_EXIT_OK)
        return rc;

    rc = vg_cli_load_encoded_key("verify", "public key", public_path, alg->name, 0, public_key, hex);
    if (rc < 0)
        rc = vg_cli_load_key("public key", public_path, public_key, alg->public_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    rc = vg_cli_load_key("signature", sig_path, sig, alg->sig_len, hex);
    if (rc != VG_CLI_EXIT_OK)
        goto out;
    if ((rc = verify_message(alg, &o, msg_path, public_key, sig, &verdict)) != VG_CLI_EXIT_OK)
        goto out;
    if (verdict != VG_OK) {
        vg_cli_error("verify: signature '%s' is not valid for message '%s'%s under public key "
                     "'%s'",
                     sig_path, msg_path, o.c_len ? " and the given context" : "", public_path);
        rc = VG_CLI_EXIT_REJECT;
        goto out;
    }
    printf("OK\n");
    rc = VG_CLI_EXIT_OK;
out:
    vg_wipe(public_key, sizeof public_key);
    vg_wipe(sig, sizeof sig);
    return rc;
}
