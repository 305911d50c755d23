/*
 * Building blocks of the BMI2/ADX Montgomery kernels for P-256 and P-384
 * (fe256_adx.h, fe384_adx.h, sc256_adx.h, sc384_adx.h): assembler text for
 * GCC/clang extended inline asm, spliced into one asm statement per kernel.
 * Include only on x86-64, in files compiled with -mbmi2 -madx, and call the
 * kernels only when vg_cpu_has(VG_CPU_BMI2 | VG_CPU_ADX).
 *
 * Method: Montgomery multiplication in the CIOS shape (Koc, Acar, Kaliski,
 * "Analyzing and comparing Montgomery multiplication algorithms", 1996),
 * k = 4 or 6 words of 64 bits, R = 2^(64 k). For i = 0 .. k-1:
 *     t = t + a * b[i]                       (a row: MULX, two carry chains)
 *     m = t[0] * (-N^-1 mod 2^64) mod 2^64
 *     t = (t + m * N) / 2^64                 (exact: the low word becomes 0)
 * and at the end t = (a * b + M * N) / R for some M < R, so t = a b R^-1
 * mod N, followed by one constant-time conditional subtraction of N.
 *
 * Bounds (for any a, b < R, N odd, N < R):
 *   before row i, t = (a * (b mod 2^(64 i)) + M_i N) / 2^(64 i) < a + N < 2R,
 *     so t fits k words plus a top word of 0 or 1 (k+1 words in all);
 *   t + a b[i] < 2R + R * 2^64 <= 2^(64 (k+1)) + 2R: k+1 words plus a
 *     (k+2)-th word of 0 or 1;
 *   t + a b[i] + m N < 2^64 (2R) after the reduction's division, so the
 *     shifted t again fits k words plus a top word of 0 or 1;
 *   at the end t = (a b + M N) / R < a b / R + N < R + N, so t - N < R
 *     fits k words; and if a b < N R (e.g. a < N or b < N), t < 2N and the
 *     result t or t - N is below N.
 *
 * Operand names every kernel's asm must define: %[a], %[b], %[r] the
 * pointers (r is written only at the end, after the last read of a and b,
 * so r may alias a or b); %[lo], %[hi] scratch; the window words are named
 * by the callers (strings such as "A3"); %[n0] .. %[n5] the modulus words as
 * memory operands; rdx is the MULX multiplier (clobbered).
 */
#ifndef VG_NIST_X86_64_MONT_ADX_H
#define VG_NIST_X86_64_MONT_ADX_H

#ifndef __x86_64__
#error "mont_adx.h is x86-64 only"
#endif

#include <stdint.h>

/* Every kernel of fe256_adx.h, fe384_adx.h, sc256_adx.h and sc384_adx.h is
 * static inline with this attribute: the point formulas call a kernel a
 * dozen times, and GCC's inliner counts the asm text as a large body and
 * otherwise kept the multiplications out of line (a call, and the
 * operands through memory, per product). */
#define VG_MADX_INLINE __attribute__((always_inline))

/* (w_j, w_{j+1}) += a[j] * rdx: the low half on the CF chain (ADCX), the
 * high half on the OF chain (ADOX). */
#define VG_MADX_STEP(off, wj, wj1)                                                               \
    "mulxq " off "(%[a]), %[lo], %[hi]\n\t"                                                      \
    "adcxq %[lo], %[" wj "]\n\t"                                                                 \
    "adoxq %[hi], %[" wj1 "]\n\t"

/* (w_j, w_{j+1}) += N[j] * rdx, the modulus word a memory operand. */
#define VG_MADX_RSTEP(nj, wj, wj1)                                                               \
    "mulxq %[" nj "], %[lo], %[hi]\n\t"                                                          \
    "adcxq %[lo], %[" wj "]\n\t"                                                                 \
    "adoxq %[hi], %[" wj1 "]\n\t"

/* Close both chains: CF (out of w_{k-1}) into w_k, then OF (out of w_k's
 * ADOX) and the new CF (out of w_k) into w_{k+1}. MOV does not touch the
 * flags, so lo can be zeroed between the chains. The callers give the bound
 * that keeps w_{k+1} from overflowing (it ends at 0 or 1). */
#define VG_MADX_CLOSE(wk, wk1)                                                                   \
    "movl $0, %k[lo]\n\t"                                                                        \
    "adcxq %[lo], %[" wk "]\n\t"                                                                 \
    "adoxq %[lo], %[" wk1 "]\n\t"                                                                \
    "adcxq %[lo], %[" wk1 "]\n\t"

/* ---- k = 4 ------------------------------------------------------------- */

