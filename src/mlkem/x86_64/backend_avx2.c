/*
 * ML-KEM's x86-64 backend tables (contract: struct vg_mlkem_backend,
 * poly.h): the AVX2 routines of this directory plus the lattice module's
 * AVX2 NTT (src/lattice/x86_64), pointed at directly, so a call through the
 * table reaches the kernel with no intermediate function.
 * Compiled without vector flags: it only holds tables and reads the active
 * CPU features.
 */
#include "mlkem_avx2.h"

/* The members the two variants share: every routine but the rejection
 * sampler (an initialiser list, spelled out once; each function keeps its
 * full name). */
#define VG_MLKEM_X86_COMMON                                                                        \
    .ntt = vg_lattice_ntt3329_ntt_avx2, .invntt_tomont = vg_lattice_ntt3329_invntt_avx2,           \
    .basemul_acc = vg_lattice_ntt3329_basemul_acc_avx2, .poly_add = vg_mlkem_poly_add_avx2,        \
    .poly_sub = vg_mlkem_poly_sub_avx2, .poly_reduce = vg_lattice_ntt3329_reduce_avx2,             \
    .poly_tomont = vg_mlkem_poly_tomont_avx2, .tobytes = vg_mlkem_poly_tobytes_avx2,               \
    .frombytes = vg_mlkem_poly_frombytes_avx2, .frommsg = vg_mlkem_poly_frommsg_avx2,              \
    .tomsg = vg_mlkem_poly_tomsg_avx2, .compress = vg_mlkem_poly_compress_avx2,                    \
    .decompress = vg_mlkem_poly_decompress_avx2, .cbd = vg_mlkem_cbd_avx2,                         \
    .tomont_add_reduce = vg_mlkem_tomont_add_reduce_avx2

static const struct vg_mlkem_backend vg_mlkem_avx2 = {
    .name = "avx2",
    .rej_uniform = vg_mlkem_rej_uniform_avx2,
    VG_MLKEM_X86_COMMON,
};

/* The same backend with the AVX-512 rejection sampler (rej_avx512.c), the
 * only kernel where AVX-512 is faster on Zen 4, which splits 512-bit
 * operations in two halves (see docs/benchmarks.md): mask registers and
 * VPCOMPRESSD replace the AVX2 shuffle-table packing. Same outputs as every
 * other backend. */
static const struct vg_mlkem_backend vg_mlkem_avx2_avx512 = {
    .name = "avx2+avx512",
    .rej_uniform = vg_mlkem_rej_uniform_avx512,
    VG_MLKEM_X86_COMMON,
};

/* AVX2 when active (follows VG_CPU_FEATURES and vg_cpu_force). */
const struct vg_mlkem_backend *vg_mlkem_avx2_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2) ? &vg_mlkem_avx2 : NULL;
}

/* AVX2 with the AVX-512 sampler when AVX2 and AVX-512 F, VL and BW are all
 * active (rej_avx512.c is compiled with those flags). */
const struct vg_mlkem_backend *vg_mlkem_avx2_avx512_get(void)
{
    if (!vg_cpu_has(VG_CPU_AVX2 | VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW))
        return NULL;
    return &vg_mlkem_avx2_avx512;
}
