#!/bin/bash
# Unmodified applications over the vgcrypto provider (issue 18): Debian's
# nginx serves HTTPS on loopback with `ssl_ecdh_curve X25519MLKEM768;` and
# Debian's curl fetches from it with `--curves X25519MLKEM768`; neither
# program knows of vgcrypto: both load the provider through an openssl.cnf
# named by OPENSSL_CONF (OPENSSL_init_ssl with OPENSSL_INIT_LOAD_CONFIG reads
# it in nginx's master process at start-up, before nginx.conf is read, and in
# curl at start-up).
#
# The group is checked from nginx's side: the response body and the access
# log carry $ssl_curve, which nginx 1.22 prints as a name for groups that
# OpenSSL has a NID for and as the hex code point ("0x11ec") for provider
# groups (ngx_ssl_get_curve). The negotiation is checked to be real: curl
# offering only groups the server does not take (X25519; MLKEM768) fails,
# a curl offering X25519 first still ends with X25519MLKEM768 (libssl 3.0's
# client sends a key share for its first group only, so the server asks for
# the other with a HelloRetryRequest; test_provider.sh checks that exchange
# in a trace), and curl without the provider config cannot even name the
# group.
#
# Usage: test_provider_nginx.sh MODULE  (MODULE = path of vgcrypto-provider.so,
# or empty when the provider is not built). Skipped (exit 77) without the
# module, nginx, curl or openssl.
set -u
MODULE=${1:-}
# VG_OPENSSL_ROOT=DIR (from the environment only): openssl, nginx and curl
# run with DIR/lib's libssl and libcrypto and DIR/bin/openssl, e.g. an
# OpenSSL 3.5 installed with --prefix=DIR --libdir=lib. Debian's nginx and
# curl (and curl's libssh2) need its ENGINE and DES functions: a full build,
# not one configured with no-engine or no-des (docs/provider.md "On OpenSSL
# 3.5").
if [ -n "${VG_OPENSSL_ROOT:-}" ]; then
  PATH=$VG_OPENSSL_ROOT/bin:$PATH
  export LD_LIBRARY_PATH=$VG_OPENSSL_ROOT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
NGINX=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; })
if [ -z "$MODULE" ] || [ ! -f "$MODULE" ]; then
  echo "test_provider_nginx: provider not built: skipped"
  exit 77
fi
for p in curl openssl; do
  command -v "$p" > /dev/null || { echo "test_provider_nginx: no $p: skipped"; exit 77; }
done
if [ -z "$NGINX" ]; then
  echo "test_provider_nginx: no nginx (tools/install-deps.sh installs nginx-light): skipped"
  exit 77
fi
MODULE=$(cd "$(dirname "$MODULE")" && pwd)/$(basename "$MODULE")

