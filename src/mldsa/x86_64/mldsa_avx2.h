/*
 * ML-DSA AVX2 backend: internal declarations shared by the files of
 * src/mldsa/x86_64: every kernel the x86-64 variants of struct
 * vg_mldsa_backend (poly.h) are made of, assembled in backend.c. Each is
 * compiled for the instruction set its name says (-mavx2, -mavx512*) and
 * called only through a variant whose _get checked those features; each
 * returns exactly the portable variant's values.
 */
#ifndef VG_MLDSA_AVX2_H
#define VG_MLDSA_AVX2_H

#include "../../common/common.h"
#include "../poly.h"

/* The lane helpers need AVX2; backend.c, compiled for baseline x86-64 (it
 * only holds tables of pointers and its _get must run on any CPU), sees the
 * declarations alone. */
#if defined(__AVX2__)
#include <immintrin.h>

/* ---- lane helpers shared by the AVX2 files (eight int32 lanes) ---------- */

/* reduce32 per lane: a - round(a / 2^23) q. Pre: a <= 2^31 - 2^22 - 1.
 * Post: -6283009 <= r <= 6283008, equal to vg_mldsa_reduce32(a). */
static inline __m256i vg_mldsa_reduce32_8(__m256i a)
{
    __m256i t = _mm256_srai_epi32(_mm256_add_epi32(a, _mm256_set1_epi32(1 << 22)), 23);
    /* t q = (t << 23) - (t << 13) + t (q = 2^23 - 2^13 + 1; exact since
     * |t q| < 2^31): shifts and adds instead of VPMULLD, leaving the vector
     * multiplier to the Montgomery products. */
    __m256i tq = _mm256_add_epi32(
        _mm256_sub_epi32(_mm256_slli_epi32(t, 23), _mm256_slli_epi32(t, 13)), t);
    return _mm256_sub_epi32(a, tq);
}

/* caddq per lane (vg_mldsa_caddq). Pre: |a| < q. Post: 0 <= r < q. */
static inline __m256i vg_mldsa_caddq_8(__m256i a)
{
    return _mm256_add_epi32(a, _mm256_and_si256(_mm256_srai_epi32(a, 31),
                                                 _mm256_set1_epi32(VG_MLDSA_Q)));
}

/* chknorm's test: lanes with |a| >= bound (bm1 = bound - 1; VPABSD, so
 * |a| < 2^31) OR-ed into bad. */
static inline __m256i vg_mldsa_chk8(__m256i bad, __m256i a, __m256i bm1)
{
    return _mm256_or_si256(bad, _mm256_cmpgt_epi32(_mm256_abs_epi32(a), bm1));
}

/* The lanes' verdicts (all-ones or zero) folded to one bit, no branch. */
static inline unsigned vg_mldsa_verdict8(__m256i bad)
{
    uint32_t m = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(bad));
    return (0u - m) >> 31;
}

#endif /* __AVX2__ */

/* Rejection sampling (rej_uniform; contract in poly.h): the same
 * coefficients, in the same order, and the same count as the portable
 * routine on any buffer; never writes r[len] or beyond. Variable time in
 * the (public) buffer contents. AVX2 (rej_avx2.c), and AVX-512 F, BW and
 * VBMI2 (rej_avx512.c, 16 candidates a step). */
unsigned vg_mldsa_rej_uniform_avx2(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen);
unsigned vg_mldsa_rej_uniform_avx512(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen);

/* RejBoundedPoly's inner loop (the backend's rej_eta; contract in poly.h):
 * the same coefficients and count as vg_mldsa_rej_eta_portable; values
 * constant time, only the accept bits declassified (rej_avx2.c). */
unsigned vg_mldsa_rej_eta_avx2(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen,
                               unsigned eta);

/* The same with AVX-512 F, BW and VBMI2, packing in registers only
 * (rej_avx512.c; its time does not follow the accept pattern at all).
 * Same results and count. */
unsigned vg_mldsa_rej_eta_avx512(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen,
                                 unsigned eta);

/* Forward and inverse NTT with the polynomial in sixteen zmm registers
 * (the "avx2+avx512" backend's ntt and invntt_tomont; contracts in poly.h):
 * exactly the portable values (ntt_avx512.c). Called only when AVX-512 F,
 * VL and BW are active. */
void vg_mldsa_ntt_avx512(vg_mldsa_poly *a);
void vg_mldsa_invntt_avx512(vg_mldsa_poly *a);
/* The backend's pointwise, pointwise_acc and pointwise_acc24 in zmm
 * registers (ntt_avx512.c), exactly the portable values; same condition. */
void vg_mldsa_pointwise_avx512(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b);
void vg_mldsa_pointwise_acc_avx512(vg_mldsa_poly *r, const vg_mldsa_poly *a,
                                   const vg_mldsa_poly *b, unsigned n);
