/* ML-DSA-65 (FIPS 204): the shared implementation instantiated once. */
#define VG_MLDSA_MODE 65
#include "mldsa_impl.h"
