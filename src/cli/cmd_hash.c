/*
 * vgcrypto hash ALG [--length N] [-o OUT [--hex]] [FILE...]
 *
 * Prints "<hex>  <name>" per input like sha256sum (standard input when no
 * FILE or for "-"). Files are read in chunks through the incremental
 * internal interfaces (src/hash/sha2.h, src/hash/keccak.h), so any size
 * works in constant memory. With -o the raw digests (or, with --hex, the
 * very lines that would be printed) go to OUT through a temporary that is
 * created before the first input is read and renamed into place only when
 * every input was read (cli_out.h): a failure leaves OUT untouched, and OUT
 * may not be one of the inputs.
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
#include "hash/keccak.h"
#include "hash/sha2.h"

#define HASH_MAX_LENGTH ((size_t)1 << 20) /* largest --length for SHAKE */
#define HASH_CHUNK 65536

enum alg_id { ALG_SHA256, ALG_SHA512, ALG_SHA3_256, ALG_SHA3_512, ALG_SHAKE128, ALG_SHAKE256 };

struct alg {
    const char *name;
    enum alg_id id;
    size_t out_len; /* fixed digest size, or the default for SHAKE */
    int xof;
};

static const struct alg g_algs[] = {
    {"sha256", ALG_SHA256, 32, 0},       {"sha512", ALG_SHA512, 64, 0},
    {"sha3-256", ALG_SHA3_256, 32, 0},   {"sha3-512", ALG_SHA3_512, 64, 0},
    {"shake128", ALG_SHAKE128, 32, 1},   {"shake256", ALG_SHAKE256, 64, 1},
};

union hash_ctx {
    vg_sha256_ctx sha256;
    vg_sha512_ctx sha512;
    vg_keccak_ctx keccak;
};

static void hash_init(const struct alg *a, union hash_ctx *c)
{
    switch (a->id) {
    case ALG_SHA256: vg_sha256_ctx_init(&c->sha256); break;
    case ALG_SHA512: vg_sha512_ctx_init(&c->sha512); break;
    case ALG_SHA3_256: vg_sha3_256_ctx_init(&c->keccak); break;
    case ALG_SHA3_512: vg_sha3_512_ctx_init(&c->keccak); break;
    case ALG_SHAKE128: vg_shake128_ctx_init(&c->keccak); break;
    case ALG_SHAKE256: vg_shake256_ctx_init(&c->keccak); break;
    }
}

static void hash_update(const struct alg *a, union hash_ctx *c, const uint8_t *in, size_t len)
{
    switch (a->id) {
    case ALG_SHA256: vg_sha256_ctx_update(&c->sha256, in, len); break;
    case ALG_SHA512: vg_sha512_ctx_update(&c->sha512, in, len); break;
    default: vg_keccak_absorb(&c->keccak, in, len); break;
    }
}

/* Post: out holds out_len bytes (the fixed size for SHA-2/SHA-3); c wiped. */
static void hash_final(const struct alg *a, union hash_ctx *c, uint8_t *out, size_t out_len)
{
    switch (a->id) {
    case ALG_SHA256: vg_sha256_ctx_final(&c->sha256, out); break;
    case ALG_SHA512: vg_sha512_ctx_final(&c->sha512, out); break;
    case ALG_SHA3_256:
    case ALG_SHA3_512: vg_sha3_final(&c->keccak, out, out_len); break;
    case ALG_SHAKE128:
    case ALG_SHAKE256:
        vg_keccak_finalize(&c->keccak);
        vg_keccak_squeeze(&c->keccak, out, out_len);
        vg_wipe(&c->keccak, sizeof c->keccak);
        break;
    }
}

/* Hash everything readable from path ("-": standard input) into out.
 * Returns 0, or -1 with errno set (nothing printed). */
static int hash_path(const struct alg *a, const char *path, uint8_t *buf, uint8_t *out,
                     size_t out_len)
{
    union hash_ctx c;
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    hash_init(a, &c);
    for (;;) {
        ssize_t r = read(fd, buf, HASH_CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int saved = errno;
            vg_wipe(&c, sizeof c);
            if (fd != STDIN_FILENO)
                close(fd);
            errno = saved;
            return -1;
        }
        if (r == 0)
            break;
        hash_update(a, &c, buf, (size_t)r);
    }
    if (fd != STDIN_FILENO)
        close(fd);
    hash_final(a, &c, out, out_len);
    return 0;
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
    const struct alg *alg;
    size_t out_len;
    const char *output; /* -o, or NULL for standard output */
    int hex;
    const char **files;
    size_t nfiles;
};

