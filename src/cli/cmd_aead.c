/*
 * vgcrypto seal ALG -k KEY -i IN -o OUT [--ad FILE] [--hex]
 * vgcrypto open ALG -k KEY -i IN -o OUT [--ad FILE] [--hex]
 *
 * ALG: chacha20-poly1305 (RFC 8439 2.8, 12-byte nonce) or
 * xchacha20-poly1305 (draft-irtf-cfrg-xchacha-03 2.3, 24-byte nonce).
 * The sealed file is nonce || ciphertext || tag (16 bytes); seal draws a
 * fresh nonce from the operating system (vg_randombytes) for every file.
 * KEY is 32 raw bytes (--hex: 64 hex digits; --hex applies to the key
 * only, IN and OUT are always bytes). FILE is the associated data, read
 * whole (at most AEAD_AD_MAX bytes): it is authenticated, not encrypted,
 * and open needs the very same bytes.
 *
 * Any size of IN (up to RFC 8439's 2^38 - 64 bytes of plaintext) in
 * constant memory: IN is read in chunks of AEAD_CHUNK bytes through the
 * library's incremental AEAD core (aead.h, vg_aead_stream_*), whose every
 * piece but the last must be whole 64-byte blocks; open holds back the last
 * 16 bytes it has read, since the tag is whatever the file ends with.
 *
 * Nothing unauthenticated is ever released (docs/cli.md, "seal and open"):
 *   - OUT a regular file: open decrypts into OUT's temporary (cli_out.h,
 *     mode 0600, O_TMPFILE where possible) and renames it into place only
 *     after the tag verified; a wrong tag discards the temporary, and an
 *     existing OUT stays byte for byte as it was.
 *   - OUT written directly (standard output, /dev/fd/N, a FIFO, a
 *     character device), where bytes cannot be taken back: open holds the
 *     plaintext in memory, at most AEAD_MEM_MAX bytes, and writes it only
 *     after the tag verified. A larger plaintext is a usage error (exit 2)
 *     before anything is written: for a regular IN by its size before
 *     anything is read, for a pipe when the limit is passed.
 *
 * Exit codes (cli.h): 0 success; 1 a key file of the wrong length or with
 * bad hex, a wrong tag (wrong key, wrong AD, a modified file), a file too
 * short to hold nonce and tag, a ciphertext longer than RFC 8439 allows;
 * 2 usage errors, unreadable or unwritable files, a plaintext over
 * 2^38 - 64 bytes to seal, open's in-memory limit, AD over its limit, a
 * failing random source.
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aead/aead.h"
#include "cli.h"
#include "cli_args.h"
#include "cli_io.h"
#include "cli_out.h"
#include "common.h"
#include "vgcrypto.h"

/* Bytes per read: a multiple of 64 (aead.h: every piece but the last whole
 * ChaCha20 blocks), large enough that system calls cost little. */
#define AEAD_CHUNK ((size_t)65536)
#define AEAD_TAG VG_AEAD_TAGBYTES
/* The largest associated data (read whole into memory). */
#define AEAD_AD_MAX ((size_t)16 << 20)
/* The largest plaintext open holds in memory for an output that is written
 * directly (64 MiB). */
#define AEAD_MEM_MAX ((size_t)64 << 20)

struct aead_alg {
    const char *name;
    int extended;     /* aead.h: 0 ChaCha20-Poly1305, 1 XChaCha20-Poly1305 */
    size_t nonce_len; /* 12 or 24 */
};

static const struct aead_alg g_aead_algs[] = {
    {"chacha20-poly1305", 0, VG_CHACHA20POLY1305_NONCEBYTES},
    {"xchacha20-poly1305", 1, VG_XCHACHA20POLY1305_NONCEBYTES},
};
#define AEAD_ALG_NAMES "chacha20-poly1305, xchacha20-poly1305"

/* One run of seal or open: everything the exit path must release. */
struct aead_run {
    const char *cmd; /* "seal" or "open" */
    const struct aead_alg *alg;
    const char *key_path, *in_path, *out_path, *ad_path;
    struct vg_cli_outputs outs;
    uint8_t key[VG_CHACHA20POLY1305_KEYBYTES];
    uint8_t *ad;
    size_t ad_len;
    int fd;             /* IN; -1 when not open */
    int in_regular;     /* IN is a regular file of in_size bytes */
    uint64_t in_size;
    uint8_t *buf;       /* AEAD_CHUNK + AEAD_TAG bytes, plaintext at times */
    vg_aead_stream st;  /* wiped by _tag / _verify, and on every exit */
    uint8_t *mem;       /* open to a direct output: the held plaintext */
    size_t mem_len, mem_cap;
};


