# What the provider's openssl-command tests share (sourced by
# test_provider.sh, test_provider_pki.sh and test_provider_ossl35.sh; bash).
#
# vgp_setup NAME MODULE: VG_OPENSSL_ROOT=DIR runs DIR/bin/openssl with
#   DIR/lib (an OpenSSL installed with --prefix=DIR --libdir=lib, e.g. 3.5:
#   docs/provider.md "On OpenSSL 3.5") instead of the openssl found in PATH;
#   then exit 77 (skipped) when MODULE (the path of vgcrypto-provider.so) is
#   empty or missing, or there is no openssl.
# vgp_start: the temporary directory T (removed at exit, with every process
#   in PIDS killed and reaped), openssl wrapped with the ASan runtime
#   preloaded when VG_OPENSSL_PRELOAD is set (clang ASan builds,
#   tests/provider.cmake, so that it can load the sanitized module), the
#   counters of check, and $T/mod/vgcrypto.so linked to MODULE (for
#   `-provider-path "$T/mod" -provider vgcrypto`).
# check NAME CMD...: counts CMD's success in passed / failed; not CMD...
#   succeeds when CMD fails.
# start_server OUT ARGS...: s_server on 127.0.0.1 port 0 (the kernel picks a
#   free port, so parallel tests cannot collide), TLS 1.3, one connection,
#   -rev; sets PORT from its "ACCEPT" line, or PORT= when it did not start
#   within 10 s (return 1).
# client OUT ARGS...: s_client with -trace, sending one line, then, once the
#   reversed line (REPLY_LINE) came back (10 s at most), CLOSE, which makes
#   the -rev server close the connection; 20 s at most in all. (A line
#   written at once can be read by s_client before the handshake and lost,
#   hence the wait.)
# server_share OUT: "group-id share-length" from the (last) ServerHello's
#   key_share in the client's trace.

vgp_setup() {
  VGP_NAME=$1
  MODULE=$2
  if [ -n "${VG_OPENSSL_ROOT:-}" ]; then
    PATH=$VG_OPENSSL_ROOT/bin:$PATH
    export LD_LIBRARY_PATH=$VG_OPENSSL_ROOT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  fi
  if [ -z "$MODULE" ] || [ ! -f "$MODULE" ] || ! command -v openssl > /dev/null; then
    echo "$VGP_NAME: provider not built or openssl missing: skipped"
    exit 77
  fi
}

vgp_cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2> /dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2> /dev/null; done
  rm -rf "$T"
}

vgp_start() {
  T=$(mktemp -d)
  PIDS=()
  trap vgp_cleanup EXIT
  if [ -n "${VG_OPENSSL_PRELOAD:-}" ]; then
    mkdir "$T/bin"
    printf '#!/bin/sh\nLD_PRELOAD=%s UBSAN_OPTIONS=halt_on_error=1 exec %s "$@"\n' \
      "$VG_OPENSSL_PRELOAD" "$(command -v openssl)" > "$T/bin/openssl"
    chmod +x "$T/bin/openssl"
    PATH=$T/bin:$PATH
  fi
  passed=0
  failed=0
  mkdir "$T/mod"
  ln -s "$(cd "$(dirname "$MODULE")" && pwd)/$(basename "$MODULE")" "$T/mod/vgcrypto.so"
}

check() {
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name"; fi
}
not() { ! "$@"; }

start_server() {
  local out=$1 i
  shift
  openssl s_server -accept 127.0.0.1:0 -tls1_3 -naccept 1 -rev "$@" > "$out" 2>&1 < /dev/null &
  PIDS+=($!)
  PORT=
  for i in $(seq 100); do
    PORT=$(sed -n 's/^ACCEPT 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$out")
    [ -n "$PORT" ] && return 0
    kill -0 "${PIDS[-1]}" 2> /dev/null || return 1
    sleep 0.1
  done
  return 1
}

# The reply of the -rev server: our line reversed (the -trace output may
# precede it on the same line, hence grep -F without anchors).
REPLY_LINE=$(printf 'vgcrypto-ping-%s' "$$" | rev)
client() {
  local out=$1 i
  shift
  {
    printf 'vgcrypto-ping-%s\n' "$$"
    for i in $(seq 100); do
      grep -q -F "$REPLY_LINE" "$out" 2> /dev/null && break
      grep -q ":error:" "$out" 2> /dev/null && break
      sleep 0.1
    done
    printf 'CLOSE\n'
    sleep 0.5
  } | timeout 20 openssl s_client -connect "127.0.0.1:$PORT" -tls1_3 -trace -ign_eof \
    -servername localhost "$@" > "$out" 2>&1
}

server_share() {
  awk '/ServerHello, Length=/ { sh = 1 }
       sh && /NamedGroup:/ { g = $NF; gsub(/[()]/, "", g) }
       sh && /key_exchange: / { l = $0; sub(/.*len=/, "", l); sub(/\).*/, "", l);
                                last = g " " l; sh = 0 }
       END { print last }' "$1"
}
