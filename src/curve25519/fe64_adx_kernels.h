/*
 * The BMI2/ADX field kernels modulo p = 2^255 - 19 on four 64-bit words
 * (MULX, ADCX/ADOX, fold by 38), as static inline functions, so that every
 * x86-64 user inlines them: fe64_adx.c (the field's operation table and the
 * X25519 ladder) and ge25519_vartime_adx.c (Ed25519 verification, where the
 * calls through the table cost more than the arithmetic). Include only
 * under VG_X86_64, in files compiled with -mbmi2 -madx.
 *
 * Representation: any value below 2^256 stands for its residue mod p; every
 * kernel takes any such inputs, returns a value below 2^256, and allows any
 * aliasing of h with the inputs, except fe64_addw and fe64_subw, which need
 * one operand below 2^256 - 38. Each kernel opens with its C prototype, its
 * semantics and its register use; every carry has its bound beside it.
 *
 * Weak bound FE64_W = 2^255 + 2^23: fe64_mul, fe64_sqr, fe64_nsqr and
 * fe64_mul121666_add fold once at bit 255 and return values below it. Since
 * FE64_W < 2^256 - 38, their outputs may enter the single-fold fe64_addw
 * and fe64_subw (three instructions fewer than fe64_add and fe64_sub, and a
 * shorter dependency chain); callers write the bound beside each use.
 */
#ifndef VG_CURVE25519_FE64_ADX_KERNELS_H
#define VG_CURVE25519_FE64_ADX_KERNELS_H

#include <stdint.h>

/* ---- shared tail of mul and sqr: 512 -> 256 bits ---------------------------
 * In:  r0..r3 = lo, r4..r7 = hi of a 512-bit product (r7 names a register
 *      that held an input pointer; it is free by now). rdx free.
 * Out: r0..r3 = lo + 38 hi folded below 2^255 + 1463 (< FE64_W), stored at [h].
 * Clobbers: rdx, t0, t1, z, r4, flags. */
#define FE64_REDUCE_512                                                                          \
    "movl $38, %%edx\n\t"                                                                        \
    "xorl %k[z], %k[z]\n\t" /* z = 0, CF = OF = 0 */                                             \
    "mulxq %[r4], %[t0], %[t1]\n\t"                                                              \
    "adcxq %[t0], %[r0]\n\t"                                                                     \
    "adoxq %[t1], %[r1]\n\t"                                                                     \
    "mulxq %[r5], %[t0], %[t1]\n\t"                                                              \
    "adcxq %[t0], %[r1]\n\t"                                                                     \
    "adoxq %[t1], %[r2]\n\t"                                                                     \
    "mulxq %[r6], %[t0], %[t1]\n\t"                                                              \
    "adcxq %[t0], %[r2]\n\t"                                                                     \
    "adoxq %[t1], %[r3]\n\t"                                                                     \
    "mulxq %[r7], %[t0], %[r4]\n\t"                                                              \
    "adcxq %[t0], %[r3]\n\t"                                                                     \
    /* lo + 38 hi <= (2^256 - 1) + 38 (2^256 - 1) < 39 * 2^256, so the top word */               \
    /* r4 (high half of 38 r7, plus both pending carries) ends at most 38: no carry out. */      \
    "adoxq %[z], %[r4]\n\t"                                                                      \
    "adcxq %[z], %[r4]\n\t"                                                                      \
    /* one fold at bit 255 (2^255 = 19 mod p): q = floor(value / 2^255) = */                     \
    /* 2 r4 + bit 63 of r3 <= 77; the value becomes (value mod 2^255) + 19 q */                  \
    "shldq $1, %[r3], %[r4]\n\t" /* q */                                                         \
    "btrq $63, %[r3]\n\t"                                                                        \
    "imulq $19, %[r4], %[r4]\n\t" /* 19 q <= 1463 */                                             \
    "addq %[r4], %[r0]\n\t"                                                                      \
    "adcq %[z], %[r1]\n\t"                                                                       \
    "adcq %[z], %[r2]\n\t"                                                                       \
    /* (value mod 2^255) + 19 q < 2^255 + 1463: no carry out of r3 */                            \
    "adcq %[z], %[r3]\n\t"                                                                       \
    "movq %[r0], 0(%[h])\n\t"                                                                    \
    "movq %[r1], 8(%[h])\n\t"                                                                    \
    "movq %[r2], 16(%[h])\n\t"                                                                   \
    "movq %[r3], 24(%[h])\n\t"

