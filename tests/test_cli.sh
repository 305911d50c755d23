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

# ---- keygen x25519 and x25519 (RFC 7748) ------------------------------------
# Independent reference: OpenSSL's command line, fed raw X25519 keys in their
# fixed DER wrappings (RFC 8410: PKCS#8 private key, SubjectPublicKeyInfo).
X_PRIV_DER=302e020100300506032b656e04220420
X_PUB_DER=302a300506032b656e032100
unhex() { printf '%s' "$1" | sed 's/../\\x&/g' | xargs -0 printf '%b'; }
ossl_pub() { # secret file (raw) -> hex public key
    { unhex $X_PRIV_DER; cat "$1"; } >"$T/x/priv.der"
    openssl pkey -inform DER -in "$T/x/priv.der" -pubout -outform DER 2>/dev/null | tail -c 32 |
        od -An -v -tx1 | tr -d ' \n'
}
ossl_shared() { # secret file (raw), peer public file (raw) -> hex shared secret
    { unhex $X_PRIV_DER; cat "$1"; } >"$T/x/priv.der"
    { unhex $X_PUB_DER; cat "$2"; } >"$T/x/peer.der"
    openssl pkeyutl -derive -keyform DER -inkey "$T/x/priv.der" -peerform DER \
        -peerkey "$T/x/peer.der" 2>/dev/null | od -An -v -tx1 | tr -d ' \n'
}
mkdir "$T/x"
# RFC 7748 section 6.1.
A_SK=77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a
A_PK=8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a
B_SK=5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb
B_PK=de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f
K=4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742
NINE=0900000000000000000000000000000000000000000000000000000000000000
echo $A_SK >"$T/x/a.skh"; echo $B_SK >"$T/x/b.skh"
echo $A_PK >"$T/x/a.pkh"; echo $B_PK >"$T/x/b.pkh"
echo $NINE >"$T/x/nine.h"
unhex $A_SK >"$T/x/a.sk"; unhex $B_SK >"$T/x/b.sk"; unhex $B_PK >"$T/x/b.pk"
unhex $NINE >"$T/x/nine"
check "reference: openssl public key of RFC 7748 Alice" [ "$(ossl_pub "$T/x/a.sk")" = $A_PK ]
"$V" x25519 --hex -s "$T/x/a.skh" -p "$T/x/nine.h" -o "$T/x/o"
check "RFC 7748 6.1 Alice's public key" [ "$(cat "$T/x/o")" = $A_PK ]
"$V" x25519 --hex -s "$T/x/b.skh" -p "$T/x/nine.h" -o "$T/x/o"
check "RFC 7748 6.1 Bob's public key" [ "$(cat "$T/x/o")" = $B_PK ]
"$V" x25519 --hex -s "$T/x/a.skh" -p "$T/x/b.pkh" -o "$T/x/o"
check "RFC 7748 6.1 K from Alice's side (hex)" [ "$(cat "$T/x/o")" = $K ]
"$V" x25519 --hex -s "$T/x/b.skh" -p "$T/x/a.pkh" -o "$T/x/o"
check "RFC 7748 6.1 K from Bob's side (hex)" [ "$(cat "$T/x/o")" = $K ]
"$V" x25519 -s "$T/x/a.sk" -p "$T/x/b.pk" -o "$T/x/k"
check "RFC 7748 6.1 K raw" [ "$(hexof "$T/x/k")" = $K ]
check "raw shared secret is 32 bytes" [ "$(stat -c %s "$T/x/k")" = 32 ]
# Upper-case hex and CRLF are accepted; the output is lower case.
printf '%s\r\n' "$(echo $A_SK | tr a-f A-F)" >"$T/x/a.skH"
"$V" x25519 --hex -s "$T/x/a.skH" -p "$T/x/b.pkh" -o "$T/x/o"
check "upper-case CRLF hex input" [ "$(cat "$T/x/o")" = $K ]
# Standard input and output.
got=$("$V" x25519 --hex -s - -p "$T/x/b.pkh" -o - <"$T/x/a.skh")
check "x25519 secret from stdin, shared to stdout" [ "$got" = $K ]
# Each variant through the CLI (VG_CPU_FEATURES), the same K.
for f in none bmi2,adx; do
    got=$(VG_CPU_FEATURES=$f "$V" x25519 --hex -s "$T/x/a.skh" -p "$T/x/b.pkh" -o -)
    check "RFC 7748 K with VG_CPU_FEATURES=$f" [ "$got" = $K ]
