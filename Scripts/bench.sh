#!/usr/bin/env bash
# Compares Marquee's decode throughput with the ffmpeg CLI's on the same files, side by side:
#   decode only:        ffmpeg -i F -f null -                                   vs  marquee bench (decode fps)
#   decode + convert:   ffmpeg -i F -vf scale=W:H -pix_fmt bgr0 -f null -       vs  marquee bench (decode+convert fps)
# Both decoders pick their own thread count (one per core), and both convert to the same size and
# pixel format (XRGB8888 = bgr0) with bicubic libswscale. The ffmpeg CLI may also slice-thread its
# scaler (-filter_threads); Marquee converts on one thread, as its present thread does.
#
# Usage: Scripts/bench.sh [MEDIA...]
#   Without MEDIA it generates two 10 s H.264 clips (1280x720 and 1920x1080, 30 fps) in a temp folder.
#   SIZE=1920x1080 (the screen to convert to), RUNS=3 (best of), SCRATCH_PATH=.build (swift build's).
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE="${SIZE:-1920x1080}"
RUNS="${RUNS:-3}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"
WIDTH="${SIZE%x*}"
HEIGHT="${SIZE#*x}"

for tool in ffmpeg swift awk; do
    command -v "$tool" >/dev/null || { echo "bench.sh: $tool is not installed" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

media=("$@")
if [ ${#media[@]} -eq 0 ]; then
    for size in 1280x720 1920x1080; do
        clip="$work/h264-$size-30fps-10s.mp4"
        echo "generating $(basename "$clip")" >&2
        ffmpeg -nostdin -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=$size:rate=30:duration=10" \
            -c:v libx264 -preset medium -crf 20 -pix_fmt yuv420p -g 60 "$clip"
        media+=("$clip")
    done
fi

echo "building marquee (release)" >&2
swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
marquee="$SCRATCH_PATH/release/marquee"

# frames / wall seconds of one ffmpeg run: the frame count of its last stats line over its
# -benchmark rtime (wall time, opening included, as in marquee bench).
ffmpeg_fps() {
    ffmpeg -nostdin -hide_banner -benchmark "$@" 2>&1 | tr '\r' '\n' | awk '
        /^frame= *[0-9]+/ { sub(/^frame= */, ""); frames = $1 + 0 }
        /^bench: utime=/ { for (i = 1; i <= NF; i++) if ($i ~ /^rtime=/) { sub(/^rtime=/, "", $i); seconds = $i + 0 } }
        END { if (seconds > 0) printf "%.1f\n", frames / seconds; else print "0" }'
}

best() { sort -g | tail -1; }

# A value from marquee bench's `key: value` lines.
field() { awk -F': ' -v key="$1" '$1 == key { print $2 }'; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

printf '%-30s %6s %7s | %12s %13s %6s | %16s %17s %6s | %s\n' \
    "media" "frames" "fps" "ffmpeg dec" "marquee dec" "ratio" "ffmpeg dec+scale" "marquee dec+conv" "ratio" "marquee realtime"
for file in "${media[@]}"; do
    # Interleaved, so that whatever else the machine does weighs on both tools alike.
    ffmpeg_decode_runs=() ffmpeg_convert_runs=() reports=()
    for _ in $(seq "$RUNS"); do
        ffmpeg_decode_runs+=("$(ffmpeg_fps -i "$file" -an -f null -)")
        ffmpeg_convert_runs+=("$(ffmpeg_fps -i "$file" -an -vf "scale=$WIDTH:$HEIGHT" -pix_fmt bgr0 -f null -)")
        reports+=("$("$marquee" bench "$file" --size "$SIZE")")
    done
    ffmpeg_decode=$(printf '%s\n' "${ffmpeg_decode_runs[@]}" | best)
    ffmpeg_convert=$(printf '%s\n' "${ffmpeg_convert_runs[@]}" | best)
    marquee_decode=$(for report in "${reports[@]}"; do field "decode fps" <<<"$report"; done | best)
    marquee_convert=$(for report in "${reports[@]}"; do field "decode+convert fps" <<<"$report"; done | best)
    frames=$(field frames <<<"${reports[0]}")
    rate=$(field "frame rate" <<<"${reports[0]}")
    printf '%-30s %6s %7s | %12s %13s %6s | %16s %17s %6s | %sx\n' \
        "$(basename "$file")" "$frames" "$rate" \
        "$ffmpeg_decode" "$marquee_decode" "$(ratio "$marquee_decode" "$ffmpeg_decode")" \
        "$ffmpeg_convert" "$marquee_convert" "$(ratio "$marquee_convert" "$ffmpeg_convert")" \
        "$(ratio "$marquee_convert" "$rate")"
done
echo "fps: frames per wall-clock second, best of $RUNS; ratio: marquee / ffmpeg; converting to $SIZE bgr0 (aspectFit)."
