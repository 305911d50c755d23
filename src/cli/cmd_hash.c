/*
 * vgcrypto hash ALG [--length N] [-o OUT [--hex]] [FILE...]
 * vgcrypto mac ALG -k KEY [--hex] [-o OUT] [FILE...]
 *
 * Prints "<hex>  <name>" per input like sha256sum (standard input when no
 * FILE or for "-"). Files are read in chunks of HASH_CHUNK bytes through
 * the library's public streaming API (DESIGN section 2b: vg_sha256_init /
 * update / final and the like, vg_shake_absorb / squeeze, the incremental
 * HMAC), so any size works in constant memory; nothing reads a file whole.
 * With -o the raw digests (or, with --hex, the very lines that would be
 * printed) go to OUT through a temporary that is created before the first
 * input is read and renamed into place only when every input was read
 * (cli_out.h): a failure leaves OUT untouched, and OUT may not be one of
 * the inputs.
 *
 * mac: HMAC (RFC 2104, FIPS 198-1) of each FILE under the key in the file
 * KEY, any length up to MAC_KEY_MAX (a key longer than the hash's block is
 * hashed first, as HMAC specifies). --hex reads KEY as hex (an even number
 * of digits, optionally one newline) and, with -o, writes the printed
 * lines, as for hash. Exit 1 for a key file with bad hex.
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_args.h"
#include "cli_io.h"
#include "cli_out.h"
#include "common.h"
#include "vgcrypto.h"

#define HASH_MAX_LENGTH ((size_t)1 << 20) /* largest --length for SHAKE */
#define HASH_CHUNK 65536
#define MAC_KEY_MAX ((size_t)1 << 20) /* largest HMAC key file (1 MiB) */

/* The state of any algorithm of the table. */
union digest_ctx {
    vg_sha256_state sha256;
    vg_sha384_state sha384;
    vg_sha512_state sha512;
    vg_sha3_256_state sha3_256;
    vg_sha3_512_state sha3_512;
    vg_shake_state shake;
    vg_hmac_sha256_state hmac256;
    vg_hmac_sha384_state hmac384;
    vg_hmac_sha512_state hmac512;
};

struct alg {
    const char *name;
    size_t out_len; /* fixed digest size, or the default for SHAKE */
    int xof;        /* --length applies */
    int keyed;      /* an HMAC: `mac`, not `hash` */
    /* The public API through one shape: VG_OK or an error code. init gets
     * the key (key_len 0 and NULL for the unkeyed hashes); final writes
     * out_len bytes (the fixed size unless xof) and wipes the state. */
    int (*init)(union digest_ctx *c, const uint8_t *key, size_t key_len);
    int (*update)(union digest_ctx *c, const uint8_t *in, size_t len);
    int (*final)(union digest_ctx *c, uint8_t *out, size_t out_len);
};

/* Adapters from the table's shape to vg_<n>_init / _update / _final. */
#define HASH_ADAPTERS(n)                                                                   \
    static int init_##n(union digest_ctx *c, const uint8_t *key, size_t key_len)           \
    {                                                                                      \
        (void)key;                                                                         \
        (void)key_len;                                                                     \
        return vg_##n##_init(&c->n);                                                       \
    }                                                                                      \
    static int update_##n(union digest_ctx *c, const uint8_t *in, size_t len)              \
    {                                                                                      \
        return vg_##n##_update(&c->n, in, len);                                            \
    }                                                                                      \
    static int final_##n(union digest_ctx *c, uint8_t *out, size_t out_len)                \
    {                                                                                      \
        (void)out_len;                                                                     \
        return vg_##n##_final(&c->n, out);                                                 \
    }
HASH_ADAPTERS(sha256)
HASH_ADAPTERS(sha384)
HASH_ADAPTERS(sha512)
HASH_ADAPTERS(sha3_256)
HASH_ADAPTERS(sha3_512)

