/* Enumeration of the implementations behind each `_get` (see ct_impls.h). */
#include "ct_impls.h"

#include <stdio.h>

#include "common.h"
#include "curve25519/fe25519.h"
#include "curve25519/ge25519.h"
#include "curve25519/x25519_ifma.h"
#include "hash/keccak.h"
#include "hash/sha2.h"

static unsigned popcount_mask(uint32_t x)
{
    unsigned n = 0;
    for (unsigned i = 0; i < 32; i++)
        n += (x >> i) & 1u;
    return n;
}

/* Append v unless its impl pointer is already listed. */
static void add(struct vg_ct_variant *out, size_t cap, size_t *count, enum vg_ct_kind kind,
                const char *family, const char *name, const void *impl, uint32_t needs)
{
    if (!impl)
        return;
    for (size_t i = 0; i < *count; i++)
        if (out[i].impl == impl)
            return;
    if (*count >= cap) {
        fprintf(stderr, "ct_impls: more than %zu variants, raise VG_CT_MAX_VARIANTS\n", cap);
        return;
    }
    out[*count].kind = kind;
    out[*count].family = family;
    out[*count].name = name;
    out[*count].impl = impl;
    out[*count].needs = needs;
    (*count)++;
}

size_t vg_ct_variants(uint32_t available, struct vg_ct_variant *out, size_t cap)
{
    size_t count = 0;
    available &= VG_CPU_ALL;
    /* All subsets of the feature bits, smallest first: a variant is recorded
     * with the first (hence a smallest) feature set that makes its _get
     * return it. */
    for (unsigned size = 0; size <= popcount_mask(VG_CPU_ALL); size++) {
        for (uint32_t s = 0; s <= VG_CPU_ALL; s++) {
            if ((s & ~available) || popcount_mask(s) != size)
                continue;
            vg_cpu_force(s);
            const struct vg_sha256_impl *a = vg_sha256_portable_get();
            const struct vg_sha256_impl *b = vg_sha256_shani_get();
            const struct vg_sha256_impl *b2 = vg_sha256_avx2_get();
            const struct vg_sha512_impl *c = vg_sha512_portable_get();
            const struct vg_sha512_impl *d = vg_sha512_avx2_get();
            const struct vg_keccak_impl *e = vg_keccak_portable_get();
            const struct vg_keccak_impl *f = vg_keccak_x86_get();
            const struct vg_keccak_impl *g = vg_keccak_avx512_get();
            add(out, cap, &count, VG_CT_SHA256, "sha256", a ? a->name : NULL, a, s);
            add(out, cap, &count, VG_CT_SHA256, "sha256", b ? b->name : NULL, b, s);
            add(out, cap, &count, VG_CT_SHA256, "sha256", b2 ? b2->name : NULL, b2, s);
            add(out, cap, &count, VG_CT_SHA512, "sha512", c ? c->name : NULL, c, s);
            add(out, cap, &count, VG_CT_SHA512, "sha512", d ? d->name : NULL, d, s);
            add(out, cap, &count, VG_CT_KECCAK, "keccak", e ? e->name : NULL, e, s);
            add(out, cap, &count, VG_CT_KECCAK, "keccak", f ? f->name : NULL, f, s);
            add(out, cap, &count, VG_CT_KECCAK, "keccak", g ? g->name : NULL, g, s);
            /* X25519 ladders. portable-noint128 is the test twin compiled
             * from fe51.c by tests/fe51_twin.c (linked into vg_ct_support). */
            const struct vg_x25519_impl *xl[] = {vg_x25519_portable_get(),
                                                 vg_x25519_portablent_get(),
                                                 vg_x25519_adx_get(), vg_x25519_ifma_get()};
            for (size_t i = 0; i < sizeof xl / sizeof xl[0]; i++)
                add(out, cap, &count, VG_CT_X25519, "x25519", xl[i] ? xl[i]->name : NULL, xl[i],
                    s);
            /* Fixed-base [k]B (X25519 public keys, Ed25519 [a]B). */
            const struct vg_x25519_base_impl *xb[] = {vg_x25519_base_portable_get(),
                                                      vg_x25519_base_adx_get(),
                                                      vg_x25519_base_ifma_get()};
            for (size_t i = 0; i < sizeof xb / sizeof xb[0]; i++)
                add(out, cap, &count, VG_CT_X25519_BASE, "x25519-base", xb[i] ? xb[i]->name : NULL,
                    xb[i], s);
        }
    }
    vg_cpu_force(available);
    return count;
}

void vg_ct_variant_label(const struct vg_ct_variant *v, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", v->family, v->name ? v->name : "?");
}
