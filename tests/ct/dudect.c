/*
 * dudect-style timing test (see dudect.h). Method: Reparaz, Balasch,
 * Verbauwhede, DATE 2017, section 2: two input classes, measurements
 * interleaved at random, percentile cropping, Welch's t-test.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* sysconf(_SC_NPROCESSORS_ONLN) */
#include "dudect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Crop percentiles: each test keeps the measurements at or below this
 * percentile of the pooled distribution. Low crops remove interrupts and
 * cache/frequency noise (which mostly lengthen a measurement); high crops
 * keep the tail where a leak in a rare slow path would show. The raw test
 * (no crop) is run besides these. */
static const double g_crops[] = {5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.9};
#define VG_DUDECT_NTESTS (1 + sizeof g_crops / sizeof g_crops[0])

#define VG_DUDECT_WARMUP 1000  /* measurements run and discarded first */
#define VG_DUDECT_BATCH_BYTES (256u * 1024u) /* inputs prepared per batch, in bytes */

/* ---- generator: splitmix64 (Steele, Lea, Flood 2014), not cryptographic. */
static uint64_t g_rng;

static uint64_t rng_next(void)
{
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void vg_dudect_randombytes(uint8_t *buf, size_t len)
{
    for (size_t i = 0; i < len; i += 8) {
        uint64_t r = rng_next();
        for (size_t j = 0; j < 8 && i + j < len; j++)
            buf[i + j] = (uint8_t)(r >> (8 * j));
    }
}

uint64_t vg_dudect_ticks(void)
{
#if defined(__x86_64__)
    /* lfence first: rdtsc is not ordered, and the lfence makes it wait until
     * every earlier instruction (the routine, or the previous loop body) has
     * completed (AMD and Intel SDMs; Linux makes LFENCE dispatch-serialising
     * on AMD). */
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* ---- Welford's running mean and variance, one per class and test. */
struct moments {
    double n, mean, m2;
};

static void moments_add(struct moments *m, double x)
{
    m->n += 1.0;
    double d = x - m->mean;
    m->mean += d / m->n;
    m->m2 += d * (x - m->mean);
}

/* Welch's t statistic between two samples; 0 when either has fewer than two
 * values or both variances are zero with equal means. */
static double welch_t(const struct moments *a, const struct moments *b)
{
    if (a->n < 2 || b->n < 2)
        return 0.0;
    double va = a->m2 / (a->n - 1), vb = b->m2 / (b->n - 1);
    double se = sqrt(va / a->n + vb / b->n);
    double diff = a->mean - b->mean;
    if (se == 0.0)
        return diff == 0.0 ? 0.0 : HUGE_VAL;
    return diff / se;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Time `count` measurements of r into times[] and classes[] (either may be
 * NULL for the warm-up), preparing inputs in batches outside the timing. */
static void collect(const struct vg_dudect_routine *r, size_t count, uint8_t *inputs,
                    uint8_t *batch_cls, size_t batch, uint64_t *times, uint8_t *classes)
{
    size_t done = 0;
    while (done < count) {
        size_t m = count - done < batch ? count - done : batch;
        for (size_t i = 0; i < m; i++) {
            batch_cls[i] = (uint8_t)(rng_next() >> 63);
            r->prepare(r->ctx, batch_cls[i], inputs + i * r->input_len);
        }
        for (size_t i = 0; i < m; i++) {
            const uint8_t *in = inputs + i * r->input_len;
            uint64_t t0 = vg_dudect_ticks();
            r->measure(r->ctx, in);
            uint64_t t1 = vg_dudect_ticks();
            if (times) {
                times[done + i] = t1 - t0;
                classes[done + i] = batch_cls[i];
            }
        }
        done += m;
    }
}

int vg_dudect_run(const struct vg_dudect_routine *r, size_t samples, uint64_t seed,
                  struct vg_dudect_result *res)
{
    int ret = -1;
    size_t batch = VG_DUDECT_BATCH_BYTES / r->input_len;
    if (batch < 16)
        batch = 16;
    uint64_t *times = malloc(samples * sizeof *times);
    uint64_t *sorted = malloc(samples * sizeof *sorted);
    uint8_t *classes = malloc(samples);
    uint8_t *batch_cls = malloc(batch);
    uint8_t *inputs = malloc(batch * r->input_len);
    struct moments mom[VG_DUDECT_NTESTS][2];
    double thr[VG_DUDECT_NTESTS];

    memset(res, 0, sizeof *res);
    if (!times || !sorted || !classes || !batch_cls || !inputs)
        goto out;
    g_rng = seed;

    collect(r, VG_DUDECT_WARMUP, inputs, batch_cls, batch, NULL, NULL);
    collect(r, samples, inputs, batch_cls, batch, times, classes);

    /* Crop thresholds from the pooled distribution (both classes), so a crop
     * keeps the same fraction of each class when they do not differ. */
    memcpy(sorted, times, samples * sizeof *sorted);
    qsort(sorted, samples, sizeof *sorted, cmp_u64);
    thr[0] = HUGE_VAL; /* test 0: raw, no crop */
    for (size_t k = 1; k < VG_DUDECT_NTESTS; k++)
        thr[k] = (double)sorted[(size_t)(g_crops[k - 1] / 100.0 * (double)(samples - 1))];

    memset(mom, 0, sizeof mom);
    for (size_t i = 0; i < samples; i++) {
        double x = (double)times[i];
        for (size_t k = 0; k < VG_DUDECT_NTESTS; k++)
            if (x <= thr[k])
                moments_add(&mom[k][classes[i]], x);
    }

    res->samples = samples;
    res->count[0] = (size_t)mom[0][0].n;
    res->count[1] = (size_t)mom[0][1].n;
    res->mean[0] = mom[0][0].mean;
    res->mean[1] = mom[0][1].mean;
    res->median = sorted[samples / 2];
    res->worst_pct = 100.0;
    for (size_t k = 0; k < VG_DUDECT_NTESTS; k++) {
        double t = fabs(welch_t(&mom[k][0], &mom[k][1]));
        if (t > res->max_abs_t) {
            res->max_abs_t = t;
            res->worst_pct = k == 0 ? 100.0 : g_crops[k - 1];
        }
    }
    ret = 0;
out:
    free(times);
    free(sorted);
    free(classes);
    free(batch_cls);
    free(inputs);
    return ret;
}

/* ---- machine state ------------------------------------------------------ */

static double read_load1(void)
{
    double l = -1.0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1)
            l = -1.0;
        fclose(f);
    }
    return l;
}

/* The "cpu" line of /proc/stat: total ticks and steal ticks (the eighth
 * field); 0 when unreadable. */
static int read_cpu_ticks(uint64_t *total, uint64_t *steal)
{
    unsigned long long f[10] = {0};
    int ok = 0;
    FILE *fp = fopen("/proc/stat", "r");
    *total = *steal = 0;
    if (!fp)
        return 0;
    if (fscanf(fp, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2],
               &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9]) >= 8) {
        for (int i = 0; i < 8; i++) /* guest time is counted in user already */
            *total += f[i];
        *steal = f[7];
        ok = 1;
    }
    fclose(fp);
    return ok;
}

