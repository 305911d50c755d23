/*
 * libFuzzer target: ML-KEM encapsulation on any public key bytes, for the
 * three parameter sets.
 *
 * Input: byte 0 picks the set (mod 3) and the mode (bit 2); bytes 1..32 are
 * m; the rest is ek (cut to, or zero-padded to, the set's length).
 * Mode 0 takes ek as given, so most inputs fail the modulus check; mode 1
 * first reduces every 12-bit coefficient mod q, so that the valid path is
 * explored on arbitrary keys too.
 *
 * Checks (abort on failure):
 *  - encaps_derand returns VG_OK or VG_ERR_INPUT, and the same verdict as
 *    check_public_key and as the modulus check of FIPS 203 7.2 written out
 *    here independently (fuzz_ek_modulus_ok);
 *  - on VG_ERR_INPUT, ct and ss are all zero;
 *  - on VG_OK, a second call gives the same bytes (Encaps_internal is
 *    deterministic) and the portable code (feature mask forced to none)
 *    gives the same ct and ss as the active backend.
 * Decapsulation cannot be checked here: no matching dk exists for an
 * arbitrary ek (fuzz_mlkem_decaps covers it from valid key pairs).
 */
#include "fuzz_mlkem_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t pk[FUZZ_MLKEM_MAX_PK], m[32];
    uint8_t ct[FUZZ_MLKEM_MAX_CT], ss[32], ct2[FUZZ_MLKEM_MAX_CT], ss2[32];
    if (size < 1)
        return 0;
    const struct fuzz_kem *kem = &g_fuzz_kems[data[0] % 3];
    int reduce = (data[0] >> 2) & 1;
    data++;
    size--;
    fuzz_take(m, sizeof m, &data, &size);
    fuzz_take(pk, kem->pk_len, &data, &size);
    if (reduce)
        for (size_t i = 0; i < 256 * (size_t)kem->k; i++) {
            unsigned c = fuzz_coeff12(pk, i);
            fuzz_set_coeff12(pk, i, c >= FUZZ_MLKEM_Q ? c - FUZZ_MLKEM_Q : c);
        }

    int want = fuzz_ek_modulus_ok(pk, kem->k) ? VG_OK : VG_ERR_INPUT;
    fuzz_check(!reduce || want == VG_OK);
    memset(ct, 0xa5, sizeof ct);
    memset(ss, 0xa5, sizeof ss);
    int rc = kem->encaps_derand(ct, ss, pk, m);
    fuzz_check(rc == VG_OK || rc == VG_ERR_INPUT);
    fuzz_check(rc == want);
    fuzz_check(kem->check_pk(pk) == rc);
    if (rc != VG_OK) {
        fuzz_check(fuzz_all_zero(ct, kem->ct_len) && fuzz_all_zero(ss, sizeof ss));
        return 0;
    }
    fuzz_check(kem->encaps_derand(ct2, ss2, pk, m) == VG_OK);
    fuzz_check(memcmp(ct, ct2, kem->ct_len) == 0 && memcmp(ss, ss2, sizeof ss) == 0);

    uint32_t saved = fuzz_force_portable();
    memset(ct2, 0, sizeof ct2);
    rc = kem->encaps_derand(ct2, ss2, pk, m);
    vg_cpu_force(saved);
    fuzz_check(rc == VG_OK);
    fuzz_check(memcmp(ct, ct2, kem->ct_len) == 0 && memcmp(ss, ss2, sizeof ss) == 0);
    return 0;
}
