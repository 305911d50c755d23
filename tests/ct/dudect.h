/*
 * A small dudect-style timing-leak test (Reparaz, Balasch, Verbauwhede,
 * "Dude, is my code constant time?", DATE 2017), reusable for any routine.
 *
 * A routine is described by two callbacks: `prepare` writes one input for a
 * class (0 = the fixed input, 1 = a random input) outside the timed region,
 * and `measure` runs the routine on one input. The harness draws the class
 * of every measurement at random (so drift and noise fall on both classes
 * alike), times each call with `lfence; rdtsc` on both sides, and runs
 * Welch's t-test between the two classes over the raw measurements and over
 * several percentile crops (measurements at or below the p-th percentile of
 * the pooled distribution, for each p in the crop list). The verdict uses the
 * largest |t| across these tests: |t| >= VG_DUDECT_THRESHOLD means the two
 * classes have different timing distributions, i.e. a leak.
 *
 * See docs/constant-time.md for thresholds, controls and measured figures.
 */
#ifndef VG_CT_DUDECT_H
#define VG_CT_DUDECT_H

#include <stddef.h>
#include <stdint.h>

#define VG_DUDECT_THRESHOLD 4.5

struct vg_dudect_routine {
    const char *name;
    size_t input_len; /* bytes per input, >= 1 */
    /* Write input_len bytes to `input` for class cls (0 fixed, 1 random).
     * Not timed. May call vg_dudect_randombytes. */
    void (*prepare)(void *ctx, int cls, uint8_t *input);
    /* Run the routine under test on `input` (timed). */
    void (*measure)(void *ctx, const uint8_t *input);
    void *ctx;
    /* Peers (optional; NULL / 0: none): trusted implementations of the same
     * operation with the same class design (another library, loaded with
     * dlopen). vg_dudect_judge runs them in the same period as a target
     * that separated twice: if a peer separates too, the period is a
     * platform period and the target is judged again in a later one; it
     * fails only when it separates twice while none of its peers does
     * (docs/constant-time.md, "Verdicts"). */
    const struct vg_dudect_routine *const *peers;
    size_t npeers;
};

struct vg_dudect_result {
    size_t samples;   /* timed measurements used (warm-up excluded) */
    size_t count[2];  /* of which class 0, class 1 */
    double max_abs_t; /* largest |t| over the raw test and every crop */
    double worst_pct; /* crop percentile of that |t| (100 = raw, no crop) */
    double mean[2];   /* raw mean ticks per class */
    uint64_t median;  /* pooled median ticks */
};

/* Fill buf with len pseudo-random bytes from the harness generator (seeded by
 * vg_dudect_run; statistical quality only, not cryptographic). */
void vg_dudect_randombytes(uint8_t *buf, size_t len);

/*
 * Time r->measure `samples` times (after a warm-up) and test for a leak.
 * Pre: samples >= 1000; r->prepare, r->measure non-NULL.
 * Post: res filled. Returns 0, or -1 when memory could not be allocated.
 */
int vg_dudect_run(const struct vg_dudect_routine *r, size_t samples, uint64_t seed,
                  struct vg_dudect_result *res);

/* What a row is for, and so what its verdict is (docs/constant-time.md,
 * "Verdicts"): the leaky control must reach the threshold on its first run;
 * the null control and every target must stay below it, where one run over
 * it is repeated with fresh samples and fails only if the repeat is over it
 * too (a real leak, whose |t| grows with the sample count, fails both; a
 * single excursion on a shared VM does not); an info row is printed only. */
enum vg_dudect_role {
    VG_DUDECT_LEAKY,
    VG_DUDECT_NULL,
    VG_DUDECT_TARGET,
    VG_DUDECT_INFO,
    VG_DUDECT_PEER /* another library's routine, printed beside ours: never a verdict */
};

/* The machine's state, sampled before and after every row (issue 19):
 * a statistical run on a busy machine measures the machine. */
struct vg_dudect_machine {
    int ncpu;              /* online CPUs (sysconf) */
    double load1;          /* 1-minute load average (/proc/loadavg); -1 unknown */
    double others;         /* other runnable tasks: mean of procs_running - 1
                              over 16 reads of /proc/stat; -1 unknown */
    uint64_t calib_median; /* ticks of a fixed dependent arithmetic loop */
    double calib_spread;   /* (p90 - p10) / median of 301 timings of it (printed,
                              not part of the rule: see docs/constant-time.md) */
    uint64_t cpu_total;    /* /proc/stat "cpu" line: all ticks so far */
    uint64_t cpu_steal;    /* of which stolen by the hypervisor */
    double steal;          /* stolen share of the CPU time since the previous
                              sample (the row's duration); -1 unknown */
    int busy;              /* the rule of docs/constant-time.md, "Machine state" */
    char why[96];          /* what made it busy, "" when quiet */
};

/* Sample the machine now (about 10 ms). Busy when the load average passes
 * 0.75 per CPU, when another task was runnable in at least half of the
 * reads, or when the hypervisor stole more than VG_DUDECT_STEAL_MAX of the
 * CPU time over the row (a KVM guest's host running other guests). The
 * environment variable VG_DUDECT_BUSY=judge keeps the verdicts of a busy
 * run (the state is still printed): for experiments only. */
#define VG_DUDECT_STEAL_MAX 0.02
void vg_dudect_machine(struct vg_dudect_machine *m);
/* One line "# machine (when): ..." on stdout. */
void vg_dudect_machine_print(const char *when, const struct vg_dudect_machine *m);

/* Header line for the rows vg_dudect_judge prints, the label column `width`
 * characters wide. */
void vg_dudect_print_header(int width, const char *label_title);

/*
 * Run r (seed; a repeat uses seed + 0x8000) and print its row(s), the label
 * padded to `width`. Returns 1 when the verdict is what the role requires
 * (always for VG_DUDECT_INFO), 0 when not, -1 when memory could not be
 * allocated. res: the last run's result.
 */
int vg_dudect_judge(const struct vg_dudect_routine *r, enum vg_dudect_role role, size_t samples,
                    uint64_t seed, int width, struct vg_dudect_result *res);

/* A row started or ended on a busy machine is printed "INCONCLUSIVE
 * (machine busy: ...)" and neither passes nor fails; a target that
 * separates twice in three platform periods (its peers separating too each
 * time) is "INCONCLUSIVE (platform)". Both make the exit code 77 below.
 * A leaky control that stays under the threshold means the run cannot
 * judge (the machine's noise hides a known leak): vg_dudect_judge then
 * prints "INCONCLUSIVE", returns 1 and counts it here, so that the other
 * rows still run and their verdicts still count.
 * vg_dudect_exit(rc): the program's exit code: rc when it is not 0 (a
 * failure), else 77 (ctest's skip: "inconclusive", neither a pass nor a
 * fail) after a line saying why when a leaky control was not detected or
 * a row was inconclusive (machine busy, platform period), else 0. */
int vg_dudect_exit(int rc);

/* Seconds vg_dudect_judge waits between platform periods (default 5). */
void vg_dudect_set_period_pause(unsigned seconds);

/* Current time stamp, `lfence; rdtsc` on x86-64 (a clock_gettime fallback
 * elsewhere, in nanoseconds). */
uint64_t vg_dudect_ticks(void);

#endif
