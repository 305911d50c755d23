/* vg_mlkem_implementation (mlkem.h), stand-in: the ML-KEM branch owns it. */
#include "mlkem.h"
#include "poly.h"

const char *vg_mlkem_implementation(void) { return vg_mlkem_active()->name; }
