/*
 * Tests of src/cli/cli_io.c: the key parser's accept/reject rules (exact
 * lengths, hex in either case, one optional "\n" or "\r\n", nothing else),
 * checked against an independent decoder (strtoul); the bounded file
 * readers; and the output set of src/cli/cli_out.c (all or none),
 * including its failure paths leaving nothing behind.
 */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_io.h"
#include "cli/cli_out.h"
#include "vgtest.h"

static int all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

static int parse_str(const char *s, uint8_t *out, size_t len)
{
    return vg_cli_parse_key((const uint8_t *)s, strlen(s), out, len, 1);
}

/* Independent hex decode of a well-formed string, via strtoul. */
static void ref_unhex(const char *s, uint8_t *out, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char two[3] = {s[2 * i], s[2 * i + 1], 0};
        out[i] = (uint8_t)strtoul(two, NULL, 16);
    }
}

static void test_raw(void)
{
    uint8_t in[64], out[64];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)(i * 37 + 1);
    CHECK(vg_cli_parse_key(in, 32, out, 32, 0) == VG_CLI_IO_OK && memcmp(in, out, 32) == 0);
    /* Raw bytes that look like hex are still raw. */
    CHECK(vg_cli_parse_key((const uint8_t *)"00112233", 8, out, 8, 0) == 0 &&
          memcmp(out, "00112233", 8) == 0);
    for (size_t n = 0; n <= 64; n++) {
        if (n == 32)
            continue;
        memset(out, 0xaa, sizeof out);
        CHECK_MSG(vg_cli_parse_key(in, n, out, 32, 0) == VG_CLI_IO_EFORMAT && all_zero(out, 32),
                  "raw n=%zu", n);
    }
    /* A raw key followed by a newline is rejected: exactly len bytes. */
    memcpy(out, in, 32);
    uint8_t nl[33];
    memcpy(nl, in, 32);
    nl[32] = '\n';
    CHECK(vg_cli_parse_key(nl, 33, out, 32, 0) == VG_CLI_IO_EFORMAT);
    CHECK(vg_cli_parse_key(NULL, 0, out, 0, 0) == VG_CLI_IO_OK);
}

static void test_hex_accept(void)
{
    const char *lower = "00ff10a5c3e7b9d2", *upper = "00FF10A5C3E7B9D2", *mixed = "00Ff10a5C3e7B9d2";
    uint8_t want[8], out[8];
    ref_unhex(lower, want, 8);
    CHECK(parse_str(lower, out, 8) == 0 && memcmp(out, want, 8) == 0);
    CHECK(parse_str(upper, out, 8) == 0 && memcmp(out, want, 8) == 0);
    CHECK(parse_str(mixed, out, 8) == 0 && memcmp(out, want, 8) == 0);
    CHECK(parse_str("00ff10a5c3e7b9d2\n", out, 8) == 0 && memcmp(out, want, 8) == 0);
    CHECK(parse_str("00ff10a5c3e7b9d2\r\n", out, 8) == 0 && memcmp(out, want, 8) == 0);
    CHECK(parse_str("", out, 0) == 0);
    CHECK(parse_str("\n", out, 0) == 0);
}

