/*
 * ML-KEM (FIPS 203 sections 6 and 7) for the parameter set of this
 * compilation (params.h): key generation, encapsulation, decapsulation and
 * the input checks, on K-PKE (indcpa.h). Compiled once per set; the public
 * functions of each set are the thin wrappers at the end of this file,
 * each under its full name.
 *
 * Naming follows FIPS 203: ek = encapsulation (public) key, dk =
 * decapsulation (secret) key, K-PKE the inner public-key encryption.
 */
#include "common.h"
#include "indcpa.h"
#include "mlkem_internal.h"

/* For the operations below that a public wrapper (end of this file) calls,
 * and their small helpers: inlined, so that a wrapper adds no stack frame
 * (test_stack) and no call. */
#define VG_MLKEM_OP_INLINE static inline __attribute__((always_inline))

/* ML-KEM key assembly from (rho, sigma) and z: dk = dk_pke || ek || H(ek)
 * || z (FIPS 203 Algorithm 16 line 3). */
static void vg_mlkem_keypair_rs(const struct vg_mlkem_backend *be, uint8_t *pk, uint8_t *sk,
                                const uint8_t rho[VG_MLKEM_SYMBYTES],
                                const uint8_t sigma[VG_MLKEM_SYMBYTES],
                                const uint8_t z[VG_MLKEM_SYMBYTES])
{
    uint8_t hstate[200];
    size_t hdone = vg_mlkem_pke_keygen(be, pk, sk, rho, sigma, hstate);
    /* The length through a value barrier: with the constant, gcc 12 inlines
     * this copy as REP MOVSQ, whose start-up cost is higher than that of
     * libc's vector memcpy (see docs/benchmarks.md). */
    memcpy(sk + VG_MLKEM_POLYVECBYTES, pk, (size_t)vg_barrier_u64(VG_MLKEM_EK_BYTES));
    if (hdone > 0) {
        /* H(ek) from the state after its first hdone bytes (a multiple of
         * the rate, absorbed by key generation on the four-way Keccak):
         * the same sponge, continued (FIPS 202 Algorithm 8). ek and its
         * hash are public: nothing to wipe but what sha3_final wipes. */
        vg_keccak_ctx ctx;
        vg_sha3_256_ctx_init(&ctx);
        for (unsigned i = 0; i < 25; i++)
            ctx.st[i] = vg_load64_le(hstate + 8 * i);
        vg_keccak_absorb(&ctx, pk + hdone, VG_MLKEM_EK_BYTES - hdone);
        vg_sha3_final(&ctx, sk + VG_MLKEM_POLYVECBYTES + VG_MLKEM_EK_BYTES, 32);
    } else {
        vg_sha3_256(sk + VG_MLKEM_POLYVECBYTES + VG_MLKEM_EK_BYTES, pk, VG_MLKEM_EK_BYTES);
    }
    memcpy(sk + VG_MLKEM_DK_BYTES - VG_MLKEM_SYMBYTES, z, VG_MLKEM_SYMBYTES);
}

/* Test entry point (mlkem_internal.h): key generation with rho and sigma
 * given instead of derived from d, so that the constant-time tests can hold
 * the public rho fixed while the secret sigma varies. */
VG_MLKEM_OP_INLINE
void vg_mlkem_kem_keypair_rho_sigma(const struct vg_mlkem_backend *be, uint8_t *pk,
                                    uint8_t *sk, const uint8_t rho[VG_MLKEM_SYMBYTES],
                                    const uint8_t sigma[VG_MLKEM_SYMBYTES],
                                    const uint8_t z[VG_MLKEM_SYMBYTES])
{
    vg_mlkem_keypair_rs(be, pk, sk, rho, sigma, z);
}

/* K-PKE.KeyGen from the 32-byte seed d: (rho, sigma) = G(d || k) (FIPS 203
 * Algorithm 13 line 1, the domain separation by k), then the rest. */