/* One row of the schoolbook product: (r_i .. r_{i+4}) += f * rdx * 2^(64 i),
 * with the low halves of f[j] * rdx on the CF chain (ADCX) and the high
 * halves on the OF chain (ADOX). The new top word rI4 starts as the high
 * half of f[3] * rdx and takes both final carries; it cannot overflow since
 * f * (g mod 2^(64 (i+1))) < 2^(256 + 64 (i+1)) fits in words 0 .. i+4. */
#define FE64_MUL_ROW(rI0, rI1, rI2, rI3, rI4)                                                    \
    "xorl %k[z], %k[z]\n\t" /* z = 0, CF = OF = 0 */                                             \
    "mulxq 0(%[f]), %[t0], %[t1]\n\t"                                                            \
    "adcxq %[t0], %[" rI0 "]\n\t"                                                                \
    "adoxq %[t1], %[" rI1 "]\n\t"                                                                \
    "mulxq 8(%[f]), %[t0], %[t1]\n\t"                                                            \
    "adcxq %[t0], %[" rI1 "]\n\t"                                                                \
    "adoxq %[t1], %[" rI2 "]\n\t"                                                                \
    "mulxq 16(%[f]), %[t0], %[t1]\n\t"                                                           \
    "adcxq %[t0], %[" rI2 "]\n\t"                                                                \
    "adoxq %[t1], %[" rI3 "]\n\t"                                                                \
    "mulxq 24(%[f]), %[t0], %[" rI4 "]\n\t"                                                      \
    "adcxq %[t0], %[" rI3 "]\n\t"                                                                \
    "adoxq %[z], %[" rI4 "]\n\t"                                                                 \
    "adcxq %[z], %[" rI4 "]\n\t"

/* void fe64_mul(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
 * h = f * g folded below 2^255 + 1463 < FE64_W (congruent mod p). Inputs: any values below
 * 2^256; any aliasing (h is written last).
 * Registers: %[f], %[h] pointers; %[r7] holds the g pointer until g[3] is in
 * rdx, then the product's top word; r0..r6, t0, t1, z (zero) scratch; rdx
 * the MULX multiplier. 13 allocatable registers plus rdx. */
static inline void fe64_mul(uint64_t h[4], const uint64_t f[4], const uint64_t g[4])
{
    uint64_t r0, r1, r2, r3, r4, r5, r6, t0, t1, z;
    uint64_t r7 = (uint64_t)(uintptr_t)g;
    __asm__ volatile("movq 0(%[r7]), %%rdx\n\t"
            /* row 0: f * g[0] < 2^320 fits r0..r4, so the last ADC has no carry out */
            "mulxq 0(%[f]), %[r0], %[r1]\n\t"
            "mulxq 8(%[f]), %[t0], %[r2]\n\t"
            "addq %[t0], %[r1]\n\t"
            "mulxq 16(%[f]), %[t0], %[r3]\n\t"
            "adcq %[t0], %[r2]\n\t"
            "mulxq 24(%[f]), %[t0], %[r4]\n\t"
            "adcq %[t0], %[r3]\n\t"
            "adcq $0, %[r4]\n\t"
            "movq 8(%[r7]), %%rdx\n\t"
            FE64_MUL_ROW("r1", "r2", "r3", "r4", "r5")
            "movq 16(%[r7]), %%rdx\n\t"
            FE64_MUL_ROW("r2", "r3", "r4", "r5", "r6")
            "movq 24(%[r7]), %%rdx\n\t" /* last use of the g pointer */
            FE64_MUL_ROW("r3", "r4", "r5", "r6", "r7")
            FE64_REDUCE_512
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [r5] "=&r"(r5), [r6] "=&r"(r6), [t0] "=&r"(t0), [t1] "=&r"(t1), [z] "=&r"(z),
              [r7] "+&r"(r7)
            : [f] "r"(f), [h] "r"(h)
            : "rdx", "cc", "memory");
}

