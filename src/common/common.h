/*
 * Internal helpers shared by every area: constant-time masks, wiping, the
 * CPU-feature table and the operating system's random source.
 * Nothing here is exported from the shared library (hidden visibility).
 */
#ifndef VG_COMMON_H
#define VG_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vgcrypto.h"

#if defined(__x86_64__) && !defined(VG_PORTABLE)
#define VG_X86_64 1
#endif

/* ---- CPU features (src/common/cpu.c) --------------------------------- */

/* One bit a feature. A variant needs every bit of its mask (see cpu.c). */
#define VG_CPU_BMI2 (1u << 0) /* BMI2 and BMI1 (ANDN) */
#define VG_CPU_ADX (1u << 1)
#define VG_CPU_AVX2 (1u << 2)
#define VG_CPU_AVX512F (1u << 3)
#define VG_CPU_AVX512VL (1u << 4)
#define VG_CPU_AVX512BW (1u << 5)
#define VG_CPU_AVX512DQ (1u << 6)
#define VG_CPU_AVX512IFMA (1u << 7)
#define VG_CPU_SHA (1u << 8) /* SHA-NI, with the SSSE3 and SSE4.1 it needs */
#define VG_CPU_AVX512VBMI2 (1u << 9) /* AVX512_VBMI2 and AVX512_VBMI (byte compress, VPERMB) */
#define VG_CPU_ALL ((1u << 10) - 1u)

/* The active features: detected once (CPUID, XGETBV), restricted by
 * VG_CPU_FEATURES. Thread-safe; cheap after the first call. */
uint32_t vg_cpu_active(void);

/* 1 when every feature in `need` is active. */
static inline int vg_cpu_has(uint32_t need) { return (vg_cpu_active() & need) == need; }

/* What CPUID and XGETBV report, before VG_CPU_FEATURES. */
uint32_t vg_cpu_detected(void);

/* Restrict the active set to `mask` within what the process may use (the
 * detected features as VG_CPU_FEATURES restricts them): never enables a
 * feature the CPU, the OS or VG_CPU_FEATURES withholds, so any call is safe;
 * vg_cpu_restrict(VG_CPU_ALL) restores the full set. For the benchmark's
 * per-variant rows (bench/speed.c), which time the public functions with
 * fewer features in one run. Not for use while other threads run vg_
 * functions. (Unlike the test hook vg_cpu_force below, which bypasses
 * detection for valgrind.) */
void vg_cpu_restrict(uint32_t mask);

#if defined(VG_TEST_HOOKS)
/* Test hook (test-only library vgcrypto_testing, never installed; programs
 * linking it get VG_TEST_HOOKS from the vgcrypto_internal target): replace
 * the active set by `mask`, bypassing detection. Valgrind hides ADX and
 * AVX-512 from CPUID, so the constant-time tests first ask the real CPU
 * natively (vg_cpu_detected), then force that set under valgrind. Forcing a feature the CPU lacks makes
 * the variant fault with SIGILL: callers pass only what the CPU really has.
 * Not for use while other threads run vg_ functions. */
void vg_cpu_force(uint32_t mask);
#endif

/* Parse a VG_CPU_FEATURES-style list ("none", "bmi2,adx", ...): the mask of
 * the names it lists (unknown names ignored). */
uint32_t vg_cpu_parse(const char *list);

/* Format a mask as "bmi2,adx,..." into buf (always NUL-terminated). */
void vg_cpu_format(uint32_t mask, char *buf, size_t len);

/* ---- randomness (src/common/random.c) --------------------------------- */

/* Fill buf with len bytes from getrandom(2). VG_OK, or VG_ERR_RANDOM with
 * buf zeroed. */
int vg_randombytes(uint8_t *buf, size_t len);

#if defined(VG_TEST_HOOKS)
/* Test hook (test-only library, as vg_cpu_force): make the next `n` calls of
 * vg_randombytes fail (0 restores). */
void vg_random_fail_next(unsigned n);
#endif

/* ---- wiping and constant-time helpers ---------------------------------- */

/* Zero len bytes in a way the compiler may not elide. */
void vg_wipe(void *p, size_t len);

/* VG_CT_MSAN: compiled with MemorySanitizer (clang -fsanitize=memory). */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define VG_CT_MSAN 1
#endif
#endif

/* Value barrier: hides v from the optimiser so that masks built from
 * arithmetic stay arithmetic (see docs/constant-time.md). Under MSan the
 * register form would be reported as a use of a poisoned (secret) value,
 * since MSan checks every operand of an inline asm and marks its outputs
 * clean; the memory form passes only the (clean) address, leaves v's shadow
 * alone and is as strong a barrier (v must be stored and reloaded). */
