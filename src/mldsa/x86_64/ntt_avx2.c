/*
 * ML-DSA (FIPS 204) AVX2 arithmetic: forward and inverse NTT, pointwise
 * product and pointwise multiply-accumulate, eight int32 coefficients per
 * ymm register. Every routine returns exactly the int32 values of its
 * portable twin in poly.c: the same butterflies in the same layers with the
 * same exact Montgomery reductions and reduce32, only evaluated eight lanes
 * at a time. So the coefficient order and representation at the backend
 * boundary are the portable ones. test_mldsa_backend compares each routine
 * with the portable one on random inputs within the stated bounds.
 *
 * Montgomery product, lane by lane (R = 2^32, q^-1 = 58728449 mod 2^32):
 *   mont(a z) = (a z - t q) / 2^32 with t = lo32(a z q^-1) as int32.
 * VPMULDQ multiplies the even int32 lanes into int64 products; the odd
 * lanes are shifted down by 32 first. a z and t q agree in their low 32
 * bits, so the high half of the int64 difference a z - t q is exactly the
 * quotient (no rounding). For a constant z, t = lo32(a (z q^-1 mod 2^32)):
 * one VPMULDQ with the precomputed zq instead of two multiplications.
 *
 * Layers whose butterflies pair coefficients 8 or more apart work on whole
 * registers; the three layers of 4, 2 and 1 work on one 16-coefficient
 * group (two registers) after shuffles that put each butterfly's inputs in
 * the same lane of two registers; the shuffles are undone before storing.
 * The per-lane twiddles of those layers are in ntt_avx2_tables.h.
 *
 * Constant time: no branch or memory index depends on coefficient values.
 * Needs: AVX2 (compiled with -mavx2 -mbmi2, called only when
 * vg_cpu_has(VG_CPU_AVX2)).
 */
#include <immintrin.h>

#include "mldsa_avx2.h"

#include "ntt_avx2_tables.h"

#define VG_QV _mm256_set1_epi32(VG_MLDSA_Q)
#define VG_QINV 58728449 /* q^-1 mod 2^32 */

/* The odd int32 lanes moved down into the even positions. */
static inline __m256i vg_odd(__m256i a) { return _mm256_srli_epi64(a, 32); }

/* mont(a z) per lane, z and zq = z q^-1 mod 2^32 per lane.
 * Pre: |a z| < 2^31 q in every lane. Post: |r| < q; r equals
 * vg_mldsa_montgomery_reduce((int64_t)a * z) lane by lane. */
static inline __m256i vg_montmul(__m256i a, __m256i z, __m256i zq)
{
    __m256i ao = vg_odd(a);
    __m256i pe = _mm256_mul_epi32(a, z);
    __m256i po = _mm256_mul_epi32(ao, vg_odd(z));
    __m256i te = _mm256_mul_epi32(a, zq);
    __m256i to = _mm256_mul_epi32(ao, vg_odd(zq));
    te = _mm256_mul_epi32(te, VG_QV);
    to = _mm256_mul_epi32(to, VG_QV);
    pe = _mm256_sub_epi64(pe, te); /* low halves zero: high half exact */
    po = _mm256_sub_epi64(po, to);
    return _mm256_blend_epi32(vg_odd(pe), po, 0xaa);
}

/* vg_montmul for a twiddle broadcast to all lanes (z, zq the same in
 * every int32 lane): VPMULDQ reads only the low int32 of each 64-bit lane,
 * which for a broadcast already holds the odd lanes' twiddle, so the two
 * shifts of z and zq are not needed. Same pre/post and values as
 * vg_montmul. */
static inline __m256i vg_montmul_bc(__m256i a, __m256i z, __m256i zq)
{
    __m256i ao = vg_odd(a);
    __m256i pe = _mm256_mul_epi32(a, z);
    __m256i po = _mm256_mul_epi32(ao, z);
    __m256i te = _mm256_mul_epi32(a, zq);
    __m256i to = _mm256_mul_epi32(ao, zq);
    te = _mm256_mul_epi32(te, VG_QV);
    to = _mm256_mul_epi32(to, VG_QV);
    pe = _mm256_sub_epi64(pe, te);
    po = _mm256_sub_epi64(po, to);
    return _mm256_blend_epi32(vg_odd(pe), po, 0xaa);
}

/* Montgomery reduction of int64 sums held as even (e) and odd (o) lane
 * pairs. Pre: |e|, |o| < 2^31 q. Post: |r| < q; r equals
 * vg_mldsa_montgomery_reduce of each 64-bit value, in int32 lane order
 * (e's values to the even lanes, o's to the odd ones). */
static inline __m256i vg_montred64(__m256i e, __m256i o)
{
    const __m256i qinv = _mm256_set1_epi32(VG_QINV);
    __m256i te = _mm256_mul_epi32(_mm256_mul_epi32(e, qinv), VG_QV);
    __m256i to = _mm256_mul_epi32(_mm256_mul_epi32(o, qinv), VG_QV);
    e = _mm256_sub_epi64(e, te);
    o = _mm256_sub_epi64(o, to);
    return _mm256_blend_epi32(vg_odd(e), o, 0xaa);
}

