#!/usr/bin/env bash
# The OSD's overlay plane and screenshots through a writeback connector, on a real KMS driver:
# vkms (Debian's kernel leaves it unset; vkms-module.sh builds it out of tree from linux-source),
# loaded in the guest beside bochs-drm (card0) with `enable_overlay=1 enable_writeback=1`, gives
# card1 with a Virtual-2 connector (1024x768), overlay planes taking ARGB8888 and a writeback
# connector that captures the picture vkms composes. marquee plays a 1024x768 one-colour still on
# card1 (atomic) with --control; `marquee ctl play` brings the OSD up (osd.duration 12 s: a
# loaded host once took 8.5 s to run one `marquee ctl` in the guest).
#   osd-plane     the run's log says the OSD is drawn on an overlay plane (not blended)
#   kernel-state  debugfs dri/1/state: that plane has no framebuffer before the OSD, one (AR24, on
#                 crtc-0) while it is up, and none again after osd.duration (vkms-check.py overlay)
#   writeback     the log says screenshots go through the writeback connector, the first capture
#                 is logged with its cost, no capture failed, and the connector is detached after
#   shot-osd      `marquee ctl screenshot -o` while the OSD is up: tesseract reads the title in it,
#                 the upper half is the still's colour (vkms-check.py shot ... with)
#   shot-no-osd   the same after the OSD is gone: the still's colour where the labels were too
# Prints PASS/FAIL per check; exits 1 on any failure, 2 when the harness cannot run. Hard timeouts
# on every step.
#
# Usage: Deploy/vm/vkms-test.sh
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   SWIFT_SCRATCH_PATH=p  scratch path for `swift build -c release --product marquee` (default: <repo>/.build)
#   MARQUEE_VM_CACHE=dir  image/fixture/module cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit for the guest (default 240)
set -euo pipefail

suite=vkms-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"

need_tools qemu-system-x86_64 ffmpeg python3 timeout tesseract

marquee=$("$here/marquee-binary.sh") || die "no marquee binary"
"$here/build-initramfs.sh" >/dev/null || die "guest image build failed"
module=$(timeout 900 "$here/vkms-module.sh" | tail -1) || die "no vkms.ko (see the line above)"

# The still: one colour, lossless RGB (FFV1) at the screen's size, so every pixel outside the OSD
# is exactly this colour in the screenshot. 2 fps, 4 s, repeated.
colour=3060C0
fixtures=$cache/vkms-fixtures
mkdir -p "$fixtures"
if [ ! -s "$fixtures/still-$colour.mkv" ]; then
  timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i "color=c=0x$colour:s=1024x768:r=2:d=4" \
    -vf format=bgr0 -c:v ffv1 "$fixtures/still.tmp.mkv" || die "ffmpeg could not make the still"
  mv "$fixtures/still.tmp.mkv" "$fixtures/still-$colour.mkv"
fi

