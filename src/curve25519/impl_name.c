/* vg_curve25519_implementation (curve25519.h): the curve25519 area's answer
 * to vg_implementation, from the dispatch functions the API calls. */
#include <string.h>

#include "curve25519.h"
#include "fe25519.h"
#include "ge25519.h"
#include "ge25519_vartime.h"

const char *vg_curve25519_implementation(const char *primitive)
{
    if (strcmp(primitive, "x25519") == 0)
        return vg_x25519_active()->name;
    if (strcmp(primitive, "x25519-base") == 0)
        return vg_x25519_base_active()->name;
    /* Ed25519 signing and key generation run on the fixed-base variant
     * ("x25519-base"); the name reported is the verifier's. */
    if (strcmp(primitive, "ed25519") == 0)
        return vg_ed25519_verify_active()->name;
    return NULL;
}
