#!/usr/bin/env bash
# Peak memory of `marquee play` against mpv's and the ffmpeg CLI's on the same clip (issue 27):
#   marquee   marquee play CONFIG --audio null --exit-when-idle   (the config: the clip, repeat off,
#             output headless at SIZE; --input none --control none; frames traced to count drops)
#   mpv       mpv --no-config --vo=null --ao=null CLIP                (skipped when not installed)
#   ffmpeg    ffmpeg -i CLIP -f null -                                (decodes as fast as it can)
# each RUNS times, interleaved, under /usr/bin/time -v; prints each run's peak RSS ("Maximum
# resident set size") in MiB, marquee's frames shown and dropped, the medians and marquee/mpv.
# All three decode with FFmpeg's default threads (one per core plus one, frame threading).
#
# Usage: Scripts/memory-bench.sh [CLIP]
#   Without CLIP it generates a 10 s 1920x1080 30 fps H.264 (libx264 medium, CRF 20, GOP 60) +
#   AAC (48 kHz stereo, 128 kbit/s) MP4 in a temp folder.
#   RUNS=3  SIZE=1920x1080 (the headless screen)  MARQUEE=path (default: a release build of this tree)
#   STATIC=1 builds and measures marquee as Deploy/install.sh ships it (--static-swift-stdlib), in
#   .build/static-stdlib so that .build keeps its own build.
#   DETAIL=1 also samples marquee's /proc/PID every 0.1 s and prints, at its largest RSS: anonymous
#   and file-backed memory (smaps_rollup), its threads, and its largest mappings (smaps).
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${RUNS:-3}"
SIZE="${SIZE:-1920x1080}"
DETAIL="${DETAIL:-0}"
for tool in ffmpeg awk; do
    command -v "$tool" >/dev/null || { echo "memory-bench.sh: $tool is not installed" >&2; exit 1; }
done
[ -x /usr/bin/time ] || { echo "memory-bench.sh: /usr/bin/time is not installed (apt-get install time)" >&2; exit 1; }
has_mpv=0
command -v mpv >/dev/null && has_mpv=1

work="$(mktemp -d /tmp/marquee-memory-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT

clip="${1:-}"
if [ -z "$clip" ]; then
    clip="$work/h264-aac-1920x1080-30fps-10s.mp4"
    echo "generating $(basename "$clip")" >&2
    ffmpeg -nostdin -hide_banner -loglevel error -y \
        -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=10" \
        -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=10" \
        -c:v libx264 -preset medium -crf 20 -pix_fmt yuv420p -g 60 \
        -c:a aac -b:a 128k -ac 2 -shortest "$clip"
fi
clip="$(cd "$(dirname "$clip")" && pwd)/$(basename "$clip")"

if [ -z "${MARQUEE:-}" ] && [ "${STATIC:-0}" = 1 ]; then
    echo "building marquee (release, static Swift runtime)" >&2
    swift build -c release --static-swift-stdlib --scratch-path .build/static-stdlib --product marquee >&2
    MARQUEE="$(swift build -c release --static-swift-stdlib --scratch-path .build/static-stdlib --show-bin-path)/marquee"
elif [ -z "${MARQUEE:-}" ]; then
    echo "building marquee (release)" >&2
    swift build -c release --product marquee >&2
    MARQUEE="$(swift build -c release --show-bin-path)/marquee"
fi

cat > "$work/play.yaml" <<YAML
display:
  output: headless:$SIZE
playlist:
  repeat: "off"
  items: ["$clip"]
YAML

# Peak RSS in kB from /usr/bin/time -v's report.
peak_kb() { awk -F': ' '/Maximum resident set size/ { print $2 }' "$1"; }
mib() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Samples PID until it ends; keeps /proc/PID/{status,smaps_rollup,smaps} as of its largest RSS.
sample() {
    local pid=$1 best=0 rss
    while [ -d "/proc/$pid" ]; do
        rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
        if [ -n "$rss" ] && [ "$rss" -gt "$best" ]; then
            best=$rss
            cat "/proc/$pid/status" > "$work/peak-status" 2>/dev/null || true
            cat "/proc/$pid/smaps_rollup" > "$work/peak-rollup" 2>/dev/null || true
            cat "/proc/$pid/smaps" > "$work/peak-smaps" 2>/dev/null || true
            ls "/proc/$pid/task" 2>/dev/null | while read -r task; do
                cat "/proc/$pid/task/$task/comm" 2>/dev/null
            done | sort | uniq -c | sort -rn > "$work/peak-threads" || true
        fi
        sleep 0.1
    done
}

