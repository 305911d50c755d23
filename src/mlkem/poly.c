/*
 * ML-KEM (FIPS 203): portable polynomial arithmetic, shared by the three
 * parameter sets, and the portable backend (its NTT, base multiplication
 * and reduction are the lattice module's portable ones, src/lattice).
 * Bounds reasoning sits beside each step; the common conventions are in
 * poly.h.
 */
#include "poly.h"

#include "common.h"
#include "mlkem.h"
#include "../hash/keccak4x.h"

/* ---- portable backend ------------------------------------------------- */

/* Post: 0 <= r[i] < q. Public data only (variable time by design).
 * Specification: FIPS 203, Algorithm 7, lines 5-13. */
static unsigned vg_mlkem_rej_uniform_portable(int16_t *r, unsigned len, const uint8_t *buf,
                                              size_t buflen)
{
    return vg_mlkem_rej_uniform_tail(r, len, buf, buflen, 0, 0);
}

/* The portable helpers (defined below, referenced by the backend table). */
static void vg_mlkem_poly_add_portable(vg_mlkem_poly *r, const vg_mlkem_poly *a, const vg_mlkem_poly *b);
static void vg_mlkem_poly_sub_portable(vg_mlkem_poly *r, const vg_mlkem_poly *a, const vg_mlkem_poly *b);
static void vg_mlkem_poly_tomont_portable(vg_mlkem_poly *r);
static void vg_mlkem_poly_tobytes_portable(uint8_t r[VG_MLKEM_POLYBYTES], const vg_mlkem_poly *a);
static void vg_mlkem_poly_frombytes_portable(vg_mlkem_poly *r, const uint8_t a[VG_MLKEM_POLYBYTES]);
static void vg_mlkem_poly_frommsg_portable(vg_mlkem_poly *r, const uint8_t msg[VG_MLKEM_SYMBYTES]);
static void vg_mlkem_poly_tomsg_portable(uint8_t msg[VG_MLKEM_SYMBYTES], const vg_mlkem_poly *a);
static void vg_mlkem_poly_compress_portable(uint8_t *r, const vg_mlkem_poly *a, unsigned d);
static void vg_mlkem_poly_decompress_portable(vg_mlkem_poly *r, const uint8_t *a, unsigned d);
static void vg_mlkem_cbd_portable(vg_mlkem_poly *r, const uint8_t *buf, unsigned eta);
static void vg_mlkem_tomont_add_reduce_portable(vg_mlkem_poly *r, const vg_mlkem_poly *e);

static const struct vg_mlkem_backend vg_mlkem_portable = {
    .name = "portable",
    .ntt = vg_lattice_ntt3329_ntt_portable,
    .invntt_tomont = vg_lattice_ntt3329_invntt_portable,
    .basemul_acc = vg_lattice_ntt3329_basemul_acc_portable,
    .rej_uniform = vg_mlkem_rej_uniform_portable,
    .poly_add = vg_mlkem_poly_add_portable,
    .poly_sub = vg_mlkem_poly_sub_portable,
    .poly_reduce = vg_lattice_ntt3329_reduce_portable,
    .poly_tomont = vg_mlkem_poly_tomont_portable,
    .tobytes = vg_mlkem_poly_tobytes_portable,
    .frombytes = vg_mlkem_poly_frombytes_portable,
    .frommsg = vg_mlkem_poly_frommsg_portable,
    .tomsg = vg_mlkem_poly_tomsg_portable,
    .compress = vg_mlkem_poly_compress_portable,
    .decompress = vg_mlkem_poly_decompress_portable,
    .cbd = vg_mlkem_cbd_portable,
    .tomont_add_reduce = vg_mlkem_tomont_add_reduce_portable,
};

const struct vg_mlkem_backend *vg_mlkem_portable_get(void) { return &vg_mlkem_portable; }

#ifndef VG_X86_64
/* No x86-64 code in this build (VG_PORTABLE or another CPU). */
const struct vg_mlkem_backend *vg_mlkem_avx2_get(void) { return NULL; }
const struct vg_mlkem_backend *vg_mlkem_avx2_avx512_get(void) { return NULL; }
#endif