guest_script() {
cat <<'GUEST'
#!/bin/sh
# Runs in the guest. $1 = marquee, $2 = vkms.ko; $MVM_SHARE = the share (fixtures, results).
set -u
marquee=$1; ko=$2; s=$MVM_SHARE
up() { cut -d' ' -f1 /proc/uptime; }
wait_frame() {  # wait_frame EVENTS SECONDS: the first frame event (the picture is on screen)
  i=0
  while ! grep -q '"event":"frame"' "$1" 2>/dev/null; do
    i=$((i + 1)); [ $i -le $(($2 * 10)) ] || return 1
    sleep 0.1
  done
}
state=/sys/kernel/debug/dri/1/state
plane_fb() {  # plane_fb ID: the framebuffer id plane ID shows now (0: none)
  awk -v head="plane[$1]:" '$1 == head { p = 1; next } /^[^\t]/ { p = 0 } p && /^\tfb=/ { sub(/^\tfb=/, ""); print; exit }' "$state"
}
wait_plane() {  # wait_plane ID up|down SECONDS
  i=0
  while :; do
    fb=$(plane_fb "$1")
    if [ "$2" = up ] && [ -n "$fb" ] && [ "$fb" != 0 ]; then return 0; fi
    if [ "$2" = down ] && [ "$fb" = 0 ]; then return 0; fi
    i=$((i + 1)); [ $i -le $(($3 * 5)) ] || return 1
    sleep 0.2
  done
}
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
mrc=0; timeout 30 modprobe drm_shmem_helper || mrc=$?
irc=0; timeout 30 insmod "$ko" enable_overlay=1 enable_writeback=1 2> "$s/insmod.err" || irc=$?
i=0; while [ ! -e /dev/dri/card1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
echo "vkms modprobe=$mrc insmod=$irc card1=$([ -e /dev/dri/card1 ] && echo yes || echo no) state=$([ -r $state ] && echo yes || echo no)"
[ -e /dev/dri/card1 ] || exit 0
ctl() { timeout 30 "$marquee" ctl --socket /tmp/vkms.sock "$@"; }
t0=$(up)
timeout 120 "$marquee" play "$s/osd.yaml" --output drm:/dev/dri/card1 --control /tmp/vkms.sock \
  --events "$s/play.jsonl" --trace-frames > "$s/play.log" 2>&1 &
pid=$!
if wait_frame "$s/play.jsonl" 40; then
  t1=$(up)
  plane=$(sed -n 's/.*osd: drawn on overlay plane \([0-9]*\) .*/\1/p' "$s/play.log" | head -1)
  sleep 0.5
  cp $state "$s/state-before.txt"
  # Any transport command brings the labels up; `play` changes nothing else on a playing still.
  crc=0; ctl play > "$s/ctl-play.txt" 2>&1 || crc=$?
  t2=$(up)
  upok=0; [ -n "$plane" ] && wait_plane "$plane" up 10 && upok=1
  t3=$(up)
  cp $state "$s/state-on.txt"
  src=0; ctl screenshot -o "$s/shot-on.png" 2> "$s/shot-on.err" || src=$?
  # Still up once the screenshot is back: the labels were up all through the capture.
  cp $state "$s/state-on-after.txt"
  downok=0; [ -n "$plane" ] && wait_plane "$plane" down 30 && downok=1
  t4=$(up)
  sleep 0.5
  cp $state "$s/state-off.txt"
  src2=0; ctl screenshot -o "$s/shot-off.png" 2> "$s/shot-off.err" || src2=$?
  cp $state "$s/state-end.txt"
  kill -TERM $pid 2>/dev/null
  rc=0; wait $pid || rc=$?
  echo "play rc=$rc plane=${plane:-none} ctl=$crc shot_on=$src shot_off=$src2 up=$upok down=$downok first_frame=$(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.1f", b - a }') ctl_play=$(awk -v a=$t1 -v b=$t2 'BEGIN { printf "%.1f", b - a }') osd_up_to_gone=$(awk -v a=$t3 -v b=$t4 'BEGIN { printf "%.1f", b - a }')"
else
  kill -KILL $pid 2>/dev/null
  echo "play rc=noframe"
fi
GUEST
}

failures=0
report() {  # check ok|fail detail
  if [ "$2" = ok ]; then echo "PASS vkms $1${3:+ ($3)}"; else echo "FAIL vkms $1: $3"; failures=$((failures + 1)); fi
}
field() {  # field LINE-NAME KEY FILE: the value of KEY= on the guest line starting with LINE-NAME
  awk -v n="$1" -v k="$2" '$1 == n { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$3"
}
ocr_labels() {  # ocr_labels PNG: the text of the lower 40 % (the labels' panel), grey, inverted, doubled
  local big=${1%.png}-labels.png
  ffmpeg -nostdin -hide_banner -loglevel error -y -i "$1" -vf "crop=iw:ih*0.4:0:ih*0.6,scale=iw*2:ih*2,format=gray,negate" "$big" \
    && tesseract "$big" stdout --psm 11 2>/dev/null
}

share=$cache/vkms-share
rm -rf "$share"; mkdir -p "$share"
cp "$fixtures/still-$colour.mkv" "$share/still.mkv"
cp "$module" "$share/vkms.ko"
printf 'playlist:\n  repeat: one\n  items:\n    - url: still.mkv\n      title: Gallery Seven\nosd:\n  duration: 12\n' > "$share/osd.yaml"
bin=$("$here/guest-visible.sh" "$marquee" "$share")
guest_script > "$share/guest.sh"
t=$(date +%s.%N)
vm_timeout=${VM_TIMEOUT:-240}
rc=0
timeout -k 5 $((vm_timeout + 30)) python3 "$here/run-guest.py" --gpu std --smp "${VM_SMP:-2}" --timeout "$vm_timeout" \
  --share "$share" -- /bin/sh "$share/guest.sh" "$bin" "$share/vkms.ko" > "$share/out.txt" 2> "$share/err.txt" || rc=$?
