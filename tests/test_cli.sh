#!/bin/bash
# Tests of the vgcrypto command: test_cli.sh /path/to/vgcrypto [VECTORS_DIR]
#
# Digests are checked against independent tools: coreutils sha256sum,
# sha384sum and sha512sum, and OpenSSL's `openssl dgst` for SHA-3 and SHAKE
# (-xoflen); mac and kdf against `openssl dgst -mac HMAC` and `openssl kdf`;
# seal and open against libsodium (tests/cli_aead_ref.c, third argument);
# X25519 and Ed25519 against RFC 7748 / RFC 8032 vectors and OpenSSL's
# `openssl pkey` / `pkeyutl` (Ed25519 with -rawin); ML-KEM by the FIPS 203
# key layout, round trips and the 7.2 / 7.3 key checks; ML-DSA by the FIPS 204
# key layout (tr = SHAKE256(pk) by `openssl dgst`), round trips, contexts and
# tampering, and, given VECTORS_DIR (../shared/vectors), Wycheproof and NIST
# ACVP ML-DSA vectors run through the command.
# Every error path must exit 2 with exactly one line on stderr; -o must write
# atomically and leave nothing behind on failure; the file-handling section
# checks docs/cli.md case by case (issue 14). `speed` runs with the peers
# and without them (VG_SPEED_NO_PEERS=1).
# Exit 77 (ctest SKIP_RETURN_CODE) when a reference tool is missing.

V=${1:?usage: test_cli.sh /path/to/vgcrypto [VECTORS_DIR]}
case $V in /*) ;; */*) V=$PWD/$V ;; esac # some checks run in another directory
for tool in sha256sum sha384sum sha512sum openssl od; do
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
    sha384) sha384sum <"$2" | cut -d' ' -f1 ;;
    sha512) sha512sum <"$2" | cut -d' ' -f1 ;;
    sha3-256 | sha3-512) openssl dgst "-$1" <"$2" | sed 's/^.*= //' ;;
    shake128 | shake256) openssl dgst "-$1" -xoflen "$3" <"$2" | sed 's/^.*= //' ;;
    esac
}
deflen() { case $1 in shake128) echo 32 ;; shake256) echo 64 ;; *) echo "" ;; esac; }

# Sanity of the references themselves (FIPS 180-2 appendices B.1 and D.1,
# FIPS 202 "abc" examples).
check "reference sha256 abc" [ "$(ref sha256 "$T/abc")" = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad ]
check "reference sha384 abc" [ "$(ref sha384 "$T/abc")" = cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7 ]
check "reference sha3-256 abc" [ "$(ref sha3-256 "$T/abc")" = 3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532 ]

# ---- every algorithm on files and on standard input ---------------------
for alg in sha256 sha384 sha512 sha3-256 sha3-512 shake128 shake256; do
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
got=$(VG_CPU_FEATURES=none "$V" hash sha384 "$T/big" | cut -d' ' -f1)
check "sha384 portable big" [ "$(ref sha384 "$T/big")" = "$got" ]
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

