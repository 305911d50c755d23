/*
 * The field of P-384, p = 2^384 - 2^128 - 2^96 + 2^32 - 1 (SP 800-186
 * section 3.2.1), with BMI2/ADX kernels in inline assembly: static inline,
 * so the point formulas inline them. Include only on x86-64, in files
 * compiled with -mbmi2 -madx, and call only when
 * vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX).
 *
 * Representation: six little-endian 64-bit words, Montgomery form with
 * R = 2^384, fully reduced: every kernel takes inputs in [0, p) and returns
 * its result in [0, p). The output may alias any input (r is written only
 * after the last read of the inputs).
 *
 * Reduction: Montgomery (mont_adx.h). p = 2^32 - 1 mod 2^64, so
 * -p^-1 mod 2^64 = 2^32 + 1 and m = w0 + (w0 << 32) takes a shift and an
 * add instead of an IMUL; the six words of p are multiplied by MULX. The
 * shape of p would also allow m p from shifts (three of its words are all
 * ones, so m p3..p5 = m 2^64 - m), or a special (Solinas) reduction of the
 * 768-bit product; either could be tried; nothing here has been timed.
 */
#ifndef VG_NIST_X86_64_FE384_ADX_H
#define VG_NIST_X86_64_FE384_ADX_H

#include <stdint.h>

#include "mont_adx.h"

static const uint64_t fe384_adx_p[6] = {0x00000000ffffffffu, 0xffffffff00000000u,
                                        0xfffffffffffffffeu, 0xffffffffffffffffu,
                                        0xffffffffffffffffu, 0xffffffffffffffffu};

/* One reduction step for p384 (the RED argument of VG_MADX_MUL6).
 * m = w0 (2^32 + 1) mod 2^64 = w0 * (-p^-1) mod 2^64, then
 * (w0 .. w7) += m p by VG_MADX_RED6_BODY (bounds there). */
#define FE384_ADX_RED(w0, w1, w2, w3, w4, w5, w6, w7)                                            \
    "movq %[" w0 "], %%rdx\n\t"                                                                  \
    "shlq $32, %%rdx\n\t"                                                                        \
    "addq %[" w0 "], %%rdx\n\t" /* m = w0 + w0 2^32 mod 2^64 */                                  \
    VG_MADX_RED6_BODY(w0, w1, w2, w3, w4, w5, w6, w7)

/* void fe384_mul(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
 * r = a b R^-1 mod p. Contract: a, b in [0, p) -> r in [0, p); any
 * aliasing. (Beyond it, as the test checks: for any a, b < 2^384 the
 * result is congruent and below 2^384, and below p when a b < p 2^384.)
 * Registers: %[a], %[b], %[r] pointers; A0 .. A7 the rotating window of t;
 * lo, hi scratch; rdx the MULX multiplier, then m. 13 registers plus rdx.
 * Six rows of VG_MADX_ROW6, each followed by FE384_ADX_RED; the result
 * t = (A6, A7, A0, A1, A2, A3, A4) < 2p goes through VG_MADX_FINAL6. */
static inline VG_MADX_INLINE void fe384_mul(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t A[10];
    __asm__ volatile(VG_MADX_MUL6(FE384_ADX_RED)
                     VG_MADX_FINAL6("A6", "A7", "A0", "A1", "A2", "A3", "A4")
                     : VG_MADX_OUT6(A)
                     : [a] "r"(a), [b] "r"(b), [r] "r"(r), VG_MADX_MOD6(fe384_adx_p)
                     : "rdx", "cc", "memory");
}

/* void fe384_sqr(uint64_t r[6], const uint64_t a[6]);
 * r = a^2 R^-1 mod p; a in [0, p) -> r in [0, p); r may alias a. Runs the
 * multiplication kernel with b = a (a dedicated squaring is a next step). */
static inline VG_MADX_INLINE void fe384_sqr(uint64_t r[6], const uint64_t a[6])
{
    fe384_mul(r, a, a);
}

/* void fe384_add(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
 * r = a + b mod p; a, b in [0, p) -> r in [0, p); any aliasing.
 * Registers: %[a], %[b], %[r] pointers; T0 .. T5 the sum, c its carry word.
 * As fe256_add: the sum is stored at r, p is subtracted in the registers,
 * and a borrow out of c (a + b < p) makes CMOV take the stored sum back.
 * When a + b >= p, a + b - p < p fits six words. */
