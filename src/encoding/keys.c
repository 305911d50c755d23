/*
 * Key encodings: PKCS#8 OneAsymmetricKey (RFC 5958) and SubjectPublicKeyInfo
 * (RFC 5280 4.1.2.7), in DER and PEM (RFC 7468 labels "PRIVATE KEY" and
 * "PUBLIC KEY"), for
 *   X25519, Ed25519 (RFC 8410: the private key is the OCTET STRING
 *     CurvePrivateKey inside privateKey, parameters absent);
 *   ML-KEM-512/768/1024 (the LAMPS ML-KEM certificates document,
 *     draft-ietf-lamps-kyber-certificates: privateKey holds the CHOICE
 *     seed [0] IMPLICIT OCTET STRING (64) | expandedKey OCTET STRING |
 *     both SEQUENCE { seed, expandedKey });
 *   ML-DSA-44/65/87 (RFC 9881, draft-ietf-lamps-dilithium-certificates: the
 *     same CHOICE with a 32-byte seed);
 *   X-Wing (draft-connolly-cfrg-xwing-kem, "Use in X.509": privateKey holds
 *     the 32-byte decapsulation key itself, publicKey absent).
 *   P-256, P-384 (RFC 5480: AlgorithmIdentifier id-ecPublicKey with the
 *     namedCurve OID as parameters, the public key an uncompressed SEC 1
 *     point in the BIT STRING; RFC 5915: privateKey holds ECPrivateKey
 *     SEQUENCE { 1, OCTET STRING scalar, [0] parameters OPTIONAL, [1]
 *     publicKey OPTIONAL }, written as OpenSSL writes it: parameters
 *     omitted (they are in the AlgorithmIdentifier), publicKey present);
 *     read also as the bare SEC 1 ECPrivateKey (DER, or PEM "EC PRIVATE
 *     KEY" after an optional "EC PARAMETERS" block, as `openssl ecparam
 *     -genkey` writes it), and with compressed points (SEC 1 2.3.3) in the
 *     SPKI and in publicKey [1], returned uncompressed.
 *
 * The tags and lengths of a key's DER depend only on its algorithm and form,
 * so they are public and may steer branches; the key bytes are only copied,
 * hashed or compared with vg_ct_memcmp, and every check's verdict is
 * declassified once, as a whole. Every temporary is in one work area, wiped
 * at the single exit (the decoder wipes the parts it wrote).
 */
#include <string.h>

#include "common.h"
#include "encoding.h"
#include "../mldsa/mldsa.h" /* vg_mldsaN_check_expanded: ML-DSA's shared header */
#include "../nist/nist_ecc.h" /* vg_nist_pNNN_point_uncompressed */

enum kind { K_CURVE, K_RAW, K_LATTICE, K_EC };

struct alg_info {
    vg_key_alg alg;
    enum kind kind;
    uint8_t oid_len;
    uint8_t oid[11];
    uint8_t par_len; /* the parameters' OID contents (K_EC: namedCurve), else 0 */
    uint8_t par[8];
    size_t seed_len; /* the seed form (K_LATTICE) or the key (others) */
    size_t exp_len;  /* the expanded key (K_LATTICE), else 0 */
    size_t pk_len;
};

#define NIST_OID(arc, n) {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, arc, n}
static const struct alg_info g_algs[] = {
    {VG_KEY_X25519, K_CURVE, 3, {0x2b, 0x65, 0x6e}, 0, {0}, 32, 0, 32},  /* 1.3.101.110 */
    {VG_KEY_ED25519, K_CURVE, 3, {0x2b, 0x65, 0x70}, 0, {0}, 32, 0, 32}, /* 1.3.101.112 */
    /* 2.16.840.1.101.3.4.4.{1,2,3}: id-alg-ml-kem-512/768/1024 */
    {VG_KEY_MLKEM512, K_LATTICE, 9, NIST_OID(0x04, 0x01), 0, {0}, 64, 1632, 800},
    {VG_KEY_MLKEM768, K_LATTICE, 9, NIST_OID(0x04, 0x02), 0, {0}, 64, 2400, 1184},
    {VG_KEY_MLKEM1024, K_LATTICE, 9, NIST_OID(0x04, 0x03), 0, {0}, 64, 3168, 1568},
    /* 2.16.840.1.101.3.4.3.{17,18,19}: id-ml-dsa-44/65/87 */
    {VG_KEY_MLDSA44, K_LATTICE, 9, NIST_OID(0x03, 0x11), 0, {0}, 32, 2560, 1312},
    {VG_KEY_MLDSA65, K_LATTICE, 9, NIST_OID(0x03, 0x12), 0, {0}, 32, 4032, 1952},
    {VG_KEY_MLDSA87, K_LATTICE, 9, NIST_OID(0x03, 0x13), 0, {0}, 32, 4896, 2592},
    /* 1.3.6.1.4.1.62253.25722: id-XWing */
    {VG_KEY_XWING, K_RAW, 11, {0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xe6, 0x2d, 0x81, 0xc8, 0x7a},
     0, {0}, 32, 0, 1216},
    /* 1.2.840.10045.2.1 id-ecPublicKey (RFC 5480 2.1.1) with the namedCurve
     * 1.2.840.10045.3.1.7 secp256r1 resp. 1.3.132.0.34 secp384r1 (2.1.1.1) */
    {VG_KEY_P256, K_EC, 7, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01}, 8,
     {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07}, 32, 0, 65},
    {VG_KEY_P384, K_EC, 7, {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01}, 5,
     {0x2b, 0x81, 0x04, 0x00, 0x22}, 48, 0, 97},
};