# ---- keygen ed25519, sign, verify (RFC 8032) ----------------------------------
# Independent reference: OpenSSL's command line with Ed25519 keys in their
# RFC 8410 DER wrappings (PKCS#8 around the 32-byte seed; SubjectPublicKeyInfo)
# and `pkeyutl -rawin` (Ed25519 signs the message itself, no digest).
E_PRIV_DER=302e020100300506032b657004220420
E_PUB_DER=302a300506032b6570032100
mkdir "$T/e"
e_priv_der() { { unhex $E_PRIV_DER; head -c 32 "$1"; } >"$T/e/priv.der"; } # seed = sk[0..31]
e_pub_der() { { unhex $E_PUB_DER; cat "$1"; } >"$T/e/pub.der"; }
ossl_ed_pub() { # raw secret key file -> hex public key of its seed
    e_priv_der "$1"
    openssl pkey -inform DER -in "$T/e/priv.der" -pubout -outform DER 2>/dev/null | tail -c 32 |
        od -An -v -tx1 | tr -d ' \n'
}
ossl_ed_sign() { # raw secret key file, message file -> hex signature
    e_priv_der "$1"
    openssl pkeyutl -sign -rawin -keyform DER -inkey "$T/e/priv.der" -in "$2" 2>/dev/null |
        od -An -v -tx1 | tr -d ' \n'
}
ossl_ed_verify() { # raw public key file, message file, raw signature file -> rc
    e_pub_der "$1"
    openssl pkeyutl -verify -rawin -pubin -keyform DER -inkey "$T/e/pub.der" -in "$2" \
        -sigfile "$3" >/dev/null 2>&1
}
ossl_ed_rejects() { ! ossl_ed_verify "$@"; }
# RFC 8032 section 7.1, TEST 1 (empty message) and TEST 2 (one byte 0x72).
# The secret key file is seed || public key (64 bytes).
R1_SEED=9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60
R1_PK=d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a
R1_SIG=e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b
R2_SEED=4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb
R2_PK=3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c
R2_SIG=92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00
: >"$T/e/m1"
printf '\162' >"$T/e/m2"
for t in 1 2; do
    eval "seed=\$R${t}_SEED pk=\$R${t}_PK sig=\$R${t}_SIG"
    echo $seed$pk >"$T/e/r$t.skh"; echo $pk >"$T/e/r$t.pkh"; echo $sig >"$T/e/r$t.sigh"
    unhex $seed$pk >"$T/e/r$t.sk"; unhex $pk >"$T/e/r$t.pk"; unhex $sig >"$T/e/r$t.sig"
    check "reference: openssl public key of RFC 8032 TEST $t" [ "$(ossl_ed_pub "$T/e/r$t.sk")" = $pk ]
    # `openssl pkeyutl -rawin` (3.0) cannot take an empty message ("could not
    # allocate 0 bytes for oneshot sign/verify buffer"): TEST 2 only.
    [ -s "$T/e/m$t" ] && check "reference: openssl signature of RFC 8032 TEST $t" \
        [ "$(ossl_ed_sign "$T/e/r$t.sk" "$T/e/m$t")" = $sig ]
    "$V" sign ed25519 --hex -s "$T/e/r$t.skh" -i "$T/e/m$t" -o "$T/e/o"
    check "RFC 8032 TEST $t: sign --hex gives the RFC signature" [ "$(cat "$T/e/o")" = $sig ]
    "$V" sign ed25519 -s "$T/e/r$t.sk" -i "$T/e/m$t" -o "$T/e/o"
    check "RFC 8032 TEST $t: sign raw gives the RFC signature" cmp -s "$T/e/o" "$T/e/r$t.sig"
    check "RFC 8032 TEST $t: raw signature is 64 bytes" [ "$(stat -c %s "$T/e/o")" = 64 ]
    got=$("$V" verify ed25519 -p "$T/e/r$t.pk" -i "$T/e/m$t" -S "$T/e/r$t.sig" 2>"$T/err"; echo "rc=$?")
    check "RFC 8032 TEST $t: verify prints OK, exit 0" [ "$got" = "OK
rc=0" ]
    check "RFC 8032 TEST $t: verify silent on stderr" [ ! -s "$T/err" ]
    got=$("$V" verify ed25519 --hex -p "$T/e/r$t.pkh" -i "$T/e/m$t" -S "$T/e/r$t.sigh"; echo "rc=$?")
    check "RFC 8032 TEST $t: verify --hex" [ "$got" = "OK
rc=0" ]
    got=$("$V" verify ed25519 --cofactored -p "$T/e/r$t.pk" -i "$T/e/m$t" -S "$T/e/r$t.sig"; echo "rc=$?")
    check "RFC 8032 TEST $t: verify --cofactored" [ "$got" = "OK
rc=0" ]
done
# The portable code through the CLI too.
got=$(VG_CPU_FEATURES=none "$V" sign ed25519 --hex -s "$T/e/r2.skh" -i "$T/e/m2" -o -)
check "RFC 8032 TEST 2 with VG_CPU_FEATURES=none" [ "$got" = $R2_SIG ]
# Standard input: the message, or a key; the signature to standard output.
got=$("$V" sign ed25519 --hex -s "$T/e/r2.skh" -i - -o - <"$T/e/m2")
check "sign: message from stdin, signature to stdout" [ "$got" = $R2_SIG ]
got=$("$V" sign ed25519 --hex -s - -i "$T/e/m2" -o - <"$T/e/r2.skh")
check "sign: secret key from stdin" [ "$got" = $R2_SIG ]
got=$("$V" verify ed25519 -p "$T/e/r2.pk" -i - -S "$T/e/r2.sig" <"$T/e/m2")
check "verify: message from stdin" [ "$got" = OK ]
got=$("$V" verify ed25519 -p "$T/e/r2.pk" -i "$T/e/m2" -S - <"$T/e/r2.sig")
check "verify: signature from stdin" [ "$got" = OK ]

# keygen -> sign -> verify, against OpenSSL both ways.
"$V" keygen ed25519 -s "$T/e/k1.sk" -p "$T/e/k1.pk"
check "keygen ed25519 rc 0" [ $? = 0 ]
"$V" keygen ed25519 --secret "$T/e/k2.sk" --public="$T/e/k2.pk"
check "keygen ed25519 sizes (64, 32)" [ "$(stat -c %s "$T/e/k1.sk" "$T/e/k1.pk" | tr '\n' ' ')" = "64 32 " ]
check "keygen ed25519 secret file mode 0600" [ "$(stat -c %a "$T/e/k1.sk")" = 600 ]
check "keygen ed25519 gives fresh keys" [ "$(hexof "$T/e/k1.sk")" != "$(hexof "$T/e/k2.sk")" ]
check "keygen ed25519: secret key = seed || public key" \
    [ "$(tail -c 32 "$T/e/k1.sk" | od -An -v -tx1 | tr -d ' \n')" = "$(hexof "$T/e/k1.pk")" ]
check "keygen ed25519 public key = OpenSSL's from the seed" \
    [ "$(hexof "$T/e/k2.pk")" = "$(ossl_ed_pub "$T/e/k2.sk")" ]
for m in empty abc r135 big; do
    "$V" sign ed25519 -s "$T/e/k1.sk" -i "$T/$m" -o "$T/e/s.$m"
    check "sign $m rc 0" [ $? = 0 ]
    got=$("$V" verify ed25519 -p "$T/e/k1.pk" -i "$T/$m" -S "$T/e/s.$m"; echo "rc=$?")
    check "keygen -> sign -> verify ($m)" [ "$got" = "OK
rc=0" ]
    [ -s "$T/$m" ] || continue # OpenSSL's pkeyutl -rawin refuses an empty message
    check "signature of $m = OpenSSL's" [ "$(hexof "$T/e/s.$m")" = "$(ossl_ed_sign "$T/e/k1.sk" "$T/$m")" ]
    check "OpenSSL verifies our signature of $m" ossl_ed_verify "$T/e/k1.pk" "$T/$m" "$T/e/s.$m"
done
check "signature file mode 0600 (as every output)" [ "$(stat -c %a "$T/e/s.abc")" = 600 ]
# --hex round trip: 128 + 64 hex digits, and the same signature as raw.
"$V" keygen ed25519 --hex -s "$T/e/h.sk" -p "$T/e/h.pk"
check "keygen ed25519 --hex: 128 and 64 digits" \
    [ "$(grep -Ecx '[0-9a-f]{128}' "$T/e/h.sk"):$(grep -Ecx '[0-9a-f]{64}' "$T/e/h.pk")" = 1:1 ]
check "keygen ed25519 --hex sizes" [ "$(stat -c %s "$T/e/h.sk" "$T/e/h.pk" | tr '\n' ' ')" = "129 65 " ]
check "keygen ed25519 --hex secret file mode 0600" [ "$(stat -c %a "$T/e/h.sk")" = 600 ]
"$V" sign ed25519 --hex -s "$T/e/h.sk" -i "$T/big" -o "$T/e/h.sig"
check "sign --hex: 128 digits" grep -Eqx '[0-9a-f]{128}' "$T/e/h.sig"
got=$("$V" verify ed25519 --hex -p "$T/e/h.pk" -i "$T/big" -S "$T/e/h.sig"; echo "rc=$?")
check "--hex keygen -> sign -> verify" [ "$got" = "OK
rc=0" ]
unhex "$(cat "$T/e/h.sk")" >"$T/e/h.skr"; unhex "$(cat "$T/e/h.pk")" >"$T/e/h.pkr"
"$V" sign ed25519 -s "$T/e/h.skr" -i "$T/big" -o "$T/e/h.sigr"
check "--hex and raw give the same signature" [ "$(cat "$T/e/h.sig")" = "$(hexof "$T/e/h.sigr")" ]
check "OpenSSL verifies the --hex pair's signature" ossl_ed_verify "$T/e/h.pkr" "$T/big" "$T/e/h.sigr"

# Rejections: exit 1, one line, nothing on stdout.
flip() { # file byte-offset -> same file with bit 0 of that byte flipped, to stdout
    local n; n=$(stat -c %s "$1")
    head -c "$2" "$1"
    printf '%02x' $(( $(od -An -tu1 -j "$2" -N1 "$1") ^ 1 )) | sed 's/../\\x&/' | xargs -0 printf '%b'
    tail -c $((n - $2 - 1)) "$1"
}
flip "$T/e/m2" 0 >"$T/e/m2x"
reject_case "verify: flipped message bit" "$V" verify ed25519 -p "$T/e/r2.pk" -i "$T/e/m2x" -S "$T/e/r2.sig"
reject_case "verify --cofactored: flipped message bit" \
    "$V" verify ed25519 --cofactored -p "$T/e/r2.pk" -i "$T/e/m2x" -S "$T/e/r2.sig"
flip "$T/abc" 2 >"$T/e/abcx"
reject_case "verify: flipped last message bit (keygen key)" \
    "$V" verify ed25519 -p "$T/e/k1.pk" -i "$T/e/abcx" -S "$T/e/s.abc"
for off in 0 31 32 40 63; do
    flip "$T/e/r2.sig" $off >"$T/e/sx"
    reject_case "verify: signature bit flipped in byte $off" \
        "$V" verify ed25519 -p "$T/e/r2.pk" -i "$T/e/m2" -S "$T/e/sx"
    check "reference: OpenSSL rejects it too ($off)" ossl_ed_rejects "$T/e/r2.pk" "$T/e/m2" "$T/e/sx"
done
flip "$T/e/r2.pk" 5 >"$T/e/pkx"
reject_case "verify: public key bit flipped" "$V" verify ed25519 -p "$T/e/pkx" -i "$T/e/m2" -S "$T/e/r2.sig"
reject_case "verify: another key's signature" "$V" verify ed25519 -p "$T/e/k2.pk" -i "$T/abc" -S "$T/e/s.abc"
head -c 63 "$T/e/r2.sig" >"$T/e/sig63"; { cat "$T/e/r2.sig"; printf x; } >"$T/e/sig65"
head -c 31 "$T/e/r2.pk" >"$T/e/pk31"; { cat "$T/e/r2.pk"; printf x; } >"$T/e/pk33"
reject_case "verify: 63-byte signature" "$V" verify ed25519 -p "$T/e/r2.pk" -i "$T/e/m2" -S "$T/e/sig63"
reject_case "verify: 65-byte signature" "$V" verify ed25519 -p "$T/e/r2.pk" -i "$T/e/m2" -S "$T/e/sig65"
reject_case "verify: 31-byte public key" "$V" verify ed25519 -p "$T/e/pk31" -i "$T/e/m2" -S "$T/e/r2.sig"
reject_case "verify: 33-byte public key" "$V" verify ed25519 -p "$T/e/pk33" -i "$T/e/m2" -S "$T/e/r2.sig"
reject_case "verify: raw signature given with --hex" \
    "$V" verify ed25519 --hex -p "$T/e/r2.pkh" -i "$T/e/m2" -S "$T/e/r2.sig"
reject_case "verify: hex signature given raw" "$V" verify ed25519 -p "$T/e/r2.pk" -i "$T/e/m2" -S "$T/e/r2.sigh"
unhex $R2_SEED >"$T/e/seed-only"
reject_case "sign: 32-byte secret key (the seed alone)" \
    "$V" sign ed25519 -s "$T/e/seed-only" -i "$T/e/m2" -o "$T/e/z"
{ cat "$T/e/r2.sk"; printf x; } >"$T/e/sk65"
reject_case "sign: 65-byte secret key" "$V" sign ed25519 -s "$T/e/sk65" -i "$T/e/m2" -o "$T/e/z"
# Inconsistent secret key (documented rule: the public half must be the
# public key of the seed, else exit 1 and nothing written).
flip "$T/e/r2.sk" 40 >"$T/e/skx"
reject_case "sign: secret key with an altered public half" \
    "$V" sign ed25519 -s "$T/e/skx" -i "$T/e/m2" -o "$T/e/z"
check "inconsistent key: the error line says why" grep -q 'public key of its first half' "$T/err"
{ head -c 32 "$T/e/r1.sk"; cat "$T/e/r2.pk"; } >"$T/e/skmix"
reject_case "sign: seed of TEST 1 with the public key of TEST 2" \
    "$V" sign ed25519 -s "$T/e/skmix" -i "$T/e/m2" -o "$T/e/z"
flip "$T/e/r2.sk" 3 >"$T/e/skx2"
reject_case "sign: secret key with an altered seed" \
    "$V" sign ed25519 -s "$T/e/skx2" -i "$T/e/m2" -o "$T/e/z"
check "rejected sign writes nothing" [ ! -e "$T/e/z" ]
cp "$T/e/r1.sig" "$T/e/keep"
reject_case "rejected sign keeps an existing output" \
    "$V" sign ed25519 -s "$T/e/skx" -i "$T/e/m2" -o "$T/e/keep"
check "existing signature untouched" cmp -s "$T/e/keep" "$T/e/r1.sig"

# Usage errors and unreadable files: exit 2, one line.
error_case "sign: missing secret key file" "$V" sign ed25519 -s "$T/e/nonexistent" -i "$T/e/m2" -o "$T/e/z"
error_case "sign: missing message file" "$V" sign ed25519 -s "$T/e/r2.sk" -i "$T/e/nonexistent" -o "$T/e/z"
error_case "sign: message is a directory" "$V" sign ed25519 -s "$T/e/r2.sk" -i "$T/e" -o "$T/e/z"
error_case "verify: missing public key file" "$V" verify ed25519 -p "$T/e/nonexistent" -i "$T/e/m2" -S "$T/e/r2.sig"
error_case "verify: missing message file" "$V" verify ed25519 -p "$T/e/r2.pk" -i "$T/e/nonexistent" -S "$T/e/r2.sig"
error_case "verify: missing signature file" "$V" verify ed25519 -p "$T/e/r2.pk" -i "$T/e/m2" -S "$T/e/nonexistent"
error_case "sign: no algorithm" "$V" sign -s "$T/e/r2.sk" -i "$T/e/m2" -o "$T/e/z"
error_case "sign: unknown algorithm" "$V" sign rsa -s "$T/e/r2.sk" -i "$T/e/m2" -o "$T/e/z"
error_case "sign: x25519 is no signature algorithm" "$V" sign x25519 -s "$T/e/r2.sk" -i "$T/e/m2" -o "$T/e/z"
error_case "sign: missing -o" "$V" sign ed25519 -s "$T/e/r2.sk" -i "$T/e/m2"
error_case "sign: missing -i" "$V" sign ed25519 -s "$T/e/r2.sk" -o "$T/e/z"
error_case "sign: missing -s" "$V" sign ed25519 -i "$T/e/m2" -o "$T/e/z"
error_case "sign: --cofactored is a verify option" \
    "$V" sign ed25519 --cofactored -s "$T/e/r2.sk" -i "$T/e/m2" -o "$T/e/z"
error_case "sign: key and message both stdin" "$V" sign ed25519 -s - -i - -o "$T/e/z"
error_case "sign: output into a missing directory" \
    "$V" sign ed25519 -s "$T/e/r2.sk" -i "$T/e/m2" -o "$T/e/nodir/z"
error_case "verify: no algorithm" "$V" verify
error_case "verify: missing -S" "$V" verify ed25519 -p "$T/e/r2.pk" -i "$T/e/m2"
error_case "verify: -s is not a verify option" "$V" verify ed25519 -s "$T/e/r2.sk" -p "$T/e/r2.pk" -i "$T/e/m2" -S "$T/e/r2.sig"
error_case "verify: two inputs on stdin" "$V" verify ed25519 -p - -i "$T/e/m2" -S -
error_case "verify: --cofactored=1" "$V" verify ed25519 --cofactored=1 -p "$T/e/r2.pk" -i "$T/e/m2" -S "$T/e/r2.sig"
# Messages of any size are read in chunks (issue 21; the big-file tests are
# in the section "sign / verify: files of any size" below). Pure Ed25519
# signing reads the message twice: a non-seekable one is held in memory up
# to 1 GiB, and one over that is refused (a pipe: 1 GiB + 1 byte read).
head -c 1073741825 /dev/zero | "$V" sign ed25519 -s "$T/e/r2.sk" -i - -o "$T/e/z" >"$T/out" 2>"$T/err"
got=$?
check "sign ed25519: non-seekable message over 1 GiB: exit 2, one line, nothing written" \
    [ "$got:$(wc -l <"$T/err"):$(wc -c <"$T/out")" = 2:1:0 ]
check "non-seekable over 1 GiB: the line says why" grep -q 'cannot be read twice' "$T/err"
check "sign/verify usage errors write nothing" [ ! -e "$T/e/z" ]
check "sign and keygen ed25519 leave no temporary files" [ "$(ls -A "$T/e" | grep -c '^\.')" = 0 ]
check "help documents the Ed25519 secret key format" grep -q 'seed (32) || public key (32)' <("$V" help)
check "help documents the inconsistent-key rule" grep -q 'not the public key of its seed' <("$V" help)

# ---- keygen ml-kem-N, encaps, decaps (FIPS 203) ---------------------------
# No independent ML-KEM implementation is installed here (OpenSSL 3.0 has
# none), so the command is checked by what FIPS 203 fixes about its files:
# the sizes (Table 3), the layout dk = dk_pke || ek || H(ek) || z
# (Algorithm 16) with H = SHA3-256 recomputed by `openssl dgst`, agreement of
# encaps and decaps, the 7.2 modulus check (12-bit coefficients < q = 3329)
# and the 7.3 hash check. The library's own vectors are in test_mlkem.
mkdir "$T/k"
byte() { od -An -tu1 -j "$2" -N1 "$1" | tr -d ' '; } # file offset -> decimal byte
setbyte() { # file offset decimal-value: overwrite one byte in place
    printf "\\$(printf '%03o' "$3")" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
differ() { ! cmp -s "$1" "$2"; }
absent() { local f; for f; do [ ! -e "$f" ] || return 1; done; }
slicehex() { od -An -v -tx1 -j "$2" -N "$3" "$1" | tr -d ' \n'; } # file offset len -> hex
kem_sizes() { # set -> "ek dk ct"
    case $1 in 512) echo 800 1632 768 ;; 768) echo 1184 2400 1088 ;; 1024) echo 1568 3168 1568 ;; esac
}
for n in 512 768 1024; do
    read -r ek_len dk_len ct_len <<<"$(kem_sizes $n)"
    k=$(((ek_len - 32) / 384)) # the module rank: 2, 3, 4
    a=ml-kem-$n
    d=$T/k/$n
    mkdir "$d"
    "$V" keygen $a -s "$d/sk" -p "$d/pk" >"$T/out" 2>"$T/err"
    check "$a keygen rc 0, silent" [ "$?:$(cat "$T/out" "$T/err" | wc -c)" = 0:0 ]
    check "$a keygen sizes" [ "$(stat -c %s "$d/sk"):$(stat -c %s "$d/pk")" = "$dk_len:$ek_len" ]
    check "$a secret key file mode 0600" [ "$(stat -c %a "$d/sk")" = 600 ]
    check "$a public key file mode 0600" [ "$(stat -c %a "$d/pk")" = 600 ]
    check "$a dk holds ek at 384k" [ "$(slicehex "$d/sk" $((384 * k)) $ek_len)" = "$(hexof "$d/pk")" ]
    check "$a dk holds SHA3-256(ek) after ek" \
        [ "$(slicehex "$d/sk" $((384 * k + ek_len)) 32)" = "$(openssl dgst -sha3-256 <"$d/pk" | sed 's/^.*= //')" ]
    "$V" keygen $a -s "$d/sk2" -p "$d/pk2"
    check "$a two keygens differ" differ "$d/sk" "$d/sk2"

    # Round trip.
    "$V" encaps $a -p "$d/pk" -c "$d/ct" -k "$d/ss1" >"$T/out" 2>"$T/err"
    check "$a encaps rc 0, silent" [ "$?:$(cat "$T/out" "$T/err" | wc -c)" = 0:0 ]
    check "$a encaps sizes" [ "$(stat -c %s "$d/ct"):$(stat -c %s "$d/ss1")" = "$ct_len:32" ]
    check "$a shared secret file mode 0600" [ "$(stat -c %a "$d/ss1")" = 600 ]
    "$V" decaps $a -s "$d/sk" -c "$d/ct" -k "$d/ss2" >"$T/out" 2>"$T/err"
    check "$a decaps rc 0, silent" [ "$?:$(cat "$T/out" "$T/err" | wc -c)" = 0:0 ]
    check "$a round trip: same shared secret" cmp -s "$d/ss1" "$d/ss2"
    check "$a shared secret is not all zero" [ "$(hexof "$d/ss1")" != "$(printf '0%.0s' $(seq 64))" ]
    "$V" encaps $a -p "$d/pk" -c "$d/ctb" -k "$d/ssb"
    check "$a encaps is randomized" [ "$(cmp -s "$d/ct" "$d/ctb"; echo $?)$(cmp -s "$d/ss1" "$d/ssb"; echo $?)" = 11 ]
    # The portable backend decapsulates what the active one encapsulated.
    VG_CPU_FEATURES=none "$V" decaps $a -s "$d/sk" -c "$d/ctb" -k "$d/ssp"
    check "$a decaps with VG_CPU_FEATURES=none agrees" cmp -s "$d/ssb" "$d/ssp"
    VG_CPU_FEATURES=none "$V" encaps $a -p "$d/pk" -c "$d/ctp" -k "$d/ssp"
    "$V" decaps $a -s "$d/sk" -c "$d/ctp" -k "$d/ssq"
    check "$a encaps with VG_CPU_FEATURES=none, decaps active: agree" cmp -s "$d/ssp" "$d/ssq"
    # Standard input and output.
    got=$("$V" decaps $a -s "$d/sk" -c - -k - <"$d/ct" | od -An -v -tx1 | tr -d ' \n')
    check "$a decaps ciphertext from stdin, secret to stdout" [ "$got" = "$(hexof "$d/ss1")" ]
    # Implicit rejection (FIPS 203 Algorithm 18): a wrong ciphertext of the
    # right length, or another key, gives exit 0 and a different secret.
    cp "$d/ct" "$d/ctx"; setbyte "$d/ctx" 5 $(($(byte "$d/ct" 5) ^ 1))
    "$V" decaps $a -s "$d/sk" -c "$d/ctx" -k "$d/ssx"
    check "$a altered ciphertext: rc 0" [ $? = 0 ]
    check "$a altered ciphertext: another secret" differ "$d/ss1" "$d/ssx"
    "$V" decaps $a -s "$d/sk2" -c "$d/ct" -k "$d/ssx"
    check "$a another key's ciphertext: another secret" differ "$d/ss1" "$d/ssx"
    # z (the last 32 bytes) is only used for rejection: changing it keeps
    # the secret of a valid ciphertext and passes the hash check.
    cp "$d/sk" "$d/skz"; setbyte "$d/skz" $((dk_len - 1)) $(($(byte "$d/sk" $((dk_len - 1))) ^ 128))
    "$V" decaps $a -s "$d/skz" -c "$d/ct" -k "$d/ssz"
    check "$a altered z: same secret for a valid ciphertext" cmp -s "$d/ss1" "$d/ssz"

    # --hex: every key and output in hex, the same secrets as raw.
    "$V" keygen $a --hex -s "$d/skh" -p "$d/pkh"
    check "$a --hex keygen sizes" [ "$(stat -c %s "$d/skh"):$(stat -c %s "$d/pkh")" = "$((2 * dk_len + 1)):$((2 * ek_len + 1))" ]
    "$V" encaps $a --hex -p "$d/pkh" -c "$d/cth" -k "$d/ssh1"
    "$V" decaps $a --hex -s "$d/skh" -c "$d/cth" -k "$d/ssh2"
    check "$a --hex round trip" cmp -s "$d/ssh1" "$d/ssh2"
    check "$a --hex shared secret is 64 hex digits" grep -Eqx '[0-9a-f]{64}' "$d/ssh1"
    unhex "$(cat "$d/skh")" >"$d/skr"; unhex "$(cat "$d/cth")" >"$d/ctr"
    "$V" decaps $a -s "$d/skr" -c "$d/ctr" -k "$d/ssr"
    check "$a --hex files decoded: same secret raw" [ "$(hexof "$d/ssr")" = "$(cat "$d/ssh1")" ]
    reject_case "$a decaps raw secret key given with --hex" "$V" decaps $a --hex -s "$d/sk" -c "$d/cth" -k "$d/z"

    # Wrong lengths: exit 1, nothing written.
    head -c $((ek_len - 1)) "$d/pk" >"$d/pk-short"; { cat "$d/pk"; printf x; } >"$d/pk-long"
    head -c $((dk_len - 1)) "$d/sk" >"$d/sk-short"; { cat "$d/sk"; printf x; } >"$d/sk-long"
    head -c $((ct_len - 1)) "$d/ct" >"$d/ct-short"; { cat "$d/ct"; printf x; } >"$d/ct-long"
    reject_case "$a encaps: public key one byte short" "$V" encaps $a -p "$d/pk-short" -c "$d/z" -k "$d/z2"
    reject_case "$a encaps: public key one byte long" "$V" encaps $a -p "$d/pk-long" -c "$d/z" -k "$d/z2"
    reject_case "$a decaps: secret key one byte short" "$V" decaps $a -s "$d/sk-short" -c "$d/ct" -k "$d/z"
    reject_case "$a decaps: secret key one byte long" "$V" decaps $a -s "$d/sk-long" -c "$d/ct" -k "$d/z"
    reject_case "$a decaps: ciphertext one byte short" "$V" decaps $a -s "$d/sk" -c "$d/ct-short" -k "$d/z"
    reject_case "$a decaps: ciphertext one byte long" "$V" decaps $a -s "$d/sk" -c "$d/ct-long" -k "$d/z"
    check "$a wrong lengths write nothing" absent "$d/z" "$d/z2"

    # FIPS 203 7.2: 12-bit coefficients >= q in ek. Coefficient 0 is byte 0
    # and the low nibble of byte 1; the last one of the vector is the high
    # nibble of byte 384k-2 and byte 384k-1.
    b1=$(byte "$d/pk" 1)
    cp "$d/pk" "$d/pkq"; setbyte "$d/pkq" 0 255; setbyte "$d/pkq" 1 $(((b1 & 240) | 15))
    reject_case "$a encaps: coefficient 0 = 0xfff" "$V" encaps $a -p "$d/pkq" -c "$d/z" -k "$d/z2"
    check "$a the modulus error line says why" grep -q 'coefficient >= q' "$T/err"
    cp "$d/pk" "$d/pkq"; setbyte "$d/pkq" 0 1; setbyte "$d/pkq" 1 $(((b1 & 240) | 13))
    reject_case "$a encaps: coefficient 0 = q (0xd01)" "$V" encaps $a -p "$d/pkq" -c "$d/z" -k "$d/z2"
    cp "$d/pk" "$d/pkq"; setbyte "$d/pkq" 0 0; setbyte "$d/pkq" 1 $(((b1 & 240) | 13))
    "$V" encaps $a -p "$d/pkq" -c "$d/z" -k "$d/z2"
    check "$a encaps: coefficient 0 = q - 1 (0xd00) accepted" [ $? = 0 ]
    rm -f "$d/z" "$d/z2"
    e=$((384 * k - 2))
    cp "$d/pk" "$d/pkq"; setbyte "$d/pkq" $e $(($(byte "$d/pk" $e) | 240)); setbyte "$d/pkq" $((e + 1)) 255
    reject_case "$a encaps: last coefficient = 0xfff" "$V" encaps $a -p "$d/pkq" -c "$d/z" -k "$d/z2"
    check "$a rejected public keys write nothing" absent "$d/z" "$d/z2"
    cp "$d/ss1" "$d/keep"
    reject_case "$a rejected encaps keeps an existing output" "$V" encaps $a -p "$d/pkq" -c "$d/z" -k "$d/keep"
    check "$a existing shared secret untouched" cmp -s "$d/keep" "$d/ss1"

    # FIPS 203 7.3: the H(ek) field, or ek inside dk, altered.
    h=$((384 * k + ek_len))
    cp "$d/sk" "$d/skh2"; setbyte "$d/skh2" $h $(($(byte "$d/sk" $h) ^ 1))
    reject_case "$a decaps: H(ek) field altered" "$V" decaps $a -s "$d/skh2" -c "$d/ct" -k "$d/z"
    check "$a the hash-check error line says why" grep -q 'hash check' "$T/err"
    cp "$d/sk" "$d/skh2"; setbyte "$d/skh2" $((h + 31)) $(($(byte "$d/sk" $((h + 31))) ^ 128))
    reject_case "$a decaps: last byte of H(ek) altered" "$V" decaps $a -s "$d/skh2" -c "$d/ct" -k "$d/z"
    cp "$d/sk" "$d/skh2"; setbyte "$d/skh2" $((384 * k + 7)) $(($(byte "$d/sk" $((384 * k + 7))) ^ 4))
    reject_case "$a decaps: ek inside dk altered" "$V" decaps $a -s "$d/skh2" -c "$d/ct" -k "$d/z"
    check "$a rejected secret keys write nothing" [ ! -e "$d/z" ]

    # Another set's key.
    case $n in 512) o=768 ;; *) o=512 ;; esac
    reject_case "$a encaps: an ml-kem-$o-sized public key" "$V" encaps ml-kem-$o -p "$d/pk" -c "$d/z" -k "$d/z2"

    # Missing files and usage errors: exit 2, one line.
    error_case "$a encaps: missing public key file" "$V" encaps $a -p "$d/nonexistent" -c "$d/z" -k "$d/z2"
    error_case "$a decaps: missing secret key file" "$V" decaps $a -s "$d/nonexistent" -c "$d/ct" -k "$d/z"
    error_case "$a decaps: missing ciphertext file" "$V" decaps $a -s "$d/sk" -c "$d/nonexistent" -k "$d/z"
    error_case "$a encaps: missing -k" "$V" encaps $a -p "$d/pk" -c "$d/z"
    error_case "$a encaps: missing -c" "$V" encaps $a -p "$d/pk" -k "$d/z"
    error_case "$a encaps: missing -p" "$V" encaps $a -c "$d/z" -k "$d/z2"
    error_case "$a decaps: missing -s" "$V" decaps $a -c "$d/ct" -k "$d/z"
    error_case "$a encaps: -s is not an encaps option" "$V" encaps $a -s "$d/sk" -p "$d/pk" -c "$d/z" -k "$d/z2"
    error_case "$a decaps: -p is not a decaps option" "$V" decaps $a -p "$d/pk" -s "$d/sk" -c "$d/ct" -k "$d/z"
    error_case "$a encaps: -c and -k the same file" "$V" encaps $a -p "$d/pk" -c "$d/z" -k "$d/z"
    error_case "$a decaps: two inputs on stdin" "$V" decaps $a -s - -c - -k "$d/z"
    error_case "$a keygen: output into a missing directory" "$V" keygen $a -s "$d/nodir/s" -p "$d/p"
    error_case "$a encaps: shared secret into a missing directory" \
        "$V" encaps $a -p "$d/pk" -c "$d/z" -k "$d/nodir/z2"
    check "$a encaps: no ciphertext left without its secret" [ ! -e "$d/z" ]
    check "$a usage errors write nothing" absent "$d/z" "$d/z2" "$d/p"
    check "$a leaves no temporary files" [ "$(ls -A "$d" | grep -c '^\.')" = 0 ]
done
error_case "encaps: no algorithm" "$V" encaps
error_case "decaps: no algorithm" "$V" decaps -s "$T/k/768/sk" -c "$T/k/768/ct" -k "$T/k/z"
error_case "encaps: unknown algorithm" "$V" encaps ml-kem-666 -p "$T/k/768/pk" -c "$T/k/z" -k "$T/k/z2"
error_case "encaps: x25519 is no KEM here" "$V" encaps x25519 -p "$T/k/768/pk" -c "$T/k/z" -k "$T/k/z2"
error_case "decaps: two algorithms" "$V" decaps ml-kem-768 ml-kem-512 -s "$T/k/768/sk" -c "$T/k/768/ct" -k "$T/k/z"
error_case "keygen: unknown ml-kem set" "$V" keygen ml-kem-1023 -s "$T/k/s" -p "$T/k/p"
check "help lists encaps and decaps" [ "$("$V" help | grep -Ec '^  (encaps|decaps) ALG')" = 2 ]

# ---- keygen ml-dsa-N, sign, verify (FIPS 204) -------------------------------
# No independent ML-DSA implementation is installed here (OpenSSL 3.0 has
# none), so the command is checked by what FIPS 204 fixes about its files:
# the sizes (Table 2), the layout sk = rho || K || tr || s1 || s2 || t0 with
# rho = the first 32 bytes of pk and tr = H(pk, 64) = SHAKE256(pk) recomputed
# by `openssl dgst` (Algorithms 6 and 24), round trips, determinism,
# contexts and tampering; and, when the vectors directory is given (second
# argument), by official vectors through the command (below).
mkdir "$T/d"
dsa_sizes() { # set -> "pk sk sig"
    case $1 in 44) echo 1312 2560 2420 ;; 65) echo 1952 4032 3309 ;; 87) echo 2592 4896 4627 ;; esac
}
# verify_ok ARGS...: `verify ARGS` prints exactly "OK", exits 0, stderr silent.
verify_ok() {
    local got
    got=$("$V" verify "$@" 2>"$T/err"; echo "rc=$?")
    [ "$got" = "OK
rc=0" ] && [ ! -s "$T/err" ]
}
nogrep() { ! grep "$@"; }
C255=$(printf 'c%.0s' $(seq 255))
BINCTX=$'\xff\x80 \t\x01-ctx' # bytes >= 0x80 and control bytes pass through argv
for n in 44 65 87; do
    read -r pk_len sk_len sig_len <<<"$(dsa_sizes $n)"
    a=ml-dsa-$n
    d=$T/d/$n
    mkdir "$d"
    "$V" keygen $a -s "$d/sk" -p "$d/pk" >"$T/out" 2>"$T/err"
    check "$a keygen rc 0, silent" [ "$?:$(cat "$T/out" "$T/err" | wc -c)" = 0:0 ]
    check "$a keygen sizes" [ "$(stat -c %s "$d/sk"):$(stat -c %s "$d/pk")" = "$sk_len:$pk_len" ]
    check "$a secret key file mode 0600" [ "$(stat -c %a "$d/sk")" = 600 ]
    check "$a public key file mode 0600" [ "$(stat -c %a "$d/pk")" = 600 ]
    check "$a sk starts with pk's rho" [ "$(slicehex "$d/sk" 0 32)" = "$(slicehex "$d/pk" 0 32)" ]
    check "$a sk holds tr = SHAKE256(pk, 64) at byte 64" \
        [ "$(slicehex "$d/sk" 64 64)" = "$(openssl dgst -shake256 -xoflen 64 <"$d/pk" | sed 's/^.*= //')" ]
    "$V" keygen $a -s "$d/sk2" -p "$d/pk2"
    check "$a two keygens differ" [ "$(cmp -s "$d/sk" "$d/sk2"; echo $?)$(cmp -s "$d/pk" "$d/pk2"; echo $?)" = 11 ]

    # Hedged (the default) round trips: empty, short and 200 kB messages.
    for m in empty abc big; do
        "$V" sign $a -s "$d/sk" -i "$T/$m" -o "$d/s.$m" >"$T/out" 2>"$T/err"
        check "$a sign $m rc 0, silent" [ "$?:$(cat "$T/out" "$T/err" | wc -c)" = 0:0 ]
        check "$a keygen -> sign -> verify ($m)" verify_ok $a -p "$d/pk" -i "$T/$m" -S "$d/s.$m"
    done
    check "$a signature size and mode 0600" [ "$(stat -c %s:%a "$d/s.abc")" = "$sig_len:600" ]
    "$V" sign $a -s "$d/sk" -i "$T/abc" -o "$d/s.abc2"
    check "$a hedged: two signatures of one message differ" differ "$d/s.abc" "$d/s.abc2"
    check "$a hedged: the second one verifies too" verify_ok $a -p "$d/pk" -i "$T/abc" -S "$d/s.abc2"
    # Deterministic: the same bytes each time, and from the portable code.
    "$V" sign $a --deterministic -s "$d/sk" -i "$T/abc" -o "$d/det1"
    "$V" sign $a -s "$d/sk" -i "$T/abc" -o "$d/det2" --deterministic
    check "$a --deterministic twice: identical signatures" cmp -s "$d/det1" "$d/det2"
    check "$a deterministic differs from hedged" differ "$d/det1" "$d/s.abc"
    check "$a deterministic signature verifies" verify_ok $a -p "$d/pk" -i "$T/abc" -S "$d/det1"
    VG_CPU_FEATURES=none "$V" sign $a --deterministic -s "$d/sk" -i "$T/abc" -o "$d/detp"
    check "$a --deterministic with VG_CPU_FEATURES=none: the same signature" cmp -s "$d/det1" "$d/detp"
    VG_CPU_FEATURES=none check "$a verify with VG_CPU_FEATURES=none (hedged signature)" \
        verify_ok $a -p "$d/pk" -i "$T/abc" -S "$d/s.abc2"

    # Contexts (FIPS 204 Algorithms 2 and 3: M' = 0 || |ctx| || ctx || M).
    "$V" sign $a --deterministic --context ctx-A -s "$d/sk" -i "$T/abc" -o "$d/detA"
    check "$a a context changes the deterministic signature" differ "$d/det1" "$d/detA"
    check "$a verify with the signer's context" verify_ok $a --context ctx-A -p "$d/pk" -i "$T/abc" -S "$d/detA"
    check "$a verify --context=STR form" verify_ok $a --context=ctx-A -p "$d/pk" -i "$T/abc" -S "$d/detA"
    reject_case "$a verify without the signer's context" "$V" verify $a -p "$d/pk" -i "$T/abc" -S "$d/detA"
    reject_case "$a verify with another context" "$V" verify $a --context ctx-B -p "$d/pk" -i "$T/abc" -S "$d/detA"
    reject_case "$a verify with a context the signer did not use" \
        "$V" verify $a --context ctx-A -p "$d/pk" -i "$T/abc" -S "$d/det1"
    "$V" sign $a --deterministic --context "" -s "$d/sk" -i "$T/abc" -o "$d/detE"
    check "$a --context '' is the empty context" cmp -s "$d/det1" "$d/detE"
    check "$a verify --context '' of a signature without context" verify_ok $a --context= -p "$d/pk" -i "$T/abc" -S "$d/det1"
    "$V" sign $a --context "$BINCTX" -s "$d/sk" -i "$T/abc" -o "$d/sbin"
    check "$a binary context: round trip" verify_ok $a --context "$BINCTX" -p "$d/pk" -i "$T/abc" -S "$d/sbin"
    reject_case "$a binary context: last byte changed" \
        "$V" verify $a --context "${BINCTX%x}y" -p "$d/pk" -i "$T/abc" -S "$d/sbin"
    "$V" sign $a --context "$C255" -s "$d/sk" -i "$T/abc" -o "$d/s255"
    check "$a 255-byte context: round trip" verify_ok $a --context "$C255" -p "$d/pk" -i "$T/abc" -S "$d/s255"
    reject_case "$a 255-byte context: its first 254 bytes rejected" \
        "$V" verify $a --context "${C255%c}" -p "$d/pk" -i "$T/abc" -S "$d/s255"
    error_case "$a sign: 256-byte context is a usage error" \
        "$V" sign $a --context "${C255}c" -s "$d/sk" -i "$T/abc" -o "$d/z"
    check "$a the long-context line says why" grep -q 'most 255' "$T/err"
    error_case "$a verify: 256-byte context is a usage error" \
        "$V" verify $a --context "${C255}c" -p "$d/pk" -i "$T/abc" -S "$d/s255"

    # Tampering: exit 1, one line, nothing on stdout.
    flip "$T/abc" 1 >"$d/abcx"
    reject_case "$a verify: flipped message bit" "$V" verify $a -p "$d/pk" -i "$d/abcx" -S "$d/det1"
    reject_case "$a verify: another message (hedged signature)" "$V" verify $a -p "$d/pk" -i "$T/empty" -S "$d/s.abc"
    for off in 0 31 $((sig_len / 2)) $((sig_len - 1)); do # c-tilde, z, the hint counts
        flip "$d/det1" $off >"$d/sx"
        reject_case "$a verify: signature bit flipped in byte $off" "$V" verify $a -p "$d/pk" -i "$T/abc" -S "$d/sx"
    done
    for off in 0 40 $((pk_len - 1)); do # rho, t1
        flip "$d/pk" $off >"$d/pkx"
        reject_case "$a verify: public key bit flipped in byte $off" "$V" verify $a -p "$d/pkx" -i "$T/abc" -S "$d/det1"
    done
    reject_case "$a verify: another key's public key" "$V" verify $a -p "$d/pk2" -i "$T/abc" -S "$d/det1"
    # Wrong lengths: exit 1, nothing written.
    head -c $((sig_len - 1)) "$d/det1" >"$d/sig-short"; { cat "$d/det1"; printf x; } >"$d/sig-long"
    head -c $((pk_len - 1)) "$d/pk" >"$d/pk-short"; { cat "$d/pk"; printf x; } >"$d/pk-long"
    head -c $((sk_len - 1)) "$d/sk" >"$d/sk-short"; { cat "$d/sk"; printf x; } >"$d/sk-long"
    reject_case "$a verify: signature one byte short" "$V" verify $a -p "$d/pk" -i "$T/abc" -S "$d/sig-short"
    reject_case "$a verify: signature one byte long" "$V" verify $a -p "$d/pk" -i "$T/abc" -S "$d/sig-long"
    reject_case "$a verify: public key one byte short" "$V" verify $a -p "$d/pk-short" -i "$T/abc" -S "$d/det1"
    reject_case "$a verify: public key one byte long" "$V" verify $a -p "$d/pk-long" -i "$T/abc" -S "$d/det1"
    reject_case "$a sign: secret key one byte short" "$V" sign $a -s "$d/sk-short" -i "$T/abc" -o "$d/z"
    reject_case "$a sign: secret key one byte long" "$V" sign $a -s "$d/sk-long" -i "$T/abc" -o "$d/z"
    case $n in 44) o=65 ;; *) o=44 ;; esac
    reject_case "$a key and signature given as ml-dsa-$o" "$V" verify ml-dsa-$o -p "$d/pk" -i "$T/abc" -S "$d/det1"
    reject_case "$a secret key given as ml-dsa-$o" "$V" sign ml-dsa-$o -s "$d/sk" -i "$T/abc" -o "$d/z"
    # s1's first coefficients out of [-eta, eta]: byte 128 (after rho, K,
    # tr) = 0xff encodes eta - 7 (eta = 2, 3-bit fields) or eta - 15 (eta =
    # 4, 4-bit fields), outside the range skDecode accepts.
    cp "$d/sk" "$d/skr"; setbyte "$d/skr" 128 255
    reject_case "$a sign: s1 out of range" "$V" sign $a -s "$d/skr" -i "$T/abc" -o "$d/z"
    check "$a the range error line says why" grep -q 'outside \[-eta, eta\]' "$T/err"
    cp "$d/det1" "$d/keep"
    reject_case "$a rejected sign keeps an existing output" "$V" sign $a --deterministic -s "$d/skr" -i "$T/abc" -o "$d/keep"
    check "$a existing signature untouched" cmp -s "$d/keep" "$d/det1"

    # --hex: keys and signatures in hex, the same deterministic signature.
    "$V" keygen $a --hex -s "$d/skh" -p "$d/pkh"
    check "$a --hex keygen sizes" [ "$(stat -c %s "$d/skh"):$(stat -c %s "$d/pkh")" = "$((2 * sk_len + 1)):$((2 * pk_len + 1))" ]
    "$V" sign $a --hex --deterministic -s "$d/skh" -i "$T/big" -o "$d/sigh"
    check "$a sign --hex: $((2 * sig_len)) hex digits" grep -Eqx "[0-9a-f]{$((2 * sig_len))}" "$d/sigh"
    check "$a --hex keygen -> sign -> verify" verify_ok $a --hex -p "$d/pkh" -i "$T/big" -S "$d/sigh"
    unhex "$(cat "$d/skh")" >"$d/skhr"
    "$V" sign $a --deterministic -s "$d/skhr" -i "$T/big" -o "$d/sighr"
    check "$a --hex and raw: the same deterministic signature" [ "$(cat "$d/sigh")" = "$(hexof "$d/sighr")" ]
    reject_case "$a verify: raw signature given with --hex" "$V" verify $a --hex -p "$d/pkh" -i "$T/big" -S "$d/sighr"
    # Standard input and output.
    got=$("$V" sign $a --deterministic -s "$d/sk" -i - -o - <"$T/abc" | od -An -v -tx1 | tr -d ' \n')
    check "$a sign: message from stdin, signature to stdout" [ "$got" = "$(hexof "$d/det1")" ]
    got=$("$V" verify $a -p "$d/pk" -i "$T/abc" -S - <"$d/det1")
    check "$a verify: signature from stdin" [ "$got" = OK ]

    # Usage errors and unreadable files: exit 2, one line.
    error_case "$a verify: --cofactored is Ed25519's" "$V" verify $a --cofactored -p "$d/pk" -i "$T/abc" -S "$d/det1"
    error_case "$a verify: --deterministic is a sign option" "$V" verify $a --deterministic -p "$d/pk" -i "$T/abc" -S "$d/det1"
    error_case "$a sign: --context without a value" "$V" sign $a -s "$d/sk" -i "$T/abc" -o "$d/z" --context
    error_case "$a sign: --context twice" "$V" sign $a --context a --context b -s "$d/sk" -i "$T/abc" -o "$d/z"
    error_case "$a sign: --deterministic=1" "$V" sign $a --deterministic=1 -s "$d/sk" -i "$T/abc" -o "$d/z"
    error_case "$a sign: missing secret key file" "$V" sign $a -s "$d/nonexistent" -i "$T/abc" -o "$d/z"
    error_case "$a verify: missing signature file" "$V" verify $a -p "$d/pk" -i "$T/abc" -S "$d/nonexistent"
    error_case "$a sign: output into a missing directory" "$V" sign $a -s "$d/sk" -i "$T/abc" -o "$d/nodir/z"
    error_case "$a keygen: public key unwritable" "$V" keygen $a -s "$d/n.sk" -p "$d/nodir/n.pk"
    check "$a keygen failure leaves no secret key" [ ! -e "$d/n.sk" ]
    check "$a rejections and usage errors write nothing" [ ! -e "$d/z" ]
    check "$a leaves no temporary files" [ "$(ls -A "$d" | grep -c '^\.')" = 0 ]
