/*
 * Key-file parsing and bounded reads for the vgcrypto command (the outputs
 * are cli_out.c).
 * See cli_io.h for the contracts.
 */
#define _XOPEN_SOURCE 700 /* POSIX.1-2008 + XSI */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_io.h"
#include "common.h"

/* ---- hex ----------------------------------------------------------------- */

void vg_cli_hex(char *out, const uint8_t *in, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    /* A table look-up indexed by key nibbles would be a secret index; hex
     * output is written only for data that is about to leave the process
     * anyway (a file or the terminal), so an index leak adds nothing. */
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = '\0';
}

/* Value of the hex digit c, with *bad |= 1 when c is not a hex digit.
 * No branch and no table: c may be a digit of a secret key. */
static uint32_t hex_digit_ct(uint8_t c, uint32_t *bad)
{
    int32_t d = (int32_t)c - '0';           /* a digit iff 0 <= d <= 9 */
    int32_t l = (int32_t)(c | 0x20) - 'a';  /* a letter iff 0 <= l <= 5 */
    /* (x | (k - x)) is negative exactly when x < 0 or x > k. */
    uint32_t ok_d = 1u ^ ((uint32_t)(d | (9 - d)) >> 31);
    uint32_t ok_l = 1u ^ ((uint32_t)(l | (5 - l)) >> 31);
    uint32_t m_d = vg_barrier_u32(0u - ok_d);
    uint32_t m_l = vg_barrier_u32(0u - ok_l);
    *bad |= 1u ^ (ok_d | ok_l);
    return ((uint32_t)d & m_d) | ((uint32_t)(l + 10) & m_l);
}

int vg_cli_parse_key(const uint8_t *data, size_t n, uint8_t *out, size_t len, int hex)
{
    if (!hex) {
        if (n != len) {
            vg_wipe(out, len);
            return VG_CLI_IO_EFORMAT;
        }
        if (len)
            memcpy(out, data, len);
        return VG_CLI_IO_OK;
    }
    /* Hex: 2*len digits, then nothing, "\n" or "\r\n" (the trailer is public). */
    if (len > (SIZE_MAX - 2) / 2) {
        vg_wipe(out, len);
        return VG_CLI_IO_EFORMAT;
    }
    size_t digits = 2 * len;
    int trailer_ok = n == digits || (n == digits + 1 && data[digits] == '\n') ||
                     (n == digits + 2 && data[digits] == '\r' && data[digits + 1] == '\n');
    if (!trailer_ok) {
        vg_wipe(out, len);
        return VG_CLI_IO_EFORMAT;
    }
    uint32_t bad = 0;
    for (size_t i = 0; i < len; i++) {
        uint32_t hi = hex_digit_ct(data[2 * i], &bad);
        uint32_t lo = hex_digit_ct(data[2 * i + 1], &bad);
        out[i] = (uint8_t)((hi << 4) | lo);
    }
    /* Only the accept/reject bit leaves here. */
    if (bad) {
        vg_wipe(out, len);
        return VG_CLI_IO_EFORMAT;
    }
    return VG_CLI_IO_OK;
}

/* ---- error lines -------------------------------------------------------- */

/* Append the escaped form of msg to out (room for 4 * strlen(msg) + 1). */
static void escape_line(char *out, const char *msg)
{
    static const char digits[] = "0123456789abcdef";
    for (const unsigned char *p = (const unsigned char *)msg; *p; p++) {
        if (*p >= 0x20 && *p != 0x7f) {
            *out++ = (char)*p;
            continue;
        }
        *out++ = '\\';
        if (*p == '\n' || *p == '\r' || *p == '\t') {
            *out++ = *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
        } else {
            *out++ = 'x';
            *out++ = digits[*p >> 4];
            *out++ = digits[*p & 15];
        }
    }
    *out = '\0';
}

void vg_cli_verror(const char *cmd, const char *fmt, va_list ap)
{
    char small[1024], esc_small[4 * 1024 + 1];
    char *msg = small, *esc = esc_small;
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(small, sizeof small, fmt, aq);
    va_end(aq);
    if (n < 0) {
        n = 0;
        small[0] = '\0';
    }
    if ((size_t)n >= sizeof small) {
        char *big = malloc((size_t)n + 1);
        char *big_esc = big ? malloc(4 * (size_t)n + 1) : NULL;
        if (big_esc) {
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            msg = big;
            esc = big_esc;
        } else {
            free(big); /* the message is cut at sizeof small - 1 bytes */
        }
    }
    escape_line(esc, msg);
    fprintf(stderr, "vgcrypto: %s%s%s\n", cmd ? cmd : "", cmd ? ": " : "", esc);
    if (msg != small) {
        free(msg);
        free(esc);
    }
}

