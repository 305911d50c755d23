/*
 * ML-KEM (FIPS 203): the parameter-independent layer. Polynomials in
 * R_q = Z_q[X]/(X^256 + 1), q = 3329, sampling, compression and byte
 * encodings, plus the backend interface behind which the faster variants
 * (AVX2, AVX2 with the AVX-512 sampler) sit. The NTT, base multiplication
 * and Barrett reduction are the shared lattice module's
 * (src/lattice/ntt3329.h, with their contracts); each backend points at
 * one of its implementations.
 *
 * Representation and bounds: as in src/lattice/ntt3329.h (int16_t
 * coefficients, signed, not necessarily canonical; "|x| < B" means
 * -B < x < B; Montgomery form with R = 2^16).
 */
#ifndef VG_MLKEM_POLY_H
#define VG_MLKEM_POLY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../hash/keccak.h"
#include "../lattice/ntt3329.h"

#define VG_MLKEM_N VG_LATTICE_N
#define VG_MLKEM_Q VG_LATTICE_Q3329
#define VG_MLKEM_SYMBYTES 32
#define VG_MLKEM_POLYBYTES 384 /* ByteEncode_12 of one polynomial */

typedef vg_lattice_poly16 vg_mlkem_poly;

/* ---- backend interface --------------------------------------------------
 * The hot kernels, swappable per CPU. Each backend must produce exactly the
 * bytes of the portable one on every input satisfying the preconditions
 * (the tests run every backend over the same vectors). The output bounds
 * listed are what callers rely on; a backend may give tighter ones. */
struct vg_mlkem_backend {
    const char *name; /* "portable", ... */

    /* The transform of src/lattice/ntt3329.h (contracts there: FIPS 203
     * Algorithms 9, 10, 11-12), the routines of one of its implementations
     * (struct vg_lattice_ntt3329 members ntt, invntt_tomont, basemul_acc). */
    void (*ntt)(vg_mlkem_poly *a);
    void (*invntt_tomont)(vg_mlkem_poly *a);
    void (*basemul_acc)(vg_mlkem_poly *r, const vg_mlkem_poly *a, const vg_mlkem_poly *b,
                        unsigned k);

    /* Rejection sampling of up to `len` coefficients from buf (3 bytes give
     * two 12-bit candidates, kept when < q). Returns the number written.
     * Works on public data (rho): variable time is allowed.
     * Post: 0 <= r[i] < q for i < the returned count; r[count..len) may be
     * overwritten with scratch values (AVX2 stores whole groups); nothing at
     * or beyond r[len] is written.
     * Specification: FIPS 203, Algorithm 7 (SampleNTT), inner loop. */
    unsigned (*rej_uniform)(int16_t *r, unsigned len, const uint8_t *buf, size_t buflen);

    /* The coefficientwise helpers and encodings. Those handling secrets
     * (all but frombytes on ek) are constant time in every backend: no
     * secret-dependent branch, memory index or division. */

    /* r = a + b, coefficientwise, no reduction. Pre: |a + b| < 2^15.
     * Aliasing allowed. Specification: FIPS 203, Algorithms 13-15. */
    void (*poly_add)(vg_mlkem_poly *r, const vg_mlkem_poly *a, const vg_mlkem_poly *b);
    /* r = a - b, coefficientwise, no reduction. Pre: |a - b| < 2^15.
     * Aliasing allowed. Specification: FIPS 203, Algorithm 15 line 6. */
    void (*poly_sub)(vg_mlkem_poly *r, const vg_mlkem_poly *a, const vg_mlkem_poly *b);
    /* Barrett-reduce every coefficient (the lattice module's reduce).
     * Pre: any. Post: |r| <= q/2. */
    void (*poly_reduce)(vg_mlkem_poly *r);
    /* r = r * R mod q (into Montgomery form). Pre: any. Post: |r| < q.
     * Specification: FIPS 203, Algorithm 13 line 18 (cancels basemul's R^-1). */
    void (*poly_tomont)(vg_mlkem_poly *r);
    /* ByteEncode_12 of the canonical representatives (384 bytes).
     * Pre: |a| < q (reduced to [0, q) here). Specification: FIPS 203,
     * Algorithm 5. */
    void (*tobytes)(uint8_t r[VG_MLKEM_POLYBYTES], const vg_mlkem_poly *a);
    /* ByteDecode_12 without the final "mod q": 12-bit values.
     * Post: 0 <= r < 4096. (Callers either check r < q, FIPS 203 7.2, or
     * only use r in arithmetic mod q, where the missing reduction does not
     * matter.) Specification: FIPS 203, Algorithm 6 (d = 12). */
    void (*frombytes)(vg_mlkem_poly *r, const uint8_t a[VG_MLKEM_POLYBYTES]);
    /* Decompress_1(ByteDecode_1(msg)): bit i of msg -> 0 or (q+1)/2.
     * Post: 0 <= r < q. Specification: FIPS 203, Algorithm 6 and (4.8). */
    void (*frommsg)(vg_mlkem_poly *r, const uint8_t msg[VG_MLKEM_SYMBYTES]);
    /* ByteEncode_1(Compress_1(a)). Pre: |a| < q.
     * Specification: FIPS 203, Algorithm 5 and (4.7). */
    void (*tomsg)(uint8_t msg[VG_MLKEM_SYMBYTES], const vg_mlkem_poly *a);
    /* ByteEncode_d(Compress_d(a)) for d in {4, 5, 10, 11} (other d: treated
     * as 11): exactly 32 d bytes written. Pre: |a| < q. No division.
     * Specification: FIPS 203, (4.7) and Algorithm 5. */
    void (*compress)(uint8_t *r, const vg_mlkem_poly *a, unsigned d);
    /* Decompress_d(ByteDecode_d(a)) for d in {4, 5, 10, 11}: 32 d bytes
     * read. Post: 0 <= r < q. Specification: FIPS 203, Algorithm 6, (4.8). */
    void (*decompress)(vg_mlkem_poly *r, const uint8_t *a, unsigned d);