/* procs_running of /proc/stat (runnable tasks, this one included); -1. */
static long read_running(void)
{
    char line[256];
    long r = -1;
    FILE *f = fopen("/proc/stat", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "procs_running ", 14) == 0) {
            r = strtol(line + 14, NULL, 10);
            break;
        }
    fclose(f);
    return r;
}

/* A fixed dependent chain of multiply-adds: the same work every time, so
 * the spread of its timings is the machine's (preemption, a busy sibling,
 * frequency changes), not the code's. */
static uint64_t calib_once(void)
{
    static volatile uint64_t seed = 1;
    uint64_t x = seed;
    uint64_t t0 = vg_dudect_ticks();
    for (int i = 0; i < 2000; i++)
        x = x * 0x5851f42d4c957f2dULL + 0x14057b7ef767814fULL;
    uint64_t t1 = vg_dudect_ticks();
    seed = x | 1; /* keeps the chain alive */
    return t1 - t0;
}

#define CALIB_RUNS 301
#define RUNNING_READS 16

void vg_dudect_machine(struct vg_dudect_machine *m)
{
    uint64_t t[CALIB_RUNS];
    long sum = 0;
    int reads = 0;
    memset(m, 0, sizeof *m);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    m->ncpu = n > 0 ? (int)n : 1;
    m->load1 = read_load1();
    for (int i = 0; i < CALIB_RUNS; i++) {
        if (i % (CALIB_RUNS / RUNNING_READS) == 0 && reads < RUNNING_READS) {
            long r = read_running();
            if (r >= 1) {
                sum += r - 1; /* not counting this process */
                reads++;
            }
        }
        t[i] = calib_once();
    }
    m->others = reads ? (double)sum / reads : -1.0;
    m->steal = -1.0;
    if (!read_cpu_ticks(&m->cpu_total, &m->cpu_steal))
        m->cpu_total = 0;
    qsort(t, CALIB_RUNS, sizeof t[0], cmp_u64);
    m->calib_median = t[CALIB_RUNS / 2];
    m->calib_spread = m->calib_median
                          ? (double)(t[CALIB_RUNS * 9 / 10] - t[CALIB_RUNS / 10]) / (double)m->calib_median
                          : 0.0;
    /* The rule (docs/constant-time.md, "Machine state"). */
    if (m->load1 > 0.75 * m->ncpu)
        snprintf(m->why, sizeof m->why, "load average %.2f > %.2f", m->load1, 0.75 * m->ncpu);
    else if (m->others >= 0.5)
        snprintf(m->why, sizeof m->why, "%.2f other runnable tasks", m->others);
    m->busy = m->why[0] != 0;
}

