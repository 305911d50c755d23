/*
 * File input for the vgcrypto command: key files (raw bytes or hex) and
 * bounded whole-file reads. Outputs are cli_out.h.
 *
 * Nothing here prints, except vg_cli_load_key, which is the convenience
 * wrapper that turns the result into the CLI's one error line and exit code.
 */
#ifndef VG_CLI_IO_H
#define VG_CLI_IO_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Results of the functions below. VG_CLI_IO_ESYS leaves errno set. */
#define VG_CLI_IO_OK 0
#define VG_CLI_IO_ESYS (-1)    /* open/read/write/rename failed: see errno */
#define VG_CLI_IO_EFORMAT (-2) /* content has the wrong length or encoding */
#define VG_CLI_IO_ETOOBIG (-3) /* larger than the bound */

/* Decode a key of exactly `len` bytes from the `n` bytes at data.
 * hex == 0: data must be exactly len raw bytes.
 * hex != 0: data must be exactly 2*len hex digits (either case), optionally
 *           followed by a single "\n" or "\r\n"; nothing else is accepted
 *           (no spaces, no "0x", no second newline).
 * Pre: out has room for len bytes; data may be NULL when n == 0.
 * Post: VG_CLI_IO_OK with out filled, or VG_CLI_IO_EFORMAT with out zeroed.
 * Runs in time depending only on n and len for accepted lengths: the hex
 * digits of a key are decoded without branches or table look-ups on them. */
/* Read from fd into buf until cap bytes or end of file (EINTR retried).
 * Returns the count, or -1 on a read error (errno set). */
ptrdiff_t vg_cli_read_upto(int fd, uint8_t *buf, size_t cap);

int vg_cli_parse_key(const uint8_t *data, size_t n, uint8_t *out, size_t len, int hex);

/* Read a key file (path "-" is standard input) and parse it as above.
 * A file larger than the largest acceptable encoding (len, or 2*len + 2 in
 * hex) is rejected with VG_CLI_IO_EFORMAT after reading at most one byte
 * more than that bound. The read buffer is wiped. */
int vg_cli_read_key_file(const char *path, uint8_t *out, size_t len, int hex);

/* vg_cli_read_key_file, then on failure print one line on stderr naming
 * `what` (e.g. "secret key") and path. Returns the exit code: 0 success,
 * 1 rejected content (VG_CLI_EXIT_REJECT), 2 unreadable file. */
int vg_cli_load_key(const char *what, const char *path, uint8_t *out, size_t len, int hex);

/* Read a whole file (path "-" is standard input) of at most max bytes into
 * a fresh malloc'd buffer (*data, *n; *data non-NULL even when *n == 0).
 * VG_CLI_IO_ETOOBIG when the file holds more than max bytes (at most max + 1
 * bytes are read). The caller frees *data (vg_wipe first if secret). */
int vg_cli_read_all(const char *path, size_t max, uint8_t **data, size_t *n);

/* A secret of any length up to max bytes (an HMAC key, HKDF input keying
 * material or salt): the whole file (path "-" is standard input), raw, or
 * with hex != 0 an even number of hex digits (either case, at most 2 * max)
 * and optionally one "\n" or "\r\n", decoded as vg_cli_parse_key does.
 * Post: VG_CLI_IO_OK with *out a fresh malloc'd buffer of *len bytes
 * (non-NULL even when *len == 0; the caller wipes and frees it);
 * VG_CLI_IO_ETOOBIG over the bound; VG_CLI_IO_EFORMAT for bad hex;
 * VG_CLI_IO_ESYS with errno. Every intermediate buffer is wiped. */
int vg_cli_read_secret(const char *path, size_t max, int hex, uint8_t **out, size_t *len);

/* Print "vgcrypto: [cmd: ]<message>\n" on stderr, the message formatted as
 * by vprintf: always one line, as control characters in it (they come from
 * file names and arguments) are written as \n, \r, \t or \xHH. cmd may be
 * NULL. Every error line of the command goes through here. */
void vg_cli_verror(const char *cmd, const char *fmt, va_list ap);

/* Lowercase hex of len bytes into out (2*len + 1 bytes with the NUL). */
void vg_cli_hex(char *out, const uint8_t *in, size_t len);

#endif /* VG_CLI_IO_H */
