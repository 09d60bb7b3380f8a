#!/usr/bin/env bash
# End-to-end test of scripts/repro on a planted bug (label `slow`: it
# configures and builds its own libFuzzer tree, a few minutes).
#
# Builds the `fuzz` preset with FONTVM_TEST_PLANTED_BUG=ON into a scratch
# directory, makes a crashing input (a real subset font, padded with junk
# tables, plus a 'PLNT' table starting "BUG!": the sfnt target then reads
# past a heap copy), runs scripts/repro on it and checks that it wrote a
# minimized regression case of kind heap-buffer-overflow with a note, that
# the case is smaller than the input, and that it still crashes.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
scratch=${FVFUZZ_PLANTED_DIR:-$root/build/planted-bug}
mkdir -p "$scratch"
out="$scratch/regress"
rm -rf "$out" "$scratch/input"
mkdir -p "$scratch/input"

seed=$(ls "$root"/corpus/sfnt/seeds/Liberation*Regular* 2>/dev/null | head -1)
[ -n "$seed" ] || { echo "no sfnt seed to start from"; exit 1; }
python3 - "$root" "$seed" "$scratch/input/crash" <<'PY'
import sys, importlib.util
root, seed, dest = sys.argv[1:4]
spec = importlib.util.spec_from_file_location("make_seeds", root + "/fuzz/make_seeds.py")
ms = importlib.util.module_from_spec(spec); spec.loader.exec_module(ms)
data = open(seed, "rb").read()[:-4]          # drop the 4-byte sfnt trailer
_, tables = ms.read_tables(data)
tables["PLNT"] = b"BUG!" + bytes(range(256)) * 8
for k in range(6):                           # junk for the minimizer to remove
    tables["ZZ%02d" % k] = bytes((i * 7 + k) & 0xFF for i in range(3000))
open(dest, "wb").write(ms.build_sfnt(tables) + bytes(4))
PY
in_size=$(stat -c %s "$scratch/input/crash")

FVFUZZ_CMAKE_ARGS="-DFONTVM_TEST_PLANTED_BUG=ON" FVFUZZ_BUILD_ROOT="$scratch" "$root/scripts/repro" "$scratch/input/crash" --target sfnt \
    --build-dir "$scratch/fuzz" --out-dir "$out" --minimize-time 60 \
    >"$scratch/repro.log" 2>&1 || { cat "$scratch/repro.log"; echo "FAIL: scripts/repro failed"; exit 1; }
cat "$scratch/repro.log"
# the configure flag must have reached the build
grep -q 'FONTVM_TEST_PLANTED_BUG:BOOL=ON' "$scratch/fuzz/CMakeCache.txt" || { echo "FAIL: planted-bug build not configured"; exit 1; }

case_file=$(ls "$out"/*-heap-buffer-overflow 2>/dev/null | head -1)
[ -n "$case_file" ] || { echo "FAIL: no <id>-heap-buffer-overflow case in $out"; ls -l "$out"; exit 1; }
[ -s "$case_file.note" ] || { echo "FAIL: no note beside $case_file"; exit 1; }
[ "$(wc -l <"$case_file.note")" -eq 1 ] || { echo "FAIL: note is not one line"; exit 1; }
grep -q 'heap-buffer-overflow' "$case_file.note" || { echo "FAIL: note does not name the kind"; exit 1; }
min_size=$(stat -c %s "$case_file")
[ "$min_size" -lt "$in_size" ] || { echo "FAIL: not minimized ($min_size >= $in_size bytes)"; exit 1; }
# The filed case still crashes the planted build and names the planted line.
if "$scratch/fuzz/fuzz/fuzz_sfnt" -runs=1 "$case_file" >"$scratch/check.log" 2>&1; then
    echo "FAIL: the filed case does not crash"; exit 1
fi
grep -q 'heap-buffer-overflow' "$scratch/check.log" || { echo "FAIL: wrong crash kind"; exit 1; }
grep -q 'sfnt.c' "$scratch/check.log" || { echo "FAIL: stack does not reach fuzz/sfnt.c"; exit 1; }
echo "PASS: $in_size-byte input filed as $(basename "$case_file") ($min_size bytes)"
