/*
 * ChaCha20 (RFC 8439 2.3-2.4), x86-64 with AVX2: the 8-block kernel (one
 * 32-bit lane per block) and the row kernel for one to four blocks, both
 * from chacha20_x86.h. Rotations by 16 and 8 are byte shuffles (VPSHUFB),
 * by 12 and 7 shift-shift-or. Compiled with -mavx2 (CMakeLists.txt);
 * called only when vg_cpu_has(VG_CPU_AVX2).
 * Specification: RFC 8439, sections 2.1-2.4.
 */
#include <immintrin.h>

#include "../aead.h"
#include "common.h"

/* Byte indices within each 32-bit word (listed from byte 15 down to 0 of a
 * 128-bit lane): x <<< 16 moves bytes (b3 b2 b1 b0) to (b1 b0 b3 b2),
 * x <<< 8 to (b2 b1 b0 b3). */
#define AVX2_ROT16_128 _mm_set_epi8(13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2)
#define AVX2_ROT8_128 _mm_set_epi8(14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3)

static inline __m256i avx2_rotl256(__m256i x, int n)
{
    if (n == 16)
        return _mm256_shuffle_epi8(x, _mm256_broadcastsi128_si256(AVX2_ROT16_128));
    if (n == 8)
        return _mm256_shuffle_epi8(x, _mm256_broadcastsi128_si256(AVX2_ROT8_128));
    return _mm256_or_si256(_mm256_slli_epi32(x, n), _mm256_srli_epi32(x, 32 - n));
}

static inline __m128i avx2_rotl128(__m128i x, int n)
{
    if (n == 16)
        return _mm_shuffle_epi8(x, AVX2_ROT16_128);
    if (n == 8)
        return _mm_shuffle_epi8(x, AVX2_ROT8_128);
    return _mm_or_si128(_mm_slli_epi32(x, n), _mm_srli_epi32(x, 32 - n));
}

/* n is a constant at every use, so the branches above fold away. */
#define CH_PFX avx2
#define CH_R256(x, n) avx2_rotl256(x, n)
#define CH_R128(x, n) avx2_rotl128(x, n)
#include "chacha20_x86.h"

/* struct vg_chacha20_impl.blocks (aead.h): batches of 8, the rest (0..7
 * blocks) by rows. */
static void chacha20_blocks_avx2(uint8_t *out, const uint8_t *in, size_t nblocks,
                                 const uint32_t key[8], const uint32_t nonce[3], uint32_t counter)
{
    while (nblocks >= 8) {
        avx2_x8(out, in, key, nonce, counter);
        counter += 8; /* may wrap after the last blocks only: then unused */
        in += 512;
        out += 512;
        nblocks -= 8;
    }
    if (nblocks)
        avx2_rows(out, in, nblocks, key, nonce, counter);
}

static const struct vg_chacha20_impl g_chacha20_avx2_rows = {
    .name = "avx2_rows",
    .blocks = avx2_rows,
};

static const struct vg_chacha20_impl g_chacha20_avx2 = {
    .name = "avx2",
    .blocks = chacha20_blocks_avx2,
};

const struct vg_chacha20_impl *vg_chacha20_avx2_rows_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2) ? &g_chacha20_avx2_rows : NULL;
}

const struct vg_chacha20_impl *vg_chacha20_avx2_get(void)
{
    return vg_cpu_has(VG_CPU_AVX2) ? &g_chacha20_avx2 : NULL;
}
