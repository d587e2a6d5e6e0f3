#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every Swift Testing suite and
# then the end-to-end suites on real kernel drivers in a QEMU guest (Deploy/vm/guest-tests.sh).
# Arguments go to `swift test` and run only the Swift suites (e.g. Scripts/test.sh --filter Playlist).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
swift build --build-tests
if [ $# -eq 0 ]; then
  # The frame-lock suite measures how closely separate player processes agree on the wall clock: it
  # runs on its own after the rest, not beside 200 other suites competing for two cores.
  swift test --skip-build --disable-xctest --skip WallSyncCLITests
  swift test --skip-build --disable-xctest --filter WallSyncCLITests
  Deploy/vm/guest-tests.sh
else
  swift test --skip-build --disable-xctest "$@"
fi