static void test_hex_reject(void)
{
    static const char *const bad[] = {
        "00ff10a5c3e7b9d",      /* one digit short */
        "00ff10a5c3e7b9d2a",    /* one digit long */
        "00ff10a5c3e7b9d200",   /* one byte long */
        "00ff10a5c3e7b9",       /* one byte short */
        "00ff10a5c3e7b9\n",     /* short, with newline */
        "00ff10a5c3e7b9d2\n\n", /* two newlines */
        "00ff10a5c3e7b9d2\r",   /* CR alone */
        "00ff10a5c3e7b9d2\n\r", /* LF CR */
        "00ff10a5c3e7b9d2 ",    /* trailing space */
        "00ff10a5c3e7b9d2 \n",  /* space then newline */
        " 00ff10a5c3e7b9d2",    /* leading space */
        "\n00ff10a5c3e7b9d2",   /* leading newline */
        "0x00ff10a5c3e7b9",     /* prefix */
        "00ff10a5c3e7b9g2",     /* g */
        "00ff10a5c3e7b9G2",     /* G */
        "00ff10a5 3e7b9d2",     /* inner space */
        "00ff10a5c3e7b9d2x",    /* trailing junk */
        "00ff10a5c3e7b9d2\r\n\n",
        "",
        "\n",
    };
    uint8_t out[8];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(out, 0xaa, sizeof out);
        CHECK_MSG(parse_str(bad[i], out, 8) == VG_CLI_IO_EFORMAT && all_zero(out, 8), "case %zu", i);
    }
    /* An embedded NUL is junk too (strlen would stop there: pass the length). */
    uint8_t nul[17];
    memcpy(nul, "00ff10a5c3e7b9d2", 16);
    nul[16] = 0;
    CHECK(vg_cli_parse_key(nul, 17, out, 8, 1) == VG_CLI_IO_EFORMAT);
    memcpy(nul, "00ff10a5c3e7\0" "9d2", 16);
    CHECK(vg_cli_parse_key(nul, 16, out, 8, 1) == VG_CLI_IO_EFORMAT);
}

/* Every byte value in each digit position of a one-byte key: accepted
 * exactly for [0-9a-fA-F], with the value strtoul gives. */
static void test_hex_every_byte(void)
{
    unsigned wrong = 0;
    for (int pos = 0; pos < 2; pos++) {
        for (int c = 0; c < 256; c++) {
            uint8_t in[2] = {'7', '7'}, out[1] = {0xaa};
            in[pos] = (uint8_t)c;
            int is_hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            int rc = vg_cli_parse_key(in, 2, out, 1, 1);
            if (is_hex) {
                char two[3] = {(char)in[0], (char)in[1], 0};
                if (rc != 0 || out[0] != (uint8_t)strtoul(two, NULL, 16))
                    wrong++;
            } else if (rc != VG_CLI_IO_EFORMAT || out[0] != 0) {
                wrong++;
            }
        }
    }
    CHECK_MSG(wrong == 0, "%u byte values decoded wrongly", wrong);
}

/* Random keys through hex round trips, all lengths 0..80. */
static void test_hex_roundtrip(void)
{
    uint64_t seed = 0x1234;
    unsigned wrong = 0;
    for (size_t len = 0; len <= 80; len++) {
        uint8_t key[80], out[83]; /* room for the longest "other" length */
        char hex[2 * 80 + 3];
        vgtest_randbytes(&seed, key, len);
        vg_cli_hex(hex, key, len);
        if (strlen(hex) != 2 * len)
            wrong++;
        for (size_t i = 0; i < 2 * len; i++)
            if (seed & (1u << (i % 13)))
                hex[i] = (char)((hex[i] >= 'a') ? hex[i] - 32 : hex[i]); /* some upper case */
        strcat(hex, "\r\n");
        if (vg_cli_parse_key((uint8_t *)hex, 2 * len + 2, out, len, 1) != 0 ||
            memcmp(out, key, len) != 0)
            wrong++;
        /* Every other length of the same text is rejected. */
        for (size_t other = 0; other <= 82; other++)
            if (other != len && vg_cli_parse_key((uint8_t *)hex, 2 * len + 2, out, other, 1) == 0)
                wrong++;
    }
    CHECK_MSG(wrong == 0, "%u round-trip errors", wrong);
}

