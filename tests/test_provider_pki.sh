#!/bin/bash
# Keys, signatures and certificates through the vgcrypto provider (issue 18)
# with Debian's unmodified `openssl` commands:
#  - `openssl list` shows every KEM, signature, key manager, encoder and
#    decoder of the provider;
#  - per algorithm: genpkey, pkey -text / -pubout, PEM <-> DER round trips
#    (byte for byte), the PKCS#8 seed form's size; the LAMPS and X-Wing
#    example keys read and written back, their bad keys refused; for the signatures
#    pkeyutl -sign/-verify -rawin and (ML-DSA) dgst -sign/-verify, a changed
#    message refused;
#  - an ML-DSA-65 chain (root CA, intermediate, leaf) made with `openssl
#    req` / `openssl x509 -req` and checked with `openssl verify`, also
#    refused with a changed certificate or without the intermediate;
#  - Ed25519: a chain made with the provider's keys and signatures only
#    (provider `base` supplies no algorithms) verified by OpenSSL's own
#    Ed25519, each certificate's signature equal byte for byte to OpenSSL's
#    signature of the same TBSCertificate; and OpenSSL's chain verified by
#    the provider alone.
# "ours only" runs load the provider with `base` (file store, PEM armour, no
# algorithms), so whatever signs, verifies, generates or encodes a key is
# the provider. Usage: test_provider_pki.sh MODULE (empty: exit 77).
set -u
# shellcheck source=tests/provider_lib.sh
. "$(dirname "$0")/provider_lib.sh"
vgp_setup test_provider_pki "${1:-}"
vgp_start
OURS=(-provider-path "$T/mod" -provider vgcrypto -provider base)
BOTH=(-provider-path "$T/mod" -provider vgcrypto -provider default)
o() { openssl "$1" "${OURS[@]}" "${@:2}" > "$T/out" 2> "$T/err"; }  # ours only
b() { openssl "$1" "${BOTH[@]}" "${@:2}" > "$T/out" 2> "$T/err"; }  # ours and default
ossl() { openssl "$1" "${@:2}" > "$T/out" 2> "$T/err"; }                # OpenSSL alone
# Both providers, the provider preferred where it has the algorithm.
bq() { openssl "$1" "${BOTH[@]}" -propquery '?provider=vgcrypto' "${@:2}" > "$T/out" 2> "$T/err"; }
SIGS=(ML-DSA-44 ML-DSA-65 ML-DSA-87 ED25519)
KEMS=(ML-KEM-512 ML-KEM-768 ML-KEM-1024 X-Wing)
HYBRIDS=(X25519MLKEM768 SecP256r1MLKEM768 SecP384r1MLKEM1024)

# ---- openssl list ----------------------------------------------------------
# listed NAME KIND: NAME appears with "@ vgcrypto" in the KIND listing.
openssl list "${OURS[@]}" -kem-algorithms > "$T/kem.txt" 2>&1
openssl list "${OURS[@]}" -signature-algorithms > "$T/sig.txt" 2>&1
openssl list "${OURS[@]}" -key-managers > "$T/km.txt" 2>&1
openssl list "${OURS[@]}" -encoders > "$T/enc.txt" 2>&1
openssl list "${OURS[@]}" -decoders > "$T/dec.txt" 2>&1
listed() { grep -q "[{ ]$1[,} ].*@ vgcrypto" "$2"; }
for a in "${KEMS[@]}" "${HYBRIDS[@]}"; do
  check "list: KEM $a" listed "$a" "$T/kem.txt"
  check "list: key manager $a" listed "$a" "$T/km.txt"
done
for a in "${SIGS[@]}"; do
  check "list: signature $a" listed "$a" "$T/sig.txt"
  check "list: key manager $a" listed "$a" "$T/km.txt"
