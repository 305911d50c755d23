/*
 * The field of P-256, p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (SP 800-186
 * section 3.2.1), with BMI2/ADX kernels in inline assembly:
 * static inline, so the point formulas inline them. Include only on x86-64,
 * in files compiled with -mbmi2 -madx, and call only when
 * vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX).
 *
 * Representation: four little-endian 64-bit words, Montgomery form with
 * R = 2^256 (x is stored as x R mod p), fully reduced: every kernel takes
 * inputs in [0, p) and returns its result in [0, p). The output may alias
 * any input: r is written only after the last read of the inputs.
 *
 * Reduction: Montgomery with the Montgomery-friendly shape of p:
 * p = -1 mod 2^64, so -p^-1 mod 2^64 = 1 and each reduction multiplier is
 * the low word itself, and m p = m (p + 1) - m, where
 * p + 1 = 2^96 + 0xffffffff00000001 * 2^192 needs one shift pair and one
 * MULX instead of four MULX. fe256_mul and fe256_sqr form the full 512-bit
 * product first and then reduce its low half (FE256_ADX_TAIL), which
 * measured faster than the interleaved rows of mont_adx.h. A special
 * (Solinas) reduction (Solinas, "Generalized Mersenne numbers", 1999: the
 * 512-bit product reduced by sums and differences of rearranged 32-bit
 * words of its high half) could replace FE256_ADX_TAIL; the representation
 * would then not be Montgomery, so the choice belongs with the portable
 * field's. It has not been timed.
 */
#ifndef VG_NIST_X86_64_FE256_ADX_H
#define VG_NIST_X86_64_FE256_ADX_H

#include <stdint.h>

#include "mont_adx.h"

/* p as memory operands: n0 .. n3 the words of p (n2 = 0). */
static const uint64_t fe256_adx_p[4] = {0xffffffffffffffffu, 0x00000000ffffffffu, 0,
                                        0xffffffff00000001u};

/* One Montgomery reduction round on the low half of a 512-bit product
 * (FE256_ADX_TAIL, for fe256_mul and fe256_sqr): window
 * W = (w0, w1, w2, w3) < 2^256, m = w0 (since -p^-1 = 1 mod 2^64).
 * W + m p = (W - m) + m (p + 1): W - m has low word 0 exactly, and
 * m (p + 1) = (m 2^32) 2^64 + (m 0xffffffff00000001) 2^192, so add m 2^32
 * (split by the shifts into lo at word 1 and w0 = m >> 32 at word 2) and
 * the MULX product at words 3 and 4 on one ADC chain (MULX leaves the flags
 * alone). (W + m p) / 2^64 < 2^192 + p < 2^256, so it fits the four words
 * (w1, w2, w3, hi): the final carry into hi (the high half of the MULX, at
 * most 2^64 - 2) does not overflow. lo and w0 are free after. */
#define FE256_ADX_ROUND(w0, w1, w2, w3, lo, hi)                                              \
    "movq %[" w0 "], %%rdx\n\t" /* m = w0 */                                                     \
    "movq %[" w0 "], %[" lo "]\n\t"                                                              \
    "shlq $32, %[" lo "]\n\t"                                                                    \
    "shrq $32, %[" w0 "]\n\t"                                                                    \
    "addq %[" lo "], %[" w1 "]\n\t"                                                              \
    "adcq %[" w0 "], %[" w2 "]\n\t"                                                              \
    "mulxq %[n3], %[" lo "], %[" hi "]\n\t"                                                      \
    "adcq %[" lo "], %[" w3 "]\n\t"                                                              \
    "adcq $0, %[" hi "]\n\t"

/* One row i = 1, 2, 3 of the full product in fe256_mul: the 5-word window
 * (w0 .. w4) = (P_i .. P_{i+4}) += a * b[i], b[i] at byte offset `boff` of
 * %[b]: low halves on the CF chain (ADCX), high halves on the OF chain
 * (ADOX). In: (P_0 .. P_{i+3}) = a (b mod 2^(64 i)) < 2^(256 + 64 i); w4 is
 * free (set from the high half of a3 b[i]). Out: (P_0 .. P_{i+4}) =
 * a (b mod 2^(64 (i+1))) < 2^(256 + 64 (i+1)), so both closing carries
 * enter w4 without overflow. Uses rdx, lo, hi. */
