/*
 * All-or-nothing outputs of the vgcrypto command. Contracts in cli_out.h,
 * the user-visible rules and their reasons in docs/cli.md.
 */
#define _GNU_SOURCE /* O_TMPFILE, AT_EMPTY_PATH (Linux); the rest is POSIX.1-2008 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_io.h"
#include "cli_out.h"
#include "common.h"

/* OUT_FD: an already open descriptor named as /dev/stdout, /dev/stderr,
 * /dev/fd/N or /proc/self/fd/N, written through that descriptor (so that
 * the shell's >> appends), never closed; OUT_STDOUT is OUT_FD for "-". */
enum { OUT_FILE = 1, OUT_STREAM, OUT_STDOUT, OUT_FD };

/* The descriptor a /dev/stdout-like name stands for, or -1. */
static int fd_name(const char *path)
{
    const char *num = NULL;
    if (strcmp(path, "/dev/stdout") == 0)
        return STDOUT_FILENO;
    if (strcmp(path, "/dev/stderr") == 0)
        return STDERR_FILENO;
    if (strncmp(path, "/dev/fd/", 8) == 0)
        num = path + 8;
    else if (strncmp(path, "/proc/self/fd/", 14) == 0)
        num = path + 14;
    if (!num || *num < '0' || *num > '9' || strlen(num) > 6)
        return -1;
    int fd = 0;
    for (; *num >= '0' && *num <= '9'; num++)
        fd = 10 * fd + (*num - '0');
    return *num == '\0' ? fd : -1;
}

/* fd_name of path or of any symbolic link on the way from it (at most 40
 * links, as the kernel's limit): a user's own link to /dev/stdout or to
 * /proc/self/fd/1 is the descriptor too, not the file behind it. */
static int fd_behind_links(const char *path)
{
    char cur[4096], link[4096];
    if (strlen(path) >= sizeof cur)
        return -1;
    strcpy(cur, path);
    for (int hop = 0; hop <= 40; hop++) {
        int fd = fd_name(cur);
        if (fd >= 0)
            return fd;
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return -1;
        link[n] = '\0';
        if (link[0] == '/') {
            memcpy(cur, link, (size_t)n + 1);
        } else { /* relative to the directory holding the link */
            char *slash = strrchr(cur, '/');
            size_t keep = slash ? (size_t)(slash - cur) + 1 : 0;
            if (keep + (size_t)n >= sizeof cur)
                return -1;
            memcpy(cur + keep, link, (size_t)n + 1);
        }
    }
    return -1;
}

/* Test hook (docs/cli.md): set, the O_TMPFILE path is not tried, so the
 * tests can reach the named-temporary fallback on a filesystem that has
 * O_TMPFILE. */
#define NO_TMPFILE_ENV "VG_CLI_NO_O_TMPFILE"

/* "vgcrypto: <cmd>: <message>\n" on stderr; no "<cmd>: " when cmd is NULL. */
static void out_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void out_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vg_cli_verror(cmd, fmt, ap);
    va_end(ap);
}

/* ---- named temporaries and signals ---------------------------------------
 *
 * A named temporary (the fallback without O_TMPFILE, and the brief link an
 * O_TMPFILE file gets just before its rename) is entered in g_tmp while it
 * exists, so that SIGHUP, SIGINT, SIGPIPE and SIGTERM can remove it: the
 * handler uses only unlinkat, sigaction and raise (async-signal-safe, POSIX
 * 2.4.3) and then dies of the same signal with the default action, so the
 * caller still sees "killed by SIGTERM". Entries are added and removed with
 * those signals blocked. The handlers are installed while an entry is live
 * and the previous actions restored after, so a program that calls
 * vg_cli_main (the fuzz target) keeps its own handlers otherwise; a signal
 * the caller ignores (nohup) stays ignored. SIGKILL cannot be caught: only
 * O_TMPFILE makes that case clean. */

#define TMP_SLOTS (2 * VG_CLI_MAX_OUTPUTS)
#define TMP_NAME_LEN 12 /* ".vg" + 8 characters + NUL: short, so any final name works */

static struct {
    volatile sig_atomic_t live;
    int dirfd;
    char name[TMP_NAME_LEN];
} g_tmp[TMP_SLOTS];
static const int g_signals[] = {SIGHUP, SIGINT, SIGPIPE, SIGTERM};
#define N_SIGNALS (sizeof g_signals / sizeof g_signals[0])
static struct sigaction g_old_action[N_SIGNALS];
static int g_live; /* live entries; the handlers are installed while > 0 */

