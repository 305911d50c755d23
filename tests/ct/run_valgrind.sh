#!/bin/sh
# Run a constant-time check program under valgrind memcheck.
#
# usage: run_valgrind.sh VALGRIND PROGRAM [--expect-leak] [ARGS...]
#
# 1. Runs PROGRAM --detect natively: the real CPU's feature mask
#    (valgrind's emulated CPUID hides ADX, AVX-512 and SHA).
# 2. Runs `VALGRIND --error-exitcode=1 -q PROGRAM --force MASK ARGS...`
#    with no suppressions: every declassification goes through the
#    harness's VG_CT_DECLASSIFY macro.
#
# Exit status: 77 (ctest SKIP_RETURN_CODE) when valgrind is absent.
# Normal mode: valgrind's status (0 clean, 1 on any memcheck report).
# --expect-leak (the leaky control, a WILL_FAIL test): 1 only when valgrind
# exited 1 AND reported a use of an undefined (secret) value, i.e. the
# harness saw the leak; 0 otherwise (a crash or a clean run), so that ctest
# marks the control as failed unless the leak was genuinely detected.
valgrind=$1
prog=$2
shift 2
expect_leak=0
if [ "$1" = "--expect-leak" ]; then
    expect_leak=1
    shift
fi

case "$valgrind" in
    ""|*NOTFOUND) valgrind=valgrind ;;
esac
valgrind=$(command -v "$valgrind" 2>/dev/null)
if [ -z "$valgrind" ]; then
    echo "SKIP: valgrind not found (Debian package: valgrind)"
    exit 77
fi

# A setup failure exits 2, except for the leaky control (a WILL_FAIL test),
# which must not pass without having seen its leak: it exits 0 then.
setup_fail=2
[ "$expect_leak" = 1 ] && setup_fail=0
mask=$("$prog" --detect) || { echo "run_valgrind.sh: $prog --detect failed"; exit $setup_fail; }
echo "run_valgrind.sh: native CPU feature mask $mask"

log=$(mktemp "${TMPDIR:-/tmp}/vg_ct.XXXXXX") || exit $setup_fail
"$valgrind" --error-exitcode=1 -q --track-origins=yes "$prog" --force "$mask" "$@" 2>"$log"
rc=$?
cat "$log" >&2
if grep -q "debuginfo reader" "$log"; then
    # valgrind 3.19 gives up on the DWARF 5 that clang 14 writes with -g.
    echo "run_valgrind.sh: valgrind could not read the debug info: build with"
    echo "  -DCMAKE_C_FLAGS=-gdwarf-4 (DWARF 5 is unreadable to valgrind 3.19)"
    rm -f "$log"
    [ "$expect_leak" = 1 ] && exit 0
    exit 2
fi

if [ "$expect_leak" = 1 ]; then
    if [ "$rc" = 1 ] && grep -q "uninitialised value" "$log"; then
        rm -f "$log"
        echo "run_valgrind.sh: leak reported, as the control requires (exit 1)"
        exit 1
    fi
    rm -f "$log"
    echo "run_valgrind.sh: the leaky control was NOT reported (valgrind exit $rc): harness blind"
    exit 0
fi
rm -f "$log"
exit "$rc"