done

# keygen: two pairs, the public keys recomputed three ways (X25519 with
# u = 9, OpenSSL), and the shared secret equal in both directions.
"$V" keygen x25519 -s "$T/x/k1.sk" -p "$T/x/k1.pk"
check "keygen rc 0" [ $? = 0 ]
"$V" keygen x25519 --secret "$T/x/k2.sk" --public="$T/x/k2.pk"
check "keygen long options rc 0" [ $? = 0 ]
check "keygen sizes" [ "$(stat -c %s "$T/x/k1.sk" "$T/x/k1.pk" | tr '\n' ' ')" = "32 32 " ]
check "keygen secret file mode 0600" [ "$(stat -c %a "$T/x/k1.sk")" = 600 ]
check "keygen gives fresh keys" [ "$(hexof "$T/x/k1.sk")" != "$(hexof "$T/x/k2.sk")" ]
"$V" x25519 -s "$T/x/k1.sk" -p "$T/x/nine" -o "$T/x/k1.pk2"
check "keygen public key = X25519(secret, 9)" cmp -s "$T/x/k1.pk" "$T/x/k1.pk2"
check "keygen public key = OpenSSL's" [ "$(hexof "$T/x/k2.pk")" = "$(ossl_pub "$T/x/k2.sk")" ]
"$V" x25519 -s "$T/x/k1.sk" -p "$T/x/k2.pk" -o "$T/x/s12"
"$V" x25519 -s "$T/x/k2.sk" -p "$T/x/k1.pk" -o "$T/x/s21"
check "shared secret both directions" cmp -s "$T/x/s12" "$T/x/s21"
check "shared secret = OpenSSL's" [ "$(hexof "$T/x/s12")" = "$(ossl_shared "$T/x/k1.sk" "$T/x/k2.pk")" ]
# --hex round trip: hex keys, hex shared secret equal to the raw one.
"$V" keygen x25519 --hex -s "$T/x/h.sk" -p "$T/x/h.pk"
check "keygen --hex: 64 digits and a newline" \
    grep -Eqx '[0-9a-f]{64}' "$T/x/h.sk" "$T/x/h.pk"
check "keygen --hex sizes" [ "$(stat -c %s "$T/x/h.sk" "$T/x/h.pk" | tr '\n' ' ')" = "65 65 " ]
check "keygen --hex secret file mode 0600" [ "$(stat -c %a "$T/x/h.sk")" = 600 ]
unhex "$(cat "$T/x/h.sk")" >"$T/x/h.skr"
unhex "$(cat "$T/x/h.pk")" >"$T/x/h.pkr"
check "keygen --hex public key = OpenSSL's" [ "$(cat "$T/x/h.pk")" = "$(ossl_pub "$T/x/h.skr")" ]
"$V" x25519 --hex -s "$T/x/h.sk" -p "$T/x/b.pkh" -o "$T/x/hs"
"$V" x25519 -s "$T/x/h.skr" -p "$T/x/b.pk" -o "$T/x/rs"
check "--hex and raw give the same shared secret" [ "$(cat "$T/x/hs")" = "$(hexof "$T/x/rs")" ]
"$V" x25519 -s "$T/x/b.sk" -p "$T/x/h.pkr" -o "$T/x/rs2"
check "--hex pair, other direction" cmp -s "$T/x/rs" "$T/x/rs2"

