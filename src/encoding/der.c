/*
 * Strict DER (ITU-T X.690 section 10, the distinguished encoding rules) for
 * the few types the key encodings need: one-byte tags, definite lengths in
 * their shortest form. Every BER-only form (indefinite length 0x80, long form
 * for a length below 128, leading zero length octets) is refused.
 */
#include "common.h"
#include "encoding.h"

int vg_der_get(struct vg_der *d, uint8_t tag, struct vg_der *content)
{
    size_t len, hdr;
    if (d->n < 2 || d->p[0] != tag)
        return -1;
    uint8_t l0 = d->p[1];
    if (l0 < 0x80) { /* short form (X.690 8.1.3.4) */
        len = l0;
        hdr = 2;
    } else if (l0 == 0x81) { /* long form, one octet: only for 128..255 (10.1) */
        if (d->n < 3 || d->p[2] < 0x80)
            return -1;
        len = d->p[2];
        hdr = 3;
    } else if (l0 == 0x82) { /* two octets: 256..65535, no leading zero */
        if (d->n < 4 || d->p[2] == 0)
            return -1;
        len = ((size_t)d->p[2] << 8) | d->p[3];
        hdr = 4;
    } else {
        /* 0x80 is the indefinite form (BER only); 0x83 and longer would give
         * lengths of 64 KiB or more, beyond every object of this area. */
        return -1;
    }
    if (len > d->n - hdr)
        return -1;
    content->p = d->p + hdr;
    content->n = len;
    d->p += hdr + len;
    d->n -= hdr + len;
    return 0;
}

size_t vg_der_hdr_len(size_t len)
{
    return len < 0x80 ? 2 : len < 0x100 ? 3 : 4;
}

size_t vg_der_put_hdr(uint8_t *out, uint8_t tag, size_t len)
{
    out[0] = tag;
    if (len < 0x80) {
        out[1] = (uint8_t)len;
        return 2;
    }
    if (len < 0x100) {
        out[1] = 0x81;
        out[2] = (uint8_t)len;
        return 3;
    }
    out[1] = 0x82;
    out[2] = (uint8_t)(len >> 8);
    out[3] = (uint8_t)len;
    return 4;
}
