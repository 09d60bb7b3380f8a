#!/bin/sh
# A graphite2 user built against the installed drop-in: `cmake --install`
# into a temporary prefix, gr2_api_dump.c compiled with the drop-in's own
# headers and linked by `pkg-config --cflags --libs fontvm-graphite2`, run
# on a font; its answers must equal those of the same program built
# against graphite2 (REAL_DUMP, linked with -lgraphite2).
#   pkgconfig_consumer.sh BUILD_DIR SOURCE_DIR CC REAL_DUMP
set -eu
build=$1 src=$2 cc=$3 real=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
libdir=$(ls -d "$tmp"/prefix/lib*/pkgconfig | head -1)
libdir=${libdir%/pkgconfig}
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs fontvm-graphite2)
case "$flags" in *"$tmp/prefix"*) ;; *) echo "FAIL: pkg-config gave $flags"; exit 1 ;; esac
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror -o "$tmp/dump" "$src/tests/compat/graphite2/gr2_api_dump.c" $flags
if ! LD_LIBRARY_PATH=$libdir ldd "$tmp/dump" | grep -q "libfontvm-graphite2.so.3 => $libdir"; then
    echo "FAIL: the program does not load libfontvm-graphite2 from $libdir:"; ldd "$tmp/dump"; exit 1
fi
font=$src/corpus/peer/graphite2/fonts/Padauk.ttf text=$src/corpus/texts/myanmar.txt
LD_LIBRARY_PATH=$libdir "$tmp/dump" "$font" "$text" --max-lines 6 --advfn --justify-dir none >"$tmp/ours"
"$real" "$font" "$text" --max-lines 6 --advfn --justify-dir none >"$tmp/real"
if ! cmp -s "$tmp/ours" "$tmp/real"; then
    echo "FAIL: answers differ:"; diff "$tmp/real" "$tmp/ours" | head -20; exit 1
fi
echo "installed drop-in: headers, pkg-config and library give graphite2's $(wc -l <"$tmp/real") answers"
