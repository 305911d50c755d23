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
 * 256-bit halves, so an 8-way zmm form gave no more throughput per state
 * there (docs/benchmarks.md), and callers are 4-way.
 * The round body is the AVX2 one with those substitutions; the tests compare
 * it with the single-state permutation on random states.
 *
 * Constant time: no branch or memory index depends on the state.
 * Needs: AVX-512F and AVX-512VL (the file is compiled with -mavx512f
 * -mavx512vl; called only when vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL)).
 * valgrind 3.19 cannot execute it (SIGILL on EVEX); under valgrind CPUID
 * hides AVX-512, so the dispatch never picks it there.
 */
/* gcc 12's register allocator, in its default regional mode (-fira-region=
 * mixed), treats the two-round loop as a region of its own and spills about
 * ten ymm values per pass (the round keeps 30-32 of the 32 registers live:
 * 25 lanes, theta's five D values, chi's two input copies per plane); one
 * allocation over the whole function (-fira-region=one, a documented gcc
 * option) spills less and places the rest better, and is faster with gcc
 * (clang ignores the pragma and has its own allocator); see
 * docs/benchmarks.md. Applying D to all 25 lanes before rho/pi (fewer live
 * values) was tried as well and was no faster with either compiler, so the
 * round stays as it is. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("ira-region=one")
#endif

#include <immintrin.h>

#include "common.h"
#include "keccak4x.h"

/* Rotate each 64-bit element left by n (VPROLQ), also for 8 and 56. */
#define VG_K4_ROL(x, n) _mm256_rol_epi64((x), (n))
#define VG_K4_ROT8(x) VG_K4_ROL(x, 8)
#define VG_K4_ROT56(x) VG_K4_ROL(x, 56)
#if defined(VG_CT_MSAN)
/* MemorySanitizer 14 handles VPTERNLOGQ strictly (it reports any poisoned
 * operand and marks the result clean), so the MSan build spells the same two
 * functions with AND-NOT and XOR, which it propagates bit by bit
 * (docs/constant-time.md, "MemorySanitizer"). */
#define VG_K4_CHI(a, b, c) _mm256_xor_si256((a), _mm256_andnot_si256((b), (c)))
#define VG_XOR3(p, q, r) _mm256_xor_si256(_mm256_xor_si256((p), (q)), (r))
#else
/* a ^ (~b & c): truth table 0xD2 over (a, b, c), see above. */
#define VG_K4_CHI(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0xD2)
/* p ^ q ^ r: truth table 0x96. */
#define VG_XOR3(p, q, r) _mm256_ternarylogic_epi64((p), (q), (r), 0x96)
#endif
#define VG_K4_XOR5(p, q, r, s, t) VG_XOR3(VG_XOR3(p, q, r), s, t)
#define VG_K4_PERMUTE keccak4x_permute_avx512
#define VG_K4_EXTRACT keccak4x_extract_avx512
#define VG_K4_PROLOGUE
#include "keccak4x_impl.h"

static const struct vg_keccak4x_impl g_keccak4x_avx512 = {
    .name = "avx512",
    .permute = keccak4x_permute_avx512,
    .extract = keccak4x_extract_avx512,
    .permute_one = NULL, /* SIMD: all four lanes at once */
};

const struct vg_keccak4x_impl *vg_keccak4x_avx512_get(void)
{
    return vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL) ? &g_keccak4x_avx512 : NULL;
}
