#!/bin/sh
# Build and run every test in every configuration we ship:
#   1. gcc 12, default (all x86-64 variants, chosen at run time);
#   2. gcc 12, -DVG_PORTABLE=ON (no x86-64-specific code);
#   3. clang 14, default;
#   4. clang 14 with ASan + UBSan, plus the libFuzzer targets run briefly;
#   5. gcc 12 with -DVG_MLDSA87_LOWSTACK=OFF (ML-DSA-87's big-stack signing
#      layout): only the ML-DSA tests and test_stack, to keep CI short;
#   6. clang 14 with MemorySanitizer: the constant-time harnesses as taint
#      checks run natively (every AVX-512 and SHA-NI variant; label msan,
#      tests/ct_msan.cmake); only their targets are built.
# The instruction audit (label audit, ct_audit*) runs in 1, 2, 3 and 5.
# The long statistical timing tests are not run here: see README (ctest -L ct-long).
# Usage: tools/run-tests.sh [BUILD_ROOT]   (default: ./build-tests)
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$src/build-tests}
jobs=$(nproc 2>/dev/null || echo 2)
total_pass=0
total_fail=0
targets=

run_config() { # name, ctest args, cmake args...
  name=$1 ctest_args=$2
  shift 2
  dir=$root/$name
  echo "=== $name: configure and build"
  cmake -S "$src" -B "$dir" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
  # $targets (when set): build only those targets
  cmake --build "$dir" -j "$jobs" ${targets:+--target $targets} >"$dir.build.log" 2>&1 ||
    { cat "$dir.build.log"; exit 1; }
  if grep -E "warning:" "$dir.build.log"; then
    echo "=== $name: compiler warnings (the build must be clean)"; exit 1
  fi
  echo "=== $name: ctest $ctest_args"
  set +e
  (cd "$dir" && ctest --output-on-failure -j "$jobs" $ctest_args) >"$dir.ctest.log" 2>&1
  rc=$?
  set -e
  tail -n 40 "$dir.ctest.log"
  summary=$(grep -E "tests passed, [0-9]+ tests failed out of [0-9]+" "$dir.ctest.log" | tail -n 1)
  n=$(echo "$summary" | sed -E 's/.* out of ([0-9]+).*/\1/')
  f=$(echo "$summary" | sed -E 's/.*, ([0-9]+) tests failed.*/\1/')
  total_pass=$((total_pass + ${n:-0} - ${f:-0}))
  total_fail=$((total_fail + ${f:-0}))
  if [ $rc -ne 0 ]; then
    cat "$dir.ctest.log" | grep -A 30 "Failed\|FAIL" | head -n 200
    echo "=== $name: FAILED"
    exit 1
  fi
}

mkdir -p "$root"
run_config gcc "" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc
run_config gcc-portable "" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DVG_PORTABLE=ON
run_config clang "" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang-14
# Sanitizers cannot run under valgrind and distort timings and stack frames,
# so the valgrind, ct (timing), stack and install labels are left to the
# plain builds.
run_config clang-asan "-LE ^(valgrind|install|ct|stack)$" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DVG_FUZZ=ON \
  "-DCMAKE_C_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
run_config gcc-mldsa87-bigstack "-R mldsa|^test_stack$|^ct_audit" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=gcc -DVG_MLDSA87_LOWSTACK=OFF
# -fsanitize-recover=memory: run_msan.sh counts every report and sets
# reports in functions MSan cannot model apart (tests/ct/msan/unmodelled.txt).
targets=vg_ct_msan_all
run_config clang-msan "-L ^msan$" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
  "-DCMAKE_C_FLAGS=-fsanitize=memory -fsanitize-recover=memory -fno-omit-frame-pointer"
targets=
echo "all configurations: $total_pass passed, $total_fail failed"