done
error_case "sign ed25519: --deterministic is ML-DSA's" "$V" sign ed25519 --deterministic -s "$T/e/r2.sk" -i "$T/e/m2" -o "$T/d/z"
error_case "sign ed25519: --context is ML-DSA's" "$V" sign ed25519 --context x -s "$T/e/r2.sk" -i "$T/e/m2" -o "$T/d/z"
error_case "verify ed25519: --context is ML-DSA's" "$V" verify ed25519 --context x -p "$T/e/r2.pk" -i "$T/e/m2" -S "$T/e/r2.sig"
error_case "keygen: unknown ml-dsa set" "$V" keygen ml-dsa-66 -s "$T/d/s" -p "$T/d/p"
error_case "sign: unknown ml-dsa set" "$V" sign ml-dsa-66 -s "$T/d/65/sk" -i "$T/abc" -o "$T/d/z"
check "ML-DSA usage errors write nothing" absent "$T/d/z" "$T/d/s" "$T/d/p"
check "help lists the ML-DSA sets for sign and verify" \
    [ "$("$V" help | grep -c 'ALG: ed25519 ml-dsa-44 ml-dsa-65 ml-dsa-87')" = 2 ]
check "help documents the context limit" grep -q 'longer is a usage error' <("$V" help)
check "help has no 'planned' line left" nogrep -q planned <("$V" help)

# Official vectors through the command (VECTORS = ../shared/vectors):
#  - Wycheproof mldsa_N_sign_noseed: each valid deterministic case must give
#    the vector's signature with `sign --deterministic [--context]`; the
#    randomized one must verify; invalid ones exit 1 (key length, s1/s2
#    out of range) or 2 (context over 255 bytes);
#  - Wycheproof mldsa_N_verify: valid -> 0, invalid -> 1 (2 for a context
#    over 255 bytes);
#  - NIST ACVP ML-DSA-sigVer, the external-interface pure groups.
# Cases the command line cannot express are counted and left out: contexts
# with a NUL byte (argv cannot carry one) and mu-only ("Internal") cases.
VEC=${2:-}
if [ -n "$VEC" ] && command -v python3 >/dev/null; then
    python3 - "$VEC" "$T/dv" >"$T/dv.list" 2>"$T/dv.err" <<'PY'
import json, os, sys
vec, out = sys.argv[1], sys.argv[2]
os.makedirs(out)
left_out = 0

def case(kind, n, tid, expect, files):
    d = os.path.join(out, "%s-%d-%d" % (kind, n, tid))
    os.makedirs(d)
    for name, data in files.items():
        if data is not None:
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
    print(kind, n, tid, expect, d)

def h(s):
    return None if s is None else bytes.fromhex(s)

def verdict(result, ctx):
    if result == "valid":
        return "0"
    if result != "invalid":
        raise SystemExit("unknown result " + result)
    return "2" if ctx is not None and len(ctx) > 255 else "1"

for n in (44, 65, 87):
    w = json.load(open("%s/wycheproof/mldsa_%d_sign_noseed_test.json" % (vec, n)))
    for g in w["testGroups"]:
        for t in g["tests"]:
            ctx = h(t.get("ctx"))
            if "msg" not in t or (ctx is not None and 0 in ctx):
                left_out += 1
                continue
            v = verdict(t["result"], ctx)
            if v == "0":
                v = "verify" if "Randomized" in t["flags"] else "sig"
            case("wsign", n, t["tcId"], v, {"sk": h(g["privateKey"]), "pk": h(g.get("publicKey")),
                 "msg": h(t["msg"]), "ctx": ctx, "sig": h(t["sig"])})
    w = json.load(open("%s/wycheproof/mldsa_%d_verify_test.json" % (vec, n)))
    for g in w["testGroups"]:
        for t in g["tests"]:
            ctx = h(t.get("ctx"))
            if "msg" not in t or (ctx is not None and 0 in ctx):
                left_out += 1
                continue
            case("wverify", n, t["tcId"], verdict(t["result"], ctx),
                 {"pk": h(g["publicKey"]), "msg": h(t["msg"]), "ctx": ctx, "sig": h(t["sig"])})
base = vec + "/acvp/ML-DSA-sigVer-FIPS204/"
prompt = json.load(open(base + "prompt.json"))
results = {(g["tgId"], t["tcId"]): t["testPassed"]
           for g in json.load(open(base + "expectedResults.json"))["testGroups"] for t in g["tests"]}
for g in prompt["testGroups"]:
    if g.get("signatureInterface") != "external" or g.get("preHash") != "pure":
        continue
    n = int(g["parameterSet"].split("-")[-1])
    for t in g["tests"]:
        ctx = h(t["context"])
        if 0 in ctx:
            left_out += 1
            continue
        case("acvp", n, t["tcId"], "0" if results[(g["tgId"], t["tcId"])] else "1",
             {"pk": h(t["pk"]), "msg": h(t["message"]), "ctx": ctx, "sig": h(t["signature"])})
sys.stderr.write("%d\n" % left_out)
PY
    check "vectors: extracted from $VEC" [ $? = 0 ]
    echo "test_cli: note: $(cat "$T/dv.err") ML-DSA vector cases left out (context with a NUL byte, or mu only)"
    for k in wsign:sig wverify:0 wverify:1 acvp:0 acvp:1; do
        check "vectors: some $k cases" [ "$(grep -c "^${k%:*} [0-9]* [0-9]* ${k#*:} " "$T/dv.list")" -gt 0 ]
    done
    while read -r kind n id expect dir; do
        ctx=()
        if [ -e "$dir/ctx" ]; then
            c=$(cat "$dir/ctx"; printf x) # the x keeps trailing newlines
            ctx=(--context "${c%x}")
        fi
        w="$kind ml-dsa-$n tcId $id"
        case $kind:$expect in
        wsign:sig)
            "$V" sign ml-dsa-$n --deterministic "${ctx[@]}" -s "$dir/sk" -i "$dir/msg" -o "$dir/out"
            check "$w: sign --deterministic gives the vector's signature" cmp -s "$dir/out" "$dir/sig" ;;
        wsign:verify) check "$w: the randomized signature verifies" \
            verify_ok ml-dsa-$n "${ctx[@]}" -p "$dir/pk" -i "$dir/msg" -S "$dir/sig" ;;
        wsign:1) reject_case "$w: key rejected" \
            "$V" sign ml-dsa-$n --deterministic "${ctx[@]}" -s "$dir/sk" -i "$dir/msg" -o "$dir/out" ;;
        wsign:2) error_case "$w: long context is a usage error" \
            "$V" sign ml-dsa-$n --deterministic "${ctx[@]}" -s "$dir/sk" -i "$dir/msg" -o "$dir/out" ;;
        *:0) check "$w: valid" verify_ok ml-dsa-$n "${ctx[@]}" -p "$dir/pk" -i "$dir/msg" -S "$dir/sig" ;;
        *:1) reject_case "$w: invalid" "$V" verify ml-dsa-$n "${ctx[@]}" -p "$dir/pk" -i "$dir/msg" -S "$dir/sig" ;;
        *:2) error_case "$w: long context" "$V" verify ml-dsa-$n "${ctx[@]}" -p "$dir/pk" -i "$dir/msg" -S "$dir/sig" ;;
        *) bad "$w: unexpected verdict $expect" ;;
        esac
    done <"$T/dv.list"
