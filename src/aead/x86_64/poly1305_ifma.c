/*
 * Poly1305 (RFC 8439 2.5), x86-64 with AVX-512 IFMA: the radix-2^64 MULX
 * code (poly1305_r64.h) for short runs, and for runs of VEC_MIN blocks or
 * more the 8-lane radix-2^44 loop of poly1305_ifma.h.
 * Compiled with -mavx512f -mavx512vl -mavx512ifma -mbmi2 (CMakeLists.txt);
 * called only when vg_cpu_has reports all four.
 * Specification: RFC 8439, section 2.5.
 */
#include "poly1305_ifma.h"

static void poly1305_init_ifma(vg_poly1305_state *st, const uint8_t key[32])
{
    r64_init(st, key); /* ready = 0: no powers yet */
}

static void poly1305_blocks_ifma(vg_poly1305_state *st, const uint8_t *in, size_t nblocks,
                                 uint32_t hibit)
{
    ifma_blocks(st, in, nblocks, hibit);
}

static void poly1305_finish_ifma(vg_poly1305_state *st, uint8_t tag[16])
{
    r64_finish(st, tag);
}

static const struct vg_poly1305_impl g_poly1305_ifma = {
    .name = "avx512ifma",
    .init = poly1305_init_ifma,
    .blocks = poly1305_blocks_ifma,
    .finish = poly1305_finish_ifma,
};

const struct vg_poly1305_impl *vg_poly1305_ifma_get(void)
{
    return vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512IFMA | VG_CPU_BMI2)
               ? &g_poly1305_ifma
               : NULL;
}
