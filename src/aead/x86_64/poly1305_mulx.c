/*
 * Poly1305 (RFC 8439 2.5), x86-64 scalar with MULX (BMI2), radix 2^64: the
 * arithmetic and its bounds are in poly1305_r64.h. Compiled with -mbmi2
 * (CMakeLists.txt), so the compilers emit MULX for the 64x64->128
 * products; objdump -d of the object file (2026-12-01): clang 14 makes all
 * four of the block loop's wide products MULX, gcc 12 three MULX and one
 * MUL (its register choice; same constant latency), plus the two 64-bit
 * IMULs by h2. Called only when vg_cpu_has(VG_CPU_BMI2).
 * Specification: RFC 8439, section 2.5.
 */
#include "../poly1305_r64.h"

static void poly1305_init_mulx(vg_poly1305_state *st, const uint8_t key[32])
{
    r64_init(st, key);
}

static void poly1305_blocks_mulx(vg_poly1305_state *st, const uint8_t *in, size_t nblocks,
                                 uint32_t hibit)
{
    r64_blocks(st, in, nblocks, hibit);
}

static void poly1305_finish_mulx(vg_poly1305_state *st, uint8_t tag[16])
{
    r64_finish(st, tag);
}

static const struct vg_poly1305_impl g_poly1305_mulx = {
    .name = "mulx",
    .init = poly1305_init_mulx,
    .blocks = poly1305_blocks_mulx,
    .finish = poly1305_finish_mulx,
};

const struct vg_poly1305_impl *vg_poly1305_mulx_get(void)
{
    return vg_cpu_has(VG_CPU_BMI2) ? &g_poly1305_mulx : NULL;
}
