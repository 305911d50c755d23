/*
 * Constant-time check of the fixed-base scalar multiplication under
 * valgrind memcheck: the scalar is marked undefined (secret), so any branch
 * or memory index that depends on it is reported ("Conditional jump or move
 * depends on uninitialised value(s)", "Use of uninitialised value of size
 * 8") and valgrind --error-exitcode=1 fails the test. The outputs (public
 * keys) are declassified after each call.
 *
 *   ct_x25519_base --detect        print the real CPU's feature mask (native)
 *   ct_x25519_base --force MASK    run every variant the mask allows: valgrind
 *                                  hides ADX from CPUID, so the runner
 *                                  (tests/ct/run_valgrind.sh) passes the mask
 *                                  detected natively
 *   ct_x25519_base ... --leaky     the control: one branch on a secret bit,
 *                                  which memcheck must report
 */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/memcheck.h>

#include "common.h"
#include "curve25519/ge25519.h"

static int run(const struct vg_x25519_base_impl *im, int leaky)
{
    uint8_t k[32], out[32];
    unsigned acc = 0;
    for (int n = 0; n < 3; n++) {
        for (int i = 0; i < 32; i++)
            k[i] = (uint8_t)(0x35 * (i + 1) + 0x61 * n); /* fixed, varied bytes */
        VALGRIND_MAKE_MEM_UNDEFINED(k, sizeof k);
        im->public_key(out, k);
        VALGRIND_MAKE_MEM_DEFINED(out, sizeof out); /* the public key is public */
        acc += out[0];
        k[31] &= 127; /* ed25519_base precondition a < 2^255 (k stays undefined) */
        im->ed25519_base(out, k);
        VALGRIND_MAKE_MEM_DEFINED(out, sizeof out); /* [a]B is public (A or R) */
        acc += out[0];
        if (leaky && (k[0] & 1)) /* the planted leak */
            acc++;
    }
    printf("ct_x25519_base: %s checked (%u)\n", im->name, acc & 1);
    return 0;
}

int main(int argc, char **argv)
{
    uint32_t mask = 0;
    int have_force = 0, leaky = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--detect") == 0) {
            printf("%u\n", (unsigned)vg_cpu_detected());
            return 0;
        } else if (strcmp(argv[i], "--force") == 0 && i + 1 < argc) {
            mask = (uint32_t)strtoul(argv[++i], NULL, 0);
            have_force = 1;
        } else if (strcmp(argv[i], "--leaky") == 0) {
            leaky = 1;
        } else {
            fprintf(stderr, "usage: %s --detect | [--force MASK] [--leaky]\n", argv[0]);
            return 2;
        }
    }
    if (!have_force)
        mask = vg_cpu_detected();
    run(vg_x25519_base_portable_get(), leaky);
    /* Only the features the adx variant needs, and only those the CPU has. */
    vg_cpu_force(mask & (VG_CPU_BMI2 | VG_CPU_ADX));
    if (vg_x25519_base_adx_get())
        run(vg_x25519_base_adx_get(), leaky);
    else
        printf("ct_x25519_base: adx not available (mask %u): not checked\n", (unsigned)mask);
    vg_cpu_force(vg_cpu_detected());
    return 0;
}
