/*
 * ML-KEM (FIPS 203) tests: NIST ACVP keyGen and encapDecap (including the
 * key-check groups), all twelve Wycheproof mlkem_* files, exhaustive checks
 * of compression and the NTT arithmetic against schoolbook formulas,
 * round trips and implicit rejection on random seeds, tampered keys, NULL
 * arguments and random-source failure.
 */
#include <cjson/cJSON.h>

#include "common.h"
#include "mlkem/poly.h"
#include "vgjson.h"
#include "vgtest.h"

#ifndef VG_VECTORS_DIR
#error "VG_VECTORS_DIR must be defined"
#endif

struct ps {
    const char *name; /* "ML-KEM-768" as in ACVP and Wycheproof */
    size_t k, pk_len, sk_len, ct_len;
    int (*keypair_derand)(uint8_t *, uint8_t *, const uint8_t *);
    int (*keypair)(uint8_t *, uint8_t *);
    int (*encaps_derand)(uint8_t *, uint8_t *, const uint8_t *, const uint8_t *);
    int (*encaps)(uint8_t *, uint8_t *, const uint8_t *);
    int (*decaps)(uint8_t *, const uint8_t *, const uint8_t *);
    int (*check_pk)(const uint8_t *);
    int (*check_sk)(const uint8_t *);
};

#define PS(n, kk)                                                                          \
    {"ML-KEM-" #n, kk, VG_MLKEM##n##_PUBLICKEYBYTES, VG_MLKEM##n##_SECRETKEYBYTES,         \
     VG_MLKEM##n##_CIPHERTEXTBYTES, vg_mlkem##n##_keypair_derand, vg_mlkem##n##_keypair,    \
     vg_mlkem##n##_encaps_derand, vg_mlkem##n##_encaps, vg_mlkem##n##_decaps,              \
     vg_mlkem##n##_check_public_key, vg_mlkem##n##_check_secret_key}
static const struct ps params[3] = {PS(512, 2), PS(768, 3), PS(1024, 4)};

#define MAXPK VG_MLKEM1024_PUBLICKEYBYTES
#define MAXSK VG_MLKEM1024_SECRETKEYBYTES
#define MAXCT VG_MLKEM1024_CIPHERTEXTBYTES

static const struct ps *find_ps(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (name && strcmp(params[i].name, name) == 0)
            return &params[i];
    return NULL;
}

/* ---- NIST ACVP ----------------------------------------------------------- */

static void test_acvp_keygen(void)
{
    cJSON *pr = load_json("acvp/ML-KEM-keyGen-FIPS203/prompt.json");
    cJSON *ex = load_json("acvp/ML-KEM-keyGen-FIPS203/expectedResults.json");
    CHECK(pr && ex);
    if (!pr || !ex)
        goto out;
    unsigned count[3] = {0, 0, 0};
    const cJSON *g, *t;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(pr, "testGroups"))
    {
        const struct ps *p = find_ps(jstr(g, "parameterSet"));
        CHECK(p != NULL);
        if (!p)
            continue;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            int tc = jint(t, "tcId");
            const cJSON *e = find_test(ex, jint(g, "tgId"), tc);
            uint8_t seed[64], pk[MAXPK], sk[MAXSK];
            CHECK(e && vgtest_unhex(seed, 32, jstr(t, "d")) == 32 &&
                  vgtest_unhex(seed + 32, 32, jstr(t, "z")) == 32);
            if (!e)
                continue;
            CHECK(p->keypair_derand(pk, sk, seed) == VG_OK);
            CHECK_MSG(eq_hex(pk, p->pk_len, e, "ek"), "ACVP keyGen tc %d ek", tc);
            CHECK_MSG(eq_hex(sk, p->sk_len, e, "dk"), "ACVP keyGen tc %d dk", tc);
            count[p->k - 2]++;
        }
    }
    printf("ACVP keyGen: %u / %u / %u tests (512 / 768 / 1024)\n", count[0], count[1], count[2]);
    CHECK(count[0] + count[1] + count[2] == 75);
