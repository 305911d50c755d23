/* vg_version and vg_cpu_features: what the bottom layer knows by itself.
 * vg_implementation, which asks every area, is in src/info.c. */
#include "common.h"
#include "vg_config.h"

const char *vg_version(void) { return VG_VERSION_STRING; }

const char *vg_cpu_features(void)
{
    /* One string per possible mask would be 512 strings; instead format into
     * a buffer per thread. The mask is fixed after the first call (except
     * under the test hook), so every caller sees the same text. */
    static _Thread_local char buf[96];
    vg_cpu_format(vg_cpu_active(), buf, sizeof buf);
    return buf;
}
