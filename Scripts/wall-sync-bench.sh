#!/usr/bin/env bash
# Frame lock on one host: two `marquee play` processes with the same `sync:` config, the second
# started 3.7 s after the first, both headless at SIZE, side by side for SECONDS. Each writes a
# frame trace with CLOCK_REALTIME stamps; the script lines the traces up by source frame (cycle,
# item, pts) and prints how far apart the two put up each frame (a join's first frame, put up
# mid-slot by design, left out), how many sampling instants they disagreed on, and each process's
# CPU time, and how late each put up the first frames of each item (a hand-over) against the others.
# Then the second player is stopped (SIGSTOP) for 2 s and the time to rejoin is printed.
#
# Usage: Scripts/wall-sync-bench.sh [SECONDS]   (default 20)
#   MARQUEE=path (a built marquee; default: build release), SCRATCH_PATH=.build, SIZE=1920x1080,
#   KEEP=dir (keep the traces there).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_SIDE_BY_SIDE="${1:-20}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"
SIZE="${SIZE:-1920x1080}"
for tool in ffmpeg python3; do
    command -v "$tool" >/dev/null || { echo "wall-sync-bench.sh: $tool is not installed" >&2; exit 1; }
done
if [ -z "${MARQUEE:-}" ]; then
    echo "building marquee (release)" >&2
    swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
    MARQUEE="$SCRATCH_PATH/release/marquee"
fi
work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -CONT "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

# Two 1080p30 clips with sound: 6 s and 4 s (trimmed to 3 s), a cycle of 9 s.
for clip in "a 6 testsrc2" "b 4 testsrc"; do
    set -- $clip
    ffmpeg -nostdin -loglevel error -y -f lavfi -i "$3=size=1920x1080:rate=30" -f lavfi -i "sine=frequency=440:sample_rate=48000" \
        -t "$2" -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p -c:a aac "$work/$1.mp4"
done
cat > "$work/wall.yaml" <<'YAML'
sync:
  epoch: "2026-01-01T00:00:00Z"
playlist:
  items:
    - a.mp4
    - url: b.mp4
      start: 0.5
      end: 3.5
YAML

play() { # name
    "$MARQUEE" play "$work/wall.yaml" --output "headless:$SIZE" --audio null --input none --control none \
        --events "$work/$1.jsonl" --trace-frames 2>"$work/$1.log" &
    pids+=("$!")
}
play a
sleep 3.7
play b
sleep "$SECONDS_SIDE_BY_SIDE"
cpu() { awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$1/stat"; }
cpu_a=$(cpu "${pids[0]}")
cpu_b=$(cpu "${pids[1]}")
echo "cpu seconds: first $cpu_a, second $cpu_b (second ran $SECONDS_SIDE_BY_SIDE s)"
stop_at=$(date +%s.%N)
kill -STOP "${pids[1]}"
sleep 2
kill -CONT "${pids[1]}"
sleep 4
kill "${pids[@]}"
wait 2>/dev/null || true
pids=()

python3 - "$work/a.jsonl" "$work/b.jsonl" "$stop_at" <<'PY'
import json, sys
epoch, lengths, starts = 1767225600, [6.0, 3.0], [0.0, 0.5]
cycle = sum(lengths)
cycle_starts = [0.0, 6.0]
def trace(path):
    shown, after_join, joins = [], False, []
    for line in open(path):
        e = json.loads(line)
        if e["event"] == "wallSyncJoined":
            after_join = True
            joins.append(e)
        elif e["event"] == "frame" and "wall" in e and not e.get("dropped"):
            slot = cycle_starts[e["item"]] + max(0.0, e["pts"] - starts[e["item"]])
            k = round((e["wall"] - epoch - slot) / cycle)
            shown.append((e["wall"], (k, e["item"], round(e["pts"] * 1000)), after_join, epoch + k * cycle + slot))
            after_join = False
    return shown, joins
a, _ = trace(sys.argv[1])
b, joins_b = trace(sys.argv[2])
stop_at = float(sys.argv[3])
starts_a = {key: wall for wall, key, join, _ in a if not join}
pairs = [(wall - starts_a[key]) * 1000 for wall, key, join, _ in b if not join and key in starts_a and wall < stop_at]
pairs.sort(key=abs)
late = sorted((wall - due) * 1000 for wall, key, join, due in b if not join and wall < stop_at)
print(f"frames put up by both before the stop: {len(pairs)}")
print(f"offset between the players: median {sorted(pairs)[len(pairs)//2]:.3f} ms, 99th percentile {abs(pairs[int(len(pairs)*0.99)]):.3f} ms, worst {abs(pairs[-1]):.3f} ms")
print(f"second player against its own wall: median {late[len(late)//2]:.3f} ms late, worst {late[-1]:.3f} ms")
# Hand-over frames (the first 0.2 s of each item) against mid-item ones, each player against its
# own wall: the next-but-one item is opened right after an item's first frame and competes with it.
def lateness(shown):
    handover, mid = [], []
    for wall, (k, item, pts_ms), join, due in shown:
        if join or wall >= stop_at:
            continue
        (handover if pts_ms / 1000 - starts[item] < 0.2 else mid).append((wall - due) * 1000)
    return sorted(handover), sorted(mid)
def summary(values):
    if not values:
        return "none"
    return f"{len(values)} frames, median {values[len(values)//2]:.3f} ms, 99th percentile {values[int(len(values)*0.99)]:.3f} ms, worst {values[-1]:.3f} ms late"
for name, shown in (("first", a), ("second", b)):
    handover, mid = lateness(shown)
    print(f"{name} player, hand-over frames: {summary(handover)}")
    print(f"{name} player, mid-item frames:  {summary(mid)}")
# The first frame put up after SIGCONT (2 s after the stop), and how the frames after it sit on the wall.
resumed = [(wall, join, due) for wall, key, join, due in b if wall > stop_at + 2]
if resumed:
    settled = sorted((wall - due) * 1000 for wall, join, due in resumed[1:] if not join)
    print(f"after SIGSTOP for 2 s: first frame {resumed[0][0] - stop_at - 2:.3f} s after SIGCONT (joins: {[j['reason'] for j in joins_b]}); "
          f"the {len(settled)} frames after it: median {settled[len(settled)//2]:.3f} ms late, worst {settled[-1]:.3f} ms")
PY