out:
    cJSON_Delete(pr);
    cJSON_Delete(ex);
}

static void test_acvp_encapdecap(void)
{
    cJSON *pr = load_json("acvp/ML-KEM-encapDecap-FIPS203/prompt.json");
    cJSON *ex = load_json("acvp/ML-KEM-encapDecap-FIPS203/expectedResults.json");
    CHECK(pr && ex);
    if (!pr || !ex)
        goto out;
    unsigned n_enc = 0, n_dec = 0, n_dkc = 0, n_ekc = 0, n_rej = 0;
    const cJSON *g, *t;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(pr, "testGroups"))
    {
        const struct ps *p = find_ps(jstr(g, "parameterSet"));
        const char *fn = jstr(g, "function");
        CHECK(p && fn);
        if (!p || !fn)
            continue;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            int tc = jint(t, "tcId");
            const cJSON *e = find_test(ex, jint(g, "tgId"), tc);
            CHECK(e != NULL);
            if (!e)
                continue;
            size_t ek_len = 0, dk_len = 0, c_len = 0, m_len = 0;
            uint8_t *ek = jhex(t, "ek", &ek_len), *dk = jhex(t, "dk", &dk_len);
            uint8_t *c = jhex(t, "c", &c_len), *m = jhex(t, "m", &m_len);
            uint8_t ct[MAXCT], ss[32];
            if (strcmp(fn, "encapsulation") == 0) {
                CHECK(ek && m && ek_len == p->pk_len && m_len == 32);
                if (ek && m && ek_len == p->pk_len && m_len == 32) {
                    CHECK(p->encaps_derand(ct, ss, ek, m) == VG_OK);
                    CHECK_MSG(eq_hex(ct, p->ct_len, e, "c"), "ACVP encap tc %d c", tc);
                    CHECK_MSG(eq_hex(ss, 32, e, "k"), "ACVP encap tc %d k", tc);
                    n_enc++;
                }
            } else if (strcmp(fn, "decapsulation") == 0) {
                CHECK(dk && c && dk_len == p->sk_len && c_len == p->ct_len);
                if (dk && c && dk_len == p->sk_len && c_len == p->ct_len) {
                    CHECK(p->decaps(ss, c, dk) == VG_OK);
                    CHECK_MSG(eq_hex(ss, 32, e, "k"), "ACVP decap tc %d k", tc);
                    n_dec++;
                }
            } else if (strcmp(fn, "decapsulationKeyCheck") == 0 ||
                       strcmp(fn, "encapsulationKeyCheck") == 0) {
                int is_dk = fn[0] == 'd';
                const cJSON *tp = cJSON_GetObjectItemCaseSensitive(e, "testPassed");
                int want = cJSON_IsTrue(tp) || (cJSON_IsString(tp) && strcmp(tp->valuestring, "True") == 0);
                int got;
                /* The type check (length) comes first; our API takes the
                 * fixed size, so a wrong length is rejected before the call. */
                if (is_dk)
                    got = dk && dk_len == p->sk_len && p->check_sk(dk) == VG_OK;
                else
                    got = ek && ek_len == p->pk_len && p->check_pk(ek) == VG_OK;
                CHECK_MSG(got == want, "ACVP %s tc %d: got %d want %d", fn, tc, got, want);
                if (!want)
                    n_rej++;
                if (is_dk) {
                    n_dkc++;
                    if (dk && dk_len == p->sk_len && c_len == 0) {
                        /* decaps agrees with the key check */
                        uint8_t ctz[MAXCT] = {0};
                        memset(ss, 0xaa, 32);
                        int r = p->decaps(ss, ctz, dk);
                        CHECK(want ? r == VG_OK : (r == VG_ERR_INPUT && all_zero(ss, 32)));
                    }
                } else {
                    n_ekc++;
                    if (ek && ek_len == p->pk_len) {
                        uint8_t mm[32] = {1};
                        memset(ss, 0xaa, 32);
                        int r = p->encaps_derand(ct, ss, ek, mm);
                        CHECK(want ? r == VG_OK
                                   : (r == VG_ERR_INPUT && all_zero(ss, 32) && all_zero(ct, p->ct_len)));
                    }
                }
            } else {
                CHECK_MSG(0, "unknown ACVP function %s", fn);
            }
            free(ek);
            free(dk);
            free(c);
            free(m);
        }
    }
    printf("ACVP encapDecap: %u encapsulation, %u decapsulation, %u decapsulationKeyCheck, "
           "%u encapsulationKeyCheck (%u of the checks expect rejection)\n",
           n_enc, n_dec, n_dkc, n_ekc, n_rej);
    CHECK(n_enc == 75 && n_dec == 30 && n_dkc == 30 && n_ekc == 30);
