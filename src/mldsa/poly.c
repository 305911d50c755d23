/*
 * ML-DSA (FIPS 204): portable polynomial arithmetic, shared by the three
 * parameter sets, and the portable backend (NTT, pointwise products,
 * rejection sampling of A-hat). Conventions and bounds are in poly.h.
 */
#include "poly.h"
#include "mldsa.h"
#include "small.h"

#include "common.h"
#include "../hash/keccak4x.h"

/* zetas[i] = 1753^BitRev8(i) * 2^32 mod q, centred (|z| <= q/2), for
 * i = 0..255: the twiddle factors of FIPS 204 Algorithms 41-42 (zetas[i]
 * there is 1753^BitRev8(i) mod q; here it is in Montgomery form). Computed
 * with pow(1753, bitrev8(i), q) * 2^32 mod q; zetas[0] is unused. */
const int32_t vg_mldsa_zetas[256] = {
    -4186625, 25847, -2608894, -518909, 237124, -777960, -876248, 466468,
    1826347, 2353451, -359251, -2091905, 3119733, -2884855, 3111497, 2680103,
    2725464, 1024112, -1079900, 3585928, -549488, -1119584, 2619752, -2108549,
    -2118186, -3859737, -1399561, -3277672, 1757237, -19422, 4010497, 280005,
    2706023, 95776, 3077325, 3530437, -1661693, -3592148, -2537516, 3915439,
    -3861115, -3043716, 3574422, -2867647, 3539968, -300467, 2348700, -539299,
    -1699267, -1643818, 3505694, -3821735, 3507263, -2140649, -1600420, 3699596,
    811944, 531354, 954230, 3881043, 3900724, -2556880, 2071892, -2797779,
    -3930395, -1528703, -3677745, -3041255, -1452451, 3475950, 2176455, -1585221,
    -1257611, 1939314, -4083598, -1000202, -3190144, -3157330, -3632928, 126922,
    3412210, -983419, 2147896, 2715295, -2967645, -3693493, -411027, -2477047,
    -671102, -1228525, -22981, -1308169, -381987, 1349076, 1852771, -1430430,
    -3343383, 264944, 508951, 3097992, 44288, -1100098, 904516, 3958618,
    -3724342, -8578, 1653064, -3249728, 2389356, -210977, 759969, -1316856,
    189548, -3553272, 3159746, -1851402, -2409325, -177440, 1315589, 1341330,
    1285669, -1584928, -812732, -1439742, -3019102, -3881060, -3628969, 3839961,
    2091667, 3407706, 2316500, 3817976, -3342478, 2244091, -2446433, -3562462,
    266997, 2434439, -1235728, 3513181, -3520352, -3759364, -1197226, -3193378,
    900702, 1859098, 909542, 819034, 495491, -1613174, -43260, -522500,
    -655327, -3122442, 2031748, 3207046, -3556995, -525098, -768622, -3595838,
    342297, 286988, -2437823, 4108315, 3437287, -3342277, 1735879, 203044,
    2842341, 2691481, -2590150, 1265009, 4055324, 1247620, 2486353, 1595974,
    -3767016, 1250494, 2635921, -3548272, -2994039, 1869119, 1903435, -1050970,
    -1333058, 1237275, -3318210, -1430225, -451100, 1312455, 3306115, -1962642,
    -1279661, 1917081, -2546312, -1374803, 1500165, 777191, 2235880, 3406031,
    -542412, -2831860, -1671176, -1846953, -2584293, -3724270, 594136, -3776993,
    -2013608, 2432395, 2454455, -164721, 1957272, 3369112, 185531, -1207385,
    -3183426, 162844, 1616392, 3014001, 810149, 1652634, -3694233, -1799107,
    -3038916, 3523897, 3866901, 269760, 2213111, -975884, 1717735, 472078,
    -426683, 1723600, -1803090, 1910376, -1667432, -1104333, -260646, -3833893,
    -2939036, -2235985, -420899, -2286327, 183443, -976891, 1612842, -3545687,
    -554416, 3919660, -48306, -1362209, 3937738, 1400424, -846154, 1976782,
};

/* ---- portable backend ------------------------------------------------- */

/* vg_mldsa_zetas_qinv[i] = zetas[i] * q^-1 mod 2^32, as a signed 32-bit
 * value (q^-1 = 58728449 mod 2^32). Montgomery's t for a product zeta * a
 * is lo32(zeta * a * q^-1) = lo32(a * zetas_qinv[i]): a 32-bit multiply
 * that does not wait for the 64-bit product, so the two run side by side
 * and the reduction's dependency chain is one multiply shorter. The
 * results are those of vg_mldsa_montgomery_reduce(zeta * a), bit for bit
 * (same t, same 64-bit difference). */
const int32_t vg_mldsa_zetas_qinv[256] = {
    -513, 1830765815, -1929875198, -1927777021, 1640767044, 1477910808,
    1612161320, 1640734244, 308362795, -1815525077, -1374673747, -1091570561,
    -1929495947, 515185417, -285697463, 625853735, 1727305304, 2082316400,
    -1364982364, 858240904, 1806278032, 222489248, -346752664, 684667771,
    1654287830, -878576921, -1257667337, -748618600, 329347125, 1837364258,
    -1443016191, -1170414139, -1846138265, -1631226336, -1404529459, 1838055109,
    1594295555, -1076973524, -1898723372, -594436433, -202001019, -475984260,
    -561427818, 1797021249, -1061813248, 2059733581, -1661512036, -1104976547,
    -1750224323, -901666090, 418987550, 1831915353, -1925356481, 992097815,
    879957084, 2024403852, 1484874664, -1636082790, -285388938, -1983539117,
    -1495136972, -950076368, -1714807468, -952438995, -1574918427, -654783359,
    1350681039, -1974159335, -2143979939, 1651689966, 1599739335, 140455867,
    -1285853323, -1039411342, -993005454, 1955560694, -1440787840, 1529189038,
    568627424, -2131021878, -783134478, -247357819, -588790216, 1518161567,
    289871779, -86965173, -1262003603, 1708872713, 2135294594, 1787797779,
    -1018755525, 1638590967, -889861155, -120646188, 1665705315, -1669960606,
    1321868265, -916321552, 1225434135, 1155548552, -1784632064, 2143745726,
    666258756, 1210558298, 675310538, -1261461890, -1555941048, -318346816,
    -1999506068, 628664287, -1499481951, -1729304568, -695180180, 1422575624,
    -1375177022, 1424130038, 1777179795, -1185330464, 334803717, 235321234,
    -178766299, 168022240, -518252220, 1206536194, 1957047970, 985155484,
    1146323031, -894060583, -898413, 991903578, 1363007700, 746144248,
    -1363460238, 912367099, 30313375, -1420958686, -605900043, -44694137,
    -326425360, 2032221021, 2027833504, 1176904444, 1683520342, 1904936414,
    14253662, -421552614, -517299994, 1257750362, 1014493059, -818371958,
    2027935492, 1926727420, 863641633, 1747917558, -1372618620, 1931587462,
    1819892093, -325927722, 128353682, 1258381762, 2124962073, 908452108,
    -1123881663, 885133339, -1223601433, 1851023419, 137583815, 1629985060,
    -1920467227, -1176751719, -635454918, 1967222129, -1637785316, -1354528380,
    -642772911, 6363718, -1536588520, -72690498, 45766801, -1287922800,
    694382729, -314284737, 671509323, 1136965286, 235104446, 985022747,
    -2070602178, 1779436847, -1045062172, 963438279, 419615363, 1116720494,
    831969619, -1078959975, 1216882040, 1042326957, -300448763, 604552167,
    -270590488, 1405999311, 756955444, -1021949428, -1276805128, 713994583,
    -260312805, 608791570, 371462360, 940195359, 1554794072, 173440395,
    -1357098057, -1542497137, 1339088280, -2126092136, -384158533, 2061661095,
    -2040058690, -1316619236, 827959816, -883155599, -853476187, -1039370342,
    -596344473, 1726753853, -2047270596, 6087993, 702390549, -1547952704,
    -1723816713, -110126092, -279505433, 394851342, -1591599803, 565464272,
    -260424530, 283780712, -440824168, -1758099917, -71875110, 776003547,
    1119856484, -1600929361, -1208667171, 1123958025, 1544891539, 879867909,
    -1499603926, 201262505, 155290192, -1809756372, 2036925262, 1934038751,
    -973777462, 400711272, -540420426, 374860238,
};

/* vg_mldsa_zetas_neg[i] = all-ones when zetas[i] < 0, else 0: the sign
 * correction of vg_mldsa_mulhi_zeta as data. Computed as zeta >> 31 in the
 * loop, clang 14 turned the masking into a branch on the sign of the
 * (public) twiddle inside the vectorised loops; a loaded mask is just
 * ANDed. */
static const uint32_t vg_mldsa_zetas_neg[256] = {
    0xffffffff, 0, 0xffffffff, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0, 0, 0, 0xffffffff,
    0xffffffff, 0, 0xffffffff, 0, 0, 0, 0, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0, 0xffffffff,
    0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0xffffffff, 0, 0, 0, 0, 0, 0, 0xffffffff,
    0xffffffff, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff,
    0xffffffff, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0, 0, 0, 0, 0, 0, 0xffffffff,
    0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0, 0xffffffff,
    0xffffffff, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0, 0xffffffff, 0,
    0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
    0xffffffff, 0xffffffff, 0, 0, 0xffffffff, 0xffffffff, 0, 0, 0, 0, 0xffffffff, 0, 0, 0xffffffff,
    0xffffffff, 0, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff,
    0xffffffff, 0xffffffff, 0, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
    0xffffffff, 0, 0, 0, 0, 0, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0, 0, 0xffffffff, 0,
    0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0, 0, 0, 0, 0xffffffff, 0xffffffff,
    0xffffffff, 0xffffffff, 0xffffffff, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0,
    0xffffffff, 0, 0, 0xffffffff, 0, 0, 0, 0, 0xffffffff, 0, 0, 0, 0, 0, 0xffffffff, 0, 0,
    0xffffffff, 0xffffffff, 0, 0, 0xffffffff, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0,
    0, 0xffffffff, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0, 0, 0, 0, 0xffffffff, 0xffffffff,
    0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0, 0, 0xffffffff, 0,
    0, 0, 0xffffffff, 0xffffffff, 0, 0, 0, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0, 0, 0,
    0xffffffff, 0, 0, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
    0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0xffffffff, 0, 0xffffffff, 0xffffffff, 0,
    0xffffffff, 0xffffffff, 0, 0, 0xffffffff, 0,
};

/* The high 32 bits of the signed 64-bit product a * b, mod 2^32, from the
 * unsigned product of the bit patterns: ua ub = a b + 2^32 (sa ub + sb ua)
 * mod 2^64, where sa, sb are 1 for negative a, b; bneg is the all-ones mask
 * of sb. Written with unsigned 32 x 32 -> 64 products and masks so that
 * compilers vectorise the loops around it for the baseline SSE2 (PMULUDQ;
 * the signed PMULDQ is SSE4.1). No branch: the masks are ANDed. */
