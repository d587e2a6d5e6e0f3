#!/usr/bin/env python3
"""Checks for cec-test.sh.

   cec-check.py schedule MONITOR EVENTS
       -> the TV's `cec-ctl --monitor` log holds, from Playback Device 1, <Standby>, then <Image View
          On> and <Active Source>, <Standby>, <Image View On> and <Active Source>, <Standby> (the
          1970 off window at start, the jump to 21:59:57, the 22:00:00-22:00:10 window, the jump
          back), with <Standby> 3 s after the jump's <Image View On> and the window's <Image View On>
          10 s after its <Standby> on the monitor's own (monotonic) timestamps; the events log has
          displayOff, displayOn, displayOff, displayOn, displayOff as commands from source
          `schedule`, the window's two 10 s apart.
Prints a one-line summary and exits 0, or prints the problem and exits 1.
"""
import json
import re
import sys

WANTED = {'STANDBY': 'S', 'IMAGE_VIEW_ON': 'I', 'ACTIVE_SOURCE': 'A'}
RECEIVED = re.compile(r'^Received from Playback Device 1 to (TV|all) \((4 to 0|4 to 15)\): (\w+) \(0x[0-9a-f]+\)')
STAMP = re.compile(r'Timestamp: ([0-9]+\.[0-9]+)s')


def bus_messages(path):
    """(letter, seconds) for each wanted message, in the order the TV received them."""
    messages, pending = [], None
    for line in open(path, errors='replace'):
        match = RECEIVED.match(line)
        if match:
            pending = WANTED.get(match.group(3))
            continue
        stamp = STAMP.search(line)
        if stamp and pending:
            messages.append((pending, float(stamp.group(1))))
            pending = None
    return messages


def check_schedule(monitor, events_path):
    messages = bus_messages(monitor)
    order = ''.join(letter for letter, _ in messages)
    if order != 'SIASIAS':
        return f'the TV received {order or "nothing"} (S = <Standby>, I = <Image View On>, A = <Active Source>), expected SIASIAS'
    times = [t for _, t in messages]
    to_window = times[3] - times[1]
    window = times[4] - times[3]
    if not 2.6 <= to_window <= 3.4:
        return f'<Standby> for 22:00:00 came {to_window:.2f} s after the jump to 21:59:57 woke the TV, expected 3 s'
    if not 9.8 <= window <= 10.2:
        return f'the 22:00:00-22:00:10 window lasted {window:.2f} s on the bus, expected 10 s'
    with open(events_path) as f:
        events = [json.loads(line) for line in f if line.strip()]
    commands = [e for e in events if e.get('event') == 'command' and e.get('source') == 'schedule']
    names = [e['command'] for e in commands]
    if names != ['displayOff', 'displayOn', 'displayOff', 'displayOn', 'displayOff']:
        return f'commands from the schedule: {names}'
    logged = commands[3]['t'] - commands[2]['t']
    if not 9.9 <= logged <= 10.1:
        return f'the window lasted {logged:.2f} s in the events, expected 10 s'
    return (f'the TV received SIASIAS; <Standby> {to_window:.2f} s after the jump to 21:59:57, the 22:00 window '
            f'{window:.2f} s on the bus and {logged:.2f} s in the events; 5 commands from the schedule')


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'schedule':
        result = check_schedule(sys.argv[2], sys.argv[3])
        ok = result.startswith('the TV received SIASIAS')
    else:
        raise SystemExit(__doc__)
    print(result)
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