void vg_mldsa_pointwise_acc24_avx512(vg_mldsa_poly *r, const uint8_t (*a)[3 * VG_MLDSA_N],
                                     const vg_mldsa_poly *b, unsigned n);

/* The fused verify_row of the avx2+avx512 variants (contract in poly.h)
 * with the inverse NTT in zmm registers (ntt_avx512.c): exactly the values of the unfused sequence. Same
 * condition as vg_mldsa_invntt_avx512. */
void vg_mldsa_verify_row_avx512(vg_mldsa_poly *w1, const vg_mldsa_poly *acc,
                                const vg_mldsa_poly *c, const vg_mldsa_poly *t1,
                                const vg_mldsa_poly *h, int32_t gamma2);

/* sign_z_pass, sign_r_pass, sign_h_pass and sign_w_pass of the
 * avx2+avx512 variants (contracts in poly.h) in zmm
 * registers (ntt_avx512.c); same condition. */
unsigned vg_mldsa_sign_z_pass_avx512(vg_mldsa_poly *z, const vg_mldsa_poly *y, int32_t bound);
void vg_mldsa_sign_w_pass_avx512(vg_mldsa_poly *w, vg_mldsa_poly *w1, int32_t gamma2);
unsigned vg_mldsa_sign_r_pass_avx512(vg_mldsa_poly *r, vg_mldsa_poly *r1, const vg_mldsa_poly *w,
                                     int32_t gamma2, int32_t bound);
unsigned vg_mldsa_sign_h_pass_avx512(vg_mldsa_poly *h, unsigned *nhints, const vg_mldsa_poly *ct0,
                                     const vg_mldsa_poly *r, const vg_mldsa_poly *r1,
                                     int32_t gamma2, int32_t bound);

/* SampleInBall's draw loop and result (the backend's ball_track and
 * ball_place; contracts in poly.h): the same results as the portable
 * routines, constant time in the secret bytes (rej_avx2.c). */
unsigned vg_mldsa_ball_track_avx2(uint8_t pos[64], unsigned cnt, const uint8_t *buf,
                                  unsigned len, unsigned tau);
void vg_mldsa_ball_place_avx2(int32_t c[VG_MLDSA_N], const uint8_t pos[64], uint64_t signs,
                              unsigned tau);

/* Coefficientwise passes (poly_avx2.c; contracts in poly.h): exactly the
 * portable values. */
void vg_mldsa_reduce_avx2(vg_mldsa_poly *a);
void vg_mldsa_caddq_avx2(vg_mldsa_poly *a);
void vg_mldsa_add_avx2(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b);
void vg_mldsa_sub_avx2(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b);
unsigned vg_mldsa_chknorm_avx2(const vg_mldsa_poly *a, int32_t bound);
void vg_mldsa_power2round_avx2(vg_mldsa_poly *a1, vg_mldsa_poly *a0, const vg_mldsa_poly *a);

/* NTT, products and rounding in ymm registers (ntt_avx2.c; contracts in
 * poly.h), exactly the portable values. */
void vg_mldsa_ntt_avx2(vg_mldsa_poly *p);
void vg_mldsa_invntt_avx2(vg_mldsa_poly *p);
void vg_mldsa_pointwise_avx2(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b);
void vg_mldsa_pointwise_acc_avx2(vg_mldsa_poly *r, const vg_mldsa_poly *a,
                                 const vg_mldsa_poly *b, unsigned n);
void vg_mldsa_pointwise_acc24_avx2(vg_mldsa_poly *r, const uint8_t (*a)[3 * VG_MLDSA_N],
                                   const vg_mldsa_poly *b, unsigned n);
void vg_mldsa_decompose_avx2(vg_mldsa_poly *a1, vg_mldsa_poly *a0, const vg_mldsa_poly *a,
                             int32_t gamma2);
unsigned vg_mldsa_make_hint_avx2(vg_mldsa_poly *h, const vg_mldsa_poly *r,
                                 const vg_mldsa_poly *v1, int32_t gamma2);
void vg_mldsa_unpack_z_avx2(vg_mldsa_poly *a, const uint8_t *r, int32_t gamma1);
/* The fused passes of the avx2 variants (ntt_avx2.c; contracts in poly.h). */
void vg_mldsa_verify_row_avx2(vg_mldsa_poly *w1, const vg_mldsa_poly *acc,
                              const vg_mldsa_poly *c, const vg_mldsa_poly *t1,
                              const vg_mldsa_poly *h, int32_t gamma2);
unsigned vg_mldsa_sign_z_pass_avx2(vg_mldsa_poly *z, const vg_mldsa_poly *y, int32_t bound);
unsigned vg_mldsa_sign_r_pass_avx2(vg_mldsa_poly *r, vg_mldsa_poly *r1, const vg_mldsa_poly *w,
                                   int32_t gamma2, int32_t bound);
