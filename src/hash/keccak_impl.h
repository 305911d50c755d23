/*
 * Keccak-f[1600] plain round code (no lane complementing) for the x86-64
 * BMI1/BMI2 implementation (keccak_x86.c; the portable keccak.c has its own
 * lane-complemented round): a template included by it after it defines
 *   VG_KECCAK_ANDN(a, b)   ~a & b (one ANDN instruction with BMI1),
 *   VG_KECCAK_PERMUTE      the name of the permutation function to define,
 *   VG_KECCAK_ABSORB       the name of the absorbing function to define.
 * Both are static in the including file. The lanes live in 50 local
 * variables, one round is written once as a macro and used twice per loop
 * pass (A into E, E into A), so no lane is ever copied.
 */
#include <stddef.h>
#include <stdint.h>

#include "common.h"

#if !defined(VG_KECCAK_ANDN) || !defined(VG_KECCAK_PERMUTE) || !defined(VG_KECCAK_ABSORB)
#error "define VG_KECCAK_ANDN, VG_KECCAK_PERMUTE and VG_KECCAK_ABSORB first"
#endif

/* Round constants RC[ir] of iota (FIPS 202, Algorithms 5 and 6), in keccak.c. */
extern const uint64_t vg_keccak_rc[24];

/* Rotate left; n in 0..63 (the mask keeps n == 0 defined). Compilers emit
 * one ROL/RORX instruction. */
#define VG_ROL64(x, n) (((x) << (n)) | ((x) >> ((64 - (n)) & 63)))


/*
 * One output plane (row y) of rho, pi and chi. Input i is the lane that pi
 * moves to position (i, y), already XORed with its theta column parity, and
 * its rho offset ri (FIPS 202, Table 2). chi (Algorithm 4):
 * out[x] = b[x] ^ (~b[x+1] & b[x+2]).
 */
#define VG_KECCAK_ROW(o0, o1, o2, o3, o4, i0, r0, i1, r1, i2, r2, i3, r3, i4, r4)                   \
    do {                                                                                           \
        uint64_t b0_ = VG_ROL64(i0, r0), b1_ = VG_ROL64(i1, r1), b2_ = VG_ROL64(i2, r2);           \
        uint64_t b3_ = VG_ROL64(i3, r3), b4_ = VG_ROL64(i4, r4);                                   \
        o0 = b0_ ^ VG_KECCAK_ANDN(b1_, b2_);                                                                   \
        o1 = b1_ ^ VG_KECCAK_ANDN(b2_, b3_);                                                                   \
        o2 = b2_ ^ VG_KECCAK_ANDN(b3_, b4_);                                                                   \
        o3 = b3_ ^ VG_KECCAK_ANDN(b4_, b0_);                                                                   \
        o4 = b4_ ^ VG_KECCAK_ANDN(b0_, b1_);                                                                   \
    } while (0)

/*
 * One round Rnd(A, ir) (FIPS 202, Section 3.3) from lanes A##xy into E##xy,
 * lane (x, y) named with index x + 5y. theta (Algorithm 1): c0x is the
 * parity of column x, dx = c(x-1) ^ rot(c(x+1), 1). pi (Algorithm 3) puts
 * lane (x', y') at (y', 2x' + 3y'), so output (x, y) reads input
 * ((x + 3y) mod 5, x); the indices below are that map written out.
 */
