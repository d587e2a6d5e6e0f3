#!/usr/bin/env bash
# End-to-end test of `marquee play --output drm` on real kernel drivers: boots Debian's kernel under
# QEMU/TCG on bochs-drm (--gpu std) and on virtio-gpu (--gpu virtio), runs the host-built marquee
# in the guest and checks QMP screendumps on the host:
#   scaling-MODE  a 640x360 still with each scaling mode on the 1280x800 screen: bars, crop and
#                 quadrant colours where ScalingGeometry puts them (drm-check.py, tolerance 8)
#   portrait      display.rotation 90: the still aspect-fit on the 800x1280 portrait screen, shown
#                 turned clockwise on the 1280x800 one (drm-check.py picture portrait)
#   screenshot-MODE, screenshot-portrait
#                 the same stills played with --control: `marquee ctl screenshot -o` taken right after
#                 the screendump is that screendump pixel for pixel (drm-check.py screenshot-matches:
#                 same size, 0 differing pixels)
#   gapless       a playlist of two 1 s 30 fps clips with repeat all, stopped once it has looped
#                 twice: the frame trace shows all 120 frames in order, each one slot after the last,
#                 none dropped, no wall-clock step of two slots (drm-check.py gapless)
#   clip          a 2 s 30 fps clip with --trace-frames (scaling none: the flips are under test, not the
#                 scaler) exits 0, every frame presented, none dropped
#   config        display.output/connector/mode from a config (drm:/dev/dri/card0, Virtual-1, 1024x768)
#                 reach the output: the screen is 1024x768; connector HDMI-A-1 fails with exit 1
#   legacy        display.modesetting: legacy (SetCrtc + PageFlip instead of atomic): the still is
#                 shown aspect-fit, a looping clip is flipped with no frame dropped (but one catch-up
#                 burst after a stall of the whole guest, >= 100 ms with no frame: seen once under
#                 TCG, 5 frames after 176 ms), and the console is back once it exits
#   sigterm       SIGTERM while a still is up: exit 0 and the picture is gone (CRTC/console restored)
#   console       while playing, the VT on screen is in graphics mode (KD_GRAPHICS: no console text or
#                 cursor over the picture); text mode again after SIGTERM
#   vt-switch     switching to VT 2 pauses the picture (the console shows) and back to VT 1 shows it
#                 again, in the same process
#   hotplug       forcing the connector off through sysfs (status=off) is noticed and logged, playback
#                 goes on (frames keep coming); status=on brings the picture back without a restart
#   probe         `marquee probe` lists the card, Virtual-1 connected with its preferred 1280x800 and
#                 other modes, and a primary plane taking XRGB8888
#   probe-json    `marquee probe --json` has the same card in its display part: the driver (bochs-drm or
#                 virtio_gpu), Virtual-1 connected with its modes, a primary plane taking XR24 (drm-check.py)
#   osd           a key pressed on a uinput keypad over a still brings up the on-screen display:
#                 tesseract reads the title off the screendump; after osd.duration (2 s) it is gone,
#                 the screen the same pixel for pixel as before the key
#   osd-portrait  the same with display.rotation 90: the screendump turned back reads upright
#   osd-blended   the osd run's log says the OSD is blended into the picture because the CRTC has no
#                 ARGB overlay plane (neither driver offers one): the fallback decided on a real driver
#   status-card   a playlist of two missing files: the card instead of black, naming both files
#   display-power `marquee ctl displayOff` on a looping clip: the screendump goes dark, `marquee probe`
#                 lists the CRTC inactive, no frame is shown and the player rests (CPU ticks over
#                 3 s); `displayOn` brings the clip back in the same process
# Prints PASS/FAIL per check and GPU; exits 1 on any failure. Hard timeouts on every step.
#
# Usage: Deploy/vm/drm-test.sh [std|virtio]...      (default: both)
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   SWIFT_SCRATCH_PATH=p  scratch path for `swift build -c release --product marquee` (default: <repo>/.build)
#   MARQUEE_VM_CACHE=dir  image/fixture cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit per guest (default 330)
set -euo pipefail

