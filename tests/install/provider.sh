#!/bin/bash
# The installed provider module and the openssl.cnf fragment of
# docs/provider.md as written: `cmake --install` into a temporary prefix puts
# vgcrypto-provider.so in <prefix>/<libdir>/ossl-modules/; the fragment, taken
# from the document with only its /usr/local prefix replaced by the
# temporary one, loads it in Debian's openssl (no -provider option): the
# provider is listed active with its KEMs, and s_server / s_client with no
# -groups option negotiate X25519MLKEM768 from the fragment's Groups line.
# Usage: provider.sh BUILD_DIR SOURCE_DIR LIBDIR  (LIBDIR: CMAKE_INSTALL_LIBDIR)
set -u
build=$1 src=$2 libdir=$3
tmp=$(mktemp -d)
SPID=
cleanup() {
  [ -n "$SPID" ] && kill "$SPID" 2> /dev/null
  wait 2> /dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' TERM INT HUP
passed=0 failed=0
check() {
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name"; fi
}
prefix=$tmp/prefix

cmake --install "$build" --prefix "$prefix" > "$tmp/install.log" || { cat "$tmp/install.log"; exit 1; }
module=$prefix/$libdir/ossl-modules/vgcrypto-provider.so
check "module installed in <prefix>/$libdir/ossl-modules" [ -f "$module" ]
check "install log names the module" grep -q "ossl-modules/vgcrypto-provider.so" "$tmp/install.log"

# The first fenced block of docs/provider.md that starts with openssl_conf.
awk '/^```/ { if (inblk) { if (want) exit; inblk = 0 } else { inblk = 1; first = 1 }; next }
     inblk && first { first = 0; if ($0 ~ /^openssl_conf = /) want = 1 }
     inblk && want { print }' "$src/docs/provider.md" > "$tmp/fragment.cnf"
check "docs/provider.md has the openssl.cnf fragment" grep -q '^module = /usr/local/' "$tmp/fragment.cnf"
# The documented default prefix /usr/local and libdir lib, as installed here.
sed "s|^module = /usr/local/lib/ossl-modules/|module = $prefix/$libdir/ossl-modules/|" \
  "$tmp/fragment.cnf" > "$tmp/openssl.cnf"
check "fragment names the installed module" grep -q -F "module = $module" "$tmp/openssl.cnf"
export OPENSSL_CONF=$tmp/openssl.cnf

openssl list -providers > "$tmp/providers.out" 2>&1
check "openssl list -providers: vgcrypto active" \
  sh -c "grep -A3 '^  vgcrypto' '$tmp/providers.out' | grep -q 'status: active'"
check "openssl list -providers: default active" \
  sh -c "grep -A3 '^  default' '$tmp/providers.out' | grep -q 'status: active'"
openssl list -kem-algorithms > "$tmp/kem.out" 2>&1
for a in ML-KEM-768 X25519MLKEM768; do
  check "openssl list -kem-algorithms: $a @ vgcrypto" grep -q "[{ ]$a[,} ].*@ vgcrypto" "$tmp/kem.out"
done

# A handshake whose groups come from the fragment only.
openssl req -x509 -newkey ed25519 -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -nodes \
  -subj /CN=localhost -days 2 > /dev/null 2>&1
openssl s_server -accept 127.0.0.1:0 -cert "$tmp/cert.pem" -key "$tmp/key.pem" -tls1_3 \
  -naccept 1 -www > "$tmp/server.out" 2>&1 < /dev/null &
SPID=$!
port=
for _ in $(seq 100); do
  port=$(sed -n 's/^ACCEPT 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$tmp/server.out")
  [ -n "$port" ] && break
  sleep 0.1
done
if [ -n "$port" ]; then
  printf 'GET / HTTP/1.0\r\n\r\n' | timeout 20 openssl s_client -connect "127.0.0.1:$port" \
    -tls1_3 -trace -ign_eof > "$tmp/client.out" 2>&1
  # The ServerHello's key_share: X25519MLKEM768 (0x11EC = 4588).
  check "handshake: ServerHello key_share group 4588 (X25519MLKEM768)" \
    sh -c "awk '/ServerHello, Length=/ { sh = 1 } sh && /NamedGroup:/ { print; exit }' \
      '$tmp/client.out' | grep -q '(4588)'"
  check "handshake: TLSv1.3" grep -q "Protocol  : TLSv1.3" "$tmp/client.out"
  check "handshake: s_server's -www page arrived" \
    grep -q "Ciphers supported in s_server binary" "$tmp/client.out"
else
  check "s_server started" false
  cat "$tmp/server.out"
fi

echo "install_provider: $passed passed, $failed failed"
[ "$failed" = 0 ]