out:
    cJSON_Delete(pr);
    cJSON_Delete(ex);
}

/* ---- Wycheproof ---------------------------------------------------------- */

struct wstats {
    unsigned valid, invalid, by_length;
};

/* One test of mlkem_N_keygen_seed_test (MLKEMKeyGen): seed -> ek, dk. */
static void wy_keygen(const struct ps *p, const cJSON *t, struct wstats *st)
{
    size_t n = 0;
    uint8_t *seed = jhex(t, "seed", &n);
    uint8_t pk[MAXPK], sk[MAXSK];
    const char *res = jstr(t, "result");
    CHECK(seed && n == 64 && res && strcmp(res, "valid") == 0);
    if (seed && n == 64) {
        CHECK(p->keypair_derand(pk, sk, seed) == VG_OK);
        CHECK_MSG(eq_hex(pk, p->pk_len, t, "ek") && eq_hex(sk, p->sk_len, t, "dk"),
                  "%s keygen tc %d", p->name, jint(t, "tcId"));
        st->valid++;
    }
    free(seed);
}

/* mlkem_N_encaps_test (MLKEMEncapsTest): ek, m -> c, K, or rejection of ek
 * (wrong length: type check; ModulusOverflow / "not reduced": 7.2). */
static void wy_encaps(const struct ps *p, const cJSON *t, struct wstats *st)
{
    size_t ek_len = 0, m_len = 0;
    uint8_t *ek = jhex(t, "ek", &ek_len), *m = jhex(t, "m", &m_len);
    uint8_t ct[MAXCT], ss[32];
    const char *res = jstr(t, "result");
    int tc = jint(t, "tcId");
    CHECK(ek && m && m_len == 32 && res);
    if (!ek || !m || !res)
        goto out;
    if (strcmp(res, "valid") == 0) {
        CHECK(ek_len == p->pk_len);
        if (ek_len == p->pk_len) {
            CHECK(p->check_pk(ek) == VG_OK);
            CHECK(p->encaps_derand(ct, ss, ek, m) == VG_OK);
            CHECK_MSG(eq_hex(ct, p->ct_len, t, "c") && eq_hex(ss, 32, t, "K"),
                      "%s encaps tc %d", p->name, tc);
        }
        st->valid++;
    } else if (strcmp(res, "invalid") == 0) {
        st->invalid++;
        if (ek_len != p->pk_len) {
            st->by_length++; /* the fixed-size API cannot take it */
        } else {
            memset(ct, 0xaa, sizeof ct);
            memset(ss, 0xaa, sizeof ss);
            CHECK_MSG(p->check_pk(ek) == VG_ERR_INPUT, "%s encaps tc %d", p->name, tc);
            CHECK_MSG(p->encaps_derand(ct, ss, ek, m) == VG_ERR_INPUT &&
                          all_zero(ct, p->ct_len) && all_zero(ss, 32),
                      "%s encaps tc %d", p->name, tc);
        }
    } else {
        CHECK_MSG(0, "%s encaps tc %d: result %s", p->name, tc, res);
    }
out:
    free(ek);
    free(m);
}

/* mlkem_N_test (MLKEMTest): keygen from the 64-byte seed, then decaps of c
 * gives K (for modified ciphertexts, the implicit-rejection key). Invalid
 * tests have a seed or ciphertext of the wrong length. */
