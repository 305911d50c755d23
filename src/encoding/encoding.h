/*
 * The key-encoding area's private header: the DER reader and writer and the
 * PEM (RFC 7468) armour shared by its files. Other areas use the public
 * vg_key_* functions of include/vgcrypto.h.
 */
#ifndef VG_ENCODING_ENCODING_H
#define VG_ENCODING_ENCODING_H

#include <stddef.h>
#include <stdint.h>

/* DER tags used here (X.690 8.x; context tags of RFC 5958 and the LAMPS
 * documents). Only low-tag-number forms: every tag is one byte. */
#define DER_INTEGER 0x02
#define DER_BIT_STRING 0x03
#define DER_OCTET_STRING 0x04
#define DER_NULL 0x05
#define DER_OID 0x06
#define DER_SEQUENCE 0x30
#define DER_CTX0_PRIM 0x80  /* [0] IMPLICIT OCTET STRING: the LAMPS seed */
#define DER_CTX1_PRIM 0x81  /* [1] IMPLICIT BIT STRING: OneAsymmetricKey publicKey */
#define DER_CTX0_CONS 0xa0  /* [0] IMPLICIT SET OF: OneAsymmetricKey attributes; [0]
                               EXPLICIT ECParameters of RFC 5915 ECPrivateKey */
#define DER_CTX1_CONS 0xa1  /* [1] EXPLICIT BIT STRING: RFC 5915 ECPrivateKey publicKey */

/* Largest DER object this area reads or writes (ML-DSA-87 "both": 4896 +
 * 32 bytes and headers, with room). */
#define VG_ENC_DER_MAX 5120

/* A window of DER bytes still to read. */
struct vg_der {
    const uint8_t *p;
    size_t n;
};

/* Read one TLV with tag `tag` from the front of d into *content and advance
 * d past it. Strict DER (X.690 10.1): definite length only, in the shortest
 * form (short form below 128, long form without leading zero octets and
 * only for lengths >= 128), no more than the bytes left. 0 on success, -1
 * otherwise (d unchanged). Tags and lengths are public (they depend on the
 * algorithm and key form only). */
int vg_der_get(struct vg_der *d, uint8_t tag, struct vg_der *content);

/* Bytes of a header (tag and length) for a content of len bytes. */
size_t vg_der_hdr_len(size_t len);
/* Write tag and length at out; returns the header length. */
size_t vg_der_put_hdr(uint8_t *out, uint8_t tag, size_t len);

/* PEM (RFC 7468 section 2; strict: the "stricttextualmsg" of section 3 with
 * LF or CRLF line ends). */
/* Bytes that vg_pem_encode writes for der_len bytes under `label`. */
size_t vg_pem_len(const char *label, size_t der_len);
/* Armour der (der_len bytes) under label into out (vg_pem_len bytes). The
 * base64 is computed without table lookups or branches on the data. */
void vg_pem_encode(uint8_t *out, const char *label, const uint8_t *der, size_t der_len);
/* Unarmour: in must be, after optional leading whitespace, one
 * "-----BEGIN label-----" line, base64 lines (whitespace between characters
 * ignored, '=' padding only at the end, unused bits zero) and one
 * "-----END label-----" line, then only whitespace. Writes the DER to der
 * (cap bytes) and its length to *der_len. 0 on success, -1 otherwise. The
 * base64 characters are decoded in constant time; only the class of each
 * character (base64, padding, whitespace, other), which is the text's
 * layout, steers a branch. */
int vg_pem_decode(uint8_t *der, size_t cap, size_t *der_len, const char *label,
                  const uint8_t *in, size_t in_len);
/* 1 when in starts (after whitespace) with "-----BEGIN ": a PEM text. */
int vg_pem_detect(const uint8_t *in, size_t in_len);

#endif
