# Sourced by every guest suite (Deploy/vm/*-test.sh) once it has set `suite` to its name: the
# repository and the guest image cache (MARQUEE_VM_CACHE, exported for the helpers), the suite's
# start time, `die` (one error line naming the suite, exit 2), `elapsed` and `need_tools`.
# shellcheck shell=bash
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MARQUEE_VM_CACHE:-$repo/.build-vm-image}
export MARQUEE_VM_CACHE=$cache
t_begin=$(date +%s.%N)

die() { echo "$suite: error: $*" >&2; exit 2; }
# elapsed START: seconds since START (a `date +%s.%N`), to a tenth
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# need_tools TOOL...: dies naming the first one not installed
need_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || die "'$tool' not found; run Deploy/vm/install-deps.sh"
  done
}
