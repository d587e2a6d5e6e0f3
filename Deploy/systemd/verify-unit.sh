#!/usr/bin/env bash
# Checks Deploy/install.sh and the unit without root: stages an install into a scratch folder
# (--destdir, with /bin/true standing in for the binary), checks the staged files, then has
# `systemd-analyze verify` check the unit (its ExecStart pointed at the staged binary, since verify
# insists that it exists) and prints `systemd-analyze security` exposure.
# Prints PASS/FAIL lines; a machine without systemd-analyze prints SKIP with the reason (exit 77),
# which is not a pass.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${MARQUEE_VERIFY_DIR:-$repo/.build-verify-unit}
fail=0
pass() { echo "PASS: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

rm -rf "$work"; mkdir -p "$work"
if "$repo/Deploy/install.sh" --destdir "$work/root" --binary /bin/true > "$work/install.log" 2>&1; then
  pass "install.sh --destdir staged the files"
else
  bad "install.sh --destdir failed: $(tail -3 "$work/install.log")"
fi
for f in usr/local/bin/marquee etc/marquee/marquee.yaml etc/systemd/system/marquee.service; do
  [ -e "$work/root/$f" ] && pass "staged /$f" || bad "not staged: /$f"
done
[ "$(stat -c %a "$work/root/etc/marquee/marquee.yaml" 2>/dev/null)" = 640 ] &&
  pass "the config is installed 0640 (it may hold credentials)" || bad "the config is installed $(stat -c %a "$work/root/etc/marquee/marquee.yaml" 2>&1), not 0640"
grep -q 'consoleblank=0 vt.global_cursor_default=0' "$work/install.log" &&
  pass "install.sh documents consoleblank=0 vt.global_cursor_default=0" || bad "no console instructions printed"
"$repo/Deploy/install.sh" --dry-run --no-packages > "$work/dry.log" 2>&1 &&
  grep -q 'useradd .*--groups video,audio,input' "$work/dry.log" &&
  pass "install.sh --dry-run creates the marquee user in video,audio,input" || bad "dry run: $(cat "$work/dry.log")"

unit=$repo/Deploy/systemd/marquee.service
for setting in 'Type=notify' 'WatchdogSec=' 'Restart=always' 'LimitRTPRIO=10' 'SystemCallFilter=sched_setscheduler' 'User=marquee' 'SupplementaryGroups=video audio input' 'ExecReload=/bin/kill -HUP $MAINPID'; do
  grep -qF "$setting" "$unit" && pass "unit has $setting" || bad "unit lacks $setting"
done
for blocker in 'PrivateDevices=yes' 'DevicePolicy=closed' 'DevicePolicy=strict' 'ProtectKernelTunables=yes' 'RestrictRealtime=yes'; do
  grep -v "^#" "$unit" | grep -qF "$blocker" && bad "unit has $blocker, which blocks DRM, ALSA, evdev or the present thread's real-time priority" || true
done

if ! command -v systemd-analyze > /dev/null; then
  echo "SKIP: systemd-analyze verify: systemd-analyze is not installed (apt-get install systemd)"
  [ $fail = 0 ] && exit 77 || exit 1
fi
mkdir -p "$work/unit"
sed "s|/usr/local/bin/marquee|$work/root/usr/local/bin/marquee|" "$unit" > "$work/unit/marquee.service"
if out=$(systemd-analyze verify --man=no "$work/unit/marquee.service" 2>&1); then
  pass "systemd-analyze verify accepts the unit"
else
  bad "systemd-analyze verify: $out"
fi
exposure=$(systemd-analyze security --offline=yes "$work/unit/marquee.service" 2>/dev/null | grep -o 'Overall exposure level.*')
[ -n "$exposure" ] && echo "INFO: $exposure"
exit $fail