static void on_signal(int sig)
{
    struct sigaction dfl;
    for (size_t i = 0; i < TMP_SLOTS; i++)
        if (g_tmp[i].live)
            (void)unlinkat(g_tmp[i].dirfd, g_tmp[i].name, 0);
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    (void)sigaction(sig, &dfl, NULL);
    (void)raise(sig); /* pending until this handler returns: then fatal */
}

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < N_SIGNALS; i++)
        sigaddset(&set, g_signals[i]);
    (void)sigprocmask(SIG_BLOCK, &set, old);
}

static void restore_signals(const sigset_t *old)
{
    (void)sigprocmask(SIG_SETMASK, old, NULL);
}

/* Pre: signals blocked. Returns the entry, or -1 when the table is full
 * (cannot happen: at most one named temporary per output at a time). */
static int slot_add(int dirfd, const char *name)
{
    for (int i = 0; i < TMP_SLOTS; i++) {
        if (g_tmp[i].live)
            continue;
        g_tmp[i].dirfd = dirfd;
        memcpy(g_tmp[i].name, name, TMP_NAME_LEN);
        g_tmp[i].live = 1;
        if (g_live++ == 0) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_signal;
            sigemptyset(&sa.sa_mask);
            for (size_t k = 0; k < N_SIGNALS; k++)
                sigaddset(&sa.sa_mask, g_signals[k]);
            for (size_t k = 0; k < N_SIGNALS; k++) {
                (void)sigaction(g_signals[k], NULL, &g_old_action[k]);
                if (g_old_action[k].sa_handler != SIG_IGN)
                    (void)sigaction(g_signals[k], &sa, NULL);
            }
        }
        return i;
    }
    return -1;
}

/* Pre: signals blocked. */
static void slot_remove(int i)
{
    g_tmp[i].live = 0;
    if (--g_live == 0)
        for (size_t k = 0; k < N_SIGNALS; k++)
            (void)sigaction(g_signals[k], &g_old_action[k], NULL);
}

/* ".vg" and 8 characters from [0-9a-z]: unpredictable enough that O_EXCL
 * rarely has to retry; the name is not a secret. */
