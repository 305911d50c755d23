/* ML-KEM-1024 (FIPS 203, k = 4): the shared implementation instantiated once. */
#define VG_MLKEM_K 4
#include "mlkem_impl.h"
