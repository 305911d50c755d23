#!/bin/bash
# Cross-check of bench/tls_handshake.c with OpenSSL's own tools: `openssl
# s_time -new` (full TLS 1.3 handshakes, a new connection each, no
# resumption) against `openssl s_server -num_tickets 0` with an Ed25519
# certificate, over loopback, for each group named; the client's group comes
# from an openssl.cnf (s_time has no -groups option), the provider from the
# same file. Printed: s_time's connections per second of its own (client)
# CPU time, and its connection count over the run's elapsed time.
# Usage: bench/tls_s_time.sh MODULE [SECONDS] [GROUP...]
#   (default 3 s per group, groups X25519 X25519MLKEM768 MLKEM768; a group
#   named again is measured again, for alternation); run it
#   through /work/notes/timeit.sh or on an otherwise idle machine.
set -u
MODULE=${1:?usage: tls_s_time.sh MODULE [SECONDS] [GROUP...]}
SECS=${2:-3}
shift $(($# >= 2 ? 2 : 1))
GROUPS_=("$@")
[ ${#GROUPS_[@]} = 0 ] && GROUPS_=(X25519 X25519MLKEM768 MLKEM768)
MODULE=$(cd "$(dirname "$MODULE")" && pwd)/$(basename "$MODULE")
T=$(mktemp -d)
SPID=
cleanup() {
  [ -n "$SPID" ] && kill "$SPID" 2> /dev/null
  wait 2> /dev/null
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' TERM INT HUP

cnf() { # FILE GROUPS
  cat > "$1" << CNF
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
Groups = $2
CNF
}
# The server takes each group named (once: libssl refuses a list that names
# a group twice); each client offers one.
all=$(printf '%s\n' "${GROUPS_[@]}" | awk '!seen[$0]++' | paste -s -d:)
cnf "$T/server.cnf" "$all"
openssl req -x509 -newkey ed25519 -keyout "$T/key.pem" -out "$T/cert.pem" -nodes \
  -subj /CN=localhost -days 2 > /dev/null 2>&1 || { echo "cannot make a certificate"; exit 1; }

# The server reads commands from its standard input and stops at its end:
# keep it open (a pipe from sleep) for as long as the run lasts.
total=$(( (SECS + 2) * ${#GROUPS_[@]} + 10 ))
sleep "$total" | OPENSSL_CONF=$T/server.cnf openssl s_server -accept 127.0.0.1:0 \
  -cert "$T/cert.pem" -key "$T/key.pem" -tls1_3 -num_tickets 0 > "$T/server.out" 2>&1 &
SPID=$!
PORT=
for _ in $(seq 100); do
  PORT=$(sed -n 's/^ACCEPT 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$T/server.out")
  [ -n "$PORT" ] && break
  sleep 0.1
done
[ -n "$PORT" ] || { echo "s_server did not start"; cat "$T/server.out"; exit 1; }

echo "# openssl s_time -new -tls1_3 -time $SECS against s_server -num_tickets 0 (Ed25519 cert), $(openssl version)"
for g in "${GROUPS_[@]}"; do
  cnf "$T/$g.cnf" "$g"
  t0=$(date +%s%N)
  out=$(OPENSSL_CONF=$T/$g.cnf timeout $((SECS + 20)) openssl s_time -connect "127.0.0.1:$PORT" \
    -new -tls1_3 -time "$SECS" 2>&1)
  t1=$(date +%s%N)
  user=$(printf '%s\n' "$out" | sed -n 's/.*; \([0-9.]*\) connections\/user sec.*/\1/p' | head -n 1)
  real=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) connections in \([0-9]*\) real seconds.*/\1 \2/p' | head -n 1)
  if [ -z "$user" ]; then
    echo "$g: s_time failed"; printf '%s\n' "$out" | tail -n 5
    continue
  fi
  set -- $real
  # s_time's own wall-clock figure counts whole seconds: divide its count by
  # the run's elapsed time instead (s_time's start-up included, ~0.02 s).
  printf '%-20s %9s connections/client-CPU-s  %6s connections in %d ms: %s/s\n' \
    "$g" "$user" "$1" $(( (t1 - t0) / 1000000 )) $(( $1 * 1000000000 / (t1 - t0) ))
done