#define MAX_EXP 4896
#define MAX_PK 2592
#define MAX_CT 1568

/* Everything secret or large of one call; wiped at the exit. */
struct ws {
    uint8_t der[VG_ENC_DER_MAX];
    uint8_t inner[VG_ENC_DER_MAX];
    uint8_t exp[MAX_EXP];
    uint8_t pk[MAX_PK];
    uint8_t ct[MAX_CT];
    uint8_t ss[2][32];
    uint8_t edsk[64];
    uint8_t tr[64];
    uint8_t pub[97]; /* an EC publicKey [1] decompressed (public) */
    uint8_t par[16]; /* the DER of an "EC PARAMETERS" PEM block (public) */
};

static const struct alg_info *info_of(vg_key_alg alg)
{
    for (size_t i = 0; i < sizeof g_algs / sizeof g_algs[0]; i++)
        if (g_algs[i].alg == alg)
            return &g_algs[i];
    return NULL; /* VG_KEY_NONE or anything else */
}

/* The algorithm of an AlgorithmIdentifier's contents (algid: OID, then the
 * parameters): parameters absent for every algorithm but the EC ones, whose
 * parameters must be exactly the namedCurve OID (RFC 5480 2.1.1: the
 * ecParameters and implicitCurve choices are refused, as "MUST NOT" there).
 * The whole window must be used. */
static const struct alg_info *info_of_algid(struct vg_der algid)
{
    struct vg_der oid, par = {NULL, 0};
    if (vg_der_get(&algid, DER_OID, &oid))
        return NULL;
    if (algid.n != 0 && (vg_der_get(&algid, DER_OID, &par) || algid.n != 0))
        return NULL;
    for (size_t i = 0; i < sizeof g_algs / sizeof g_algs[0]; i++) {
        const struct alg_info *a = &g_algs[i];
        if (oid.n != a->oid_len || memcmp(oid.p, a->oid, oid.n) != 0)
            continue;
        if (a->par_len == 0 ? par.p == NULL
                            : par.p && par.n == a->par_len && memcmp(par.p, a->par, par.n) == 0)
            return a;
    }
    return NULL;
}

/* Bytes of the AlgorithmIdentifier's contents, and their DER at out. */
static size_t algid_len(const struct alg_info *in)
{
    return 2 + in->oid_len + (in->par_len ? 2u + in->par_len : 0u);
}

static size_t put_algid(uint8_t *out, const struct alg_info *in)
{
    size_t o = vg_der_put_hdr(out, DER_SEQUENCE, algid_len(in));
    o += vg_der_put_hdr(out + o, DER_OID, in->oid_len);
    memcpy(out + o, in->oid, in->oid_len);
    o += in->oid_len;
    if (in->par_len) {
        o += vg_der_put_hdr(out + o, DER_OID, in->par_len);
        memcpy(out + o, in->par, in->par_len);
        o += in->par_len;
    }
    return o;
}

static int is_mlkem(vg_key_alg a)
{
    return a == VG_KEY_MLKEM512 || a == VG_KEY_MLKEM768 || a == VG_KEY_MLKEM1024;
}

/* An EC point (SEC 1 uncompressed, or compressed: 02/03 || x) validated and
 * written uncompressed to out (in->pk_len bytes): SEC 1 2.3.4 decoding with
 * the point check ECDH does on a peer key (P-256/P-384's own code). Public
 * data. VG_OK or VG_ERR_INPUT. */
static int ec_point(const struct alg_info *in, uint8_t *out, const uint8_t *p, size_t len)
{
    return in->alg == VG_KEY_P256 ? vg_nist_p256_point_uncompressed(out, p, len)
                                  : vg_nist_p384_point_uncompressed(out, p, len);
}

/* Whether len is the length of a SEC 1 point of the curve (uncompressed or
 * compressed). */
static int ec_point_len(const struct alg_info *in, size_t len)
{
    return len == in->pk_len || len == 1 + in->seed_len;
}

/* A verdict computed from secrets (0 or -1 from vg_ct_memcmp and friends),
 * made public: accepting or refusing a key is the outcome the caller sees. */
static int verdict(int v)
{
    VG_CT_DECLASSIFY(&v, sizeof v);
    return v;
}

/* ---- the algorithms' own key generation and checks ---------------------- */

/* pk and expanded key of a lattice seed (KeyGen_internal). */
static int lattice_derive(vg_key_alg a, uint8_t *pk, uint8_t *exp, const uint8_t *seed)
{
    switch (a) {
    case VG_KEY_MLKEM512: return vg_mlkem512_keypair_derand(pk, exp, seed);
    case VG_KEY_MLKEM768: return vg_mlkem768_keypair_derand(pk, exp, seed);
    case VG_KEY_MLKEM1024: return vg_mlkem1024_keypair_derand(pk, exp, seed);
    case VG_KEY_MLDSA44: return vg_mldsa44_keypair_derand(pk, exp, seed);
    case VG_KEY_MLDSA65: return vg_mldsa65_keypair_derand(pk, exp, seed);
    case VG_KEY_MLDSA87: return vg_mldsa87_keypair_derand(pk, exp, seed);
    default: return VG_ERR_INPUT;
    }
}

