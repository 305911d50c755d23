/*
 * ChaCha20 (RFC 8439 2.3) on four blocks side by side in the compiler's
 * generic vectors (GCC and clang vector extensions, plain C semantics lane
 * by lane), shared by the portable ChaCha20 (chacha20.c) and the portable
 * ChaCha20 + Poly1305 loop of the AEAD (vg_chacha20_poly1305_portable,
 * also in chacha20.c).
 *
 * Lane j of word i is word i of block j, so the rounds are RFC 8439's on
 * four blocks at once. The compiler lowers the vectors to whatever the
 * target has (SSE2 on baseline x86-64, NEON on AArch64, scalar code
 * elsewhere); nothing here depends on a CPU feature at run time. Without
 * the extensions (or with VG_CHACHA20_NO_VECTOR_EXT) CHACHA20_VEC4 is not
 * defined and callers use the one-block code.
 *
 * The core takes an optional Poly1305 hook: with mac != NULL it also runs
 * 16 Poly1305 blocks (radix 2^64, poly1305_r64.h) over mac[0..255] inside
 * the round loop. The two computations share no data; written in one loop
 * body, the out-of-order core overlaps the scalar multiplications of
 * Poly1305 with the vector additions, XORs and shifts of ChaCha20, which a
 * pass of one and then a pass of the other cannot do.
 *
 * Constant time: additions, XORs, fixed shifts and shuffles on 32-bit
 * lanes; Poly1305 as in poly1305_r64.h. Branches and indices depend on the
 * loop counter only.
 */
#ifndef VG_AEAD_CHACHA20_VEC_H
#define VG_AEAD_CHACHA20_VEC_H

#include <string.h>

#include "aead.h"
#include "common.h"

#if defined(__GNUC__) && !defined(VG_CHACHA20_NO_VECTOR_EXT)
#define CHACHA20_VEC4 1

#if defined(__SIZEOF_INT128__)
#include "poly1305_r64.h"
#define CHACHA20_VEC4_MAC 1
#endif

typedef uint32_t vg_v4u32 __attribute__((vector_size(16)));
typedef uint16_t vg_v8u16 __attribute__((vector_size(16)));

#define VROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
/* Rotation by 16 = swapping the 16-bit halves of each word: one shuffle
 * of 16-bit lanes (two instructions on SSE2, PSHUFLW and PSHUFHW, instead
 * of shift, shift, or and a copy). VSHUF2 picks lanes i0..i3 of the
 * concatenation a || b (0-3 from a, 4-7 from b). */
#if defined(__clang__)
#define VROTL16(x)                                                                                 \
    ((vg_v4u32)__builtin_shufflevector((vg_v8u16)(x), (vg_v8u16)(x), 1, 0, 3, 2, 5, 4, 7, 6))
#define VSHUF2(a, b, i0, i1, i2, i3) __builtin_shufflevector(a, b, i0, i1, i2, i3)
#else
#define VROTL16(x) ((vg_v4u32)__builtin_shuffle((vg_v8u16)(x), (vg_v8u16){1, 0, 3, 2, 5, 4, 7, 6}))
#define VSHUF2(a, b, i0, i1, i2, i3) __builtin_shuffle(a, b, (vg_v4u32){i0, i1, i2, i3})
#endif
#define VQR(a, b, c, d)                                                                            \
    do {                                                                                           \
        a += b;                                                                                    \
        d = VROTL16(d ^ a);                                                                        \
        c += d;                                                                                    \
        b = VROTL(b ^ c, 12);                                                                      \
        a += b;                                                                                    \
        d = VROTL(d ^ a, 8);                                                                       \
        c += d;                                                                                    \
        b = VROTL(b ^ c, 7);                                                                       \
    } while (0)

/* The Poly1305 side of the hook: accumulator and key words (poly1305_r64.h,
 * whose bounds hold block by block: h2 <= 4 between blocks). */
typedef struct {
    uint64_t h[3];
    uint64_t r0, r1, sr1;
} vg_chacha20_mac;

/* out[0..255] = in[0..255] XOR blocks counter .. counter + 3 of the state
 * s (s[12] = counter; no wrap: the callers' precondition); with mac, also
 * mac_in[0..255] as 16 full Poly1305 blocks into m. mac_in is read before
 * out is written, so mac_in == in == out works. Long (about 90 lines): the
 * 16 words are 16 named variables so that the compiler keeps them in
 * registers. Always inlined, so that with mac == NULL (a constant at each
 * call) the Poly1305 code is not there at all. */
