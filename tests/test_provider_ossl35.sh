#!/bin/bash
# The vgcrypto provider beside OpenSSL >= 3.5's built-in ML-KEM, ML-DSA,
# X25519MLKEM768 and Ed25519 (issue 18: "coexists with the built-in
# algorithms, selection by property query"), and its TLS-SIGALG capability
# (ML-DSA-44/65/87 as TLS 1.3 signature schemes, compiled against OpenSSL >=
# 3.2 headers). Needs an openssl of 3.5 or later: with an older one (Debian
# 12's 3.0, as in CI) the test exits 77 (skipped). docs/provider.md "On
# OpenSSL 3.5" says how to build one and run this test against it.
#  - `openssl list` with both providers loaded shows each algorithm twice
#    (@ vgcrypto and @ default), and the TLS groups and signature schemes of
#    the provider alone (with `base`, no algorithms of OpenSSL's);
#  - keys made by one provider (genpkey, PKCS#8 / SPKI files) used by the
#    other (-propquery provider=...): encapsulation by one and decapsulation
#    by the other, signatures made by one and verified by the other
#    (Ed25519: byte-identical);
#  - TLS 1.3 handshakes between a side that prefers the provider
#    (-propquery ?provider=vgcrypto) and an OpenSSL that does not load it at
#    all, both ways, for the groups both have;
#  - ML-DSA server certificates with -sigalgs mldsaNN (TLS-SIGALG), made by
#    the provider and checked by OpenSSL's built-in ML-DSA, and the reverse;
#    a client that offers only another ML-DSA scheme fails.
# Usage: test_provider_ossl35.sh MODULE (MODULE = path of
# vgcrypto-provider.so, or empty: exit 77). VG_OPENSSL_ROOT=DIR runs
# DIR/bin/openssl with DIR/lib (an OpenSSL installed with --prefix=DIR
# --libdir=lib) instead of the openssl found in PATH.
set -u
# shellcheck source=tests/provider_lib.sh
. "$(dirname "$0")/provider_lib.sh"
vgp_setup test_provider_ossl35 "${1:-}"
# "OpenSSL 3.5.7 1 Jul 2025 (Library: OpenSSL 3.5.7 1 Jul 2025)"
ver=$(openssl version 2> /dev/null | awk '{ print $2 }')
major=${ver%%.*}
minor=${ver#*.}
minor=${minor%%.*}
case "$major$minor" in
  *[!0-9]* | "") major=0 minor=0 ;;
esac
if [ "$major" -lt 3 ] || { [ "$major" = 3 ] && [ "$minor" -lt 5 ]; }; then
  echo "test_provider_ossl35: needs openssl >= 3.5, found '${ver:-none}': skipped"
  exit 77
fi
vgp_start
echo "test_provider_ossl35: $(openssl version)"

OURS=(-provider-path "$T/mod" -provider vgcrypto -provider base)
BOTH=(-provider-path "$T/mod" -provider vgcrypto -provider default)
# Property queries: "vg" = the provider's algorithm wherever it has one,
# "def" = OpenSSL's default provider's. Optional (?) queries: a mandatory
# provider=vgcrypto would also shut out the file store and the PEM reader,
# which only OpenSSL has. Which provider encoded a key file shows in it
# (checked below): the provider writes ML-KEM and ML-DSA private keys in the
# seed form, OpenSSL 3.5 with the expanded key beside the seed.
pq() {
  case $1 in
    vg) echo '?provider=vgcrypto' ;;
    def) echo '?provider=default' ;;
  esac
}
# run WHO CMD ARGS...: openssl CMD with both providers and WHO's query.
run() { openssl "$2" "${BOTH[@]}" -propquery "$(pq "$1")" "${@:3}" > "$T/out" 2> "$T/err"; }

# ---- openssl list: both providers side by side -----------------------------
openssl list "${BOTH[@]}" -kem-algorithms > "$T/kem.txt" 2>&1
openssl list "${BOTH[@]}" -signature-algorithms > "$T/sig.txt" 2>&1
openssl list "${BOTH[@]}" -key-managers > "$T/km.txt" 2>&1
listed() { grep -q "[{ ]$1[,} ].*@ $2\$" "$3"; }
for a in ML-KEM-512 ML-KEM-768 ML-KEM-1024 X25519MLKEM768 SecP256r1MLKEM768 SecP384r1MLKEM1024; do
  for p in vgcrypto default; do
    check "list: KEM $a @ $p" listed "$a" $p "$T/kem.txt"
    check "list: key manager $a @ $p" listed "$a" $p "$T/km.txt"
  done