#define VG_KECCAK_ROUND(A, E, rc)                                                                  \
    do {                                                                                           \
        uint64_t c00, c01, c02, c03, c04, d0, d1, d2, d3, d4;                                      \
        c00 = A##00 ^ A##05 ^ A##10 ^ A##15 ^ A##20;                                               \
        c01 = A##01 ^ A##06 ^ A##11 ^ A##16 ^ A##21;                                               \
        c02 = A##02 ^ A##07 ^ A##12 ^ A##17 ^ A##22;                                               \
        c03 = A##03 ^ A##08 ^ A##13 ^ A##18 ^ A##23;                                               \
        c04 = A##04 ^ A##09 ^ A##14 ^ A##19 ^ A##24;                                               \
        d0 = c04 ^ VG_ROL64(c01, 1);                                                               \
        d1 = c00 ^ VG_ROL64(c02, 1);                                                               \
        d2 = c01 ^ VG_ROL64(c03, 1);                                                               \
        d3 = c02 ^ VG_ROL64(c04, 1);                                                               \
        d4 = c03 ^ VG_ROL64(c00, 1);                                                               \
        VG_KECCAK_ROW(E##00, E##01, E##02, E##03, E##04, A##00 ^ d0, 0, A##06 ^ d1, 44,            \
                      A##12 ^ d2, 43, A##18 ^ d3, 21, A##24 ^ d4, 14);                             \
        E##00 ^= (rc); /* iota (Algorithm 6) */                                                    \
        VG_KECCAK_ROW(E##05, E##06, E##07, E##08, E##09, A##03 ^ d3, 28, A##09 ^ d4, 20,           \
                      A##10 ^ d0, 3, A##16 ^ d1, 45, A##22 ^ d2, 61);                              \
        VG_KECCAK_ROW(E##10, E##11, E##12, E##13, E##14, A##01 ^ d1, 1, A##07 ^ d2, 6,             \
                      A##13 ^ d3, 25, A##19 ^ d4, 8, A##20 ^ d0, 18);                              \
        VG_KECCAK_ROW(E##15, E##16, E##17, E##18, E##19, A##04 ^ d4, 27, A##05 ^ d0, 36,           \
                      A##11 ^ d1, 10, A##17 ^ d2, 15, A##23 ^ d3, 56);                             \
        VG_KECCAK_ROW(E##20, E##21, E##22, E##23, E##24, A##02 ^ d2, 62, A##08 ^ d3, 55,           \
                      A##14 ^ d4, 39, A##15 ^ d0, 41, A##21 ^ d1, 2);                              \
    } while (0)

/*
 * Keccak-f[1600] = Keccak-p[1600, 24] (FIPS 202, Algorithm 7 and 3.4).
 * Pre: st holds the state in the standard representation (keccak.h).
 * Post: st holds the permuted state. Constant time.
 */
static void VG_KECCAK_PERMUTE(uint64_t st[25])
{
    uint64_t a00 = st[0], a01 = st[1], a02 = st[2], a03 = st[3], a04 = st[4];
    uint64_t a05 = st[5], a06 = st[6], a07 = st[7], a08 = st[8], a09 = st[9];
    uint64_t a10 = st[10], a11 = st[11], a12 = st[12], a13 = st[13], a14 = st[14];
    uint64_t a15 = st[15], a16 = st[16], a17 = st[17], a18 = st[18], a19 = st[19];
    uint64_t a20 = st[20], a21 = st[21], a22 = st[22], a23 = st[23], a24 = st[24];
    uint64_t e00, e01, e02, e03, e04, e05, e06, e07, e08, e09, e10, e11, e12;
    uint64_t e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24;

    for (int i = 0; i < 24; i += 2) {
        VG_KECCAK_ROUND(a, e, vg_keccak_rc[i]);
        VG_KECCAK_ROUND(e, a, vg_keccak_rc[i + 1]);
    }

    st[0] = a00, st[1] = a01, st[2] = a02, st[3] = a03, st[4] = a04;
    st[5] = a05, st[6] = a06, st[7] = a07, st[8] = a08, st[9] = a09;
    st[10] = a10, st[11] = a11, st[12] = a12, st[13] = a13, st[14] = a14;
    st[15] = a15, st[16] = a16, st[17] = a17, st[18] = a18, st[19] = a19;
    st[20] = a20, st[21] = a21, st[22] = a22, st[23] = a23, st[24] = a24;
}

/*
 * The sponge's absorbing loop (FIPS 202, Algorithm 8, steps 6): for each of
 * nblocks blocks of rate bytes, XOR it into the first rate/8 lanes and
 * permute. Pre: rate a multiple of 8, 8 <= rate <= 168; in holds
 * nblocks * rate bytes (unaligned is fine).
 */
static void VG_KECCAK_ABSORB(uint64_t st[25], const uint8_t *in, size_t nblocks, size_t rate)
{
    size_t lanes = rate / 8;
    while (nblocks--) {
        for (size_t i = 0; i < lanes; i++)
            st[i] ^= vg_load64_le(in + 8 * i);
        VG_KECCAK_PERMUTE(st);
        in += rate;
    }
}

