/*
 * ML-DSA (FIPS 204): the parameter-independent layer. Polynomials in
 * R_q = Z_q[X]/(X^256 + 1), q = 8380417, the NTT, rounding (Power2Round,
 * Decompose, MakeHint, UseHint), sampling (RejNTTPoly, RejBoundedPoly,
 * ExpandMask, SampleInBall) and the bit packings, and the backend interface
 * (struct vg_mldsa_backend) behind which the portable variant (poly.c) and
 * the x86-64 ones (x86_64/backend.c) sit. Every helper below that runs a
 * kernel takes the variant as its first argument (be), chosen once per
 * operation by vg_mldsa_active.
 *
 * Representation: int32_t coefficients, signed, not necessarily canonical.
 * Every routine states the bound it needs on its inputs and the bound it
 * guarantees; "|x| < B" means -B < x < B. Arithmetic is modulo q, so any
 * representative is correct as long as the int32/int64 intermediates do
 * not overflow.
 *
 * Montgomery form: R = 2^32. montgomery_reduce(a) = a * R^-1 mod q.
 *
 * Parameters that differ between the sets (eta, gamma1, gamma2, tau) are
 * passed as arguments; only the values FIPS 204 Table 1 uses are accepted.
 */
#ifndef VG_MLDSA_POLY_H
#define VG_MLDSA_POLY_H

#include <stddef.h>
#include <stdint.h>

#include "../hash/keccak.h"
#include "../lattice/ntt3329.h"

#define VG_MLDSA_N 256
#define VG_MLDSA_Q 8380417
#define VG_MLDSA_D 13                  /* dropped bits of t (FIPS 204 Table 1) */
#define VG_MLDSA_SYMBYTES 32           /* rho, K, xi, rnd */
#define VG_MLDSA_CRHBYTES 64           /* rho', rho'', tr, mu */
#define VG_MLDSA_POLYT1_BYTES 320      /* SimpleBitPack(t1, 2^10 - 1) */
#define VG_MLDSA_POLYT0_BYTES 416      /* BitPack(t0, 2^12 - 1, 2^12) */
#define VG_MLDSA_GAMMA2_88 ((VG_MLDSA_Q - 1) / 88) /* 95232, ML-DSA-44 */
#define VG_MLDSA_GAMMA2_32 ((VG_MLDSA_Q - 1) / 32) /* 261888, ML-DSA-65/87 */

typedef struct {
    int32_t coeffs[VG_MLDSA_N];
} vg_mldsa_poly;

/* 256 int16 coefficients: a polynomial transformed for the small products
 * (members small_* of struct vg_mldsa_backend; small.h). Its layout in the
 * transformed domain is the variant's own. The type of the shared 16-bit
 * NTT (src/lattice/ntt3329.h), which the avx2 variants' small products
 * run on. Callers align instances to 64 bytes. */
typedef vg_lattice_poly16 vg_mldsa_spoly;

/* ---- backend interface ----------------------------------------------------
 * One struct per variant: every kernel ML-DSA runs, swappable per CPU. A
 * variant must produce exactly the values of the portable one on every
 * input satisfying the preconditions, or at least the same residues within
 * the stated output bounds (callers rely only on those). The required
 * members are never NULL; the optional ones (fused passes, packing kernels,
 * the small products' c t0 shortcuts) may be NULL, and each says what the
 * callers run instead. The variant is chosen once per top-level operation
 * (vg_mldsa_active) and passed down to every helper; no kernel re-dispatches
 * or changes variant inside itself. */
struct vg_mldsa_backend {
    const char *name; /* "portable", "avx2", ... (vg_implementation("mldsa")) */

    /* Forward NTT, in place.
     * Pre: |a| < q. Post: |a| < q (reduce32 applied), bit-reversed order.
     * Specification: FIPS 204, Algorithm 41 (NTT). */
    void (*ntt)(vg_mldsa_poly *a);

    /* Inverse NTT times R: on input A it returns R * NTT^-1(A), so that
     * invntt_tomont(pointwise(a, b)) = NTT^-1(a o b) with no factor left.
     * Pre: |a| < 2^27. Post: |a| < q.
     * Specification: FIPS 204, Algorithm 42 (NTT^-1). */
    void (*invntt_tomont)(vg_mldsa_poly *a);

    /* r = a o b * R^-1 coefficientwise. Pre: |a|, |b| < q. Post: |r| < q.
     * Specification: FIPS 204, Algorithm 45 (MultiplyNTT), Montgomery form. */
    void (*pointwise)(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b);

    /* r = R^-1 * sum_{i<n} a[i] o b[i]. Pre: n <= 8, |a|, |b| < q.
     * Post: |r| < q. Specification: FIPS 204, Algorithms 45 and 48
     * (MatrixVectorNTT, one row). */
    void (*pointwise_acc)(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b,
                          unsigned n);

    /* Rejection sampling of up to `len` coefficients from buf (3 bytes give
     * one 23-bit candidate, kept when < q). Returns the number written.
     * Public data (rho): variable time allowed. Post: 0 <= r[i] < q.
     * Specification: FIPS 204, Algorithm 30 (RejNTTPoly) with Algorithm 14
     * (CoeffFromThreeBytes). */
    unsigned (*rej_uniform)(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen);

