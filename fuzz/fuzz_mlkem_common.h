/*
 * Shared by the ML-KEM fuzz targets: one table of the three parameter sets
 * (FIPS 203 Table 2 sizes, the public functions) and the checks both
 * targets make. Header-only, static: each target is one executable.
 */
#ifndef VG_FUZZ_MLKEM_COMMON_H
#define VG_FUZZ_MLKEM_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "vgcrypto.h"

struct fuzz_kem {
    unsigned k; /* module rank: ek = 384k + 32 bytes */
    size_t pk_len, sk_len, ct_len;
    int (*keypair_derand)(uint8_t *pk, uint8_t *sk, const uint8_t seed[64]);
    int (*encaps_derand)(uint8_t *ct, uint8_t ss[32], const uint8_t *pk, const uint8_t m[32]);
    int (*decaps)(uint8_t ss[32], const uint8_t *ct, const uint8_t *sk);
    int (*check_pk)(const uint8_t *pk);
    int (*check_sk)(const uint8_t *sk);
};

static const struct fuzz_kem g_fuzz_kems[3] = {
    {2, VG_MLKEM512_PUBLICKEYBYTES, VG_MLKEM512_SECRETKEYBYTES, VG_MLKEM512_CIPHERTEXTBYTES,
     vg_mlkem512_keypair_derand, vg_mlkem512_encaps_derand, vg_mlkem512_decaps,
     vg_mlkem512_check_public_key, vg_mlkem512_check_secret_key},
    {3, VG_MLKEM768_PUBLICKEYBYTES, VG_MLKEM768_SECRETKEYBYTES, VG_MLKEM768_CIPHERTEXTBYTES,
     vg_mlkem768_keypair_derand, vg_mlkem768_encaps_derand, vg_mlkem768_decaps,
     vg_mlkem768_check_public_key, vg_mlkem768_check_secret_key},
    {4, VG_MLKEM1024_PUBLICKEYBYTES, VG_MLKEM1024_SECRETKEYBYTES, VG_MLKEM1024_CIPHERTEXTBYTES,
     vg_mlkem1024_keypair_derand, vg_mlkem1024_encaps_derand, vg_mlkem1024_decaps,
     vg_mlkem1024_check_public_key, vg_mlkem1024_check_secret_key},
};

#define FUZZ_MLKEM_MAX_PK VG_MLKEM1024_PUBLICKEYBYTES
#define FUZZ_MLKEM_MAX_SK VG_MLKEM1024_SECRETKEYBYTES
#define FUZZ_MLKEM_MAX_CT VG_MLKEM1024_CIPHERTEXTBYTES
#define FUZZ_MLKEM_Q 3329

static inline void fuzz_check(int ok)
{
    if (!ok)
        abort();
}

static inline int fuzz_all_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

/* Copy min(n, len) bytes of data into out[0..len) and zero the rest. */
static inline void fuzz_take(uint8_t *out, size_t len, const uint8_t **data, size_t *n)
{
    size_t t = *n < len ? *n : len;
    memset(out, 0, len);
    if (t)
        memcpy(out, *data, t);
    *data += t;
    *n -= t;
}

/* The 12-bit coefficient i of a ByteEncode_12 string (FIPS 203 Algorithm 5:
 * two coefficients in three bytes, little-endian). */
static inline unsigned fuzz_coeff12(const uint8_t *p, size_t i)
{
    const uint8_t *b = p + 3 * (i / 2);
    return i % 2 ? (unsigned)(b[1] >> 4) | (unsigned)b[2] << 4
                 : (unsigned)b[0] | (unsigned)(b[1] & 15) << 8;
}

static inline void fuzz_set_coeff12(uint8_t *p, size_t i, unsigned v)
{
    uint8_t *b = p + 3 * (i / 2);
    if (i % 2) {
        b[1] = (uint8_t)((b[1] & 15) | (v & 15) << 4);
        b[2] = (uint8_t)(v >> 4);
    } else {
        b[0] = (uint8_t)v;
        b[1] = (uint8_t)((b[1] & 0xf0) | (v >> 8));
    }
}

/* FIPS 203 7.2 written out independently: every one of the 256k 12-bit
 * coefficients of the t-hat part of ek is < q (ByteDecode_12 followed by
 * ByteEncode_12 is the identity exactly then). */
static inline int fuzz_ek_modulus_ok(const uint8_t *ek, unsigned k)
{
    for (size_t i = 0; i < 256 * (size_t)k; i++)
        if (fuzz_coeff12(ek, i) >= FUZZ_MLKEM_Q)
            return 0;
    return 1;
}

/* Force the feature mask to none (portable code throughout) and return the
 * mask to restore with vg_cpu_force afterwards: the targets compare the
 * backends on every input. Single-threaded use only (vg_cpu_force). */
static inline uint32_t fuzz_force_portable(void)
{
    uint32_t saved = vg_cpu_active();
    vg_cpu_force(0);
    return saved;
}

#endif /* VG_FUZZ_MLKEM_COMMON_H */
