/*
 * K-PKE, the public-key encryption inside ML-KEM (FIPS 203 section 5), for
 * the parameter set of this compilation (params.h): key generation,
 * encryption and decryption, the rows of A-hat they need, and the 7.2
 * modulus check. Compiled once per set; the functions of indcpa.h carry
 * the set in their names (vg_mlkem768_pke_encrypt, ...).
 */
#include "indcpa.h"

#include "common.h"

/* The XOF indices of row-major entry idx: rho || j || i for A-hat[i][j]. */
static void vg_mlkem_rowgen_ji(const vg_mlkem_rowgen *g, unsigned idx, uint8_t ji[2])
{
    unsigned i = idx / VG_MLKEM_K, j = idx % VG_MLKEM_K; /* k is a compile-time constant: no div */
    ji[0] = (uint8_t)(g->transposed ? i : j);
    ji[1] = (uint8_t)(g->transposed ? j : i);
}

/* Plan the first `count` entries (count <= cap, a multiple of k) as
 * scheduler jobs (written to jobs[0..count), count returned); the caller
 * runs them with vg_mlkem_xof_jobs before the first vg_mlkem_rowgen_next.
 * Pre: g freshly initialised. */
static unsigned vg_mlkem_rowgen_plan(vg_mlkem_rowgen *g, struct vg_mlkem_job *jobs,
                                     unsigned count)
{
    for (unsigned t = 0; t < count; t++) {
        uint8_t ji[2];
        vg_mlkem_rowgen_ji(g, t, ji);
        vg_mlkem_job_uniform(&jobs[t], &g->a[t], g->rho, ji[0], ji[1]);
    }
    g->next = g->have = count;
    return count;
}

#if VG_MLKEM_KG_HBLOCKS > 0
/* Plan the next `count` entries after those planned or generated so far
 * (the slots after the current row's held entries), as vg_mlkem_rowgen_plan
 * does for the first ones; the caller runs them before the next
 * vg_mlkem_rowgen_next. Pre: the slots fit (base + have + count <= cap). */
static unsigned vg_mlkem_rowgen_plan_more(vg_mlkem_rowgen *g, struct vg_mlkem_job *jobs,
                                          unsigned count)
{
    for (unsigned t = 0; t < count; t++) {
        uint8_t ji[2];
        vg_mlkem_rowgen_ji(g, g->next + t, ji);
        vg_mlkem_job_uniform(&jobs[t], &g->a[g->base + g->have + t], g->rho, ji[0], ji[1]);
    }
    g->next += count;
    g->have += count;
    return count;
}
#endif

/* Contract in indcpa.h. The job list is on this function's frame, off the
 * stack before the caller goes deeper. */
VG_MLKEM_NOINLINE
void vg_mlkem_pke_ahead(const struct vg_mlkem_backend *be, vg_mlkem_rowgen *g, unsigned count,
                        const struct vg_mlkem_job *hj, unsigned nh)
{
    struct vg_mlkem_job jobs[2 + 3 * 4];
    memcpy(jobs, hj, nh * sizeof *hj);
    unsigned n = nh + vg_mlkem_rowgen_plan(g, jobs + nh, count);
    vg_mlkem_xof_jobs(be, jobs, n);
}

/* The next row: returns a pointer to its k entries (valid until the next
 * call), each with coefficients in [0, q). At most k calls.
 * Public data only (rho): the work may vary with it. */
