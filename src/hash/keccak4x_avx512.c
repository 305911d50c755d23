/*
 * Four-way Keccak-f[1600] in AVX-512VL (FIPS 202, Section 3): the layout and
 * round structure of keccak4x_avx2.c (one instance per 64-bit element of a
 * ymm register, lane i of the four states in one register, one round per
 * macro used twice per loop pass, A -> E and E -> A), with the instructions
 * AVX-512 adds to 256-bit registers (VL):
 *   - rho and theta's rotations are one VPROLQ each (AVX2 needs two shifts
 *     and an OR, or a byte shuffle for 8 and 56);
 *   - chi, a ^ (~b & c) (FIPS 202 Algorithm 4), is one VPTERNLOGQ with
 *     imm 0xD2: the immediate is the truth table indexed by
 *     (a << 2) | (b << 1) | c, and a ^ (~b & c) is 1 exactly at the indices
 *     1, 4, 6, 7 -> 0b11010010;
 *   - theta's five-lane column parities are two three-input XORs
 *     (VPTERNLOGQ imm 0x96, odd parity of the three inputs) instead of four
 *     XORs.
 * Per round: 29 rotations (5 in theta, 24 in rho) from 83 instructions to 29,
 * chi from 50 to 25, the column parities from 20 to 10; with the 30 other
 * XORs (theta's D and its application, iota) about 184 -> 95 vector
 * instructions a round.
 * The register width stays 256 bits: Zen 4 runs 512-bit operations as two
 * 256-bit halves, so an 8-way zmm form gives no more throughput per state
 * (measured: see vg_keccak4x_active in keccak4x.c), and callers are 4-way.
 * The round body is the AVX2 one with those substitutions; the tests compare
 * it with the single-state permutation on random states.
 *
 * Constant time: no branch or memory index depends on the state.
 * Needs: AVX-512F and AVX-512VL (the file is compiled with -mavx512f
 * -mavx512vl; called only when vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL)).
 * valgrind 3.19 cannot execute it (SIGILL on EVEX); under valgrind CPUID
 * hides AVX-512, so the dispatch never picks it there.
 */
#include <immintrin.h>

#include "common.h"
#include "keccak4x.h"

/* Round constants RC[ir] of iota (FIPS 202, Algorithms 5 and 6), in keccak.c. */
extern const uint64_t vg_keccak_rc[24];

/* Rotate each 64-bit element left by n (VPROLQ). */
#define VG_ROL(x, n) _mm256_rol_epi64((x), (n))
/* a ^ (~b & c): truth table 0xD2 over (a, b, c), see above. */
#define VG_CHI(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0xD2)
/* p ^ q ^ r: truth table 0x96. */
#define VG_XOR3(p, q, r) _mm256_ternarylogic_epi64((p), (q), (r), 0x96)
#define VG_XOR5(p, q, r, s, t) VG_XOR3(VG_XOR3(p, q, r), s, t)