void vg_dudect_machine_print(const char *when, const struct vg_dudect_machine *m)
{
    printf("# machine (%s): %d CPUs, load average %.2f, other runnable tasks %.2f, steal "
           "%.2f%% since boot, calibration median %llu ticks, spread %.1f%%: %s%s\n",
           when, m->ncpu, m->load1, m->others,
           m->cpu_total ? 100.0 * (double)m->cpu_steal / (double)m->cpu_total : -1.0,
           (unsigned long long)m->calib_median, 100.0 * m->calib_spread,
           m->busy ? "BUSY, " : "quiet", m->why);
    fflush(stdout);
}

/* VG_DUDECT_BUSY=judge: judge even on a busy machine. */
static int busy_ignored(void)
{
    const char *e = getenv("VG_DUDECT_BUSY");
    return e && strcmp(e, "judge") == 0;
}

void vg_dudect_print_header(int width, const char *label_title)
{
    struct vg_dudect_machine m;
    vg_dudect_machine(&m);
    vg_dudect_machine_print("start", &m);
    printf("%-*s %9s %9s %6s %8s %10s %10s %5s %6s %6s %7s  %s\n", width, label_title,
           "samples", "max|t|", "crop%", "median", "mean0", "mean1", "load", "others", "steal%",
           "spread%", "verdict");
}

/* The current row's machine state (the worse of before and after). */
static struct vg_dudect_machine g_row_state;

static void print_row(int width, const char *label, const struct vg_dudect_result *res,
                      const char *verdict)
{
    const struct vg_dudect_machine *m = &g_row_state;
    printf("%-*s %9zu %9.2f %6.1f %8llu %10.1f %10.1f %5.2f %6.2f %6.2f %7.1f  %s\n", width,
           label, res->samples, res->max_abs_t, res->worst_pct, (unsigned long long)res->median,
           res->mean[0], res->mean[1], m->load1, m->others, 100.0 * m->steal,
           100.0 * m->calib_spread, verdict);
    fflush(stdout);
}

static unsigned g_blind;    /* leaky controls not detected in this run */
static unsigned g_busy;     /* rows on a busy machine */
static unsigned g_platform; /* targets left in platform periods */

int vg_dudect_exit(int rc)
{
    struct vg_dudect_machine m;
    vg_dudect_machine(&m);
    vg_dudect_machine_print("end", &m);
    if (rc != 0)
        return rc;
    if (g_busy)
        printf("inconclusive: machine busy during %u row(s) (load, other runnable tasks or "
               "calibration spread over the limits): neither a pass nor a fail; rerun on a "
               "quiet machine (docs/constant-time.md, \"Machine state\")\n",
               g_busy);
    if (g_platform)
        printf("inconclusive: %u row(s) separated only in platform periods (their peers "
               "separated too): neither a pass nor a fail (docs/constant-time.md)\n",
               g_platform);
    if (g_blind)
        printf("inconclusive: %u leaky control(s) not detected: this machine's noise hides a "
               "known leak, so the run cannot judge (rerun on a quiet machine; "
               "docs/constant-time.md)\n",
               g_blind);
    return g_busy || g_platform || g_blind ? 77 : 0;
}

/* Machine state before a row (into g_row_state) and after it (merged):
 * 1 when either was busy and busy runs are not being judged. */
static void state_before(void)
{
    vg_dudect_machine(&g_row_state);
}

static int state_after(void)
{
    struct vg_dudect_machine after;
    vg_dudect_machine(&after);
    if (after.load1 > g_row_state.load1)
        g_row_state.load1 = after.load1;
    if (after.others > g_row_state.others)
        g_row_state.others = after.others;
    if (after.calib_spread > g_row_state.calib_spread)
        g_row_state.calib_spread = after.calib_spread;
    /* Steal over the row: the hypervisor's share of the CPU time between
     * the two samples. */
    if (after.cpu_total == g_row_state.cpu_total && after.cpu_total)
        g_row_state.steal = 0.0; /* shorter than a clock tick: nothing stolen */
    if (after.cpu_total > g_row_state.cpu_total && g_row_state.cpu_total) {
        g_row_state.steal = (double)(after.cpu_steal - g_row_state.cpu_steal) /
                            (double)(after.cpu_total - g_row_state.cpu_total);
        if (g_row_state.steal > VG_DUDECT_STEAL_MAX && !after.busy)
            snprintf(after.why, sizeof after.why, "steal %.1f%% > %.0f%%",
                     100.0 * g_row_state.steal, 100.0 * VG_DUDECT_STEAL_MAX),
                after.busy = 1;
    }
    if (after.busy && !g_row_state.busy) {
        g_row_state.busy = 1;
        memcpy(g_row_state.why, after.why, sizeof after.why);
    }
    return g_row_state.busy && !busy_ignored();
}

