/*
 * ML-DSA (FIPS 204) verification for one parameter set (params.h; this file
 * is compiled once per set, vg_param_set in CMakeLists.txt). Public data
 * throughout. A-hat is generated one row at a time (arows.h).
 */
#include <string.h>

#include "arows.h"
#include "common.h"
#include "hashml.h"
#include "params.h"
#include "poly.h"

/* sigDecode's hint part, HintBitUnpack: 0 and h on success, -1 for a
 * malformed encoding (indices not strictly increasing within a row,
 * counts decreasing or above omega, nonzero padding).
 * Specification: FIPS 204, Algorithm 21. */
static int vg_mldsa_unpack_hints(vg_mldsa_poly h[VG_MLDSA_K],
                                 const uint8_t y[VG_MLDSA_OMEGA + VG_MLDSA_K])
{
    unsigned idx = 0;
    memset(h, 0, VG_MLDSA_K * sizeof(vg_mldsa_poly));
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        unsigned end = y[VG_MLDSA_OMEGA + i];
        if (end < idx || end > VG_MLDSA_OMEGA)
            return -1;
        for (unsigned first = idx; idx < end; idx++) {
            if (idx > first && y[idx - 1] >= y[idx])
                return -1;
            h[i].coeffs[y[idx]] = 1;
        }
    }
    for (; idx < VG_MLDSA_OMEGA; idx++)
        if (y[idx] != 0)
            return -1;
    return 0;
}

/* ML-DSA.Verify_internal from mu on (Algorithm 8 lines 1-13 with mu given).
 * Public data throughout: variable time is fine. VG_OK or VG_ERR_VERIFY.
 * A-hat is generated one row at a time.
 * Specification: FIPS 204, Algorithm 8 (with 23 pkDecode, 27 sigDecode). */
static int vg_mldsa_verify_mu_core(const struct vg_mldsa_backend *be,
                                   const uint8_t sig[VG_MLDSA_SIG_BYTES],
                                   const uint8_t mu[VG_MLDSA_CRHBYTES],
                                   const uint8_t pk[VG_MLDSA_PK_BYTES])
{
    struct {
        uint8_t w1enc[VG_MLDSA_K * VG_MLDSA_POLYW1_BYTES];
        uint8_t ctilde2[VG_MLDSA_CTILDEBYTES];
        vg_mldsa_poly z[VG_MLDSA_L], h[VG_MLDSA_K];
        vg_mldsa_poly c, acc, t, w1;
        struct vg_mldsa_arows arows;
    } ws;
    vg_keccak_ctx ctx;
    const uint8_t *rho = pk;

    if (vg_mldsa_unpack_hints(ws.h,
                              sig + VG_MLDSA_CTILDEBYTES + VG_MLDSA_L * VG_MLDSA_POLYZ_BYTES) != 0)
        return VG_ERR_VERIFY;
    /* ||z|| < gamma1 - beta (line 13); z from BitUnpack is centred. */
    for (unsigned j = 0; j < VG_MLDSA_L; j++) {
        vg_mldsa_polyz_unpack(be, &ws.z[j], sig + VG_MLDSA_CTILDEBYTES + j * VG_MLDSA_POLYZ_BYTES,
                              VG_MLDSA_GAMMA1);
        if (be->chknorm(&ws.z[j], VG_MLDSA_GAMMA1 - VG_MLDSA_BETA))
            return VG_ERR_VERIFY;
        be->ntt(&ws.z[j]);
    }
    vg_mldsa_poly_challenge(be, &ws.c, sig, VG_MLDSA_CTILDEBYTES, VG_MLDSA_TAU);
    be->ntt(&ws.c);
    ws.arows.next = 0;
    for (unsigned i = 0; i < VG_MLDSA_K; i++) {
        /* w'_Approx = NTT^-1(A-hat o NTT(z) - NTT(c) o NTT(t1 2^d)) (line 9):
         * the row product < q minus one product < q: |acc| < 2q < 2^27. */
        be->pointwise_acc(&ws.acc, vg_mldsa_arow(be, &ws.arows, rho, i), ws.z, VG_MLDSA_L);
        vg_mldsa_polyt1_unpack(be, &ws.t, pk + VG_MLDSA_SYMBYTES + i * VG_MLDSA_POLYT1_BYTES);
        vg_mldsa_poly_shiftl(be, &ws.t);
        be->ntt(&ws.t);
        if (be->verify_row) {
            /* The sequence below in one pass (poly.h, verify_row). */
            be->verify_row(&ws.w1, &ws.acc, &ws.c, &ws.t, &ws.h[i], VG_MLDSA_GAMMA2);
        } else {
            be->pointwise(&ws.t, &ws.t, &ws.c);
            be->sub(&ws.acc, &ws.acc, &ws.t);
            be->invntt_tomont(&ws.acc);
            be->caddq(&ws.acc);
            /* w1' = UseHint(h, w'_Approx) (line 10). */
            vg_mldsa_poly_use_hint(be, &ws.w1, &ws.acc, &ws.h[i], VG_MLDSA_GAMMA2);
        }
        vg_mldsa_polyw1_pack(be, ws.w1enc + i * VG_MLDSA_POLYW1_BYTES, &ws.w1, VG_MLDSA_GAMMA2);
    }
    /* c-tilde' = H(mu || w1Encode(w1'), lambda/4) (line 12). */
    vg_shake256_ctx_init(&ctx);
    vg_keccak_absorb(&ctx, mu, VG_MLDSA_CRHBYTES);
    vg_keccak_absorb(&ctx, ws.w1enc, sizeof ws.w1enc);
    vg_keccak_finalize(&ctx);
    vg_keccak_squeeze(&ctx, ws.ctilde2, VG_MLDSA_CTILDEBYTES);
    return vg_ct_memcmp(ws.ctilde2, sig, VG_MLDSA_CTILDEBYTES) == 0 ? VG_OK : VG_ERR_VERIFY;
}

