/*
 * Keccak-f[1600], one state, x86-64 with AVX-512VL (FIPS 202, Section 3).
 * Compiled with -mavx512f -mavx512vl (CMakeLists.txt); called only when
 * vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL).
 *
 * Layout: two lanes per xmm register, rows paired. For column x (0..4):
 *   Px0 = (lane (x,0), lane (x,1)),  Px1 = (lane (x,2), lane (x,3)),
 *   Px2 = (lane (x,4), 0)            (element 1 of Px2 is always zero),
 * element 0 first; lane (x, y) is st[x + 5y] (keccak.h). 15 registers.
 *
 * Why this pairing: chi (FIPS 202 Algorithm 4) combines lanes of one row
 * at x, x+1, x+2, so with rows paired in the same elements of every
 * column's registers, chi of two rows is 5 element-wise VPTERNLOGQ. theta's
 * D[x] is one value per column: applied to both elements alike. Only pi
 * (Algorithm 3) crosses the pairing: output (x, y) reads input lane
 * ((x + 3y) mod 5, x), so the pair (x, 2j), (x, 2j+1) of outputs reads two
 * lanes of input row x, which sit in the same element of two registers:
 * one VPUNPCKLQDQ/VPUNPCKHQDQ gathers them. The rho offsets differ per
 * element, hence VPROLVQ with a constant vector of offsets.
 *
 * One round Rnd(A, ir) (Section 3.3), per column x, as the code does it:
 *   t[x] = Px0 ^ Px1 ^ Px2           element 0: rows 0, 2, 4; element 1:
 *                                    rows 1, 3 (and the zero), so C[x] is
 *                                    t[x].0 ^ t[x].1 (Algorithm 1 step 1);
 *   u[x] = t[x-1] ^ rot(t[x+1], 1)   element-wise; D[x] = u[x].0 ^ u[x].1
 *                                    because rot is linear (step 2);
 *   Pxg ^= u[x] ^ swap(u[x])         D[x] in both elements, one
 *                                    VPTERNLOGQ per register (step 3);
 *   gather (pi), VPROLVQ (rho), chi by VPTERNLOGQ with imm 0xD2 (the truth
 *   table of a ^ (~b & c) over (a << 2) | (b << 1) | c is 1 exactly at
 *   indices 1, 4, 6, 7), iota on element 0 of P00.
 * The row-4 registers have element 1 zero at every round boundary: theta
 * sets it to D[x], but the gathers read only element 0 of them, and the
 * five row-4 rotations are zero-masking (element 1 cleared); chi of zeros
 * is zero. So the parity t needs no masking.
 * Count per round: 10 (t) + 10 (u) + 5 (swap) + 15 (theta applied) + 12
 * (gathers; three row-4 inputs are read in place) + 15
 * (rho) + 15 (chi) + 1 (iota) = 83 vector instructions for 25 lanes, plus
 * the register copies the destructive first operand of VPTERNLOGQ needs
 * (renamed, but they take dispatch slots).
 *
 * Why lane pairs: a CPU such as Zen 4 issues more VPTERNLOGQ/VPXOR than
 * VPROLQ/VPROLVQ per cycle, so halving the rotations is what pays most;
 * this form is faster on Zen 4 than the BMI2 code (keccak_x86.c) and than
 * one lane per xmm register (the scalar round with VPTERNLOGQ and VPROLQ,
 * 95 instructions a round, not kept); see docs/benchmarks.md. Also tried
 * and not kept: parity by VPTERNLOGQ without the early split into t/u (no
 * faster); a five-lane row per zmm with a 5x5 transpose of VPERMT2Q per
 * round (not built: the transpose puts three dependent zmm permutes, each
 * of several cycles' latency, on every round's critical path).
 *
 * absorb keeps the state in registers across blocks: each block is XORed
 * into the lane pairs straight from the caller's buffer, and the state goes
 * back to memory once, after the last block.
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

#if defined(VG_CT_MSAN)
/* MemorySanitizer 14 handles VPTERNLOGQ strictly (it reports any poisoned
 * operand and marks the result clean), so the MSan build spells the same two
 * functions with XOR and AND-NOT, which it propagates bit by bit
 * (docs/constant-time.md, "MemorySanitizer"). */
