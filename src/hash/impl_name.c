/* vg_hash_implementation (hash.h): the hash area's answer to
 * vg_implementation, from the same dispatch functions the hashes call. */
#include <string.h>

#include "hash.h"
#include "keccak.h"
#include "sha2.h"

const char *vg_hash_implementation(const char *primitive)
{
    if (strcmp(primitive, "sha256") == 0)
        return vg_sha256_active()->name;
    if (strcmp(primitive, "sha512") == 0)
        return vg_sha512_active()->name;
    if (strcmp(primitive, "keccak") == 0)
        return vg_keccak_active()->name;
    return NULL;
}
