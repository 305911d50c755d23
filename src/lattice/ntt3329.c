/*
 * The portable 16-bit NTT of R_3329 (contracts in ntt3329.h): the
 * reference every other implementation matches value for value. Bounds
 * reasoning sits beside each step.
 */
#include "ntt3329.h"

#include "common.h"

/* zetas[i] = 17^BitRev7(i) * R mod q, centred (|z| <= q/2), for i = 0..127:
 * the twiddle factors of FIPS 203 Algorithms 9-10 and, for i >= 64, the
 * gamma of Algorithm 11 (gamma_{2j} = zetas[64 + j], gamma_{2j+1} = -that).
 * Computed with pow(17, bitrev7(i), q) * 2^16 mod q; zetas[0] is unused. */
static const int16_t vg_lattice_ntt3329_zetas[128] = {
    -1044, -758,  -359,  -1517, 1493,  1422,  287,   202,   -171,  622,   1577,  182,   962,
    -1202, -1474, 1468,  573,   -1325, 264,   383,   -829,  1458,  -1602, -130,  -681,  1017,
    732,   608,   -1542, 411,   -205,  -1571, 1223,  652,   -552,  1015,  -1293, 1491,  -282,
    -1544, 516,   -8,    -320,  -666,  -1618, -1162, 126,   1469,  -853,  -90,   -271,  830,
    107,   -1421, -247,  -951,  -398,  961,   -1508, -725,  448,   -1065, 677,   -1275, -1103,
    430,   555,   843,   -1251, 871,   1550,  105,   422,   587,   177,   -235,  -291,  -460,
    1574,  1653,  -246,  778,   1159,  -147,  -777,  1483,  -602,  1119,  -1590, 644,   -872,
    349,   418,   329,   -156,  -75,   817,   1097,  603,   610,   1322,  -1285, -1465, 384,
    -1215, -136,  1218,  -1335, -874,  220,   -1187, -1659, -1185, -1530, -1278, 794,   -1510,
    -854,  -870,  478,   -108,  -308,  996,   991,   958,   -1460, 1522,  1628,
};

/* One layer of the forward NTT (Algorithm 9 lines 3-12 for one len),
 * inlined with len a constant, so that each layer's loops are vectorised
 * for their own length (faster with gcc and clang; see docs/benchmarks.md).
 * Each of the 7 layers adds at most q to the bound (|fqmul| < q), so
 * coefficients stay below q + 7q = 8q = 26632 < 2^15, and the fqmul
 * inputs satisfy |zeta * a| <= (q/2) * 8q < q 2^15. */
static inline __attribute__((always_inline)) void vg_lattice_ntt3329_layer(int16_t *a,
                                                                         unsigned len,
                                                                         unsigned *k)
{
    for (unsigned start = 0; start < VG_LATTICE_N; start += 2 * len) {
        int16_t zeta = vg_lattice_ntt3329_zetas[(*k)++];
        for (unsigned j = start; j < start + len; j++) {
            int16_t t = vg_lattice_q3329_fqmul(zeta, a[j + len]);
            a[j + len] = (int16_t)(a[j] - t);
            a[j] = (int16_t)(a[j] + t);
        }
    }
}

/* Pre: |a| < q. Post: |a| <= q/2.
 * Specification: FIPS 203, Algorithm 9. */
void vg_lattice_ntt3329_ntt_portable(vg_lattice_poly16 *p)
{
    int16_t *a = p->coeffs;
    unsigned k = 1;
    vg_lattice_ntt3329_layer(a, 128, &k);
    vg_lattice_ntt3329_layer(a, 64, &k);
    vg_lattice_ntt3329_layer(a, 32, &k);
    vg_lattice_ntt3329_layer(a, 16, &k);
    vg_lattice_ntt3329_layer(a, 8, &k);
    vg_lattice_ntt3329_layer(a, 4, &k);
    vg_lattice_ntt3329_layer(a, 2, &k);
    for (unsigned j = 0; j < VG_LATTICE_N; j++)
        a[j] = vg_lattice_q3329_barrett(a[j]);
}

/* One layer of the inverse NTT (Algorithm 10 lines 3-12 for one len),
 * inlined with len a constant, so that each layer's loops are vectorised
 * for their own length (clang 14 did poorly with len a variable; gcc is
 * unaffected). Every layer keeps
 * |a| < q: sums are < 2q and Barrett-reduced to q/2, differences are < 2q
 * and go through fqmul (|zeta * d| < q^2 < q 2^15), which returns < q. */
static inline __attribute__((always_inline)) void vg_lattice_invntt3329_layer(int16_t *a,
                                                                            unsigned len,
                                                                            unsigned *k)
{
    for (unsigned start = 0; start < VG_LATTICE_N; start += 2 * len) {
        int16_t zeta = vg_lattice_ntt3329_zetas[(*k)--];
        for (unsigned j = start; j < start + len; j++) {
            int16_t t = a[j];
            a[j] = vg_lattice_q3329_barrett((int16_t)(t + a[j + len]));
            a[j + len] = vg_lattice_q3329_fqmul(zeta, (int16_t)(a[j + len] - t));
        }
    }
}

