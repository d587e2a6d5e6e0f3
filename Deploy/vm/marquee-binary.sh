#!/usr/bin/env bash
# Prints the path of the marquee binary the guest tests run: $MARQUEE_BIN if set, else a release
# build (under TCG a debug build is slow enough to drop frames: measured 1-2 of 60 in a 2 s clip).
#   SWIFT_SCRATCH_PATH=p  scratch path for `swift build -c release --product marquee` (default: <repo>/.build)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${MARQUEE_BIN:-}" ]; then
  marquee=$(readlink -f "$MARQUEE_BIN")
else
  scratch=${SWIFT_SCRATCH_PATH:-$repo/.build}
  (cd "$repo" && timeout 1800 swift build -c release --scratch-path "$scratch" --product marquee >&2) || {
    echo "marquee-binary: swift build failed" >&2; exit 1; }
  marquee=$(cd "$repo" && swift build -c release --scratch-path "$scratch" --show-bin-path)/marquee
fi
[ -x "$marquee" ] || { echo "marquee-binary: no marquee binary at $marquee" >&2; exit 1; }
echo "$marquee"