static void wy_decaps(const struct ps *p, const cJSON *t, struct wstats *st)
{
    size_t seed_len = 0, c_len = 0;
    uint8_t *seed = jhex(t, "seed", &seed_len), *c = jhex(t, "c", &c_len);
    uint8_t pk[MAXPK], sk[MAXSK], ss[32];
    const char *res = jstr(t, "result");
    int tc = jint(t, "tcId");
    CHECK(seed && c && res);
    if (!seed || !c || !res)
        goto out;
    int sizes_ok = seed_len == 64 && c_len == p->ct_len;
    if (strcmp(res, "valid") == 0) {
        CHECK(sizes_ok);
        if (sizes_ok) {
            CHECK(p->keypair_derand(pk, sk, seed) == VG_OK);
            CHECK_MSG(eq_hex(pk, p->pk_len, t, "ek"), "%s tc %d ek", p->name, tc);
            CHECK(p->decaps(ss, c, sk) == VG_OK);
            CHECK_MSG(eq_hex(ss, 32, t, "K"), "%s tc %d K", p->name, tc);
        }
        st->valid++;
    } else if (strcmp(res, "invalid") == 0) {
        st->invalid++;
        /* Every invalid test here is a length error (the files' comments:
         * "Private key too short/long", "Ciphertext too short/long"). */
        CHECK_MSG(!sizes_ok, "%s tc %d: invalid with valid sizes", p->name, tc);
        st->by_length++;
    } else {
        CHECK_MSG(0, "%s tc %d: result %s", p->name, tc, res);
    }
out:
    free(seed);
    free(c);
}

/* mlkem_N_semi_expanded_decaps_test (MLKEMDecapsValidationTest): dk, c -> K;
 * invalid: wrong lengths, or a dk failing the 7.3 hash check. */
static void wy_semi(const struct ps *p, const cJSON *t, struct wstats *st)
{
    size_t dk_len = 0, c_len = 0;
    uint8_t *dk = jhex(t, "dk", &dk_len), *c = jhex(t, "c", &c_len);
    uint8_t ss[32];
    const char *res = jstr(t, "result");
    int tc = jint(t, "tcId");
    CHECK(dk && c && res);
    if (!dk || !c || !res)
        goto out;
    int sizes_ok = dk_len == p->sk_len && c_len == p->ct_len;
    if (strcmp(res, "valid") == 0) {
        CHECK(sizes_ok);
        if (sizes_ok) {
            CHECK(p->check_sk(dk) == VG_OK);
            CHECK(p->decaps(ss, c, dk) == VG_OK);
            CHECK_MSG(eq_hex(ss, 32, t, "K"), "%s semi tc %d K", p->name, tc);
        }
        st->valid++;
    } else if (strcmp(res, "invalid") == 0) {
        st->invalid++;
        if (!sizes_ok) {
            st->by_length++;
        } else {
            memset(ss, 0xaa, sizeof ss);
            CHECK_MSG(p->check_sk(dk) == VG_ERR_INPUT, "%s semi tc %d", p->name, tc);
            CHECK_MSG(p->decaps(ss, c, dk) == VG_ERR_INPUT && all_zero(ss, 32),
                      "%s semi tc %d", p->name, tc);
        }
    } else {
        CHECK_MSG(0, "%s semi tc %d: result %s", p->name, tc, res);
    }
out:
    free(dk);
    free(c);
}

