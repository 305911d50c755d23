/*
 * ML-KEM (FIPS 203) for one parameter set, chosen at compile time: the file
 * that includes this one defines VG_MLKEM_K (2, 3 or 4) first. Everything
 * depending on k lives here, once; the k-independent arithmetic is in
 * poly.c behind the backend interface of poly.h.
 *
 * Naming follows FIPS 203: ek = encapsulation (public) key, dk =
 * decapsulation (secret) key, K-PKE the inner public-key encryption.
 */
#include "common.h"
#include "mlkem_internal.h"
#include "poly.h"

#if !defined(VG_MLKEM_K)
#error "define VG_MLKEM_K before including mlkem_impl.h"
#elif VG_MLKEM_K == 2
#define VG_MLKEM_ETA1 3
#define VG_MLKEM_DU 10
#define VG_MLKEM_DV 4
#define VG_MLKEM_API(name) vg_mlkem512_##name
#elif VG_MLKEM_K == 3
#define VG_MLKEM_ETA1 2
#define VG_MLKEM_DU 10
#define VG_MLKEM_DV 4
#define VG_MLKEM_API(name) vg_mlkem768_##name
#elif VG_MLKEM_K == 4
#define VG_MLKEM_ETA1 2
#define VG_MLKEM_DU 11
#define VG_MLKEM_DV 5
#define VG_MLKEM_API(name) vg_mlkem1024_##name
#else
#error "VG_MLKEM_K must be 2, 3 or 4"
#endif

#define K VG_MLKEM_K
/* The stages of each operation stay separate functions, so that their
 * stack frames do not add up when a compiler inlines them into one caller
 * (clang 14 did: ML-KEM-1024 encaps reached 18.8 KiB, issue 5 allows 16). */
#define VG_MLKEM_NOINLINE __attribute__((noinline))
#define VG_MLKEM_ETA2 2
#define POLYVECBYTES (K * VG_MLKEM_POLYBYTES)
#define EK_BYTES (POLYVECBYTES + VG_MLKEM_SYMBYTES)             /* FIPS 203 Table 3 */
#define DK_BYTES (2 * POLYVECBYTES + 3 * VG_MLKEM_SYMBYTES)     /* dk_pke||ek||H(ek)||z */
#define CT_U_BYTES (K * 32 * VG_MLKEM_DU)
#define CT_BYTES (CT_U_BYTES + 32 * VG_MLKEM_DV)

/* The public sizes must agree with the ones derived from the parameters. */
#if K == 2
_Static_assert(EK_BYTES == VG_MLKEM512_PUBLICKEYBYTES, "ek size");
_Static_assert(DK_BYTES == VG_MLKEM512_SECRETKEYBYTES, "dk size");
_Static_assert(CT_BYTES == VG_MLKEM512_CIPHERTEXTBYTES, "ct size");
#elif K == 3
_Static_assert(EK_BYTES == VG_MLKEM768_PUBLICKEYBYTES, "ek size");
_Static_assert(DK_BYTES == VG_MLKEM768_SECRETKEYBYTES, "dk size");
_Static_assert(CT_BYTES == VG_MLKEM768_CIPHERTEXTBYTES, "ct size");
#else
_Static_assert(EK_BYTES == VG_MLKEM1024_PUBLICKEYBYTES, "ek size");
_Static_assert(DK_BYTES == VG_MLKEM1024_SECRETKEYBYTES, "dk size");
_Static_assert(CT_BYTES == VG_MLKEM1024_CIPHERTEXTBYTES, "ct size");
#endif

/* A-hat row by row (FIPS 203 Algorithm 13 lines 3-7, Algorithm 14 lines
 * 4-8): A-hat[i][j] = SampleNTT(rho || j || i). For k = 4 only the rows
 * being used are kept (issue 5: at most 16 KiB of stack for ML-KEM-1024);
 * for k = 2 and 3 the whole matrix fits the buffer (4 and 9 entries), so it
 * can be generated up front together with other Keccak work on the
 * four-lane scheduler (vg_mlkem_xof_jobs). Entries are generated in
 * row-major order, either planned ahead (vg_mlkem_rowgen_plan: jobs the
 * caller runs) or on demand four at a time on the four-way Keccak (a batch
 * may run ahead into the next row); k^2 mod 4 is 0 or 1 for k = 2, 3, 4, so
 * every on-demand batch is a full four-way one except a final single entry.
 * Buffer (k = 4): two rows, planned ahead beside the long hashes of encaps
 * and decaps (H(ek) and J(z || c) take 12 blocks, in which the other lanes
 * generate 8 entries); rows are whole batches, so no entry is left over
 * when a row is handed out. Two rows cost 2 KiB more than one: ML-KEM-1024
 * stays below issue 5's 16 KiB (test_stack). */
