/* ML-DSA-44 (FIPS 204): the shared implementation instantiated once. */
#define VG_MLDSA_MODE 44
#include "mldsa_impl.h"
