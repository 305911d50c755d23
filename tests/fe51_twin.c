/*
 * The portable field and ladder compiled a second time, on the path for
 * compilers without unsigned __int128 (32x32->64-bit products), under the
 * names vg_fe51nt_get and vg_x25519_portablent_get. Linked into the tests
 * only, so that path stays correct although this compiler has __int128.
 */
#define VG_FE51_TWIN 1
#include "curve25519/fe51.c"