/* Pre: |a| < q. Post: |a| < q; result R * NTT^-1(a).
 * Specification: FIPS 203, Algorithm 10. */
void vg_lattice_ntt3329_invntt_portable(vg_lattice_poly16 *p)
{
    int16_t *a = p->coeffs;
    unsigned k = 127;
    vg_lattice_invntt3329_layer(a, 2, &k);
    vg_lattice_invntt3329_layer(a, 4, &k);
    vg_lattice_invntt3329_layer(a, 8, &k);
    vg_lattice_invntt3329_layer(a, 16, &k);
    vg_lattice_invntt3329_layer(a, 32, &k);
    vg_lattice_invntt3329_layer(a, 64, &k);
    vg_lattice_invntt3329_layer(a, 128, &k);
    /* 1441 = R^2 / 128 mod q: undoes the factor 128 of the unnormalised
     * transform and leaves one factor R (fqmul removes one of the two). */
    for (unsigned j = 0; j < VG_LATTICE_N; j++)
        a[j] = vg_lattice_q3329_fqmul(a[j], 1441);
}

/* Pre: k <= 4, |a| < 4096, |b| <= q/2 + 1. Post: |r| <= q/2.
 * Specification: FIPS 203, Algorithms 11 and 12. */
void vg_lattice_ntt3329_basemul_acc_portable(vg_lattice_poly16 *r, const vg_lattice_poly16 *a,
                                             const vg_lattice_poly16 *b, unsigned k)
{
    /* Plain products summed in int32 over the vector, one Montgomery
     * reduction per coefficient at the end (it supplies the R^-1 of the
     * contract), so the inner loop is multiply-adds. Only the degree-2 term
     * a1 b1 gamma needs a reduction first: fqmul(a1, b1) = a1 b1 R^-1 (< q),
     * times gamma = zeta R gives a1 b1 zeta with no factor left over.
     * Bounds: |a b| < 4096 * 1665 < 6.82e6, |fqmul * zeta| < q * 1665 <
     * 5.55e6, so each sum over k <= 4 entries is below 4 * 2 * 6.82e6 <
     * 5.5e7 < q 2^15 = 1.09e8, montgomery_reduce's precondition, and far
     * from int32 overflow. The result is < q, and the Barrett step gives the
     * centred representative, the same as any other order of reduction.
     * One loop over the 128 coefficient pairs (2p, 2p+1), with the gamma
     * of each pair (+zetas[64 + p/2] for even p, its negative for odd p,
     * Algorithm 11 line 2) from a small table: clang 14 vectorises this
     * form (not the one with four coefficients per iteration and the sign
     * written out); gcc does either. The table is public constants. */
    int32_t c[VG_LATTICE_N];
    int16_t gam[VG_LATTICE_N / 2];
    for (unsigned p = 0; p < VG_LATTICE_N / 2; p++) {
        int16_t zeta = vg_lattice_ntt3329_zetas[64 + p / 2];
        gam[p] = (int16_t)((p & 1) ? -zeta : zeta);
    }
    memset(c, 0, sizeof c);
    for (unsigned v = 0; v < k; v++) {
        const int16_t *x = a[v].coeffs, *y = b[v].coeffs;
        for (unsigned p = 0; p < VG_LATTICE_N / 2; p++) {
            int16_t g = vg_lattice_q3329_fqmul(x[2 * p + 1], y[2 * p + 1]);
            c[2 * p] += (int32_t)x[2 * p] * y[2 * p] + (int32_t)g * gam[p];
            c[2 * p + 1] += (int32_t)x[2 * p] * y[2 * p + 1] + (int32_t)x[2 * p + 1] * y[2 * p];
        }
    }
    for (unsigned j = 0; j < VG_LATTICE_N; j++)
        r->coeffs[j] = vg_lattice_q3329_barrett(vg_lattice_q3329_montgomery(c[j]));
}

void vg_lattice_ntt3329_reduce_portable(vg_lattice_poly16 *r)
{
    for (unsigned i = 0; i < VG_LATTICE_N; i++)
        r->coeffs[i] = vg_lattice_q3329_barrett(r->coeffs[i]);
}

static const struct vg_lattice_ntt3329 vg_lattice_ntt3329_portable = {
    .name = "portable",
    .ntt = vg_lattice_ntt3329_ntt_portable,
    .invntt_tomont = vg_lattice_ntt3329_invntt_portable,
    .basemul_acc = vg_lattice_ntt3329_basemul_acc_portable,
    .reduce = vg_lattice_ntt3329_reduce_portable,
};

const struct vg_lattice_ntt3329 *vg_lattice_ntt3329_portable_get(void)
{
    return &vg_lattice_ntt3329_portable;
}

#ifndef VG_X86_64
/* No x86-64 code in this build (VG_PORTABLE or another CPU). */
const struct vg_lattice_ntt3329 *vg_lattice_ntt3329_avx2_get(void) { return NULL; }
#endif
