#!/bin/bash
# Long tests of the vgcrypto command (ctest label "long", not in the default
# run: see README "Tests"): sign and verify files of 3 GiB in bounded memory.
#
#   test_cli_long.sh /path/to/vgcrypto /path/to/cli_mmap_sign
#
# The message is a 3 GiB sparse file (truncate) with a few nonzero bytes
# written into it, so the disk holds almost nothing; hashing it is the cost
# (every pass reads 3 GiB from the page cache). Checked:
#   - ML-DSA-65 (pure, through the mu state) and Ed25519ph sign and verify
#     it, each command's peak resident set size (GNU time -v "Maximum
#     resident set size") under RSS_MAX_KB;
#   - pure Ed25519 (two passes) gives the signature the library computes
#     over the same bytes in one call (tests/cli_mmap_sign.c, the file
#     mapped whole), and verifies.
# Prints each figure. Exit 77 (skip) without GNU time or truncate, or when
# the file system refuses a 3 GiB sparse file.

V=${1:?usage: test_cli_long.sh /path/to/vgcrypto /path/to/cli_mmap_sign}
REF=${2:?usage: test_cli_long.sh /path/to/vgcrypto /path/to/cli_mmap_sign}
RSS_MAX_KB=${RSS_MAX_KB:-65536} # 64 MiB: the command holds one 1 MiB chunk
GNU_TIME=/usr/bin/time
[ -x $GNU_TIME ] && $GNU_TIME -v true 2>&1 | grep -q 'Maximum resident' ||
    { echo "test_cli_long: SKIP: GNU time (/usr/bin/time -v) not found"; exit 77; }
command -v truncate >/dev/null || { echo "test_cli_long: SKIP: truncate not found"; exit 77; }

pass=0
fail=0
T=$(mktemp -d /tmp/vg_test_cli_long.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { local d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }

# measured NAME COMMAND...: run under GNU time; rc in $rc, peak RSS (kB) in
# $rss, seconds in $secs; prints one line.
measured() {
    local name=$1; shift
    $GNU_TIME -v -o "$T/time" "$@" >"$T/out" 2>"$T/err"
    rc=$?
    rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$T/time")
    secs=$(sed -n 's/^[[:space:]]*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$T/time")
    echo "  $name: exit $rc, peak RSS $rss kB, $secs"
}

M=$T/big
if ! truncate -s 3G "$M" 2>/dev/null; then
    echo "test_cli_long: SKIP: cannot create a 3 GiB sparse file in $T"
    exit 77
fi
# Nonzero bytes at the start, across the 1 MiB chunk boundaries of the first
# pass, in the middle and in the last bytes.
for off in 0 1048575 1048576 1610612736 3221225400; do
    printf 'vgcrypto %s' $off | dd of="$M" bs=1 seek=$off conv=notrunc status=none
done
check "the message is 3 GiB" [ "$(stat -c %s "$M")" = 3221225472 ]
echo "test_cli_long: message of $(stat -c %s "$M") bytes ($(du -k "$M" | cut -f1) kB on disk)"

"$V" keygen ml-dsa-65 -s "$T/d.sk" -p "$T/d.pk" || bad "keygen ml-dsa-65"
measured "sign ml-dsa-65 (3 GiB)" "$V" sign ml-dsa-65 -s "$T/d.sk" -i "$M" -o "$T/d.sig"
check "sign ml-dsa-65 3 GiB: exit 0" [ $rc = 0 ]
check "sign ml-dsa-65 3 GiB: peak RSS $rss kB <= $RSS_MAX_KB" [ "${rss:-999999999}" -le $RSS_MAX_KB ]
measured "verify ml-dsa-65 (3 GiB)" "$V" verify ml-dsa-65 -p "$T/d.pk" -i "$M" -S "$T/d.sig"
check "verify ml-dsa-65 3 GiB: OK" [ "$rc:$(cat "$T/out")" = "0:OK" ]
check "verify ml-dsa-65 3 GiB: peak RSS $rss kB <= $RSS_MAX_KB" [ "${rss:-999999999}" -le $RSS_MAX_KB ]
printf 'X' | dd of="$T/d.sig" bs=1 seek=100 conv=notrunc status=none
"$V" verify ml-dsa-65 -p "$T/d.pk" -i "$M" -S "$T/d.sig" >/dev/null 2>&1
check "verify ml-dsa-65 3 GiB: a changed signature is rejected (exit 1)" [ $? = 1 ]

"$V" keygen ed25519 -s "$T/e.sk" -p "$T/e.pk" || bad "keygen ed25519"
measured "sign ed25519 --ph (3 GiB)" "$V" sign ed25519 --ph --context long -s "$T/e.sk" -i "$M" -o "$T/ph.sig"
check "sign ed25519 --ph 3 GiB: exit 0" [ $rc = 0 ]
check "sign ed25519 --ph 3 GiB: peak RSS $rss kB <= $RSS_MAX_KB" [ "${rss:-999999999}" -le $RSS_MAX_KB ]
measured "verify ed25519 --ph (3 GiB)" "$V" verify ed25519 --ph --context long -p "$T/e.pk" -i "$M" -S "$T/ph.sig"
check "verify ed25519 --ph 3 GiB: OK" [ "$rc:$(cat "$T/out")" = "0:OK" ]
check "verify ed25519 --ph 3 GiB: peak RSS $rss kB <= $RSS_MAX_KB" [ "${rss:-999999999}" -le $RSS_MAX_KB ]
"$V" verify ed25519 --ph --context other -p "$T/e.pk" -i "$M" -S "$T/ph.sig" >/dev/null 2>&1
check "verify ed25519 --ph 3 GiB: another context is rejected (exit 1)" [ $? = 1 ]

measured "sign ed25519 (3 GiB, two passes)" "$V" sign ed25519 -s "$T/e.sk" -i "$M" -o "$T/e.sig"
check "sign ed25519 3 GiB: exit 0" [ $rc = 0 ]
check "sign ed25519 3 GiB: peak RSS $rss kB <= $RSS_MAX_KB" [ "${rss:-999999999}" -le $RSS_MAX_KB ]
"$REF" "$T/e.sk" "$M" "$T/e.ref" || bad "cli_mmap_sign failed"
check "sign ed25519 3 GiB = vg_ed25519_sign over the mapped file" cmp -s "$T/e.sig" "$T/e.ref"
measured "verify ed25519 (3 GiB)" "$V" verify ed25519 -p "$T/e.pk" -i "$M" -S "$T/e.sig"
check "verify ed25519 3 GiB: OK" [ "$rc:$(cat "$T/out")" = "0:OK" ]
check "verify ed25519 3 GiB: peak RSS $rss kB <= $RSS_MAX_KB" [ "${rss:-999999999}" -le $RSS_MAX_KB ]

echo "test_cli_long: $pass passed, $fail failed"
[ $fail = 0 ]