static int read_error(const struct aead_run *r)
{
    return vg_cli_usage_error("%s: cannot read input '%s': %s", r->cmd, r->in_path,
                              strerror(errno));
}

/* The associated data, read whole (none without --ad). Exit code. */
static int load_ad(struct aead_run *r)
{
    if (!r->ad_path)
        return VG_CLI_EXIT_OK;
    int rc = vg_cli_read_all(r->ad_path, AEAD_AD_MAX, &r->ad, &r->ad_len);
    if (rc == VG_CLI_IO_OK)
        return VG_CLI_EXIT_OK;
    if (rc == VG_CLI_IO_ETOOBIG)
        return vg_cli_usage_error("%s: associated data '%s' is larger than 16 MiB (%zu bytes)",
                                  r->cmd, r->ad_path, AEAD_AD_MAX);
    return vg_cli_usage_error("%s: cannot read associated data '%s': %s", r->cmd, r->ad_path,
                              strerror(errno));
}

/* Everything before the first byte of IN is processed: options, the
 * output checks (before any input is read, cli_out.h), the key, the AD, IN
 * opened and sized, the chunk buffer. Exit code; aead_release frees
 * whatever was set up either way. */
static int aead_prepare(struct aead_run *r, int argc, char **argv)
{
    const char *pos[1];
    size_t n_pos;
    int hex = 0, rc;
    struct stat st;
    const struct vg_cli_opt opts[] = {
        {'k', "key", &r->key_path, NULL, 1, "key file"},
        {'i', "in", &r->in_path, NULL, 1, "input file"},
        {'o', "out", &r->out_path, NULL, 1, "output file"},
        {0, "ad", &r->ad_path, NULL, 0, "associated data file"},
        {0, "hex", NULL, &hex, 0, NULL},
    };
    static const char *const what = "output";
    rc = vg_cli_parse_opts(r->cmd, argc, argv, 1, opts, sizeof opts / sizeof opts[0], pos, 1,
                           &n_pos);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    if (n_pos == 0)
        return vg_cli_usage_error("%s: missing algorithm (one of: %s)", r->cmd, AEAD_ALG_NAMES);
    for (size_t i = 0; i < sizeof g_aead_algs / sizeof g_aead_algs[0]; i++)
        if (strcmp(pos[0], g_aead_algs[i].name) == 0)
            r->alg = &g_aead_algs[i];
    if (!r->alg)
        return vg_cli_usage_error("%s: unknown algorithm '%s' (one of: %s)", r->cmd, pos[0],
                                  AEAD_ALG_NAMES);
    const char *inputs[3] = {r->key_path, r->in_path, r->ad_path};
    if ((rc = vg_cli_one_stdin(r->cmd, inputs, 3)) != VG_CLI_EXIT_OK)
        return rc;
    rc = vg_cli_outputs_open(&r->outs, r->cmd, &r->out_path, &what, 1, inputs, 3);
    if (rc != VG_CLI_EXIT_OK)
        return rc;
    rc = vg_cli_load_key("key", r->key_path, r->key, sizeof r->key, hex);
    if (rc != VG_CLI_EXIT_OK || (rc = load_ad(r)) != VG_CLI_EXIT_OK)
        return rc;
    r->fd = strcmp(r->in_path, "-") == 0 ? STDIN_FILENO : open(r->in_path, O_RDONLY | O_CLOEXEC);
    if (r->fd < 0)
        return read_error(r);
    if (fstat(r->fd, &st) != 0)
        return read_error(r);
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return read_error(r);
    }
    r->in_regular = S_ISREG(st.st_mode);
    r->in_size = r->in_regular ? (uint64_t)st.st_size : 0;
    r->buf = malloc(AEAD_CHUNK + AEAD_TAG);
    if (!r->buf)
        return vg_cli_usage_error("%s: out of memory", r->cmd);
    return VG_CLI_EXIT_OK;
}