run_marquee() {  # prints "PEAK_KB SHOWN DROPPED"
    local events="$work/events.jsonl"
    rm -f "$events"
    /usr/bin/time -v -o "$work/time-marquee" "$MARQUEE" play "$work/play.yaml" --audio null --exit-when-idle \
        --input none --control none --events "$events" --trace-frames 2>"$work/stderr-marquee" &
    local timer=$!
    if [ "$DETAIL" = 1 ]; then
        local pid=""
        for _ in $(seq 50); do pid=$(pgrep -P "$timer" || true); [ -n "$pid" ] && break; sleep 0.02; done
        [ -n "$pid" ] && sample "$pid"
    fi
    wait "$timer" || { echo "memory-bench.sh: marquee failed; it said:" >&2; cat "$work/stderr-marquee" >&2; exit 1; }
    local shown dropped
    shown=$(grep -c '"event":"frame"' "$events" | tr -d ' ' || true)
    dropped=$(grep '"event":"frame"' "$events" | grep -c '"dropped":true' || true)
    echo "$(peak_kb "$work/time-marquee") $((shown - dropped)) $dropped"
}

run_tool() {  # run_tool NAME COMMAND... ; prints PEAK_KB
    local name=$1
    shift
    /usr/bin/time -v -o "$work/time-$name" "$@" >/dev/null 2>"$work/stderr-$name" \
        || { echo "memory-bench.sh: $name failed; it said:" >&2; cat "$work/stderr-$name" >&2; exit 1; }
    peak_kb "$work/time-$name"
}

echo "memory-bench: $(basename "$clip"), headless $SIZE, audio null, $MARQUEE, $RUNS runs ($(nproc) cores)"
marquee_runs=() mpv_runs=() ffmpeg_runs=()
for run in $(seq "$RUNS"); do
    read -r marquee_kb shown dropped < <(run_marquee)
    marquee_runs+=("$marquee_kb")
    line="run $run: marquee $(mib "$marquee_kb") MiB ($shown shown, $dropped dropped)"
    if [ "$has_mpv" = 1 ]; then
        mpv_kb=$(run_tool mpv mpv --no-config --vo=null --ao=null --really-quiet "$clip")
        mpv_runs+=("$mpv_kb")
        line+=", mpv $(mib "$mpv_kb") MiB"
    fi
    ffmpeg_kb=$(run_tool ffmpeg ffmpeg -nostdin -hide_banner -loglevel error -i "$clip" -f null -)
    ffmpeg_runs+=("$ffmpeg_kb")
    line+=", ffmpeg $(mib "$ffmpeg_kb") MiB"
    echo "$line"
done

marquee_median=$(printf '%s\n' "${marquee_runs[@]}" | median)
ffmpeg_median=$(printf '%s\n' "${ffmpeg_runs[@]}" | median)
summary="median peak RSS: marquee $(mib "$marquee_median") MiB"
if [ "$has_mpv" = 1 ]; then
    mpv_median=$(printf '%s\n' "${mpv_runs[@]}" | median)
    summary+=", mpv $(mib "$mpv_median") MiB"
fi
summary+=", ffmpeg $(mib "$ffmpeg_median") MiB"
if [ "$has_mpv" = 1 ]; then
    summary+="; marquee/mpv $(awk -v a="$marquee_median" -v b="$mpv_median" 'BEGIN { printf "%.2f", a / b }')"
else
    summary+="; marquee/mpv n/a (mpv is not installed)"
fi
summary+=", marquee/ffmpeg $(awk -v a="$marquee_median" -v b="$ffmpeg_median" 'BEGIN { printf "%.2f", a / b }')"
echo "$summary"

if [ "$DETAIL" = 1 ] && [ -s "$work/peak-rollup" ]; then
    echo
    echo "marquee at its largest sampled RSS (last run):"
    awk '/^(Rss|Anonymous|Pss_Anon|Pss_File|Shared_Clean|Private_Clean|Private_Dirty|Swap):/ { printf "  %-14s %8.1f MiB\n", $1, $2 / 1024 }' "$work/peak-rollup"
    awk '/^Rss:/ { rss = $2 } /^Anonymous:/ { anon = $2 } END { printf "  %-14s %8.1f MiB\n", "file-backed", (rss - anon) / 1024 }' "$work/peak-rollup"
    awk '/^Threads:/ { print "  threads        " $2 }' "$work/peak-status"
    sed 's/^/    /' "$work/peak-threads"
    echo "  largest mappings (Rss, anonymous, mapping):"
    awk '
        /^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6 ? $6 : "[anon]"); range = $1 }
        /^Rss:/ { rss = $2 }
        /^Anonymous:/ { if (rss > 0) printf "%d %d %s %s\n", rss, $2, name, range }
    ' "$work/peak-smaps" | sort -rn | head -15 | awk '{ printf "    %7.1f MiB %7.1f MiB  %s %s\n", $1 / 1024, $2 / 1024, $3, $4 }'
    echo "  by file (Rss of all its mappings):"
    awk '
        /^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6 ? $6 : "[anon]") }
        /^Rss:/ { total[name] += $2 }
        END { for (n in total) if (n != "[anon]") printf "%d %s\n", total[n], n }
    ' "$work/peak-smaps" | sort -rn | head -12 | awk '{ printf "    %7.1f MiB  %s\n", $1 / 1024, $2 }'
fi