#define HMAC_ADAPTERS(n)                                                                   \
    static int init_hmac##n(union digest_ctx *c, const uint8_t *key, size_t key_len)       \
    {                                                                                      \
        return vg_hmac_sha##n##_init(&c->hmac##n, key, key_len);                           \
    }                                                                                      \
    static int update_hmac##n(union digest_ctx *c, const uint8_t *in, size_t len)          \
    {                                                                                      \
        return vg_hmac_sha##n##_update(&c->hmac##n, in, len);                              \
    }                                                                                      \
    static int final_hmac##n(union digest_ctx *c, uint8_t *out, size_t out_len)            \
    {                                                                                      \
        (void)out_len;                                                                     \
        return vg_hmac_sha##n##_final(&c->hmac##n, out);                                   \
    }
HMAC_ADAPTERS(256)
HMAC_ADAPTERS(384)
HMAC_ADAPTERS(512)

static int init_shake128(union digest_ctx *c, const uint8_t *key, size_t key_len)
{
    (void)key;
    (void)key_len;
    return vg_shake128_init(&c->shake);
}

static int init_shake256(union digest_ctx *c, const uint8_t *key, size_t key_len)
{
    (void)key;
    (void)key_len;
    return vg_shake256_init(&c->shake);
}

static int update_shake(union digest_ctx *c, const uint8_t *in, size_t len)
{
    return vg_shake_absorb(&c->shake, in, len);
}

static int final_shake(union digest_ctx *c, uint8_t *out, size_t out_len)
{
    int r = vg_shake_squeeze(&c->shake, out, out_len);
    int w = vg_shake_wipe(&c->shake);
    return r != VG_OK ? r : w;
}

static const struct alg g_algs[] = {
    {"sha256", 32, 0, 0, init_sha256, update_sha256, final_sha256},
    {"sha384", 48, 0, 0, init_sha384, update_sha384, final_sha384},
    {"sha512", 64, 0, 0, init_sha512, update_sha512, final_sha512},
    {"sha3-256", 32, 0, 0, init_sha3_256, update_sha3_256, final_sha3_256},
    {"sha3-512", 64, 0, 0, init_sha3_512, update_sha3_512, final_sha3_512},
    {"shake128", 32, 1, 0, init_shake128, update_shake, final_shake},
    {"shake256", 64, 1, 0, init_shake256, update_shake, final_shake},
    {"hmac-sha256", 32, 0, 1, init_hmac256, update_hmac256, final_hmac256},
    {"hmac-sha384", 48, 0, 1, init_hmac384, update_hmac384, final_hmac384},
    {"hmac-sha512", 64, 0, 1, init_hmac512, update_hmac512, final_hmac512},
};
#define HASH_NAMES "sha256 sha384 sha512 sha3-256 sha3-512 shake128 shake256"
#define MAC_NAMES "hmac-sha256 hmac-sha384 hmac-sha512"

/* Digest everything readable from path ("-": standard input) into out.
 * Returns 0, or -1 with errno set (nothing printed). */
static int hash_path(const struct alg *a, const uint8_t *key, size_t key_len, const char *path,
                     uint8_t *buf, uint8_t *out, size_t out_len)
{
    union digest_ctx c;
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    int saved = 0;
    if (fd < 0)
        return -1;
    /* With valid pointers and lengths the library returns VG_OK from
     * every call below (DESIGN 2b); a failure would be a bug here, reported
     * as an I/O-style error rather than ignored. */
    if (a->init(&c, key, key_len) != VG_OK) {
        saved = EINVAL;
        goto fail;
    }
    for (;;) {
        ssize_t r = read(fd, buf, HASH_CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            saved = errno;
            goto fail;
        }
        if (r == 0)
            break;
        if (a->update(&c, buf, (size_t)r) != VG_OK) {
            saved = EINVAL;
            goto fail;
        }
    }
    if (fd != STDIN_FILENO)
        close(fd);
    if (a->final(&c, out, out_len) != VG_OK) {
        vg_wipe(&c, sizeof c);
        errno = EINVAL;
        return -1;
    }
    return 0;
fail:
    vg_wipe(&c, sizeof c);
    if (fd != STDIN_FILENO)
        close(fd);
    errno = saved;
    return -1;
}

/* A growable byte buffer for the -o output. */
struct obuf {
    uint8_t *p;
    size_t len, cap;
};

