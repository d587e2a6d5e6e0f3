#!/usr/bin/env bash
# What the on-screen display costs: the release build plays the same 1080p clip on the real clock
# (headless 1920x1080, audio null) twice, side by side in time, RUNS times each, alternating:
#   off  osd.enabled: false
#   on   the labels kept on screen the whole time (a `setRepeat` every second over the control
#        socket; osd.duration 3 s), so every frame is drawn with the panel blended in
# and prints each run's CPU seconds (user + system, the kernel's rusage at exit), the medians and
# the ratio on/off, plus frames dropped in each.
# Usage: Scripts/osd-bench.sh [CLIP]   (without CLIP: a 10 s H.264 1920x1080 30 fps testsrc2 clip)
#   RUNS=3 SCRATCH_PATH=.build
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${RUNS:-3}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"
for tool in ffmpeg swift python3; do
    command -v "$tool" >/dev/null || { echo "osd-bench.sh: $tool is not installed" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
clip="${1:-}"
if [ -z "$clip" ]; then
    clip="$work/h264-1920x1080-30fps-10s.mp4"
    echo "generating $(basename "$clip")" >&2
    ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=10" \
        -c:v libx264 -preset medium -crf 20 -pix_fmt yuv420p -g 60 "$clip"
fi
clip="$(cd "$(dirname "$clip")" && pwd)/$(basename "$clip")"

echo "building marquee (release)" >&2
swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
marquee="$(pwd)/$SCRATCH_PATH/release/marquee"

for mode in off on; do
    enabled=$([ "$mode" = on ] && echo true || echo false)
    cat > "$work/$mode.yaml" <<YAML
playlist:
  repeat: off
  items:
    - url: $clip
osd:
  enabled: $enabled
  duration: 3
YAML
done

python3 - "$marquee" "$work" "$RUNS" <<'PYTHON'
import json, os, socket, statistics, subprocess, sys, threading, time

marquee, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def run(mode):
    sock = os.path.join(work, f"{mode}.sock")
    events = os.path.join(work, f"{mode}.jsonl")
    player = subprocess.Popen([marquee, "play", os.path.join(work, f"{mode}.yaml"), "--output", "headless:1920x1080",
                               "--audio", "null", "--input", "none", "--control", sock, "--events", events,
                               "--trace-frames", "--exit-when-idle"], stderr=subprocess.DEVNULL)
    done = threading.Event()
    def keep_labels_up():
        client = None
        while not done.is_set():
            try:
                if client is None:
                    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    client.connect(sock)
                client.sendall(b'{"command":"setRepeat","mode":"off"}\n')
            except OSError:
                client = None
            done.wait(1 if client else 0.05)
    if mode == "on":
        threading.Thread(target=keep_labels_up, daemon=True).start()
    # The player's own CPU time, exactly, from the kernel's accounting at its exit.
    _, _, usage = os.wait4(player.pid, 0)
    player.returncode = 0
    done.set()
    cpu = usage.ru_utime + usage.ru_stime
    shown = dropped = 0
    with open(events) as f:
        for line in f:
            event = json.loads(line)
            if event.get("event") == "frame":
                if event.get("dropped"): dropped += 1
                else: shown += 1
    return cpu, shown, dropped

results = {"off": [], "on": []}
for index in range(runs):
    for mode in ("off", "on"):
        cpu, shown, dropped = run(mode)
        results[mode].append(cpu)
        print(f"run {index + 1} {mode}: {cpu:.2f} CPU s, {shown} frames shown, {dropped} dropped", flush=True)
off, on = statistics.median(results["off"]), statistics.median(results["on"])
print(f"median CPU seconds: off {off:.2f}, on {on:.2f}; on/off {on / off:.3f} ({(on / off - 1) * 100:+.1f} %)")
PYTHON
