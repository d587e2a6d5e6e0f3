#!/usr/bin/env bash
# What the play ledger costs per 1,000 plays: the same playlist of PLAYS short items played on the
# fast clock with and without `--ledger`, each RUNS times; prints the CPU seconds (user + system,
# from /usr/bin/time) of each run, the median difference per 1,000 plays, and the ledger's bytes
# per 1,000 plays. The items are one 0.2 s 160x90 clip repeated (a playlist of PLAYS lines), so
# the player's own work per item is small next to what a real item costs.
#
# Usage: Scripts/ledger-cost.sh
#   PLAYS=1000, RUNS=3, MARQUEE=path (a built marquee; default: build release), SCRATCH_PATH=.build
set -euo pipefail
cd "$(dirname "$0")/.."

PLAYS="${PLAYS:-1000}"
RUNS="${RUNS:-3}"
SCRATCH_PATH="${SCRATCH_PATH:-.build}"
for tool in ffmpeg /usr/bin/time awk; do
    command -v "$tool" >/dev/null || { echo "ledger-cost.sh: $tool is not installed" >&2; exit 1; }
done
if [ -z "${MARQUEE:-}" ]; then
    echo "building marquee (release)" >&2
    swift build -c release --scratch-path "$SCRATCH_PATH" --product marquee >&2
    MARQUEE="$SCRATCH_PATH/release/marquee"
fi
MARQUEE="$(cd "$(dirname "$MARQUEE")" && pwd)/$(basename "$MARQUEE")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ffmpeg -nostdin -loglevel error -f lavfi -i testsrc2=size=160x90:rate=25 -t 0.2 -c:v libx264 -preset ultrafast \
    -pix_fmt yuv420p "$work/clip.mp4"
for _ in $(seq "$PLAYS"); do echo "$work/clip.mp4"; done > "$work/plays.m3u"

# run LEDGER_ARGS...: CPU seconds of one run on stdout.
run() {
    /usr/bin/time -f "%U %S" -o "$work/time" "$MARQUEE" play "$work/plays.m3u" --repeat off --exit-when-idle --clock fast \
        --output headless:160x90 --audio null --control none --input none --log-level warning "$@" >/dev/null
    awk '{ printf "%.3f\n", $1 + $2 }' "$work/time"
}

without=()
with=()
bytes=0
for i in $(seq "$RUNS"); do
    without+=("$(run)")
    rm -rf "$work/ledger"
    with+=("$(run --ledger "$work/ledger")")
    bytes=$(cat "$work"/ledger/plays-*.jsonl | wc -c)
    records=$(cat "$work"/ledger/plays-*.jsonl | wc -l)
    echo "run $i: without ledger ${without[-1]} s CPU, with ledger ${with[-1]} s CPU ($records records)"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
mw=$(median "${without[@]}")
ml=$(median "${with[@]}")
awk -v w="$mw" -v l="$ml" -v p="$PLAYS" -v b="$bytes" 'BEGIN {
    printf "plays: %d\nCPU without ledger (median): %.3f s\nCPU with ledger (median): %.3f s\n", p, w, l
    printf "ledger CPU per 1000 plays: %.3f s\nledger bytes per 1000 plays: %d\n", (l - w) * 1000 / p, b * 1000 / p
}'