static void aead_release(struct aead_run *r)
{
    vg_cli_outputs_close(&r->outs);
    if (r->fd >= 0 && r->fd != STDIN_FILENO)
        close(r->fd);
    if (r->buf) {
        vg_wipe(r->buf, AEAD_CHUNK + AEAD_TAG);
        free(r->buf);
    }
    if (r->mem) {
        vg_wipe(r->mem, r->mem_cap);
        free(r->mem);
    }
    if (r->ad) {
        vg_wipe(r->ad, r->ad_len);
        free(r->ad);
    }
    vg_wipe(r->key, sizeof r->key);
    vg_wipe(&r->st, sizeof r->st);
}

static void aead_start(struct aead_run *r, const uint8_t *nonce)
{
    /* The dispatch is chosen once per operation (DESIGN section 5). */
    vg_aead_stream_init(&r->st, vg_chacha20_active(), vg_poly1305_active(), r->alg->extended,
                        nonce, r->key, r->ad, r->ad_len);
}

static int seal_body(struct aead_run *r)
{
    uint8_t nonce[VG_XCHACHA20POLY1305_NONCEBYTES], tag[AEAD_TAG];
    int rc;
    if (r->in_regular && r->in_size > VG_AEAD_MAXLEN)
        return vg_cli_usage_error("%s: input '%s' is larger than %s allows (2^38 - 64 bytes, "
                                  "RFC 8439 2.8)",
                                  r->cmd, r->in_path, r->alg->name);
    if (vg_randombytes(nonce, r->alg->nonce_len) != VG_OK)
        return vg_cli_usage_error("%s: the operating system's random source failed", r->cmd);
    aead_start(r, nonce);
    if ((rc = vg_cli_output_write(&r->outs, 0, nonce, r->alg->nonce_len, 0)) != 0)
        return rc;
    for (;;) {
        ptrdiff_t n = vg_cli_read_upto(r->fd, r->buf, AEAD_CHUNK);
        if (n < 0)
            return read_error(r);
        /* Every piece but the last is AEAD_CHUNK bytes: whole blocks. */
        if (vg_aead_stream_encrypt(&r->st, r->buf, r->buf, (size_t)n) != VG_OK)
            return vg_cli_usage_error("%s: input '%s' is larger than %s allows (2^38 - 64 "
                                      "bytes, RFC 8439 2.8)",
                                      r->cmd, r->in_path, r->alg->name);
        if (n > 0 && (rc = vg_cli_output_write(&r->outs, 0, r->buf, (size_t)n, 0)) != 0)
            return rc;
        if ((size_t)n < AEAD_CHUNK)
            break;
    }
    vg_aead_stream_tag(&r->st, tag);
    if ((rc = vg_cli_output_write(&r->outs, 0, tag, sizeof tag, 0)) != 0)
        return rc;
    return vg_cli_outputs_commit(&r->outs);
}

static int too_short(const struct aead_run *r)
{
    vg_cli_error("%s: input '%s' is too short for %s: at least %zu bytes (nonce and tag); "
                 "truncated?",
                 r->cmd, r->in_path, r->alg->name, r->alg->nonce_len + AEAD_TAG);
    return VG_CLI_EXIT_REJECT;
}

static int mem_limit(const struct aead_run *r)
{
    return vg_cli_usage_error("%s: the plaintext of '%s' is larger than 64 MiB, the most "
                              "held in memory for an output written directly (until the tag "
                              "has verified); write it to a regular file",
                              r->cmd, r->in_path);
}

/* Hand n bytes of (not yet authenticated) plaintext on: to OUT's temporary
 * when it is a file, else into memory (r->mem), both released only after
 * the tag verified. Exit code. */
static int open_emit(struct aead_run *r, const uint8_t *p, size_t n)
{
    if (n == 0)
        return VG_CLI_EXIT_OK;
    if (vg_cli_output_is_file(&r->outs, 0))
        return vg_cli_output_write(&r->outs, 0, p, n, 0);
    if (n > AEAD_MEM_MAX - r->mem_len)
        return mem_limit(r);
    if (n > r->mem_cap - r->mem_len) {
        /* Grow by copying, not realloc: the old block is wiped before it
         * is freed, as it holds plaintext. */
        size_t cap = r->mem_cap ? r->mem_cap : AEAD_CHUNK;
        while (cap - r->mem_len < n)
            cap = cap > AEAD_MEM_MAX / 2 ? AEAD_MEM_MAX : 2 * cap;
        uint8_t *np = malloc(cap);
        if (!np)
            return vg_cli_usage_error("%s: out of memory", r->cmd);
        if (r->mem_len)
            memcpy(np, r->mem, r->mem_len);
        if (r->mem) {
            vg_wipe(r->mem, r->mem_cap);
            free(r->mem);
        }
        r->mem = np;
        r->mem_cap = cap;
    }
    memcpy(r->mem + r->mem_len, p, n);
    r->mem_len += n;
    return VG_CLI_EXIT_OK;
}