/* Parse argv (argv[0] "hash", argv[1] the algorithm) with the shared
 * option parser (cli_args.h: an option given twice is a usage error).
 * Returns 0 or prints one line and returns VG_CLI_EXIT_USAGE. o->files is
 * a malloc'd array the caller frees. */
static int parse_args(int argc, char **argv, struct hash_opts *o)
{
    const char *length = NULL;
    int rc;
    memset(o, 0, sizeof *o);
    if (argc < 2 || (argv[1][0] == '-' && argv[1][1] != '\0'))
        return vg_cli_usage_error(
            "hash: missing algorithm (sha256 sha512 sha3-256 sha3-512 shake128 shake256)");
    for (size_t i = 0; i < sizeof g_algs / sizeof g_algs[0]; i++)
        if (strcmp(argv[1], g_algs[i].name) == 0)
            o->alg = &g_algs[i];
    if (!o->alg)
        return vg_cli_usage_error(
            "hash: unknown algorithm '%s' (sha256 sha512 sha3-256 sha3-512 shake128 shake256)",
            argv[1]);
    o->out_len = o->alg->out_len;
    o->files = calloc((size_t)argc, sizeof *o->files);
    if (!o->files)
        return vg_cli_usage_error("hash: out of memory");
    const struct vg_cli_opt opts[] = {
        {'o', "output", &o->output, NULL, 0, "file name"},
        {0, "length", &length, NULL, 0, "number"},
        {0, "hex", NULL, &o->hex, 0, NULL},
    };
    rc = vg_cli_parse_opts("hash", argc, argv, 2, opts, sizeof opts / sizeof opts[0], o->files,
                           (size_t)argc, &o->nfiles);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (length && !o->alg->xof)
        return vg_cli_usage_error("hash: --length applies to shake128 and shake256 only");
    if (length && vg_cli_parse_size(length, 1, HASH_MAX_LENGTH, &o->out_len) != 0)
        return vg_cli_usage_error("hash: --length must be a number from 1 to %zu, not '%s'",
                                  HASH_MAX_LENGTH, length);
    if (o->nfiles == 0)
        o->files[o->nfiles++] = "-";
    return 0;
}

int vg_cli_cmd_hash(int argc, char **argv)
{
    struct hash_opts o;
    struct obuf ob = {NULL, 0, 0};
    uint8_t *buf = NULL, *digest = NULL;
    char *hex = NULL;
    static const char *const what = "output";
    struct vg_cli_outputs outs;
    outs.n = 0;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        goto out;
    /* The temporary exists from here on, before any input is read, so an
     * unwritable OUT fails before a long read. */
    if (o.output && (rc = vg_cli_outputs_open(&outs, "hash", &o.output, &what, 1, o.files,
                                              o.nfiles)) != 0)
        goto out;
    rc = VG_CLI_EXIT_USAGE;
    buf = malloc(HASH_CHUNK);
    digest = malloc(o.out_len);
    hex = malloc(2 * o.out_len + 1);
    if (!buf || !digest || !hex) {
        vg_cli_error("hash: out of memory");
        goto out;
    }
    for (size_t i = 0; i < o.nfiles; i++) {
        const char *name = o.files[i];
        if (hash_path(o.alg, name, buf, digest, o.out_len) != 0) {
            vg_cli_error("hash: cannot read '%s': %s", name, strerror(errno));
            goto out;
        }
        vg_cli_hex(hex, digest, o.out_len);
        /* Each digest (or line) goes out as soon as its file is done: to
         * OUT's temporary with -o, else printed, like sha256sum. */
        ob.len = 0;
        int put = o.output && !o.hex ? obuf_put(&ob, digest, o.out_len) : put_line(&ob, hex, name);
        if (put != 0) {
            vg_cli_error("hash: out of memory");
            goto out;
        }
        if (o.output) {
            if (vg_cli_output_write(&outs, 0, ob.p, ob.len, 0) != VG_CLI_EXIT_OK)
                goto out; /* rc is VG_CLI_EXIT_USAGE, the line printed */
        } else if (fwrite(ob.p, 1, ob.len, stdout) != ob.len) {
            vg_cli_error("hash: cannot write standard output: %s", strerror(errno));
            goto out;
        }
    }
    rc = o.output ? vg_cli_outputs_commit(&outs) : VG_CLI_EXIT_OK;
out:
    vg_cli_outputs_close(&outs);
    free(ob.p);
    free(buf);
    free(digest);
    free(hex);
    free(o.files);
    return rc;
}
