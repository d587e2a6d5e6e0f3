#!/usr/bin/env bash
# The README's run command: installs what is missing, builds marquee, generates the demo media and
# plays the demo playlist once through (headless on a machine with no display), with the live
# status line on a terminal. Extra arguments go to `marquee play` (e.g. --repeat all to loop).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
swift build -c release --product marquee
Scripts/generate-demo-media.sh
exec .build/release/marquee play Config/demo.yaml --repeat off --exit-when-idle "$@"
