#!/bin/sh
# Install the build into a temporary prefix, then build tiny consumers against
# it with pkg-config and with find_package(vgcrypto), and run them.
# Usage: run.sh BUILD_DIR SOURCE_DIR C_COMPILER
set -eu
build=$1 src=$2 cc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
abc=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"
for f in bin/vgcrypto include/vgcrypto.h; do
  [ -e "$prefix/$f" ] && ok || bad "missing $f"
done
pc=$(find "$prefix" -name vgcrypto.pc | head -n 1)
[ -n "$pc" ] && ok || bad "missing vgcrypto.pc"
libdir=$(dirname "$(dirname "$pc")")
for f in libvgcrypto.a libvgcrypto.so libvgcrypto.so.0 cmake/vgcrypto/vgcryptoConfig.cmake; do
  [ -e "$libdir/$f" ] && ok || bad "missing lib/$f"
done

# pkg-config consumer, shared and static.
export PKG_CONFIG_PATH="$libdir/pkgconfig"
version=$(pkg-config --modversion vgcrypto)
"$cc" -o "$tmp/pc_shared" "$src/tests/install/consumer/consumer.c" $(pkg-config --cflags --libs vgcrypto)
out=$(LD_LIBRARY_PATH="$libdir" "$tmp/pc_shared")
[ "$out" = "$version $abc" ] && ok || bad "pkg-config shared consumer printed '$out', want '$version $abc'"
"$cc" -o "$tmp/pc_static" "$src/tests/install/consumer/consumer.c" $(pkg-config --cflags vgcrypto) \
  "$libdir/libvgcrypto.a"
out=$("$tmp/pc_static")
[ "$out" = "$version $abc" ] && ok || bad "static consumer printed '$out'"
# The shared consumer really uses the shared library.
LD_LIBRARY_PATH="$libdir" ldd "$tmp/pc_shared" | grep -q "libvgcrypto.so.0 => $libdir" && ok \
  || bad "shared consumer does not load $libdir/libvgcrypto.so.0"

# CMake consumer via find_package(vgcrypto).
CC="$cc" cmake -S "$src/tests/install/consumer" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cm.log"
cmake --build "$tmp/cm" >>"$tmp/cm.log"
out=$("$tmp/cm/consumer_shared")
[ "$out" = "$version $abc" ] && ok || bad "find_package shared consumer printed '$out'"
out=$("$tmp/cm/consumer_static")
[ "$out" = "$version $abc" ] && ok || bad "find_package static consumer printed '$out'"
# The installed CLI runs and reports the same version.
"$prefix/bin/vgcrypto" cpu | grep -q "$version" && ok || bad "installed vgcrypto cpu lacks version $version"

echo "install: $passed passed, $failed failed"
[ $failed -eq 0 ]
