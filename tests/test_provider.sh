#!/bin/bash
# TLS 1.3 handshakes through the vgcrypto provider (issue 18) with Debian's
# unmodified `openssl s_server` / `openssl s_client` over loopback: for each
# group the provider adds, the negotiated group and the key-share sizes are
# read from the client's -trace output (the ServerHello's key_share, RFC 8446
# 4.2.8) and application data goes both ways (s_server -rev sends back each
# line reversed). Also: a HelloRetryRequest (RFC 8446 4.1.4: client's first
# share X25519, server accepts only X25519MLKEM768), a failing negotiation
# (no common group), and the provider and default groups loaded through the
# openssl.cnf fragment of docs/provider.md.
# Usage: test_provider.sh MODULE  (MODULE = path of vgcrypto-provider.so, or
# empty when the provider is not built: exit 77, skipped).
set -u
# shellcheck source=tests/provider_lib.sh
. "$(dirname "$0")/provider_lib.sh"
vgp_setup test_provider "${1:-}"
vgp_start
PROV=(-provider-path "$T/mod" -provider vgcrypto -provider default)
# OpenSSL >= 3.5 has these groups too: prefer the provider's, so that the
# handshakes below are its own (tests/test_provider_ossl35.sh has both ways).
# Without a query either may make a key and the other use it, which 3.5.7's
# SecP256r1MLKEM768 / SecP384r1MLKEM1024 cannot take (docs/provider.md "On
# OpenSSL 3.5").
case "$(openssl version 2> /dev/null | awk '{ print $2 }')" in
  3.[0-4].* | 3.[0-4]) ;;
  3.* | [4-9].*) PROV+=(-propquery '?provider=vgcrypto') ;;
esac
# An Ed25519 server certificate from OpenSSL's default provider.
openssl req -x509 -newkey ed25519 -keyout "$T/key.pem" -out "$T/cert.pem" -nodes \
  -subj /CN=localhost -days 2 > /dev/null 2>&1 || { echo "cannot make a certificate"; exit 1; }

# The module exports its entry point and nothing else (the library inside it
# is linked statically and stays private).
if command -v nm > /dev/null; then
  check "module exports only OSSL_provider_init" \
    [ "$(nm -D --defined-only "$MODULE" | awk '{ print $NF }')" = OSSL_provider_init ]
fi

# `openssl list` shows every KEM and key manager of the provider.
openssl list "${PROV[@]}" -kem-algorithms -key-managers > "$T/list.out" 2>&1
for a in ML-KEM-512 ML-KEM-768 ML-KEM-1024 X25519MLKEM768 SecP256r1MLKEM768 \
  SecP384r1MLKEM1024 X-Wing; do
  check "list: $a KEM and key manager" [ "$(grep -c "[{ ]$a[,} ].*@ vgcrypto" "$T/list.out")" = 2 ]
done

# start_server, client, server_share and REPLY_LINE: tests/provider_lib.sh;
# the server certificate is CERT.
CERT=(-cert "$T/cert.pem" -key "$T/key.pem")
# RFC 8446 4.1.3: a HelloRetryRequest is a ServerHello whose random is
# SHA-256("HelloRetryRequest"); -trace shows its last 28 bytes.
HRR_RANDOM=E59A6111BE1D8C021E65B891C2A211167ABB8C5E079E09E2C8A8339C

# group NAME ID CLIENT_SHARE_LEN SERVER_SHARE_LEN: a handshake with NAME on
# both sides, ID and the server's share length checked.
group() {
  local name=$1 id=$2 cl=$3 sl=$4 so=$T/s-$1.out co=$T/c-$1.out
  if ! start_server "$so" "${CERT[@]}" "${PROV[@]}" -groups "$name"; then
    check "$name: server started" false
    cat "$so"
    return
  fi
  client "$co" "${PROV[@]}" -groups "$name"
  check "$name: client's key share" grep -q "key_exchange:  (len=$cl)" "$co"
  check "$name: negotiated group $id, server share $sl bytes" \
    [ "$(server_share "$co")" = "$id $sl" ]
  check "$name: TLSv1.3" grep -q "Protocol  : TLSv1.3" "$co"
  check "$name: application data both ways" grep -q -F "$REPLY_LINE" "$co"
  [ "$failed" = 0 ] || { sed -n '1,20p' "$so"; grep -i -m5 'error\|alert' "$co"; }
}

