/* ML-DSA-87 (FIPS 204): the shared implementation instantiated once. */
#define VG_MLDSA_MODE 87
#include "mldsa_impl.h"
