#!/usr/bin/env bash
# End-to-end test of HDMI-CEC display power on real kernel drivers: boots Debian's kernel under
# QEMU/TCG (bochs-drm) and loads vivid, whose emulated HDMI input and output share one CEC bus:
# /dev/cec0 is made the TV (`cec-ctl --tv`), /dev/cec1 is the player's. `cec-ctl --monitor` on the
# TV's side records what reaches the bus while the host-built marquee runs in the guest:
#   vivid       vivid loaded, /dev/cec0 and /dev/cec1 present, /dev/cec0 claimed as the TV
#   probe       `marquee probe` lists both adapters (driver vivid, physical addresses 0.0.0.0 and
#               1.0.0.0, the TV's logical address 0, no connector reported)
#   probe-json  `marquee probe --json` has the same two adapters in its `cec` part
#   claim       `marquee play` with `display.cec: /dev/cec1` (headless, a looping clip, --control)
#               logs claiming Playback Device 1 (logical address 4) at physical address 1.0.0.0
#   messages    `marquee ctl displayOff`, then `displayOn`: the TV's monitor receives <Standby>,
#               <Image View On> (both from Playback Device 1 to the TV) and <Active Source> (to
#               all, with physical address 1.0.0.0), in that order; one `cec: sent` line for each
#   nack        with the TV gone from the bus (`cec-ctl --clear` on /dev/cec0), displayOff is one
#               line saying <Standby> was not acknowledged (NACK), and playback goes on
#   playback    the player played before, between and after the switches and exited 0 on `quit`
#   claim-kept  afterwards `cec-ctl -d /dev/cec1` shows the claim the player left: logical address 4
#               (Playback Device 1), CEC 2.0, primary device type Playback, OSD name 'Marquee'
#   auto        `display.cec: auto` on the bochs-drm screen: one info line naming both vivid adapters
#               and saying none is bound to card0's Virtual-1 connector (vivid reports no connector);
#               nothing is claimed and the clip plays
#   auto-headless  `display.cec: auto` with --output headless: no cec line at all
#   schedule-cec   the timetable drives the TV: the guest's clock set back to 1970 (a device without
#               an RTC), the player started on bochs-drm in the first display.power off window sends
#               <Standby>; the clock set to 21:59:57 (an NTP sync) is heard through the timerfd and
#               brings <Image View On> and <Active Source> at once; the 22:00:00-22:00:10 window
#               sends <Standby> 3 s after the jump and <Image View On>/<Active Source> 10 s after
#               that, as the TV's monitor times them (its monotonic timestamps: its wall-clock ones
#               do not follow a jump); the clock set back to 1970 sends <Standby> again. The events
#               log has each as a command from source `schedule` (cec-check.py)
#   schedule-screen  in the 22:00 off window the screendump is dark and `marquee probe` lists the
#               CRTC inactive; at 22:00:12 the clip is back, in the same process
# Prints PASS/FAIL per check; exits 1 on any failure. Hard timeouts on every step.
#
# Usage: Deploy/vm/cec-test.sh
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   SWIFT_SCRATCH_PATH=p  scratch path for `swift build -c release --product marquee` (default: <repo>/.build)
#   MARQUEE_VM_CACHE=dir  image/fixture cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit for the guest (default 210)
set -euo pipefail

suite=cec-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"

need_tools qemu-system-x86_64 ffmpeg python3 timeout cec-ctl

marquee=$("$here/marquee-binary.sh") || die "no marquee binary"
"$here/build-initramfs.sh" >/dev/null || die "guest image build failed"

# The clip (cached): 1 s of 320x180 H.264 at 30 fps, looped by the player.
fixtures=$cache/cec-fixtures
mkdir -p "$fixtures"
if [ ! -s "$fixtures/clip.mp4" ]; then
  timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=320x180:rate=30:duration=1 \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 30 "$fixtures/clip.tmp.mp4" || die "ffmpeg could not make the clip"
  mv "$fixtures/clip.tmp.mp4" "$fixtures/clip.mp4"
fi