echo "vkms-test: guest ran $(elapsed "$t") s (rc $rc)"
out=$share/out.txt
log=$share/play.log
if [ $rc -ne 0 ]; then
  report guest fail "run-guest exited $rc; $(tail -3 "$share/err.txt" | tr '\n' ' ')"
elif [ "$(field vkms card1 "$out")" != yes ]; then
  report vkms-module fail "no /dev/dri/card1 after insmod: $(grep '^vkms ' "$out") $(tr '\n' ' ' < "$share/insmod.err" 2>/dev/null)"
elif [ "$(field play rc "$out")" != 0 ]; then
  report play fail "$(grep '^play ' "$out"); $(tail -3 "$log" 2>/dev/null | tr '\n' ' ')"
else
  report play ok "$(grep '^play ' "$out" | cut -d' ' -f9-)"
  plane=$(field play plane "$out")
  drawing=$(grep -o 'osd: .*' "$log" | head -1)
  if grep -q '^osd: drawn on overlay plane [0-9]* (ARGB8888)$' <<< "$drawing"; then
    report osd-plane ok "$drawing"
  else
    report osd-plane fail "log line '${drawing:-none}'"
  fi
  before=$(python3 "$here/vkms-check.py" overlay "$share/state-before.txt" "$plane" down) || before="FAIL $before"
  on=$(python3 "$here/vkms-check.py" overlay "$share/state-on.txt" "$plane" up) || on="FAIL $on"
  on_after=$(python3 "$here/vkms-check.py" overlay "$share/state-on-after.txt" "$plane" up) || on_after="FAIL $on_after"
  off=$(python3 "$here/vkms-check.py" overlay "$share/state-off.txt" "$plane" down) || off="FAIL $off"
  if [[ "$before$on$on_after$off" == *FAIL* ]] || [[ "$on" != *format=AR24* ]] || [[ "$on" != *crtc=crtc-0* ]]; then
    report kernel-state fail "before the OSD: $before; up: $on; after the screenshot: $on_after; gone: $off"
  else
    report kernel-state ok "before: $before; up: $on; gone $(field play osd_up_to_gone "$out") s after it was seen up: $off"
  fi
  opened=$(grep -o 'screenshot: writeback connector [0-9]*.*' "$log" | head -1)
  captured=$(grep -o 'screenshot: writeback connector [0-9]* captured .*' "$log" | head -1)
  connector=$(sed -n 's/.*screenshot: writeback connector \([0-9]*\).*/\1/p' "$log" | head -1)
  if [ -z "$opened" ] || [ -z "$captured" ] || grep -q 'screenshot: writeback connector [0-9]* failed' "$log"; then
    report writeback fail "$(grep 'screenshot:' "$log" | tr '\n' ' ')"
  elif ! detail=$(python3 "$here/vkms-check.py" detached "$share/state-end.txt" "$connector"); then
    report writeback fail "left attached after the captures: $detail"
  else
    report writeback ok "$opened; $captured; after: $detail"
  fi
  for kind in on off; do
    name=$([ $kind = on ] && echo shot-osd || echo shot-no-osd)
    png=$share/shot-$kind.png
    r=$(field play "shot_$kind" "$out")
    if [ "$r" != 0 ] || [ ! -s "$png" ]; then
      report $name fail "marquee ctl screenshot exited ${r:-?}: $(head -2 "$share/shot-$kind.err" 2>/dev/null | tr '\n' ' ')"
      continue
    fi
    want=$([ $kind = on ] && echo with || echo without)
    if ! detail=$(python3 "$here/vkms-check.py" shot "$png" "$colour" "$want"); then
      report $name fail "$detail ($png)"
      continue
    fi
    text=$(ocr_labels "$png" || true)
    if [ $kind = on ] && ! grep -q "Gallery Seven" <<< "$text"; then
      report $name fail "the title is not read back: '$(tr '\n' ' ' <<< "$text")' ($png)"
    elif [ $kind = off ] && grep -q "Gallery" <<< "$text"; then
      report $name fail "the title is still read back after osd.duration: '$(tr '\n' ' ' <<< "$text")' ($png)"
    else
      report $name ok "$detail$([ $kind = on ] && echo "; read back: $(grep -o 'Gallery Seven.*' <<< "$text" | head -1)")"
    fi
  done
fi
echo "vkms-test: $failures failure(s), $(elapsed "$t_begin") s"
[ $failures -eq 0 ]