VG_MLKEM_OP_INLINE
void vg_mlkem_keypair_d(const struct vg_mlkem_backend *be, uint8_t *pk, uint8_t *sk,
                        const uint8_t d[VG_MLKEM_SYMBYTES], const uint8_t z[VG_MLKEM_SYMBYTES])
{
    /* The 33 bytes d || k are staged in dk where H(ek) || z go (dk[768k +
     * 32 : 768k + 65)), which keypair_rs overwrites completely, so no stack
     * copy of the secret d is made (nor needs wiping). */
    uint8_t *in = sk + VG_MLKEM_POLYVECBYTES + VG_MLKEM_EK_BYTES, g[2 * VG_MLKEM_SYMBYTES];
    memcpy(in, d, VG_MLKEM_SYMBYTES);
    in[VG_MLKEM_SYMBYTES] = (uint8_t)VG_MLKEM_K;
    vg_sha3_512(g, in, VG_MLKEM_SYMBYTES + 1);
    /* Declassify rho: it is derived from the secret d, but it is public by
     * the specification: ek = ByteEncode_12(t-hat) || rho (Algorithm 13
     * line 19), and SampleNTT (Algorithm 7) may take time depending on it.
     * sigma stays secret. */
    VG_CT_DECLASSIFY(g, VG_MLKEM_SYMBYTES);
    vg_mlkem_keypair_rs(be, pk, sk, g, g + VG_MLKEM_SYMBYTES, z);
    vg_wipe(g, sizeof g);
}

/* FIPS 203 7.3 hash check: H(dk[384k : 768k + 32]) == dk[768k + 32 : 768k + 64].
 * Both sides are public (ek and its hash), so a plain comparison would do;
 * the constant-time one costs nothing here. */
VG_MLKEM_NOINLINE
static int vg_mlkem_dk_ok(const uint8_t dk[VG_MLKEM_DK_BYTES])
{
    uint8_t h[32];
    /* Declassify ek = dk[384k : 768k + 32]: the encapsulation key, public
     * by definition (FIPS 203 Algorithm 16 line 3 stores it in dk in the
     * clear). Decapsulation regenerates A-hat from its rho and re-encrypts
     * under it (Algorithm 18 line 8), which may take time depending on rho. */
    VG_CT_DECLASSIFY(dk + VG_MLKEM_POLYVECBYTES, VG_MLKEM_EK_BYTES);
    vg_sha3_256(h, dk + VG_MLKEM_POLYVECBYTES, VG_MLKEM_EK_BYTES);
    int ok = vg_ct_memcmp(h, dk + VG_MLKEM_POLYVECBYTES + VG_MLKEM_EK_BYTES, 32) == 0;
    /* Declassify the verdict: a dk that fails the 7.3 check is rejected
     * with an error the caller sees, so whether it passed is public. (It
     * compares H(ek), public, with the stored hash, which only a corrupted
     * dk makes differ.) */
    VG_CT_DECLASSIFY(&ok, sizeof ok);
    return ok;
}

/* ---- the operations ------------------------------------------------------
 * Each public function (the wrappers at the end of this file) chooses the
 * backend once (vg_mlkem_active, poly.h) and passes it to one of these.
 * They are inlined into the wrappers (VG_MLKEM_OP_INLINE). */

VG_MLKEM_OP_INLINE
int vg_mlkem_kem_check_public_key(const struct vg_mlkem_backend *be, const uint8_t *pk)
{
    if (!pk)
        return VG_ERR_INPUT;
    return vg_mlkem_ek_ok(be, pk) ? VG_OK : VG_ERR_INPUT;
}

VG_MLKEM_OP_INLINE
int vg_mlkem_kem_check_secret_key(const uint8_t *sk)
{
    if (!sk)
        return VG_ERR_INPUT;
    return vg_mlkem_dk_ok(sk) ? VG_OK : VG_ERR_INPUT;
}

/* ML-KEM.KeyGen_internal(d, z), seed = d || z.
 * Specification: FIPS 203, Algorithm 16. */
VG_MLKEM_OP_INLINE
int vg_mlkem_kem_keypair_derand(const struct vg_mlkem_backend *be, uint8_t *pk, uint8_t *sk,
                                const uint8_t seed[64])
{
    if (!pk || !sk || !seed) {
        if (pk)
            memset(pk, 0, VG_MLKEM_EK_BYTES);
        if (sk)
            vg_wipe(sk, VG_MLKEM_DK_BYTES);
        return VG_ERR_INPUT;
    }
    /* dk = dk_pke || ek || H(ek) || z (line 3). */
    vg_mlkem_keypair_d(be, pk, sk, seed, seed + VG_MLKEM_SYMBYTES);
    return VG_OK;
}

/* ML-KEM.KeyGen: d and z from the OS (FIPS 203 Algorithm 19). */
VG_MLKEM_OP_INLINE
int vg_mlkem_kem_keypair(const struct vg_mlkem_backend *be, uint8_t *pk, uint8_t *sk)
{
    uint8_t seed[64];
    int ret;
    if (!pk || !sk) {
        ret = vg_mlkem_kem_keypair_derand(be, pk, sk, NULL);
        goto out;
    }
    if (vg_randombytes(seed, sizeof seed) != VG_OK) {
        memset(pk, 0, VG_MLKEM_EK_BYTES);
        vg_wipe(sk, VG_MLKEM_DK_BYTES);
        ret = VG_ERR_RANDOM;
        goto out;
    }
    ret = vg_mlkem_kem_keypair_derand(be, pk, sk, seed);
out:
    vg_wipe(seed, sizeof seed);
    return ret;
}

