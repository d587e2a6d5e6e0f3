#!/usr/bin/env bash
# End-to-end test that no wait of the player runs on the wall clock: boots Debian's kernel under
# QEMU/TCG and, for each entry point, steps the guest's clock back 30 s and then forward 30 s while
# the player runs paused (the state where only its timed waits keep it beating):
#   media     `marquee play clip.mp4`
#   config    `marquee play lobby.yaml`, a config with `source:` polled every 5 s from a loopback
#             server in the guest (Deploy/vm/fleet-server.py), its media downloaded into the cache
#   url       `marquee play http://127.0.0.1:8765/lobby.yaml`
# Each runs with NOTIFY_SOCKET and WATCHDOG_USEC=1000000 (a ping due every 0.5 s), a listener in the
# guest stamping each WATCHDOG=1 on the monotonic clock. Checks: across both steps the pings never
# stop for more than 1.5 s (a wait on CLOCK_REALTIME held them for 30 s after the step back: systemd
# would have killed a healthy player), and the `source:` poll comes every 5 s (±10 % jitter) on the
# monotonic clock through the steps; each player exits 0 on `quit`.
# Prints PASS/FAIL per check; exits 1 on any failure.
#
# Usage: Deploy/vm/clock-step-test.sh
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   MARQUEE_VM_CACHE=dir  image cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit for the guest (default 240)
set -euo pipefail

suite=clock-step-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"

need_tools qemu-system-x86_64 ffmpeg python3 timeout
marquee=$("$here/marquee-binary.sh") || die "no marquee binary"
"$here/build-initramfs.sh" >/dev/null || die "guest image build failed"

share=$cache/clock-step-share
rm -rf "$share"; mkdir -p "$share/www"
timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=320x180:rate=25:duration=2 \
  -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 25 "$share/clip.mp4" || die "ffmpeg could not make the clip"
cp "$share/clip.mp4" "$share/www/clip.mp4"
cp "$here/fleet-server.py" "$share/"
printf 'playlist:\n  items:\n    - url: clip.mp4\n' > "$share/www/lobby.yaml"
printf 'source: {url: "http://127.0.0.1:8765/lobby.yaml", interval: 5}\ncache: {dir: /tmp/marquee-cache}\n' > "$share/lobby.yaml"
cat > "$share/notify-listener.py" <<'PY'
# notify-listener.py SOCKET LOG: each datagram as "MONOTONIC TEXT" on a line of LOG.
import socket, sys, time
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(sys.argv[1])
with open(sys.argv[2], 'a', buffering=1) as log:
    while True:
        data = sock.recv(4096).decode(errors='replace').replace('\n', ' ')
        log.write(f'{time.monotonic():.3f} {data}\n')
PY
bin=$("$here/guest-visible.sh" "$marquee" "$share")