#define FE256_ADX_PROW(boff, w0, w1, w2, w3, w4)                                                 \
    "movq " boff "(%[b]), %%rdx\n\t"                                                             \
    "xorl %k[lo], %k[lo]\n\t" /* CF = OF = 0 */                                                  \
    "mulxq 0(%[a]), %[lo], %[hi]\n\t"                                                            \
    "adcxq %[lo], %[" w0 "]\n\t"                                                                 \
    "adoxq %[hi], %[" w1 "]\n\t"                                                                 \
    "mulxq 8(%[a]), %[lo], %[hi]\n\t"                                                            \
    "adcxq %[lo], %[" w1 "]\n\t"                                                                 \
    "adoxq %[hi], %[" w2 "]\n\t"                                                                 \
    "mulxq 16(%[a]), %[lo], %[hi]\n\t"                                                           \
    "adcxq %[lo], %[" w2 "]\n\t"                                                                 \
    "adoxq %[hi], %[" w3 "]\n\t"                                                                 \
    "mulxq 24(%[a]), %[lo], %[" w4 "]\n\t"                                                       \
    "adcxq %[lo], %[" w3 "]\n\t"                                                                 \
    "movl $0, %k[lo]\n\t" /* MOV leaves the flags */                                             \
    "adoxq %[lo], %[" w4 "]\n\t"                                                                 \
    /* a (b mod 2^(64 (i+1))) < 2^(256 + 64 (i+1)): no carry out of w4 */                       \
    "adcxq %[lo], %[" w4 "]\n\t"

/* The common end of fe256_mul and fe256_sqr, on a full 512-bit product
 * P = (P0 .. P7) = x y for x, y < 2^256: four rounds FE256_ADX_ROUND
 * on the low half L = (P0 .. P3), giving U = (L + M p) / R <= p (M < R the
 * Montgomery multiplier, L < R), in (hi, P0, P1, P2); then S = U + H with
 * H = (P4 .. P7) = floor(x y / R), into (P4 .. P7, P3): S = (x y + M p) / R
 * < 2p for x y < p R, and < 2^256 + p for any x, y < 2^256. Finally S - p
 * in the copies (P0, P1, P2, hi); the borrow out of the top word P3 says
 * S < p, and then CMOV takes S back (registers only: no store and reload);
 * the result goes to r. When S >= p, S - p < 2^256 fits four words (and is
 * below p inside the contract). Nothing reads a or b. */
#define FE256_ADX_TAIL                                                                           \
    FE256_ADX_ROUND("P0", "P1", "P2", "P3", "lo", "hi")                                      \
    FE256_ADX_ROUND("P1", "P2", "P3", "hi", "lo", "P0")                                      \
    FE256_ADX_ROUND("P2", "P3", "hi", "P0", "lo", "P1")                                      \
    FE256_ADX_ROUND("P3", "hi", "P0", "P1", "lo", "P2")                                      \
    /* U = (hi, P0, P1, P2) <= p; S = U + H into (P4 .. P7, P3) */                             \
    "xorl %k[P3], %k[P3]\n\t" /* P3 = 0, CF = 0 */                                               \
    "addq %[hi], %[P4]\n\t"                                                                      \
    "adcq %[P0], %[P5]\n\t"                                                                      \
    "adcq %[P1], %[P6]\n\t"                                                                      \
    "adcq %[P2], %[P7]\n\t"                                                                      \
    "adcq $0, %[P3]\n\t" /* S < 2^256 + p: the carry P3 is 0 or 1 */                            \
    "movq %[P4], %[P0]\n\t"                                                                      \
    "movq %[P5], %[P1]\n\t"                                                                      \
    "movq %[P6], %[P2]\n\t"                                                                      \
    "movq %[P7], %[hi]\n\t"                                                                      \
    "subq %[n0], %[P0]\n\t"                                                                      \
    "sbbq %[n1], %[P1]\n\t"                                                                      \
    "sbbq %[n2], %[P2]\n\t"                                                                      \
    "sbbq %[n3], %[hi]\n\t"                                                                      \
    "sbbq $0, %[P3]\n\t" /* CF = 1 iff S < p */                                                  \
    "cmovcq %[P4], %[P0]\n\t"                                                                    \
    "cmovcq %[P5], %[P1]\n\t"                                                                    \
    "cmovcq %[P6], %[P2]\n\t"                                                                    \
    "cmovcq %[P7], %[hi]\n\t"                                                                    \
    "movq %[P0], 0(%[r])\n\t"                                                                    \
    "movq %[P1], 8(%[r])\n\t"                                                                    \
    "movq %[P2], 16(%[r])\n\t"                                                                   \
    "movq %[hi], 24(%[r])\n\t"

