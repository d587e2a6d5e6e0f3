#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every Swift Testing suite and
# then the end-to-end suites on real kernel drivers in a QEMU guest (Deploy/vm/guest-tests.sh).
# Arguments go to `swift test` and run only the Swift suites (e.g. Scripts/test.sh --filter Playlist).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
swift build --build-tests
swift test --skip-build --disable-xctest "$@"
if [ $# -eq 0 ]; then
  Deploy/vm/guest-tests.sh
fi
