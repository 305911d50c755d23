/*
 * Keccak-f[1600], one state, x86-64 with AVX-512VL (FIPS 202, Section 3).
 * Compiled with -mavx512f -mavx512vl (CMakeLists.txt); called only when
 * vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL).
 *
 * Technique: the round structure of the scalar code (keccak_impl.h: the 25
 * lanes in 25 variables, two rounds per loop pass, A -> E and E -> A), but
 * each lane lives in element 0 of its own xmm register (AVX-512VL gives 32
 * of them), so the instructions AVX-512 adds to 128-bit registers apply:
 *   - chi, a ^ (~b & c) (FIPS 202 Algorithm 4), is one VPTERNLOGQ with imm
 *     0xD2 (the truth table over (a << 2) | (b << 1) | c is 1 exactly at
 *     indices 1, 4, 6, 7);
 *   - theta's column parities are two three-input XORs each (VPTERNLOGQ imm
 *     0x96) instead of four XORs;
 *   - every rotation is one VPROLQ.
 * Per round: 10 (parities) + 5 (rotations of the parities) + 5 (D) + 25
 * (D applied) + 24 (rho) + 25 (chi) + 1 (iota) = 95 vector instructions,
 * against about 155 integer instructions for the BMI2 code, plus the
 * register copies VPTERNLOGQ's destructive first operand costs (renamed
 * away, but they take dispatch slots).
 * What limits it on Zen 4 (measured with throwaway variants): the rotations.
 * Zen 4 issues four VPTERNLOGQ/VPXOR a cycle but only two VPROLQ (measured
 * on independent xmm operations); with
 * the 24 rho rotations left out (a wrong permutation, timing only) a
 * permutation took ~420 instead of ~550 TSC ticks. Variants that did not
 * help: theta applied as one VPTERNLOGQ (A ^ c[x-1] ^ rot(c[x+1])) without
 * the D values (10 live parity registers instead of 5: spills, slower),
 * chi as VPANDN + VPXOR, next-round parities accumulated as rows complete
 * (both within the noise).
 * Packed layouts (a row of five lanes in a zmm, or four in a ymm) need far
 * fewer instructions, but pi then moves lanes between registers: a 5x5
 * transpose of two-source permutes (VPERMT2Q) every round, with chi's lane
 * shifts or theta's needing more permutes; on Zen 4 a dependent zmm VPERMQ
 * takes about 5 cycles (measured), so the round's critical path (theta's
 * permute, pi's, and the transpose's three levels) alone would cost about
 * as much as this whole round. Not built.
 * Figures against the BMI2 code and OpenSSL: see vg_keccak_active in
 * keccak.c.
 *
 * absorb keeps the state in registers across blocks: each block is XORed
 * into the lane registers straight from the caller's buffer (VMOVQ loads),
 * and the state goes back to memory once, after the last block.
 *
 * Constant time: no branch or memory index depends on the state or the
 * input bytes (absorb's branches depend only on rate and nblocks).
 * valgrind 3.19 cannot execute EVEX instructions (SIGILL) and, under
 * valgrind, CPUID hides AVX-512, so the dispatch never picks this variant
 * there; tests/ct/test_dudect.c covers it statistically.
 */
#include <string.h>

#include "common.h"
#include "keccak.h"

#ifdef VG_X86_64
#include <immintrin.h>

/* Round constants RC[ir] of iota (FIPS 202, Algorithms 5 and 6), in keccak.c. */
extern const uint64_t vg_keccak_rc[24];

/* Element 0 of an xmm holds the lane; element 1 is don't-care (kept zero by
 * the loads, and every operation is element-wise, so it stays zero). */
#define K5_LOAD(p) _mm_loadl_epi64((const __m128i *)(const void *)(p))
#define K5_STORE(p, v) _mm_storel_epi64((__m128i *)(void *)(p), (v))
/* Rotate left by the constant n in 1..63 (VPROLQ). */
#define K5_ROL(x, n) _mm_rol_epi64((x), (n))
/* p ^ q ^ r: truth table 0x96. */
#define K5_XOR3(p, q, r) _mm_ternarylogic_epi64((p), (q), (r), 0x96)
/* a ^ (~b & c): truth table 0xD2 (see above). */
#define K5_CHI(a, b, c) _mm_ternarylogic_epi64((a), (b), (c), 0xD2)

/*
 * One output plane (row y) of rho, pi and chi (Algorithms 2-4): input i is
 * the lane pi moves to (i, y), d its theta D value, r its rho offset (FIPS
 * 202, Table 2). The first lane of row 0 has offset 0: it has its own macro.
 */