/* void fe64_sqr(uint64_t h[4], const uint64_t f[4]);
 * h = f^2 folded below 2^255 + 1463 < FE64_W. Input: any value below 2^256;
 * h may alias f.
 * Method: the six cross products a_i a_j (i < j) into r1..r6, doubled on the
 * CF chain while the squares a_i^2 enter on the OF chain.
 * Registers: %[r7] holds the f pointer until f[3] is in rdx, then the top
 * word; %[h] pointer; r0..r6, t0, t1, z scratch; rdx the MULX multiplier. */
static inline void fe64_sqr(uint64_t h[4], const uint64_t f[4])
{
    uint64_t r0, r1, r2, r3, r4, r5, r6, t0, t1, z;
    uint64_t r7 = (uint64_t)(uintptr_t)f;
    __asm__ volatile("movq 0(%[r7]), %%rdx\n\t"
            "mulxq 8(%[r7]), %[r1], %[r2]\n\t"  /* a0 a1 at word 1 */
            "mulxq 16(%[r7]), %[t0], %[r3]\n\t" /* a0 a2 at word 2 */
            "addq %[t0], %[r2]\n\t"
            "mulxq 24(%[r7]), %[t0], %[r4]\n\t" /* a0 a3 at word 3 */
            "adcq %[t0], %[r3]\n\t"
            "movq 8(%[r7]), %%rdx\n\t"
            "mulxq 24(%[r7]), %[t0], %[r5]\n\t" /* a1 a3 at word 4 */
            "adcq %[t0], %[r4]\n\t"
            "movq 16(%[r7]), %%rdx\n\t"
            "mulxq 24(%[r7]), %[t0], %[r6]\n\t" /* a2 a3 at word 5 */
            "adcq %[t0], %[r5]\n\t"
            /* so far a0 (a1 2^64 + a2 2^128 + a3 2^192) + a1 a3 2^256 + a2 a3 2^320 */
            /* < 2^448: the carry into r6 does not overflow it */
            "adcq $0, %[r6]\n\t"
            "movq 8(%[r7]), %%rdx\n\t"
            "mulxq 16(%[r7]), %[t0], %[t1]\n\t" /* a1 a2 at word 3 */
            "addq %[t0], %[r3]\n\t"
            "adcq %[t1], %[r4]\n\t"
            "adcq $0, %[r5]\n\t"
            /* all six cross products: sum < 2^448 (the a2 a3 term is at most */
            /* 2^448 - 2^385 + 2^320 and the rest < 2^385), so no carry out of r6 */
            "adcq $0, %[r6]\n\t"
            /* double (CF chain) and add the squares (OF chain); r7 = top word */
            "xorl %k[z], %k[z]\n\t"
            "movq 0(%[r7]), %%rdx\n\t"
            "mulxq %%rdx, %[r0], %[t1]\n\t"
            "adcxq %[r1], %[r1]\n\t"
            "adoxq %[t1], %[r1]\n\t"
            "movq 8(%[r7]), %%rdx\n\t"
            "mulxq %%rdx, %[t0], %[t1]\n\t"
            "adcxq %[r2], %[r2]\n\t"
            "adoxq %[t0], %[r2]\n\t"
            "adcxq %[r3], %[r3]\n\t"
            "adoxq %[t1], %[r3]\n\t"
            "movq 16(%[r7]), %%rdx\n\t"
            "mulxq %%rdx, %[t0], %[t1]\n\t"
            "adcxq %[r4], %[r4]\n\t"
            "adoxq %[t0], %[r4]\n\t"
            "adcxq %[r5], %[r5]\n\t"
            "adoxq %[t1], %[r5]\n\t"
            "movq 24(%[r7]), %%rdx\n\t" /* last use of the f pointer */
            "mulxq %%rdx, %[t0], %[r7]\n\t"
            "adcxq %[r6], %[r6]\n\t"
            "adoxq %[t0], %[r6]\n\t"
            /* f^2 < 2^512: the top word takes both carries without overflow */
            "adcxq %[z], %[r7]\n\t"
            "adoxq %[z], %[r7]\n\t"
            FE64_REDUCE_512
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [r5] "=&r"(r5), [r6] "=&r"(r6), [t0] "=&r"(t0), [t1] "=&r"(t1), [z] "=&r"(z),
              [r7] "+&r"(r7)
            : [h] "r"(h)
            : "rdx", "cc", "memory");
}

