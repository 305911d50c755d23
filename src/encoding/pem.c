/*
 * PEM armour, RFC 7468: "-----BEGIN label-----", the base64 (RFC 4648
 * section 4) of the DER in lines of 64 characters, "-----END label-----".
 *
 * A private key's base64 text is as secret as its DER, so both directions
 * map characters to values with arithmetic on small integers (no table
 * indexed by the data, no branch on it). What steers the decoder's branches
 * is only each character's class (base64 letter, '=', whitespace, other),
 * computed in constant time and then declassified: the classes are the
 * text's layout (where the line breaks and the padding are), which the
 * encoding fixes for a given key length and which carries no key bits.
 */
#include <string.h>

#include "common.h"
#include "encoding.h"

/* 0x..ff when a == b (bytes), 0 otherwise, without a branch. */
static unsigned eq_mask(unsigned a, unsigned b)
{
    unsigned x = vg_barrier_u32((a ^ b) & 0xff);
    return 0u - (((x - 1u) >> 8) & 1u); /* x - 1 wraps to 0xffffffff only for x == 0 */
}

/* The base64 character of v in 0..63 (RFC 4648 table 1): each range adds
 * its offset under a mask taken from the sign of a difference. */
static uint8_t b64_char(unsigned v)
{
    int x = (int)vg_barrier_u32(v);
    int c = x + 'A';
    c += ((25 - x) >> 8) & ('a' - 'A' - 26); /* x >= 26: a..z */
    c += ((51 - x) >> 8) & ('0' - 'a' - 26); /* x >= 52: 0..9 */
    c += ((61 - x) >> 8) & ('+' - '0' - 10); /* x >= 62: '+' */
    c += ((62 - x) >> 8) & ('/' - '+' - 1);  /* x == 63: '/' */
    return (uint8_t)c;
}

/* The value of a base64 character, or -1 for any other byte: each range
 * test (a < c < b as the sign of (a - c) & (c - b)) adds value + 1. */
static int b64_value(uint8_t ch)
{
    int c = (int)vg_barrier_u32(ch), r = -1;
    r += (((64 - c) & (c - 91)) >> 8) & (c - 64);  /* A..Z: 0..25 */
    r += (((96 - c) & (c - 123)) >> 8) & (c - 70); /* a..z: 26..51 */
    r += (((47 - c) & (c - 58)) >> 8) & (c + 5);   /* 0..9: 52..61 */
    r += (((42 - c) & (c - 44)) >> 8) & 63;        /* '+': 62 */
    r += (((46 - c) & (c - 48)) >> 8) & 64;        /* '/': 63 */
    return r;
}

enum { C_B64, C_PAD, C_WS, C_OTHER };

/* Class of one character, computed without a branch, then declassified
 * (the layout is public: see the top of the file). */
static int char_class(uint8_t ch, int *value)
{
    int v = b64_value(ch);
    unsigned ws = eq_mask(ch, ' ') | eq_mask(ch, '\t') | eq_mask(ch, '\r') | eq_mask(ch, '\n');
    unsigned pad = eq_mask(ch, '=');
    unsigned is_b64 = (unsigned)~(v >> 8) & 1u; /* v >= 0 */
    int cls = (int)((is_b64 & 1u) * C_B64 + (pad & 1u) * C_PAD + (ws & 1u) * C_WS +
                    ((~(is_b64 | pad | ws)) & 1u) * C_OTHER);
    VG_CT_DECLASSIFY(&cls, sizeof cls); /* the layout, not the key */
    *value = v;
    return cls;
}