/* The one dispatch point for ML-KEM (poly.h): the fastest variant built and
 * active (they return the same bytes). The _get functions read the active
 * feature mask, so this follows VG_CPU_FEATURES and vg_cpu_force. */
const struct vg_mlkem_backend *vg_mlkem_active(void)
{
    const struct vg_mlkem_backend *be = vg_mlkem_avx2_avx512_get();
    if (!be)
        be = vg_mlkem_avx2_get();
    return be ? be : &vg_mlkem_portable;
}

const char *vg_mlkem_implementation(void) { return vg_mlkem_active()->name; }

/* ---- coefficientwise helpers ------------------------------------------- */

static void vg_mlkem_poly_add_portable(vg_mlkem_poly *r, const vg_mlkem_poly *a, const vg_mlkem_poly *b)
{
    for (unsigned i = 0; i < VG_MLKEM_N; i++)
        r->coeffs[i] = (int16_t)(a->coeffs[i] + b->coeffs[i]);
}

static void vg_mlkem_poly_sub_portable(vg_mlkem_poly *r, const vg_mlkem_poly *a, const vg_mlkem_poly *b)
{
    for (unsigned i = 0; i < VG_MLKEM_N; i++)
        r->coeffs[i] = (int16_t)(a->coeffs[i] - b->coeffs[i]);
}

static void vg_mlkem_poly_tomont_portable(vg_mlkem_poly *r)
{
    /* 1353 = R^2 mod q; |a * 1353| < 2^15 * 1353 < q 2^15. */
    for (unsigned i = 0; i < VG_MLKEM_N; i++)
        r->coeffs[i] = vg_lattice_q3329_fqmul(r->coeffs[i], 1353);
}

/* tomont, add and the lattice reduce composed (backend contract in poly.h):
 * the reference the fused AVX2 version is tested against. */
static void vg_mlkem_tomont_add_reduce_portable(vg_mlkem_poly *r, const vg_mlkem_poly *e)
{
    vg_mlkem_poly_tomont_portable(r);
    vg_mlkem_poly_add_portable(r, r, e);
    vg_lattice_ntt3329_reduce_portable(r);
}

/* ---- byte encodings ---------------------------------------------------- */

static void vg_mlkem_poly_tobytes_portable(uint8_t r[VG_MLKEM_POLYBYTES], const vg_mlkem_poly *a)
{
    for (unsigned i = 0; i < VG_MLKEM_N / 2; i++) {
        uint16_t t0 = (uint16_t)vg_mlkem_caddq(a->coeffs[2 * i]);
        uint16_t t1 = (uint16_t)vg_mlkem_caddq(a->coeffs[2 * i + 1]);
        r[3 * i] = (uint8_t)t0;
        r[3 * i + 1] = (uint8_t)((t0 >> 8) | (t1 << 4));
        r[3 * i + 2] = (uint8_t)(t1 >> 4);
    }
}

static void vg_mlkem_poly_frombytes_portable(vg_mlkem_poly *r, const uint8_t a[VG_MLKEM_POLYBYTES])
{
    for (unsigned i = 0; i < VG_MLKEM_N / 2; i++) {
        r->coeffs[2 * i] = (int16_t)((a[3 * i] | (a[3 * i + 1] << 8)) & 0xfff);
        r->coeffs[2 * i + 1] = (int16_t)((a[3 * i + 1] >> 4) | (a[3 * i + 2] << 4));
    }
}

static void vg_mlkem_poly_frommsg_portable(vg_mlkem_poly *r, const uint8_t msg[VG_MLKEM_SYMBYTES])
{
    for (unsigned i = 0; i < VG_MLKEM_N; i++) {
        /* mask is 0 or all-ones from arithmetic on the bit, no branch;
         * Decompress_1(1) = round(q/2) = 1665. */
        uint32_t bit = (uint32_t)(msg[i / 8] >> (i % 8)) & 1u;
        uint32_t mask = vg_barrier_u32(0u - bit);
        r->coeffs[i] = (int16_t)(mask & 1665u);
    }
}

