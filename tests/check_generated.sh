#!/bin/sh
# Checks that a checked-in table is what its generator in tools/ prints.
#
#   check_generated.sh GENERATOR TABLE              the whole of TABLE
#   check_generated.sh GENERATOR TABLE FIRST LAST   a section of TABLE
#
# The generator must exit 0 (some also check bounds and fail otherwise) and
# its standard output must equal the table byte for byte. With FIRST and LAST
# (extended regular expressions), the table is the part of TABLE from the line
# matching FIRST through the first line starting with "};" at or after the
# line matching LAST: for a generator that prints the array definitions of
# a source file that holds code as well. FIRST and LAST must each match
# exactly one line, so a renamed or duplicated table fails instead of
# comparing the wrong lines. On a difference the unified diff is printed.
set -u
gen=${1:?usage: check_generated.sh GENERATOR TABLE [FIRST LAST]}
table=${2:?usage: check_generated.sh GENERATOR TABLE [FIRST LAST]}
first=${3:-}
last=${4:-}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

"$gen" >"$tmp/got"
rc=$?
if [ $rc != 0 ]; then
    echo "FAIL: $gen exited with status $rc" >&2
    exit 1
fi

if [ -n "$first" ]; then
    for re in "$first" "$last"; do
        n=$(grep -cE -- "$re" "$table")
        if [ "$n" != 1 ]; then
            echo "FAIL: /$re/ matches $n lines of $table (want exactly 1)" >&2
            exit 1
        fi
    done
    awk -v first="$first" -v last="$last" '
        $0 ~ first { on = 1 }
        on { print }
        $0 ~ last { seen = 1 }
        on && seen && /^};/ { exit }
    ' "$table" >"$tmp/want"
    what="$table, lines /$first/ to the \"};\" after /$last/"
else
    cp "$table" "$tmp/want" || exit 1
    what=$table
fi

if cmp -s "$tmp/got" "$tmp/want"; then
    echo "ok: $(basename "$gen") output equals $what ($(wc -l <"$tmp/want") lines)"
    exit 0
fi
echo "FAIL: $(basename "$gen") output differs from $what" >&2
diff -u "$tmp/want" "$tmp/got" | head -n 60 >&2
exit 1
