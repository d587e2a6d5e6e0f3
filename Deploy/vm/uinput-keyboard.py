#!/usr/bin/env python3
"""A visitor's keyboard through /dev/uinput (stdlib only), for lockdown-test.sh in the guest.

Creates a keyboard with only the keys it will press (Ctrl, Alt and F2 by default: none of them bound
in the kiosk's key map), waits until FILE holds PATTERN (or SECONDS pass), presses the keys together
(Ctrl+Alt+F2, the console's switch to VT 2) and releases them, waits a second, prints the active
VT as the kernel reports it (`active=tty1`), then destroys the device.

Usage: uinput-keyboard.py --name NAME --wait-for FILE PATTERN [--seconds S] [--keys LEFTCTRL,LEFTALT,F2]
"""
import argparse
import fcntl
import os
import struct
import time

UI_SET_EVBIT = 0x40045564
UI_SET_KEYBIT = 0x40045565
UI_DEV_SETUP = 0x405C5503
UI_DEV_CREATE = 0x5501
UI_DEV_DESTROY = 0x5502
EV_SYN, EV_KEY, SYN_REPORT, BUS_USB = 0, 1, 0, 0x03
KEYS = {'LEFTCTRL': 29, 'LEFTALT': 56, 'F1': 59, 'F2': 60, 'DELETE': 111, 'SYSRQ': 99}


def emit(fd, kind, code, value):
    os.write(fd, struct.pack('llHHi', 0, 0, kind, code, value))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--name', required=True)
    parser.add_argument('--wait-for', nargs=2, metavar=('FILE', 'PATTERN'), required=True)
    parser.add_argument('--seconds', type=float, default=30)
    parser.add_argument('--keys', default='LEFTCTRL,LEFTALT,F2')
    args = parser.parse_args()
    codes = [KEYS[k] for k in args.keys.split(',')]
    fd = os.open('/dev/uinput', os.O_WRONLY | os.O_NONBLOCK)
    fcntl.ioctl(fd, UI_SET_EVBIT, EV_KEY)
    for code in codes:
        fcntl.ioctl(fd, UI_SET_KEYBIT, code)
    setup = struct.pack('HHHH80sI', BUS_USB, 0x1234, 0x5678, 1, args.name.encode()[:79], 0)
    fcntl.ioctl(fd, UI_DEV_SETUP, setup)
    fcntl.ioctl(fd, UI_DEV_CREATE)
    path, pattern = args.wait_for
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        try:
            if pattern in open(path, errors='replace').read():
                break
        except OSError:
            pass
        time.sleep(0.2)
    time.sleep(0.5)
    for code in codes:
        emit(fd, EV_KEY, code, 1)
        emit(fd, EV_SYN, SYN_REPORT, 0)
        time.sleep(0.05)
    for code in reversed(codes):
        emit(fd, EV_KEY, code, 0)
        emit(fd, EV_SYN, SYN_REPORT, 0)
        time.sleep(0.05)
    time.sleep(1.5)
    active = open('/sys/class/tty/tty0/active').read().strip()
    print(f'active={active}', flush=True)
    fcntl.ioctl(fd, UI_DEV_DESTROY)
    os.close(fd)


if __name__ == '__main__':
    main()