static const vg_mlkem_poly *vg_mlkem_rowgen_next(const struct vg_mlkem_backend *be,
                                                  vg_mlkem_rowgen *g)
{
    if (g->row > 0) {
        /* Drop the row handed out last time. */
        g->base += VG_MLKEM_K;
        g->have -= VG_MLKEM_K;
    }
    while (g->have < VG_MLKEM_K) {
        unsigned n = VG_MLKEM_K * VG_MLKEM_K - g->next >= 4 ? 4 : 1;
        if (g->base + g->have + n > g->cap) {
            /* Only with a two-row buffer (k = 4), where have = 0 here. */
            if (g->have > 0)
                memmove(&g->a[0], &g->a[g->base], g->have * sizeof g->a[0]);
            g->base = 0;
        }
        vg_mlkem_poly *dst = &g->a[g->base + g->have];
        if (n == 4) {
            vg_mlkem_poly *r[4];
            uint8_t ji[4][2];
            for (unsigned t = 0; t < 4; t++) {
                r[t] = dst + t;
                vg_mlkem_rowgen_ji(g, g->next + t, ji[t]);
            }
            vg_mlkem_poly_uniform_x4(be, r, g->rho, (const uint8_t(*)[2])ji);
        } else {
            uint8_t ji[2];
            vg_mlkem_rowgen_ji(g, g->next, ji);
            vg_mlkem_poly_uniform(be, dst, g->rho, ji[0], ji[1]);
        }
        g->next += n;
        g->have += n;
    }
    g->row++;
    return &g->a[g->base];
}

/* Jobs for n noise polynomials r[l] = CBD_eta(PRF(seed, nonce0 + l)). */
static unsigned vg_mlkem_noise_jobs(struct vg_mlkem_job *jobs, vg_mlkem_poly *r, unsigned n,
                                    const uint8_t seed[VG_MLKEM_SYMBYTES], unsigned nonce0,
                                    unsigned eta)
{
    for (unsigned l = 0; l < n; l++)
        vg_mlkem_job_noise(&jobs[l], &r[l], seed, (uint8_t)(nonce0 + l), eta);
    return n;
}

/* t-hat[i] = sum_j A-hat[i][j] o s-hat[j] + e-hat[i] (FIPS 203 Algorithm 13
 * line 18) for rows i0 <= i < i1, encoded into ek, and s-hat[i] into
 * dk_pke. basemul_acc leaves a factor R^-1, which tomont cancels: |t| < q;
 * adding |e| <= q/2 keeps it below 2q before the Barrett step. */
static void vg_mlkem_keygen_rows(const struct vg_mlkem_backend *be, uint8_t *ek, uint8_t *dk_pke,
                                 vg_mlkem_rowgen *g, vg_mlkem_poly *t, const vg_mlkem_poly *s,
                                 const vg_mlkem_poly *e, unsigned i0, unsigned i1)
{
    for (unsigned i = i0; i < i1; i++) {
        be->basemul_acc(t, vg_mlkem_rowgen_next(be, g), s, VG_MLKEM_K);
        be->tomont_add_reduce(t, &e[i]);
        be->tobytes(ek + i * VG_MLKEM_POLYBYTES, t);
        be->tobytes(dk_pke + i * VG_MLKEM_POLYBYTES, &s[i]);
    }
}