/* An ML-KEM dk: the FIPS 203 7.3 hash check, then a pairwise consistency
 * check (encapsulate to the ek inside dk, decapsulate, compare), which also
 * finds a changed s (the LAMPS document's second bad example, whose H(ek)
 * is right). */
static int mlkem_dk_check(struct ws *w, const struct alg_info *in, const uint8_t *dk)
{
    static const uint8_t m[32] = {0x6d}; /* any fixed m will do */
    const uint8_t *ek = dk + (in->exp_len - in->pk_len - 64); /* dk = dk_pke || ek || H(ek) || z */
    int rc;
    switch (in->alg) {
    case VG_KEY_MLKEM512:
        rc = vg_mlkem512_check_secret_key(dk);
        rc = rc ? rc : vg_mlkem512_encaps_derand(w->ct, w->ss[0], ek, m);
        rc = rc ? rc : vg_mlkem512_decaps(w->ss[1], w->ct, dk);
        break;
    case VG_KEY_MLKEM768:
        rc = vg_mlkem768_check_secret_key(dk);
        rc = rc ? rc : vg_mlkem768_encaps_derand(w->ct, w->ss[0], ek, m);
        rc = rc ? rc : vg_mlkem768_decaps(w->ss[1], w->ct, dk);
        break;
    default:
        rc = vg_mlkem1024_check_secret_key(dk);
        rc = rc ? rc : vg_mlkem1024_encaps_derand(w->ct, w->ss[0], ek, m);
        rc = rc ? rc : vg_mlkem1024_decaps(w->ss[1], w->ct, dk);
        break;
    }
    if (rc != VG_OK)
        return VG_ERR_INPUT;
    return verdict(vg_ct_memcmp(w->ss[0], w->ss[1], 32)) ? VG_ERR_INPUT : VG_OK;
}

/* An ML-DSA sk (FIPS 204 Algorithm 24 skEncode: rho, K, tr, s1, s2, t0):
 * s1 and s2 within [-eta, eta] (what skDecode, Algorithm 25, can produce),
 * and t0 and tr those of rho, s1, s2: ML-DSA's vg_mldsaN_check_expanded
 * regenerates t = NTT^-1(A-hat o NTT(s1)) + s2 from rho, Power2Round, and
 * compares t0 and H(rho || pkEncode(t1), 64) with the key's in constant
 * time, which refuses the ML-DSA document's bad examples 2 (t0) and 3 (tr).
 * Its secret verdict is declassified here, once. */
static int mldsa_sk_check(vg_key_alg a, const uint8_t *sk)
{
    int v = a == VG_KEY_MLDSA44   ? vg_mldsa44_check_expanded(sk)
            : a == VG_KEY_MLDSA65 ? vg_mldsa65_check_expanded(sk)
                                  : vg_mldsa87_check_expanded(sk);
    return verdict(v) ? VG_ERR_INPUT : VG_OK;
}

/* An expanded lattice key as the standards require before use. */
static int expanded_check(struct ws *w, const struct alg_info *in, const uint8_t *exp)
{
    return is_mlkem(in->alg) ? mlkem_dk_check(w, in, exp) : mldsa_sk_check(in->alg, exp);
}

/* The public key of a curve, EC or X-Wing secret (EC: VG_ERR_INPUT for a
 * scalar 0 or >= n, the component's check, its verdict declassified there). */
static int small_public(struct ws *w, const struct alg_info *in, uint8_t *pk, const uint8_t *key)
{
    switch (in->alg) {
    case VG_KEY_X25519: return vg_x25519_public_key(pk, key);
    case VG_KEY_P256: return vg_p256_public_key(pk, key);
    case VG_KEY_P384: return vg_p384_public_key(pk, key);
    case VG_KEY_ED25519: return vg_ed25519_keypair_from_seed(pk, w->edsk, key);
    default: return vg_xwing_keypair_derand(pk, w->ss[0], key);
    }
}

/* ---- private keys -------------------------------------------------------- */

static const char g_label_priv[] = "PRIVATE KEY";
static const char g_label_pub[] = "PUBLIC KEY";

/* Write the DER of the OneAsymmetricKey (version 0, no attributes, no
 * publicKey) around the privateKey content inner[0..inner_len). */
static size_t wrap_private(uint8_t *der, const struct alg_info *in, const uint8_t *inner,
                           size_t inner_len)
{
    size_t alg_len = algid_len(in);
    size_t body = 3 + vg_der_hdr_len(alg_len) + alg_len + vg_der_hdr_len(inner_len) + inner_len;
    size_t o = vg_der_put_hdr(der, DER_SEQUENCE, body);
    der[o++] = DER_INTEGER;
    der[o++] = 1;
    der[o++] = 0; /* version v1 (0) */
    o += put_algid(der + o, in);
    o += vg_der_put_hdr(der + o, DER_OCTET_STRING, inner_len);
    memcpy(der + o, inner, inner_len);
    return o + inner_len;
}