static inline uint32_t vg_mldsa_mulhi_s32(int32_t a, int32_t b, uint32_t bneg)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    uint32_t hi = (uint32_t)(((uint64_t)ua * ub) >> 32);
    hi -= ub & (uint32_t)(a >> 31);
    hi -= ua & bneg;
    return hi;
}

/* zeta * a * 2^-32 mod q for zq = zeta * q^-1 mod 2^32 and zneg the sign
 * mask of zeta, bit for bit the value of
 * vg_mldsa_montgomery_reduce((int64_t)zeta * a): with P = zeta a and t =
 * lo32(a zq) = lo32(P q^-1) (the same t), P - t q is a multiple of 2^32,
 * i.e. P and t q have the same low 32 bits, so (P - t q) >> 32 = hi32(P) -
 * hi32(t q) exactly; it is < q in absolute value, so the difference mod
 * 2^32 read as int32 is that value. Pre: |zeta * a| < 2^31 q. Post: |r| < q. */
static inline int32_t vg_mldsa_mont_mul(int32_t a, int32_t zeta, int32_t zq, uint32_t zneg)
{
    int32_t t = (int32_t)((uint32_t)a * (uint32_t)zq);
    return (int32_t)(vg_mldsa_mulhi_s32(a, zeta, zneg) - vg_mldsa_mulhi_s32(t, VG_MLDSA_Q, 0));
}

/* Cooley-Tukey butterfly of FIPS 204 Algorithm 41 lines 8-10 with twiddle
 * index k: (x, y) -> (x + zeta y, x - zeta y), the product a Montgomery
 * product (< q), so each output grows by less than q. */
static inline void vg_mldsa_ct_bfly(int32_t *x, int32_t *y, unsigned k)
{
    int32_t t = vg_mldsa_mont_mul(*y, vg_mldsa_zetas[k], vg_mldsa_zetas_qinv[k],
                                  vg_mldsa_zetas_neg[k]);
    *y = *x - t;
    *x = *x + t;
}

/* Loop hints for clang 14 in the forward transform (gcc vectorises these
 * loops as they are; the pragmas change the schedule of the compiled code
 * only, not what is computed). VEC4: the j loop of a layer pair, which for
 * len 8 has four iterations and which clang otherwise unrolled fully and
 * then left scalar. VECB: the block loop of the len 2 and len 1 layers,
 * vectorised across blocks (the cost model declined it for len 2).
 * Faster forward NTT with clang; the same hints on the inverse transform
 * measured slower and are not used (docs/benchmarks.md).
 * Left out in AddressSanitizer/MemorySanitizer builds, where the
 * instrumented loops cannot vectorise and clang warns that the hint
 * failed (-Wpass-failed). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define VG_MLDSA_NO_LOOP_HINTS 1 /* instrumented loads: the loops cannot vectorise */
#endif
#endif
#if defined(__clang__) && !defined(VG_MLDSA_NO_LOOP_HINTS)
#define VG_MLDSA_CLANG_VEC4                                                                        \
    _Pragma("clang loop vectorize_width(4) interleave_count(1) unroll(disable)")
#define VG_MLDSA_CLANG_VECB _Pragma("clang loop vectorize(enable) vectorize_width(4)")
#else
#define VG_MLDSA_CLANG_VEC4
#define VG_MLDSA_CLANG_VECB
#endif

/* One forward layer of length len (FIPS 204 Algorithm 41 lines 5-11):
 * blocks b < 128 / len of 2 len coefficients, twiddle zetas[k0 + b]. The
 * inner loop runs over independent lanes (vectorised; always inlined so
 * that len is a constant); for len 2 and 1, the block loop. */
static inline __attribute__((always_inline)) void vg_mldsa_ntt_layer(int32_t *a, unsigned len,
                                                                    unsigned k0)
{
    VG_MLDSA_CLANG_VECB
    for (unsigned b = 0; b < 128 / len; b++) {
        int32_t *c = a + 2 * len * b;
        for (unsigned j = 0; j < len; j++)
            vg_mldsa_ct_bfly(&c[j], &c[j + len], k0 + b);
    }
}

/* Two forward layers, lengths len and len / 2, in one pass: in each block
 * of 2 len coefficients (twiddle zetas[k0 + b] for the first layer, which
 * is layer l with k0 = 2^l; the second layer's two sub-blocks use
 * zetas[2 (k0 + b)] and zetas[2 (k0 + b) + 1]) the four coefficients j +
 * (len / 2) i stay in registers across both. Same butterflies, same order
 * per coefficient, as layer by layer. */
static inline __attribute__((always_inline)) void vg_mldsa_ntt_layer2(int32_t *a, unsigned len,
                                                                     unsigned k0)
{
    unsigned h = len / 2;
    for (unsigned b = 0; b < 128 / len; b++) {
        int32_t *c = a + 2 * len * b;
        unsigned k = k0 + b;
        VG_MLDSA_CLANG_VEC4
        for (unsigned j = 0; j < h; j++) {
            int32_t x0 = c[j], x1 = c[j + h], x2 = c[j + len], x3 = c[j + len + h];
            vg_mldsa_ct_bfly(&x0, &x2, k);
            vg_mldsa_ct_bfly(&x1, &x3, k);
            vg_mldsa_ct_bfly(&x0, &x1, 2 * k);
            vg_mldsa_ct_bfly(&x2, &x3, 2 * k + 1);
            c[j] = x0, c[j + h] = x1, c[j + len] = x2, c[j + len + h] = x3;
        }
    }
}

/* Pre: |a| < q. Post: |a| < q.
 * Specification: FIPS 204, Algorithm 41. Layer l (len = 128 >> l) has 2^l
 * blocks of 2 len coefficients; block b uses zetas[2^l + b]. Layers 0-5 in
 * pairs (three passes), layers 6 and 7 alone, then reduce32. Bounds: each
 * layer adds less than q (|montgomery product| < q), so |a| < 9q < 2^27
 * throughout and the products |zeta * a| < (q/2) 9q stay far below 2^31 q;
 * the final reduce32 (Pre: <= 2^31 - 2^22 - 1) brings them below q. */
static void vg_mldsa_ntt_portable(vg_mldsa_poly *p)
{
    int32_t *a = p->coeffs;
    vg_mldsa_ntt_layer2(a, 128, 1);
    vg_mldsa_ntt_layer2(a, 32, 4);
    vg_mldsa_ntt_layer2(a, 8, 16);
    vg_mldsa_ntt_layer(a, 2, 64);
    vg_mldsa_ntt_layer(a, 1, 128);
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        a[j] = vg_mldsa_reduce32(a[j]);
}

/* The inverse NTT's last layer (len 128) fused with the final scaling:
 * sums are multiplied by 41978 = 2^64 / 256 mod q (Montgomery: the factor
 * 1/256 of the unnormalised transform times R), differences by
 * VG_MLDSA_INV_LAST = 41978 * (-zetas[1]) * 2^-32 mod q, centred, i.e.
 * the layer's twiddle and the scaling in one Montgomery product. The _QINV
 * values are the constants times q^-1 mod 2^32 (vg_mldsa_mont_mul). */
#define VG_MLDSA_INV_F 41978
#define VG_MLDSA_INV_LAST 3975713
#define VG_MLDSA_INV_F_QINV ((int32_t)(uint32_t)(41978u * 58728449u))
#define VG_MLDSA_INV_LAST_QINV ((int32_t)(uint32_t)(3975713u * 58728449u))

/* Gentleman-Sande butterfly of FIPS 204 Algorithm 42 lines 8-11 with
 * twiddle -zetas[k]: (x, y) -> (x + y, -zeta (x - y)), the sum reduce32'd
 * when red (a constant after inlining). The product is formed as zeta (y -
 * x), the same 64-bit integer as -zeta (x - y), so the Montgomery product
 * is that of montgomery_reduce(-zeta * (x - y)). */
static inline void vg_mldsa_gs_bfly(int32_t *x, int32_t *y, unsigned k, int red)
{
    int32_t s = *x + *y;
    *y = vg_mldsa_mont_mul(*y - *x, vg_mldsa_zetas[k], vg_mldsa_zetas_qinv[k],
                           vg_mldsa_zetas_neg[k]);
    *x = red ? vg_mldsa_reduce32(s) : s;
}

/* One inverse layer of length len (FIPS 204 Algorithm 42 lines 5-13):
 * blocks b < 128 / len, twiddle -zetas[256 / len - 1 - b]. */
static inline __attribute__((always_inline)) void vg_mldsa_invntt_layer(int32_t *a, unsigned len,
                                                                       int red)
{
    for (unsigned b = 0; b < 128 / len; b++) {
        int32_t *c = a + 2 * len * b;
        for (unsigned j = 0; j < len; j++)
            vg_mldsa_gs_bfly(&c[j], &c[j + len], 256 / len - 1 - b, red);
    }
}

/* Two inverse layers, lengths len / 2 and len, in one pass over blocks of
 * 2 len coefficients (block b: twiddle index k = 256 / len - 1 - b for the
 * second layer, 2 k + 1 and 2 k for the first layer's two sub-blocks);
 * red applies to the first layer's sums. */
static inline __attribute__((always_inline)) void vg_mldsa_invntt_layer2(int32_t *a, unsigned len,
                                                                        int red)
{
    unsigned h = len / 2;
    for (unsigned b = 0; b < 128 / len; b++) {
        int32_t *c = a + 2 * len * b;
        unsigned k = 256 / len - 1 - b;
        for (unsigned j = 0; j < h; j++) {
            int32_t x0 = c[j], x1 = c[j + h], x2 = c[j + len], x3 = c[j + len + h];
            vg_mldsa_gs_bfly(&x0, &x1, 2 * k + 1, red);
            vg_mldsa_gs_bfly(&x2, &x3, 2 * k, red);
            vg_mldsa_gs_bfly(&x0, &x2, k, 0);
            vg_mldsa_gs_bfly(&x1, &x3, k, 0);
            c[j] = x0, c[j + h] = x1, c[j + len] = x2, c[j + len + h] = x3;
        }
    }
}

/* The inverse layer of length 2 (layer 1), two blocks (8 coefficients) a
 * step: the four butterflies of blocks 2 g and 2 g + 1 as four lanes, x =
 * (c0, c1, c4, c5) and y = (c2, c3, c6, c7) with twiddles -zetas[k0] twice
 * and -zetas[k0 - 1] twice. The butterflies of vg_mldsa_invntt_layer(a,
 * 2, 0), in a form both compilers run faster (with the block loop clang
 * left most of it scalar; docs/benchmarks.md). */
