#!/usr/bin/env bash
# Times blending a 1280x200 OSD overlay into a 1920x1080 buffer (release build; prints ms per blend).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product overlay-blend-bench >&2
"$(swift build -c release --show-bin-path)/overlay-blend-bench"