static void test_wycheproof(void)
{
    static const char *kinds[4] = {"keygen_seed", "encaps", "", "semi_expanded_decaps"};
    static const char *sizes[3] = {"512", "768", "1024"};
    for (int s = 0; s < 3; s++) {
        for (int kind = 0; kind < 4; kind++) {
            char rel[128];
            if (kind == 2)
                snprintf(rel, sizeof rel, "wycheproof/mlkem_%s_test.json", sizes[s]);
            else
                snprintf(rel, sizeof rel, "wycheproof/mlkem_%s_%s_test.json", sizes[s], kinds[kind]);
            cJSON *j = load_json(rel);
            CHECK(j != NULL);
            if (!j)
                continue;
            struct wstats st = {0, 0, 0};
            const cJSON *g, *t;
            cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(j, "testGroups"))
            {
                const struct ps *p = find_ps(jstr(g, "parameterSet"));
                CHECK(p == &params[s]);
                if (!p)
                    continue;
                cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
                {
                    switch (kind) {
                    case 0: wy_keygen(p, t, &st); break;
                    case 1: wy_encaps(p, t, &st); break;
                    case 2: wy_decaps(p, t, &st); break;
                    default: wy_semi(p, t, &st); break;
                    }
                }
            }
            unsigned total = st.valid + st.invalid;
            printf("%s: %u tests (%u valid, %u invalid of which %u by length)\n", rel + 11, total,
                   st.valid, st.invalid, st.by_length);
            CHECK_MSG(total == (unsigned)jint(j, "numberOfTests"), "%s count", rel);
            cJSON_Delete(j);
        }
    }
}

/* ---- arithmetic against schoolbook formulas ------------------------------ */

static void test_compression(void)
{
    /* Compress_d(x) = round(2^d x / q) mod 2^d (FIPS 203 (4.7)), computed
     * here with a division, for every x and d. */
    unsigned bad = 0;
    for (unsigned d = 1; d <= 11; d++)
        for (uint32_t x = 0; x < VG_MLKEM_Q; x++) {
            uint32_t want = (((x << d) * 2 + VG_MLKEM_Q) / (2 * VG_MLKEM_Q)) & ((1u << d) - 1);
            bad += vg_mlkem_compress_coeff((uint16_t)x, d) != want;
        }
    CHECK(bad == 0);
    /* Packing: Compress_d(Decompress_d(y)) = y (FIPS 203 4.2.1), via the
     * byte-level functions, for d in {4, 5, 10, 11} and random y. */
    uint64_t rs = 7;
    static const unsigned ds[4] = {4, 5, 10, 11};
    const struct vg_mlkem_backend *be = vg_mlkem_active();
    for (int i = 0; i < 4; i++) {
        uint8_t in[352], out[352];
        vg_mlkem_poly p;
        for (int rep = 0; rep < 50; rep++) {
            vgtest_randbytes(&rs, in, 32 * ds[i]);
            be->decompress(&p, in, ds[i]);
            int ok = 1;
            for (int c = 0; c < 256; c++)
                ok &= p.coeffs[c] >= 0 && p.coeffs[c] < VG_MLKEM_Q;
            be->compress(out, &p, ds[i]);
            CHECK(ok && memcmp(in, out, 32 * ds[i]) == 0);
        }
    }
}

static int16_t modq(int64_t x)
{
    int64_t r = x % VG_MLKEM_Q;
    return (int16_t)(r < 0 ? r + VG_MLKEM_Q : r);
}

/* NTT^-1(NTT(a) o NTT(b)) = a * b in Z_q[X]/(X^256 + 1), for a backend. */
static void test_ntt_backend(const struct vg_mlkem_backend *be)
{
    uint64_t rs = 99;
    for (int rep = 0; rep < 20; rep++) {
        vg_mlkem_poly a, b, r;
        int64_t want[256] = {0};
        for (int i = 0; i < 256; i++) {
            a.coeffs[i] = (int16_t)(vgtest_rand64(&rs) % VG_MLKEM_Q);
            /* b's input bound for ntt is |b| < q: use signed values */
            b.coeffs[i] = (int16_t)((int)(vgtest_rand64(&rs) % (2 * VG_MLKEM_Q - 1)) - (VG_MLKEM_Q - 1));
        }
        for (int i = 0; i < 256; i++)
            for (int j = 0; j < 256; j++) {
                int64_t prod = (int64_t)a.coeffs[i] * b.coeffs[j];
                if (i + j < 256)
                    want[i + j] += prod;
                else
                    want[i + j - 256] -= prod;
            }
        be->ntt(&a);
        be->ntt(&b);
        int bounds = 1;
        for (int i = 0; i < 256; i++)
            bounds &= abs(a.coeffs[i]) <= VG_MLKEM_Q / 2 && abs(b.coeffs[i]) <= VG_MLKEM_Q / 2;
        be->basemul_acc(&r, &a, &b, 1);
        be->invntt_tomont(&r);
        int ok = 1;
        for (int i = 0; i < 256; i++) {
            bounds &= abs(r.coeffs[i]) < VG_MLKEM_Q;
            ok &= modq(r.coeffs[i]) == modq(want[i]);
        }
        CHECK_MSG(ok && bounds, "%s ntt product rep %d", be->name, rep);
    }
}