static void vg_mldsa_invntt_layer_len2(int32_t *a)
{
    for (unsigned g = 0; g < 32; g++) {
        int32_t *c = a + 8 * g;
        unsigned k0 = 127 - 2 * g, k1 = 126 - 2 * g;
        int32_t x[4] = {c[0], c[1], c[4], c[5]}, y[4] = {c[2], c[3], c[6], c[7]};
        int32_t z[4] = {vg_mldsa_zetas[k0], vg_mldsa_zetas[k0], vg_mldsa_zetas[k1],
                        vg_mldsa_zetas[k1]};
        int32_t zq[4] = {vg_mldsa_zetas_qinv[k0], vg_mldsa_zetas_qinv[k0],
                         vg_mldsa_zetas_qinv[k1], vg_mldsa_zetas_qinv[k1]};
        uint32_t zn[4] = {vg_mldsa_zetas_neg[k0], vg_mldsa_zetas_neg[k0], vg_mldsa_zetas_neg[k1],
                          vg_mldsa_zetas_neg[k1]};
        for (unsigned l = 0; l < 4; l++) {
            int32_t s = x[l] + y[l];
            y[l] = vg_mldsa_mont_mul(y[l] - x[l], z[l], zq[l], zn[l]);
            x[l] = s;
        }
        c[0] = x[0], c[1] = x[1], c[4] = x[2], c[5] = x[3];
        c[2] = y[0], c[3] = y[1], c[6] = y[2], c[7] = y[3];
    }
}

/* Pre: |a| < 2^27. Post: |a| < q; result R * NTT^-1(a).
 * Specification: FIPS 204, Algorithm 42. Layer l (len = 1 << l) has
 * 128 >> l blocks; block b uses -zetas[(256 >> l) - 1 - b].
 * Reduction schedule (the x86-64 backends follow it exactly, so every
 * backend returns the same representatives): in the Gentleman-Sande
 * butterfly (a, b) -> (a + b, zeta (a - b)) the differences go through a
 * Montgomery product (|r| < q) and the sums grow; only the sums of layer 2
 * (len 4) are reduce32'd. Bounds: the input is < 2^27, so the layer inputs
 * are < 2^27, 2^28, 2^29 for layers 0, 1, 2; the layer-2 sums < 2^30 meet
 * reduce32's precondition (<= 2^31 - 2^22 - 1) and become <= 6283009 < q,
 * and every difference (< 2^30) times |zeta| <= (q-1)/2 < 2^22 is < 2^52 <
 * 2^31 q. After layer 2 every coefficient is < q (a reduced sum or a
 * Montgomery product), so the inputs of layers 3..7 are < q, 2q, 4q, 8q,
 * 16q and the last layer's sums and differences are < 32q < 2^28: times
 * 41978 < 2^16 or |VG_MLDSA_INV_LAST| < 2^22 they stay < 2^50 < 2^31 q, and
 * the results are < q.
 * Passes: layers 0 and 1 alone (layer 1 two blocks a step), 2-3 and 4-5
 * in pairs, 6 alone, 7 with the scaling; the butterflies and reductions are
 * those of the schedule. */
static void vg_mldsa_invntt_portable(vg_mldsa_poly *p)
{
    int32_t *a = p->coeffs;
    vg_mldsa_invntt_layer(a, 1, 0);
    vg_mldsa_invntt_layer_len2(a);
    vg_mldsa_invntt_layer2(a, 8, 1);
    vg_mldsa_invntt_layer2(a, 32, 0);
    vg_mldsa_invntt_layer(a, 64, 0);
    /* The constants through a value barrier for gcc: knowing them, gcc 12
     * expands the 32-bit products by F_QINV and LAST_QINV into SSE2
     * shift-and-add chains, slower than PMULUDQ; clang 14 does better
     * with the constants visible. */
#if defined(__GNUC__) && !defined(__clang__)
    int32_t f = (int32_t)vg_barrier_u32(VG_MLDSA_INV_F);
    int32_t fq = (int32_t)vg_barrier_u32((uint32_t)VG_MLDSA_INV_F_QINV);
    int32_t l = (int32_t)vg_barrier_u32(VG_MLDSA_INV_LAST);
    int32_t lq = (int32_t)vg_barrier_u32((uint32_t)VG_MLDSA_INV_LAST_QINV);
#else
    int32_t f = VG_MLDSA_INV_F, fq = VG_MLDSA_INV_F_QINV;
    int32_t l = VG_MLDSA_INV_LAST, lq = VG_MLDSA_INV_LAST_QINV;
#endif
    for (unsigned j = 0; j < VG_MLDSA_N / 2; j++) {
        int32_t x = a[j], y = a[j + 128];
        a[j] = vg_mldsa_mont_mul(x + y, f, fq, 0);
        a[j + 128] = vg_mldsa_mont_mul(x - y, l, lq, 0);
    }
}

/* vg_mldsa_montgomery_reduce((int64_t)a * b), bit for bit, in the
 * vectorisable form of vg_mldsa_mont_mul: t = lo32(a b) q^-1 is the same
 * t, and the result is hi32(a b) - hi32(t q) (equal low halves). The
 * unsigned product gives both the low half and, corrected by the signs,
 * the high half. Pre: |a b| < 2^31 q. Post: |r| < q. */
static inline int32_t vg_mldsa_mont_mul2(int32_t a, int32_t b)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    uint64_t p = (uint64_t)ua * ub;
    uint32_t hi = (uint32_t)(p >> 32) - (ub & (uint32_t)(a >> 31)) - (ua & (uint32_t)(b >> 31));
    int32_t t = (int32_t)((uint32_t)p * 58728449u);
    return (int32_t)(hi - vg_mldsa_mulhi_s32(t, VG_MLDSA_Q, 0));
}

/* Pre: |a|, |b| < q. Post: |r| < q. FIPS 204, Algorithm 45. */
static void vg_mldsa_pointwise_portable(vg_mldsa_poly *r, const vg_mldsa_poly *a,
                                        const vg_mldsa_poly *b)
{
    /* |a b| < q^2 < 2^31 q. */
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        r->coeffs[j] = vg_mldsa_mont_mul2(a->coeffs[j], b->coeffs[j]);
}

/* Pre: n <= 8, |a|, |b| < q. Post: |r| < q. FIPS 204, Algorithms 45, 48.
 * The value is montgomery_reduce(acc) for the int64 sum acc of the n
 * products (< 2^49 < 2^31 q: n products < q^2 < 2^46 each), computed
 * without signed 64-bit multiplies so that the loops vectorise (SSE2
 * PMULUDQ): the unsigned products of the bit patterns are ua ub = a b +
 * 2^32 (sa ub + sb ua) mod 2^64 (sa, sb: the signs), so acc = U - 2^32 C
 * mod 2^64 with U the sum of the unsigned products (mod 2^64) and C the sum
 * of the corrections (mod 2^32). Then lo32(acc) = lo32(U) gives the same t
 * and hi32(acc) = hi32(U) - C, and the result is hi32(acc) - hi32(t q) as
 * in vg_mldsa_mont_mul. Eight coefficients at a time, their sums in
 * registers. */
static void vg_mldsa_pointwise_acc_portable(vg_mldsa_poly *r, const vg_mldsa_poly *a,
                                            const vg_mldsa_poly *b, unsigned n)
{
    for (unsigned j0 = 0; j0 < VG_MLDSA_N; j0 += 8) {
        uint64_t u[8] = {0};
        uint32_t c[8] = {0};
        for (unsigned i = 0; i < n; i++) {
            for (unsigned k = 0; k < 8; k++) {
                int32_t x = a[i].coeffs[j0 + k], y = b[i].coeffs[j0 + k];
                uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
                u[k] += (uint64_t)ux * uy;
                c[k] += (uy & (uint32_t)(x >> 31)) + (ux & (uint32_t)(y >> 31));
            }
        }
        for (unsigned k = 0; k < 8; k++) {
            uint32_t hi = (uint32_t)(u[k] >> 32) - c[k];
            int32_t t = (int32_t)((uint32_t)u[k] * 58728449u);
            r->coeffs[j0 + k] = (int32_t)(hi - vg_mldsa_mulhi_s32(t, VG_MLDSA_Q, 0));
        }
    }
}

/* Post: 0 <= r[i] < q. Public data (variable time by design).
 * Specification: FIPS 204, Algorithm 30 lines 4-10, Algorithm 14. */
static unsigned vg_mldsa_rej_uniform_portable(int32_t *r, unsigned len, const uint8_t *buf,
                                              size_t buflen)
{
    unsigned ctr = 0;
    for (size_t pos = 0; ctr < len && pos + 3 <= buflen; pos += 3) {
        /* CoeffFromThreeBytes: the top bit of the third byte is dropped. */
        uint32_t t = (uint32_t)buf[pos] | ((uint32_t)buf[pos + 1] << 8) |
                     ((uint32_t)(buf[pos + 2] & 0x7f) << 16);
        if (t < VG_MLDSA_Q)
            r[ctr++] = (int32_t)t;
    }
    return ctr;
}

/* Portable pointwise_acc24 (contract in poly.h): n products < q^2 each,
 * |sum| < 2^49 < 2^31 q, one reduction (< q) added to r. */
static void vg_mldsa_pointwise_acc24_portable(vg_mldsa_poly *r, const uint8_t (*a)[3 * VG_MLDSA_N],
                                              const vg_mldsa_poly *b, unsigned n)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j++) {
        int64_t acc = 0;
        for (unsigned k = 0; k < n; k++) {
            int32_t x = (int32_t)((uint32_t)a[k][3 * j] | ((uint32_t)a[k][3 * j + 1] << 8) |
                                  ((uint32_t)a[k][3 * j + 2] << 16));
            acc += (int64_t)x * b[k].coeffs[j];
        }
        r->coeffs[j] += vg_mldsa_montgomery_reduce(acc);
    }
}

/* Portable ball_track (contract in poly.h). Why following positions is
 * SampleInBall: an accepted step (i, j) moves the value at j to i (line
 * 11), so an earlier step whose value sits at j now sits at i, and puts the
 * new value at j (line 12); position i held nothing before (steps only
 * write positions <= their own i, and i grows). Every entry of pos is
 * rewritten under byte masks for every candidate. */
static unsigned vg_mldsa_ball_track_portable(uint8_t pos[64], unsigned cnt, const uint8_t *buf,
                                             unsigned len, unsigned tau)
{
    uint32_t n = cnt;
    for (unsigned k = 0; k < len; k++) {
        uint32_t b = buf[k];
        uint32_t i = VG_MLDSA_N - tau + n; /* <= 255 while n < tau */
        /* n < tau and b <= i, as bits from the sign of differences. */
        uint32_t acc = ((n - tau) >> 31) & (((i - b) >> 31) ^ 1u);
        uint8_t am = (uint8_t)vg_barrier_u32(0u - acc);
        uint8_t bb = (uint8_t)b, ii = (uint8_t)i, nn = (uint8_t)vg_barrier_u32(n);
        for (unsigned t = 0; t < 64; t++) {
            uint8_t p = pos[t], tt = (uint8_t)t;
            uint8_t old = tt < nn ? 0xff : 0;
            uint8_t moved = (uint8_t)(old & (p == bb ? 0xff : 0));
            uint8_t fresh = tt == nn ? 0xff : 0;
            uint8_t nv = (uint8_t)((moved & ii) | (fresh & bb) | (~(moved | fresh) & p));
            pos[t] = (uint8_t)((am & nv) | (~am & p));
        }
        n += acc;
    }
    return n;
}

