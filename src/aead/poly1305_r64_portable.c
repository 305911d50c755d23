/*
 * Poly1305 (RFC 8439 2.5), portable, radix 2^64: the arithmetic and its
 * bounds are in poly1305_r64.h, shared with the x86-64 MULX and vector
 * variants (which compile the same code with -mbmi2). Here it is compiled
 * for the baseline target, so the four wide products of a block are
 * ordinary 64x64->128 multiplications (MUL on x86-64, MUL/UMULH on
 * AArch64). Two limbs and a small third word make this the portable
 * variant with the fewest multiplications per block (4 wide + 2 narrow,
 * against 9 in radix 2^44 and 25 in radix 2^26). Built only where the
 * compiler has __int128; elsewhere vg_poly1305_r64_get returns NULL.
 * Specification: RFC 8439, section 2.5.
 */
#include "aead.h"
#include "common.h"

#if defined(__SIZEOF_INT128__)

#include "poly1305_r64.h"

static void poly1305_init_r64(vg_poly1305_state *st, const uint8_t key[32])
{
    r64_init(st, key);
}

static void poly1305_blocks_r64(vg_poly1305_state *st, const uint8_t *in, size_t nblocks,
                                uint32_t hibit)
{
    r64_blocks(st, in, nblocks, hibit);
}

static void poly1305_finish_r64(vg_poly1305_state *st, uint8_t tag[16])
{
    r64_finish(st, tag);
}

static const struct vg_poly1305_impl g_poly1305_r64 = {
    .name = "r64",
    .init = poly1305_init_r64,
    .blocks = poly1305_blocks_r64,
    .finish = poly1305_finish_r64,
};

const struct vg_poly1305_impl *vg_poly1305_r64_get(void) { return &g_poly1305_r64; }

#else

const struct vg_poly1305_impl *vg_poly1305_r64_get(void) { return NULL; }

#endif
