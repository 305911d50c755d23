/*
 * Keccak-f[1600], x86-64 scalar with BMI1/BMI2 (FIPS 202, Section 3).
 * Compiled with -mbmi -mbmi2 (CMakeLists.txt); called only when the CPU
 * has BMI2.
 *
 * Technique: the same round code as the portable twin (keccak_impl.h, the
 * lanes in registers, two rounds per pass), but chi's ~b & c is one ANDN (BMI1,
 * _andn_u64) instead of NOT + AND, and the rotations become RORX (BMI2),
 * which do not overwrite their source. The permutation is about 155 ALU
 * operations a round, so it runs at the 4 integer ALUs' throughput; ANDN
 * removes 25 of them a round. Faster than the portable code on Zen 4; see
 * docs/benchmarks.md.
 *
 * The AVX-512VL variant (keccak_avx512.c: lanes paired in xmm registers,
 * VPTERNLOGQ, VPROLVQ) is faster where it runs and is the default there;
 * this file remains the choice without AVX-512 and under valgrind, which
 * cannot execute EVEX instructions.
 *
 * BMI1 has no bit of its own in the feature mask (common.h); every CPU
 * that implements BMI2 also implements BMI1 (Intel since Haswell, AMD since
 * Excavator), so VG_CPU_BMI2 gates both.
 */
#include <string.h>

#include "common.h"
#include "keccak.h"

#ifdef VG_X86_64
#include <immintrin.h>

/* chi's ~b & c is one ANDN (BMI1). */
#define VG_KECCAK_ANDN(a, b) _andn_u64((a), (b))
#define VG_KECCAK_PERMUTE keccak_permute_bmi2
#define VG_KECCAK_ABSORB keccak_absorb_bmi2
#include "keccak_impl.h"

static const struct vg_keccak_impl g_keccak_bmi2 = {
    .name = "bmi2",
    .permute = keccak_permute_bmi2,
    .absorb = keccak_absorb_bmi2,
};

/* The same permutation for the four-way "bmi2" variant (keccak4x.c), which
 * checks the feature itself in its _get. */
void vg_keccak_permute_bmi2(uint64_t st[25]) { keccak_permute_bmi2(st); }

const struct vg_keccak_impl *vg_keccak_x86_get(void)
{
    return vg_cpu_has(VG_CPU_BMI2) ? &g_keccak_bmi2 : NULL;
}
#endif /* VG_X86_64 */
