/*
 * Keccak-f[1600], portable 64-bit C (FIPS 202, Section 3), and the dispatch.
 *
 * Technique: the 25 lanes live in local variables; one round is written once
 * as a macro (theta, then rho + pi + chi + iota one output plane at a time)
 * and instantiated twice per loop iteration, A -> E then E -> A, so no lane
 * is ever copied. The permutation has no data-dependent branch or memory
 * index: it is constant time by construction.
 *
 * Lane complementing (Keccak implementation overview, 2.2), which would
 * save most of chi's 25 NOTs a round in builds without ANDN, has not been
 * tried yet; on x86-64 the BMI variant (keccak_x86.c) gets the same saving
 * from ANDN. Figures for both are in keccak_x86.c.
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

#define VG_KECCAK_ANDN(a, b) (~(a) & (b))
#define VG_KECCAK_PERMUTE keccak_permute_portable
#define VG_KECCAK_ABSORB keccak_absorb_portable
#include "keccak_impl.h"

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

/* The dispatch: AVX-512VL when AVX512F and AVX512VL are active, else the
 * BMI2 variant when BMI2 is, else the portable code. Each _get checks the
 * active feature mask on every call, so this follows VG_CPU_FEATURES and the
 * vg_cpu_force test hook.
 * Measured on this project's AMD Zen 4 (TSC ticks at 2596 MHz, medians of
 * 201 alternating runs in one process, library built Release by gcc 12 /
 * clang 14; SHAKE128 per 168-byte block, absorbing included):
 *                             bmi2          avx512vl      OpenSSL 3.0
 *   one permutation           ~652 / ~674   ~485 / ~514   -
 *   SHA3-256 of 1184 bytes    ~6050 / ~6140 ~4370 / ~4640 ~6410
 *   SHAKE128, 16 KiB in       ~669 / ~681   ~476 / ~509   ~727
 * so the AVX-512VL variant is the default where it runs (valgrind hides
 * AVX-512, so the BMI2 code is what runs under it). */
const struct vg_keccak_impl *vg_keccak_active(void)
{
    const struct vg_keccak_impl *impl = vg_keccak_avx512_get();
    if (impl == NULL)
        impl = vg_keccak_x86_get();
    return impl ? impl : &g_keccak_portable;
}
