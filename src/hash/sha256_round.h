/*
 * The SHA-256 round (FIPS 180-4 6.2.2 step 3) and its functions (4.4),
 * (4.5), shared by the portable compression (sha256.c) and the AVX2 one
 * (sha256_avx2.c, where -mbmi2 makes the rotations RORX).
 */
#ifndef VG_HASH_SHA256_ROUND_H
#define VG_HASH_SHA256_ROUND_H

#include <stdint.h>

static inline uint32_t rotr32(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

#define BSIG0(x) (rotr32((x), 2) ^ rotr32((x), 13) ^ rotr32((x), 22))
#define BSIG1(x) (rotr32((x), 6) ^ rotr32((x), 11) ^ rotr32((x), 25))

/* One round, with the variables renamed instead of shifted.
 * Ch(e,f,g) = ((f ^ g) & e) ^ g and Maj(a,b,c) = ((a ^ b) & (b ^ c)) ^ b;
 * `bc` (declared by the caller) carries b ^ c, which is the next round's
 * a ^ b. */
#define R256(a, b, c, d, e, f, g, h, wk)                                                           \
    do {                                                                                           \
        uint32_t t1_ = (h) + (wk) + ((((f) ^ (g)) & (e)) ^ (g)) + BSIG1(e);                        \
        uint32_t ab_ = (a) ^ (b);                                                                  \
        (d) += t1_;                                                                                \
        (h) = t1_ + BSIG0(a) + ((ab_ & bc) ^ (b));                                                 \
        bc = ab_;                                                                                  \
    } while (0)

#endif