uint16_t vg_mlkem_compress_coeff(uint16_t x, unsigned d)
{
    /* round(2^d x / q) = floor((2^d x + 1664) / q): q is odd, so 2^d x / q is
     * never exactly half-way and adding floor(q/2) rounds correctly. The
     * numerator n < 2^11 q + q < 2^23; division by q is a multiplication by
     * M = ceil(2^48 / q) = 84552411148 and a shift: with e = M q - 2^48 < q,
     * n M / 2^48 = n/q + n e / (q 2^48) and n e < 2^23 q < 2^48 / q, so the
     * error never reaches the next integer (also checked for every x and d
     * in test_mlkem). n M < 2^23 2^37 = 2^60: no overflow. */
    uint64_t n = ((uint64_t)x << d) + 1664u;
    uint64_t quot = (n * 84552411148ull) >> 48;
    return (uint16_t)(quot & ((1u << d) - 1u));
}

static void vg_mlkem_poly_tomsg_portable(uint8_t msg[VG_MLKEM_SYMBYTES], const vg_mlkem_poly *a)
{
    for (unsigned i = 0; i < VG_MLKEM_SYMBYTES; i++) {
        uint8_t byte = 0;
        for (unsigned j = 0; j < 8; j++) {
            uint16_t c = vg_mlkem_compress_coeff((uint16_t)vg_mlkem_caddq(a->coeffs[8 * i + j]), 1);
            byte = (uint8_t)(byte | (c << j));
        }
        msg[i] = byte;
    }
}

/* ByteEncode_d(Compress_d(a)) with d known at compile time after inlining:
 * groups of 8 coefficients make exactly d bytes, gathered in a 64-bit
 * buffer that never holds more than 7 + 11 bits. The loop structure depends
 * only on d, never on coefficient values. */
static inline __attribute__((always_inline)) void vg_mlkem_pack_d(uint8_t *r,
                                                                    const vg_mlkem_poly *a,
                                                                    unsigned d)
{
    for (unsigned g = 0; g < VG_MLKEM_N / 8; g++) {
        uint64_t buf = 0;
        unsigned bits = 0;
        uint8_t *out = r + g * d;
        for (unsigned j = 0; j < 8; j++) {
            uint16_t c = vg_mlkem_compress_coeff((uint16_t)vg_mlkem_caddq(a->coeffs[8 * g + j]), d);
            buf |= (uint64_t)c << bits;
            bits += d;
            while (bits >= 8) {
                *out++ = (uint8_t)buf;
                buf >>= 8;
                bits -= 8;
            }
        }
    }
}

static inline __attribute__((always_inline)) void vg_mlkem_unpack_d(vg_mlkem_poly *r,
                                                                      const uint8_t *a,
                                                                      unsigned d)
{
    uint32_t mask = (1u << d) - 1u;
    for (unsigned g = 0; g < VG_MLKEM_N / 8; g++) {
        uint64_t buf = 0;
        unsigned bits = 0;
        const uint8_t *in = a + g * d;
        for (unsigned j = 0; j < 8; j++) {
            while (bits < d) {
                buf |= (uint64_t)*in++ << bits;
                bits += 8;
            }
            uint32_t y = (uint32_t)buf & mask;
            buf >>= d;
            bits -= d;
            /* Decompress_d(y) = round(q y / 2^d) = (q y + 2^(d-1)) >> d < q. */
            r->coeffs[8 * g + j] = (int16_t)((y * VG_MLKEM_Q + (1u << (d - 1))) >> d);
        }
    }
}

static void vg_mlkem_poly_compress_portable(uint8_t *r, const vg_mlkem_poly *a, unsigned d)
{
    /* One specialised copy per parameter d (constant after inlining). */
    switch (d) {
    case 4: vg_mlkem_pack_d(r, a, 4); break;
    case 5: vg_mlkem_pack_d(r, a, 5); break;
    case 10: vg_mlkem_pack_d(r, a, 10); break;
    default: vg_mlkem_pack_d(r, a, 11); break;
    }
}

static void vg_mlkem_poly_decompress_portable(vg_mlkem_poly *r, const uint8_t *a, unsigned d)
{
    switch (d) {
    case 4: vg_mlkem_unpack_d(r, a, 4); break;
    case 5: vg_mlkem_unpack_d(r, a, 5); break;
    case 10: vg_mlkem_unpack_d(r, a, 10); break;
    default: vg_mlkem_unpack_d(r, a, 11); break;
    }
}

/* ---- sampling ---------------------------------------------------------- */

