/*
 * vg_implementation: the top of the library asks each area which variant its
 * dispatch chooses now, through that area's shared header. (vg_version and
 * vg_cpu_features are in src/common/info.c: they need nothing above it.)
 */
#include <string.h>

#include "aead/aead.h"
#include "common.h"
#include "curve25519/curve25519.h"
#include "hash/hash.h"
#include "mldsa/mldsa.h"
#include "mlkem/mlkem.h"
#include "nist/nist.h"

const char *vg_implementation(const char *primitive)
{
    const char *name;
    if (!primitive)
        return NULL;
    name = vg_hash_implementation(primitive); /* sha256, sha512, keccak */
    if (!name)
        name = vg_curve25519_implementation(primitive); /* x25519, x25519-base, ed25519 */
    if (!name && strcmp(primitive, "mlkem") == 0)
        name = vg_mlkem_implementation();
    if (!name && strcmp(primitive, "mldsa") == 0)
        name = vg_mldsa_implementation();
    if (!name && strcmp(primitive, "chacha20") == 0)
        name = vg_chacha20_active()->name;
    if (!name && strcmp(primitive, "poly1305") == 0)
        name = vg_poly1305_active()->name;
    if (!name)
        name = vg_nist_implementation(primitive); /* p256, p384 */
    return name;
}