static int write_raw(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

static long read_raw(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return (long)n;
}

static int count_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void test_files(const char *dir)
{
    char p[512], q[512];
    uint8_t key[32], out[32], big[200];
    uint8_t *data;
    size_t n;
    for (int i = 0; i < 32; i++)
        key[i] = (uint8_t)(0xc0 + i);

    /* Key files: exact raw, exact hex, oversized, missing. */
    snprintf(p, sizeof p, "%s/raw.key", dir);
    CHECK(write_raw(p, key, 32) == 0);
    CHECK(vg_cli_read_key_file(p, out, 32, 0) == 0 && memcmp(out, key, 32) == 0);
    CHECK(vg_cli_read_key_file(p, out, 31, 0) == VG_CLI_IO_EFORMAT);
    CHECK(vg_cli_read_key_file(p, out, 16, 1) == VG_CLI_IO_EFORMAT); /* raw is not hex */
    memset(big, 'a', sizeof big);
    snprintf(p, sizeof p, "%s/big.key", dir);
    CHECK(write_raw(p, big, 67) == 0); /* 2*32 + 2 + 1: one byte over the bound */
    memset(out, 0x55, sizeof out);
    CHECK(vg_cli_read_key_file(p, out, 32, 1) == VG_CLI_IO_EFORMAT && all_zero(out, 32));
    CHECK(write_raw(p, big, 64) == 0);
    CHECK(vg_cli_read_key_file(p, out, 32, 1) == 0 && out[0] == 0xaa && out[31] == 0xaa);
    snprintf(p, sizeof p, "%s/missing.key", dir);
    errno = 0;
    CHECK(vg_cli_read_key_file(p, out, 32, 0) == VG_CLI_IO_ESYS && errno == ENOENT);

    /* vg_cli_read_all: bound, empty file. */
    snprintf(p, sizeof p, "%s/msg", dir);
    CHECK(write_raw(p, big, 200) == 0);
    CHECK(vg_cli_read_all(p, 199, &data, &n) == VG_CLI_IO_ETOOBIG && data == NULL);
    CHECK(vg_cli_read_all(p, 200, &data, &n) == 0 && n == 200 && memcmp(data, big, 200) == 0);
    free(data);
    CHECK(vg_cli_read_all(p, 100000, &data, &n) == 0 && n == 200);
    free(data);
    CHECK(write_raw(p, "", 0) == 0);
    CHECK(vg_cli_read_all(p, 10, &data, &n) == 0 && n == 0 && data != NULL);
    free(data);

    /* Atomic writer (cli_out.h): raw, hex, overwrite; the file has mode
     * 0600. Failures print one line each (expected in this test's output). */
    snprintf(p, sizeof p, "%s/out.key", dir);
    CHECK(vg_cli_save("test output", p, key, 32, 0) == 0);
    CHECK(read_raw(p, big, sizeof big) == 32 && memcmp(big, key, 32) == 0);
    CHECK(vg_cli_save("test output", p, key, 32, 1) == 0);
    CHECK(read_raw(p, big, sizeof big) == 65 && big[64] == '\n');
    CHECK(vg_cli_read_key_file(p, out, 32, 1) == 0 && memcmp(out, key, 32) == 0);
    struct stat st;
    CHECK(stat(p, &st) == 0 && (st.st_mode & 0777) == 0600);
    int before = count_entries(dir);

    /* Failures leave nothing: a missing directory, a directory as target. */
    snprintf(q, sizeof q, "%s/nodir/out.key", dir);
    CHECK(vg_cli_save("test output", q, key, 32, 0) == 2);
    CHECK(access(q, F_OK) != 0);
    snprintf(q, sizeof q, "%s/adir", dir);
    CHECK(mkdir(q, 0700) == 0);
    before++;
    CHECK(vg_cli_save("test output", q, key, 32, 0) == 2);
    CHECK(count_entries(dir) == before); /* no temporary file left */
    CHECK(count_entries(q) == 0);
    snprintf(q, sizeof q, "%s/adir/", dir);
    CHECK(vg_cli_save("test output", q, key, 32, 0) == 2);
    CHECK(count_entries(dir) == before);
    rmdir(q);
    /* The earlier file is intact. */
    CHECK(vg_cli_read_key_file(p, out, 32, 1) == 0 && memcmp(out, key, 32) == 0);

    /* Two outputs: the second one unwritable, so neither is replaced and
     * no temporary stays (the first one was written completely). */
    {
        struct vg_cli_outputs s;
        const char *paths[2] = {p, q};
        static const char *const whats[2] = {"first", "second"};
        snprintf(q, sizeof q, "%s/nodir/second", dir);
        CHECK(vg_cli_outputs_open(&s, "test", paths, whats, 2, NULL, 0) == 2);
        vg_cli_outputs_close(&s);
        CHECK(count_entries(dir) == before - 1);
        CHECK(vg_cli_read_key_file(p, out, 32, 1) == 0 && memcmp(out, key, 32) == 0);
        /* Both writable: written, then both in place at commit only. */
        snprintf(q, sizeof q, "%s/second", dir);
        CHECK(vg_cli_outputs_open(&s, "test", paths, whats, 2, NULL, 0) == 0);
        CHECK(vg_cli_output_write(&s, 0, key, 16, 0) == 0);
        CHECK(vg_cli_output_write(&s, 1, key + 16, 16, 0) == 0);
        CHECK(access(q, F_OK) != 0);
        CHECK(vg_cli_read_key_file(p, out, 32, 1) == 0); /* old content until commit */
        CHECK(vg_cli_outputs_commit(&s) == 0);
        vg_cli_outputs_close(&s);
        CHECK(read_raw(p, big, sizeof big) == 16 && memcmp(big, key, 16) == 0);
        CHECK(read_raw(q, big, sizeof big) == 16 && memcmp(big, key + 16, 16) == 0);
        CHECK(count_entries(dir) == before);
        /* The same file as an output and an input, by another spelling. */
        char r[600];
        snprintf(r, sizeof r, "%s/./second", dir);
        const char *inputs[1] = {r};
        CHECK(vg_cli_outputs_open(&s, "test", paths, whats, 2, inputs, 1) == 2);
        vg_cli_outputs_close(&s);
        /* Not committed: nothing replaced, nothing left. */
        CHECK(vg_cli_outputs_open(&s, "test", paths, whats, 2, NULL, 0) == 0);
        CHECK(vg_cli_output_write(&s, 0, key, 32, 0) == 0);
        vg_cli_outputs_close(&s);
        CHECK(read_raw(p, big, sizeof big) == 16 && memcmp(big, key, 16) == 0);
        CHECK(count_entries(dir) == before);
        unlink(q);
        CHECK(vg_cli_save("test output", p, key, 32, 1) == 0);
    }

    /* The exit codes of the printing wrappers (DESIGN.md section 4): content
     * rejected -> 1, unreadable or unwritable file -> 2. Each failure prints
     * one line on stderr (expected in this test's output). */
    int entries = count_entries(dir);
    CHECK(vg_cli_load_key("test key", p, out, 32, 1) == 0 && memcmp(out, key, 32) == 0);
    CHECK(vg_cli_load_key("test key", p, out, 32, 0) == 1 && all_zero(out, 32));
    snprintf(q, sizeof q, "%s/missing.key", dir);
    CHECK(vg_cli_load_key("test key", q, out, 32, 0) == 2);
    snprintf(q, sizeof q, "%s/nodir/out.key", dir);
    CHECK(vg_cli_save("test output", q, key, 32, 0) == 2 && access(q, F_OK) != 0);
    CHECK(vg_cli_save("test output", p, key, 32, 0) == 0);
    CHECK(read_raw(p, big, sizeof big) == 32 && memcmp(big, key, 32) == 0);
    CHECK(read_raw(p, big, sizeof big) == 32 && memcmp(big, key, 32) == 0);
    CHECK(count_entries(dir) == entries); /* no temporary file left */
}

int main(void)
{
    char dir[] = "/tmp/vg_test_cli_io.XXXXXX";
    test_raw();
    test_hex_accept();
    test_hex_reject();
    test_hex_every_byte();
    test_hex_roundtrip();
    if (mkdtemp(dir)) {
        test_files(dir);
        /* Clean up the few files this test made. */
        static const char *const names[] = {"raw.key", "big.key", "msg", "out.key"};
        char p[512];
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            snprintf(p, sizeof p, "%s/%s", dir, names[i]);
            unlink(p);
        }
        CHECK(rmdir(dir) == 0);
    } else {
        CHECK_MSG(0, "mkdtemp failed: %s", strerror(errno));
    }
    return vgtest_done("test_cli_io");
}
