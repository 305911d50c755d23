/*
 * Scalars of P-256, mod the group order
 * n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551
 * (SP 800-186 section 3.2.1), with BMI2/ADX Montgomery kernels in inline
 * assembly (mont_adx.h): static inline. Include only on x86-64, in files
 * compiled with -mbmi2 -madx, and call only when
 * vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX).
 *
 * Representation: four little-endian 64-bit words, Montgomery form with
 * R = 2^256, fully reduced: inputs in [0, n) give results in [0, n). The
 * output may alias any input. n has no special shape in its low words, so
 * each reduction multiplier is m = w0 * (-n^-1 mod 2^64) by IMUL and m n
 * takes four MULX.
 */
#ifndef VG_NIST_X86_64_SC256_ADX_H
#define VG_NIST_X86_64_SC256_ADX_H

#include <stdint.h>

#include "mont_adx.h"

static const uint64_t sc256_adx_n[4] = {0xf3b9cac2fc632551u, 0xbce6faada7179e84u,
                                        0xffffffffffffffffu, 0xffffffff00000000u};
/* -n^-1 mod 2^64 */
static const uint64_t sc256_adx_ninv = 0xccd1c8aaee00bc4fu;

/* void sc256_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 * r = a b R^-1 mod n. Contract: a, b in [0, n) -> r in [0, n); any
 * aliasing. (Beyond it, as the test checks: for any a, b < 2^256 the
 * result is congruent and below 2^256, and below n when a b < n 2^256.)
 * Registers: %[a], %[b], %[r] pointers; A0 .. A5 the rotating window of t;
 * lo, hi scratch; rdx the MULX multiplier, then m; n and -n^-1 are memory
 * operands. 11 registers plus rdx. Four rows of VG_MADX_ROW4, each followed
 * by VG_MADX_RED4 (bounds there); t = (A4, A5, A0, A1, A2) < 2n goes
 * through VG_MADX_FINAL4. */
static inline VG_MADX_INLINE void sc256_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t A[8];
    __asm__ volatile(VG_MADX_MUL4(VG_MADX_RED4)
                     VG_MADX_FINAL4("A4", "A5", "A0", "A1", "A2")
                     : VG_MADX_OUT4(A)
                     : [a] "r"(a), [b] "r"(b), [r] "r"(r), VG_MADX_MOD4(sc256_adx_n),
                       [ninv] "m"(sc256_adx_ninv)
                     : "rdx", "cc", "memory");
}

/* void sc256_sqr(uint64_t r[4], const uint64_t a[4]);
 * r = a^2 R^-1 mod n; a in [0, n) -> r in [0, n); r may alias a (the
 * multiplication kernel with b = a). */
static inline VG_MADX_INLINE void sc256_sqr(uint64_t r[4], const uint64_t a[4])
{
    sc256_mul(r, a, a);
}

#endif
