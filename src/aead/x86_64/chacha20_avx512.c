/*
 * ChaCha20 (RFC 8439 2.3-2.4), x86-64 with AVX-512F and AVX-512VL: 16
 * blocks at once (one zmm per state word, one 32-bit lane per block),
 * then, for what is left, the 8-block ymm kernel and the row kernel of
 * chacha20_x86.h with VPROLD rotations (AVX-512VL). Compiled with
 * -mavx512f -mavx512vl (CMakeLists.txt); called only when
 * vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL).
 * Specification: RFC 8439, sections 2.1-2.4.
 */
#include <immintrin.h>

#include "../aead.h"
#include "common.h"

#define CH_PFX avx512vl
#define CH_R256(x, n) _mm256_rol_epi32(x, n)
#define CH_R128(x, n) _mm_rol_epi32(x, n)
#include "chacha20_x86.h"
#include "chacha20_z16.h"

/* Exactly 16 blocks (1024 bytes), counters counter .. counter + 15. */
static void z_x16(uint8_t *out, const uint8_t *in, const uint32_t key[8], const uint32_t nonce[3],
                  uint32_t counter)
{
    Z16_DECL(key, nonce, counter);
    for (int i = 0; i < 10; i++)
        Z16_DOUBLE_ROUND();
    Z16_FEED();
    Z16_XOR(out, in);
}

/* struct vg_chacha20_impl.blocks (aead.h): batches of 16, then one of 8,
 * then rows for the last 0..7 blocks. */
static void chacha20_blocks_avx512(uint8_t *out, const uint8_t *in, size_t nblocks,
                                   const uint32_t key[8], const uint32_t nonce[3],
                                   uint32_t counter)
{
    while (nblocks >= 16) {
        z_x16(out, in, key, nonce, counter);
        counter += 16; /* may wrap after the last blocks only: then unused */
        in += 1024;
        out += 1024;
        nblocks -= 16;
    }
    if (nblocks >= 8) {
        avx512vl_x8(out, in, key, nonce, counter);
        counter += 8;
        in += 512;
        out += 512;
        nblocks -= 8;
    }
    if (nblocks)
        avx512vl_rows(out, in, nblocks, key, nonce, counter);
}

static const struct vg_chacha20_impl g_chacha20_avx512 = {
    .name = "avx512",
    .blocks = chacha20_blocks_avx512,
};

const struct vg_chacha20_impl *vg_chacha20_avx512_get(void)
{
    return vg_cpu_has(VG_CPU_AVX512F | VG_CPU_AVX512VL) ? &g_chacha20_avx512 : NULL;
}
