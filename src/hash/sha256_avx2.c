/*
 * SHA-256 compression with the message schedule in AVX2 and the rounds in
 * scalar code (BMI2 RORX for the rotations), for x86-64 CPUs without SHA-NI
 * (Intel client cores before Ice Lake / Rocket Lake, among others).
 *
 * Compiled with -mavx2 -mbmi2 (CMakeLists.txt); called only when
 * vg_cpu_has(VG_CPU_AVX2 | VG_CPU_BMI2) and the dispatch has no SHA-NI.
 *
 * Specification: FIPS 180-4, 6.2.2. Technique (as sha512_avx2.c): blocks go
 * in pairs (A, B); one ymm register holds four consecutive schedule words
 * of A in its low 128-bit lane and the same four words of B in its high
 * lane. A step yields W[t..t+3] (t a multiple of 4) of both blocks: sigma1
 * needs W[t-2], W[t-1] for W[t], W[t+1] and the new W[t], W[t+1] for
 * W[t+2], W[t+3], so each step computes sigma1 twice and blends the halves.
 * W[t] + K[t] goes to a stack table. The steps for A's words 16..63 are
 * interleaved with A's rounds 0..47 (each step issued 16 rounds before its
 * first word is needed), where the vector units run beside the scalar ones;
 * B's rounds then read the table. A lone last block runs as the pair
 * (A, A) with B's rounds skipped.
 *
 * Constant time: no data-dependent branch or index.
 */
#include "common.h"
#include "sha2.h"
#include "sha256_round.h"

#ifdef VG_X86_64
#include <immintrin.h>

/* Four rounds t..t+3 from the table wk, the working variables named in the
 * order of round t (the names move by four every four rounds). */
#define R4(wk, t, a, b, c, d, e, f, g, h)                                                          \
    do {                                                                                           \
        R256(a, b, c, d, e, f, g, h, (wk)[(t) + 0]);                                               \
        R256(h, a, b, c, d, e, f, g, (wk)[(t) + 1]);                                               \
        R256(g, h, a, b, c, d, e, f, (wk)[(t) + 2]);                                               \
        R256(f, g, h, a, b, c, d, e, (wk)[(t) + 3]);                                               \
    } while (0)
#define R4A(wk, t) R4(wk, t, a, b, c, d, e, f, g, hh)
#define R4B(wk, t) R4(wk, t, e, f, g, hh, a, b, c, d)

/* Big-endian 32-bit words to native ones, in each 128-bit lane. */
#define BSWAP_MASK                                                                                 \
    _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, \
                     4, 11, 10, 9, 8, 15, 14, 13, 12)

static inline __m256i rotr_v(__m256i x, int n)
{
    return _mm256_or_si256(_mm256_srli_epi32(x, n), _mm256_slli_epi32(x, 32 - n));
}

/* sigma0(x) = ROTR7 ^ ROTR18 ^ SHR3 (4.6), per 32-bit element. */
static inline __m256i ssig0(__m256i x)
{
    return _mm256_xor_si256(_mm256_xor_si256(rotr_v(x, 7), rotr_v(x, 18)),
                            _mm256_srli_epi32(x, 3));
}

/* sigma1(x) = ROTR17 ^ ROTR19 ^ SHR10 (4.7), per 32-bit element. */
static inline __m256i ssig1(__m256i x)
{
    return _mm256_xor_si256(_mm256_xor_si256(rotr_v(x, 17), rotr_v(x, 19)),
                            _mm256_srli_epi32(x, 10));
}

/* wk[0][t..t+3] and wk[1][t..t+3] = x + K[t..t+3]. */
static inline void store_wk(uint32_t wk[2][64], __m256i x, int t)
{
    __m256i k = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(vg_sha256_k + t)));
    x = _mm256_add_epi32(x, k);
    _mm_store_si128((__m128i *)(wk[0] + t), _mm256_castsi256_si128(x));
    _mm_store_si128((__m128i *)(wk[1] + t), _mm256_extracti128_si256(x, 1));
}