static inline __m256i vg_load(const int32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void vg_store(int32_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

/* Forward (Cooley-Tukey) butterfly: t = mont(z b); (a, b) = (a + t, a - t). */
static inline void vg_fwd_bfly(__m256i *a, __m256i *b, __m256i z, __m256i zq)
{
    __m256i t = vg_montmul(*b, z, zq);
    *b = _mm256_sub_epi32(*a, t);
    *a = _mm256_add_epi32(*a, t);
}

/* Inverse (Gentleman-Sande) butterfly with the negated twiddle z:
 * (a, b) = (a + b, mont(z (a - b))), the sum reduce32'd when `reduce` (a
 * constant at every call: layer 2 of the portable schedule). */
static inline void vg_inv_bfly(__m256i *a, __m256i *b, __m256i z, __m256i zq, int reduce)
{
    __m256i t = *a;
    *a = _mm256_add_epi32(t, *b);
    if (reduce)
        *a = vg_mldsa_reduce32_8(*a);
    *b = vg_montmul(_mm256_sub_epi32(t, *b), z, zq);
}

/* The broadcast twiddle pair for a scalar zeta. */
static inline void vg_twiddle(int32_t zeta, __m256i *z, __m256i *zq)
{
    *z = _mm256_set1_epi32(zeta);
    *zq = _mm256_set1_epi32((int32_t)((uint32_t)zeta * (uint32_t)VG_QINV));
}

/* Shuffles of a 16-coefficient group A = a0..7, B = a8..15:
 *   half:  X = [a0..3 | a8..11],            Y = [a4..7 | a12..15]
 *   quart: X = [a0 a1 a4 a5 | a8 a9 a12 a13], Y = [a2 a3 a6 a7 | a10 a11 a14 a15]
 *   pairs: X = [a0 a4 a2 a6 | a8 a12 a10 a14], Y = [a1 a5 a3 a7 | a9 a13 a11 a15]
 * so that at each stage lane i of X and Y are the two inputs of one
 * butterfly of the layer with len 4, 2 and 1 respectively. */
static inline void vg_to_half(__m256i *x, __m256i *y, __m256i a, __m256i b)
{
    *x = _mm256_permute2x128_si256(a, b, 0x20);
    *y = _mm256_permute2x128_si256(a, b, 0x31);
}
static inline void vg_half_to_quart(__m256i *x, __m256i *y)
{
    __m256i t = _mm256_unpacklo_epi64(*x, *y);
    *y = _mm256_unpackhi_epi64(*x, *y);
    *x = t;
}
static inline void vg_quart_to_pairs(__m256i *x, __m256i *y)
{
    __m256 fx = _mm256_castsi256_ps(*x), fy = _mm256_castsi256_ps(*y);
    *x = _mm256_castps_si256(_mm256_shuffle_ps(fx, fy, 0x88));
    *y = _mm256_castps_si256(_mm256_shuffle_ps(fx, fy, 0xdd));
}
static inline void vg_pairs_to_quart(__m256i *x, __m256i *y)
{
    __m256i t = _mm256_unpacklo_epi32(*x, *y);
    *y = _mm256_unpackhi_epi32(*x, *y);
    *x = t;
}
/* quart -> half is the same unpack of 64-bit halves as half -> quart. */
static inline void vg_from_half(__m256i *a, __m256i *b, __m256i x, __m256i y)
{
    *a = _mm256_permute2x128_si256(x, y, 0x20);
    *b = _mm256_permute2x128_si256(x, y, 0x31);
}

/* Broadcast twiddle pair of zetas[m] (both factors loaded from the tables
 * poly.c shares). */
static inline void vg_twiddle_m(unsigned m, __m256i *z, __m256i *zq)
{
    *z = _mm256_set1_epi32(vg_mldsa_zetas[m]);
    *zq = _mm256_set1_epi32(vg_mldsa_zetas_qinv[m]);
}

/* The forward NTT's layers 5-7 (len 4, 2, 1) on the four 16-coefficient
 * groups g .. g + 3, whose halves are s[2 i], s[2 i + 1], then reduce32;
 * stored to a + 16 g. The groups' steps alternate, so that each step's
 * latency overlaps the other groups' (one group alone is a chain of
 * dependent multiplies and shuffles). */
static inline __attribute__((always_inline)) void vg_fwd_small4(int32_t *a, unsigned g,
                                                                __m256i s[8])
{
    __m256i x[4], y[4];
    for (unsigned i = 0; i < 4; i++)
        vg_to_half(&x[i], &y[i], s[2 * i], s[2 * i + 1]);
    for (unsigned i = 0; i < 4; i++)
        vg_fwd_bfly(&x[i], &y[i], vg_load(vg_mldsa_avx2_fwd_small[g + i][0]),
                    vg_load(vg_mldsa_avx2_fwd_small[g + i][3]));
    for (unsigned i = 0; i < 4; i++)
        vg_half_to_quart(&x[i], &y[i]);
    for (unsigned i = 0; i < 4; i++)
        vg_fwd_bfly(&x[i], &y[i], vg_load(vg_mldsa_avx2_fwd_small[g + i][1]),
                    vg_load(vg_mldsa_avx2_fwd_small[g + i][4]));
    for (unsigned i = 0; i < 4; i++)
        vg_quart_to_pairs(&x[i], &y[i]);
    for (unsigned i = 0; i < 4; i++)
        vg_fwd_bfly(&x[i], &y[i], vg_load(vg_mldsa_avx2_fwd_small[g + i][2]),
                    vg_load(vg_mldsa_avx2_fwd_small[g + i][5]));
    for (unsigned i = 0; i < 4; i++) {
        x[i] = vg_mldsa_reduce32_8(x[i]);
        y[i] = vg_mldsa_reduce32_8(y[i]);
        vg_pairs_to_quart(&x[i], &y[i]);
        vg_half_to_quart(&x[i], &y[i]); /* back to half order */
        __m256i lo, hi;
        vg_from_half(&lo, &hi, x[i], y[i]);
        vg_store(a + 16 * (g + i), lo);
        vg_store(a + 16 * (g + i) + 8, hi);
    }
}

/* Forward butterfly with a broadcast twiddle pair. */
static inline void vg_fwd_bfly_bc(__m256i *x, __m256i *y, __m256i z, __m256i zq)
{
    __m256i t = vg_montmul_bc(*y, z, zq);
    *y = _mm256_sub_epi32(*x, t);
    *x = _mm256_add_epi32(*x, t);
}

/* Pre: |a| < q. Post: |a| < q (reduce32 applied: -6283009 <= a <= 6283008),
 * bit-reversed order, identical to the portable NTT: the same butterflies
 * on the same values, in two passes over the array instead of one per
 * layer. Layer l, block blk uses zetas[2^l + blk] (the portable counter).
 * Each layer adds less than q to the bound, as in the portable code:
 * |a| < 9q < 2^27 throughout, |zeta a| < (q/2) 9q < 2^31 q.
 * Specification: FIPS 204, Algorithm 41 (NTT). */
void vg_mldsa_ntt_avx2(vg_mldsa_poly *p)
{
    int32_t *a = p->coeffs;
    /* Layers 0-2 (len 128, 64, 32) on the eight registers a[j + 32 t],
     * t < 8, for each of the four column offsets j. */
    __m256i z1, q1, z2, q2, z3, q3;
    vg_twiddle_m(1, &z1, &q1);
    vg_twiddle_m(2, &z2, &q2);
    vg_twiddle_m(3, &z3, &q3);
    for (unsigned j = 0; j < 32; j += 8) {
        __m256i r[8];
        for (unsigned t = 0; t < 8; t++)
            r[t] = vg_load(a + j + 32 * t);
        for (unsigned t = 0; t < 4; t++)
            vg_fwd_bfly_bc(&r[t], &r[t + 4], z1, q1);
        vg_fwd_bfly_bc(&r[0], &r[2], z2, q2);
        vg_fwd_bfly_bc(&r[1], &r[3], z2, q2);
        vg_fwd_bfly_bc(&r[4], &r[6], z3, q3);
        vg_fwd_bfly_bc(&r[5], &r[7], z3, q3);
        for (unsigned b = 0; b < 4; b++) {
            __m256i z, zq;
            vg_twiddle_m(4 + b, &z, &zq);
            vg_fwd_bfly_bc(&r[2 * b], &r[2 * b + 1], z, zq);
        }
        for (unsigned t = 0; t < 8; t++)
            vg_store(a + j + 32 * t, r[t]);
    }
    /* Layers 3-4 (len 16, 8) on two 32-coefficient blocks' four registers
     * each, then layers 5-7 on their four 16-coefficient groups. */
    for (unsigned b = 0; b < 8; b += 2) {
        int32_t *c = a + 32 * b;
        __m256i s[8], z, zq;
        for (unsigned t = 0; t < 8; t++)
            s[t] = vg_load(c + 8 * t);
        for (unsigned h = 0; h < 2; h++) {
            vg_twiddle_m(8 + b + h, &z, &zq);
            vg_fwd_bfly_bc(&s[4 * h], &s[4 * h + 2], z, zq);
            vg_fwd_bfly_bc(&s[4 * h + 1], &s[4 * h + 3], z, zq);
        }
        for (unsigned k = 0; k < 4; k++) {
            vg_twiddle_m(16 + 2 * b + k, &z, &zq);
            vg_fwd_bfly_bc(&s[2 * k], &s[2 * k + 1], z, zq);
        }
        vg_fwd_small4(a, 2 * b, s);
    }
}

/* Pre: |a| < 2^27. Post: |a| < q; R * NTT^-1(a), identical to the portable
 * routine: the same reduction schedule (only layer 2's sums reduce32'd, the
 * last layer fused with the scaling by 41978 and 41978 (-zetas[1]) R^-1;
 * bounds proved at vg_mldsa_invntt_portable in poly.c: every layer input
 * stays < 2^29 or < 16q, every Montgomery product < 2^52 < 2^31 q), in two
 * passes over the array (layers 0-4, then 5-7) instead of one per layer.
 * Layer l, block blk uses the twiddle -zetas[(256 >> l) - 1 - blk], as the
 * portable loop's decreasing counter gives, applied as the portable code
 * does: mont((y - x) zetas[k]), the same 64-bit products as
 * mont((x - y) (-zetas[k])).
 * Specification: FIPS 204, Algorithm 42 (NTT^-1). */
/* The inverse NTT's layers 0-2 (len 1, 2, 4) on the four 16-coefficient
 * groups g .. g + 3, whose halves are in s[2 i], s[2 i + 1]; layer 2's
 * sums are reduce32'd. The groups' steps alternate (see vg_fwd_small4). */
static inline __attribute__((always_inline)) void vg_inv_small4(unsigned g, __m256i s[8])
{
    __m256i x[4], y[4];
    for (unsigned i = 0; i < 4; i++) {
        vg_to_half(&x[i], &y[i], s[2 * i], s[2 * i + 1]);
        vg_half_to_quart(&x[i], &y[i]);
        vg_quart_to_pairs(&x[i], &y[i]);
    }
    for (unsigned i = 0; i < 4; i++)
        vg_inv_bfly(&x[i], &y[i], vg_load(vg_mldsa_avx2_inv_small[g + i][0]),
                    vg_load(vg_mldsa_avx2_inv_small[g + i][3]), 0);
    for (unsigned i = 0; i < 4; i++)
        vg_pairs_to_quart(&x[i], &y[i]);
    for (unsigned i = 0; i < 4; i++)
        vg_inv_bfly(&x[i], &y[i], vg_load(vg_mldsa_avx2_inv_small[g + i][1]),
                    vg_load(vg_mldsa_avx2_inv_small[g + i][4]), 0);
    for (unsigned i = 0; i < 4; i++)
        vg_half_to_quart(&x[i], &y[i]); /* quart -> half */
    for (unsigned i = 0; i < 4; i++)
        vg_inv_bfly(&x[i], &y[i], vg_load(vg_mldsa_avx2_inv_small[g + i][2]),
                    vg_load(vg_mldsa_avx2_inv_small[g + i][5]), 1);
    for (unsigned i = 0; i < 4; i++)
        vg_from_half(&s[2 * i], &s[2 * i + 1], x[i], y[i]);
}

/* Inverse butterfly of layers 3-6 (sums unreduced), twiddle pair of
 * zetas[k]: (x, y) = (x + y, mont((y - x) zetas[k])). */
static inline void vg_inv_bfly_bc(__m256i *x, __m256i *y, __m256i z, __m256i zq)
{
    __m256i t = *x;
    *x = _mm256_add_epi32(t, *y);
    *y = vg_montmul_bc(_mm256_sub_epi32(*y, t), z, zq);
}

/* Input lanes j..j+7 of verification's row (verify_row, below): acc -
 * pointwise(c, t1). Pre |acc|, |c|, |t1| < q, so |result| < 2q < 2^27 (the
 * inverse NTT's precondition). */
static inline __m256i vg_vin8(const vg_mldsa_poly *acc, const vg_mldsa_poly *c,
                              const vg_mldsa_poly *t1, unsigned j)
{
    __m256i x = vg_load(c->coeffs + j), y = vg_load(t1->coeffs + j);
    __m256i p = vg_montred64(_mm256_mul_epi32(x, y), _mm256_mul_epi32(vg_odd(x), vg_odd(y)));
    return _mm256_sub_epi32(vg_load(acc->coeffs + j), p);
}

/* First pass: layers 0-4 on two 32-coefficient blocks at a time (four
 * groups of layers 0-2, then layers 3 and 4 on each block's four
 * registers), the input a itself (c == NULL) or vg_vin8's, the result
 * stored to a. */
static inline __attribute__((always_inline)) void
vg_inv_low(int32_t *a, const vg_mldsa_poly *acc, const vg_mldsa_poly *c, const vg_mldsa_poly *t1)
{
    for (unsigned b = 0; b < 8; b += 2) {
        unsigned j = 32 * b;
        __m256i s[8], z, zq;
        for (unsigned t = 0; t < 8; t++)
            s[t] = c ? vg_vin8(acc, c, t1, j + 8 * t) : vg_load(a + j + 8 * t);
        vg_inv_small4(2 * b, s);
        for (unsigned k = 0; k < 4; k++) {
            vg_twiddle_m(31 - 2 * b - k, &z, &zq); /* layer 3, block 2b + k */
            vg_inv_bfly_bc(&s[2 * k], &s[2 * k + 1], z, zq);
        }
        for (unsigned h = 0; h < 2; h++) {
            vg_twiddle_m(15 - b - h, &z, &zq); /* layer 4, block b + h */
            vg_inv_bfly_bc(&s[4 * h], &s[4 * h + 2], z, zq);
            vg_inv_bfly_bc(&s[4 * h + 1], &s[4 * h + 3], z, zq);
        }
        for (unsigned t = 0; t < 8; t++)
            vg_store(a + j + 8 * t, s[t]);
    }
}

/* Second pass, for column offset j: layers 5 and 6 (len 32, 64) on the
 * eight registers a[j + 32 t], t < 8, then layer 7 with the scaling: sums
 * times 41978, differences times 3975713 = 41978 (-zetas[1]) 2^-32 mod q
 * (VG_MLDSA_INV_F / _LAST in poly.c). The results are left in r[t]
 * (coefficient j + 32 t) for the caller to store. */
static inline __attribute__((always_inline)) void vg_inv_high(const int32_t *a, unsigned j,
                                                              __m256i r[8])
{
    __m256i z, zq;
    for (unsigned t = 0; t < 8; t++)
        r[t] = vg_load(a + j + 32 * t);
    for (unsigned b = 0; b < 4; b++) {
        vg_twiddle_m(7 - b, &z, &zq); /* layer 5, block b */
        vg_inv_bfly_bc(&r[2 * b], &r[2 * b + 1], z, zq);
    }
    vg_twiddle_m(3, &z, &zq); /* layer 6, block 0 */
    vg_inv_bfly_bc(&r[0], &r[2], z, zq);
    vg_inv_bfly_bc(&r[1], &r[3], z, zq);
    vg_twiddle_m(2, &z, &zq); /* layer 6, block 1 */
    vg_inv_bfly_bc(&r[4], &r[6], z, zq);
    vg_inv_bfly_bc(&r[5], &r[7], z, zq);
    __m256i f, fq, cz, cq;
    vg_twiddle(41978, &f, &fq);
    vg_twiddle(3975713, &cz, &cq);
    for (unsigned t = 0; t < 4; t++) {
        __m256i x = r[t], y = r[t + 4];
        r[t] = vg_montmul_bc(_mm256_add_epi32(x, y), f, fq);
        r[t + 4] = vg_montmul_bc(_mm256_sub_epi32(x, y), cz, cq);
    }
}

void vg_mldsa_invntt_avx2(vg_mldsa_poly *p)
{
    int32_t *a = p->coeffs;
    vg_inv_low(a, NULL, NULL, NULL);
    for (unsigned j = 0; j < 32; j += 8) {
        __m256i r[8];
        vg_inv_high(a, j, r);
        for (unsigned t = 0; t < 8; t++)
            vg_store(a + j + 32 * t, r[t]);
    }
}

/* r = a o b R^-1. Pre: |a|, |b| < q. Post: |r| < q, identical to portable.
 * Aliasing of r with a or b is allowed. FIPS 204, Algorithm 45. */
void vg_mldsa_pointwise_avx2(vg_mldsa_poly *r, const vg_mldsa_poly *a,
                                    const vg_mldsa_poly *b)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        __m256i x = vg_load(a->coeffs + j), y = vg_load(b->coeffs + j);
        /* |a b| < q^2 < 2^31 q. */
        __m256i e = _mm256_mul_epi32(x, y);
        __m256i o = _mm256_mul_epi32(vg_odd(x), vg_odd(y));
        vg_store(r->coeffs + j, vg_montred64(e, o));
    }
}