/* void fe64_add(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
 * h = f + g folded below 2^256. Any inputs below 2^256, any aliasing.
 * Registers: %[f], %[g], %[h] pointers; r0..r3, t scratch. */
static inline void fe64_add(uint64_t h[4], const uint64_t f[4], const uint64_t g[4])
{
    uint64_t r0, r1, r2, r3, t;
    __asm__ volatile("movq 0(%[f]), %[r0]\n\t"
            "movq 8(%[f]), %[r1]\n\t"
            "movq 16(%[f]), %[r2]\n\t"
            "movq 24(%[f]), %[r3]\n\t"
            "addq 0(%[g]), %[r0]\n\t"
            "adcq 8(%[g]), %[r1]\n\t"
            "adcq 16(%[g]), %[r2]\n\t"
            "adcq 24(%[g]), %[r3]\n\t"
            /* f + g < 2^257, so CF is 0 or 1; t = 38 CF */
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "addq %[t], %[r0]\n\t"
            "adcq $0, %[r1]\n\t"
            "adcq $0, %[r2]\n\t"
            "adcq $0, %[r3]\n\t"
            /* (f + g - 2^256) + 38 < 2^256 + 38: CF is 0 or 1, and when it is 1 the */
            /* wrapped value is below 38, so r0 + 38 cannot carry */
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "addq %[t], %[r0]\n\t"
            "movq %[r0], 0(%[h])\n\t"
            "movq %[r1], 8(%[h])\n\t"
            "movq %[r2], 16(%[h])\n\t"
            "movq %[r3], 24(%[h])\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [t] "=&r"(t)
            : [f] "r"(f), [g] "r"(g), [h] "r"(h)
            : "cc", "memory");
}

/* void fe64_sub(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
 * h = f - g, brought back into [0, 2^256) by subtracting 38 for each borrow
 * (-2^256 = -38 mod p). Any inputs below 2^256, any aliasing.
 * Registers: %[f], %[g], %[h] pointers; r0..r3, t scratch. */
static inline void fe64_sub(uint64_t h[4], const uint64_t f[4], const uint64_t g[4])
{
    uint64_t r0, r1, r2, r3, t;
    __asm__ volatile("movq 0(%[f]), %[r0]\n\t"
            "movq 8(%[f]), %[r1]\n\t"
            "movq 16(%[f]), %[r2]\n\t"
            "movq 24(%[f]), %[r3]\n\t"
            "subq 0(%[g]), %[r0]\n\t"
            "sbbq 8(%[g]), %[r1]\n\t"
            "sbbq 16(%[g]), %[r2]\n\t"
            "sbbq 24(%[g]), %[r3]\n\t"
            /* f - g > -2^256: one borrow at most; r = f - g + 2^256 CF; t = 38 CF */
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "subq %[t], %[r0]\n\t"
            "sbbq $0, %[r1]\n\t"
            "sbbq $0, %[r2]\n\t"
            "sbbq $0, %[r3]\n\t"
            /* r - 38 borrows only when r < 38; then r - 38 + 2^256 >= 2^256 - 38, */
            /* so its low word is >= 2^64 - 38 and subtracting 38 again cannot borrow */
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "subq %[t], %[r0]\n\t"
            "movq %[r0], 0(%[h])\n\t"
            "movq %[r1], 8(%[h])\n\t"
            "movq %[r2], 16(%[h])\n\t"
            "movq %[r3], 24(%[h])\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [t] "=&r"(t)
            : [f] "r"(f), [g] "r"(g), [h] "r"(h)
            : "cc", "memory");
}