/* ML-KEM.Encaps_internal(ek, m) on arguments that passed the checks of
 * encaps_derand / encaps (non-NULL, 7.2 modulus check).
 * Specification: FIPS 203, Algorithm 17. */
VG_MLKEM_OP_INLINE
void vg_mlkem_encaps_checked(const struct vg_mlkem_backend *be, uint8_t *ct,
                             uint8_t ss[32], const uint8_t *pk, const uint8_t m[32])
{
    struct {
        uint8_t in[2 * VG_MLKEM_SYMBYTES];   /* m || H(ek) */
        uint8_t kr[2 * VG_MLKEM_SYMBYTES];   /* K || r */
        vg_mlkem_poly abuf[VG_MLKEM_EN_ROWS];
        vg_mlkem_rowgen g;
        struct vg_mlkem_job hj;
    } ws;
    memcpy(ws.in, m, VG_MLKEM_SYMBYTES);
    /* H(ek) and A-hat^T (all of it for k <= 3, rows 0-1 for k = 4) depend only
     * on ek: on the four-lane scheduler, H(ek) (6 to 12 blocks) in one lane
     * while the matrix entries fill the others. */
    vg_mlkem_job_hash(&ws.hj, ws.in + VG_MLKEM_SYMBYTES, 0x06, pk, VG_MLKEM_EK_BYTES, NULL, 0);
    vg_mlkem_rowgen_init(&ws.g, ws.abuf, VG_MLKEM_EN_ROWS, pk + VG_MLKEM_POLYVECBYTES, 1);
    vg_mlkem_pke_ahead(be, &ws.g, VG_MLKEM_EN_ROWS, &ws.hj, 1);
    vg_sha3_512(ws.kr, ws.in, sizeof ws.in); /* (K, r) = G(m || H(ek)) */
    vg_mlkem_pke_encrypt(be, ct, NULL, pk, m, ws.kr + VG_MLKEM_SYMBYTES, &ws.g);
    memcpy(ss, ws.kr, VG_MLKEM_SHAREDSECRETBYTES);
    /* Only in (m) and kr (K, r) are secret; the rows of A-hat, the row
     * generator and the job are public (from ek) or pointers and lengths,
     * so their 2-4 KiB are not wiped (docs/benchmarks.md, issue 20). */
    vg_wipe(&ws, sizeof ws.in + sizeof ws.kr);
}

/* Zero both outputs of a failed encapsulation (those not NULL). */
static void vg_mlkem_encaps_fail(uint8_t *ct, uint8_t *ss)
{
    if (ct)
        memset(ct, 0, VG_MLKEM_CT_BYTES);
    if (ss)
        vg_wipe(ss, VG_MLKEM_SHAREDSECRETBYTES);
}

/* ML-KEM.Encaps_internal(ek, m) after the 7.2 input check.
 * Specification: FIPS 203, Algorithms 17 and 20 (input checking, 7.2). */
VG_MLKEM_OP_INLINE
int vg_mlkem_kem_encaps_derand(const struct vg_mlkem_backend *be, uint8_t *ct,
                               uint8_t ss[32], const uint8_t *pk, const uint8_t m[32])
{
    if (!ct || !ss || !pk || !m || !vg_mlkem_ek_ok(be, pk)) {
        vg_mlkem_encaps_fail(ct, ss);
        return VG_ERR_INPUT;
    }
    vg_mlkem_encaps_checked(be, ct, ss, pk, m);
    return VG_OK;
}

/* ML-KEM.Encaps: m from the OS (FIPS 203 Algorithm 20), the 7.2 check once. */
VG_MLKEM_OP_INLINE
int vg_mlkem_kem_encaps(const struct vg_mlkem_backend *be, uint8_t *ct, uint8_t ss[32],
                        const uint8_t *pk)
{
    uint8_t m[VG_MLKEM_SYMBYTES];
    int ret = VG_OK;
    if (!ct || !ss || !pk || !vg_mlkem_ek_ok(be, pk)) {
        vg_mlkem_encaps_fail(ct, ss);
        ret = VG_ERR_INPUT;
        goto out;
    }
    if (vg_randombytes(m, sizeof m) != VG_OK) {
        vg_mlkem_encaps_fail(ct, ss);
        ret = VG_ERR_RANDOM;
        goto out;
    }
    vg_mlkem_encaps_checked(be, ct, ss, pk, m);
out:
    vg_wipe(m, sizeof m);
    return ret;
}

