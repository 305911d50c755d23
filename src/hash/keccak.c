/*
 * Keccak-f[1600], portable 64-bit C (FIPS 202, Section 3), and the dispatch.
 *
 * Technique: the 25 lanes live in local variables; one round is written once
 * as a macro (theta, then rho + pi + chi + iota one output plane at a time)
 * and instantiated twice per loop iteration, A -> E then E -> A, so no lane
 * is ever copied. The permutation has no data-dependent branch or memory
 * index: it is constant time by construction.
 *
 * Lane complementing (Keccak implementation overview, section 2.2): six
 * lanes are kept complemented throughout, (x, y) = (1, 0), (2, 0), (3, 1),
 * (2, 2), (2, 3), (0, 4) (indices 1, 2, 8, 12, 17, 20), complemented on
 * entry and back on exit. Theta and rho keep complements known (a XOR of
 * an odd number of complemented terms is complemented; a rotation of a
 * complement is the complement of the rotation), so each chi input arrives
 * with a known flag, and chi's ~b & c is computed from the stored values
 * as b & c when b is stored complemented and c is not, or as its
 * complement b | c when c is stored complemented and b is not (flipping
 * the output). Choosing per term, one NOT a row (5 a round instead of
 * chi's 25) gives outputs in the same six-lane pattern, so every round
 * sees the same layout. The flags and formulas below were derived by a
 * search over these choices and checked against the plain round on random
 * states; the tests compare the permutation with the FIPS 202 vectors.
 * Portable builds have no ANDN (BMI1), so this removes 20 of about 160 ALU
 * operations a round. The x86-64 BMI2 variant (keccak_x86.c) keeps the
 * plain round of keccak_impl.h with ANDN.
 */
#include <string.h>

#include "common.h"
#include "keccak.h"

/* Round constants RC[i] of iota (FIPS 202, Algorithm 5 and 6). */
const uint64_t vg_keccak_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
    0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
    0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* Rotate left; n in 0..63 (the mask keeps n == 0 defined): one ROL. */
#define VG_KECCAK_ROL64(x, n) (((x) << (n)) | ((x) >> ((64 - (n)) & 63)))

/*
 * One round Rnd(A, ir) (FIPS 202, Section 3.3) from lanes A##xy into E##xy
 * (lane (x, y) named with index x + 5y), both in the lane-complemented
 * representation. theta (Algorithm 1): c0x is the parity of column x, dx =
 * c(x-1) ^ rot(c(x+1), 1). pi (Algorithm 3): output (x, y) reads input
 * ((x + 3y) mod 5, x), rotated by its rho offset (Table 2). chi (Algorithm
 * 4): out[x] = b[x] ^ (~b[x+1] & b[x+2]) in the forms above; the flags say
 * which b arrive complemented and which outputs are stored complemented;
 * n_ is the row's one NOT. iota (Algorithm 6) on lane (0, 0), which is not
 * complemented.
 */