/* ---- round trips, rejection, API ---------------------------------------- */

static void test_roundtrips(const struct ps *p, unsigned n)
{
    uint64_t rs = 0x1234 + p->k;
    unsigned ok = 0, rej = 0, keyc = 0;
    for (unsigned it = 0; it < n; it++) {
        uint8_t seed[64], m[32], pk[MAXPK], sk[MAXSK], ct[MAXCT], ss1[32], ss2[32], kbar[32];
        uint8_t jin[32 + MAXCT];
        vgtest_randbytes(&rs, seed, 64);
        vgtest_randbytes(&rs, m, 32);
        int r = p->keypair_derand(pk, sk, seed);
        r |= p->encaps_derand(ct, ss1, pk, m);
        r |= p->decaps(ss2, ct, sk);
        ok += r == VG_OK && memcmp(ss1, ss2, 32) == 0;
        keyc += p->check_pk(pk) == VG_OK && p->check_sk(sk) == VG_OK;
        /* Tamper one bit: decaps must return J(z || c') = SHAKE256(z || c', 32),
         * FIPS 203 Algorithm 18 lines 8 and 10-11 (implicit rejection). */
        size_t pos = (size_t)(vgtest_rand64(&rs) % (p->ct_len * 8));
        ct[pos / 8] ^= (uint8_t)(1u << (pos % 8));
        memcpy(jin, sk + p->sk_len - 32, 32);
        memcpy(jin + 32, ct, p->ct_len);
        vg_shake256(kbar, 32, jin, 32 + p->ct_len);
        r = p->decaps(ss2, ct, sk);
        rej += r == VG_OK && memcmp(ss2, kbar, 32) == 0 && memcmp(ss2, ss1, 32) != 0;
    }
    printf("%s: %u round trips, %u implicit rejections, %u key checks, of %u\n", p->name, ok, rej,
           keyc, n);
    CHECK(ok == n && rej == n && keyc == n);
}

/* DESIGN section 2, uniform rules: a NULL fixed-size buffer gives
 * VG_ERR_INPUT and every non-NULL output buffer is then zeroed. Every
 * combination of NULL arguments of every function (all but the all-valid
 * one), on outputs pre-filled with 0xaa. */