/* void fe256_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 * r = a b R^-1 mod p. Contract: a, b in [0, p) -> r in [0, p); any
 * aliasing (r is written only at the end). (Beyond the contract, as the
 * test checks: for any a, b < 2^256 the result is (a b + M p) / R, less p
 * if not below p, with M < R the Montgomery multiplier: congruent, below
 * 2^256, below p when a b < p R.)
 * Method (product, then reduction): the full product a b into P0 .. P7 by
 * rows (row 0 plainly on one carry chain, rows 1 .. 3 by FE256_ADX_PROW on
 * the two chains), then FE256_ADX_TAIL. Done this way rather than by
 * interleaved rows and reductions (the CIOS shape of mont_adx.h, which the
 * scalar kernels keep), as it measured about 10% faster, latency and
 * throughput (a micro-benchmark on the Intel Xeon of docs/benchmarks.md).
 * Registers: %[a], %[b], %[r] pointers; P0 .. P7 the product; lo, hi
 * scratch; rdx the MULX multiplier, then m. 13 registers plus rdx. */
static inline VG_MADX_INLINE void fe256_mul(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t P0, P1, P2, P3, P4, P5, P6, P7, lo, hi;
    __asm__ volatile(
            /* row 0: (P0 .. P4) = a b0 < 2^320 */
            "movq 0(%[b]), %%rdx\n\t"
            "mulxq 0(%[a]), %[P0], %[P1]\n\t"
            "mulxq 8(%[a]), %[lo], %[P2]\n\t"
            "mulxq 16(%[a]), %[hi], %[P3]\n\t"
            "addq %[lo], %[P1]\n\t"
            "adcq %[hi], %[P2]\n\t"
            "mulxq 24(%[a]), %[lo], %[P4]\n\t"
            "adcq %[lo], %[P3]\n\t"
            "adcq $0, %[P4]\n\t" /* a b0 < 2^320: no carry out of P4 */
            FE256_ADX_PROW("8", "P1", "P2", "P3", "P4", "P5")
            FE256_ADX_PROW("16", "P2", "P3", "P4", "P5", "P6")
            FE256_ADX_PROW("24", "P3", "P4", "P5", "P6", "P7") /* last read of a, b */
            FE256_ADX_TAIL
            : [P0] "=&r"(P0), [P1] "=&r"(P1), [P2] "=&r"(P2), [P3] "=&r"(P3), [P4] "=&r"(P4),
              [P5] "=&r"(P5), [P6] "=&r"(P6), [P7] "=&r"(P7), [lo] "=&r"(lo), [hi] "=&r"(hi)
            : [a] "r"(a), [b] "r"(b), [r] "r"(r), VG_MADX_MOD4(fe256_adx_p)
            : "rdx", "cc", "memory");
}

