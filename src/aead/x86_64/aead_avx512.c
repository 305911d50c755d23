/*
 * ChaCha20-Poly1305 (RFC 8439 2.8) one-shot for messages of 193 to
 * VG_AEAD_FUSED_MAX (1216) bytes, x86-64 with AVX-512 (F, VL, BW, IFMA)
 * and BMI2, in one schedule instead of the streaming layer's three
 * dependent phases (key block, keystream, MAC):
 *   - all the keystream, block 0 (the Poly1305 key, 2.6) included, in ONE
 *     pass: blocks 0 .. 15 in zmm registers (chacha20_z16.h), and blocks
 *     16 .. 19 when the message needs them in one or two ymm row sets
 *     (chacha20_x86.h's rounds, VPROLD) between the same double rounds:
 *     they add their operations to the throughput-bound 16-block loop
 *     instead of the separate latency-bound key block the streaming path
 *     computes first (figures in docs/benchmarks.md);
 *   - Poly1305 over AD || pad16 || ct || pad16 || le64(ad_len) ||
 *     le64(len), all full blocks (2.8): the AD through the usual IFMA /
 *     MULX code, then the N = ceil(len / 16) + 1 blocks of ct and lengths
 *     as s = N mod 8 scalar steps and N / 8 groups of 8 on the lanes of
 *     poly1305_ifma.h (the scalar h enters lane 0 of the first group); the
 *     last group, the final ct blocks and the length block, is read from a
 *     128-byte copy (tail) and taken with r^(8 - j) in lane j.
 * (Poly1305 groups run between the double rounds of later 16-block steps
 * were tried for longer messages: on AMD Zen 4 both are bound by the same
 * vector pipes and the interleaved loop was slower than the two passes,
 * so longer messages keep the streaming path; docs/benchmarks.md.)
 *
 * Order of reads and writes: seal XORs the keystream in and then MACs
 * out; open copies the tail and MACs in before it XORs, so out == in works
 * both ways.
 *
 * Constant time: the ChaCha20 and Poly1305 cores (see their headers),
 * byte-masked loads and stores whose masks depend on len only; every
 * branch is on lengths.
 * Specification: RFC 8439, sections 2.3-2.8.
 */
#include <string.h>

#include "chacha20_z16.h"
#include "poly1305_ifma.h"

#define CH_NO_KERNELS
#define CH_R256(x, n) _mm256_rol_epi32(x, n)
#include "chacha20_x86.h"

#define VG_AI static inline __attribute__((always_inline))

/* Two blocks from ymm rows (one block per 128-bit lane) stored to ks. */
VG_AI void rows_store2(uint8_t *ks, __m256i a, __m256i b, __m256i c, __m256i d)
{
    __m256i *o = (__m256i *)(void *)ks;
    _mm256_storeu_si256(o, _mm256_permute2x128_si256(a, b, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(c, d, 0x20));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(a, b, 0x31));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(c, d, 0x31));
}

/* Keystream blocks 0 .. 15 + 2 sets (sets 0, 1 or 2) to ks: 16 in zmm
 * registers, the others as ymm row sets (two blocks each) whose rounds run
 * between the same double rounds. */
VG_AI void keystream(uint8_t ks[1280], const uint32_t key[8], const uint32_t nonce[3], int sets)
{
    const __m256i ya = _mm256_broadcastsi128_si256(_mm_set_epi32(Z16_C3, Z16_C2, Z16_C1, Z16_C0));
    const __m256i yb =
        _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)key));
    const __m256i yc =
        _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(key + 4)));
    /* Row d of blocks 16 and 17, then 18 and 19 (2.3: counter, nonce). */
    const __m256i d0i = _mm256_add_epi32(
        _mm256_broadcastsi128_si256(
            _mm_set_epi32((int)nonce[2], (int)nonce[1], (int)nonce[0], 16)),
        _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0));
    const __m256i d1i = _mm256_add_epi32(d0i, _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2));
    __m256i a0 = ya, b0 = yb, c0 = yc, d0 = d0i, a1 = ya, b1 = yb, c1 = yc, d1 = d1i;
    Z16_DECL(key, nonce, 0);
#define ADD _mm256_add_epi32
#define XOR _mm256_xor_si256
    for (int i = 0; i < 10; i++) {
        Z16_DOUBLE_ROUND();
        if (sets >= 1)
            CH_DR(CH_R256, _mm256_shuffle_epi32, a0, b0, c0, d0);
        if (sets == 2)
            CH_DR(CH_R256, _mm256_shuffle_epi32, a1, b1, c1, d1);
    }
    Z16_FEED();
    Z16_STORE(ks);
    if (sets >= 1)
        rows_store2(ks + 1024, ADD(a0, ya), ADD(b0, yb), ADD(c0, yc), ADD(d0, d0i));
    if (sets == 2)
        rows_store2(ks + 1152, ADD(a1, ya), ADD(b1, yb), ADD(c1, yc), ADD(d1, d1i));
