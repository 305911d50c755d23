#!/bin/sh
# The public surface (DESIGN section 1): the shared library exports exactly
# the functions declared in the public header and carries the soname
# libvgcrypto.so.0; the static library's global defined symbols are the same
# set (internal symbols localised); neither contains a test hook.
# Usage: check_exports.sh LIBVGCRYPTO_SO VGCRYPTO_H [LIBVGCRYPTO_A]
set -eu
so=$1 header=$2 ar=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
# Declared: "VG_API <type> *?vg_name(" in the header.
grep -oE 'VG_API[^(]*[ *]vg_[a-z0-9_]+\(' "$header" | grep -oE 'vg_[a-z0-9_]+' | sort -u >"$tmp/declared"
n=$(wc -l <"$tmp/declared")
[ "$n" -gt 0 ] && ok || bad "no declarations found in $header"
# The test hooks of src/common (test-only library vgcrypto_testing).
hooks='^(vg_cpu_force|vg_random_fail_next)$'

# Shared: defined dynamic symbols, version suffix removed.
nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' | sed 's/@.*//' | sort -u >"$tmp/so"
if diff -u "$tmp/declared" "$tmp/so"; then ok; else
  bad "$so: exported symbols differ from the header's declarations (- declared, + exported)"
fi
# Every symbol, local ones too: a hook must not be in the library at all.
if nm "$so" 2>/dev/null | awk '{print $NF}' | grep -Eq "$hooks"; then
  bad "$so contains a test hook"
else ok; fi
soname=$(objdump -p "$so" | awk '$1 == "SONAME" {print $2}')
[ "$soname" = "libvgcrypto.so.0" ] && ok || bad "soname is '$soname', expected libvgcrypto.so.0"

# Static: global defined symbols of every member (nm -g: external only;
# --defined-only drops the references to libc). Local symbols may remain.
if [ -n "$ar" ]; then
  nm -g --defined-only "$ar" | awk 'NF == 3 {print $3}' | sort -u >"$tmp/a"
  if diff -u "$tmp/declared" "$tmp/a"; then ok; else
    bad "$ar: global symbols differ from the header's declarations (- declared, + global)"
  fi
  if nm "$ar" | awk 'NF >= 2 {print $NF}' | grep -Eq "$hooks"; then
    bad "$ar contains a test hook"
  else ok; fi
fi

echo "check_exports: $passed passed, $failed failed"
[ $failed -eq 0 ]