/* SamplePolyCBD_eta on the 64 eta bytes of buf (FIPS 203 Algorithm 8).
 * Pre: eta in {2, 3}. Post: |r| <= eta. Constant time in buf. */
static void vg_mlkem_cbd_portable(vg_mlkem_poly *r, const uint8_t *buf, unsigned eta)
{
    /* Coefficient i uses bits 2 i eta .. 2 i eta + 2 eta - 1 of buf: the
     * first eta bits sum to x, the next eta to y, and f_i = x - y. Summing
     * bits in parallel within a word keeps it branch-free. */
    if (eta == 2) {
        for (unsigned i = 0; i < VG_MLKEM_N / 8; i++) {
            uint32_t t = vg_load32_le(buf + 4 * i);
            uint32_t s = (t & 0x55555555u) + ((t >> 1) & 0x55555555u); /* 2-bit sums */
            for (unsigned j = 0; j < 8; j++) {
                int16_t x = (int16_t)((s >> (4 * j)) & 3u);
                int16_t y = (int16_t)((s >> (4 * j + 2)) & 3u);
                r->coeffs[8 * i + j] = (int16_t)(x - y);
            }
        }
    } else {
        for (unsigned i = 0; i < VG_MLKEM_N / 4; i++) {
            uint32_t t = (uint32_t)buf[3 * i] | ((uint32_t)buf[3 * i + 1] << 8) |
                         ((uint32_t)buf[3 * i + 2] << 16);
            uint32_t s = (t & 0x249249u) + ((t >> 1) & 0x249249u) + ((t >> 2) & 0x249249u);
            for (unsigned j = 0; j < 4; j++) {
                int16_t x = (int16_t)((s >> (6 * j)) & 7u);
                int16_t y = (int16_t)((s >> (6 * j + 3)) & 7u);
                r->coeffs[4 * i + j] = (int16_t)(x - y);
            }
        }
    }
}

/* Pre: eta in {2, 3}. Post: |r| <= eta. */
void vg_mlkem_poly_getnoise(const struct vg_mlkem_backend *be, vg_mlkem_poly *r,
                            const uint8_t seed[VG_MLKEM_SYMBYTES], uint8_t nonce, unsigned eta)
{
    uint8_t buf[64 * 3];
    vg_keccak_ctx ctx;
    /* PRF_eta(s, b) = SHAKE256(s || b, 8 * 64 * eta) bits (FIPS 203 (4.3)). */
    vg_shake256_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, seed, VG_MLKEM_SYMBYTES);
    vg_keccak_absorb(&ctx, &nonce, 1);
    vg_keccak_finalize(&ctx);
    vg_keccak_squeeze(&ctx, buf, 64 * eta);
    be->cbd(r, buf, eta);
    vg_wipe(buf, sizeof buf);
    vg_wipe(&ctx, sizeof ctx);
}

/* Pre: eta in {2, 3}; r[0..3] distinct. Post: |r[l]| <= eta. */
void vg_mlkem_poly_getnoise_x4(const struct vg_mlkem_backend *be, vg_mlkem_poly *const r[4],
                               const uint8_t seed[VG_MLKEM_SYMBYTES], const uint8_t nonce[4],
                               unsigned eta)
{
    /* 64 eta <= 192 bytes: two SHAKE256 blocks (272 bytes) cover eta = 3,
     * one (136) covers eta = 2. */
    uint8_t in[4][VG_MLKEM_SYMBYTES + 1];
    uint8_t buf[4][2 * VG_SHAKE256_RATE];
    vg_keccak4x_ctx ctx;
    for (unsigned l = 0; l < 4; l++) {
        memcpy(in[l], seed, VG_MLKEM_SYMBYTES);
        in[l][VG_MLKEM_SYMBYTES] = nonce[l];
    }
    vg_shake256x4_absorb_once(&ctx, in[0], in[1], in[2], in[3], sizeof in[0]);
    vg_shake256x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], eta == 2 ? 1 : 2, &ctx);
    for (unsigned l = 0; l < 4; l++)
        be->cbd(r[l], buf[l], eta);
    vg_wipe(in, sizeof in);
    vg_wipe(buf, sizeof buf);
    vg_wipe(&ctx, sizeof ctx);
}

