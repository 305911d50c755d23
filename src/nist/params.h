/*
 * Constants of P-256 and P-384 (FIPS 186-5; SP 800-186 section 3.2.1), as
 * little-endian 64-bit limbs. _mont: in Montgomery form (times R = 2^256
 * resp. 2^384 mod p, or mod n for the scalar ones). tests/test_nist_fe.c
 * recomputes each with GMP from p, n and b as the standard gives them.
 */
#ifndef VG_NIST_PARAMS_H
#define VG_NIST_PARAMS_H

#include <stdint.h>


/* ---- P-256 ---- */
/* the field prime p */
static const uint64_t vg_p256_p[4] = {0xffffffffffffffffull, 0x00000000ffffffffull, 0x0000000000000000ull,
    0xffffffff00000001ull};
/* the group order n */
static const uint64_t vg_p256_n[4] = {0xf3b9cac2fc632551ull, 0xbce6faada7179e84ull, 0xffffffffffffffffull,
    0xffffffff00000000ull};
/* the curve coefficient b (a = -3) */
static const uint64_t vg_p256_b_mont[4] = {0xd89cdf6229c4bddfull, 0xacf005cd78843090ull, 0xe5a220abf7212ed6ull,
    0xdc30061d04874834ull};
/* 1 mod p */
static const uint64_t vg_p256_one_mont[4] = {0x0000000000000001ull, 0xffffffff00000000ull, 0xffffffffffffffffull,
    0x00000000fffffffeull};
/* R^2 mod p: to_mont(x) = mont_mul(x, R^2) */
static const uint64_t vg_p256_r2_p[4] = {0x0000000000000003ull, 0xfffffffbffffffffull, 0xfffffffffffffffeull,
    0x00000004fffffffdull};
/* p - 2: the Fermat inversion exponent */
static const uint64_t vg_p256_p_minus_2[4] = {0xfffffffffffffffdull, 0x00000000ffffffffull, 0x0000000000000000ull,
    0xffffffff00000001ull};
/* (p + 1) / 4: the square-root exponent (p = 3 mod 4) */
static const uint64_t vg_p256_p_sqrt_exp[4] = {0x0000000000000000ull, 0x0000000040000000ull, 0x4000000000000000ull,
    0x3fffffffc0000000ull};
/* 1 mod n */
static const uint64_t vg_p256_n_one_mont[4] = {0x0c46353d039cdaafull, 0x4319055258e8617bull, 0x0000000000000000ull,
    0x00000000ffffffffull};
/* R^2 mod n */
static const uint64_t vg_p256_r2_n[4] = {0x83244c95be79eea2ull, 0x4699799c49bd6fa6ull, 0x2845b2392b6bec59ull,
    0x66e12d94f3d95620ull};
/* n - 2 */
static const uint64_t vg_p256_n_minus_2[4] = {0xf3b9cac2fc63254full, 0xbce6faada7179e84ull, 0xffffffffffffffffull,
    0xffffffff00000000ull};
#define VG_P256_N0INV 0xccd1c8aaee00bc4full /* -n^-1 mod 2^64 */
/* The divsteps inversion (inv_divsteps.h, 13 batches of 62 for 256 bits):
 * its final factor R^16 2^(-62 * 13), mod p and mod n. */
static const uint64_t vg_p256_divsteps_k_p[4] = {0x1c441ba3cc407224ull, 0x8fc2555e18277a9dull, 0x03bbc61363a56a1bull,
    0x240df0f073a9063bull};
static const uint64_t vg_p256_divsteps_k_n[4] = {0xe6b341f515ec8244ull, 0x06ecb31a56b10a03ull, 0xe03d5761bfa16ba8ull,
    0x2c3a2d3e630a668cull};

/* ---- P-384 ---- */
/* the field prime p */
static const uint64_t vg_p384_p[6] = {0x00000000ffffffffull, 0xffffffff00000000ull, 0xfffffffffffffffeull,
    0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull};
/* the group order n */
static const uint64_t vg_p384_n[6] = {0xecec196accc52973ull, 0x581a0db248b0a77aull, 0xc7634d81f4372ddfull,
    0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull};
/* the curve coefficient b (a = -3) */
static const uint64_t vg_p384_b_mont[6] = {0x081188719d412dccull, 0xf729add87a4c32ecull, 0x77f2209b1920022eull,
    0xe3374bee94938ae2ull, 0xb62b21f41f022094ull, 0xcd08114b604fbff9ull};
/* 1 mod p */
static const uint64_t vg_p384_one_mont[6] = {0xffffffff00000001ull, 0x00000000ffffffffull, 0x0000000000000001ull,
    0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull};
/* R^2 mod p: to_mont(x) = mont_mul(x, R^2) */
static const uint64_t vg_p384_r2_p[6] = {0xfffffffe00000001ull, 0x0000000200000000ull, 0xfffffffe00000000ull,
    0x0000000200000000ull, 0x0000000000000001ull, 0x0000000000000000ull};
/* p - 2: the Fermat inversion exponent */
static const uint64_t vg_p384_p_minus_2[6] = {0x00000000fffffffdull, 0xffffffff00000000ull, 0xfffffffffffffffeull,
    0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull};
/* (p + 1) / 4: the square-root exponent (p = 3 mod 4) */
static const uint64_t vg_p384_p_sqrt_exp[6] = {0x0000000040000000ull, 0xbfffffffc0000000ull, 0xffffffffffffffffull,
    0xffffffffffffffffull, 0xffffffffffffffffull, 0x3fffffffffffffffull};
/* 1 mod n */
static const uint64_t vg_p384_n_one_mont[6] = {0x1313e695333ad68dull, 0xa7e5f24db74f5885ull, 0x389cb27e0bc8d220ull,
    0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000000ull};
/* R^2 mod n */
static const uint64_t vg_p384_r2_n[6] = {0x2d319b2419b409a9ull, 0xff3d81e5df1aa419ull, 0xbc3e483afcb82947ull,
    0xd40d49174aab1cc5ull, 0x3fb05b7a28266895ull, 0x0c84ee012b39bf21ull};
/* n - 2 */
static const uint64_t vg_p384_n_minus_2[6] = {0xecec196accc52971ull, 0x581a0db248b0a77aull, 0xc7634d81f4372ddfull,
    0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull};
#define VG_P384_N0INV 0x6ed46089e88fdc45ull /* -n^-1 mod 2^64 */
/* The divsteps inversion (19 batches of 62 for 384 bits): R^22 2^(-62 * 19),
 * mod p and mod n. */
static const uint64_t vg_p384_divsteps_k_p[6] = {0x5ad1cf16a595a341ull, 0x295699ec3306806aull, 0x3063572c910b1fe7ull,
    0x3eb41fd84cc19866ull, 0xb43ab3a2672d424full, 0xcf63a4232b92d9f8ull};
static const uint64_t vg_p384_divsteps_k_n[6] = {0xab001e395f11fa9full, 0xaa42d20fc6780bd2ull, 0x64f5de643a9e9647ull,
    0xdd09bf9609b9cdbeull, 0xf2a3890300bad877ull, 0xf5a998433103ba37ull};

#endif
