#!/usr/bin/env bash
# End-to-end test of `displays:` (several screens from one process) on virtio-gpu with two heads
# (-device virtio-gpu-pci,max_outputs=2,id=gpu0). Head 2 (Virtual-2) is disconnected until the
# guest forces it on (echo on > /sys/class/drm/card0-Virtual-2/status); QMP screendump with
# device gpu0 and head 0 or 1 reads each head. One marquee process drives both CRTCs:
#   late-screen    at boot head 2 is disconnected: left plays, right waits for Virtual-2 (logged);
#                  once it is forced on, right's picture comes up on it in the same process
#   own-geometry   left (Virtual-1, 640x480, black) and right (Virtual-2, 1024x768, green) play
#                  their own playlists: each head shows its own clip's colour where scaling none
#                  puts a 320x180 picture on its mode, its own background around it
#   own-gapless    both screens' frame traces: after a round of warm-up, two rounds of two 1 s
#                  15 fps clips each, every frame one slot after the last on the timeline, every
#                  one presented but for what a stall of the whole guest (>= 100 ms with no frame
#                  on a loaded host) explains (multiscreen-check.py gapless)
#   status         `marquee ctl status --json` lists both screens (name, connector, drm, mode size,
#                  picture shown, what each plays)
#   probe          `marquee probe --config` lists both screens on card0 with the mode each gets
#   unplug-right   Virtual-2 forced off (the kernel's hotplug uevent): the log says it was unplugged,
#                  left plays on (>= 60 % of its frames presented over 2 s, its head still shows its
#                  picture); forced on:
#                  right is back in the same process
#   unplug-left    the same with Virtual-1 (the screen that owns the console): right plays on
#   sigterm        exit 0, and neither head shows its picture any more (every CRTC restored)
#   mirror         Virtual-2 mirrors Virtual-1 (a 320x240 frame-index clip: scaling none on
#                  Virtual-1's 640x480, aspect-fit, twice its size, on Virtual-2's 640x480): paused
#                  three times with SIGUSR2 (the pause brings the OSD up: the last picture is drawn again), both
#                  heads show the same frame index, the one the trace says was presented last
#   mirror-gapless the mirrored pair's trace: two rounds of the 30-frame clip after one of
#                  warm-up, judged the same way
# Prints PASS/FAIL per check; exits 1 on any failure. Hard timeouts on every step (~1-2 min warm).
#
# Usage: Deploy/vm/multiscreen-test.sh
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   MARQUEE_VM_CACHE=dir  image/fixture cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit for the guest (default 240)
set -euo pipefail

suite=multiscreen-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"

need_tools qemu-system-x86_64 ffmpeg python3 timeout

marquee=$("$here/marquee-binary.sh") || die "no marquee binary"
"$here/build-initramfs.sh" >/dev/null || die "guest image build failed"

# Fixtures (cached): 1 s 320x180 15 fps clips of one colour each (tiny to decode under TCG; two
# screens at 30 fps kept up with 2 vCPUs, but not when the host was loaded too), and
# 3 s of the frame-index pattern (320x240, 10 fps: a 2x upscale fits a 100 ms slot under TCG, not
# a 40 ms one) for the mirror.
fixtures=$cache/multiscreen-fixtures-15fps
mkdir -p "$fixtures"
for pair in red:FF0000 magenta:FF00FF blue:0000FF cyan:00FFFF; do
  name=${pair%%:*}
  if [ ! -s "$fixtures/$name.mp4" ]; then
    timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i "color=c=0x${pair#*:}:s=320x180:r=15:d=1" \
      -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 15 "$fixtures/$name.tmp.mp4" || die "ffmpeg could not make $name.mp4"
    mv "$fixtures/$name.tmp.mp4" "$fixtures/$name.mp4"
  fi
