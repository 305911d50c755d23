/*
 * libFuzzer target: the whole vgcrypto command (vg_cli_main, src/cli/main.c
 * built with VG_CLI_NO_MAIN) on a fuzzed argv.
 *
 * Input: the arguments after "vgcrypto", separated by a 0x00 or 0x01 byte
 * (at most MAX_ARGS of them); a '/' in an argument becomes '_', so every
 * path names an entry of the work directory (or "." / ".."): nothing
 * outside it is read or written. The work directory is a fresh directory
 * under /tmp, reset before each run to the fixture files below (keys,
 * a message, a signature, two sealed files, a directory, a symbolic link
 * and a dangling one);
 * standard input and output are /dev/null, so no command can block.
 *
 * Properties (DESIGN.md section 4, docs/cli.md), checked on every run:
 *   - the exit code is 0, 1 or 2;
 *   - on failure (1 or 2) exactly one line on stderr, ending in '\n';
 *   - on success nothing on stderr;
 *   - no temporary (".vg" followed by 8 characters) is left in the work
 *     directory, whatever the command did.
 * Plus the sanitizers' checks on all of the command's code.
 *
 * A crash's artifact (crash-*) is written to the current directory, which
 * is the work directory /tmp/vg_fuzz_cli.XXXXXX (left in place after a
 * crash); run with -artifact_prefix=DIR/ to put it elsewhere.
 *
 * `speed` is not linked (it only measures, for seconds): the stub below is
 * a usage error, as any unknown command would be.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<sanitizer/common_interface_defs.h>)
#include <sanitizer/common_interface_defs.h>
#define HAVE_SANITIZER_REPORT_FD 1
#endif
#endif

#include "cli/cli.h"
#include "vgcrypto.h"

#define MAX_ARGS 16
#define FUZZ_MAX_INPUT 4096

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int vg_cli_cmd_speed(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return vg_cli_usage_error("speed: not part of the fuzz build");
}

struct fixture {
    const char *name;
    uint8_t data[VG_MLKEM512_SECRETKEYBYTES];
    size_t len;
};

enum {
    FX_XSK, FX_XPK, FX_EDSK, FX_EDPK, FX_MSG, FX_SIG, FX_HEX, FX_EMPTY, FX_KEMPK, FX_KEMSK,
    FX_SEALED, FX_XSEALED, N_FX
};
static struct fixture g_fx[N_FX];
static char g_dir[64];
static int g_err_fd = -1;   /* the captured stderr of each run */
static int g_real_err = -1; /* the fuzzer's own stderr */

static void set_fx(int i, const char *name, const uint8_t *data, size_t len)
{
    g_fx[i].name = name;
    if (len)
        memcpy(g_fx[i].data, data, len);
    g_fx[i].len = len;
}

/* Fixed keys, so that runs are reproducible (except the ML-KEM pair, from
 * the library's random keypair once per process). */
static void make_fixtures(void)
{
    static const uint8_t nine[32] = {9};
    uint8_t sk[64], pk[VG_MLKEM512_PUBLICKEYBYTES], seed[32], sig[64];
    uint8_t ksk[VG_MLKEM512_SECRETKEYBYTES];
    char hex[65];
    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)(7 * i + 1);
    set_fx(FX_XSK, "x.sk", seed, 32);
    (void)vg_x25519(pk, seed, nine);
    set_fx(FX_XPK, "x.pk", pk, 32);
    (void)vg_ed25519_keypair_from_seed(pk, sk, seed);
    set_fx(FX_EDSK, "ed.sk", sk, 64);
    set_fx(FX_EDPK, "ed.pk", pk, 32);
    set_fx(FX_MSG, "m", (const uint8_t *)"abc", 3);
    (void)vg_ed25519_sign(sig, (const uint8_t *)"abc", 3, sk);
    set_fx(FX_SIG, "sig", sig, 64);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", seed[i]);
    hex[64] = '\n';
    set_fx(FX_HEX, "h", (const uint8_t *)hex, 65);
    set_fx(FX_EMPTY, "e", NULL, 0);
    (void)vg_mlkem512_keypair(pk, ksk);
    set_fx(FX_KEMPK, "kem.pk", pk, VG_MLKEM512_PUBLICKEYBYTES);
    set_fx(FX_KEMSK, "kem.sk", ksk, VG_MLKEM512_SECRETKEYBYTES);
    /* `open` inputs: "abc" sealed under x.sk (as an AEAD key) with AD "abc"
     * (the file m), in the layout of `seal`: nonce || ciphertext || tag. */
    uint8_t box[24 + 3 + 16];
    memset(box, 0x5a, 24);
    (void)vg_chacha20poly1305_seal(box + 12, box + 15, (const uint8_t *)"abc", 3,
                                   (const uint8_t *)"abc", 3, box, seed);
    set_fx(FX_SEALED, "c20", box, 12 + 3 + 16);
    (void)vg_xchacha20poly1305_seal(box + 24, box + 27, (const uint8_t *)"abc", 3,
                                    (const uint8_t *)"abc", 3, box, seed);
    set_fx(FX_XSEALED, "xc20", box, 24 + 3 + 16);
}