#if (K * K) % 4 > 1
#error "the row generator assumes k^2 mod 4 is 0 or 1"
#endif
#if K * K <= 9
#define VG_MLKEM_KG_ROWS (K * K) /* key generation: the whole matrix */
#define VG_MLKEM_EN_ROWS (K * K) /* encaps: the whole matrix */
#define VG_MLKEM_DE_ROWS (K * K) /* decaps: the whole matrix */
#else
/* k = 4: key generation plans two rows beside the 8 noise jobs (8 four-way
 * permutations); encaps three beside H(ek) (12 blocks in one lane, 12
 * entries in the other three); decaps two beside H(ek) and J(z || c) (two
 * lanes of 12 blocks, 8 entries in the other two). */
#define VG_MLKEM_KG_ROWS (2 * K)
#define VG_MLKEM_EN_ROWS (3 * K)
#define VG_MLKEM_DE_ROWS (2 * K)
#endif

typedef struct {
    vg_mlkem_poly *a;    /* the caller's buffer of cap >= K entries */
    unsigned cap;        /* a[base..base + have): entries K*row, ... */
    const uint8_t *rho;
    unsigned next;       /* next entry (row-major index) to generate */
    unsigned base;       /* slot of the first entry of the current row */
    unsigned have;       /* entries of the current row onwards held */
    unsigned row;        /* the row the next call returns */
    int transposed;
} vg_mlkem_rowgen;

/* Pre: rho is the public seed of A-hat; transposed = 1 yields the rows of
 * A-hat^T (A-hat^T[i][j] = A-hat[j][i]), 0 those of A-hat. */