cat > "$share/guest.sh" <<'GUEST'
#!/bin/sh
# Runs in the guest. $1 = marquee; $MVM_SHARE = the share.
set -u
marquee=$1; s=$MVM_SHARE
mono() { python3 -c 'import time; print(f"{time.monotonic():.3f}")'; }
wait_for() {  # FILE TEXT SECONDS
  timeout "$3" sh -c 'until grep -qF -- "$2" "$1" 2>/dev/null; do sleep 0.2; done' wait_for "$1" "$2"
}
ip link set lo up || echo "cannot bring lo up"
python3 "$s/fleet-server.py" "$s/www" 8765 "$s/requests.jsonl" 2> "$s/server.txt" &
i=0; while [ ! -e "$s/requests.jsonl.ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
run() {  # NAME ARGUMENT
  name=$1
  python3 "$s/notify-listener.py" "/tmp/notify-$name.sock" "$s/pings-$name.txt" &
  listener=$!
  sleep 0.5
  NOTIFY_SOCKET=/tmp/notify-$name.sock WATCHDOG_USEC=1000000 timeout 120 "$marquee" play "$2" \
    --output headless:320x180 --audio null --input none --control "/tmp/$name.sock" \
    --events "$s/$name.jsonl" > "$s/$name.log" 2>&1 &
  pid=$!
  wait_for "$s/$name.log" 'first frame on screen' 60 || echo "$name: no frame in 60 s"
  timeout 20 "$marquee" ctl --socket "/tmp/$name.sock" pause >> "$s/ctl.txt" 2>&1
  sleep 3
  echo "$name back=$(mono)"
  date -s "@$(( $(date +%s) - 30 ))" > /dev/null
  sleep 8
  echo "$name forward=$(mono)"
  date -s "@$(( $(date +%s) + 30 ))" > /dev/null
  sleep 8
  echo "$name end=$(mono)"
  timeout 20 "$marquee" ctl --socket "/tmp/$name.sock" quit >> "$s/ctl.txt" 2>&1
  rc=0; wait $pid || rc=$?
  kill $listener 2>/dev/null
  echo "$name rc=$rc"
}
run media "$s/clip.mp4"
run config "$s/lobby.yaml"
run url "http://127.0.0.1:8765/lobby.yaml"
GUEST

vm_timeout=${VM_TIMEOUT:-240}
t=$(date +%s.%N)
rc=0
timeout -k 5 $((vm_timeout + 30)) python3 "$here/run-guest.py" --gpu none --timeout "$vm_timeout" \
  --share "$share" -- /bin/sh "$share/guest.sh" "$bin" > "$share/out.txt" 2> "$share/err.txt" || rc=$?
echo "clock-step-test: guest ran $(elapsed "$t") s (rc $rc)"
[ $rc -eq 0 ] || { cat "$share/out.txt" "$share/err.txt" >&2; echo "FAIL clock-step guest: run-guest exited $rc (console: $share/.mvm/serial.log)"; exit 1; }

status=0
python3 - "$share" <<'PY' || status=$?
import json, os, sys
share = sys.argv[1]
out = open(os.path.join(share, 'out.txt')).read().split()
fields = {}
for word in out:
    if '=' in word:
        key, _, value = word.partition('=')
        fields.setdefault(key, value)
lines = open(os.path.join(share, 'out.txt')).read().splitlines()
def value(name, key):
    for line in lines:
        parts = line.split()
        if parts and parts[0] == name:
            for part in parts[1:]:
                if part.startswith(key + '='):
                    return part[len(key) + 1:]
    return None
failures = 0
def report(check, ok, detail):
    global failures
    print(f"{'PASS' if ok else 'FAIL'} clock-step {check}: {detail}")
    failures += 0 if ok else 1
for name in ['media', 'config', 'url']:
    back, end, rc = value(name, 'back'), value(name, 'end'), value(name, 'rc')
    if back is None or end is None:
        report(name, False, f'the guest did not step the clock ({open(os.path.join(share, name + ".log")).read()[-300:]})')
        continue
    back, end = float(back), float(end)
    pings = [float(line.split()[0]) for line in open(os.path.join(share, f'pings-{name}.txt')) if 'WATCHDOG=1' in line]
    window = [p for p in pings if back - 1 <= p <= end]
    gaps = [b - a for a, b in zip(window, window[1:])]
    worst = max(gaps) if gaps else float('inf')
    report(f'{name}-watchdog', len(window) >= 20 and worst <= 1.5,
           f'{len(window)} pings from 1 s before the step back to 8 s after the step forward, longest gap {worst:.2f} s (limit 1.5 s)')
    report(f'{name}-exit', rc == '0', f'exit status {rc} on quit')
requests = [json.loads(line) for line in open(os.path.join(share, 'requests.jsonl'))]
back, end = float(value('config', 'back')), float(value('config', 'end'))
polls = [r['t'] for r in requests if r['path'] == '/lobby.yaml' and back - 6 <= r['t'] <= end]
gaps = [b - a for a, b in zip(polls, polls[1:])]
report('config-polls', len(polls) >= 4 and all(4.4 <= g <= 6.2 for g in gaps),
       f'polls of the source every {", ".join(f"{g:.2f}" for g in gaps)} s on the monotonic clock through both steps (interval 5 s ±10 %)')
sys.exit(1 if failures else 0)
PY
echo "clock-step-test: total $(elapsed "$t_begin") s"
exit $status
