#!/bin/sh
# Run a constant-time check program built with MemorySanitizer in taint mode
# (the harness poisons secrets, VG_CT_DECLASSIFY unpoisons public results),
# natively, so that CPUID shows the real features.
#
# usage: run_msan.sh PROGRAM [--expect-leak] [ARGS...]
#
# The program is built with -fsanitize-recover=memory and run with
# halt_on_error=0, so every report of the run is seen (exitcode=0: MSan's own
# exit at the end would skip flushing the harness's output; the reports are
# counted from the log instead). Each report's innermost
# function is looked up in unmodelled.txt (beside this script): functions
# using an intrinsic MSan 14 cannot model. Those are printed as "not
# modelled"; any other report is a finding.
# Normal mode: 0 when the harness's own checks passed and every report (if
# any) is in a listed function; 1 otherwise.
# --expect-leak (the leaky control, a WILL_FAIL test): 1 only when a report
# outside the listed functions appeared (the planted leak was seen); 0
# otherwise (a clean run or another failure), so that ctest marks the
# control as failed unless the leak was detected.
here=$(cd "$(dirname "$0")" && pwd)
prog=$1
shift
expect_leak=0
if [ "$1" = "--expect-leak" ]; then
    expect_leak=1
    shift
fi
setup_fail=2
[ "$expect_leak" = 1 ] && setup_fail=0
MSAN_OPTIONS="halt_on_error=0:exitcode=0${MSAN_OPTIONS:+:$MSAN_OPTIONS}"
export MSAN_OPTIONS
# The real CPU's features without ADX: the ADX variants of X25519 and
# Ed25519 are GNU inline assembly (fe64_adx*.c), which MSan cannot see into
# (it reports every poisoned register operand and leaves the shadow of what
# the assembly writes stale); memcheck checks them under valgrind
# (ct_valgrind). Every AVX-512 and SHA-NI variant stays enabled.
mask=$("$prog" --detect) || { echo "run_msan.sh: $prog --detect failed"; exit $setup_fail; }
mask=$(printf '0x%x' $((mask & ~0x2)))
echo "run_msan.sh: CPU feature mask $mask (the native one without ADX)"
log=$(mktemp "${TMPDIR:-/tmp}/vg_msan.XXXXXX") || exit $setup_fail
"$prog" --force "$mask" "$@" >"$log" 2>&1
rc=$?
# The harness's valgrind wording, corrected for a native MSan run.
sed -e 's/not under valgrind: the routines run but nothing checks them/MemorySanitizer build: poisoned secrets checked natively/' \
    -e 's/SKIP    AVX-512 four-way Keccak: valgrind 3.19 cannot execute AVX-512 (covered by test_dudect_mldsa)/(natively the AVX-512 four-way Keccak runs: not skipped under MSan)/' \
    -e 's/SKIP    keccak4x avx512: valgrind 3.19 cannot execute AVX-512 (covered by test_dudect_mlkem)/(natively keccak4x avx512 runs: not skipped under MSan)/' "$log"
# The innermost frame (#0) of every report: its function name.
frames=$(awk '/WARNING: MemorySanitizer/ { want = 1; next }
              want && $1 == "#0" { for (i = 1; i <= NF; i++) if ($i == "in") { print $(i + 1); break }
                                   want = 0 }' "$log")
nrep=0 nmod=0 nfind=0
for f in $frames; do
    nrep=$((nrep + 1))
    if grep -q "^$f " "$here/unmodelled.txt"; then
        nmod=$((nmod + 1))
    else
        nfind=$((nfind + 1))
    fi
done
echo "run_msan.sh: $nrep MSan reports, $nmod in functions MSan cannot model (unmodelled.txt), $nfind findings"
if [ "$nmod" -gt 0 ]; then
    echo "run_msan.sh: not modelled (reports per function):"
    for f in $frames; do grep -q "^$f " "$here/unmodelled.txt" && echo "$f"; done | sort | uniq -c
fi
if [ "$nfind" -gt 0 ]; then
    echo "run_msan.sh: findings (reports per function):"
    for f in $frames; do grep -q "^$f " "$here/unmodelled.txt" || echo "$f"; done | sort | uniq -c
fi
# The harness's own verdict line ("NAME: N passed, 0 failed").
checks_ok=0
grep -Eq ": [0-9]+ passed, 0 failed$" "$log" && checks_ok=1
rm -f "$log"
if [ "$expect_leak" = 1 ]; then
    if [ "$nfind" -gt 0 ]; then
        echo "run_msan.sh: leak reported, as the control requires (exit 1)"
        exit 1
    fi
    echo "run_msan.sh: the leaky control was NOT reported (exit $rc): harness blind"
    exit 0
fi
if [ "$nfind" -gt 0 ] || [ "$checks_ok" = 0 ]; then
    echo "run_msan.sh: FAILED (program exit $rc)"
    exit 1
fi
exit 0
