/*
 * K-PKE (FIPS 203 section 5) for the parameter set of this compilation
 * (params.h), as kem.c uses it. indcpa.c is compiled once per set, so each
 * function exists three times; the names below carry the set
 * (vg_mlkem512_pke_encrypt, vg_mlkem768_pke_encrypt, ...), spelled out, so
 * that each is found by its full name. Each takes the backend the public
 * operation chose (be, poly.h) and passes it on; none dispatches itself.
 */
#ifndef VG_MLKEM_INDCPA_H
#define VG_MLKEM_INDCPA_H

#include "params.h"

#if VG_MLKEM_K == 2
#define vg_mlkem_pke_ahead vg_mlkem512_pke_ahead
#define vg_mlkem_pke_keygen vg_mlkem512_pke_keygen
#define vg_mlkem_pke_encrypt vg_mlkem512_pke_encrypt
#define vg_mlkem_pke_decrypt vg_mlkem512_pke_decrypt
#define vg_mlkem_ek_ok vg_mlkem512_ek_ok
#elif VG_MLKEM_K == 3
#define vg_mlkem_pke_ahead vg_mlkem768_pke_ahead
#define vg_mlkem_pke_keygen vg_mlkem768_pke_keygen
#define vg_mlkem_pke_encrypt vg_mlkem768_pke_encrypt
#define vg_mlkem_pke_decrypt vg_mlkem768_pke_decrypt
#define vg_mlkem_ek_ok vg_mlkem768_ek_ok
#elif VG_MLKEM_K == 4
#define vg_mlkem_pke_ahead vg_mlkem1024_pke_ahead
#define vg_mlkem_pke_keygen vg_mlkem1024_pke_keygen
#define vg_mlkem_pke_encrypt vg_mlkem1024_pke_encrypt
#define vg_mlkem_pke_decrypt vg_mlkem1024_pke_decrypt
#define vg_mlkem_ek_ok vg_mlkem1024_ek_ok
#endif

/* The rows of A-hat (or of its transpose) one at a time, from a buffer of
 * planned-ahead and on-demand entries (params.h, VG_MLKEM_*_ROWS). */
typedef struct {
    vg_mlkem_poly *a;    /* the caller's buffer of cap >= k entries */
    unsigned cap;        /* a[base..base + have): entries k*row, ... */
    const uint8_t *rho;
    unsigned next;       /* next entry (row-major index) to generate */
    unsigned base;       /* slot of the first entry of the current row */
    unsigned have;       /* entries of the current row onwards held */
    unsigned row;        /* the row the next call returns */
    int transposed;
} vg_mlkem_rowgen;

/* Pre: rho is the public seed of A-hat; transposed = 1 yields the rows of
 * A-hat^T (A-hat^T[i][j] = A-hat[j][i]), 0 those of A-hat. */
static inline void vg_mlkem_rowgen_init(vg_mlkem_rowgen *g, vg_mlkem_poly *buf, unsigned cap,
                                        const uint8_t rho[VG_MLKEM_SYMBYTES], int transposed)
{
    g->a = buf;
    g->cap = cap;
    g->rho = rho;
    g->next = 0;
    g->base = 0;
    g->have = 0;
    g->row = 0;
    g->transposed = transposed;
}

/* Run the first count entries of g (freshly initialised, count <= its
 * cap, a multiple of k, <= 12) on the four-lane scheduler together with
 * the hash jobs hj[0..nh) (nh <= 2).
 * Specification: FIPS 203, Algorithm 13 lines 3-7 / Algorithm 14 lines 4-8. */
void vg_mlkem_pke_ahead(const struct vg_mlkem_backend *be, vg_mlkem_rowgen *g, unsigned count,
                        const struct vg_mlkem_job *hj, unsigned nh);

/* K-PKE.KeyGen from (rho, sigma) = G(d || k) (FIPS 203 Algorithm 13, lines
 * 3-20): writes ek (VG_MLKEM_EK_BYTES) and dk_pke (VG_MLKEM_POLYVECBYTES).
 * Pre: rho public (it goes into ek), sigma secret. */
/* Also returns how many leading bytes of ek (a multiple of 136, possibly
 * 0) it has already absorbed into a SHA3-256 state for H(ek) (FIPS 203
 * Algorithm 16 line 3), on a lane of the four-way Keccak beside the last
 * matrix row (k = 3: see VG_MLKEM_KG_HBLOCKS in params.h); that state is
 * written to hstate (the 25 words, little-endian) when the count is
 * nonzero. The caller absorbs the rest of ek and finishes the hash. */
size_t vg_mlkem_pke_keygen(const struct vg_mlkem_backend *be, uint8_t ek[VG_MLKEM_EK_BYTES],
                           uint8_t dk_pke[VG_MLKEM_POLYVECBYTES],
                           const uint8_t rho[VG_MLKEM_SYMBYTES],
                           const uint8_t sigma[VG_MLKEM_SYMBYTES], uint8_t hstate[200]);

/* K-PKE.Encrypt(ek, m, r): ek must have passed the modulus check or come
 * from a dk that passed the hash check (coefficients < 4096 either way, as
 * basemul_acc needs). g: the rows of A-hat^T for rho = ek[384k:], freshly
 * initialised (transposed) and possibly planned ahead; its buffer is reused.
 * Specification: FIPS 203, Algorithm 14.
 * When cmp is not NULL (decapsulation's re-encryption, Algorithm 18 lines
 * 8-9), the ciphertext is not stored: each piece is compared with cmp and
 * the return value is 0 when all of it equals cmp, all-ones otherwise, in
 * constant time. With cmp NULL, ct is written and 0 returned. */
uint8_t vg_mlkem_pke_encrypt(const struct vg_mlkem_backend *be, uint8_t *ct, const uint8_t *cmp,
                             const uint8_t ek[VG_MLKEM_EK_BYTES],
                             const uint8_t m[VG_MLKEM_SYMBYTES],
                             const uint8_t r[VG_MLKEM_SYMBYTES], vg_mlkem_rowgen *g);

/* K-PKE.Decrypt(dk_pke, c): m (32 bytes). Specification: FIPS 203, Algorithm 15. */
void vg_mlkem_pke_decrypt(const struct vg_mlkem_backend *be, uint8_t m[VG_MLKEM_SYMBYTES],
                         const uint8_t ct[VG_MLKEM_CT_BYTES],
                         const uint8_t dk_pke[VG_MLKEM_POLYVECBYTES]);

/* FIPS 203 7.2 modulus check: ByteEncode_12(ByteDecode_12(ek)) == ek, i.e.
 * every 12-bit value is < q. Public data: timing may depend on it. */
int vg_mlkem_ek_ok(const struct vg_mlkem_backend *be, const uint8_t ek[VG_MLKEM_EK_BYTES]);

#endif