    /* SamplePolyCBD_eta on the 64 eta bytes of buf (exactly those are read).
     * Pre: eta in {2, 3}. Post: |r| <= eta. Constant time in buf.
     * Specification: FIPS 203, Algorithm 8. */
    void (*cbd)(vg_mlkem_poly *r, const uint8_t *buf, unsigned eta);


    /* r = Barrett(fqmul(r, R^2 mod q) + e): poly_tomont, poly_add(r, r, e)
     * and poly_reduce in one pass, the same values (key generation's
     * t-hat = A-hat o s-hat + e-hat, FIPS 203 Algorithm 13 line 18, where
     * the fqmul cancels the R^-1 of basemul_acc). Aliasing r == e allowed.
     * Pre: r any int16 (then |fqmul| < q); |e| <= 2^15 - q (the sum fits
     * int16). Post: |r| <= q/2. Constant time. */
    void (*tomont_add_reduce)(vg_mlkem_poly *r, const vg_mlkem_poly *e);
};

/* The variants, each reachable on its own (tests, benchmark). Same outputs
 * as portable, coefficient order included. */
const struct vg_mlkem_backend *vg_mlkem_portable_get(void); /* "portable", never NULL */
/* "avx2" (src/mlkem/x86_64): NULL unless built (x86-64, not VG_PORTABLE)
 * and AVX2 active. */
const struct vg_mlkem_backend *vg_mlkem_avx2_get(void);
/* "avx2+avx512": the AVX2 backend with the AVX-512 rejection sampler; NULL
 * unless built and AVX2, AVX-512 F, VL and BW all active. */
const struct vg_mlkem_backend *vg_mlkem_avx2_avx512_get(void);
/* The dispatch: the first available of avx2+avx512, avx2, portable, under
 * the active CPU features (VG_CPU_FEATURES, vg_cpu_force). Called once per
 * public operation (kem.c), whose callees take the backend as a parameter;
 * vg_mlkem_implementation (mlkem.h) names its choice. */
const struct vg_mlkem_backend *vg_mlkem_active(void);

/* ---- scalar arithmetic (portable; inline for the other files) -----------
 * Montgomery and Barrett reduction: vg_lattice_q3329_* (ntt3329.h). */

/* Map a centred representative to [0, q): add q when negative, branch-free.
 * Pre: |a| < q. Post: 0 <= r < q. */
static inline int16_t vg_mlkem_caddq(int16_t a)
{
    /* a >> 15 is all-ones exactly when a < 0 (arithmetic shift on int16
     * promoted to int; gcc and clang both do arithmetic shifts). */
    return (int16_t)(a + ((a >> 15) & VG_MLKEM_Q));
}

/* SampleNTT's scalar loop (FIPS 203, Algorithm 7, lines 5-13) from byte pos
 * of buf and entry ctr of r on: 3 bytes give two 12-bit candidates, each
 * kept when < q, until len entries are written or fewer than 3 bytes are
 * left. The portable rej_uniform is this loop from (0, 0); the vector ones
 * finish with it, so every backend keeps the same candidates in the same
 * order. Public data only (variable time by design).
 * Pre: ctr <= len. Post: 0 <= r[i] < q for the new entries; returns the
 * count written in all (<= len). */