unsigned vg_mldsa_sign_h_pass_avx2(vg_mldsa_poly *h, unsigned *nhints, const vg_mldsa_poly *ct0,
                                   const vg_mldsa_poly *r, const vg_mldsa_poly *r1,
                                   int32_t gamma2, int32_t bound);
void vg_mldsa_sign_w_pass_avx2(vg_mldsa_poly *w, vg_mldsa_poly *w1, int32_t gamma2);
void vg_mldsa_keygen_pass_avx2(vg_mldsa_poly *t1, vg_mldsa_poly *t0, const vg_mldsa_poly *t,
                               const vg_mldsa_poly *s2);

/* Packing kernels (pack_avx2.c; contracts of the packing members in
 * poly.h): AVX2, and AVX-512 F, BW, VL and VBMI (the _avx512 ones). */
void vg_mldsa_t1_pack_avx2(uint8_t r[VG_MLDSA_POLYT1_BYTES], const vg_mldsa_poly *a);
void vg_mldsa_t1_unpack_avx2(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT1_BYTES]);
void vg_mldsa_t0_pack_avx2(uint8_t r[VG_MLDSA_POLYT0_BYTES], const vg_mldsa_poly *a);
void vg_mldsa_t0_unpack_avx2(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT0_BYTES]);
void vg_mldsa_eta_pack_avx2(uint8_t *r, const vg_mldsa_poly *a, unsigned eta);
unsigned vg_mldsa_eta_unpack_avx2(vg_mldsa_poly *a, const uint8_t *r, unsigned eta);
void vg_mldsa_w1_pack_avx2(uint8_t *r, const vg_mldsa_poly *a, int32_t gamma2);
void vg_mldsa_shiftl_avx2(vg_mldsa_poly *a);
void vg_mldsa_pack24_avx2(uint8_t r[3 * VG_MLDSA_N], const vg_mldsa_poly *a);
void vg_mldsa_bits_avx2(uint8_t r[VG_MLDSA_N / 8], const vg_mldsa_poly *a);
void vg_mldsa_z_pack_avx2(uint8_t *r, const vg_mldsa_poly *a, int32_t gamma1);
void vg_mldsa_t1_pack_avx512(uint8_t r[VG_MLDSA_POLYT1_BYTES], const vg_mldsa_poly *a);
void vg_mldsa_t1_unpack_avx512(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT1_BYTES]);
void vg_mldsa_t0_pack_avx512(uint8_t r[VG_MLDSA_POLYT0_BYTES], const vg_mldsa_poly *a);
void vg_mldsa_t0_unpack_avx512(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT0_BYTES]);
void vg_mldsa_eta_pack_avx512(uint8_t *r, const vg_mldsa_poly *a, unsigned eta);
unsigned vg_mldsa_eta_unpack_avx512(vg_mldsa_poly *a, const uint8_t *r, unsigned eta);
void vg_mldsa_w1_pack_avx512(uint8_t *r, const vg_mldsa_poly *a, int32_t gamma2);
void vg_mldsa_shiftl_avx512(vg_mldsa_poly *a);
void vg_mldsa_pack24_avx512(uint8_t r[3 * VG_MLDSA_N], const vg_mldsa_poly *a);
void vg_mldsa_bits_avx512(uint8_t r[VG_MLDSA_N / 8], const vg_mldsa_poly *a);
void vg_mldsa_z_pack_avx512(uint8_t *r, const vg_mldsa_poly *a, int32_t gamma1);
void vg_mldsa_z_unpack_avx512(vg_mldsa_poly *a, const uint8_t *r, int32_t gamma1);

/* Small products (small.h): through the shared AVX2 NTT modulo 3329
 * (src/lattice/ntt3329.h; small.c, bound VG_MLDSA_SMALL_BOUND), and in zmm registers modulo 7681
 * (small_avx512.c, AVX-512 F, VL, BW; bound VG_MLDSA_SMALL_BOUND_7681). */
void vg_mldsa_small_ntt_q3329_avx2(vg_mldsa_spoly *r, const vg_mldsa_poly *a);
void vg_mldsa_small_mul_q3329_avx2(vg_mldsa_poly *r, const vg_mldsa_spoly *a,
                                   const vg_mldsa_spoly *b);
void vg_mldsa_small_ntt_avx512(vg_mldsa_spoly *out, const vg_mldsa_poly *a);
void vg_mldsa_small_mul_avx512(vg_mldsa_poly *out, const vg_mldsa_spoly *a,
                               const vg_mldsa_spoly *b);
void vg_mldsa_small_t0_ntt_avx512(vg_mldsa_spoly *lo, vg_mldsa_spoly *hi, const vg_mldsa_poly *t);
void vg_mldsa_small_t0_mul_avx512(vg_mldsa_poly *out, const vg_mldsa_spoly *c,
                                  const vg_mldsa_spoly *lo, const vg_mldsa_spoly *hi);

#endif