static int is_ws(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

size_t vg_pem_len(const char *label, size_t der_len)
{
    size_t l = strlen(label), b64 = 4 * ((der_len + 2) / 3), lines = (b64 + 63) / 64;
    return 11 + l + 6 + b64 + lines + 9 + l + 6;
}

static uint8_t *put_str(uint8_t *out, const char *s)
{
    size_t n = strlen(s);
    memcpy(out, s, n);
    return out + n;
}

void vg_pem_encode(uint8_t *out, const char *label, const uint8_t *der, size_t der_len)
{
    uint8_t *o = out;
    size_t col = 0;
    o = put_str(o, "-----BEGIN ");
    o = put_str(o, label);
    o = put_str(o, "-----\n");
    for (size_t i = 0; i < der_len; i += 3) {
        /* A quantum of up to 3 bytes; the length of the last one is public. */
        size_t k = der_len - i < 3 ? der_len - i : 3;
        uint32_t w = (uint32_t)der[i] << 16;
        if (k > 1)
            w |= (uint32_t)der[i + 1] << 8;
        if (k > 2)
            w |= der[i + 2];
        uint8_t q[4] = {b64_char(w >> 18), b64_char((w >> 12) & 63), b64_char((w >> 6) & 63),
                        b64_char(w & 63)};
        if (k < 3)
            q[3] = '=';
        if (k < 2)
            q[2] = '=';
        memcpy(o, q, 4);
        o += 4;
        vg_wipe(q, sizeof q);
        w = 0;
        VG_BARRIER_ASM(w);
        col += 4;
        if (col == 64) {
            *o++ = '\n';
            col = 0;
        }
    }
    if (col)
        *o++ = '\n';
    o = put_str(o, "-----END ");
    o = put_str(o, label);
    (void)put_str(o, "-----\n");
}

int vg_pem_detect(const uint8_t *in, size_t in_len)
{
    size_t i = 0;
    while (i < in_len && is_ws(in[i]))
        i++;
    return in_len - i >= 11 && memcmp(in + i, "-----BEGIN ", 11) == 0;
}

/* Match the literal s at in[*i]; advance on success. */
static int match(const uint8_t *in, size_t in_len, size_t *i, const char *s)
{
    size_t n = strlen(s);
    if (in_len - *i < n || memcmp(in + *i, s, n) != 0)
        return 0;
    *i += n;
    return 1;
}

/* An end of line (LF or CRLF) at in[*i]. */
static int eol(const uint8_t *in, size_t in_len, size_t *i)
{
    if (*i < in_len && in[*i] == '\n') {
        *i += 1;
        return 1;
    }
    if (in_len - *i >= 2 && in[*i] == '\r' && in[*i + 1] == '\n') {
        *i += 2;
        return 1;
    }
    return 0;
}

int vg_pem_decode(uint8_t *der, size_t cap, size_t *der_len, const char *label,
                  const uint8_t *in, size_t in_len)
{
    size_t i = 0, n = 0, chars = 0, pads = 0;
    uint32_t acc = 0, nbits = 0, bad = 0;
    int rc = -1;
    while (i < in_len && is_ws(in[i]))
        i++;
    if (!match(in, in_len, &i, "-----BEGIN ") || !match(in, in_len, &i, label) ||
        !match(in, in_len, &i, "-----") || !eol(in, in_len, &i))
        goto out;
    for (; i < in_len; i++) {
        int v, cls = char_class(in[i], &v);
        if (cls == C_WS)
            continue;
        if (cls == C_OTHER)
            break;
        chars++;
        if (cls == C_PAD) {
            pads++;
            continue;
        }
        if (pads) /* base64 after '=' */
            goto out;
        acc = (acc << 6) | ((uint32_t)v & 63);
        nbits += 6;
        if (nbits >= 8) {
            if (n == cap)
                goto out;
            nbits -= 8;
            der[n++] = (uint8_t)(acc >> nbits);
            acc &= (1u << nbits) - 1;
        }
    }
    /* Whole quanta; at most two '='; padding only where bits are left over
     * (2 data characters + "==", 3 + "="), and those bits zero (RFC 4648
     * section 3.5: canonical encoding). */
    if (chars % 4 != 0 || pads > 2 || (pads == 1 && nbits != 2) || (pads == 2 && nbits != 4) ||
        (pads == 0 && nbits != 0))
        goto out;
    bad = acc; /* the leftover bits, secret: folded into the verdict below */
    /* The END line starts a line: the byte before it is a line feed. */
    if (i == 0 || in[i - 1] != '\n')
        goto out;
    if (!match(in, in_len, &i, "-----END ") || !match(in, in_len, &i, label) ||
        !match(in, in_len, &i, "-----"))
        goto out;
    while (i < in_len && is_ws(in[i]))
        i++;
    if (i != in_len)
        goto out;
    {
        uint32_t leftover = (uint32_t)vg_ct_mask_nonzero_u64(bad) & 1u;
        VG_CT_DECLASSIFY(&leftover, sizeof leftover); /* the verdict: canonical or not */
        if (leftover)
            goto out;
    }
    *der_len = n;
    rc = 0;
out:
    acc = 0;
    VG_BARRIER_ASM(acc);
    if (rc != 0)
        vg_wipe(der, cap);
    return rc;
}
