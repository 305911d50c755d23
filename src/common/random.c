/*
 * The operating system's random source: getrandom(2), with EINTR and short
 * reads handled. On failure the output is zeroed and VG_ERR_RANDOM returned.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/random.h>

#include "common.h"

#if defined(VG_TEST_HOOKS)
/* Failure injection, only in the test-only library (CMakeLists.txt:
 * vgcrypto_testing); the installed libraries are built without it. */
static _Atomic unsigned g_fail_next; /* calls left to fail */

void vg_random_fail_next(unsigned n) { atomic_store(&g_fail_next, n); }

static int consume_forced_failure(void)
{
    unsigned n = atomic_load(&g_fail_next);
    while (n > 0) {
        if (atomic_compare_exchange_weak(&g_fail_next, &n, n - 1))
            return 1;
    }
    return 0;
}
#else
static int consume_forced_failure(void) { return 0; }
#endif

int vg_randombytes(uint8_t *buf, size_t len)
{
    size_t done = 0;
    if (consume_forced_failure())
        goto fail;
    while (done < len) {
        /* getrandom returns at most 33554431 bytes a call (and may return
         * fewer when interrupted), so loop on short reads. */
        size_t want = len - done;
        ssize_t got = getrandom(buf + done, want, 0);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            goto fail;
        }
        if (got == 0)
            goto fail; /* never seen, but would loop forever */
        done += (size_t)got;
    }
    return VG_OK;
fail:
    memset(buf, 0, len);
    return VG_ERR_RANDOM;
}
