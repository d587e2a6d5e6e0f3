#!/usr/bin/env python3
"""A virtual numeric keypad through /dev/uinput (stdlib only), for hotplug tests in the guest.

Waits until the file GO exists (if given: the script can start before playback and cost nothing
meanwhile), creates the device, waits until FILE contains PATTERN (the player's "added" line), presses KEYS one
after another, waiting after each until a new `command` event from this device appears in the
events log (the key's latency is measured from the write to that line), then lingers and destroys
the device. Prints one line per key: `key KEY latency_ms=N` (or `latency_ms=none`).

Usage: uinput-keypad.py --name NAME [--go GO] --wait-for FILE PATTERN --events EVENTS --keys KP1,KPENTER [--linger S]
"""
import argparse
import fcntl
import os
import struct
import sys
import time

# linux/uinput.h, linux/input-event-codes.h
UI_SET_EVBIT = 0x40045564        # _IOW('U', 100, int)
UI_SET_KEYBIT = 0x40045565       # _IOW('U', 101, int)
UI_DEV_SETUP = 0x405C5503        # _IOW('U', 3, struct uinput_setup), 92 bytes
UI_DEV_CREATE = 0x5501           # _IO('U', 1)
UI_DEV_DESTROY = 0x5502          # _IO('U', 2)
EV_SYN, EV_KEY, SYN_REPORT, BUS_VIRTUAL = 0, 1, 0, 0x06
KEYS = {'KP7': 71, 'KP8': 72, 'KP9': 73, 'KPMINUS': 74, 'KP4': 75, 'KP5': 76, 'KP6': 77, 'KPPLUS': 78,
        'KP1': 79, 'KP2': 80, 'KP3': 81, 'KP0': 82, 'KPDOT': 83, 'KPENTER': 96, 'KPSLASH': 98,
        'KPASTERISK': 55, 'PLAYPAUSE': 164}


class Tail:
    """New text appended to a file since the last look (reads only what was added: over 9p under
    TCG, re-reading a whole log every few milliseconds would itself slow the player down)."""
    def __init__(self, path):
        self.path, self.f = path, None

    def new_text(self):
        if self.f is None:
            try:
                self.f = open(self.path, errors='replace')
            except FileNotFoundError:
                return ''
        return self.f.read()


def wait_for(path, pattern, timeout):
    tail, seen, end = Tail(path), '', time.monotonic() + timeout
    while time.monotonic() < end:
        seen += tail.new_text()
        if pattern in seen:
            return True
        time.sleep(0.1)
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--name', required=True)
    ap.add_argument('--wait-for', nargs=2, metavar=('FILE', 'PATTERN'), required=True)
    ap.add_argument('--events', required=True)
    ap.add_argument('--keys', required=True)
    ap.add_argument('--linger', type=float, default=1.0)
    ap.add_argument('--go')
    ap.add_argument('--stop', help='after destroying the device, wait until this file exists')
    a = ap.parse_args()
    keys = a.keys.split(',')
    while a.go and not os.path.exists(a.go):
        time.sleep(0.25)

    fd = os.open('/dev/uinput', os.O_WRONLY | os.O_NONBLOCK)
    fcntl.ioctl(fd, UI_SET_EVBIT, EV_KEY)
    for code in KEYS.values():
        fcntl.ioctl(fd, UI_SET_KEYBIT, code)
    setup = struct.pack('HHHH80sI', BUS_VIRTUAL, 0x1209, 0x0001, 1, a.name.encode(), 0)
    fcntl.ioctl(fd, UI_DEV_SETUP, setup)
    fcntl.ioctl(fd, UI_DEV_CREATE)
    print(f'created t={time.monotonic():.3f}', flush=True)
    try:
        if not wait_for(a.wait_for[0], a.wait_for[1], 20):
            print('never added', flush=True)
            return 1
        needle = f'"device":"{a.name}"'
        events = Tail(a.events)
        events.new_text()
        for key in keys:
            t0 = time.monotonic()
            for value in (1, 0):
                os.write(fd, struct.pack('llHHi', 0, 0, EV_KEY, KEYS[key], value))
                os.write(fd, struct.pack('llHHi', 0, 0, EV_SYN, SYN_REPORT, 0))
            # A digit issues no command by itself; only the keys that do are timed.
            latency = 'none'
            timed = not key[2:].isdigit()
            end = t0 + 5
            while timed and time.monotonic() < end:
                if needle in events.new_text():
                    latency = f'{(time.monotonic() - t0) * 1000:.1f}'
                    break
                time.sleep(0.002)
            print(f'key {key} latency_ms={latency}', flush=True)
            time.sleep(0.2)
        time.sleep(a.linger)
    finally:
        fcntl.ioctl(fd, UI_DEV_DESTROY)
        os.close(fd)
        print(f'destroyed t={time.monotonic():.3f}', flush=True)
    while a.stop and not os.path.exists(a.stop):
        time.sleep(0.25)
    return 0


if __name__ == '__main__':
    sys.exit(main())
