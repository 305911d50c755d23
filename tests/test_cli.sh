#!/bin/bash
# Tests of the vgcrypto command: test_cli.sh /path/to/vgcrypto
#
# Digests are checked against independent tools: coreutils sha256sum and
# sha512sum, and OpenSSL's `openssl dgst` for SHA-3 and SHAKE (-xoflen).
# Every error path must exit 2 with exactly one line on stderr; -o must write
# atomically and leave nothing behind on failure. `speed` runs with the peers
# and without them (VG_SPEED_NO_PEERS=1).
# Exit 77 (ctest SKIP_RETURN_CODE) when a reference tool is missing.

V=${1:?usage: test_cli.sh /path/to/vgcrypto}
case $V in /*) ;; */*) V=$PWD/$V ;; esac # some checks run in another directory
for tool in sha256sum sha512sum openssl od; do
    command -v "$tool" >/dev/null || { echo "test_cli: SKIP: $tool not found"; exit 77; }
done

pass=0
fail=0
T=$(mktemp -d /tmp/vg_test_cli.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# check DESCRIPTION COMMAND...: the command must succeed.
check() { local d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }

# ---- inputs: empty, short, rate boundaries, several 64 KiB read chunks --
: >"$T/empty"
printf 'abc' >"$T/abc"
head -c 135 /dev/urandom >"$T/r135"
head -c 136 /dev/urandom >"$T/r136"
head -c 168 /dev/urandom >"$T/r168"
head -c 200013 /dev/urandom >"$T/big"
FILES="empty abc r135 r136 r168 big"

# ref ALG FILE [LEN]: the independent hex digest of FILE.
ref() {
    case $1 in
    sha256) sha256sum <"$2" | cut -d' ' -f1 ;;
    sha512) sha512sum <"$2" | cut -d' ' -f1 ;;
    sha3-256 | sha3-512) openssl dgst "-$1" <"$2" | sed 's/^.*= //' ;;
    shake128 | shake256) openssl dgst "-$1" -xoflen "$3" <"$2" | sed 's/^.*= //' ;;
    esac
}
deflen() { case $1 in shake128) echo 32 ;; shake256) echo 64 ;; *) echo "" ;; esac; }

# Sanity of the references themselves (FIPS 180-4 / FIPS 202 "abc" examples).
check "reference sha256 abc" [ "$(ref sha256 "$T/abc")" = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad ]
check "reference sha3-256 abc" [ "$(ref sha3-256 "$T/abc")" = 3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532 ]

# ---- every algorithm on files and on standard input ---------------------
for alg in sha256 sha512 sha3-256 sha3-512 shake128 shake256; do
    len=$(deflen $alg)
    for f in $FILES; do
        want=$(ref $alg "$T/$f" "$len")
        got=$(cd "$T" && "$V" hash $alg "$f")
        check "$alg $f" [ "$got" = "$want  $f" ]
        got=$("$V" hash $alg <"$T/$f")
        check "$alg stdin $f" [ "$got" = "$want  -" ]
    done
    got=$("$V" hash $alg - <"$T/abc")
    check "$alg explicit -" [ "$got" = "$(ref $alg "$T/abc" "$len")  -" ]
done

# The portable code through the CLI too.
got=$(VG_CPU_FEATURES=none "$V" hash sha256 "$T/big" | cut -d' ' -f1)
check "sha256 portable big" [ "$got" = "$(ref sha256 "$T/big")" ]
got=$(VG_CPU_FEATURES=none "$V" hash shake256 "$T/big" | cut -d' ' -f1)
check "shake256 portable big" [ "$got" = "$(ref shake256 "$T/big" 64)" ]

# SHAKE lengths.
for n in 1 17 168 169 1000; do
    got=$("$V" hash shake128 --length $n "$T/r135" | cut -d' ' -f1)
    check "shake128 --length $n" [ "$got" = "$(ref shake128 "$T/r135" $n)" ]
    got=$("$V" hash shake256 --length=$n "$T/r136" | cut -d' ' -f1)
    check "shake256 --length=$n" [ "$got" = "$(ref shake256 "$T/r136" $n)" ]
done