# reject_case DESCRIPTION COMMAND...: exit 1, one stderr line, no stdout.
reject_case() {
    local d=$1; shift
    "$@" >"$T/out" 2>"$T/err" </dev/null
    local rc=$?
    if [ $rc = 1 ] && [ "$(wc -l <"$T/err")" = 1 ] && [ ! -s "$T/out" ]; then
        ok
    else
        bad "$d: rc=$rc stderr=$(cat "$T/err") stdout=$(head -c 200 "$T/out")"
    fi
}
# All-zero results: u = 0, u = 1 and a point of order 8 (RFC 7748 6.1).
head -c 32 /dev/zero >"$T/x/zero"
unhex 0100000000000000000000000000000000000000000000000000000000000000 >"$T/x/one"
unhex e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800 >"$T/x/ord8"
for p in zero one ord8; do
    reject_case "x25519 all-zero result ($p)" "$V" x25519 -s "$T/x/a.sk" -p "$T/x/$p" -o "$T/x/z"
    check "x25519 all-zero ($p) writes nothing" [ ! -e "$T/x/z" ]
done
cp "$T/x/k" "$T/x/keep"
reject_case "x25519 all-zero keeps an existing output" \
    "$V" x25519 -s "$T/x/a.sk" -p "$T/x/zero" -o "$T/x/keep"
check "existing output untouched" cmp -s "$T/x/k" "$T/x/keep"
head -c 31 /dev/urandom >"$T/x/short"
head -c 33 /dev/urandom >"$T/x/long"
reject_case "x25519 31-byte secret" "$V" x25519 -s "$T/x/short" -p "$T/x/b.pk" -o "$T/x/z"
reject_case "x25519 33-byte peer key" "$V" x25519 -s "$T/x/a.sk" -p "$T/x/long" -o "$T/x/z"
reject_case "x25519 raw key given as hex" "$V" x25519 -s "$T/x/a.skh" -p "$T/x/b.pk" -o "$T/x/z"
reject_case "x25519 --hex with a raw key" "$V" x25519 --hex -s "$T/x/a.sk" -p "$T/x/b.pkh" -o "$T/x/z"
echo ${A_SK}0 >"$T/x/bad1"; echo ${A_SK%?}g >"$T/x/bad2"; echo " $A_SK" >"$T/x/bad3"
for b in bad1 bad2 bad3; do
    reject_case "x25519 --hex malformed ($b)" "$V" x25519 --hex -s "$T/x/$b" -p "$T/x/b.pkh" -o "$T/x/z"
done
check "rejected inputs write nothing" [ ! -e "$T/x/z" ]
error_case "x25519 missing secret file" "$V" x25519 -s "$T/x/nonexistent" -p "$T/x/b.pk" -o "$T/x/z"
error_case "x25519 missing peer file" "$V" x25519 -s "$T/x/a.sk" -p "$T/x/nonexistent" -o "$T/x/z"
error_case "x25519 secret is a directory" "$V" x25519 -s "$T/x" -p "$T/x/b.pk" -o "$T/x/z"
error_case "x25519 missing -o" "$V" x25519 -s "$T/x/a.sk" -p "$T/x/b.pk"
error_case "x25519 missing -p" "$V" x25519 -s "$T/x/a.sk" -o "$T/x/z"
error_case "x25519 missing -s" "$V" x25519 -p "$T/x/b.pk" -o "$T/x/z"
error_case "x25519 no options" "$V" x25519
error_case "x25519 -s without value" "$V" x25519 -p "$T/x/b.pk" -o "$T/x/z" -s
error_case "x25519 option twice" "$V" x25519 -s "$T/x/a.sk" -s "$T/x/a.sk" -p "$T/x/b.pk" -o "$T/x/z"
error_case "x25519 unknown option" "$V" x25519 --frob -s "$T/x/a.sk" -p "$T/x/b.pk" -o "$T/x/z"
error_case "x25519 stray argument" "$V" x25519 extra -s "$T/x/a.sk" -p "$T/x/b.pk" -o "$T/x/z"
error_case "x25519 both inputs stdin" "$V" x25519 -s - -p - -o "$T/x/z"
error_case "x25519 output into a missing directory" \
    "$V" x25519 -s "$T/x/a.sk" -p "$T/x/b.pk" -o "$T/x/nodir/z"