    /* Rejection sampling of up to `len` coefficients in [-eta, eta] from
     * the nibbles of buf (low nibble first; kept when < 15 for eta = 2,
     * < 9 for eta = 4, mapped by CoeffFromHalfByte). Returns the number
     * written. Pre: len <= 256, eta in {2, 4}. Post: |r[i]| <= eta.
     * Secret data (rho'): the values are handled in constant time and every
     * nibble of buf is processed; only each nibble's accept/reject bit may
     * influence timing (declassified with VG_CT_DECLASSIFY).
     * Specification: FIPS 204, Algorithm 31 (RejBoundedPoly) lines 4-13
     * with Algorithm 15 (CoeffFromHalfByte). */
    unsigned (*rej_eta)(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen, unsigned eta);

    /* r = r + R^-1 sum_{k<n} A[k] o b[k], where A[k] is the polynomial
     * packed at a[k] by vg_mldsa_poly_pack24 (A-hat entries of the
     * small-stack signing layout). Pre: n <= 8, 0 <= A[k] < q, |b| < q,
     * |r| < 2^27. Post: |r| < |r_in| + q; the added term equals
     * pointwise_acc's on the unpacked A. Specification: FIPS 204,
     * Algorithms 45 and 48 (part of a row of MatrixVectorNTT). */
    void (*pointwise_acc24)(vg_mldsa_poly *r, const uint8_t (*a)[3 * VG_MLDSA_N],
                            const vg_mldsa_poly *b, unsigned n);

    /* Decompose of every coefficient (a0 may be NULL: HighBits only),
     * exactly vg_mldsa_decompose lane by lane. Pre: 0 <= a < q, gamma2 one
     * of VG_MLDSA_GAMMA2_88/_32. Constant time.
     * Specification: FIPS 204, Algorithms 36-38. */
    void (*decompose)(vg_mldsa_poly *a1, vg_mldsa_poly *a0, const vg_mldsa_poly *a,
                      int32_t gamma2);
    /* h = [HighBits(r) != v1], returns the number of ones (contract of
     * vg_mldsa_poly_make_hint). Constant time.
     * Specification: FIPS 204, Algorithm 39. */
    unsigned (*make_hint)(vg_mldsa_poly *h, const vg_mldsa_poly *r, const vg_mldsa_poly *v1,
                          int32_t gamma2);

    /* SampleInBall, the draw loop (Algorithm 29 lines 6-13) over the
     * candidate bytes buf[0..len), tracking positions: on entry cnt steps
     * are done and pos[t] (t < cnt) is where step t's value sits; each
     * candidate b is accepted when cnt < tau and b <= 256 - tau + cnt, and
     * an accepted one moves the value at b to 256 - tau + cnt and puts the
     * new value at b. Returns the new cnt. Pre: tau <= 60, cnt <= tau.
     * Constant time in buf, pos and cnt (secret c-tilde): no branch or
     * memory index depends on them. */
    unsigned (*ball_track)(uint8_t pos[64], unsigned cnt, const uint8_t *buf, unsigned len,
                           unsigned tau);
    /* c = sum_{t < tau} (-1)^(bit t of signs) X^pos[t] (line 12's result).
     * Pre: pos[0..tau) distinct. Post: |c| <= 1. Constant time in pos and
     * signs. */
    void (*ball_place)(int32_t c[VG_MLDSA_N], const uint8_t pos[64], uint64_t signs, unsigned tau);

    /* a = gamma1 - field for the 256 fields of 1 + bitlen(gamma1 - 1) bits
     * packed at r (BitUnpack(r, gamma1 - 1, gamma1), low bits first): the
     * kernel of vg_mldsa_polyz_unpack. Pre: gamma1 in {2^17, 2^19}. Reads
     * exactly the 576 or 640 bytes at r. Post: -gamma1 < a <= gamma1.
     * Constant time. Specification: FIPS 204, Algorithm 19, as used by
     * ExpandMask (Algorithm 34) and sigDecode (Algorithm 27). */
    void (*unpack_z)(vg_mldsa_poly *a, const uint8_t *r, int32_t gamma1);

    /* Coefficientwise passes, with the contracts of the vg_mldsa_poly_*
     * functions below of the same names (reduce, caddq, add, sub, chknorm,
     * power2round). Constant time. */
    void (*reduce)(vg_mldsa_poly *a);
    void (*caddq)(vg_mldsa_poly *a);
    void (*add)(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b);
    void (*sub)(vg_mldsa_poly *r, const vg_mldsa_poly *a, const vg_mldsa_poly *b);
    unsigned (*chknorm)(const vg_mldsa_poly *a, int32_t bound);
    void (*power2round)(vg_mldsa_poly *a1, vg_mldsa_poly *a0, const vg_mldsa_poly *a);

