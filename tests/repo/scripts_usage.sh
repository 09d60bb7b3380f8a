#!/usr/bin/env bash
# Every entry point in scripts/ answers --help at once, without building or
# installing anything (no build/ folder appears in a scratch copy of the
# script tree), documents its exit statuses, and exits 2 on an unknown
# option.   usage: scripts_usage.sh SOURCE_DIR SCRIPT...
set -uo pipefail
src=$1; shift
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# A copy of what the scripts read at start-up: scripts/ and what they source.
mkdir -p "$scratch/fuzz" "$scratch/conformance"
cp -r "$src/scripts" "$scratch/"
cp -r "$src/conformance/report" "$scratch/conformance/"
[ -f "$src/fuzz/lib.sh" ] && cp "$src/fuzz/lib.sh" "$scratch/fuzz/"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
for s in "$@"; do
    out=$(timeout 10 "$scratch/scripts/$s" --help 2>&1); rc=$?
    [ $rc -eq 0 ] || fail "scripts/$s --help exits $rc"
    grep -q "scripts/$s" <<<"$out" || fail "scripts/$s --help does not name the script"
    grep -qi "exit status" <<<"$out" || fail "scripts/$s --help does not document its exit statuses"
    out=$(timeout 10 "$scratch/scripts/$s" --no-such-option 2>&1); rc=$?
    [ $rc -eq 2 ] || fail "scripts/$s --no-such-option exits $rc (want 2): $out"
    [ "$(grep -c . <<<"$out")" -eq 1 ] || fail "scripts/$s --no-such-option prints more than one line: $out"
done
[ -e "$scratch/build" ] && fail "a --help or usage error created build/"
echo "$# scripts checked, $fails problem(s)"
[ $fails -eq 0 ]
