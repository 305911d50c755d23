/*
 * The outputs of a vgcrypto command, committed all together or not at all.
 * The contract (order of renames, special files, symbolic links, same-file
 * checks, temporary files, signals) is docs/cli.md; in short:
 *
 *   1. vg_cli_outputs_open resolves every output path, refuses (usage error)
 *      a directory, a block device or socket, a dangling symbolic link, a
 *      name like "." or "dir/", two outputs naming one file, and an output
 *      naming one of the inputs (device and inode, not spellings), before
 *      anything is read or written; then it creates one temporary file per
 *      regular-file output in the directory the file will live in
 *      (O_TMPFILE where the filesystem has it, else a hidden ".vgXXXXXXXX"
 *      removed on SIGINT, SIGTERM, SIGHUP and SIGPIPE), and opens FIFOs and
 *      character devices, which are written directly.
 *   2. vg_cli_output_write appends to output i (its temporary, its stream,
 *      or standard output for "-").
 *   3. vg_cli_outputs_commit syncs every temporary and only then renames
 *      them into place, in the order the command gave the outputs.
 *   4. vg_cli_outputs_close discards whatever was not committed; call it on
 *      every path (it is idempotent and safe after a failed open).
 *
 * Each function that can fail prints exactly one line on stderr and returns
 * the exit code (VG_CLI_EXIT_USAGE); success is VG_CLI_EXIT_OK.
 */
#ifndef VG_CLI_OUT_H
#define VG_CLI_OUT_H

#include <stddef.h>
#include <stdint.h>

#define VG_CLI_MAX_OUTPUTS 4

struct vg_cli_output {
    const char *path; /* as given on the command line; "-" is standard output */
    const char *what; /* "secret key": names the output in error lines */
    /* The rest is private to cli_out.c. */
    int kind;         /* OUT_FILE, OUT_STREAM or OUT_STDOUT (cli_out.c) */
    int fd;           /* the temporary or the stream; -1 when closed */
    int dirfd;        /* the directory a file output is replaced in; -1 */
    char *name;       /* the final name inside dirfd (malloc'd) */
    int slot;         /* the named temporary's entry in the signal table, or -1 */
    int committed;
};

struct vg_cli_outputs {
    const char *cmd; /* "keygen", for error lines */
    size_t n;
    struct vg_cli_output out[VG_CLI_MAX_OUTPUTS];
};

/* Resolve, check and create the n outputs paths[i] (described as whats[i])
 * of command cmd, given its n_inputs input paths (NULL entries and "-" as
 * standard input allowed; an input that cannot be stat'ed is left to the
 * reader to report). Pre: n <= VG_CLI_MAX_OUTPUTS. Post: VG_CLI_EXIT_OK
 * with every output ready to be written, or the exit code after one stderr
 * line with nothing created. Either way call vg_cli_outputs_close. */
int vg_cli_outputs_open(struct vg_cli_outputs *s, const char *cmd, const char *const *paths,
                        const char *const *whats, size_t n, const char *const *inputs,
                        size_t n_inputs);

/* Append len bytes to output i; hex != 0: as lowercase hex digits and one
 * "\n" (the conversion buffer is wiped, the data may be a secret key). */
int vg_cli_output_write(struct vg_cli_outputs *s, size_t i, const uint8_t *data, size_t len,
                        int hex);

/* 1 when output i is a regular file written through a temporary (nothing
 * reaches its final name before the commit), 0 when it is written directly
 * (standard output, /dev/fd/N, a FIFO or a character device), where bytes
 * once written cannot be taken back. Pre: vg_cli_outputs_open succeeded. */
int vg_cli_output_is_file(const struct vg_cli_outputs *s, size_t i);

/* Put every output in place (docs/cli.md, "Commit"). After a failure no
 * existing file has been replaced, except in the one case docs/cli.md
 * describes (a rename failing after an earlier one succeeded). */
int vg_cli_outputs_commit(struct vg_cli_outputs *s);

/* Remove every temporary not committed, close every descriptor. */
void vg_cli_outputs_close(struct vg_cli_outputs *s);

/* One output, no inputs: open, write, commit, close. The exit code after
 * at most one stderr line naming `what` and path. */
int vg_cli_save(const char *what, const char *path, const uint8_t *data, size_t len, int hex);

#endif /* VG_CLI_OUT_H */
