#!/usr/bin/env bash
# The control socket's cost, measured on the release build while a 1080p clip plays on the real
# clock (headless 1920x1080, audio null, repeat all):
#   - the `status` round trip (request written to reply read) over ROUNDS requests: median, p95, max;
#   - frames dropped in WINDOW seconds of playback with no client, then with CLIENTS clients asking
#     for the status as fast as they can and subscribed to every event (frames included);
#   - the player's descriptors and RSS before and after CYCLES connect/disconnect cycles.
# Usage: Scripts/control-bench.sh [CLIP]   (without CLIP: a 10 s H.264 1920x1080 30 fps testsrc2 clip)
#   ROUNDS=500 CLIENTS=100 WINDOW=10 CYCLES=10000 SCRATCH_PATH=.build
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-500}"
CLIENTS="${CLIENTS:-100}"
WINDOW="${WINDOW:-10}"
CYCLES="${CYCLES:-10000}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"

for tool in ffmpeg swift python3; do
    command -v "$tool" >/dev/null || { echo "control-bench.sh: $tool is not installed" >&2; exit 1; }
done

work="$(mktemp -d)"
player=""
trap '[ -n "$player" ] && kill "$player" 2>/dev/null; rm -rf "$work"' EXIT

clip="${1:-}"
if [ -z "$clip" ]; then
    clip="$work/h264-1920x1080-30fps-10s.mp4"
    echo "generating $(basename "$clip")" >&2
    ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=10" \
        -c:v libx264 -preset medium -crf 20 -pix_fmt yuv420p -g 60 "$clip"
fi

echo "building marquee (release)" >&2
swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
marquee="$SCRATCH_PATH/release/marquee"
socket="$work/control.sock"
events="$work/events.jsonl"

"$marquee" play "$clip" --output headless:1920x1080 --audio null --repeat all --input none \
    --control "$socket" --events "$events" --trace-frames 2>"$work/stderr.txt" &
player=$!
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "control-bench.sh: no control socket; the player said:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
sleep 2   # past the first item's start

python3 - "$socket" "$events" "$player" "$ROUNDS" "$CLIENTS" "$WINDOW" "$CYCLES" <<'PYTHON'
import json, os, socket, statistics, sys, threading, time

path, events, pid, rounds, clients, window, cycles = sys.argv[1], sys.argv[2], int(sys.argv[3]), *map(int, sys.argv[4:])

def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s, s.makefile("rb")

def request(s, f, line):
    s.sendall(line)
    while True:
        reply = f.readline()
        if not reply:
            raise SystemExit("the player closed the connection")
        if b'"ok"' in reply:
            return reply

def dropped_frames():
    shown = dropped = 0
    with open(events, "rb") as log:
        for line in log:
            if b'"event":"frame"' in line:
                if b'"dropped":true' in line: dropped += 1
                else: shown += 1
    return shown, dropped

def descriptors():
    return len(os.listdir(f"/proc/{pid}/fd"))

def rss_kb():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1])

s, f = connect()
times = []
for _ in range(rounds):
    start = time.perf_counter()
    request(s, f, b'{"command":"status"}\n')
    times.append((time.perf_counter() - start) * 1000)
times.sort()
size = len(request(s, f, b'{"command":"status"}\n'))
print(f"status round trip: median {statistics.median(times):.2f} ms, p95 {times[int(len(times) * 0.95)]:.2f} ms, max {times[-1]:.2f} ms over {rounds} requests ({size} bytes each)")

def window_drops(label):
    shown0, dropped0 = dropped_frames()
    time.sleep(window)
    shown1, dropped1 = dropped_frames()
    print(f"{label}: {shown1 - shown0} frames shown, {dropped1 - dropped0} dropped in {window} s")

window_drops("no clients")
stop = threading.Event()
answered = [0] * clients
def hammer(n):
    c, cf = connect()
    c.sendall(b'{"command":"subscribe","events":' + json.dumps(sorted(["frame", "itemStarted", "itemEnded", "command"])).encode() + b'}\n')
    while not stop.is_set():
        request(c, cf, b'{"command":"status"}\n')
        answered[n] += 1
    c.close()
threads = [threading.Thread(target=hammer, args=(n,)) for n in range(clients)]
for t in threads: t.start()
time.sleep(1)
window_drops(f"{clients} clients asking for the status and subscribed to every frame")
stop.set()
for t in threads: t.join()
print(f"  those clients had {sum(answered)} status replies")

time.sleep(0.5)
fd0, rss0 = descriptors(), rss_kb()
start = time.perf_counter()
for _ in range(cycles):
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect(path)
    c.close()
request(s, f, b'{"command":"status"}\n')
time.sleep(1)
print(f"{cycles} connect/disconnect cycles in {time.perf_counter() - start:.1f} s: descriptors {fd0} -> {descriptors()}, RSS {rss0} kB -> {rss_kb()} kB")
PYTHON