T=$(mktemp -d)
NGINX_PID=
stop_nginx() {
  # SIGQUIT: graceful stop of the master and its worker; the master exits
  # only after the worker did.
  if [ -n "$NGINX_PID" ]; then
    kill -QUIT "$NGINX_PID" 2> /dev/null
    for _ in $(seq 50); do kill -0 "$NGINX_PID" 2> /dev/null || break; sleep 0.1; done
    kill -KILL "$NGINX_PID" 2> /dev/null
    wait "$NGINX_PID" 2> /dev/null
    NGINX_PID=
  fi
}
cleanup() {
  stop_nginx
  # A worker left behind (master killed) would still hold the port: its pid
  # is the one nginx wrote for it in the log ("start worker process N").
  local w
  for w in $(sed -n 's/.*start worker process \([0-9][0-9]*\).*/\1/p' "$T/error.log" 2> /dev/null); do
    kill -KILL "$w" 2> /dev/null
  done
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' TERM INT HUP
passed=0
failed=0
check() {
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name"; fi
}

# The provider and OpenSSL's default provider, as in docs/provider.md (no
# Groups line: the groups come from nginx.conf and from curl's --curves).
cat > "$T/openssl.cnf" << CNF
openssl_conf = openssl_init

[openssl_init]
providers = provider_sect

[provider_sect]
default = default_sect
vgcrypto = vgcrypto_sect

[default_sect]
activate = 1

[vgcrypto_sect]
module = $MODULE
activate = 1
CNF

# A self-signed Ed25519 certificate for 127.0.0.1, which curl verifies
# (--cacert), from OpenSSL's default provider.
openssl req -x509 -newkey ed25519 -keyout "$T/key.pem" -out "$T/cert.pem" -nodes \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -days 2 > "$T/req.log" 2>&1 ||
  { cat "$T/req.log"; echo "cannot make a certificate"; exit 1; }

# nginx.conf PORT: everything in $T (no /var, /run or /etc/nginx), in the
# foreground with one worker process. Debian's nginx 1.22 reads OPENSSL_CONF
# in its master process (OPENSSL_init_ssl with OPENSSL_INIT_LOAD_CONFIG, at
# start-up, before nginx.conf's ssl_* directives are applied) and the worker
# inherits the loaded provider with the SSL_CTX when it forks: setting the
# variable before the start is enough (checked: the test also passes without
# the `env` line). `env OPENSSL_CONF;` keeps the variable in the worker's
# environment as well, which nginx otherwise clears.
BODY_PREFIX=vgcrypto-nginx
write_conf() {
  local user=
  [ "$(id -u)" = 0 ] && user="user root;"
  cat > "$T/nginx.conf" << CONF
daemon off;
master_process on;
worker_processes 1;
$user
pid $T/nginx.pid;
error_log $T/error.log info;
env OPENSSL_CONF;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path $T/body;
  proxy_temp_path $T/proxy;
  fastcgi_temp_path $T/fastcgi;
  uwsgi_temp_path $T/uwsgi;
  scgi_temp_path $T/scgi;
  log_format tls '\$ssl_protocol \$ssl_curve \$ssl_cipher';
  server {
    listen 127.0.0.1:$1 ssl;
    server_name localhost;
    ssl_certificate $T/cert.pem;
    ssl_certificate_key $T/key.pem;
    ssl_protocols TLSv1.3;
    ssl_ecdh_curve X25519MLKEM768;
    access_log $T/access.log tls;
    location / {
      default_type text/plain;
      return 200 "$BODY_PREFIX \$ssl_protocol \$ssl_curve\n";
    }
  }
}
CONF
}

# Start nginx on a random port in 20000-31999 (below Linux's ephemeral range,
# where s_server's port 0 and outgoing connections land); a port already
# taken makes nginx exit with "Address already in use": try another.
PORT=
for _ in 1 2 3 4 5 6 7 8; do
  try=$((20000 + (RANDOM * 32768 + RANDOM) % 12000))
  write_conf "$try"
  : > "$T/error.log"
  OPENSSL_CONF=$T/openssl.cnf "$NGINX" -p "$T" -c "$T/nginx.conf" -e "$T/error.log" \
    > "$T/nginx.out" 2>&1 < /dev/null &
  NGINX_PID=$!
  # Ready once the worker process runs (the listening socket is open and
  # the pid file written before it starts).
  for _ in $(seq 100); do
    grep -q "start worker process" "$T/error.log" 2> /dev/null && break
    kill -0 "$NGINX_PID" 2> /dev/null || break
    sleep 0.05
  done
  if kill -0 "$NGINX_PID" 2> /dev/null && grep -q "start worker process" "$T/error.log"; then
    PORT=$try
    break
  fi
  stop_nginx
  grep -q "Address already in use" "$T/error.log" "$T/nginx.out" || break
done
if [ -z "$PORT" ]; then
  echo "FAIL: nginx did not start"
  cat "$T/nginx.out" "$T/error.log"
  exit 1
fi
URL=https://127.0.0.1:$PORT/