/* External mu: Algorithm 8 from line 7 on (tr and mu are the caller's). */
static int vg_mldsa_verify_mu_impl(const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                                   const uint8_t *pk)
{
    /* NULL inputs: VG_ERR_VERIFY (DESIGN section 2, verification). */
    if (!sig || !mu || !pk)
        return VG_ERR_VERIFY;
    if (sig_len != VG_MLDSA_SIG_BYTES)
        return VG_ERR_VERIFY;
    return vg_mldsa_verify_mu_core(vg_mldsa_active(), sig, mu, pk);
}

/* ML-DSA.Verify_internal(pk, M', sigma). Specification: FIPS 204, Algorithm 8. */
static int vg_mldsa_verify_internal_impl(const uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                                         size_t mprime_len, const uint8_t *pk)
{
    uint8_t tr[VG_MLDSA_CRHBYTES], mu[VG_MLDSA_CRHBYTES];
    if (!sig || (!mprime && mprime_len) || !pk)
        return VG_ERR_VERIFY;
    if (sig_len != VG_MLDSA_SIG_BYTES)
        return VG_ERR_VERIFY;
    vg_shake256(tr, sizeof tr, pk, VG_MLDSA_PK_BYTES);         /* line 6 */
    vg_mldsa_mu(mu, tr, NULL, 0, NULL, 0, mprime, mprime_len); /* line 7 */
    return vg_mldsa_verify_mu_core(vg_mldsa_active(), sig, mu, pk);
}

/* ML-DSA.Verify: M' = 0 || |ctx| || ctx || M.
 * Specification: FIPS 204, Algorithm 3. */