    /* ---- small products (small.h): c s1, c s2 and c t0 exactly ----------
     * Required. small_ntt(r, a): Pre |a_i| <= 4 (<= 64 when small_bound is
     * VG_MLDSA_SMALL_BOUND_7681); r = a transformed, in a form only this
     * variant's small_mul reads. small_mul(r, a, b): a, b outputs of
     * small_ntt of A, B with |(A B)_i| <= small_bound for every i; Post
     * r = A B in Z[X]/(X^256 + 1) exactly (centred int32). Constant time. */
    void (*small_ntt)(vg_mldsa_spoly *r, const vg_mldsa_poly *a);
    void (*small_mul)(vg_mldsa_poly *r, const vg_mldsa_spoly *a, const vg_mldsa_spoly *b);
    /* VG_MLDSA_SMALL_BOUND or VG_MLDSA_SMALL_BOUND_7681 (small.h). */
    int32_t small_bound;
    /* Optional (NULL: vg_mldsa_small_t0_ntt / _t0_mul compose small_ntt and
     * small_mul): the same results as those, in one call each. */
    void (*small_t0_ntt)(vg_mldsa_spoly *lo, vg_mldsa_spoly *hi, const vg_mldsa_poly *t);
    void (*small_t0_mul)(vg_mldsa_poly *r, const vg_mldsa_spoly *c, const vg_mldsa_spoly *lo,
                         const vg_mldsa_spoly *hi);

    /* ---- fused passes (optional; NULL: the separate routines) -------------
     * A fixed sequence of the routines above done in one pass, with exactly
     * the values of that sequence; the callers run the sequence when the
     * member is NULL. (Signing's rows were also tried fused into the
     * inverse NTT itself and measured slower on Zen 4, where these passes
     * are bound by the vector ALUs rather than by memory; see
     * docs/benchmarks.md.)
     *
     * sign_r_pass and sign_h_pass are present together (callers test the
     * first); the others each on its own.
     *
     * Verification's row (FIPS 204, Algorithm 8 lines 9-10):
     * acc' = acc - pointwise(c, t1) (sub), w' = caddq(invntt_tomont(acc')),
     * w1 = UseHint(h, w') (vg_mldsa_poly_use_hint). acc is left unchanged.
     * Pre: |acc|, |c|, |t1| < q, h in {0, 1}, gamma2 one of
     * VG_MLDSA_GAMMA2_88/_32. Post: 0 <= w1 < (q - 1) / (2 gamma2). w1
     * distinct from the inputs. Public data, but constant time anyway. */
    void (*verify_row)(vg_mldsa_poly *w1, const vg_mldsa_poly *acc, const vg_mldsa_poly *c,
                       const vg_mldsa_poly *t1, const vg_mldsa_poly *h, int32_t gamma2);

    /* Coefficientwise sequences, each in one pass (constant time; the
     * verdicts are folded without a branch). Bounds: reduce32 needs its
     * input <= 2^31 - 2^22 - 1, chknorm's bound <= (q - 1) / 8.
     *
     * Signing's z (Algorithm 7 lines 20, 23): z = reduce32(z + y) (add,
     * reduce); returns chknorm(z, bound). Pre: |z| < q, |y| <= 2^19.
     * Post: -6283009 <= z <= 6283008. */
    unsigned (*sign_z_pass)(vg_mldsa_poly *z, const vg_mldsa_poly *y, int32_t bound);
    /* Signing's r (lines 21, 23): r = caddq(reduce32(w - r)) (sub, reduce,
     * caddq), (r1, r0) = Decompose(r) with r1 stored; returns
     * chknorm(r0, bound). Pre: 0 <= w < q, |r| < q (r = <<c s2>>).
     * Post: 0 <= r < q, r1 = HighBits(r). */
    unsigned (*sign_r_pass)(vg_mldsa_poly *r, vg_mldsa_poly *r1, const vg_mldsa_poly *w,
                            int32_t gamma2, int32_t bound);
    /* Signing's ct0 check and hints (lines 25, 26, 28): c = reduce32(ct0),
     * u = caddq(reduce32(r + c)), h = [HighBits(u) != r1] (make_hint);
     * *nhints = the number of ones; returns chknorm(c, bound). ct0 is not
     * written. Pre: |ct0| < q, 0 <= r < q, r1 = HighBits(r). h may be r1
     * (each lane is read before it is written). */
    unsigned (*sign_h_pass)(vg_mldsa_poly *h, unsigned *nhints, const vg_mldsa_poly *ct0,
                            const vg_mldsa_poly *r, const vg_mldsa_poly *r1, int32_t gamma2,
                            int32_t bound);
    /* Signing's w (lines 12, 14): w = caddq(w), w1 = HighBits(w).
     * Pre: |w| < q. */
    void (*sign_w_pass)(vg_mldsa_poly *w, vg_mldsa_poly *w1, int32_t gamma2);
    /* Key generation's t (Algorithm 6 lines 5-6): t' = caddq(reduce32(t +
     * s2)) (add, reduce, caddq), (t1, t0) = Power2Round(t'). Pre: |t| < q,
     * |s2| <= 4. Post: 0 <= t1 < 2^10, -2^12 < t0 <= 2^12. t0 may be t. */
    void (*keygen_pass)(vg_mldsa_poly *t1, vg_mldsa_poly *t0, const vg_mldsa_poly *t,
                        const vg_mldsa_poly *s2);

