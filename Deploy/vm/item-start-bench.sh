#!/usr/bin/env bash
# Frames dropped at an item's start on a real DRM driver: one guest (QEMU/TCG, 2 vCPUs) plays the
# 2 s 30 fps clip of drm-test.sh RUNS times each way: once through (atomic modesetting, repeat off)
# and looping on legacy modesetting for 3.5 s from its first frame (each loop a hand-over). Prints
# the dropped frames of every run and how many runs dropped one of their first five frames, where
# the start's work (the screen's modeset, the first page flip, the next item opening) competes
# with the present thread. BUSY=1 keeps one host core busy meanwhile (a `yes` loop), which makes
# the guest's vCPUs lose time as a loaded CI machine's do. Not part of the test suites.
#
# Usage: Deploy/vm/item-start-bench.sh [std|virtio]   RUNS=n (default 6)  BUSY=1  MARQUEE_BIN=path
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MARQUEE_VM_CACHE:-$repo/.build-vm-image}
export MARQUEE_VM_CACHE=$cache
gpu=${1:-std}
runs=${RUNS:-6}
marquee=$("$here/marquee-binary.sh")
"$here/build-initramfs.sh" >/dev/null
share=$cache/item-start-bench-$gpu
rm -rf "$share"; mkdir -p "$share"
timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=320x180:rate=30:duration=2 \
  -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 30 "$share/clip.mp4"
printf 'playlist:\n  repeat: one\n  items:\n    - url: clip.mp4\ndisplay:\n  modesetting: legacy\n' > "$share/clip-legacy.yaml"
echo "$runs" > "$share/runs"
marquee=$("$here/guest-visible.sh" "$marquee" "$share")
cat > "$share/guest.sh" <<'GUEST'
#!/bin/sh
marquee=$1; s=$MVM_SHARE; runs=$(cat "$s/runs")
wait_frame() { w=0; while ! grep -q '"event":"frame"' "$1" 2>/dev/null; do w=$((w + 1)); [ $w -le 300 ] || return 1; sleep 0.1; done; }
run=1
while [ $run -le "$runs" ]; do
  timeout 90 "$marquee" play "$s/clip.mp4" --output drm --scaling none --repeat off --exit-when-idle \
    --events "$s/clip-$run.jsonl" --trace-frames > "$s/clip-$run.log" 2>&1
  timeout 60 "$marquee" play "$s/clip-legacy.yaml" --output drm --scaling none \
    --events "$s/legacy-$run.jsonl" --trace-frames > "$s/legacy-$run.log" 2>&1 &
  pid=$!
  wait_frame "$s/legacy-$run.jsonl" && sleep 3.5
  kill -TERM $pid; wait $pid
  run=$((run + 1))
done
GUEST
busy=
if [ "${BUSY:-0}" = 1 ]; then yes > /dev/null & busy=$!; fi
trap '[ -z "$busy" ] || kill $busy 2>/dev/null' EXIT
timeout $((120 + runs * 40)) python3 "$here/run-guest.py" --gpu "$gpu" --smp 2 --timeout $((90 + runs * 40)) \
  --share "$share" -- /bin/sh "$share/guest.sh" "$marquee" > "$share/out.txt" 2> "$share/err.txt" \
  || { echo "item-start-bench: the guest failed: $(tail -2 "$share/err.txt")" >&2; exit 1; }
python3 - "$share" "$runs" "$gpu" "${BUSY:-0}" <<'PY'
import json, sys
share, runs, gpu, busy = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == '1'
early = total = dropped_all = 0
for kind in ('clip', 'legacy'):
    for run in range(1, runs + 1):
        frames = [json.loads(line) for line in open(f'{share}/{kind}-{run}.jsonl') if '"event":"frame"' in line]
        dropped = [i for i, f in enumerate(frames) if f.get('dropped')]
        total += 1
        dropped_all += len(dropped)
        early += any(i < 5 for i in dropped)
        print(f'{kind} run {run}: {len(frames)} frames, dropped {dropped[:12]}')
print(f'{gpu}{" (one host core busy)" if busy else ""}: {early} of {total} runs dropped one of their first five frames; '
      f'{dropped_all} frames dropped in all')
PY