/* Coefficients j .. j + 15 of pointwise_acc: two independent pairs of
 * int64 sums. n products < q^2 < 2^46 each: |sum| < 2^49 < 2^31 q. */
static inline __attribute__((always_inline)) void
vg_acc_n(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b, unsigned n)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 16) {
        __m256i e0 = _mm256_setzero_si256(), o0 = _mm256_setzero_si256();
        __m256i e1 = _mm256_setzero_si256(), o1 = _mm256_setzero_si256();
        for (unsigned i = 0; i < n; i++) {
            __m256i x0 = vg_load(a[i].coeffs + j), y0 = vg_load(b[i].coeffs + j);
            __m256i x1 = vg_load(a[i].coeffs + j + 8), y1 = vg_load(b[i].coeffs + j + 8);
            e0 = _mm256_add_epi64(e0, _mm256_mul_epi32(x0, y0));
            o0 = _mm256_add_epi64(o0, _mm256_mul_epi32(vg_odd(x0), vg_odd(y0)));
            e1 = _mm256_add_epi64(e1, _mm256_mul_epi32(x1, y1));
            o1 = _mm256_add_epi64(o1, _mm256_mul_epi32(vg_odd(x1), vg_odd(y1)));
        }
        vg_store(r->coeffs + j, vg_montred64(e0, o0));
        vg_store(r->coeffs + j + 8, vg_montred64(e1, o1));
    }
}

