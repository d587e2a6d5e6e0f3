#!/usr/bin/env bash
# How long `marquee schedule` takes to print one day of a timetable with ITEMS items (default
# 10,000), each with a window of its own: the timetable code a player also runs off its present
# thread to know its next change. Prints the seconds and the peak RSS of each of RUNS runs (default 3).
#   MARQUEE=path   the binary to time (default: a release build of this tree)
set -euo pipefail
cd "$(dirname "$0")/.."
items=${ITEMS:-10000}
runs=${RUNS:-3}
if [ -z "${MARQUEE:-}" ]; then
  swift build -c release --product marquee >&2
  MARQUEE=$(swift build -c release --show-bin-path)/marquee
fi
work=$(mktemp -d /tmp/marquee-schedule-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 - "$items" "$work/big.yaml" <<'PY'
import sys
count, path = int(sys.argv[1]), sys.argv[2]
with open(path, 'w') as f:
    f.write("schedule: {timezone: Europe/Berlin}\nplaylist:\n  items:\n")
    for i in range(count):
        h, m = i % 24, (i * 7) % 60
        f.write(f'    - url: media/item{i}.mp4\n      schedule: {{from: "{h:02d}:{m:02d}", to: "{(h + 1) % 24:02d}:{m:02d}"}}\n')
PY
echo "schedule-bench: $items items with a window each, one day (2026-11-27), $MARQUEE"
for run in $(seq "$runs"); do
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$MARQUEE" schedule "$work/big.yaml" --from 2026-11-27 --to 2026-11-28 > "$work/out.txt"
  read -r seconds rss < "$work/time.txt"
  echo "run $run: $seconds s, peak RSS $rss kB, $(wc -l < "$work/out.txt") lines"
done