/* void fe256_sqr(uint64_t r[4], const uint64_t a[4]);
 * r = a^2 R^-1 mod p. Contract: a in [0, p) -> r in [0, p); r may alias a.
 * (Beyond it, as the test checks: for any a < 2^256 the result is
 * (a^2 + M p) / R less p if that is not below p, which is below 2^256, with
 * M < R the Montgomery multiplier; below p when a^2 < p 2^256.)
 * Method: the full square into P0 .. P7 (the six cross products a_i a_j,
 * i < j, once, doubled on the CF chain while the squares a_i^2 enter on the
 * OF chain), then FE256_ADX_TAIL (the four Montgomery rounds on the low
 * half, the high half added, the conditional subtraction) with x = y = a.
 * Registers: %[a], %[r] pointers; P0 .. P7 the square; lo, hi scratch
 * (named in the rounds as they rotate); z zero; rdx the MULX multiplier,
 * then m. 13 registers plus rdx. */
static inline VG_MADX_INLINE void fe256_sqr(uint64_t r[4], const uint64_t a[4])
{
    uint64_t P0, P1, P2, P3, P4, P5, P6, P7, lo, hi, z;
    __asm__ volatile(
            /* cross products a_i a_j (i < j) at word i + j */
            "movq 0(%[a]), %%rdx\n\t"
            "mulxq 8(%[a]), %[P1], %[P2]\n\t"  /* a0 a1 at word 1 */
            "mulxq 16(%[a]), %[lo], %[P3]\n\t" /* a0 a2 at word 2 */
            "addq %[lo], %[P2]\n\t"
            "mulxq 24(%[a]), %[lo], %[P4]\n\t" /* a0 a3 at word 3 */
            "adcq %[lo], %[P3]\n\t"
            "movq 8(%[a]), %%rdx\n\t"
            "mulxq 24(%[a]), %[lo], %[P5]\n\t" /* a1 a3 at word 4 */
            "adcq %[lo], %[P4]\n\t"
            "movq 16(%[a]), %%rdx\n\t"
            "mulxq 24(%[a]), %[lo], %[P6]\n\t" /* a2 a3 at word 5 */
            "adcq %[lo], %[P5]\n\t"
            /* so far a0 (a1 2^64 + a2 2^128 + a3 2^192) + a1 a3 2^256 + a2 a3 2^320 */
            /* < 2^448, so the carry into P6 does not overflow it */
            "adcq $0, %[P6]\n\t"
            "movq 8(%[a]), %%rdx\n\t"
            "mulxq 16(%[a]), %[lo], %[hi]\n\t" /* a1 a2 at word 3 */
            "addq %[lo], %[P3]\n\t"
            "adcq %[hi], %[P4]\n\t"
            "adcq $0, %[P5]\n\t"
            /* the six cross products sum to at most (2^64 - 1)^2 (2^320 + 2^256 + */
            /* 2 * 2^192 + 2^128 + 2^64) < 2^448: no carry out of P6 */
            "adcq $0, %[P6]\n\t"
            /* double (CF chain) and add the squares a_i^2 at word 2i (OF chain) */
            "xorl %k[z], %k[z]\n\t" /* z = 0, CF = OF = 0 */
            "movq 0(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[P0], %[hi]\n\t"
            "adcxq %[P1], %[P1]\n\t"
            "adoxq %[hi], %[P1]\n\t"
            "movq 8(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"
            "adcxq %[P2], %[P2]\n\t"
            "adoxq %[lo], %[P2]\n\t"
            "adcxq %[P3], %[P3]\n\t"
            "adoxq %[hi], %[P3]\n\t"
            "movq 16(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"
            "adcxq %[P4], %[P4]\n\t"
            "adoxq %[lo], %[P4]\n\t"
            "adcxq %[P5], %[P5]\n\t"
            "adoxq %[hi], %[P5]\n\t"
            "movq 24(%[a]), %%rdx\n\t" /* last read of a */
            "mulxq %%rdx, %[lo], %[P7]\n\t"
            "adcxq %[P6], %[P6]\n\t"
            "adoxq %[lo], %[P6]\n\t"
            /* a^2 < 2^512: the top word takes both carries without overflow */
            "adcxq %[z], %[P7]\n\t"
            "adoxq %[z], %[P7]\n\t"
            FE256_ADX_TAIL
            : [P0] "=&r"(P0), [P1] "=&r"(P1), [P2] "=&r"(P2), [P3] "=&r"(P3), [P4] "=&r"(P4),
              [P5] "=&r"(P5), [P6] "=&r"(P6), [P7] "=&r"(P7), [lo] "=&r"(lo), [hi] "=&r"(hi),
              [z] "=&r"(z)
            : [a] "r"(a), [r] "r"(r), VG_MADX_MOD4(fe256_adx_p)
            : "rdx", "cc", "memory");
}

