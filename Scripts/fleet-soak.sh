#!/usr/bin/env bash
# Fleet soak: a player polling a config server whose config changes CHANGES times (default 1000),
# each change naming two clips drawn from a pool of 20, under a cache bound that holds eight: what
# the cache may never evict is the playlist playing, the one it replaced and the item on screen
# (five clips), and the next playlist's two downloads land beside them. After
# each change it waits until the player has taken the new playlist (a queueReplaced event); every
# 100 changes it samples the player's resident memory, open descriptors and the cache's size.
# The cache must stay within its bound, and neither memory nor descriptors may grow.
#
# Usage: Scripts/fleet-soak.sh [CHANGES]
#   MARQUEE=path (a built marquee; default: build release), SCRATCH_PATH=.build, KEEP=dir.
# Output: one line per sample (changes, seconds, RSS kB, FDs, cache bytes, bound), then a summary.
set -euo pipefail
cd "$(dirname "$0")/.."

CHANGES="${1:-1000}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"
for tool in ffmpeg python3 curl awk; do
    command -v "$tool" >/dev/null || { echo "fleet-soak.sh: $tool is not installed" >&2; exit 1; }
done
if [ -z "${MARQUEE:-}" ]; then
    echo "building marquee (release)" >&2
    swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
    MARQUEE="$SCRATCH_PATH/release/marquee"
fi

work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work/pool" "$work/cache"
player=""
cleanup() {
    [ -n "$player" ] && kill "$player" 2>/dev/null || true
    exec 9>&- 2>/dev/null || true
    [ -z "${KEEP:-}" ] && rm -rf "$work"
}
trap cleanup EXIT

echo "making a pool of 20 clips" >&2
for i in $(seq -w 1 20); do
    [ -f "$work/pool/clip$i.mp4" ] || ffmpeg -nostdin -loglevel error -y -f lavfi \
        -i "testsrc2=size=160x90:rate=25,hue=h=$((10#$i * 18))" -t 0.5 \
        -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$work/pool/clip$i.mp4"
done
largest=$(stat -c %s "$work"/pool/*.mp4 | sort -n | tail -1)
bound=$((largest * 8))

rm -f "$work/port"
exec 9> >(python3 Scripts/fleet-soak-server.py "$work/pool" "$work/port")

for _ in $(seq 1 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
cat > "$work/bootstrap.yaml" <<YAML
source: {url: "http://127.0.0.1:$port/lobby.yaml", interval: 3600}
cache: {dir: "$work/cache", maxBytes: $bound}
YAML

"$MARQUEE" play "$work/bootstrap.yaml" --output headless:160x90 --audio null --control none \
    --events "$work/events.jsonl" 2> "$work/journal.txt" &
player=$!

replaced() { local n; n=$(grep -c '"event":"queueReplaced"' "$work/events.jsonl" 2>/dev/null) || true; echo "${n:-0}"; }
cache_bytes() { find "$work/cache/media" -type f -printf '%s\n' 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
sample() {
    local rss fds
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$player/status")
    fds=$(ls "/proc/$player/fd" | wc -l)
    echo "$1 $2 $rss $fds $(cache_bytes) $bound"
}

# The first config (generation 0) plays first.
for _ in $(seq 1 200); do [ "$(replaced)" -ge 1 ] && break; sleep 0.05; done
start=$(date +%s.%N)
echo "changes seconds rss_kB fds cache_bytes bound"
sample 0 0 | tee "$work/samples.txt"
over=0
for change in $(seq 1 "$CHANGES"); do
    curl -fsS "http://127.0.0.1:$port/next" > /dev/null
    kill -HUP "$player"
    want=$((change + 1))
    for _ in $(seq 1 400); do [ "$(replaced)" -ge "$want" ] && break; sleep 0.025; done
    if [ "$(replaced)" -lt "$want" ]; then echo "change $change was not taken within 10 s" >&2; exit 1; fi
    [ "$(cache_bytes)" -gt "$bound" ] && over=$((over + 1))
    if [ $((change % 100)) -eq 0 ]; then
        now=$(date +%s.%N)
        sample "$change" "$(awk -v a="$start" -v b="$now" 'BEGIN {printf "%.1f", b - a}')" | tee -a "$work/samples.txt"
    fi
done
kill -TERM "$player"; wait "$player" || true; player=""

# The slope is fitted after the first 100 changes (allocator and decoder warm-up).
awk -v over="$over" -v changes="$CHANGES" '
    NR == 2 {rss1 = $3; fd1 = $4}
    NR >= 2 {n++; sx += $1; sy += $3; sxx += $1 * $1; sxy += $1 * $3}
    {rss = $3; fd = $4; if ($5 > maxcache) maxcache = $5; bound = $6; secs = $2}
    END {
        slope = n > 1 ? 100 * (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0
        printf "summary: %d changes in %.1f s (%.0f ms each); RSS %d kB after the first 100, %d kB at the end (%+.1f kB per 100 changes fitted); FDs %d -> %d; cache at most %d bytes of a %d bound; %d checks over the bound\n",
            changes, secs, 1000 * secs / changes, rss1, rss, slope, fd1, fd, maxcache, bound, over
    }' "$work/samples.txt"
errors=$(grep -c 'error' "$work/journal.txt" || true)
echo "journal: $errors error lines"
[ "$over" -eq 0 ]
