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
FVFUZZ_TARGETS_ALL="sfnt tt_program tt_font tt_diff tt_font_diff gr_code gr_font gr_diff gr_font_diff gr_text_diff gr2_api gr2_api_diff"

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

# fvfuzz_oss_fuzz_build ENGINE OUT: scripts/fuzz --oss-fuzz.  Builds every
# target into OUT with .clusterfuzzlite/build.sh under OSS-Fuzz's
# variables (Debian 12's clang 14, or AFL++'s compiler and driver), then
# runs each target once over the inputs of its seed zip.  0 fine, 1 a
# target failed on its seeds, 3 (fv_cannot_run) the build failed.
fvfuzz_oss_fuzz_build() {
    local engine=$1 out=$2
    local base
    base=$(dirname "$out")
    local work="$base/work" src="$base/src" log="$base/build.log"
    rm -rf "$out" "$work" "$src"
    mkdir -p "$out" "$work" "$src"
    # ClusterFuzzLite's image has the project at $SRC/fontvm (and FreeType's
    # and graphite2's sources beside it: not here, so build.sh takes the
    # installed ones through pkg-config).
    ln -s "$FV_ROOT" "$src/fontvm"
    local san="-fsanitize=address -fsanitize-address-use-after-scope"
    local cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $san"
    local cc cxx lfe
    if [ "$engine" = afl ]; then
        fvfuzz_need_tools afl-clang-fast:afl++ afl-clang-fast++:afl++
        [ -f /usr/lib/afl/libAFLDriver.a ] || fv_cannot_run "missing /usr/lib/afl/libAFLDriver.a (Debian package afl++)"
        cc=afl-clang-fast cxx=afl-clang-fast++ lfe=/usr/lib/afl/libAFLDriver.a
    else
        fvfuzz_need_tools clang:clang clang++:clang
        cc=clang cxx=clang++ lfe=-fsanitize=fuzzer
        cflags="$cflags -fsanitize=fuzzer-no-link"
    fi
    fv_say "OSS-Fuzz build ($engine, ASan) into $out; log: $log"
    # (OSS-Fuzz's CXXFLAGS add -stdlib=libc++, its image's C++ runtime;
    # Debian's clang links libstdc++, whose headers are the ones installed.)
    if ! (export CC=$cc CXX=$cxx CFLAGS="$cflags" CXXFLAGS="$cflags" LIB_FUZZING_ENGINE=$lfe \
                 FUZZING_ENGINE=$engine SANITIZER=address ARCHITECTURE=x86_64 \
                 SRC=$src WORK=$work OUT=$out AFL_QUIET=1
          unset FONTVM_SRC
          bash "$src/fontvm/.clusterfuzzlite/build.sh") >"$log" 2>&1; then
        tail -n 15 "$log" >&2
        fv_cannot_run "fuzz/build.sh failed ($engine; log: $log)"
    fi
    tail -n 1 "$log" >&2
    # Every built target over its seed zip, once: what ClusterFuzzLite's
    # check of a build and its first fuzzing minute would stop on.
    local bin t seeds n failed=0 ran=0
    for bin in "$out"/*; do
        [ -f "$bin" ] && [ -x "$bin" ] || continue
        t=$(basename "$bin")
        seeds="$work/seeds-$t"
        rm -rf "$seeds"; mkdir -p "$seeds"
        [ -f "$out/${t}_seed_corpus.zip" ] && (cd "$seeds" && unzip -q -o "$out/${t}_seed_corpus.zip")
        n=$(find "$seeds" -type f | wc -l)
        if [ "$n" = 0 ]; then
            printf '\0' >"$seeds/empty"; n=1
        fi
        local status=0
        if [ "$engine" = afl ]; then
            # The AFL++ driver, run outside afl-fuzz with files, runs each once.
            find "$seeds" -type f -print0 | ASAN_OPTIONS=allocator_may_return_null=1 \
                xargs -0 -r "$bin" >"$work/check-$t.log" 2>&1 || status=$?
        else
            ASAN_OPTIONS=allocator_may_return_null=1 "$bin" -runs=0 "$seeds" >"$work/check-$t.log" 2>&1 || status=$?
        fi
        ran=$((ran + 1))
        if [ "$status" = 0 ]; then
            printf '  %-14s %5d seed inputs: clean\n' "$t" "$n"
        else
            printf '  %-14s %5d seed inputs: FAILED (exit %d; log: %s)\n' "$t" "$n" "$status" "$work/check-$t.log"
            failed=$((failed + 1))
        fi
    done
    echo "oss-fuzz build ($engine): $ran targets in $out, $failed failed on their seeds"
    [ "$ran" -gt 0 ] || fv_cannot_run "no target was built (log: $log)"
    [ "$failed" = 0 ]
}
