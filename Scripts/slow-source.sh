#!/usr/bin/env bash
# A source slower than real time, measured: a 6 s 2 Mbit/s clip (MP4 and MPEG-TS) served on
# 127.0.0.1 at RATE bytes per second by a throttling Python server, played by marquee with
# --trace-frames. Prints, per file: frames shown and dropped, stalls, how long they lasted, and the
# worst lateness of a shown frame against its place on the presented timeline (the first frame
# taken as on time). Playing as data trickled in would show that lateness growing to tens of seconds.
#
# Usage: Scripts/slow-source.sh        RATE=51200 (50 KB/s), MARQUEE=path (default: build debug)
set -euo pipefail
cd "$(dirname "$0")/.."

RATE="${RATE:-51200}"
for tool in ffmpeg python3; do
    command -v "$tool" >/dev/null || { echo "slow-source.sh: $tool is not installed" >&2; exit 1; }
done
if [ -z "${MARQUEE:-}" ]; then
    swift build --product marquee >&2
    MARQUEE=.build/debug/marquee
fi

work="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

ffmpeg -v error -y -f lavfi -i testsrc2=size=1280x720:rate=25 -f lavfi -i sine=frequency=440 -t 6 \
    -c:v libx264 -b:v 2M -maxrate 2M -bufsize 1M -g 50 -c:a aac -f mpegts "$work/clip.ts"
ffmpeg -v error -y -i "$work/clip.ts" -c copy -movflags +faststart "$work/clip.mp4"

cat >"$work/throttle.py" <<'EOF'
import http.server, socket, sys, time
rate = int(sys.argv[1])
class Throttled(http.server.SimpleHTTPRequestHandler):
    def copyfile(self, source, destination):
        while chunk := source.read(max(1, rate // 10)):
            try:
                destination.write(chunk)
                destination.flush()
            except OSError:
                return
            time.sleep(0.1)
    def log_message(self, *arguments):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Throttled)
print(server.server_address[1], flush=True)
server.serve_forever()
EOF
(cd "$work" && exec python3 throttle.py "$RATE" >port) &
server=$!
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")

for file in clip.mp4 clip.ts; do
    "$MARQUEE" play "http://127.0.0.1:$port/$file" --output headless:320x180 --audio null --input none \
        --exit-when-idle --repeat off --trace-frames --events "$work/$file.events" 2>/dev/null
    python3 - "$work/$file.events" "$file" "$RATE" <<'EOF'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1])]
shown = [e for e in events if e["event"] == "frame" and not e.get("dropped")]
dropped = sum(1 for e in events if e["event"] == "frame" and e.get("dropped"))
stalls = [e["t"] for e in events if e["event"] == "playbackStalled"]
resumes = [e["t"] for e in events if e["event"] == "loadStateChanged" and e.get("state") == "playthroughOK"]
first = shown[0]
late = max((e["t"] - first["t"]) - (e["time"] - first["time"]) for e in shown)
# Each stall lasts until the first playthroughOK after it.
stalled = sum(min((r for r in resumes if r >= s), default=events[-1]["t"]) - s for s in stalls)
print(f"{sys.argv[2]} at {int(sys.argv[3]) // 1024} KB/s: {len(shown)} frames shown, {dropped} dropped, "
      f"{len(stalls)} stall(s) lasting {stalled:.1f} s, worst lateness {late:.3f} s, ended at {events[-1]['t']:.1f} s")
EOF
done
