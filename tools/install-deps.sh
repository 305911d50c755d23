#!/bin/sh
# Install what building, benchmarking and testing vgcrypto needs on Debian 12
# (run as root). The library itself needs only libc; the rest is for the
# tests (OpenSSL and libsodium as independent implementations, valgrind for
# the constant-time runner, GMP as a big-number oracle, clang 14 for the second compiler and libFuzzer)
# and for `vgcrypto speed` (which dlopens libcrypto.so.3 and libsodium.so.23).
# nginx-light and curl are the unmodified applications that
# test_provider_nginx runs over the OpenSSL provider; the test starts its own
# nginx on a loopback port, so the package's service is kept from starting at
# installation (a policy-rc.d that refuses, only where the machine has none).
set -eu
export DEBIAN_FRONTEND=noninteractive
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod 755 "$policy"
  trap 'rm -f "$policy"' EXIT
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  build-essential cmake pkg-config ca-certificates \
  clang-14 libclang-rt-14-dev \
  libssl-dev libssl3 libsodium-dev libsodium23 \
  libgmp-dev libcjson-dev openssl python3 valgrind binutils nginx-light curl >/dev/null
echo "install-deps: done"
