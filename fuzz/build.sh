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
# Builds every engine-independent target, and the differential ones when
# pkg-config finds the reference versions the conformance runners compare
# against (FreeType 2.12.1 = freetype2 24.3.18 for tt_diff and
# tt_font_diff; graphite2 1.3.14 = graphite2 3.0.1 for gr_diff,
# gr_font_diff and gr_text_diff; .clusterfuzzlite/Dockerfile builds both
# from their release tags with the sanitizer flags; not under MemorySanitizer,
# whose uninstrumented system libraries FreeType links would report), copies
# <target>.options and .dict, and zips corpus/<target>/{seeds,regress} into
# <target>_seed_corpus.zip.
# The library is compiled straight from vm/<part>/sources.cmake, so this
# script needs nothing but a C compiler, liblz4, zlib and brotli's decoder
# (linked statically where their archives exist).

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
# The .c files a CMake list names: the words ending in .c inside
# `OPENING ... )` of FILE (add_library(NAME STATIC ...) or set(VAR ...),
# possibly over several lines), without their ${...}/ directory, in the
# order given.  The conformance and compat libraries' sources are read
# where CMake reads them, so a file added there is compiled here too (the
# build had failed to link since conformance/tt gained tt_lint.c).
cmake_list_sources() { # FILE OPENING
    tr '\n' ' ' <"$1" | sed -n "s/.*$2\([^)]*\)).*/\1/p" | tr ' ' '\n' |
        sed -n 's|^\(\${[A-Za-z_]*}/\)\{0,1\}\([A-Za-z0-9_./-]*\.c\)$|\2|p' || true
}
HAVE_TT=$(part_sources TT tt | head -1)
HAVE_GR=$(part_sources GRAPHITE graphite | head -1)

COMMON_FLAGS="-std=c11 -I$ROOT/vm/include -I$ROOT/vm -I$ROOT/fuzz -DFONTVM_BUILDING"
# The libFuzzer engine gets the structure-aware mutator (LLVMFuzzerMutate is
# libFuzzer's); AFL++ loads it separately, honggfuzz does without.
[ "$FUZZING_ENGINE" = libfuzzer ] && COMMON_FLAGS="$COMMON_FLAGS -DFVFUZZ_LIBFUZZER=1"

SUPPORT="$ROOT/fuzz/fuzz_common.c $ROOT/fuzz/mutator/mutator.c $ROOT/fuzz/mutator/font.c $ROOT/fuzz/synth/tt_synth.c"
[ -n "$HAVE_TT" ] && SUPPORT="$SUPPORT $ROOT/fuzz/support/tt_run.c"
[ -n "$HAVE_GR" ] && SUPPORT="$SUPPORT $ROOT/fuzz/synth/gr_synth.c $ROOT/fuzz/support/gr_trace.c"