done
if [ ! -s "$fixtures/index10.mp4" ]; then
  bit='pow(2,floor((X-32)/64)+4*floor((Y-24)/48))'
  luma="if(between(X,32,287)*between(Y,24,215),if(bitand(N,$bit),235,16),16)"
  timeout 60 ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "color=c=black:size=320x240:rate=10,format=yuv420p,geq=lum='$luma':cb=128:cr=128" -frames:v 30 \
    -c:v libx264 -preset veryfast -crf 18 -pix_fmt yuv420p -g 10 "$fixtures/index.tmp.mp4" || die "ffmpeg could not make index10.mp4"
  mv "$fixtures/index.tmp.mp4" "$fixtures/index10.mp4"
fi

share=$cache/multiscreen-share
rm -rf "$share"; mkdir -p "$share"
cp "$fixtures"/*.mp4 "$share/"
cat > "$share/own.yaml" <<'YAML'
displays:
  - name: left
    connector: Virtual-1
    mode: 640x480
    scaling: none
    playlist:
      repeat: all
      items: [red.mp4, magenta.mp4]
  - name: right
    connector: Virtual-2
    mode: 1024x768
    scaling: none
    background: "#00FF00"
    playlist:
      repeat: all
      items: [blue.mp4, cyan.mp4]
YAML
cat > "$share/mirror.yaml" <<'YAML'
displays:
  - name: main
    connector: Virtual-1
    mode: 640x480
    scaling: none
    playlist:
      repeat: all
      items: [index10.mp4]
  - name: copy
    connector: Virtual-2
    mode: 640x480
    scaling: aspectFit
    mirror: main
YAML
bin=$("$here/guest-visible.sh" "$marquee" "$share")

cat > "$share/guest.sh" <<'GUEST'
#!/bin/sh
# Runs in the guest. $1 = marquee; $MVM_SHARE = the share (fixtures, results).
set -u
marquee=$1; s=$MVM_SHARE
# Frames presented (a dropped frame's line starts with "dropped").
frames() { grep -c '^{"event":"frame"' "$1" 2>/dev/null || echo 0; }
up() { cut -d' ' -f1 /proc/uptime; }
# Waits (up to $2 s) for the first frame event in events file $1.
wait_frame() {
  i=0
  while ! grep -q '"event":"frame"' "$1" 2>/dev/null; do
    i=$((i + 1)); [ $i -le $(($2 * 5)) ] || return 1
    sleep 0.2
  done
}
# Screendumps of both heads: NAME-1.ppm (Virtual-1) and NAME-2.ppm (Virtual-2).
dump2() {
  for head in 0 1; do
    "$s/.mvm/qmp" "{\"execute\":\"screendump\",\"arguments\":{\"filename\":\"$s/$1-$((head + 1)).ppm\",\"device\":\"gpu0\",\"head\":$head}}" \
      > /dev/null 2>> "$s/dumps.err" || echo "screendump $1 head $head failed" >> "$s/dumps.err"
  done
}
v1=/sys/class/drm/card0-Virtual-1/status; v2=/sys/class/drm/card0-Virtual-2/status
# Head 2 is disconnected at boot: right waits for it while left plays, and comes up once it is on.
timeout 90 "$marquee" play "$s/own.yaml" --output drm --control none --input none \
  --events "$s/late.jsonl" --trace-frames > "$s/late.log" 2>&1 &
pid=$!
if wait_frame "$s/late.jsonl" 40; then
  sleep 1
  echo on > $v2
  sleep 3
  dump2 late
  kill -TERM $pid
  rc=0; wait $pid || rc=$?
  echo "late rc=$rc"
else
  kill -KILL $pid 2>/dev/null
  echo on > $v2
  echo "late rc=noframe"
fi
sleep 1
for c in Virtual-1 Virtual-2; do
  echo "connector-$c status=$(cat /sys/class/drm/card0-$c/status) modes=$(tr '\n' ',' < /sys/class/drm/card0-$c/modes)"
done
timeout 60 "$marquee" probe --config "$s/own.yaml" > "$s/probe.txt" 2>&1; echo "probe rc=$?"
dump2 base

# Two playlists on two heads, then each connector unplugged in turn, then SIGTERM.
timeout 150 "$marquee" play "$s/own.yaml" --output drm --control /tmp/own.sock --input none \
  --events "$s/own.jsonl" --trace-frames > "$s/own.log" 2>&1 &
pid=$!
if wait_frame "$s/own.jsonl" 40 && wait_frame "$s/own.jsonl.right" 20; then
  # Three rounds of two 1 s clips (one of warm-up, two checked), not polled meanwhile (a guest
  # exec every few hundred ms costs the player frames under TCG).
  sleep 7
  dump2 own
  timeout 20 "$marquee" ctl --socket /tmp/own.sock status --json > "$s/own-status.json" 2> "$s/own-status.err"
  echo off > $v2; sleep 2
  l0=$(frames "$s/own.jsonl"); u0=$(up); sleep 2; l1=$(frames "$s/own.jsonl"); u1=$(up)
  dump2 unplug2
  echo on > $v2; sleep 3
  dump2 replug2
  echo off > $v1; sleep 2
  r0=$(frames "$s/own.jsonl.right"); u2=$(up); sleep 2; r1=$(frames "$s/own.jsonl.right"); u3=$(up)
  dump2 unplug1
  echo on > $v1; sleep 3
  dump2 replug1
  alive=0; kill -0 $pid 2>/dev/null && alive=1
  kill -TERM $pid
  rc=0; wait $pid || rc=$?
  sleep 0.5
  dump2 term
  echo "own rc=$rc alive=$alive left_while_right_unplugged=$((l1 - l0)) left_seconds=$(awk -v a=$u0 -v b=$u1 'BEGIN { print b - a }') right_while_left_unplugged=$((r1 - r0)) right_seconds=$(awk -v a=$u2 -v b=$u3 'BEGIN { print b - a }')"
else
  kill -KILL $pid 2>/dev/null
  echo "own rc=noframe"
fi

# A mirrored pair: paused three times (SIGUSR2 is togglePlayPause: no ctl process to start under
# TCG), both heads dumped while paused.
# Not under timeout(1): SIGUSR2 must reach marquee itself (timeout would die of it); the guest's
# own hard limit is the backstop.
"$marquee" play "$s/mirror.yaml" --output drm --control none --input none \
  --events "$s/mirror.jsonl" --trace-frames > "$s/mirror.log" 2>&1 &
pid=$!
if wait_frame "$s/mirror.jsonl" 40; then
  sleep 9.5
  for k in 1 2 3; do
    kill -USR2 $pid
    sleep 0.5
    dump2 mirror$k
    kill -USR2 $pid
    sleep 1.3
  done
  kill -TERM $pid
  rc=0; wait $pid || rc=$?
  echo "mirror rc=$rc"
else
  kill -KILL $pid 2>/dev/null
  echo "mirror rc=noframe"
fi
GUEST

failures=0
report() {  # check ok detail
  if [ "$2" = ok ]; then echo "PASS $1${3:+ ($3)}"; else echo "FAIL $1: $3"; failures=$((failures + 1)); fi
}
field() {  # field LINE-NAME KEY FILE
  awk -v n="$1" -v k="$2" '$1 == n { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$3"
}
check() { python3 "$here/multiscreen-check.py" "$@"; }

t=$(date +%s.%N)
vm_timeout=${VM_TIMEOUT:-240}
rc=0
timeout -k 5 $((vm_timeout + 30)) python3 "$here/run-guest.py" --gpu virtio2 --smp "${VM_SMP:-2}" --timeout "$vm_timeout" \
  --share "$share" -- /bin/sh "$share/guest.sh" "$bin" > "$share/out.txt" 2> "$share/err.txt" || rc=$?
echo "multiscreen-test: guest ran $(elapsed "$t") s (rc $rc)"
out=$share/out.txt
if [ $rc -ne 0 ]; then
  report guest fail "run-guest exited $rc; $(tail -3 "$share/err.txt" | tr '\n' ' ')"
  exit 1
fi
grep '^connector-' "$out" | sed 's/^/multiscreen-test: /'

r=$(field late rc "$out"); log=$share/late.log
if [ "$r" != 0 ]; then
  report late-screen fail "marquee exited ${r:-?}: $(tail -3 "$log" | tr '\n' ' ')"
elif ! grep -q 'screen right: display: Virtual-2 on /dev/dri/card0: nothing plugged in' "$log"; then
  report late-screen fail "right did not wait for Virtual-2: $(grep 'display:' "$log" | tr '\n' ' ')"
elif ! grep -q 'screen right: display: now on Virtual-2 1024x768' "$log"; then
  report late-screen fail "right did not come up once Virtual-2 was on: $(grep 'display:' "$log" | tr '\n' ' ')"
elif ! a=$(check picture "$share/late-2.ppm" 1024 768 352 294 320 180 '#00FF00' '#0000FF' '#00FFFF'); then
  report late-screen fail "Virtual-2 once on: $a"
elif ! b=$(check picture "$share/late-1.ppm" 640 480 160 150 320 180 '#000000' '#FF0000' '#FF00FF'); then
  report late-screen fail "Virtual-1: $b"
else
  report late-screen ok "left played while Virtual-2 was disconnected; right came up on it once forced on"
fi

r=$(field own rc "$out"); log=$share/own.log
if [ "$r" != 0 ]; then
  report own fail "marquee exited ${r:-?}: $(tail -3 "$log" | tr '\n' ' ')"
else
  # Left: 320x180 centred on 640x480 (scaling none) on black; right: centred on 1024x768 on green.
  if a=$(check picture "$share/own-1.ppm" 640 480 160 150 320 180 '#000000' '#FF0000' '#FF00FF') \
     && b=$(check picture "$share/own-2.ppm" 1024 768 352 294 320 180 '#00FF00' '#0000FF' '#00FFFF'); then
    report own-geometry ok "left $a; right $b"
  else
    report own-geometry fail "left: ${a:-} right: ${b:-}"
  fi
  if a=$(check gapless "$share/own.jsonl" 2 15 15 2 1) && b=$(check gapless "$share/own.jsonl.right" 2 15 15 2 1); then
    report own-gapless ok "left: $a; right: $b"
  else
    report own-gapless fail "left: ${a:-} right: ${b:-}"
  fi
  if detail=$(python3 - "$share/own-status.json" <<'PY'
import json, sys
status = json.load(open(sys.argv[1]))
screens = {s['name']: s for s in status.get('screens', [])}
want = {'left': ('Virtual-1', 640, 480), 'right': ('Virtual-2', 1024, 768)}
for name, (connector, w, h) in want.items():
    s = screens.get(name)
    if not s or (s.get('connector'), s.get('kind'), s.get('width'), s.get('height'), s.get('picture')) != (connector, 'drm', w, h, 'shown') \
            or 'playing' not in s:
        sys.exit(f'screen {name}: {s}')
print(', '.join(f"{n} on {s['connector']} {s['width']}x{s['height']} playing {s['playing'].get('url', '?').rsplit('/', 1)[-1]}" for n, s in screens.items()))
PY
  ); then
    report status ok "$detail"
  else
    report status fail "${detail:-} $(head -5 "$share/own-status.err" 2>/dev/null | tr '\n' ' ')"
  fi
  n=$(field own left_while_right_unplugged "$out"); secs=$(field own left_seconds "$out")
  want=$(awk -v s="${secs:-2}" 'BEGIN { printf "%d", s * 15 * 0.6 }')
  if ! grep -q 'screen right: display: Virtual-2 was unplugged' "$log"; then
    report unplug-right fail "no unplug line for right: $(grep 'display:' "$log" | tr '\n' ' ')"
  elif [ "${n:-0}" -lt "$want" ]; then
    report unplug-right fail "left showed only ${n:-0} frames in ${secs:-?} s while Virtual-2 was unplugged (want >= $want)"
  elif ! a=$(check picture "$share/unplug2-1.ppm" 640 480 160 150 320 180 '#000000' '#FF0000' '#FF00FF'); then
    report unplug-right fail "left's head while right was unplugged: $a"
  elif ! grep -q 'screen right: display: back on Virtual-2' "$log"; then
    report unplug-right fail "right not back after replug: $(grep 'display:' "$log" | tr '\n' ' ')"
  elif ! b=$(check picture "$share/replug2-2.ppm" 1024 768 352 294 320 180 '#00FF00' '#0000FF' '#00FFFF'); then
    report unplug-right fail "right's head after replug: $b"
  else
    report unplug-right ok "left showed $n frames in $secs s with right unplugged; right back in the same process"
  fi
  n=$(field own right_while_left_unplugged "$out"); secs=$(field own right_seconds "$out")
  want=$(awk -v s="${secs:-2}" 'BEGIN { printf "%d", s * 15 * 0.6 }')
  if ! grep -q 'screen left: display: Virtual-1 was unplugged' "$log"; then
    report unplug-left fail "no unplug line for left: $(grep 'display:' "$log" | tr '\n' ' ')"
  elif [ "${n:-0}" -lt "$want" ]; then
    report unplug-left fail "right showed only ${n:-0} frames in ${secs:-?} s while Virtual-1 was unplugged (want >= $want)"
  elif ! b=$(check picture "$share/unplug1-2.ppm" 1024 768 352 294 320 180 '#00FF00' '#0000FF' '#00FFFF'); then
    report unplug-left fail "right's head while left was unplugged: $b"
  elif ! a=$(check picture "$share/replug1-1.ppm" 640 480 160 150 320 180 '#000000' '#FF0000' '#FF00FF'); then
    report unplug-left fail "left's head after replug: $a"
  else
    report unplug-left ok "right showed $n frames in $secs s with left unplugged; left back in the same process"
  fi
  if [ "$(field own alive "$out")" != 1 ]; then
    report sigterm fail "marquee was no longer running before SIGTERM"
  elif ! a=$(check gone "$share/term-1.ppm" '#FF0000' '#FF00FF'); then
    report sigterm fail "Virtual-1 after SIGTERM: $a"
  elif [ -s "$share/term-2.ppm" ] && ! b=$(check gone "$share/term-2.ppm" '#00FF00' '#0000FF' '#00FFFF'); then
    report sigterm fail "Virtual-2 after SIGTERM: $b"
  else
    report sigterm ok "exit 0; Virtual-1: ${a}; Virtual-2: ${b:-no picture (CRTC off)}"
  fi
fi

if [ "$(field probe rc "$out")" = 0 ] && grep -q 'left: Virtual-1 on /dev/dri/card0, 640x480@60, plays 2 items' "$share/probe.txt" \
   && grep -q 'right: Virtual-2 on /dev/dri/card0, 1024x768@60, plays 2 items' "$share/probe.txt"; then
  report probe ok "$(grep -E '^  (left|right):' "$share/probe.txt" | sed 's/^ *//' | tr '\n' ';')"
