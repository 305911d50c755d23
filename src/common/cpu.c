/*
 * CPU-feature detection: CPUID leaves 1 and 7 and XGETBV, once.
 *
 * The table is the library's only global mutable state. It is computed on
 * first use; concurrent first calls compute the same value, so a relaxed
 * race is harmless and no lock is needed (C11 atomics keep it defined).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define VG_CPU_READY (1u << 31)

static _Atomic uint32_t g_cpu_state; /* VG_CPU_READY | active mask, or 0 */
static _Atomic uint32_t g_cpu_allowed; /* VG_CPU_READY | detected & VG_CPU_FEATURES, or 0 */

/* Names of the single features, in bit order (VG_CPU_BMI2 is bit 0). */
static const char *const g_bit_names[] = {"bmi2",     "adx",        "avx2", "avx512f",
                                          "avx512vl", "avx512bw",   "avx512dq", "avx512ifma",
                                          "sha",      "avx512vbmi2"};

/* Group names accepted by VG_CPU_FEATURES besides the single ones. IFMA is
 * unusable without the foundation and 256-bit forms, so its name brings them
 * along; "avx512" names the whole family. */
static const struct {
    const char *name;
    uint32_t bits;
} g_groups[] = {
    {"avx512ifma", VG_CPU_AVX512IFMA | VG_CPU_AVX512F | VG_CPU_AVX512VL},
    {"avx512", VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW | VG_CPU_AVX512DQ |
                   VG_CPU_AVX512IFMA | VG_CPU_AVX512VBMI2},
    {"all", VG_CPU_ALL},
};

#if defined(VG_X86_64)
static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

static uint32_t detect(void)
{
    uint32_t r[4], max_leaf, l1c, l7b, l7c, out = 0;
    uint64_t xcr0 = 0;
    cpuid(0, 0, r);
    max_leaf = r[0];
    if (max_leaf < 1)
        return 0;
    cpuid(1, 0, r);
    l1c = r[2];
    if (max_leaf < 7)
        return 0;
    cpuid(7, 0, r);
    l7b = r[1];
    l7c = r[2];
    /* XGETBV exists only when the OS set CR4.OSXSAVE (leaf 1 ECX bit 27). */
    if (l1c & (1u << 27))
        xcr0 = xgetbv0();
    int avx_os = (l1c & (1u << 28)) && (xcr0 & 0x6) == 0x6;      /* XMM and YMM state */
    int avx512_os = avx_os && (xcr0 & 0xe6) == 0xe6;              /* plus opmask, ZMM */
    /* Code for the "bmi2" feature also uses BMI1 (ANDN): leaf 7 EBX bit 3. */
    if ((l7b & (1u << 8)) && (l7b & (1u << 3)))
        out |= VG_CPU_BMI2;
    if (l7b & (1u << 19))
        out |= VG_CPU_ADX;
    /* SHA-NI code also uses SSSE3 (bit 9) and SSE4.1 (bit 19) of leaf 1 ECX. */
    if ((l7b & (1u << 29)) && (l1c & (1u << 9)) && (l1c & (1u << 19)))
        out |= VG_CPU_SHA;
    if (avx_os && (l7b & (1u << 5)))
        out |= VG_CPU_AVX2;
    if (avx512_os && (l7b & (1u << 16))) {
        out |= VG_CPU_AVX512F;
        if (l7b & (1u << 31))
            out |= VG_CPU_AVX512VL;
        if (l7b & (1u << 30))
            out |= VG_CPU_AVX512BW;
        if (l7b & (1u << 17))
            out |= VG_CPU_AVX512DQ;
        if (l7b & (1u << 21))
            out |= VG_CPU_AVX512IFMA;
        /* One feature for both: leaf 7 ECX bit 1 (VBMI, VPERMB) and bit 6
         * (VBMI2, VPCOMPRESSB). */
        if ((l7c & (1u << 1)) && (l7c & (1u << 6)))
            out |= VG_CPU_AVX512VBMI2;
    }
    return out;
}
#else
static uint32_t detect(void) { return 0; }
#endif

uint32_t vg_cpu_detected(void) { return detect(); }

static int name_is(const char *p, size_t n, const char *name)
{
    return strlen(name) == n && strncmp(p, name, n) == 0;
}

uint32_t vg_cpu_parse(const char *list)
{
    uint32_t mask = 0;
    const char *p = list;
    while (p && *p) {
        size_t n = strcspn(p, ", \t");
        for (size_t i = 0; i < sizeof g_bit_names / sizeof g_bit_names[0]; i++)
            if (name_is(p, n, g_bit_names[i]))
                mask |= 1u << i;
        for (size_t i = 0; i < sizeof g_groups / sizeof g_groups[0]; i++)
            if (name_is(p, n, g_groups[i].name))
                mask |= g_groups[i].bits;
        p += n;
        p += strspn(p, ", \t");
    }
    return mask;
}

void vg_cpu_format(uint32_t mask, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof g_bit_names / sizeof g_bit_names[0]; i++) {
        size_t n = strlen(g_bit_names[i]);
        if (!(mask & (1u << i)))
            continue;
        if (used + n + 2 > len)
            break;
        if (used)
            buf[used++] = ',';
        memcpy(buf + used, g_bit_names[i], n + 1);
        used += n;
    }
}

/* What the process may use at most: the detected features restricted by
 * VG_CPU_FEATURES, computed once (CPUID traps to the hypervisor in a VM, so
 * it is not repeated). */
static uint32_t cpu_allowed(void)
{
    uint32_t s = atomic_load_explicit(&g_cpu_allowed, memory_order_acquire);
    if (s & VG_CPU_READY)
        return s & ~VG_CPU_READY;
    uint32_t mask = detect();
    const char *env = getenv("VG_CPU_FEATURES");
    if (env)
        mask &= vg_cpu_parse(env); /* "none" parses to 0 */
    atomic_store_explicit(&g_cpu_allowed, mask | VG_CPU_READY, memory_order_release);
    return mask;
}

uint32_t vg_cpu_active(void)
{
    uint32_t s = atomic_load_explicit(&g_cpu_state, memory_order_acquire);
    if (s & VG_CPU_READY)
        return s & ~VG_CPU_READY;
    uint32_t mask = cpu_allowed();
    atomic_store_explicit(&g_cpu_state, mask | VG_CPU_READY, memory_order_release);
    return mask;
}

void vg_cpu_restrict(uint32_t mask)
{
    atomic_store_explicit(&g_cpu_state, (cpu_allowed() & mask) | VG_CPU_READY,
                          memory_order_release);
}

#if defined(VG_TEST_HOOKS)
/* Only in the test-only library (CMakeLists.txt: vgcrypto_testing); the
 * installed libraries are built without VG_TEST_HOOKS. */
void vg_cpu_force(uint32_t mask)
{
    atomic_store_explicit(&g_cpu_state, (mask & VG_CPU_ALL) | VG_CPU_READY, memory_order_release);
}
#endif
