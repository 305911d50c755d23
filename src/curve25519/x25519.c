/*
 * X25519 (RFC 7748): the public API and the one dispatch point.
 *
 * The variants (fe51.c portable, fe64_adx.c BMI2+ADX, x25519_ifma.c AVX-512
 * IFMA) each compute the whole RFC 7748 section 5 function; this file picks
 * one from the active CPU mask and adds the API's rules: the all-zero check
 * of RFC 7748 section 6.1, the NULL rules of DESIGN section 2 and key
 * generation.
 */
#include <string.h>

#include "common.h"
#include "fe25519.h"
#include "ge25519.h"
#include "x25519_ifma.h"

#ifndef VG_X86_64
/* No x86-64 code in this build (see fe64_adx.c). */
const struct vg_fe64_ops *vg_fe64_adx_get(void) { return NULL; }
const struct vg_x25519_impl *vg_x25519_adx_get(void) { return NULL; }
#endif

/* The dispatch: recomputed from the active CPU mask at each call (cheap,
 * once per vg_x25519), so it needs no state of its own and follows
 * vg_cpu_force in tests. IFMA comes first where both it and ADX are
 * available: it is faster on Zen 4 (docs/benchmarks.md). */
const struct vg_x25519_impl *vg_x25519_active(void)
{
    const struct vg_x25519_impl *impl = vg_x25519_ifma_get();
    if (!impl)
        impl = vg_x25519_adx_get();
    return impl ? impl : vg_x25519_portable_get();
}

int vg_x25519(uint8_t shared[32], const uint8_t secret[32], const uint8_t peer_public[32])
{
    uint64_t acc = 0;
    /* DESIGN 2, uniform rules: a NULL buffer gives VG_ERR_INPUT with every
     * non-NULL output zeroed. */
    if (!shared || !secret || !peer_public) {
        if (shared)
            vg_wipe(shared, 32);
        return VG_ERR_INPUT;
    }
    vg_x25519_active()->scalarmult(shared, secret, peer_public);
    /* RFC 7748 section 6.1: an all-zero result means the peer sent a point of
     * small order. The OR runs over every byte and the code is selected by a
     * mask, so no branch depends on the shared secret here; the verdict itself
     * is public (the caller branches on it). */
    for (int i = 0; i < 32; i++)
        acc |= shared[i];
    uint64_t is_zero = ~vg_ct_mask_nonzero_u64(acc);
    return (int)(int32_t)((uint32_t)is_zero & (uint32_t)VG_ERR_INPUT);
}

/* [k]9 by the fixed-base Edwards path (ge25519_base*.c): a precomputed
 * table of multiples of B, then u = (1 + y) / (1 - y). The result is never
 * zero: 9 has prime order l (2^252 < l < 2^253) and a clamped k is 8 m with
 * 2^251 <= m < 2^252, so l | k would need k = j l with 8 | j, but 8 l > 2^255 > k. */
int vg_x25519_public_key(uint8_t public_key[32], const uint8_t secret[32])
{
    if (!public_key || !secret) {
        if (public_key)
            vg_wipe(public_key, 32);
        return VG_ERR_INPUT;
    }
    vg_x25519_base_active()->public_key(public_key, secret);
    return VG_OK;
}

int vg_x25519_keypair(uint8_t public_key[32], uint8_t secret[32])
{
    if (!public_key || !secret) { /* both are outputs: zero the one given */
        if (public_key)
            vg_wipe(public_key, 32);
        if (secret)
            vg_wipe(secret, 32);
        return VG_ERR_INPUT;
    }
    if (vg_randombytes(secret, 32) != VG_OK) {
        vg_wipe(secret, 32);
        vg_wipe(public_key, 32);
        return VG_ERR_RANDOM;
    }
    return vg_x25519_public_key(public_key, secret);
}