/* clang-format off */
#define VG_KECCAK4X512_ROUND(A, E, rc) \
    do { \
        __m256i c0_ = VG_XOR5(A##0, A##5, A##10, A##15, A##20); \
        __m256i c1_ = VG_XOR5(A##1, A##6, A##11, A##16, A##21); \
        __m256i c2_ = VG_XOR5(A##2, A##7, A##12, A##17, A##22); \
        __m256i c3_ = VG_XOR5(A##3, A##8, A##13, A##18, A##23); \
        __m256i c4_ = VG_XOR5(A##4, A##9, A##14, A##19, A##24); \
        __m256i d0_ = _mm256_xor_si256(c4_, VG_ROL(c1_, 1)); \
        __m256i d1_ = _mm256_xor_si256(c0_, VG_ROL(c2_, 1)); \
        __m256i d2_ = _mm256_xor_si256(c1_, VG_ROL(c3_, 1)); \
        __m256i d3_ = _mm256_xor_si256(c2_, VG_ROL(c4_, 1)); \
        __m256i d4_ = _mm256_xor_si256(c3_, VG_ROL(c0_, 1)); \
        __m256i b00_ = _mm256_xor_si256(A##0, d0_); \
        __m256i b01_ = VG_ROL(_mm256_xor_si256(A##6, d1_), 44); \
        __m256i b02_ = VG_ROL(_mm256_xor_si256(A##12, d2_), 43); \
        __m256i b03_ = VG_ROL(_mm256_xor_si256(A##18, d3_), 21); \
        __m256i b04_ = VG_ROL(_mm256_xor_si256(A##24, d4_), 14); \
        E##0 = VG_CHI(b00_, b01_, b02_); \
        E##1 = VG_CHI(b01_, b02_, b03_); \
        E##2 = VG_CHI(b02_, b03_, b04_); \
        E##3 = VG_CHI(b03_, b04_, b00_); \
        E##4 = VG_CHI(b04_, b00_, b01_); \
        __m256i b10_ = VG_ROL(_mm256_xor_si256(A##3, d3_), 28); \
        __m256i b11_ = VG_ROL(_mm256_xor_si256(A##9, d4_), 20); \
        __m256i b12_ = VG_ROL(_mm256_xor_si256(A##10, d0_), 3); \
        __m256i b13_ = VG_ROL(_mm256_xor_si256(A##16, d1_), 45); \
        __m256i b14_ = VG_ROL(_mm256_xor_si256(A##22, d2_), 61); \
        E##5 = VG_CHI(b10_, b11_, b12_); \
        E##6 = VG_CHI(b11_, b12_, b13_); \
        E##7 = VG_CHI(b12_, b13_, b14_); \
        E##8 = VG_CHI(b13_, b14_, b10_); \
        E##9 = VG_CHI(b14_, b10_, b11_); \
        __m256i b20_ = VG_ROL(_mm256_xor_si256(A##1, d1_), 1); \
        __m256i b21_ = VG_ROL(_mm256_xor_si256(A##7, d2_), 6); \
        __m256i b22_ = VG_ROL(_mm256_xor_si256(A##13, d3_), 25); \
        __m256i b23_ = VG_ROL(_mm256_xor_si256(A##19, d4_), 8); \
        __m256i b24_ = VG_ROL(_mm256_xor_si256(A##20, d0_), 18); \
        E##10 = VG_CHI(b20_, b21_, b22_); \
        E##11 = VG_CHI(b21_, b22_, b23_); \
        E##12 = VG_CHI(b22_, b23_, b24_); \
        E##13 = VG_CHI(b23_, b24_, b20_); \
        E##14 = VG_CHI(b24_, b20_, b21_); \
        __m256i b30_ = VG_ROL(_mm256_xor_si256(A##4, d4_), 27); \
        __m256i b31_ = VG_ROL(_mm256_xor_si256(A##5, d0_), 36); \
        __m256i b32_ = VG_ROL(_mm256_xor_si256(A##11, d1_), 10); \
        __m256i b33_ = VG_ROL(_mm256_xor_si256(A##17, d2_), 15); \
        __m256i b34_ = VG_ROL(_mm256_xor_si256(A##23, d3_), 56); \
        E##15 = VG_CHI(b30_, b31_, b32_); \
        E##16 = VG_CHI(b31_, b32_, b33_); \
        E##17 = VG_CHI(b32_, b33_, b34_); \
        E##18 = VG_CHI(b33_, b34_, b30_); \
        E##19 = VG_CHI(b34_, b30_, b31_); \
        __m256i b40_ = VG_ROL(_mm256_xor_si256(A##2, d2_), 62); \
        __m256i b41_ = VG_ROL(_mm256_xor_si256(A##8, d3_), 55); \
        __m256i b42_ = VG_ROL(_mm256_xor_si256(A##14, d4_), 39); \
        __m256i b43_ = VG_ROL(_mm256_xor_si256(A##15, d0_), 41); \
        __m256i b44_ = VG_ROL(_mm256_xor_si256(A##21, d1_), 2); \
        E##20 = VG_CHI(b40_, b41_, b42_); \
        E##21 = VG_CHI(b41_, b42_, b43_); \
        E##22 = VG_CHI(b42_, b43_, b44_); \
        E##23 = VG_CHI(b43_, b44_, b40_); \
        E##24 = VG_CHI(b44_, b40_, b41_); \
        E##0 = _mm256_xor_si256(E##0, _mm256_set1_epi64x((long long)(rc))); \
    } while (0)

/* clang-format on */

static void keccak4x_permute_avx512(uint64_t st[100])
{
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
        VG_KECCAK4X512_ROUND(a, e, vg_keccak_rc[ir]);
        VG_KECCAK4X512_ROUND(e, a, vg_keccak_rc[ir + 1]);
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

static const struct vg_keccak4x_impl g_keccak4x_avx512 = {"avx512", keccak4x_permute_avx512};

const struct vg_keccak4x_impl *vg_keccak4x_avx512_get(void)
{
    return vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL) ? &g_keccak4x_avx512 : NULL;
}