done
# Encoders: DER and PEM for PrivateKeyInfo and SubjectPublicKeyInfo, text;
# decoders: DER and PEM for both (openssl list prints one line each).
for a in "${SIGS[@]}" "${KEMS[@]}"; do
  check "list: 5 encoders for $a" [ "$(grep -c "[{ ]$a[,} ].*@ vgcrypto" "$T/enc.txt")" = 5 ]
  check "list: 4 decoders for $a" [ "$(grep -c "[{ ]$a[,} ].*@ vgcrypto" "$T/dec.txt")" = 4 ]
done
check "list: ML-DSA OIDs" grep -q "2.16.840.1.101.3.4.3.18, id-ml-dsa-65, ML-DSA-65" "$T/sig.txt"

# ---- keys: genpkey, pkey, round trips --------------------------------------
# PKCS#8 DER sizes: SEQUENCE { INTEGER 0, AlgorithmIdentifier { OID },
# OCTET STRING { key } }: ML-KEM and ML-DSA in the seed form of the LAMPS
# documents ([0] 64-byte d || z: 2 + 3 + 13 + 2 + 2 + 64 = 86; [0] 32-byte
# xi: 54); X-Wing's 32-byte key with its 11-byte OID (2 + 3 + 15 + 2 + 32 =
# 54); Ed25519, RFC 8410 (48). SPKI: SEQUENCE { AlgorithmIdentifier,
# BIT STRING }: 4 + 13 + 4 + 1 + the key for the NIST OIDs (X-Wing 4 + 15 +
# 4 + 1 + 1216 = 1240; Ed25519 44).
declare -A P8=([ML-KEM-512]=86 [ML-KEM-768]=86 [ML-KEM-1024]=86 [X-Wing]=54
  [ML-DSA-44]=54 [ML-DSA-65]=54 [ML-DSA-87]=54 [ED25519]=48)
declare -A SPKI=([ML-KEM-512]=822 [ML-KEM-768]=1206 [ML-KEM-1024]=1590 [X-Wing]=1240
  [ML-DSA-44]=1334 [ML-DSA-65]=1974 [ML-DSA-87]=2614 [ED25519]=44)
for a in "${KEMS[@]}" "${SIGS[@]}"; do
  k=$T/$a.pem
  if ! o genpkey -algorithm "$a" -out "$k"; then
    check "$a: genpkey" false
    cat "$T/err"
    continue
  fi
  check "$a: PEM label" grep -q -- "-----BEGIN PRIVATE KEY-----" "$k"
  o pkey -in "$k" -outform DER -out "$T/$a.der"
  check "$a: PKCS#8 DER of ${P8[$a]} bytes" [ "$(stat -c %s "$T/$a.der")" = "${P8[$a]}" ]
  o pkey -inform DER -in "$T/$a.der" -out "$T/$a.again.pem"
  check "$a: DER -> PEM gives the same file" cmp -s "$k" "$T/$a.again.pem"
  o pkey -in "$k" -pubout -out "$T/$a.pub.pem"
  o pkey -pubin -in "$T/$a.pub.pem" -outform DER -out "$T/$a.pub.der"
  check "$a: SPKI DER of ${SPKI[$a]} bytes" [ "$(stat -c %s "$T/$a.pub.der")" = "${SPKI[$a]}" ]
  o pkey -pubin -inform DER -in "$T/$a.pub.der" -out "$T/$a.pub.again.pem"
  check "$a: SPKI DER -> PEM gives the same file" cmp -s "$T/$a.pub.pem" "$T/$a.pub.again.pem"
  o pkey -in "$k" -text -noout -out "$T/$a.txt"
  check "$a: pkey -text" grep -q "^$a Private-Key:" "$T/$a.txt"
  check "$a: -text shows pub" grep -q "^pub:" "$T/$a.txt"
  o pkey -pubin -in "$T/$a.pub.pem" -text -noout -out "$T/$a.pub.txt"
  check "$a: pkey -pubin -text" grep -q "^$a Public-Key:" "$T/$a.pub.txt"
  # The public key printed from the private key is the public file's.
  check "$a: same pub in both texts" \
    [ "$(sed -n '/^pub:/,$p' "$T/$a.txt")" = "$(sed -n '/^pub:/,$p' "$T/$a.pub.txt")" ]
  check "$a: pkey -check" o pkey -in "$k" -check -noout
  # With OpenSSL's default provider loaded too (the issue's command line).
  check "$a: genpkey with -provider default too" \
    b genpkey -algorithm "$a" -out "$T/$a.both.pem"