    /* ---- bit packing kernels (optional; NULL: the portable code) ----------
     * The byte encodings of FIPS 204 section 7.1 for the fixed widths, with
     * the contracts of the vg_mldsa_poly* functions of the same names
     * below, which run them when present. Each returns exactly the portable
     * bytes or coefficients on every input the portable function accepts,
     * reads and writes exactly the encoding's bytes, and is constant time
     * (t0 and s are secret). */
    /* vg_mldsa_polyt1_pack, _polyt1_unpack, _polyt0_pack, _polyt0_unpack
     * (Algorithms 16-19 with the widths of pkEncode / skEncode). */
    void (*t1_pack)(uint8_t r[VG_MLDSA_POLYT1_BYTES], const vg_mldsa_poly *a);
    void (*t1_unpack)(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT1_BYTES]);
    void (*t0_pack)(uint8_t r[VG_MLDSA_POLYT0_BYTES], const vg_mldsa_poly *a);
    void (*t0_unpack)(vg_mldsa_poly *a, const uint8_t r[VG_MLDSA_POLYT0_BYTES]);
    /* vg_mldsa_polyeta_pack / _polyeta_unpack (eta in {2, 4}; unpack's
     * range verdict included). */
    void (*eta_pack)(uint8_t *r, const vg_mldsa_poly *a, unsigned eta);
    unsigned (*eta_unpack)(vg_mldsa_poly *a, const uint8_t *r, unsigned eta);
    /* vg_mldsa_polyw1_pack (gamma2 one of VG_MLDSA_GAMMA2_88/_32). */
    void (*w1_pack)(uint8_t *r, const vg_mldsa_poly *a, int32_t gamma2);
    /* vg_mldsa_poly_shiftl. */
    void (*shiftl)(vg_mldsa_poly *a);
    /* vg_mldsa_poly_pack24 (writes exactly 768 bytes) and
     * vg_mldsa_poly_bits. */
    void (*pack24)(uint8_t r[3 * VG_MLDSA_N], const vg_mldsa_poly *a);
    void (*bits)(uint8_t r[VG_MLDSA_N / 8], const vg_mldsa_poly *a);
    /* vg_mldsa_polyz_pack (gamma1 2^17 or 2^19). */
    void (*z_pack)(uint8_t *r, const vg_mldsa_poly *a, int32_t gamma1);
};

/* The portable rej_eta (poly.c), which backends without their own use. */
unsigned vg_mldsa_rej_eta_portable(int32_t *r, unsigned len, const uint8_t *buf, size_t buflen,
                                   unsigned eta);

/* The variants, each on its own (tests, benchmark). portable: never NULL.
 * The others (src/mldsa/x86_64/backend.c) return NULL unless the build has
 * x86-64 code (not VG_PORTABLE) and the CPU features they need are active
 * (vg_cpu_has: VG_CPU_FEATURES and vg_cpu_force apply at once):
 *   avx2             AVX2: the AVX2 kernels throughout.
 *   avx2+vbmi2       AVX2, AVX-512 F, BW and VBMI2 (VL absent: reachable
 *                    only through VG_CPU_FEATURES): avx2 with the AVX-512
 *                    rejection samplers (rej_uniform, rej_eta).
 *   avx2+avx512      AVX2, AVX-512 F, VL and BW: the NTTs, pointwise
 *                    products, fused passes and small products in zmm
 *                    registers; AVX2 sampling and packing.
 *   avx2+avx512vbmi  the same plus VBMI2 (VG_CPU_AVX512VBMI2 stands for
 *                    VBMI and VBMI2): the AVX-512 rejection samplers and the
 *                    VBMI packing kernels too. */
const struct vg_mldsa_backend *vg_mldsa_portable_get(void);
const struct vg_mldsa_backend *vg_mldsa_avx2_get(void);
const struct vg_mldsa_backend *vg_mldsa_avx2_vbmi2_get(void);
const struct vg_mldsa_backend *vg_mldsa_avx2_avx512_get(void);
const struct vg_mldsa_backend *vg_mldsa_avx2_avx512vbmi_get(void);
/* The one dispatch (poly.c): the first non-NULL of avx2+avx512vbmi,
 * avx2+avx512, avx2+vbmi2, avx2, else portable. Called once per top-level
 * operation; the result is passed down. Never NULL. */
const struct vg_mldsa_backend *vg_mldsa_active(void);

/* zetas[i] = 1753^BitRev8(i) * 2^32 mod q, centred; shared with the x86-64
 * backend (poly.c). */
extern const int32_t vg_mldsa_zetas[256];
/* zetas_qinv[i] = zetas[i] q^-1 mod 2^32 as int32 (poly.c), the second
 * factor of each twiddle's Montgomery product; shared the same way. */
extern const int32_t vg_mldsa_zetas_qinv[256];

/* ---- scalar arithmetic -------------------------------------------------- */

/* Montgomery reduction: r = a * 2^-32 mod q.
 * Pre: |a| < 2^31 q. Post: |r| < q. */