/* cb[k] |= sv for k == p, by a mask over all 256 positions (no index or
 * branch depends on p). A function of its own (not inlined) so that
 * compilers vectorize the loop rather than unroll-and-jam it with the
 * caller's loop over the steps into scalar code (gcc 12 -O3 did: 80k
 * instructions per challenge instead of ~5k). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void vg_mldsa_ball_place1(uint8_t cb[VG_MLDSA_N], uint8_t p, uint8_t sv)
{
    for (unsigned k = 0; k < VG_MLDSA_N; k++) {
        uint8_t m = (uint8_t)k == p ? 0xff : 0;
        cb[k] = (uint8_t)(cb[k] | (m & sv));
    }
}

/* Portable ball_place: for each step, every position is looked at. */
static void vg_mldsa_ball_place_portable(int32_t c[VG_MLDSA_N], const uint8_t pos[64],
                                         uint64_t signs, unsigned tau)
{
    uint8_t cb[VG_MLDSA_N]; /* int8 +-1 as bytes 0x01 / 0xff */
    memset(cb, 0, sizeof cb);
    for (unsigned t = 0; t < tau; t++) {
        /* 0x01 (+1) or 0xff (-1) from the sign bit, by arithmetic. */
        uint8_t sv = (uint8_t)(1u | (0u - (uint32_t)((signs >> t) & 1)));
        vg_mldsa_ball_place1(cb, pos[t], sv);
    }
    for (unsigned k = 0; k < VG_MLDSA_N; k++)
        c[k] = (int8_t)cb[k];
    vg_wipe(cb, sizeof cb);
}

static void vg_mldsa_decompose_portable(vg_mldsa_poly *a1, vg_mldsa_poly *a0,
                                        const vg_mldsa_poly *a, int32_t gamma2);
static unsigned vg_mldsa_make_hint_portable(vg_mldsa_poly *h, const vg_mldsa_poly *r,
                                            const vg_mldsa_poly *v1, int32_t gamma2);

static void vg_mldsa_unpack_z_portable(vg_mldsa_poly *a, const uint8_t *r, int32_t gamma1);

/* The portable coefficientwise passes (contracts in poly.h). */
static void vg_mldsa_reduce_portable(vg_mldsa_poly *a)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        a->coeffs[j] = vg_mldsa_reduce32(a->coeffs[j]);
}

static void vg_mldsa_caddq_portable(vg_mldsa_poly *a)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        a->coeffs[j] = vg_mldsa_caddq(a->coeffs[j]);
}

static void vg_mldsa_add_portable(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        r->coeffs[j] = a->coeffs[j] + b->coeffs[j];
}

static void vg_mldsa_sub_portable(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        r->coeffs[j] = a->coeffs[j] - b->coeffs[j];
}

static unsigned vg_mldsa_chknorm_portable(const vg_mldsa_poly *a, int32_t bound);
static void vg_mldsa_power2round_portable(vg_mldsa_poly *a1, vg_mldsa_poly *a0,
                                          const vg_mldsa_poly *a);

/* The portable variant: the required members only (no fused passes, the
 * portable packing code of the helpers below), the small products of
 * small_portable.c. */
static const struct vg_mldsa_backend vg_mldsa_portable = {
    .name = "portable",
    .ntt = vg_mldsa_ntt_portable,
    .invntt_tomont = vg_mldsa_invntt_portable,
    .pointwise = vg_mldsa_pointwise_portable,
    .pointwise_acc = vg_mldsa_pointwise_acc_portable,
    .rej_uniform = vg_mldsa_rej_uniform_portable,
    .rej_eta = vg_mldsa_rej_eta_portable,
    .pointwise_acc24 = vg_mldsa_pointwise_acc24_portable,
    .decompose = vg_mldsa_decompose_portable,
    .make_hint = vg_mldsa_make_hint_portable,
    .ball_track = vg_mldsa_ball_track_portable,
    .ball_place = vg_mldsa_ball_place_portable,
    .unpack_z = vg_mldsa_unpack_z_portable,
    .reduce = vg_mldsa_reduce_portable,
    .caddq = vg_mldsa_caddq_portable,
    .add = vg_mldsa_add_portable,
    .sub = vg_mldsa_sub_portable,
    .chknorm = vg_mldsa_chknorm_portable,
    .power2round = vg_mldsa_power2round_portable,
    .small_ntt = vg_mldsa_small_ntt_portable,
    .small_mul = vg_mldsa_small_mul_portable,
    .small_bound = VG_MLDSA_SMALL_BOUND_7681,
};

const struct vg_mldsa_backend *vg_mldsa_portable_get(void) { return &vg_mldsa_portable; }

#ifndef VG_X86_64
/* No x86-64 code in this build (VG_PORTABLE or another CPU). */
const struct vg_mldsa_backend *vg_mldsa_avx2_get(void) { return NULL; }
const struct vg_mldsa_backend *vg_mldsa_avx2_vbmi2_get(void) { return NULL; }
const struct vg_mldsa_backend *vg_mldsa_avx2_avx512_get(void) { return NULL; }
const struct vg_mldsa_backend *vg_mldsa_avx2_avx512vbmi_get(void) { return NULL; }
#endif

/* The one dispatch point for ML-DSA: the most capable variant whose
 * features are active (every variant gives the same values), else
 * portable. The _get functions read the active features on every call, so
 * VG_CPU_FEATURES and vg_cpu_force take effect at the next operation. */
const struct vg_mldsa_backend *vg_mldsa_active(void)
{
    const struct vg_mldsa_backend *be = vg_mldsa_avx2_avx512vbmi_get();
    if (be == NULL)
        be = vg_mldsa_avx2_avx512_get();
    if (be == NULL)
        be = vg_mldsa_avx2_vbmi2_get();
    if (be == NULL)
        be = vg_mldsa_avx2_get();
    return be ? be : &vg_mldsa_portable;
}

const char *vg_mldsa_implementation(void) { return vg_mldsa_active()->name; }

/* ---- polynomial helpers ------------------------------------------------ */

void vg_mldsa_poly_add(const struct vg_mldsa_backend *be, vg_mldsa_poly *r, const vg_mldsa_poly *a,
                       const vg_mldsa_poly *b)
{
    be->add(r, a, b);
}

void vg_mldsa_poly_sub(const struct vg_mldsa_backend *be, vg_mldsa_poly *r, const vg_mldsa_poly *a,
                       const vg_mldsa_poly *b)
{
    be->sub(r, a, b);
}

void vg_mldsa_poly_reduce(const struct vg_mldsa_backend *be, vg_mldsa_poly *a) { be->reduce(a); }

void vg_mldsa_poly_caddq(const struct vg_mldsa_backend *be, vg_mldsa_poly *a) { be->caddq(a); }

void vg_mldsa_poly_shiftl(const struct vg_mldsa_backend *be, vg_mldsa_poly *a)
{
    if (be->shiftl) {
        be->shiftl(a);
        return;
    }
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        a->coeffs[j] = (int32_t)((uint32_t)a->coeffs[j] << VG_MLDSA_D);
}

unsigned vg_mldsa_poly_chknorm(const struct vg_mldsa_backend *be, const vg_mldsa_poly *a,
                               int32_t bound)
{
    return be->chknorm(a, bound);
}

void vg_mldsa_poly_power2round(const struct vg_mldsa_backend *be, vg_mldsa_poly *a1,
                               vg_mldsa_poly *a0, const vg_mldsa_poly *a)
{
    be->power2round(a1, a0, a);
}

static unsigned vg_mldsa_chknorm_portable(const vg_mldsa_poly *a, int32_t bound)
{
    uint32_t bad = 0;
    for (unsigned j = 0; j < VG_MLDSA_N; j++) {
        int32_t x = a->coeffs[j];
        /* |x| without a branch: s is all-ones when x < 0. */
        int32_t s = x >> 31;
        int32_t ax = (x ^ s) - s;
        /* ax - bound >= 0 exactly when the top bit of bound - 1 - ax is set. */
        bad |= (uint32_t)(bound - 1 - ax) >> 31;
    }
    return bad;
}

static void vg_mldsa_power2round_portable(vg_mldsa_poly *a1, vg_mldsa_poly *a0,
                                          const vg_mldsa_poly *a)
{
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        a1->coeffs[j] = vg_mldsa_power2round(&a0->coeffs[j], a->coeffs[j]);
}

/* vg_mldsa_decompose (poly.h) for one coefficient, with gamma2 and the
 * constants derived from it as arguments that are compile-time constants
 * at every call (always inlined), and written so that the loops around it
 * vectorise for SSE2: the quotient is (uint64_t)x * m with x < 2^24 and m <
 * 2^31 both 32-bit unsigned (PMULUDQ), and the r1 == top mask is built by
 * arithmetic without the value barrier of vg_mldsa_mask_zero_u32 (an asm
 * statement stops the vectoriser); the compiled code is checked for
 * branches (objdump) and by ct_valgrind_mldsa. Same values as
 * vg_mldsa_decompose: the same formulas.
 * Pre: 0 <= a < q. Post: see vg_mldsa_decompose. FIPS 204, Algorithm 36. */
static inline __attribute__((always_inline)) int32_t
vg_mldsa_decompose_lane(int32_t *r0, int32_t a, int32_t gamma2, uint32_t m, int32_t top)
{
    uint32_t x = (uint32_t)(a + gamma2 - 1);
    int32_t r1 = (int32_t)(((uint64_t)x * m) >> 48);
    int32_t rem = a - r1 * 2 * gamma2;
    uint32_t d = (uint32_t)(r1 ^ top);
    /* All-ones when r1 == top: the top bit of d | -d is clear only then. */
    int32_t is_top = (int32_t)(((d | (0u - d)) >> 31) - 1u);
    *r0 = rem + is_top;
    return r1 & ~is_top;
}

/* The Decompose passes for one gamma2 (m and top as in vg_mldsa_decompose:
 * ceil(2^48 / (2 gamma2)) and (q - 1) / (2 gamma2)). */
static inline __attribute__((always_inline)) void
vg_mldsa_decompose_g(vg_mldsa_poly *a1, vg_mldsa_poly *a0, const vg_mldsa_poly *a, int32_t gamma2,
                     uint32_t m, int32_t top)
{
    int32_t lo;
    if (a0) {
        for (unsigned j = 0; j < VG_MLDSA_N; j++) {
            a1->coeffs[j] = vg_mldsa_decompose_lane(&lo, a->coeffs[j], gamma2, m, top);
            a0->coeffs[j] = lo;
        }
    } else {
        for (unsigned j = 0; j < VG_MLDSA_N; j++)
            a1->coeffs[j] = vg_mldsa_decompose_lane(&lo, a->coeffs[j], gamma2, m, top);
    }
}

