#!/usr/bin/env bash
# Every end-to-end suite on real kernel drivers in the QEMU guest, with one release build of
# marquee: smoke-test (boot, probe, headless play, a frame-locked player following a stepped clock), clock-step-test
# (the watchdog and config polls through wall-clock steps back and forward under play MEDIA, CONFIG and URL), drm-test on bochs-drm and virtio-gpu (scaling,
# portrait, gapless loop, console, VT switch, hotplug, clean exit, probe), vkms-test (vkms built out of tree
# beside bochs-drm: the OSD on a real overlay plane in the kernel's state, and a screenshot through the
# writeback connector with the OSD composed over the video), multiscreen-test (displays:
# two playlists on virtio-gpu's two heads, a mirrored pair, each connector unplugged, SIGTERM), input-test (keys
# through QMP into virtio and USB keyboards, a uinput keypad plugged in and out), lockdown-test (input.lockdown: a keyboard without a bound key grabbed, its Ctrl+Alt+F2
# switching no VT), audio-test (a
# tone and a flash/beep clip through intel-hda into a WAV on the host: A/V sync), cec-test (HDMI-CEC
# standby, image view on and active source on vivid's emulated bus, seen by its TV), fleet-test (the
# media cache on a full 400 KB tmpfs, and a power cut mid-download on ext4 resumed with a Range),
# ledger-power-test (a power cut mid-play on ext4: the play ledger verifies and the player resumes), the deployment
# checks (Deploy/systemd/verify-unit.sh: install.sh staged, systemd-analyze verify) and the boot
# image (Deploy/image/boot-test.py: boot to first frame, a killed player restarted). Scripts/test.sh
# runs it after the Swift suites; it installs what the guest needs first (Deploy/vm/install-deps.sh).
# Exits 1 if any suite failed; prints each suite's PASS/FAIL lines.
#   MARQUEE_BIN=path   use this marquee binary instead of building one (release)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
"$here/install-deps.sh" || { echo "guest-tests: error: could not install the guest harness's packages" >&2; exit 2; }
MARQUEE_BIN=$("$here/marquee-binary.sh") || { echo "guest-tests: error: no marquee binary" >&2; exit 2; }
export MARQUEE_BIN

export MARQUEE_VM_CACHE=${MARQUEE_VM_CACHE:-$(cd "$here/../.." && pwd)/.build-vm-image}
failed=()
for suite in vm/smoke-test.sh vm/clock-step-test.sh vm/drm-test.sh vm/vkms-test.sh vm/multiscreen-test.sh vm/input-test.sh vm/lockdown-test.sh vm/audio-test.sh vm/cec-test.sh vm/fleet-test.sh vm/ledger-power-test.sh systemd/verify-unit.sh image/boot-test.py; do
  echo "== Deploy/$suite"
  start=$(date +%s)
  rc=0; "$here/../$suite" || rc=$?
  if [ $rc -eq 0 ]; then
    echo "== $suite passed in $(( $(date +%s) - start )) s"
  else
    # 77 (a skip) is not a pass either: install-deps.sh installs what every suite needs.
    echo "== $suite FAILED (exit $rc) after $(( $(date +%s) - start )) s"
    failed+=("$suite")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "guest-tests: failed: ${failed[*]}"
  exit 1
fi
echo "guest-tests: all suites passed"