done
# Ed25519: the provider's encodings and text are OpenSSL's, byte for byte.
if [ -f "$T/ED25519.pem" ]; then
  ossl pkey -in "$T/ED25519.pem" -text -noout -out "$T/ed.ossl.txt"
  check "ED25519: -text as OpenSSL's" cmp -s "$T/ED25519.txt" "$T/ed.ossl.txt"
  ossl pkey -in "$T/ED25519.pem" -out "$T/ed.ossl.pem"
  check "ED25519: PKCS#8 PEM as OpenSSL's" cmp -s "$T/ED25519.pem" "$T/ed.ossl.pem"
  ossl pkey -in "$T/ED25519.pem" -pubout -out "$T/ed.ossl.pub"
  check "ED25519: SPKI PEM as OpenSSL's" cmp -s "$T/ED25519.pub.pem" "$T/ed.ossl.pub"
fi
# Encrypted PKCS#8 (-aes256): written by the provider (with the default
# provider's AES and PBKDF2) and read back with the passphrase, refused with
# another; also for Ed25519 keys read into the provider's key while both are
# loaded, which OpenSSL alone then decrypts.
if [ -f "$T/ML-DSA-65.pem" ]; then
  check "ML-DSA-65: genpkey -aes256" b genpkey -algorithm ML-DSA-65 -aes256 -pass pass:vgc \
    -out "$T/enc.pem"
  check "ML-DSA-65: encrypted PEM label" grep -q -- "-----BEGIN ENCRYPTED PRIVATE KEY-----" \
    "$T/enc.pem"
  check "ML-DSA-65: encrypted key read back" b pkey -in "$T/enc.pem" -passin pass:vgc -noout
  check "ML-DSA-65: wrong passphrase refused" not b pkey -in "$T/enc.pem" -passin pass:vgd -noout
  b pkey -in "$T/ML-DSA-65.pem" -aes128 -passout pass:vgc -out "$T/enc2.pem"
  # Read back with the provider preferred: with no query OpenSSL >= 3.5 may
  # write the key with its own encoder (ML-DSA's seed-and-expanded form).
  bq pkey -in "$T/enc2.pem" -passin pass:vgc -out "$T/dec2.pem"
  check "ML-DSA-65: pkey -aes128 and back" cmp -s "$T/dec2.pem" "$T/ML-DSA-65.pem"
fi
if [ -f "$T/ED25519.pem" ]; then
  b pkey -in "$T/ED25519.pem" -aes256 -passout pass:vgc -out "$T/ed.enc.pem"
  ossl pkey -in "$T/ed.enc.pem" -passin pass:vgc -out "$T/ed.dec.pem"
  check "ED25519: encrypted with both loaded, OpenSSL decrypts" \
    cmp -s "$T/ed.dec.pem" "$T/ED25519.pem"
fi
# ML-DSA's seed form: the text shows the seed.
check "ML-DSA-65: -text shows the seed" grep -q "^seed:" "$T/ML-DSA-65.txt"
# The TLS hybrids have no OID: no encoding, so writing one fails.
check "X25519MLKEM768: no PKCS#8" not o genpkey -algorithm X25519MLKEM768 -out "$T/h.pem"
# A corrupted seed inside an ML-DSA PKCS#8 with the "both" form would be
# caught; here: a truncated file is refused.
head -c 40 "$T/ML-DSA-65.der" > "$T/short.der"
check "truncated PKCS#8 refused" not o pkey -inform DER -in "$T/short.der" -noout

