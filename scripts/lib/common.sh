# Shared by scripts/test, scripts/conform, scripts/fuzz, ...: installing what
# is missing and building a preset.  Source it; do not run it.
# Every failure prints one clear line and exits non-zero.

FV_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export FV_ROOT

fv_say() { printf '[fontvm] %s\n' "$*" >&2; }
fv_die() { printf '[fontvm] error: %s\n' "$*" >&2; exit 1; }

# fv_ensure_packages: installs the packages of scripts/lib/packages.txt that
# are not installed yet (idempotent; prints what it installs).
fv_ensure_packages() {
    local want missing=() p
    want=$(grep -v '^\s*#' "$FV_ROOT/scripts/lib/packages.txt" | grep -v '^\s*$')
    for p in $want; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        fv_say "all required packages are installed"
        return 0
    fi
    fv_say "installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    local log
    log=$(mktemp)
    if ! $sudo apt-get update >"$log" 2>&1; then
        tail -n 5 "$log" >&2; fv_die "apt-get update failed (log: $log)"
    fi
    if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
        tail -n 5 "$log" >&2; fv_die "apt-get install failed for: ${missing[*]} (log: $log)"
    fi
    rm -f "$log"
    fv_say "installed ${#missing[@]} package(s)"
}

# fv_build PRESET [TARGET...]: configures (once) and builds a CMake preset
# into build/PRESET.
fv_build() {
    local preset=$1; shift
    local dir="$FV_ROOT/build/$preset"
    mkdir -p "$FV_ROOT/build" || fv_die "cannot create $FV_ROOT/build"
    if [ ! -f "$dir/build.ninja" ]; then
        fv_say "configuring preset $preset"
        (cd "$FV_ROOT" && cmake --preset "$preset" >"$dir.configure.log" 2>&1) || {
            tail -n 20 "$dir.configure.log" >&2; fv_die "cmake configure of preset '$preset' failed (log: $dir.configure.log)"; }
    fi
    fv_say "building preset $preset"
    local targets=()
    [ $# -gt 0 ] && targets=(--target "$@")
    (cd "$FV_ROOT" && cmake --build "$dir" -j "$(nproc)" "${targets[@]}" >"$dir.build.log" 2>&1) || {
        grep -m 20 -E 'error|Error' "$dir.build.log" >&2; fv_die "build of preset '$preset' failed (log: $dir.build.log)"; }
}