static void vg_mldsa_decompose_portable(vg_mldsa_poly *a1, vg_mldsa_poly *a0,
                                        const vg_mldsa_poly *a, int32_t gamma2)
{
    /* gamma2 and whether a0 is wanted are public. */
    if (gamma2 == VG_MLDSA_GAMMA2_88)
        vg_mldsa_decompose_g(a1, a0, a, VG_MLDSA_GAMMA2_88, 1477838210u, 44);
    else
        vg_mldsa_decompose_g(a1, a0, a, VG_MLDSA_GAMMA2_32, 537395713u, 16);
}

/* MakeHint for one gamma2: bit = [r1 != v1] from the same mask arithmetic
 * (no comparison a compiler could turn into a branch, no asm barrier so
 * that the loop vectorises; checked as above). */
static inline __attribute__((always_inline)) unsigned
vg_mldsa_make_hint_g(vg_mldsa_poly *h, const vg_mldsa_poly *r, const vg_mldsa_poly *v1,
                     int32_t gamma2, uint32_t m, int32_t top)
{
    uint32_t n = 0;
    int32_t lo;
    for (unsigned j = 0; j < VG_MLDSA_N; j++) {
        int32_t r1 = vg_mldsa_decompose_lane(&lo, r->coeffs[j], gamma2, m, top);
        uint32_t d = (uint32_t)(r1 ^ v1->coeffs[j]);
        uint32_t bit = (d | (0u - d)) >> 31; /* 1 when d != 0 */
        h->coeffs[j] = (int32_t)bit;
        n += bit;
    }
    return n;
}

static unsigned vg_mldsa_make_hint_portable(vg_mldsa_poly *h, const vg_mldsa_poly *r,
                                            const vg_mldsa_poly *v1, int32_t gamma2)
{
    if (gamma2 == VG_MLDSA_GAMMA2_88)
        return vg_mldsa_make_hint_g(h, r, v1, VG_MLDSA_GAMMA2_88, 1477838210u, 44);
    return vg_mldsa_make_hint_g(h, r, v1, VG_MLDSA_GAMMA2_32, 537395713u, 16);
}

/* The active backend's (AVX2 where available). */
void vg_mldsa_poly_decompose(const struct vg_mldsa_backend *be, vg_mldsa_poly *a1,
                             vg_mldsa_poly *a0, const vg_mldsa_poly *a, int32_t gamma2)
{
    be->decompose(a1, a0, a, gamma2);
}

unsigned vg_mldsa_poly_make_hint(const struct vg_mldsa_backend *be, vg_mldsa_poly *h,
                                 const vg_mldsa_poly *r, const vg_mldsa_poly *v1, int32_t gamma2)
{
    return be->make_hint(h, r, v1, gamma2);
}

void vg_mldsa_poly_use_hint(const struct vg_mldsa_backend *be, vg_mldsa_poly *r1,
                            const vg_mldsa_poly *a, const vg_mldsa_poly *h, int32_t gamma2)
{
    int32_t m = gamma2 == VG_MLDSA_GAMMA2_88 ? 44 : 16; /* (q - 1) / (2 gamma2) */
    vg_mldsa_poly lo;
    /* Decompose through the backend (r1 may alias a: a is not read again),
     * then (r1 +- 1) mod m where h = 1 (Algorithm 40 lines 3-4) without
     * branches so the loop vectorises: the step is +1 when r0 > 0, else -1,
     * times h in {0, 1}; the sum lies in [-1, m] and wraps into [0, m). */
    be->decompose(r1, &lo, a, gamma2);
    for (unsigned j = 0; j < VG_MLDSA_N; j++) {
        int32_t step = h->coeffs[j] * (2 * (lo.coeffs[j] > 0) - 1);
        int32_t hi = r1->coeffs[j] + step;
        hi += m * (hi < 0);
        hi -= m * (hi >= m);
        r1->coeffs[j] = hi;
    }
}

/* ---- sampling --------------------------------------------------------- */

void vg_mldsa_poly_uniform(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                           const uint8_t rho[VG_MLDSA_SYMBYTES], uint8_t s, uint8_t r)
{
    vg_keccak_ctx ctx;
    uint8_t seed[VG_MLDSA_SYMBYTES + 2];
    uint8_t buf[5 * 168]; /* whole SHAKE128 blocks; 168 is a multiple of 3 */
    unsigned ctr;

    memcpy(seed, rho, VG_MLDSA_SYMBYTES);
    seed[VG_MLDSA_SYMBYTES] = s;
    seed[VG_MLDSA_SYMBYTES + 1] = r;
    vg_shake128_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, seed, sizeof seed);
    vg_keccak_finalize(&ctx);
    /* Five blocks give 280 candidates; each is accepted with probability
     * q / 2^23 > 0.999, so more blocks are rarely needed. */
    vg_keccak_squeeze(&ctx, buf, sizeof buf);
    ctr = be->rej_uniform(a->coeffs, VG_MLDSA_N, buf, sizeof buf);
    while (ctr < VG_MLDSA_N) {
        vg_keccak_squeeze(&ctx, buf, 168);
        ctr += be->rej_uniform(a->coeffs + ctr, VG_MLDSA_N - ctr, buf, 168);
    }
}

/* Four entries of A-hat on the four-way Keccak: the same SHAKE128 streams
 * as vg_mldsa_poly_uniform, squeezed in whole blocks (first nb0 blocks,
 * then nb1, then one at a time) into the caller's buffers of cap blocks
 * per lane (cap >= nb0, nb1), so the coefficients are the same. Whole
 * blocks of 168 bytes hold whole 3-byte candidates, so the buffers split
 * the stream at candidate boundaries. Public data (rho): the number of
 * extra blocks may vary. Post: 0 <= r[l] < q. */
static inline __attribute__((always_inline)) void
vg_mldsa_uniform_x4_in(const struct vg_mldsa_backend *be, vg_mldsa_poly *const r[4],
                       const uint8_t rho[VG_MLDSA_SYMBYTES], const uint8_t idx[4][2],
                       uint8_t *buf, size_t cap, size_t nb0, size_t nb1)
{
    uint8_t in[4][VG_MLDSA_SYMBYTES + 2];
    unsigned ctr[4] = {0, 0, 0, 0};
    vg_keccak4x_ctx ctx;
    const size_t lane = cap * VG_SHAKE128_RATE;

    for (unsigned l = 0; l < 4; l++) {
        memcpy(in[l], rho, VG_MLDSA_SYMBYTES);
        in[l][VG_MLDSA_SYMBYTES] = idx[l][0];
        in[l][VG_MLDSA_SYMBYTES + 1] = idx[l][1];
    }
    vg_shake128x4_absorb_once(&ctx, in[0], in[1], in[2], in[3], sizeof in[0]);
    for (unsigned round = 0; ctr[0] < VG_MLDSA_N || ctr[1] < VG_MLDSA_N ||
                             ctr[2] < VG_MLDSA_N || ctr[3] < VG_MLDSA_N;
         round++) {
        size_t nb = round == 0 ? nb0 : round == 1 ? nb1 : 1;
        vg_shake128x4_squeezeblocks(buf, buf + lane, buf + 2 * lane, buf + 3 * lane, nb, &ctx);
        for (unsigned l = 0; l < 4; l++)
            ctr[l] += be->rej_uniform(r[l]->coeffs + ctr[l], VG_MLDSA_N - ctr[l], buf + l * lane,
                                      nb * VG_SHAKE128_RATE);
    }
}

/* Five blocks first (256 coefficients need at least 768 bytes, so the
 * first five are always squeezed, as the single sampler does): one
 * rejection pass per entry in nearly every case. */
void vg_mldsa_poly_uniform_x4(const struct vg_mldsa_backend *be, vg_mldsa_poly *const r[4],
                              const uint8_t rho[VG_MLDSA_SYMBYTES], const uint8_t idx[4][2])
{
    uint8_t buf[4 * 5 * VG_SHAKE128_RATE];
    vg_mldsa_uniform_x4_in(be, r, rho, idx, buf, 5, 5, 1);
}

/* Blocks 2, 2, then 1 at a time: 2 KiB less stack than the above (the
 * ML-DSA-87 small-stack signer, whose set-up is on its deepest path), at
 * the cost of three rejection passes per entry. */
void vg_mldsa_poly_uniform_x4_small(const struct vg_mldsa_backend *be, vg_mldsa_poly *const r[4],
                                    const uint8_t rho[VG_MLDSA_SYMBYTES], const uint8_t idx[4][2])
{
    uint8_t buf[4 * 2 * VG_SHAKE128_RATE];
    vg_mldsa_uniform_x4_in(be, r, rho, idx, buf, 2, 2, 2);
}

void vg_mldsa_poly_uniform_many(const struct vg_mldsa_backend *be, vg_mldsa_poly *const *r,
                                const uint8_t rho[VG_MLDSA_SYMBYTES], const uint8_t (*idx)[2],
                                unsigned n)
{
    unsigned l = 0;
    /* Whole groups of four; a remainder of two or three runs padded (the
     * spare lanes repeat the last entry into scratch), a single one on the
     * one-way sponge, which costs less than a padded four-way pass. */
    for (; l + 4 <= n; l += 4)
        vg_mldsa_poly_uniform_x4(be, r + l, rho, idx + l);
    if (n - l >= 2) {
        vg_mldsa_poly scratch[2];
        vg_mldsa_poly *rr[4];
        uint8_t ii[4][2];
        for (unsigned k = 0; k < 4; k++) {
            unsigned src = l + k < n ? l + k : n - 1;
            rr[k] = l + k < n ? r[l + k] : &scratch[k - (n - l)];
            ii[k][0] = idx[src][0];
            ii[k][1] = idx[src][1];
        }
        vg_mldsa_poly_uniform_x4(be, rr, rho, (const uint8_t(*)[2])ii);
    } else if (n - l == 1) {
        vg_mldsa_poly_uniform(be, r[l], rho, idx[l][0], idx[l][1]);
    }
}

/* RejBoundedPoly's inner loop (Algorithm 31 lines 4-13) over a whole
 * buffer: the nibbles of buf[0..buflen), low first, each turned into a
 * coefficient by CoeffFromHalfByte (Algorithm 15) and kept while fewer than
 * len are written. Returns the count (<= len). Pre: len <= 256.
 * Post: |r[i]| <= eta. Every nibble of the buffer is processed, also after
 * r is full, and every candidate is stored (to the next free slot of a
 * local buffer, whose slot len is a spill slot), so the work and the memory
 * traffic do not depend on the accept pattern. The kept values stay
 * secret (no branch on them); only each nibble's accept/reject bit is
 * declassified. */
