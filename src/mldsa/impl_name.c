/* vg_mldsa_implementation (mldsa.h), stand-in: the ML-DSA branch owns it. */
#include "mldsa.h"
#include "poly.h"

const char *vg_mldsa_implementation(void) { return vg_mldsa_active()->name; }