#if defined(VG_CT_MSAN)
#define VG_BARRIER_ASM(v) __asm__("" : : "r"(&(v)) : "memory")
#elif defined(__GNUC__)
#define VG_BARRIER_ASM(v) __asm__("" : "+r"(v))
#else
#define VG_BARRIER_ASM(v) ((void)0)
#endif
/* VG_VECTOR_BARRIER(x): the same barrier on a vector lvalue (a vector
 * register, "+v", outside MSan). */
#if defined(VG_CT_MSAN)
#define VG_VECTOR_BARRIER(x) __asm__("" : : "r"(&(x)) : "memory")
#elif defined(__GNUC__)
#define VG_VECTOR_BARRIER(x) __asm__("" : "+v"(x))
#else
#define VG_VECTOR_BARRIER(x) ((void)0)
#endif
static inline uint64_t vg_barrier_u64(uint64_t v)
{
    VG_BARRIER_ASM(v);
    return v;
}

static inline uint32_t vg_barrier_u32(uint32_t v)
{
    VG_BARRIER_ASM(v);
    return v;
}

/* All-ones when x != 0, zero otherwise, with no branch. */
static inline uint64_t vg_ct_mask_nonzero_u64(uint64_t x)
{
    /* x | -x has its top bit set exactly when x != 0. */
    return vg_barrier_u64(0 - ((x | (0 - x)) >> 63));
}

/* All-ones when a == b, zero otherwise. */
static inline uint64_t vg_ct_mask_eq_u64(uint64_t a, uint64_t b)
{
    return ~vg_ct_mask_nonzero_u64(a ^ b);
}

/* VG_CT_DECLASSIFY(p, n): the n bytes at p are public from here on, although
 * they were computed from secrets (e.g. ML-KEM's rho, which G(d || k)
 * derives from the secret seed d and which the encapsulation key carries in
 * the clear). It changes nothing in the library that ships: the macro is
 * empty. The constant-time test build (tests/ct.cmake: the library compiled
 * again with VG_CT_TESTING) turns it into valgrind's client request
 * VALGRIND_MAKE_MEM_DEFINED, so that memcheck, which reports every branch or
 * address computed from undefined (secret) bytes, stops tracking values the
 * specification makes public. Every use says why the value is public. */
#if defined(VG_CT_TESTING) && defined(VG_CT_MSAN)
/* The MemorySanitizer flavour (vgcrypto_ct_msan, tests/ct_msan.cmake): the
 * harness poisons secrets with __msan_poison, MSan reports a branch or an
 * address computed from them, and this unpoisons what is public. */
#include <sanitizer/msan_interface.h>
#define VG_CT_DECLASSIFY(p, n) __msan_unpoison((p), (n))
#elif defined(VG_CT_TESTING)
#include <valgrind/memcheck.h>
#define VG_CT_DECLASSIFY(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define VG_CT_DECLASSIFY(p, n) ((void)(p), (void)(n))
#endif

/* Compare len bytes in constant time: 0 when equal, -1 otherwise. */
int vg_ct_memcmp(const uint8_t *a, const uint8_t *b, size_t len);

/* Little- and big-endian loads and stores. memcpy lets the compiler emit one
 * (unaligned) load or store; the byte swap is a single instruction. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define VG_LE_HOST 1
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define VG_LE_HOST 0
#else
#error "vgcrypto needs __BYTE_ORDER__ (gcc or clang)"
#endif

static inline uint32_t vg_load32_le(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return VG_LE_HOST ? v : __builtin_bswap32(v);
}
static inline uint32_t vg_load32_be(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return VG_LE_HOST ? __builtin_bswap32(v) : v;
}
static inline uint64_t vg_load64_le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return VG_LE_HOST ? v : __builtin_bswap64(v);
}
static inline uint64_t vg_load64_be(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return VG_LE_HOST ? __builtin_bswap64(v) : v;
}
static inline void vg_store32_le(uint8_t *p, uint32_t v)
{
    v = VG_LE_HOST ? v : __builtin_bswap32(v);
    memcpy(p, &v, 4);
}
static inline void vg_store32_be(uint8_t *p, uint32_t v)
{
    v = VG_LE_HOST ? __builtin_bswap32(v) : v;
    memcpy(p, &v, 4);
}
static inline void vg_store64_le(uint8_t *p, uint64_t v)
{
    v = VG_LE_HOST ? v : __builtin_bswap64(v);
    memcpy(p, &v, 8);
}
static inline void vg_store64_be(uint8_t *p, uint64_t v)
{
    v = VG_LE_HOST ? __builtin_bswap64(v) : v;
    memcpy(p, &v, 8);
}

#endif /* VG_COMMON_H */