/* The DER or PEM of der[0..der_len) into out, or the size query. */
static int emit(uint8_t *out, size_t out_cap, size_t *out_len, unsigned pem, const char *label,
                const uint8_t *der, size_t der_len)
{
    size_t need = pem ? vg_pem_len(label, der_len) : der_len;
    if (!out) { /* out NULL with out_cap 0: the size query */
        *out_len = need;
        return VG_OK;
    }
    if (need > out_cap)
        return VG_ERR_INPUT;
    if (pem)
        vg_pem_encode(out, label, der, der_len);
    else
        memcpy(out, der, der_len);
    *out_len = need;
    return VG_OK;
}

/* The privateKey content for a lattice key in the requested form. */
static int lattice_inner(struct ws *w, const struct alg_info *in, unsigned form,
                         const uint8_t *key, size_t key_len, size_t *inner_len)
{
    int rc;
    size_t o = 0;
    if (key_len == in->exp_len) {
        /* An expanded key can only be written as expandedKey. */
        if (form == VG_KEY_BOTH)
            return VG_ERR_INPUT;
        if ((rc = expanded_check(w, in, key)) != VG_OK)
            return rc;
        o = vg_der_put_hdr(w->inner, DER_OCTET_STRING, in->exp_len);
        memcpy(w->inner + o, key, in->exp_len);
        *inner_len = o + in->exp_len;
        return VG_OK;
    }
    if (key_len != in->seed_len)
        return VG_ERR_INPUT;
    if (form == VG_KEY_SEED) {
        o = vg_der_put_hdr(w->inner, DER_CTX0_PRIM, in->seed_len);
        memcpy(w->inner + o, key, in->seed_len);
        *inner_len = o + in->seed_len;
        return VG_OK;
    }
    if ((rc = lattice_derive(in->alg, w->pk, w->exp, key)) != VG_OK)
        return rc;
    if (form == VG_KEY_BOTH) {
        size_t body = 2 + in->seed_len + vg_der_hdr_len(in->exp_len) + in->exp_len;
        o = vg_der_put_hdr(w->inner, DER_SEQUENCE, body);
        o += vg_der_put_hdr(w->inner + o, DER_OCTET_STRING, in->seed_len);
        memcpy(w->inner + o, key, in->seed_len);
        o += in->seed_len;
    }
    o += vg_der_put_hdr(w->inner + o, DER_OCTET_STRING, in->exp_len);
    memcpy(w->inner + o, w->exp, in->exp_len);
    *inner_len = o + in->exp_len;
    return VG_OK;
}

int vg_key_encode_private(uint8_t *out, size_t out_cap, size_t *out_len, vg_key_alg alg,
                          unsigned flags, const uint8_t *key, size_t key_len)
{
    struct ws w;
    const struct alg_info *in = info_of(alg);
    unsigned form = flags & (VG_KEY_EXPANDED | VG_KEY_BOTH);
    size_t inner_len = 0, der_len;
    int rc = VG_ERR_INPUT;
    if ((!out && out_cap) || !out_len || !key || !in)
        goto out;
    if ((flags & ~(VG_KEY_PEM | VG_KEY_EXPANDED | VG_KEY_BOTH)) != 0 ||
        form == (VG_KEY_EXPANDED | VG_KEY_BOTH))
        goto out;
    if (in->kind == K_LATTICE) {
        if ((rc = lattice_inner(&w, in, form, key, key_len, &inner_len)) != VG_OK)
            goto out;
    } else {
        rc = VG_ERR_INPUT;
        if (form != VG_KEY_SEED)
            goto out;
        /* Ed25519 also takes the library's 64-byte form seed || public key,
         * whose second half must be the public key of the first. */
        if (in->alg == VG_KEY_ED25519 && key_len == 64) {
            if (small_public(&w, in, w.pk, key) != VG_OK ||
                verdict(vg_ct_memcmp(w.pk, key + 32, 32)))
                goto out;
            key_len = 32;
        }
        if (key_len != in->seed_len)
            goto out;
        if (in->kind == K_EC) {
            /* ECPrivateKey (RFC 5915 3) as OpenSSL writes it inside PKCS#8:
             * version 1, the scalar, no [0] parameters, [1] publicKey. */
            if (small_public(&w, in, w.pk, key) != VG_OK)
                goto out;
            size_t bits = 1 + in->pk_len;
            size_t pub = vg_der_hdr_len(bits) + bits;
            size_t body = 3 + 2 + in->seed_len + vg_der_hdr_len(pub) + pub;
            size_t o = vg_der_put_hdr(w.inner, DER_SEQUENCE, body);
            w.inner[o++] = DER_INTEGER;
            w.inner[o++] = 1;
            w.inner[o++] = 1; /* ecPrivkeyVer1 */
            o += vg_der_put_hdr(w.inner + o, DER_OCTET_STRING, in->seed_len);
            memcpy(w.inner + o, key, in->seed_len);
            o += in->seed_len;
            o += vg_der_put_hdr(w.inner + o, DER_CTX1_CONS, pub);
            o += vg_der_put_hdr(w.inner + o, DER_BIT_STRING, bits);
            w.inner[o++] = 0; /* no unused bits */
            memcpy(w.inner + o, w.pk, in->pk_len);
            inner_len = o + in->pk_len;
        } else if (in->kind == K_CURVE) { /* CurvePrivateKey ::= OCTET STRING (RFC 8410 7) */
            inner_len = vg_der_put_hdr(w.inner, DER_OCTET_STRING, 32);
            memcpy(w.inner + inner_len, key, 32);
            inner_len += 32;
        } else {
            memcpy(w.inner, key, 32);
            inner_len = 32;
        }
    }
    der_len = wrap_private(w.der, in, w.inner, inner_len);
    rc = emit(out, out_cap, out_len, flags & VG_KEY_PEM, g_label_priv, w.der, der_len);
out:
    vg_wipe(&w, sizeof w);
    if (rc != VG_OK) {
        if (out)
            vg_wipe(out, out_cap);
        if (out_len)
            *out_len = 0;
    }
    return rc;
}

