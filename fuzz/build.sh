#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script.  Honours the variables OSS-Fuzz
# sets: $CC $CXX $CFLAGS $CXXFLAGS $LIB_FUZZING_ENGINE $OUT $SRC (and
# $FUZZING_ENGINE, $SANITIZER when present).  Local test, as OSS-Fuzz sets
# them:
#   CC=clang CXX=clang++ \
#   CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address \
#           -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out SRC=/work fuzz/build.sh
#
# Builds every engine-independent target (the differential ones need
# FreeType and graphite2 built with the same sanitizers and are left to the
# CMake `fuzz` preset), copies <target>.options and .dict, and zips
# corpus/<target>/{seeds,regress} into <target>_seed_corpus.zip.
# The library is compiled straight from vm/<part>/sources.cmake, so this
# script needs nothing but a C compiler and liblz4 (linked statically).

ROOT=${FONTVM_SRC:-$SRC/main}
[ -f "$ROOT/fuzz/fuzz.h" ] || ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$OUT" "$WORK/obj"
: "${CXXFLAGS:=$CFLAGS}"
FUZZING_ENGINE=${FUZZING_ENGINE:-libfuzzer}

# Sources of a part: the words after set(FV_<PART>_SOURCES ...).
# A part that globs (file(GLOB FV_<PART>_SOURCES ... *.c)) has every .c of
# its directory.
part_sources() {
    if grep -q "^file(GLOB FV_$1_SOURCES" "$ROOT/vm/$2/sources.cmake"; then
        (cd "$ROOT/vm" && ls "$2"/*.c 2>/dev/null) || true
        return
    fi
    # set(FV_<PART>_SOURCES a.c b.c ...), possibly over several lines.
    tr '\n' ' ' <"$ROOT/vm/$2/sources.cmake" | sed -n "s/.*set(FV_$1_SOURCES\([^)]*\)).*/\1/p" |
        tr ' ' '\n' | grep -v '^$' || true
}
LIB_SRCS=""
for p in "COMMON common" "SFNT sfnt" "TT tt" "GRAPHITE graphite"; do
    set -- $p
    for s in $(part_sources "$1" "$2"); do LIB_SRCS="$LIB_SRCS $ROOT/vm/$s"; done
done
HAVE_TT=$(part_sources TT tt | head -1)
HAVE_GR=$(part_sources GRAPHITE graphite | head -1)

COMMON_FLAGS="-std=c11 -I$ROOT/vm/include -I$ROOT/vm -I$ROOT/fuzz -DFONTVM_BUILDING"
# The libFuzzer engine gets the structure-aware mutator (LLVMFuzzerMutate is
# libFuzzer's); AFL++ loads it separately, honggfuzz does without.
[ "$FUZZING_ENGINE" = libfuzzer ] && COMMON_FLAGS="$COMMON_FLAGS -DFVFUZZ_LIBFUZZER=1"

SUPPORT="$ROOT/fuzz/fuzz_common.c $ROOT/fuzz/mutator/mutator.c $ROOT/fuzz/synth/tt_synth.c"
[ -n "$HAVE_TT" ] && SUPPORT="$SUPPORT $ROOT/fuzz/support/tt_run.c"
[ -n "$HAVE_GR" ] && SUPPORT="$SUPPORT $ROOT/fuzz/synth/gr_synth.c $ROOT/fuzz/support/gr_trace.c"

objs=""
for src in $LIB_SRCS $SUPPORT; do
    o="$WORK/obj/$(echo "${src#$ROOT/}" | tr '/' '_').o"
    $CC $CFLAGS $COMMON_FLAGS -c "$src" -o "$o"
    objs="$objs $o"
done
ar rcs "$WORK/libfvfuzz.a" $objs

LZ4=$(pkg-config --variable=libdir liblz4 2>/dev/null || echo /usr/lib/x86_64-linux-gnu)/liblz4.a
[ -f "$LZ4" ] || LZ4=-llz4

targets=""
for t in sfnt tt_program tt_font gr_code gr_font; do
    [ -f "$ROOT/fuzz/$t.c" ] || continue
    case "$t" in tt_*) [ -n "$HAVE_TT" ] || continue ;; gr_*) [ -n "$HAVE_GR" ] || continue ;; esac
    $CC $CFLAGS $COMMON_FLAGS -c "$ROOT/fuzz/$t.c" -o "$WORK/$t.o"
    $CXX $CXXFLAGS "$WORK/$t.o" -o "$OUT/$t" $LIB_FUZZING_ENGINE "$WORK/libfvfuzz.a" $LZ4 -lm
    for ext in options dict; do
        [ -f "$ROOT/fuzz/$t.$ext" ] && cp "$ROOT/fuzz/$t.$ext" "$OUT/$t.$ext"
    done
    rm -f "$OUT/${t}_seed_corpus.zip"
    for d in seeds regress; do
        if [ -d "$ROOT/corpus/$t/$d" ]; then
            # Open findings (note starts with OPEN) would stop the engine
            # on its first input: left out until fixed.
            (cd "$ROOT/corpus/$t/$d" && for f in *; do
                 case "$f" in *.note) continue ;; esac
                 [ -f "$f" ] || continue
                 head -c 4 "$f.note" 2>/dev/null | grep -q '^OPEN' && continue
                 printf '%s\0' "$f"
             done | xargs -0 -r zip -q -j "$OUT/${t}_seed_corpus.zip")
        fi
    done
    targets="$targets $t"
done
echo "built:$targets -> $OUT"
