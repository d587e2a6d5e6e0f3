#!/usr/bin/env python3
"""Guest-side helper for drm-test.sh: the Linux console's VT state, through its ioctls.

usage: console.py switch N        make VT N the active one and wait until it is
       console.py mode /dev/ttyN  print the VT's KD mode: 0 text, 1 graphics
"""
import fcntl, os, struct, sys

VT_ACTIVATE, VT_WAITACTIVE, KDGETMODE = 0x5606, 0x5607, 0x4B3B


def main():
    if len(sys.argv) == 3 and sys.argv[1] == 'switch':
        n = int(sys.argv[2])
        fd = os.open('/dev/tty0', os.O_RDWR)
        fcntl.ioctl(fd, VT_ACTIVATE, n)
        fcntl.ioctl(fd, VT_WAITACTIVE, n)
        print(f'active {n}')
    elif len(sys.argv) == 3 and sys.argv[1] == 'mode':
        fd = os.open(sys.argv[2], os.O_RDWR | os.O_NOCTTY)
        print(struct.unpack('i', fcntl.ioctl(fd, KDGETMODE, b'\0' * 4))[0])
    else:
        raise SystemExit(__doc__)


if __name__ == '__main__':
    main()