/* void fe64_mul121666(uint64_t h[4], const uint64_t f[4]);
 * h = 121666 f (121666 = (A + 2) / 4, A = 486662) folded below 2^256.
 * Any input below 2^256; h may alias f.
 * Registers: %[f], %[h] pointers; r0..r4, t scratch; rdx = 121666. */
static inline void fe64_mul121666(uint64_t h[4], const uint64_t f[4])
{
    uint64_t r0, r1, r2, r3, r4, t;
    __asm__ volatile("movl $121666, %%edx\n\t"
            "mulxq 0(%[f]), %[r0], %[r1]\n\t"
            "mulxq 8(%[f]), %[t], %[r2]\n\t"
            "addq %[t], %[r1]\n\t"
            "mulxq 16(%[f]), %[t], %[r3]\n\t"
            "adcq %[t], %[r2]\n\t"
            "mulxq 24(%[f]), %[t], %[r4]\n\t"
            "adcq %[t], %[r3]\n\t"
            /* 121666 f < 2^273: no carry out, and the top word r4 < 121666 */
            "adcq $0, %[r4]\n\t"
            "imulq $38, %[r4], %[r4]\n\t" /* < 2^23 */
            "addq %[r4], %[r0]\n\t"
            "adcq $0, %[r1]\n\t"
            "adcq $0, %[r2]\n\t"
            "adcq $0, %[r3]\n\t"
            /* sum < 2^256 + 2^23: CF 0 or 1; when 1 the wrapped value is < 2^23, */
            /* so r0 + 38 cannot carry */
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "addq %[t], %[r0]\n\t"
            "movq %[r0], 0(%[h])\n\t"
            "movq %[r1], 8(%[h])\n\t"
            "movq %[r2], 16(%[h])\n\t"
            "movq %[r3], 24(%[h])\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [t] "=&r"(t)
            : [f] "r"(f), [h] "r"(h)
            : "rdx", "cc", "memory");
}

/* void fe64_addw(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
 * h = f + g folded below 2^256, with one fold: needs f + g < 2^257 - 38,
 * which holds when f or g is below 2^256 - 38 (for example below FE64_W).
 * Any aliasing. Registers: %[f], %[g], %[h] pointers; r0..r3, t scratch. */
static inline void fe64_addw(uint64_t h[4], const uint64_t f[4], const uint64_t g[4])
{
    uint64_t r0, r1, r2, r3, t;
    __asm__ volatile("movq 0(%[f]), %[r0]\n\t"
            "movq 8(%[f]), %[r1]\n\t"
            "movq 16(%[f]), %[r2]\n\t"
            "movq 24(%[f]), %[r3]\n\t"
            "addq 0(%[g]), %[r0]\n\t"
            "adcq 8(%[g]), %[r1]\n\t"
            "adcq 16(%[g]), %[r2]\n\t"
            "adcq 24(%[g]), %[r3]\n\t"
            /* f + g < 2^257 - 38: CF is 0 or 1; t = 38 CF */
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "addq %[t], %[r0]\n\t"
            "adcq $0, %[r1]\n\t"
            "adcq $0, %[r2]\n\t"
            /* with CF set, (f + g - 2^256) + 38 < 2^256 by the precondition: no carry out */
            "adcq $0, %[r3]\n\t"
            "movq %[r0], 0(%[h])\n\t"
            "movq %[r1], 8(%[h])\n\t"
            "movq %[r2], 16(%[h])\n\t"
            "movq %[r3], 24(%[h])\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [t] "=&r"(t)
            : [f] "r"(f), [g] "r"(g), [h] "r"(h)
            : "cc", "memory");
}

/* void fe64_subw(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
 * h = f - g brought into [0, 2^256) with one fold: needs g <= 2^256 - 38
 * (for example g below FE64_W); f any value below 2^256. Any aliasing.
 * Registers: %[f], %[g], %[h] pointers; r0..r3, t scratch. */