suite=drm-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"
gpus=("$@"); [ ${#gpus[@]} -gt 0 ] || gpus=(std virtio)

need_tools qemu-system-x86_64 ffmpeg python3 timeout tesseract

marquee=$("$here/marquee-binary.sh") || die "no marquee binary"
"$here/build-initramfs.sh" >/dev/null || die "guest image build failed"

# Fixtures (cached), from lavfi sources: the still described in drm-check.py, and a 2 s clip.
fixtures=$cache/drm-fixtures
mkdir -p "$fixtures"
# The still is a lossless RGB video (FFV1, 2 fps, 4 s) rather than a PNG: a PNG item with
# `duration: 3` ends as soon as its frame is shown (an engine bug, headless too), and FFV1 keeps
# the colours exact (no YUV rounding).
if [ ! -s "$fixtures/still.mkv" ]; then
  timeout 60 ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i color=c=0xFF0000:s=320x180:r=2:d=4 -f lavfi -i color=c=0x00FF00:s=320x180:r=2:d=4 \
    -f lavfi -i color=c=0x0000FF:s=320x180:r=2:d=4 -f lavfi -i color=c=0xFFFF00:s=320x180:r=2:d=4 \
    -filter_complex "[0][1][2][3]xstack=inputs=4:layout=0_0|w0_0|0_h0|w0_h0,format=rgb24,drawbox=x=0:y=0:w=16:h=360:color=0xFF00FF:t=fill,format=bgr0" \
    -c:v ffv1 "$fixtures/still.tmp.mkv" || die "ffmpeg could not make the still"
  mv "$fixtures/still.tmp.mkv" "$fixtures/still.mkv"
fi
if [ ! -s "$fixtures/clip.mp4" ]; then
  timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=320x180:rate=30:duration=2 \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 30 "$fixtures/clip.tmp.mp4" || die "ffmpeg could not make the clip"
  mv "$fixtures/clip.tmp.mp4" "$fixtures/clip.mp4"
fi
# Two 1 s clips that look different, for the gapless loop.
for pair in "loop-a testsrc2=size=320x180:rate=30:duration=1" "loop-b mandelbrot=size=320x180:rate=30,trim=duration=1"; do
  name=${pair%% *}
  if [ ! -s "$fixtures/$name.mp4" ]; then
    timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i "${pair#* }" \
      -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 30 "$fixtures/$name.tmp.mp4" || die "ffmpeg could not make $name"
    mv "$fixtures/$name.tmp.mp4" "$fixtures/$name.mp4"
  fi
done

guest_script() {
cat <<'GUEST'
#!/bin/sh
# Runs in the guest. $1 = marquee, $2 = gpu name; $MVM_SHARE = the share (fixtures, results).
set -u
marquee=$1; gpu=$2; s=$MVM_SHARE
up() { cut -d' ' -f1 /proc/uptime; }
# Waits (up to $2 s) for the first frame event in events file $1: the picture is on screen.
wait_frame() {
  i=0
  while ! grep -q '"event":"frame"' "$1" 2>/dev/null; do
    i=$((i + 1)); [ $i -le $(($2 * 10)) ] || return 1
    sleep 0.1
  done
}
# Plays a still (repeat one) until the screendump NAME is taken 0.5 s after its first frame, then
# ends it with SIGTERM (exit 0): the picture is held however slowly the guest runs (a loaded host
# once made the first frame event reach this script 2 s late, after a 3 s still had ended).
# Sets rc and t1 (uptime at the first frame event, or none).
# With $shot = 1 the player also opens a control socket and, right after the screendump, `marquee ctl
# screenshot` writes NAME-shot.png (its stderr in NAME-shot.err) and the line "shot-NAME rc=..." goes
# to out.txt: the still (repeat one, every frame the same) cannot change between the two. The socket
# is in the guest's /tmp, not on the 9p share (binding a socket there fails with ENXIO).
# usage: still_shot NAME CONFIG [marquee play options...]
still_shot() {
  name=$1; config=$2; shift 2
  if [ "${shot:-0}" = 1 ]; then set -- "$@" --control "/tmp/$name.sock"; fi
  timeout 60 "$marquee" play "$config" --repeat one "$@" --events "$s/$name.jsonl" --trace-frames > "$s/$name.log" 2>&1 &
  pid=$!
  if wait_frame "$s/$name.jsonl" 30; then
    t1=$(up)
    sleep 0.5
    "$s/.mvm/screendump" "$name" || echo "screendump $name failed" >> "$s/$name.log"
    if [ "${shot:-0}" = 1 ]; then
      src=0
      timeout 30 "$marquee" ctl --socket "/tmp/$name.sock" screenshot -o "$s/$name-shot.png" 2> "$s/$name-shot.err" || src=$?
      echo "shot-$name rc=$src"
      sed "s/^/shot-$name: stderr: /" "$s/$name-shot.err"
    fi
  else
    t1=none
  fi
  kill -TERM $pid 2>/dev/null
  rc=0; wait $pid || rc=$?
}
shot=1  # the scaling stills and the portrait one take a screenshot too
for mode in aspectFit aspectFill fill none; do
  t0=$(up)
  still_shot "$gpu-$mode" "$s/still3.yaml" --output drm --scaling $mode
  echo "scaling-$mode rc=$rc start=$t0 first_frame=$t1 end=$(up)"
done
still_shot "$gpu-portrait" "$s/still-portrait.yaml" --output drm
echo "portrait rc=$rc"
shot=0
# Two clips looped twice (4 s), stopped after 12 s: the first frame comes 0.3-5 s after exec (a
# clean-clone run took 4.2 s to reach main once libavfilter, HarfBuzz and FreeType were linked: their
# libraries load over 9p under TCG, and 8 s left 2.5 s of playing). Not polled meanwhile: with one
# vCPU, each grep exec'd over 9p takes up to 0.3 s from the player.
# Scaling none: the hand-over is under test here, not the scaler (upscaling each frame to 1280x720
# costs most of a 33 ms slot under TCG; the scaling checks above cover it).
timeout 90 "$marquee" play "$s/loop2.yaml" --output drm --scaling none \
  --events "$s/$gpu-loop.jsonl" --trace-frames > "$s/$gpu-loop.log" 2>&1 &
pid=$!
sleep 12
kill -TERM $pid 2>/dev/null
rc=0; wait $pid || rc=$?
echo "gapless rc=$rc"
# The legacy path: the still, then a looping clip stopped by SIGTERM.
still_shot "$gpu-legacy" "$s/still-legacy.yaml" --output drm
timeout 60 "$marquee" play "$s/clip-legacy.yaml" --output drm --scaling none \
  --events "$s/$gpu-legacy-clip.jsonl" --trace-frames > "$s/$gpu-legacy-clip.log" 2>&1 &
pid=$!
# 3.5 s of flips from the first frame on: start-up (libraries over 9p) took 1.5-3.8 s.
wait_frame "$s/$gpu-legacy-clip.jsonl" 30 && sleep 3.5
kill -TERM $pid
rc2=0; wait $pid || rc2=$?
sleep 0.5
"$s/.mvm/screendump" "$gpu-legacy-after"
echo "legacy rc=$rc clip=$rc2"
# display.connector and display.mode from the config reach the output; a wrong name is an error.
still_shot "$gpu-config" "$s/still-config.yaml"
rc2=0
timeout 60 "$marquee" play "$s/still-badconnector.yaml" --repeat off --exit-when-idle > "$s/$gpu-badconnector.log" 2>&1 || rc2=$?
echo "config rc=$rc bad=$rc2"
t0=$(up)
rc=0
timeout 90 "$marquee" play "$s/clip.mp4" --output drm --scaling none --repeat off --exit-when-idle \
  --events "$s/$gpu-clip.jsonl" --trace-frames > "$s/$gpu-clip.log" 2>&1 || rc=$?
echo "clip rc=$rc start=$t0 end=$(up)"
# Control: the same clip headless, to tell the DRM output's costs from the engine's.
rc=0
timeout 90 "$marquee" play "$s/clip.mp4" --output headless:1280x800 --scaling none --repeat off --exit-when-idle \
  --events "$s/$gpu-clip-headless.jsonl" --trace-frames > "$s/$gpu-clip-headless.log" 2>&1 || rc=$?
echo "clip-headless rc=$rc"
t0=$(up)
timeout 90 "$marquee" play "$s/still-loop.yaml" --output drm \
  --events "$s/$gpu-term.jsonl" --trace-frames > "$s/$gpu-term.log" 2>&1 &
pid=$!
if wait_frame "$s/$gpu-term.jsonl" 30; then
  sleep 0.5
  "$s/.mvm/screendump" "$gpu-term-before"
  t1=$(up)
  kill -TERM $pid
  rc=0; wait $pid || rc=$?
  t2=$(up)
  sleep 0.5
  "$s/.mvm/screendump" "$gpu-term-after"
  echo "sigterm rc=$rc start=$t0 kill=$t1 exited=$t2"
else
  kill -KILL $pid 2>/dev/null
  echo "sigterm rc=noframe start=$t0"
fi
# The console, VT switches and hotplug, in one run of a looping clip.
status=/sys/class/drm/card0-Virtual-1/status
timeout 120 "$marquee" play "$s/clip-loop.yaml" --output drm \
  --events "$s/$gpu-vt.jsonl" --trace-frames > "$s/$gpu-vt.log" 2>&1 &
pid=$!
frames() { cat "$s/$gpu-vt.jsonl" 2>/dev/null | grep -c '"event":"frame"'; }
if wait_frame "$s/$gpu-vt.jsonl" 30; then
  sleep 0.5
  playing_mode=$(python3 "$s/console.py" mode /dev/tty1)
  timeout 10 python3 "$s/console.py" switch 2 > /dev/null; sleep 1
  "$s/.mvm/screendump" "$gpu-vt2"
  timeout 10 python3 "$s/console.py" switch 1 > /dev/null; sleep 1
  "$s/.mvm/screendump" "$gpu-vt1"
  echo off > $status; sleep 3
  f0=$(frames); sleep 1; f1=$(frames)
  echo on > $status; sleep 3
  "$s/.mvm/screendump" "$gpu-replugged"
  alive=0; kill -0 $pid 2>/dev/null && alive=1
  kill -TERM $pid
  rc=0; wait $pid || rc=$?
  echo detect > $status
  echo "console-vt rc=$rc playing_mode=$playing_mode after_mode=$(python3 "$s/console.py" mode /dev/tty1) alive=$alive unplugged_frames=$((f1 - f0))"
else
  kill -KILL $pid 2>/dev/null
  echo "console-vt rc=noframe"
fi
# The hardware inventory: cards, connectors with their modes, CRTCs, planes.
rc=0
timeout 60 "$marquee" probe > "$s/$gpu-probe.txt" 2>&1 || rc=$?
echo "probe rc=$rc"
rc=0
timeout 60 "$marquee" probe --json > "$s/$gpu-probe.json" 2> "$s/$gpu-probe-json.err" || rc=$?
echo "probe-json rc=$rc"
# The on-screen display: screendumps before a key press on a uinput keypad, 0.5 s after it (the
# labels up) and 3 s after it (osd.duration 2 s: gone); landscape, then portrait.
modprobe uinput 2>/dev/null
for kind in osd osd-portrait; do
  name=$gpu-$kind
  timeout 90 "$marquee" play "$s/$kind.yaml" --output drm --events "$s/$name.jsonl" --trace-frames > "$s/$name.log" 2>&1 &
  pid=$!
  timeout 80 python3 "$s/uinput-keypad.py" --name "Marquee OSD Keypad" --go "$s/$name.go" \
    --wait-for "$s/$name.log" "Marquee OSD Keypad" --events "$s/$name.jsonl" --keys KPASTERISK --linger 0 > "$s/$name-keys.txt" 2>&1 &
  kpid=$!
  if wait_frame "$s/$name.jsonl" 30; then
    sleep 0.5
    "$s/.mvm/screendump" "$name-before"
    touch "$s/$name.go"
    wait $kpid
    sleep 0.5
    "$s/.mvm/screendump" "$name-on"
    sleep 3
    "$s/.mvm/screendump" "$name-off"
  fi
  kill -TERM $pid 2>/dev/null
  rc=0; wait $pid || rc=$?
  kill $kpid 2>/dev/null
  echo "$kind rc=$rc"
done
# The status card: every item missing.
timeout 60 "$marquee" play "$s/osd-card.yaml" --output drm > "$s/$gpu-card.log" 2>&1 &
pid=$!
i=0
while ! grep -q 'every item failed' "$s/$gpu-card.log" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
"$s/.mvm/screendump" "$gpu-card"
kill -TERM $pid 2>/dev/null
rc=0; wait $pid || rc=$?
echo "status-card rc=$rc"
# Display power: displayOff over the control socket, a screendump, the probe and the player's CPU
# while off; displayOn and a screendump in the same process.
timeout 120 "$marquee" play "$s/clip-loop.yaml" --output drm --control "/tmp/$gpu-power.sock" \
  --events "$s/$gpu-power.jsonl" --trace-frames > "$s/$gpu-power.log" 2>&1 &
pid=$!
frames() { grep -c '"event":"frame"' "$s/$gpu-power.jsonl" 2>/dev/null; }
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
if wait_frame "$s/$gpu-power.jsonl" 30; then
  sleep 0.5
  orc=0; timeout 30 "$marquee" ctl --socket "/tmp/$gpu-power.sock" displayOff 2> "$s/$gpu-power-ctl.err" || orc=$?
  sleep 1
  "$s/.mvm/screendump" "$gpu-power-off"
  timeout 60 "$marquee" probe > "$s/$gpu-power-probe.txt" 2>&1
  f0=$(frames); c0=$(ticks); sleep 3; c1=$(ticks); f1=$(frames)
  nrc=0; timeout 30 "$marquee" ctl --socket "/tmp/$gpu-power.sock" displayOn 2>> "$s/$gpu-power-ctl.err" || nrc=$?
  sleep 2
  "$s/.mvm/screendump" "$gpu-power-on"
  f2=$(frames)
  kill -TERM $pid 2>/dev/null
  rc=0; wait $pid || rc=$?
  echo "power rc=$rc off=$orc on=$nrc ticks_off=$((c1 - c0)) frames_off=$((f1 - f0)) frames_on=$((f2 - f1))"
else
  kill -KILL $pid 2>/dev/null
  echo "power rc=noframe"
fi
GUEST
}

failures=0
report() {  # gpu check ok detail
  if [ "$3" = ok ]; then echo "PASS $1 $2${4:+ ($4)}"; else echo "FAIL $1 $2: $4"; failures=$((failures + 1)); fi
}
field() {  # field LINE-NAME KEY FILE: the value of KEY= on the guest line starting with LINE-NAME
  awk -v n="$1" -v k="$2" '$1 == n { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$3"
}
shot_check() {  # shot_check GPU NAME CHECK: `marquee ctl screenshot` of still NAME equals its screendump
  local r png=$share/$2-shot.png ppm=$share/$2.ppm detail
  r=$(field "shot-$2" rc "$out")
  if [ -z "$r" ]; then
    report "$1" "$3" fail "no screenshot taken (no first frame?): $(tail -2 "$share/$2.log" | tr '\n' ' ')"
  elif [ "$r" != 0 ]; then
    report "$1" "$3" fail "marquee ctl screenshot exited $r: $(head -3 "$share/$2-shot.err" 2>/dev/null | tr '\n' ' ')"
  elif [ ! -s "$png" ] || [ ! -s "$ppm" ]; then
    report "$1" "$3" fail "missing $([ -s "$png" ] || echo "$png ")$([ -s "$ppm" ] || echo "$ppm")"
  elif detail=$(python3 "$here/drm-check.py" screenshot-matches "$png" "$ppm"); then
    report "$1" "$3" ok "screenshot = screendump: $detail"
  else
    report "$1" "$3" fail "$detail ($png vs $ppm)"
  fi
}

ocr_labels() {  # ocr_labels PPM [TURN,]: the text of the lower 40 % (the labels' panel), grey, inverted, doubled
  local png=${1%.ppm}-labels.png
  ffmpeg -nostdin -hide_banner -loglevel error -y -i "$1" -vf "${2}crop=iw:ih*0.4:0:ih*0.6,scale=iw*2:ih*2,format=gray,negate" "$png" \
    && tesseract "$png" stdout --psm 11 2>/dev/null
}

for gpu in "${gpus[@]}"; do
  share=$cache/drm-share-$gpu
  rm -rf "$share"; mkdir -p "$share"
  cp "$fixtures/still.mkv" "$fixtures/clip.mp4" "$fixtures/loop-a.mp4" "$fixtures/loop-b.mp4" "$share/"
  printf 'playlist:\n  repeat: "off"\n  items:\n    - url: still.mkv\n      duration: 3\n' > "$share/still3.yaml"
  printf 'playlist:\n  repeat: one\n  items:\n    - url: still.mkv\n' > "$share/still-loop.yaml"
  printf 'playlist:\n  items:\n    - url: still.mkv\n      duration: 3\ndisplay:\n  rotation: 90\n' > "$share/still-portrait.yaml"
  printf 'playlist:\n  repeat: all\n  items:\n    - url: loop-a.mp4\n    - url: loop-b.mp4\n' > "$share/loop2.yaml"
  printf 'playlist:\n  repeat: one\n  items:\n    - url: clip.mp4\n' > "$share/clip-loop.yaml"
  printf 'playlist:\n  items:\n    - url: still.mkv\n      duration: 3\ndisplay:\n  modesetting: legacy\n' > "$share/still-legacy.yaml"
  printf 'playlist:\n  repeat: one\n  items:\n    - url: clip.mp4\ndisplay:\n  modesetting: legacy\n' > "$share/clip-legacy.yaml"
  cp "$here/console.py" "$share/"
  printf 'playlist:\n  items:\n    - url: still.mkv\n      duration: 3\ndisplay:\n  output: drm:/dev/dri/card0\n  connector: Virtual-1\n  mode: 1024x768\n  scaling: fill\n' > "$share/still-config.yaml"
  printf 'playlist:\n  items:\n    - url: still.mkv\ndisplay:\n  output: drm\n  connector: HDMI-A-1\n' > "$share/still-badconnector.yaml"
  osd_items='playlist:\n  repeat: one\n  items:\n    - url: still.mkv\n      title: Gallery Seven\nosd:\n  duration: 2\n'
  printf "$osd_items" > "$share/osd.yaml"
  printf "${osd_items}display:\n  rotation: 90\n" > "$share/osd-portrait.yaml"
  printf 'playlist:\n  items:\n    - url: missing-gallery.mp4\n    - url: missing-lobby.mp4\n' > "$share/osd-card.yaml"
  cp "$here/uinput-keypad.py" "$share/"
  bin=$("$here/guest-visible.sh" "$marquee" "$share")
  guest_script > "$share/guest.sh"
  t=$(date +%s.%N)
  vm_timeout=${VM_TIMEOUT:-390}
  rc=0
  timeout -k 5 $((vm_timeout + 30)) python3 "$here/run-guest.py" --gpu "$gpu" --smp "${VM_SMP:-2}" --timeout "$vm_timeout" \
    --share "$share" -- /bin/sh "$share/guest.sh" "$bin" "$gpu" > "$share/out.txt" 2> "$share/err.txt" || rc=$?
  echo "drm-test: $gpu guest ran $(elapsed "$t") s (rc $rc)"
  out=$share/out.txt
  if [ $rc -ne 0 ]; then
    report "$gpu" guest fail "run-guest exited $rc; $(tail -3 "$share/err.txt" | tr '\n' ' ')"
    continue
  fi
  for mode in aspectFit aspectFill fill none; do
    r=$(field "scaling-$mode" rc "$out")
    ppm=$share/$gpu-$mode.ppm
    if [ "$r" != 0 ]; then
      report "$gpu" "scaling-$mode" fail "marquee exited ${r:-?}: $(tail -2 "$share/$gpu-$mode.log" | tr '\n' ' ')"
    elif [ ! -s "$ppm" ]; then
      report "$gpu" "scaling-$mode" fail "no screendump ($(tail -2 "$share/$gpu-$mode.log" | tr '\n' ' '))"
    elif problem=$(python3 "$here/drm-check.py" picture "$mode" "$ppm"); then
      t0=$(field "scaling-$mode" start "$out"); t1=$(field "scaling-$mode" first_frame "$out")
      report "$gpu" "scaling-$mode" ok "start to first frame event $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
    else
      report "$gpu" "scaling-$mode" fail "$problem ($ppm)"
    fi
    shot_check "$gpu" "$gpu-$mode" "screenshot-$mode"
  done
  r=$(field portrait rc "$out"); ppm=$share/$gpu-portrait.ppm
  if [ "$r" != 0 ]; then
    report "$gpu" portrait fail "marquee exited ${r:-?}: $(tail -2 "$share/$gpu-portrait.log" | tr '\n' ' ')"
  elif [ ! -s "$ppm" ]; then
    report "$gpu" portrait fail "no screendump ($(tail -2 "$share/$gpu-portrait.log" | tr '\n' ' '))"
  elif problem=$(python3 "$here/drm-check.py" picture portrait "$ppm"); then
    report "$gpu" portrait ok "800x1280 aspect-fit turned clockwise"
  else
    report "$gpu" portrait fail "$problem ($ppm)"
  fi
  shot_check "$gpu" "$gpu-portrait" screenshot-portrait
  r=$(field gapless rc "$out")
  if [ "$r" != 0 ]; then
    report "$gpu" gapless fail "marquee exited ${r:-?} on SIGTERM: $(tail -2 "$share/$gpu-loop.log" | tr '\n' ' ')"
  elif detail=$(python3 "$here/drm-check.py" gapless "$share/$gpu-loop.jsonl" 2 30 30 2); then
    report "$gpu" gapless ok "$detail"
  else
    report "$gpu" gapless fail "$detail"
  fi
  r=$(field legacy rc "$out"); r2=$(field legacy clip "$out"); ev=$share/$gpu-legacy-clip.jsonl
  if [ "$r" != 0 ] || [ "$r2" != 0 ]; then
    report "$gpu" legacy fail "marquee exited ${r:-?} (still), ${r2:-?} (clip on SIGTERM): $(tail -2 "$share/$gpu-legacy.log" | tr '\n' ' ')"
  elif ! grep -q 'legacy modesetting' "$share/$gpu-legacy.log"; then
    report "$gpu" legacy fail "not legacy: $(grep display: "$share/$gpu-legacy.log")"
  elif ! problem=$(python3 "$here/drm-check.py" picture aspectFit "$share/$gpu-legacy.ppm"); then
    report "$gpu" legacy fail "still: $problem"
  elif ! flips=$(python3 "$here/drm-check.py" legacy-drops "$ev"); then
    report "$gpu" legacy fail "clip: $flips"
  elif ! problem=$(python3 "$here/drm-check.py" gone "$share/$gpu-legacy-after.ppm"); then
    report "$gpu" legacy fail "after exit: $problem"
  else
    report "$gpu" legacy ok "still shown, $flips, console back after SIGTERM"
  fi
  r=$(field console-vt rc "$out"); log=$share/$gpu-vt.log
  if [ "$r" != 0 ]; then
    report "$gpu" console fail "marquee exited ${r:-?}: $(tail -2 "$log" | tr '\n' ' ')"
  else
    pm=$(field console-vt playing_mode "$out"); am=$(field console-vt after_mode "$out")
    if [ "$pm" = 1 ] && [ "$am" = 0 ]; then
      report "$gpu" console ok "/dev/tty1 KD mode $pm (graphics) while playing, $am (text) after SIGTERM"
    else
      report "$gpu" console fail "KD mode while playing '$pm' (want 1), after exit '$am' (want 0)"
    fi
    if ! grep -q 'switched to another VT; the picture pauses' "$log" || ! grep -q 'switched back; the picture resumes' "$log"; then
      report "$gpu" vt-switch fail "no pause/resume lines: $(grep display: "$log" | tr '\n' ' ')"
    elif python3 "$here/drm-check.py" gone-clip "$share/$gpu-vt2.ppm" >/dev/null && python3 "$here/drm-check.py" clip "$share/$gpu-vt1.ppm" >/dev/null; then
      report "$gpu" vt-switch ok "VT 2 shows the console, VT 1 the clip again"
    else
      report "$gpu" vt-switch fail "screendumps: VT 2 $(python3 "$here/drm-check.py" gone-clip "$share/$gpu-vt2.ppm"); VT 1 $(python3 "$here/drm-check.py" clip "$share/$gpu-vt1.ppm")"
    fi
    uf=$(field console-vt unplugged_frames "$out"); alive=$(field console-vt alive "$out")
    if ! grep -q 'Virtual-1 was unplugged' "$log" || ! grep -q 'display: back on Virtual-1' "$log"; then
      report "$gpu" hotplug fail "no unplug/back lines: $(grep display: "$log" | tr '\n' ' ')"
    elif [ "$alive" != 1 ] || [ "${uf:-0}" -lt 15 ]; then
      report "$gpu" hotplug fail "alive=$alive, $uf frames in 1 s while unplugged (want the same process, >= 15)"
    elif ! problem=$(python3 "$here/drm-check.py" clip "$share/$gpu-replugged.ppm"); then
      report "$gpu" hotplug fail "after replug: $problem"
    else
      report "$gpu" hotplug ok "unplug logged, $uf frames played on in 1 s unplugged, picture back in the same process"
    fi
  fi
  r=$(field probe rc "$out"); probe=$share/$gpu-probe.txt
  if [ "$r" = 0 ] && grep -q '^  connector Virtual-1 (.*connected$' "$probe" && grep -q '^    preferred 1280x800@' "$probe" \
     && grep -q '^    modes .*1024x768@60' "$probe" && grep -q 'plane .* primary  formats .*XR24' "$probe" \
     && grep -q '^    rotation ' "$probe"; then
    report "$gpu" probe ok "$(head -1 "$probe"); $(grep -c '^  plane' "$probe") plane(s)"
  else
    report "$gpu" probe fail "exit ${r:-?}: $(head -4 "$probe" 2>/dev/null | tr '\n' ' ')"
  fi
  r=$(field probe-json rc "$out"); driver=$([ "$gpu" = std ] && echo bochs-drm || echo virtio_gpu)
  if [ "$r" != 0 ]; then
    report "$gpu" probe-json fail "exit ${r:-?}: $(head -2 "$share/$gpu-probe-json.err" 2>/dev/null | tr '\n' ' ')"
  elif detail=$(python3 "$here/drm-check.py" probe-json "$share/$gpu-probe.json" "$driver"); then
    report "$gpu" probe-json ok "$detail"
  else
    report "$gpu" probe-json fail "$detail"
  fi
  r=$(field config rc "$out"); size=$(head -c 20 "$share/$gpu-config.ppm" 2>/dev/null | tr '\n' ' ' | cut -d' ' -f2,3)
  if [ "$r" = 0 ] && [ "$size" = "1024 768" ] && grep -q 'display: Virtual-1 1024x768@' "$share/$gpu-config.log"; then
    report "$gpu" config ok "$(sed -n 's/.*display: //p' "$share/$gpu-config.log")"
  else
    report "$gpu" config fail "exit ${r:-?}, screen '${size}': $(head -2 "$share/$gpu-config.log" | tr '\n' ' ')"
  fi
  r=$(field config bad "$out")
  if [ "$r" = 1 ] && grep -q 'no connector named HDMI-A-1' "$share/$gpu-badconnector.log"; then
    report "$gpu" bad-connector ok "$(head -1 "$share/$gpu-badconnector.log")"
  else
    report "$gpu" bad-connector fail "exit ${r:-?}: $(head -2 "$share/$gpu-badconnector.log" | tr '\n' ' ')"
  fi
  r=$(field clip rc "$out"); ev=$share/$gpu-clip.jsonl
  shown=$(grep -c '"event":"frame"' "$ev" 2>/dev/null || true)
  dropped=$(grep '"event":"frame"' "$ev" 2>/dev/null | grep -c '"dropped":true' || true)
  drop_times=$( (grep '"dropped":true' "$ev" 2>/dev/null || true) | sed -n 's/.*"time":\([0-9.]*\).*/\1/p' | awk '{ printf "%s%.3f", (NR > 1 ? "," : ""), $1 }')
  if [ "$r" != 0 ]; then
    report "$gpu" clip fail "marquee exited ${r:-?}: $(tail -2 "$share/$gpu-clip.log" | tr '\n' ' ')"
  elif [ "$dropped" -ne 0 ] || [ "$shown" -lt 60 ]; then
    report "$gpu" clip fail "$shown frame events, $dropped dropped at timeline s [$drop_times] (expected 60, 0 dropped)"
  else
    report "$gpu" clip ok "$shown frames, 0 dropped, $(awk -v a="$(field clip start "$out")" -v b="$(field clip end "$out")" 'BEGIN { printf "%.2f", b - a }') s"
  fi
  hdrop=$(grep '"event":"frame"' "$share/$gpu-clip-headless.jsonl" 2>/dev/null | grep -c '"dropped":true' || true)
  echo "INFO $gpu clip-headless (control, not a check): exit $(field clip-headless rc "$out"), $hdrop dropped"
  r=$(field sigterm rc "$out")
  if [ "$r" != 0 ]; then
    report "$gpu" sigterm fail "marquee exited ${r:-?} after SIGTERM: $(tail -2 "$share/$gpu-term.log" | tr '\n' ' ')"
  elif ! problem=$(python3 "$here/drm-check.py" picture aspectFit "$share/$gpu-term-before.ppm"); then
    report "$gpu" sigterm fail "the still was not up before SIGTERM: $problem"
  elif ! problem=$(python3 "$here/drm-check.py" gone "$share/$gpu-term-after.ppm"); then
    report "$gpu" sigterm fail "$problem"
  else
    report "$gpu" sigterm ok "exit 0 $(awk -v a="$(field sigterm kill "$out")" -v b="$(field sigterm exited "$out")" 'BEGIN { printf "%.2f", b - a }') s after SIGTERM, picture gone"
  fi
  # The on-screen display, read back with tesseract from the screendumps.
  for kind in osd osd-portrait; do
    name=$gpu-$kind; turn=$([ "$kind" = osd-portrait ] && echo "transpose=2," || true)
    if [ "$(field "$kind" rc "$out")" != 0 ]; then
      report "$gpu" "$kind" fail "marquee exited $(field "$kind" rc "$out"): $(tail -2 "$share/$name.log" | tr '\n' ' ')"
    elif [ ! -s "$share/$name-on.ppm" ] || [ ! -s "$share/$name-off.ppm" ]; then
      report "$gpu" "$kind" fail "no screendumps (no frame, or no key: $(tr '\n' ' ' < "$share/$name-keys.txt"))"
    else
      text=$(ocr_labels "$share/$name-on.ppm" "$turn")
      if ! grep -q "Gallery Seven" <<< "$text"; then
        report "$gpu" "$kind" fail "the title is not read back after the key: '$(tr '\n' ' ' <<< "$text")'"
      elif ! cmp -s "$share/$name-before.ppm" "$share/$name-off.ppm"; then
        report "$gpu" "$kind" fail "the labels are still on screen 3 s after the key (osd.duration 2 s)"
      else
        report "$gpu" "$kind" ok "$(head -1 "$share/$name-keys.txt"); read back: $(grep -o 'Gallery Seven.*' <<< "$text" | head -1); gone after 2 s"
      fi
    fi
  done
  # Where the OSD is drawn, as the player decided it from the planes the driver lists.
  drawing=$(grep -o 'osd: .*' "$share/$gpu-osd.log" 2>/dev/null | head -1)
  if grep -q '^osd: blended into the picture (no ARGB overlay plane on this CRTC' <<< "$drawing"; then
    report "$gpu" osd-blended ok "$drawing"
  else
    report "$gpu" osd-blended fail "log line '${drawing:-none}' ($share/$gpu-osd.log)"
  fi
  text=$(tesseract "$share/$gpu-card.ppm" stdout --psm 6 2>/dev/null || true)
  if grep -q "Nothing can be played" <<< "$text" && grep -q "missing-gallery.mp4" <<< "$text" && grep -q "missing-lobby.mp4" <<< "$text"; then
    report "$gpu" status-card ok "$(grep -m1 "missing-gallery" <<< "$text")"
  else
    report "$gpu" status-card fail "read back: '$(tr '\n' ' ' <<< "$text")' ($(tail -2 "$share/$gpu-card.log" | tr '\n' ' '))"
  fi
  # Display power: dark and inactive while off, resting (CPU ticks at 100 Hz over 3 s), back on.
  r=$(field power rc "$out"); log=$share/$gpu-power.log
  ticks_off=$(field power ticks_off "$out"); frames_off=$(field power frames_off "$out"); frames_on=$(field power frames_on "$out")
  if [ "$r" != 0 ] || [ "$(field power off "$out")" != 0 ] || [ "$(field power on "$out")" != 0 ]; then
    report "$gpu" display-power fail "$(grep '^power ' "$out") $(tr '\n' ' ' < "$share/$gpu-power-ctl.err" 2>/dev/null) $(tail -2 "$log" | tr '\n' ' ')"
  elif ! grep -q 'display: off (CRTC inactive' "$log" || ! grep -q 'display: on (CRTC active)' "$log"; then
    report "$gpu" display-power fail "no off/on lines: $(grep 'display:' "$log" | tr '\n' ' ')"
  elif ! grep -q '^  crtc [0-9]*  inactive$' "$share/$gpu-power-probe.txt" || grep -q '^  crtc [0-9]*  active$' "$share/$gpu-power-probe.txt"; then
    report "$gpu" display-power fail "probe while off: $(grep '^  crtc' "$share/$gpu-power-probe.txt" | tr '\n' ' ')"
  elif ! problem=$(python3 "$here/drm-check.py" gone-clip "$share/$gpu-power-off.ppm"); then
    report "$gpu" display-power fail "while off: $problem"
  elif ! problem=$(python3 "$here/drm-check.py" clip "$share/$gpu-power-on.ppm"); then
    report "$gpu" display-power fail "after displayOn: $problem"
  elif [ "${frames_off:-1}" != 0 ] || [ "${frames_on:-0}" -lt 10 ] || [ "${ticks_off:-999}" -gt 30 ]; then
    report "$gpu" display-power fail "$frames_off frames while off (want 0), $frames_on in 2 s after on (want >= 10), $ticks_off CPU ticks in 3 s off (want <= 30)"
  else
    report "$gpu" display-power ok "off: screen dark, CRTC inactive, 0 frames, $ticks_off CPU ticks (10 ms) in 3 s; on: the clip again, $frames_on frames in 2 s"
  fi
done
echo "drm-test: $failures failure(s), $(elapsed "$t_begin") s"
[ $failures -eq 0 ]