static inline unsigned vg_mlkem_rej_uniform_tail(int16_t *r, unsigned len, const uint8_t *buf,
                                                 size_t buflen, size_t pos, unsigned ctr)
{
    for (; ctr < len && pos + 3 <= buflen; pos += 3) {
        uint16_t d1 = (uint16_t)(buf[pos] | ((buf[pos + 1] & 0x0f) << 8));
        uint16_t d2 = (uint16_t)((buf[pos + 1] >> 4) | (buf[pos + 2] << 4));
        if (d1 < VG_MLKEM_Q)
            r[ctr++] = (int16_t)d1;
        if (d2 < VG_MLKEM_Q && ctr < len)
            r[ctr++] = (int16_t)d2;
    }
    return ctr;
}

/* ---- polynomial helpers (K-independent; poly.c) -------------------------
 * Each takes the backend chosen by the public operation (be) and calls its
 * routines; none dispatches by itself. */

/* Compress_d of one canonical coefficient: round(2^d x / q) mod 2^d.
 * Pre: 0 <= x < q, 1 <= d <= 11. Exposed for the exhaustive test. */
uint16_t vg_mlkem_compress_coeff(uint16_t x, unsigned d);

/* SamplePolyCBD_eta(PRF_eta(seed, nonce)) for eta in {2, 3}.
 * Post: |r| <= eta. Constant time in seed.
 * Specification: FIPS 203, Algorithm 8, with PRF of (4.3). */
void vg_mlkem_poly_getnoise(const struct vg_mlkem_backend *be, vg_mlkem_poly *r,
                            const uint8_t seed[VG_MLKEM_SYMBYTES], uint8_t nonce, unsigned eta);

/* SampleNTT(rho || j || i): the matrix entry A-hat[i][j] (FIPS 203 puts j
 * first in the XOF input). Post: 0 <= r < q.
 * Specification: FIPS 203, Algorithm 7. */
void vg_mlkem_poly_uniform(const struct vg_mlkem_backend *be, vg_mlkem_poly *r,
                           const uint8_t rho[VG_MLKEM_SYMBYTES], uint8_t j, uint8_t i);

/* Four-way versions on the four-way Keccak (src/hash/keccak4x.h): the same
 * outputs as four calls of the single routines above. r[0..3] must be four
 * distinct polynomials (use a scratch one for an unused slot).
 * getnoise_x4: r[l] = SamplePolyCBD_eta(PRF_eta(seed, nonce[l])), constant
 * time in seed. uniform_x4: r[l] = SampleNTT(rho || ji[l][0] || ji[l][1]). */
void vg_mlkem_poly_getnoise_x4(const struct vg_mlkem_backend *be, vg_mlkem_poly *const r[4],
                               const uint8_t seed[VG_MLKEM_SYMBYTES], const uint8_t nonce[4],
                               unsigned eta);
void vg_mlkem_poly_uniform_x4(const struct vg_mlkem_backend *be, vg_mlkem_poly *const r[4],
                              const uint8_t rho[VG_MLKEM_SYMBYTES], const uint8_t ji[4][2]);

/* n noise polynomials r[l] = getnoise(seed, nonce[l], eta), four at a time
 * (n <= 16; the last one alone when n % 4 == 1, else padded with scratch). */
void vg_mlkem_poly_getnoise_many(const struct vg_mlkem_backend *be, vg_mlkem_poly *const *r,
                                 const uint8_t *nonce, unsigned n,
                                 const uint8_t seed[VG_MLKEM_SYMBYTES], unsigned eta);

/* ---- four-lane XOF scheduler (poly.c) -----------------------------------
 * Runs a list of independent Keccak jobs on the four-way Keccak, each lane
 * taking the next job of the list as soon as its previous one is finished,
 * so that jobs of different lengths pack the lanes (k = 3: nine matrix
 * entries of three SHAKE128 blocks plus six one-block noise polynomials take
 * nine four-way permutations instead of eleven and three single ones), and
 * long hashes (H(ek), J(z || c)) run beside the matrix. Jobs: */
enum vg_mlkem_job_kind {
    VG_MLKEM_JOB_UNIFORM, /* out_poly = SampleNTT(in0 || ji) (FIPS 203 Algorithm 7) */
    VG_MLKEM_JOB_NOISE,   /* out_poly = SamplePolyCBD_eta(PRF_eta(in0, nonce)) (Algorithm 8,
                           * (4.3)); eta in {2, 3} */
    VG_MLKEM_JOB_HASH,    /* out_bytes[0..32) = SHA3-256 (ds 0x06) or SHAKE256 (ds 0x1f, 32
                           * bytes) of in0[0..len0) || in1[0..len1) (FIPS 202) */
    VG_MLKEM_JOB_ABSORB   /* the first len0 bytes of a SHA3-256 / SHAKE256 input: in0[0..len0)
                           * (len0 a positive multiple of the rate, 136) absorbed into the zero
                           * state, no padding; out_bytes[0..200) = the 25 state words then,
                           * little-endian (FIPS 202 B.1), for a vg_keccak_ctx to go on from */
};

