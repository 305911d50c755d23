/*
 * ChaCha20, Poly1305 and the two AEADs built on them (RFC 8439,
 * draft-irtf-cfrg-xchacha-03): the area's internal interface.
 *
 * One backend interface per primitive, as DESIGN section 5 asks:
 *   struct vg_chacha20_impl  keystream blocks XORed into a buffer;
 *   struct vg_poly1305_impl  init / 16-byte blocks / finish over an
 *                            accumulator state.
 * Each implementation is reachable on its own through its `_get` function
 * (NULL when the build or the active CPU features lack it), so the tests run
 * every one over the same vectors; `_active` is the dispatch, called once
 * per public operation and passed down. The x86-64 variants (src/aead/x86_64)
 * sit behind the same structs; their `_get` is NULL unless the build has
 * them and vg_cpu_has reports the features they need.
 *
 * Nothing here is exported from the shared library.
 */
#ifndef VG_AEAD_AEAD_H
#define VG_AEAD_AEAD_H

#include <stddef.h>
#include <stdint.h>

/* ---- ChaCha20 (RFC 8439 2.3, 2.4) ------------------------------------- */

struct vg_chacha20_impl {
    const char *name; /* "portable", ... */
    /* out[i] = in[i] XOR keystream, over nblocks 64-byte blocks whose block
     * counters are counter, counter + 1, ..., counter + nblocks - 1.
     * Pre: nblocks >= 1; counter + nblocks - 1 <= 2^32 - 1 (the caller
     * never lets the 32-bit counter wrap: RFC 8439 2.3 defines no counter
     * beyond 32 bits); out == in (in place) or no overlap.
     * key: RFC 8439 2.3 state words 4-11; nonce: words 13-15.
     * Specification: RFC 8439, sections 2.3 (block function), 2.4. */
    void (*blocks)(uint8_t *out, const uint8_t *in, size_t nblocks, const uint32_t key[8],
                   const uint32_t nonce[3], uint32_t counter);
};

const struct vg_chacha20_impl *vg_chacha20_portable_get(void); /* never NULL */
/* x86-64 (src/aead/x86_64/), NULL unless built and the CPU features are
 * active:
 *  avx2_rows: one to four blocks with the state rows as xmm/ymm vectors
 *             (diagonal rounds by VPSHUFD lane rotations), AVX2;
 *  avx2:      8 blocks in parallel, one 32-bit lane per block, AVX2; fewer
 *             than 8 remaining blocks go through the row code;
 *  avx512:    16 blocks per zmm lane set (VPROLD), then 8 in ymm and the
 *             row code with VPROLD for the rest; AVX-512F and AVX-512VL. */
const struct vg_chacha20_impl *vg_chacha20_avx2_rows_get(void);
const struct vg_chacha20_impl *vg_chacha20_avx2_get(void);
const struct vg_chacha20_impl *vg_chacha20_avx512_get(void);
const struct vg_chacha20_impl *vg_chacha20_active(void); /* the dispatch */

/* Little-endian words of a 32-byte key / 12-byte nonce (RFC 8439 2.3). */
void vg_chacha20_load_key(uint32_t k[8], const uint8_t key[32]);
void vg_chacha20_load_nonce(uint32_t n[3], const uint8_t nonce[12]);

/* ChaCha20 encryption (RFC 8439 2.4.1) of len bytes with impl: whole blocks
 * through impl->blocks, a final partial block through a 64-byte buffer
 * (wiped). Pre: len <= (2^32 - counter) * 64, so that no block counter
 * exceeds 2^32 - 1; out == in or no overlap; out and in may be NULL only
 * when len == 0. */
void vg_chacha20_xor(const struct vg_chacha20_impl *impl, uint8_t *out, const uint8_t *in,
                     size_t len, const uint32_t key[8], const uint32_t nonce[3],
                     uint32_t counter);

/* 1 when len bytes from block `counter` on stay within the 32-bit counter
 * (RFC 8439 2.4: blocks counter .. counter + ceil(len / 64) - 1 all
 * <= 2^32 - 1), 0 otherwise. */
int vg_chacha20_len_ok(size_t len, uint32_t counter);

/* HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2): the ChaCha20 state
 * with nonce16 in words 12-15, 20 rounds, no feed-forward; out = words 0-3
 * || words 12-15, little-endian. Portable only: one block per message. */
void vg_hchacha20(uint8_t out[32], const uint8_t key[32], const uint8_t nonce16[16]);

/* ---- Poly1305 (RFC 8439 2.5) -------------------------------------------- */

/* The accumulator, r and s in each backend's own radix. A union rather than
 * opaque bytes, so that each backend reads its own member with no aliasing
 * questions; `room` reserves space for the precomputed powers of r that a
 * vectorised backend will keep. */