done
for a in ML-DSA-44 ML-DSA-65 ML-DSA-87 ED25519; do
  for p in vgcrypto default; do
    check "list: signature $a @ $p" listed "$a" $p "$T/sig.txt"
    check "list: key manager $a @ $p" listed "$a" $p "$T/km.txt"
  done
done
# The TLS 1.3 groups: -all-tls-groups lists every provider's TLS-GROUP
# entries (libssl needs OpenSSL's ciphers to list any, so not with `base`):
# each of the six once from OpenSSL alone, twice with the provider beside it.
openssl list -all-tls-groups -tls1_3 > "$T/g-def.txt" 2>&1
openssl list "${BOTH[@]}" -all-tls-groups -tls1_3 > "$T/g-both.txt" 2>&1
for g in MLKEM512 MLKEM768 MLKEM1024 SecP256r1MLKEM768 X25519MLKEM768 SecP384r1MLKEM1024; do
  check "list -all-tls-groups: $g once (OpenSSL alone)" \
    [ "$(tr ':' '\n' < "$T/g-def.txt" | grep -c -x "$g")" = 1 ]
  check "list -all-tls-groups: $g twice (both)" \
    [ "$(tr ':' '\n' < "$T/g-both.txt" | grep -c -x "$g")" = 2 ]
done
# The TLS 1.3 signature schemes: the provider's alone (with `base`, which
# has no TLS-SIGALG capability), and with both.
openssl list "${OURS[@]}" -tls-signature-algorithms > "$T/s-ours.txt" 2>&1
openssl list "${BOTH[@]}" -tls-signature-algorithms > "$T/s-both.txt" 2>&1
for s in mldsa44 mldsa65 mldsa87; do
  # With `base`, the only TLS-SIGALG capability is the provider's.
  check "list -tls-signature-algorithms: $s (provider alone)" \
    grep -q -E "(^|:)$s(:|\$)" "$T/s-ours.txt"
  # With both, each provider announces it.
  check "list -tls-signature-algorithms: $s twice (both)" \
    [ "$(tr ':' '\n' < "$T/s-both.txt" | grep -c -x "$s")" = 2 ]
done

# ---- keys of one provider used by the other --------------------------------
printf 'vgcrypto and OpenSSL %s, message %s\n' "$ver" "$$" > "$T/msg"
# (The hybrids have no OIDs, so no key files: their keys meet in the TLS
# handshakes below.)
for a in ML-KEM-512 ML-KEM-768 ML-KEM-1024 ML-DSA-44 ML-DSA-65 ML-DSA-87 ED25519; do
  for g in vg def; do
    check "$a: genpkey ($g)" run $g genpkey -algorithm "$a" -out "$T/$a.$g.key"
    check "$a: pkey -pubout ($g)" run $g pkey -in "$T/$a.$g.key" -pubout -out "$T/$a.$g.pub"
    run $g pkey -in "$T/$a.$g.key" -outform DER -out "$T/$a.$g.key.der"
  done
  # The provider's seed-only PKCS#8 is shorter than OpenSSL's seed and
  # expanded key: each file was written by the provider asked for.
  case $a in
    ED25519) ;;
    *) check "$a: the provider's key file is its seed form, OpenSSL's is longer" \
         [ "$(wc -c < "$T/$a.vg.key.der")" -lt "$(wc -c < "$T/$a.def.key.der")" ] ;;
  esac
  # Each provider reads the other's files and writes the same public key.
  for g in vg def; do
    for r in vg def; do
      [ $g = $r ] && continue
      run $r pkey -pubin -in "$T/$a.$g.pub" -outform DER -out "$T/$a.$g.pub.$r.der"
      run $g pkey -pubin -in "$T/$a.$g.pub" -outform DER -out "$T/$a.$g.pub.$g.der"
      check "$a: $g's public key read by $r, same SPKI" \
        cmp -s "$T/$a.$g.pub.$r.der" "$T/$a.$g.pub.$g.der"
      run $r pkey -in "$T/$a.$g.key" -pubout -outform DER -out "$T/$a.$g.priv.$r.der"
      check "$a: $g's private key read by $r, same public key" \
        cmp -s "$T/$a.$g.priv.$r.der" "$T/$a.$g.pub.$g.der"
    done
  done
