/*
 * SHA-512 compression with the message schedule in AVX2 and the rounds in
 * scalar code (BMI2 RORX for the rotations).
 *
 * Compiled with -mavx2 -mbmi2 (CMakeLists.txt); called only when
 * vg_cpu_has(VG_CPU_AVX2 | VG_CPU_BMI2).
 *
 * Specification: FIPS 180-4, 6.4.2. Technique: blocks go in pairs (A, B).
 * One ymm register holds two consecutive schedule words of A in its low
 * 128-bit lane and the same two words of B in its high lane, so every
 * vector step yields W[t], W[t+1] (t even) of both blocks; two is the most
 * a step can yield, since W[t+2] needs W[t]. W[t] + K[t] goes to a stack
 * table. The steps for A's words 16..79 are interleaved with A's rounds
 * 0..63 (each step issued 14 rounds before its words are needed), where the
 * vector units run beside the scalar ones; B's rounds then read the table.
 * A lone last block is run as the pair (A, A), with B's rounds skipped.
 *
 * Constant time: no data-dependent branch or index.
 */
#include "common.h"
#include "sha2.h"

#ifdef VG_X86_64
#include <immintrin.h>

static inline uint64_t rotr64(uint64_t x, unsigned n) { return (x >> n) | (x << (64 - n)); }

/* FIPS 180-4 (4.10), (4.11); RORX with -mbmi2. */
#define BSIG0(x) (rotr64((x), 28) ^ rotr64((x), 34) ^ rotr64((x), 39))
#define BSIG1(x) (rotr64((x), 14) ^ rotr64((x), 18) ^ rotr64((x), 41))

/* Code-generation choices: the rounds do not reach the throughput that
 * their 22 ALU operations allow, so the order of the additions and the
 * unrolling matter, differently for the two compilers: gcc 12 does best with
 * rolled loops and T1 + Sigma0 + Maj, clang 14 unrolled with T1 + Maj +
 * Sigma0 (rolled, clang spills the table pointer and reloads it every
 * round). Value barriers pinning the order of T1's terms made both slower.
 * Figures (Zen 4, against OpenSSL's AVX2 code) in docs/benchmarks.md. */
#if defined(__clang__)
#define SHA512_UNROLL 1
#define T2SUM(t1, s0, maj) ((t1) + (maj) + (s0))
#else
#define SHA512_UNROLL 0
#define T2SUM(t1, s0, maj) ((t1) + (s0) + (maj))
#endif

/* One round (FIPS 180-4 6.4.2 step 3), variables renamed instead of
 * shifted; `bc` carries b ^ c for Maj(a,b,c) = ((a ^ b) & (b ^ c)) ^ b and
 * Ch(e,f,g) = ((f ^ g) & e) ^ g. */
#define R512(a, b, c, d, e, f, g, h, wk)                                                           \
    do {                                                                                           \
        uint64_t t1_ = (h) + (wk) + ((((f) ^ (g)) & (e)) ^ (g)) + BSIG1(e);                        \
        uint64_t ab_ = (a) ^ (b);                                                                  \
        (d) += t1_;                                                                                \
        (h) = T2SUM(t1_, BSIG0(a), (ab_ & bc) ^ (b));                                              \
        bc = ab_;                                                                                  \
    } while (0)

/* Eight rounds t..t+7 from the table wk. */
#define R8(wk, t)                                                                                  \
    do {                                                                                           \
        R512(a, b, c, d, e, f, g, hh, (wk)[(t) + 0]);                                              \
        R512(hh, a, b, c, d, e, f, g, (wk)[(t) + 1]);                                              \
        R512(g, hh, a, b, c, d, e, f, (wk)[(t) + 2]);                                              \
        R512(f, g, hh, a, b, c, d, e, (wk)[(t) + 3]);                                              \
        R512(e, f, g, hh, a, b, c, d, (wk)[(t) + 4]);                                              \
        R512(d, e, f, g, hh, a, b, c, (wk)[(t) + 5]);                                              \
        R512(c, d, e, f, g, hh, a, b, (wk)[(t) + 6]);                                              \
        R512(b, c, d, e, f, g, hh, a, (wk)[(t) + 7]);                                              \
    } while (0)

