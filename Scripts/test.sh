#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-dependencies.sh
swift build --build-tests
swift test --skip-build --disable-xctest "$@"