typedef union {
    struct {
        uint64_t h[3]; /* accumulator, radix 2^44 (44, 44, 42 bits) */
        uint64_t r[3]; /* clamped r, radix 2^44 */
        uint64_t s[2]; /* s, little-endian 64-bit halves */
    } r44;
    struct {
        uint32_t h[5]; /* accumulator, radix 2^26 */
        uint32_t r[5]; /* clamped r, radix 2^26 */
        uint32_t s[4]; /* s, little-endian 32-bit words */
    } r26;
    /* x86-64 MULX (poly1305_mulx.c), and the vectorised variants whose
     * short inputs run the same code: AVX-512 IFMA (poly1305_ifma.c) keeps
     * r^8 .. r^1 in radix 2^44 for its 8-lane loop, AVX2
     * (poly1305_avx2.c) r^4 .. r^1 in radix 2^26 for its 4 lanes, made on
     * first use (ready). */
    struct {
        uint64_t h[3]; /* accumulator, radix 2^64, h[2] <= 4 */
        uint64_t r[2]; /* clamped r */
        uint64_t s[2]; /* s */
        union {
            uint64_t pw[3][8];  /* IFMA: limb x (radix 2^44) of r^(8 - j) */
            uint64_t p26[5][4]; /* AVX2: limb x (radix 2^26), see there */
        };
        uint64_t ready; /* the powers are there (a public flag) */
    } r64;
    uint64_t room[48];
} vg_poly1305_state;

struct vg_poly1305_impl {
    const char *name; /* "r64", "r44" (64-bit limbs, __int128 products), "r26" */
    /* h = 0; r = clamp(key[0..15]) (RFC 8439 2.5); s = key[16..31]. */
    void (*init)(vg_poly1305_state *st, const uint8_t key[32]);
    /* For each 16-byte block b of in: h = (h + b + hibit * 2^128) * r mod p,
     * p = 2^130 - 5, with h kept only partially reduced (each backend states
     * its limb bounds). hibit is 1 for a full message block, 0 for a final
     * block the caller already padded with 0x01 and zeros (RFC 8439 2.5).
     * Pre: nblocks >= 1; hibit in {0, 1}. */
    void (*blocks)(vg_poly1305_state *st, const uint8_t *in, size_t nblocks, uint32_t hibit);
    /* tag = ((h mod p) + s) mod 2^128, little-endian (RFC 8439 2.5). The
     * caller wipes st afterwards. */
    void (*finish)(vg_poly1305_state *st, uint8_t tag[16]);
};

const struct vg_poly1305_impl *vg_poly1305_r64_get(void); /* NULL without __int128 */
const struct vg_poly1305_impl *vg_poly1305_r44_get(void); /* NULL without __int128 */
const struct vg_poly1305_impl *vg_poly1305_r26_get(void); /* never NULL */
/* x86-64: "mulx", radix 2^64 with MULX (BMI2); "avx512ifma", the same
 * scalar code for short inputs and an 8-lane radix-2^44 IFMA loop for runs
 * of 16 blocks or more (AVX-512F, VL, IFMA and BMI2); "avx2", the same
 * scalar code and a 4-lane radix-2^26 VPMULUDQ loop for runs of 16 blocks
 * or more (AVX2 and BMI2). NULL unless built and the CPU features are
 * active. */
const struct vg_poly1305_impl *vg_poly1305_mulx_get(void);
const struct vg_poly1305_impl *vg_poly1305_ifma_get(void);
const struct vg_poly1305_impl *vg_poly1305_avx2_get(void);
const struct vg_poly1305_impl *vg_poly1305_active(void);  /* the dispatch */

/* Streaming Poly1305 over any impl: the message in pieces of any length,
 * buffered to 16-byte blocks. */
typedef struct {
    vg_poly1305_state st;
    uint8_t buf[16];
    size_t buflen; /* < 16 between calls */
    const struct vg_poly1305_impl *impl;
} vg_poly1305_ctx;

void vg_poly1305_init(vg_poly1305_ctx *ctx, const struct vg_poly1305_impl *impl,
                      const uint8_t key[32]);
/* in may be NULL when len == 0. */
void vg_poly1305_update(vg_poly1305_ctx *ctx, const uint8_t *in, size_t len);
/* Zero bytes up to the next multiple of 16 of the total so far (the pad16
 * of RFC 8439 2.8): a pending partial block becomes a full block. */
void vg_poly1305_pad16(vg_poly1305_ctx *ctx);
/* The tag of everything absorbed (a final partial block padded with 0x01 and
 * zeros, RFC 8439 2.5); wipes ctx. */
void vg_poly1305_final(vg_poly1305_ctx *ctx, uint8_t tag[16]);

/* The portable ChaCha20 with the portable Poly1305 r64 in one loop, for the
 * AEAD (chacha20.c): for the first floor(len / 256) * 256 bytes, out = in
 * XOR the keystream from block `counter` on (as vg_chacha20_xor with the
 * portable impl) and the ciphertext of those bytes (out when sealing, in
 * when opening) absorbed as full blocks into st, an r64 state (as
 * vg_poly1305_r64_get()->blocks). Returns the bytes done: 0 where the build
 * lacks the vector extensions or __int128 (the caller then does it all the
 * usual way). Pre: as vg_chacha20_xor; st initialised by r64's or mulx's
 * init (the same radix-2^64 state, poly1305_r64.h);
 * out == in or no overlap. */