#define K5_ROW(o0, o1, o2, o3, o4, b0, i1, d1, r1, i2, d2, r2, i3, d3, r3, i4, d4, r4)                \
    do {                                                                                           \
        __m128i b1_ = K5_ROL(_mm_xor_si128(i1, d1), r1);                                           \
        __m128i b2_ = K5_ROL(_mm_xor_si128(i2, d2), r2);                                           \
        __m128i b3_ = K5_ROL(_mm_xor_si128(i3, d3), r3);                                           \
        __m128i b4_ = K5_ROL(_mm_xor_si128(i4, d4), r4);                                           \
        o0 = K5_CHI(b0, b1_, b2_);                                                                 \
        o1 = K5_CHI(b1_, b2_, b3_);                                                                \
        o2 = K5_CHI(b2_, b3_, b4_);                                                                \
        o3 = K5_CHI(b3_, b4_, b0);                                                                 \
        o4 = K5_CHI(b4_, b0, b1_);                                                                 \
    } while (0)
#define K5_ROWR(o0, o1, o2, o3, o4, i0, d0, r0, i1, d1, r1, i2, d2, r2, i3, d3, r3, i4, d4, r4)       \
    do {                                                                                           \
        __m128i b0_ = K5_ROL(_mm_xor_si128(i0, d0), r0);                                           \
        K5_ROW(o0, o1, o2, o3, o4, b0_, i1, d1, r1, i2, d2, r2, i3, d3, r3, i4, d4, r4);            \
    } while (0)

/*
 * One round Rnd(A, ir) (FIPS 202, Section 3.3) from A##xy into E##xy, lane
 * (x, y) named by index x + 5y, rc pointing at RC[ir]. theta (Algorithm 1):
 * cx is the parity of column x, dx = c(x-1) ^ rot(c(x+1), 1). pi (Algorithm
 * 3) puts lane (x', y') at (y', 2x' + 3y'), so output (x, y) reads input
 * ((x + 3y) mod 5, x): the index lists below.
 */