unsigned vg_mldsa_rej_eta_portable(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen,
                                   unsigned eta)
{
    int32_t tmp[VG_MLDSA_N + 1];
    unsigned ctr = 0;
    for (size_t n = 0; n < 2 * buflen; n++) {
        uint32_t b = ((uint32_t)buf[n >> 1] >> (4 * (n & 1))) & 15u;
        uint32_t keep;
        int32_t v;
        if (eta == 2) {
            /* b < 15 -> 2 - (b mod 5); b mod 5 = b - 5 floor(b * 205 /
             * 1024), exact for b < 16. */
            keep = (b - 15u) >> 31;
            v = 2 - (int32_t)(b - 5u * ((b * 205u) >> 10));
        } else {
            keep = (b - 9u) >> 31; /* b < 9 -> 4 - b */
            v = 4 - (int32_t)b;
        }
        /* Declassify: the accept/reject bit of this candidate. Which
         * nibbles are rejected is independent of the accepted values (each
         * kept coefficient is uniform on [-eta, eta] whatever the pattern),
         * so it reveals nothing about s1 or s2; it decides only where the
         * next value goes. */
        VG_CT_DECLASSIFY(&keep, sizeof keep);
        tmp[ctr] = v;                              /* ctr <= len <= 256 */
        ctr += keep & ((uint32_t)(ctr - len) >> 31); /* only while ctr < len */
    }
    memcpy(r, tmp, ctr * sizeof tmp[0]);
    vg_wipe(tmp, sizeof tmp);
    return ctr;
}

/* Two SHAKE256 blocks (544 candidates) per polynomial first: for eta = 2
 * (acceptance 15/16) fewer than 256 acceptances essentially never happen,
 * for eta = 4 (9/16) with probability about 1.3e-5 (binomial tail, mean
 * 306, sd 11.6); only then is one more block drawn. A fixed amount of
 * Keccak and sampling work per polynomial, whatever the acceptance pattern. */
#define VG_MLDSA_ETA_BLOCKS 2

/* RejBoundedPoly over the first squeezed blocks. For eta = 2 the first
 * VG_MLDSA_ETA2_FIRST bytes (320 candidates) hold 256 acceptances except
 * with probability about 4e-17 (at least 65 rejections where 20 are
 * expected at 1/16: the binomial tail, about 2^-54), so the rest of the
 * buffer is sampled only then: the same values and count as one call on
 * the whole buffer, at about 0.6 of its sampling work. The
 * branch is on a count of declassified accept bits (see rej_eta). eta = 4
 * (acceptance 9/16) samples the whole buffer, as before. */
#define VG_MLDSA_ETA2_FIRST 160

static unsigned vg_mldsa_rej_eta_first(const struct vg_mldsa_backend *be, int32_t *r,
                                       const uint8_t *buf, size_t buflen, unsigned eta)
{
    if (eta != 2)
        return be->rej_eta(r, VG_MLDSA_N, buf, buflen, eta);
    unsigned ctr = be->rej_eta(r, VG_MLDSA_N, buf, VG_MLDSA_ETA2_FIRST, eta);
    if (ctr < VG_MLDSA_N)
        ctr += be->rej_eta(r + ctr, VG_MLDSA_N - ctr, buf + VG_MLDSA_ETA2_FIRST,
                           buflen - VG_MLDSA_ETA2_FIRST, eta);
    return ctr;
}

void vg_mldsa_poly_uniform_eta(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                               const uint8_t rhoprime[VG_MLDSA_CRHBYTES], uint16_t nonce,
                               unsigned eta)
{
    vg_keccak_ctx ctx;
    uint8_t seed[VG_MLDSA_CRHBYTES + 2];
    uint8_t buf[VG_MLDSA_ETA_BLOCKS * VG_SHAKE256_RATE];
    unsigned ctr;

    memcpy(seed, rhoprime, VG_MLDSA_CRHBYTES);
    seed[VG_MLDSA_CRHBYTES] = (uint8_t)nonce;
    seed[VG_MLDSA_CRHBYTES + 1] = (uint8_t)(nonce >> 8);
    vg_shake256_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, seed, sizeof seed);
    vg_keccak_finalize(&ctx);
    vg_keccak_squeeze(&ctx, buf, sizeof buf);
    ctr = vg_mldsa_rej_eta_first(be, a->coeffs, buf, sizeof buf, eta);
    while (ctr < VG_MLDSA_N) { /* public: a count of declassified bits */
        vg_keccak_squeeze(&ctx, buf, VG_SHAKE256_RATE);
        ctr += be->rej_eta(a->coeffs + ctr, VG_MLDSA_N - ctr, buf, VG_SHAKE256_RATE, eta);
    }
    vg_wipe(seed, sizeof seed);
    vg_wipe(buf, sizeof buf);
    vg_wipe(&ctx, sizeof ctx);
}

/* Four RejBoundedPoly entries on the four-way Keccak: the same streams and
 * the same first blocks as vg_mldsa_poly_uniform_eta, so the same values. */
static void vg_mldsa_poly_uniform_eta_x4(const struct vg_mldsa_backend *be,
                                         vg_mldsa_poly *const r[4],
                                         const uint8_t rhoprime[VG_MLDSA_CRHBYTES],
                                         const uint16_t nonce[4], unsigned eta)
{
    struct {
        uint8_t in[4][VG_MLDSA_CRHBYTES + 2];
        uint8_t buf[4][VG_MLDSA_ETA_BLOCKS * VG_SHAKE256_RATE];
        vg_keccak4x_ctx ctx;
    } ws;
    unsigned ctr[4];
    for (unsigned l = 0; l < 4; l++) {
        memcpy(ws.in[l], rhoprime, VG_MLDSA_CRHBYTES);
        ws.in[l][VG_MLDSA_CRHBYTES] = (uint8_t)nonce[l];
        ws.in[l][VG_MLDSA_CRHBYTES + 1] = (uint8_t)(nonce[l] >> 8);
    }
    vg_shake256x4_absorb_once(&ws.ctx, ws.in[0], ws.in[1], ws.in[2], ws.in[3], sizeof ws.in[0]);
    vg_shake256x4_squeezeblocks(ws.buf[0], ws.buf[1], ws.buf[2], ws.buf[3], VG_MLDSA_ETA_BLOCKS,
                                &ws.ctx);
    for (unsigned l = 0; l < 4; l++)
        ctr[l] = vg_mldsa_rej_eta_first(be, r[l]->coeffs, ws.buf[l], sizeof ws.buf[l], eta);
    /* Public: counts of declassified bits (see rej_eta). */
    while (ctr[0] < VG_MLDSA_N || ctr[1] < VG_MLDSA_N || ctr[2] < VG_MLDSA_N ||
           ctr[3] < VG_MLDSA_N) {
        vg_shake256x4_squeezeblocks(ws.buf[0], ws.buf[1], ws.buf[2], ws.buf[3], 1, &ws.ctx);
        for (unsigned l = 0; l < 4; l++)
            if (ctr[l] < VG_MLDSA_N)
                ctr[l] += be->rej_eta(r[l]->coeffs + ctr[l], VG_MLDSA_N - ctr[l], ws.buf[l],
                                      VG_SHAKE256_RATE, eta);
    }
    vg_wipe(&ws, sizeof ws);
}

static void vg_mldsa_sample_many(const struct vg_mldsa_backend *be, vg_mldsa_poly *r,
                                 const uint8_t seed[VG_MLDSA_CRHBYTES], uint16_t nonce0, unsigned n,
                                 int32_t dist);

void vg_mldsa_poly_uniform_eta_many(const struct vg_mldsa_backend *be, vg_mldsa_poly *r,
                                    const uint8_t rhoprime[VG_MLDSA_CRHBYTES], uint16_t nonce0,
                                    unsigned n, unsigned eta)
{
    vg_mldsa_sample_many(be, r, rhoprime, nonce0, n, (int32_t)eta);
}

/* Eight values of `bits` bits (bits <= 24) into the bits bytes at o,
 * little-endian (value 0 in the lowest bits). Whole 32-bit words are
 * stored as they fill (have < 32 before each addition, so have + bits < 56
 * fits the 64-bit accumulator); the remaining have bits are a whole number
 * of bytes since 8 bits is. Called with a constant `bits`, the loop unrolls
 * and every test on `have` is decided at compile time. */
static inline void vg_mldsa_pack_group8(uint8_t *o, const int32_t *a, unsigned bits, int32_t off,
                                        int32_t sgn)
{
    uint64_t acc = 0;
    unsigned have = 0;
    for (unsigned k = 0; k < 8; k++) {
        acc |= (uint64_t)(uint32_t)(off + sgn * a[k]) << have;
        have += bits;
        if (have >= 32) {
            vg_store32_le(o, (uint32_t)acc);
            o += 4;
            acc >>= 32;
            have -= 32;
        }
    }
    for (; have > 0; have -= 8) {
        *o++ = (uint8_t)acc;
        acc >>= 8;
    }
}

/* Little-endian bit packing of the 256 fields off + sgn a[j] of `bits`
 * bits each (FIPS 204 Algorithms 16-17: coefficient 0 in the lowest bits;
 * sgn = 1, off = 0 for SimpleBitPack, sgn = -1, off = b for BitPack with
 * upper bound b), eight values (bits bytes) at a time, the field computed
 * as it is packed (no intermediate array), specialised for each width FIPS
 * 204 uses. Pre: 0 <= off + sgn a[j] < 2^bits, bits <= 24, sgn = +-1.
 * Constant time in the values (the code path depends only on `bits`).
 * Always inlined, so that each caller's off and sgn are constants. */
static inline __attribute__((always_inline)) void
vg_mldsa_pack_bits(uint8_t *out, const int32_t a[VG_MLDSA_N], unsigned bits, int32_t off,
                   int32_t sgn)
{
#define VG_MLDSA_PACK_CASE(b)                                                                      \
    case b:                                                                                        \
        for (unsigned g = 0; g < VG_MLDSA_N / 8; g++)                                              \
            vg_mldsa_pack_group8(out + g * (b), a + 8 * g, (b), off, sgn);                         \
        break
    switch (bits) {
        VG_MLDSA_PACK_CASE(3);
        VG_MLDSA_PACK_CASE(4);
        VG_MLDSA_PACK_CASE(6);
        VG_MLDSA_PACK_CASE(10);
        VG_MLDSA_PACK_CASE(13);
        VG_MLDSA_PACK_CASE(18);
        VG_MLDSA_PACK_CASE(20);
    default:
        for (unsigned g = 0; g < VG_MLDSA_N / 8; g++)
            vg_mldsa_pack_group8(out + g * bits, a + 8 * g, bits, off, sgn);
        break;
    }
#undef VG_MLDSA_PACK_CASE
}

/* Inverse of vg_mldsa_pack_bits: 256 fields of `bits` bits (<= 24) from
 * the 32 * bits bytes at in. Field j starts at bit j * bits: one unaligned
 * 64-bit load at its first byte holds it whole (bits + 7 <= 64), so each
 * field is a load, a shift and a mask. The loads that would pass the end of
 * the input read from a copy of its last 8 bytes instead. Constant time:
 * the loop shape depends only on `bits`. */