/* Byte shuffle that rotates each 64-bit lane right by 8 bits, and the one
 * that turns big-endian 64-bit words into native ones. */
#define ROR8_MASK                                                                                  \
    _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7,  \
                     0, 9, 10, 11, 12, 13, 14, 15, 8)
#define BSWAP_MASK                                                                                 \
    _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,  \
                     0, 15, 14, 13, 12, 11, 10, 9, 8)

/* sigma0(x) = ROTR1 ^ ROTR8 ^ SHR7 (4.12), ROTR8 as a byte shuffle. */
static inline __m256i ssig0(__m256i x, __m256i ror8)
{
    __m256i r = _mm256_xor_si256(_mm256_srli_epi64(x, 1), _mm256_slli_epi64(x, 63));
    r = _mm256_xor_si256(r, _mm256_srli_epi64(x, 7));
    return _mm256_xor_si256(r, _mm256_shuffle_epi8(x, ror8));
}

/* sigma1(x) = ROTR19 ^ ROTR61 ^ SHR6 (4.13); the halves of each rotation
 * are disjoint, so XOR joins them as well as OR. */
static inline __m256i ssig1(__m256i x)
{
    __m256i r = _mm256_xor_si256(_mm256_srli_epi64(x, 19), _mm256_slli_epi64(x, 45));
    __m256i s = _mm256_xor_si256(_mm256_srli_epi64(x, 61), _mm256_slli_epi64(x, 3));
    return _mm256_xor_si256(_mm256_xor_si256(r, s), _mm256_srli_epi64(x, 6));
}

/* Schedule step: with x8 = W[t-16..t-15], x7 = W[t-14..], x4 = W[t-8..],
 * x3 = W[t-6..], x1 = W[t-2..t-1] (both blocks), overwrite x8 with
 * W[t..t+1] and store W + K for both blocks at wk[0][t], wk[1][t]. */
#define SCHED(x8, x7, x4, x3, x1, t)                                                               \
    do {                                                                                           \
        __m256i s_ = _mm256_add_epi64((x8), ssig0(_mm256_alignr_epi8((x7), (x8), 8), ror8));      \
        s_ = _mm256_add_epi64(s_, _mm256_alignr_epi8((x3), (x4), 8));                              \
        (x8) = _mm256_add_epi64(s_, ssig1(x1));                                                    \
        store_wk(wk, (x8), (t));                                                                   \
    } while (0)

/* wk[0][t..t+1] and wk[1][t..t+1] = x + K[t..t+1]. */
static inline void store_wk(uint64_t wk[2][80], __m256i x, int t)
{
    __m256i k = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(vg_sha512_k + t)));
    x = _mm256_add_epi64(x, k);
    _mm_store_si128((__m128i *)(wk[0] + t), _mm256_castsi256_si128(x));
    _mm_store_si128((__m128i *)(wk[1] + t), _mm256_extracti128_si256(x, 1));
}

/* Rounds t..t+15 of block A, with the eight schedule steps that produce
 * W[t+16..t+31] of both blocks interleaved, one per two rounds (step k is
 * issued 14 rounds or more before round t+16+2k needs it). */