#define KP_XOR3(p, q, r) _mm_xor_si128(_mm_xor_si128((p), (q)), (r))
#define KP_CHI(a, b, c) _mm_xor_si128((a), _mm_andnot_si128((b), (c)))
#else
/* p ^ q ^ r: truth table 0x96. */
#define KP_XOR3(p, q, r) _mm_ternarylogic_epi64((p), (q), (r), 0x96)
/* a ^ (~b & c): truth table 0xD2 (see above). */
#define KP_CHI(a, b, c) _mm_ternarylogic_epi64((a), (b), (c), 0xD2)
#endif
/* (a.0, b.0) and (a.1, b.1). */
#define KP_LO(a, b) _mm_unpacklo_epi64((a), (b))
#define KP_HI(a, b) _mm_unpackhi_epi64((a), (b))
/* (a.1, a.0). */
#define KP_SWAP(a) _mm_shuffle_epi32((a), 0x4e)

/*
 * rho offsets (FIPS 202, Table 2) of the two input lanes each gathered
 * register holds, in the order the round uses them: g_rho[3x + g] for the
 * output register Ex g. Output (x, y) reads input lane ((x + 3y) mod 5, x),
 * so for g = 0 (rows 0, 1) the lanes (x, x) and (x+3, x), for g = 1 (rows
 * 2, 3) the lanes (x+1, x) and (x+4, x), for g = 2 the lane (x+2, x) and 0.
 * E.g. 3x + g = 3: lanes (1,1) and (4,1), offsets 44 and 20.
 */
static _Alignas(16) const uint64_t g_rho[15][2] = {
    {0, 28},  {1, 27}, {62, 0}, /* x = 0 */
    {44, 20}, {6, 36}, {55, 0}, /* x = 1 */
    {43, 3},  {25, 10}, {39, 0}, /* x = 2 */
    {21, 45}, {8, 15}, {41, 0}, /* x = 3 */
    {14, 61}, {18, 56}, {2, 0}, /* x = 4 */
};
#define KP_RHO(i) _mm_load_si128((const __m128i *)(const void *)g_rho[i])
#define KP_ROLV(v, i) _mm_rolv_epi64((v), KP_RHO(i))
/* Rotate element 0 only and zero element 1 (zero-masking, k = 0b01). */
#define KP_ROLV0(v, i) _mm_maskz_rolv_epi64(1, (v), KP_RHO(i))

/* One output register group (two rows, or row 4 and the zero) of chi from
 * its five gathered and rotated inputs b0..b4 (columns 0..4). */
#define KP_CHI_GROUP(E, g, b0, b1, b2, b3, b4)                                                     \
    do {                                                                                           \
        E##0##g = KP_CHI(b0, b1, b2);                                                              \
        E##1##g = KP_CHI(b1, b2, b3);                                                              \
        E##2##g = KP_CHI(b2, b3, b4);                                                              \
        E##3##g = KP_CHI(b3, b4, b0);                                                              \
        E##4##g = KP_CHI(b4, b0, b1);                                                              \
    } while (0)

/* theta steps 1-3 on column x (see the header): t = P##x0 ^ P##x1 ^ P##x2
 * by two non-destructive XORs (cheaper here than one VPTERNLOGQ plus the
 * copy it needs, as all three registers live on). */
#define KP_PARITY(P, x) _mm_xor_si128(_mm_xor_si128(P##x##0, P##x##1), P##x##2)
#define KP_APPLY(P, x, u, s)                                                                       \
    do {                                                                                           \
        P##x##0 = KP_XOR3(P##x##0, u, s);                                                          \
        P##x##1 = KP_XOR3(P##x##1, u, s);                                                          \
        P##x##2 = KP_XOR3(P##x##2, u, s);                                                          \
    } while (0)