/* r = R^-1 sum_{i<n} a[i] o b[i]. Pre: n <= 8, |a|, |b| < q. Post: |r| < q,
 * identical to portable (the int64 sums are the same, reduced once). The
 * counts of key generation and verification (n = L: 4, 5, 7) get their own
 * fully unrolled copies. FIPS 204, Algorithms 45 and 48. */
void vg_mldsa_pointwise_acc_avx2(vg_mldsa_poly *r, const vg_mldsa_poly *a,
                                        const vg_mldsa_poly *b, unsigned n)
{
    switch (n) {
    case 4:
        vg_acc_n(r, a, b, 4);
        break;
    case 5:
        vg_acc_n(r, a, b, 5);
        break;
    case 7:
        vg_acc_n(r, a, b, 7);
        break;
    default:
        vg_acc_n(r, a, b, n);
        break;
    }
}

/* Eight 24-bit little-endian values at p (24 bytes) as int32 lanes: one
 * VPERMQ puts bytes 0-15 in the low lane and 8-23 in the high one, one
 * VPSHUFB spreads each value's three bytes into a lane (fourth byte zero).
 * Reads p[0 .. 32) or, with end set, p[-8 .. 24) (the same bytes are
 * qwords 1, 2 | 2, 3 of that load), so the last group of an entry reads
 * nothing past it. */