static void tmp_name(char name[TMP_NAME_LEN])
{
    static const char set[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    static unsigned counter;
    uint8_t r[8];
    if (vg_randombytes(r, sizeof r) != 0) {
        unsigned v = (unsigned)getpid() * 2654435761u + ++counter * 40503u;
        for (size_t i = 0; i < sizeof r; i++, v = v * 1103515245u + 12345u)
            r[i] = (uint8_t)(v >> 24);
    }
    memcpy(name, ".vg", 3);
    for (size_t i = 0; i < 8; i++)
        name[3 + i] = set[r[i] % 36];
    name[11] = '\0';
}

/* Create a fresh named temporary (mode 0600, O_EXCL: never follows or
 * reuses a planted name) in dirfd and enter it in g_tmp. Returns the fd
 * (and *slot), or -1 with errno set. */
static int create_named(int dirfd, int *slot)
{
    for (int attempt = 0; attempt < 64; attempt++) {
        char name[TMP_NAME_LEN];
        sigset_t old;
        tmp_name(name);
        block_signals(&old);
        int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        int e = errno;
        if (fd >= 0)
            *slot = slot_add(dirfd, name);
        restore_signals(&old);
        if (fd >= 0)
            return fd;
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

/* Give the O_TMPFILE file fd a named temporary link in dirfd (entered in
 * g_tmp), so that a rename can put it over an existing file (linkat cannot
 * replace). AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc/self/fd works
 * for everyone where /proc is mounted. 0, or -1 with errno set. */
static int link_named(int fd, int dirfd, int *slot)
{
    char proc[40];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    for (int attempt = 0; attempt < 64; attempt++) {
        char name[TMP_NAME_LEN];
        sigset_t old;
        tmp_name(name);
        block_signals(&old);
        int r = linkat(fd, "", dirfd, name, AT_EMPTY_PATH);
        if (r != 0 && errno != EEXIST)
            r = linkat(AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW);
        int e = errno;
        if (r == 0)
            *slot = slot_add(dirfd, name);
        restore_signals(&old);
        if (r == 0)
            return 0;
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

/* ---- resolving and comparing paths ----------------------------------------- */

/* What a path names, for the same-file checks: an existing file by device
 * and inode, a file still to be created by its directory's device and
 * inode and its name. */
struct file_id {
    int state; /* 0: nothing to compare, 1: existing, 2: to be created */
    dev_t dev;
    ino_t ino;
    const char *name; /* state 2 */
};

static int same_file(const struct file_id *a, const struct file_id *b)
{
    if (a->state == 0 || a->state != b->state || a->dev != b->dev || a->ino != b->ino)
        return 0;
    return a->state == 1 || strcmp(a->name, b->name) == 0;
}

static int io_error(const struct vg_cli_outputs *s, const struct vg_cli_output *o)
{
    int e = errno;
    if (o->kind == OUT_STDOUT)
        out_error(s->cmd, "cannot write %s to standard output: %s", o->what, strerror(e));
    else
        out_error(s->cmd, "cannot write %s '%s': %s", o->what, o->path, strerror(e));
    return VG_CLI_EXIT_USAGE;
}

/* Open the directory part of target (everything before the last '/', or
 * "."), and set o->name to the rest. Returns 0, or the exit code after one
 * line. A name that cannot be a file ("", ".", "..") is a usage error. */
static int split_target(const struct vg_cli_outputs *s, struct vg_cli_output *o,
                        const char *target)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        out_error(s->cmd, "%s '%s' names a directory, not a file", o->what, o->path);
        return VG_CLI_EXIT_USAGE;
    }
    o->name = strdup(base);
    char *dir = slash ? strndup(target, slash == target ? 1 : (size_t)(slash - target))
                      : strdup(".");
    if (!o->name || !dir) {
        free(dir);
        errno = ENOMEM;
        return io_error(s, o);
    }
    o->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (o->dirfd < 0 && errno == EACCES) /* searchable but not readable: enough */
        o->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    return o->dirfd < 0 ? io_error(s, o) : 0;
}

/* Classify output o (cli_out.h) and fill its identity. Returns 0 or the
 * exit code after one line. Nothing is created here. */
static int resolve_output(const struct vg_cli_outputs *s, struct vg_cli_output *o,
                          struct file_id *id)
{
    struct stat st;
    char *real = NULL;
    const char *target = o->path;
    int rc;
    memset(id, 0, sizeof *id);
    int fd = strcmp(o->path, "-") == 0 ? STDOUT_FILENO : fd_behind_links(o->path);
    if (fd >= 0) {
        o->kind = strcmp(o->path, "-") == 0 ? OUT_STDOUT : OUT_FD;
        if (fstat(fd, &st) != 0)
            return io_error(s, o); /* EBADF: not open */
        o->fd = fd;
        /* Only a file it leads to can be lost; a pipe's two ends share an
         * inode, so a pipe or socket is not compared. */
        if (S_ISREG(st.st_mode))
            *id = (struct file_id){1, st.st_dev, st.st_ino, NULL};
        return 0;
    }
    if (lstat(o->path, &st) != 0) {
        if (errno != ENOENT)
            return io_error(s, o);
        /* A new file: identified by its directory and name. */
        o->kind = OUT_FILE;
        if ((rc = split_target(s, o, target)) != 0)
            return rc;
        struct stat dst;
        if (fstat(o->dirfd, &dst) != 0)
            return io_error(s, o);
        *id = (struct file_id){2, dst.st_dev, dst.st_ino, o->name};
        return 0;
    }
    if (S_ISLNK(st.st_mode)) {
        /* A symbolic link is followed. A FIFO or device behind it is opened
         * through the link (so /dev/stdout works, even when it leads to a
         * pipe, which has no path); a regular file is replaced in its own
         * directory, and the link stays a link. */
        if (stat(o->path, &st) != 0) {
            if (errno == ENOENT) {
                out_error(s->cmd, "%s '%s' is a symbolic link to a missing file", o->what,
                          o->path);
                return VG_CLI_EXIT_USAGE;
            }
            return io_error(s, o);
        }
        if (S_ISREG(st.st_mode)) {
            real = realpath(o->path, NULL);
            if (!real)
                return io_error(s, o);
            target = real;
        }
    }
    rc = VG_CLI_EXIT_USAGE;
    if (S_ISDIR(st.st_mode)) {
        out_error(s->cmd, "%s '%s' is a directory", o->what, o->path);
    } else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
        /* Written directly (docs/cli.md). A character device (/dev/null, a
         * terminal) holds no content to lose, so it is not compared. */
        o->kind = OUT_STREAM;
        o->name = strdup(o->path);
        if (!o->name) {
            errno = ENOMEM;
            rc = io_error(s, o);
        } else {
            if (S_ISFIFO(st.st_mode))
                *id = (struct file_id){1, st.st_dev, st.st_ino, NULL};
            rc = 0;
        }
    } else if (S_ISREG(st.st_mode)) {
        o->kind = OUT_FILE;
        if ((rc = split_target(s, o, target)) == 0)
            *id = (struct file_id){1, st.st_dev, st.st_ino, NULL};
    } else {
        out_error(s->cmd, "%s '%s' is not a regular file, FIFO or character device",
                  o->what, o->path);
    }
    free(real);
    return rc;
}

static void input_id(const char *path, struct file_id *id)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    if (!path)
        return;
    if (strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)
                               : stat(path, &st) == 0 && !S_ISCHR(st.st_mode))
        *id = (struct file_id){1, st.st_dev, st.st_ino, NULL};
}

