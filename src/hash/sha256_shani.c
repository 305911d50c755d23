/*
 * SHA-256 compression with the x86 SHA extensions (SHA-NI).
 *
 * Compiled with -msha -mssse3 -msse4.1 (CMakeLists.txt); called only when
 * vg_cpu_has(VG_CPU_SHA), which cpu.c sets only when SSSE3 and SSE4.1 are
 * present as well.
 *
 * Specification: FIPS 180-4, 6.2.2. SHA256RNDS2 performs two rounds of step
 * 3 on the state kept as ABEF / CDGH (A in the top dword), taking W[t] + K[t]
 * for the two rounds in the low two dwords of its third operand;
 * SHA256MSG1 and SHA256MSG2 compute the two halves of the step 1 schedule:
 *   MSG1(W[t-16..t-13], W[t-12..t-9]) = W[t-16+j] + s0(W[t-15+j]),
 *   MSG2(X + W[t-7..t-4], W[t-4..t-1]) adds s1 of W[t-2], W[t-1] and of the
 *   two words it has just produced.
 * Constant time: no data-dependent branch or index (SHA-NI instructions have
 * fixed latency).
 */
#include "common.h"
#include "sha2.h"

#ifdef VG_X86_64
#include <immintrin.h>

/* Four rounds 4i..4i+3 on (abef, cdgh) with message words m = W[4i..4i+3]. */
#define QROUND(i, m)                                                                               \
    do {                                                                                           \
        __m128i wk_ = _mm_add_epi32((m), _mm_load_si128((const __m128i *)(vg_sha256_k + 4 * (i)))); \
        cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk_);                                             \
        abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk_, 0x0e));                   \
    } while (0)

/* m0 <- W[t..t+3] from m0 = W[t-16..], m1 = W[t-12..], m2 = W[t-8..],
 * m3 = W[t-4..t-1]. */
#define SCHED(m0, m1, m2, m3)                                                                      \
    (m0) = _mm_sha256msg2_epu32(                                                                   \
        _mm_add_epi32(_mm_sha256msg1_epu32((m0), (m1)), _mm_alignr_epi8((m3), (m2), 4)), (m3))

/* Precondition: in holds nblocks * 64 readable bytes; the CPU has SHA-NI,
 * SSSE3 and SSE4.1. Postcondition: as the portable blocks function. */
static void sha256_blocks_shani(uint32_t h[8], const uint8_t *in, size_t nblocks)
{
    /* Byte order: each 32-bit word is big-endian in the message. */
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i t = _mm_loadu_si128((const __m128i *)h);         /* d c b a (dword 3..0) */
    __m128i cdgh = _mm_loadu_si128((const __m128i *)(h + 4)); /* h g f e */
    t = _mm_shuffle_epi32(t, 0xb1);                           /* c d a b */
    cdgh = _mm_shuffle_epi32(cdgh, 0x1b);                     /* e f g h */
    __m128i abef = _mm_alignr_epi8(t, cdgh, 8);               /* a b e f */
    cdgh = _mm_blend_epi16(cdgh, t, 0xf0);                    /* c d g h */

    while (nblocks--) {
        const __m128i abef0 = abef, cdgh0 = cdgh;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 0)), bswap);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 16)), bswap);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 32)), bswap);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + 48)), bswap);

        QROUND(0, m0);
        QROUND(1, m1);
        QROUND(2, m2);
        QROUND(3, m3);
        for (int i = 4; i < 16; i += 4) {
            SCHED(m0, m1, m2, m3);
            QROUND(i + 0, m0);
            SCHED(m1, m2, m3, m0);
            QROUND(i + 1, m1);
            SCHED(m2, m3, m0, m1);
            QROUND(i + 2, m2);
            SCHED(m3, m0, m1, m2);
            QROUND(i + 3, m3);
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
        in += 64;
    }

    /* Back to memory order (dword 0 first). */
    t = _mm_shuffle_epi32(abef, 0x1b);     /* a b e f */
    cdgh = _mm_shuffle_epi32(cdgh, 0xb1);  /* g h c d */
    abef = _mm_blend_epi16(t, cdgh, 0xf0); /* a b c d */
    cdgh = _mm_alignr_epi8(cdgh, t, 8);    /* e f g h */
    _mm_storeu_si128((__m128i *)h, abef);
    _mm_storeu_si128((__m128i *)(h + 4), cdgh);
}

static const struct vg_sha256_impl g_sha256_shani = {"shani", sha256_blocks_shani};

const struct vg_sha256_impl *vg_sha256_shani_get(void)
{
    return vg_cpu_has(VG_CPU_SHA) ? &g_sha256_shani : NULL;
}
#endif