static inline __m256i vg_load24x8(const uint8_t *p, int end)
{
    const __m256i spread = _mm256_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
                                            4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1);
    __m256i v = end ? _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)(p - 8)), 0xe9)
                    : _mm256_permute4x64_epi64(_mm256_loadu_si256((const __m256i *)p), 0x94);
    return _mm256_shuffle_epi8(v, spread);
}

/* Coefficients j .. j + 7 of pointwise_acc24 (end: j = N - 8). */
static inline __attribute__((always_inline)) void
vg_acc24_group(vg_mldsa_poly *r, const uint8_t (*a)[3 * VG_MLDSA_N], const vg_mldsa_poly *b,
               unsigned n, unsigned j, int end)
{
    __m256i e = _mm256_setzero_si256(), o = _mm256_setzero_si256();
    for (unsigned k = 0; k < n; k++) {
        __m256i x = vg_load24x8(a[k] + 3 * j, end);
        __m256i y = vg_load(b[k].coeffs + j);
        e = _mm256_add_epi64(e, _mm256_mul_epi32(x, y));
        o = _mm256_add_epi64(o, _mm256_mul_epi32(vg_odd(x), vg_odd(y)));
    }
    vg_store(r->coeffs + j, _mm256_add_epi32(vg_load(r->coeffs + j), vg_montred64(e, o)));
}