done
# KEMs: for a key of each provider, encapsulation by one and decapsulation
# by the other, both ways; the secrets must agree, and a changed ciphertext
# must not give the same secret (ML-KEM's implicit rejection).
for a in ML-KEM-512 ML-KEM-768 ML-KEM-1024; do
  for g in vg def; do
    for e in vg def; do
      d=def
      [ $e = def ] && d=vg
      k=$T/$a.$g.$e
      check "$a ($g's key): encapsulate ($e)" \
        run $e pkeyutl -encap -pubin -inkey "$T/$a.$g.pub" -out "$k.ct" -secret "$k.ss1"
      check "$a ($g's key): decapsulate ($d)" \
        run $d pkeyutl -decap -inkey "$T/$a.$g.key" -in "$k.ct" -secret "$k.ss2"
      check "$a ($g's key): $e's and $d's secrets equal" cmp -s "$k.ss1" "$k.ss2"
      check "$a ($g's key): 32-byte secret" [ "$(wc -c < "$k.ss1")" = 32 ]
    done
  done
  # A ciphertext with its first byte changed, decapsulated by each.
  k=$T/$a.vg.def
  { printf '\x5a'; tail -c +2 "$k.ct"; } > "$k.bad"
  cmp -s "$k.bad" "$k.ct" && { printf '\xa5'; tail -c +2 "$k.ct"; } > "$k.bad"
  for d in vg def; do
    run $d pkeyutl -decap -inkey "$T/$a.vg.key" -in "$k.bad" -secret "$k.bad.$d"
    check "$a: changed ciphertext, another secret ($d)" not cmp -s "$k.bad.$d" "$k.ss1"
  done
done
# Signatures: made by one, verified by the other; a changed message refused
# by both. Ed25519 (RFC 8032) is deterministic: both sign byte for byte alike.
printf 'another message\n' > "$T/msg2"
for a in ML-DSA-44 ML-DSA-65 ML-DSA-87 ED25519; do
  for g in vg def; do
    for s in vg def; do
      v=def
      [ $s = def ] && v=vg
      k=$T/$a.$g.$s
      check "$a ($g's key): sign ($s)" \
        run $s pkeyutl -sign -rawin -inkey "$T/$a.$g.key" -in "$T/msg" -out "$k.sig"
      check "$a ($g's key): $s's signature verified ($v)" run $v pkeyutl -verify -rawin -pubin \
        -inkey "$T/$a.$g.pub" -in "$T/msg" -sigfile "$k.sig"
      check "$a ($g's key): changed message refused ($v)" not run $v pkeyutl -verify -rawin \
        -pubin -inkey "$T/$a.$g.pub" -in "$T/msg2" -sigfile "$k.sig"
    done
    [ $a = ED25519 ] && check "Ed25519 ($g's key): identical signatures" \
      cmp -s "$T/$a.$g.vg.sig" "$T/$a.$g.def.sig"
  done
done

# ---- TLS 1.3 ------------------------------------------------------------
# start_server, client, server_share: tests/provider_lib.sh.
openssl req -x509 -newkey ed25519 -keyout "$T/ed.key" -out "$T/ed.pem" -nodes \
  -subj /CN=localhost -days 2 > /dev/null 2>&1 || { echo "cannot make a certificate"; exit 1; }
# The side that prefers the provider loads both; OpenSSL's side loads
# nothing of ours (its default provider only).
VGSIDE=("${BOTH[@]}" -propquery '?provider=vgcrypto')
# kex NAME ID SERVER_SHARE_LEN: our server / OpenSSL's client, then the reverse.
kex() {
  local name=$1 id=$2 sl=$3 dir so co
  for dir in vg-server def-server; do
    so=$T/s-$name-$dir.out co=$T/c-$name-$dir.out
    if [ "$dir" = vg-server ]; then
      start_server "$so" -cert "$T/ed.pem" -key "$T/ed.key" "${VGSIDE[@]}" -groups "$name" ||
        { check "$name ($dir): server started" false; continue; }
      client "$co" -groups "$name"
    else
      start_server "$so" -cert "$T/ed.pem" -key "$T/ed.key" -groups "$name" ||
        { check "$name ($dir): server started" false; continue; }
      client "$co" "${VGSIDE[@]}" -groups "$name"
    fi
    check "$name ($dir): negotiated $id, server share $sl bytes" \
      [ "$(server_share "$co")" = "$id $sl" ]
    check "$name ($dir): application data both ways" grep -q -F "$REPLY_LINE" "$co"
  done
}
kex X25519MLKEM768 4588 1120
kex SecP256r1MLKEM768 4587 1153
kex SecP384r1MLKEM1024 4589 1665
kex MLKEM768 513 1088