# Group code points: IANA TLS Supported Groups. Share lengths: the public key
# and ciphertext sizes of FIPS 203 table 3 (ML-KEM), and draft-ietf-tls-
# ecdhe-mlkem for the hybrids: X25519MLKEM768 (1184 + 32, 1088 + 32),
# SecP256r1MLKEM768 (65 + 1184, 65 + 1088), SecP384r1MLKEM1024 (97 + 1568,
# 97 + 1568).
group MLKEM512 512 800 768
group MLKEM768 513 1184 1088
group MLKEM1024 514 1568 1568
group X25519MLKEM768 4588 1216 1120
group SecP256r1MLKEM768 4587 1249 1153
group SecP384r1MLKEM1024 4589 1665 1665

# HelloRetryRequest: the client's first (and only) share is X25519, the
# server takes only X25519MLKEM768 and asks for it.
if start_server "$T/s-hrr.out" "${CERT[@]}" "${PROV[@]}" -groups X25519MLKEM768; then
  client "$T/c-hrr.out" "${PROV[@]}" -groups X25519:X25519MLKEM768
  check "HRR: first share X25519" \
    [ "$(grep -m1 'NamedGroup:' "$T/c-hrr.out")" = "            NamedGroup: ecdh_x25519 (29)" ]
  check "HRR: HelloRetryRequest received" grep -q "random_bytes (len=28): $HRR_RANDOM" "$T/c-hrr.out"
  check "HRR: two ClientHellos" [ "$(grep -c 'ClientHello, Length=' "$T/c-hrr.out")" = 2 ]
  check "HRR: negotiated X25519MLKEM768" [ "$(server_share "$T/c-hrr.out")" = "4588 1120" ]
  check "HRR: application data" grep -q -F "$REPLY_LINE" "$T/c-hrr.out"
else
  check "HRR: server started" false
fi

# No common group: the handshake must fail (the negotiation is real).
if start_server "$T/s-none.out" "${CERT[@]}" "${PROV[@]}" -groups X25519; then
  client "$T/c-none.out" "${PROV[@]}" -groups MLKEM768
  check "no common group: no application data" [ "$(grep -c -F "$REPLY_LINE" "$T/c-none.out")" = 0 ]
  check "no common group: handshake failure alert" grep -q -i 'handshake failure\|alert' "$T/c-none.out"
else
  check "no common group: server started" false
fi

# The openssl.cnf fragment of docs/provider.md (module path filled in), and
# no -provider or -groups options: providers and the default groups
# (X25519MLKEM768 first, so the client's first share) come from the file.
cat > "$T/openssl.cnf" <<CNF
openssl_conf = openssl_init

[openssl_init]
providers = provider_sect
ssl_conf = ssl_sect

[provider_sect]
default = default_sect
vgcrypto = vgcrypto_sect

[default_sect]
activate = 1

[vgcrypto_sect]
module = $MODULE
activate = 1

[ssl_sect]
system_default = system_default_sect

[system_default_sect]
Groups = X25519MLKEM768:X25519
CNF
if OPENSSL_CONF=$T/openssl.cnf start_server "$T/s-cnf.out" "${CERT[@]}"; then
  OPENSSL_CONF=$T/openssl.cnf client "$T/c-cnf.out"
  check "openssl.cnf: negotiated X25519MLKEM768" [ "$(server_share "$T/c-cnf.out")" = "4588 1120" ]
  check "openssl.cnf: one ClientHello" [ "$(grep -c 'ClientHello, Length=' "$T/c-cnf.out")" = 1 ]
  check "openssl.cnf: application data" grep -q -F "$REPLY_LINE" "$T/c-cnf.out"
else
  check "openssl.cnf: server started" false
fi

echo "test_provider: $passed passed, $failed failed"
[ "$failed" = 0 ]
