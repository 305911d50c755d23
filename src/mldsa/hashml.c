/*
 * HashML-DSA's pre-hash prefix (FIPS 204 section 5.4) and the streaming
 * external mu, the parts that do not depend on the parameter set.
 *
 * HashML-DSA signs M' = 1 || |ctx| || ctx || OID || PH(M) (Algorithm 4
 * line 23, Algorithm 5 line 18); the library needs only each hash's OID and
 * output length, the caller computing PH(M) with any implementation.
 *
 * The mu state holds a SHAKE256 sponge (vg_keccak_ctx, on the permutation
 * the dispatch picked at init) over tr || M' = tr || 0 || |ctx| || ctx || M,
 * so that mu of Algorithm 7 line 6 for pure ML-DSA (Algorithm 2 line 10) is
 * computed without holding M. Like sha3_api.c, the caller's storage holds
 * the context and a magic word that init sets and every wipe clears.
 */
#include <string.h>

#include "common.h"
#include "hashml.h"
#include "poly.h"

/* Output lengths in bytes, indexed by hash_id = the OID's last arc
 * (FIPS 204 5.4.1: 2.16.840.1.101.3.4.2.1 SHA-256, .2 SHA-384, .3 SHA-512,
 * .4 SHA-224, .5 SHA-512/224, .6 SHA-512/256, .7-.10 SHA3-224/256/384/512,
 * .11 SHAKE128 with 256 output bits, .12 SHAKE256 with 512). 0: no hash. */
static const uint8_t prehash_len[13] = {0, 32, 48, 64, 28, 28, 32, 28, 32, 48, 64, 32, 64};

int vg_mldsa_prehash_tail(uint8_t out[VG_MLDSA_OIDPH_MAX], size_t *out_len, int hash_id,
                          const uint8_t *ph, size_t ph_len)
{
    /* DER: OBJECT IDENTIFIER, 9 content bytes, 2.16.840.1.101.3.4.2 (60 86
     * 48 01 65 03 04 02), then the hash's arc. Public data only. */
    static const uint8_t oid_prefix[VG_MLDSA_OID_BYTES - 1] = {0x06, 0x09, 0x60, 0x86, 0x48,
                                                               0x01, 0x65, 0x03, 0x04, 0x02};
    if (hash_id < 1 || hash_id > 12 || !ph || ph_len != prehash_len[hash_id])
        return VG_ERR_INPUT;
    memcpy(out, oid_prefix, sizeof oid_prefix);
    out[VG_MLDSA_OID_BYTES - 1] = (uint8_t)hash_id;
    memcpy(out + VG_MLDSA_OID_BYTES, ph, ph_len);
    *out_len = VG_MLDSA_OID_BYTES + ph_len;
    return VG_OK;
}

/* ---- the mu state ---------------------------------------------------------- */

/* may_alias: the caller's vg_mldsa_mu_state storage is accessed through
 * this type only (see sha2_api.c). */
typedef struct {
    vg_keccak_ctx c;
    uint64_t magic;
} __attribute__((may_alias)) mu_st;

_Static_assert(sizeof(mu_st) <= sizeof(vg_mldsa_mu_state), "vg_mldsa_mu_state too small");
_Static_assert(_Alignof(mu_st) <= _Alignof(vg_mldsa_mu_state), "vg_mldsa_mu_state alignment");

/* Arbitrary nonzero value, distinct from the hash states' magics. */
#define MAGIC_MU 0x76676d6c6473616dULL

void vg_mldsa_mu_start(vg_mldsa_mu_state *st, const uint8_t tr[64], const uint8_t *ctx,
                       size_t ctx_len)
{
    mu_st *s = (mu_st *)st;
    uint8_t prefix[2] = {0, (uint8_t)ctx_len}; /* M' = 0 || |ctx| || ctx || M */
    vg_wipe(st, sizeof *st);
    vg_shake256_ctx_init(&s->c);
    vg_keccak_absorb(&s->c, tr, VG_MLDSA_CRHBYTES);
    vg_keccak_absorb(&s->c, prefix, sizeof prefix);
    if (ctx_len)
        vg_keccak_absorb(&s->c, ctx, ctx_len);
    s->magic = MAGIC_MU;
}

int vg_mldsa_mu_update(vg_mldsa_mu_state *st, const uint8_t *msg, size_t len)
{
    mu_st *s = (mu_st *)st;
    if (!st)
        return VG_ERR_INPUT;
    if ((!msg && len) || s->magic != MAGIC_MU) {
        vg_wipe(st, sizeof *st);
        return VG_ERR_INPUT;
    }
    if (len)
        vg_keccak_absorb(&s->c, msg, len);
    return VG_OK;
}

int vg_mldsa_mu_final(vg_mldsa_mu_state *st, uint8_t mu[64])
{
    mu_st *s = (mu_st *)st;
    int rc = VG_ERR_INPUT;
    if (st && mu && s->magic == MAGIC_MU) {
        vg_keccak_finalize(&s->c);
        vg_keccak_squeeze(&s->c, mu, VG_MLDSA_CRHBYTES);
        rc = VG_OK;
    } else if (mu) {
        vg_wipe(mu, VG_MLDSA_CRHBYTES);
    }
    if (st)
        vg_wipe(st, sizeof *st); /* clears magic: a second final is refused */
    return rc;
}