/* The parts of a OneAsymmetricKey. */
struct parsed {
    const struct alg_info *in;
    unsigned form;
    const uint8_t *seed; /* seed (lattice) or key (others), or NULL */
    const uint8_t *exp;  /* expanded key, or NULL */
    const uint8_t *pub;  /* publicKey [1] contents after the unused-bits octet, or NULL */
    size_t pub_len;      /* its length (EC: uncompressed or compressed point) */
};

/* privateKey's CHOICE of the LAMPS documents; the tag says which
 * (draft-ietf-lamps-kyber-certificates: not the length). */
static int parse_lattice(struct vg_der pk, struct parsed *r)
{
    const struct alg_info *in = r->in;
    struct vg_der s, e, b;
    if (pk.n == 0)
        return -1;
    if (pk.p[0] == DER_CTX0_PRIM) {
        if (vg_der_get(&pk, DER_CTX0_PRIM, &s) || s.n != in->seed_len)
            return -1;
        r->form = VG_KEY_SEED;
        r->seed = s.p;
    } else if (pk.p[0] == DER_OCTET_STRING) {
        if (vg_der_get(&pk, DER_OCTET_STRING, &e) || e.n != in->exp_len)
            return -1;
        r->form = VG_KEY_EXPANDED;
        r->exp = e.p;
    } else {
        if (vg_der_get(&pk, DER_SEQUENCE, &b) || vg_der_get(&b, DER_OCTET_STRING, &s) ||
            s.n != in->seed_len || vg_der_get(&b, DER_OCTET_STRING, &e) ||
            e.n != in->exp_len || b.n != 0)
            return -1;
        r->form = VG_KEY_BOTH;
        r->seed = s.p;
        r->exp = e.p;
    }
    return pk.n == 0 ? 0 : -1;
}

/* RFC 5915 3 ECPrivateKey ::= SEQUENCE { version INTEGER 1, privateKey
 * OCTET STRING (exactly the order's byte length, as section 3 says and
 * OpenSSL writes), parameters [0] ECParameters OPTIONAL (if present: a
 * namedCurve, inside PKCS#8 the AlgorithmIdentifier's), publicKey [1] BIT
 * STRING OPTIONAL (if present: a SEC 1 point, uncompressed or compressed,
 * compared with the scalar's own in check_private) }, filling the window
 * priv exactly. bare: the SEC 1 form outside PKCS#8 (what `openssl ec` and
 * `openssl ecparam -genkey` write, PEM label "EC PRIVATE KEY"), whose
 * curve is told by [0] alone: [0] is then required (RFC 5915 3: "MUST
 * always include the parameters field") and sets r->in. */
static int parse_ec(struct vg_der priv, struct parsed *r, int bare)
{
    struct vg_der seq, ver, k, par, oid, pub, bits;
    if (vg_der_get(&priv, DER_SEQUENCE, &seq) || priv.n != 0)
        return -1;
    if (vg_der_get(&seq, DER_INTEGER, &ver) || ver.n != 1 || ver.p[0] != 1)
        return -1;
    if (vg_der_get(&seq, DER_OCTET_STRING, &k))
        return -1;
    r->seed = k.p;
    if (seq.n && seq.p[0] == DER_CTX0_CONS) {
        if (vg_der_get(&seq, DER_CTX0_CONS, &par) || vg_der_get(&par, DER_OID, &oid) ||
            par.n != 0)
            return -1;
        if (bare) {
            for (size_t i = 0; i < sizeof g_algs / sizeof g_algs[0]; i++)
                if (g_algs[i].kind == K_EC && oid.n == g_algs[i].par_len &&
                    memcmp(oid.p, g_algs[i].par, oid.n) == 0)
                    r->in = &g_algs[i];
        }
        if (!r->in || oid.n != r->in->par_len || memcmp(oid.p, r->in->par, oid.n) != 0)
            return -1;
    }
    if (!r->in || k.n != r->in->seed_len)
        return -1; /* bare without [0], or a scalar of another length */
    if (seq.n && seq.p[0] == DER_CTX1_CONS) {
        if (vg_der_get(&seq, DER_CTX1_CONS, &pub) || vg_der_get(&pub, DER_BIT_STRING, &bits) ||
            pub.n != 0 || bits.n < 1 || !ec_point_len(r->in, bits.n - 1) || bits.p[0] != 0)
            return -1;
        r->pub = bits.p + 1;
        r->pub_len = bits.n - 1;
    }
    return seq.n == 0 ? 0 : -1;
}