/* ---- the output set ---------------------------------------------------------- */

static void init_set(struct vg_cli_outputs *s, const char *cmd, const char *const *paths,
                     const char *const *whats, size_t n)
{
    memset(s, 0, sizeof *s);
    s->cmd = cmd;
    s->n = n;
    for (size_t i = 0; i < n; i++) {
        s->out[i].path = paths[i];
        s->out[i].what = whats[i];
        s->out[i].fd = -1;
        s->out[i].dirfd = -1;
        s->out[i].slot = -1;
    }
}

/* Every pair of outputs, and every output against every input. */
static int check_distinct(const struct vg_cli_outputs *s, const struct file_id *ids,
                          const char *const *inputs, size_t n_inputs)
{
    for (size_t i = 0; i < s->n; i++) {
        for (size_t j = 0; j < i; j++) {
            const struct vg_cli_output *a = &s->out[j], *b = &s->out[i];
            if ((a->kind == OUT_STDOUT && b->kind == OUT_STDOUT) ||
                ((a->kind == OUT_STDOUT || a->kind == OUT_FD) && a->fd == b->fd) ||
                same_file(&ids[i], &ids[j])) {
                out_error(s->cmd, "the %s '%s' and the %s '%s' are the same file", a->what,
                          a->path, b->what, b->path);
                return VG_CLI_EXIT_USAGE;
            }
        }
        for (size_t k = 0; k < n_inputs; k++) {
            struct file_id in;
            input_id(inputs[k], &in);
            if (same_file(&ids[i], &in)) {
                out_error(s->cmd, "the %s '%s' is the same file as the input '%s'",
                          s->out[i].what, s->out[i].path, inputs[k]);
                return VG_CLI_EXIT_USAGE;
            }
        }
    }
    return VG_CLI_EXIT_OK;
}

