#!/usr/bin/env python3
"""Host side of input-test.sh: boots the guest (bochs-drm, virtio + USB keyboards), and while marquee
plays there, presses keys through QMP, plugs a second USB keyboard in and out (device_add/device_del;
QEMU sends keys to the newest keyboard) and lets the guest's uinput keypad go. Everything is driven
from the host so the guest's one vCPU is left to the player: guest-side polling loops (a fork of
grep and sleep every 50 ms over 9p) were measured to make it drop frames under TCG.

Usage: input-drive.py SHARE MARQUEE TIMEOUT   (SHARE holds guest.sh and the fixtures; results land there)
Writes SHARE/out.txt: the host's `step NAME t=...` lines, then the guest script's lines. Exit: the guest's status.
"""
import importlib.util
import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('run_guest', os.path.join(here, 'run-guest.py'))
run_guest = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_guest)

share, marquee, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
deadline = time.monotonic() + timeout
lines = []


def path(name):
    return os.path.join(share, name)


def step(name):
    lines.append(f'step {name} t={time.monotonic():.3f}')


def wait_for(name, text, count=1, seconds=30.0):
    """Until SHARE/name contains text `count` times (the guest writes it over 9p)."""
    end = min(time.monotonic() + seconds, deadline)
    while time.monotonic() < end:
        try:
            with open(path(name), errors='replace') as f:
                if f.read().count(text) >= count:
                    return True
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    lines.append(f'timeout waiting for {count}x {text!r} in {name}')
    return False


def main():
    with run_guest.Guest(['/bin/sh', path('guest.sh'), marquee], gpu='std', share=share,
                         smp=int(os.environ.get('VM_SMP', '2')),
                         extra_qemu=run_guest.KEYBOARD['both']) as guest:
        try:
            if wait_for('events.jsonl', '"event":"frame"', seconds=120):
                time.sleep(1)
                for name, keys, pause in (('pause', ['spc'], 2), ('resume', ['audioplay'], 1.5),
                                          ('next', ['audionext'], 1.5), ('repeat', ['kp_multiply'], 1),
                                          ('numeric', ['kp_2', 'kp_enter'], 1.5)):
                    step(name)
                    guest.send_keys(keys)
                    time.sleep(pause)
                step('usb-plug')
                guest.qmp.cmd('device_add', driver='usb-kbd', bus='xhci.0', id='marqueekbd')
                # The boot-time USB keyboard was added at start; wait for the second one.
                wait_for('play.log', 'USB Keyboard" (', count=2)
                time.sleep(0.5)
                step('usb-keys')
                guest.send_keys(['kp_3', 'kp_enter'])
                time.sleep(1.5)
                guest.send_keys(['spc'])
                time.sleep(1.5)
                guest.send_keys(['spc'])
                time.sleep(1)
                step('usb-unplug')
                guest.qmp.cmd('device_del', id='marqueekbd')
                wait_for('play.log', 'removed /dev/input/event')
                step('uinput')
                open(path('uinput.go'), 'w').close()
                wait_for('play.log', 'removed /dev/input/event', count=2, seconds=60)
                time.sleep(2)
        except run_guest.HarnessError as e:
            lines.append(f'harness error: {e}')
        step('stop')
        open(path('stop'), 'w').close()
        rc = guest.wait(max(1.0, deadline - time.monotonic()))
        lines.extend(guest.output('stdout').decode(errors='replace').splitlines())
        lines.extend(guest.output('stderr').decode(errors='replace').splitlines())
    with open(path('out.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return rc


if __name__ == '__main__':
    sys.exit(main())