struct vg_mlkem_job {
    enum vg_mlkem_job_kind kind;
    vg_mlkem_poly *out_poly;   /* UNIFORM, NOISE */
    uint8_t *out_bytes;        /* HASH: 32 bytes; NOISE with out_poly NULL: 64 eta bytes;
                                * ABSORB: 200 bytes */
    const uint8_t *in0;        /* rho (UNIFORM), seed (NOISE): 32 bytes; HASH, ABSORB: message
                                * (part 1) */
    size_t len0;               /* HASH, ABSORB only */
    const uint8_t *in1;        /* HASH: message part 2 (may be NULL with len1 = 0) */
    size_t len1;
    uint8_t ji[2];             /* UNIFORM: the bytes j, i after rho */
    uint8_t nonce;             /* NOISE */
    uint8_t eta;               /* NOISE: 2 or 3 */
    uint8_t ds;                /* HASH: 0x06 (SHA3-256) or 0x1f (SHAKE256) */
};

/* Run jobs[0..n) (n >= 1); outputs distinct. Same outputs as running each
 * job alone. Timing depends only on the jobs' kinds and lengths and on the
 * XOF output of the UNIFORM jobs (public: rho); NOISE and HASH inputs may be
 * secret. Order the list longest first for the best packing. With the
 * portable four-way Keccak (four single permutations in turn) only the busy
 * lanes are permuted, so packing costs nothing there either. */
void vg_mlkem_xof_jobs(const struct vg_mlkem_backend *be, const struct vg_mlkem_job *jobs,
                       unsigned n);

/* Helpers filling one job (inline: a job is a handful of stores). The
 * _noise_raw variant is NOISE with the 64 eta PRF bytes written to out
 * instead (the caller runs the backend's cbd on them when it needs the
 * polynomial: 64 eta bytes instead of 512 kept meanwhile). */
static inline void vg_mlkem_job_uniform(struct vg_mlkem_job *j, vg_mlkem_poly *r,
                                        const uint8_t rho[VG_MLKEM_SYMBYTES], uint8_t jj,
                                        uint8_t ii)
{
    memset(j, 0, sizeof *j);
    j->kind = VG_MLKEM_JOB_UNIFORM;
    j->out_poly = r;
    j->in0 = rho;
    j->ji[0] = jj;
    j->ji[1] = ii;
}

static inline void vg_mlkem_job_noise(struct vg_mlkem_job *j, vg_mlkem_poly *r,
                                      const uint8_t seed[VG_MLKEM_SYMBYTES], uint8_t nonce,
                                      unsigned eta)
{
    memset(j, 0, sizeof *j);
    j->kind = VG_MLKEM_JOB_NOISE;
    j->out_poly = r;
    j->in0 = seed;
    j->nonce = nonce;
    j->eta = (uint8_t)eta;
}

static inline void vg_mlkem_job_noise_raw(struct vg_mlkem_job *j, uint8_t *out,
                                          const uint8_t seed[VG_MLKEM_SYMBYTES], uint8_t nonce,
                                          unsigned eta)
{
    vg_mlkem_job_noise(j, NULL, seed, nonce, eta);
    j->out_bytes = out;
}

static inline void vg_mlkem_job_hash(struct vg_mlkem_job *j, uint8_t out[32], uint8_t ds,
                                     const uint8_t *in0, size_t len0, const uint8_t *in1,
                                     size_t len1)
{
    memset(j, 0, sizeof *j);
    j->kind = VG_MLKEM_JOB_HASH;
    j->out_bytes = out;
    j->ds = ds;
    j->in0 = in0;
    j->len0 = len0;
    j->in1 = in1;
    j->len1 = len1;
}

/* ABSORB (SHA3-256 / SHAKE256 rate): the state after absorbing the nblocks
 * full blocks at in, to out[0..200). */
static inline void vg_mlkem_job_absorb(struct vg_mlkem_job *j, uint8_t out[200],
                                       const uint8_t *in, size_t nblocks)
{
    memset(j, 0, sizeof *j);
    j->kind = VG_MLKEM_JOB_ABSORB;
    j->out_bytes = out;
    j->in0 = in;
    j->len0 = nblocks * 136u;
}

#endif
