/*
 * vg_randombytes: fills the buffer, handles large requests (getrandom returns
 * at most 32 MiB - 1 a call) and interruption by signals, and on a forced
 * failure returns VG_ERR_RANDOM with the buffer zeroed.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/time.h>

#include "common.h"
#include "vgtest.h"

static volatile sig_atomic_t g_ticks;
static void on_alarm(int sig)
{
    (void)sig;
    g_ticks++;
}

/* Count of byte values never seen: a filled 64 KiB buffer has none. */
static unsigned missing_values(const uint8_t *p, size_t n)
{
    unsigned seen[256] = {0}, missing = 0;
    for (size_t i = 0; i < n; i++)
        seen[p[i]] = 1;
    for (int v = 0; v < 256; v++)
        missing += !seen[v];
    return missing;
}

int main(void)
{
    static uint8_t big[40u << 20]; /* 40 MiB: more than one getrandom call */
    uint8_t a[64], b[64];

    CHECK(vg_randombytes(a, sizeof a) == VG_OK);
    CHECK(vg_randombytes(b, sizeof b) == VG_OK);
    CHECK(memcmp(a, b, sizeof a) != 0);
    CHECK(vg_randombytes(NULL, 0) == VG_OK);

    /* Interrupt a large read with a fast timer and no SA_RESTART, so that
     * getrandom returns short counts or EINTR: the result must still be a
     * full buffer. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 200}, {0, 200}};
    setitimer(ITIMER_REAL, &it, NULL);
    memset(big, 0, sizeof big);
    CHECK(vg_randombytes(big, sizeof big) == VG_OK);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    /* The tail came from a later call than the head: both must be filled. */
    CHECK(missing_values(big, 1u << 16) == 0);
    CHECK(missing_values(big + sizeof big - (1u << 16), 1u << 16) == 0);
    printf("timer fired %d times during the 40 MiB read\n", (int)g_ticks);

    /* Forced failure: VG_ERR_RANDOM and a zeroed buffer, then recovery. */
    memset(a, 0x5a, sizeof a);
    vg_random_fail_next(2);
    CHECK(vg_randombytes(a, sizeof a) == VG_ERR_RANDOM);
    for (size_t i = 0; i < sizeof a; i++)
        CHECK(a[i] == 0);
    memset(a, 0x5a, sizeof a);
    CHECK(vg_randombytes(a, sizeof a) == VG_ERR_RANDOM);
    CHECK(a[0] == 0 && a[63] == 0);
    CHECK(vg_randombytes(a, sizeof a) == VG_OK);
    CHECK(missing_values(a, sizeof a) < 256);
    return vgtest_done("test_random");
}