#undef ADD
#undef XOR
}

/* out = in XOR ks over n bytes, 64 at a time and the last 1..63 bytes under
 * a byte mask (AVX-512BW; masked-off bytes are neither read nor written). */
VG_AI void xor_ks(uint8_t *out, const uint8_t *in, const uint8_t *ks, size_t n)
{
    size_t i = 0;
    for (; i + 64 <= n; i += 64)
        _mm512_storeu_si512((void *)(out + i),
                            _mm512_xor_si512(_mm512_loadu_si512((const void *)(in + i)),
                                             _mm512_loadu_si512((const void *)(ks + i))));
    if (i < n) {
        const __mmask64 m = (((__mmask64)1) << (n - i)) - 1;
        __m512i v = _mm512_maskz_loadu_epi8(m, in + i);
        _mm512_mask_storeu_epi8(out + i, m,
                                _mm512_xor_si512(v, _mm512_loadu_si512((const void *)(ks + i))));
    }
}

/* Zero n bytes at p (64-byte aligned, n a multiple of 64) with zmm stores;
 * the empty asm that takes p and clobbers memory keeps the compiler from
 * dropping them as dead stores. */
VG_AI void wipe_zmm(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i += 64)
        _mm512_store_si512((void *)(p + i), _mm512_setzero_si512());
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* The last group: stream blocks N - 8 .. N - 1 = the ct bytes from
 * 16 (N - 8) on (more than 96, at most 112), zeros to 112, the length
 * block (RFC 8439 2.8). */
static void build_tail(uint8_t tail[128], const uint8_t *ct, size_t len, size_t from,
                       size_t ad_len)
{
    memset(tail, 0, 112);
    memcpy(tail, ct + from, len - from);
    vg_store64_le(tail + 112, (uint64_t)ad_len);
    vg_store64_le(tail + 120, (uint64_t)len);
}

/* The AD and its pad16 (RFC 8439 2.8) into st. */
static void mac_ad(vg_poly1305_state *st, const uint8_t *ad, size_t ad_len)
{
    if (ad_len >= 16)
        ifma_blocks(st, ad, ad_len / 16, 1);
    if (ad_len % 16) {
        uint8_t last[16] = {0}; /* AD is public: no wipe needed */
        memcpy(last, ad + (ad_len & ~(size_t)15), ad_len % 16);
        r64_blocks(st, last, 1, 1);
    }
}

static void aead_avx512(uint8_t *out, const uint8_t *in, size_t len, const uint8_t *ad,
                        size_t ad_len, const uint32_t k[8], const uint32_t n[3], int decrypting,
                        uint8_t tag[16])
{
    uint8_t ks[1280] __attribute__((aligned(64)));
    uint8_t tail[128] __attribute__((aligned(64)));
    vg_poly1305_state st;
    const uint8_t *ct = decrypting ? in : out;
    const size_t nstream = (len + 15) / 16 + 1;          /* N >= 14 */
    const size_t s = nstream % 8, groups = nstream / 8; /* groups >= 1 */
    const size_t tail_from = 16 * (nstream - 8);
    const size_t nblocks = 1 + (len + 63) / 64; /* 5 .. 20, block 0 included */
    const int sets = nblocks > 18 ? 2 : nblocks > 16 ? 1 : 0;

    if (sets == 2) /* constants, so each copy is straight-line rounds */
        keystream(ks, k, n, 2);
    else if (sets == 1)
        keystream(ks, k, n, 1);
    else
        keystream(ks, k, n, 0);
    r64_init(&st, ks);
    ifma_powers(&st);
    mac_ad(&st, ad, ad_len);
    if (!decrypting)
        xor_ks(out, in, ks + 64, len);
    build_tail(tail, ct, len, tail_from, ad_len);
    if (s)
        r64_blocks(&st, ct, s, 1);

    /* The N - s blocks from ct + 16 s: groups - 1 groups there, the last
     * one from tail. */
    ifma_run_last(&st, ct + 16 * s, groups, tail, 1);
    /* open: in has been read in full; now the plaintext may overwrite it. */
    if (decrypting)
        xor_ks(out, in, ks + 64, len);
    r64_finish(&st, tag);
    wipe_zmm(ks, 1024 + 128 * (size_t)sets);
    wipe_zmm(tail, sizeof tail);
    vg_wipe(&st, sizeof st);
}

vg_aead_fused_fn vg_aead_avx512_get(void)
{
    return vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL | VG_CPU_AVX512BW | VG_CPU_AVX512IFMA |
                      VG_CPU_BMI2)
               ? aead_avx512
               : NULL;
}
