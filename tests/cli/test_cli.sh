#!/usr/bin/env bash
# The fontvm CLI: real fonts work, bad input gives one line on stderr and
# exit status 2, never a crash.
set -u
FONTVM=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
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
grep -q '^variations: no$' "$tmp/out" || { echo "FAIL: Padauk has no variations"; fails=$((fails + 1)); }
expect 0 0 "info on a variable font" -- "$FONTVM" info "/usr/share/fonts/truetype/karla-variable/Karla[wght].ttf"
grep -q '^variations: 1 axes, 6 named instances$' "$tmp/out" || { echo "FAIL: Karla's axes"; fails=$((fails + 1)); }
grep -q '^  axis wght  min 200  default 400  max 800  (name id 256)$' "$tmp/out" || { echo "FAIL: Karla's wght axis"; fails=$((fails + 1)); }
grep -q '^  instance 5 (--named-instance 5): name id 261  wght=700$' "$tmp/out" || { echo "FAIL: Karla's instance 5"; fails=$((fails + 1)); }
expect 0 0 "info --help" -- "$FONTVM" info --help
expect 2 1 "missing file" -- "$FONTVM" info /nonexistent.ttf
printf 'not a font, really' >"$tmp/junk.ttf"
expect 2 1 "not a font" -- "$FONTVM" info "$tmp/junk.ttf"
head -c 3000 "$font" >"$tmp/cut.ttf"
expect 2 1 "truncated font" -- "$FONTVM" info "$tmp/cut.ttf"
grep -q 'truncated' "$tmp/err" || { echo "FAIL: truncation not named"; fails=$((fails + 1)); }
expect 2 1 "directory as font" -- "$FONTVM" info /usr
grep -q '/usr: is a directory' "$tmp/err" || { echo "FAIL: a directory is not named as one"; fails=$((fails + 1)); }
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

check() { # check DESCRIPTION PATTERN FILE: grep -E the pattern in out or err
    if grep -qE -- "$2" "$tmp/$3"; then echo "ok: $1"; else
        echo "FAIL: $1: no /$2/ in $3:"; cat "$tmp/$3"; fails=$((fails + 1)); fi
}

# fontvm help CMD is fontvm CMD --help, for every command.
for cmd in info shape hint trace bench disasm; do
    "$FONTVM" help "$cmd" >"$tmp/a" 2>&1; ra=$?
    "$FONTVM" "$cmd" --help >"$tmp/b" 2>&1; rb=$?
    if [ "$ra" = 0 ] && [ "$rb" = 0 ] && cmp -s "$tmp/a" "$tmp/b" && [ -s "$tmp/a" ]; then
        echo "ok: help $cmd"; else echo "FAIL: fontvm help $cmd differs from $cmd --help"; fails=$((fails + 1)); fi
done
expect 2 1 "help for an unknown command" -- "$FONTVM" help frobnicate

# Usage errors name the option and what it accepts; exit 2.
expect 2 1 "hint --ppem out of range" -- "$FONTVM" hint "$font" --ppem 32767 --json
check "--ppem states its range" "--ppem '32767': expected .*from 0.016 \(1/64\) to 16384" err
expect 2 1 "trace --glyph beyond the font" -- "$FONTVM" trace "$font" --ppem 12 --glyph 99999
check "--glyph states the font's range" "--glyph 99999: the font's glyph ids are 0 to 6252" err
expect 2 1 "disasm --glyph beyond the font" -- "$FONTVM" disasm "$font" --table glyf --glyph=99999
check "disasm --glyph states the font's range" "--glyph 99999: the font's glyph ids are 0 to 6252" err
expect 2 1 "info --face not a number" -- "$FONTVM" info --face=x "$font"
check "--face states its range" "--face 'x': expected a whole number from 0 to 65535" err
expect 2 1 "missing option value" -- "$FONTVM" hint "$font" --json --ppem
check "a missing value names the option" "missing value for --ppem" err