/* Schedule step (FIPS 180-4 6.2.2 step 1): with x0 = W[t-16..t-13],
 * x1 = W[t-12..t-9], x2 = W[t-8..t-5], x3 = W[t-4..t-1] (both blocks),
 * overwrite x0 with W[t..t+3] and store W + K at wk[0][t], wk[1][t].
 * s = W[t-16..] + sigma0(W[t-15..]) + W[t-7..]; lo adds sigma1 of
 * W[t-2], W[t-1] (elements 2, 3 of x3, moved to 0, 1), right in elements
 * 0, 1; hi adds sigma1 of lo's elements 0, 1 moved to 2, 3, right in
 * elements 2, 3; the blend takes each half where it is right. */
#define SCHED(x0, x1, x2, x3, t)                                                                   \
    do {                                                                                           \
        __m256i s_ = _mm256_add_epi32((x0), ssig0(_mm256_alignr_epi8((x1), (x0), 4)));            \
        s_ = _mm256_add_epi32(s_, _mm256_alignr_epi8((x3), (x2), 4));                              \
        __m256i lo_ = _mm256_add_epi32(s_, ssig1(_mm256_shuffle_epi32((x3), 0xee)));              \
        __m256i hi_ = _mm256_add_epi32(s_, ssig1(_mm256_shuffle_epi32(lo_, 0x44)));               \
        (x0) = _mm256_blend_epi32(lo_, hi_, 0xcc);                                                 \
        store_wk(wk, (x0), (t));                                                                   \
    } while (0)

/* Rounds t..t+15 of block A with the four schedule steps that produce
 * W[t+16..t+31] of both blocks interleaved, one per four rounds (step k is
 * issued 16 rounds before round t+16+4k needs it). */
#define A16(t)                                                                                     \
    do {                                                                                           \
        R4A(wk[0], (t) + 0);                                                                       \
        SCHED(x[0], x[1], x[2], x[3], (t) + 16);                                                   \
        R4B(wk[0], (t) + 4);                                                                       \
        SCHED(x[1], x[2], x[3], x[0], (t) + 20);                                                   \
        R4A(wk[0], (t) + 8);                                                                       \
        SCHED(x[2], x[3], x[0], x[1], (t) + 24);                                                   \
        R4B(wk[0], (t) + 12);                                                                      \
        SCHED(x[3], x[0], x[1], x[2], (t) + 28);                                                   \
    } while (0)

/* Compress block A (and block B when two != 0) into h, A first, with wk as
 * scratch. Precondition: pa (and pb) hold 64 readable bytes; wk is 16-byte
 * aligned; AVX2 and BMI2. Postcondition: wk holds W + K of both blocks. */
static inline void sha256_pair(uint32_t h[8], uint32_t wk[2][64], const uint8_t *pa,
                               const uint8_t *pb, int two)
{
    const __m256i bswap = BSWAP_MASK;
    __m256i x[4];
    for (int i = 0; i < 4; i++) {
        __m256i v = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(pa + 16 * i))),
            _mm_loadu_si128((const __m128i *)(pb + 16 * i)), 1);
        x[i] = _mm256_shuffle_epi8(v, bswap);
        store_wk(wk, x[i], 4 * i);
    }

    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    uint32_t bc = b ^ c;
    /* Rounds 0..47 of A with the steps for W[16..63], then 48..63. */
    A16(0);
    A16(16);
    A16(32);
    R4A(wk[0], 48);
    R4B(wk[0], 52);
    R4A(wk[0], 56);
    R4B(wk[0], 60);
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
        for (int t = 0; t < 64; t += 8) {
            R4A(wk[1], t);
            R4B(wk[1], t + 4);
        }
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

/* Precondition: in holds nblocks * 64 readable bytes; AVX2 and BMI2.
 * Postcondition: as the portable blocks function. */
static void sha256_blocks_avx2(uint32_t h[8], const uint8_t *in, size_t nblocks)
{
    uint32_t wk[2][64] __attribute__((aligned(32)));
    for (; nblocks >= 2; nblocks -= 2, in += 128)
        sha256_pair(h, wk, in, in + 64, 1);
    if (nblocks)
        sha256_pair(h, wk, in, in, 0);
    /* The schedule is a function of the message; do not leave it behind. */
    vg_wipe(wk, sizeof wk);
}

static const struct vg_sha256_impl g_sha256_avx2 = {"avx2", sha256_blocks_avx2};

const struct vg_sha256_impl *vg_sha256_avx2_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2 | VG_CPU_BMI2) ? &g_sha256_avx2 : NULL;
}
#endif
