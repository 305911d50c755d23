/*
 * Four-way Keccak-f[1600] in AVX2 (FIPS 202, Section 3): one instance per
 * 64-bit element of a ymm register, lane i of the four states in one
 * register (the layout of keccak4x.h), so every step of a round is one
 * vector instruction for all four states.
 *
 * Technique: as in keccak.c, one round is a macro (theta, then rho + pi +
 * chi + iota one output plane at a time) used twice per loop pass, A -> E
 * and E -> A, so no lane is copied. AVX2 has no 64-bit rotate: a rotation
 * is two shifts and an OR, except by 8 and 56 (byte-aligned), which are one
 * byte shuffle. chi's ~b & c is VPANDN. The round body below was written
 * out by a small script from the FIPS 202 rho offsets (Table 2) and the pi
 * index map (Algorithm 3); the tests compare it with the single-state
 * permutation on random states.
 *
 * Constant time: no branch or memory index depends on the state.
 * Needs: AVX2 (the file is compiled with -mavx2; called only when
 * vg_cpu_has(VG_CPU_AVX2)). Runs under valgrind 3.19.
 */
#include <immintrin.h>

#include "common.h"
#include "keccak4x.h"

/* Rotate each 64-bit element left by n: two shifts and an OR. */
#define VG_K4_ROL(x, n) _mm256_or_si256(_mm256_slli_epi64((x), (n)), _mm256_srli_epi64((x), 64 - (n)))
/* Byte-aligned rotations: each 8-byte element's bytes moved by one place. */
#define VG_K4_ROT8(x) _mm256_shuffle_epi8((x), rot8_idx)
#define VG_K4_ROT56(x) _mm256_shuffle_epi8((x), rot56_idx)
#define VG_K4_CHI(a, b, c) _mm256_xor_si256((a), _mm256_andnot_si256((b), (c)))
#define VG_K4_XOR5(p, q, r, s, t)                                                                  \
    _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(p, q), _mm256_xor_si256(r, s)), t)
#define VG_K4_PERMUTE keccak4x_permute_avx2
#define VG_K4_EXTRACT keccak4x_extract_avx2
/* clang-format off */
#define VG_K4_PROLOGUE \
    /* rotl 8: output byte k of an element comes from input byte k - 1. */ \
    const __m256i rot8_idx = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, \
                                              7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14); \
    /* rotl 56 = rotr 8: output byte k comes from input byte k + 1. */ \
    const __m256i rot56_idx = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, \
                                               1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8);
/* clang-format on */
#include "keccak4x_impl.h"

static const struct vg_keccak4x_impl g_keccak4x_avx2 = {
    .name = "avx2",
    .permute = keccak4x_permute_avx2,
    .extract = keccak4x_extract_avx2,
    .permute_one = NULL, /* SIMD: all four lanes at once */
};

const struct vg_keccak4x_impl *vg_keccak4x_avx2_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2) ? &g_keccak4x_avx2 : NULL;
}