#define A16(t)                                                                                     \
    do {                                                                                           \
        R512(a, b, c, d, e, f, g, hh, wk[0][(t) + 0]);                                             \
        R512(hh, a, b, c, d, e, f, g, wk[0][(t) + 1]);                                             \
        SCHED(x[0], x[1], x[4], x[5], x[7], (t) + 16);                                             \
        R512(g, hh, a, b, c, d, e, f, wk[0][(t) + 2]);                                             \
        R512(f, g, hh, a, b, c, d, e, wk[0][(t) + 3]);                                             \
        SCHED(x[1], x[2], x[5], x[6], x[0], (t) + 18);                                             \
        R512(e, f, g, hh, a, b, c, d, wk[0][(t) + 4]);                                             \
        R512(d, e, f, g, hh, a, b, c, wk[0][(t) + 5]);                                             \
        SCHED(x[2], x[3], x[6], x[7], x[1], (t) + 20);                                             \
        R512(c, d, e, f, g, hh, a, b, wk[0][(t) + 6]);                                             \
        R512(b, c, d, e, f, g, hh, a, wk[0][(t) + 7]);                                             \
        SCHED(x[3], x[4], x[7], x[0], x[2], (t) + 22);                                             \
        R512(a, b, c, d, e, f, g, hh, wk[0][(t) + 8]);                                             \
        R512(hh, a, b, c, d, e, f, g, wk[0][(t) + 9]);                                             \
        SCHED(x[4], x[5], x[0], x[1], x[3], (t) + 24);                                             \
        R512(g, hh, a, b, c, d, e, f, wk[0][(t) + 10]);                                            \
        R512(f, g, hh, a, b, c, d, e, wk[0][(t) + 11]);                                            \
        SCHED(x[5], x[6], x[1], x[2], x[4], (t) + 26);                                             \
        R512(e, f, g, hh, a, b, c, d, wk[0][(t) + 12]);                                            \
        R512(d, e, f, g, hh, a, b, c, wk[0][(t) + 13]);                                            \
        SCHED(x[6], x[7], x[2], x[3], x[5], (t) + 28);                                             \
        R512(c, d, e, f, g, hh, a, b, wk[0][(t) + 14]);                                            \
        R512(b, c, d, e, f, g, hh, a, wk[0][(t) + 15]);                                            \
        SCHED(x[7], x[0], x[3], x[4], x[6], (t) + 30);                                             \
    } while (0)

/* Compress block A (and block B when two != 0) into h, A first, with wk as
 * scratch. Precondition: pa (and pb) hold 128 readable bytes; wk is 16-byte
 * aligned; AVX2 and BMI2. Postcondition: wk holds W + K of both blocks. */
static inline void sha512_pair(uint64_t h[8], uint64_t wk[2][80], const uint8_t *pa,
                               const uint8_t *pb, int two)
{
    const __m256i ror8 = ROR8_MASK, bswap = BSWAP_MASK;
    __m256i x[8];
    for (int i = 0; i < 8; i++) {
        __m256i v = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(pa + 16 * i))),
            _mm_loadu_si128((const __m128i *)(pb + 16 * i)), 1);
        x[i] = _mm256_shuffle_epi8(v, bswap);
        store_wk(wk, x[i], 2 * i);
    }

    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    uint64_t bc = b ^ c;
    /* Rounds 0..63 of A with the steps for W[16..79]. */
#if SHA512_UNROLL
    A16(0);
    A16(16);
    A16(32);
    A16(48);
#else
    for (int t = 0; t < 64; t += 16)
        A16(t);
#endif
    R8(wk[0], 64);
    R8(wk[0], 72);
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;

    if (two) {
        a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        bc = b ^ c;
#if SHA512_UNROLL
        R8(wk[1], 0);
        R8(wk[1], 8);
        R8(wk[1], 16);
        R8(wk[1], 24);
        R8(wk[1], 32);
        R8(wk[1], 40);
        R8(wk[1], 48);
        R8(wk[1], 56);
        R8(wk[1], 64);
        R8(wk[1], 72);
#else
        for (int t = 0; t < 80; t += 8)
            R8(wk[1], t);
#endif
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }
}

/* Precondition: in holds nblocks * 128 readable bytes; AVX2 and BMI2.
 * Postcondition: as the portable blocks function. */
static void sha512_blocks_avx2(uint64_t h[8], const uint8_t *in, size_t nblocks)
{
    uint64_t wk[2][80] __attribute__((aligned(32)));
    for (; nblocks >= 2; nblocks -= 2, in += 256)
        sha512_pair(h, wk, in, in + 128, 1);
    if (nblocks)
        sha512_pair(h, wk, in, in, 0);
    /* The schedule is a function of the message; do not leave it behind. */
    vg_wipe(wk, sizeof wk);
}

static const struct vg_sha512_impl g_sha512_avx2 = {"avx2", sha512_blocks_avx2};

const struct vg_sha512_impl *vg_sha512_avx2_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2 | VG_CPU_BMI2) ? &g_sha512_avx2 : NULL;
}
#endif