int vg_cli_outputs_open(struct vg_cli_outputs *s, const char *cmd, const char *const *paths,
                        const char *const *whats, size_t n, const char *const *inputs,
                        size_t n_inputs)
{
    struct file_id ids[VG_CLI_MAX_OUTPUTS];
    int rc;
    memset(ids, 0, sizeof ids);
    init_set(s, cmd, paths, whats, n);
    for (size_t i = 0; i < n; i++)
        if ((rc = resolve_output(s, &s->out[i], &ids[i])) != 0)
            return rc;
    if ((rc = check_distinct(s, ids, inputs, n_inputs)) != 0)
        return rc;
    /* Every check passed: now create. Temporaries first, so that a
     * directory that refuses them fails before a FIFO is opened. */
    const int try_tmpfile = getenv(NO_TMPFILE_ENV) == NULL;
    for (size_t i = 0; i < n; i++) {
        struct vg_cli_output *o = &s->out[i];
        if (o->kind != OUT_FILE)
            continue;
        o->fd = -1;
        if (try_tmpfile)
            o->fd = openat(o->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
        if (o->fd < 0) /* no O_TMPFILE here (EOPNOTSUPP, EISDIR) or a real error */
            o->fd = create_named(o->dirfd, &o->slot);
        if (o->fd < 0)
            return io_error(s, o);
    }
    for (size_t i = 0; i < n; i++) {
        struct vg_cli_output *o = &s->out[i];
        if (o->kind != OUT_STREAM)
            continue;
        /* A FIFO blocks here until a reader opens it, as a shell's > does. */
        o->fd = open(o->name, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (o->fd < 0)
            return io_error(s, o);
    }
    return VG_CLI_EXIT_OK;
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        if (w == 0) {
            errno = EIO;
            return -1;
        }
        p += (size_t)w;
        len -= (size_t)w;
    }
    return 0;
}

int vg_cli_output_write(struct vg_cli_outputs *s, size_t i, const uint8_t *data, size_t len,
                        int hex)
{
    struct vg_cli_output *o = &s->out[i];
    int r = 0;
    if (!hex) {
        r = write_all(o->fd, data, len);
    } else {
        char h[2 * 64 + 1];
        for (size_t k = 0; k < len && r == 0; k += 64) {
            size_t m = len - k < 64 ? len - k : 64;
            vg_cli_hex(h, data + k, m);
            r = write_all(o->fd, (const uint8_t *)h, 2 * m);
        }
        vg_wipe(h, sizeof h);
        if (r == 0)
            r = write_all(o->fd, (const uint8_t *)"\n", 1);
    }
    return r == 0 ? VG_CLI_EXIT_OK : io_error(s, o);
}

int vg_cli_output_is_file(const struct vg_cli_outputs *s, size_t i)
{
    return s->out[i].kind == OUT_FILE;
}

/* Commit, in three steps (docs/cli.md):
 *   1. every temporary is fsync'd and, if anonymous, linked under a named
 *      temporary; every stream is closed. A failure here replaces nothing.
 *   2. the named temporaries are renamed over the final names in output
 *      order, with the catchable signals blocked, so that an interrupt
 *      cannot split the set; only a crash or SIGKILL can.
 *   3. each directory is fsync'd, so that the renames are durable (best
 *      effort: the files are in place already). */
int vg_cli_outputs_commit(struct vg_cli_outputs *s)
{
    sigset_t old;
    int renamed = 0;
    for (size_t i = 0; i < s->n; i++) {
        struct vg_cli_output *o = &s->out[i];
        if (o->kind == OUT_FILE) {
            if (fsync(o->fd) != 0 || (o->slot < 0 && link_named(o->fd, o->dirfd, &o->slot) != 0))
                return io_error(s, o);
        }
        if (o->kind != OUT_STDOUT && o->kind != OUT_FD) {
            int c = close(o->fd);
            o->fd = -1;
            if (c != 0)
                return io_error(s, o);
        }
    }
    block_signals(&old);
    for (size_t i = 0; i < s->n; i++) {
        struct vg_cli_output *o = &s->out[i];
        if (o->kind != OUT_FILE)
            continue;
        if (renameat(o->dirfd, g_tmp[o->slot].name, o->dirfd, o->name) != 0) {
            int e = errno;
            restore_signals(&old);
            errno = e;
            if (!renamed)
                return io_error(s, o);
            out_error(s->cmd, "cannot write %s '%s': %s (the outputs before it were already "
                      "replaced)",
                      o->what, o->path, strerror(e));
            return VG_CLI_EXIT_USAGE;
        }
        slot_remove(o->slot);
        o->slot = -1;
        o->committed = 1;
        renamed = 1;
    }
    restore_signals(&old);
    for (size_t i = 0; i < s->n; i++)
        if (s->out[i].kind == OUT_FILE)
            (void)fsync(s->out[i].dirfd); /* EBADF for an O_PATH directory: best effort */
    return VG_CLI_EXIT_OK;
}

void vg_cli_outputs_close(struct vg_cli_outputs *s)
{
    for (size_t i = 0; i < s->n; i++) {
        struct vg_cli_output *o = &s->out[i];
        if (o->fd >= 0 && o->kind != OUT_STDOUT && o->kind != OUT_FD)
            close(o->fd); /* an O_TMPFILE temporary vanishes with its last fd */
        o->fd = -1;
        if (o->slot >= 0) {
            sigset_t old;
            block_signals(&old);
            (void)unlinkat(o->dirfd, g_tmp[o->slot].name, 0);
            slot_remove(o->slot);
            restore_signals(&old);
            o->slot = -1;
        }
        if (o->dirfd >= 0)
            close(o->dirfd);
        o->dirfd = -1;
        free(o->name);
        o->name = NULL;
    }
    s->n = 0;
}

int vg_cli_save(const char *what, const char *path, const uint8_t *data, size_t len, int hex)
{
    struct vg_cli_outputs s;
    int rc = vg_cli_outputs_open(&s, NULL, &path, &what, 1, NULL, 0);
    if (rc == VG_CLI_EXIT_OK)
        rc = vg_cli_output_write(&s, 0, data, len, hex);
    if (rc == VG_CLI_EXIT_OK)
        rc = vg_cli_outputs_commit(&s);
    vg_cli_outputs_close(&s);
    return rc;
}