static int obuf_put(struct obuf *b, const void *data, size_t len)
{
    if (len > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < len) {
            if (cap > SIZE_MAX / 2)
                return -1;
            cap *= 2;
        }
        uint8_t *np = realloc(b->p, cap);
        if (!np)
            return -1;
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    return 0;
}

/* Append "<hex>  <name>\n" as GNU coreutils' sha256sum writes it (checked
 * against coreutils 9.1): in a name holding a backslash, a newline or a
 * carriage return, each of them is written as a backslash followed by
 * itself, 'n' or 'r' respectively, and the line then starts with a
 * backslash; every other byte is written as it is. */
static int put_line(struct obuf *b, const char *hex, const char *name)
{
    int esc = strpbrk(name, "\\\n\r") != NULL;
    int ok = (!esc || obuf_put(b, "\\", 1) == 0) && obuf_put(b, hex, strlen(hex)) == 0 &&
             obuf_put(b, "  ", 2) == 0;
    for (const char *p = name; ok && *p; p++) {
        if (*p == '\\')
            ok = obuf_put(b, "\\\\", 2) == 0;
        else if (*p == '\n')
            ok = obuf_put(b, "\\n", 2) == 0;
        else if (*p == '\r')
            ok = obuf_put(b, "\\r", 2) == 0;
        else
            ok = obuf_put(b, p, 1) == 0;
    }
    return ok && obuf_put(b, "\n", 1) == 0 ? 0 : -1;
}

struct hash_opts {
    const char *cmd; /* "hash" or "mac" */
    const struct alg *alg;
    size_t out_len;
    const char *output; /* -o, or NULL for standard output */
    const char *key;    /* mac: -k */
    int hex;
    const char **files;
    size_t nfiles;
};

/* Parse argv (argv[0] "hash" or "mac", argv[1] the algorithm) with the
 * shared option parser (cli_args.h: an option given twice is a usage
 * error). Returns 0 or prints one line and returns VG_CLI_EXIT_USAGE.
 * o->files is a malloc'd array the caller frees. */
static int parse_args(int argc, char **argv, struct hash_opts *o, int mac)
{
    const char *length = NULL;
    const char *names = mac ? MAC_NAMES : HASH_NAMES;
    int rc;
    memset(o, 0, sizeof *o);
    o->cmd = mac ? "mac" : "hash";
    if (argc < 2 || (argv[1][0] == '-' && argv[1][1] != '\0'))
        return vg_cli_usage_error("%s: missing algorithm (%s)", o->cmd, names);
    for (size_t i = 0; i < sizeof g_algs / sizeof g_algs[0]; i++)
        if (strcmp(argv[1], g_algs[i].name) == 0 && g_algs[i].keyed == mac)
            o->alg = &g_algs[i];
    if (!o->alg)
        return vg_cli_usage_error("%s: unknown algorithm '%s' (%s)", o->cmd, argv[1], names);
    o->out_len = o->alg->out_len;
    o->files = calloc((size_t)argc + 1, sizeof *o->files);
    if (!o->files)
        return vg_cli_usage_error("%s: out of memory", o->cmd);
    /* hash takes --length, mac -k: the table ends before the other's. */
    const struct vg_cli_opt opts[] = {
        {'o', "output", &o->output, NULL, 0, "file name"},
        {0, "hex", NULL, &o->hex, 0, NULL},
        {mac ? 'k' : 0, mac ? "key" : "length", mac ? &o->key : &length, NULL, mac,
         mac ? "key file" : "number"},
    };
    rc = vg_cli_parse_opts(o->cmd, argc, argv, 2, opts, sizeof opts / sizeof opts[0],
                           o->files, (size_t)argc, &o->nfiles);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (length && !o->alg->xof)
        return vg_cli_usage_error("hash: --length applies to shake128 and shake256 only");
    if (length && vg_cli_parse_size(length, 1, HASH_MAX_LENGTH, &o->out_len) != 0)
        return vg_cli_usage_error("hash: --length must be a number from 1 to %zu, not '%s'",
                                  HASH_MAX_LENGTH, length);
    if (o->nfiles == 0)
        o->files[o->nfiles++] = "-";
    if (mac) { /* the key is an input too: at most one of them standard input */
        o->files[o->nfiles] = o->key;
        if ((rc = vg_cli_one_stdin("mac", o->files, o->nfiles + 1)) != VG_CLI_EXIT_OK)
            return rc;
    }
    return 0;
}