static inline __attribute__((always_inline)) void
vg_acc24_n(vg_mldsa_poly *r, const uint8_t (*a)[3 * VG_MLDSA_N], const vg_mldsa_poly *b,
           unsigned n)
{
    for (unsigned j = 0; j + 8 < VG_MLDSA_N; j += 8)
        vg_acc24_group(r, a, b, n, j, 0);
    vg_acc24_group(r, a, b, n, VG_MLDSA_N - 8, 1);
}

/* r += R^-1 sum_{k<n} A[k] o b[k], A[k] packed (vg_mldsa_poly_pack24).
 * Pre: n <= 8, 0 <= A < q, |b| < q, |r| < 2^27. Post: |r| < |r_in| + q,
 * identical to portable (the int64 sums are the same, reduced once). The
 * counts signing uses (4 columns at a time: n = 4, then L mod 4 = 1 or 3)
 * get their own fully unrolled copies (about a quarter faster than the
 * loop over k). FIPS 204, Algorithms 45, 48. */
void vg_mldsa_pointwise_acc24_avx2(vg_mldsa_poly *r, const uint8_t (*a)[3 * VG_MLDSA_N],
                                          const vg_mldsa_poly *b, unsigned n)
{
    switch (n) {
    case 4:
        vg_acc24_n(r, a, b, 4);
        break;
    case 3:
        vg_acc24_n(r, a, b, 3);
        break;
    case 1:
        vg_acc24_n(r, a, b, 1);
        break;
    default:
        vg_acc24_n(r, a, b, n);
        break;
    }
}

/* Decompose of eight lanes, exactly vg_mldsa_decompose (poly.h), without
 * 64-bit products: with x = a + gamma2 - 1 < 2^24, floor(x / (2 gamma2)) =
 * floor(floor(x / 2^s) / d) for 2 gamma2 = 2^s d (integer division
 * nests), here 2^9 * 1023 (gamma2 = (q-1)/32) or 2^11 * 93 ((q-1)/88);
 * y = x >> s < 2^15, and floor(y / 1023) = (y + (y >> 10) + 1) >> 10,
 * floor(y / 93) = (y * 2819) >> 18 (y * 2819 < 2^31), both checked for
 * every a < q by an exhaustive throwaway program and by test_mldsa_backend
 * (decompose and make_hint on every value below q). Then rem = a -
 * 2 gamma2 r1 and the top wrap as vg_mldsa_decompose. Pre: 0 <= a < q. */
static inline __m256i vg_decompose8(__m256i *r0, __m256i a, int32_t gamma2)
{
    __m256i r1, m2;
    if (gamma2 == VG_MLDSA_GAMMA2_32) {
        __m256i y = _mm256_srli_epi32(_mm256_add_epi32(a, _mm256_set1_epi32(gamma2 - 1)), 9);
        r1 = _mm256_add_epi32(_mm256_add_epi32(y, _mm256_srli_epi32(y, 10)), _mm256_set1_epi32(1));
        r1 = _mm256_srli_epi32(r1, 10);
        /* 2 gamma2 r1 = (r1 << 19) - (r1 << 9). */
        m2 = _mm256_sub_epi32(_mm256_slli_epi32(r1, 19), _mm256_slli_epi32(r1, 9));
    } else {
        __m256i y = _mm256_srli_epi32(_mm256_add_epi32(a, _mm256_set1_epi32(gamma2 - 1)), 11);
        r1 = _mm256_srli_epi32(_mm256_mullo_epi32(y, _mm256_set1_epi32(2819)), 18);
        m2 = _mm256_mullo_epi32(r1, _mm256_set1_epi32(2 * gamma2));
    }
    __m256i rem = _mm256_sub_epi32(a, m2);
    __m256i is_top = _mm256_cmpeq_epi32(r1, _mm256_set1_epi32(gamma2 == VG_MLDSA_GAMMA2_88 ? 44 : 16));
    *r0 = _mm256_add_epi32(rem, is_top);
    return _mm256_andnot_si256(is_top, r1);
}

/* Backend decompose (contract in poly.h), identical to portable. */
void vg_mldsa_decompose_avx2(vg_mldsa_poly *a1, vg_mldsa_poly *a0, const vg_mldsa_poly *a,
                                    int32_t gamma2)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        __m256i lo, hi = vg_decompose8(&lo, vg_load(a->coeffs + j), gamma2);
        vg_store(a1->coeffs + j, hi);
        if (a0)
            vg_store(a0->coeffs + j, lo);
    }
}

/* Backend make_hint (contract in poly.h): h = [HighBits(r) != v1], the
 * count summed in lanes and added up at the end. Identical to portable. */
unsigned vg_mldsa_make_hint_avx2(vg_mldsa_poly *h, const vg_mldsa_poly *r,
                                        const vg_mldsa_poly *v1, int32_t gamma2)
{
    const __m256i one = _mm256_set1_epi32(1);
    __m256i cnt = _mm256_setzero_si256();
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        __m256i lo, hi = vg_decompose8(&lo, vg_load(r->coeffs + j), gamma2);
        __m256i bit = _mm256_andnot_si256(_mm256_cmpeq_epi32(hi, vg_load(v1->coeffs + j)), one);
        vg_store(h->coeffs + j, bit);
        cnt = _mm256_add_epi32(cnt, bit);
    }
    __m128i c = _mm_add_epi32(_mm256_castsi256_si128(cnt), _mm256_extracti128_si256(cnt, 1));
    c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0x4e));
    c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0xb1));
    return (unsigned)_mm_cvtsi128_si32(c);
}

