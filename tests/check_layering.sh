#!/bin/sh
# Layering of src/ (DESIGN section 5): which area may not include which.
#
#   check_layering.sh [SRC_DIR]        (default: the src/ beside tests/)
#
# An area is a top-level directory of src/ (common, hash, curve25519, mlkem,
# mldsa, cli, ...), its subdirectories (x86_64/) included. Each rule below
# reads "files under src/A may not include anything under src/B"; B = "*"
# means "anything in src/ outside src/A" (only the public include/ directory
# and headers generated into the build tree, such as vg_config.h, stay
# allowed).
# Every #include "..." and #include <...> of every .c/.h/.S/.inc file is
# resolved as the compiler would: a quoted name first beside the including
# file, then, like an angle-bracket name, in the library's include path
# (src/common, src/, include/). A quoted name with a directory part that
# resolves nowhere (such as "../x/y.h" of a deleted file) is taken literally,
# so it is judged by where it points.
# Each offending include is printed as file:line; the exit status is 1 if
# there is one, 0 otherwise.
#
# Rules, one a line: area, forbidden area, why.
RULES='
common  *       src/common is the bottom layer and depends on nothing above it
mldsa   mlkem   no area uses another area'"'"'s private files (issue 13 item 3)
mlkem   mldsa   no area uses another area'"'"'s private files (issue 13 item 3)
hash    curve25519  the hashes sit below every area that uses them (docs/architecture.md)
hash    mlkem   the hashes sit below every area that uses them
hash    mldsa   the hashes sit below every area that uses them
hash    lattice the hashes need no lattice arithmetic
hash    aead    the hashes need no AEAD
lattice hash    the NTT module depends on common only
lattice curve25519  the NTT module depends on common only
lattice mlkem   the NTT module depends on common only (ML-KEM uses it, not the reverse)
lattice mldsa   the NTT module depends on common only (ML-DSA uses it, not the reverse)
lattice aead    the NTT module depends on common only
aead    hash    the AEAD area depends on common only
aead    curve25519  the AEAD area depends on common only
aead    mlkem   the AEAD area depends on common only
aead    mldsa   the AEAD area depends on common only
aead    lattice the AEAD area depends on common only
curve25519  mlkem   Curve25519 uses the hashes only
curve25519  mldsa   Curve25519 uses the hashes only
curve25519  lattice Curve25519 uses the hashes only
curve25519  aead    Curve25519 uses the hashes only
mlkem   curve25519  ML-KEM uses hash and lattice only
mlkem   aead    ML-KEM uses hash and lattice only
mldsa   curve25519  ML-DSA uses hash and lattice only
mldsa   aead    ML-DSA uses hash and lattice only
hybrid  mldsa   the hybrid KEMs use mlkem, curve25519 and hash only (issue 17)
hybrid  aead    the hybrid KEMs use mlkem, curve25519 and hash only
hybrid  lattice the hybrid KEMs use mlkem, curve25519 and hash only
hybrid  encoding    the hybrid KEMs use mlkem, curve25519 and hash only
hybrid  cli     the hybrid KEMs use mlkem, curve25519 and hash only
hash    hybrid  the hashes sit below every area that uses them
curve25519  hybrid  Curve25519 uses the hashes only
mlkem   hybrid  ML-KEM uses hash and lattice only
mldsa   hybrid  ML-DSA uses hash and lattice only
lattice hybrid  the NTT module depends on common only
aead    hybrid  the AEAD area depends on common only
encoding    hash    the key encodings use the public API only (issue 17)
encoding    curve25519  the key encodings use the public API only
encoding    mlkem   the key encodings use the public API only
encoding    mldsa   the key encodings use the public API only
encoding    lattice the key encodings use the public API only
encoding    aead    the key encodings use the public API only
encoding    hybrid  the key encodings use the public API only
encoding    cli     the key encodings use the public API only
hash    encoding    the hashes sit below every area that uses them
curve25519  encoding    Curve25519 uses the hashes only
mlkem   encoding    ML-KEM uses hash and lattice only
mldsa   encoding    ML-DSA uses hash and lattice only
lattice encoding    the NTT module depends on common only
aead    encoding    the AEAD area depends on common only
nist    curve25519  P-256 and P-384 use common and hash only (HMAC for RFC 6979)
nist    mlkem   P-256 and P-384 use common and hash only
nist    mldsa   P-256 and P-384 use common and hash only
nist    lattice P-256 and P-384 use common and hash only
nist    aead    P-256 and P-384 use common and hash only
hash    nist    the hashes sit below every area that uses them
nist    hybrid  P-256 and P-384 use common and hash only
nist    encoding    P-256 and P-384 use common and hash only
encoding    nist    the key encodings use the public API only
'
# Exceptions, one a line: area, a file of another area it may include (the
# other area's shared header, DESIGN section 5), why.
ALLOWED='
encoding    mldsa/mldsa.h   the expanded-key check vg_mldsaN_check_expanded (issue 17)
encoding    nist/nist_ecc.h SEC 1 point decompression for SPKI and ECPrivateKey (issue 17)
'
set -uf # -f: no pathname expansion, the rules contain "*"
src=${1:-$(dirname "$0")/../src}
cd "$src" || exit 2
# From here on, paths are relative to src/ (so a clone path with spaces is
# harmless): "common/info.c", "../include/vgcrypto.h".