/* void fe256_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 * r = a + b mod p; a, b in [0, p) -> r in [0, p); any aliasing.
 * Registers: %[a], %[b], %[r] pointers; T0 .. T3 the sum, c its carry word.
 * a + b < 2p < 2^257, so c is 0 or 1. The sum is stored at r, p is
 * subtracted in the registers; a borrow out of c means a + b < p, and then
 * CMOV takes the stored sum back (a load either way). When a + b >= p,
 * a + b - p < p fits four words. */
static inline VG_MADX_INLINE void fe256_add(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, c;
    __asm__ volatile("xorl %k[c], %k[c]\n\t" /* c = 0, CF = 0 */
                     "movq 0(%[a]), %[T0]\n\t"
                     "movq 8(%[a]), %[T1]\n\t"
                     "movq 16(%[a]), %[T2]\n\t"
                     "movq 24(%[a]), %[T3]\n\t"
                     "addq 0(%[b]), %[T0]\n\t"
                     "adcq 8(%[b]), %[T1]\n\t"
                     "adcq 16(%[b]), %[T2]\n\t"
                     "adcq 24(%[b]), %[T3]\n\t"
                     "adcq $0, %[c]\n\t" /* a + b < 2^257: c is 0 or 1 */
                     "movq %[T0], 0(%[r])\n\t"
                     "movq %[T1], 8(%[r])\n\t"
                     "movq %[T2], 16(%[r])\n\t"
                     "movq %[T3], 24(%[r])\n\t"
                     "subq %[n0], %[T0]\n\t"
                     "sbbq %[n1], %[T1]\n\t"
                     "sbbq %[n2], %[T2]\n\t"
                     "sbbq %[n3], %[T3]\n\t"
                     "sbbq $0, %[c]\n\t" /* CF = 1 iff a + b < p */
                     "cmovcq 0(%[r]), %[T0]\n\t"
                     "cmovcq 8(%[r]), %[T1]\n\t"
                     "cmovcq 16(%[r]), %[T2]\n\t"
                     "cmovcq 24(%[r]), %[T3]\n\t"
                     "movq %[T0], 0(%[r])\n\t"
                     "movq %[T1], 8(%[r])\n\t"
                     "movq %[T2], 16(%[r])\n\t"
                     "movq %[T3], 24(%[r])\n\t"
                     : [T0] "=&r"(t0), [T1] "=&r"(t1), [T2] "=&r"(t2), [T3] "=&r"(t3),
                       [c] "=&r"(c)
                     : [a] "r"(a), [b] "r"(b), [r] "r"(r), VG_MADX_MOD4(fe256_adx_p)
                     : "cc", "memory");
}

/* void fe256_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 * r = a - b mod p; a, b in [0, p) -> r in [0, p); any aliasing.
 * Registers: %[a], %[b], %[r] pointers; T0 .. T3 the difference, c the
 * borrow mask, U0 .. U3 = p AND c. c = -borrow (all ones iff a < b); then
 * a - b (mod 2^256) + (p AND c) in the registers, stored at r: when a < b
 * this is a - b + 2^256 + p, and the carry out (dropped) takes the 2^256
 * away, leaving a - b + p in (0, p); when a >= b it adds 0. The mask of p
 * needs no memory: p = (2^64 - 1, 2^32 - 1, 0, 0xffffffff00000001), so
 * U0 = c, U1 = c mod 2^32 (a 32-bit MOV zero-extends), U2 = 0, U3 = c AND
 * n3. */