#define VG_KECCAK_LC_ROUND(A, E, rc)                                                              \
    do {                                                                                          \
        uint64_t c00, c01, c02, c03, c04, d0, d1, d2, d3, d4;                                     \
        c00 = A##00 ^ A##05 ^ A##10 ^ A##15 ^ A##20;                                              \
        c01 = A##01 ^ A##06 ^ A##11 ^ A##16 ^ A##21;                                              \
        c02 = A##02 ^ A##07 ^ A##12 ^ A##17 ^ A##22;                                              \
        c03 = A##03 ^ A##08 ^ A##13 ^ A##18 ^ A##23;                                              \
        c04 = A##04 ^ A##09 ^ A##14 ^ A##19 ^ A##24;                                              \
        d0 = c04 ^ VG_KECCAK_ROL64(c01, 1);                                                       \
        d1 = c00 ^ VG_KECCAK_ROL64(c02, 1);                                                       \
        d2 = c01 ^ VG_KECCAK_ROL64(c03, 1);                                                       \
        d3 = c02 ^ VG_KECCAK_ROL64(c04, 1);                                                       \
        d4 = c03 ^ VG_KECCAK_ROL64(c00, 1);                                                       \
        /* row 0: b flags [1, 0, 1, 1, 0], out flags [0, 1, 1, 0, 0] */                           \
        {                                                                                         \
            uint64_t b0_ = VG_KECCAK_ROL64(A##00 ^ d0, 0);                                        \
            uint64_t b1_ = VG_KECCAK_ROL64(A##06 ^ d1, 44);                                       \
            uint64_t b2_ = VG_KECCAK_ROL64(A##12 ^ d2, 43);                                       \
            uint64_t b3_ = VG_KECCAK_ROL64(A##18 ^ d3, 21);                                       \
            uint64_t b4_ = VG_KECCAK_ROL64(A##24 ^ d4, 14);                                       \
            uint64_t n_ = ~b2_;                                                                   \
            E##00 = b0_ ^ (b1_ | b2_);                                                            \
            E##01 = b1_ ^ (n_ | b3_);                                                             \
            E##02 = b2_ ^ (b3_ & b4_);                                                            \
            E##03 = b3_ ^ (b4_ | b0_);                                                            \
            E##04 = b4_ ^ (b0_ & b1_);                                                            \
        }                                                                                         \
        /* row 1: b flags [1, 0, 1, 0, 0], out flags [0, 0, 0, 1, 0] */                           \
        {                                                                                         \
            uint64_t b0_ = VG_KECCAK_ROL64(A##03 ^ d3, 28);                                       \
            uint64_t b1_ = VG_KECCAK_ROL64(A##09 ^ d4, 20);                                       \
            uint64_t b2_ = VG_KECCAK_ROL64(A##10 ^ d0, 3);                                        \
            uint64_t b3_ = VG_KECCAK_ROL64(A##16 ^ d1, 45);                                       \
            uint64_t b4_ = VG_KECCAK_ROL64(A##22 ^ d2, 61);                                       \
            uint64_t n_ = ~b4_;                                                                   \
            E##05 = b0_ ^ (b1_ | b2_);                                                            \
            E##06 = b1_ ^ (b2_ & b3_);                                                            \
            E##07 = b2_ ^ (b3_ | n_);                                                             \
            E##08 = b3_ ^ (b4_ | b0_);                                                            \
            E##09 = b4_ ^ (b0_ & b1_);                                                            \
        }                                                                                         \
        /* row 2: b flags [1, 0, 1, 0, 0], out flags [0, 0, 1, 0, 0] */                           \
        {                                                                                         \
            uint64_t b0_ = VG_KECCAK_ROL64(A##01 ^ d1, 1);                                        \
            uint64_t b1_ = VG_KECCAK_ROL64(A##07 ^ d2, 6);                                        \
            uint64_t b2_ = VG_KECCAK_ROL64(A##13 ^ d3, 25);                                       \
            uint64_t b3_ = VG_KECCAK_ROL64(A##19 ^ d4, 8);                                        \
            uint64_t b4_ = VG_KECCAK_ROL64(A##20 ^ d0, 18);                                       \
            uint64_t n_ = ~b3_;                                                                   \
            E##10 = b0_ ^ (b1_ | b2_);                                                            \
            E##11 = b1_ ^ (b2_ & b3_);                                                            \
            E##12 = b2_ ^ (n_ & b4_);                                                             \
            E##13 = n_ ^ (b4_ | b0_);                                                             \
            E##14 = b4_ ^ (b0_ & b1_);                                                            \
        }                                                                                         \
        /* row 3: b flags [0, 1, 0, 1, 1], out flags [0, 0, 1, 0, 0] */                           \
        {                                                                                         \
            uint64_t b0_ = VG_KECCAK_ROL64(A##04 ^ d4, 27);                                       \
            uint64_t b1_ = VG_KECCAK_ROL64(A##05 ^ d0, 36);                                       \
            uint64_t b2_ = VG_KECCAK_ROL64(A##11 ^ d1, 10);                                       \
            uint64_t b3_ = VG_KECCAK_ROL64(A##17 ^ d2, 15);                                       \
            uint64_t b4_ = VG_KECCAK_ROL64(A##23 ^ d3, 56);                                       \
            uint64_t n_ = ~b3_;                                                                   \
            E##15 = b0_ ^ (b1_ & b2_);                                                            \
            E##16 = b1_ ^ (b2_ | b3_);                                                            \
            E##17 = b2_ ^ (n_ | b4_);                                                             \
            E##18 = n_ ^ (b4_ & b0_);                                                             \
            E##19 = b4_ ^ (b0_ | b1_);                                                            \
        }                                                                                         \
        /* row 4: b flags [1, 0, 0, 1, 0], out flags [1, 0, 0, 0, 0] */                           \
        {                                                                                         \
            uint64_t b0_ = VG_KECCAK_ROL64(A##02 ^ d2, 62);                                       \
            uint64_t b1_ = VG_KECCAK_ROL64(A##08 ^ d3, 55);                                       \
            uint64_t b2_ = VG_KECCAK_ROL64(A##14 ^ d4, 39);                                       \
            uint64_t b3_ = VG_KECCAK_ROL64(A##15 ^ d0, 41);                                       \
            uint64_t b4_ = VG_KECCAK_ROL64(A##21 ^ d1, 2);                                        \
            uint64_t n_ = ~b1_;                                                                   \
            E##20 = b0_ ^ (n_ & b2_);                                                             \
            E##21 = n_ ^ (b2_ | b3_);                                                             \
            E##22 = b2_ ^ (b3_ & b4_);                                                            \
            E##23 = b3_ ^ (b4_ | b0_);                                                            \
            E##24 = b4_ ^ (b0_ & b1_);                                                            \
        }                                                                                         \
        E##00 ^= (rc); /* iota (Algorithm 6) */                                                   \
    } while (0)

/* Complement the six lanes of the pattern (on entry and on exit). */
#define VG_KECCAK_LC_FLIP(a01, a02, a08, a12, a17, a20)                                            \
    do {                                                                                           \
        a01 = ~a01, a02 = ~a02, a08 = ~a08, a12 = ~a12, a17 = ~a17, a20 = ~a20;                    \
    } while (0)

/*
 * Keccak-f[1600] = Keccak-p[1600, 24] (FIPS 202, Algorithm 7 and 3.4).
 * Pre: st holds the state in the standard representation (keccak.h).
 * Post: st holds the permuted state, standard representation. Constant time.
 */
static void keccak_permute_portable(uint64_t st[25])
{
    uint64_t a00 = st[0], a01 = st[1], a02 = st[2], a03 = st[3], a04 = st[4];
    uint64_t a05 = st[5], a06 = st[6], a07 = st[7], a08 = st[8], a09 = st[9];
    uint64_t a10 = st[10], a11 = st[11], a12 = st[12], a13 = st[13], a14 = st[14];
    uint64_t a15 = st[15], a16 = st[16], a17 = st[17], a18 = st[18], a19 = st[19];
    uint64_t a20 = st[20], a21 = st[21], a22 = st[22], a23 = st[23], a24 = st[24];
    uint64_t e00, e01, e02, e03, e04, e05, e06, e07, e08, e09, e10, e11, e12;
    uint64_t e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24;

    VG_KECCAK_LC_FLIP(a01, a02, a08, a12, a17, a20);
    for (int i = 0; i < 24; i += 2) {
        VG_KECCAK_LC_ROUND(a, e, vg_keccak_rc[i]);
        VG_KECCAK_LC_ROUND(e, a, vg_keccak_rc[i + 1]);
    }
    VG_KECCAK_LC_FLIP(a01, a02, a08, a12, a17, a20);

    st[0] = a00, st[1] = a01, st[2] = a02, st[3] = a03, st[4] = a04;
    st[5] = a05, st[6] = a06, st[7] = a07, st[8] = a08, st[9] = a09;
    st[10] = a10, st[11] = a11, st[12] = a12, st[13] = a13, st[14] = a14;
    st[15] = a15, st[16] = a16, st[17] = a17, st[18] = a18, st[19] = a19;
    st[20] = a20, st[21] = a21, st[22] = a22, st[23] = a23, st[24] = a24;
}

/*
 * The sponge's absorbing loop (FIPS 202, Algorithm 8, step 6): for each of
 * nblocks blocks of rate bytes, XOR it into the first rate/8 lanes and
 * permute. Pre: rate a multiple of 8, 8 <= rate <= 168; in holds
 * nblocks * rate bytes (unaligned is fine).
 */
static void keccak_absorb_portable(uint64_t st[25], const uint8_t *in, size_t nblocks, size_t rate)
{
    size_t lanes = rate / 8;
    while (nblocks--) {
        for (size_t i = 0; i < lanes; i++)
            st[i] ^= vg_load64_le(in + 8 * i);
        keccak_permute_portable(st);
        in += rate;
    }
}

static const struct vg_keccak_impl g_keccak_portable = {
    "portable",
    keccak_permute_portable,
    keccak_absorb_portable,
};

const struct vg_keccak_impl *vg_keccak_portable_get(void) { return &g_keccak_portable; }

#ifndef VG_X86_64
/* No x86-64 code in this build (VG_PORTABLE or another CPU). */
const struct vg_keccak_impl *vg_keccak_x86_get(void) { return NULL; }
const struct vg_keccak_impl *vg_keccak_avx512_get(void) { return NULL; }
#endif

/* The dispatch, called once per sponge (the context keeps the choice):
 * AVX-512VL when AVX512F and AVX512VL are active, else the BMI2 variant when
 * BMI2 is, else the portable code, the fastest first (on Zen 4; see
 * docs/benchmarks.md). Each _get checks the active feature mask, so this
 * follows VG_CPU_FEATURES and the vg_cpu_force test hook; valgrind hides
 * AVX-512, so the BMI2 code is what runs under it. */
const struct vg_keccak_impl *vg_keccak_active(void)
{
    const struct vg_keccak_impl *impl = vg_keccak_avx512_get();
    if (impl == NULL)
        impl = vg_keccak_x86_get();
    return impl ? impl : &g_keccak_portable;
}