/* Contract in indcpa.h. */
VG_MLKEM_NOINLINE
size_t vg_mlkem_pke_keygen(const struct vg_mlkem_backend *be, uint8_t ek[VG_MLKEM_EK_BYTES],
                           uint8_t dk_pke[VG_MLKEM_POLYVECBYTES],
                           const uint8_t rho[VG_MLKEM_SYMBYTES],
                           const uint8_t sigma[VG_MLKEM_SYMBYTES], uint8_t hstate[200])
{
    /* Secret: s and e (from sigma). Public, hence not wiped: A-hat (from
     * rho), t-hat (it becomes ek), the row generator and the job list (its
     * pointers and nonces; the seed bytes stay in the caller's sigma). */
    struct {
        vg_mlkem_poly s[VG_MLKEM_K], e[VG_MLKEM_K];
    } ws;
    vg_mlkem_poly t, abuf[VG_MLKEM_KG_ROWS];
    vg_mlkem_rowgen g;
    struct vg_mlkem_job jobs[VG_MLKEM_KG_ROWS + 2 * VG_MLKEM_K];
    unsigned n = 0;

    /* A-hat (lines 3-7: all of it for k <= 3, else rows 0-1 ahead), then
     * s[i] = CBD(PRF(sigma, i)), e[i] = CBD(PRF(sigma, k + i)) (lines 8-15),
     * on the four-lane scheduler: the long matrix jobs first, the one- or
     * two-block noise jobs fill the lanes that finish early. */
    vg_mlkem_rowgen_init(&g, abuf, VG_MLKEM_KG_ROWS, rho, 0);
#if VG_MLKEM_KG_HBLOCKS > 0
    /* Two passes (params.h): rows 0-1 and all the noise but e[k-1] first. */
    n += vg_mlkem_rowgen_plan(&g, jobs, (VG_MLKEM_K - 1) * VG_MLKEM_K);
    n += vg_mlkem_noise_jobs(jobs + n, ws.s, VG_MLKEM_K, sigma, 0, VG_MLKEM_ETA1);
    n += vg_mlkem_noise_jobs(jobs + n, ws.e, VG_MLKEM_K - 1, sigma, VG_MLKEM_K, VG_MLKEM_ETA1);
    vg_mlkem_xof_jobs(be, jobs, n);
    for (unsigned i = 0; i < VG_MLKEM_K; i++)
        be->ntt(&ws.s[i]); /* |s| <= 3 < q in, <= q/2 out */
    for (unsigned i = 0; i + 1 < VG_MLKEM_K; i++)
        be->ntt(&ws.e[i]);
    vg_mlkem_keygen_rows(be, ek, dk_pke, &g, &t, ws.s, ws.e, 0, VG_MLKEM_K - 1);
    /* Then the first blocks of H(ek) (the longest job, first), the last row
     * and e[k-1]. */
    _Static_assert(VG_MLKEM_KG_HBLOCKS * 136 <= (VG_MLKEM_K - 1) * VG_MLKEM_POLYBYTES,
                   "H(ek) blocks ahead must lie in the rows already encoded");
    n = 0;
    vg_mlkem_job_absorb(&jobs[n++], hstate, ek, VG_MLKEM_KG_HBLOCKS);
    n += vg_mlkem_rowgen_plan_more(&g, jobs + n, VG_MLKEM_K);
    n += vg_mlkem_noise_jobs(jobs + n, &ws.e[VG_MLKEM_K - 1], 1, sigma, 2 * VG_MLKEM_K - 1,
                             VG_MLKEM_ETA1);
    vg_mlkem_xof_jobs(be, jobs, n);
    be->ntt(&ws.e[VG_MLKEM_K - 1]);
    vg_mlkem_keygen_rows(be, ek, dk_pke, &g, &t, ws.s, ws.e, VG_MLKEM_K - 1, VG_MLKEM_K);
#else
    (void)hstate;
    n += vg_mlkem_rowgen_plan(&g, jobs, VG_MLKEM_KG_ROWS);
    n += vg_mlkem_noise_jobs(jobs + n, ws.s, VG_MLKEM_K, sigma, 0, VG_MLKEM_ETA1);
    n += vg_mlkem_noise_jobs(jobs + n, ws.e, VG_MLKEM_K, sigma, VG_MLKEM_K, VG_MLKEM_ETA1);
    vg_mlkem_xof_jobs(be, jobs, n);
    for (unsigned i = 0; i < VG_MLKEM_K; i++) {
        be->ntt(&ws.s[i]); /* |s| <= 3 < q in, <= q/2 out */
        be->ntt(&ws.e[i]);
    }
    vg_mlkem_keygen_rows(be, ek, dk_pke, &g, &t, ws.s, ws.e, 0, VG_MLKEM_K);
#endif
    memcpy(ek + VG_MLKEM_POLYVECBYTES, rho, VG_MLKEM_SYMBYTES);
    vg_wipe(&ws, sizeof ws);
    return VG_MLKEM_KG_HBLOCKS * 136u;
}