static inline void vg_mldsa_unpack_bits_w(uint32_t v[VG_MLDSA_N], const uint8_t *in,
                                          unsigned bits)
{
    size_t total = 32u * bits; /* >= 96 */
    uint32_t mask = (1u << bits) - 1u;
    uint8_t tail[16];
    unsigned j = 0;
    for (; j < VG_MLDSA_N; j++) {
        size_t o = (size_t)j * bits;
        if ((o >> 3) + 8 > total)
            break;
        v[j] = (uint32_t)(vg_load64_le(in + (o >> 3)) >> (o & 7)) & mask;
    }
    memcpy(tail, in + total - 8, 8);
    memset(tail + 8, 0, 8);
    for (; j < VG_MLDSA_N; j++) {
        size_t o = (size_t)j * bits;
        v[j] = (uint32_t)(vg_load64_le(tail + ((o >> 3) - (total - 8))) >> (o & 7)) & mask;
    }
    vg_wipe(tail, sizeof tail);
}

/* vg_mldsa_unpack_bits_w specialised for each width FIPS 204 uses (a
 * constant `bits` turns the offsets and the tail bound into constants). */
static void vg_mldsa_unpack_bits(uint32_t v[VG_MLDSA_N], const uint8_t *in, unsigned bits)
{
    switch (bits) {
    case 3: vg_mldsa_unpack_bits_w(v, in, 3); break;
    case 4: vg_mldsa_unpack_bits_w(v, in, 4); break;
    case 10: vg_mldsa_unpack_bits_w(v, in, 10); break;
    case 13: vg_mldsa_unpack_bits_w(v, in, 13); break;
    case 18: vg_mldsa_unpack_bits_w(v, in, 18); break;
    case 20: vg_mldsa_unpack_bits_w(v, in, 20); break;
    default: vg_mldsa_unpack_bits_w(v, in, bits); break;
    }
}

static unsigned vg_mldsa_gamma1_bits(int32_t gamma1)
{
    return gamma1 == (1 << 17) ? 18u : 20u; /* 1 + bitlen(gamma1 - 1) */
}

void vg_mldsa_poly_uniform_gamma1(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                                  const uint8_t rhopp[VG_MLDSA_CRHBYTES], uint16_t nonce,
                                  int32_t gamma1)
{
    uint8_t seed[VG_MLDSA_CRHBYTES + 2];
    uint8_t buf[640];
    size_t len = vg_mldsa_polyz_bytes(gamma1);

    memcpy(seed, rhopp, VG_MLDSA_CRHBYTES);
    seed[VG_MLDSA_CRHBYTES] = (uint8_t)nonce;
    seed[VG_MLDSA_CRHBYTES + 1] = (uint8_t)(nonce >> 8);
    vg_shake256(buf, len, seed, sizeof seed);
    be->unpack_z(a, buf, gamma1);
    vg_wipe(seed, sizeof seed);
    vg_wipe(buf, sizeof buf);
}

/* Four ExpandMask entries on the four-way Keccak: r[l] gets nonce
 * nonce[l]. Five SHAKE256 blocks (680 bytes) cover the 576 or 640 bytes
 * needed, and the first bytes of the stream are the single sponge's, so the
 * values are those of vg_mldsa_poly_uniform_gamma1. Constant time. */
/* ExpandMask's four sponges: H(rho'' || IntegerToBytes(nonce[l], 2))
 * absorbed into ctx, ready to squeeze (FIPS 204, Algorithm 34). */
static void vg_mldsa_mask_absorb_x4(vg_keccak4x_ctx *ctx, const uint8_t rhopp[VG_MLDSA_CRHBYTES],
                                    const uint16_t nonce[4])
{
    uint8_t in[4][VG_MLDSA_CRHBYTES + 2];
    for (unsigned l = 0; l < 4; l++) {
        memcpy(in[l], rhopp, VG_MLDSA_CRHBYTES);
        in[l][VG_MLDSA_CRHBYTES] = (uint8_t)nonce[l];
        in[l][VG_MLDSA_CRHBYTES + 1] = (uint8_t)(nonce[l] >> 8);
    }
    vg_shake256x4_absorb_once(ctx, in[0], in[1], in[2], in[3], sizeof in[0]);
    vg_wipe(in, sizeof in);
}

static void vg_mldsa_poly_uniform_gamma1_x4(const struct vg_mldsa_backend *be,
                                            vg_mldsa_poly *const r[4],
                                            const uint8_t rhopp[VG_MLDSA_CRHBYTES],
                                            const uint16_t nonce[4], int32_t gamma1)
{
    struct {
        uint8_t buf[4][5 * VG_SHAKE256_RATE];
        vg_keccak4x_ctx ctx;
    } ws;
    vg_mldsa_mask_absorb_x4(&ws.ctx, rhopp, nonce);
    vg_shake256x4_squeezeblocks(ws.buf[0], ws.buf[1], ws.buf[2], ws.buf[3], 5, &ws.ctx);
    /* The fields straight into r[l] (no scratch: signing's stack is
     * short). */
    for (unsigned l = 0; l < 4; l++)
        vg_mldsa_polyz_unpack(be, r[l], ws.buf[l], gamma1);
    vg_wipe(&ws, sizeof ws);
}

/* n polynomials r[0..n) with nonces nonce0 + 0..n-1, four at a time on the
 * four-way Keccak: ExpandS's RejBoundedPoly when dist is eta (2 or 4),
 * ExpandMask's gamma1 sampling when it is gamma1 (2^17 or 2^19); both
 * public. One parameter for the two, so that the arguments fit the
 * registers of the x86-64 calling convention. Groups of four; a remainder
 * of two or three padded with scratch lanes (secret-derived: wiped), a
 * single one alone. */
#define VG_MLDSA_DIST_IS_ETA(dist) ((dist) <= 4)
static void vg_mldsa_sample_x4(const struct vg_mldsa_backend *be, vg_mldsa_poly *const rr[4],
                               const uint8_t seed[VG_MLDSA_CRHBYTES], const uint16_t nn[4],
                               int32_t dist)
{
    if (VG_MLDSA_DIST_IS_ETA(dist))
        vg_mldsa_poly_uniform_eta_x4(be, rr, seed, nn, (unsigned)dist);
    else
        vg_mldsa_poly_uniform_gamma1_x4(be, rr, seed, nn, dist);
}

static void vg_mldsa_sample_many(const struct vg_mldsa_backend *be, vg_mldsa_poly *r,
                                 const uint8_t seed[VG_MLDSA_CRHBYTES], uint16_t nonce0, unsigned n,
                                 int32_t dist)
{
    unsigned l = 0;
    for (; l + 4 <= n; l += 4) {
        vg_mldsa_poly *rr[4] = {&r[l], &r[l + 1], &r[l + 2], &r[l + 3]};
        uint16_t nn[4];
        for (unsigned k = 0; k < 4; k++)
            nn[k] = (uint16_t)(nonce0 + l + k);
        vg_mldsa_sample_x4(be, rr, seed, nn, dist);
    }
    if (n - l >= 2) {
        vg_mldsa_poly scratch[2];
        vg_mldsa_poly *rr[4];
        uint16_t nn[4];
        for (unsigned k = 0; k < 4; k++) {
            rr[k] = l + k < n ? &r[l + k] : &scratch[k - (n - l)];
            nn[k] = (uint16_t)(nonce0 + (l + k < n ? l + k : n - 1));
        }
        vg_mldsa_sample_x4(be, rr, seed, nn, dist);
        vg_wipe(scratch, sizeof scratch);
    } else if (n - l == 1) {
        if (VG_MLDSA_DIST_IS_ETA(dist))
            vg_mldsa_poly_uniform_eta(be, &r[l], seed, (uint16_t)(nonce0 + l), (unsigned)dist);
        else
            vg_mldsa_poly_uniform_gamma1(be, &r[l], seed, (uint16_t)(nonce0 + l), dist);
    }
}

void vg_mldsa_poly_uniform_gamma1_many(const struct vg_mldsa_backend *be, vg_mldsa_poly *r,
                                       const uint8_t rhopp[VG_MLDSA_CRHBYTES], uint16_t nonce0,
                                       unsigned n, int32_t gamma1)
{
    vg_mldsa_sample_many(be, r, rhopp, nonce0, n, gamma1);
}

void vg_mldsa_poly_uniform_gamma1_4(const struct vg_mldsa_backend *be, vg_mldsa_poly r[4],
                                    const uint8_t rhopp[VG_MLDSA_CRHBYTES], uint16_t nonce0,
                                    unsigned n, int32_t gamma1)
{
    vg_mldsa_poly *rr[4] = {&r[0], &r[1], &r[2], &r[3]};
    uint16_t nn[4];
    for (unsigned k = 0; k < 4; k++)
        nn[k] = (uint16_t)(nonce0 + (k < n ? k : n - 1));
    vg_mldsa_poly_uniform_gamma1_x4(be, rr, rhopp, nn, gamma1);
}

void vg_mldsa_poly_mask_bytes_4(uint8_t *const out[4], const uint8_t rhopp[VG_MLDSA_CRHBYTES],
                                uint16_t nonce0, unsigned n, int32_t gamma1)
{
    /* 576 or 640 bytes: four whole blocks straight into out[k], the rest
     * through ws.last (a whole fifth block would pass the end of out[k]).
     * Lanes k >= n repeat nonce n - 1 into ws.spare. */
    const size_t len = vg_mldsa_polyz_bytes(gamma1);
    const size_t full = len / VG_SHAKE256_RATE, rest = len % VG_SHAKE256_RATE;
    struct {
        uint8_t spare[4 * VG_SHAKE256_RATE];
        uint8_t last[4][VG_SHAKE256_RATE];
        vg_keccak4x_ctx ctx;
    } ws;
    uint8_t *o[4];
    uint16_t nonce[4];
    for (unsigned k = 0; k < 4; k++) {
        nonce[k] = (uint16_t)(nonce0 + (k < n ? k : n - 1));
        o[k] = k < n ? out[k] : ws.spare;
    }
    vg_mldsa_mask_absorb_x4(&ws.ctx, rhopp, nonce);
    vg_shake256x4_squeezeblocks(o[0], o[1], o[2], o[3], full, &ws.ctx);
    vg_shake256x4_squeezeblocks(ws.last[0], ws.last[1], ws.last[2], ws.last[3], 1, &ws.ctx);
    for (unsigned k = 0; k < n; k++)
        memcpy(out[k] + full * VG_SHAKE256_RATE, ws.last[k], rest);
    vg_wipe(&ws, sizeof ws);
}

void vg_mldsa_poly_bits(const struct vg_mldsa_backend *be, uint8_t r[VG_MLDSA_N / 8],
                        const vg_mldsa_poly *a)
{
    if (be->bits) {
        be->bits(r, a);
        return;
    }
    for (unsigned b = 0; b < VG_MLDSA_N / 8; b++) {
        uint32_t v = 0;
        for (unsigned t = 0; t < 8; t++)
            v |= (uint32_t)a->coeffs[8 * b + t] << t;
        r[b] = (uint8_t)v;
    }
}