/*
 * One round from the registers P##xg into E##xg, rc pointing at RC[ir].
 * After theta, the gathers: input row x is in register group x / 2 (row 4:
 * group 2), element x % 2 (row 4: element 0), so output register Ex g reads
 * with LO for even x and HI for odd x (table in g_rho's comment). For g = 2
 * one lane is needed: taken in place (even x) or moved down by HI with
 * itself (odd x); the zero-masking rotation then clears element 1, which
 * theta has set to D in the row-4 registers.
 */
#define KP_ROUND(P, E, rc)                                                                         \
    do {                                                                                           \
        __m128i t0 = KP_PARITY(P, 0), t1 = KP_PARITY(P, 1), t2 = KP_PARITY(P, 2);                  \
        __m128i t3 = KP_PARITY(P, 3), t4 = KP_PARITY(P, 4);                                        \
        __m128i u0 = _mm_xor_si128(t4, _mm_rol_epi64(t1, 1));                                      \
        __m128i u1 = _mm_xor_si128(t0, _mm_rol_epi64(t2, 1));                                      \
        __m128i u2 = _mm_xor_si128(t1, _mm_rol_epi64(t3, 1));                                      \
        __m128i u3 = _mm_xor_si128(t2, _mm_rol_epi64(t4, 1));                                      \
        __m128i u4 = _mm_xor_si128(t3, _mm_rol_epi64(t0, 1));                                      \
        KP_APPLY(P, 0, u0, KP_SWAP(u0));                                                           \
        KP_APPLY(P, 1, u1, KP_SWAP(u1));                                                           \
        KP_APPLY(P, 2, u2, KP_SWAP(u2));                                                           \
        KP_APPLY(P, 3, u3, KP_SWAP(u3));                                                           \
        KP_APPLY(P, 4, u4, KP_SWAP(u4));                                                           \
        KP_CHI_GROUP(E, 0, KP_ROLV(KP_LO(P##00, P##30), 0), KP_ROLV(KP_HI(P##10, P##40), 3),       \
                     KP_ROLV(KP_LO(P##21, P##01), 6), KP_ROLV(KP_HI(P##31, P##11), 9),             \
                     KP_ROLV(KP_LO(P##42, P##22), 12));                                            \
        E##00 = _mm_xor_si128(E##00, _mm_loadl_epi64((const __m128i *)(const void *)(rc)));       \
        KP_CHI_GROUP(E, 1, KP_ROLV(KP_LO(P##10, P##40), 1), KP_ROLV(KP_HI(P##20, P##00), 4),       \
                     KP_ROLV(KP_LO(P##31, P##11), 7), KP_ROLV(KP_HI(P##41, P##21), 10),            \
                     KP_ROLV(KP_LO(P##02, P##32), 13));                                            \
        KP_CHI_GROUP(E, 2, KP_ROLV0(P##20, 2), KP_ROLV0(KP_HI(P##30, P##30), 5),                   \
                     KP_ROLV0(P##41, 8), KP_ROLV0(KP_HI(P##01, P##01), 11), KP_ROLV0(P##12, 14));   \
    } while (0)
/* The iota constant is loaded with VMOVQ: (RC, 0), element 1 untouched. */

#define KP_DECLARE(P)                                                                              \
    __m128i P##00, P##01, P##02, P##10, P##11, P##12, P##20, P##21, P##22, P##30, P##31, P##32,    \
        P##40, P##41, P##42

/* 64-bit load into element 0 (element 1 zero); a pair of them. */
#define KP_LD1(p) _mm_loadl_epi64((const __m128i *)(const void *)(p))
#define KP_LD2(p, q) _mm_unpacklo_epi64(KP_LD1(p), KP_LD1(q))
#define KP_ST0(p, v) _mm_storel_epi64((__m128i *)(void *)(p), (v))
#define KP_ST1(p, v) _mm_storeh_pd((double *)(void *)(p), _mm_castsi128_pd(v))

#define KP_LOAD_COL(st, x)                                                                         \
    do {                                                                                           \
        a##x##0 = KP_LD2(st + x, st + x + 5);                                                      \
        a##x##1 = KP_LD2(st + x + 10, st + x + 15);                                                \
        a##x##2 = KP_LD1(st + x + 20);                                                             \
    } while (0)
#define KP_STORE_COL(st, x)                                                                        \
    do {                                                                                           \
        KP_ST0(st + x, a##x##0), KP_ST1(st + x + 5, a##x##0);                                      \
        KP_ST0(st + x + 10, a##x##1), KP_ST1(st + x + 15, a##x##1);                                \
        KP_ST0(st + x + 20, a##x##2);                                                              \
    } while (0)
#define KP_LOAD_STATE(st)                                                                          \
    do {                                                                                           \
        KP_LOAD_COL(st, 0);                                                                        \
        KP_LOAD_COL(st, 1);                                                                        \
        KP_LOAD_COL(st, 2);                                                                        \
        KP_LOAD_COL(st, 3);                                                                        \
        KP_LOAD_COL(st, 4);                                                                        \
    } while (0)
#define KP_STORE_STATE(st)                                                                         \
    do {                                                                                           \
        KP_STORE_COL(st, 0);                                                                       \
        KP_STORE_COL(st, 1);                                                                       \
        KP_STORE_COL(st, 2);                                                                       \
        KP_STORE_COL(st, 3);                                                                       \
        KP_STORE_COL(st, 4);                                                                       \
    } while (0)

/* The 24 rounds (Algorithm 7), a -> e -> a, two per pass. */
#define KP_ROUNDS                                                                                  \
    do {                                                                                           \
        for (int i_ = 0; i_ < 24; i_ += 2) {                                                       \
            KP_ROUND(a, e, &vg_keccak_rc[i_]);                                                     \
            KP_ROUND(e, a, &vg_keccak_rc[i_ + 1]);                                                 \
        }                                                                                          \
    } while (0)

/*
 * Keccak-f[1600] = Keccak-p[1600, 24] (FIPS 202, Algorithm 7 and 3.4).
 * Pre: st holds the state in the standard representation (keccak.h).
 * Post: st holds the permuted state. Constant time.
 */
static void keccak_permute_avx512(uint64_t st[25])
{
    KP_DECLARE(a);
    KP_DECLARE(e);
    KP_LOAD_STATE(st);
    KP_ROUNDS;
    KP_STORE_STATE(st);
}

/* XOR the input lanes i (element 0) and j (element 1) of the block at in
 * into register r, those of them below `lanes`; i < j. */
#define KP_XIN2(r, i, j)                                                                           \
    do {                                                                                           \
        if ((size_t)(j) < lanes)                                                                   \
            r = _mm_xor_si128(r, KP_LD2(in + 8 * (i), in + 8 * (j)));                              \
        else if ((size_t)(i) < lanes)                                                              \
            r = _mm_xor_si128(r, KP_LD1(in + 8 * (i)));                                            \
    } while (0)
#define KP_XIN1(r, i)                                                                              \
    do {                                                                                           \
        if ((size_t)(i) < lanes)                                                                   \
            r = _mm_xor_si128(r, KP_LD1(in + 8 * (i)));                                            \
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
    KP_DECLARE(a);
    KP_DECLARE(e);
    if (nblocks == 0)
        return;
    KP_LOAD_STATE(st);
    while (nblocks--) {
        KP_XIN2(a00, 0, 5);
        KP_XIN2(a10, 1, 6);
        KP_XIN2(a20, 2, 7);
        KP_XIN2(a30, 3, 8);
        KP_XIN2(a40, 4, 9);
        KP_XIN2(a01, 10, 15);
        KP_XIN2(a11, 11, 16);
        KP_XIN2(a21, 12, 17);
        KP_XIN2(a31, 13, 18);
        KP_XIN2(a41, 14, 19);
        KP_XIN1(a02, 20); /* lanes 21..24 are never in the rate */
        KP_ROUNDS;
        in += rate;
    }
    KP_STORE_STATE(st);
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