static void vg_mlkem_rowgen_init(vg_mlkem_rowgen *g, vg_mlkem_poly *buf, unsigned cap,
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

/* The XOF indices of row-major entry idx: rho || j || i for A-hat[i][j]. */
static void vg_mlkem_rowgen_ji(const vg_mlkem_rowgen *g, unsigned idx, uint8_t ji[2])
{
    unsigned i = idx / K, j = idx % K; /* K is a compile-time constant: no div */
    ji[0] = (uint8_t)(g->transposed ? i : j);
    ji[1] = (uint8_t)(g->transposed ? j : i);
}

/* Plan the first `count` entries (count <= cap, a multiple of K) as
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

/* Run the hash jobs hj[0..nh) (nh <= 2) together with the first `count`
 * entries of g (count <= 12), on the four-lane scheduler. Out of line, so
 * that the job list is off the stack before the caller goes deeper. */
VG_MLKEM_NOINLINE
static void vg_mlkem_run_ahead(vg_mlkem_rowgen *g, unsigned count, const struct vg_mlkem_job *hj,
                               unsigned nh)
{
    struct vg_mlkem_job jobs[2 + 3 * 4];
    memcpy(jobs, hj, nh * sizeof *hj);
    unsigned n = nh + vg_mlkem_rowgen_plan(g, jobs + nh, count);
    vg_mlkem_xof_jobs(jobs, n);
}

/* The next row: returns a pointer to its K entries (valid until the next
 * call), each with coefficients in [0, q). At most K calls.
 * Public data only (rho): the work may vary with it. */
static const vg_mlkem_poly *vg_mlkem_rowgen_next(vg_mlkem_rowgen *g)
{
    if (g->row > 0) {
        /* Drop the row handed out last time. */
        g->base += K;
        g->have -= K;
    }
    while (g->have < K) {
        unsigned n = K * K - g->next >= 4 ? 4 : 1;
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
            vg_mlkem_poly_uniform_x4(r, g->rho, (const uint8_t(*)[2])ji);
        } else {
            uint8_t ji[2];
            vg_mlkem_rowgen_ji(g, g->next, ji);
            vg_mlkem_poly_uniform(dst, g->rho, ji[0], ji[1]);
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

/* K-PKE.KeyGen from (rho, sigma) = G(d || k) (FIPS 203 Algorithm 13, lines
 * 3-20): writes ek (EK_BYTES) and dk_pke (POLYVECBYTES).
 * Pre: rho public (it goes into ek), sigma secret. */
VG_MLKEM_NOINLINE
static void vg_mlkem_pke_keygen_rs(uint8_t ek[EK_BYTES], uint8_t dk_pke[POLYVECBYTES],
                                   const uint8_t rho[VG_MLKEM_SYMBYTES],
                                   const uint8_t sigma[VG_MLKEM_SYMBYTES])
{
    const struct vg_mlkem_backend *be = vg_mlkem_active();
    /* Secret: s and e (from sigma). Public, hence not wiped: A-hat (from
     * rho), t-hat (it becomes ek), the row generator and the job list (its
     * pointers and nonces; the seed bytes stay in the caller's sigma). */
    struct {
        vg_mlkem_poly s[K], e[K];
    } ws;
    vg_mlkem_poly t, abuf[VG_MLKEM_KG_ROWS];
    vg_mlkem_rowgen g;
    struct vg_mlkem_job jobs[VG_MLKEM_KG_ROWS + 2 * K];
    unsigned n = 0;

    /* A-hat (lines 3-7: all of it for k <= 3, else rows 0-1 ahead), then
     * s[i] = CBD(PRF(sigma, i)), e[i] = CBD(PRF(sigma, K + i)) (lines 8-15),
     * on the four-lane scheduler: the long matrix jobs first, the one- or
     * two-block noise jobs fill the lanes that finish early. */
    vg_mlkem_rowgen_init(&g, abuf, VG_MLKEM_KG_ROWS, rho, 0);
    n += vg_mlkem_rowgen_plan(&g, jobs, VG_MLKEM_KG_ROWS);
    n += vg_mlkem_noise_jobs(jobs + n, ws.s, K, sigma, 0, VG_MLKEM_ETA1);
    n += vg_mlkem_noise_jobs(jobs + n, ws.e, K, sigma, K, VG_MLKEM_ETA1);
    vg_mlkem_xof_jobs(jobs, n);
    for (unsigned i = 0; i < K; i++) {
        be->ntt(&ws.s[i]); /* |s| <= 3 < q in, <= q/2 out */
        be->ntt(&ws.e[i]);
    }
    for (unsigned i = 0; i < K; i++) {
        /* t-hat[i] = sum_j A-hat[i][j] o s-hat[j] + e-hat[i] (line 18).
         * basemul_acc leaves a factor R^-1, which tomont cancels: |t| < q;
         * adding |e| <= q/2 keeps it below 2q before the Barrett step. */
        be->basemul_acc(&t, vg_mlkem_rowgen_next(&g), ws.s, K);
        be->tomont_add_reduce(&t, &ws.e[i]);
        be->tobytes(ek + i * VG_MLKEM_POLYBYTES, &t);
        be->tobytes(dk_pke + i * VG_MLKEM_POLYBYTES, &ws.s[i]);
    }
    memcpy(ek + POLYVECBYTES, rho, VG_MLKEM_SYMBYTES);
    vg_wipe(&ws, sizeof ws);
}

/* ML-KEM key assembly from (rho, sigma) and z: dk = dk_pke || ek || H(ek)
 * || z (FIPS 203 Algorithm 16 line 3). */
static void vg_mlkem_keypair_rs(uint8_t *pk, uint8_t *sk, const uint8_t rho[VG_MLKEM_SYMBYTES],
                                const uint8_t sigma[VG_MLKEM_SYMBYTES],
                                const uint8_t z[VG_MLKEM_SYMBYTES])
{
    vg_mlkem_pke_keygen_rs(pk, sk, rho, sigma);
    /* The length through a value barrier: with the constant, gcc 12 inlines
     * this copy as REP MOVSQ, whose start-up cost ~40 TSC ticks (~0.5% of
     * ML-KEM-512 key generation) more than libc's vector memcpy. */
    memcpy(sk + POLYVECBYTES, pk, (size_t)vg_barrier_u64(EK_BYTES));
    vg_sha3_256(sk + POLYVECBYTES + EK_BYTES, pk, EK_BYTES);
    memcpy(sk + DK_BYTES - VG_MLKEM_SYMBYTES, z, VG_MLKEM_SYMBYTES);
}

/* Test entry point (mlkem_internal.h): key generation with rho and sigma
 * given instead of derived from d, so that the constant-time tests can hold
 * the public rho fixed while the secret sigma varies. */
void VG_MLKEM_API(keypair_rho_sigma)(uint8_t *pk, uint8_t *sk,
                                     const uint8_t rho[VG_MLKEM_SYMBYTES],
                                     const uint8_t sigma[VG_MLKEM_SYMBYTES],
                                     const uint8_t z[VG_MLKEM_SYMBYTES])
{
    vg_mlkem_keypair_rs(pk, sk, rho, sigma, z);
}

/* The noise of K-PKE.Encrypt (FIPS 203 Algorithm 14 lines 9-17): y as
 * polynomials, e1 and e2 as their PRF bytes. Out of line, so that the job
 * list is off the stack while the encryption goes on. */
VG_MLKEM_NOINLINE
static void vg_mlkem_encrypt_noise(vg_mlkem_poly y[K], uint8_t e1[K][64 * VG_MLKEM_ETA2],
                                   uint8_t e2[64 * VG_MLKEM_ETA2],
                                   const uint8_t r[VG_MLKEM_SYMBYTES])
{
    struct vg_mlkem_job jobs[2 * K + 1];
    unsigned n = vg_mlkem_noise_jobs(jobs, y, K, r, 0, VG_MLKEM_ETA1);
    for (unsigned i = 0; i < K; i++)
        vg_mlkem_job_noise_raw(&jobs[n++], e1[i], r, (uint8_t)(K + i), VG_MLKEM_ETA2);
    vg_mlkem_job_noise_raw(&jobs[n++], e2, r, (uint8_t)(2 * K), VG_MLKEM_ETA2);
    vg_mlkem_xof_jobs(jobs, n);
    vg_wipe(jobs, sizeof jobs); /* they point at r, which is secret */
}

/* K-PKE.Encrypt(ek, m, r): ek must have passed the modulus check or come
 * from a dk that passed the hash check (coefficients < 4096 either way, as
 * basemul_acc needs). g: the rows of A-hat^T for rho = ek[384k:], freshly
 * initialised (transposed) and possibly planned ahead; its buffer is reused.
 * Specification: FIPS 203, Algorithm 14.
 * When cmp is not NULL (decapsulation's re-encryption, Algorithm 18 lines
 * 8-9), the ciphertext is not stored: each piece is compared with cmp and
 * the return value is 0 when all of it equals cmp, all-ones otherwise, in
 * constant time. With cmp NULL, ct is written and 0 returned. */
VG_MLKEM_NOINLINE
static uint8_t vg_mlkem_pke_encrypt(uint8_t *ct, const uint8_t *cmp, const uint8_t ek[EK_BYTES],
                                    const uint8_t m[VG_MLKEM_SYMBYTES],
                                    const uint8_t r[VG_MLKEM_SYMBYTES], vg_mlkem_rowgen *g)
{
    const struct vg_mlkem_backend *be = vg_mlkem_active();
    struct {
        vg_mlkem_poly y[K], u, tmp;
        /* e1 and e2 as their PRF bytes until used (64 eta2 bytes each
         * instead of a 512-byte polynomial: stack for the matrix rows). */
        uint8_t e1[K][64 * VG_MLKEM_ETA2], e2[64 * VG_MLKEM_ETA2];
        uint8_t piece[32 * 11]; /* one compressed polynomial, d <= 11 */
    } ws;
    uint32_t diff = 0;

    /* y[i] = CBD_eta1(PRF(r, i)), e1[i] = CBD_eta2(PRF(r, K + i)),
     * e2 = CBD_eta2(PRF(r, 2K)) (lines 9-17), on the four-lane scheduler. */
    vg_mlkem_encrypt_noise(ws.y, ws.e1, ws.e2, r);
    for (unsigned i = 0; i < K; i++)
        be->ntt(&ws.y[i]);
    for (unsigned i = 0; i < K; i++) {
        /* u[i] = NTT^-1(sum_j A-hat^T[i][j] o y-hat[j]) + e1[i] (line 19):
         * |invntt| < q, |e1| <= 2, so the Barrett input is < q + 2. */
        be->basemul_acc(&ws.u, vg_mlkem_rowgen_next(g), ws.y, K);
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
     * matrix no longer needs (cap >= K). */
    for (unsigned i = 0; i < K; i++)
        be->frombytes(&g->a[i], ek + i * VG_MLKEM_POLYBYTES);
    /* v = NTT^-1(t-hat^T o y-hat) + e2 + Decompress_1(m) (lines 20-21):
     * |invntt| < q, |e2| <= 2, mu < q: sum < 2q + 2 < 2^15. */
    be->basemul_acc(&ws.u, g->a, ws.y, K);
    be->invntt_tomont(&ws.u);
    be->cbd(&ws.tmp, ws.e2, VG_MLKEM_ETA2);
    be->poly_add(&ws.u, &ws.u, &ws.tmp);
    be->frommsg(&ws.tmp, m);
    be->poly_add(&ws.u, &ws.u, &ws.tmp);
    be->poly_reduce(&ws.u);
    if (cmp) {
        be->compress(ws.piece, &ws.u, VG_MLKEM_DV);
        for (unsigned b = 0; b < 32 * VG_MLKEM_DV; b++)
            diff |= (uint32_t)(ws.piece[b] ^ cmp[CT_U_BYTES + b]);
    } else {
        be->compress(ct + CT_U_BYTES, &ws.u, VG_MLKEM_DV);
    }
    vg_wipe(&ws, sizeof ws);
    /* diff < 256; nonzero exactly when some byte differed. */
    return (uint8_t)vg_ct_mask_nonzero_u64(diff);
}

/* K-PKE.KeyGen from the 32-byte seed d: (rho, sigma) = G(d || k) (FIPS 203
 * Algorithm 13 line 1, the domain separation by k), then the rest. */
static void vg_mlkem_keypair_d(uint8_t *pk, uint8_t *sk, const uint8_t d[VG_MLKEM_SYMBYTES],
                               const uint8_t z[VG_MLKEM_SYMBYTES])
{
    uint8_t in[VG_MLKEM_SYMBYTES + 1], g[2 * VG_MLKEM_SYMBYTES];
    memcpy(in, d, VG_MLKEM_SYMBYTES);
    in[VG_MLKEM_SYMBYTES] = (uint8_t)K;
    vg_sha3_512(g, in, sizeof in);
    /* Declassify rho: it is derived from the secret d, but it is public by
     * the specification: ek = ByteEncode_12(t-hat) || rho (Algorithm 13
     * line 19), and SampleNTT (Algorithm 7) may take time depending on it.
     * sigma stays secret. */
    VG_CT_DECLASSIFY(g, VG_MLKEM_SYMBYTES);
    vg_mlkem_keypair_rs(pk, sk, g, g + VG_MLKEM_SYMBYTES, z);
    vg_wipe(in, sizeof in);
    vg_wipe(g, sizeof g);
}

/* K-PKE.Decrypt(dk_pke, c). Specification: FIPS 203, Algorithm 15. */
VG_MLKEM_NOINLINE
static void vg_mlkem_pke_decrypt(uint8_t m[VG_MLKEM_SYMBYTES], const uint8_t ct[CT_BYTES],
                                 const uint8_t dk_pke[POLYVECBYTES])
{
    const struct vg_mlkem_backend *be = vg_mlkem_active();
    struct {
        vg_mlkem_poly u[K], s[K], w, v;
    } ws;

    for (unsigned i = 0; i < K; i++) {
        be->decompress(&ws.u[i], ct + i * 32 * VG_MLKEM_DU, VG_MLKEM_DU); /* < q */
        be->ntt(&ws.u[i]);
        be->frombytes(&ws.s[i], dk_pke + i * VG_MLKEM_POLYBYTES); /* < 4096 */
    }
    be->decompress(&ws.v, ct + CT_U_BYTES, VG_MLKEM_DV);
    /* w = v' - NTT^-1(s-hat^T o NTT(u')) (line 6): |v' - w| < 2q. */
    be->basemul_acc(&ws.w, ws.s, ws.u, K);
    be->invntt_tomont(&ws.w);
    be->poly_sub(&ws.w, &ws.v, &ws.w);
    be->poly_reduce(&ws.w);
    be->tomsg(m, &ws.w);
    vg_wipe(&ws, sizeof ws);
}

/* FIPS 203 7.2 modulus check: ByteEncode_12(ByteDecode_12(ek)) == ek, i.e.
 * every 12-bit value is < q. Public data: timing may depend on it. */
VG_MLKEM_NOINLINE
static int vg_mlkem_ek_ok(const uint8_t ek[EK_BYTES])
{
    const struct vg_mlkem_backend *be = vg_mlkem_active();
    vg_mlkem_poly t;
    unsigned bad = 0;
    for (unsigned i = 0; i < K; i++) {
        be->frombytes(&t, ek + i * VG_MLKEM_POLYBYTES);
        for (unsigned j = 0; j < VG_MLKEM_N; j++)
            bad |= (unsigned)(t.coeffs[j] >= VG_MLKEM_Q);
    }
    return bad == 0;
}

/* FIPS 203 7.3 hash check: H(dk[384k : 768k + 32]) == dk[768k + 32 : 768k + 64].
 * Both sides are public (ek and its hash), so a plain comparison would do;
 * the constant-time one costs nothing here. */
VG_MLKEM_NOINLINE
static int vg_mlkem_dk_ok(const uint8_t dk[DK_BYTES])
{
    uint8_t h[32];
    /* Declassify ek = dk[384k : 768k + 32]: the encapsulation key, public
     * by definition (FIPS 203 Algorithm 16 line 3 stores it in dk in the
     * clear). Decapsulation regenerates A-hat from its rho and re-encrypts
     * under it (Algorithm 18 line 8), which may take time depending on rho. */
    VG_CT_DECLASSIFY(dk + POLYVECBYTES, EK_BYTES);
    vg_sha3_256(h, dk + POLYVECBYTES, EK_BYTES);
    int ok = vg_ct_memcmp(h, dk + POLYVECBYTES + EK_BYTES, 32) == 0;
    /* Declassify the verdict: a dk that fails the 7.3 check is rejected
     * with an error the caller sees, so whether it passed is public. (It
     * compares H(ek), public, with the stored hash, which only a corrupted
     * dk makes differ.) */
    VG_CT_DECLASSIFY(&ok, sizeof ok);
    return ok;
}

/* ---- public API --------------------------------------------------------- */

int VG_MLKEM_API(check_public_key)(const uint8_t *pk)
{
    if (!pk)
        return VG_ERR_INPUT;
    return vg_mlkem_ek_ok(pk) ? VG_OK : VG_ERR_INPUT;
}

int VG_MLKEM_API(check_secret_key)(const uint8_t *sk)
{
    if (!sk)
        return VG_ERR_INPUT;
    return vg_mlkem_dk_ok(sk) ? VG_OK : VG_ERR_INPUT;
}

/* ML-KEM.KeyGen_internal(d, z), seed = d || z.
 * Specification: FIPS 203, Algorithm 16. */
int VG_MLKEM_API(keypair_derand)(uint8_t *pk, uint8_t *sk, const uint8_t seed[64])
{
    if (!pk || !sk || !seed) {
        if (pk)
            memset(pk, 0, EK_BYTES);
        if (sk)
            vg_wipe(sk, DK_BYTES);
        return VG_ERR_INPUT;
    }
    /* dk = dk_pke || ek || H(ek) || z (line 3). */
    vg_mlkem_keypair_d(pk, sk, seed, seed + VG_MLKEM_SYMBYTES);
    return VG_OK;
}

/* ML-KEM.KeyGen: d and z from the OS (FIPS 203 Algorithm 19). */
int VG_MLKEM_API(keypair)(uint8_t *pk, uint8_t *sk)
{
    uint8_t seed[64];
    int ret;
    if (!pk || !sk) {
        ret = VG_MLKEM_API(keypair_derand)(pk, sk, NULL);
        goto out;
    }
    if (vg_randombytes(seed, sizeof seed) != VG_OK) {
        memset(pk, 0, EK_BYTES);
        vg_wipe(sk, DK_BYTES);
        ret = VG_ERR_RANDOM;
        goto out;
    }
    ret = VG_MLKEM_API(keypair_derand)(pk, sk, seed);
out:
    vg_wipe(seed, sizeof seed);
    return ret;
}

/* ML-KEM.Encaps_internal(ek, m) after the 7.2 input check.
 * Specification: FIPS 203, Algorithms 17 and 20 (input checking, 7.2). */
int VG_MLKEM_API(encaps_derand)(uint8_t *ct, uint8_t ss[32], const uint8_t *pk,
                                const uint8_t m[32])
{
    struct {
        uint8_t in[2 * VG_MLKEM_SYMBYTES];   /* m || H(ek) */
        uint8_t kr[2 * VG_MLKEM_SYMBYTES];   /* K || r */
        vg_mlkem_poly abuf[VG_MLKEM_EN_ROWS];
        vg_mlkem_rowgen g;
        struct vg_mlkem_job hj;
    } ws;
    if (!ct || !ss || !pk || !m || !vg_mlkem_ek_ok(pk)) {
        if (ct)
            memset(ct, 0, CT_BYTES);
        if (ss)
            vg_wipe(ss, 32);
        return VG_ERR_INPUT;
    }
    memcpy(ws.in, m, VG_MLKEM_SYMBYTES);
    /* H(ek) and A-hat^T (all of it for k <= 3, rows 0-1 for k = 4) depend only
     * on ek: on the four-lane scheduler, H(ek) (6 to 12 blocks) in one lane
     * while the matrix entries fill the others. */
    vg_mlkem_rowgen_init(&ws.g, ws.abuf, VG_MLKEM_EN_ROWS, pk + POLYVECBYTES, 1);
    vg_mlkem_job_hash(&ws.hj, ws.in + VG_MLKEM_SYMBYTES, 0x06, pk, EK_BYTES, NULL, 0);
    vg_mlkem_run_ahead(&ws.g, VG_MLKEM_EN_ROWS, &ws.hj, 1);
    vg_sha3_512(ws.kr, ws.in, sizeof ws.in); /* (K, r) = G(m || H(ek)) */
    vg_mlkem_pke_encrypt(ct, NULL, pk, m, ws.kr + VG_MLKEM_SYMBYTES, &ws.g);
    memcpy(ss, ws.kr, VG_MLKEM_SHAREDSECRETBYTES);
    vg_wipe(&ws, sizeof ws);
    return VG_OK;
}

/* ML-KEM.Encaps: m from the OS (FIPS 203 Algorithm 20). */
int VG_MLKEM_API(encaps)(uint8_t *ct, uint8_t ss[32], const uint8_t *pk)
{
    uint8_t m[VG_MLKEM_SYMBYTES];
    int ret;
    if (!ct || !ss || !pk || !vg_mlkem_ek_ok(pk)) {
        ret = VG_MLKEM_API(encaps_derand)(ct, ss, pk, NULL); /* zeroes, VG_ERR_INPUT */
        goto out;
    }
    if (vg_randombytes(m, sizeof m) != VG_OK) {
        memset(ct, 0, CT_BYTES);
        vg_wipe(ss, 32);
        ret = VG_ERR_RANDOM;
        goto out;
    }
    ret = VG_MLKEM_API(encaps_derand)(ct, ss, pk, m);
out:
    vg_wipe(m, sizeof m);
    return ret;
}

/* ML-KEM.Decaps after the 7.3 hash check, with implicit rejection.
 * Specification: FIPS 203, Algorithms 18 and 21. */
int VG_MLKEM_API(decaps)(uint8_t ss[32], const uint8_t *ct, const uint8_t *sk)
{
    struct {
        uint8_t in[2 * VG_MLKEM_SYMBYTES]; /* m' || h */
        uint8_t kr[2 * VG_MLKEM_SYMBYTES]; /* K' || r' */
        uint8_t kbar[VG_MLKEM_SYMBYTES];
        uint8_t hek[VG_MLKEM_SYMBYTES];    /* H(ek), for the 7.3 check */
        vg_mlkem_poly abuf[VG_MLKEM_DE_ROWS];
        vg_mlkem_rowgen g;
        struct vg_mlkem_job hj[2];
    } ws;
    if (!ss || !ct || !sk) {
        if (ss)
            vg_wipe(ss, 32);
        return VG_ERR_INPUT;
    }
    /* The parts of dk (FIPS 203 Algorithm 21): only after the NULL check,
     * as pointer arithmetic on NULL is undefined. */
    const uint8_t *dk_pke = sk, *ek = sk + POLYVECBYTES;
    const uint8_t *h = ek + EK_BYTES, *z = h + VG_MLKEM_SYMBYTES;
    /* Declassify ek: public by definition (Algorithm 16 line 3 stores it in
     * dk in the clear); A-hat is regenerated from its rho below, which may
     * take time depending on rho. */
    VG_CT_DECLASSIFY(ek, EK_BYTES);

    /* Three independent Keccak computations first, on the four-lane
     * scheduler: H(ek) for the 7.3 hash check, K-bar = J(z || c) =
     * SHAKE256(z || c, 32) (Algorithm 18 line 8) and A-hat^T (all of it for
     * k <= 3, rows 0-1 for k = 4) for the re-encryption. */
    vg_mlkem_rowgen_init(&ws.g, ws.abuf, VG_MLKEM_DE_ROWS, ek + POLYVECBYTES, 1);
    vg_mlkem_job_hash(&ws.hj[0], ws.hek, 0x06, ek, EK_BYTES, NULL, 0);
    vg_mlkem_job_hash(&ws.hj[1], ws.kbar, 0x1f, z, VG_MLKEM_SYMBYTES, ct, CT_BYTES);
    vg_mlkem_run_ahead(&ws.g, VG_MLKEM_DE_ROWS, ws.hj, 2);
    /* FIPS 203 7.3 hash check. Declassify the verdict: a dk that fails it
     * is rejected with an error the caller sees, so whether it passed is
     * public. */
    int ok = vg_ct_memcmp(ws.hek, h, VG_MLKEM_SYMBYTES) == 0;
    VG_CT_DECLASSIFY(&ok, sizeof ok);
    if (!ok) {
        vg_wipe(&ws, sizeof ws);
        vg_wipe(ss, 32);
        return VG_ERR_INPUT;
    }

    vg_mlkem_pke_decrypt(ws.in, ct, dk_pke);
    memcpy(ws.in + VG_MLKEM_SYMBYTES, h, VG_MLKEM_SYMBYTES);
    vg_sha3_512(ws.kr, ws.in, sizeof ws.in); /* (K', r') = G(m' || h) */
    /* c' = K-PKE.Encrypt(ek, m', r') compared with c as it is produced
     * (lines 9-10), so c' is never stored: mask is 0 when c = c', all-ones
     * otherwise, behind a barrier. */
    uint8_t mask = (uint8_t)vg_barrier_u32(
        vg_mlkem_pke_encrypt(NULL, ct, ek, ws.in, ws.kr + VG_MLKEM_SYMBYTES, &ws.g));

    /* Line 11: if c != c' then K' = K-bar, without a branch. */
    for (unsigned i = 0; i < VG_MLKEM_SHAREDSECRETBYTES; i++)
        ss[i] = (uint8_t)(ws.kr[i] ^ (mask & (ws.kr[i] ^ ws.kbar[i])));
    vg_wipe(&ws, sizeof ws);
    return VG_OK;
}

#undef K
#undef POLYVECBYTES
#undef EK_BYTES
#undef DK_BYTES
#undef CT_U_BYTES
#undef CT_BYTES
#undef VG_MLKEM_KG_ROWS
#undef VG_MLKEM_EN_ROWS
#undef VG_MLKEM_DE_ROWS
#undef VG_MLKEM_NOINLINE