share=$cache/cec-share
rm -rf "$share"; mkdir -p "$share"
cp "$fixtures/clip.mp4" "$share/"
printf 'playlist:\n  repeat: one\n  items:\n    - url: clip.mp4\ndisplay:\n  cec: /dev/cec1\n' > "$share/cec.yaml"
printf 'playlist:\n  repeat: "off"\n  items:\n    - url: clip.mp4\ndisplay:\n  cec: auto\n' > "$share/auto.yaml"
cat > "$share/schedule.yaml" <<'YAML'
schedule: {timezone: UTC}
playlist:
  repeat: all
  items: [clip.mp4]
display:
  cec: /dev/cec1
  power:
    windows:
      - {off: "00:00", on: "21:59"}
      - {off: "22:00:00", on: "22:00:10"}
YAML
bin=$("$here/guest-visible.sh" "$marquee" "$share")

cat > "$share/guest.sh" <<'GUEST'
#!/bin/sh
# Runs in the guest. $1 = marquee; $MVM_SHARE = the share (fixtures, results).
set -u
marquee=$1; s=$MVM_SHARE
up() { cut -d' ' -f1 /proc/uptime; }
# wait_for FILE TEXT SECONDS: until FILE holds TEXT (a fixed string); 1 if it never does within
# SECONDS of wall time (each grep over 9p can take 0.3 s under TCG, so polls are not counted).
wait_for() {
  timeout "$3" sh -c 'until grep -qF -- "$2" "$1" 2>/dev/null; do sleep 0.2; done' wait_for "$1" "$2"
}
ctl() {  # ctl COMMAND: over the control socket, its exit status echoed as COMMAND-rc=N
  r=0; timeout 20 "$marquee" ctl --socket /tmp/cec.sock "$1" >> "$s/ctl.txt" 2>&1 || r=$?
  echo "ctl-$1 rc=$r"
}
t0=$(up)
r=0; timeout 30 modprobe vivid n_devs=1 num_inputs=1 input_types=0x3 num_outputs=1 output_types=0x1 || r=$?
i=0; while [ ! -c /dev/cec1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
tv=0; timeout 20 cec-ctl -d /dev/cec0 --tv > "$s/tv.txt" 2>&1 || tv=$?
echo "vivid rc=$r tv=$tv nodes=$(ls /dev/cec* 2>/dev/null | tr '\n' ',') t=$(up)"

r=0; timeout 60 "$marquee" probe > "$s/probe.txt" 2>&1 || r=$?
echo "probe rc=$r t=$(up)"
r=0; timeout 60 "$marquee" probe --json > "$s/probe.json" 2> "$s/probe-json.err" || r=$?
echo "probe-json rc=$r t=$(up)"

# The TV's view of the bus, line-buffered so nothing is lost when it is stopped.
timeout 100 stdbuf -oL cec-ctl -d /dev/cec0 --monitor --monitor-time 90 > "$s/monitor.txt" 2>&1 &
mpid=$!
wait_for "$s/monitor.txt" "Initial Event" 20 || echo "monitor did not start"
timeout 90 "$marquee" play "$s/cec.yaml" --output headless:320x180 --audio null --control /tmp/cec.sock \
  --events "$s/play.jsonl" --trace-frames > "$s/play.log" 2>&1 &
pid=$!
claimed=0; wait_for "$s/play.log" "cec: /dev/cec1 claimed" 40 && claimed=1
wait_for "$s/play.log" "first frame on screen" 40
echo "play claimed=$claimed t=$(up)"
ctl displayOff
wait_for "$s/play.log" "cec: sent <Standby>" 15
sleep 0.5
ctl displayOn
wait_for "$s/play.log" "cec: sent <Active Source>" 15
# Frames again after displayOn, then the TV leaves the bus: the next <Standby> is not acknowledged.
sleep 1
tvc=0; timeout 20 cec-ctl -d /dev/cec0 --clear > "$s/tv-clear.txt" 2>&1 || tvc=$?
ctl displayOff
wait_for "$s/play.log" "<Standby> to TV not" 15
sleep 0.5
ctl quit
rc=0; wait $pid || rc=$?
echo "play rc=$rc tv_clear=$tvc t=$(up)"
kill -TERM $mpid 2>/dev/null; wait $mpid 2>/dev/null
# The claim as the adapter itself reports it (cec-ctl reads /dev/cec1 on its own).
r=0; timeout 20 cec-ctl -d /dev/cec1 > "$s/claim-after.txt" 2>&1 || r=$?
echo "claim-after rc=$r"

# auto on the bochs-drm screen, then headless: vivid reports no connector, so nothing is claimed.
r=0; timeout 60 "$marquee" play "$s/auto.yaml" --output drm --audio null --exit-when-idle \
  --events "$s/auto.jsonl" --trace-frames > "$s/auto.log" 2>&1 || r=$?
echo "auto rc=$r"
r=0; timeout 60 "$marquee" play "$s/auto.yaml" --output headless:320x180 --audio null --exit-when-idle --clock fast \
  > "$s/auto-headless.log" 2>&1 || r=$?
echo "auto-headless rc=$r t=$(up)"

# The timetable on the bochs-drm screen, with the TV: the guest's clock is set back to 1970 first (a
# device without an RTC), so the player starts in the first off window; then set to 21:59:57 (an NTP
# sync): on at once; off at 22:00:00 and on at 22:00:10 by the windows; then back to 1970: off.
tv=0; timeout 20 cec-ctl -d /dev/cec0 --tv > "$s/tv2.txt" 2>&1 || tv=$?
date -u -s @100000 > /dev/null
# No --monitor-time: its end is read on the wall clock, which this phase sets 56 years ahead.
timeout 100 stdbuf -oL cec-ctl -d /dev/cec0 --monitor -v > "$s/monitor-schedule.txt" 2>&1 &
mpid=$!
wait_for "$s/monitor-schedule.txt" "Initial Event" 20 || echo "schedule monitor did not start"
timeout 90 "$marquee" play "$s/schedule.yaml" --output drm --audio null --control /tmp/schedule.sock \
  --events "$s/schedule.jsonl" > "$s/schedule.log" 2>&1 &
pid=$!
wait_for "$s/schedule.log" "cec: sent <Standby>" 40
sleep 1
date -u -s "2026-11-26 21:59:57" > /dev/null
wait_for "$s/schedule.log" "cec: sent <Active Source>" 15
# 22:00:00 to 22:00:10 is off: the screen while off, then on again.
sleep 4
"$MVM_SHARE/.mvm/screendump" schedule-off
r=0; timeout 30 "$marquee" probe > "$s/schedule-probe.txt" 2>&1 || r=$?
echo "schedule-probe rc=$r clock=$(date -u +%T)"
sleep $(( $(date -d '22:00:12' +%s) - $(date +%s) ))
"$MVM_SHARE/.mvm/screendump" schedule-on
echo "schedule-on clock=$(date -u +%T)"
date -u -s @100000 > /dev/null
timeout 15 sh -c 'until [ "$(grep -c "cec: sent <Standby>" "$1")" -ge 3 ]; do sleep 0.2; done' x "$s/schedule.log"
timeout 20 "$marquee" ctl --socket /tmp/schedule.sock quit >> "$s/ctl.txt" 2>&1
rc=0; wait $pid || rc=$?
kill -TERM $mpid 2>/dev/null; wait $mpid 2>/dev/null
echo "schedule rc=$rc tv=$tv t0=$t0 end=$(up)"
GUEST

vm_timeout=${VM_TIMEOUT:-210}
t=$(date +%s.%N)
rc=0
timeout -k 5 $((vm_timeout + 30)) python3 "$here/run-guest.py" --gpu std --smp "${VM_SMP:-2}" --timeout "$vm_timeout" \
  --share "$share" -- /bin/sh "$share/guest.sh" "$bin" > "$share/out.txt" 2> "$share/err.txt" || rc=$?
echo "cec-test: guest ran $(elapsed "$t") s (rc $rc)"

# The checks below look for what may be missing: a grep that finds nothing is a FAIL line, not an exit.
set +e
failures=0
report() {  # check ok|fail detail
  if [ "$2" = ok ]; then echo "PASS cec $1${3:+ ($3)}"; else echo "FAIL cec $1: $3"; failures=$((failures + 1)); fi
}
out=$share/out.txt
field() {  # field LINE-NAME KEY: the value of KEY= on the guest line starting with LINE-NAME
  awk -v n="$1" -v k="$2" '$1 == n { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$out"
}
if [ $rc -ne 0 ]; then
  report guest fail "run-guest exited $rc; $(tail -3 "$share/err.txt" | tr '\n' ' ') (console: $share/.mvm/serial.log)"
  echo "cec-test: FAILED ($failures) in $(elapsed "$t_begin") s"
  exit 1
fi
log=$share/play.log; mon=$share/monitor.txt

# vivid
if [ "$(field vivid rc)" = 0 ] && [ "$(field vivid tv)" = 0 ] && [ "$(field vivid nodes)" = "/dev/cec0,/dev/cec1," ]; then
  report vivid ok "/dev/cec0 the TV, /dev/cec1 the player's"
else
  report vivid fail "$(grep '^vivid' "$out"); $(tail -2 "$share/tv.txt" | tr '\n' ' ')"
fi

# probe (text and JSON), before the player claimed anything
p=$share/probe.txt
if [ "$(field probe rc)" = 0 ] && grep -q '^cec /dev/cec0  driver vivid' "$p" && grep -q '^cec /dev/cec1  driver vivid' "$p" &&
   grep -A3 '^cec /dev/cec0' "$p" | grep -q 'logical addresses 0 (TV)' &&
   grep -A3 '^cec /dev/cec1' "$p" | grep -q 'physical address 1.0.0.0'; then
  report probe ok "$(grep -c '^cec /dev/cec' "$p") adapters: $(grep '^cec /dev/cec' "$p" | awk '{ print $2 " " $6 }' | tr '\n' ';' | sed 's/;$//')"
else
  report probe fail "rc $(field probe rc): $(grep -A3 '^cec' "$p" | tr '\n' ' ')"
fi
if problem=$(python3 - "$share/probe.json" <<'PY'
import json, sys
try:
    cec = json.load(open(sys.argv[1]))['cec']['adapters']
except Exception as e:
    sys.exit(f'no cec.adapters in the JSON: {e}')
by_path = {a.get('path'): a for a in cec}
if sorted(by_path) != ['/dev/cec0', '/dev/cec1']:
    sys.exit(f'adapters {sorted(by_path)}, expected /dev/cec0 and /dev/cec1')
tv, player = by_path['/dev/cec0'], by_path['/dev/cec1']
for a in cec:
    if a['driver'] != 'vivid' or a['connector'] is not None or not a['canTransmit']:
        sys.exit(f"{a['path']}: driver {a['driver']}, connector {a['connector']}, canTransmit {a['canTransmit']}")
if tv['physicalAddress'] != '0.0.0.0' or tv['logicalAddresses'] != [{'address': 0, 'name': 'TV'}]:
    sys.exit(f"/dev/cec0: {tv['physicalAddress']} {tv['logicalAddresses']}")
if player['physicalAddress'] != '1.0.0.0':
    sys.exit(f"/dev/cec1: physical address {player['physicalAddress']}")
PY
); then
  report probe-json ok "cec.adapters: /dev/cec0 TV at 0.0.0.0, /dev/cec1 at 1.0.0.0, driver vivid, no connector"
else
  report probe-json fail "$problem ($(head -c 300 "$share/probe-json.err"))"
fi

# claim
claim=$(grep -o 'cec: /dev/cec1 claimed .*' "$log" | head -1 || true)
if [ "$claim" = "cec: /dev/cec1 claimed Playback Device 1 (logical address 4), physical address 1.0.0.0" ]; then
  report claim ok "$claim"
else
  report claim fail "'${claim:-no claim line}': $(grep 'cec: ' "$log" | head -3 | tr '\n' ' ')"
fi

# messages on the bus, as the TV's monitor saw them
first() { grep -n "Received from Playback Device 1 to $1 (4 to $2): $3" "$mon" | head -1 | cut -d: -f1 || true; }
l_standby=$(first TV 0 'STANDBY (0x36)'); l_ivo=$(first TV 0 'IMAGE_VIEW_ON (0x04)'); l_as=$(first all 15 'ACTIVE_SOURCE (0x82)')
as_address=$([ -n "$l_as" ] && sed -n "$((l_as + 1))p" "$mon" | tr -d '\t ' || true)
sent=$(grep -c 'info: cec: sent <' "$log" || true)
if [ -z "$l_standby" ] || [ -z "$l_ivo" ] || [ -z "$l_as" ]; then
  report messages fail "the TV's monitor lacks$([ -n "$l_standby" ] || echo ' STANDBY')$([ -n "$l_ivo" ] || echo ' IMAGE_VIEW_ON')$([ -n "$l_as" ] || echo ' ACTIVE_SOURCE') from Playback Device 1 ($mon: $(grep -c Received "$mon" || true) received)"
elif ! [ "$l_standby" -lt "$l_ivo" ] || ! [ "$l_ivo" -lt "$l_as" ]; then
  report messages fail "out of order: STANDBY at line $l_standby, IMAGE_VIEW_ON at $l_ivo, ACTIVE_SOURCE at $l_as ($mon)"
elif [ "$as_address" != "phys-addr:1.0.0.0" ]; then
  report messages fail "ACTIVE_SOURCE carries '$as_address', expected phys-addr: 1.0.0.0"
elif [ "$(grep -c 'cec: sent <Standby> to TV' "$log")" != 1 ] || [ "$(grep -c 'cec: sent <Image View On> to TV' "$log")" != 1 ] ||
     [ "$(grep -c 'cec: sent <Active Source> to all' "$log")" != 1 ]; then
  report messages fail "log lines: $(grep 'cec: sent' "$log" | tr '\n' ' ')"
else
  report messages ok "the TV received STANDBY, IMAGE_VIEW_ON, ACTIVE_SOURCE 1.0.0.0 in order; $sent 'cec: sent' lines"
fi

# nack: the TV gone, one line
nack=$(grep -c 'cec: /dev/cec1: <Standby> to TV not acknowledged (NACK)' "$log" || true)
other=$(grep 'cec: ' "$log" | grep -v 'claimed\|cec: sent <\|not acknowledged (NACK)' || true)
if [ "$(field play tv_clear)" != 0 ]; then
  report nack fail "cec-ctl --clear on /dev/cec0 failed: $(tr '\n' ' ' < "$share/tv-clear.txt")"
elif [ "$nack" = 1 ] && [ -z "$other" ]; then
  report nack ok "$(grep -o 'warning: cec: .*NACK)' "$log")"
else
  report nack fail "$nack NACK lines; other cec lines: $(tr '\n' ' ' <<< "$other")"
fi

# playback went on through it all and ended cleanly
if problem=$(python3 - "$share/play.jsonl" <<'PY'
import json, sys
events = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
power = [(i, e['display']) for i, e in enumerate(events) if e.get('event') == 'displayPowerChanged']
if [d for _, d in power] != ['off', 'on', 'off']:
    sys.exit(f'displayPowerChanged {[d for _, d in power]}, expected off, on, off')
frames = [i for i, e in enumerate(events) if e.get('event') == 'frame']
before = sum(1 for i in frames if i < power[0][0])
between = sum(1 for i in frames if power[1][0] < i < power[2][0])
if before == 0 or between == 0:
    sys.exit(f'{before} frames before displayOff, {between} after displayOn')
print(f'{before} frames before displayOff, {between} after displayOn')
PY
) && [ "$(field play rc)" = 0 ]; then
  report playback ok "$problem; exit 0 on quit"
else
  report playback fail "exit $(field play rc): $problem; $(tail -2 "$log" | tr '\n' ' ')"
fi

# the claim stays on the adapter after the player left: CEC 2.0, Playback, OSD name Marquee
c=$share/claim-after.txt
value() { grep -m1 "^[[:space:]]*$1 *:" "$c" | sed 's/^[^:]*: *//'; }
if [ "$(field claim-after rc)" = 0 ] && [ "$(value 'OSD Name')" = "'Marquee'" ] && [ "$(value 'CEC Version')" = 2.0 ] &&
   [ "$(value 'Logical Address')" = "4 (Playback Device 1)" ] && [ "$(value 'Primary Device Type')" = Playback ]; then
  report claim-kept ok "cec-ctl: logical address $(value 'Logical Address'), OSD name $(value 'OSD Name'), CEC $(value 'CEC Version'), primary type $(value 'Primary Device Type')"
else
  report claim-kept fail "cec-ctl -d /dev/cec1 (rc $(field claim-after rc)): OSD name $(value 'OSD Name'), CEC $(value 'CEC Version'), logical address $(value 'Logical Address'), primary type $(value 'Primary Device Type')"
fi

# auto: one line, nothing claimed, the clip played
a=$share/auto.log
lines=$(grep -c 'cec: ' "$a" || true)
if [ "$(field auto rc)" != 0 ] || ! grep -q '"event":"frame"' "$share/auto.jsonl" 2>/dev/null; then
  report auto fail "exit $(field auto rc), frames $(grep -c '"event":"frame"' "$share/auto.jsonl" 2>/dev/null || true): $(tail -2 "$a" | tr '\n' ' ')"
elif [ "$lines" = 1 ] && grep -q '^info: cec: found /dev/cec0 (vivid-000-vid-cap0, connector not reported by the driver), /dev/cec1 (vivid-000-vid-out0, connector not reported by the driver); none is bound to card0 connector [0-9]* (Virtual-1)' "$a"; then
  report auto ok "$(grep -o 'none is bound to card0 connector [0-9]* (Virtual-1)' "$a")"
else
  report auto fail "$lines cec lines: $(grep 'cec: ' "$a" | tr '\n' ' ')"
fi
if [ "$(field auto-headless rc)" = 0 ] && ! grep -q 'cec: ' "$share/auto-headless.log"; then
  report auto-headless ok "no cec line"
else
  report auto-headless fail "exit $(field auto-headless rc): $(grep 'cec: ' "$share/auto-headless.log" | tr '\n' ' ')"
fi

# schedule: the TV and the screen followed the timetable through both clock jumps
if problem=$(python3 "$here/cec-check.py" schedule "$share/monitor-schedule.txt" "$share/schedule.jsonl"); then
  report schedule-cec ok "$problem"
else
  report schedule-cec fail "$problem (exit $(field schedule rc); $(grep 'cec: \|schedule\|display' "$share/schedule.log" | tr '\n' ' '))"
fi
if [ "$(field schedule rc)" != 0 ]; then
  report schedule-screen fail "the player exited $(field schedule rc): $(tail -3 "$share/schedule.log" | tr '\n' ' ')"
elif ! grep -q '^  crtc [0-9]*  inactive$' "$share/schedule-probe.txt"; then
  report schedule-screen fail "probe at $(field schedule-probe clock) (off window): $(grep '^  crtc' "$share/schedule-probe.txt" | tr '\n' ' ')"
elif ! problem=$(python3 "$here/drm-check.py" gone-clip "$share/schedule-off.ppm"); then
  report schedule-screen fail "in the off window: $problem"
elif ! problem=$(python3 "$here/drm-check.py" clip "$share/schedule-on.ppm"); then
  report schedule-screen fail "after the off window, at $(field schedule-on clock): $problem"
else
  report schedule-screen ok "22:00:0x: screen dark and CRTC inactive; at $(field schedule-on clock) the clip again"
fi

t0=$(field schedule t0); t1=$(field schedule end)
echo "cec-test: guest checks $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s (guest uptime), total $(elapsed "$t_begin") s"
if [ $failures -gt 0 ]; then
  echo "cec-test: FAILED ($failures)"
  exit 1
fi
echo "cec-test: all checks passed"