static inline int32_t vg_mldsa_montgomery_reduce(int64_t a)
{
    /* t = a * q^-1 mod 2^32 (58728449 = q^-1 mod 2^32), so a - t q is a
     * multiple of 2^32; |t q| <= 2^31 q, hence |(a - t q) / 2^32| < q. */
    int32_t t = (int32_t)(uint32_t)((uint64_t)a * 58728449u);
    return (int32_t)((a - (int64_t)t * VG_MLDSA_Q) >> 32);
}

/* A representative of a mod q. Pre: a <= 2^31 - 2^22 - 1.
 * Post: -6283009 <= r <= 6283008 (so |r| < q). */
static inline int32_t vg_mldsa_reduce32(int32_t a)
{
    /* t = round(a / 2^23) and 2^23 - q = 8191, so a - t q stays within
     * 2^22 + |t| * 8191 of zero. */
    int32_t t = (a + (1 << 22)) >> 23;
    return a - t * VG_MLDSA_Q;
}

/* All-ones when x == 0, zero otherwise, with no branch (value barrier so
 * the compiler keeps it arithmetic; see docs/constant-time.md). */
static inline uint32_t vg_mldsa_mask_zero_u32(uint32_t x)
{
    uint32_t m = ((x | (0u - x)) >> 31) - 1u;
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define VG_MLDSA_MSAN_BARRIER 1
#endif
#endif
#if defined(VG_MLDSA_MSAN_BARRIER)
    /* MSan: the memory form keeps m's shadow (see vg_barrier_u32, common.h) */
    __asm__("" : : "r"(&m) : "memory");
#elif defined(__GNUC__)
    __asm__("" : "+r"(m));
#endif
    return m;
}

/* Add q when negative, branch-free. Pre: |a| < q. Post: 0 <= r < q. */
static inline int32_t vg_mldsa_caddq(int32_t a)
{
    return a + ((a >> 31) & VG_MLDSA_Q);
}

/* Power2Round: a = r1 * 2^13 + r0 with r0 in (-2^12, 2^12].
 * Pre: 0 <= a < q. Post: 0 <= r1 < 2^10.
 * Specification: FIPS 204, Algorithm 35. */
static inline int32_t vg_mldsa_power2round(int32_t *r0, int32_t a)
{
    /* (a + 2^12 - 1) >> 13 rounds a / 2^13 so that the remainder lands in
     * [-(2^12 - 1), 2^12]. */
    int32_t r1 = (a + (1 << (VG_MLDSA_D - 1)) - 1) >> VG_MLDSA_D;
    *r0 = a - (r1 << VG_MLDSA_D);
    return r1;
}

/* Decompose: a = r1 * 2 gamma2 + r0 with r0 in (-gamma2, gamma2], except
 * that the top value r1 = (q - 1) / (2 gamma2) wraps to 0 (and r0 drops by
 * one). gamma2 is VG_MLDSA_GAMMA2_88 or VG_MLDSA_GAMMA2_32.
 * Pre: 0 <= a < q. Post: 0 <= r1 < (q - 1) / (2 gamma2); -gamma2 - 1 <= r0
 * <= gamma2. Constant time: multiply-and-shift, no division.
 * Specification: FIPS 204, Algorithm 36. */
static inline int32_t vg_mldsa_decompose(int32_t *r0, int32_t a, int32_t gamma2)
{
    /* r1 = floor((a + gamma2 - 1) / (2 gamma2)), the quotient with the
     * remainder in (-gamma2, gamma2]. The division by 2 gamma2 is a
     * multiplication by m = ceil(2^48 / (2 gamma2)) and a shift by 48: for
     * 0 <= x < 2^24 the error x (m - 2^48/(2 gamma2)) / 2^48 < 2^-24 is below
     * the distance 1/(2 gamma2) > 2^-19 from x/(2 gamma2) to the next integer
     * above, so the floor is exact (checked for every a < q by test_mldsa). */
    uint64_t m = gamma2 == VG_MLDSA_GAMMA2_88 ? 1477838210u  /* ceil(2^48/190464) */
                                              : 537395713u;  /* ceil(2^48/523776) */
    /* (q - 1) / (2 gamma2), written out: gamma2 is a (public) argument, and
     * the division would otherwise be compiled as one. */
    int32_t top = gamma2 == VG_MLDSA_GAMMA2_88 ? 44 : 16;
    uint32_t x = (uint32_t)(a + gamma2 - 1);
    int32_t r1 = (int32_t)(((uint64_t)x * m) >> 48);
    int32_t rem = a - r1 * 2 * gamma2;
    /* r1 == top exactly when a - rem = q - 1: then r1 = 0, r0 = rem - 1. */
    int32_t d = r1 ^ top;
    int32_t is_top = (int32_t)vg_mldsa_mask_zero_u32((uint32_t)d);
    *r0 = rem + is_top;        /* is_top is 0 or -1 */
    return r1 & ~is_top;
}

/* ---- polynomial helpers (parameter-independent; poly.c; the passes that
 * have a backend entry dispatch to the active backend) ------------------- */

/* r = a + b, r = a - b, coefficientwise, no reduction.
 * Pre: the sums/differences fit in int32 (callers keep them below 2^27). */