check "usage errors write nothing" [ ! -e "$T/x/z" ]
error_case "keygen no algorithm" "$V" keygen
error_case "keygen options but no algorithm" "$V" keygen -s "$T/x/n.sk" -p "$T/x/n.pk"
error_case "keygen unknown algorithm" "$V" keygen rsa -s "$T/x/n.sk" -p "$T/x/n.pk"
error_case "keygen missing -p" "$V" keygen x25519 -s "$T/x/n.sk"
error_case "keygen missing -s" "$V" keygen x25519 -p "$T/x/n.pk"
error_case "keygen same file twice" "$V" keygen x25519 -s "$T/x/n.k" -p "$T/x/n.k"
error_case "keygen --hex=1" "$V" keygen x25519 --hex=1 -s "$T/x/n.sk" -p "$T/x/n.pk"
error_case "keygen public key unwritable" "$V" keygen x25519 -s "$T/x/n.sk" -p "$T/x/nodir/n.pk"
check "keygen failure leaves no secret key" [ ! -e "$T/x/n.sk" ]
error_case "keygen secret key unwritable" "$V" keygen x25519 -s "$T/x/nodir/n.sk" -p "$T/x/n.pk"
check "keygen failure leaves no public key" [ ! -e "$T/x/n.pk" ]
check "x25519 and keygen leave no temporary files" [ "$(ls -A "$T/x" | grep -c '^\.')" = 0 ]
check "help documents the exit codes" grep -q 'all-zero X25519 result' <("$V" help)

# ---- usage errors and unreadable inputs: exit 2, one line ----------------
error_case "no command" "$V"
error_case "unknown command" "$V" frobnicate
error_case "planned command" "$V" sign
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
"$V" speed x25519 --json --samples 31 >"$T/out" 2>"$T/err"
check "speed x25519 --json rc 0" [ $? = 0 ]
check "speed x25519 --json silent on stderr" [ ! -s "$T/err" ]
if command -v python3 >/dev/null; then
    check "speed x25519 --json has the x25519 rows" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
names = [r["operation"] for r in rows]
assert names[0] == "x25519" and "x25519-public-key" in names, names
assert "x25519/portable" in names and "x25519-public-key/portable" in names, names
assert all(n.startswith("x25519") for n in names), names
for r in rows:
    assert r["ours"] > 0, r
    if sys.argv[2] == "1":
        assert r["openssl"] > 0 and r["ours_openssl"] > 0, r
    if sys.argv[3] == "1":
        assert r["libsodium"] > 0 and r["ours_libsodium"] > 0, r
' "$T/out" "$([ -e /usr/lib/x86_64-linux-gnu/libcrypto.so.3 ] && echo 1)" \
        "$([ -e /usr/lib/x86_64-linux-gnu/libsodium.so.23 ] && echo 1)"
fi
# A row per variant the dispatch can run here: the active one has its row.
for prim in x25519:x25519 x25519-base:x25519-public-key; do
    impl=$("$V" cpu | awk -v p="${prim%%:*}" '$1 == p { print $2 }')
    check "speed has a row for the active ${prim%%:*} variant ($impl)" \
        grep -q "\"operation\": \"${prim#*:}/$impl\"" "$T/out"
done
VG_CPU_FEATURES=none "$V" speed x25519 --samples 11 >"$T/out" 2>"$T/err"
check "speed x25519 with VG_CPU_FEATURES=none: portable rows only" \
    [ "$(grep -c '^x25519' "$T/out"):$(grep -c '/adx\|/ifma' "$T/out")" = 4:0 ]
VG_SPEED_NO_PEERS=1 "$V" speed --samples 21 >"$T/out" 2>"$T/err"
check "speed without peers rc 0" [ $? = 0 ]
check "speed without peers: header" grep -q 'openssl: not loaded; libsodium: not loaded' "$T/out"
check "speed without peers: sha3 row" grep -Eq '^sha3-256-16k +[0-9.]+ +- +- +- +-$' "$T/out"
check "speed without peers: x25519 row, ours only" grep -Eq '^x25519 +[0-9.]+ +- +- +- +-$' "$T/out"
check "speed without peers: all rows" [ "$(grep -c -- '-16k\|-64 ' "$T/out")" = 8 ]
"$V" speed shake --samples 21 >"$T/out" 2>"$T/err"
check "speed prefix filter" [ "$(grep -c '^shake' "$T/out"):$(grep -c '^sha' "$T/out")" = 2:2 ]

echo "test_cli: $pass passed, $fail failed"
[ $fail = 0 ]
