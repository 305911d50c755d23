#!/bin/sh
# vgcrypto keygen / ecdh / sign / verify for p-256 and p-384 (src/cli/cmd_nist.c):
# round trips, rejections (exit 1), and the openssl command (OpenSSL 3)
# verifying our DER signatures and deriving the same ECDH secret.
#   test_nist_cli.sh VGCRYPTO
set -u
v=${1:?usage: test_nist_cli.sh VGCRYPTO}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
check() { # description, command...
    d=$1; shift
    if "$@" >"$t/out" 2>"$t/err"; then echo "ok   $d"; else echo "FAIL $d"; cat "$t/err"; fail=1; fi
}
reject() { # description, command... (must exit 1)
    d=$1; shift
    "$@" >"$t/out" 2>"$t/err"; rc=$?
    if [ $rc = 1 ]; then echo "ok   $d (rejected)"; else echo "FAIL $d: exit $rc"; fail=1; fi
}
printf 'the message' >"$t/msg"
printf 'the messagE' >"$t/msg2"
for c in p-256 p-384; do
    case $c in
        p-256) spki=3059301306072a8648ce3d020106082a8648ce3d030107034200; h=-sha256 ;;
        p-384) spki=3076301006072a8648ce3d020106052b81040022036200; h=-sha384 ;;
    esac
    check "$c keygen" "$v" keygen $c -s "$t/a.sk" -p "$t/a.pk"
    check "$c keygen --hex" "$v" keygen $c -s "$t/b.skx" -p "$t/b.pkx" --hex
    check "$c sign" "$v" sign $c -s "$t/a.sk" -i "$t/msg" -o "$t/sig"
    check "$c verify" "$v" verify $c -p "$t/a.pk" -i "$t/msg" -S "$t/sig"
    reject "$c verify other message" "$v" verify $c -p "$t/a.pk" -i "$t/msg2" -S "$t/sig"
    check "$c sign --der --deterministic" "$v" sign $c -s "$t/a.sk" -i "$t/msg" -o "$t/sig.der" --der --deterministic
    check "$c sign --der --deterministic again" "$v" sign $c -s "$t/a.sk" -i "$t/msg" -o "$t/sig2.der" --der --deterministic
    check "$c deterministic signatures equal" cmp "$t/sig.der" "$t/sig2.der"
    check "$c verify --der" "$v" verify $c -p "$t/a.pk" -i "$t/msg" -S "$t/sig.der" --der
    reject "$c verify raw as DER" "$v" verify $c -p "$t/a.pk" -i "$t/msg" -S "$t/sig" --der
    # OpenSSL: the public key as an SPKI, our DER signature, and ECDH.
    python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.argv[1]) + open(sys.argv[2], "rb").read())' \
        "$spki" "$t/a.pk" >"$t/a.spki"
    check "$c openssl verifies our signature" openssl dgst $h -keyform DER -verify "$t/a.spki" \
        -signature "$t/sig.der" "$t/msg"
    check "$c keygen peer" "$v" keygen $c -s "$t/c.sk" -p "$t/c.pk"
    check "$c ecdh a,c" "$v" ecdh $c -s "$t/a.sk" -p "$t/c.pk" -o "$t/s1"
    check "$c ecdh c,a --hex out" "$v" ecdh $c -s "$t/c.sk" -p "$t/a.pk" -o "$t/s2"
    check "$c ecdh agree" cmp "$t/s1" "$t/s2"
    reject "$c ecdh with a hex key read raw" "$v" ecdh $c -s "$t/a.sk" -p "$t/b.pkx" -o "$t/s3"
    # Key files of the openssl command (issue 17): ecparam -genkey (EC PARAMETERS
    # block, then EC PRIVATE KEY), the bare ECPrivateKey DER of openssl ec, and
    # SPKI with a compressed point, in sign, verify, ecdh and pkey.
    case $c in p-256) n=prime256v1 ;; p-384) n=secp384r1 ;; esac
    check "$c openssl ecparam -genkey" openssl ecparam -genkey -name $n -out "$t/o.pem"
    check "$c openssl ec to DER" openssl ec -in "$t/o.pem" -outform DER -out "$t/o.der"
    check "$c openssl ec -pubout compressed" openssl ec -in "$t/o.pem" -pubout \
        -conv_form compressed -out "$t/oc.pub"
    check "$c sign with an EC PRIVATE KEY file" "$v" sign $c -s "$t/o.pem" -i "$t/msg" -o "$t/osig.der" --der
    check "$c openssl verifies it" openssl dgst $h -verify "$t/oc.pub" -signature "$t/osig.der" "$t/msg"
    check "$c verify with a compressed SPKI" "$v" verify $c -p "$t/oc.pub" -i "$t/msg" -S "$t/osig.der" --der
    check "$c ecdh bare DER key, compressed SPKI peer" "$v" ecdh $c -s "$t/o.der" -p "$t/c.pk" -o "$t/s4"
    check "$c ecdh the other way" "$v" ecdh $c -s "$t/c.sk" -p "$t/oc.pub" -o "$t/s5"
    check "$c ecdh agree (openssl keys)" cmp "$t/s4" "$t/s5"
    check "$c pkey EC PRIVATE KEY to PKCS#8" "$v" pkey -i "$t/o.pem" -o "$t/v.p8"
    check "$c openssl reads our PKCS#8 of it" sh -c 'openssl pkey -in "$1" -outform DER -out "$2" &&
        openssl pkey -in "$3" -outform DER -out "$4" && cmp "$2" "$4"' sh \
        "$t/v.p8" "$t/v.der" "$t/o.pem" "$t/o8.der"
done
exit $fail
