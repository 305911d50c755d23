/*
 * Messages of any size for `sign` and `verify`: read in chunks, never whole
 * (issue 21), once or - for pure Ed25519 and Ed25519ctx signing, whose two
 * hashes both cover the message (RFC 8032 5.1.6 steps 2 and 4) - twice.
 *
 * A message that must be read twice has to be seekable (a regular file or
 * a block device: the second pass rewinds it). A non-seekable one (standard
 * input from a pipe, a FIFO) cannot be read twice, so it is held in memory
 * instead, up to a bound the caller gives (the CLI's 1 GiB); a longer one is
 * refused (VG_CLI_IO_ETOOBIG) with no signature.
 */
#ifndef VG_CLI_MSG_H
#define VG_CLI_MSG_H

#include <stddef.h>
#include <stdint.h>

/* The chunk size of a pass: 1 MiB, the only buffer a streamed pass holds. */
#define VG_CLI_MSG_CHUNK ((size_t)1 << 20)

struct vg_cli_msg {
    int fd;
    int own_fd;     /* fd was opened here (not standard input) */
    int passes;     /* passes done (a second one rewinds fd) */
    uint8_t *mem;   /* the whole message (non-seekable, two passes), or NULL */
    size_t mem_len;
    uint8_t *chunk; /* VG_CLI_MSG_CHUNK bytes for a streamed pass, or NULL */
    uint64_t total; /* bytes of the last pass */
};

/* Open path ("-" is standard input). two_passes: the caller will make two
 * passes; a non-seekable input is then read into memory here (at most
 * mem_max bytes). Returns VG_CLI_IO_OK, VG_CLI_IO_ETOOBIG (over mem_max)
 * or VG_CLI_IO_ESYS (errno set); m is closed again on failure. */
int vg_cli_msg_open(struct vg_cli_msg *m, const char *path, int two_passes, size_t mem_max);

/* One pass over the whole message: fn(arg, piece, len) for consecutive
 * pieces (of at most VG_CLI_MSG_CHUNK bytes, at least one call, possibly
 * with len 0). A pass after the first rewinds the file. Returns
 * VG_CLI_IO_OK or VG_CLI_IO_ESYS (errno set: a read or seek error). */
int vg_cli_msg_pass(struct vg_cli_msg *m, void (*fn)(void *arg, const uint8_t *in, size_t len),
                    void *arg);

/* Close, wiping every buffer (the message may be secret). Idempotent. */
void vg_cli_msg_close(struct vg_cli_msg *m);

#endif /* VG_CLI_MSG_H */
