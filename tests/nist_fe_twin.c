/* The portable P-256 / P-384 kernels compiled without unsigned __int128
 * (32 x 32 -> 64-bit products; src/nist/mont_portable.h), for test_nist_fe. */
#define VG_NIST_NO_INT128 1
#define NIST_OPS_FN nist_ops_noint128
#include "nist_fe_ops.h"
#if defined(VG_MONT_INT128)
#error "VG_NIST_NO_INT128 did not select the 32-bit path"
#endif