elif [ -n "$VEC" ]; then
    echo "test_cli: note: python3 not found: ML-DSA vectors through the command not run"
fi

# ---- file handling: all or none, special files, same file, leftovers --------
# (docs/cli.md; issue 14). CI runs as root, as this does: permissions do not
# stop root, so "an unwritable place" is a path under a regular file
# (ENOTDIR) or a copy of /dev/full made with mknod (ENOSPC on every write),
# both of which fail for root too. The mknod copies live in $F, so no
# system device node is ever at risk.
F=$T/files
mkdir "$F" "$F/sub"
vg_tmps() { ls -A "$@" | grep -c '^\.vg' ; } # temporaries left in directories
"$V" keygen ed25519 -s "$F/id.sk" -p "$F/id.pk"
cp "$F/id.sk" "$F/id.sk.keep"; cp "$F/id.pk" "$F/id.pk.keep"
intact() { cmp -s "$F/id.sk" "$F/id.sk.keep" && cmp -s "$F/id.pk" "$F/id.pk.keep"; }
"$V" keygen x25519 -s "$F/x.sk" -p "$F/x.pk"
cp "$F/x.sk" "$F/x.sk.keep"
printf 'message' >"$F/m"; cp "$F/m" "$F/m.keep"
"$V" keygen ml-kem-512 -s "$F/kem.sk" -p "$F/kem.pk"
"$V" encaps ml-kem-512 -p "$F/kem.pk" -c "$F/ct" -k "$F/ss"
cp "$F/ct" "$F/ct.keep"; cp "$F/ss" "$F/ss.keep"
HAVE_MKNOD=0
if mknod "$F/full" c 1 7 2>/dev/null && mknod "$F/null" c 1 3 2>/dev/null; then
    HAVE_MKNOD=1
else
    echo "test_cli: note: mknod not permitted: device-node cases not run"
fi

# 1. A failing multi-output command replaces neither output (the secret key
#    survives byte for byte, and so does its public key).
error_case "keygen: public key into a missing directory" \
    "$V" keygen ed25519 -s "$F/id.sk" -p "$F/nodir/x.pk"
check "keygen failure keeps the old secret and public key" intact
error_case "keygen: public key under a regular file (fails for root too)" \
    "$V" keygen ed25519 -s "$F/id.sk" -p "$F/m/x.pk"
check "keygen ENOTDIR failure keeps the old pair" intact
error_case "keygen: secret key under a regular file" \
    "$V" keygen ed25519 -s "$F/m/x.sk" -p "$F/id.pk"
check "keygen failure of the first output keeps the old pair" intact
if [ $HAVE_MKNOD = 1 ]; then
    error_case "keygen: public key to a /dev/full copy (ENOSPC)" \
        "$V" keygen ed25519 -s "$F/id.sk" -p "$F/full"
    check "keygen ENOSPC failure keeps the old secret key" intact
    check "the /dev/full copy is still a character device" [ -c "$F/full" ]
    error_case "keygen x25519 -s s -p full (the issue's reproduction)" \
        "$V" keygen x25519 -s "$F/s" -p "$F/full"
    check "full stays a device, s is not created" [ -c "$F/full" ] && check "no s" [ ! -e "$F/s" ]
fi
error_case "keygen: public key is a directory" "$V" keygen ed25519 -s "$F/id.sk" -p "$F/sub"
error_case "keygen: public key is '.'" "$V" keygen ed25519 -s "$F/id.sk" -p .
check "an output of '.' says it is a directory" grep -q "directory" "$T/err"
check "... not 'Device or resource busy'" nogrep -q "busy" "$T/err"
error_case "keygen: public key 'dir/'" "$V" keygen ed25519 -s "$F/id.sk" -p "$F/newdir/"
error_case "hash -o . (usage error)" "$V" hash sha256 -o . "$F/m"
check "hash -o . says directory" grep -q "directory" "$T/err"
error_case "encaps: shared secret into a missing directory" \
    "$V" encaps ml-kem-512 -p "$F/kem.pk" -c "$F/ct" -k "$F/nodir/ss"
check "encaps failure keeps the old ciphertext and secret" cmp -s "$F/ct" "$F/ct.keep"
check "... and the old shared secret" cmp -s "$F/ss" "$F/ss.keep"
error_case "encaps: ciphertext under a regular file" \
    "$V" encaps ml-kem-512 -p "$F/kem.pk" -c "$F/m/ct" -k "$F/ss"
check "encaps failure of the first output keeps the shared secret" cmp -s "$F/ss" "$F/ss.keep"
error_case "hash -o the secret key with an unreadable input" \
    "$V" hash sha256 -o "$F/id.sk" "$F/m" "$F/nonexistent"
check "hash failure keeps the secret key" intact
reject_case "sign with a malformed key keeps an existing output" \
    "$V" sign ed25519 -s "$F/x.sk" -i "$F/m" -o "$F/id.sk"
check "rejected sign keeps the secret key" intact
if [ "$(id -u)" != 0 ]; then # a read-only directory stops only non-root users
    mkdir "$F/ro" && chmod 555 "$F/ro"
    error_case "keygen: public key in a read-only directory" \
        "$V" keygen ed25519 -s "$F/id.sk" -p "$F/ro/x.pk"
    check "read-only directory failure keeps the old pair" intact
    chmod 755 "$F/ro"
fi
check "no temporary left by any failure" [ "$(vg_tmps "$F" "$F/sub")" = 0 ]
# Success replaces both, together.
"$V" keygen ed25519 -s "$F/id2.sk" -p "$F/id2.pk"
"$V" keygen ed25519 -s "$F/id2.sk" -p "$F/id2.pk.new"
check "keygen success replaces the secret key" [ "$(stat -c %s "$F/id2.sk")" = 64 ]
check "new pair matches: public key = second half of the secret" \
    [ "$(tail -c 32 "$F/id2.sk" | od -An -v -tx1)" = "$(od -An -v -tx1 "$F/id2.pk.new")" ]

# 2. Special files: FIFO, character device and "-" are written directly
#    (no rename); a symbolic link is followed and its target replaced.
if [ $HAVE_MKNOD = 1 ]; then
    "$V" keygen x25519 -s "$F/null" -p "$F/xn.pk" 2>"$T/err"
    check "keygen secret to a /dev/null copy: rc 0" [ $? = 0 ]
    check "the /dev/null copy is still a character device" [ -c "$F/null" ]
    check "... and the public key was written" [ "$(stat -c %s "$F/xn.pk")" = 32 ]
fi
# (Only copies in $F are named as outputs: a regressed binary must not be
# able to replace the system's /dev/null or /dev/stdout.)
mkfifo "$F/fifo"
cat "$F/fifo" >"$F/fifo.out" &
catpid=$!
"$V" keygen x25519 --hex -s "$F/fifo" -p "$F/xf.pk"
check "keygen secret key into a FIFO: rc 0" [ $? = 0 ]
wait $catpid
check "the FIFO is still a FIFO" [ -p "$F/fifo" ]
check "the reader got the 65-byte hex secret key" grep -Eqx '[0-9a-f]{64}' "$F/fifo.out"
unhex "$(cat "$F/fifo.out")" >"$F/xf.sk"
"$V" x25519 -s "$F/xf.sk" -p "$T/x/nine" -o "$F/xf.pk2"
unhex "$(cat "$F/xf.pk")" >"$F/xf.pkr"
check "the public key belongs to the secret key read from the FIFO" cmp -s "$F/xf.pk2" "$F/xf.pkr"
ln -s /proc/self/fd/1 "$F/stdout" # what /dev/stdout is
echo old >"$F/log"
"$V" hash sha256 --hex -o "$F/stdout" "$F/m" >>"$F/log"
check "-o a link to /proc/self/fd/1 with >> appends (written through the descriptor)" \
    [ "$(head -1 "$F/log"):$(sed -n 2p "$F/log" | cut -d' ' -f1)" = "old:$(ref sha256 "$F/m")" ]
got=$("$V" hash sha256 -o "$F/stdout" "$F/m" | od -An -v -tx1 | tr -d ' \n')
check "-o a link to /proc/self/fd/1 into a pipe" [ "$got" = "$(ref sha256 "$F/m")" ]
check "the link is still a link" [ "$(readlink "$F/stdout")" = /proc/self/fd/1 ]
cp "$F/x.pk" "$F/sub/target"
ln -s sub/target "$F/link"
"$V" keygen x25519 -s "$F/xl.sk" -p "$F/link"
check "keygen through a symlink: rc 0" [ $? = 0 ]
check "the symlink is still a symlink to the same target" [ "$(readlink "$F/link")" = sub/target ]
check "the target was replaced with the new public key" \
    [ "$("$V" x25519 -s "$F/xl.sk" -p "$T/x/nine" -o - | od -An -tx1)" = "$(od -An -tx1 "$F/sub/target")" ]
check "the replaced target has mode 0600" [ "$(stat -c %a "$F/sub/target")" = 600 ]
ln -s nowhere "$F/dangling"
error_case "dangling symlink output" "$V" hash sha256 -o "$F/dangling" "$F/m"
check "the dangling link stays dangling" [ -L "$F/dangling" ] && check "no target" [ ! -e "$F/nowhere" ]
if command -v python3 >/dev/null &&
    python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$F/sock"; then
    error_case "a socket output is refused" "$V" hash sha256 -o "$F/sock" "$F/m"
    check "the socket stays a socket" [ -S "$F/sock" ]
fi
check "special-file cases leave no temporary" [ "$(vg_tmps "$F" "$F/sub")" = 0 ]

# 3. The same file twice: device and inode, not spellings; a usage error
#    before anything is read or written.
error_case "keygen -s k -p ./k" "$V" keygen ed25519 -s "$F/k" -p "$F/./k"
check "nothing created for -s k -p ./k" [ ! -e "$F/k" ]
(cd "$F" && "$V" keygen ed25519 -s k -p ./k >/dev/null 2>&1)
check "relative spellings: rc 2" [ $? = 2 ] && check "no k" [ ! -e "$F/k" ]
error_case "keygen -s X -p sub/../X (new file)" "$V" keygen x25519 -s "$F/nk" -p "$F/sub/../nk"
ln "$F/id.sk" "$F/hardlink"
error_case "keygen onto a hard link of its other output" \
    "$V" keygen ed25519 -s "$F/id.sk" -p "$F/hardlink"
check "hard-link case keeps the secret key" intact
error_case "x25519 -o the secret key (issue: overwrote it with the shared secret)" \
    "$V" x25519 -s "$F/x.sk" -p "$F/x.pk" -o "$F/x.sk"
check "x25519 same-file keeps the secret key" cmp -s "$F/x.sk" "$F/x.sk.keep"
error_case "sign -i m -o m" "$V" sign ed25519 -s "$F/id.sk" -i "$F/m" -o "$F/m"
check "sign same-file keeps the message" cmp -s "$F/m" "$F/m.keep"
ln -s m "$F/mlink"
error_case "sign -o a symlink to the message" "$V" sign ed25519 -s "$F/id.sk" -i "$F/m" -o "$F/mlink"
check "the message survives" cmp -s "$F/m" "$F/m.keep"
error_case "sign -o the secret key" "$V" sign ed25519 -s "$F/id.sk" -i "$F/m" -o "$F/id.sk"
check "sign same-file keeps the secret key" intact
error_case "encaps -c the public key" "$V" encaps ml-kem-512 -p "$F/kem.pk" -c "$F/kem.pk" -k "$F/ss2"
error_case "decaps -k the ciphertext" "$V" decaps ml-kem-512 -s "$F/kem.sk" -c "$F/ct" -k "$F/ct"
check "decaps same-file keeps the ciphertext" cmp -s "$F/ct" "$F/ct.keep"
error_case "hash -o an input" "$V" hash sha256 -o "$F/m" "$F/id.pk" "$F/m"
check "hash same-file keeps the input" cmp -s "$F/m" "$F/m.keep"
error_case "keygen -s - -p - (both on standard output)" "$V" keygen x25519 -s - -p -
error_case "keygen -s - -p (a link to /proc/self/fd/1)" "$V" keygen x25519 -s - -p "$F/stdout"
"$V" sign ed25519 -s "$F/id.sk" -i "$F/m" -o - >>"$F/m" 2>"$T/err"
check "sign -o - with stdout appended to the message: rc 2" [ $? = 2 ]
check "... and the message is untouched" cmp -s "$F/m" "$F/m.keep"
check "same-file cases leave no temporary" [ "$(vg_tmps "$F" "$F/sub")" = 0 ]

# 4. Leftovers. An input FIFO with no writer makes `hash -o` wait, with its
#    output temporary open, for as long as the test needs (no timing race).
mkdir "$F/lo"
mkfifo "$F/in"
# wait_tmp PID: until PID has its output temporary open (bounded: 5 s).
wait_tmp() {
    local i
    for i in $(seq 500); do
        ls -l /proc/$1/fd 2>/dev/null | grep -q "$F/lo/" && return 0
        sleep 0.01
    done
    return 1
}
"$V" hash sha256 -o "$F/lo/out" "$F/in" &
pid=$!
check "hash -o waiting on a FIFO input has its temporary open" wait_tmp $pid
TMPFILE_OK=0
[ "$(vg_tmps "$F/lo")" = 0 ] && TMPFILE_OK=1
[ $TMPFILE_OK = 1 ] || echo "test_cli: note: no O_TMPFILE on $F: kill -9 cases not run"
kill -9 $pid; wait $pid 2>/dev/null
[ $TMPFILE_OK = 1 ] && check "kill -9 with O_TMPFILE leaves nothing" [ -z "$(ls -A "$F/lo")" ]
# The named fallback (forced by the test hook): removed on SIGTERM and SIGHUP.
for sig in TERM HUP; do
    VG_CLI_NO_O_TMPFILE=1 "$V" hash sha256 -o "$F/lo/out" "$F/in" &
    pid=$!
    wait_tmp $pid
    check "fallback: a named .vg temporary while writing ($sig)" [ "$(vg_tmps "$F/lo")" = 1 ]
    kill -$sig $pid; wait $pid; rc=$?
    check "SIG$sig kills with the signal's status" [ $rc = $((128 + $(kill -l $sig))) ]
    check "SIG$sig removes the fallback temporary" [ -z "$(ls -A "$F/lo")" ]
done
# SIGINT: a background job of a script has SIGINT ignored (and keeps it
# ignored, as the command must); python3 restores the default first.
if command -v python3 >/dev/null; then
    VG_CLI_NO_O_TMPFILE=1 python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$V" hash sha256 -o "$F/lo/out" "$F/in" &
    pid=$!
    wait_tmp $pid
    check "fallback: a named .vg temporary while writing (INT)" [ "$(vg_tmps "$F/lo")" = 1 ]
    kill -INT $pid; wait $pid; rc=$?
    check "SIGINT kills with the signal's status" [ $rc = 130 ]
    check "SIGINT removes the fallback temporary" [ -z "$(ls -A "$F/lo")" ]
fi
# kill -9 during a long hash of a large (sparse) input: no partial output,
# no temporary. The process must still be running when killed.
if [ $TMPFILE_OK = 1 ] && truncate -s 64G "$F/sparse" 2>/dev/null; then
    cp "$F/id.pk" "$F/lo/out"
    "$V" hash sha256 -o "$F/lo/out" "$F/sparse" &
    pid=$!
    wait_tmp $pid
    sleep 0.2
    check "the large hash is still running when killed" kill -0 $pid
    kill -9 $pid; wait $pid 2>/dev/null
    check "kill -9 during a large hash -o: old output intact" cmp -s "$F/lo/out" "$F/id.pk"
    check "kill -9 during a large hash -o: no temporary" [ "$(ls -A "$F/lo")" = out ]
    rm -f "$F/sparse" "$F/lo/out"
fi
# Any name the filesystem takes works: 255 bytes (temporary names are short).
long=$(printf 'n%.0s' $(seq 255))
"$V" hash sha256 -o "$F/lo/$long" "$F/m"
check "a 255-byte output name" [ "$(stat -c %s "$F/lo/$long")" = 32 ]
VG_CLI_NO_O_TMPFILE=1 "$V" hash sha512 -o "$F/lo/$long" "$F/m"
check "a 255-byte output name with the named fallback" [ "$(stat -c %s "$F/lo/$long")" = 64 ]
VG_CLI_NO_O_TMPFILE=1 "$V" keygen ed25519 -s "$F/lo/fb.sk" -p "$F/lo/fb.pk"
check "the fallback commits both outputs" [ "$(stat -c %s "$F/lo/fb.sk" "$F/lo/fb.pk" | tr '\n' ' ')" = "64 32 " ]
VG_CLI_NO_O_TMPFILE=1 "$V" keygen ed25519 -s "$F/id.sk" -p "$F/nodir/x" 2>/dev/null
check "the fallback on failure keeps the old pair" intact
check "the fallback leaves no temporary" [ "$(vg_tmps "$F" "$F/lo")" = 0 ]

# 5. Standard-output errors for every command; options given twice; hash
#    names escaped as coreutils' sha256sum does.
# full_case DESCRIPTION COMMAND...: stdout is /dev/full: exit 2, one line.
full_case() {
    local d=$1; shift
    "$@" >/dev/full 2>"$T/err" </dev/null
    local rc=$?
    if [ $rc = 2 ] && [ "$(wc -l <"$T/err")" = 1 ]; then ok; else bad "$d: rc=$rc stderr=$(cat "$T/err")"; fi
}
full_case "version > /dev/full" "$V" version
full_case "--version > /dev/full" "$V" --version
full_case "help > /dev/full" "$V" help
full_case "cpu > /dev/full" "$V" cpu
full_case "hash > /dev/full" "$V" hash sha256 "$F/m"
full_case "hash -o - > /dev/full" "$V" hash sha256 -o - "$F/m"
full_case "keygen -p - > /dev/full" "$V" keygen x25519 -s "$F/lo/f.sk" -p -
check "keygen with stdout failing writes no secret key" [ ! -e "$F/lo/f.sk" ]
"$V" sign ed25519 -s "$F/id.sk" -i "$F/m" -o "$F/sig"
full_case "verify > /dev/full" "$V" verify ed25519 -p "$F/id.pk" -i "$F/m" -S "$F/sig"
full_case "x25519 -o - > /dev/full" "$V" x25519 -s "$F/x.sk" -p "$F/x.pk" -o -
error_case "hash -o A -o B" "$V" hash sha256 -o "$F/A" -o "$F/B" "$F/m"
check "hash -o twice writes neither" [ ! -e "$F/A" ] && check "no B" [ ! -e "$F/B" ]
error_case "hash --length twice" "$V" hash shake128 --length 3 --length 4 "$F/m"
error_case "hash --length= twice" "$V" hash shake128 --length=3 --length=3 "$F/m"
error_case "hash --hex twice" "$V" hash sha256 --hex --hex -o "$F/A" "$F/m"
error_case "keygen --hex twice" "$V" keygen x25519 --hex --hex -s "$F/A" -p "$F/B"
error_case "verify --cofactored twice" "$V" verify ed25519 --cofactored --cofactored -p "$F/id.pk" -i "$F/m" -S "$F/sig"
error_case "sign --deterministic twice" "$V" sign ml-dsa-44 --deterministic --deterministic -s "$F/A" -i "$F/m" -o "$F/B"
mkdir "$F/esc"
for n in 'a\b' "$(printf 'c\rd')" "$(printf 'e\nf')" "$(printf 'g\\h\ri\nj')" "$(printf 'k\tl')" 'plain'; do
    printf '%s' "$n" >"$F/esc/$n"
