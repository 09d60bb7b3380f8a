#!/usr/bin/env bash
# End-to-end test of scripts/repro and the minimiser (fuzz/minimise/) on
# planted bugs: a heap over-read planted in the sfnt target (a 'PLNT'
# table starting "BUG!"), in the TrueType hinter's trace hook (executing
# AA) and in the Graphite machine's (executing PUSH_VERSION); see
# tests/fuzz/make_planted.py for the inputs.
#
#   planted_bug.sh replay PLANTED_REPLAY REPLAY   (ctest, label fuzz)
#       minimises with the test build's fvfuzz-replay-planted: sfnt,
#       tt_font and gr_font cases, plus the exit statuses of scripts/repro
#   planted_bug.sh libfuzzer                      (ctest, label slow)
#       configures and builds the `fuzz` preset with
#       FONTVM_TEST_PLANTED_BUG=ON and runs scripts/repro on the sfnt case
#       the default way (libFuzzer -minimize_crash, then the passes)
#
# Each case must be filed as <id>-heap-buffer-overflow with a one-line note,
# at most half the input's size, with the signature of the input (kind and
# top frames), and must still crash in the planted code; the TrueType and
# Graphite traces must end at the planted instruction.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
mode=${1:-}
scratch=${FVFUZZ_PLANTED_DIR:-$root/build/planted-bug}
rm -rf "$scratch/cases"
mkdir -p "$scratch/cases"
fail() { echo "FAIL: $*"; exit 1; }

# check_case TARGET BINARY PLANTED_CALLER TRACE_WORD [REPRO ARGS...]
check_case() {
    local t=$1 bin=$2 caller=$3 word=$4; shift 4
    local in="$scratch/cases/$t.in" out="$scratch/cases/$t" log="$scratch/cases/$t.log"
    python3 "$root/tests/fuzz/make_planted.py" "$t" "$in" "$replay" "$bin" >/dev/null
    local in_size; in_size=$(stat -c %s "$in")
    local start=$SECONDS status=0
    "$root/scripts/repro" "$in" --target "$t" --out-dir "$out" "$@" >"$log" 2>&1 || status=$?
    cat "$log"
    [ "$status" = 0 ] || fail "$t: scripts/repro exited $status"
    local case_file; case_file=$(ls "$out"/*-heap-buffer-overflow 2>/dev/null | head -1)
    [ -n "$case_file" ] || fail "$t: no <id>-heap-buffer-overflow case in $out"
    [ "$(wc -l <"$case_file.note")" -eq 1 ] || fail "$t: the note is not one line"
    grep -q 'heap-buffer-overflow' "$case_file.note" || fail "$t: the note does not name the kind"
    local min_size; min_size=$(stat -c %s "$case_file")
    [ $((2 * min_size)) -le "$in_size" ] || fail "$t: $min_size bytes is more than half of $in_size"
    local sig_in sig_out
    sig_in=$(sed -n 's/^== failure: //p' "$log")
    sig_out=$(sed -n 's/^== signature: //p' "$log")
    [ -n "$sig_in" ] && [ "$sig_in" = "$sig_out" ] || fail "$t: signature changed: '$sig_in' -> '$sig_out'"
    case "$sig_in" in "heap-buffer-overflow READ in fvfuzz_planted_overread (fuzz/fuzz_common.c:"*") < $caller "*) ;;
        *) fail "$t: signature '$sig_in' is not the planted over-read called by $caller" ;; esac
    grep -q 'fixed point' "$log" || fail "$t: stopped before the fixed point"
    if [ -n "$word" ]; then
        grep '^trace ' "$log" | tail -1 | grep -qw -- "$word" || fail "$t: the trace does not end at $word"
    fi
    # The filed case still crashes in the planted code.
    if ASAN_OPTIONS=detect_leaks=0 "$bin" "${runs[@]}" "$case_file" >"$scratch/cases/$t.check" 2>&1; then
        fail "$t: the filed case does not crash"
    fi
    grep -q "SUMMARY: AddressSanitizer: heap-buffer-overflow .*fuzz_common.c:.* in fvfuzz_planted_overread" \
        "$scratch/cases/$t.check" || fail "$t: the filed case crashes elsewhere"
    echo "PASS: $t: $in_size -> $min_size bytes in $((SECONDS - start)) s, $sig_out"
}

case "$mode" in
replay)
    planted=$2 replay=$3
    # -- exit statuses and --help without side effects
    out=$(FVFUZZ_BUILD_ROOT="$scratch/none" "$root/scripts/repro" --help) || fail "--help exited $?"
    grep -q '^Exit status' <<<"$out" || fail "--help does not document the exit status"
    [ ! -e "$scratch/none" ] || fail "--help created $scratch/none"
    status=0; "$root/scripts/repro" --no-such-option 2>"$scratch/err" || status=$?
    [ "$status" = 2 ] || fail "an unknown option exited $status, not 2"
    [ "$(wc -l <"$scratch/err")" -eq 1 ] || fail "an unknown option printed more than one line"
    status=0; "$root/scripts/repro" "$scratch/no-such-file" 2>/dev/null || status=$?
    [ "$status" = 2 ] || fail "a missing file exited $status, not 2"
    clean=$(ls "$root"/corpus/sfnt/seeds/Arimo-Regular-* | head -1)
    status=0; "$root/scripts/repro" "$clean" --target sfnt --binary "$planted" --no-file \
        >/dev/null 2>"$scratch/err" || status=$?
    [ "$status" = 1 ] || fail "a clean input exited $status, not 1"
    grep -q '^did not reproduce' "$scratch/err" || fail "a clean input did not say 'did not reproduce'"
    if grep -qE 'Aborted|line [0-9]+:' "$scratch/err"; then fail "shell noise on stderr"; fi
    echo "PASS: scripts/repro --help, exit statuses 1 and 2"
    # -- the three planted bugs (fvfuzz-replay-planted takes --target T FILE)
    runs=(--target sfnt)
    check_case sfnt "$planted" run "" --binary "$planted" --time 90
    runs=(--target tt_font)
    check_case tt_font "$planted" trace_emit AA --binary "$planted" --time 90
    runs=(--target gr_font)
    check_case gr_font "$planted" run_code PUSH_VERSION --binary "$planted" --time 90
    runs=(--target tt_program)
    check_case tt_program "$planted" trace_emit AA --binary "$planted" --time 90
    runs=(--target gr_code)
    check_case gr_code "$planted" run_code PUSH_VERSION --binary "$planted" --time 90
    ;;
libfuzzer)
    export FVFUZZ_BUILD_ROOT=$scratch
    export FVFUZZ_CMAKE_ARGS="-DFONTVM_TEST_PLANTED_BUG=ON"
    bdir="$scratch/fuzz"
    # The replay tool finds nothing to trace in the sfnt case; make_planted
    # needs it only for gr_font.
    replay=/bin/false
    runs=(-runs=1)
    check_case sfnt "$bdir/fuzz/fuzz_sfnt" run "" --build-dir "$bdir" --time 300
    grep -q 'FONTVM_TEST_PLANTED_BUG:BOOL=ON' "$bdir/CMakeCache.txt" || fail "planted-bug build not configured"
    ;;
*)
    echo "usage: planted_bug.sh replay PLANTED_REPLAY REPLAY | planted_bug.sh libfuzzer" >&2
    exit 2 ;;
esac