/* Run every peer of r once (same samples and seed); 1 when one of them
 * separates (|t| >= threshold): the period is a platform period. */
static int peers_separate(const struct vg_dudect_routine *r, size_t samples, uint64_t seed,
                          int width)
{
    int any = 0;
    for (size_t i = 0; i < r->npeers; i++) {
        struct vg_dudect_result pr;
        char label[96];
        if (vg_dudect_run(r->peers[i], samples, seed, &pr) != 0)
            continue;
        int sep = pr.max_abs_t >= VG_DUDECT_THRESHOLD;
        snprintf(label, sizeof label, "  (peer %s)", r->peers[i]->name);
        print_row(width, label, &pr, sep ? "peer separates too" : "peer quiet");
        any |= sep;
    }
    return any;
}

#define PLATFORM_PERIODS 3
static unsigned g_period_pause = 5;

void vg_dudect_set_period_pause(unsigned seconds) { g_period_pause = seconds; }

/* Long (about 80 lines): the two-strike rule, the peers' platform periods
 * and the machine state are one decision, kept in one place. */
int vg_dudect_judge(const struct vg_dudect_routine *r, enum vg_dudect_role role, size_t samples,
                    uint64_t seed, int width, struct vg_dudect_result *res)
{
    int leak = 0, repeated = 0, platform = 0;
    state_before();
    for (int period = 0; period < PLATFORM_PERIODS; period++) {
        uint64_t s = seed + 0x10000u * (uint64_t)period;
        if (vg_dudect_run(r, samples, s, res) != 0)
            return -1;
        leak = res->max_abs_t >= VG_DUDECT_THRESHOLD;
        repeated = 0;
        platform = 0;
        if (!leak || !(role == VG_DUDECT_NULL || role == VG_DUDECT_TARGET))
            break;
        print_row(width, period ? "  (later period)" : r->name, res,
                  "over the threshold once: repeating");
        if (vg_dudect_run(r, samples, s + 0x8000u, res) != 0)
            return -1;
        leak = res->max_abs_t >= VG_DUDECT_THRESHOLD;
        repeated = 1;
        if (!leak || r->npeers == 0)
            break;
        /* Twice over: do trusted peers separate in this same period? */
        print_row(width, "  (repeat)", res, "over twice: running its peers now");
        if (!peers_separate(r, samples, s, width))
            break; /* a real separation: ours only */
        platform = 1;
        printf("# platform period %d of %d: a peer separates too; judging %s again later\n",
               period + 1, PLATFORM_PERIODS, r->name);
        fflush(stdout);
        if (g_period_pause)
            sleep(g_period_pause);
    }
    const char *verdict;
    int ok;
    if (state_after()) {
        static char busy_verdict[128];
        snprintf(busy_verdict, sizeof busy_verdict, "INCONCLUSIVE (machine busy: %s)",
                 g_row_state.why);
        g_busy++;
        print_row(width, repeated ? "  (repeat)" : r->name, res, busy_verdict);
        return 1;
    }
    switch (role) {
    case VG_DUDECT_LEAKY:
        ok = 1; /* not detected: the run is inconclusive (vg_dudect_exit) */
        g_blind += !leak;
        verdict = leak ? "ok (leak detected, as it must)"
                       : "INCONCLUSIVE (harness blind: noise hides the leak)";
        break;
    case VG_DUDECT_NULL:
        ok = !leak || platform;
        g_platform += leak && platform;
        verdict = !leak ? "ok" : platform ? "INCONCLUSIVE (platform)" : "FAIL (false positive, twice)";
        break;
    case VG_DUDECT_TARGET:
        ok = !leak || platform;
        g_platform += leak && platform;
        verdict = !leak       ? "ok"
                  : platform ? "INCONCLUSIVE (platform: peers separate too)"
                  : r->npeers ? "FAIL (LEAK, twice, peers quiet)"
                              : "FAIL (LEAK, twice)";
        break;
    case VG_DUDECT_PEER:
        ok = 1;
        verdict = leak ? "peer (info): separates" : "peer (info)";
        break;
    default:
        ok = 1;
        verdict = "info (not a verdict)";
        break;
    }
    print_row(width, repeated ? "  (repeat)" : r->name, res, verdict);
    return ok;
}