/* The bare SEC 1 ECPrivateKey (RFC 5915 3, outside PKCS#8): the whole of
 * der[0..len). */
static int parse_sec1(const uint8_t *der, size_t len, struct parsed *r)
{
    struct vg_der d = {der, len};
    memset(r, 0, sizeof *r);
    return parse_ec(d, r, 1);
}

/* The structure of a OneAsymmetricKey, strictly: SEQUENCE { INTEGER 0 or 1,
 * SEQUENCE { OID } (parameters absent for every algorithm here), OCTET
 * STRING, [1] publicKey only in version 1 }, nothing after it. Attributes
 * [0] are refused (none of the documents uses them). */
static int parse_private(const uint8_t *der, size_t len, struct parsed *r)
{
    struct vg_der d = {der, len}, seq, ver, algid, priv, inner, pub;
    memset(r, 0, sizeof *r);
    if (vg_der_get(&d, DER_SEQUENCE, &seq) || d.n != 0)
        return -1;
    if (vg_der_get(&seq, DER_INTEGER, &ver) || ver.n != 1 || ver.p[0] > 1)
        return -1;
    if (vg_der_get(&seq, DER_SEQUENCE, &algid) || !(r->in = info_of_algid(algid)))
        return -1;
    if (vg_der_get(&seq, DER_OCTET_STRING, &priv))
        return -1;
    if (seq.n != 0) {
        /* version 2 (1) is required by RFC 5958 when publicKey is present */
        if (ver.p[0] != 1 || vg_der_get(&seq, DER_CTX1_PRIM, &pub) || seq.n != 0 ||
            pub.n != 1 + r->in->pk_len || pub.p[0] != 0 || r->in->kind == K_RAW ||
            r->in->kind == K_EC)
            return -1; /* X-Wing: "The publicKey component MUST be absent."; EC:
                          ECPrivateKey carries it (RFC 5915), not written here */
        r->pub = pub.p + 1;
        r->pub_len = r->in->pk_len;
    }
    switch (r->in->kind) {
    case K_CURVE:
        if (vg_der_get(&priv, DER_OCTET_STRING, &inner) || inner.n != 32 || priv.n != 0)
            return -1;
        r->seed = inner.p;
        return 0;
    case K_RAW:
        if (priv.n != 32)
            return -1;
        r->seed = priv.p;
        return 0;
    case K_EC:
        return parse_ec(priv, r, 0);
    default:
        return parse_lattice(priv, r);
    }
}

/* The checks of a parsed key: "both" consistent (regenerated from the seed
 * and compared, the LAMPS documents' consistency check), an expanded key
 * checked as its standard requires, publicKey equal to the key's own. */
static int check_private(struct ws *w, const struct parsed *r, int *touched)
{
    const struct alg_info *in = r->in;
    int bad = 0;
    if (in->kind != K_LATTICE) {
        /* EC: the scalar is always checked ([1, n-1]) by deriving its point. */
        if (!r->pub && in->kind != K_EC)
            return VG_OK;
        *touched = 1; /* w holds secrets from here on */
        if (small_public(w, in, w->pk, r->seed) != VG_OK)
            return VG_ERR_INPUT;
        if (!r->pub)
            return VG_OK;
        if (in->kind == K_EC) { /* uncompressed or compressed: decoded and validated */
            if (ec_point(in, w->pub, r->pub, r->pub_len) != VG_OK)
                return VG_ERR_INPUT;
            return verdict(vg_ct_memcmp(w->pk, w->pub, in->pk_len)) ? VG_ERR_INPUT : VG_OK;
        }
        /* the point is public; compared in constant time all the same */
        return verdict(vg_ct_memcmp(w->pk, r->pub, in->pk_len)) ? VG_ERR_INPUT : VG_OK;
    }
    if (r->seed && !r->exp && !r->pub)
        return VG_OK; /* any seed is a valid key: nothing to check, no KeyGen */
    *touched = 1;
    if (r->seed) {
        if (lattice_derive(in->alg, w->pk, w->exp, r->seed) != VG_OK)
            return VG_ERR_INPUT;
        if (r->exp)
            bad |= verdict(vg_ct_memcmp(w->exp, r->exp, in->exp_len));
        if (r->pub)
            bad |= verdict(vg_ct_memcmp(w->pk, r->pub, in->pk_len));
        return bad ? VG_ERR_INPUT : VG_OK;
    }
    if (expanded_check(w, in, r->exp) != VG_OK)
        return VG_ERR_INPUT;
    if (r->pub) {
        if (is_mlkem(in->alg)) { /* the ek stored in dk (FIPS 203 Algorithm 16) */
            bad = verdict(
                vg_ct_memcmp(r->exp + (in->exp_len - in->pk_len - 64), r->pub, in->pk_len));
        } else { /* rho = pk[0:32], tr = H(pk, 64) (FIPS 204 Algorithms 6, 24) */
            vg_shake256(w->tr, 64, r->pub, in->pk_len); /* tr is public (from pk) */
            bad = verdict(vg_ct_memcmp(r->exp, r->pub, 32) | vg_ct_memcmp(r->exp + 64, w->tr, 64));
        }
    }
    return bad ? VG_ERR_INPUT : VG_OK;
}