/* The noise of K-PKE.Encrypt (FIPS 203 Algorithm 14 lines 9-17): y as
 * polynomials, e1 and e2 as their PRF bytes. Out of line, so that the job
 * list is off the stack while the encryption goes on. */
VG_MLKEM_NOINLINE
static void vg_mlkem_encrypt_noise(const struct vg_mlkem_backend *be, vg_mlkem_poly y[VG_MLKEM_K], uint8_t e1[VG_MLKEM_K][64 * VG_MLKEM_ETA2],
                                   uint8_t e2[64 * VG_MLKEM_ETA2],
                                   const uint8_t r[VG_MLKEM_SYMBYTES])
{
    struct vg_mlkem_job jobs[2 * VG_MLKEM_K + 1];
    unsigned n = vg_mlkem_noise_jobs(jobs, y, VG_MLKEM_K, r, 0, VG_MLKEM_ETA1);
    for (unsigned i = 0; i < VG_MLKEM_K; i++)
        vg_mlkem_job_noise_raw(&jobs[n++], e1[i], r, (uint8_t)(VG_MLKEM_K + i), VG_MLKEM_ETA2);
    vg_mlkem_job_noise_raw(&jobs[n++], e2, r, (uint8_t)(2 * VG_MLKEM_K), VG_MLKEM_ETA2);
    vg_mlkem_xof_jobs(be, jobs, n);
    vg_wipe(jobs, sizeof jobs); /* they point at r, which is secret */
}

/* Contract in indcpa.h. */
VG_MLKEM_NOINLINE
uint8_t vg_mlkem_pke_encrypt(const struct vg_mlkem_backend *be, uint8_t *ct, const uint8_t *cmp, const uint8_t ek[VG_MLKEM_EK_BYTES],
                                    const uint8_t m[VG_MLKEM_SYMBYTES],
                                    const uint8_t r[VG_MLKEM_SYMBYTES], vg_mlkem_rowgen *g)
{
    struct {
        vg_mlkem_poly y[VG_MLKEM_K], u, tmp;
        /* e1 and e2 as their PRF bytes until used (64 eta2 bytes each
         * instead of a 512-byte polynomial: stack for the matrix rows). */
        uint8_t e1[VG_MLKEM_K][64 * VG_MLKEM_ETA2], e2[64 * VG_MLKEM_ETA2];
        uint8_t piece[32 * 11]; /* one compressed polynomial, d <= 11 */
    } ws;
    uint32_t diff = 0;

    /* y[i] = CBD_eta1(PRF(r, i)), e1[i] = CBD_eta2(PRF(r, k + i)),
     * e2 = CBD_eta2(PRF(r, 2K)) (lines 9-17), on the four-lane scheduler. */
    vg_mlkem_encrypt_noise(be, ws.y, ws.e1, ws.e2, r);
    for (unsigned i = 0; i < VG_MLKEM_K; i++)
        be->ntt(&ws.y[i]);
    for (unsigned i = 0; i < VG_MLKEM_K; i++) {
        /* u[i] = NTT^-1(sum_j A-hat^T[i][j] o y-hat[j]) + e1[i] (line 19):
         * |invntt| < q, |e1| <= 2, so the Barrett input is < q + 2. */
        be->basemul_acc(&ws.u, vg_mlkem_rowgen_next(be, g), ws.y, VG_MLKEM_K);
        be->invntt_tomont(&ws.u);
        be->cbd(&ws.tmp, ws.e1[i], VG_MLKEM_ETA2);
        be->poly_add(&ws.u, &ws.u, &ws.tmp);
        be->poly_reduce(&ws.u);
        if (cmp) {
            be->compress(ws.piece, &ws.u, VG_MLKEM_DU);
            for (unsigned b = 0; b < 32 * VG_MLKEM_DU; b++)
                diff |= (uint32_t)(ws.piece[b] ^ cmp[i * 32 * VG_MLKEM_DU + b]);
        } else {
            be->compress(ct + i * 32 * VG_MLKEM_DU, &ws.u, VG_MLKEM_DU);
        }
    }
    /* t-hat = ByteDecode_12(ek) (line 2), into the row buffer, which the
     * matrix no longer needs (cap >= k). */
    for (unsigned i = 0; i < VG_MLKEM_K; i++)
        be->frombytes(&g->a[i], ek + i * VG_MLKEM_POLYBYTES);
    /* v = NTT^-1(t-hat^T o y-hat) + e2 + Decompress_1(m) (lines 20-21):
     * |invntt| < q, |e2| <= 2, mu < q: sum < 2q + 2 < 2^15. */
    be->basemul_acc(&ws.u, g->a, ws.y, VG_MLKEM_K);
    be->invntt_tomont(&ws.u);
    be->cbd(&ws.tmp, ws.e2, VG_MLKEM_ETA2);
    be->poly_add(&ws.u, &ws.u, &ws.tmp);
    be->frommsg(&ws.tmp, m);
    be->poly_add(&ws.u, &ws.u, &ws.tmp);
    be->poly_reduce(&ws.u);
    if (cmp) {
        be->compress(ws.piece, &ws.u, VG_MLKEM_DV);
        for (unsigned b = 0; b < 32 * VG_MLKEM_DV; b++)
            diff |= (uint32_t)(ws.piece[b] ^ cmp[VG_MLKEM_CT_U_BYTES + b]);
    } else {
        be->compress(ct + VG_MLKEM_CT_U_BYTES, &ws.u, VG_MLKEM_DV);
    }
    vg_wipe(&ws, sizeof ws);
    /* diff < 256; nonzero exactly when some byte differed. */
    return (uint8_t)vg_ct_mask_nonzero_u64(diff);
}