void vg_mldsa_poly_add(const struct vg_mldsa_backend *be, vg_mldsa_poly *r, const vg_mldsa_poly *a,
                       const vg_mldsa_poly *b);
void vg_mldsa_poly_sub(const struct vg_mldsa_backend *be, vg_mldsa_poly *r, const vg_mldsa_poly *a,
                       const vg_mldsa_poly *b);
/* reduce32 on every coefficient. Pre: a <= 2^31 - 2^22 - 1. Post: |r| < q
 * (precisely -6283009 <= r <= 6283008). */
void vg_mldsa_poly_reduce(const struct vg_mldsa_backend *be, vg_mldsa_poly *a);
/* caddq on every coefficient. Pre: |a| < q. Post: 0 <= a < q. */
void vg_mldsa_poly_caddq(const struct vg_mldsa_backend *be, vg_mldsa_poly *a);
/* a = a * 2^13. Pre: 0 <= a < 2^10 (t1). Post: 0 <= a < 2^23 < q. */
void vg_mldsa_poly_shiftl(const struct vg_mldsa_backend *be, vg_mldsa_poly *a);

/* 1 when some coefficient has |a| >= bound, 0 otherwise; constant time
 * (every coefficient is looked at; only the verdict is returned).
 * Pre: |a| <= 6283008 (reduce32 output), bound <= (q - 1) / 8. Then for
 * coefficients whose centred residue c has |c| < bound the representative
 * is c itself (any other one is at least q - bound > 6283008 away from 0),
 * so the verdict equals the FIPS 204 infinity-norm test ||a mod+- q|| >= bound.
 * Specification: FIPS 204, section 2.3 (infinity norm). */
unsigned vg_mldsa_poly_chknorm(const struct vg_mldsa_backend *be, const vg_mldsa_poly *a,
                               int32_t bound);

/* Power2Round of every coefficient: a1 = high part, a0 = low part.
 * Pre: 0 <= a < q. Post: 0 <= a1 < 2^10, -2^12 < a0 <= 2^12.
 * Specification: FIPS 204, Algorithm 35. */
void vg_mldsa_poly_power2round(const struct vg_mldsa_backend *be, vg_mldsa_poly *a1,
                               vg_mldsa_poly *a0, const vg_mldsa_poly *a);
/* Decompose of every coefficient (a0 may be NULL: HighBits only).
 * Pre: 0 <= a < q. Post: see vg_mldsa_decompose.
 * Specification: FIPS 204, Algorithms 36-38 (Decompose, HighBits, LowBits). */
void vg_mldsa_poly_decompose(const struct vg_mldsa_backend *be, vg_mldsa_poly *a1,
                             vg_mldsa_poly *a0, const vg_mldsa_poly *a, int32_t gamma2);
/* h = [HighBits(r) != v1] coefficientwise; returns the number of ones.
 * Pre: 0 <= r < q; v1 = HighBits of some value. Constant time.
 * Used as MakeHint(-ct0, w - cs2 + ct0) = [HighBits(w - cs2 + ct0) !=
 * HighBits(w - cs2)], FIPS 204 Algorithm 7 line 26.
 * Specification: FIPS 204, Algorithm 39 (MakeHint). */
unsigned vg_mldsa_poly_make_hint(const struct vg_mldsa_backend *be, vg_mldsa_poly *h,
                                 const vg_mldsa_poly *r, const vg_mldsa_poly *v1, int32_t gamma2);
/* r1 = UseHint(h, a) coefficientwise. Pre: 0 <= a < q, h in {0, 1}.
 * Post: 0 <= r1 < (q - 1) / (2 gamma2). Public data (verification).
 * Specification: FIPS 204, Algorithm 40. */
void vg_mldsa_poly_use_hint(const struct vg_mldsa_backend *be, vg_mldsa_poly *r1,
                            const vg_mldsa_poly *a, const vg_mldsa_poly *h, int32_t gamma2);

/* ---- sampling --------------------------------------------------------- */

/* A-hat[r][s] = RejNTTPoly(rho || s || r): Post: 0 <= a < q.
 * Specification: FIPS 204, Algorithms 30 (RejNTTPoly) and 32 (ExpandA,
 * line 4: the column index s comes first in the seed). */
void vg_mldsa_poly_uniform(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                           const uint8_t rho[VG_MLDSA_SYMBYTES], uint8_t s, uint8_t r);
/* Four entries at once on the four-way Keccak: r[l] = RejNTTPoly(rho ||
 * idx[l][0] || idx[l][1]) (idx[l] = {s, r}, column first), the same values
 * as vg_mldsa_poly_uniform. Specification: FIPS 204, Algorithms 30, 32. */
void vg_mldsa_poly_uniform_x4(const struct vg_mldsa_backend *be, vg_mldsa_poly *const r[4],
                              const uint8_t rho[VG_MLDSA_SYMBYTES], const uint8_t idx[4][2]);
/* The same values with 2 KiB less stack (two-block buffers; slower). */
void vg_mldsa_poly_uniform_x4_small(const struct vg_mldsa_backend *be, vg_mldsa_poly *const r[4],
                                    const uint8_t rho[VG_MLDSA_SYMBYTES], const uint8_t idx[4][2]);