# Several files at once, in order, like sha256sum / sha512sum.
got=$(cd "$T" && "$V" hash sha256 abc empty big r135)
check "sha256 multiple files" [ "$got" = "$(cd "$T" && sha256sum abc empty big r135)" ]
got=$(cd "$T" && "$V" hash sha512 big abc -- -x 2>/dev/null; echo "rc=$?")
check "-- ends options (missing '-x' is an error)" [ "${got##*rc=}" = 2 ]
cp "$T/abc" "$T/-x"
got=$(cd "$T" && "$V" hash sha512 big abc -- -x)
check "sha512 multiple files with --" [ "$got" = "$(cd "$T" && sha512sum big abc -- -x)" ]
rm -f "$T/-x"
# A name with a backslash is escaped as sha256sum does.
cp "$T/abc" "$T/a\\b"
got=$(cd "$T" && "$V" hash sha256 'a\b')
check "escaped name" [ "$got" = "$(cd "$T" && sha256sum 'a\b')" ]
rm -f "$T/a\\b"

# ---- -o: raw digests, --hex lines, atomic, nothing left on failure ------
hexof() { od -An -v -tx1 "$1" | tr -d ' \n'; }
mkdir "$T/o"
"$V" hash sha256 -o "$T/o/d" "$T/big"
check "-o raw rc" [ $? = 0 ]
check "-o raw content" [ "$(hexof "$T/o/d")" = "$(ref sha256 "$T/big")" ]
check "-o raw size" [ "$(stat -c %s "$T/o/d")" = 32 ]
"$V" hash sha3-512 -o "$T/o/d" "$T/abc" "$T/big"
check "-o raw two files" [ "$(hexof "$T/o/d")" = "$(ref sha3-512 "$T/abc")$(ref sha3-512 "$T/big")" ]
"$V" hash shake128 --length 5 --hex -o "$T/o/h" "$T/abc"
check "-o --hex lines" [ "$(cat "$T/o/h")" = "$(ref shake128 "$T/abc" 5)  $T/abc" ]
check "-o leaves only the outputs" [ "$(ls -A "$T/o" | tr '\n' ' ')" = "d h " ]