#define VG_MLKEM_DECAPS_SECRET(w) (sizeof(w).in + sizeof(w).kr + sizeof(w).kbar)

/* ML-KEM.Decaps after the 7.3 hash check, with implicit rejection.
 * Specification: FIPS 203, Algorithms 18 and 21. */
VG_MLKEM_OP_INLINE
int vg_mlkem_kem_decaps(const struct vg_mlkem_backend *be, uint8_t ss[32],
                        const uint8_t *ct, const uint8_t *sk)
{
    /* The secrets first: in (m'), kr (K', r') and kbar (K-bar), wiped at
     * the end (VG_MLKEM_DECAPS_SECRET); H(ek), the rows of A-hat, the row
     * generator and the jobs are public (from ek) or pointers and lengths,
     * so their 4 KiB are not wiped (docs/benchmarks.md, issue 20). The
     * three arrays are bytes, so no padding lies between them. */
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
    const uint8_t *dk_pke = sk, *ek = sk + VG_MLKEM_POLYVECBYTES;
    const uint8_t *h = ek + VG_MLKEM_EK_BYTES, *z = h + VG_MLKEM_SYMBYTES;
    /* Declassify ek: public by definition (Algorithm 16 line 3 stores it in
     * dk in the clear); A-hat is regenerated from its rho below, which may
     * take time depending on rho. */
    VG_CT_DECLASSIFY(ek, VG_MLKEM_EK_BYTES);

    /* Three independent Keccak computations first, on the four-lane
     * scheduler: H(ek) for the 7.3 hash check, K-bar = J(z || c) =
     * SHAKE256(z || c, 32) (Algorithm 18 line 8) and A-hat^T (all of it for
     * k <= 3, rows 0-1 for k = 4) for the re-encryption. */
    vg_mlkem_job_hash(&ws.hj[0], ws.hek, 0x06, ek, VG_MLKEM_EK_BYTES, NULL, 0);
    vg_mlkem_job_hash(&ws.hj[1], ws.kbar, 0x1f, z, VG_MLKEM_SYMBYTES, ct, VG_MLKEM_CT_BYTES);
    vg_mlkem_rowgen_init(&ws.g, ws.abuf, VG_MLKEM_DE_ROWS, ek + VG_MLKEM_POLYVECBYTES, 1);
    vg_mlkem_pke_ahead(be, &ws.g, VG_MLKEM_DE_ROWS, ws.hj, 2);
    /* FIPS 203 7.3 hash check. Declassify the verdict: a dk that fails it
     * is rejected with an error the caller sees, so whether it passed is
     * public. */
    int ok = vg_ct_memcmp(ws.hek, h, VG_MLKEM_SYMBYTES) == 0;
    VG_CT_DECLASSIFY(&ok, sizeof ok);
    if (!ok) {
        vg_wipe(&ws, VG_MLKEM_DECAPS_SECRET(ws));
        vg_wipe(ss, 32);
        return VG_ERR_INPUT;
    }

    vg_mlkem_pke_decrypt(be, ws.in, ct, dk_pke);
    memcpy(ws.in + VG_MLKEM_SYMBYTES, h, VG_MLKEM_SYMBYTES);
    vg_sha3_512(ws.kr, ws.in, sizeof ws.in); /* (K', r') = G(m' || h) */
    /* c' = K-PKE.Encrypt(ek, m', r') compared with c as it is produced
     * (lines 9-10), so c' is never stored: mask is 0 when c = c', all-ones
     * otherwise, behind a barrier. */
    uint8_t mask = (uint8_t)vg_barrier_u32(
        vg_mlkem_pke_encrypt(be, NULL, ct, ek, ws.in, ws.kr + VG_MLKEM_SYMBYTES, &ws.g));

    /* Line 11: if c != c' then K' = K-bar, without a branch. */
    for (unsigned i = 0; i < VG_MLKEM_SHAREDSECRETBYTES; i++)
        ss[i] = (uint8_t)(ws.kr[i] ^ (mask & (ws.kr[i] ^ ws.kbar[i])));
    vg_wipe(&ws, VG_MLKEM_DECAPS_SECRET(ws));
    return VG_OK;
}

#if VG_MLKEM_K == 2

/* ---- ML-KEM-512: the public functions (vgcrypto.h), each choosing the backend once */

int vg_mlkem512_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[64])
{
    return vg_mlkem_kem_keypair_derand(vg_mlkem_active(), pk, sk, seed);
}