static int too_long(const struct aead_run *r)
{
    vg_cli_error("%s: input '%s' is longer than any %s ciphertext (2^38 - 64 bytes, RFC 8439 "
                 "2.8)",
                 r->cmd, r->in_path, r->alg->name);
    return VG_CLI_EXIT_REJECT;
}

/* nonce || ciphertext || tag: the nonce first, then chunks with the last
 * AEAD_TAG bytes read always held back in buf, since the end of the file is
 * known only when a read comes up short. */
static int open_body(struct aead_run *r)
{
    uint8_t nonce[VG_XCHACHA20POLY1305_NONCEBYTES], tag[AEAD_TAG];
    const size_t nl = r->alg->nonce_len;
    size_t have = 0;
    int rc;
    if (r->in_regular) { /* what the size alone decides, before reading */
        if (r->in_size < nl + AEAD_TAG)
            return too_short(r);
        if (r->in_size - nl - AEAD_TAG > VG_AEAD_MAXLEN)
            return too_long(r);
        if (!vg_cli_output_is_file(&r->outs, 0) && r->in_size - nl - AEAD_TAG > AEAD_MEM_MAX)
            return mem_limit(r);
    }
    ptrdiff_t n = vg_cli_read_upto(r->fd, nonce, nl);
    if (n < 0)
        return read_error(r);
    if ((size_t)n < nl)
        return too_short(r);
    aead_start(r, nonce);
    for (;;) {
        n = vg_cli_read_upto(r->fd, r->buf + have, AEAD_CHUNK + AEAD_TAG - have);
        if (n < 0)
            return read_error(r);
        have += (size_t)n;
        if (have < AEAD_CHUNK + AEAD_TAG)
            break; /* end of file: buf ends with the tag */
        if (vg_aead_stream_decrypt(&r->st, r->buf, r->buf, AEAD_CHUNK) != VG_OK)
            return too_long(r);
        if ((rc = open_emit(r, r->buf, AEAD_CHUNK)) != VG_CLI_EXIT_OK)
            return rc;
        memmove(r->buf, r->buf + AEAD_CHUNK, AEAD_TAG);
        have = AEAD_TAG;
    }
    if (have < AEAD_TAG)
        return too_short(r);
    memcpy(tag, r->buf + have - AEAD_TAG, AEAD_TAG);
    if (vg_aead_stream_decrypt(&r->st, r->buf, r->buf, have - AEAD_TAG) != VG_OK)
        return too_long(r);
    if ((rc = open_emit(r, r->buf, have - AEAD_TAG)) != VG_CLI_EXIT_OK)
        return rc;
    if (vg_aead_stream_verify(&r->st, tag) != VG_OK) {
        /* The temporary (or the memory) is discarded by aead_release. */
        vg_cli_error("%s: '%s' failed authentication (wrong key, wrong associated data, or a "
                     "modified or truncated file); nothing written",
                     r->cmd, r->in_path);
        return VG_CLI_EXIT_REJECT;
    }
    if (!vg_cli_output_is_file(&r->outs, 0) && r->mem_len &&
        (rc = vg_cli_output_write(&r->outs, 0, r->mem, r->mem_len, 0)) != VG_CLI_EXIT_OK)
        return rc;
    return vg_cli_outputs_commit(&r->outs);
}

static int aead_command(const char *cmd, int argc, char **argv, int (*body)(struct aead_run *))
{
    struct aead_run r;
    memset(&r, 0, sizeof r);
    r.cmd = cmd;
    r.fd = -1;
    int rc = aead_prepare(&r, argc, argv);
    if (rc == VG_CLI_EXIT_OK)
        rc = body(&r);
    aead_release(&r);
    return rc;
}

int vg_cli_cmd_seal(int argc, char **argv)
{
    return aead_command("seal", argc, argv, seal_body);
}

int vg_cli_cmd_open(int argc, char **argv)
{
    return aead_command("open", argc, argv, open_body);
}