void vg_mldsa_poly_pack24(const struct vg_mldsa_backend *be, uint8_t r[3 * VG_MLDSA_N],
                          const vg_mldsa_poly *a)
{
    if (be->pack24) {
        be->pack24(r, a);
        return;
    }
    /* Eight coefficients (24 bytes) as three 64-bit little-endian words
     * instead of 24 byte stores (ML-DSA-87 signing packs 56 polynomials;
     * faster, see docs/benchmarks.md). */
    for (unsigned j = 0; j < VG_MLDSA_N; j += 8) {
        const int32_t *c = a->coeffs + j;
        uint64_t v[8];
        for (unsigned k = 0; k < 8; k++)
            v[k] = (uint64_t)(uint32_t)c[k] & 0xffffff;
        vg_store64_le(r + 3 * j, v[0] | v[1] << 24 | v[2] << 48);
        vg_store64_le(r + 3 * j + 8, v[2] >> 16 | v[3] << 8 | v[4] << 32 | v[5] << 56);
        vg_store64_le(r + 3 * j + 16, v[5] >> 8 | v[6] << 16 | v[7] << 40);
    }
}

void vg_mldsa_poly_unpack24(vg_mldsa_poly *a, const uint8_t r[3 * VG_MLDSA_N])
{
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        a->coeffs[j] = (int32_t)((uint32_t)r[3 * j] | ((uint32_t)r[3 * j + 1] << 8) |
                                 ((uint32_t)r[3 * j + 2] << 16));
}

/* Constant time in ctilde: c-tilde is secret until its attempt is accepted
 * (FIPS 204 lets only the accept/reject verdict of an attempt leak, and
 * published attacks recover keys from the challenges of rejected attempts),
 * so neither the number of bytes used nor the positions may show. A fixed
 * number of candidate bytes is processed: 128 (one SHAKE256 block after the
 * 8 sign bytes) for tau = 39 and 49, 160 for tau = 60. Each is accepted
 * with probability at least (257 - tau) / 256, so fewer than tau
 * acceptances happen with probability below 2^-87 (binomial tails: 2^-147,
 * 2^-88, 2^-87 for tau = 39, 49, 60); only then are more bytes drawn.
 * The draw loop follows positions instead of moving values (ball_track,
 * see the portable routine), and the result is written under masks over
 * every position (ball_place). */
void vg_mldsa_poly_challenge(const struct vg_mldsa_backend *be, vg_mldsa_poly *c,
                             const uint8_t *ctilde, size_t ctilde_len, unsigned tau)
{
    struct {
        vg_keccak_ctx ctx;
        uint8_t buf[2 * VG_SHAKE256_RATE];
        uint8_t pos[64]; /* tau <= 60 */
    } ws;
    uint64_t signs;
    uint32_t cnt, more;
    unsigned first = tau > 49 ? 160 : 128;
    unsigned have = 8 + first <= VG_SHAKE256_RATE ? VG_SHAKE256_RATE : 2 * VG_SHAKE256_RATE;

    vg_shake256_ctx_init(&ws.ctx);
    vg_keccak_absorb(&ws.ctx, ctilde, ctilde_len);
    vg_keccak_finalize(&ws.ctx);
    vg_keccak_squeeze(&ws.ctx, ws.buf, have);
    signs = vg_load64_le(ws.buf); /* h (line 5): bit t is the sign of step t */
    memset(ws.pos, 0, sizeof ws.pos);
    cnt = be->ball_track(ws.pos, 0, ws.buf + 8, first, tau);
    for (unsigned used = 8 + first;;) {
        more = (uint32_t)((cnt - tau) >> 31); /* cnt < tau */
        /* Declassify: whether the fixed number of candidates was too few,
         * an event of probability below 2^-87 (above): it never happens in
         * practice, and the branch only exists so that the function is
         * total. */
        VG_CT_DECLASSIFY(&more, sizeof more);
        if (!more)
            break;
        if (used == have) {
            vg_keccak_squeeze(&ws.ctx, ws.buf, VG_SHAKE256_RATE);
            have = VG_SHAKE256_RATE;
            used = 0;
        }
        cnt = be->ball_track(ws.pos, cnt, ws.buf + used, have - used, tau);
        used = have;
    }
    be->ball_place(c->coeffs, ws.pos, signs, tau);
    vg_wipe(&ws, sizeof ws);
}

/* ---- bit packing ------------------------------------------------------- */

/* Each function below runs the packing kernel of the variant be when it
 * has one (the optional members of struct vg_mldsa_backend: the same bytes
 * or coefficients, faster), else the portable code that follows. */
void vg_mldsa_polyt1_pack(const struct vg_mldsa_backend *be, uint8_t r[VG_MLDSA_POLYT1_BYTES],
                          const vg_mldsa_poly *a)
{
    if (be->t1_pack) {
        be->t1_pack(r, a);
        return;
    }
    vg_mldsa_pack_bits(r, a->coeffs, 10, 0, 1);
}

/* The unpacking routines below unpack the fields into a's own storage
 * ((u)int32_t may alias each other) and map them in place: no second
 * array to copy or wipe. */
void vg_mldsa_polyt1_unpack(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                            const uint8_t r[VG_MLDSA_POLYT1_BYTES])
{
    if (be->t1_unpack) {
        be->t1_unpack(a, r);
        return;
    }
    vg_mldsa_unpack_bits((uint32_t *)a->coeffs, r, 10);
}

void vg_mldsa_polyt0_pack(const struct vg_mldsa_backend *be, uint8_t r[VG_MLDSA_POLYT0_BYTES],
                          const vg_mldsa_poly *a)
{
    if (be->t0_pack) {
        be->t0_pack(r, a);
        return;
    }
    vg_mldsa_pack_bits(r, a->coeffs, VG_MLDSA_D, 1 << (VG_MLDSA_D - 1), -1);
}

void vg_mldsa_polyt0_unpack(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                            const uint8_t r[VG_MLDSA_POLYT0_BYTES])
{
    uint32_t *v = (uint32_t *)a->coeffs;
    if (be->t0_unpack) {
        be->t0_unpack(a, r);
        return;
    }
    vg_mldsa_unpack_bits(v, r, VG_MLDSA_D);
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        a->coeffs[j] = (1 << (VG_MLDSA_D - 1)) - (int32_t)v[j];
}

size_t vg_mldsa_polyeta_bytes(unsigned eta) { return eta == 2 ? 96 : 128; }

void vg_mldsa_polyeta_pack(const struct vg_mldsa_backend *be, uint8_t *r, const vg_mldsa_poly *a,
                           unsigned eta)
{
    if (be->eta_pack) {
        be->eta_pack(r, a, eta);
        return;
    }
    if (eta == 2)
        vg_mldsa_pack_bits(r, a->coeffs, 3, 2, -1);
    else
        vg_mldsa_pack_bits(r, a->coeffs, 4, 4, -1);
}

unsigned vg_mldsa_polyeta_unpack(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                                 const uint8_t *r, unsigned eta)
{
    uint32_t *v = (uint32_t *)a->coeffs;
    uint32_t bad = 0;
    if (be->eta_unpack)
        return be->eta_unpack(a, r, eta);
    vg_mldsa_unpack_bits(v, r, eta == 2 ? 3 : 4);
    for (unsigned j = 0; j < VG_MLDSA_N; j++) {
        /* Field > 2 eta: the top bit of 2 eta - field is set. */
        bad |= (2u * eta - v[j]) >> 31;
        a->coeffs[j] = (int32_t)eta - (int32_t)v[j];
    }
    return bad;
}

size_t vg_mldsa_polyz_bytes(int32_t gamma1) { return 32u * vg_mldsa_gamma1_bits(gamma1); }

void vg_mldsa_polyz_pack(const struct vg_mldsa_backend *be, uint8_t *r, const vg_mldsa_poly *a,
                         int32_t gamma1)
{
    if (be->z_pack) {
        be->z_pack(r, a, gamma1);
        return;
    }
    if (gamma1 == (1 << 17))
        vg_mldsa_pack_bits(r, a->coeffs, 18, 1 << 17, -1);
    else
        vg_mldsa_pack_bits(r, a->coeffs, 20, 1 << 19, -1);
}

/* The backend's unpack_z (contract in poly.h), portable. The fields are
 * unpacked into a's own storage, then mapped in place. */
static void vg_mldsa_unpack_z_portable(vg_mldsa_poly *a, const uint8_t *r, int32_t gamma1)
{
    /* (int32_t and uint32_t may alias each other.) */
    uint32_t *v = (uint32_t *)a->coeffs;
    vg_mldsa_unpack_bits(v, r, vg_mldsa_gamma1_bits(gamma1));
    for (unsigned j = 0; j < VG_MLDSA_N; j++)
        a->coeffs[j] = gamma1 - (int32_t)v[j];
}

void vg_mldsa_polyz_unpack(const struct vg_mldsa_backend *be, vg_mldsa_poly *a, const uint8_t *r,
                           int32_t gamma1)
{
    be->unpack_z(a, r, gamma1);
}

size_t vg_mldsa_polyw1_bytes(int32_t gamma2) { return gamma2 == VG_MLDSA_GAMMA2_88 ? 192 : 128; }

void vg_mldsa_polyw1_pack(const struct vg_mldsa_backend *be, uint8_t *r, const vg_mldsa_poly *a,
                          int32_t gamma2)
{
    if (be->w1_pack) {
        be->w1_pack(r, a, gamma2);
        return;
    }
    vg_mldsa_pack_bits(r, a->coeffs, gamma2 == VG_MLDSA_GAMMA2_88 ? 6 : 4, 0, 1);
}

/* ---- message representative -------------------------------------------- */

/* mu = H(tr || prefix || msg, 64), where tr = H(pk, 64) or read from sk.
 * prefix is M' minus the message: empty (internal interface) or
 * 0 || |ctx| || ctx (pure ML-DSA, Algorithms 2-3 line 5/ line 5). */
void vg_mldsa_mu(uint8_t mu[VG_MLDSA_CRHBYTES], const uint8_t tr[VG_MLDSA_CRHBYTES],
                        const uint8_t *prefix, size_t prefix_len, const uint8_t *ctx_bytes,
                        size_t ctx_len, const uint8_t *msg, size_t msg_len)
{
    vg_keccak_ctx ctx;
    vg_shake256_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, tr, VG_MLDSA_CRHBYTES);
    if (prefix_len)
        vg_keccak_absorb(&ctx, prefix, prefix_len);
    if (ctx_len)
        vg_keccak_absorb(&ctx, ctx_bytes, ctx_len);
    if (msg_len)
        vg_keccak_absorb(&ctx, msg, msg_len);
    vg_keccak_finalize(&ctx);
    vg_keccak_squeeze(&ctx, mu, VG_MLDSA_CRHBYTES);
    vg_wipe(&ctx, sizeof ctx);
}
