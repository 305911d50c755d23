/*
 * The portable P-256 / P-384 field and scalar kernels (src/nist/fe256_portable.h,
 * fe384_portable.h, sc_portable.h) gathered into a table for test_nist_fe.c.
 * Included once by test_nist_fe.c (64-bit limbs with unsigned __int128 where
 * the compiler has it) and once by nist_fe_twin.c with VG_NIST_NO_INT128
 * defined (the 32-bit-multiply path), so both paths run against GMP.
 * Define NIST_OPS_FN to the name of the function that fills the table.
 */
#include <stddef.h>
#include <stdint.h>

#include "nist/fe256_portable.h"
#include "nist/fe384_portable.h"
#include "nist/sc_portable.h"

struct nist_ops {
    const char *name;
    size_t nl;
    void (*mul)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*sqr)(uint64_t *r, const uint64_t *a);
    void (*add)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*sub)(uint64_t *r, const uint64_t *a, const uint64_t *b);
    void (*neg)(uint64_t *r, const uint64_t *a);
};

#define NIST_WRAP(pre, n)                                                                     \
    static void pre##_mul_w(uint64_t *r, const uint64_t *a, const uint64_t *b)              \
    {                                                                                        \
        pre##_mul(r, a, b);                                                                  \
    }                                                                                        \
    static void pre##_sqr_w(uint64_t *r, const uint64_t *a) { pre##_sqr(r, a); }            \
    static void pre##_add_w(uint64_t *r, const uint64_t *a, const uint64_t *b)              \
    {                                                                                        \
        pre##_add(r, a, b);                                                                  \
    }                                                                                        \
    static void pre##_sub_w(uint64_t *r, const uint64_t *a, const uint64_t *b)              \
    {                                                                                        \
        pre##_sub(r, a, b);                                                                  \
    }                                                                                        \
    static void pre##_neg_w(uint64_t *r, const uint64_t *a) { pre##_neg(r, a); }

NIST_WRAP(fe256, 4)
NIST_WRAP(fe384, 6)
NIST_WRAP(sc256, 4)
NIST_WRAP(sc384, 6)

#define NIST_ENTRY(pre, n, nm)                                                                \
    {nm, n, pre##_mul_w, pre##_sqr_w, pre##_add_w, pre##_sub_w, pre##_neg_w}

void NIST_OPS_FN(struct nist_ops out[4]);
void NIST_OPS_FN(struct nist_ops out[4])
{
    const struct nist_ops t[4] = {
        NIST_ENTRY(fe256, 4, "fe256"),
        NIST_ENTRY(fe384, 6, "fe384"),
        NIST_ENTRY(sc256, 4, "sc256"),
        NIST_ENTRY(sc384, 6, "sc384"),
    };
    for (int i = 0; i < 4; i++)
        out[i] = t[i];
}
