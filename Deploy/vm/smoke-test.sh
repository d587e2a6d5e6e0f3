#!/usr/bin/env bash
# Smoke test of the VM harness: boots Debian's kernel under QEMU/TCG on bochs-drm (-vga std) and runs
# the real `marquee` binary in the guest: /dev/dri/card0 must exist, `marquee probe` must read a clip
# made here with the ffmpeg CLI, and `marquee play ... --output headless --clock fast` must exit 0
# and write frame events; a frame-locked player (`sync:`) must join the wall again at once when the
# guest's clock is stepped back 100 s (`date -s`), and put its frames up at their wall times after.
# Prints one timing line; exits non-zero with a message on any failure.
#
# Usage: Deploy/vm/smoke-test.sh
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   SWIFT_SCRATCH_PATH=p  scratch path for `swift build -c release --product marquee` (default: <repo>/.build)
#   MARQUEE_VM_CACHE=dir  image/clip cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit for the guest (default 150)
set -euo pipefail

suite=smoke-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"

fail() { echo "smoke-test: FAIL: $*" >&2; exit 1; }

need_tools qemu-system-x86_64 ffmpeg python3 timeout

# 1. marquee
t=$(date +%s.%N)
marquee=$("$here/marquee-binary.sh") || fail "no marquee binary"
echo "smoke-test: marquee ready in $(elapsed "$t") s" >&2

# 2. guest image (cached)
t=$(date +%s.%N)
"$here/build-initramfs.sh" >/dev/null || fail "guest image build failed"
t_image=$(elapsed "$t")

# 3. the clip (cached): 2 s of 320x180 H.264 at 30 fps + AAC, from lavfi sources
clip_cache=$cache/clips/smoke-320x180-30fps-2s.mp4
if [ ! -s "$clip_cache" ]; then
  mkdir -p "$(dirname "$clip_cache")"
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i testsrc2=size=320x180:rate=30:duration=2 \
    -f lavfi -i sine=frequency=1000:sample_rate=48000:duration=2 \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 30 -c:a aac -shortest \
    "$clip_cache.tmp.mp4" || fail "ffmpeg could not generate the test clip"
  mv "$clip_cache.tmp.mp4" "$clip_cache"
fi

# 4. the share (read-write in the guest, at the same path) with the clip, the binary if the guest
#    could not see it (tmpfs-backed paths), and the guest script
share=$cache/smoke-share
rm -rf "$share"; mkdir -p "$share"
cp "$clip_cache" "$share/clip.mp4"
marquee=$("$here/guest-visible.sh" "$marquee" "$share")

cat > "$share/guest.sh" <<'GUEST'
#!/bin/sh
# Runs in the guest, chrooted into the host's /. $1 = marquee binary; $MVM_SHARE = the share.
set -u
marquee=$1; s=$MVM_SHARE
fail() { echo "guest: FAIL: $*" >&2; exit 1; }
up() { cut -d' ' -f1 /proc/uptime; }
echo "kernel=$(uname -r)"
[ -c /dev/dri/card0 ] || fail "/dev/dri/card0 does not exist (drm driver not loaded?); /dev/dri: $(ls /dev/dri 2>&1)"
echo "dri=$(ls /dev/dri | tr '\n' ' ')"
echo "driver=$(sed -n 's/^DRIVER=//p' /sys/class/drm/card0/device/uevent)"
for c in /sys/class/drm/card0-*; do
  [ -e "$c/status" ] && echo "connector=${c#/sys/class/drm/card0-} $(cat "$c/status") $(head -1 "$c/modes")"
done
t_probe=$(up)
rc=0
timeout 60 "$marquee" probe "$s/clip.mp4" > "$s/probe.txt" 2>&1 || rc=$?
[ $rc -eq 0 ] || { cat "$s/probe.txt" >&2; fail "marquee probe exited $rc"; }
grep -q '320x180' "$s/probe.txt" || { cat "$s/probe.txt" >&2; fail "marquee probe did not report 320x180"; }
t_play=$(up)
timeout 90 "$marquee" play "$s/clip.mp4" --output headless --clock fast --exit-when-idle --repeat off \
  --events "$s/events.jsonl" --trace-frames > "$s/play.txt" 2>&1 || rc=$?
t_end=$(up)
[ $rc -eq 0 ] || { cat "$s/play.txt" >&2; fail "marquee play exited $rc"; }
echo "uptime_probe=$t_probe uptime_play=$t_play uptime_end=$t_end"
# Frame-locked playback on a clock that is stepped back 100 s: the player must hear the step (its
# timerfd is cancelled on set) and join the wall at once, not wait 100 s for its next frame.
"$marquee" play "$s/sync.yaml" --output headless:320x180 --audio null --input none --control none \
  --events "$s/sync.jsonl" --trace-frames > "$s/sync.txt" 2>&1 &