# --opt value and --opt=value are the same in every subcommand.
same() { # same DESCRIPTION -- ARGS... ; ARGS with '=' joined forms given after '::'
    local what=$1; shift 2
    local sep a=() b=()
    for sep in "$@"; do [ "$sep" = :: ] && break; a+=("$sep"); done
    local seen=0
    for sep in "$@"; do [ $seen = 1 ] && b+=("$sep"); [ "$sep" = :: ] && seen=1; done
    "$FONTVM" "${a[@]}" >"$tmp/a" 2>&1; local ra=$?
    "$FONTVM" "${b[@]}" >"$tmp/b" 2>&1; local rb=$?
    if [ "$ra" = "$rb" ] && cmp -s "$tmp/a" "$tmp/b" && [ -s "$tmp/a" ]; then echo "ok: $what"; else
        echo "FAIL: $what: --opt value and --opt=value differ (exit $ra/$rb)"; fails=$((fails + 1)); fi
}
padauk=/usr/share/fonts/truetype/padauk/Padauk-Regular.ttf
same "info --face" -- info "$font" --face 0 :: info "$font" --face=0
same "hint options" -- hint "$font" --ppem 12 --mode v35 --glyphs 36 --json :: hint "$font" --ppem=12 --mode=v35 --glyphs=36 --json
same "trace options" -- trace "$font" --ppem 12 --glyph 36 --face 0 :: trace "$font" --ppem=12 --glyph=36 --face=0
same "disasm options" -- disasm "$font" --table glyf --glyph 36 :: disasm "$font" --table=glyf --glyph=36
same "bench options" -- bench --help :: bench --help
same "shape options" -- shape "$padauk" --text "ကို" --features wtri=1 --direction ltr --output-format json :: shape "$padauk" --text="ကို" --features=wtri=1 --direction=ltr --output-format=json

# shape speaks hb-shape: positional text, -u, names, clusters, positions.
expect 0 0 "shape positional text" -- "$FONTVM" shape "$padauk" "ကာ ကို"
check "hb-shape's text format" '^\[u1000=0\+1002\|u102C=1\+421\|space=2\+378\|u1000=3\+1002\|u102D=3@-54,0\+0\|u102F.med=3@-207,0\+0\]$' out
expect 0 0 "shape -u" -- "$FONTVM" shape "$padauk" -u U+1000,U+102C --no-glyph-names
check "-u and --no-glyph-names" '^\[214=0\+1002\|385=1\+421\]$' out
expect 0 0 "shape --unicodes= --no-clusters --no-positions" -- "$FONTVM" shape "$padauk" --unicodes=1000,102c --no-clusters --no-positions
check "--no-clusters --no-positions" '^\[u1000\|u102C\]$' out
expect 0 0 "shape --font-size" -- "$FONTVM" shape "$padauk" "ကာ" --font-size 12
check "--font-size scales as hb-shape" '^\[u1000=0\+11\|u102C=1\+5\]$' out
expect 0 0 "shape JSON" -- "$FONTVM" shape "$padauk" "ကာ" -O json
check "JSON carries cluster, offsets, advances" '^\[\{"g":"u1000","cl":0,"dx":0,"dy":0,"ax":1002,"ay":0\},\{"g":"u102C","cl":1,"dx":0,"dy":0,"ax":421,"ay":0\}\]$' out
expect 0 1 "unknown feature: one warning line" -- "$FONTVM" shape "$padauk" "ကာ" --features +zzzz,wtri=1,-wxyz
check "the warning names the unknown features" "warning: the font has no feature 'zzzz', 'wxyz' \(ignored\)" err
expect 2 1 "bad feature syntax" -- "$FONTVM" shape "$padauk" "ကာ" --features "kern=x"
check "bad feature names the item" "--features: 'kern=x'" err
expect 2 1 "bad direction" -- "$FONTVM" shape "$padauk" "ကာ" --direction up
expect 2 1 "bad -u" -- "$FONTVM" shape "$padauk" -u U+11FFFF
check "-u states its range" "expected hex code points up to 10FFFF" err
expect 2 1 "shape of a directory" -- "$FONTVM" shape /usr "x"
expect 2 1 "shape --text-file of a directory" -- "$FONTVM" shape "$padauk" --text-file /usr
check "text file directory named" "/usr: is a directory" err
printf 'ကာ\n\nက\n' >"$tmp/t.txt"
expect 0 0 "shape --text-file, an empty line" -- "$FONTVM" shape "$padauk" --text-file "$tmp/t.txt"
[ "$(sed -n 2p "$tmp/out")" = "" ] && [ "$(wc -l <"$tmp/out")" = 3 ] || { echo "FAIL: empty line not kept"; fails=$((fails + 1)); }
printf 'ကာ\n' | "$FONTVM" shape "$padauk" >"$tmp/out" 2>&1
check "text from standard input" '^\[u1000=0\+1002\|u102C=1\+421\]$' out
expect 0 0 "shape --format table records script and language" -- "$FONTVM" shape "$padauk" "ကာ" --format table --script Mymr --language my
check "table header" '^direction: ltr  script: Mymr  language: my$' out


