/*
 * libFuzzer target: the key decoders (vg_key_decode_private,
 * vg_key_decode_public) on arbitrary bytes, DER or PEM. Properties:
 *   refused: VG_ERR_INPUT, the key buffer all zero, length 0, VG_KEY_NONE;
 *   accepted: the key re-encodes with the flags returned, and that encoding
 *             decodes to the same algorithm, flags and key;
 *   never a crash or sanitizer report (read only within the input).
 * Any violation aborts. The corpus starts from the LAMPS and X-Wing example
 * files (fuzz/CMakeLists.txt).
 */
#include <stdlib.h>
#include <string.h>

#include "vgcrypto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

static int all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

static uint8_t g_key[VG_KEY_SECRET_MAXBYTES], g_key2[VG_KEY_SECRET_MAXBYTES];
static uint8_t g_enc[VG_KEY_ENCODED_MAXBYTES];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vg_key_alg a, a2;
    unsigned fl, fl2;
    size_t kl, kl2, n;
    int rc = vg_key_decode_private(&a, &fl, g_key, sizeof g_key, &kl, data, size);
    check(rc == VG_OK || rc == VG_ERR_INPUT);
    if (rc != VG_OK) {
        check(a == VG_KEY_NONE && fl == 0 && kl == 0 && all_zero(g_key, sizeof g_key));
    } else {
        check(vg_key_encode_private(g_enc, sizeof g_enc, &n, a, fl, g_key, kl) == VG_OK);
        check(vg_key_decode_private(&a2, &fl2, g_key2, sizeof g_key2, &kl2, g_enc, n) == VG_OK);
        check(a2 == a && fl2 == fl && kl2 == kl && memcmp(g_key, g_key2, kl) == 0);
    }
    rc = vg_key_decode_public(&a, g_key, sizeof g_key, &kl, data, size);
    check(rc == VG_OK || rc == VG_ERR_INPUT);
    if (rc != VG_OK) {
        check(a == VG_KEY_NONE && kl == 0 && all_zero(g_key, sizeof g_key));
    } else {
        check(vg_key_encode_public(g_enc, sizeof g_enc, &n, a, 0, g_key, kl) == VG_OK);
        check(vg_key_decode_public(&a2, g_key2, sizeof g_key2, &kl2, g_enc, n) == VG_OK);
        check(a2 == a && kl2 == kl && memcmp(g_key, g_key2, kl) == 0);
    }
    return 0;
}
