#!/usr/bin/env bash
# End-to-end test of `input.lockdown` on real kernel drivers: boots Debian's kernel under QEMU/TCG
# (bochs-drm, the console on tty1) and plays a kiosk config whose key map binds only KEY_KP5. A
# visitor's USB keyboard (uinput: Ctrl, Alt and F2 only, no bound key) is plugged in and presses
# Ctrl+Alt+F2, the console's switch to VT 2:
#   open      without lockdown the player passes over the keyboard (none of its keys is mapped), and
#             the switch reaches the console: tty2 becomes active (the test can see a switch)
#   lockdown  with `input.lockdown: true` the player adds the keyboard, grabbed, with 0 mapped keys,
#             says once what lockdown does (and SysRq's state), and the switch reaches nothing: tty1
#             stays active
#   playback  both players played and exited 0 on `quit`
# Prints PASS/FAIL per check; exits 1 on any failure.
#
# Usage: Deploy/vm/lockdown-test.sh
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   MARQUEE_VM_CACHE=dir  image cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit for the guest (default 200)
set -euo pipefail

suite=lockdown-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"

need_tools qemu-system-x86_64 ffmpeg python3 timeout
marquee=$("$here/marquee-binary.sh") || die "no marquee binary"
"$here/build-initramfs.sh" >/dev/null || die "guest image build failed"

share=$cache/lockdown-share
rm -rf "$share"; mkdir -p "$share"
timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=320x180:rate=25:duration=2 \
  -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 25 "$share/clip.mp4" || die "ffmpeg could not make the clip"
cp "$here/uinput-keyboard.py" "$share/"
for mode in open lockdown; do
  lockdown=false; [ $mode = lockdown ] && lockdown=true
  printf 'playlist:\n  repeat: all\n  items: [clip.mp4]\ninput:\n  keymap: none\n  keys: {KEY_KP5: togglePlayPause}\n  lockdown: %s\n' \
    "$lockdown" > "$share/$mode.yaml"
done
bin=$("$here/guest-visible.sh" "$marquee" "$share")

cat > "$share/guest.sh" <<'GUEST'
#!/bin/sh
# Runs in the guest. $1 = marquee; $MVM_SHARE = the share.
set -u
marquee=$1; s=$MVM_SHARE
wait_for() {  # FILE TEXT SECONDS
  timeout "$3" sh -c 'until grep -qF -- "$2" "$1" 2>/dev/null; do sleep 0.2; done' wait_for "$1" "$2"
}
back_to_tty1() {
  python3 -c 'import fcntl, os; fd = os.open("/dev/tty0", os.O_RDWR); fcntl.ioctl(fd, 0x5606, 1); fcntl.ioctl(fd, 0x5607, 1)'
}
modprobe uinput 2>/dev/null
i=0; while [ ! -c /dev/uinput ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
# The console switches only to a VT that exists: opening tty2 allocates it (a getty would have).
: < /dev/tty2
echo "start active=$(cat /sys/class/tty/tty0/active)"
for mode in open lockdown; do
  timeout 120 "$marquee" play "$s/$mode.yaml" --output drm --audio null --control "/tmp/$mode.sock" \
    --events "$s/$mode.jsonl" > "$s/$mode.log" 2>&1 &
  pid=$!
  wait_for "$s/$mode.log" "first frame on screen" 60 || echo "$mode: no frame in 60 s"
  # Without lockdown the player passes over the keyboard; with it, it adds it.
  if [ $mode = lockdown ]; then pattern='"Marquee Visitor Keyboard" (0 mapped keys, grabbed)'; else pattern='passing over'; fi
  timeout 40 python3 "$s/uinput-keyboard.py" --name "Marquee Visitor Keyboard" --wait-for "$s/$mode.log" "$pattern" --seconds 15 \
    > "$s/$mode-keyboard.txt" 2>&1
  echo "$mode $(cat "$s/$mode-keyboard.txt" | tail -1)"
  back_to_tty1
  sleep 1
  timeout 20 "$marquee" ctl --socket "/tmp/$mode.sock" quit >> "$s/ctl.txt" 2>&1
  rc=0; wait $pid || rc=$?
  echo "$mode rc=$rc"
done
GUEST

vm_timeout=${VM_TIMEOUT:-200}
t=$(date +%s.%N)
rc=0
timeout -k 5 $((vm_timeout + 30)) python3 "$here/run-guest.py" --gpu std --timeout "$vm_timeout" \
  --share "$share" -- /bin/sh "$share/guest.sh" "$bin" > "$share/out.txt" 2> "$share/err.txt" || rc=$?
echo "lockdown-test: guest ran $(elapsed "$t") s (rc $rc)"
failures=0
report() {  # check ok|fail detail
  if [ "$2" = ok ]; then echo "PASS lockdown $1: $3"; else echo "FAIL lockdown $1: $3"; failures=$((failures + 1)); fi
}
if [ $rc -ne 0 ]; then
  cat "$share/out.txt" "$share/err.txt" >&2
  report guest fail "run-guest exited $rc (console: $share/.mvm/serial.log)"
  exit 1
fi
out=$share/out.txt
value() { awk -v n="$1" -v k="$2" '$1 == n { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$out"; }
open_active=$(value open active); locked_active=$(value lockdown active)
grep -q 'passing over .*"Marquee Visitor Keyboard": none of its keys is mapped' "$share/open.log" && passed=1 || passed=0
[ "$open_active" = tty2 ] && [ $passed = 1 ] && report open ok "passed over without lockdown, Ctrl+Alt+F2 switched the console to $open_active" \
  || report open fail "without lockdown: active $open_active after Ctrl+Alt+F2 (expected tty2), passed over: $passed ($share/open.log)"
grep -q 'input: added .*"Marquee Visitor Keyboard" (0 mapped keys, grabbed)' "$share/lockdown.log" && added=1 || added=0
grep -q 'input: lockdown: every keyboard is grabbed' "$share/lockdown.log" && said=1 || said=0
[ "$locked_active" = tty1 ] && [ $added = 1 ] && [ $said = 1 ] \
  && report lockdown ok "the keyboard without a bound key was added and grabbed; Ctrl+Alt+F2 left $locked_active active; $(grep -o 'kernel.sysrq is [^:;]*\|SysRq is off[^;]*' "$share/lockdown.log" | head -1)" \
  || report lockdown fail "with lockdown: active $locked_active (expected tty1), added and grabbed: $added, lockdown line: $said ($share/lockdown.log)"
[ "$(value open rc)" = 0 ] && [ "$(value lockdown rc)" = 0 ] && report playback ok "both players exited 0 on quit" \
  || report playback fail "exit statuses $(value open rc) and $(value lockdown rc)"
echo "lockdown-test: total $(elapsed "$t_begin") s"
[ $failures -eq 0 ]
