/*
 * Four-way Keccak-f[1600] round code shared by the AVX2 (keccak4x_avx2.c)
 * and AVX-512VL (keccak4x_avx512.c) permutations: a template included once
 * by each. Layout: one state per 64-bit element of a ymm register, lane i of
 * the four states in one register (st[4 i + j] is lane i of state j); one
 * round is written once as a macro and used twice per loop pass (A into E,
 * E into A). The including file defines, for __m256i values:
 *   VG_K4_ROL(x, n)        rotate each element left by n, 0 < n < 64;
 *   VG_K4_ROT8(x), VG_K4_ROT56(x)   the same for n = 8 and 56 (a byte
 *                          shuffle in AVX2);
 *   VG_K4_CHI(a, b, c)     a ^ (~b & c) (FIPS 202 Algorithm 4);
 *   VG_K4_XOR5(p, q, r, s, t)  the five-input XOR of theta's parities;
 *   VG_K4_PERMUTE          the name of the (static) function to define;
 *   VG_K4_EXTRACT          the name of the (static) squeeze-output function
 *                          (the extract hook of keccak4x.h) to define;
 *   VG_K4_PROLOGUE         declarations the primitives need (may be empty).
 * Constant time: no branch or memory index depends on the state.
 */
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(VG_K4_ROL) || !defined(VG_K4_ROT8) || !defined(VG_K4_ROT56) || !defined(VG_K4_CHI) || \
    !defined(VG_K4_XOR5) || !defined(VG_K4_PERMUTE) || !defined(VG_K4_EXTRACT) || !defined(VG_K4_PROLOGUE)
#error "define the VG_K4_ primitives first"
#endif

/* Round constants RC[ir] of iota (FIPS 202, Algorithms 5 and 6), in keccak.c. */
extern const uint64_t vg_keccak_rc[24];

/* One round Rnd(A, ir) (FIPS 202, 3.3): theta, then rho, pi and chi one
 * output plane at a time (output (x, y) reads input ((x + 3y) mod 5, x)),
 * then iota on lane 0. */