static inline void fe64_subw(uint64_t h[4], const uint64_t f[4], const uint64_t g[4])
{
    uint64_t r0, r1, r2, r3, t;
    __asm__ volatile("movq 0(%[f]), %[r0]\n\t"
            "movq 8(%[f]), %[r1]\n\t"
            "movq 16(%[f]), %[r2]\n\t"
            "movq 24(%[f]), %[r3]\n\t"
            "subq 0(%[g]), %[r0]\n\t"
            "sbbq 8(%[g]), %[r1]\n\t"
            "sbbq 16(%[g]), %[r2]\n\t"
            "sbbq 24(%[g]), %[r3]\n\t"
            /* one borrow at most; t = 38 CF */
            "sbbq %[t], %[t]\n\t"
            "andq $38, %[t]\n\t"
            "subq %[t], %[r0]\n\t"
            "sbbq $0, %[r1]\n\t"
            "sbbq $0, %[r2]\n\t"
            /* with a borrow, f - g + 2^256 - 38 >= 0 since g <= 2^256 - 38: no borrow out */
            "sbbq $0, %[r3]\n\t"
            "movq %[r0], 0(%[h])\n\t"
            "movq %[r1], 8(%[h])\n\t"
            "movq %[r2], 16(%[h])\n\t"
            "movq %[r3], 24(%[h])\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [t] "=&r"(t)
            : [f] "r"(f), [g] "r"(g), [h] "r"(h)
            : "cc", "memory");
}

/* void fe64_mul121666_add(uint64_t h[4], const uint64_t f[4], const uint64_t g[4]);
 * h = 121666 f + g folded once at bit 255, below 2^255 + 2^23 = FE64_W: the
 * ladder's z factor BB + 121666 E in one pass. Any inputs below 2^256, any
 * aliasing (h is written last).
 * Registers: %[f], %[g], %[h] pointers; r0..r4, t scratch; rdx = 121666. */
static inline void fe64_mul121666_add(uint64_t h[4], const uint64_t f[4], const uint64_t g[4])
{
    uint64_t r0, r1, r2, r3, r4, t;
    __asm__ volatile("movl $121666, %%edx\n\t"
            "mulxq 0(%[f]), %[r0], %[r1]\n\t"
            "mulxq 8(%[f]), %[t], %[r2]\n\t"
            "addq %[t], %[r1]\n\t"
            "mulxq 16(%[f]), %[t], %[r3]\n\t"
            "adcq %[t], %[r2]\n\t"
            "mulxq 24(%[f]), %[t], %[r4]\n\t"
            "adcq %[t], %[r3]\n\t"
            /* 121666 f < 2^273: no carry out, the top word r4 < 121666 */
            "adcq $0, %[r4]\n\t"
            "addq 0(%[g]), %[r0]\n\t"
            "adcq 8(%[g]), %[r1]\n\t"
            "adcq 16(%[g]), %[r2]\n\t"
            "adcq 24(%[g]), %[r3]\n\t"
            /* 121666 f + g < 121667 * 2^256: r4 <= 121666, no carry out */
            "adcq $0, %[r4]\n\t"
            /* q = floor(value / 2^255) = 2 r4 + bit 63 of r3 < 2^18 */
            "shldq $1, %[r3], %[r4]\n\t"
            "btrq $63, %[r3]\n\t"
            "imulq $19, %[r4], %[r4]\n\t" /* 19 q < 2^23 */
            "addq %[r4], %[r0]\n\t"
            "adcq $0, %[r1]\n\t"
            "adcq $0, %[r2]\n\t"
            /* (value mod 2^255) + 19 q < 2^255 + 2^23: no carry out of r3 */
            "adcq $0, %[r3]\n\t"
            "movq %[r0], 0(%[h])\n\t"
            "movq %[r1], 8(%[h])\n\t"
            "movq %[r2], 16(%[h])\n\t"
            "movq %[r3], 24(%[h])\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [t] "=&r"(t)
            : [f] "r"(f), [g] "r"(g), [h] "r"(h)
            : "rdx", "cc", "memory");
}

/* ---- C parts: decoding, encoding, inversion --------------------------------- */

#endif