void vg_mlkem_poly_getnoise_many(const struct vg_mlkem_backend *be, vg_mlkem_poly *const *r,
                                 const uint8_t *nonce, unsigned n,
                                 const uint8_t seed[VG_MLKEM_SYMBYTES], unsigned eta)
{
    vg_mlkem_poly scratch[2];
    unsigned l = 0;
    /* n is public (a function of the parameter set), so these branches are. */
    while (n - l >= 2) {
        unsigned m = n - l < 4 ? n - l : 4; /* real slots in this batch */
        vg_mlkem_poly *rr[4] = {&scratch[0], &scratch[1], &scratch[0], &scratch[1]};
        uint8_t nn[4] = {0, 0, 0, 0};
        for (unsigned t = 0; t < m; t++) {
            rr[t] = r[l + t];
            nn[t] = nonce[l + t];
        }
        /* m >= 2, so slots 2 and 3 never both alias one scratch when used:
         * with m == 2 they are scratch[0] and scratch[1]. */
        vg_mlkem_poly_getnoise_x4(be, rr, seed, nn, eta);
        l += m;
    }
    if (l < n)
        vg_mlkem_poly_getnoise(be, r[l], seed, nonce[l], eta);
    vg_wipe(scratch, sizeof scratch);
}

void vg_mlkem_poly_uniform(const struct vg_mlkem_backend *be, vg_mlkem_poly *r,
                           const uint8_t rho[VG_MLKEM_SYMBYTES], uint8_t j, uint8_t i)
{
    /* 3 SHAKE128 blocks give 336 candidates, enough for 256 coefficients
     * except with small probability; then one block at a time. */
    uint8_t buf[3 * 168];
    uint8_t idx[2] = {j, i};
    vg_keccak_ctx ctx;
    vg_shake128_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, rho, VG_MLKEM_SYMBYTES);
    vg_keccak_absorb(&ctx, idx, 2);
    vg_keccak_finalize(&ctx);
    vg_keccak_squeeze(&ctx, buf, sizeof buf);
    unsigned ctr = be->rej_uniform(r->coeffs, VG_MLKEM_N, buf, sizeof buf);
    while (ctr < VG_MLKEM_N) {
        vg_keccak_squeeze(&ctx, buf, 168);
        ctr += be->rej_uniform(r->coeffs + ctr, VG_MLKEM_N - ctr, buf, 168);
    }
}

/* Post: 0 <= r[l] < q. Public data (rho): the loop count may vary. */
void vg_mlkem_poly_uniform_x4(const struct vg_mlkem_backend *be, vg_mlkem_poly *const r[4],
                              const uint8_t rho[VG_MLKEM_SYMBYTES], const uint8_t ji[4][2])
{
    uint8_t in[4][VG_MLKEM_SYMBYTES + 2];
    uint8_t buf[4][3 * VG_SHAKE128_RATE];
    unsigned ctr[4];
    vg_keccak4x_ctx ctx;
    for (unsigned l = 0; l < 4; l++) {
        memcpy(in[l], rho, VG_MLKEM_SYMBYTES);
        in[l][VG_MLKEM_SYMBYTES] = ji[l][0];
        in[l][VG_MLKEM_SYMBYTES + 1] = ji[l][1];
    }
    vg_shake128x4_absorb_once(&ctx, in[0], in[1], in[2], in[3], sizeof in[0]);
    /* Squeeze (FIPS 202: permute, then output the rate) with the four-way
     * Keccak's transposing extract rather than word by word. */
    for (unsigned b = 0; b < 3; b++) {
        uint8_t *const dst[4] = {buf[0] + b * VG_SHAKE128_RATE, buf[1] + b * VG_SHAKE128_RATE,
                                 buf[2] + b * VG_SHAKE128_RATE, buf[3] + b * VG_SHAKE128_RATE};
        ctx.impl->permute(ctx.st);
        ctx.impl->extract(dst, ctx.st, VG_SHAKE128_RATE / 8);
    }
    for (unsigned l = 0; l < 4; l++)
        ctr[l] = be->rej_uniform(r[l]->coeffs, VG_MLKEM_N, buf[l], sizeof buf[0]);
    while (ctr[0] < VG_MLKEM_N || ctr[1] < VG_MLKEM_N || ctr[2] < VG_MLKEM_N ||
           ctr[3] < VG_MLKEM_N) {
        vg_shake128x4_squeezeblocks(buf[0], buf[1], buf[2], buf[3], 1, &ctx);
        for (unsigned l = 0; l < 4; l++)
            ctr[l] += be->rej_uniform(r[l]->coeffs + ctr[l], VG_MLKEM_N - ctr[l], buf[l],
                                      VG_SHAKE128_RATE);
    }
}

