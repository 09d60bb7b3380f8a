# Shared by scripts/test, scripts/conform, scripts/fuzz, ...: installing what
# is missing and building a preset.  Source it; do not run it.
# Every failure prints one clear line and exits non-zero.
#
# Exit statuses shared by the scripts: 0 fine; 1 found something (a test
# failed, a difference, a regression, a crash); 2 bad usage or input (an
# unknown option, a missing file, a bad conform.toml); 3 could not run (a
# package could not be installed, the build failed, the run was interrupted).

FV_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export FV_ROOT

# The project's Python is Debian's /usr/bin/python3: its modules (jsonschema,
# fontTools, ...) come from scripts/lib/packages.txt like everything else, so
# a python3 earlier on PATH (a pyenv, a venv) without them must not shadow it.
# The CMake presets name the same interpreter (Python3_EXECUTABLE).
case ":$PATH:" in
    :/usr/bin:*) ;;
    *) PATH="/usr/bin:$PATH"; export PATH ;;
esac

fv_say() { printf '[fontvm] %s\n' "$*" >&2; }
fv_die() { printf '[fontvm] error: %s\n' "$*" >&2; exit 1; }
# fv_usage MESSAGE: bad usage or input (status 2).
fv_usage() { printf '[fontvm] error: %s\n' "$*" >&2; exit 2; }
# fv_cannot_run MESSAGE: the environment let us down (status 3).
fv_cannot_run() { printf '[fontvm] error: %s\n' "$*" >&2; exit 3; }

# fv_help FILE: prints the comment block at the top of a script (after the
# shebang, up to the first line that is not a comment) as its --help.
fv_help() { sed -n '2,/^[^#]/p' "$1" | sed '$d' | sed 's/^# \{0,1\}//'; }

# fv_ensure_packages [LIST]: installs the packages of LIST (default
# scripts/lib/packages.txt; one a line, # comments) that are not installed
# yet (idempotent; prints what it installs).
fv_ensure_packages() {
    local list=${1:-$FV_ROOT/scripts/lib/packages.txt} want missing=() p
    want=$(sed 's/#.*//' "$list" | tr -s ' \t' '\n' | grep -v '^$')
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
        tail -n 5 "$log" >&2; fv_cannot_run "apt-get update failed (log: $log)"
    fi
    if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
        tail -n 5 "$log" >&2; fv_cannot_run "apt-get install failed for: ${missing[*]} (log: $log)"
    fi
    rm -f "$log"
    fv_say "installed ${#missing[@]} package(s)"
}

# fv_build PRESET [TARGET...]: configures (once) and builds a CMake preset
# into build/PRESET.
fv_build() {
    local preset=$1; shift
    local dir="$FV_ROOT/build/$preset"
    mkdir -p "$FV_ROOT/build" || fv_cannot_run "cannot create $FV_ROOT/build"
    if [ ! -f "$dir/build.ninja" ]; then
        fv_say "configuring preset $preset"
        (cd "$FV_ROOT" && cmake --preset "$preset" >"$dir.configure.log" 2>&1) || {
            tail -n 20 "$dir.configure.log" >&2; fv_cannot_run "cmake configure of preset '$preset' failed (log: $dir.configure.log)"; }
    fi
    fv_say "building preset $preset"
    local targets=()
    [ $# -gt 0 ] && targets=(--target "$@")
    (cd "$FV_ROOT" && cmake --build "$dir" -j "$(nproc)" "${targets[@]}" >"$dir.build.log" 2>&1) || {
        grep -m 20 -E 'error|Error' "$dir.build.log" >&2; fv_cannot_run "build of preset '$preset' failed (log: $dir.build.log)"; }
}

# fv_check_inputs [run.py options]: resolves the conformance configuration
# (conform.toml, its font sets and texts) the way scripts/conform will, before
# anything is built; a bad or missing input is one line and status 2.
fv_check_inputs() {
    command -v python3 >/dev/null || fv_cannot_run "python3 is missing (apt-get install python3)"
    python3 -c 'import tomllib' 2>/dev/null || fv_cannot_run "python3 is older than 3.11 (needs tomllib; Debian 12 has 3.11)"
    local rc=0
    python3 "$FV_ROOT/conformance/report/run.py" --list "$@" >/dev/null || rc=$?
    [ "$rc" -eq 0 ] || exit "$rc"
}