static void error_line(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void error_line(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vg_cli_verror(NULL, fmt, ap);
    va_end(ap);
}

/* ---- bounded reads --------------------------------------------------------- */

static int open_input(const char *path)
{
    if (strcmp(path, "-") == 0)
        return STDIN_FILENO;
    return open(path, O_RDONLY | O_CLOEXEC);
}

static void close_input(int fd)
{
    if (fd != STDIN_FILENO)
        close(fd);
}

ptrdiff_t vg_cli_read_upto(int fd, uint8_t *buf, size_t cap)
{
    size_t got = 0;
    while (got < cap) {
        ssize_t r = read(fd, buf + got, cap - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ptrdiff_t)got;
}

int vg_cli_read_all(const char *path, size_t max, uint8_t **data, size_t *n)
{
    struct stat st;
    uint8_t *buf = NULL;
    size_t cap, used = 0;
    int rc = VG_CLI_IO_ESYS, saved = 0;
    *data = NULL;
    *n = 0;
    if (max >= SIZE_MAX / 2)
        max = SIZE_MAX / 2 - 1;
    int fd = open_input(path);
    if (fd < 0)
        return VG_CLI_IO_ESYS;
    /* A regular file announces its size: refuse a large one unread. */
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > (uintmax_t)max) {
        rc = VG_CLI_IO_ETOOBIG;
        goto out;
    }
    cap = max + 1 < 4096 ? max + 1 : 4096;
    for (;;) {
        uint8_t *nb = realloc(buf, cap);
        if (!nb)
            goto out;
        buf = nb;
        ptrdiff_t r = vg_cli_read_upto(fd, buf + used, cap - used);
        if (r < 0)
            goto out;
        used += (size_t)r;
        if (used > max) {
            rc = VG_CLI_IO_ETOOBIG;
            goto out;
        }
        if (used < cap)
            break; /* end of file before the buffer filled */
        /* Grow towards max + 1, the first size that proves "too big". */
        cap = cap > (max + 1) / 2 ? max + 1 : 2 * cap;
    }
    *data = buf;
    *n = used;
    buf = NULL;
    rc = VG_CLI_IO_OK;
out:
    saved = errno;
    if (buf) {
        vg_wipe(buf, used);
        free(buf);
    }
    close_input(fd);
    errno = saved;
    return rc;
}

int vg_cli_read_key_file(const char *path, uint8_t *out, size_t len, int hex)
{
    uint8_t *data;
    size_t n;
    size_t bound = hex ? 2 * len + 2 : len;
    int rc = vg_cli_read_all(path, bound, &data, &n);
    if (rc == VG_CLI_IO_ETOOBIG) {
        vg_wipe(out, len);
        return VG_CLI_IO_EFORMAT;
    }
    if (rc != VG_CLI_IO_OK) {
        vg_wipe(out, len);
        return rc;
    }
    rc = vg_cli_parse_key(data, n, out, len, hex);
    vg_wipe(data, n);
    free(data);
    return rc;
}

int vg_cli_read_secret(const char *path, size_t max, int hex, uint8_t **out, size_t *len)
{
    uint8_t *data, *dec;
    size_t n, digits;
    *out = NULL;
    *len = 0;
    if (hex && max > (SIZE_MAX - 2) / 2)
        max = (SIZE_MAX - 2) / 2;
    int rc = vg_cli_read_all(path, hex ? 2 * max + 2 : max, &data, &n);
    if (rc != VG_CLI_IO_OK)
        return rc;
    if (!hex) {
        *out = data;
        *len = n;
        return VG_CLI_IO_OK;
    }
    /* The trailer and the digit count are public (the file's length). */
    digits = n;
    if (digits >= 2 && data[digits - 2] == '\r' && data[digits - 1] == '\n')
        digits -= 2;
    else if (digits >= 1 && data[digits - 1] == '\n')
        digits -= 1;
    rc = VG_CLI_IO_EFORMAT;
    if (digits % 2 != 0 || digits / 2 > max)
        goto out;
    dec = malloc(digits / 2 + 1);
    if (!dec) {
        rc = VG_CLI_IO_ESYS;
        errno = ENOMEM;
        goto out;
    }
    rc = vg_cli_parse_key(data, n, dec, digits / 2, 1);
    if (rc != VG_CLI_IO_OK) {
        free(dec); /* zeroed by vg_cli_parse_key */
        goto out;
    }
    *out = dec;
    *len = digits / 2;
out:
    vg_wipe(data, n);
    free(data);
    return rc;
}

int vg_cli_load_key(const char *what, const char *path, uint8_t *out, size_t len, int hex)
{
    int rc = vg_cli_read_key_file(path, out, len, hex);
    if (rc == VG_CLI_IO_OK)
        return 0;
    if (rc == VG_CLI_IO_ESYS) {
        error_line("cannot read %s '%s': %s", what, path, strerror(errno));
        return 2;
    }
    if (hex)
        error_line("%s '%s' must be exactly %zu hex digits (optionally one newline)", what, path,
                   2 * len);
    else
        error_line("%s '%s' must be exactly %zu bytes (use --hex for hex)", what, path, len);
    return 1;
}