/* n entries (any n): groups of four through uniform_x4, the remainder
 * padded or single. r[k] = RejNTTPoly(rho || idx[k][0] || idx[k][1]). */
void vg_mldsa_poly_uniform_many(const struct vg_mldsa_backend *be, vg_mldsa_poly *const *r,
                                const uint8_t rho[VG_MLDSA_SYMBYTES], const uint8_t (*idx)[2],
                                unsigned n);
/* RejBoundedPoly(rho' || IntegerToBytes(nonce, 2)) for eta in {2, 4}.
 * Post: |a| <= eta. Which candidates are rejected depends on the secret
 * stream, but the accept/reject pattern is independent of the values
 * accepted (each accepted nibble is uniform on its range whatever the
 * pattern), so the timing reveals nothing about the coefficients.
 * Specification: FIPS 204, Algorithms 31 (RejBoundedPoly), 15
 * (CoeffFromHalfByte) and 33 (ExpandS). */
void vg_mldsa_poly_uniform_eta(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                               const uint8_t rhoprime[VG_MLDSA_CRHBYTES], uint16_t nonce,
                               unsigned eta);
/* r[k] = RejBoundedPoly(rho' || IntegerToBytes(nonce0 + k, 2)), k < n (any
 * n), four at a time on the four-way Keccak; the same values as
 * uniform_eta. Post: |r| <= eta. Specification: FIPS 204, Algorithm 33
 * (ExpandS). */
void vg_mldsa_poly_uniform_eta_many(const struct vg_mldsa_backend *be, vg_mldsa_poly *r,
                                    const uint8_t rhoprime[VG_MLDSA_CRHBYTES], uint16_t nonce0,
                                    unsigned n, unsigned eta);
/* y = BitUnpack(H(rho'' || IntegerToBytes(nonce, 2)), gamma1 - 1, gamma1),
 * gamma1 in {2^17, 2^19}. Post: -gamma1 < y <= gamma1. Constant time.
 * Specification: FIPS 204, Algorithm 34 (ExpandMask), one entry. */
void vg_mldsa_poly_uniform_gamma1(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                                  const uint8_t rhopp[VG_MLDSA_CRHBYTES], uint16_t nonce,
                                  int32_t gamma1);
/* r[k] = ExpandMask entry with nonce nonce0 + k, k < n (any n), four at a
 * time on the four-way Keccak; the same values as uniform_gamma1.
 * Post: -gamma1 < r <= gamma1. Constant time.
 * Specification: FIPS 204, Algorithm 34 (ExpandMask). */
void vg_mldsa_poly_uniform_gamma1_many(const struct vg_mldsa_backend *be, vg_mldsa_poly *r,
                                       const uint8_t rhopp[VG_MLDSA_CRHBYTES], uint16_t nonce0,
                                       unsigned n, int32_t gamma1);
/* Four ExpandMask entries into r[0..4): r[k] for nonce0 + k, k < n
 * (1 <= n <= 4); r[n..4) receive copies of entry n - 1 (scratch lanes of
 * the four-way Keccak, so no other scratch is needed). Same values as
 * uniform_gamma1. Constant time. Specification: FIPS 204, Algorithm 34. */
void vg_mldsa_poly_uniform_gamma1_4(const struct vg_mldsa_backend *be, vg_mldsa_poly r[4],
                                    const uint8_t rhopp[VG_MLDSA_CRHBYTES], uint16_t nonce0,
                                    unsigned n, int32_t gamma1);
/* ExpandMask's bytes without unpacking them: out[k] (k < n, 1 <= n <= 4)
 * receives the vg_mldsa_polyz_bytes(gamma1) bytes of
 * H(rho'' || IntegerToBytes(nonce0 + k, 2)), so vg_mldsa_polyz_unpack of
 * out[k] is the entry vg_mldsa_poly_uniform_gamma1 gives for that nonce
 * (FIPS 204, Algorithm 34: y = BitUnpack(v, gamma1 - 1, gamma1), the
 * decoding of z, whose encoding this is). out[n..4) are not used. Writes
 * exactly those bytes. Constant time. */
void vg_mldsa_poly_mask_bytes_4(uint8_t *const out[4], const uint8_t rhopp[VG_MLDSA_CRHBYTES],
                                uint16_t nonce0, unsigned n, int32_t gamma1);
/* A polynomial of bits as 32 bytes: bit t of r[b] = a[8 b + t].
 * Pre: every coefficient 0 or 1. Constant time. */
void vg_mldsa_poly_bits(const struct vg_mldsa_backend *be, uint8_t r[VG_MLDSA_N / 8],
                        const vg_mldsa_poly *a);
/* A coefficient array in 3 bytes a coefficient, little-endian (storage
 * for A-hat where stack is short; not a FIPS 204 encoding).
 * pack24: Pre 0 <= a < 2^24. unpack24: Post 0 <= a < 2^24, the packed
 * values exactly. */
void vg_mldsa_poly_pack24(const struct vg_mldsa_backend *be, uint8_t r[3 * VG_MLDSA_N],
                          const vg_mldsa_poly *a);