done
got=$(cd "$F/esc" && "$V" hash sha256 * | od -An -c)
check "hash escapes names as sha256sum does (\\\\, \\n, \\r)" [ "$got" = "$(cd "$F/esc" && sha256sum * | od -An -c)" ]
(cd "$F/esc" && "$V" hash sha256 --hex -o ../esc.out *)
check "hash --hex -o lines escaped as sha256sum" [ "$(od -An -c "$F/esc.out")" = "$(cd "$F/esc" && sha256sum * | od -An -c)" ]
got=$(cd "$F/esc" && printf 'x' | "$V" hash sha256 - | od -An -c)
check "hash of stdin is named '-'" [ "$got" = "$(printf 'x' | sha256sum - | od -An -c)" ]
error_case "an error line naming a file with a newline stays one line" \
    "$V" hash sha256 "$F/esc/no
such"
check "every file-handling case left no temporary anywhere" [ "$(vg_tmps "$F" "$F/sub" "$F/lo")" = 0 ]

# ---- mac (HMAC, RFC 2104) and kdf (HKDF, RFC 5869) -------------------------
# HMAC against OpenSSL's `openssl dgst -mac HMAC -macopt hexkey:` (python3's
# hmac module for the empty key, which that option refuses), HKDF against
# `openssl kdf ... HKDF` (OpenSSL 3.0), both independent implementations;
# and the references themselves against RFC 4231 test case 2 and RFC 5869
# A.1 and A.3. Key lengths around each hash's block (64 and 128 bytes: a
# longer key is hashed first), files across several 64 KiB read chunks.
MC=$T/mac
mkdir "$MC"
ossl_hmac() { # bits hexkey file -> hex
    openssl dgst -sha$1 -mac HMAC -macopt hexkey:$2 "$3" | sed 's/^.*= //'
}
printf 'Jefe' >"$MC/jefe"; printf 'what do ya want for nothing?' >"$MC/m2"
check "reference HMAC-SHA-256: RFC 4231 case 2" \
    [ "$(ossl_hmac 256 "$(hexof "$MC/jefe")" "$MC/m2")" = 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843 ]