# ML-DSA server certificates (TLS-SIGALG): a self-signed certificate per
# parameter set made by the provider (vg) and one made by OpenSSL (def); the
# side with the key signs the CertificateVerify with -sigalgs mldsaNN, the
# other side verifies the certificate and the CertificateVerify. Code
# points: draft-ietf-tls-mldsa, mldsa44/65/87 = 0x0904/0x0905/0x0906.
for n in 44 65 87; do
  run vg req -x509 -newkey "ML-DSA-$n" -keyout "$T/mldsa$n.vg.key" -out "$T/mldsa$n.vg.pem" \
    -nodes -subj /CN=localhost -days 2
  check "ML-DSA-$n certificate made by the provider" [ -s "$T/mldsa$n.vg.pem" ]
  openssl req -x509 -newkey "ML-DSA-$n" -keyout "$T/mldsa$n.def.key" -out "$T/mldsa$n.def.pem" \
    -nodes -subj /CN=localhost -days 2 > /dev/null 2>&1
  check "ML-DSA-$n certificate made by OpenSSL" [ -s "$T/mldsa$n.def.pem" ]
done
# sigalg N CODE MAKER DIR: MAKER's ML-DSA-N certificate; DIR vg-server: our
# server, OpenSSL's client; def-server: the reverse.
sigalg() {
  local n=$1 code=$2 mk=$3 dir=$4 so co
  so=$T/s-mldsa$n-$mk-$dir.out co=$T/c-mldsa$n-$mk-$dir.out
  local c=(-cert "$T/mldsa$n.$mk.pem" -key "$T/mldsa$n.$mk.key" -sigalgs "mldsa$n")
  local v=(-CAfile "$T/mldsa$n.$mk.pem" -verify_return_error -verify_hostname localhost
           -sigalgs "mldsa$n")
  if [ "$dir" = vg-server ]; then
    start_server "$so" "${c[@]}" "${VGSIDE[@]}" ||
      { check "mldsa$n ($mk's certificate, $dir): server started" false; return; }
    client "$co" "${v[@]}"
  else
    start_server "$so" "${c[@]}" ||
      { check "mldsa$n ($mk's certificate, $dir): server started" false; return; }
    client "$co" "${v[@]}" "${VGSIDE[@]}"
  fi
  check "mldsa$n ($mk's certificate, $dir): CertificateVerify with $code" \
    grep -q -i "Signature Algorithm: .*($code)" "$co"
  check "mldsa$n ($mk's certificate, $dir): certificate verified" \
    grep -q "Verify return code: 0 (ok)" "$co"
  check "mldsa$n ($mk's certificate, $dir): application data" grep -q -F "$REPLY_LINE" "$co"
}
sigalg 44 0x0904 vg vg-server
sigalg 65 0x0905 vg vg-server
sigalg 87 0x0906 vg vg-server
sigalg 65 0x0905 vg def-server
sigalg 65 0x0905 def vg-server
sigalg 65 0x0905 def def-server
# No common signature scheme: an ML-DSA-65 server, a client that offers only
# mldsa44, must fail.
if start_server "$T/s-nosig.out" -cert "$T/mldsa65.vg.pem" -key "$T/mldsa65.vg.key" "${VGSIDE[@]}"; then
  client "$T/c-nosig.out" -CAfile "$T/mldsa65.vg.pem" -sigalgs mldsa44
  check "mldsa65 server, mldsa44 client: no application data" \
    [ "$(grep -c -F "$REPLY_LINE" "$T/c-nosig.out")" = 0 ]
else
  check "no common signature scheme: server started" false
fi

echo "test_provider_ossl35: $passed passed, $failed failed"
[ "$failed" = 0 ]
