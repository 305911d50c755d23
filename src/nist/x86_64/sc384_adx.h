/*
 * Scalars of P-384, mod the group order
 * n = 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf
 *       581a0db248b0a77aecec196accc52973
 * (SP 800-186 section 3.2.1), with BMI2/ADX Montgomery kernels in inline
 * assembly (mont_adx.h): static inline. Include only on x86-64, in files
 * compiled with -mbmi2 -madx, and call only when
 * vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX).
 *
 * Representation: six little-endian 64-bit words, Montgomery form with
 * R = 2^384, fully reduced: inputs in [0, n) give results in [0, n). The
 * output may alias any input. m = w0 * (-n^-1 mod 2^64) by IMUL; m n by six
 * MULX (the top three words of n are all ones, which a later version could
 * use).
 */
#ifndef VG_NIST_X86_64_SC384_ADX_H
#define VG_NIST_X86_64_SC384_ADX_H

#include <stdint.h>

#include "mont_adx.h"

static const uint64_t sc384_adx_n[6] = {0xecec196accc52973u, 0x581a0db248b0a77au,
                                        0xc7634d81f4372ddfu, 0xffffffffffffffffu,
                                        0xffffffffffffffffu, 0xffffffffffffffffu};
/* -n^-1 mod 2^64 */
static const uint64_t sc384_adx_ninv = 0x6ed46089e88fdc45u;

/* void sc384_mul(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
 * r = a b R^-1 mod n. Contract: a, b in [0, n) -> r in [0, n); any
 * aliasing. (Beyond it, as the test checks: for any a, b < 2^384 the
 * result is congruent and below 2^384, and below n when a b < n 2^384.)
 * Registers: %[a], %[b], %[r] pointers; A0 .. A7 the rotating window of t;
 * lo, hi scratch; rdx the MULX multiplier, then m; n and -n^-1 are memory
 * operands. 13 registers plus rdx. Six rows of VG_MADX_ROW6, each followed
 * by VG_MADX_RED6 (bounds there); t = (A6, A7, A0, A1, A2, A3, A4) < 2n
 * goes through VG_MADX_FINAL6. */
static inline VG_MADX_INLINE void sc384_mul(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t A[10];
    __asm__ volatile(VG_MADX_MUL6(VG_MADX_RED6)
                     VG_MADX_FINAL6("A6", "A7", "A0", "A1", "A2", "A3", "A4")
                     : VG_MADX_OUT6(A)
                     : [a] "r"(a), [b] "r"(b), [r] "r"(r), VG_MADX_MOD6(sc384_adx_n),
                       [ninv] "m"(sc384_adx_ninv)
                     : "rdx", "cc", "memory");
}

/* void sc384_sqr(uint64_t r[6], const uint64_t a[6]);
 * r = a^2 R^-1 mod n; a in [0, n) -> r in [0, n); r may alias a (the
 * multiplication kernel with b = a). */
static inline VG_MADX_INLINE void sc384_sqr(uint64_t r[6], const uint64_t a[6])
{
    sc384_mul(r, a, a);
}

#endif