/* Backend unpack_z (contract in poly.h): eight fields (18 or 20 bytes) a
 * step. Field k < 4 of a group lies within bytes [floor(b k / 8), +3) of
 * the group's first half (b = 18: bytes 0, 2, 4, 6, shifts 0, 2, 4, 6;
 * b = 20: bytes 0, 2, 5, 7, shifts 0, 4, 0, 4), and fields 4-7 the same
 * within the second half (b / 2 bytes on), so one 16-byte load per half
 * into each 128-bit lane, one VPSHUFB, a variable shift and a mask give the
 * fields; a = gamma1 - field. The last group, whose loads would pass the
 * end, goes through a zero-padded copy. Identical to portable. */
void vg_mldsa_unpack_z_avx2(vg_mldsa_poly *a, const uint8_t *r, int32_t gamma1)
{
    const int b18 = gamma1 == (1 << 17);
    const unsigned bytes = b18 ? 18u : 20u; /* per group of eight */
    const __m256i shuf =
        b18 ? _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6, -1, 6, 7, 8, -1, 0, 1, 2, -1, 2, 3, 4,
                               -1, 4, 5, 6, -1, 6, 7, 8, -1)
            : _mm256_setr_epi8(0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1, 0, 1, 2, -1, 2, 3, 4,
                               -1, 5, 6, 7, -1, 7, 8, 9, -1);
    const __m256i shifts =
        b18 ? _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6) : _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4);
    const __m256i mask = _mm256_set1_epi32(b18 ? (1 << 18) - 1 : (1 << 20) - 1);
    const __m256i g1 = _mm256_set1_epi32(gamma1);
    uint8_t last[48];
    for (unsigned g = 0; g < VG_MLDSA_N / 8; g++) {
        const uint8_t *p = r + g * bytes;
        if (g == VG_MLDSA_N / 8 - 1) {
            memset(last, 0, sizeof last);
            memcpy(last, p, bytes);
            p = last;
        }
        __m128i lo = _mm_loadu_si128((const __m128i *)p);
        __m128i hi = _mm_loadu_si128((const __m128i *)(p + bytes / 2));
        __m256i x = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
        x = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, shuf), shifts), mask);
        vg_store(a->coeffs + 8 * g, _mm256_sub_epi32(g1, x));
    }
    vg_wipe(last, sizeof last);
}

/* ---- fused operations (fused members, poly.h) -------------------------------
 * Verification's row: the inverse NTT above with its input acc - c o t1
 * computed as its first layers load it (the pointwise product, FIPS 204
 * Algorithm 45) and caddq and UseHint applied to the last layer's output
 * before it is stored. Each step is one of the routines above lane by lane
 * (the same instructions on the same values), so the result is exactly
 * that of the unfused sequence; test_mldsa_backend compares it with the
 * portable routines run one after the other. */

/* UseHint(h, caddq(v)) per lane (FIPS 204, Algorithm 40): where h = 1,
 * r1 + 1 when r0 > 0, else r1 - 1, modulo m = (q - 1) / (2 gamma2); the
 * same values as vg_mldsa_poly_use_hint. Pre: |v| < q, h in {0, 1}. */
static inline __m256i vg_use_hint8(__m256i v, __m256i h, int32_t gamma2)
{
    const __m256i one = _mm256_set1_epi32(1), zero = _mm256_setzero_si256();
    const __m256i m = _mm256_set1_epi32(gamma2 == VG_MLDSA_GAMMA2_88 ? 44 : 16);
    __m256i lo, hi = vg_decompose8(&lo, vg_mldsa_caddq_8(v), gamma2);
    /* step = +1 (r0 > 0) or -1, times h: -(pos | 1) is 1 or -1. */
    __m256i pos = _mm256_cmpgt_epi32(lo, zero);
    __m256i step = _mm256_sub_epi32(zero, _mm256_or_si256(pos, one));
    hi = _mm256_add_epi32(hi, _mm256_and_si256(step, _mm256_sub_epi32(zero, h)));
    /* hi in [-1, m]: wrap into [0, m). */
    hi = _mm256_add_epi32(hi, _mm256_and_si256(_mm256_srai_epi32(hi, 31), m));
    return _mm256_sub_epi32(hi, _mm256_and_si256(_mm256_cmpgt_epi32(hi, _mm256_sub_epi32(m, one)), m));
}

/* Contract in poly.h (verify_row): vg_mldsa_invntt_avx2's
 * transform (same schedule and bounds) in the working array w1. */
void vg_mldsa_verify_row_avx2(vg_mldsa_poly *w1, const vg_mldsa_poly *acc,
                                     const vg_mldsa_poly *c, const vg_mldsa_poly *t1,
                                     const vg_mldsa_poly *h, int32_t gamma2)
{
    int32_t *a = w1->coeffs;
    vg_inv_low(a, acc, c, t1);
    /* Layers 5-7 with the scaling, then caddq and UseHint. */
    for (unsigned j = 0; j < 32; j += 8) {
        __m256i r[8];
        vg_inv_high(a, j, r);
        for (unsigned t = 0; t < 8; t++)
            vg_store(a + j + 32 * t, vg_use_hint8(r[t], vg_load(h->coeffs + j + 32 * t), gamma2));
    }
}

