#!/usr/bin/env python3
"""Checks an input-test.sh run from the files its guest left in SHARE: events.jsonl (--events with
--trace-frames), play.log (marquee's stderr), probe.txt, uinput.txt and out.txt (the guest script's
lines). Prints PASS/FAIL per check and the measured latencies; exits with the number of failures."""
import json
import re
import sys

share = sys.argv[1]
VIRTIO, USB, KEYPAD = 'QEMU Virtio Keyboard', 'QEMU QEMU USB Keyboard', 'Marquee Test Keypad'
failures = 0


def report(name, ok, detail):
    global failures
    print(f'{"PASS" if ok else "FAIL"} {name}{" (" if ok else ": "}{detail}{")" if ok else ""}')
    failures += 0 if ok else 1


def read(name):
    try:
        with open(f'{share}/{name}', errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return ''


events = [json.loads(line) for line in read('events.jsonl').splitlines() if line.startswith('{')]
log, probe, out, uinput = read('play.log'), read('probe.txt'), read('out.txt'), read('uinput.txt')
frames = [e for e in events if e['event'] == 'frame']
commands = [e for e in events if e['event'] == 'command']


def command(name, device, key=None, after=-1.0, index=None):
    """The first `command` event named `name` from `device` (and `key`) after time `after`."""
    for e in commands:
        if (e['command'] == name and e.get('device') == device and e['t'] > after and (key is None or e.get('key') == key)
                and (index is None or e.get('index') == index)):
            return e
    return None


def first(kind, after, **fields):
    return next((e for e in events if e['event'] == kind and e['t'] > after
                 and all(e.get(k) == v for k, v in fields.items())), None)


def started_before(t):
    starts = [e for e in events if e['event'] == 'itemStarted' and e['t'] <= t]
    return starts[-1]['index'] if starts else None


def frames_between(a, b):
    return [f for f in frames if a < f['t'] < b]


# probe: both keyboards with their ids and mapped keys
blocks = dict(re.findall(r'^input (\S+)  "([^"]*)".*\n  mapped keys (.*)$', probe, re.M) and
              [(name, keys) for _, name, keys in re.findall(r'^input (\S+)  "([^"]*)".*\n  mapped keys (.*)$', probe, re.M)])
ok = all(n in blocks and 'KEY_SPACE' in blocks[n] and 'KEY_KPENTER' in blocks[n] for n in (VIRTIO, USB))
ok = ok and re.search(r'"QEMU Virtio Keyboard"  bus virtual \(0x0006\)  vendor 0x0627', probe) is not None
report('probe', ok, f'{len(blocks)} devices: ' + '; '.join(f'{n}: {len(k.split())} mapped keys' for n, k in blocks.items())
       if ok else probe[:400])

# devices added and grabbed at start
added = re.findall(r'input: added (\S+) "([^"]*)" \(([^)]*)\)', log)
ok = any(n == VIRTIO and 'grabbed' in notes for _, n, notes in added) and any(n == USB and 'grabbed' in notes for _, n, notes in added)
report('devices', ok, ', '.join(f'{p} {n}' for p, n, _ in added) if ok else log[:400])

# pause (virtio space) stops the trace; audioplay (KEY_PLAYPAUSE) resumes it
p = command('togglePlayPause', VIRTIO, 'KEY_SPACE')
r = command('togglePlayPause', VIRTIO, 'KEY_PLAYPAUSE', after=p['t']) if p else None
if p and r:
    paused = first('playbackStateChanged', p['t'] - 0.001, state='paused')
    during = frames_between(p['t'], r['t'])
    after = frames_between(r['t'], r['t'] + 1.0)
    ok = paused is not None and paused['t'] < r['t'] and not during and len(after) >= 10
    report('pause', ok, f'{r["t"] - p["t"]:.2f} s paused, {len(during)} frames while paused, {len(after)} in the second after resuming')
else:
    report('pause', False, f'commands missing: pause {p}, resume {r}')

# next (virtio audionext) changes the item
n = command('next', VIRTIO, 'KEY_NEXTSONG')
if n:
    before, started = started_before(n['t']), first('itemStarted', n['t'])
    report('next', started is not None and started['index'] != before,
           f'item {before} -> {started["index"] if started else None} {started["t"] - n["t"]:.3f} s after the command'
           if started else 'no itemStarted after next')
else:
    report('next', False, 'no next command from the virtio keyboard')

# cycle repeat (virtio KP*) announces the new mode
c = command('cycleRepeatMode', VIRTIO, 'KEY_KPASTERISK')
changed = first('repeatModeChanged', c['t'] - 0.001) if c else None
report('repeat', changed is not None, f'repeatModeChanged {changed["mode"]}' if changed else f'command {c}, no repeatModeChanged')


def numeric(name, device, index):
    e = command('playItem', device, 'KEY_KPENTER', index=index)
    started = first('itemStarted', e['t']) if e else None
    ok = started is not None and started['index'] == index
    report(name, ok, f'{device} {e["path"]}: playItem {index + 1}, item {index + 1} started {started["t"] - e["t"]:.3f} s later'
           if ok else f'command {e}, then {started}')
    return e


numeric('numeric', VIRTIO, 1)

# USB keyboard plugged in mid-playback: added, keys act, unplugged: removed
usb_paths = [p for p, n, _ in added if n == USB]
u = numeric('usb-numeric', USB, 2)
up = command('togglePlayPause', USB, 'KEY_SPACE')
ur = command('togglePlayPause', USB, 'KEY_SPACE', after=up['t']) if up else None
if up and ur:
    during = frames_between(up['t'], ur['t'])
    ok = not during and len(usb_paths) >= 2 and up['path'] == usb_paths[-1]
    report('usb-pause', ok, f'{up["path"]} (plugged in as the second USB keyboard): {ur["t"] - up["t"]:.2f} s paused, {len(during)} frames meanwhile')
else:
    report('usb-pause', False, f'pause {up}, resume {ur}')
removed = re.findall(r'input: removed (\S+) "([^"]*)"', log)
report('usb-unplug', any(n == USB for _, n in removed) and len(usb_paths) >= 2 and usb_paths[-1] in [p for p, _ in removed],
       f'added {usb_paths[-1] if len(usb_paths) > 1 else None}, removed {[p for p, n in removed if n == USB]}')

# uinput keypad: created, used, destroyed while playing
k = numeric('hotplug-keys', KEYPAD, 0)
toggles = [e for e in commands if e.get('device') == KEYPAD and e['command'] == 'togglePlayPause']
gone = [p for p, n in removed if n == KEYPAD]
last_keypad = max([e['t'] for e in commands if e.get('device') == KEYPAD], default=None)
after_removal = frames_between(last_keypad + 1.5, 1e9) if last_keypad else []
ok = k is not None and len(toggles) == 2 and len(gone) == 1 and len(after_removal) >= 10
report('hotplug', ok, f'added {[p for p, n, _ in added if n == KEYPAD]}, 2 toggles, removed {gone}, '
       f'{len(after_removal)} frames after it was destroyed' if ok else f'toggles {len(toggles)}, removed {gone}, '
       f'{len(after_removal)} frames after; uinput: {uinput.strip()}')

# the whole run: a clean exit on SIGTERM, no error line
rc = re.search(r'^play rc=(\d+)', out, re.M)
errors = [line for line in log.splitlines() if line.startswith(('error', 'critical')) or 'Fatal error' in line]
quit_ = [e for e in commands if e['command'] == 'quit' and e.get('signal') == 'SIGTERM']
report('exit', rc is not None and rc.group(1) == '0' and not errors and bool(quit_),
       f'exit {rc.group(1) if rc else None} after SIGTERM, {len(commands)} commands' + (f'; errors: {errors[:3]}' if errors else ''))


def drop_rate(records):
    shown = [e for e in records if e['event'] == 'frame']
    span = (shown[-1]['t'] - shown[0]['t']) if len(shown) > 1 else 0
    return f'{sum(1 for e in shown if e.get("dropped"))} of {len(shown)} frames dropped in {span:.1f} s'


control = [json.loads(line) for line in read('control.jsonl').splitlines() if line.startswith('{')]
print(f'INFO frames with input and keys: {drop_rate(events)}; control (--input none, no keys): {drop_rate(control)}')
latencies = re.findall(r'^key (\S+) latency_ms=([0-9.]+)', uinput, re.M)
if latencies:
    print('INFO uinput key written -> command event in the log (guest, TCG): '
          + ', '.join(f'{key} {ms} ms' for key, ms in latencies))
sys.exit(failures)