# The LAMPS documents' example keys (tests/vectors/lamps, tests/vectors/xwing;
# sources in tests/vectors/SOURCES.md): read by the provider alone, the public
# key written is the documents' file, the "both" form is written in the seed
# form (the seed file), the expanded form stays expanded; their inconsistent
# keys are refused (ML-KEM 1-4, ML-DSA 1; ML-DSA 2 and 3, a wrong t0 or tr,
# cannot be told without the public key: docs/encodings.md).
V=$(cd "$(dirname "$0")" && pwd)/vectors
for a in ML-KEM-512 ML-KEM-768 ML-KEM-1024 ML-DSA-44 ML-DSA-65 ML-DSA-87; do
  d=$V/lamps/$(printf '%s' "${a:0:6}" | tr 'A-Z' 'a-z')
  [ -f "$d/$a-seed.priv" ] || { check "$a: LAMPS example present" false; continue; }
  o pkey -in "$d/$a-seed.priv" -pubout -out "$T/ex.pub"
  check "$a LAMPS example: public key" cmp -s "$T/ex.pub" "$d/$a.pub"
  o pkey -in "$d/$a-both.priv" -out "$T/ex.priv"
  check "$a LAMPS example: both -> seed form" cmp -s "$T/ex.priv" "$d/$a-seed.priv"
  o pkey -in "$d/$a-expanded.priv" -out "$T/ex.priv"
  check "$a LAMPS example: expanded form kept" cmp -s "$T/ex.priv" "$d/$a-expanded.priv"
  # pkey -check: the key checks and a pairwise test (encapsulation, or a
  # signature that must verify).
  check "$a LAMPS example: pkey -check" o pkey -in "$d/$a-both.priv" -check -noout
  check "$a LAMPS example: pkey -pubcheck" o pkey -pubin -in "$d/$a.pub" -pubcheck -noout
done
# An expanded ML-KEM dk holds its ek: checked and tested pairwise. (An
# expanded ML-DSA sk alone has no public key the library can recompute, so
# -check cannot pass for it: docs/provider.md.)
check "ML-KEM-768 LAMPS expanded: pkey -check" \
  o pkey -in "$V/lamps/ml-kem/ML-KEM-768-expanded.priv" -check -noout
for f in "$V"/lamps/ml-kem/bad-ML-KEM-512-[1-4].priv "$V"/lamps/ml-dsa/bad-ML-DSA-44-1.priv; do
  check "$(basename "$f") refused" not o pkey -in "$f" -noout
done
o pkey -in "$V/xwing/xwing.priv" -out "$T/xw.priv"
check "X-Wing example: PKCS#8 as its draft's" cmp -s "$T/xw.priv" "$V/xwing/xwing.priv"
o pkey -in "$V/xwing/xwing.priv" -pubout -out "$T/xw.pub"
check "X-Wing example: public key as its draft's" cmp -s "$T/xw.pub" "$V/xwing/xwing.pub"

# ---- signatures -------------------------------------------------------------
printf 'vgcrypto provider message %s\n' "$$" > "$T/msg"
printf 'vgcrypto provider messagE %s\n' "$$" > "$T/msg2"
for a in "${SIGS[@]}"; do
  k=$T/$a.pem
  [ -f "$k" ] || continue
  check "$a: pkeyutl -sign -rawin" o pkeyutl -sign -rawin -inkey "$k" -in "$T/msg" -out "$T/$a.sig"
  check "$a: pkeyutl -verify -rawin" \
    o pkeyutl -verify -rawin -pubin -inkey "$T/$a.pub.pem" -in "$T/msg" -sigfile "$T/$a.sig"
  check "$a: changed message refused" \
    not o pkeyutl -verify -rawin -pubin -inkey "$T/$a.pub.pem" -in "$T/msg2" -sigfile "$T/$a.sig"
