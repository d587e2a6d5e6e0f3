#!/usr/bin/env bash
# Soak: plays a repeat-all playlist for a long time on the virtual clock (`--clock fast`, as fast as
# decoding allows), samples the player's resident memory and open descriptors, and reports how they
# grow per 100 loops (least-squares slope over the samples after a warm-up), so a leak shows as a
# figure instead of a feeling.
#
# The playlist has what a signage loop meets every turn: an H.264 + AAC clip, an audio-only WAV, a
# PNG still, an MPEG-TS clip trimmed mid-GOP, each opened afresh on every loop, headless output and
# null audio (decoded, trimmed and dropped).
#
# Usage: Scripts/soak.sh [SECONDS]     (default 3600)
#   SAMPLE=10 (seconds between samples), MARQUEE=path (a built marquee; default: build release),
#   SCRATCH_PATH=.build (swift build's), KEEP=dir (keep the samples and events there).
# Output: one line per sample (seconds, loops, RSS kB, FDs), then the slopes.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION="${1:-3600}"
SAMPLE="${SAMPLE:-10}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"

for tool in ffmpeg awk; do
    command -v "$tool" >/dev/null || { echo "soak.sh: $tool is not installed" >&2; exit 1; }
done

if [ -z "${MARQUEE:-}" ]; then
    echo "building marquee (release)" >&2
    swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
    MARQUEE="$SCRATCH_PATH/release/marquee"
fi

work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work"
player=""
cleanup() {
    [ -n "$player" ] && kill "$player" 2>/dev/null || true
    [ -z "${KEEP:-}" ] && rm -rf "$work"
}
trap cleanup EXIT

echo "generating media in $work" >&2
ffmpeg -v error -y -f lavfi -i testsrc2=size=320x180:rate=30 -f lavfi -i sine=frequency=440:sample_rate=48000 \
    -t 1 -c:v libx264 -g 15 -pix_fmt yuv420p -c:a aac "$work/clip.mp4"
ffmpeg -v error -y -f lavfi -i sine=frequency=660:sample_rate=44100 -t 0.5 "$work/tone.wav"
ffmpeg -v error -y -f lavfi -i testsrc2=size=640x360 -frames:v 1 "$work/still.png"
ffmpeg -v error -y -f lavfi -i testsrc2=size=320x180:rate=25 -f lavfi -i sine=frequency=880:sample_rate=48000 \
    -t 2 -c:v libx264 -g 25 -pix_fmt yuv420p -c:a mp2 -f mpegts "$work/clip.ts"
cat >"$work/soak.yaml" <<EOF
playlist:
  repeat: all
  items:
    - url: $work/clip.mp4
    - url: $work/tone.wav
    - {url: $work/still.png, duration: 0.3}
    - {url: $work/clip.ts, start: 0.37, end: 1.5}
EOF

"$MARQUEE" play "$work/soak.yaml" --output headless:320x180 --audio null --clock fast --input none --log-level warning \
    --events "$work/events.jsonl" 2>"$work/stderr.log" &
player=$!

# A loop is counted when its first item starts again.
loops() { grep -c '"itemStarted".*"index":0[,}]' "$work/events.jsonl" 2>/dev/null || echo 0; }

start=$(date +%s)
: >"$work/samples"
printf '%8s %8s %10s %5s\n' seconds loops rss_kB fds
while :; do
    sleep "$SAMPLE"
    kill -0 "$player" 2>/dev/null || { echo "soak.sh: the player exited; its stderr:" >&2; tail -5 "$work/stderr.log" >&2; exit 1; }
    now=$(( $(date +%s) - start ))
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$player/status")
    fds=$(ls "/proc/$player/fd" | wc -l)
    line="$now $(loops) $rss $fds"
    echo "$line" >>"$work/samples"
    printf '%8s %8s %10s %5s\n' $line
    [ "$now" -ge "$DURATION" ] && break
done
kill -TERM "$player"
wait "$player" || true
player=""

errors=$(grep -c '"error"' "$work/events.jsonl" || true)
# Least squares of RSS and FDs against loops, over the samples after the first fifth (warm-up:
# allocator pools, decoder caches, the first scaler).
awk -v errors="$errors" '
    { t[NR] = $1; loop[NR] = $2; rss[NR] = $3; fd[NR] = $4 }
    END {
        first = int(NR / 5) + 1
        n = 0
        for (i = first; i <= NR; i++) { n++; sx += loop[i]; sr += rss[i]; sf += fd[i] }
        mx = sx / n; mr = sr / n; mf = sf / n
        for (i = first; i <= NR; i++) {
            dx = loop[i] - mx
            sxx += dx * dx; sxr += dx * (rss[i] - mr); sxf += dx * (fd[i] - mf)
        }
        slope = sxx > 0 ? sxr / sxx : 0
        fdslope = sxx > 0 ? sxf / sxx : 0
        for (i = first; i <= NR; i++) {
            r = rss[i] - (mr + slope * (loop[i] - mx)); ss += r * r
            if (i == first || rss[i] < lo) lo = rss[i]
            if (i == first || rss[i] > hi) hi = rss[i]
        }
        printf "\nloops: %d in %d s (%.1f per second); error events: %d\n", loop[NR], t[NR], loop[NR] / t[NR], errors
        printf "RSS after warm-up: %d..%d kB (%d samples from loop %d)\n", lo, hi, n, loop[first]
        printf "RSS slope: %.1f kB per 100 loops (residual sd %.0f kB)\n", slope * 100, sqrt(ss / n)
        printf "FD slope: %.3f per 100 loops (%d at the end)\n", fdslope * 100, fd[NR]
        # Over the whole run, the memory the slope would add: a leak shows against the noise.
        printf "RSS growth the slope predicts over the run after warm-up: %.0f kB\n", slope * (loop[NR] - loop[first])
    }' "$work/samples"