static int vg_mldsa_verify_impl(const uint8_t *sig, size_t sig_len, const uint8_t *msg,
                                size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                                const uint8_t *pk)
{
    uint8_t tr[VG_MLDSA_CRHBYTES], mu[VG_MLDSA_CRHBYTES], prefix[2];
    /* A context over 255 bytes is refused (VG_ERR_INPUT, FIPS 204
     * Algorithm 3 line 1); NULL inputs do not verify. */
    if (ctx_len > VG_MLDSA_CTXMAXBYTES)
        return VG_ERR_INPUT;
    if (!sig || (!msg && msg_len) || (!ctx && ctx_len) || !pk)
        return VG_ERR_VERIFY;
    if (sig_len != VG_MLDSA_SIG_BYTES)
        return VG_ERR_VERIFY;
    prefix[0] = 0;
    prefix[1] = (uint8_t)ctx_len;
    vg_shake256(tr, sizeof tr, pk, VG_MLDSA_PK_BYTES);
    vg_mldsa_mu(mu, tr, prefix, 2, ctx, ctx_len, msg, msg_len);
    return vg_mldsa_verify_mu_core(vg_mldsa_active(), sig, mu, pk);
}

/* HashML-DSA.Verify on the caller's digest ph: M' = 1 || |ctx| || ctx ||
 * OID || ph, then Verify_internal. ctx_len > 255, an unknown hash_id or a
 * wrong ph_len: VG_ERR_INPUT (a usage error, not a bad signature); NULL
 * inputs do not verify. Specification: FIPS 204, Algorithm 5. */
static int vg_mldsa_verify_prehash_impl(const uint8_t *sig, size_t sig_len, const uint8_t *ph,
                                        size_t ph_len, int hash_id, const uint8_t *ctx,
                                        size_t ctx_len, const uint8_t *pk)
{
    uint8_t tr[VG_MLDSA_CRHBYTES], mu[VG_MLDSA_CRHBYTES], prefix[2], tail[VG_MLDSA_OIDPH_MAX];
    size_t tail_len = 0;
    if (ctx_len > VG_MLDSA_CTXMAXBYTES)
        return VG_ERR_INPUT;
    if (!ph)
        return VG_ERR_VERIFY;
    if (vg_mldsa_prehash_tail(tail, &tail_len, hash_id, ph, ph_len) != VG_OK)
        return VG_ERR_INPUT;
    if (!sig || (!ctx && ctx_len) || !pk || sig_len != VG_MLDSA_SIG_BYTES)
        return VG_ERR_VERIFY;
    prefix[0] = 1;
    prefix[1] = (uint8_t)ctx_len;
    vg_shake256(tr, sizeof tr, pk, VG_MLDSA_PK_BYTES);                 /* Algorithm 8 line 6 */
    vg_mldsa_mu(mu, tr, prefix, 2, ctx, ctx_len, tail, tail_len);      /* line 7 */
    return vg_mldsa_verify_mu_core(vg_mldsa_active(), sig, mu, pk);
}

/* The mu state for this set: tr = H(pk, 64) (Algorithm 8 line 6; the same
 * tr as the one in sk, Algorithm 6 line 6), then the pure ML-DSA prefix
 * 0 || |ctx| || ctx of M' (Algorithms 2 and 3 line 5). */
static int vg_mldsa_mu_init_impl(vg_mldsa_mu_state *st, const uint8_t *pk, const uint8_t *ctx,
                                 size_t ctx_len)
{
    uint8_t tr[VG_MLDSA_CRHBYTES];
    if (!st)
        return VG_ERR_INPUT;
    if (!pk || (!ctx && ctx_len) || ctx_len > VG_MLDSA_CTXMAXBYTES) {
        vg_wipe(st, sizeof *st);
        return VG_ERR_INPUT;
    }
    vg_shake256(tr, sizeof tr, pk, VG_MLDSA_PK_BYTES);
    vg_mldsa_mu_start(st, tr, ctx, ctx_len);
    return VG_OK;
}

/* ---- the names of this set's functions ---------------------------------
 * Thin wrappers (inlined: each _impl above has this one caller), so that
 * every public function is defined under its full name. */
#if VG_MLDSA_MODE == 44
int vg_mldsa44_verify_mu(const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                         const uint8_t *pk)
{
    return vg_mldsa_verify_mu_impl(sig, sig_len, mu, pk);
}

int vg_mldsa44_verify_internal(const uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                               size_t mprime_len, const uint8_t *pk)
{
    return vg_mldsa_verify_internal_impl(sig, sig_len, mprime, mprime_len, pk);
}