/* ---- four-lane XOF scheduler (contract in poly.h) ----------------------- */

/* One lane's progress on its job. */
struct vg_mlkem_lane {
    const struct vg_mlkem_job *job; /* NULL: idle */
    unsigned blocks;                /* blocks squeezed (UNIFORM, NOISE) */
    unsigned ctr;                   /* UNIFORM: coefficients accepted */
    size_t off;                     /* HASH: message bytes absorbed */
    int final_in;                   /* HASH: the padded last block is absorbed */
};

/* XOR len bytes (len <= 200 - start, start % 8 == 0) into lane l from byte
 * `start` of the state on. */
static void vg_mlkem_lane_xor(uint64_t st[100], unsigned l, unsigned start, const uint8_t *in,
                              size_t len)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8)
        st[4 * ((start + i) / 8) + l] ^= vg_load64_le(in + i);
    for (; i < len; i++)
        st[4 * ((start + i) / 8) + l] ^= (uint64_t)in[i] << (8 * ((start + i) % 8));
}

/* XOR one byte at position pos of lane l (the padding bytes). */
static void vg_mlkem_lane_xor_byte(uint64_t st[100], unsigned l, unsigned pos, uint8_t b)
{
    st[4 * (pos / 8) + l] ^= (uint64_t)b << (8 * (pos % 8));
}

/* HASH: absorb the next block of in0 || in1 (rate 136) into lane l, the
 * padded last one (FIPS 202 pad10*1 after the domain bits) when fewer than
 * 136 bytes remain. The message length is public. */
static void vg_mlkem_lane_hash_block(uint64_t st[100], unsigned l, struct vg_mlkem_lane *ln,
                                     uint8_t blk[VG_SHAKE256_RATE])
{
    const struct vg_mlkem_job *j = ln->job;
    size_t total = j->len0 + j->len1, rest = total - ln->off;
    size_t take = rest < VG_SHAKE256_RATE ? rest : VG_SHAKE256_RATE;
    /* Gather take bytes at offset off of in0 || in1. */
    size_t o = ln->off, got = 0;
    if (o < j->len0) {
        size_t a = j->len0 - o < take ? j->len0 - o : take;
        memcpy(blk, j->in0 + o, a);
        got = a;
    }
    if (got < take)
        memcpy(blk + got, j->in1 + (o + got - j->len0), take - got);
    vg_mlkem_lane_xor(st, l, 0, blk, take);
    ln->off += take;
    if (take < VG_SHAKE256_RATE) {
        vg_mlkem_lane_xor_byte(st, l, (unsigned)take, j->ds);
        vg_mlkem_lane_xor_byte(st, l, VG_SHAKE256_RATE - 1, 0x80);
        ln->final_in = 1;
    }
}

/* Zero the 25 words of lane l, five per iteration (compilers kept the
 * plain 25-step strided loop rolled). */
static void vg_mlkem_lane_zero(uint64_t st[100], unsigned l)
{
    uint64_t *w = st + l;
    for (unsigned i = 0; i < 25; i += 5) {
        w[4 * i] = 0;
        w[4 * i + 4] = 0;
        w[4 * i + 8] = 0;
        w[4 * i + 12] = 0;
        w[4 * i + 16] = 0;
    }
}

/* Put job j on lane l: zero the lane and absorb what precedes the first
 * permutation. */