void vg_mldsa_poly_unpack24(vg_mldsa_poly *a, const uint8_t r[3 * VG_MLDSA_N]);

/* c = SampleInBall(ctilde): tau coefficients +-1, the rest 0.
 * Pre: tau <= 60. Post: |c| <= 1. Constant time in ctilde (secret while
 * its signing attempt may still be rejected): a fixed number of SHAKE256
 * candidate bytes is used (more only with probability below 2^-87) and
 * every position is written under masks (poly.c).
 * Specification: FIPS 204, Algorithm 29. */
void vg_mldsa_poly_challenge(const struct vg_mldsa_backend *be, vg_mldsa_poly *c,
                             const uint8_t *ctilde, size_t ctilde_len, unsigned tau);

/* ---- bit packing (FIPS 204 section 7.1) ------------------------------ */

/* SimpleBitPack(t1, 2^10 - 1). Pre: 0 <= t1 < 2^10. Algorithm 16. */
void vg_mldsa_polyt1_pack(const struct vg_mldsa_backend *be, uint8_t r[VG_MLDSA_POLYT1_BYTES],
                          const vg_mldsa_poly *a);
/* SimpleBitUnpack(., 2^10 - 1). Post: 0 <= a < 2^10. Algorithm 18. */
void vg_mldsa_polyt1_unpack(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                            const uint8_t r[VG_MLDSA_POLYT1_BYTES]);
/* BitPack(t0, 2^12 - 1, 2^12). Pre: -2^12 < t0 <= 2^12. Algorithm 17. */
void vg_mldsa_polyt0_pack(const struct vg_mldsa_backend *be, uint8_t r[VG_MLDSA_POLYT0_BYTES],
                          const vg_mldsa_poly *a);
/* BitUnpack(., 2^12 - 1, 2^12). Post: -2^12 < a <= 2^12. Algorithm 19. */
void vg_mldsa_polyt0_unpack(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                            const uint8_t r[VG_MLDSA_POLYT0_BYTES]);
/* Bytes of BitPack(s, eta, eta): 96 (eta = 2) or 128 (eta = 4). */
size_t vg_mldsa_polyeta_bytes(unsigned eta);
/* BitPack(s, eta, eta). Pre: |s| <= eta. Algorithm 17. */
void vg_mldsa_polyeta_pack(const struct vg_mldsa_backend *be, uint8_t *r, const vg_mldsa_poly *a,
                           unsigned eta);
/* BitUnpack(., eta, eta): a = eta - field. Returns 1 when some field is
 * above 2 eta (out of range, so a < -eta: the key did not come from
 * KeyGen), 0 otherwise; constant time. Post: eta - 2^b < a <= eta.
 * Algorithm 19. */
unsigned vg_mldsa_polyeta_unpack(const struct vg_mldsa_backend *be, vg_mldsa_poly *a,
                                 const uint8_t *r, unsigned eta);
/* Bytes of BitPack(z, gamma1 - 1, gamma1): 576 (2^17) or 640 (2^19). */
size_t vg_mldsa_polyz_bytes(int32_t gamma1);
/* BitPack(z, gamma1 - 1, gamma1). Pre: -gamma1 < z <= gamma1. Algorithm 17. */
void vg_mldsa_polyz_pack(const struct vg_mldsa_backend *be, uint8_t *r, const vg_mldsa_poly *a,
                         int32_t gamma1);
/* BitUnpack(., gamma1 - 1, gamma1). Post: -gamma1 < a <= gamma1 (the
 * fields span exactly 2 gamma1 values, so every input decodes). Algorithm 19. */
void vg_mldsa_polyz_unpack(const struct vg_mldsa_backend *be, vg_mldsa_poly *a, const uint8_t *r,
                           int32_t gamma1);
/* Bytes of SimpleBitPack(w1, (q-1)/(2 gamma2) - 1): 192 (gamma2 =
 * (q-1)/88, 6 bits) or 128 ((q-1)/32, 4 bits). */
size_t vg_mldsa_polyw1_bytes(int32_t gamma2);
/* Pre: 0 <= w1 < (q-1)/(2 gamma2). Algorithm 16, as used by w1Encode
 * (Algorithm 28). */
void vg_mldsa_polyw1_pack(const struct vg_mldsa_backend *be, uint8_t *r, const vg_mldsa_poly *a,
                          int32_t gamma2);

/* ---- message representative (FIPS 204 Algorithm 7 line 6, Algorithm 8
 * line 7) ----------------------------------------------------------------- */

/* mu = H(tr || prefix || ctx || msg, 64): prefix is M' minus context and
 * message, empty (the internal interface) or 0 || |ctx| (pure ML-DSA,
 * Algorithms 2-3 line 5). Each pointer may be NULL when its length is 0. */
void vg_mldsa_mu(uint8_t mu[VG_MLDSA_CRHBYTES], const uint8_t tr[VG_MLDSA_CRHBYTES],
                 const uint8_t *prefix, size_t prefix_len, const uint8_t *ctx_bytes,
                 size_t ctx_len, const uint8_t *msg, size_t msg_len);

#endif