static void test_null_rules(const struct ps *p)
{
    uint8_t seed[64] = {9}, m[32] = {8}, pk[MAXPK], sk[MAXSK], ct[MAXCT];
    uint8_t opk[MAXPK], osk[MAXSK], oct[MAXCT], oss[32];
    unsigned bad = 0, calls = 0;
    CHECK(p->keypair_derand(pk, sk, seed) == VG_OK);
    CHECK(p->encaps_derand(ct, oss, pk, m) == VG_OK);
    for (unsigned fn = 0; fn < 7; fn++) {
        /* Arguments per function: 1 to 4; bit i of nulls set = argument i NULL. */
        static const unsigned nargs[7] = {3, 2, 4, 3, 3, 1, 1};
        for (unsigned nulls = 1; nulls < (1u << nargs[fn]); nulls++) {
#define ARG(i, ptr) ((nulls >> (i)) & 1 ? NULL : (ptr))
            memset(opk, 0xaa, sizeof opk);
            memset(osk, 0xaa, sizeof osk);
            memset(oct, 0xaa, sizeof oct);
            memset(oss, 0xaa, sizeof oss);
            int rc = 0, zero = 1;
            switch (fn) {
            case 0:
                rc = p->keypair_derand(ARG(0, opk), ARG(1, osk), ARG(2, seed));
                zero = (ARG(0, opk) == NULL || all_zero(opk, p->pk_len)) &&
                       (ARG(1, osk) == NULL || all_zero(osk, p->sk_len));
                break;
            case 1:
                rc = p->keypair(ARG(0, opk), ARG(1, osk));
                zero = (ARG(0, opk) == NULL || all_zero(opk, p->pk_len)) &&
                       (ARG(1, osk) == NULL || all_zero(osk, p->sk_len));
                break;
            case 2:
                rc = p->encaps_derand(ARG(0, oct), ARG(1, oss), ARG(2, pk), ARG(3, m));
                zero = (ARG(0, oct) == NULL || all_zero(oct, p->ct_len)) &&
                       (ARG(1, oss) == NULL || all_zero(oss, 32));
                break;
            case 3:
                rc = p->encaps(ARG(0, oct), ARG(1, oss), ARG(2, pk));
                zero = (ARG(0, oct) == NULL || all_zero(oct, p->ct_len)) &&
                       (ARG(1, oss) == NULL || all_zero(oss, 32));
                break;
            case 4:
                rc = p->decaps(ARG(0, oss), ARG(1, ct), ARG(2, sk));
                zero = ARG(0, oss) == NULL || all_zero(oss, 32);
                break;
            case 5:
                rc = p->check_pk(NULL);
                break;
            default:
                rc = p->check_sk(NULL);
                break;
            }
#undef ARG
            calls++;
            bad += rc != VG_ERR_INPUT || !zero;
        }
    }
    CHECK_MSG(bad == 0, "%s: %u of %u NULL-argument calls break the uniform rules", p->name, bad,
              calls);
}