done
for a in ML-DSA-44 ML-DSA-65 ML-DSA-87; do
  k=$T/$a.pem
  [ -f "$k" ] || continue
  check "$a: dgst -sign (streaming)" o dgst -sign "$k" -out "$T/$a.dsig" "$T/msg"
  check "$a: dgst -verify" o dgst -verify "$T/$a.pub.pem" -signature "$T/$a.dsig" "$T/msg"
  check "$a: dgst -verify of the pkeyutl signature" \
    o dgst -verify "$T/$a.pub.pem" -signature "$T/$a.sig" "$T/msg"
  check "$a: dgst changed message refused" \
    not o dgst -verify "$T/$a.pub.pem" -signature "$T/$a.dsig" "$T/msg2"
done
# ML-DSA deterministic (FIPS 204 3.4, -pkeyopt deterministic:1): the same
# bytes twice, through the streaming (-rawin) and the one-shot (EVP_PKEY_sign)
# paths alike; hedged (the default): different bytes each time.
k=$T/ML-DSA-44.pem
if [ -f "$k" ]; then
  o pkeyutl -sign -rawin -inkey "$k" -in "$T/msg" -out "$T/d1" -pkeyopt deterministic:1
  o pkeyutl -sign -rawin -inkey "$k" -in "$T/msg" -out "$T/d2" -pkeyopt deterministic:1
  o pkeyutl -sign -inkey "$k" -in "$T/msg" -out "$T/d3" -pkeyopt deterministic:1
  check "ML-DSA-44: deterministic signatures equal" cmp -s "$T/d1" "$T/d2"
  check "ML-DSA-44: streamed and one-shot equal" cmp -s "$T/d1" "$T/d3"
  o pkeyutl -sign -rawin -inkey "$k" -in "$T/msg" -out "$T/h1"
  check "ML-DSA-44: hedged signatures differ" not cmp -s "$T/h1" "$T/ML-DSA-44.sig"
  check "ML-DSA-44: pkeyutl -verify (one-shot)" \
    o pkeyutl -verify -pubin -inkey "$T/ML-DSA-44.pub.pem" -in "$T/msg" -sigfile "$T/h1"
fi
# ML-DSA's context string (FIPS 204 ctx) through -pkeyopt: a signature with
# one context does not verify with another or none.
k=$T/ML-DSA-65.pem
if [ -f "$k" ]; then
  check "ML-DSA-65: sign with a context string" o pkeyutl -sign -rawin -inkey "$k" \
    -in "$T/msg" -out "$T/ctx.sig" -pkeyopt hexcontext-string:0102030405
  check "ML-DSA-65: verify with the same context" o pkeyutl -verify -rawin -pubin \
    -inkey "$T/ML-DSA-65.pub.pem" -in "$T/msg" -sigfile "$T/ctx.sig" \
    -pkeyopt hexcontext-string:0102030405
  check "ML-DSA-65: other context refused" not o pkeyutl -verify -rawin -pubin \
    -inkey "$T/ML-DSA-65.pub.pem" -in "$T/msg" -sigfile "$T/ctx.sig" \
    -pkeyopt hexcontext-string:0102030406
  check "ML-DSA-65: no context refused" not o pkeyutl -verify -rawin -pubin \
    -inkey "$T/ML-DSA-65.pub.pem" -in "$T/msg" -sigfile "$T/ctx.sig"
fi