#define K5_ROUND(A, E, rc)                                                                         \
    do {                                                                                           \
        __m128i c0 = K5_XOR3(K5_XOR3(A##00, A##05, A##10), A##15, A##20);                          \
        __m128i c1 = K5_XOR3(K5_XOR3(A##01, A##06, A##11), A##16, A##21);                          \
        __m128i c2 = K5_XOR3(K5_XOR3(A##02, A##07, A##12), A##17, A##22);                          \
        __m128i c3 = K5_XOR3(K5_XOR3(A##03, A##08, A##13), A##18, A##23);                          \
        __m128i c4 = K5_XOR3(K5_XOR3(A##04, A##09, A##14), A##19, A##24);                          \
        __m128i d0 = _mm_xor_si128(c4, K5_ROL(c1, 1));                                             \
        __m128i d1 = _mm_xor_si128(c0, K5_ROL(c2, 1));                                             \
        __m128i d2 = _mm_xor_si128(c1, K5_ROL(c3, 1));                                             \
        __m128i d3 = _mm_xor_si128(c2, K5_ROL(c4, 1));                                             \
        __m128i d4 = _mm_xor_si128(c3, K5_ROL(c0, 1));                                             \
        __m128i b00 = _mm_xor_si128(A##00, d0); /* rho offset 0 */                                 \
        K5_ROW(E##00, E##01, E##02, E##03, E##04, b00, A##06, d1, 44, A##12, d2, 43, A##18, d3,    \
               21, A##24, d4, 14);                                                                 \
        E##00 = _mm_xor_si128(E##00, K5_LOAD(rc)); /* iota (Algorithm 6) */                        \
        K5_ROWR(E##05, E##06, E##07, E##08, E##09, A##03, d3, 28, A##09, d4, 20, A##10, d0, 3,     \
                A##16, d1, 45, A##22, d2, 61);                                                     \
        K5_ROWR(E##10, E##11, E##12, E##13, E##14, A##01, d1, 1, A##07, d2, 6, A##13, d3, 25,      \
                A##19, d4, 8, A##20, d0, 18);                                                      \
        K5_ROWR(E##15, E##16, E##17, E##18, E##19, A##04, d4, 27, A##05, d0, 36, A##11, d1, 10,    \
                A##17, d2, 15, A##23, d3, 56);                                                     \
        K5_ROWR(E##20, E##21, E##22, E##23, E##24, A##02, d2, 62, A##08, d3, 55, A##14, d4, 39,    \
                A##15, d0, 41, A##21, d1, 2);                                                      \
    } while (0)

/* Declarations, load and store of the 25 lane registers a00..a24 (and the
 * 25 registers e00..e24 of the odd rounds). */
#define K5_DECLARE                                                                                 \
    __m128i a00, a01, a02, a03, a04, a05, a06, a07, a08, a09, a10, a11, a12;                       \
    __m128i a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24;                            \
    __m128i e00, e01, e02, e03, e04, e05, e06, e07, e08, e09, e10, e11, e12;                       \
    __m128i e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24
#define K5_LOAD_STATE(st)                                                                          \
    do {                                                                                           \
        a00 = K5_LOAD(st + 0), a01 = K5_LOAD(st + 1), a02 = K5_LOAD(st + 2);                       \
        a03 = K5_LOAD(st + 3), a04 = K5_LOAD(st + 4), a05 = K5_LOAD(st + 5);                       \
        a06 = K5_LOAD(st + 6), a07 = K5_LOAD(st + 7), a08 = K5_LOAD(st + 8);                       \
        a09 = K5_LOAD(st + 9), a10 = K5_LOAD(st + 10), a11 = K5_LOAD(st + 11);                     \
        a12 = K5_LOAD(st + 12), a13 = K5_LOAD(st + 13), a14 = K5_LOAD(st + 14);                    \
        a15 = K5_LOAD(st + 15), a16 = K5_LOAD(st + 16), a17 = K5_LOAD(st + 17);                    \
        a18 = K5_LOAD(st + 18), a19 = K5_LOAD(st + 19), a20 = K5_LOAD(st + 20);                    \
        a21 = K5_LOAD(st + 21), a22 = K5_LOAD(st + 22), a23 = K5_LOAD(st + 23);                    \
        a24 = K5_LOAD(st + 24);                                                                    \
    } while (0)
#define K5_STORE_STATE(st)                                                                         \
    do {                                                                                           \
        K5_STORE(st + 0, a00), K5_STORE(st + 1, a01), K5_STORE(st + 2, a02);                       \
        K5_STORE(st + 3, a03), K5_STORE(st + 4, a04), K5_STORE(st + 5, a05);                       \
        K5_STORE(st + 6, a06), K5_STORE(st + 7, a07), K5_STORE(st + 8, a08);                       \
        K5_STORE(st + 9, a09), K5_STORE(st + 10, a10), K5_STORE(st + 11, a11);                     \
        K5_STORE(st + 12, a12), K5_STORE(st + 13, a13), K5_STORE(st + 14, a14);                    \
        K5_STORE(st + 15, a15), K5_STORE(st + 16, a16), K5_STORE(st + 17, a17);                    \
        K5_STORE(st + 18, a18), K5_STORE(st + 19, a19), K5_STORE(st + 20, a20);                    \
        K5_STORE(st + 21, a21), K5_STORE(st + 22, a22), K5_STORE(st + 23, a23);                    \
        K5_STORE(st + 24, a24);                                                                    \
    } while (0)
/* The 24 rounds (Algorithm 7), a -> e -> a, two per pass. */
#define K5_ROUNDS                                                                                  \
    do {                                                                                           \
        for (int i_ = 0; i_ < 24; i_ += 2) {                                                       \
            K5_ROUND(a, e, &vg_keccak_rc[i_]);                                                     \
            K5_ROUND(e, a, &vg_keccak_rc[i_ + 1]);                                                 \
        }                                                                                          \
    } while (0)

/*
 * Keccak-f[1600] = Keccak-p[1600, 24] (FIPS 202, Algorithm 7 and 3.4).
 * Pre: st holds the state in the standard representation (keccak.h).
 * Post: st holds the permuted state. Constant time.
 */
static void keccak_permute_avx512(uint64_t st[25])
{
    K5_DECLARE;
    K5_LOAD_STATE(st);
    K5_ROUNDS;
    K5_STORE_STATE(st);
}

/* XOR lane i of the block at in into a##i when the rate covers it. */
#define K5_XIN(i, n)                                                                               \
    do {                                                                                           \
        if ((n) < lanes)                                                                           \
            a##i = _mm_xor_si128(a##i, K5_LOAD(in + 8 * (n)));                                     \
    } while (0)

/*
 * The sponge's absorbing loop (FIPS 202, Algorithm 8, step 6): for each of
 * nblocks blocks of rate bytes, XOR it into the first rate/8 lanes and
 * permute. Pre: rate a multiple of 8, 8 <= rate <= 168 (at most 21 lanes);
 * in holds nblocks * rate bytes (unaligned is fine). Post: st permuted
 * nblocks times. The state stays in registers between blocks.
 */
static void keccak_absorb_avx512(uint64_t st[25], const uint8_t *in, size_t nblocks, size_t rate)
{
    size_t lanes = rate / 8;
    K5_DECLARE;
    if (nblocks == 0)
        return;
    K5_LOAD_STATE(st);
    while (nblocks--) {
        a00 = _mm_xor_si128(a00, K5_LOAD(in)); /* rate >= 8: lane 0 always */
        K5_XIN(01, 1); K5_XIN(02, 2); K5_XIN(03, 3); K5_XIN(04, 4); K5_XIN(05, 5);
        K5_XIN(06, 6); K5_XIN(07, 7); K5_XIN(08, 8); K5_XIN(09, 9); K5_XIN(10, 10);
        K5_XIN(11, 11); K5_XIN(12, 12); K5_XIN(13, 13); K5_XIN(14, 14); K5_XIN(15, 15);
        K5_XIN(16, 16); K5_XIN(17, 17); K5_XIN(18, 18); K5_XIN(19, 19); K5_XIN(20, 20);
        K5_ROUNDS;
        in += rate;
    }
    K5_STORE_STATE(st);
}

static const struct vg_keccak_impl g_keccak_avx512 = {
    "avx512vl",
    keccak_permute_avx512,
    keccak_absorb_avx512,
};

const struct vg_keccak_impl *vg_keccak_avx512_get(void)
{
    return vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL) ? &g_keccak_avx512 : NULL;
}
#endif /* VG_X86_64 */