/* Row: (w0 .. w5) = (w0 .. w4) + a * b[i], with b[i] at byte offset `boff`
 * of %[b]. In: t = (w0 .. w4) < 2R (w4 is 0 or 1); w5 is free. Out: the sum
 * < 2R + R 2^64, so w5 ends at 0 or 1 and nothing carries out of it. */
#define VG_MADX_ROW4(boff, w0, w1, w2, w3, w4, w5)                                               \
    "movq " boff "(%[b]), %%rdx\n\t"                                                             \
    "xorl %k[" w5 "], %k[" w5 "]\n\t" /* w5 = 0, CF = OF = 0 */                                  \
    VG_MADX_STEP("0", w0, w1)                                                                    \
    VG_MADX_STEP("8", w1, w2)                                                                    \
    VG_MADX_STEP("16", w2, w3)                                                                   \
    VG_MADX_STEP("24", w3, w4)                                                                   \
    /* t + a b[i] < 2R + R 2^64: both carries into w5 leave it at 0 or 1 */                     \
    VG_MADX_CLOSE(w4, w5)

/* Reduction with a general N and %[ninv] = -N^-1 mod 2^64 in memory:
 * m = w0 * ninv, (w0 .. w5) += m * N. Then w0 = 0 (m was chosen so), and
 * the sum < 2^64 * 2R, so w5 ends at 0 or 1 with no carry out: the shifted
 * t = (w1 .. w5) < 2R. Uses rdx, lo, hi. */
#define VG_MADX_RED4(w0, w1, w2, w3, w4, w5)                                                     \
    "movq %[ninv], %%rdx\n\t"                                                                    \
    "imulq %[" w0 "], %%rdx\n\t" /* m = w0 * ninv mod 2^64 */                                    \
    "xorl %k[lo], %k[lo]\n\t"    /* CF = OF = 0 */                                               \
    VG_MADX_RSTEP("n0", w0, w1)                                                                  \
    VG_MADX_RSTEP("n1", w1, w2)                                                                  \
    VG_MADX_RSTEP("n2", w2, w3)                                                                  \
    VG_MADX_RSTEP("n3", w3, w4)                                                                  \
    /* t + m N < 2^64 * 2R: w5 ends at 0 or 1, no carry out */                                 \
    VG_MADX_CLOSE(w4, w5)

/* The four rows with their reductions, rotating six registers A0 .. A5 so
 * that no word moves: after row i the window starts one register later.
 * RED names the reduction macro (VG_MADX_RED4 or a special one). The result
 * t = (A4, A5, A0, A1, A2) < R + N (top word A2 is 0 or 1). */
#define VG_MADX_MUL4(RED)                                                                        \
    "xorl %k[A0], %k[A0]\n\t"                                                                    \
    "xorl %k[A1], %k[A1]\n\t"                                                                    \
    "xorl %k[A2], %k[A2]\n\t"                                                                    \
    "xorl %k[A3], %k[A3]\n\t"                                                                    \
    "xorl %k[A4], %k[A4]\n\t" /* t = 0 */                                                        \
    VG_MADX_ROW4("0", "A0", "A1", "A2", "A3", "A4", "A5")                                        \
    RED("A0", "A1", "A2", "A3", "A4", "A5")                                                      \
    VG_MADX_ROW4("8", "A1", "A2", "A3", "A4", "A5", "A0")                                        \
    RED("A1", "A2", "A3", "A4", "A5", "A0")                                                      \
    VG_MADX_ROW4("16", "A2", "A3", "A4", "A5", "A0", "A1")                                       \
    RED("A2", "A3", "A4", "A5", "A0", "A1")                                                      \
    VG_MADX_ROW4("24", "A3", "A4", "A5", "A0", "A1", "A2")                                       \
    RED("A3", "A4", "A5", "A0", "A1", "A2")

/* Final conditional subtraction, k = 4: t = (t0 .. t4) < R + N. Store t's
 * low four words at r, compute t - N in the registers; the borrow out of
 * the top word t4 says t < N, and then CMOV takes t back from r (a load
 * whatever the condition, so no secret-dependent address or branch). When
 * t >= N, t - N < R, so t4 minus the borrow is 0 and the four words hold it. */
