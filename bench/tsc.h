/*
 * Timestamps for the benchmark (TOOLING.md "Timing").
 *
 * On x86-64, `lfence; rdtsc`: lfence waits until every earlier instruction
 * has completed locally, so the read is not hoisted above the measured work.
 * The TSC ticks at a constant rate (2596 MHz on our Zen 4 VMs), not at the
 * core clock, so results are "TSC ticks", not cycles. Its granularity is
 * about 26 ticks: callers time batches for anything under ~5,000 ticks.
 *
 * Elsewhere, and in -DVG_PORTABLE=ON builds (which compile no
 * x86-64-specific code), CLOCK_MONOTONIC in nanoseconds; vg_tsc_unit()
 * names the unit for the report.
 */
#ifndef VG_BENCH_TSC_H
#define VG_BENCH_TSC_H

#include <stdint.h>

#if defined(__x86_64__) && !defined(VG_PORTABLE)
#define VG_TSC_RDTSC 1
static inline uint64_t vg_tsc_now(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
static inline const char *vg_tsc_unit(void) { return "TSC ticks"; }
#else
#include <time.h>
static inline uint64_t vg_tsc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static inline const char *vg_tsc_unit(void) { return "ns"; }
#endif

#endif /* VG_BENCH_TSC_H */