check "mac hmac-sha256: RFC 4231 case 2" \
    [ "$("$V" mac hmac-sha256 -k "$MC/jefe" "$MC/m2")" = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843  $MC/m2" ]
for klen in 1 20 64 65 128 129 131 1000; do head -c $klen /dev/urandom >"$MC/k$klen"; done
for bits in 256 384 512; do
    for klen in 1 64 65 128 129 1000; do
        kh=$(hexof "$MC/k$klen")
        for f in empty abc big; do
            got=$("$V" mac hmac-sha$bits -k "$MC/k$klen" "$T/$f")
            check "hmac-sha$bits key $klen $f" [ "$got" = "$(ossl_hmac $bits $kh "$T/$f")  $T/$f" ]
        done
    done
    kh=$(hexof "$MC/k131")
    # Several files, standard input, -o raw, --hex key, --hex -o lines.
    got=$(cd "$T" && "$V" mac hmac-sha$bits -k "$MC/k131" abc big empty)
    want=$(for f in abc big empty; do echo "$(ossl_hmac $bits $kh "$T/$f")  $f"; done)
    check "hmac-sha$bits several files" [ "$got" = "$want" ]
    got=$("$V" mac hmac-sha$bits -k "$MC/k131" <"$T/big")
    check "hmac-sha$bits standard input" [ "$got" = "$(ossl_hmac $bits $kh "$T/big")  -" ]
    "$V" mac hmac-sha$bits -k "$MC/k131" -o "$MC/raw" "$T/abc" "$T/big"
    check "hmac-sha$bits -o raw" [ "$(hexof "$MC/raw")" = "$(ossl_hmac $bits $kh "$T/abc")$(ossl_hmac $bits $kh "$T/big")" ]
    printf '%s\n' "$kh" | tr a-f A-F >"$MC/k131.hex"
    got=$("$V" mac hmac-sha$bits --hex -k "$MC/k131.hex" "$T/abc")
    check "hmac-sha$bits --hex key (upper case, newline)" [ "$got" = "$(ossl_hmac $bits $kh "$T/abc")  $T/abc" ]
    "$V" mac hmac-sha$bits --hex -k "$MC/k131.hex" -o "$MC/lines" "$T/abc"
    check "hmac-sha$bits --hex -o lines" [ "$(cat "$MC/lines")" = "$(ossl_hmac $bits $kh "$T/abc")  $T/abc" ]
    : >"$MC/k0"
    if command -v python3 >/dev/null; then
        want=$(python3 -c 'import hashlib, hmac, sys
print(hmac.new(b"", open(sys.argv[2], "rb").read(), "sha" + sys.argv[1]).hexdigest())' $bits "$T/big")
        check "hmac-sha$bits empty key (python3 hmac)" [ "$("$V" mac hmac-sha$bits -k "$MC/k0" "$T/big")" = "$want  $T/big" ]
    fi
done
got=$(VG_CPU_FEATURES=none "$V" mac hmac-sha512 -k "$MC/k129" "$T/big")
check "hmac-sha512 portable" [ "$got" = "$(ossl_hmac 512 "$(hexof "$MC/k129")" "$T/big")  $T/big" ]
printf 'abcx' >"$MC/badhex"; printf 'abc' >"$MC/oddhex"
reject_case "mac: bad hex key" "$V" mac hmac-sha256 --hex -k "$MC/badhex" "$T/abc"
reject_case "mac: odd number of hex digits" "$V" mac hmac-sha256 --hex -k "$MC/oddhex" "$T/abc"
error_case "mac without -k" "$V" mac hmac-sha256 "$T/abc"
error_case "mac without algorithm" "$V" mac -k "$MC/k20" "$T/abc"
error_case "mac with a hash name" "$V" mac sha256 -k "$MC/k20" "$T/abc"
error_case "hash with a mac name" "$V" hash hmac-sha256 "$T/abc"
error_case "mac --length" "$V" mac hmac-sha256 --length 3 -k "$MC/k20" "$T/abc"
error_case "mac -k twice" "$V" mac hmac-sha256 -k "$MC/k20" -k "$MC/k20" "$T/abc"
error_case "mac: key and message both standard input" "$V" mac hmac-sha256 -k - -
error_case "mac: key on standard input, message by default too" "$V" mac hmac-sha256 -k -
error_case "mac -o onto the key" "$V" mac hmac-sha256 -k "$MC/k20" -o "$MC/k20" "$T/abc"
error_case "mac missing key file" "$V" mac hmac-sha256 -k "$MC/nokey" "$T/abc"
error_case "mac missing message" "$V" mac hmac-sha256 -k "$MC/k20" "$T/nonexistent"
truncate -s $((1048576 + 1)) "$MC/kbig"
error_case "mac key over 1 MiB" "$V" mac hmac-sha256 -k "$MC/kbig" "$T/abc"
check "mac -o failures changed no key" [ "$(stat -c %s "$MC/k20")" = 20 ]
got=$("$V" mac hmac-sha256 -k - "$T/abc" <"$MC/k20")
check "mac: the key on standard input" [ "$got" = "$(ossl_hmac 256 "$(hexof "$MC/k20")" "$T/abc")  $T/abc" ]
full_case "mac > /dev/full" "$V" mac hmac-sha256 -k "$MC/k20" "$T/abc"

# kdf: openssl kdf as the reference, -binary output in hex.
ossl_hkdf() { # bits length ikm-file salt-file|"" info|"-" -> hex
    local o=(-kdfopt "hexkey:$(hexof "$3")")
    [ -z "$4" ] || o+=(-kdfopt "hexsalt:$(hexof "$4")")
    [ "$5" = - ] || o+=(-kdfopt "info:$5")
    openssl kdf -binary -keylen $2 -kdfopt digest:SHA$1 "${o[@]}" HKDF | od -An -v -tx1 | tr -d ' \n'
}
unhex 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b >"$MC/a1.ikm"
unhex 000102030405060708090a0b0c >"$MC/a1.salt"
A1_INFO=$(printf '\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9')
A1_OKM=3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865
A3_OKM=8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8
check "reference HKDF: RFC 5869 A.3" [ "$(ossl_hkdf 256 42 "$MC/a1.ikm" "" -)" = $A3_OKM ]
"$V" kdf hkdf-sha256 --ikm "$MC/a1.ikm" --salt "$MC/a1.salt" --info "$A1_INFO" --length 42 -o "$MC/okm"
check "kdf hkdf-sha256: RFC 5869 A.1" [ "$(hexof "$MC/okm")" = $A1_OKM ]
"$V" kdf hkdf-sha256 --ikm "$MC/a1.ikm" --length 42 -o "$MC/okm"
check "kdf hkdf-sha256: RFC 5869 A.3 (no salt, no info)" [ "$(hexof "$MC/okm")" = $A3_OKM ]
"$V" kdf hkdf-sha256 --ikm "$MC/a1.ikm" --salt "$T/empty" --info "" --length 42 -o "$MC/okm"
check "kdf: an empty salt file and empty info are A.3 too" [ "$(hexof "$MC/okm")" = $A3_OKM ]
check "kdf output mode 0600" [ "$(stat -c %a "$MC/okm")" = 600 ]
head -c 80 /dev/urandom >"$MC/ikm"; head -c 77 /dev/urandom >"$MC/salt"
for bits in 256 384 512; do
    hl=$((bits / 8))
    for len in 1 $hl $((hl + 1)) $((255 * hl)); do
        for case in "$MC/salt:ctx" ":-" "$T/empty:" "$MC/salt:-"; do
            salt=${case%%:*}; info=${case#*:}
            args=(--ikm "$MC/ikm" --length $len -o "$MC/okm")
            [ -z "$salt" ] || args+=(--salt "$salt")
            [ "$info" = - ] || args+=(--info "$info")
            "$V" kdf hkdf-sha$bits "${args[@]}"
            check "hkdf-sha$bits length $len salt ${salt:+${salt##*/}} info $info" \
                [ "$(hexof "$MC/okm")" = "$(ossl_hkdf $bits $len "$MC/ikm" "$salt" "$info")" ]
        done
    done
    # --hex: IKM and salt in hex, the output as hex and a newline.
    hexof "$MC/ikm" >"$MC/ikm.hex"; { hexof "$MC/salt"; printf '\r\n'; } >"$MC/salt.hex"
    "$V" kdf hkdf-sha$bits --hex --ikm "$MC/ikm.hex" --salt "$MC/salt.hex" --info ctx --length 50 -o "$MC/okm.hex"
    check "hkdf-sha$bits --hex" [ "$(cat "$MC/okm.hex")" = "$(ossl_hkdf $bits 50 "$MC/ikm" "$MC/salt" ctx)" ]
    check "hkdf-sha$bits --hex ends in one newline" [ "$(stat -c %s "$MC/okm.hex")" = 101 ]
    rm -f "$MC/new"
    error_case "hkdf-sha$bits --length $((255 * hl + 1))" "$V" kdf hkdf-sha$bits --ikm "$MC/ikm" --length $((255 * hl + 1)) -o "$MC/new"
    check "hkdf-sha$bits too long writes nothing" [ ! -e "$MC/new" ]
done
got=$("$V" kdf hkdf-sha384 --ikm - --length 33 -o - <"$MC/ikm" | od -An -v -tx1 | tr -d ' \n')
check "kdf: IKM on standard input, key to standard output" [ "$got" = "$(ossl_hkdf 384 33 "$MC/ikm" "" -)" ]
got=$(VG_CPU_FEATURES=none "$V" kdf hkdf-sha512 --ikm "$MC/ikm" --salt "$MC/salt" --length 300 -o - | od -An -v -tx1 | tr -d ' \n')
check "kdf portable" [ "$got" = "$(ossl_hkdf 512 300 "$MC/ikm" "$MC/salt" -)" ]
cp "$MC/okm" "$MC/okm.keep"
error_case "kdf --length 0" "$V" kdf hkdf-sha256 --ikm "$MC/ikm" --length 0 -o "$MC/okm"
error_case "kdf --length junk" "$V" kdf hkdf-sha256 --ikm "$MC/ikm" --length 3x -o "$MC/okm"
error_case "kdf without --length" "$V" kdf hkdf-sha256 --ikm "$MC/ikm" -o "$MC/okm"
error_case "kdf without --ikm" "$V" kdf hkdf-sha256 --length 3 -o "$MC/okm"
error_case "kdf without -o" "$V" kdf hkdf-sha256 --ikm "$MC/ikm" --length 3
error_case "kdf unknown algorithm" "$V" kdf hkdf-md5 --ikm "$MC/ikm" --length 3 -o "$MC/okm"
error_case "kdf without algorithm" "$V" kdf --ikm "$MC/ikm" --length 3 -o "$MC/okm"
error_case "kdf --info twice" "$V" kdf hkdf-sha256 --info a --info b --ikm "$MC/ikm" --length 3 -o "$MC/okm"
error_case "kdf --length twice" "$V" kdf hkdf-sha256 --length 3 --length 3 --ikm "$MC/ikm" -o "$MC/okm"
error_case "kdf -o onto the IKM" "$V" kdf hkdf-sha256 --ikm "$MC/ikm" --length 3 -o "$MC/ikm"
error_case "kdf -o onto the salt" "$V" kdf hkdf-sha256 --ikm "$MC/ikm" --salt "$MC/okm" --length 3 -o "$MC/okm"
error_case "kdf: IKM and salt both standard input" "$V" kdf hkdf-sha256 --ikm - --salt - --length 3 -o "$MC/okm"
error_case "kdf missing IKM" "$V" kdf hkdf-sha256 --ikm "$MC/none" --length 3 -o "$MC/okm"
reject_case "kdf bad hex IKM" "$V" kdf hkdf-sha256 --hex --ikm "$MC/badhex" --length 3 -o "$MC/okm"
reject_case "kdf odd hex salt" "$V" kdf hkdf-sha256 --hex --ikm "$MC/ikm.hex" --salt "$MC/oddhex" --length 3 -o "$MC/okm"
check "kdf failures left the old output" cmp -s "$MC/okm" "$MC/okm.keep"
full_case "kdf -o - > /dev/full" "$V" kdf hkdf-sha256 --ikm "$MC/ikm" --length 3 -o -
check "mac and kdf left no temporary" [ "$(vg_tmps "$MC")" = 0 ]
rm -rf "$MC"

# ---- seal / open (RFC 8439 2.8, draft-irtf-cfrg-xchacha-03 2.3) -------------
# Independent reference: libsodium's crypto_aead_chacha20poly1305_ietf_* and
# crypto_aead_xchacha20poly1305_ietf_* through tests/cli_aead_ref.c (the
# third argument; those checks are skipped without it), in both directions:
# every file the command seals libsodium opens, every file libsodium seals
# the command opens. The layout nonce || ciphertext || tag is checked by
# sizes, and by libsodium reading it. Tampering anywhere (nonce, ciphertext,
# tag, AD, key) must exit 1 with no output written and an existing output
# left byte for byte (docs/cli.md, "seal and open").
REF=${3:-}
A=$T/aead
mkdir "$A"
head -c 32 /dev/urandom >"$A/k"
head -c 32 /dev/urandom >"$A/k2"
hexof "$A/k" >"$A/k.hex"
printf 'header v1\n' >"$A/ad"
: >"$A/ad0"
# Sizes around the 64-byte block, the 65536-byte read chunk (open reads
# chunk + 16 bytes after the nonce: 65520 and 65536 fill it exactly), and
# several chunks: 3 MiB of random bytes and an 8 MiB sparse file.
SIZES="0 1 63 64 65 65519 65520 65521 65535 65536 65537 65552 131072 3145733"
for n in $SIZES; do head -c $n /dev/urandom >"$A/p$n"; done
truncate -s 8M "$A/p8m"
SIZES="$SIZES 8m"
nlen() { case $1 in chacha20-poly1305) echo 12 ;; xchacha20-poly1305) echo 24 ;; esac; }
for alg in chacha20-poly1305 xchacha20-poly1305; do
    nl=$(nlen $alg)
    for n in $SIZES; do
        p=$A/p$n
        want=$(( $(stat -c %s "$p") + nl + 16 ))
        "$V" seal $alg -k "$A/k" -i "$p" -o "$A/c" --ad "$A/ad"
        check "$alg seal $n: rc 0" [ $? = 0 ]
        check "$alg seal $n: nonce || ciphertext || tag is $want bytes" [ "$(stat -c %s "$A/c")" = $want ]
        "$V" open $alg -k "$A/k" -i "$A/c" -o "$A/q" --ad "$A/ad"
        check "$alg open $n: round trip" cmp -s "$p" "$A/q"
        if [ -n "$REF" ]; then
            rm -f "$A/r"
            "$REF" open $alg "$A/k" "$A/c" "$A/r" "$A/ad"
            check "$alg seal $n: libsodium opens it" cmp -s "$p" "$A/r"
            "$REF" seal $alg "$A/k" "$p" "$A/c" "$A/ad"
            rm -f "$A/q"
            "$V" open $alg -k "$A/k" -i "$A/c" -o "$A/q" --ad "$A/ad"
            check "$alg open $n: libsodium's sealed file" cmp -s "$p" "$A/q"
        fi
    done
    # No AD, an empty AD file: the same (RFC 8439 2.8: AD of length 0).
    "$V" seal $alg -k "$A/k" -i "$A/p65" -o "$A/c"
    "$V" open $alg -k "$A/k" -i "$A/c" -o "$A/q" --ad "$A/ad0"
    check "$alg: no --ad opens with an empty AD file" cmp -s "$A/p65" "$A/q"
    [ -z "$REF" ] || { "$REF" open $alg "$A/k" "$A/c" "$A/r"; check "$alg: libsodium opens it without AD" cmp -s "$A/p65" "$A/r"; }
    # A fresh nonce each time: two seals of one file differ in their nonce.
    "$V" seal $alg -k "$A/k" -i "$A/p65" -o "$A/c2"
    check "$alg: two seals, two nonces" [ "$(head -c $nl "$A/c" | od -An -tx1)" != "$(head -c $nl "$A/c2" | od -An -tx1)" ]
    # Standard input and output, pipes both ways; a --hex key.
    "$V" seal $alg --hex -k "$A/k.hex" -i - -o - <"$A/p3145733" | "$V" open $alg -k "$A/k" -i - -o - | cmp -s - "$A/p3145733"
    check "$alg: seal and open through pipes (--hex key)" [ $? = 0 ]
    "$V" seal $alg -k - -i "$A/p1" -o "$A/c" <"$A/k"
    check "$alg: the key on standard input" [ "$("$V" open $alg -k "$A/k" -i "$A/c" -o - | od -An -tx1)" = "$(od -An -tx1 "$A/p1")" ]
    # Each variant: portable seal, dispatched open and the reverse.
    VG_CPU_FEATURES=none "$V" seal $alg -k "$A/k" -i "$A/p131072" -o "$A/c" --ad "$A/ad"
    "$V" open $alg -k "$A/k" -i "$A/c" -o "$A/q" --ad "$A/ad"
    check "$alg: portable seal, dispatched open" cmp -s "$A/p131072" "$A/q"
    "$V" seal $alg -k "$A/k" -i "$A/p131072" -o "$A/c" --ad "$A/ad"
    VG_CPU_FEATURES=none "$V" open $alg -k "$A/k" -i "$A/c" -o "$A/q" --ad "$A/ad"
    check "$alg: dispatched seal, portable open" cmp -s "$A/p131072" "$A/q"

    # Tampering: one bit anywhere gives exit 1, one line, nothing on
    # standard output, no new output file and an existing one unchanged.
    "$V" seal $alg -k "$A/k" -i "$A/p3145733" -o "$A/big.c" --ad "$A/ad"
    "$V" seal $alg -k "$A/k" -i "$A/p1" -o "$A/one.c" --ad "$A/ad"
    bn=$(stat -c %s "$A/big.c")
    printf 'old output' >"$A/keep"; cp "$A/keep" "$A/keep.orig"
    for spec in one.c:0 one.c:$((nl - 1)) one.c:$nl one.c:$((nl + 1)) one.c:$((nl + 16)) \
        big.c:0 big.c:$nl big.c:$((nl + 65535)) big.c:$((nl + 65536)) big.c:$((bn - 17)) \
        big.c:$((bn - 16)) big.c:$((bn - 1)); do
        f=${spec%%:*}; off=${spec#*:}
        flip "$A/$f" $off >"$A/x"
        rm -f "$A/new"
        reject_case "$alg open: bit flipped at $off of $f" \
            "$V" open $alg -k "$A/k" -i "$A/x" -o "$A/new" --ad "$A/ad"
        check "$alg open: flipped $f:$off writes no output" [ ! -e "$A/new" ]
        reject_case "$alg open: bit flipped at $off of $f, existing output" \
            "$V" open $alg -k "$A/k" -i "$A/x" -o "$A/keep" --ad "$A/ad"
        check "$alg open: flipped $f:$off leaves the old output" cmp -s "$A/keep" "$A/keep.orig"
        reject_case "$alg open: bit flipped at $off of $f, to standard output" \
            "$V" open $alg -k "$A/k" -i "$A/x" -o - --ad "$A/ad"
        [ -z "$REF" ] || check "$alg: libsodium rejects $f:$off too" [ "$("$REF" open $alg "$A/k" "$A/x" "$A/r" "$A/ad"; echo $?)" = 1 ]
    done
    flip "$A/ad" 3 >"$A/adx"
    reject_case "$alg open: AD bit flipped" "$V" open $alg -k "$A/k" -i "$A/big.c" -o "$A/keep" --ad "$A/adx"
    reject_case "$alg open: AD missing" "$V" open $alg -k "$A/k" -i "$A/one.c" -o "$A/keep"
    reject_case "$alg open: AD given when sealed without" "$V" open $alg -k "$A/k" -i "$A/c2" -o "$A/keep" --ad "$A/ad"
    reject_case "$alg open: wrong key" "$V" open $alg -k "$A/k2" -i "$A/big.c" -o "$A/keep" --ad "$A/ad"
    check "$alg open: the old output survived every rejection" cmp -s "$A/keep" "$A/keep.orig"
    # Truncated files: too short for nonce and tag (by size, and through a
    # pipe, where only reading tells), or short by a byte (a wrong tag).
    for cut in 0 1 $((nl - 1)) $nl $((nl + 15)); do
        head -c $cut "$A/one.c" >"$A/x"
        reject_case "$alg open: truncated to $cut bytes" "$V" open $alg -k "$A/k" -i "$A/x" -o "$A/new"
        reject_case "$alg open: truncated to $cut bytes, through a pipe" \
            sh -c '"$1" open "$2" -k "$3" -i - -o "$4" <"$5"' sh "$V" $alg "$A/k" "$A/new" "$A/x"
    done
    head -c $((bn - 1)) "$A/big.c" >"$A/x"
    reject_case "$alg open: last byte cut" "$V" open $alg -k "$A/k" -i "$A/x" -o "$A/new" --ad "$A/ad"
    head -c $((nl + 16)) "$A/big.c" >"$A/x"
    reject_case "$alg open: only nonce and 16 bytes left" "$V" open $alg -k "$A/k" -i "$A/x" -o "$A/new" --ad "$A/ad"
    check "$alg open: no output after any truncation" [ ! -e "$A/new" ]
    # A zero-length ciphertext is a valid file: nonce || tag opens to "".
    "$V" seal $alg -k "$A/k" -i "$A/p0" -o "$A/c"
    printf 'x' >"$A/q"
    "$V" open $alg -k "$A/k" -i "$A/c" -o "$A/q"
    check "$alg open: the empty message replaces the output" [ "$? $(stat -c %s "$A/q")" = "0 0" ]
    # Key files of the wrong length or encoding: exit 1, nothing written.
    head -c 31 "$A/k" >"$A/k31"; { cat "$A/k"; printf x; } >"$A/k33"
    for cmd in seal open; do
        reject_case "$alg $cmd: 31-byte key" "$V" $cmd $alg -k "$A/k31" -i "$A/one.c" -o "$A/new"
        reject_case "$alg $cmd: 33-byte key" "$V" $cmd $alg -k "$A/k33" -i "$A/one.c" -o "$A/new"
        reject_case "$alg $cmd: hex key read raw" "$V" $cmd $alg -k "$A/k.hex" -i "$A/one.c" -o "$A/new"
        reject_case "$alg $cmd: raw key read as hex" "$V" $cmd $alg --hex -k "$A/k" -i "$A/one.c" -o "$A/new"
    done
    check "$alg: no output after a bad key" [ ! -e "$A/new" ]
done
# Unauthenticated plaintext never reaches a stream: a FIFO reader sees
# nothing for a wrong tag, the plaintext for a right one.
mkfifo "$A/fifo"
flip "$A/big.c" 100 >"$A/x"
cat "$A/fifo" >"$A/fromfifo" &
reject_case "open to a FIFO, wrong tag" "$V" open xchacha20-poly1305 -k "$A/k" -i "$A/x" -o "$A/fifo" --ad "$A/ad"
wait
check "... the FIFO's reader got nothing" [ ! -s "$A/fromfifo" ]
cat "$A/fifo" >"$A/fromfifo" &
"$V" open xchacha20-poly1305 -k "$A/k" -i "$A/big.c" -o "$A/fifo" --ad "$A/ad"
wait
check "open to a FIFO, right tag: the plaintext" cmp -s "$A/fromfifo" "$A/p3145733"
# The in-memory limit for outputs written directly (64 MiB): a larger
# regular input is refused by its size before anything is read, a pipe
# when the limit is passed; nothing reaches standard output either way.
truncate -s $((64 * 1048576 + 12 + 16 + 1)) "$A/huge"
error_case "open of more than 64 MiB to standard output (by size)" \
    "$V" open chacha20-poly1305 -k "$A/k" -i "$A/huge" -o -
head -c $((64 * 1048576 + 12 + 16 + 1)) /dev/zero >"$A/huge"
error_case "open of more than 64 MiB to standard output (a pipe)" \
    sh -c '"$1" open chacha20-poly1305 -k "$2" -i - -o - <"$3"' sh "$V" "$A/k" "$A/huge"
reject_case "... to a regular file it is only a wrong tag" \
    "$V" open chacha20-poly1305 -k "$A/k" -i "$A/huge" -o "$A/new"
rm -f "$A/huge"
# RFC 8439 2.8's limit (2^38 - 64 bytes of plaintext), checked by size on
# a sparse file before anything is read.
if truncate -s $(( (1 << 38) - 64 + 1 )) "$A/toolong" 2>/dev/null; then
    error_case "seal of 2^38 - 63 bytes" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/toolong" -o "$A/new"
    truncate -s $(( (1 << 38) - 64 + 12 + 16 + 1 )) "$A/toolong"
    reject_case "open of a ciphertext of 2^38 - 63 bytes" \
        "$V" open chacha20-poly1305 -k "$A/k" -i "$A/toolong" -o "$A/new"
    rm -f "$A/toolong"
fi
# Same file and usage errors: exit 2, nothing read or written.
cp "$A/p65" "$A/self"; cp "$A/self" "$A/self.orig"; ln "$A/self" "$A/self.hl"; ln -s self "$A/self.sl"
for out in "$A/self" "$A/./self" "$A/self.hl" "$A/self.sl"; do
    error_case "seal in place refused (-o ${out#$A/})" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/self" -o "$out"
done
"$V" seal chacha20-poly1305 -k "$A/k" -i "$A/self" -o "$A/self.c"
error_case "open in place refused" "$V" open chacha20-poly1305 -k "$A/k" -i "$A/self.c" -o "$A/self.c"
error_case "seal onto the key refused" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/self" -o "$A/k"
error_case "seal onto the AD refused" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/self" -o "$A/ad" --ad "$A/ad"
check "in place refusals changed nothing" cmp -s "$A/self" "$A/self.orig"
error_case "seal: key and input both standard input" "$V" seal chacha20-poly1305 -k - -i - -o "$A/new"
error_case "seal without algorithm" "$V" seal -k "$A/k" -i "$A/self" -o "$A/new"
error_case "open unknown algorithm" "$V" open aes-256-gcm -k "$A/k" -i "$A/self.c" -o "$A/new"
error_case "seal without -k" "$V" seal chacha20-poly1305 -i "$A/self" -o "$A/new"
error_case "seal without -o" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/self"
error_case "open without -i" "$V" open chacha20-poly1305 -k "$A/k" -o "$A/new"
error_case "seal -k twice" "$V" seal chacha20-poly1305 -k "$A/k" -k "$A/k" -i "$A/self" -o "$A/new"
error_case "open --ad twice" "$V" open chacha20-poly1305 -k "$A/k" --ad "$A/ad" --ad "$A/ad" -i "$A/self.c" -o "$A/new"
error_case "open --hex twice" "$V" open chacha20-poly1305 --hex --hex -k "$A/k.hex" -i "$A/self.c" -o "$A/new"
error_case "seal missing input" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/nonexistent" -o "$A/new"
error_case "seal directory input" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A" -o "$A/new"
error_case "seal missing AD" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/self" -o "$A/new" --ad "$A/nonexistent"
error_case "seal into a missing directory" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/self" -o "$A/nodir/x"
truncate -s $((16 * 1048576 + 1)) "$A/adbig"
error_case "seal with AD over 16 MiB" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/self" -o "$A/new" --ad "$A/adbig"
error_case "seal extra argument" "$V" seal chacha20-poly1305 extra -k "$A/k" -i "$A/self" -o "$A/new"
check "usage errors wrote no output" [ ! -e "$A/new" ]
if [ $HAVE_MKNOD = 1 ]; then
    error_case "seal to a /dev/full copy" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/p3145733" -o "$F/full"
    error_case "open to a /dev/full copy" "$V" open chacha20-poly1305 -k "$A/k" -i "$A/self.c" -o "$F/full"
fi
full_case "seal -o - > /dev/full" "$V" seal chacha20-poly1305 -k "$A/k" -i "$A/self" -o -
full_case "open -o - > /dev/full" "$V" open chacha20-poly1305 -k "$A/k" -i "$A/self.c" -o -
"$V" open chacha20-poly1305 -k "$A/k" -i "$A/self.c" -o "$A/mode"
check "open's output has mode 0600" [ "$(stat -c %a "$A/mode")" = 600 ]
check "seal and open left no temporary" [ "$(vg_tmps "$A")" = 0 ]
rm -rf "$A"

# ---- usage errors and unreadable inputs: exit 2, one line ----------------
error_case "no command" "$V"
error_case "unknown command" "$V" frobnicate
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
error_case "speed --samples twice" "$V" speed sha256 --samples 11 --samples 21
error_case "speed --json twice" "$V" speed sha256 --json --json
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
names = [r["operation"] for r in rows]
# the two headline rows, then one 16 KiB row per SHA-256 variant this CPU runs
assert names[:2] == ["sha256-64", "sha256-16k"], rows
assert "sha256-16k/portable" in names[2:], rows
assert all(n.startswith("sha256-16k/") for n in names[2:]), rows
for r in rows:
    assert r["ours"] > 0
    if sys.argv[2] == "1":
        assert r["openssl"] > 0 and r["ours_openssl"] > 0, r
    if sys.argv[3] == "1":
        assert r["libsodium"] > 0 and r["ours_libsodium"] > 0, r
' "$T/out" "$([ -e /usr/lib/x86_64-linux-gnu/libcrypto.so.3 ] && echo 1)" \
        "$([ -e /usr/lib/x86_64-linux-gnu/libsodium.so.23 ] && echo 1)"
else
    check "speed --json has the sha256 rows" grep -q '"sha256-16k/portable"' "$T/out"
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
"$V" speed ed25519 --json --samples 21 >"$T/out" 2>"$T/err"
check "speed ed25519 --json rc 0 (peers agree)" [ $? = 0 ]
check "speed ed25519 --json silent on stderr" [ ! -s "$T/err" ]
if command -v python3 >/dev/null; then
    check "speed ed25519 --json has the three ed25519 rows" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
names = [r["operation"] for r in rows]
assert names[:3] == ["ed25519-keypair", "ed25519-sign", "ed25519-verify"], names
assert all(n.startswith("ed25519") for n in names), names
assert "ed25519ph-sign" in names and "ed25519ph-verify" in names, names
for r in rows:
    assert r["ours"] > 0, r
    if r["operation"].startswith("ed25519ph"):
        continue  # no peer has Ed25519ph here (OpenSSL 3.0 lacks it; issue 21)
    if sys.argv[2] == "1":
        assert r["openssl"] > 0 and r["ours_openssl"] > 0, r
    if sys.argv[3] == "1":
        assert r["libsodium"] > 0 and r["ours_libsodium"] > 0, r
' "$T/out" "$([ -e /usr/lib/x86_64-linux-gnu/libcrypto.so.3 ] && echo 1)" \
        "$([ -e /usr/lib/x86_64-linux-gnu/libsodium.so.23 ] && echo 1)"
else
    check "speed ed25519 --json has the three ed25519 rows" [ "$(grep -c '"operation": "ed25519-[ksv][a-z]*"' "$T/out")" = 3 ]
fi
impl=$("$V" cpu | awk '$1 == "ed25519" { print $2 }')
check "speed has a row for the active ed25519 verify variant ($impl)" \
    grep -q "\"operation\": \"ed25519-verify/$impl\"" "$T/out"
VG_CPU_FEATURES=none "$V" speed x25519 --samples 11 >"$T/out" 2>"$T/err"
check "speed x25519 with VG_CPU_FEATURES=none: portable rows only" \
    [ "$(grep -c '^x25519' "$T/out"):$(grep -c '/adx\|/ifma' "$T/out")" = 4:0 ]
VG_SPEED_NO_PEERS=1 "$V" speed --samples 21 >"$T/out" 2>"$T/err"
check "speed without peers rc 0" [ $? = 0 ]
check "speed without peers: header" grep -q 'openssl: not loaded; libsodium: not loaded' "$T/out"
check "speed without peers: sha3 row" grep -Eq '^sha3-256-16k +[0-9.]+ +- +- +- +-$' "$T/out"
check "speed without peers: x25519 row, ours only" grep -Eq '^x25519 +[0-9.]+ +- +- +- +-$' "$T/out"
check "speed without peers: all hash rows" \
    [ "$(grep -cE -- '^(sha256|sha512|sha3-256)-(64|16k) |^shake(128|256)-16k ' "$T/out")" = 8 ]
check "speed without peers: ed25519 rows, ours only" \
    [ "$(grep -Ec '^ed25519-(keypair|sign|verify) +[0-9.]+ +- +- +- +-$' "$T/out")" = 3 ]
# ML-KEM rows: ours only (no peer has ML-KEM), the forced-variant rows, and
# the footnote scaling each row by libsodium's X25519 measured in the run.
"$V" speed ml-kem-768 --samples 11 >"$T/out" 2>"$T/err"
check "speed ml-kem-768 rc 0" [ $? = 0 ]
check "speed ml-kem-768: three rows, ours only" \
    [ "$(grep -Ec '^ml-kem-768-(keypair|encaps|decaps) +[0-9.]+ +- +- +- +-$' "$T/out")" = 3 ]
check "speed ml-kem-768: portable rows" \
    [ "$(grep -Ec '^ml-kem-768-(keypair|encaps|decaps)/portable +[0-9.]+ ' "$T/out")" = 3 ]
if [ -e /usr/lib/x86_64-linux-gnu/libsodium.so.23 ]; then
    check "speed ml-kem-768: yardstick footnote" \
        grep -Eq '^# ML-KEM rows / libsodium X25519 \(crypto_scalarmult, [0-9]+ ' "$T/out"
    check "speed ml-kem-768: a ratio per row" \
        [ "$(grep -Ec '^#   ml-kem-768-[a-z/0-9]+ +[0-9]+\.[0-9]{3}$' "$T/out")" = "$(grep -c '^ml-kem-768' "$T/out")" ]
fi
VG_CPU_FEATURES=none "$V" speed ml-kem-1024 --samples 11 >"$T/out" 2>"$T/err"
check "speed ml-kem-1024 with VG_CPU_FEATURES=none: no /avx2 rows" \
    [ "$(grep -c '^ml-kem-1024' "$T/out"):$(grep -c '^ml-kem-1024-[a-z]*/avx2' "$T/out")" = 6:0 ]
VG_SPEED_NO_PEERS=1 "$V" speed ml-kem-512-decaps --json --samples 11 >"$T/out" 2>"$T/err"
check "speed ml-kem without peers: null yardstick in JSON" \
    grep -q '"sodium_x25519": null, "ours_per_sodium_x25519": null' "$T/out"
# ML-DSA rows: ours only, the forced-variant rows, the yardstick footnote,
# and the sign rows over many messages with the mean beside the median.
"$V" speed ml-dsa-44 --samples 11 >"$T/out" 2>"$T/err"
check "speed ml-dsa-44 rc 0" [ $? = 0 ]
check "speed ml-dsa-44: three rows, ours only" \
    [ "$(grep -Ec '^ml-dsa-44-(keypair|sign|verify) +[0-9.]+ +- +- +- +-$' "$T/out")" = 3 ]
check "speed ml-dsa-44: portable rows" \
    [ "$(grep -Ec '^ml-dsa-44-(keypair|sign|verify)/portable +[0-9.]+ ' "$T/out")" = 3 ]
check "speed ml-dsa-44: median and mean for every sign row" \
    [ "$(grep -Ec '^#   ml-dsa-44-sign(/[a-z0-9]+)? +N = 11 +median +[0-9]+ +mean +[0-9]+ ' "$T/out")" = "$(grep -c '^ml-dsa-44-sign' "$T/out")" ]
if [ -e /usr/lib/x86_64-linux-gnu/libsodium.so.23 ]; then
    check "speed ml-dsa-44: yardstick footnote" \
        grep -Eq '^# ML-DSA rows / libsodium X25519 \(crypto_scalarmult, [0-9]+ ' "$T/out"
    check "speed ml-dsa-44: a ratio per row" \
        [ "$(grep -Ec '^#   ml-dsa-44-[a-z/0-9]+ +[0-9]+\.[0-9]{3}$' "$T/out")" = "$(grep -c '^ml-dsa-44' "$T/out")" ]
fi
VG_CPU_FEATURES=none "$V" speed ml-dsa-65 --samples 11 >"$T/out" 2>"$T/err"
check "speed ml-dsa-65 with VG_CPU_FEATURES=none: no /avx2 rows" \
    [ "$(grep -c '^ml-dsa-65' "$T/out"):$(grep -c '^ml-dsa-65-[a-z]*/avx2' "$T/out")" = 6:0 ]
VG_SPEED_NO_PEERS=1 "$V" speed ml-dsa-87-sign --json --samples 13 >"$T/out" 2>"$T/err"
check "speed ml-dsa-87-sign --json rc 0, silent" [ "$?:$(wc -c <"$T/err")" = 0:0 ]
if command -v python3 >/dev/null; then
    check "speed ml-dsa-87-sign --json: median, mean over 13 messages, null yardstick" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert rows and all(r["operation"].startswith("ml-dsa-87-sign") for r in rows), rows
for r in rows:
    assert r["ours"] > 0 and r["ours_mean"] > 0 and r["inputs"] == 13, r
    assert r["sodium_x25519"] is None and r["ours_per_sodium_x25519"] is None, r
    assert r["ours_mean_per_sodium_x25519"] is None, r
' "$T/out"
fi
"$V" speed shake --samples 21 >"$T/out" 2>"$T/err"
check "speed prefix filter" [ "$(grep -c '^shake' "$T/out"):$(grep -c '^sha' "$T/out")" = 2:2 ]

# ---- issue 17: hybrid KEMs, PEM/DER keys, pkey ------------------------------
# X-Wing and X25519MLKEM768 round trips and sizes; keygen --pem/--der read by
# OpenSSL 3.0 (`openssl pkey`) for X25519 and Ed25519, and OpenSSL's keys read
# by us; pkey conversions against the LAMPS example files; the rejections.
mkdir "$T/h17"
H=$T/h17
"$V" keygen x-wing -s "$H/xw.sk" -p "$H/xw.pk"
check "keygen x-wing rc 0, sizes 32 1216, mode 0600" \
    [ "$?:$(stat -c %s "$H/xw.sk" "$H/xw.pk" | tr '\n' ' '):$(stat -c %a "$H/xw.sk")" = "0:32 1216 :600" ]
"$V" encaps x-wing -p "$H/xw.pk" -c "$H/xw.ct" -k "$H/xw.ss1" &&
    "$V" decaps x-wing -s "$H/xw.sk" -c "$H/xw.ct" -k "$H/xw.ss2"
check "x-wing encaps/decaps agree, sizes 1120 32" \
    [ "$?:$(stat -c %s "$H/xw.ct" "$H/xw.ss1" | tr '\n' ' ')" = "0:1120 32 " ]
check "x-wing shared secrets equal" cmp -s "$H/xw.ss1" "$H/xw.ss2"
"$V" keygen x-wing --pem -s "$H/xw.key" -p "$H/xw.pub"
check "keygen x-wing --pem: PKCS#8 and SPKI" \
    [ "$?:$(head -1 "$H/xw.key"):$(head -1 "$H/xw.pub")" = "0:-----BEGIN PRIVATE KEY-----:-----BEGIN PUBLIC KEY-----" ]
"$V" encaps x-wing -p "$H/xw.pub" -c "$H/xw.ct" -k "$H/xw.ss1" &&
    "$V" decaps x-wing -s "$H/xw.key" -c "$H/xw.ct" -k "$H/xw.ss2"
check "x-wing with PEM key files" [ $? = 0 ] && check "x-wing PEM secrets equal" cmp -s "$H/xw.ss1" "$H/xw.ss2"
"$V" pkey -i "$H/xw.key" -o "$H/xw.der" --der && "$V" decaps x-wing -s "$H/xw.der" -c "$H/xw.ct" -k "$H/xw.ss3"
check "x-wing with a DER secret key" cmp -s "$H/xw.ss1" "$H/xw.ss3"
for hyb in x25519-mlkem768 x25519mlkem768; do
    "$V" keygen $hyb -s "$H/h.sk" -p "$H/h.pk" &&
        "$V" encaps $hyb -p "$H/h.pk" -c "$H/h.ct" -k "$H/h.ss1" &&
        "$V" decaps $hyb -s "$H/h.sk" -c "$H/h.ct" -k "$H/h.ss2"
    check "$hyb round trip, sizes 2432 1216 1120 64" \
        [ "$?:$(stat -c %s "$H/h.sk" "$H/h.pk" "$H/h.ct" "$H/h.ss1" | tr '\n' ' ')" = "0:2432 1216 1120 64 " ]
    check "$hyb shared secrets equal" cmp -s "$H/h.ss1" "$H/h.ss2"
done
# The share layout: the ML-KEM part first (its ek is the first 1184 bytes of
# the public key, checked by ML-KEM-768 encapsulation to it alone).
head -c 1184 "$H/h.pk" >"$H/h.ek"
"$V" encaps ml-kem-768 -p "$H/h.ek" -c "$H/m.ct" -k "$H/m.ss"
check "x25519-mlkem768 public key starts with an ML-KEM-768 ek" [ $? = 0 ]
# Rejections: an X25519 share of small order (u = 0), an ML-KEM ek with a
# coefficient >= q, a small-order server share; --pem for the TLS hybrid.
{ head -c 1184 "$H/h.pk"; head -c 32 /dev/zero; } >"$H/h0.pk"
reject_case "x25519-mlkem768 encaps, X25519 share of small order" \
    "$V" encaps x25519-mlkem768 -p "$H/h0.pk" -c "$H/r.ct" -k "$H/r.ss"
check "nothing written after the rejection" [ ! -e "$H/r.ct" ] && check "no shared secret" [ ! -e "$H/r.ss" ]
{ printf '\377\377'; tail -c +3 "$H/xw.pk"; } >"$H/xwbad.pk"
reject_case "x-wing encaps, ML-KEM ek coefficient >= q" \
    "$V" encaps x-wing -p "$H/xwbad.pk" -c "$H/r.ct" -k "$H/r.ss"
{ head -c 1088 "$H/h.ct"; head -c 32 /dev/zero; } >"$H/h0.ct"
reject_case "x25519-mlkem768 decaps, server share of small order" \
    "$V" decaps x25519-mlkem768 -s "$H/h.sk" -c "$H/h0.ct" -k "$H/r.ss"
error_case "keygen x25519-mlkem768 --pem (no encoding)" \
    "$V" keygen x25519-mlkem768 --pem -s "$H/n.sk" -p "$H/n.pk"
error_case "keygen --pem --der" "$V" keygen x25519 --pem --der -s "$H/n.sk" -p "$H/n.pk"
reject_case "x-wing decaps, secret key file of 31 bytes" \
    "$V" decaps x-wing -s <(head -c 31 "$H/xw.sk") -c "$H/xw.ct" -k "$H/r.ss"
# OpenSSL reads our X25519 / Ed25519 files (PEM and DER) and derives the same
# public keys; we read OpenSSL's.
for alg in x25519 ed25519; do
    for f in pem der; do
        "$V" keygen $alg --$f -s "$H/$alg.$f.key" -p "$H/$alg.$f.pub"
        check "keygen $alg --$f rc 0" [ $? = 0 ]
        F=$(echo $f | tr a-z A-Z)
        openssl pkey -inform $F -in "$H/$alg.$f.key" -pubout -outform $F -out "$H/o.pub" 2>/dev/null
        check "openssl pkey reads our $alg $f key, same public key" cmp -s "$H/o.pub" "$H/$alg.$f.pub"
        openssl pkey -inform $F -in "$H/$alg.$f.key" -text -noout >"$H/o.txt" 2>/dev/null
        check "openssl pkey -text on our $alg $f key" grep -qi "private-key" "$H/o.txt"
        openssl pkey -pubin -inform $F -in "$H/$alg.$f.pub" -outform $F -pubout -out "$H/o2.pub" 2>/dev/null
        check "openssl reads our $alg $f public key" cmp -s "$H/o2.pub" "$H/$alg.$f.pub"
    done
    openssl genpkey -algorithm $alg -out "$H/o.key" 2>/dev/null
    openssl pkey -in "$H/o.key" -pubout -out "$H/o.pub" 2>/dev/null
    "$V" pkey -i "$H/o.key" -o "$H/our.pub" --pubout
    check "pkey --pubout of OpenSSL's $alg key = OpenSSL's public key" cmp -s "$H/our.pub" "$H/o.pub"
    "$V" pkey -i "$H/o.key" -o "$H/our.key"
    check "pkey re-encodes OpenSSL's $alg key byte for byte" cmp -s "$H/our.key" "$H/o.key"
    openssl pkey -in "$H/o.key" -outform DER -out "$H/o.der" 2>/dev/null
    "$V" pkey -i "$H/o.der" -o "$H/our.der" --der
    check "pkey reads OpenSSL's $alg DER key" cmp -s "$H/our.der" "$H/o.der"
done
# Ed25519: raw (the library's seed || public key) to PEM and back, and the
# signature of the converted key verified by OpenSSL.
"$V" keygen ed25519 -s "$H/e.sk" -p "$H/e.pk"
"$V" pkey ed25519 -i "$H/e.sk" -o "$H/e.pem" && "$V" pkey -i "$H/e.pem" -o "$H/e.raw" --raw
check "pkey ed25519 raw -> PEM -> raw" cmp -s "$H/e.sk" "$H/e.raw"
openssl pkey -in "$H/e.pem" -pubout -outform DER 2>/dev/null | tail -c 32 >"$H/e.opk"
check "OpenSSL's public key of the converted Ed25519 key" cmp -s "$H/e.opk" "$H/e.pk"
# ML-KEM / ML-DSA: the LAMPS example files convert between their forms.
if [ -n "$VEC" ] && [ -d "$VEC/lamps" ]; then
    for k in ML-KEM-512 ML-KEM-768 ML-KEM-1024 ML-DSA-44 ML-DSA-65 ML-DSA-87; do
        case $k in ML-KEM*) d=ml-kem ;; *) d=ml-dsa ;; esac
        L=$VEC/lamps/$d
        "$V" pkey -i "$L/$k-seed.priv" -o "$H/l.both" --form both
        check "pkey $k seed -> both = the document's" cmp -s "$H/l.both" "$L/$k-both.priv"
        "$V" pkey -i "$L/$k-both.priv" -o "$H/l.exp" --form expanded
        check "pkey $k both -> expanded = the document's" cmp -s "$H/l.exp" "$L/$k-expanded.priv"
        "$V" pkey -i "$L/$k-seed.priv" -o "$H/l.pub" --pubout
        check "pkey $k --pubout = the document's" cmp -s "$H/l.pub" "$L/$k.pub"
    done
    reject_case "pkey ML-KEM-512 inconsistent both" \
        "$V" pkey -i "$L/../ml-kem/bad-ML-KEM-512-1.priv" -o "$H/r.key"
    reject_case "pkey ML-DSA expanded-only --pubout (cannot derive)" \
        "$V" pkey -i "$VEC/lamps/ml-dsa/ML-DSA-44-expanded.priv" -o "$H/r.pub" --pubout
    "$V" pkey -i "$VEC/lamps/ml-kem/ML-KEM-768-expanded.priv" -o "$H/l.dk" --raw
    check "pkey ML-KEM-768 expanded -> raw dk of 2400 bytes" [ "$(stat -c %s "$H/l.dk")" = 2400 ]
    reject_case "pkey expanded -> --form both (no seed)" \
        "$V" pkey -i "$VEC/lamps/ml-kem/ML-KEM-768-expanded.priv" -o "$H/r.key" --form both
