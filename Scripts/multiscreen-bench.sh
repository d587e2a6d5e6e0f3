#!/usr/bin/env bash
# What several screens cost: the release build plays the same 1080p clip on the real clock,
# headless (each screen rendered into memory at 1920x1080 exactly as a screen would show it; audio
# null), in three shapes, RUNS times each, alternating:
#   one     one screen playing the clip
#   two     two screens (displays:), each playing the clip from its own playlist: two decodes,
#           two conversions, two present threads
#   mirror  one screen playing the clip and a second mirroring it: one decode, each frame
#           converted into both screens' buffers
# and prints each run's CPU seconds (user + system, the kernel's rusage at exit), frames shown and
# dropped per screen, the medians and the ratios two/one and mirror/one.
# Usage: Scripts/multiscreen-bench.sh [CLIP]   (without CLIP: a 10 s H.264 1920x1080 30 fps testsrc2 clip)
#   RUNS=3 SCRATCH_PATH=.build MARQUEE_BIN=path (skips the build)
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${RUNS:-3}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"
for tool in ffmpeg python3; do
    command -v "$tool" >/dev/null || { echo "multiscreen-bench.sh: $tool is not installed" >&2; exit 1; }
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

if [ -n "${MARQUEE_BIN:-}" ]; then
    marquee="$MARQUEE_BIN"
else
    echo "building marquee (release)" >&2
    nice -n 19 swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
    marquee="$(pwd)/$SCRATCH_PATH/release/marquee"
fi

screen() {  # screen NAME CONNECTOR CONTENT...
    printf '  - name: %s\n    connector: %s\n    mode: 1920x1080\n' "$1" "$2"
    shift 2
    printf '    %s\n' "$@"
}
playlist="playlist: {repeat: \"off\", items: [\"$clip\"]}"
{ echo "displays:"; screen a HDMI-A-1 "$playlist"; } > "$work/one.yaml"
{ echo "displays:"; screen a HDMI-A-1 "$playlist"; screen b HDMI-A-2 "$playlist"; } > "$work/two.yaml"
{ echo "displays:"; screen a HDMI-A-1 "$playlist"; screen b HDMI-A-2 "mirror: a"; } > "$work/mirror.yaml"

python3 - "$marquee" "$work" "$RUNS" <<'PYTHON'
import json, os, statistics, subprocess, sys

marquee, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def frames(path):
    shown = dropped = 0
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                event = json.loads(line)
                if event.get("event") == "frame":
                    if event.get("dropped"): dropped += 1
                    else: shown += 1
    return shown, dropped

def run(shape):
    events = os.path.join(work, f"{shape}.jsonl")
    player = subprocess.Popen([marquee, "play", os.path.join(work, f"{shape}.yaml"), "--output", "headless",
                               "--audio", "null", "--input", "none", "--control", "none", "--events", events,
                               "--trace-frames", "--exit-when-idle"], stderr=subprocess.DEVNULL)
    # The player's own CPU time, exactly, from the kernel's accounting at its exit.
    _, status, usage = os.wait4(player.pid, 0)
    player.returncode = 0
    if status != 0:
        sys.exit(f"{shape}: marquee exited with status {status}")
    per_screen = [frames(events)] + ([frames(events + ".b")] if shape == "two" else [])
    return usage.ru_utime + usage.ru_stime, per_screen

results = {"one": [], "two": [], "mirror": []}
for index in range(runs):
    for shape in ("one", "two", "mirror"):
        cpu, per_screen = run(shape)
        results[shape].append(cpu)
        described = ", ".join(f"{s} shown {d} dropped" for s, d in per_screen)
        print(f"run {index + 1} {shape:6}: {cpu:6.2f} CPU s ({described})", flush=True)
one, two, mirror = (statistics.median(results[s]) for s in ("one", "two", "mirror"))
print(f"median CPU seconds: one {one:.2f}, two {two:.2f}, mirror {mirror:.2f}; "
      f"two/one {two / one:.2f}, mirror/one {mirror / one:.2f}")
PYTHON
