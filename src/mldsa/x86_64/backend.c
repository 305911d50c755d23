/*
 * ML-DSA's x86-64 variants of struct vg_mldsa_backend (poly.h), each
 * assembled from the kernels of this directory (mldsa_avx2.h), and their
 * _get functions. A variant's _get returns it only when every CPU feature
 * its kernels need is active (vg_cpu_has, so VG_CPU_FEATURES and
 * vg_cpu_force apply at once); vg_mldsa_active (poly.c) takes the first of
 * avx2+avx512vbmi, avx2+avx512, avx2+vbmi2, avx2 that is available.
 *
 * Which kernel each variant holds, member group by member group:
 *                    NTT, products,  fused     small      samplers  packing
 *                    rounding        passes    products   rej_*     (+unpack_z)
 *   avx2             AVX2            AVX2      AVX2 3329  AVX2      AVX2
 *   avx2+vbmi2       AVX2            AVX2      AVX2 3329  AVX-512   AVX2
 *   avx2+avx512      AVX-512         AVX-512   zmm 7681   AVX2      AVX2
 *   avx2+avx512vbmi  AVX-512         AVX-512   AVX-512    AVX-512   VBMI
 * (the AVX-512 NTTs and products are faster on Zen 4; see
 * docs/benchmarks.md). The coefficientwise passes, decompose, make_hint,
 * SampleInBall and keygen_pass are AVX2 in all four. Every member of
 * every variant returns exactly the portable values (test_mldsa_backend,
 * test_mldsa_small, test_mldsa run each variant through its _get).
 *
 * No CPU-specific instructions here (compiled without -m flags): only
 * tables of pointers.
 */
#include "common.h"
#include "mldsa_avx2.h"
#include "../small.h"

/* The members every x86-64 variant shares (AVX2 kernels). */
#define VG_MLDSA_X86_COMMON                                                                        \
    .decompose = vg_mldsa_decompose_avx2, .make_hint = vg_mldsa_make_hint_avx2,                    \
    .ball_track = vg_mldsa_ball_track_avx2, .ball_place = vg_mldsa_ball_place_avx2,                \
    .reduce = vg_mldsa_reduce_avx2, .caddq = vg_mldsa_caddq_avx2, .add = vg_mldsa_add_avx2,       \
    .sub = vg_mldsa_sub_avx2, .chknorm = vg_mldsa_chknorm_avx2,                                   \
    .power2round = vg_mldsa_power2round_avx2, .keygen_pass = vg_mldsa_keygen_pass_avx2

/* NTT, products and fused passes in ymm registers; small products through
 * the shared AVX2 NTT mod 3329 (src/lattice; no c t0 through them:
 * small_bound 1664 < 3840). */
#define VG_MLDSA_X86_YMM                                                                           \
    .ntt = vg_mldsa_ntt_avx2, .invntt_tomont = vg_mldsa_invntt_avx2,                               \
    .pointwise = vg_mldsa_pointwise_avx2, .pointwise_acc = vg_mldsa_pointwise_acc_avx2,            \
    .pointwise_acc24 = vg_mldsa_pointwise_acc24_avx2, .verify_row = vg_mldsa_verify_row_avx2,      \
    .sign_z_pass = vg_mldsa_sign_z_pass_avx2, .sign_r_pass = vg_mldsa_sign_r_pass_avx2,            \
    .sign_h_pass = vg_mldsa_sign_h_pass_avx2, .sign_w_pass = vg_mldsa_sign_w_pass_avx2,            \
    .small_ntt = vg_mldsa_small_ntt_q3329_avx2, .small_mul = vg_mldsa_small_mul_q3329_avx2,        \
    .small_bound = VG_MLDSA_SMALL_BOUND

/* The same in zmm registers (ntt_avx512.c, small_avx512.c). */
#define VG_MLDSA_X86_ZMM                                                                           \
    .ntt = vg_mldsa_ntt_avx512, .invntt_tomont = vg_mldsa_invntt_avx512,                           \
    .pointwise = vg_mldsa_pointwise_avx512, .pointwise_acc = vg_mldsa_pointwise_acc_avx512,       \
    .pointwise_acc24 = vg_mldsa_pointwise_acc24_avx512,                                            \
    .verify_row = vg_mldsa_verify_row_avx512, .sign_z_pass = vg_mldsa_sign_z_pass_avx512,         \
    .sign_r_pass = vg_mldsa_sign_r_pass_avx512, .sign_h_pass = vg_mldsa_sign_h_pass_avx512,       \
    .sign_w_pass = vg_mldsa_sign_w_pass_avx512, .small_ntt = vg_mldsa_small_ntt_avx512,           \
    .small_mul = vg_mldsa_small_mul_avx512, .small_bound = VG_MLDSA_SMALL_BOUND_7681,             \
    .small_t0_ntt = vg_mldsa_small_t0_ntt_avx512, .small_t0_mul = vg_mldsa_small_t0_mul_avx512