int vg_mlkem512_keypair(uint8_t *pk, uint8_t *sk)
{
    return vg_mlkem_kem_keypair(vg_mlkem_active(), pk, sk);
}

int vg_mlkem512_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *pk, const uint8_t m[32])
{
    return vg_mlkem_kem_encaps_derand(vg_mlkem_active(), ct, ss, pk, m);
}

int vg_mlkem512_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *pk)
{
    return vg_mlkem_kem_encaps(vg_mlkem_active(), ct, ss, pk);
}

int vg_mlkem512_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *sk)
{
    return vg_mlkem_kem_decaps(vg_mlkem_active(), ss, ct, sk);
}

int vg_mlkem512_check_public_key(const uint8_t *pk)
{
    return vg_mlkem_kem_check_public_key(vg_mlkem_active(), pk);
}

int vg_mlkem512_check_secret_key(const uint8_t *sk)
{
    return vg_mlkem_kem_check_secret_key(sk);
}

/* Test entry point (mlkem_internal.h). */
void vg_mlkem512_keypair_rho_sigma(uint8_t *pk, uint8_t *sk, const uint8_t rho[32],
                                  const uint8_t sigma[32], const uint8_t z[32])
{
    vg_mlkem_kem_keypair_rho_sigma(vg_mlkem_active(), pk, sk, rho, sigma, z);
}

#elif VG_MLKEM_K == 3

/* ---- ML-KEM-768: the public functions (vgcrypto.h), each choosing the backend once */

int vg_mlkem768_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[64])
{
    return vg_mlkem_kem_keypair_derand(vg_mlkem_active(), pk, sk, seed);
}

int vg_mlkem768_keypair(uint8_t *pk, uint8_t *sk)
{
    return vg_mlkem_kem_keypair(vg_mlkem_active(), pk, sk);
}

int vg_mlkem768_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *pk, const uint8_t m[32])
{
    return vg_mlkem_kem_encaps_derand(vg_mlkem_active(), ct, ss, pk, m);
}

int vg_mlkem768_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *pk)
{
    return vg_mlkem_kem_encaps(vg_mlkem_active(), ct, ss, pk);
}

int vg_mlkem768_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *sk)
{
    return vg_mlkem_kem_decaps(vg_mlkem_active(), ss, ct, sk);
}

int vg_mlkem768_check_public_key(const uint8_t *pk)
{
    return vg_mlkem_kem_check_public_key(vg_mlkem_active(), pk);
}

int vg_mlkem768_check_secret_key(const uint8_t *sk)
{
    return vg_mlkem_kem_check_secret_key(sk);
}

/* Test entry point (mlkem_internal.h). */
void vg_mlkem768_keypair_rho_sigma(uint8_t *pk, uint8_t *sk, const uint8_t rho[32],
                                  const uint8_t sigma[32], const uint8_t z[32])
{
    vg_mlkem_kem_keypair_rho_sigma(vg_mlkem_active(), pk, sk, rho, sigma, z);
}

#elif VG_MLKEM_K == 4

/* ---- ML-KEM-1024: the public functions (vgcrypto.h), each choosing the backend once */

int vg_mlkem1024_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t seed[64])
{
    return vg_mlkem_kem_keypair_derand(vg_mlkem_active(), pk, sk, seed);
}

int vg_mlkem1024_keypair(uint8_t *pk, uint8_t *sk)
{
    return vg_mlkem_kem_keypair(vg_mlkem_active(), pk, sk);
}

int vg_mlkem1024_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *pk, const uint8_t m[32])
{
    return vg_mlkem_kem_encaps_derand(vg_mlkem_active(), ct, ss, pk, m);
}

int vg_mlkem1024_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *pk)
{
    return vg_mlkem_kem_encaps(vg_mlkem_active(), ct, ss, pk);
}

int vg_mlkem1024_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *sk)
{
    return vg_mlkem_kem_decaps(vg_mlkem_active(), ss, ct, sk);
}

int vg_mlkem1024_check_public_key(const uint8_t *pk)
{
    return vg_mlkem_kem_check_public_key(vg_mlkem_active(), pk);
}

int vg_mlkem1024_check_secret_key(const uint8_t *sk)
{
    return vg_mlkem_kem_check_secret_key(sk);
}

/* Test entry point (mlkem_internal.h). */
void vg_mlkem1024_keypair_rho_sigma(uint8_t *pk, uint8_t *sk, const uint8_t rho[32],
                                  const uint8_t sigma[32], const uint8_t z[32])
{
    vg_mlkem_kem_keypair_rho_sigma(vg_mlkem_active(), pk, sk, rho, sigma, z);
}

#endif