# hint: a readable listing by default; JSON with contours and flags; any
# number of glyphs, by id, range, name or character.
expect 0 0 "hint listing" -- "$FONTVM" hint "$font" --ppem 12 --glyphs A
check "listing header" '^glyph 36 \(A\): advance 512 \(8.00 px\), 2 contours, 11 points$' out
check "listing contour" '^  contour 1: points 3-10$' out
check "listing point with flag" '^        5  on       519       0   \(   8.109,    0.000\)$' out
expect 0 0 "hint --json contours and flags" -- "$FONTVM" hint "$font" --ppem 12 --text A --json
check "JSON contours/flags" '"contours":\[2,10\],"flags":\[1,1,1,1,1,1,1,1,1,1,1\],"error":null\}$' out
# The JSON lines are compact JSON in jansson's form (vm/cli/cli_out.c writes
# them; tests/cli/test_cli_out.c checks its escaping against jansson): each
# line is what Python's json.dumps writes for the value it parses to.
canonical() { # canonical DESCRIPTION: every line of out re-encodes to itself
    if python3 - "$tmp/out" <<'PY'
import json, sys
n = 0
for line in open(sys.argv[1], encoding="utf-8"):
    line = line.rstrip("\n")
    if json.dumps(json.loads(line), separators=(",", ":"), ensure_ascii=False) != line:
        sys.exit("not canonical: " + line[:200])
    n += 1
sys.exit(0 if n else "no lines")
PY
    then echo "ok: $1"; else echo "FAIL: $1"; fails=$((fails + 1)); fi
}
expect 0 0 "hint --json every glyph at 10.5 ppem" -- "$FONTVM" hint "$font" --ppem 10.5 --mode v35 --json
canonical "hint --json bytes (10.5 ppem)"
expect 0 0 "hint --json at 12x16" -- "$FONTVM" hint "$font" --ppem 12x16 --glyphs 0-200 --json
canonical "hint --json bytes (12x16)"
expect 1 0 "hint --json with glyph errors" -- "$FONTVM" hint "$src"/corpus/tt_font/seeds/NotoKufiArabic-Regular-m0-d1844c6531ae --ppem 12 --pedantic --json
check "an error object" '"error":\{"kind":"[a-z_]+","program":"[a-z]+","glyph":[0-9]+,"pc":' out
canonical "hint --json bytes (errors)"
expect 0 0 "shape --json of a text file" -- "$FONTVM" shape "$padauk" --text-file "$src"/corpus/texts/myanmar.txt -O json
canonical "shape --json bytes"
expect 0 0 "shape --json --no-glyph-names --no-advances" -- "$FONTVM" shape "$padauk" --text-file "$src"/corpus/texts/myanmar.txt -O json --no-glyph-names --no-advances
canonical "shape --json bytes (ids, no advances)"
seq -s, 0 999 >"$tmp/ids"
expect 0 0 "hint 1000 glyph ids" -- "$FONTVM" hint "$font" --ppem 12 --glyphs "$(cat "$tmp/ids")" --quiet
check "1000 glyphs hinted" "hinted 1000 glyphs at 12 ppem" out
expect 0 0 "hint by name, gidN, range and -u" -- "$FONTVM" hint "$font" --ppem=12 --glyphs A,gid37,38-39 --json
[ "$(cut -d, -f1 "$tmp/out" | tr '\n' ' ')" = '{"gid":36 {"gid":37 {"gid":38 {"gid":39 ' ] || { echo "FAIL: glyph order"; fails=$((fails + 1)); }
expect 0 0 "hint -u" -- "$FONTVM" hint "$font" --ppem 12 -u U+41,U+42 --json
[ "$(cut -d, -f1 "$tmp/out" | tr '\n' ' ')" = '{"gid":36 {"gid":37 ' ] || { echo "FAIL: -u glyphs"; fails=$((fails + 1)); }
expect 2 1 "hint unknown glyph name" -- "$FONTVM" hint "$font" --ppem 12 --glyphs nosuchglyph --json
check "unknown name named" "--glyphs 'nosuchglyph': no glyph has this name" err
expect 2 1 "hint glyph beyond the font" -- "$FONTVM" hint "$font" --ppem 12 --glyphs 6000-7000 --json
check "range beyond the font" "--glyphs 7000: the font's glyph ids are 0 to 6252" err
[ ! -s "$tmp/out" ] || { echo "FAIL: bad --glyphs printed on stdout"; fails=$((fails + 1)); }