/* Contract in indcpa.h. */
VG_MLKEM_NOINLINE
void vg_mlkem_pke_decrypt(const struct vg_mlkem_backend *be, uint8_t m[VG_MLKEM_SYMBYTES], const uint8_t ct[VG_MLKEM_CT_BYTES],
                                 const uint8_t dk_pke[VG_MLKEM_POLYVECBYTES])
{
    struct {
        vg_mlkem_poly u[VG_MLKEM_K], s[VG_MLKEM_K], w, v;
    } ws;

    for (unsigned i = 0; i < VG_MLKEM_K; i++) {
        be->decompress(&ws.u[i], ct + i * 32 * VG_MLKEM_DU, VG_MLKEM_DU); /* < q */
        be->ntt(&ws.u[i]);
        be->frombytes(&ws.s[i], dk_pke + i * VG_MLKEM_POLYBYTES); /* < 4096 */
    }
    be->decompress(&ws.v, ct + VG_MLKEM_CT_U_BYTES, VG_MLKEM_DV);
    /* w = v' - NTT^-1(s-hat^T o NTT(u')) (line 6): |v' - w| < 2q. */
    be->basemul_acc(&ws.w, ws.s, ws.u, VG_MLKEM_K);
    be->invntt_tomont(&ws.w);
    be->poly_sub(&ws.w, &ws.v, &ws.w);
    be->poly_reduce(&ws.w);
    be->tomsg(m, &ws.w);
    vg_wipe(&ws, sizeof ws);
}

/* Contract in indcpa.h. */
VG_MLKEM_NOINLINE
int vg_mlkem_ek_ok(const struct vg_mlkem_backend *be, const uint8_t ek[VG_MLKEM_EK_BYTES])
{
    vg_mlkem_poly t;
    unsigned bad = 0;
    for (unsigned i = 0; i < VG_MLKEM_K; i++) {
        be->frombytes(&t, ek + i * VG_MLKEM_POLYBYTES);
        for (unsigned j = 0; j < VG_MLKEM_N; j++)
            bad |= (unsigned)(t.coeffs[j] >= VG_MLKEM_Q);
    }
    return bad == 0;
}
