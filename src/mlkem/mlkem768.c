/* ML-KEM-768 (FIPS 203, k = 3): the shared implementation instantiated once. */
#define VG_MLKEM_K 3
#include "mlkem_impl.h"