pid=$!
# Stepped while it plays: after its first frame (starting over 9p can take seconds under load).
i=0
while ! grep -q '"event":"frame"' "$s/sync.jsonl" 2>/dev/null; do
  i=$((i + 1)); [ $i -le 600 ] || fail "the frame-locked player showed no frame in 60 s"
  sleep 0.1
done
sleep 2
date -s "@$(( $(date +%s) - 100 ))" > /dev/null || fail "date -s failed"
echo "clock_stepped_at=$(date +%s.%N)"
sleep 4
kill "$pid"; wait "$pid" || true
GUEST
cat > "$share/sync.yaml" <<'YAML'
sync: {epoch: "2026-01-01T00:00:00Z"}
playlist:
  items:
    - url: clip.mp4
      duration: 1.5
YAML

# 5. boot and run (hard timeout inside run-guest.py, and an outer one in case python itself hangs)
t=$(date +%s.%N)
vm_timeout=${VM_TIMEOUT:-150}
rc=0
timeout -k 5 $((vm_timeout + 30)) python3 "$here/run-guest.py" --gpu std --timeout "$vm_timeout" \
  --share "$share" --json "$share/run.json" -- /bin/sh "$share/guest.sh" "$marquee" \
  > "$share/guest-stdout.txt" 2> "$share/guest-stderr.txt" || rc=$?
t_vm=$(elapsed "$t")
if [ $rc -ne 0 ]; then
  cat "$share/guest-stdout.txt" "$share/guest-stderr.txt" >&2
  case $rc in
    124) fail "the guest timed out after ${vm_timeout} s (killed); console log: $share/.mvm/serial.log" ;;
    125) fail "the guest did not boot or report (see above and $share/.mvm/serial.log)" ;;
    *)   fail "the guest check failed with exit status $rc (see above)" ;;
  esac
fi

# 6. host-side checks of what the guest wrote
ev=$share/events.jsonl
[ -s "$ev" ] || fail "marquee play wrote no events to $ev"
frames=$(grep -c '"event":"frame"' "$ev" || true)
[ "$frames" -ge 55 ] || fail "expected ~60 frame events in $ev, found $frames"
grep -q '"event":"itemEnded".*"reason":"playbackEnded"' "$ev" || fail "no itemEnded/playbackEnded event in $ev"

out=$share/guest-stdout.txt
# The clock stepped back: a join for it within a second, then every frame at its wall time
# (epoch + k * 1.5 s + pts), within what TCG's timing allows.
stepped=$(sed -n 's/^clock_stepped_at=//p' "$out" | head -1)
[ -n "$stepped" ] || fail "the guest did not step its clock"
python3 - "$share/sync.jsonl" "$stepped" <<'PY' || fail "frame lock did not follow the stepped clock (see above; $share/sync.txt)"
import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
stepped = float(sys.argv[2])
joins = [e for e in events if e["event"] == "wallSyncJoined"]
reasons = [e["reason"] for e in joins]
if "clockChanged" not in reasons:
    sys.exit(f"no join for the stepped clock: joins {reasons}")
after, skip = [], False
for e in events:
    if e["event"] == "wallSyncJoined" and e["reason"] == "clockChanged":
        after, skip = [], True
    elif e["event"] == "frame" and "wall" in e and not e.get("dropped") and e["wall"] > stepped - 1:
        if skip:
            skip = False
            first = e["wall"]
            continue
        after.append(e["wall"] - (1767225600 + round((e["wall"] - 1767225600 - e["pts"]) / 1.5) * 1.5 + e["pts"]))
if len(after) < 30:
    sys.exit(f"only {len(after)} frames after the step")
if first - stepped > 2:
    sys.exit(f"the first frame after the step came {first - stepped:.1f} s later")
off = sorted(abs(x) for x in after)
median = off[len(off) // 2] * 1000
print(f"smoke-test: sync: clock stepped back 100 s, joined again ({reasons}); first frame {first - stepped:.2f} s after, "
      f"{len(after)} frames after it, median {median:.1f} ms off the wall")
if median > 20:
    sys.exit(f"frames after the step are {median:.1f} ms off the wall (median)")
PY
val() { sed -n "s/.*$1=\\([^ ]*\\).*/\\1/p" "$out" | head -1; }
guest_desc="kernel $(val kernel), $(val driver), $(sed -n 's/^connector=//p' "$out" | head -1), /dev/dri: $(sed -n 's/^dri=//p' "$out" | sed 's/ *$//')"
boot_to_start=$(val uptime_probe)
run_time=$(awk -v a="$(val uptime_play)" -v b="$(val uptime_end)" 'BEGIN { printf "%.2f", b - a }')
probe_time=$(awk -v a="$(val uptime_probe)" -v b="$(val uptime_play)" 'BEGIN { printf "%.2f", b - a }')
echo "smoke-test: PASS ($guest_desc; $frames frames)"
echo "smoke-test: timing: guest boot to marquee start ${boot_to_start} s, probe ${probe_time} s, play ${run_time} s; vm ${t_vm} s wall, image ${t_image} s, total $(elapsed "$t_begin") s"