static void vg_mlkem_lane_start(uint64_t st[100], unsigned l, struct vg_mlkem_lane *ln,
                                const struct vg_mlkem_job *j, uint8_t blk[VG_SHAKE256_RATE])
{
    vg_mlkem_lane_zero(st, l);
    ln->job = j;
    ln->blocks = 0;
    ln->ctr = 0;
    ln->off = 0;
    ln->final_in = 0;
    /* The 32-byte seed as words 0-3 (little-endian, FIPS 202 B.1), read in
     * place: no copy of a secret seed is left behind to wipe. */
    if (j->kind == VG_MLKEM_JOB_UNIFORM || j->kind == VG_MLKEM_JOB_NOISE)
        for (unsigned i = 0; i < 4; i++)
            st[4 * i + l] = vg_load64_le(j->in0 + 8 * i);
    switch (j->kind) {
    case VG_MLKEM_JOB_UNIFORM: /* SHAKE128(rho || j || i), FIPS 203 Algorithm 7 line 2 */
        /* Bytes 32, 33: j, i; byte 34: the SHAKE domain bits and the first
         * padding bit (0x1f); the last rate byte: the final padding bit. */
        st[4 * 4 + l] = (uint64_t)j->ji[0] | ((uint64_t)j->ji[1] << 8) | (0x1full << 16);
        vg_mlkem_lane_xor_byte(st, l, VG_SHAKE128_RATE - 1, 0x80);
        break;
    case VG_MLKEM_JOB_NOISE: /* SHAKE256(seed || nonce), FIPS 203 (4.3) */
        st[4 * 4 + l] = (uint64_t)j->nonce | (0x1full << 8);
        vg_mlkem_lane_xor_byte(st, l, VG_SHAKE256_RATE - 1, 0x80);
        break;
    case VG_MLKEM_JOB_HASH:
        vg_mlkem_lane_hash_block(st, l, ln, blk);
        break;
    case VG_MLKEM_JOB_ABSORB: /* first block, no padding (len0 >= 136) */
        vg_mlkem_lane_xor(st, l, 0, j->in0, VG_SHAKE256_RATE);
        ln->off = VG_SHAKE256_RATE;
        break;
    }
}

/* Where lane l's output block goes after the next permutation (inside
 * lbuf, 3 * 168 bytes: a UNIFORM job's first three blocks side by side,
 * later ones at the start; a NOISE job's one or two blocks; HASH output and
 * idle lanes at the start), and how many 64-bit words of it are needed.
 * Every placement leaves room for 21 words (168 bytes) in lbuf. */
static unsigned vg_mlkem_lane_dst(const struct vg_mlkem_lane *ln, uint8_t *lbuf, uint8_t **dst)
{
    const struct vg_mlkem_job *j = ln->job;
    *dst = lbuf;
    if (!j)
        return 0;
    switch (j->kind) {
    case VG_MLKEM_JOB_UNIFORM:
        if (ln->blocks < 3)
            *dst = lbuf + VG_SHAKE128_RATE * ln->blocks;
        return VG_SHAKE128_RATE / 8;
    case VG_MLKEM_JOB_NOISE:
        *dst = lbuf + VG_SHAKE256_RATE * ln->blocks;
        return VG_SHAKE256_RATE / 8;
    case VG_MLKEM_JOB_ABSORB: /* the state is read from st directly */
        return 0;
    default: /* HASH: 32 bytes of output after the last block */
        return ln->final_in ? 4 : 0;
    }
}

/* After a permutation, with lane l's output block already extracted to
 * where vg_mlkem_lane_dst put it: take it. Returns 1 when the job is done. */