/* Where the "EC PARAMETERS" block that `openssl ecparam -genkey` writes
 * before its "EC PRIVATE KEY" ends in in[0..len) (just after its END line's
 * dashes), or 0 when the text does not start (after whitespace) with one.
 * That block is public (a curve's OID). */
static size_t ec_params_block_end(const uint8_t *in, size_t len)
{
    static const char begin[] = "-----BEGIN EC PARAMETERS-----";
    static const char end[] = "-----END EC PARAMETERS-----";
    size_t i = 0, bl = sizeof begin - 1, el = sizeof end - 1;
    while (i < len && (in[i] == ' ' || in[i] == '\t' || in[i] == '\r' || in[i] == '\n'))
        i++;
    if (len - i < bl || memcmp(in + i, begin, bl) != 0)
        return 0;
    for (i += bl; len - i >= el; i++)
        if (memcmp(in + i, end, el) == 0)
            return i + el;
    return 0;
}

/* The private key text or DER in[0..in_len) parsed into *r, its DER (when
 * PEM) in w->der: PEM "PRIVATE KEY" or DER: PKCS#8; PEM "EC PRIVATE KEY"
 * (optionally after an "EC PARAMETERS" block naming the same curve) or a
 * DER that is no PKCS#8: the bare SEC 1 ECPrivateKey. *pem is set for a
 * PEM text. 0 or -1. */
static int parse_any_private(struct ws *w, const uint8_t *in, size_t in_len, struct parsed *r,
                             unsigned *pem, size_t *der_used)
{
    static const char label_ec[] = "EC PRIVATE KEY";
    size_t der_len, par_len = 0, cut;
    if (!in || in_len == 0)
        return -1;
    if (!vg_pem_detect(in, in_len))
        return parse_private(in, in_len, r) == 0 || parse_sec1(in, in_len, r) == 0 ? 0 : -1;
    *pem = VG_KEY_PEM;
    /* vg_pem_decode wipes w->der when it fails; on success der_len bytes
     * of it are the (secret) DER, wiped by the caller. */
    if (vg_pem_decode(w->der, sizeof w->der, &der_len, g_label_priv, in, in_len) == 0) {
        *der_used = der_len;
        return parse_private(w->der, der_len, r);
    }
    if ((cut = ec_params_block_end(in, in_len)) != 0) {
        /* ECParameters ::= CHOICE { namedCurve OID, ... }: only the OID. */
        struct vg_der d, oid;
        if (vg_pem_decode(w->par, sizeof w->par, &par_len, "EC PARAMETERS", in, cut))
            return -1;
        d.p = w->par;
        d.n = par_len;
        if (vg_der_get(&d, DER_OID, &oid) || d.n != 0)
            return -1;
        in += cut;
        in_len -= cut;
    }
    if (vg_pem_decode(w->der, sizeof w->der, &der_len, label_ec, in, in_len))
        return -1;
    *der_used = der_len;
    if (parse_sec1(w->der, der_len, r))
        return -1;
    /* The parameters block, when present, names the key's own curve. */
    if (par_len && (par_len != 2u + r->in->par_len || memcmp(w->par + 2, r->in->par,
                                                              r->in->par_len) != 0))
        return -1;
    return 0;
}

int vg_key_decode_private(vg_key_alg *alg, unsigned *flags, uint8_t *key, size_t key_cap,
                          size_t *key_len, const uint8_t *in, size_t in_len)
{
    struct ws w;
    struct parsed r;
    size_t n, der_used = 0;
    unsigned pem = 0;
    int rc = VG_ERR_INPUT, touched = 0;
    if (!alg || !flags || (!key && key_cap) || !key_len || (!in && in_len))
        goto out;
    if (parse_any_private(&w, in, in_len, &r, &pem, &der_used))
        goto out;
    if ((rc = check_private(&w, &r, &touched)) != VG_OK)
        goto out;
    rc = VG_ERR_INPUT;
    n = r.seed ? r.in->seed_len : r.in->exp_len;
    if (n > key_cap)
        goto out;
    memcpy(key, r.seed ? r.seed : r.exp, n);
    *key_len = n;
    *alg = r.in->alg;
    *flags = pem | r.form;
    rc = VG_OK;
out:
    /* The work area is wiped where it was written: the PEM's DER, the
     * parameters block, and everything when the checks used it (a seed-form
     * lattice key or a curve key without publicKey is only copied, so its
     * decoding does not pay for wiping 17 KiB it never touched). */
    vg_wipe(w.der, der_used);
    vg_wipe(w.par, sizeof w.par);
    if (touched)
        vg_wipe(&w, sizeof w);
    if (rc != VG_OK) {
        if (key)
            vg_wipe(key, key_cap);
        if (key_len)
            *key_len = 0;
        if (alg)
            *alg = VG_KEY_NONE;
        if (flags)
            *flags = 0;
    }
    return rc;
}

/* ---- public keys --------------------------------------------------------- */

