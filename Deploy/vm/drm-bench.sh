#!/usr/bin/env bash
# CPU time per presented frame on a real DRM driver: marquee against `mpv --vo=drm`, the same clip
# in the same guest (bochs-drm, QEMU/TCG), one after the other, each run RUNS times. Both decode
# in software and scale to the 1280x800 screen (XRGB8888 dumb buffers). CPU = user + system time
# of the player process (getrusage of the child), frames = those it presented (marquee: its frame
# trace; mpv: a Lua hook reading frame-drop-count and the frames the VO got). Prints one line per
# run and the ratio of the medians. Not part of the test suites: TCG times are only good for ratios.
#
# Usage: Deploy/vm/drm-bench.sh        (needs mpv on the host: apt-get install mpv)
#   RUNS=n  runs per player (default 3);  MARQUEE_BIN=path  a release marquee
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MARQUEE_VM_CACHE:-$repo/.build-vm-image}
export MARQUEE_VM_CACHE=$cache
command -v mpv >/dev/null || { echo "drm-bench: mpv not found (apt-get install mpv)" >&2; exit 2; }
marquee=$("$here/marquee-binary.sh")
share=$cache/drm-bench
rm -rf "$share"; mkdir -p "$share"
marquee=$("$here/guest-visible.sh" "$marquee" "$share")
timeout 120 ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=640x360:rate=30:duration=10 \
  -c:v libx264 -preset veryfast -pix_fmt yuv420p -g 60 "$share/clip.mp4"
cat > "$share/frames.lua" <<'LUA'
-- Prints what the VO presented when playback ends.
mp.register_event("shutdown", function() end)
mp.add_hook("on_unload", 50, function()
  local out = io.open(os.getenv("MPV_FRAMES_FILE"), "w")
  out:write(string.format("dropped=%s delayed=%s decoder_dropped=%s\n",
    tostring(mp.get_property_number("frame-drop-count", -1)),
    tostring(mp.get_property_number("vo-delayed-frame-count", -1)),
    tostring(mp.get_property_number("decoder-frame-drop-count", -1))))
  out:close()
end)
LUA
cat > "$share/run.py" <<'PY'
import os, resource, subprocess, sys, time
name, out = sys.argv[1], sys.argv[2]
argv = sys.argv[3:]
t0 = time.monotonic()
rc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=open(out + '.err', 'w'), env=dict(os.environ, MPV_FRAMES_FILE=out + '.mpv')).returncode
wall = time.monotonic() - t0
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f'{name} rc={rc} cpu={r.ru_utime + r.ru_stime:.3f} wall={wall:.2f}')
PY
runs=${RUNS:-3}
cat > "$share/guest.sh" <<GUEST
s=$share
for i in \$(seq $runs); do
  python3 \$s/run.py marquee \$s/m\$i $marquee play \$s/clip.mp4 --output drm --audio null --input none --repeat off --exit-when-idle --events \$s/m\$i.jsonl --trace-frames
  python3 \$s/run.py mpv \$s/p\$i mpv --vo=drm --no-audio --hwdec=no --no-config --really-quiet --script=\$s/frames.lua \$s/clip.mp4
done
GUEST
timeout 900 python3 "$here/run-guest.py" --gpu std --smp "${VM_SMP:-2}" --timeout 800 --share "$share" -- /bin/sh "$share/guest.sh" > "$share/out.txt" 2> "$share/err.txt" || {
  echo "drm-bench: guest failed: $(tail -3 "$share/err.txt")" >&2; exit 1; }
python3 - "$share" "$runs" <<'PY'
import json, re, statistics, sys
share, runs = sys.argv[1], int(sys.argv[2])
lines = open(f'{share}/out.txt').read().split('\n')
per = {'marquee': [], 'mpv': []}
i = {'marquee': 0, 'mpv': 0}
for line in lines:
    m = re.match(r'(marquee|mpv) rc=(\d+) cpu=([\d.]+) wall=([\d.]+)', line)
    if not m:
        continue
    name, rc, cpu, wall = m.group(1), int(m.group(2)), float(m.group(3)), float(m.group(4))
    i[name] += 1
    if name == 'marquee':
        frames = [json.loads(l) for l in open(f'{share}/m{i[name]}.jsonl') if '"frame"' in l]
        shown = sum(1 for f in frames if not f.get('dropped'))
        dropped = len(frames) - shown
    else:
        m2 = re.search(r'dropped=(-?\d+)', open(f'{share}/p{i[name]}.mpv').read())
        dropped = int(m2.group(1)) if m2 else -1
        shown = 300 - max(dropped, 0)
    per[name].append((cpu / shown * 1000, cpu / 300 * 1000))
    print(f'{name:8s} run {i[name]}: exit {rc}, {shown} frames shown, {dropped} dropped, CPU {cpu:.2f} s, wall {wall:.1f} s, '
          f'{cpu / shown * 1000:.2f} ms CPU per presented frame, {cpu / 300 * 1000:.2f} per clip frame')
if per['marquee'] and per['mpv']:
    for k, what in ((0, 'presented frame'), (1, 'clip frame (all 300 decoded by both)')):
        a, b = statistics.median(p[k] for p in per['marquee']), statistics.median(p[k] for p in per['mpv'])
        print(f'median CPU per {what}: marquee {a:.2f} ms, mpv --vo=drm {b:.2f} ms; marquee / mpv = {a / b:.2f}')
PY