static int vg_mlkem_lane_step(uint64_t st[100], unsigned l, struct vg_mlkem_lane *ln,
                              uint8_t lbuf[3 * VG_SHAKE128_RATE], uint8_t blk[VG_SHAKE256_RATE],
                              const struct vg_mlkem_backend *be)
{
    const struct vg_mlkem_job *j = ln->job;
    switch (j->kind) {
    case VG_MLKEM_JOB_UNIFORM: {
        /* The first three blocks are sampled together (the vector sampler
         * is faster on long buffers), later ones one at a time, as in
         * vg_mlkem_poly_uniform. A block of 168 bytes is 56 whole 3-byte
         * groups, so any split gives the coefficients of the whole stream. */
        unsigned first = ln->blocks < 3;
        ln->blocks++;
        if (ln->blocks < 3)
            return 0;
        size_t len = first ? 3 * VG_SHAKE128_RATE : VG_SHAKE128_RATE;
        ln->ctr += be->rej_uniform(j->out_poly->coeffs + ln->ctr, VG_MLKEM_N - ln->ctr, lbuf,
                                   len);
        return ln->ctr == VG_MLKEM_N;
    }
    case VG_MLKEM_JOB_NOISE:
        /* 64 eta bytes: one block (eta 2) or two (eta 3). */
        ln->blocks++;
        if (ln->blocks * VG_SHAKE256_RATE < 64u * j->eta)
            return 0;
        if (j->out_poly)
            be->cbd(j->out_poly, lbuf, j->eta);
        else
            memcpy(j->out_bytes, lbuf, 64u * j->eta);
        return 1;
    case VG_MLKEM_JOB_HASH:
        if (ln->final_in) {
            memcpy(j->out_bytes, lbuf, 32);
            return 1;
        }
        vg_mlkem_lane_hash_block(st, l, ln, blk);
        return 0;
    case VG_MLKEM_JOB_ABSORB:
        if (ln->off < j->len0) {
            vg_mlkem_lane_xor(st, l, 0, j->in0 + ln->off, VG_SHAKE256_RATE);
            ln->off += VG_SHAKE256_RATE;
            return 0;
        }
        for (unsigned i = 0; i < 25; i++)
            vg_store64_le(j->out_bytes + 8 * i, st[4 * i + l]);
        return 1;
    }
    return 1;
}

void vg_mlkem_xof_jobs(const struct vg_mlkem_backend *be, const struct vg_mlkem_job *jobs,
                       unsigned n)
{
    const struct vg_keccak4x_impl *k4 = vg_keccak4x_active();
    /* A SIMD four-way permutation costs the same however many lanes are
     * busy; a serial one (permute_one set) is run on the busy lanes only. */
    const int parallel = k4->permute_one == NULL;
    uint64_t st[100], one[25];
    uint8_t lbuf[4][3 * VG_SHAKE128_RATE]; /* see vg_mlkem_lane_dst */
    uint8_t blk[VG_SHAKE256_RATE];
    struct vg_mlkem_lane lanes[4];
    unsigned next = 0, active = 0;

    /* Every lane is zeroed here, by lane_start or as an idle lane (a
     * memset of st and lanes was slower: rep stos start-up, see
     * docs/benchmarks.md). */
    for (unsigned l = 0; l < 4; l++) {
        if (next < n) {
            vg_mlkem_lane_start(st, l, &lanes[l], &jobs[next++], blk);
            active++;
        } else {
            vg_mlkem_lane_zero(st, l);
            lanes[l].job = NULL; /* idle: the only field read for it */
        }
    }
    /* Job lengths are public (kinds, eta, message lengths) or depend on
     * public XOF output (UNIFORM): so are these branches. */
    while (active > 0) {
        if (parallel) {
            k4->permute(st);
        } else {
            /* Four single permutations in turn (the serial four-way
             * variants): permute only the busy lanes, so that idle ones cost
             * nothing. */
            for (unsigned l = 0; l < 4; l++) {
                if (!lanes[l].job)
                    continue;
                for (unsigned i = 0; i < 25; i++)
                    one[i] = st[4 * i + l];
                k4->permute_one(one);
                for (unsigned i = 0; i < 25; i++)
                    st[4 * i + l] = one[i];
            }
        }
        /* All four lanes' output blocks in one transposing pass (the lanes
         * then absorb their next input into st, so this comes first). */
        uint8_t *dst[4];
        unsigned words = 0;
        for (unsigned l = 0; l < 4; l++) {
            unsigned w = vg_mlkem_lane_dst(&lanes[l], lbuf[l], &dst[l]);
            words = w > words ? w : words;
        }
        k4->extract(dst, st, words);
        for (unsigned l = 0; l < 4; l++) {
            if (!lanes[l].job || !vg_mlkem_lane_step(st, l, &lanes[l], lbuf[l], blk, be))
                continue;
            if (next < n) {
                vg_mlkem_lane_start(st, l, &lanes[l], &jobs[next++], blk);
            } else {
                lanes[l].job = NULL;
                active--;
            }
        }
    }
    vg_wipe(st, sizeof st);
    vg_wipe(one, sizeof one);
    vg_wipe(lbuf, sizeof lbuf);
    vg_wipe(blk, sizeof blk);
}
