/*
 * Independent reference for tests/test_cli.sh: the file layout of
 * `vgcrypto seal` / `open` (nonce || ciphertext || 16-byte tag) through
 * libsodium's crypto_aead_chacha20poly1305_ietf_* (RFC 8439) and
 * crypto_aead_xchacha20poly1305_ietf_* (draft-irtf-cfrg-xchacha), which
 * take exactly ciphertext || tag after the nonce ("combined" mode).
 *
 *   cli_aead_ref open ALG KEY IN OUT [AD]   exit 0 and OUT, or 1: bad tag
 *   cli_aead_ref seal ALG KEY IN OUT [AD]   a fresh nonce from libsodium
 *
 * ALG is chacha20-poly1305 or xchacha20-poly1305; KEY a file of 32 raw
 * bytes; AD a file ("" or absent: none). Files are read whole (test sizes).
 * Exit 2 on usage or I/O errors.
 */
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *p = NULL;
    size_t cap = 0;
    *n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 65536;
            unsigned char *q = realloc(p, cap);
            if (!q) {
                free(p);
                fclose(f);
                return NULL;
            }
            p = q;
        }
        size_t r = fread(p + *n, 1, cap - *n, f);
        *n += r;
        if (r == 0)
            break;
    }
    fclose(f);
    return p;
}

static int spill(const char *path, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 6 || argc > 7 || sodium_init() < 0)
        return 2;
    int x = strcmp(argv[2], "xchacha20-poly1305") == 0;
    if (!x && strcmp(argv[2], "chacha20-poly1305") != 0)
        return 2;
    size_t nl = x ? crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
                  : crypto_aead_chacha20poly1305_ietf_NPUBBYTES;
    size_t klen, inlen, adlen = 0;
    unsigned char *key = slurp(argv[3], &klen), *in = slurp(argv[4], &inlen), *ad = NULL;
    if (argc == 7 && argv[6][0] && !(ad = slurp(argv[6], &adlen)))
        return 2;
    if (!key || !in || klen != 32)
        return 2;
    unsigned char *out = malloc(inlen + nl + 16 + 1);
    unsigned long long outlen = 0;
    int rc;
    if (!out)
        return 2;
    if (strcmp(argv[1], "seal") == 0) {
        randombytes_buf(out, nl);
        rc = x ? crypto_aead_xchacha20poly1305_ietf_encrypt(out + nl, &outlen, in, inlen, ad,
                                                            adlen, NULL, out, key)
               : crypto_aead_chacha20poly1305_ietf_encrypt(out + nl, &outlen, in, inlen, ad,
                                                           adlen, NULL, out, key);
        if (rc != 0)
            return 2;
        outlen += nl;
    } else if (strcmp(argv[1], "open") == 0) {
        if (inlen < nl + 16)
            return 1;
        rc = x ? crypto_aead_xchacha20poly1305_ietf_decrypt(out, &outlen, NULL, in + nl,
                                                            inlen - nl, ad, adlen, in, key)
               : crypto_aead_chacha20poly1305_ietf_decrypt(out, &outlen, NULL, in + nl,
                                                           inlen - nl, ad, adlen, in, key);
        if (rc != 0)
            return 1;
    } else {
        return 2;
    }
    return spill(argv[5], out, (size_t)outlen) == 0 ? 0 : 2;
}