/* The checks a public key gets: FIPS 203 7.2 for ML-KEM (X-Wing: its ML-KEM
 * part); for P-256 / P-384 the SEC 1 decoding of an uncompressed or a
 * compressed point (2.3.4, the square root of x^3 - 3x + b for the latter)
 * with the validation ECDH does on a peer key (coordinates < p, on the
 * curve), the point written uncompressed to out (which ECDH and every other
 * EC function accept as well). X25519 and ML-DSA keys of the right length
 * are all valid inputs; an Ed25519 key is decoded (and refused if not a
 * point) by verification. pk_len is the input's length, as the callers
 * checked it (the algorithm's, or an EC compressed point's); out gets
 * in->pk_len bytes. */
static int check_public(const struct alg_info *in, uint8_t *out, const uint8_t *pk,
                        size_t pk_len)
{
    int rc;
    switch (in->alg) {
    case VG_KEY_P256:
    case VG_KEY_P384: return ec_point(in, out, pk, pk_len);
    case VG_KEY_MLKEM512: rc = vg_mlkem512_check_public_key(pk); break;
    case VG_KEY_MLKEM768: rc = vg_mlkem768_check_public_key(pk); break;
    case VG_KEY_MLKEM1024: rc = vg_mlkem1024_check_public_key(pk); break;
    case VG_KEY_XWING: rc = vg_mlkem768_check_public_key(pk); break;
    default: rc = VG_OK;
    }
    if (rc == VG_OK)
        memcpy(out, pk, in->pk_len);
    return rc;
}

int vg_key_encode_public(uint8_t *out, size_t out_cap, size_t *out_len, vg_key_alg alg,
                         unsigned flags, const uint8_t *pk, size_t pk_len)
{
    uint8_t der[VG_ENC_DER_MAX], key[MAX_PK];
    const struct alg_info *in = info_of(alg);
    int rc = VG_ERR_INPUT;
    /* EC: a compressed point is taken too and written uncompressed (RFC
     * 5480 2.2: "The uncompressed form MUST be supported"; the form we
     * write, as OpenSSL does by default). */
    if ((!out && out_cap) || !out_len || !pk || !in || (flags & ~VG_KEY_PEM) != 0 ||
        !(pk_len == in->pk_len || (in->kind == K_EC && ec_point_len(in, pk_len))) ||
        check_public(in, key, pk, pk_len) != VG_OK)
        goto out;
    {
        /* SubjectPublicKeyInfo ::= SEQUENCE { AlgorithmIdentifier, BIT STRING } */
        size_t alg_len = algid_len(in), bits = 1 + in->pk_len;
        size_t body = vg_der_hdr_len(alg_len) + alg_len + vg_der_hdr_len(bits) + bits;
        size_t o = vg_der_put_hdr(der, DER_SEQUENCE, body);
        o += put_algid(der + o, in);
        o += vg_der_put_hdr(der + o, DER_BIT_STRING, bits);
        der[o++] = 0; /* no unused bits */
        memcpy(der + o, key, in->pk_len);
        rc = emit(out, out_cap, out_len, flags & VG_KEY_PEM, g_label_pub, der, o + in->pk_len);
    }
out:
    if (rc != VG_OK) {
        if (out)
            vg_wipe(out, out_cap);
        if (out_len)
            *out_len = 0;
    }
    return rc;
}

int vg_key_decode_public(vg_key_alg *alg, uint8_t *pk, size_t pk_cap, size_t *pk_len,
                         const uint8_t *in, size_t in_len)
{
    uint8_t buf[VG_ENC_DER_MAX];
    struct vg_der d, seq, algid, bits;
    const struct alg_info *info;
    int rc = VG_ERR_INPUT;
    if (!alg || (!pk && pk_cap) || !pk_len || (!in && in_len))
        goto out;
    d.p = in;
    d.n = in_len;
    if (in_len && vg_pem_detect(in, in_len)) {
        if (vg_pem_decode(buf, sizeof buf, &d.n, g_label_pub, in, in_len))
            goto out;
        d.p = buf;
    }
    /* EC: the point uncompressed or compressed (SEC 1 2.3.3; RFC 5480 2.2
     * allows both in the BIT STRING), returned uncompressed. */
    if (!d.p || vg_der_get(&d, DER_SEQUENCE, &seq) || d.n != 0 ||
        vg_der_get(&seq, DER_SEQUENCE, &algid) || !(info = info_of_algid(algid)) ||
        vg_der_get(&seq, DER_BIT_STRING, &bits) || seq.n != 0 || bits.n < 1 ||
        !(bits.n - 1 == info->pk_len || (info->kind == K_EC && ec_point_len(info, bits.n - 1))) ||
        bits.p[0] != 0 || info->pk_len > pk_cap ||
        check_public(info, pk, bits.p + 1, bits.n - 1) != VG_OK)
        goto out;
    *pk_len = info->pk_len;
    *alg = info->alg;
    rc = VG_OK;
out:
    if (rc != VG_OK) {
        if (pk)
            vg_wipe(pk, pk_cap);
        if (pk_len)
            *pk_len = 0;
        if (alg)
            *alg = VG_KEY_NONE;
    }
    return rc;
}
