/*
 * libFuzzer target: vg_cli_parse_key on arbitrary bytes, raw and hex, for
 * several key lengths, against an independent statement of the rules:
 *   raw: accepted iff n == len, and then out == data;
 *   hex: accepted iff n is 2*len, 2*len + 1 ending "\n" or 2*len + 2 ending
 *        "\r\n", and the first 2*len bytes are all [0-9a-fA-F]; then out
 *        re-encodes (vg_cli_hex) to the lowercased digits, and each byte is
 *        the value of its two digits (decoded here by a different method).
 *   rejected: VG_CLI_IO_EFORMAT and out all zero.
 * Any violation aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

/* Value of a hex digit, or -1: by search in a digit string, not arithmetic. */
static int digit_value(uint8_t c)
{
    static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";
    for (int i = 0; i < 16; i++)
        if (c == (uint8_t)lower[i] || c == (uint8_t)upper[i])
            return i;
    return -1;
}

static int all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

static void one(const uint8_t *data, size_t size, size_t len, uint8_t *out, char *hex)
{
    /* raw */
    memset(out, 0xa5, len);
    int rc = vg_cli_parse_key(data, size, out, len, 0);
    if (size == len)
        check(rc == VG_CLI_IO_OK && (len == 0 || memcmp(out, data, len) == 0));
    else
        check(rc == VG_CLI_IO_EFORMAT && all_zero(out, len));

    /* hex */
    size_t d = 2 * len;
    int accept = size == d || (size == d + 1 && data[d] == '\n') ||
                 (size == d + 2 && data[d] == '\r' && data[d + 1] == '\n');
    for (size_t i = 0; accept && i < d; i++)
        accept = digit_value(data[i]) >= 0;
    memset(out, 0xa5, len);
    rc = vg_cli_parse_key(data, size, out, len, 1);
    if (!accept) {
        check(rc == VG_CLI_IO_EFORMAT && all_zero(out, len));
        return;
    }
    check(rc == VG_CLI_IO_OK);
    for (size_t i = 0; i < len; i++)
        check(out[i] == (uint8_t)(digit_value(data[2 * i]) * 16 + digit_value(data[2 * i + 1])));
    vg_cli_hex(hex, out, len);
    for (size_t i = 0; i < d; i++) {
        uint8_t c = data[i];
        check((uint8_t)hex[i] == ((c >= 'A' && c <= 'F') ? (uint8_t)(c + 32) : c));
    }
    check(hex[d] == '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Fixed lengths of the keys the CLI will read, plus every length near
     * the input's own size, so that accepted inputs are reachable. */
    static const size_t fixed[] = {0, 1, 2, 31, 32, 33, 64, 1184};
    uint8_t *out = malloc(size + 1185);
    char *hex = malloc(2 * (size + 1185) + 1);
    check(out && hex);
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        one(data, size, fixed[i], out, hex);
    for (size_t k = 0; k < 3; k++) {
        one(data, size, size >= k ? size - k : 0, out, hex);    /* raw candidates */
        one(data, size, size / 2 >= k ? size / 2 - k : 0, out, hex); /* hex ones */
    }
    free(out);
    free(hex);
    return 0;
}
