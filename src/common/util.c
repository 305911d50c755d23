/* Wiping and constant-time comparison. */
#include <string.h>

#include "common.h"

void vg_wipe(void *p, size_t len)
{
    /* A volatile function pointer: the compiler cannot prove the call is a
     * plain memset on a dying object, so it cannot drop it. */
    static void *(*const volatile do_memset)(void *, int, size_t) = memset;
    if (len)
        do_memset(p, 0, len);
}

int vg_ct_memcmp(const uint8_t *a, const uint8_t *b, size_t len)
{
    uint64_t diff = 0;
    for (size_t i = 0; i < len; i++)
        diff |= (uint64_t)(a[i] ^ b[i]);
    /* diff < 2^8, so the mask is all-ones exactly when some byte differed. */
    return (int)(int64_t)vg_ct_mask_nonzero_u64(diff);
}
