/*
 * The command line shared by the valgrind harnesses (ct_valgrind,
 * ct_valgrind_mlkem, ct_valgrind_mldsa), as tests/ct/run_valgrind.sh runs
 * them:
 *   NAME --detect               print vg_cpu_detected() (run natively)
 *   NAME [--force MASK] [--leaky] [--quick]
 *                               MASK: the real CPU's mask from --detect
 *                               (valgrind's CPUID hides ADX, AVX-512 and SHA);
 *                               --leaky: only the leaky control; --quick: a
 *                               shorter run, for harnesses that have one.
 * Include after <valgrind/valgrind.h>, "common.h" and <stdio.h>.
 */
#ifndef VG_CT_VALGRIND_MAIN_H
#define VG_CT_VALGRIND_MAIN_H

#include <stdlib.h>
#include <string.h>

/* Feature bits valgrind 3.19 cannot execute: AVX-512 (SIGILL on the EVEX
 * prefix 0x62) and SHA-NI ("unhandled instruction bytes 0x0F 0x38 0xCB"). */
#define NO_VALGRIND_AVX512                                                                  \
    (VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW | VG_CPU_AVX512DQ | VG_CPU_AVX512IFMA)
#define NO_VALGRIND_SHA VG_CPU_SHA

struct vg_ctv_opts {
    int leaky;         /* --leaky */
    int quick;         /* --quick (only when the harness allows it) */
    int on_valgrind;   /* running under valgrind */
    uint32_t avail;    /* the features to check: --force MASK, else detected */
    uint32_t runnable; /* avail without what valgrind cannot execute */
};

/* Parse the command line and print the harness's status lines. Returns -1
 * when the harness should go on (o filled), else the exit code (after
 * --detect, 0; on a usage error, 2). */
static int vg_ctv_parse(int argc, char **argv, const char *name, int allow_quick,
                        struct vg_ctv_opts *o)
{
    int have_force = 0;
    uint32_t force = 0;
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--detect") == 0) {
            printf("0x%x\n", (unsigned)vg_cpu_detected());
            return 0;
        } else if (strcmp(argv[i], "--force") == 0 && i + 1 < argc) {
            force = (uint32_t)strtoul(argv[++i], NULL, 0);
            have_force = 1;
        } else if (strcmp(argv[i], "--leaky") == 0) {
            o->leaky = 1;
        } else if (allow_quick && strcmp(argv[i], "--quick") == 0) {
            o->quick = 1;
        } else {
            fprintf(stderr, "usage: %s --detect | [--force MASK] [--leaky]%s\n", argv[0],
                    allow_quick ? " [--quick]" : "");
            return 2;
        }
    }
    o->on_valgrind = RUNNING_ON_VALGRIND != 0;
    o->avail = have_force ? force & VG_CPU_ALL : vg_cpu_detected();
    o->runnable = o->avail;
    if (o->on_valgrind)
        o->runnable &= ~(uint32_t)(NO_VALGRIND_AVX512 | NO_VALGRIND_SHA);
    if (o->on_valgrind && !have_force)
        printf("%s: warning: no --force mask; valgrind's CPUID hides ADX, AVX-512 and SHA, so "
               "only what it shows is checked (use run_valgrind.sh)\n", name);
    if (!o->on_valgrind)
        printf("%s: not under valgrind: the routines run but nothing checks them\n", name);
    char feat[96];
    vg_cpu_format(o->avail, feat, sizeof feat);
    printf("%s: CPU features 0x%03x (%s)\n", name, (unsigned)o->avail, feat);
    return -1;
}

#endif