# ---- certificate chains -----------------------------------------------------
cat > "$T/ext.cnf" <<'EOF'
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
[leaf]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
EOF
# chain RUN ALG DIR: root (self-signed, openssl req -x509), intermediate and
# leaf (openssl req + openssl x509 -req), with RUN (b, bq, or "ossl" for
# OpenSSL alone); keys made by RUN unless DIR has them. (No ours-only run
# here: OpenSSL 3.0's req and x509 add key identifiers, hashed with SHA-1,
# which only the default provider has.)
chain() {
  local run=$1 alg=$2 d=$3
  mkdir -p "$d"
  { [ -f "$d/root.key" ] || $run genpkey -algorithm "$alg" -out "$d/root.key"; } &&
    { [ -f "$d/inter.key" ] || $run genpkey -algorithm "$alg" -out "$d/inter.key"; } &&
    { [ -f "$d/leaf.key" ] || $run genpkey -algorithm "$alg" -out "$d/leaf.key"; } &&
    $run req -x509 -new -key "$d/root.key" -subj "/CN=vgcrypto test root" -days 2 \
      -set_serial 1 -config "$T/ext.cnf" -extensions ca -out "$d/root.pem" &&
    $run req -new -key "$d/inter.key" -subj "/CN=vgcrypto test intermediate" \
      -config "$T/ext.cnf" -out "$d/inter.csr" &&
    $run x509 -req -in "$d/inter.csr" -CA "$d/root.pem" -CAkey "$d/root.key" -set_serial 2 \
      -days 2 -extfile "$T/ext.cnf" -extensions ca -out "$d/inter.pem" &&
    $run req -new -key "$d/leaf.key" -subj "/CN=vgcrypto test leaf" -config "$T/ext.cnf" \
      -out "$d/leaf.csr" &&
    $run x509 -req -in "$d/leaf.csr" -CA "$d/inter.pem" -CAkey "$d/inter.key" -set_serial 3 \
      -days 2 -extfile "$T/ext.cnf" -extensions leaf -out "$d/leaf.pem"
}
# -config needs a [req] section with distinguished_name.
printf '[req]\ndistinguished_name = dn\n[dn]\n' >> "$T/ext.cnf"

# ML-DSA-65, with the issue's command line (-provider vgcrypto -provider default).
D=$T/mldsa
if chain b ML-DSA-65 "$D"; then
  check "ML-DSA-65 chain: openssl verify" \
    b verify -CAfile "$D/root.pem" -untrusted "$D/inter.pem" "$D/leaf.pem"
  check "ML-DSA-65 chain: no intermediate, no path" \
    not b verify -CAfile "$D/root.pem" "$D/leaf.pem"
  b x509 -in "$D/leaf.pem" -noout -text -out "$T/leaf.txt"
  check "ML-DSA-65 chain: signature algorithm" \
    grep -q "Signature Algorithm: ML-DSA-65" "$T/leaf.txt"
  check "ML-DSA-65 chain: leaf key" grep -q "Public Key Algorithm: ML-DSA-65" "$T/leaf.txt"
  # The signature AlgorithmIdentifier is id-ml-dsa-65 with no parameters
  # (RFC 9881): OpenSSL without the provider prints the bare OID (3.0), or
  # the name from its own object table (3.5: ML-DSA-65).
  openssl asn1parse -in "$D/leaf.pem" > "$T/leaf.asn1" 2>&1
  check "ML-DSA-65 chain: signature OID" \
    [ "$(grep -c -E 'OBJECT *:(2\.16\.840\.1\.101\.3\.4\.3\.18|ML-DSA-65)$' "$T/leaf.asn1")" = 3 ]
  # One byte of the leaf's signature changed: refused.
  openssl x509 -in "$D/leaf.pem" -outform DER -out "$T/leaf.der"
  sz=$(stat -c %s "$T/leaf.der")
  cp "$T/leaf.der" "$T/bad.der"
  byte=$(od -An -tu1 -j $((sz - 10)) -N1 "$T/leaf.der" | tr -d ' ')
  printf "\\$(printf %03o $(((byte + 1) % 256)))" |
    dd of="$T/bad.der" bs=1 seek=$((sz - 10)) conv=notrunc 2> /dev/null
  check "ML-DSA-65 chain: one signature byte changed" not cmp -s "$T/bad.der" "$T/leaf.der"
  openssl x509 -inform DER -in "$T/bad.der" -out "$T/bad.pem"
  check "ML-DSA-65 chain: changed signature refused" \
    not b verify -CAfile "$D/root.pem" -untrusted "$D/inter.pem" "$T/bad.pem"
else
  check "ML-DSA-65 chain built" false
  cat "$T/err"
fi