int vg_mldsa44_verify(const uint8_t *sig, size_t sig_len, const uint8_t *msg, size_t msg_len,
                      const uint8_t *ctx, size_t ctx_len, const uint8_t *pk)
{
    return vg_mldsa_verify_impl(sig, sig_len, msg, msg_len, ctx, ctx_len, pk);
}

int vg_mldsa44_verify_prehash(const uint8_t *sig, size_t sig_len, const uint8_t *ph,
                              size_t ph_len, int hash_id, const uint8_t *ctx, size_t ctx_len,
                              const uint8_t *pk)
{
    return vg_mldsa_verify_prehash_impl(sig, sig_len, ph, ph_len, hash_id, ctx, ctx_len, pk);
}

int vg_mldsa44_mu_init(vg_mldsa_mu_state *st, const uint8_t *pk, const uint8_t *ctx,
                       size_t ctx_len)
{
    return vg_mldsa_mu_init_impl(st, pk, ctx, ctx_len);
}
#elif VG_MLDSA_MODE == 65
int vg_mldsa65_verify_mu(const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                         const uint8_t *pk)
{
    return vg_mldsa_verify_mu_impl(sig, sig_len, mu, pk);
}

int vg_mldsa65_verify_internal(const uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                               size_t mprime_len, const uint8_t *pk)
{
    return vg_mldsa_verify_internal_impl(sig, sig_len, mprime, mprime_len, pk);
}

int vg_mldsa65_verify(const uint8_t *sig, size_t sig_len, const uint8_t *msg, size_t msg_len,
                      const uint8_t *ctx, size_t ctx_len, const uint8_t *pk)
{
    return vg_mldsa_verify_impl(sig, sig_len, msg, msg_len, ctx, ctx_len, pk);
}

int vg_mldsa65_verify_prehash(const uint8_t *sig, size_t sig_len, const uint8_t *ph,
                              size_t ph_len, int hash_id, const uint8_t *ctx, size_t ctx_len,
                              const uint8_t *pk)
{
    return vg_mldsa_verify_prehash_impl(sig, sig_len, ph, ph_len, hash_id, ctx, ctx_len, pk);
}

int vg_mldsa65_mu_init(vg_mldsa_mu_state *st, const uint8_t *pk, const uint8_t *ctx,
                       size_t ctx_len)
{
    return vg_mldsa_mu_init_impl(st, pk, ctx, ctx_len);
}
#elif VG_MLDSA_MODE == 87
int vg_mldsa87_verify_mu(const uint8_t *sig, size_t sig_len, const uint8_t mu[64],
                         const uint8_t *pk)
{
    return vg_mldsa_verify_mu_impl(sig, sig_len, mu, pk);
}

int vg_mldsa87_verify_internal(const uint8_t *sig, size_t sig_len, const uint8_t *mprime,
                               size_t mprime_len, const uint8_t *pk)
{
    return vg_mldsa_verify_internal_impl(sig, sig_len, mprime, mprime_len, pk);
}

int vg_mldsa87_verify(const uint8_t *sig, size_t sig_len, const uint8_t *msg, size_t msg_len,
                      const uint8_t *ctx, size_t ctx_len, const uint8_t *pk)
{
    return vg_mldsa_verify_impl(sig, sig_len, msg, msg_len, ctx, ctx_len, pk);
}

int vg_mldsa87_verify_prehash(const uint8_t *sig, size_t sig_len, const uint8_t *ph,
                              size_t ph_len, int hash_id, const uint8_t *ctx, size_t ctx_len,
                              const uint8_t *pk)
{
    return vg_mldsa_verify_prehash_impl(sig, sig_len, ph, ph_len, hash_id, ctx, ctx_len, pk);
}

int vg_mldsa87_mu_init(vg_mldsa_mu_state *st, const uint8_t *pk, const uint8_t *ctx,
                       size_t ctx_len)
{
    return vg_mldsa_mu_init_impl(st, pk, ctx, ctx_len);
}
#endif