#define VG_MADX_FINAL4(t0, t1, t2, t3, t4)                                                       \
    "movq %[" t0 "], 0(%[r])\n\t"                                                                \
    "movq %[" t1 "], 8(%[r])\n\t"                                                                \
    "movq %[" t2 "], 16(%[r])\n\t"                                                               \
    "movq %[" t3 "], 24(%[r])\n\t"                                                               \
    "subq %[n0], %[" t0 "]\n\t"                                                                  \
    "sbbq %[n1], %[" t1 "]\n\t"                                                                  \
    "sbbq %[n2], %[" t2 "]\n\t"                                                                  \
    "sbbq %[n3], %[" t3 "]\n\t"                                                                  \
    "sbbq $0, %[" t4 "]\n\t" /* CF = 1 iff t < N */                                              \
    "cmovcq 0(%[r]), %[" t0 "]\n\t"                                                              \
    "cmovcq 8(%[r]), %[" t1 "]\n\t"                                                              \
    "cmovcq 16(%[r]), %[" t2 "]\n\t"                                                             \
    "cmovcq 24(%[r]), %[" t3 "]\n\t"                                                             \
    "movq %[" t0 "], 0(%[r])\n\t"                                                                \
    "movq %[" t1 "], 8(%[r])\n\t"                                                                \
    "movq %[" t2 "], 16(%[r])\n\t"                                                               \
    "movq %[" t3 "], 24(%[r])\n\t"

/* Operand lists of a k = 4 multiplication: 8 registers + the three
 * pointers (11 allocatable registers plus rdx). */
#define VG_MADX_OUT4(A)                                                                          \
    [A0] "=&r"(A[0]), [A1] "=&r"(A[1]), [A2] "=&r"(A[2]), [A3] "=&r"(A[3]),                     \
        [A4] "=&r"(A[4]), [A5] "=&r"(A[5]), [lo] "=&r"(A[6]), [hi] "=&r"(A[7])
#define VG_MADX_MOD4(N) [n0] "m"(N[0]), [n1] "m"(N[1]), [n2] "m"(N[2]), [n3] "m"(N[3])

/* ---- k = 6 ------------------------------------------------------------- */

/* Row, k = 6: (w0 .. w7) = (w0 .. w6) + a * b[i]. In: t < 2R (w6 is 0 or 1),
 * w7 free. The sum < 2R + R 2^64, so w7 ends at 0 or 1, no carry out. */
#define VG_MADX_ROW6(boff, w0, w1, w2, w3, w4, w5, w6, w7)                                       \
    "movq " boff "(%[b]), %%rdx\n\t"                                                             \
    "xorl %k[" w7 "], %k[" w7 "]\n\t" /* w7 = 0, CF = OF = 0 */                                  \
    VG_MADX_STEP("0", w0, w1)                                                                    \
    VG_MADX_STEP("8", w1, w2)                                                                    \
    VG_MADX_STEP("16", w2, w3)                                                                   \
    VG_MADX_STEP("24", w3, w4)                                                                   \
    VG_MADX_STEP("32", w4, w5)                                                                   \
    VG_MADX_STEP("40", w5, w6)                                                                   \
    /* t + a b[i] < 2R + R 2^64: both carries into w7 leave it at 0 or 1 */                     \
    VG_MADX_CLOSE(w6, w7)

/* The six multiply-add steps and the close of a k = 6 reduction, m in rdx:
 * (w0 .. w7) += m * N. w0 becomes 0; the sum < 2^64 * 2R, so w7 ends at 0
 * or 1 with no carry out. */
#define VG_MADX_RED6_BODY(w0, w1, w2, w3, w4, w5, w6, w7)                                        \
    "xorl %k[lo], %k[lo]\n\t" /* CF = OF = 0 */                                                  \
    VG_MADX_RSTEP("n0", w0, w1)                                                                  \
    VG_MADX_RSTEP("n1", w1, w2)                                                                  \
    VG_MADX_RSTEP("n2", w2, w3)                                                                  \
    VG_MADX_RSTEP("n3", w3, w4)                                                                  \
    VG_MADX_RSTEP("n4", w4, w5)                                                                  \
    VG_MADX_RSTEP("n5", w5, w6)                                                                  \
    /* t + m N < 2^64 * 2R: w7 ends at 0 or 1, no carry out */                                 \
    VG_MADX_CLOSE(w6, w7)

/* General N, %[ninv] = -N^-1 mod 2^64 in memory. */
#define VG_MADX_RED6(w0, w1, w2, w3, w4, w5, w6, w7)                                             \
    "movq %[ninv], %%rdx\n\t"                                                                    \
    "imulq %[" w0 "], %%rdx\n\t" /* m = w0 * ninv mod 2^64 */                                    \
    VG_MADX_RED6_BODY(w0, w1, w2, w3, w4, w5, w6, w7)

/* Six rows on eight rotating registers A0 .. A7. Result
 * t = (A6, A7, A0, A1, A2, A3, A4) < R + N (top word A4 is 0 or 1). */