static void test_api(const struct ps *p)
{
    uint8_t seed[64] = {1, 2, 3}, m[32] = {4}, pk[MAXPK], sk[MAXSK], ct[MAXCT], ss[32], ss2[32];
    uint8_t pk2[MAXPK], sk2[MAXSK];
    CHECK(p->keypair_derand(pk, sk, seed) == VG_OK);

    /* NULL arguments. */
    memset(ss, 0xaa, 32);
    CHECK(p->keypair_derand(NULL, sk2, seed) == VG_ERR_INPUT && all_zero(sk2, p->sk_len));
    CHECK(p->keypair_derand(pk2, NULL, seed) == VG_ERR_INPUT);
    CHECK(p->keypair_derand(pk2, sk2, NULL) == VG_ERR_INPUT && all_zero(sk2, p->sk_len));
    CHECK(p->keypair(NULL, sk2) == VG_ERR_INPUT);
    CHECK(p->keypair(pk2, NULL) == VG_ERR_INPUT);
    CHECK(p->encaps_derand(NULL, ss, pk, m) == VG_ERR_INPUT && all_zero(ss, 32));
    CHECK(p->encaps_derand(ct, NULL, pk, m) == VG_ERR_INPUT);
    CHECK(p->encaps_derand(ct, ss, NULL, m) == VG_ERR_INPUT);
    CHECK(p->encaps_derand(ct, ss, pk, NULL) == VG_ERR_INPUT);
    CHECK(p->encaps(NULL, ss, pk) == VG_ERR_INPUT);
    CHECK(p->encaps(ct, NULL, pk) == VG_ERR_INPUT);
    CHECK(p->encaps(ct, ss, NULL) == VG_ERR_INPUT);
    CHECK(p->encaps_derand(ct, ss, pk, m) == VG_OK);
    CHECK(p->decaps(NULL, ct, sk) == VG_ERR_INPUT);
    memset(ss2, 0xaa, 32);
    CHECK(p->decaps(ss2, NULL, sk) == VG_ERR_INPUT && all_zero(ss2, 32));
    CHECK(p->decaps(ss2, ct, NULL) == VG_ERR_INPUT);
    CHECK(p->check_pk(NULL) == VG_ERR_INPUT);
    CHECK(p->check_sk(NULL) == VG_ERR_INPUT);

    /* 7.2: a coefficient equal to q (0xd01) in the first slot of ek. */
    memcpy(pk2, pk, p->pk_len);
    pk2[0] = 0x01;
    pk2[1] = (uint8_t)((pk2[1] & 0xf0) | 0x0d);
    memset(ct, 0xaa, sizeof ct);
    memset(ss, 0xaa, 32);
    CHECK(p->check_pk(pk2) == VG_ERR_INPUT);
    CHECK(p->encaps_derand(ct, ss, pk2, m) == VG_ERR_INPUT && all_zero(ct, p->ct_len) &&
          all_zero(ss, 32));
    CHECK(p->encaps(ct, ss, pk2) == VG_ERR_INPUT && all_zero(ss, 32));
    /* q - 1 = 0xd00 is in range. */
    pk2[0] = 0x00;
    CHECK(p->check_pk(pk2) == VG_OK);

    /* 7.3: a flipped bit in H(ek), and one in the embedded ek. */
    CHECK(p->encaps_derand(ct, ss, pk, m) == VG_OK);
    size_t off[2] = {p->sk_len - 64, p->sk_len - 64 - 100};
    for (int i = 0; i < 2; i++) {
        memcpy(sk2, sk, p->sk_len);
        sk2[off[i]] ^= 0x10;
        memset(ss2, 0xaa, 32);
        CHECK(p->check_sk(sk2) == VG_ERR_INPUT);
        CHECK(p->decaps(ss2, ct, sk2) == VG_ERR_INPUT && all_zero(ss2, 32));
    }
    /* A flipped bit in z leaves the check passing and the honest ct decapsulating. */
    memcpy(sk2, sk, p->sk_len);
    sk2[p->sk_len - 1] ^= 1;
    CHECK(p->check_sk(sk2) == VG_OK);
    CHECK(p->decaps(ss2, ct, sk2) == VG_OK && memcmp(ss, ss2, 32) == 0);

    /* Random-source failure: outputs zeroed, VG_ERR_RANDOM. */
    memset(pk2, 0xaa, sizeof pk2);
    memset(sk2, 0xaa, sizeof sk2);
    vg_random_fail_next(1);
    CHECK(p->keypair(pk2, sk2) == VG_ERR_RANDOM && all_zero(pk2, p->pk_len) &&
          all_zero(sk2, p->sk_len));
    memset(ct, 0xaa, sizeof ct);
    memset(ss, 0xaa, 32);
    vg_random_fail_next(1);
    CHECK(p->encaps(ct, ss, pk) == VG_ERR_RANDOM && all_zero(ct, p->ct_len) && all_zero(ss, 32));
    vg_random_fail_next(0);

    /* Randomised calls work and differ. */
    CHECK(p->keypair(pk, sk) == VG_OK && p->keypair(pk2, sk2) == VG_OK);
    CHECK(memcmp(pk, pk2, p->pk_len) != 0);
    CHECK(p->encaps(ct, ss, pk) == VG_OK && p->decaps(ss2, ct, sk) == VG_OK &&
          memcmp(ss, ss2, 32) == 0);
}

int main(void)
{
    CHECK(vg_implementation("mlkem") && strcmp(vg_implementation("mlkem"), vg_mlkem_active()->name) == 0);
    if (getenv("VG_CPU_FEATURES") && strcmp(getenv("VG_CPU_FEATURES"), "none") == 0)
        CHECK(strcmp(vg_implementation("mlkem"), "portable") == 0);
    test_compression();
    test_ntt_backend(vg_mlkem_portable_get());
    test_acvp_keygen();
    test_acvp_encapdecap();
    test_wycheproof();
    for (int i = 0; i < 3; i++) {
        test_roundtrips(&params[i], 1000);
        test_api(&params[i]);
        test_null_rules(&params[i]);
    }
    return vgtest_done("test_mlkem");
}