size_t vg_chacha20_poly1305_portable(uint8_t *out, const uint8_t *in, size_t len,
                                     const uint32_t key[8], const uint32_t nonce[3],
                                     uint32_t counter, vg_poly1305_state *st, int decrypting);

/* ---- the AEADs (RFC 8439 2.8, draft-irtf-cfrg-xchacha-03 2.3) ---------- */

/* A fused one-shot AEAD kernel: ChaCha20 from block 0 under (k, n) and
 * Poly1305 in one schedule. out = in XOR the keystream from block 1 on
 * (encrypting, decrypting = 0, or decrypting), and tag = the RFC 8439 2.8
 * tag over ad and the ciphertext (out when encrypting, in when
 * decrypting). open's caller compares the tag and zeroes out on a
 * mismatch. Pre: 192 < len <= VG_AEAD_FUSED_MAX; ad may be NULL when
 * ad_len == 0; out == in or no overlap. */
#define VG_AEAD_FUSED_MAX 1216
typedef void (*vg_aead_fused_fn)(uint8_t *out, const uint8_t *in, size_t len, const uint8_t *ad,
                                 size_t ad_len, const uint32_t k[8], const uint32_t n[3],
                                 int decrypting, uint8_t tag[16]);
/* x86-64: all the keystream in one 16-block zmm pass with up to 4 more
 * blocks in ymm rows, then the 8-lane IFMA Poly1305
 * (src/aead/x86_64/aead_avx512.c), for the pair chacha "avx512" with poly1305
 * "avx512ifma"; NULL unless built and AVX-512F, VL, BW, IFMA and BMI2 are
 * active. */
vg_aead_fused_fn vg_aead_avx512_get(void);

/* RFC 8439 2.8: P_MAX = (2^32 - 1) * 64 = 2^38 - 64 bytes. */
#define VG_AEAD_MAXLEN ((uint64_t)0x3fffffffc0ULL)

/* Incremental AEAD, for callers that hold the message in pieces (e.g. a
 * file sealed or opened chunk by chunk). The bytes are exactly those of the
 * one-shot functions over the concatenated pieces. Every piece but the
 * last must be a whole number of 64-byte ChaCha20 blocks. decrypt hands
 * out plaintext before the tag is checked: a caller must not release it
 * until vg_aead_stream_verify says VG_OK (the one-shot open zeroes it).
 * Pointers are not checked here; in / out may be NULL only for len == 0,
 * and out == in or no overlap. */
typedef struct {
    uint32_t k[8], n[3]; /* ChaCha20 key and nonce words (secret: wiped) */
    uint32_t counter;    /* next block counter */
    uint64_t len;        /* message bytes so far, <= VG_AEAD_MAXLEN */
    uint64_t ad_len;
    int closed;          /* a piece that was not whole blocks went through */
    vg_poly1305_ctx mac;
    const struct vg_chacha20_impl *chacha;
} vg_aead_stream;

/* Key, nonce (12 bytes, or 24 with extended = 1) and the whole AD. */
void vg_aead_stream_init(vg_aead_stream *s, const struct vg_chacha20_impl *chacha,
                         const struct vg_poly1305_impl *poly, int extended,
                         const uint8_t *nonce, const uint8_t key[32], const uint8_t *ad,
                         size_t ad_len);
/* VG_OK; VG_ERR_INPUT (nothing written, s unchanged) for a piece after one
 * that was not a multiple of 64 bytes, or when the total would pass
 * VG_AEAD_MAXLEN. */
int vg_aead_stream_encrypt(vg_aead_stream *s, uint8_t *ct, const uint8_t *pt, size_t len);
int vg_aead_stream_decrypt(vg_aead_stream *s, uint8_t *pt, const uint8_t *ct, size_t len);
/* The tag of everything so far (seal); wipes s. */
void vg_aead_stream_tag(vg_aead_stream *s, uint8_t tag[16]);
/* Compare with the received tag in constant time: VG_OK or VG_ERR_VERIFY;
 * wipes s. */
int vg_aead_stream_verify(vg_aead_stream *s, const uint8_t tag[16]);

/* The public seal / open with the implementations given (the public
 * functions pass vg_chacha20_active() and vg_poly1305_active()); the tests
 * call these with every implementation. extended = 0: ChaCha20-Poly1305,
 * nonce of 12 bytes; extended = 1: XChaCha20-Poly1305, nonce of 24 bytes.
 * Arguments, results and error rules exactly as the public functions
 * (include/vgcrypto.h). */
int vg_aead_seal_impl(const struct vg_chacha20_impl *chacha, const struct vg_poly1305_impl *poly,
                      int extended, uint8_t *ct, uint8_t tag[16], const uint8_t *pt, size_t len,
                      const uint8_t *ad, size_t ad_len, const uint8_t *nonce,
                      const uint8_t key[32]);
int vg_aead_open_impl(const struct vg_chacha20_impl *chacha, const struct vg_poly1305_impl *poly,
                      int extended, uint8_t *pt, const uint8_t *ct, size_t len,
                      const uint8_t tag[16], const uint8_t *ad, size_t ad_len,
                      const uint8_t *nonce, const uint8_t key[32]);

#endif /* VG_AEAD_AEAD_H */