/* clang-format off */
#define VG_K4_ROUND(A, E, rc) \
    do { \
        __m256i c0_ = VG_K4_XOR5(A##0, A##5, A##10, A##15, A##20); \
        __m256i c1_ = VG_K4_XOR5(A##1, A##6, A##11, A##16, A##21); \
        __m256i c2_ = VG_K4_XOR5(A##2, A##7, A##12, A##17, A##22); \
        __m256i c3_ = VG_K4_XOR5(A##3, A##8, A##13, A##18, A##23); \
        __m256i c4_ = VG_K4_XOR5(A##4, A##9, A##14, A##19, A##24); \
        __m256i d0_ = _mm256_xor_si256(c4_, VG_K4_ROL(c1_, 1)); \
        __m256i d1_ = _mm256_xor_si256(c0_, VG_K4_ROL(c2_, 1)); \
        __m256i d2_ = _mm256_xor_si256(c1_, VG_K4_ROL(c3_, 1)); \
        __m256i d3_ = _mm256_xor_si256(c2_, VG_K4_ROL(c4_, 1)); \
        __m256i d4_ = _mm256_xor_si256(c3_, VG_K4_ROL(c0_, 1)); \
        __m256i b00_ = _mm256_xor_si256(A##0, d0_); \
        __m256i b01_ = VG_K4_ROL(_mm256_xor_si256(A##6, d1_), 44); \
        __m256i b02_ = VG_K4_ROL(_mm256_xor_si256(A##12, d2_), 43); \
        __m256i b03_ = VG_K4_ROL(_mm256_xor_si256(A##18, d3_), 21); \
        __m256i b04_ = VG_K4_ROL(_mm256_xor_si256(A##24, d4_), 14); \
        E##0 = VG_K4_CHI(b00_, b01_, b02_); \
        E##1 = VG_K4_CHI(b01_, b02_, b03_); \
        E##2 = VG_K4_CHI(b02_, b03_, b04_); \
        E##3 = VG_K4_CHI(b03_, b04_, b00_); \
        E##4 = VG_K4_CHI(b04_, b00_, b01_); \
        __m256i b10_ = VG_K4_ROL(_mm256_xor_si256(A##3, d3_), 28); \
        __m256i b11_ = VG_K4_ROL(_mm256_xor_si256(A##9, d4_), 20); \
        __m256i b12_ = VG_K4_ROL(_mm256_xor_si256(A##10, d0_), 3); \
        __m256i b13_ = VG_K4_ROL(_mm256_xor_si256(A##16, d1_), 45); \
        __m256i b14_ = VG_K4_ROL(_mm256_xor_si256(A##22, d2_), 61); \
        E##5 = VG_K4_CHI(b10_, b11_, b12_); \
        E##6 = VG_K4_CHI(b11_, b12_, b13_); \
        E##7 = VG_K4_CHI(b12_, b13_, b14_); \
        E##8 = VG_K4_CHI(b13_, b14_, b10_); \
        E##9 = VG_K4_CHI(b14_, b10_, b11_); \
        __m256i b20_ = VG_K4_ROL(_mm256_xor_si256(A##1, d1_), 1); \
        __m256i b21_ = VG_K4_ROL(_mm256_xor_si256(A##7, d2_), 6); \
        __m256i b22_ = VG_K4_ROL(_mm256_xor_si256(A##13, d3_), 25); \
        __m256i b23_ = VG_K4_ROT8(_mm256_xor_si256(A##19, d4_)); \
        __m256i b24_ = VG_K4_ROL(_mm256_xor_si256(A##20, d0_), 18); \
        E##10 = VG_K4_CHI(b20_, b21_, b22_); \
        E##11 = VG_K4_CHI(b21_, b22_, b23_); \
        E##12 = VG_K4_CHI(b22_, b23_, b24_); \
        E##13 = VG_K4_CHI(b23_, b24_, b20_); \
        E##14 = VG_K4_CHI(b24_, b20_, b21_); \
        __m256i b30_ = VG_K4_ROL(_mm256_xor_si256(A##4, d4_), 27); \
        __m256i b31_ = VG_K4_ROL(_mm256_xor_si256(A##5, d0_), 36); \
        __m256i b32_ = VG_K4_ROL(_mm256_xor_si256(A##11, d1_), 10); \
        __m256i b33_ = VG_K4_ROL(_mm256_xor_si256(A##17, d2_), 15); \
        __m256i b34_ = VG_K4_ROT56(_mm256_xor_si256(A##23, d3_)); \
        E##15 = VG_K4_CHI(b30_, b31_, b32_); \
        E##16 = VG_K4_CHI(b31_, b32_, b33_); \
        E##17 = VG_K4_CHI(b32_, b33_, b34_); \
        E##18 = VG_K4_CHI(b33_, b34_, b30_); \
        E##19 = VG_K4_CHI(b34_, b30_, b31_); \
        __m256i b40_ = VG_K4_ROL(_mm256_xor_si256(A##2, d2_), 62); \
        __m256i b41_ = VG_K4_ROL(_mm256_xor_si256(A##8, d3_), 55); \
        __m256i b42_ = VG_K4_ROL(_mm256_xor_si256(A##14, d4_), 39); \
        __m256i b43_ = VG_K4_ROL(_mm256_xor_si256(A##15, d0_), 41); \
        __m256i b44_ = VG_K4_ROL(_mm256_xor_si256(A##21, d1_), 2); \
        E##20 = VG_K4_CHI(b40_, b41_, b42_); \
        E##21 = VG_K4_CHI(b41_, b42_, b43_); \
        E##22 = VG_K4_CHI(b42_, b43_, b44_); \
        E##23 = VG_K4_CHI(b43_, b44_, b40_); \
        E##24 = VG_K4_CHI(b44_, b40_, b41_); \
        E##0 = _mm256_xor_si256(E##0, _mm256_set1_epi64x((long long)(rc))); \
    } while (0)
/* clang-format on */

/* The extract hook of keccak4x.h (squeeze output): four lanes of all four
 * instances are a 4x4 matrix of 64-bit words (row = lane, column =
 * instance) and the output of instance j is column j, so each group of four
 * lanes is one 4x4 transpose: VPUNPCKLQDQ/VPUNPCKHQDQ pair the rows within
 * 128-bit halves, VPERM2I128 swaps the halves, then one 32-byte store per
 * instance. The last words % 4 lanes go one word at a time. x86-64 is
 * little-endian, so the stores give the FIPS 202 B.1 byte order. */
static void VG_K4_EXTRACT(uint8_t *const out[4], const uint64_t st[100], size_t words)
{
    size_t i = 0;
    for (; i + 4 <= words; i += 4) {
        __m256i r0 = _mm256_loadu_si256((const __m256i *)(st + 4 * i));
        __m256i r1 = _mm256_loadu_si256((const __m256i *)(st + 4 * i + 4));
        __m256i r2 = _mm256_loadu_si256((const __m256i *)(st + 4 * i + 8));
        __m256i r3 = _mm256_loadu_si256((const __m256i *)(st + 4 * i + 12));
        __m256i t0 = _mm256_unpacklo_epi64(r0, r1); /* r0[0] r1[0] r0[2] r1[2] */
        __m256i t1 = _mm256_unpackhi_epi64(r0, r1); /* r0[1] r1[1] r0[3] r1[3] */
        __m256i t2 = _mm256_unpacklo_epi64(r2, r3); /* r2[0] r3[0] r2[2] r3[2] */
        __m256i t3 = _mm256_unpackhi_epi64(r2, r3); /* r2[1] r3[1] r2[3] r3[3] */
        _mm256_storeu_si256((__m256i *)(out[0] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x20));
        _mm256_storeu_si256((__m256i *)(out[1] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x20));
        _mm256_storeu_si256((__m256i *)(out[2] + 8 * i), _mm256_permute2x128_si256(t0, t2, 0x31));
        _mm256_storeu_si256((__m256i *)(out[3] + 8 * i), _mm256_permute2x128_si256(t1, t3, 0x31));
    }
    for (; i < words; i++)
        for (unsigned j = 0; j < 4; j++)
            memcpy(out[j] + 8 * i, st + 4 * i + j, 8);
}

/* Keccak-f[1600] on four states at once. Pre/post: st in the layout above. */
static void VG_K4_PERMUTE(uint64_t st[100])
{
    VG_K4_PROLOGUE
    __m256i a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24;
    __m256i e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24;
    a0 = _mm256_loadu_si256((const __m256i *)(st + 4 * 0));
    a1 = _mm256_loadu_si256((const __m256i *)(st + 4 * 1));
    a2 = _mm256_loadu_si256((const __m256i *)(st + 4 * 2));
    a3 = _mm256_loadu_si256((const __m256i *)(st + 4 * 3));
    a4 = _mm256_loadu_si256((const __m256i *)(st + 4 * 4));
    a5 = _mm256_loadu_si256((const __m256i *)(st + 4 * 5));
    a6 = _mm256_loadu_si256((const __m256i *)(st + 4 * 6));
    a7 = _mm256_loadu_si256((const __m256i *)(st + 4 * 7));
    a8 = _mm256_loadu_si256((const __m256i *)(st + 4 * 8));
    a9 = _mm256_loadu_si256((const __m256i *)(st + 4 * 9));
    a10 = _mm256_loadu_si256((const __m256i *)(st + 4 * 10));
    a11 = _mm256_loadu_si256((const __m256i *)(st + 4 * 11));
    a12 = _mm256_loadu_si256((const __m256i *)(st + 4 * 12));
    a13 = _mm256_loadu_si256((const __m256i *)(st + 4 * 13));
    a14 = _mm256_loadu_si256((const __m256i *)(st + 4 * 14));
    a15 = _mm256_loadu_si256((const __m256i *)(st + 4 * 15));
    a16 = _mm256_loadu_si256((const __m256i *)(st + 4 * 16));
    a17 = _mm256_loadu_si256((const __m256i *)(st + 4 * 17));
    a18 = _mm256_loadu_si256((const __m256i *)(st + 4 * 18));
    a19 = _mm256_loadu_si256((const __m256i *)(st + 4 * 19));
    a20 = _mm256_loadu_si256((const __m256i *)(st + 4 * 20));
    a21 = _mm256_loadu_si256((const __m256i *)(st + 4 * 21));
    a22 = _mm256_loadu_si256((const __m256i *)(st + 4 * 22));
    a23 = _mm256_loadu_si256((const __m256i *)(st + 4 * 23));
    a24 = _mm256_loadu_si256((const __m256i *)(st + 4 * 24));
    for (unsigned ir = 0; ir < 24; ir += 2) {
        VG_K4_ROUND(a, e, vg_keccak_rc[ir]);
        VG_K4_ROUND(e, a, vg_keccak_rc[ir + 1]);
    }
    _mm256_storeu_si256((__m256i *)(st + 4 * 0), a0);
    _mm256_storeu_si256((__m256i *)(st + 4 * 1), a1);
    _mm256_storeu_si256((__m256i *)(st + 4 * 2), a2);
    _mm256_storeu_si256((__m256i *)(st + 4 * 3), a3);
    _mm256_storeu_si256((__m256i *)(st + 4 * 4), a4);
    _mm256_storeu_si256((__m256i *)(st + 4 * 5), a5);
    _mm256_storeu_si256((__m256i *)(st + 4 * 6), a6);
    _mm256_storeu_si256((__m256i *)(st + 4 * 7), a7);
    _mm256_storeu_si256((__m256i *)(st + 4 * 8), a8);
    _mm256_storeu_si256((__m256i *)(st + 4 * 9), a9);
    _mm256_storeu_si256((__m256i *)(st + 4 * 10), a10);
    _mm256_storeu_si256((__m256i *)(st + 4 * 11), a11);
    _mm256_storeu_si256((__m256i *)(st + 4 * 12), a12);
    _mm256_storeu_si256((__m256i *)(st + 4 * 13), a13);
    _mm256_storeu_si256((__m256i *)(st + 4 * 14), a14);
    _mm256_storeu_si256((__m256i *)(st + 4 * 15), a15);
    _mm256_storeu_si256((__m256i *)(st + 4 * 16), a16);
    _mm256_storeu_si256((__m256i *)(st + 4 * 17), a17);
    _mm256_storeu_si256((__m256i *)(st + 4 * 18), a18);
    _mm256_storeu_si256((__m256i *)(st + 4 * 19), a19);
    _mm256_storeu_si256((__m256i *)(st + 4 * 20), a20);
    _mm256_storeu_si256((__m256i *)(st + 4 * 21), a21);
    _mm256_storeu_si256((__m256i *)(st + 4 * 22), a22);
    _mm256_storeu_si256((__m256i *)(st + 4 * 23), a23);
    _mm256_storeu_si256((__m256i *)(st + 4 * 24), a24);
}