static inline __attribute__((always_inline)) void
chacha20_vec4_core(uint8_t *out, const uint8_t *in, const uint32_t s[16], vg_chacha20_mac *m,
                   const uint8_t *mac_in)
{
    const vg_v4u32 ctr = {s[12], s[12] + 1, s[12] + 2, s[12] + 3};
    vg_v4u32 x0 = {s[0], s[0], s[0], s[0]}, x1 = {s[1], s[1], s[1], s[1]},
             x2 = {s[2], s[2], s[2], s[2]}, x3 = {s[3], s[3], s[3], s[3]},
             x4 = {s[4], s[4], s[4], s[4]}, x5 = {s[5], s[5], s[5], s[5]},
             x6 = {s[6], s[6], s[6], s[6]}, x7 = {s[7], s[7], s[7], s[7]},
             x8 = {s[8], s[8], s[8], s[8]}, x9 = {s[9], s[9], s[9], s[9]},
             x10 = {s[10], s[10], s[10], s[10]}, x11 = {s[11], s[11], s[11], s[11]},
             x12 = ctr, x13 = {s[13], s[13], s[13], s[13]},
             x14 = {s[14], s[14], s[14], s[14]}, x15 = {s[15], s[15], s[15], s[15]};
#if defined(CHACHA20_VEC4_MAC)
    uint64_t h[3];
    if (m) {
        h[0] = m->h[0];
        h[1] = m->h[1];
        h[2] = m->h[2];
    }
#else
    (void)m;
    (void)mac_in;
#endif
    for (int i = 0; i < 10; i++) {
        VQR(x0, x4, x8, x12); /* column round */
        VQR(x1, x5, x9, x13);
        VQR(x2, x6, x10, x14);
        VQR(x3, x7, x11, x15);
#if defined(CHACHA20_VEC4_MAC)
        /* 16 Poly1305 blocks over the 10 double rounds, in order (the
         * accumulator is sequential): blocks 2i and 2i + 1 in rounds 0-5,
         * block i + 6 in rounds 6-9 (a fixed schedule). */
        if (m) {
            const uint8_t *b = mac_in + 16 * (i < 6 ? 2 * i : i + 6);
            r64_step(h, vg_load64_le(b), vg_load64_le(b + 8), 1, m->r0, m->r1, m->sr1);
            if (i < 6)
                r64_step(h, vg_load64_le(b + 16), vg_load64_le(b + 24), 1, m->r0, m->r1,
                         m->sr1);
        }
#endif
        VQR(x0, x5, x10, x15); /* diagonal round */
        VQR(x1, x6, x11, x12);
        VQR(x2, x7, x8, x13);
        VQR(x3, x4, x9, x14);
    }
#if defined(CHACHA20_VEC4_MAC)
    if (m) {
        m->h[0] = h[0];
        m->h[1] = h[1];
        m->h[2] = h[2];
    }
#endif
    /* Feed-forward (RFC 8439 2.3). */
    vg_v4u32 w[16] = {x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15};
    for (int i = 0; i < 16; i++) {
        vg_v4u32 add = {s[i], s[i], s[i], s[i]};
        w[i] += i == 12 ? ctr : add;
    }
    if (VG_LE_HOST) {
        /* Block j is lane j of each word: transpose each group of four
         * words (words 4q .. 4q + 3 of blocks 0..3) with two rounds of
         * shuffles, then XOR 16 bytes at a time. On a little-endian host
         * a vector's lanes in memory are the words' little-endian bytes. */
        for (int q = 0; q < 4; q++) {
            vg_v4u32 a = w[4 * q], b = w[4 * q + 1], c = w[4 * q + 2], d = w[4 * q + 3];
            vg_v4u32 t0 = VSHUF2(a, b, 0, 4, 1, 5), t1 = VSHUF2(c, d, 0, 4, 1, 5);
            vg_v4u32 t2 = VSHUF2(a, b, 2, 6, 3, 7), t3 = VSHUF2(c, d, 2, 6, 3, 7);
            vg_v4u32 blk[4] = {VSHUF2(t0, t1, 0, 1, 4, 5), VSHUF2(t0, t1, 2, 3, 6, 7),
                               VSHUF2(t2, t3, 0, 1, 4, 5), VSHUF2(t2, t3, 2, 3, 6, 7)};
            for (int j = 0; j < 4; j++) {
                vg_v4u32 v;
                memcpy(&v, in + 64 * j + 16 * q, 16);
                v ^= blk[j];
                memcpy(out + 64 * j + 16 * q, &v, 16);
            }
        }
    } else {
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 16; i++)
                vg_store32_le(out + 64 * j + 4 * i, vg_load32_le(in + 64 * j + 4 * i) ^ w[i][j]);
    }
    /* No vg_wipe(w) here: it would force the keystream out of registers
     * into memory once per four blocks (about 2% of ChaCha20 at 16 KiB). Like
     * the x86-64 kernels, what the compiler keeps in registers or spills
     * in this function is not wiped; the callers wipe their key state. */
}

#endif /* vector extensions */

#endif /* VG_AEAD_CHACHA20_VEC_H */
