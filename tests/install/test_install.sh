#!/usr/bin/env bash
# Usage: test_install.sh BUILD_DIR CONSUMER_SOURCE C_COMPILER
set -eu
build=$1 consumer=$2 cc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log"
test -f "$tmp/prefix/include/fontvm/fontvm.h"
test -f "$tmp/prefix/lib/pkgconfig/fontvm.pc" || test -f "$tmp/prefix/lib/x86_64-linux-gnu/pkgconfig/fontvm.pc"
ls "$tmp"/prefix/lib*/libfontvm.a "$tmp"/prefix/lib*/libfontvm.so* >/dev/null 2>&1 || ls "$tmp"/prefix/lib/*/libfontvm.a >/dev/null
san=$(grep -q 'FONTVM_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && echo '-fsanitize=address,undefined' || true)
# 1. CMake package
cmake -S "$consumer" -B "$tmp/cm" -G Ninja -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DCMAKE_C_FLAGS="$san" >"$tmp/cm.log"
cmake --build "$tmp/cm" >>"$tmp/cm.log" || { cat "$tmp/cm.log"; exit 1; }
out=$("$tmp/cm/consumer" /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
[ "$out" = "DejaVu Sans 6253 io_error" ] || { echo "find_package consumer printed: $out"; exit 1; }
# 2. pkg-config
pcdir=$(dirname "$(find "$tmp/prefix" -name fontvm.pc | head -1)")
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs --static fontvm)
libdir=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir fontvm)
"$cc" $san -o "$tmp/pc" "$consumer/consumer.c" $flags -Wl,-rpath,"$libdir"  # links the shared library
out=$("$tmp/pc" /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)
[ "$out" = "DejaVu Sans 6253 io_error" ] || { echo "pkg-config consumer printed: $out"; exit 1; }
echo "install ok: find_package and pkg-config consumers built and ran"
