/* ML-KEM-512 (FIPS 203, k = 2): the shared implementation instantiated once. */
#define VG_MLKEM_K 2
#include "mlkem_impl.h"