/* mac: the key file, raw or (--hex) hex, any length up to MAC_KEY_MAX. */
static int load_mac_key(const struct hash_opts *o, uint8_t **key, size_t *key_len)
{
    int rc = vg_cli_read_secret(o->key, MAC_KEY_MAX, o->hex, key, key_len);
    if (rc == VG_CLI_IO_OK)
        return VG_CLI_EXIT_OK;
    if (rc == VG_CLI_IO_ETOOBIG)
        return vg_cli_usage_error("mac: key '%s' is larger than 1 MiB", o->key);
    if (rc == VG_CLI_IO_EFORMAT) {
        vg_cli_error("mac: key '%s' must be an even number of hex digits (optionally one "
                     "newline)",
                     o->key);
        return VG_CLI_EXIT_REJECT;
    }
    return vg_cli_usage_error("mac: cannot read key '%s': %s", o->key, strerror(errno));
}

/* hash and mac: one digest per file, printed or into -o (see the top). */
static int digest_command(int argc, char **argv, int mac)
{
    struct hash_opts o;
    struct obuf ob = {NULL, 0, 0};
    uint8_t *buf = NULL, *digest = NULL, *key = NULL;
    size_t key_len = 0;
    char *hex = NULL;
    static const char *const what = "output";
    struct vg_cli_outputs outs;
    outs.n = 0;
    int rc = parse_args(argc, argv, &o, mac);
    if (rc != 0)
        goto out;
    /* The temporary exists from here on, before any input is read, so an
     * unwritable OUT fails before a long read. The key is an input. */
    if (o.output && (rc = vg_cli_outputs_open(&outs, o.cmd, &o.output, &what, 1, o.files,
                                              o.nfiles + (size_t)mac)) != 0)
        goto out;
    if (mac && (rc = load_mac_key(&o, &key, &key_len)) != 0)
        goto out;
    rc = VG_CLI_EXIT_USAGE;
    buf = malloc(HASH_CHUNK);
    digest = malloc(o.out_len);
    hex = malloc(2 * o.out_len + 1);
    if (!buf || !digest || !hex) {
        vg_cli_error("%s: out of memory", o.cmd);
        goto out;
    }
    for (size_t i = 0; i < o.nfiles; i++) {
        const char *name = o.files[i];
        if (hash_path(o.alg, key, key_len, name, buf, digest, o.out_len) != 0) {
            vg_cli_error("%s: cannot read '%s': %s", o.cmd, name, strerror(errno));
            goto out;
        }
        vg_cli_hex(hex, digest, o.out_len);
        /* Each digest (or line) goes out as soon as its file is done: to
         * OUT's temporary with -o, else printed, like sha256sum. */
        ob.len = 0;
        int put = o.output && !o.hex ? obuf_put(&ob, digest, o.out_len) : put_line(&ob, hex, name);
        if (put != 0) {
            vg_cli_error("%s: out of memory", o.cmd);
            goto out;
        }
        if (o.output) {
            if (vg_cli_output_write(&outs, 0, ob.p, ob.len, 0) != VG_CLI_EXIT_OK)
                goto out; /* rc is VG_CLI_EXIT_USAGE, the line printed */
        } else if (fwrite(ob.p, 1, ob.len, stdout) != ob.len) {
            vg_cli_error("%s: cannot write standard output: %s", o.cmd, strerror(errno));
            goto out;
        }
    }
    rc = o.output ? vg_cli_outputs_commit(&outs) : VG_CLI_EXIT_OK;
out:
    vg_cli_outputs_close(&outs);
    if (key) {
        vg_wipe(key, key_len);
        free(key);
    }
    free(ob.p);
    if (buf) { /* mac: the messages may be secret too */
        vg_wipe(buf, HASH_CHUNK);
        free(buf);
    }
    free(digest);
    free(hex);
    free(o.files);
    return rc;
}

int vg_cli_cmd_hash(int argc, char **argv)
{
    return digest_command(argc, argv, 0);
}

int vg_cli_cmd_mac(int argc, char **argv)
{
    return digest_command(argc, argv, 1);
}