fi
reject_case "pkey of a file that is no key" "$V" pkey -i "$H/xw.ct" -o "$H/r.key"
error_case "pkey --pem --der" "$V" pkey -i "$H/xw.key" -o "$H/r.key" --pem --der
error_case "pkey --form bad" "$V" pkey -i "$H/xw.key" -o "$H/r.key" --form bad
check "pkey failures wrote nothing" [ ! -e "$H/r.key" ] && check "no public key either" [ ! -e "$H/r.pub" ]
# ML-KEM with PEM and DER key files (seed-form PKCS#8, SPKI) and raw ones agree.
"$V" keygen ml-kem-768 --pem -s "$H/k.key" -p "$H/k.pub" &&
    "$V" encaps ml-kem-768 -p "$H/k.pub" -c "$H/k.ct" -k "$H/k.ss1" &&
    "$V" decaps ml-kem-768 -s "$H/k.key" -c "$H/k.ct" -k "$H/k.ss2"
check "ml-kem-768 with PEM key files" [ $? = 0 ] && check "ml-kem-768 PEM secrets equal" cmp -s "$H/k.ss1" "$H/k.ss2"
"$V" pkey -i "$H/k.key" -o "$H/k.dk" --raw && "$V" decaps ml-kem-768 -s "$H/k.dk" -c "$H/k.ct" -k "$H/k.ss3"
check "ml-kem-768 raw dk from pkey gives the same secret" cmp -s "$H/k.ss1" "$H/k.ss3"
"$V" pkey -i "$H/k.key" -o "$H/k.der" --der --form both && "$V" decaps ml-kem-768 -s "$H/k.der" -c "$H/k.ct" -k "$H/k.ss4"
check "ml-kem-768 with a DER (both) secret key" cmp -s "$H/k.ss1" "$H/k.ss4"
reject_case "ml-kem-512 decaps with an ML-KEM-768 PEM key" \
    "$V" decaps ml-kem-512 -s "$H/k.key" -c "$H/k.ct" -k "$H/r.ss"
# The speed rows of issue 17 exist and run (11 samples, the least: a functional check, no
# figure is looked at).
VG_SPEED_NO_PEERS=1 "$V" speed x-wing tls-x25519mlkem768 pkcs8 ml-kem-768-keypair x25519-public-key \
    --samples 11 >"$T/out" 2>"$T/err"
check "speed hybrid rows rc 0, twelve rows" \
    [ "$?:$(grep -Ec '^(x-wing|tls-x25519mlkem768|pkcs8-decode|pkcs8-load)-[a-z0-9-]+ +[0-9]' "$T/out")" = 0:12 ]
# ... and the issue 17 footnote gives the ratio of each row whose components ran.
check "speed issue 17 ratios" grep -Eq '^#   x-wing-keypair +[0-9.]+ vs components +[0-9]+ +[0-9.]+ \(ml-kem-768-keypair \+ x25519-public-key\)' "$T/out"
# ---- sign / verify: HashML-DSA, Ed25519ph, Ed25519ctx, files of any size (issue 21) ----
# Messages are streamed in 1 MiB chunks; the 3 GiB cases are the "long" test
# (tests/test_cli_long.sh). Here: RFC 8032 7.2 / 7.3 vectors through the
# command, --prehash for every hash the CLI offers, streamed and piped
# messages across chunk boundaries against OpenSSL (Ed25519) and against the
# same bytes given another way (ML-DSA), and the option rules.
mkdir "$T/s21"
S=$T/s21
head -c 3145745 /dev/urandom >"$S/m3" # 3 MiB + 17: four chunks, the last partial
head -c 1048576 /dev/urandom >"$S/m1" # exactly one chunk
# RFC 8032 7.2 "foo" (Ed25519ctx) and 7.3 "abc" (Ed25519ph).
CTX_SEED=0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6
CTX_PK=dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292
CTX_SIG=55a4cc2f70a54e04288c5f4cd1e45a7bb520b36292911876cada7323198dd87a8b36950b95130022907a7fb7c4e9b2d5f6cca685a587b4b21f4b888e4e7edb0d
PH_SEED=833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42
PH_PK=ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf
PH_SIG=98a70222f0b8121aa9d30f813d683f809e462b469c7ff87639499bb94e6dae4131f85042463c2a355a2003d062adf5aaa10b8c61e636062aaad11c2a26083406
unhex $CTX_SEED$CTX_PK >"$S/ctx.sk"; unhex $CTX_PK >"$S/ctx.pk"; unhex $CTX_SIG >"$S/ctx.sig"
unhex f726936d19c800494e3fdaff20b276a8 >"$S/ctx.m"
unhex $PH_SEED$PH_PK >"$S/ph.sk"; unhex $PH_PK >"$S/ph.pk"; unhex $PH_SIG >"$S/ph.sig"
printf 'abc' >"$S/ph.m"
"$V" sign ed25519 --ctx foo -s "$S/ctx.sk" -i "$S/ctx.m" -o "$S/o"
check "sign ed25519 --ctx foo: RFC 8032 7.2 signature" cmp -s "$S/o" "$S/ctx.sig"
check "verify ed25519 --ctx foo: RFC 8032 7.2" verify_ok ed25519 --ctx foo -p "$S/ctx.pk" -i "$S/ctx.m" -S "$S/ctx.sig"
reject_case "verify ed25519 --ctx bar of the foo vector" \
    "$V" verify ed25519 --ctx bar -p "$S/ctx.pk" -i "$S/ctx.m" -S "$S/ctx.sig"
reject_case "verify ed25519 (pure) of the Ed25519ctx vector" \
    "$V" verify ed25519 -p "$S/ctx.pk" -i "$S/ctx.m" -S "$S/ctx.sig"
"$V" sign ed25519 --ctx foo -s "$S/ctx.sk" -i - -o "$S/o" <"$S/ctx.m"
check "sign ed25519 --ctx from a pipe: the same signature" cmp -s "$S/o" "$S/ctx.sig"
"$V" sign ed25519 --ph -s "$S/ph.sk" -i "$S/ph.m" -o "$S/o"
check "sign ed25519 --ph: RFC 8032 7.3 signature" cmp -s "$S/o" "$S/ph.sig"
check "verify ed25519 --ph: RFC 8032 7.3" verify_ok ed25519 --ph -p "$S/ph.pk" -i "$S/ph.m" -S "$S/ph.sig"
check "verify ed25519 --ph --context '': the empty context" \
    verify_ok ed25519 --ph --context "" -p "$S/ph.pk" -i - -S "$S/ph.sig" <"$S/ph.m"
reject_case "verify ed25519 --ph --context x of the 7.3 vector" \
    "$V" verify ed25519 --ph --context x -p "$S/ph.pk" -i "$S/ph.m" -S "$S/ph.sig"
reject_case "verify ed25519 (pure) of the Ed25519ph vector" \
    "$V" verify ed25519 -p "$S/ph.pk" -i "$S/ph.m" -S "$S/ph.sig"
"$V" keygen ed25519 -s "$S/e.sk" -p "$S/e.pk"
for m in m3 m1; do
    "$V" sign ed25519 -s "$S/e.sk" -i "$S/$m" -o "$S/e.$m"
    check "sign ed25519 $m (streamed, two passes) = OpenSSL" \
        [ "$(hexof "$S/e.$m")" = "$(ossl_ed_sign "$S/e.sk" "$S/$m")" ]
    "$V" sign ed25519 -s "$S/e.sk" -i - -o "$S/p.$m" <"$S/$m"
    check "sign ed25519 $m from a pipe (held in memory): the same" cmp -s "$S/p.$m" "$S/e.$m"
    check "verify ed25519 $m streamed" verify_ok ed25519 -p "$S/e.pk" -i "$S/$m" -S "$S/e.$m"
    check "verify ed25519 $m from a pipe" verify_ok ed25519 -p "$S/e.pk" -i - -S "$S/e.$m" <"$S/$m"
    check "verify ed25519 --cofactored $m" verify_ok ed25519 --cofactored -p "$S/e.pk" -i "$S/$m" -S "$S/e.$m"
