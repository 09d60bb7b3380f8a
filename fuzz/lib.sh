# Shared by scripts/fuzz, scripts/repro, scripts/coverage (fuzz/lib.sh).  Source it
# scripts/lib/common.sh.
#
# FVFUZZ_BUILD_ROOT (default $FV_ROOT/build) holds the preset builds
# (<root>/fuzz, <root>/afl, <root>/coverage) and the fuzzing work area
# (<root>/fuzz-work/<target>/{corpus,findings,afl}), which is kept between
# runs and never committed.

FVFUZZ_BUILD_ROOT=${FVFUZZ_BUILD_ROOT:-$FV_ROOT/build}

# fvfuzz_need_tools CMD:PACKAGE...: fails (fv_cannot_run, 3) naming the first missing
# command and its Debian package; installs nothing.
fvfuzz_need_tools() {
    local t
    for t in "$@"; do
        command -v "${t%%:*}" >/dev/null 2>&1 ||
            fv_cannot_run "missing ${t%%:*} (Debian package ${t#*:}; scripts/test installs every package the project needs)"
    done
}
FVFUZZ_TARGETS_ALL="sfnt tt_program tt_font tt_diff tt_font_diff gr_code gr_font gr_diff gr_font_diff gr_text_diff"

# fvfuzz_build PRESET DIR [TARGET...] [-- CMAKE-ARGS...]: configures (once)
# and builds a preset into DIR.
fvfuzz_build() {
    local preset=$1 dir=$2; shift 2
    local targets=() extra=()
    while [ $# -gt 0 ]; do
        if [ "$1" = "--" ]; then shift; extra=("$@"); break; fi
        targets+=("$1"); shift
    done
    mkdir -p "$dir"
    if [ ! -f "$dir/build.ninja" ]; then
        fv_say "configuring preset $preset in $dir"
        # FVFUZZ_CMAKE_ARGS: extra -D options (tests use it for the planted bug).
        # shellcheck disable=SC2086
        (cd "$FV_ROOT" && cmake --preset "$preset" -B "$dir" "${extra[@]}" ${FVFUZZ_CMAKE_ARGS:-} >"$dir/configure.log" 2>&1) || {
            tail -n 20 "$dir/configure.log" >&2; fv_cannot_run "configure of preset '$preset' failed (log: $dir/configure.log)"; }
    fi
    # A target fuzz/CMakeLists.txt left out (its part of vm/ or its base
    # data is missing) is named here, not by ninja's "unknown target".
    local known want missing=()
    known=$(ninja -C "$dir" -t targets all 2>/dev/null | sed -n 's/: phony$//p')
    for want in "${targets[@]}"; do
        grep -qx -- "$want" <<<"$known" || missing+=("$want")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        local why
        why=$(grep -h -m1 -o "fuzz target ${missing[0]#*_} skipped: .*" "$dir/configure.log" "$dir/CMakeFiles/CMakeOutput.log" 2>/dev/null | head -1)
        fv_cannot_run "${missing[*]} is not part of the $preset build in $dir: ${why:-fuzz/CMakeLists.txt left it out (see $dir/configure.log)}"
    fi
    fv_say "building ${targets[*]:-everything} ($preset)"
    local t=()
    [ ${#targets[@]} -gt 0 ] && t=(--target "${targets[@]}")
    (cmake --build "$dir" -j "$(nproc)" "${t[@]}" >"$dir/build-fuzz.log" 2>&1) || {
        grep -m 20 -E 'error|Error' "$dir/build-fuzz.log" >&2; fv_cannot_run "build failed (log: $dir/build-fuzz.log)"; }
}

# The target a file belongs to, from its path (corpus/<t>/..., fuzz-work/<t>/...).
fvfuzz_target_of() {
    local path=$1 t
    for t in $FVFUZZ_TARGETS_ALL; do
        case "$path" in
            *corpus/$t/*|*fuzz-work/$t/*|*/$t/crashes/*|*/$t/hangs/*) echo "$t"; return 0 ;;
        esac
    done
    return 1
}

fvfuzz_check_target() {
    local t
    for t in $FVFUZZ_TARGETS_ALL; do [ "$t" = "$1" ] && return 0; done
    fv_usage "unknown target '$1' (one of: $FVFUZZ_TARGETS_ALL) (see --help)"
}

# Sanitizer settings for reproducing: symbolized, abort on the first error.
fvfuzz_sanitizer_env() {
    export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:symbolize=1:detect_leaks=1:allocator_may_return_null=1}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:symbolize=1}
    local sym
    sym=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
    [ -n "$sym" ] && export ASAN_SYMBOLIZER_PATH=$sym
    return 0
}
