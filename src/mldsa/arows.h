/*
 * A-hat row by row (FIPS 204, Algorithm 32), for key generation (keygen.c)
 * and verification (verify.c) of one parameter set (params.h). A static
 * function in a header: its size depends on the set's L, and each of the
 * two files compiles it for its own set.
 */
#ifndef VG_MLDSA_AROWS_H
#define VG_MLDSA_AROWS_H

#include "params.h"

/* A-hat row by row for key generation and verification (FIPS 204,
 * Algorithm 32: A-hat[i][j] = RejNTTPoly(rho || j || i)) without holding
 * the whole matrix: the entries are generated in row-major order four at a
 * time on the four-way Keccak (a last group of two or three padded, a
 * single one alone), so a row whose length l is not a multiple of four
 * shares a four-way pass with the next row instead of running its
 * remainder alone (ML-DSA-65: 8 four-way passes for its 30 entries instead
 * of 6 four-way and 6 single ones). Two rows are buffered: a pass started
 * in row i ends in row i + 1 at the latest (4 <= l). Public data (rho). */
struct vg_mldsa_arows {
    vg_mldsa_poly row[2][VG_MLDSA_L]; /* row i in row[i % 2] */
    unsigned next;                    /* the next entry to generate, row-major */
};

/* Row i of A-hat, for i = 0, 1, ..., K - 1 in this order, after
 * s->next = 0. The returned row stays valid until row i + 1 is asked for. */
static const vg_mldsa_poly *vg_mldsa_arow(const struct vg_mldsa_backend *be,
                                          struct vg_mldsa_arows *s,
                                          const uint8_t rho[VG_MLDSA_SYMBYTES], unsigned i)
{
    while (s->next < (i + 1) * VG_MLDSA_L) {
        vg_mldsa_poly *r[4];
        uint8_t idx[4][2];
        unsigned n = VG_MLDSA_K * VG_MLDSA_L - s->next < 4 ? VG_MLDSA_K * VG_MLDSA_L - s->next : 4;
        for (unsigned k = 0; k < n; k++) {
            unsigned f = s->next + k, fi = f / VG_MLDSA_L, fj = f % VG_MLDSA_L; /* public indices */
            r[k] = &s->row[fi % 2][fj];
            idx[k][0] = (uint8_t)fj;
            idx[k][1] = (uint8_t)fi;
        }
        vg_mldsa_poly_uniform_many(be, r, rho, (const uint8_t(*)[2])idx, n);
        s->next += n;
    }
    return s->row[i % 2];
}

#endif
