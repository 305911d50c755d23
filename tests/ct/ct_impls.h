/*
 * The implementations the constant-time harnesses check, found through the
 * `_get` functions of each primitive (BearSSL style: NULL when the build or
 * the active CPU features lack a variant).
 *
 * Both harnesses (ct_valgrind.c, test_dudect.c) use this one list, so a new
 * primitive adds its variants here once and both harnesses see them; its
 * secret-handling routines are then added to each harness (see
 * docs/constant-time.md, "Adding a primitive").
 */
#ifndef VG_CT_IMPLS_H
#define VG_CT_IMPLS_H

#include <stddef.h>
#include <stdint.h>

enum vg_ct_kind {
    VG_CT_SHA256, /* impl is a struct vg_sha256_impl */
    VG_CT_SHA512, /* impl is a struct vg_sha512_impl */
    VG_CT_KECCAK, /* impl is a struct vg_keccak_impl */
    VG_CT_X25519, /* impl is a struct vg_x25519_impl (the ladder, RFC 7748 section 5) */
    VG_CT_X25519_BASE /* impl is a struct vg_x25519_base_impl (fixed-base [k]B) */
};

struct vg_ct_variant {
    enum vg_ct_kind kind;
    const char *family; /* "sha256", "sha512", "keccak", "x25519", "x25519-base" */
    const char *name;   /* the implementation's own name, e.g. "shani" */
    const void *impl;
    uint32_t needs;     /* smallest feature set (VG_CPU_*) under which _get returned it */
};

#define VG_CT_MAX_VARIANTS 32

/*
 * Every distinct implementation that some `_get` returns under some subset
 * of `available` (a VG_CPU_* mask the CPU really has).
 * Pre: available is a subset of what the CPU supports (vg_cpu_detected()).
 * Post: out[0..ret) filled, in the order first found; subsets are tried in
 * order of size, so `needs` is a smallest set that enables the variant.
 * The active feature set is left forced to `available`.
 * Not thread-safe (it uses the vg_cpu_force test hook).
 */
size_t vg_ct_variants(uint32_t available, struct vg_ct_variant *out, size_t cap);

/* "sha256/shani" style label into buf (always NUL-terminated). */
void vg_ct_variant_label(const struct vg_ct_variant *v, char *buf, size_t len);

#endif