# fetch NAME ARGS...: curl with the provider config; body in $T/NAME.body,
# exit code in RC.
fetch() {
  local name=$1
  shift
  OPENSSL_CONF=$T/openssl.cnf timeout 20 curl -sS --max-time 10 --cacert "$T/cert.pem" --tlsv1.3 \
    -o "$T/$name.body" "$@" "$URL" 2> "$T/$name.err"
  RC=$?
}

# X25519MLKEM768 (0x11EC, draft-ietf-tls-ecdhe-mlkem): a verified TLS 1.3
# connection, the body nginx made from the connection's own variables.
fetch mlkem --curves X25519MLKEM768
check "X25519MLKEM768: curl succeeds" [ "$RC" = 0 ]
check "X25519MLKEM768: nginx negotiated 0x11ec over TLSv1.3" \
  [ "$(cat "$T/mlkem.body" 2> /dev/null)" = "$BODY_PREFIX TLSv1.3 0x11ec" ]
[ "$RC" = 0 ] || cat "$T/mlkem.err"

# curl offers X25519 first (its only key share) and X25519MLKEM768 second:
# nginx, which takes only X25519MLKEM768, asks for it (HelloRetryRequest).
fetch hrr --curves X25519:X25519MLKEM768
check "X25519 then X25519MLKEM768: curl succeeds" [ "$RC" = 0 ]
check "X25519 then X25519MLKEM768: negotiated 0x11ec" \
  [ "$(cat "$T/hrr.body" 2> /dev/null)" = "$BODY_PREFIX TLSv1.3 0x11ec" ]

# Groups the server does not take: the handshake fails (curl exit 35, SSL
# connect error), no body.
for g in X25519 MLKEM768; do
  fetch "only-$g" --curves "$g"
  check "only $g: handshake fails (curl exit 35)" [ "$RC" = 35 ]
  check "only $g: no body" [ ! -s "$T/only-$g.body" ]
done

# Without the provider config curl's OpenSSL 3.0 has no such group: curl
# cannot set its group list (exit 59, "failed setting curves list") and
# sends nothing. OpenSSL >= 3.5 has X25519MLKEM768 built in: there curl
# without the provider connects with OpenSSL's own.
OPENSSL_CONF=/dev/null timeout 20 curl -sS --max-time 10 --cacert "$T/cert.pem" \
  --curves X25519MLKEM768 -o "$T/noprov.body" "$URL" 2> "$T/noprov.err"
RC=$?
requests=2
case "$(curl -V 2> /dev/null | sed -n '1s/.* OpenSSL\/\([0-9.]*\).*/\1/p')" in
  3.[5-9]* | 3.[1-9][0-9]* | [4-9].*)
    requests=3
    check "no provider in curl, OpenSSL >= 3.5: its own X25519MLKEM768 (curl succeeds)" \
      [ "$RC" = 0 ]
    check "no provider in curl, OpenSSL >= 3.5: negotiated 0x11ec" \
      [ "$(cat "$T/noprov.body" 2> /dev/null)" = "$BODY_PREFIX TLSv1.3 0x11ec" ] ;;
  *)
    check "no provider in curl: X25519MLKEM768 unknown (curl exit 59)" [ "$RC" = 59 ] ;;
esac

# nginx's access log: one line per successful request, each X25519MLKEM768.
stop_nginx
check "access log: $requests TLSv1.3 0x11ec requests" \
  [ "$(grep -c '^TLSv1.3 0x11ec TLS_' "$T/access.log" 2> /dev/null)" = $requests ]
check "access log: no other requests" \
  [ "$(wc -l < "$T/access.log" 2> /dev/null)" = $requests ]
workers_left() {
  local w
  for w in $(sed -n 's/.*start worker process \([0-9][0-9]*\).*/\1/p' "$T/error.log"); do
    kill -0 "$w" 2> /dev/null && echo "$w"
  done
}
check "nginx stopped, master and worker" [ -z "$(workers_left)" ]
[ "$failed" = 0 ] || { tail -n 20 "$T/error.log"; cat "$T"/*.err; }

echo "test_provider_nginx: $passed passed, $failed failed"
[ "$failed" = 0 ]