# error_case DESCRIPTION COMMAND...: exit 2, one stderr line, no stdout.
error_case() {
    local d=$1; shift
    "$@" >"$T/out" 2>"$T/err" </dev/null
    local rc=$?
    if [ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && [ ! -s "$T/out" ]; then
        ok
    else
        bad "$d: rc=$rc stderr=$(cat "$T/err") stdout=$(head -c 200 "$T/out")"
    fi
}

before=$(cat "$T/o/d" | od -An -tx1)
error_case "-o into a missing directory" "$V" hash sha256 -o "$T/nodir/x" "$T/abc"
check "missing dir not created" [ ! -e "$T/nodir" ]
error_case "-o with an unreadable input" "$V" hash sha256 -o "$T/o/d" "$T/abc" "$T/nonexistent"
check "-o failure keeps the old file" [ "$(od -An -tx1 "$T/o/d")" = "$before" ]
error_case "-o onto a directory" "$V" hash sha256 -o "$T/o" "$T/abc"
error_case "-o into a file as directory" "$V" hash sha256 -o "$T/abc/x" "$T/abc"
check "-o failures leave no temporary file" [ "$(ls -A "$T/o" | tr '\n' ' ')" = "d h " ]
check "-o failures leave nothing beside the inputs" \
    [ "$(ls -A "$T" | grep -c '^\.')" = 0 ]

# ---- usage errors and unreadable inputs: exit 2, one line ----------------
error_case "no command" "$V"
error_case "unknown command" "$V" frobnicate
error_case "planned command" "$V" keygen
error_case "bad global option" "$V" --frob
error_case "hash without algorithm" "$V" hash
error_case "hash option before algorithm" "$V" hash --hex
error_case "hash unknown algorithm" "$V" hash md5 "$T/abc"
error_case "hash unknown option" "$V" hash sha256 --frob "$T/abc"
error_case "hash -o without file" "$V" hash sha256 -o
error_case "hash --length without number" "$V" hash shake128 --length
error_case "hash --length 0" "$V" hash shake128 --length 0 "$T/abc"
error_case "hash --length junk" "$V" hash shake128 --length 12x "$T/abc"
error_case "hash --length negative" "$V" hash shake256 --length -5 "$T/abc"
error_case "hash --length too big" "$V" hash shake256 --length 99999999999 "$T/abc"
error_case "hash --length on sha256" "$V" hash sha256 --length 16 "$T/abc"
error_case "hash missing file" "$V" hash sha256 "$T/nonexistent"
error_case "hash directory" "$V" hash sha512 "$T/o"
error_case "cpu extra argument" "$V" cpu extra
error_case "speed unknown option" "$V" speed --frob
error_case "speed unknown name" "$V" speed nosuchop
error_case "speed --samples missing" "$V" speed --samples
error_case "speed --samples too small" "$V" speed --samples 3
# A file that fails after others succeeded: one line on stderr, rc 2.
"$V" hash sha256 "$T/abc" "$T/nonexistent" >"$T/out" 2>"$T/err"
rc=$?
check "partial failure rc 2, one line" [ "$rc:$(wc -l <"$T/err")" = 2:1 ]

# ---- help, cpu ------------------------------------------------------------
for h in help --help; do
    "$V" $h >"$T/out" 2>"$T/err"
    check "$h rc 0" [ $? = 0 ]
    check "$h prints usage" grep -q '^usage: vgcrypto' "$T/out"
    check "$h silent on stderr" [ ! -s "$T/err" ]
done

"$V" cpu >"$T/out" 2>"$T/err"
check "cpu rc 0" [ $? = 0 ]
check "cpu lists sha256 with a variant" grep -Eq '^  sha256 +[a-z0-9]+$' "$T/out"
check "cpu lists keccak" grep -Eq '^  keccak +[a-z0-9]+' "$T/out"
check "cpu lists mldsa" grep -Eq '^  mldsa +' "$T/out"
VG_CPU_FEATURES=none "$V" cpu >"$T/out"
check "cpu with VG_CPU_FEATURES=none: portable sha256" grep -Eq '^  sha256 +portable$' "$T/out"
check "cpu shows VG_CPU_FEATURES" grep -q '^VG_CPU_FEATURES: none' "$T/out"

# ---- speed ------------------------------------------------------------------
"$V" speed sha256 --json --samples 51 >"$T/out" 2>"$T/err"
check "speed sha256 --json rc 0" [ $? = 0 ]
check "speed --json silent on stderr" [ ! -s "$T/err" ]
if command -v python3 >/dev/null; then
    check "speed --json is a JSON array of the sha256 rows" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert [r["operation"] for r in rows] == ["sha256-64", "sha256-16k"], rows
for r in rows:
    assert r["ours"] > 0
    if sys.argv[2] == "1":
        assert r["openssl"] > 0 and r["ours_openssl"] > 0, r
    if sys.argv[3] == "1":
        assert r["libsodium"] > 0 and r["ours_libsodium"] > 0, r
' "$T/out" "$([ -e /usr/lib/x86_64-linux-gnu/libcrypto.so.3 ] && echo 1)" \
        "$([ -e /usr/lib/x86_64-linux-gnu/libsodium.so.23 ] && echo 1)"
else
    check "speed --json has two rows" [ "$(grep -c '"operation"' "$T/out")" = 2 ]
fi
VG_SPEED_NO_PEERS=1 "$V" speed --samples 21 >"$T/out" 2>"$T/err"
check "speed without peers rc 0" [ $? = 0 ]
check "speed without peers: header" grep -q 'openssl: not loaded; libsodium: not loaded' "$T/out"
check "speed without peers: sha3 row" grep -Eq '^sha3-256-16k +[0-9.]+ +- +- +- +-$' "$T/out"
check "speed without peers: yardstick row all -" grep -Eq '^x25519-libsodium +- +- +- +- +-$' "$T/out"
check "speed without peers: all rows" [ "$(grep -c -- '-16k\|-64 ' "$T/out")" = 8 ]
"$V" speed shake --samples 21 >"$T/out" 2>"$T/err"
check "speed prefix filter" [ "$(grep -c '^shake' "$T/out"):$(grep -c '^sha' "$T/out")" = 2:2 ]

echo "test_cli: $pass passed, $fail failed"
[ $fail = 0 ]