done
cp "$S/m3" "$S/m3x"
printf '\001' | dd of="$S/m3x" bs=1 seek=3145744 conv=notrunc status=none # the last byte
reject_case "verify ed25519: last byte of the 3 MiB message changed" \
    "$V" verify ed25519 -p "$S/e.pk" -i "$S/m3x" -S "$S/e.m3"
"$V" sign ed25519 --ph --context ctx-1 -s "$S/e.sk" -i "$S/m3" -o "$S/ph.m3"
check "ed25519 --ph --context round trip (3 MiB)" \
    verify_ok ed25519 --ph --context ctx-1 -p "$S/e.pk" -i - -S "$S/ph.m3" <"$S/m3"
reject_case "ed25519 --ph: changed last byte" \
    "$V" verify ed25519 --ph --context ctx-1 -p "$S/e.pk" -i "$S/m3x" -S "$S/ph.m3"
"$V" keygen ml-dsa-65 -s "$S/d.sk" -p "$S/d.pk"
for m in m3 m1; do
    "$V" sign ml-dsa-65 --deterministic --context c21 -s "$S/d.sk" -i "$S/$m" -o "$S/d.$m"
    "$V" sign ml-dsa-65 --deterministic --context c21 -s "$S/d.sk" -i - -o "$S/dp.$m" <"$S/$m"
    check "ml-dsa-65 $m: file and pipe give the same deterministic signature" cmp -s "$S/d.$m" "$S/dp.$m"
    check "ml-dsa-65 $m: verify streamed" verify_ok ml-dsa-65 --context c21 -p "$S/d.pk" -i "$S/$m" -S "$S/d.$m"
done
reject_case "ml-dsa-65: changed last byte of 3 MiB" \
    "$V" verify ml-dsa-65 --context c21 -p "$S/d.pk" -i "$S/m3x" -S "$S/d.m3"
for h in sha256 sha384 sha512 sha3-256 sha3-512 shake128 shake256; do
    "$V" sign ml-dsa-65 --prehash $h --deterministic -s "$S/d.sk" -i "$S/m3" -o "$S/h.$h"
    check "ml-dsa-65 --prehash $h: sign rc 0" [ $? = 0 ]
    check "ml-dsa-65 --prehash $h: verify" verify_ok ml-dsa-65 --prehash $h -p "$S/d.pk" -i "$S/m3" -S "$S/h.$h"
    check "ml-dsa-65 --prehash $h: differs from pure" differ "$S/h.$h" "$S/d.m3"
    reject_case "ml-dsa-65 --prehash $h: verify as pure" \
        "$V" verify ml-dsa-65 -p "$S/d.pk" -i "$S/m3" -S "$S/h.$h"
    reject_case "ml-dsa-65 --prehash $h: changed message" \
        "$V" verify ml-dsa-65 --prehash $h -p "$S/d.pk" -i "$S/m3x" -S "$S/h.$h"
done
reject_case "ml-dsa-65: a sha256 signature verified as sha3-256 (same length)" \
    "$V" verify ml-dsa-65 --prehash sha3-256 -p "$S/d.pk" -i "$S/m3" -S "$S/h.sha256"
reject_case "ml-dsa-65: a sha512 signature verified as sha256" \
    "$V" verify ml-dsa-65 --prehash sha256 -p "$S/d.pk" -i "$S/m3" -S "$S/h.sha512"
VG_CPU_FEATURES=none "$V" sign ml-dsa-65 --prehash shake256 --deterministic -s "$S/d.sk" -i "$S/m3" -o "$S/h.none"
check "ml-dsa-65 --prehash shake256 with VG_CPU_FEATURES=none: the same signature" cmp -s "$S/h.none" "$S/h.shake256"
"$V" sign ml-dsa-44 --prehash sha512 --context hc -s "$S/d.sk" -i "$S/m1" -o "$S/z" 2>/dev/null
check "ml-dsa-44 with a 65 key: rejected" [ $? = 1 ]
"$V" keygen ml-dsa-87 -s "$S/d87.sk" -p "$S/d87.pk"
"$V" sign ml-dsa-87 --prehash sha384 --context hc -s "$S/d87.sk" -i "$S/m1" -o "$S/h87"
check "ml-dsa-87 --prehash sha384 --context: hedged round trip" \
    verify_ok ml-dsa-87 --prehash sha384 --context hc -p "$S/d87.pk" -i "$S/m1" -S "$S/h87"
reject_case "ml-dsa-87 --prehash: another context" \
    "$V" verify ml-dsa-87 --prehash sha384 --context hd -p "$S/d87.pk" -i "$S/m1" -S "$S/h87"
# Option rules (exit 2, one line, nothing written).
error_case "sign ml-dsa-65 --prehash md5: unknown hash" \
    "$V" sign ml-dsa-65 --prehash md5 -s "$S/d.sk" -i "$S/m1" -o "$S/z"
error_case "sign ml-dsa-65 --ph: Ed25519 only" "$V" sign ml-dsa-65 --ph -s "$S/d.sk" -i "$S/m1" -o "$S/z"
error_case "verify ml-dsa-65 --ctx: Ed25519 only" \
    "$V" verify ml-dsa-65 --ctx a -p "$S/d.pk" -i "$S/m1" -S "$S/d.m1"
error_case "sign ed25519 --prehash: ML-DSA only" \
    "$V" sign ed25519 --prehash sha512 -s "$S/e.sk" -i "$S/m1" -o "$S/z"
error_case "sign ed25519 --context without --ph" \
    "$V" sign ed25519 --context a -s "$S/e.sk" -i "$S/m1" -o "$S/z"
error_case "sign ed25519 --ctx '': Ed25519ctx needs 1 to 255 bytes" \
    "$V" sign ed25519 --ctx "" -s "$S/e.sk" -i "$S/m1" -o "$S/z"
error_case "sign ed25519 --ctx of 256 bytes" \
    "$V" sign ed25519 --ctx "${C255}c" -s "$S/e.sk" -i "$S/m1" -o "$S/z"
error_case "sign ed25519 --ph --context of 256 bytes" \
    "$V" sign ed25519 --ph --context "${C255}c" -s "$S/e.sk" -i "$S/m1" -o "$S/z"
error_case "sign ed25519 --ph --ctx" "$V" sign ed25519 --ph --ctx a -s "$S/e.sk" -i "$S/m1" -o "$S/z"
error_case "verify ed25519 --ph --cofactored" \
    "$V" verify ed25519 --ph --cofactored -p "$S/e.pk" -i "$S/m1" -S "$S/e.m1"
error_case "sign ed25519: message is a directory" "$V" sign ed25519 -s "$S/e.sk" -i "$S" -o "$S/z"
error_case "sign ml-dsa-65: message is a directory" "$V" sign ml-dsa-65 -s "$S/d.sk" -i "$S" -o "$S/z"
error_case "verify ml-dsa-65: missing message" \
    "$V" verify ml-dsa-65 -p "$S/d.pk" -i "$S/nonexistent" -S "$S/d.m1"
check "issue 21 usage errors write nothing" [ ! -e "$S/z" ]
check "ed25519 --ctx 255 bytes round trip" sh -c '"$1" sign ed25519 --ctx "$2" -s "$3" -i "$4" -o "$5" &&
    [ "$("$1" verify ed25519 --ctx "$2" -p "$6" -i "$4" -S "$5")" = OK ]' sh "$V" "$C255" "$S/e.sk" "$S/m1" "$S/c255" "$S/e.pk"
# The speed rows of issue 21 run (a functional check: the figures are not
# looked at): HashML-DSA-65 and Ed25519ph, sign and verify, each a number.
VG_SPEED_NO_PEERS=1 "$V" speed hashml-dsa-65 ed25519ph --samples 11 >"$S/speed" 2>"$S/speed.err"
check "speed hashml-dsa-65 ed25519ph: rc 0, silent" [ "$?:$(wc -c <"$S/speed.err")" = 0:0 ]
check "speed: the four issue-21 rows, each with a figure" \
    [ "$(grep -Ec '^(hashml-dsa-65|ed25519ph)-(sign|verify) +[0-9]+' "$S/speed")" = 4 ]
check "help documents --prehash and --ph" sh -c '"$1" help | grep -q -- "--prehash H" && "$1" help | grep -q -- "--ph"' sh "$V"

# ---- issue 17, part 2: NIST hybrids, P-256/P-384 PEM/DER keys ---------------
# SecP256r1MLKEM768 / SecP384r1MLKEM1024 round trips, sizes and the share
# layout (EC point first, then the ML-KEM ek); keygen p-256|p-384 --pem/--der
# read by OpenSSL 3.0 (`openssl pkey`, `openssl ec`), OpenSSL's EC keys read
# by us (pkey byte for byte, sign/verify/ecdh with key files); x25519 and
# ed25519 commands with PEM/DER key files; the rejections.
mkdir "$T/h17b"
N=$T/h17b
for spec in "p256-mlkem768 2432 1249 1153 64 32 65 ml-kem-768 1184 p-256" \
    "p384-mlkem1024 3216 1665 1665 80 48 97 ml-kem-1024 1568 p-384"; do
    set -- $spec
    hyb=$1 skl=$2 pkl=$3 ctl=$4 ssl=$5 nb=$6 ptl=$7 kem=$8 ekl=$9 curve=${10}
    "$V" keygen $hyb -s "$N/h.sk" -p "$N/h.pk" &&
        "$V" encaps $hyb -p "$N/h.pk" -c "$N/h.ct" -k "$N/h.ss1" &&
        "$V" decaps $hyb -s "$N/h.sk" -c "$N/h.ct" -k "$N/h.ss2"
    check "$hyb round trip, sizes $skl $pkl $ctl $ssl" \
        [ "$?:$(stat -c %s "$N/h.sk" "$N/h.pk" "$N/h.ct" "$N/h.ss1" | tr '\n' ' ')" = "0:$skl $pkl $ctl $ssl " ]
    check "$hyb shared secrets equal" cmp -s "$N/h.ss1" "$N/h.ss2"
    check "$hyb secret key mode 0600" [ "$(stat -c %a "$N/h.sk")" = 600 ]
    # Layout: the EC part first. The point = the public key of the scalar
    # that leads the secret key (through OpenSSL), the ML-KEM ek after it.
    head -c $nb "$N/h.sk" >"$N/h.scalar"
    "$V" pkey $curve -i "$N/h.scalar" -o "$N/h.scalar.pem" &&
        openssl pkey -in "$N/h.scalar.pem" -pubout -outform DER 2>/dev/null | tail -c $ptl >"$N/h.opt"
    check "$hyb public key starts with the EC scalar's point (OpenSSL)" \
        cmp -s "$N/h.opt" <(head -c $ptl "$N/h.pk")
    tail -c $ekl "$N/h.pk" >"$N/h.ek"
    "$V" encaps $kem -p "$N/h.ek" -c "$N/m.ct" -k "$N/m.ss"
    check "$hyb public key ends with an $kem ek" [ $? = 0 ]
    # The shared secret: the ECDH x-coordinate first (our ecdh of the
    # secret scalar and the ciphertext's point, itself checked against OpenSSL).
    head -c $ptl "$N/h.ct" >"$N/h.cpt"
    "$V" ecdh $curve -s "$N/h.scalar" -p "$N/h.cpt" -o "$N/h.x"
    check "$hyb shared secret starts with the ECDH x-coordinate" cmp -s "$N/h.x" <(head -c $nb "$N/h.ss1")
    # Rejections: the client's point off the curve (last byte of y changed),
    # compressed; the server's point off the curve; an ML-KEM ek coefficient
    # >= q; nothing written.
    python3 - "$N/h.pk" "$N/h.ct" "$ptl" <<'PY'
import sys
pk = bytearray(open(sys.argv[1], 'rb').read()); ct = bytearray(open(sys.argv[2], 'rb').read())
n = int(sys.argv[3])
a = bytearray(pk); a[n - 1] ^= 1; open(sys.argv[1] + '.offcurve', 'wb').write(a)
b = bytearray(pk); b[0] = 2; open(sys.argv[1] + '.compressed', 'wb').write(b)
c = bytearray(pk); c[n] = 0xff; c[n + 1] |= 0x0f; open(sys.argv[1] + '.badek', 'wb').write(c)
d = bytearray(ct); d[n - 1] ^= 1; open(sys.argv[2] + '.offcurve', 'wb').write(d)
PY
    for bad in offcurve compressed badek; do
        reject_case "$hyb encaps, client share $bad" \
            "$V" encaps $hyb -p "$N/h.pk.$bad" -c "$N/r.ct" -k "$N/r.ss"
    done
    reject_case "$hyb decaps, server point off the curve" \
        "$V" decaps $hyb -s "$N/h.sk" -c "$N/h.ct.offcurve" -k "$N/r.ss"
    check "$hyb: nothing written after the rejections" [ ! -e "$N/r.ct" ] && check "$hyb: no shared secret" [ ! -e "$N/r.ss" ]
    error_case "keygen $hyb --pem (no encoding)" "$V" keygen $hyb --pem -s "$N/n.sk" -p "$N/n.pk"
done
check "the TLS group spelling secp256r1mlkem768" sh -c '"$1" keygen secp256r1mlkem768 -s "$2/t.sk" -p "$2/t.pk" && [ "$(stat -c %s "$2/t.pk")" = 1249 ]' sh "$V" "$N"
# P-256 / P-384 key files: ours read by OpenSSL, OpenSSL's read by us.
for curve in p-256 p-384; do
    OC=$(echo $curve | tr a-z A-Z)
    for f in pem der; do
        F=$(echo $f | tr a-z A-Z)
        "$V" keygen $curve --$f -s "$N/$curve.$f.key" -p "$N/$curve.$f.pub"
        check "keygen $curve --$f rc 0, mode 0600" [ "$?:$(stat -c %a "$N/$curve.$f.key")" = 0:600 ]
        openssl pkey -inform $F -in "$N/$curve.$f.key" -pubout -outform $F -out "$N/o.pub" 2>/dev/null
        check "openssl pkey reads our $curve $f key, same public key" cmp -s "$N/o.pub" "$N/$curve.$f.pub"
        openssl pkey -inform $F -in "$N/$curve.$f.key" -text -noout >"$N/o.txt" 2>/dev/null
        check "openssl pkey -text on our $curve $f key" grep -q "Private-Key: (${curve#p-} bit)" "$N/o.txt"
        openssl ec -inform $F -in "$N/$curve.$f.key" -check -noout >"$N/o.txt" 2>&1
        check "openssl ec -check accepts our $curve $f key" grep -q "EC Key valid" "$N/o.txt"
        openssl pkey -pubin -inform $F -in "$N/$curve.$f.pub" -outform $F -pubout -out "$N/o2.pub" 2>/dev/null
        check "openssl reads our $curve $f public key" cmp -s "$N/o2.pub" "$N/$curve.$f.pub"
        openssl pkcs8 -topk8 -nocrypt -inform $F -in "$N/$curve.$f.key" -outform $F -out "$N/o.key" 2>/dev/null
        check "openssl pkcs8 re-encodes our $curve $f key byte for byte" cmp -s "$N/o.key" "$N/$curve.$f.key"
    done
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:$OC -out "$N/o.key" 2>/dev/null
    openssl pkey -in "$N/o.key" -pubout -out "$N/o.pub" 2>/dev/null
    "$V" pkey -i "$N/o.key" -o "$N/our.key"
    check "pkey re-encodes OpenSSL's $curve key byte for byte" cmp -s "$N/our.key" "$N/o.key"
    "$V" pkey -i "$N/o.key" -o "$N/our.pub" --pubout
    check "pkey --pubout of OpenSSL's $curve key = OpenSSL's public key" cmp -s "$N/our.pub" "$N/o.pub"
    # (openssl pkey -outform DER writes SEC 1's bare ECPrivateKey for EC keys;
    # PKCS#8 DER comes from openssl pkcs8 -topk8)
    openssl pkcs8 -topk8 -nocrypt -in "$N/o.key" -outform DER -out "$N/o.der" 2>/dev/null
    openssl ec -in "$N/o.key" -no_public -outform DER 2>/dev/null |
        openssl pkcs8 -topk8 -nocrypt -inform DER -outform DER -out "$N/o.nopub.der" 2>/dev/null
    "$V" pkey -i "$N/o.nopub.der" -o "$N/our.der" --der
    check "pkey reads OpenSSL's $curve PKCS#8 without the public key" cmp -s "$N/our.der" "$N/o.der"
    # sign / verify / ecdh with PEM and DER key files, against OpenSSL.
    "$V" sign $curve -s "$N/o.der" -i "$S/m1" -o "$N/sig" --der
    openssl dgst -sha${curve#p-} -verify "$N/o.pub" -signature "$N/sig" "$S/m1" >/dev/null 2>&1
    check "sign $curve with OpenSSL's DER key, OpenSSL verifies" [ $? = 0 ]
    openssl dgst -sha${curve#p-} -sign "$N/o.key" -out "$N/osig" "$S/m1"
    check "verify $curve with OpenSSL's PEM public key and signature" \
        [ "$("$V" verify $curve -p "$N/o.pub" -i "$S/m1" -S "$N/osig" --der)" = OK ]
    "$V" ecdh $curve -s "$N/$curve.pem.key" -p "$N/o.pub" -o "$N/x1" &&
        openssl pkeyutl -derive -inkey "$N/o.key" -peerkey "$N/$curve.pem.pub" -out "$N/x2" 2>/dev/null
    check "ecdh $curve with PEM key files = OpenSSL's" cmp -s "$N/x1" "$N/x2"
done
reject_case "sign p-256 with a P-384 PEM key" "$V" sign p-256 -s "$N/p-384.pem.key" -i "$S/m1" -o "$N/z"
reject_case "verify p-384 with a P-256 DER public key" \
    "$V" verify p-384 -p "$N/p-256.der.pub" -i "$S/m1" -S "$N/osig" --der
"$V" keygen x25519 --pem -s "$N/x.key" -p "$N/x.pub"
reject_case "ecdh p-256 with an X25519 PEM peer key" \
    "$V" ecdh p-256 -s "$N/p-256.pem.key" -p "$N/x.pub" -o "$N/z"
check "no output after the EC key rejections" [ ! -e "$N/z" ]
# x25519 and ed25519 commands with PEM/DER key files.
openssl genpkey -algorithm X25519 -out "$N/ox.key" 2>/dev/null
openssl pkey -in "$N/ox.key" -pubout -outform DER -out "$N/ox.der" 2>/dev/null
"$V" x25519 -s "$N/x.key" -p "$N/ox.der" -o "$N/xs1" &&
    openssl pkeyutl -derive -inkey "$N/ox.key" -peerkey "$N/x.pub" -out "$N/xs2" 2>/dev/null
check "x25519 with PEM / DER key files = OpenSSL's" cmp -s "$N/xs1" "$N/xs2"
openssl genpkey -algorithm ED25519 -out "$N/oe.key" 2>/dev/null
openssl pkey -in "$N/oe.key" -pubout -out "$N/oe.pub" 2>/dev/null
"$V" sign ed25519 -s "$N/oe.key" -i "$S/m1" -o "$N/esig" &&
    openssl pkeyutl -verify -pubin -inkey "$N/oe.pub" -rawin -in "$S/m1" -sigfile "$N/esig" >/dev/null 2>&1
check "sign ed25519 with OpenSSL's PEM key, OpenSSL verifies" [ $? = 0 ]
check "verify ed25519 with OpenSSL's PEM public key" [ "$("$V" verify ed25519 -p "$N/oe.pub" -i "$S/m1" -S "$N/esig")" = OK ]

echo "test_cli: $pass passed, $fail failed"
[ $fail = 0 ]