/* Signing's and key generation's coefficientwise sequences in one pass
 * each (contracts in poly.h, struct vg_mldsa_backend): the same lane
 * operations as the separate passes (poly_avx2.c and decompose /
 * make_hint above), so the same values, with one load and store of each
 * polynomial instead of one per pass. */

/* The representative in [0, q) of x, for -q <= x < 2q: caddq(reduce32(x))
 * is that same representative (reduce32 keeps the residue, caddq then
 * lands in [0, q)), so this is the separate passes' value with two
 * compare-and-adds instead of seven operations. */
static inline __m256i vg_canon8(__m256i x)
{
    const __m256i q = VG_QV, qm1 = _mm256_set1_epi32(VG_MLDSA_Q - 1);
    x = _mm256_add_epi32(x, _mm256_and_si256(_mm256_srai_epi32(x, 31), q));
    return _mm256_sub_epi32(x, _mm256_and_si256(_mm256_cmpgt_epi32(x, qm1), q));
}

unsigned vg_mldsa_sign_z_pass_avx2(vg_mldsa_poly *z, const vg_mldsa_poly *y, int32_t bound)
{
    const __m256i bm1 = _mm256_set1_epi32(bound - 1);
    __m256i bad = _mm256_setzero_si256();
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        __m256i v = vg_mldsa_reduce32_8(_mm256_add_epi32(vg_load(z->coeffs + j), vg_load(y->coeffs + j)));
        vg_store(z->coeffs + j, v);
        bad = vg_mldsa_chk8(bad, v, bm1);
    }
    return vg_mldsa_verdict8(bad);
}

unsigned vg_mldsa_sign_r_pass_avx2(vg_mldsa_poly *r, vg_mldsa_poly *r1,
                                          const vg_mldsa_poly *w, int32_t gamma2, int32_t bound)
{
    const __m256i bm1 = _mm256_set1_epi32(bound - 1);
    __m256i bad = _mm256_setzero_si256();
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        __m256i v = vg_canon8(_mm256_sub_epi32(vg_load(w->coeffs + j), vg_load(r->coeffs + j)));
        __m256i lo, hi = vg_decompose8(&lo, v, gamma2);
        vg_store(r->coeffs + j, v);
        vg_store(r1->coeffs + j, hi);
        bad = vg_mldsa_chk8(bad, lo, bm1);
    }
    return vg_mldsa_verdict8(bad);
}

unsigned vg_mldsa_sign_h_pass_avx2(vg_mldsa_poly *h, unsigned *nhints,
                                          const vg_mldsa_poly *ct0, const vg_mldsa_poly *r,
                                          const vg_mldsa_poly *r1, int32_t gamma2, int32_t bound)
{
    const __m256i bm1 = _mm256_set1_epi32(bound - 1), one = _mm256_set1_epi32(1);
    __m256i bad = _mm256_setzero_si256(), cnt = _mm256_setzero_si256();
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        __m256i c = vg_mldsa_reduce32_8(vg_load(ct0->coeffs + j));
        bad = vg_mldsa_chk8(bad, c, bm1);
        __m256i u = vg_canon8(_mm256_add_epi32(vg_load(r->coeffs + j), c));
        __m256i lo, hi = vg_decompose8(&lo, u, gamma2);
        __m256i bit = _mm256_andnot_si256(_mm256_cmpeq_epi32(hi, vg_load(r1->coeffs + j)), one);
        vg_store(h->coeffs + j, bit);
        cnt = _mm256_add_epi32(cnt, bit);
    }
    __m128i c = _mm_add_epi32(_mm256_castsi256_si128(cnt), _mm256_extracti128_si256(cnt, 1));
    c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0x4e));
    c = _mm_add_epi32(c, _mm_shuffle_epi32(c, 0xb1));
    *nhints = (unsigned)_mm_cvtsi128_si32(c);
    return vg_mldsa_verdict8(bad);
}

void vg_mldsa_sign_w_pass_avx2(vg_mldsa_poly *w, vg_mldsa_poly *w1, int32_t gamma2)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        __m256i v = vg_mldsa_caddq_8(vg_load(w->coeffs + j)), lo;
        vg_store(w->coeffs + j, v);
        vg_store(w1->coeffs + j, vg_decompose8(&lo, v, gamma2));
    }
}

void vg_mldsa_keygen_pass_avx2(vg_mldsa_poly *t1, vg_mldsa_poly *t0,
                                      const vg_mldsa_poly *t, const vg_mldsa_poly *s2)
{
    const __m256i h = _mm256_set1_epi32((1 << (VG_MLDSA_D - 1)) - 1);
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        /* t + s2 may pass -q (|t| < q, |s2| <= 4): reduce32 first. */
        __m256i v = vg_mldsa_caddq_8(
            vg_mldsa_reduce32_8(_mm256_add_epi32(vg_load(t->coeffs + j), vg_load(s2->coeffs + j))));
        __m256i hi = _mm256_srai_epi32(_mm256_add_epi32(v, h), VG_MLDSA_D);
        vg_store(t1->coeffs + j, hi);
        vg_store(t0->coeffs + j, _mm256_sub_epi32(v, _mm256_slli_epi32(hi, VG_MLDSA_D)));
    }
}
