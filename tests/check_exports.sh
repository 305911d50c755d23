#!/bin/sh
# The shared library exports exactly the functions declared in the public
# header, nothing else, and carries the soname libvgcrypto.so.0.
# Usage: check_exports.sh LIBVGCRYPTO_SO VGCRYPTO_H
set -eu
so=$1 header=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Declared: "VG_API <type> *?vg_name(" in the header.
grep -oE 'VG_API[^(]*[ *]vg_[a-z0-9_]+\(' "$header" | grep -oE 'vg_[a-z0-9_]+' | sort -u >"$tmp/declared"
# Exported: defined dynamic symbols, version suffix removed.
nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' | sed 's/@.*//' | sort -u >"$tmp/exported"
fail=0
if ! diff -u "$tmp/declared" "$tmp/exported"; then
  echo "exported symbols differ from the header's declarations (- declared, + exported)" >&2
  fail=1
fi
soname=$(objdump -p "$so" | awk '$1 == "SONAME" {print $2}')
if [ "$soname" != "libvgcrypto.so.0" ]; then
  echo "soname is '$soname', expected libvgcrypto.so.0" >&2
  fail=1
fi
n=$(wc -l <"$tmp/declared")
[ "$n" -gt 0 ] || { echo "no declarations found in $header" >&2; fail=1; }
if [ $fail -eq 0 ]; then echo "check_exports: $n passed, 0 failed"; else echo "check_exports: 0 passed, 1 failed"; fi
exit $fail
