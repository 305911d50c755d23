/*
 * vgcrypto cpu: library version, CPU features (detected by CPUID/XGETBV and
 * active after VG_CPU_FEATURES), and the variant each primitive runs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "common.h"
#include "vgcrypto.h"

/* Every primitive name of DESIGN.md section 2 (vg_implementation). Names the
 * library does not know yet print "not yet implemented", so a later issue
 * that adds a primitive needs no change here. */
static const char *const g_primitives[] = {"x25519", "x25519-base", "ed25519",  "sha256",
                                           "sha512", "keccak",      "mlkem",    "mldsa",
                                           "chacha20", "poly1305",    "p256",     "p384"};

int vg_cli_cmd_cpu(int argc, char **argv)
{
    char buf[128];
    (void)argv;
    if (argc > 1)
        return vg_cli_usage_error("cpu: unexpected argument '%s'", argv[1]);

    printf("vgcrypto %s\n", vg_version());
    vg_cpu_format(vg_cpu_detected(), buf, sizeof buf);
    printf("detected:        %s\n", buf[0] ? buf : "(none)");
    const char *env = getenv("VG_CPU_FEATURES");
    if (env)
        printf("VG_CPU_FEATURES: %s\n", env);
    else
        printf("VG_CPU_FEATURES: (unset)\n");
    vg_cpu_format(vg_cpu_active(), buf, sizeof buf);
    printf("active:          %s\n", buf[0] ? buf : "(none: portable code only)");
    printf("implementations:\n");
    for (size_t i = 0; i < sizeof g_primitives / sizeof g_primitives[0]; i++) {
        const char *impl = vg_implementation(g_primitives[i]);
        printf("  %-12s %s\n", g_primitives[i], impl ? impl : "not yet implemented");
    }
    return VG_CLI_EXIT_OK;
}