else
  report probe fail "$(sed -n '/^Screens/,/^$/p' "$share/probe.txt" | tr '\n' ' ')"
fi

r=$(field mirror rc "$out")
if [ "$r" != 0 ]; then
  report mirror fail "marquee exited ${r:-?}: $(tail -3 "$share/mirror.log" | tr '\n' ' ')"
else
  traced=($(check paused-frames "$share/mirror.jsonl" 30 10))
  problems=""; seen=""
  for k in 1 2 3; do
    i1=$(check index "$share/mirror$k-1.ppm" 160 120 320 240 2>&1) || i1="?"
    i2=$(check index "$share/mirror$k-2.ppm" 0 0 640 480 2>&1) || i2="?"
    want=${traced[$((k - 1))]:-none}
    seen="$seen pause $k: Virtual-1 $i1, Virtual-2 $i2, traced $want;"
    [ "$i1" = "$i2" ] && [ "$i1" = "$want" ] || problems="$problems pause $k: Virtual-1 shows $i1, Virtual-2 $i2, the trace's last frame $want;"
  done
  if [ -z "$problems" ]; then report mirror ok "${seen% ;}"; else report mirror fail "$problems"; fi
  if a=$(check gapless "$share/mirror.jsonl" 1 30 10 2 1); then
    report mirror-gapless ok "$a"
  else
    report mirror-gapless fail "$a"
  fi
fi

echo "multiscreen-test: total $(elapsed "$t_begin") s"
[ $failures -eq 0 ] || { echo "multiscreen-test: $failures check(s) failed (logs in $share)"; exit 1; }
echo "multiscreen-test: all checks passed"