# area_of PATH: the area of a normalised path relative to src/ ("" for a file
# directly in src/, or one outside it).
area_of() {
    case $1 in
    ../*) echo "" ;;
    */*) echo "${1%%/*}" ;;
    *) echo "" ;;
    esac
}

# resolve FILE KIND NAME: the path (relative to src/) that NAME refers to from
# FILE, or nothing when it is no file of the tree (a system or generated
# header).
resolve() {
    dir=$(dirname "$1")
    if [ "$2" = q ] && [ -f "$dir/$3" ]; then
        realpath -m --relative-to=. "$dir/$3"
        return
    fi
    for d in common . ../include; do
        if [ -f "$d/$3" ]; then
            realpath -m --relative-to=. "$d/$3"
            return
        fi
    done
    case $2:$3 in
    q:*/*) realpath -m --relative-to=. "$dir/$3" ;;
    esac
}

tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
# The rules without blank lines, as "area forbidden" pairs.
rules=$(printf '%s\n' "$RULES" | awk 'NF >= 2 { print $1, $2 }')
bad=0
checked=0
for f in $(find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.S' -o -name '*.inc' \) |
    sed 's|^\./||' | sort); do
    a=$(area_of "$f")
    [ -n "$a" ] || continue
    forbidden=$(printf '%s\n' "$rules" | awk -v a="$a" '$1 == a { print $2 }')
    [ -n "$forbidden" ] || continue
    checked=$((checked + 1))
    # "line kind name" for each include (kind q = "...", a = <...>).
    grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' "$f" |
        sed -E 's/^([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1 q \2/
                s/^([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*<([^>]*)>.*/\1 a \2/' >"$tmp"
    while read -r line kind name; do
        target=$(resolve "$f" "$kind" "$name")
        case $target in
        "" | ../*) continue ;; # include/ (public), generated or system headers
        esac
        if printf '%s\n' "$ALLOWED" | awk -v a="$a" -v t="$target" '$1 == a && $2 == t { f = 1 } END { exit !f }'; then
            continue
        fi
        ta=$(area_of "$target") # "" for a file directly in src/: outside every area
        for b in $forbidden; do
            if { [ "$b" = "*" ] && [ "$ta" != "$a" ]; } || [ "$b" = "$ta" ]; then
                why=$(printf '%s\n' "$RULES" |
                    awk -v a="$a" -v b="$b" '$1 == a && $2 == b { $1 = ""; $2 = ""; sub(/^ +/, ""); print }')
                if [ "$kind" = q ]; then shown="\"$name\""; else shown="<$name>"; fi
                if [ "$b" = "*" ]; then what="anything outside src/$a"; else what="src/$b"; fi
                echo "src/$f:$line: #include $shown -> src/$target (src/$a may not include $what: $why)"
                bad=$((bad + 1))
            fi
        done
    done <"$tmp"
done

if [ "$bad" -gt 0 ]; then
    echo "check_layering: FAIL: $bad forbidden include(s); $checked file(s) checked"
    exit 1
fi
echo "check_layering: ok: $checked file(s) checked, no forbidden include"
