#!/usr/bin/env bash
# The /metrics endpoint's cost, measured on the release build while a 1080p clip plays on the real
# clock (headless 1920x1080, audio null, repeat all, metrics on 127.0.0.1:PORT):
#   - the scrape time as curl sees it (`%{time_total}`: connect to last byte) over ROUNDS scrapes
#     one after another: median, p95, max, and the page's size;
#   - frames presented and dropped in WINDOW seconds with no scraper, then in WINDOW seconds of
#     scrapes back to back (read from the player's own marquee_frames_*_total).
# Usage: Scripts/metrics-bench.sh [CLIP]   (without CLIP: a 10 s H.264 1920x1080 30 fps testsrc2 clip)
#   ROUNDS=500 WINDOW=10 PORT=19150 SCRATCH_PATH=.build
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-500}"
WINDOW="${WINDOW:-10}"
PORT="${PORT:-19150}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"

for tool in ffmpeg swift curl; do
    command -v "$tool" >/dev/null || { echo "metrics-bench.sh: $tool is not installed" >&2; exit 1; }
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
url="http://127.0.0.1:$PORT/metrics"

"$marquee" play "$clip" --output headless:1920x1080 --audio null --repeat all --input none --control none \
    --metrics "127.0.0.1:$PORT" 2>"$work/stderr.txt" &
player=$!
for _ in $(seq 100); do curl -sf -o /dev/null "$url" && break; sleep 0.1; done
curl -sf -o /dev/null "$url" || { echo "metrics-bench.sh: nothing at $url; the player said:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
sleep 2   # past the first item's start

# `marquee_frames_presented_total marquee_frames_dropped_total` (the main screen's) now.
frames() { curl -sf "$url" | awk '$1 == "marquee_frames_presented_total{screen=\"main\"}" {p = $2} $1 == "marquee_frames_dropped_total{screen=\"main\"}" {d = $2} END {print p, d}'; }

read -r p0 d0 < <(frames)
sleep "$WINDOW"
read -r p1 d1 < <(frames)
echo "no scraper, ${WINDOW} s: $((p1 - p0)) frames presented, $((d1 - d0)) dropped"

for _ in $(seq "$ROUNDS"); do curl -s -o /dev/null -w '%{time_total}\n' "$url"; done > "$work/times"
sort -n "$work/times" | awk -v n="$ROUNDS" '
    { t[NR] = $1 * 1000 }
    END { printf "scrape time over %d scrapes: median %.2f ms, p95 %.2f ms, max %.2f ms\n", n, t[int((n + 1) / 2)], t[int(n * 0.95)], t[n] }'
echo "page: $(curl -sf "$url" | wc -c) bytes, $(curl -sf "$url" | grep -vc '^#') samples"

read -r p0 d0 < <(frames)
end=$(($(date +%s%N) + WINDOW * 1000000000))
scrapes=0
while [ "$(date +%s%N)" -lt "$end" ]; do curl -s -o /dev/null "$url"; scrapes=$((scrapes + 1)); done
read -r p1 d1 < <(frames)
echo "scrapes back to back, ${WINDOW} s ($scrapes scrapes): $((p1 - p0)) frames presented, $((d1 - d0)) dropped"
