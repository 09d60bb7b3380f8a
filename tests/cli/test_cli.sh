#!/usr/bin/env bash
# The fontvm CLI: real fonts work, bad input gives one line on stderr and
# exit status 2, never a crash.
set -u
FONTVM=$1
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect() { # expect STATUS STDERR_LINES DESCRIPTION -- COMMAND...
    local want=$1 lines=$2 what=$3; shift 4
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    local n
    n=$(wc -l <"$tmp/err")
    if [ "$got" != "$want" ] || { [ "$lines" != any ] && [ "$n" != "$lines" ]; }; then
        echo "FAIL: $what: exit $got (want $want), $n stderr line(s) (want $lines)"; cat "$tmp/err"; fails=$((fails + 1))
    else
        echo "ok: $what"
    fi
}

font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
expect 0 0 "info on a real font" -- "$FONTVM" info "$font"
grep -q '^glyphs: 6253$' "$tmp/out" || { echo "FAIL: DejaVuSans glyph count"; fails=$((fails + 1)); }
grep -q '^hinted: yes' "$tmp/out" || { echo "FAIL: DejaVuSans should be hinted"; fails=$((fails + 1)); }
expect 0 0 "info on a Graphite font" -- "$FONTVM" info /usr/share/fonts/truetype/padauk/Padauk-Regular.ttf
grep -q '^graphite: yes' "$tmp/out" || { echo "FAIL: Padauk should be Graphite"; fails=$((fails + 1)); }
expect 0 0 "info --help" -- "$FONTVM" info --help
expect 2 1 "missing file" -- "$FONTVM" info /nonexistent.ttf
printf 'not a font, really' >"$tmp/junk.ttf"
expect 2 1 "not a font" -- "$FONTVM" info "$tmp/junk.ttf"
head -c 3000 "$font" >"$tmp/cut.ttf"
expect 2 1 "truncated font" -- "$FONTVM" info "$tmp/cut.ttf"
grep -q 'truncated' "$tmp/err" || { echo "FAIL: truncation not named"; fails=$((fails + 1)); }
expect 2 1 "directory as font" -- "$FONTVM" info /usr
expect 2 1 "unknown command" -- "$FONTVM" frobnicate
expect 2 1 "unknown option" -- "$FONTVM" info --bogus "$font"
expect 2 1 "bad face index" -- "$FONTVM" info --face 3 "$font"
if "$FONTVM" disasm --help >/dev/null 2>&1; then
    expect 0 0 "disasm fpgm" -- "$FONTVM" disasm "$font" --table fpgm
    grep -q 'FDEF' "$tmp/out" || { echo "FAIL: fpgm disassembly has no FDEF"; fails=$((fails + 1)); }
    expect 0 0 "disasm glyph" -- "$FONTVM" disasm "$font" --table glyf --glyph 36
    expect 2 1 "disasm glyph out of range" -- "$FONTVM" disasm "$font" --table glyf --glyph 99999
    expect 2 1 "disasm bad table" -- "$FONTVM" disasm "$font" --table bogus
fi
[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