objs=""
for src in $LIB_SRCS $SUPPORT; do
    o="$WORK/obj/$(echo "${src#$ROOT/}" | tr '/' '_').o"
    $CC $CFLAGS $COMMON_FLAGS -c "$src" -o "$o"
    objs="$objs $o"
done
ar rcs "$WORK/libfvfuzz.a" $objs

# The decompressors the library uses (LZ4 for Graphite tables, zlib for
# WOFF, brotli for WOFF2), linked statically where the archive exists.
static_lib() { # PKG-CONFIG-NAME LIBRARY: the archive, or -lLIBRARY
    local a
    a=$(pkg-config --variable=libdir "$1" 2>/dev/null || echo /usr/lib/x86_64-linux-gnu)/lib$2.a
    if [ -f "$a" ]; then echo "$a"; else echo "-l$2"; fi
}
DECOMP_LIBS="$(static_lib liblz4 lz4) $(static_lib libbrotlidec brotlidec) $(static_lib libbrotlicommon brotlicommon) $(static_lib zlib z)"

# The reference engines from source when the image carries them
# (.clusterfuzzlite/Dockerfile: $SRC/freetype, $SRC/graphite2), built
# static with the sanitizer flags and found through pkg-config below.
REFS="$WORK/refs"
if [ -d "${SRC:-/nonexistent}/freetype" ] && [ ! -f "$REFS/lib/pkgconfig/freetype2.pc" ]; then
    cmake -S "$SRC/freetype" -B "$WORK/freetype-build" -DCMAKE_INSTALL_PREFIX="$REFS" \
        -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" -DBUILD_SHARED_LIBS=OFF \
        -DFT_DISABLE_ZLIB=ON -DFT_DISABLE_BZIP2=ON -DFT_DISABLE_PNG=ON \
        -DFT_DISABLE_HARFBUZZ=ON -DFT_DISABLE_BROTLI=ON >/dev/null
    cmake --build "$WORK/freetype-build" --target install >/dev/null
fi
if [ -d "${SRC:-/nonexistent}/graphite2" ] && [ ! -f "$REFS/lib/pkgconfig/graphite2.pc" ]; then
    cmake -S "$SRC/graphite2" -B "$WORK/graphite2-build" -DCMAKE_INSTALL_PREFIX="$REFS" \
        -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_FLAGS="$CFLAGS" \
        -DCMAKE_CXX_FLAGS="$CXXFLAGS" -DBUILD_SHARED_LIBS=OFF -DGRAPHITE2_NFILEFACE=ON >/dev/null
    cmake --build "$WORK/graphite2-build" --target install >/dev/null
fi
[ -d "$REFS" ] && export PKG_CONFIG_PATH="$REFS/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

# The differential targets: the conformance library's sources they use
# (conformance/tt, conformance/graphite without HarfBuzz), their report,
# and the reference library by pkg-config.
DIFF_TARGETS=""
CONF="$ROOT/conformance"
if [ "${SANITIZER:-address}" != memory ] && [ -n "$HAVE_TT" ] &&
    pkg-config --exists 'freetype2 = 24.3.18'; then
    DIFF_TARGETS="$DIFF_TARGETS tt_diff tt_font_diff"
    TT_DIFF_SRCS="$ROOT/fuzz/support/tt_diff_report.c"
    for s in $(cmake_list_sources "$CONF/tt/CMakeLists.txt" 'add_library(fvconform_tt_lib STATIC'); do
        TT_DIFF_SRCS="$CONF/tt/$s $TT_DIFF_SRCS"
    done
    TT_DIFF_FLAGS="-I$CONF/tt $(pkg-config --cflags freetype2)"
    TT_DIFF_LIBS="$(pkg-config --libs --static freetype2)"
fi
if [ "${SANITIZER:-address}" != memory ] && [ -n "$HAVE_GR" ] &&
    pkg-config --exists 'graphite2 = 3.0.1'; then
    DIFF_TARGETS="$DIFF_TARGETS gr_diff gr_font_diff gr_text_diff gr2_api gr2_api_diff"
    # gr2_api*: graphite2's API on fontvm (compat/graphite2) under its
    # fvg2_* names, with its own include path (its graphite2/*.h must not
    # shadow graphite2's for the reference runner).
    GR2_API_SRCS="$ROOT/fuzz/support/gr2_api_drive.c"
    for s in $(cmake_list_sources "$ROOT/compat/graphite2/CMakeLists.txt" 'set(FVG2_SOURCES'); do
        GR2_API_SRCS="$ROOT/compat/graphite2/$s $GR2_API_SRCS"
    done
    GR2_API_FLAGS="-I$ROOT/compat/graphite2/include -I$ROOT/compat/graphite2 -I$CONF/graphite -DFVG2_PREFIXED"
    # fvconform_gr_core (vm/cli) and fvconform_gr_ref but its HarfBuzz half.
    GR_DIFF_SRCS="$ROOT/fuzz/support/gr_diff_report.c"
    for s in $(cmake_list_sources "$ROOT/vm/cli/CMakeLists.txt" 'add_library(fvconform_gr_core STATIC') \
             $(cmake_list_sources "$CONF/graphite/CMakeLists.txt" 'add_library(fvconform_gr_ref STATIC'); do
        [ "$s" = gr_ref_harfbuzz.c ] || GR_DIFF_SRCS="$CONF/graphite/$s $GR_DIFF_SRCS"
    done
    GR_DIFF_FLAGS="-I$CONF/graphite -I$WORK/gen $(pkg-config --cflags graphite2)"
    # graphite2 is C++: $CXX links the targets with its own C++ runtime
    # (OSS-Fuzz's libc++, or libstdc++ with Debian's clang); naming
    # -lstdc++ here as well failed where only libc++ is installed.
    GR_DIFF_LIBS="$(pkg-config --libs --static graphite2)"
    # The embedded fonts (fuzz/CMakeLists.txt makes the same headers).
    mkdir -p "$WORK/gen"
    embed() { # NAME PATH: a C array named NAME of PATH's bytes
        printf 'static const unsigned char %s[] = {' "$1"
        od -An -v -tx1 "$2" | tr -s ' \n' ' ' | sed 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g'
        printf '};\n'
    }
    { echo "/* Generated by fuzz/build.sh. */"
      embed fvfuzz_gr_diff_font "$ROOT/corpus/peer/graphite2/fonts/small.ttf"
      echo "static const unsigned long fvfuzz_gr_diff_font_len = sizeof fvfuzz_gr_diff_font;"
    } >"$WORK/gen/gr_diff_font.h"
    # gr_text_diff's fonts, in fuzz/CMakeLists.txt's order (FVFUZZ_GR_TEXT_FONTS).
    rows="" k=0
    { echo "/* Generated by fuzz/build.sh. */"
      for entry in "Padauk=$ROOT/corpus/peer/graphite2/fonts/Padauk.ttf" \
                   "AwamiNastaliq=/usr/share/fonts/truetype/awami/AwamiNastaliq-Regular.ttf" \
                   "Scheherazade=$ROOT/corpus/peer/graphite2/fonts/Scheherazadegr.ttf" \
                   "Charis=$ROOT/corpus/peer/graphite2/fonts/charis_r_gr.ttf"; do
          name=${entry%%=*} path=${entry#*=}
          if [ -f "$path" ]; then
              embed "fvfuzz_gr_text_font_$k" "$path"
              rows="$rows    {\"$name\", fvfuzz_gr_text_font_$k, sizeof fvfuzz_gr_text_font_$k},\n"
          else
              rows="$rows    {\"$name\", 0, 0},\n"
          fi
          k=$((k + 1))
      done
      printf 'static const struct {\n    const char *name;\n    const unsigned char *data;\n    unsigned long len;\n} fvfuzz_gr_text_fonts[] = {\n%b};\n#define FVFUZZ_GR_TEXT_FONT_COUNT %d\n' "$rows" "$k"
    } >"$WORK/gen/gr_text_fonts.h"
fi

targets=""
for t in sfnt tt_program tt_font gr_code gr_font $DIFF_TARGETS; do
    [ -f "$ROOT/fuzz/$t.c" ] || continue
    case "$t" in tt_*) [ -n "$HAVE_TT" ] || continue ;; gr_*) [ -n "$HAVE_GR" ] || continue ;; esac
    extra_srcs="" extra_flags="" extra_libs=""
    case "$t" in
        gr2_api*) extra_srcs=$GR_DIFF_SRCS extra_flags=$GR_DIFF_FLAGS extra_libs=$GR_DIFF_LIBS ;;
        tt_*diff) extra_srcs=$TT_DIFF_SRCS extra_flags=$TT_DIFF_FLAGS extra_libs=$TT_DIFF_LIBS ;;
        gr_*diff) extra_srcs=$GR_DIFF_SRCS extra_flags=$GR_DIFF_FLAGS extra_libs=$GR_DIFF_LIBS ;;
    esac
    objs_t="$WORK/$t.o"
    $CC $CFLAGS $COMMON_FLAGS $extra_flags -c "$ROOT/fuzz/$t.c" -o "$WORK/$t.o"
    case "$t" in gr2_api*)
        for src in $GR2_API_SRCS; do
            o="$WORK/obj/$t-gr2-$(basename "$src" .c).o"
            $CC $CFLAGS $COMMON_FLAGS $GR2_API_FLAGS -c "$src" -o "$o"
            objs_t="$objs_t $o"
        done ;;
    esac
    for src in $extra_srcs; do
        o="$WORK/obj/$t-$(basename "$src" .c).o"
        $CC $CFLAGS $COMMON_FLAGS $extra_flags -c "$src" -o "$o"
        objs_t="$objs_t $o"
    done
    # shellcheck disable=SC2086
    $CXX $CXXFLAGS $objs_t -o "$OUT/$t" $LIB_FUZZING_ENGINE "$WORK/libfvfuzz.a" $DECOMP_LIBS $extra_libs -lm
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