static inline VG_MADX_INLINE void fe384_add(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, c;
    __asm__ volatile("xorl %k[c], %k[c]\n\t" /* c = 0, CF = 0 */
                     "movq 0(%[a]), %[T0]\n\t"
                     "movq 8(%[a]), %[T1]\n\t"
                     "movq 16(%[a]), %[T2]\n\t"
                     "movq 24(%[a]), %[T3]\n\t"
                     "movq 32(%[a]), %[T4]\n\t"
                     "movq 40(%[a]), %[T5]\n\t"
                     "addq 0(%[b]), %[T0]\n\t"
                     "adcq 8(%[b]), %[T1]\n\t"
                     "adcq 16(%[b]), %[T2]\n\t"
                     "adcq 24(%[b]), %[T3]\n\t"
                     "adcq 32(%[b]), %[T4]\n\t"
                     "adcq 40(%[b]), %[T5]\n\t"
                     "adcq $0, %[c]\n\t" /* a + b < 2p < 2^385: c is 0 or 1 */
                     "movq %[T0], 0(%[r])\n\t"
                     "movq %[T1], 8(%[r])\n\t"
                     "movq %[T2], 16(%[r])\n\t"
                     "movq %[T3], 24(%[r])\n\t"
                     "movq %[T4], 32(%[r])\n\t"
                     "movq %[T5], 40(%[r])\n\t"
                     "subq %[n0], %[T0]\n\t"
                     "sbbq %[n1], %[T1]\n\t"
                     "sbbq %[n2], %[T2]\n\t"
                     "sbbq %[n3], %[T3]\n\t"
                     "sbbq %[n4], %[T4]\n\t"
                     "sbbq %[n5], %[T5]\n\t"
                     "sbbq $0, %[c]\n\t" /* CF = 1 iff a + b < p */
                     "cmovcq 0(%[r]), %[T0]\n\t"
                     "cmovcq 8(%[r]), %[T1]\n\t"
                     "cmovcq 16(%[r]), %[T2]\n\t"
                     "cmovcq 24(%[r]), %[T3]\n\t"
                     "cmovcq 32(%[r]), %[T4]\n\t"
                     "cmovcq 40(%[r]), %[T5]\n\t"
                     "movq %[T0], 0(%[r])\n\t"
                     "movq %[T1], 8(%[r])\n\t"
                     "movq %[T2], 16(%[r])\n\t"
                     "movq %[T3], 24(%[r])\n\t"
                     "movq %[T4], 32(%[r])\n\t"
                     "movq %[T5], 40(%[r])\n\t"
                     : [T0] "=&r"(t0), [T1] "=&r"(t1), [T2] "=&r"(t2), [T3] "=&r"(t3),
                       [T4] "=&r"(t4), [T5] "=&r"(t5), [c] "=&r"(c)
                     : [a] "r"(a), [b] "r"(b), [r] "r"(r), VG_MADX_MOD6(fe384_adx_p)
                     : "cc", "memory");
}

/* void fe384_sub(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
 * r = a - b mod p; a, b in [0, p) -> r in [0, p); any aliasing.
 * Registers: %[a], %[b], %[r] pointers; T0 .. T5 the difference, c the
 * borrow mask (all ones iff a < b). a - b mod 2^384 is stored at r, p is
 * added in the registers mod 2^384 (when a < b that gives a - b + p, in
 * (0, p)), and when c = 0 CMOVZ takes the stored a - b back. */