/* Remove everything but the directory "d", then write the fixtures. Returns
 * the number of leftover temporaries seen (".vg" + 8). */
static int reset_dir(void)
{
    int leftovers = 0;
    DIR *d = opendir(".");
    struct dirent *e;
    if (!d)
        abort();
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            strcmp(e->d_name, "d") == 0)
            continue;
        if (strncmp(e->d_name, ".vg", 3) == 0 && strlen(e->d_name) == 11)
            leftovers++;
        if (unlink(e->d_name) != 0)
            abort();
    }
    closedir(d);
    for (int i = 0; i < N_FX; i++) {
        int fd = open(g_fx[i].name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0 || (g_fx[i].len && write(fd, g_fx[i].data, g_fx[i].len) != (ssize_t)g_fx[i].len))
            abort();
        close(fd);
    }
    if (symlink("m", "l") != 0 || symlink("nothing", "dl") != 0)
        abort();
    (void)mkdir("d", 0700);
    return leftovers;
}

static void cleanup(void)
{
    if (g_dir[0] && chdir(g_dir) == 0) {
        (void)reset_dir();
        for (int i = 0; i < N_FX; i++)
            unlink(g_fx[i].name);
        unlink("l");
        unlink("dl");
        rmdir("d");
        if (chdir("/") == 0)
            rmdir(g_dir);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(g_dir, sizeof g_dir, "/tmp/vg_fuzz_cli.XXXXXX");
    if (!mkdtemp(g_dir) || chdir(g_dir) != 0)
        abort();
    atexit(cleanup);
    make_fixtures();
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
    char errname[96];
    snprintf(errname, sizeof errname, "%s.stderr", g_dir);
    g_err_fd = open(errname, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    g_real_err = dup(STDERR_FILENO);
    if (null_fd < 0 || g_err_fd < 0 || g_real_err < 0)
        abort();
    unlink(errname); /* kept open only */
    dup2(null_fd, STDIN_FILENO);
    dup2(null_fd, STDOUT_FILENO);
    close(null_fd);
#ifdef HAVE_SANITIZER_REPORT_FD
    /* Sanitizer reports go to the real stderr even while a run's is captured. */
    __sanitizer_set_report_fd((void *)(intptr_t)g_real_err);
#endif
    return 0;
}

static void fail(const char *what, int rc, char *const *args, int nargs, const char *err)
{
    dprintf(g_real_err, "fuzz_cli: %s (exit %d) for:", what, rc);
    for (int i = 1; i < nargs; i++)
        dprintf(g_real_err, " '%s'", args[i]);
    dprintf(g_real_err, "\nstderr was: %s\n", err);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[FUZZ_MAX_INPUT + 1];
    static char err[8192];
    char *args[MAX_ARGS + 2];
    int nargs = 0;
    if (size > FUZZ_MAX_INPUT)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    args[nargs++] = (char *)"vgcrypto";
    char *p = buf, *end = buf + size;
    while (p <= end && nargs < MAX_ARGS + 1) {
        char *q = p;
        while (q < end && *q != '\0' && *q != '\x01') {
            if (*q == '/')
                *q = '_';
            q++;
        }
        *q = '\0';
        args[nargs++] = p;
        p = q + 1;
    }
    args[nargs] = NULL;
    if (size == 0)
        nargs = 1; /* no arguments at all */

    static int first = 1;
    if (first) /* later runs start from the reset the previous run ended with */
        (void)reset_dir();
    first = 0;
    fflush(stderr);
    if (ftruncate(g_err_fd, 0) != 0 || lseek(g_err_fd, 0, SEEK_SET) != 0 ||
        dup2(g_err_fd, STDERR_FILENO) < 0)
        abort();
    int rc = vg_cli_main(nargs, args);
    fflush(stderr);
    dup2(g_real_err, STDERR_FILENO);

    ssize_t n = pread(g_err_fd, err, sizeof err - 1, 0);
    if (n < 0)
        abort();
    err[n] = '\0';
    int lines = 0;
    for (ssize_t i = 0; i < n; i++)
        lines += err[i] == '\n';
    if (rc != 0 && rc != 1 && rc != 2)
        fail("exit code not 0, 1 or 2", rc, args, nargs, err);
    if (rc != 0 && (lines != 1 || err[n - 1] != '\n'))
        fail("not exactly one line on stderr", rc, args, nargs, err);
    if (rc == 0 && n != 0)
        fail("stderr output on success", rc, args, nargs, err);
    if (reset_dir() != 0)
        fail("temporary file left behind", rc, args, nargs, err);
    return 0;
}