# tbs_and_sig CERT OUT: OUT.tbs = the TBSCertificate (the first element of
# the certificate's SEQUENCE), OUT.sig = the last 64 bytes (the Ed25519
# signature ends the DER: BIT STRING, RFC 8410 section 6).
tbs_and_sig() {
  local der=$2.der hl l
  openssl x509 -in "$1" -outform DER -out "$der"
  read -r hl l < <(openssl asn1parse -inform DER -in "$der" |
    awk -F'[ =]+' '/d=1/ { for (i = 1; i <= NF; i++) { if ($i == "hl") h = $(i + 1);
                                                      if ($i == "l") n = $(i + 1) }
                          print h, n; exit }')
  dd if="$der" of="$2.tbs" bs=1 skip=4 count=$((hl + l)) 2> /dev/null
  tail -c 64 "$der" > "$2.sig"
}

# Ed25519: keys made by the provider alone, the chain made preferring the
# provider, verified by OpenSSL alone; each certificate's signature equals
# the signature of its TBSCertificate by the provider alone and by OpenSSL
# alone (Ed25519 is deterministic: byte for byte). (test_provider signs a
# certificate with the provider's Ed25519 forced by property query.)
D=$T/ed
mkdir -p "$D"
for n in root inter leaf; do o genpkey -algorithm ED25519 -out "$D/$n.key"; done
if chain bq ED25519 "$D"; then
  check "Ed25519 chain (provider keys): OpenSSL alone verifies" \
    ossl verify -CAfile "$D/root.pem" -untrusted "$D/inter.pem" "$D/leaf.pem"
  for c in root:root inter:root leaf:inter; do
    cert=${c%%:*} signer=${c##*:}
    tbs_and_sig "$D/$cert.pem" "$T/$cert"
    o pkeyutl -sign -rawin -inkey "$D/$signer.key" -in "$T/$cert.tbs" -out "$T/$cert.ours.sig"
    ossl pkeyutl -sign -rawin -inkey "$D/$signer.key" -in "$T/$cert.tbs" -out "$T/$cert.ossl.sig"
    check "Ed25519 $cert: the provider's signature of the TBS is the certificate's" \
      cmp -s "$T/$cert.sig" "$T/$cert.ours.sig"
    check "Ed25519 $cert: OpenSSL's signature of the TBS is the same" \
      cmp -s "$T/$cert.ours.sig" "$T/$cert.ossl.sig"
  done
else
  check "Ed25519 chain (provider keys) built" false
  cat "$T/err"
fi
# OpenSSL's Ed25519 chain: each certificate's signature verified by the
# provider alone (openssl verify itself needs SHA-1, for certificate
# fingerprints, so it cannot run without the default provider), and the
# chain by openssl verify preferring the provider.
D=$T/ed-ossl
if chain ossl ED25519 "$D"; then
  for c in root:root inter:root leaf:inter; do
    cert=${c%%:*} signer=${c##*:}
    tbs_and_sig "$D/$cert.pem" "$T/o-$cert"
    ossl pkey -in "$D/$signer.key" -pubout -out "$T/o-$signer.pub"
    check "Ed25519 $cert (OpenSSL): the provider verifies its signature" \
      o pkeyutl -verify -rawin -pubin -inkey "$T/o-$signer.pub" -in "$T/o-$cert.tbs" \
      -sigfile "$T/o-$cert.sig"
    printf 'x' >> "$T/o-$cert.tbs"
    check "Ed25519 $cert (OpenSSL): the provider refuses a longer TBS" \
      not o pkeyutl -verify -rawin -pubin -inkey "$T/o-$signer.pub" -in "$T/o-$cert.tbs" \
      -sigfile "$T/o-$cert.sig"
  done
  check "Ed25519 chain (OpenSSL): openssl verify with ?provider=vgcrypto" \
    b verify -propquery '?provider=vgcrypto' -CAfile "$D/root.pem" -untrusted "$D/inter.pem" \
    "$D/leaf.pem"
else
  check "Ed25519 chain (OpenSSL) built" false
  cat "$T/err"
fi

echo "test_provider_pki: $passed passed, $failed failed"
[ "$failed" = 0 ]
