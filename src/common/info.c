/* vg_version, vg_cpu_features, vg_implementation. */
#include <stdatomic.h>
#include <string.h>

#include "../curve25519/fe25519.h"
#include "../curve25519/ge25519.h"
#include "../curve25519/ge25519_vartime.h"
#include "../hash/keccak.h"
#include "../hash/sha2.h"
#include "../mldsa/poly.h"
#include "../mlkem/poly.h"
#include "common.h"
#include "vg_config.h"

const char *vg_version(void) { return VG_VERSION_STRING; }

const char *vg_cpu_features(void)
{
    /* One string per possible mask would be 512 strings; instead format into
     * a buffer per thread. The mask is fixed after the first call (except
     * under the test hook), so every caller sees the same text. */
    static _Thread_local char buf[96];
    vg_cpu_format(vg_cpu_active(), buf, sizeof buf);
    return buf;
}

const char *vg_implementation(const char *primitive)
{
    if (!primitive)
        return NULL;
    if (strcmp(primitive, "sha256") == 0)
        return vg_sha256_active()->name;
    if (strcmp(primitive, "sha512") == 0)
        return vg_sha512_active()->name;
    if (strcmp(primitive, "keccak") == 0)
        return vg_keccak_active()->name;
    if (strcmp(primitive, "x25519") == 0)
        return vg_x25519_active()->name;
    if (strcmp(primitive, "x25519-base") == 0)
        return vg_x25519_base_active()->name;
    /* Ed25519 signing and key generation run on the fixed-base variant
     * ("x25519-base"); the name reported is the verifier's. */
    if (strcmp(primitive, "ed25519") == 0)
        return vg_ed25519_verify_active()->name;
    /* ML-KEM: the backend chosen in src/mlkem/poly.c (portable only so far). */
    if (strcmp(primitive, "mlkem") == 0)
        return vg_mlkem_active()->name;
    /* ML-DSA: the backend chosen in src/mldsa/poly.c ("avx2" or "portable"). */
    if (strcmp(primitive, "mldsa") == 0)
        return vg_mldsa_active()->name;
    return NULL;
}