static inline VG_MADX_INLINE void fe384_sub(uint64_t r[6], const uint64_t a[6], const uint64_t b[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, c;
    __asm__ volatile("movq 0(%[a]), %[T0]\n\t"
                     "movq 8(%[a]), %[T1]\n\t"
                     "movq 16(%[a]), %[T2]\n\t"
                     "movq 24(%[a]), %[T3]\n\t"
                     "movq 32(%[a]), %[T4]\n\t"
                     "movq 40(%[a]), %[T5]\n\t"
                     "subq 0(%[b]), %[T0]\n\t"
                     "sbbq 8(%[b]), %[T1]\n\t"
                     "sbbq 16(%[b]), %[T2]\n\t"
                     "sbbq 24(%[b]), %[T3]\n\t"
                     "sbbq 32(%[b]), %[T4]\n\t"
                     "sbbq 40(%[b]), %[T5]\n\t"
                     "sbbq %[c], %[c]\n\t" /* c = -borrow: all ones iff a < b */
                     "movq %[T0], 0(%[r])\n\t"
                     "movq %[T1], 8(%[r])\n\t"
                     "movq %[T2], 16(%[r])\n\t"
                     "movq %[T3], 24(%[r])\n\t"
                     "movq %[T4], 32(%[r])\n\t"
                     "movq %[T5], 40(%[r])\n\t"
                     "addq %[n0], %[T0]\n\t"
                     "adcq %[n1], %[T1]\n\t"
                     "adcq %[n2], %[T2]\n\t"
                     "adcq %[n3], %[T3]\n\t"
                     "adcq %[n4], %[T4]\n\t"
                     "adcq %[n5], %[T5]\n\t" /* carry out dropped (see above) */
                     "testq %[c], %[c]\n\t" /* ZF = 1 iff a >= b */
                     "cmovzq 0(%[r]), %[T0]\n\t"
                     "cmovzq 8(%[r]), %[T1]\n\t"
                     "cmovzq 16(%[r]), %[T2]\n\t"
                     "cmovzq 24(%[r]), %[T3]\n\t"
                     "cmovzq 32(%[r]), %[T4]\n\t"
                     "cmovzq 40(%[r]), %[T5]\n\t"
                     "movq %[T0], 0(%[r])\n\t"
                     "movq %[T1], 8(%[r])\n\t"
                     "movq %[T2], 16(%[r])\n\t"
                     "movq %[T3], 24(%[r])\n\t"
                     "movq %[T4], 32(%[r])\n\t"
                     "movq %[T5], 40(%[r])\n\t"
                     : [T0] "=&r"(t0), [T1] "=&r"(t1), [T2] "=&r"(t2), [T3] "=&r"(t3),
                       [T4] "=&r"(t4), [T5] "=&r"(t5), [c] "=&r"(c)
                     : [a] "r"(a), [b] "r"(b), [r] "r"(r), VG_MADX_MOD6(fe384_adx_p)
                     : "cc", "memory");
}

/* void fe384_neg(uint64_t r[6], const uint64_t a[6]);
 * r = -a mod p; a in [0, p) -> r in [0, p) (-0 = 0); r may alias a.
 * Registers: %[a], %[r] pointers; T0 .. T5 = p - a (no borrow, a < p);
 * c the OR of a's words (ZF iff a = 0); z = 0, moved in by CMOVZ then. */
static inline VG_MADX_INLINE void fe384_neg(uint64_t r[6], const uint64_t a[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, c, z;
    __asm__ volatile("xorl %k[z], %k[z]\n\t"
                     "movq %[n0], %[T0]\n\t"
                     "movq %[n1], %[T1]\n\t"
                     "movq %[n2], %[T2]\n\t"
                     "movq %[n3], %[T3]\n\t"
                     "movq %[n4], %[T4]\n\t"
                     "movq %[n5], %[T5]\n\t"
                     "subq 0(%[a]), %[T0]\n\t"
                     "sbbq 8(%[a]), %[T1]\n\t"
                     "sbbq 16(%[a]), %[T2]\n\t"
                     "sbbq 24(%[a]), %[T3]\n\t"
                     "sbbq 32(%[a]), %[T4]\n\t"
                     "sbbq 40(%[a]), %[T5]\n\t" /* a < p: no borrow out */
                     "movq 0(%[a]), %[c]\n\t"
                     "orq 8(%[a]), %[c]\n\t"
                     "orq 16(%[a]), %[c]\n\t"
                     "orq 24(%[a]), %[c]\n\t"
                     "orq 32(%[a]), %[c]\n\t"
                     "orq 40(%[a]), %[c]\n\t" /* ZF = 1 iff a = 0 */
                     "cmovzq %[z], %[T0]\n\t"
                     "cmovzq %[z], %[T1]\n\t"
                     "cmovzq %[z], %[T2]\n\t"
                     "cmovzq %[z], %[T3]\n\t"
                     "cmovzq %[z], %[T4]\n\t"
                     "cmovzq %[z], %[T5]\n\t"
                     "movq %[T0], 0(%[r])\n\t"
                     "movq %[T1], 8(%[r])\n\t"
                     "movq %[T2], 16(%[r])\n\t"
                     "movq %[T3], 24(%[r])\n\t"
                     "movq %[T4], 32(%[r])\n\t"
                     "movq %[T5], 40(%[r])\n\t"
                     : [T0] "=&r"(t0), [T1] "=&r"(t1), [T2] "=&r"(t2), [T3] "=&r"(t3),
                       [T4] "=&r"(t4), [T5] "=&r"(t5), [c] "=&r"(c), [z] "=&r"(z)
                     : [a] "r"(a), [r] "r"(r), VG_MADX_MOD6(fe384_adx_p)
                     : "cc", "memory");
}

#endif
