#!/usr/bin/env bash
# What the present thread costs at 1080p, the figure that moving the picture conversion off it is
# judged by. Plays a 10 s 1080p30 H.264 + AAC clip headless at SIZE on the real clock (null audio),
# RUNS times, and prints for each run:
#   - the present thread's CPU per frame shown: its time on a CPU from /proc/PID/task/TID/schedstat
#     (nanoseconds; the thread is found by its kernel name, marquee.present), sampled every 50 ms
#     until the process exits, divided by the frames the trace says were shown;
#   - frames shown and dropped;
#   - each shown frame's lateness: its flip stamp minus its due time on the gapless timeline, taken
#     against the run's median offset (the start's own latency left out), as median, p99 and worst.
# The headless output converts each picture into its canvas on the present thread, as the DRM
# output does into its back buffer, so the CPU figure is the conversion's plus the pacing's.
#
# Usage: Scripts/present-bench.sh [MEDIA]   (default: a generated 10 s 1080p30 H.264 + AAC clip)
#   MARQUEE=path (a built marquee; default: build release), SCRATCH_PATH=.build, SIZE=1920x1080, RUNS=3
set -euo pipefail
cd "$(dirname "$0")/.."

SCRATCH_PATH="${SCRATCH_PATH:-.build}"
SIZE="${SIZE:-1920x1080}"
RUNS="${RUNS:-3}"
for tool in ffmpeg python3; do
    command -v "$tool" >/dev/null || { echo "present-bench.sh: $tool is not installed" >&2; exit 1; }
done
if [ -z "${MARQUEE:-}" ]; then
    echo "building marquee (release)" >&2
    swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
    MARQUEE="$SCRATCH_PATH/release/marquee"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

media="${1:-}"
if [ -z "$media" ]; then
    media="$work/clip.mp4"
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30" \
        -f lavfi -i "sine=frequency=440:sample_rate=48000" -t 10 \
        -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p -c:a aac "$media"
fi
echo "media: $media; screen $SIZE headless, audio null, real clock; $(nproc) cores; $MARQUEE"

for run in $(seq 1 "$RUNS"); do
    events="$work/events.$run.jsonl"
    "$MARQUEE" play "$media" --output "headless:$SIZE" --audio null --repeat off --exit-when-idle \
        --control none --input none --trace-frames --events "$events" 2>"$work/stderr.$run" &
    pid=$!
    # The present thread's time on a CPU, the last reading before the process went away.
    python3 - "$pid" > "$work/cpu.$run" <<'PY'
import os, sys, time
pid = sys.argv[1]
last = None
while os.path.exists(f"/proc/{pid}/task"):
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                if f.read().strip() != "marquee.present":
                    continue
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                last = int(f.read().split()[0])
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    time.sleep(0.05)
print(last if last is not None else -1)
PY
    wait "$pid" || { echo "run $run: marquee failed:"; cat "$work/stderr.$run"; exit 1; }
    python3 - "$events" "$(cat "$work/cpu.$run")" "$run" <<'PY'
import json, sys
events, cpu_ns, run = sys.argv[1], int(sys.argv[2]), sys.argv[3]
shown, dropped = [], 0
for line in open(events):
    event = json.loads(line)
    if event.get("event") != "frame":
        continue
    if event.get("dropped"):
        dropped += 1
    else:
        shown.append(event["t"] - event["time"])
if not shown:
    sys.exit(f"run {run}: no frame shown")
offsets = sorted(shown)
median = offsets[len(offsets) // 2]
late = sorted((o - median) * 1000 for o in shown)
p99 = late[min(len(late) - 1, int(len(late) * 0.99))]
cpu = f"{cpu_ns / 1e6 / len(shown):.2f} ms" if cpu_ns >= 0 else "unknown (no marquee.present thread seen)"
print(f"run {run}: present thread CPU per frame {cpu}; shown {len(shown)}, dropped {dropped}; "
      f"lateness against the median: median {late[len(late) // 2]:.2f} ms, p99 {p99:.2f} ms, worst {late[-1]:.2f} ms")
PY
done