#define VG_MADX_MUL6(RED)                                                                        \
    "xorl %k[A0], %k[A0]\n\t"                                                                    \
    "xorl %k[A1], %k[A1]\n\t"                                                                    \
    "xorl %k[A2], %k[A2]\n\t"                                                                    \
    "xorl %k[A3], %k[A3]\n\t"                                                                    \
    "xorl %k[A4], %k[A4]\n\t"                                                                    \
    "xorl %k[A5], %k[A5]\n\t"                                                                    \
    "xorl %k[A6], %k[A6]\n\t" /* t = 0 */                                                        \
    VG_MADX_ROW6("0", "A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7")                            \
    RED("A0", "A1", "A2", "A3", "A4", "A5", "A6", "A7")                                          \
    VG_MADX_ROW6("8", "A1", "A2", "A3", "A4", "A5", "A6", "A7", "A0")                            \
    RED("A1", "A2", "A3", "A4", "A5", "A6", "A7", "A0")                                          \
    VG_MADX_ROW6("16", "A2", "A3", "A4", "A5", "A6", "A7", "A0", "A1")                           \
    RED("A2", "A3", "A4", "A5", "A6", "A7", "A0", "A1")                                          \
    VG_MADX_ROW6("24", "A3", "A4", "A5", "A6", "A7", "A0", "A1", "A2")                           \
    RED("A3", "A4", "A5", "A6", "A7", "A0", "A1", "A2")                                          \
    VG_MADX_ROW6("32", "A4", "A5", "A6", "A7", "A0", "A1", "A2", "A3")                           \
    RED("A4", "A5", "A6", "A7", "A0", "A1", "A2", "A3")                                          \
    VG_MADX_ROW6("40", "A5", "A6", "A7", "A0", "A1", "A2", "A3", "A4")                           \
    RED("A5", "A6", "A7", "A0", "A1", "A2", "A3", "A4")

/* Final conditional subtraction, k = 6, as VG_MADX_FINAL4. */
#define VG_MADX_FINAL6(t0, t1, t2, t3, t4, t5, t6)                                               \
    "movq %[" t0 "], 0(%[r])\n\t"                                                                \
    "movq %[" t1 "], 8(%[r])\n\t"                                                                \
    "movq %[" t2 "], 16(%[r])\n\t"                                                               \
    "movq %[" t3 "], 24(%[r])\n\t"                                                               \
    "movq %[" t4 "], 32(%[r])\n\t"                                                               \
    "movq %[" t5 "], 40(%[r])\n\t"                                                               \
    "subq %[n0], %[" t0 "]\n\t"                                                                  \
    "sbbq %[n1], %[" t1 "]\n\t"                                                                  \
    "sbbq %[n2], %[" t2 "]\n\t"                                                                  \
    "sbbq %[n3], %[" t3 "]\n\t"                                                                  \
    "sbbq %[n4], %[" t4 "]\n\t"                                                                  \
    "sbbq %[n5], %[" t5 "]\n\t"                                                                  \
    "sbbq $0, %[" t6 "]\n\t" /* CF = 1 iff t < N */                                              \
    "cmovcq 0(%[r]), %[" t0 "]\n\t"                                                              \
    "cmovcq 8(%[r]), %[" t1 "]\n\t"                                                              \
    "cmovcq 16(%[r]), %[" t2 "]\n\t"                                                             \
    "cmovcq 24(%[r]), %[" t3 "]\n\t"                                                             \
    "cmovcq 32(%[r]), %[" t4 "]\n\t"                                                             \
    "cmovcq 40(%[r]), %[" t5 "]\n\t"                                                             \
    "movq %[" t0 "], 0(%[r])\n\t"                                                                \
    "movq %[" t1 "], 8(%[r])\n\t"                                                                \
    "movq %[" t2 "], 16(%[r])\n\t"                                                               \
    "movq %[" t3 "], 24(%[r])\n\t"                                                               \
    "movq %[" t4 "], 32(%[r])\n\t"                                                               \
    "movq %[" t5 "], 40(%[r])\n\t"

/* Operand lists of a k = 6 multiplication: 10 registers + the three
 * pointers (13 allocatable registers plus rdx, which leaves room for a
 * frame pointer). */
#define VG_MADX_OUT6(A)                                                                          \
    [A0] "=&r"(A[0]), [A1] "=&r"(A[1]), [A2] "=&r"(A[2]), [A3] "=&r"(A[3]),                     \
        [A4] "=&r"(A[4]), [A5] "=&r"(A[5]), [A6] "=&r"(A[6]), [A7] "=&r"(A[7]),                 \
        [lo] "=&r"(A[8]), [hi] "=&r"(A[9])
#define VG_MADX_MOD6(N)                                                                          \
    [n0] "m"(N[0]), [n1] "m"(N[1]), [n2] "m"(N[2]), [n3] "m"(N[3]), [n4] "m"(N[4]),             \
        [n5] "m"(N[5])

#endif
