#!/usr/bin/env bash
# What exact trims cost after a seek, per format: the trim matrix of TrimMatrixTests (same codecs,
# containers and GOPs, at SIZE), each item start measured with `marquee bench MEDIA --seek TIME`.
#
# For each start it prints the key frame seeks the reader made (more than 1: the first landed too
# late, after the frame on screen at the start or within the audio's pre-roll), where the last one
# asked to decode from, the pictures decoded before the one on screen at the start and the audio
# decoded before the start (all trimmed away: the pre-roll), and the seconds from the seek until
# the picture and the audio at the start are decoded (best of 3).
#
# Video starts, around the key frame nearest the middle of the file: on it (key), half way through
# the frame before it (key-1), on the frame after it (key+1), a third into the middle frame of the
# GOP before it (mid-GOP). Audio-only files start at 0.5, 1, 1.2345 and 2 s.
#
# Usage: Scripts/preroll-cost.sh
#   SIZE=1280x720 (picture size), MARQUEE=path (a built marquee; default: build release),
#   SCRATCH_PATH=.build (swift build's).
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE="${SIZE:-1280x720}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"

for tool in ffmpeg ffprobe awk; do
    command -v "$tool" >/dev/null || { echo "preroll-cost.sh: $tool is not installed" >&2; exit 1; }
done

if [ -z "${MARQUEE:-}" ]; then
    echo "building marquee (release)" >&2
    swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
    MARQUEE="$SCRATCH_PATH/release/marquee"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# clip NAME SECONDS RATE SAMPLE_RATE VIDEO_ARGS AUDIO_ARGS: SIZE testsrc2 and a 1 kHz sine.
clip() {
    local name="$1" seconds="$2" rate="$3" sample_rate="$4" video="$5" audio="$6"
    echo "generating $name" >&2
    # shellcheck disable=SC2086  # the codec arguments are word lists
    ffmpeg -nostdin -hide_banner -loglevel error -y \
        -f lavfi -i "testsrc2=size=$SIZE:rate=$rate:duration=$seconds" \
        -f lavfi -i "sine=frequency=1000:sample_rate=$sample_rate:duration=$seconds" \
        $video $audio "$work/$name"
}

tone() {
    local name="$1" audio="$2"
    echo "generating $name" >&2
    # shellcheck disable=SC2086
    ffmpeg -nostdin -hide_banner -loglevel error -y \
        -f lavfi -i "sine=frequency=1000:sample_rate=44100:duration=3" $audio "$work/$name"
}

x264() { echo "-c:v libx264 -preset veryfast -pix_fmt yuv420p -bf 2 -g $1 -keyint_min $1 -sc_threshold 0 ${2:-}"; }
aac="-c:a aac -b:a 64k"
video_files=()
for container in mp4 mkv ts; do
    clip "h264-gop15.$container" 3 25 48000 "$(x264 15)" "$aac"
    clip "h264-gop250.$container" 11 25 48000 "$(x264 250)" "$aac"
    clip "h264-open-gop.$container" 3 25 48000 "$(x264 15 '-x264-params open-gop=1')" "$aac"
    video_files+=("h264-gop15.$container" "h264-gop250.$container" "h264-open-gop.$container")
done
clip hevc.mp4 3 25 48000 "-c:v libx265 -preset veryfast -pix_fmt yuv420p -tag:v hvc1 -x265-params log-level=error:keyint=15:min-keyint=15:scenecut=0:bframes=2" "$aac"
clip vp9-opus.webm 3 25 48000 "-c:v libvpx-vp9 -deadline good -cpu-used 8 -b:v 1M -g 15 -keyint_min 15" "-c:a libopus -b:a 48k"
clip mpeg2-mp2.ts 3 30000/1001 48000 "-c:v mpeg2video -q:v 4 -bf 2 -g 15" "-c:a mp2 -b:a 128k"
clip mpeg4.avi 3 25 44100 "-c:v mpeg4 -q:v 4 -bf 2 -g 15" "-c:a libmp3lame -b:a 96k"
clip av1.webm 3 25 48000 "-c:v libaom-av1 -usage realtime -cpu-used 8 -b:v 1M -g 15 -keyint_min 15" "-c:a libopus -b:a 48k"
video_files+=(hevc.mp4 vp9-opus.webm mpeg2-mp2.ts mpeg4.avi av1.webm)
tone tone.mp3 "-c:a libmp3lame -b:a 128k"
tone tone.aac "-c:a aac -b:a 96k"
tone tone.flac "-c:a flac"
tone tone.ogg "-c:a libvorbis -q:a 4"
tone tone.wav "-c:a pcm_s16le"
audio_files=(tone.mp3 tone.aac tone.flac tone.ogg tone.wav)

# The four video starts (label and media time), from the decoded frames' times and key flags,
# counted from the earliest audio or video stream's start as the player counts them.
starts() {
    local file="$1" origin
    origin="$(ffprobe -v error -show_entries stream=codec_type,start_time -of csv=p=0 "$file" \
        | awk -F, '($1 == "video" || $1 == "audio") && $2 != "N/A" { if (min == "" || $2 < min) min = $2 } END { printf "%.6f\n", min + 0 }')"
    ffprobe -v error -select_streams v:0 -show_entries frame=key_frame,best_effort_timestamp_time -of csv=p=0 "$file" \
        | awk -F, -v origin="$origin" '
            NF >= 2 && $2 != "N/A" { key[n] = $1; pts[n] = $2 - origin; n++ }
            END {
                best = -1
                for (i = 1; i < n - 3; i++) if (key[i] == 1 && (best < 0 || (i - n / 2) ^ 2 < (best - n / 2) ^ 2)) best = i
                if (best < 0) exit
                previous = 0
                for (i = 0; i < best; i++) if (key[i] == 1) previous = i
                middle = int((previous + best) / 2)
                # A start on a frame is given a microsecond after it: ffprobe rounds its times to
                # the microsecond, and a time given just before the frame would mean the one before.
                printf "key %.6f\n", pts[best] + 0.000001
                printf "key-1 %.6f\n", pts[best - 1] + (pts[best] - pts[best - 1]) / 2
                printf "key+1 %.6f\n", pts[best + 1] + 0.000001
                printf "mid-GOP %.6f\n", pts[middle] + (pts[middle + 1] - pts[middle]) / 3
            }'
}

measure() {
    local file="$1" label="$2" time="$3"
    "$MARQUEE" bench "$work/$file" --seek "$time" | awk -F': ' -v file="$file" -v label="$label" '
        { value[$1] = $2 }
        END {
            split(value["audio before it"], audio, " ")
            printf "%-20s %-8s %8.3f %6s %9s %9s %10s %12s %9.1f\n", file, label, value["seek to"], value["key frame seeks"],
                value["decoding from"], value["picture on screen"], value["pictures before it"],
                substr(audio[6], 2), value["seek seconds"] * 1000
        }'
}

printf "%-20s %-8s %8s %6s %9s %9s %10s %12s %9s\n" media start "seek to" seeks "from" "on screen" "pictures" "audio (s)" "ms"
for file in "${video_files[@]}"; do
    while read -r label time; do measure "$file" "$label" "$time"; done < <(starts "$work/$file")
done
for file in "${audio_files[@]}"; do
    for time in 0.5 1 1.2345 2; do measure "$file" "-" "$time"; done
done