# info --json: tables, names, cmaps, hinting sizes, maxp, Graphite features.
expect 0 0 "info --json" -- "$FONTVM" info --json "$font"
python3 - "$tmp/out" <<'PY' || fails=$((fails + 1))
import json, sys
d = json.load(open(sys.argv[1]))
assert d["glyphs"] == 6253 and d["units_per_em"] == 2048, d["glyphs"]
assert any(t["tag"] == "fpgm" for t in d["tables"])
assert any(n["id"] == 1 and n["string"] == "DejaVu Sans" for n in d["names"])
assert {"platform": 3, "encoding": 10, "format": 12} in d["cmaps"], d["cmaps"]
h = d["hinting"]
assert h["hinted"] and h["fpgm_bytes"] == 171 and h["prep_bytes"] == 1384 and h["glyph_programs"] == 1130, h
assert d["maxp"]["stack_elements"] > 0 and d["graphite"] is None
print("ok: info --json of DejaVu Sans")
PY
expect 0 0 "info --json of a Graphite font" -- "$FONTVM" info "$padauk" --json
python3 - "$tmp/out" <<'PY' || fails=$((fails + 1))
import json, sys
g = json.load(open(sys.argv[1]))["graphite"]
f = {x["id"]: x for x in g["features"]}
assert f["cv01"]["label"] == "Filled dots" and f["cv01"]["default"] == 0, f["cv01"]
assert f["cv01"]["settings"] == [{"value": 0, "label": "False"}, {"value": 1, "label": "True"}]
assert any(l["tag"] == "aio" and {"feature": "cv01", "value": 1} in l["settings"] for l in g["languages"])
print("ok: info --json Graphite features and languages")
PY

# Traces: the TrueType stack is known on entry to a function (CALL's stack,
# DejaVu's prep calls fpgm functions 0 and 1); the Graphite trace shows each
# command's arguments; the disassembly names slot attributes and metrics.
expect 0 0 "trace through function calls" -- "$FONTVM" trace "$font" --ppem 12 --glyph 36
if grep -q '?' "$tmp/out"; then echo "FAIL: trace shows unknown stack values"; grep -m3 '?' "$tmp/out"; fails=$((fails + 1)); fi
python3 - "$tmp/out" <<'PY' || fails=$((fails + 1))
import re, sys
lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
calls = 0
for prev, cur in zip(lines, lines[1:]):
    m, n = re.search(r"CALL +\[.*?\] -> (\[.*?\])", prev), re.match(r"fpgm @\d+ +\S+ +(\[.*?\])", cur)
    if m and n:
        calls += 1
        assert m.group(1) == n.group(1), (prev, cur)
assert calls > 10, calls
print(f"ok: {calls} function entries start on the stack CALL left")
PY
same "trace --glyph by name" -- trace "$font" --ppem 12 --glyph 36 :: trace "$font" --ppem 12 --glyph A
same "disasm --glyph by name" -- disasm "$font" --table glyf --glyph 36 :: disasm "$font" --table glyf --glyph=A
expect 2 1 "trace --glyph with two glyphs" -- "$FONTVM" trace "$font" --ppem 12 --glyph 36,37
check "one glyph wanted" "--glyph '36,37': expected one glyph" err
charis="$(dirname "$0")/../../corpus/peer/graphite2/fonts/charis_r_gr.ttf"
expect 0 0 "Graphite trace with arguments" -- "$FONTVM" trace "$charis" -u 4bb --features=1056=1
check "trace arguments" '^ +0  PushFeat 29, 0 +\[\]$' out
check "trace action arguments" '^ +0  PutSubs8bitObs 0, 214, 65 +\[\]$' out
expect 0 0 "Graphite disassembly" -- "$FONTVM" disasm "$padauk" --graphite
check "slot attributes named" ': AttrSet (shiftX|shiftY|insert|attTo|advX)$' out
check "glyph metrics named" ': PushGlyphMetric (bbTop|bbBottom|bbLeft|bbRight|bbWidth|bbHeight|advWidth|lsb|rsb), ' out
if grep -qE 'ATTR_SET|PUSH_GLYPH_METRIC' "$tmp/out"; then echo "FAIL: raw opcode names in the disassembly"; fails=$((fails + 1)); fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