static inline VG_MADX_INLINE void fe256_sub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, u0, u1, u2, u3, c;
    __asm__ volatile("movq 0(%[a]), %[T0]\n\t"
                     "movq 8(%[a]), %[T1]\n\t"
                     "movq 16(%[a]), %[T2]\n\t"
                     "movq 24(%[a]), %[T3]\n\t"
                     "subq 0(%[b]), %[T0]\n\t"
                     "sbbq 8(%[b]), %[T1]\n\t"
                     "sbbq 16(%[b]), %[T2]\n\t"
                     "sbbq 24(%[b]), %[T3]\n\t"
                     "sbbq %[c], %[c]\n\t" /* c = -borrow: all ones iff a < b */
                     "movq %[c], %[U0]\n\t"
                     "movl %k[c], %k[U1]\n\t"
                     "xorl %k[U2], %k[U2]\n\t"
                     "movq %[c], %[U3]\n\t"
                     "andq %[n3], %[U3]\n\t" /* (U0 .. U3) = p AND c */
                     "addq %[U0], %[T0]\n\t"
                     "adcq %[U1], %[T1]\n\t"
                     "adcq %[U2], %[T2]\n\t"
                     "adcq %[U3], %[T3]\n\t" /* carry out dropped (see above) */
                     "movq %[T0], 0(%[r])\n\t"
                     "movq %[T1], 8(%[r])\n\t"
                     "movq %[T2], 16(%[r])\n\t"
                     "movq %[T3], 24(%[r])\n\t"
                     : [T0] "=&r"(t0), [T1] "=&r"(t1), [T2] "=&r"(t2), [T3] "=&r"(t3),
                       [U0] "=&r"(u0), [U1] "=&r"(u1), [U2] "=&r"(u2), [U3] "=&r"(u3),
                       [c] "=&r"(c)
                     : [a] "r"(a), [b] "r"(b), [r] "r"(r), [n3] "m"(fe256_adx_p[3])
                     : "cc", "memory");
}

/* void fe256_neg(uint64_t r[4], const uint64_t a[4]);
 * r = -a mod p; a in [0, p) -> r in [0, p) (so -0 = 0, not p); r may
 * alias a. Registers: %[a], %[r] pointers; T0 .. T3 = p - a (no borrow, as
 * a < p); c the OR of a's words, whose ZF says a = 0; z = 0, moved in by
 * CMOVZ in that case. */
static inline VG_MADX_INLINE void fe256_neg(uint64_t r[4], const uint64_t a[4])
{
    uint64_t t0, t1, t2, t3, c, z;
    __asm__ volatile("xorl %k[z], %k[z]\n\t"
                     "movq %[n0], %[T0]\n\t"
                     "movq %[n1], %[T1]\n\t"
                     "movq %[n2], %[T2]\n\t"
                     "movq %[n3], %[T3]\n\t"
                     "subq 0(%[a]), %[T0]\n\t"
                     "sbbq 8(%[a]), %[T1]\n\t"
                     "sbbq 16(%[a]), %[T2]\n\t"
                     "sbbq 24(%[a]), %[T3]\n\t" /* a < p: no borrow out */
                     "movq 0(%[a]), %[c]\n\t"
                     "orq 8(%[a]), %[c]\n\t"
                     "orq 16(%[a]), %[c]\n\t"
                     "orq 24(%[a]), %[c]\n\t" /* ZF = 1 iff a = 0 */
                     "cmovzq %[z], %[T0]\n\t"
                     "cmovzq %[z], %[T1]\n\t"
                     "cmovzq %[z], %[T2]\n\t"
                     "cmovzq %[z], %[T3]\n\t"
                     "movq %[T0], 0(%[r])\n\t"
                     "movq %[T1], 8(%[r])\n\t"
                     "movq %[T2], 16(%[r])\n\t"
                     "movq %[T3], 24(%[r])\n\t"
                     : [T0] "=&r"(t0), [T1] "=&r"(t1), [T2] "=&r"(t2), [T3] "=&r"(t3),
                       [c] "=&r"(c), [z] "=&r"(z)
                     : [a] "r"(a), [r] "r"(r), VG_MADX_MOD4(fe256_adx_p)
                     : "cc", "memory");
}

#endif
