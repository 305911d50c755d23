/*
 * libFuzzer target: ML-KEM decapsulation on any secret key and ciphertext
 * bytes, for the three parameter sets.
 *
 * Input: byte 0 picks the set (mod 3) and the mode (bits 2-3); the rest
 * feeds the mode:
 *   mode 0: dk then ct as given (cut or zero-padded): most dk fail the
 *           FIPS 203 7.3 hash check;
 *   mode 1: the same, with the H(ek) field of dk overwritten by
 *           SHA3-256(ek), so decapsulation runs on arbitrary dk_pke, ek, z
 *           and ct;
 *   mode 2 (and 3): a valid key pair from a 64-byte seed and a valid
 *           ciphertext from a 32-byte m, then the ciphertext XORed with
 *           the remaining bytes.
 *
 * Checks (abort on failure):
 *  - decaps returns VG_OK or VG_ERR_INPUT, the same verdict as
 *    check_secret_key and as the hash check written out here (the stored
 *    H(ek) equals SHA3-256 of the stored ek);
 *  - on VG_ERR_INPUT, ss is all zero;
 *  - on VG_OK, the portable code (feature mask forced to none) gives the
 *    same ss as the active backend;
 *  - mode 2: an unchanged ciphertext gives encaps' shared secret; a changed
 *    one gives the implicit-rejection secret J(z || c) = SHAKE256(z || c, 32)
 *    (FIPS 203 Algorithm 18 lines 8-11), computed here from the spec. (A
 *    changed c could only be accepted if it were the honest encryption of
 *    its own decryption, which no fuzzer finds.)
 * Mode 1 checks the verdict (always VG_OK) and the backends' agreement only:
 * with unrelated dk_pke and ek, the standard promises nothing more.
 */
#include "fuzz_mlkem_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t sk[FUZZ_MLKEM_MAX_SK], ct[FUZZ_MLKEM_MAX_CT], ss[32], ss2[32], h[32];
    uint8_t pk[FUZZ_MLKEM_MAX_PK], seed[64], m[32], ss_enc[32], x[FUZZ_MLKEM_MAX_CT];
    if (size < 1)
        return 0;
    const struct fuzz_kem *kem = &g_fuzz_kems[data[0] % 3];
    unsigned mode = (data[0] >> 2) & 3;
    mode = mode > 2 ? 2 : mode;
    data++;
    size--;
    size_t ek_off = 384 * (size_t)kem->k, h_off = ek_off + kem->pk_len;
    int changed = 0;

    if (mode < 2) {
        fuzz_take(sk, kem->sk_len, &data, &size);
        fuzz_take(ct, kem->ct_len, &data, &size);
        if (mode == 1)
            fuzz_check(vg_sha3_256(sk + h_off, sk + ek_off, kem->pk_len) == VG_OK);
    } else {
        fuzz_take(seed, sizeof seed, &data, &size);
        fuzz_take(m, sizeof m, &data, &size);
        fuzz_take(x, kem->ct_len, &data, &size);
        fuzz_check(kem->keypair_derand(pk, sk, seed) == VG_OK);
        fuzz_check(kem->encaps_derand(ct, ss_enc, pk, m) == VG_OK);
        for (size_t i = 0; i < kem->ct_len; i++) {
            ct[i] ^= x[i];
            changed |= x[i] != 0;
        }
    }

    fuzz_check(vg_sha3_256(h, sk + ek_off, kem->pk_len) == VG_OK);
    int want = memcmp(h, sk + h_off, 32) == 0 ? VG_OK : VG_ERR_INPUT;
    memset(ss, 0xa5, sizeof ss);
    int rc = kem->decaps(ss, ct, sk);
    fuzz_check(rc == VG_OK || rc == VG_ERR_INPUT);
    fuzz_check(rc == want);
    fuzz_check(kem->check_sk(sk) == rc);
    fuzz_check(mode == 0 || rc == VG_OK);
    if (rc != VG_OK) {
        fuzz_check(fuzz_all_zero(ss, sizeof ss));
        return 0;
    }

    uint32_t saved = fuzz_force_portable();
    memset(ss2, 0, sizeof ss2);
    rc = kem->decaps(ss2, ct, sk);
    vg_cpu_force(saved);
    fuzz_check(rc == VG_OK && memcmp(ss, ss2, sizeof ss) == 0);

    if (mode == 2) {
        if (!changed) {
            fuzz_check(memcmp(ss, ss_enc, sizeof ss) == 0);
        } else {
            /* K-bar = J(z || c): SHAKE256 of z (the last 32 bytes of dk)
             * and the ciphertext, 32 bytes. */
            uint8_t zc[32 + FUZZ_MLKEM_MAX_CT], kbar[32];
            memcpy(zc, sk + kem->sk_len - 32, 32);
            memcpy(zc + 32, ct, kem->ct_len);
            fuzz_check(vg_shake256(kbar, sizeof kbar, zc, 32 + kem->ct_len) == VG_OK);
            fuzz_check(memcmp(ss, kbar, sizeof ss) == 0);
        }
    }
    return 0;
}