/* Rejection samplers: AVX2 (VPSHUFB classification, prefix-sum slots), or
 * AVX-512 F/BW/VBMI2 (VPCOMPRESS, register-only). */
#define VG_MLDSA_X86_REJ_AVX2                                                                      \
    .rej_uniform = vg_mldsa_rej_uniform_avx2, .rej_eta = vg_mldsa_rej_eta_avx2
#define VG_MLDSA_X86_REJ_AVX512                                                                    \
    .rej_uniform = vg_mldsa_rej_uniform_avx512, .rej_eta = vg_mldsa_rej_eta_avx512

/* Packing: AVX2, or AVX-512 VBMI (which also unpacks z). */
#define VG_MLDSA_X86_PACK_AVX2                                                                     \
    .unpack_z = vg_mldsa_unpack_z_avx2, .t1_pack = vg_mldsa_t1_pack_avx2,                          \
    .t1_unpack = vg_mldsa_t1_unpack_avx2, .t0_pack = vg_mldsa_t0_pack_avx2,                        \
    .t0_unpack = vg_mldsa_t0_unpack_avx2, .eta_pack = vg_mldsa_eta_pack_avx2,                      \
    .eta_unpack = vg_mldsa_eta_unpack_avx2, .w1_pack = vg_mldsa_w1_pack_avx2,                      \
    .shiftl = vg_mldsa_shiftl_avx2, .pack24 = vg_mldsa_pack24_avx2, .bits = vg_mldsa_bits_avx2,   \
    .z_pack = vg_mldsa_z_pack_avx2
#define VG_MLDSA_X86_PACK_VBMI                                                                     \
    .unpack_z = vg_mldsa_z_unpack_avx512, .t1_pack = vg_mldsa_t1_pack_avx512,                      \
    .t1_unpack = vg_mldsa_t1_unpack_avx512, .t0_pack = vg_mldsa_t0_pack_avx512,                    \
    .t0_unpack = vg_mldsa_t0_unpack_avx512, .eta_pack = vg_mldsa_eta_pack_avx512,                  \
    .eta_unpack = vg_mldsa_eta_unpack_avx512, .w1_pack = vg_mldsa_w1_pack_avx512,                  \
    .shiftl = vg_mldsa_shiftl_avx512, .pack24 = vg_mldsa_pack24_avx512,                            \
    .bits = vg_mldsa_bits_avx512, .z_pack = vg_mldsa_z_pack_avx512

static const struct vg_mldsa_backend vg_mldsa_avx2 = {
    .name = "avx2",
    VG_MLDSA_X86_COMMON, VG_MLDSA_X86_YMM, VG_MLDSA_X86_REJ_AVX2, VG_MLDSA_X86_PACK_AVX2,
};

static const struct vg_mldsa_backend vg_mldsa_avx2_vbmi2 = {
    .name = "avx2+vbmi2",
    VG_MLDSA_X86_COMMON, VG_MLDSA_X86_YMM, VG_MLDSA_X86_REJ_AVX512, VG_MLDSA_X86_PACK_AVX2,
};

static const struct vg_mldsa_backend vg_mldsa_avx2_avx512 = {
    .name = "avx2+avx512",
    VG_MLDSA_X86_COMMON, VG_MLDSA_X86_ZMM, VG_MLDSA_X86_REJ_AVX2, VG_MLDSA_X86_PACK_AVX2,
};

static const struct vg_mldsa_backend vg_mldsa_avx2_avx512vbmi = {
    .name = "avx2+avx512vbmi",
    VG_MLDSA_X86_COMMON, VG_MLDSA_X86_ZMM, VG_MLDSA_X86_REJ_AVX512, VG_MLDSA_X86_PACK_VBMI,
};

/* The feature sets (mldsa_avx2.h says which kernel needs which). */
#define VG_MLDSA_F_REJ512 (VG_CPU_AVX512F | VG_CPU_AVX512BW | VG_CPU_AVX512VBMI2)
#define VG_MLDSA_F_ZMM (VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW)

const struct vg_mldsa_backend *vg_mldsa_avx2_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2) ? &vg_mldsa_avx2 : NULL;
}

const struct vg_mldsa_backend *vg_mldsa_avx2_vbmi2_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2 | VG_MLDSA_F_REJ512) ? &vg_mldsa_avx2_vbmi2 : NULL;
}

const struct vg_mldsa_backend *vg_mldsa_avx2_avx512_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2 | VG_MLDSA_F_ZMM) ? &vg_mldsa_avx2_avx512 : NULL;
}

const struct vg_mldsa_backend *vg_mldsa_avx2_avx512vbmi_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2 | VG_MLDSA_F_ZMM | VG_MLDSA_F_REJ512) ? &vg_mldsa_avx2_avx512vbmi
                                                                         : NULL;
}
