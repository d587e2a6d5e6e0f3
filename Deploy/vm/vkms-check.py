#!/usr/bin/env python3
"""Checks for vkms-test.sh: the kernel's atomic state (debugfs dri/N/state) and the screenshots.

usage: vkms-check.py overlay STATE PLANE up|down
            up:   plane[PLANE] is on a CRTC with a framebuffer (prints its CRTC, fb, format, size)
            down: plane[PLANE] has no framebuffer and no CRTC (the OSD is off the screen)
       vkms-check.py detached STATE CONNECTOR
            connector[CONNECTOR] is on no CRTC (the writeback connector after a capture)
       vkms-check.py shot SHOT.png RRGGBB with|without
            the screenshot is the still's colour RRGGBB everywhere above the OSD's panel (the upper
            half, every pixel within TOLERANCE); in the panel (the lower 40 %), `with`: at least
            1 % of the pixels are far from it (labels drawn there), `without`: every pixel is within
            TOLERANCE of it (no label left)
Exit status 0 when the check holds, 1 with the reason on stdout otherwise.
"""
import importlib.util
import os
import sys

TOLERANCE = 3
FAR = 40

_spec = importlib.util.spec_from_file_location('drm_check', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'drm-check.py'))
drm_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(drm_check)


def state_blocks(path):
    """{'plane[31]': {'name': 'plane-0', 'crtc': 'crtc-0', 'fb': '42', 'format': 'AR24 ...', ...}}:
    each object's own key=value lines (one tab in), and its framebuffer's (two tabs in)."""
    blocks, current = {}, None
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line and not line.startswith('\t'):
                head, _, name = line.partition(': ')
                current = blocks.setdefault(head.rstrip(':'), {'name': name})
            elif current is not None and '=' in line:
                key, _, value = line.strip().partition('=')
                current.setdefault(key.strip(), value.strip())
    return blocks


def overlay(state, plane, want):
    block = state_blocks(state).get(f'plane[{plane}]')
    if block is None:
        return False, f'no plane[{plane}] in {state}'
    crtc, fb = block.get('crtc', '?'), block.get('fb', '?')
    shown = fb not in ('0', '?') and crtc not in ('(null)', '?')
    detail = f'plane[{plane}] crtc={crtc} fb={fb}'
    if shown:
        detail += f' format={block.get("format", "?").split(" ")[0]} size={block.get("size", "?")} crtc-pos={block.get("crtc-pos", "?")}'
    if want == 'up':
        return shown, detail
    return fb == '0' and crtc == '(null)', detail


def detached(state, connector):
    block = state_blocks(state).get(f'connector[{connector}]')
    if block is None:
        return False, f'no connector[{connector}] in {state}'
    detail = f'connector[{connector}] {block["name"]} crtc={block.get("crtc", "?")}'
    return block.get('crtc') == '(null)', detail


def shot(png, colour, want):
    w, h, rgb = drm_check.read_png(png)
    target = tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))

    def distance(x, y):
        o = (y * w + x) * 3
        return max(abs(rgb[o + c] - target[c]) for c in range(3))

    above = [(x, y) for y in range(0, h // 2) for x in range(0, w, 2)]
    off = [p for p in above if distance(*p) > TOLERANCE]
    if off:
        x, y = off[0]
        o = (y * w + x) * 3
        return False, f'{len(off)} of {len(above)} pixels above the panel are not #{colour} (first at {x},{y}: {tuple(rgb[o:o + 3])})'
    panel = [(x, y) for y in range(h * 6 // 10, h) for x in range(0, w, 2)]
    far = sum(1 for p in panel if distance(*p) > FAR)
    near = sum(1 for p in panel if distance(*p) <= TOLERANCE)
    detail = f'{w}x{h}; upper half all #{colour}; panel: {far} of {len(panel)} samples far from it'
    if want == 'with':
        return far >= len(panel) // 100, detail
    return near == len(panel), detail + f', {len(panel) - near} off by more than {TOLERANCE}'


def main(argv):
    try:
        if len(argv) == 5 and argv[1] == 'overlay' and argv[4] in ('up', 'down'):
            ok, detail = overlay(argv[2], argv[3], argv[4])
        elif len(argv) == 4 and argv[1] == 'detached':
            ok, detail = detached(argv[2], argv[3])
        elif len(argv) == 5 and argv[1] == 'shot' and argv[4] in ('with', 'without'):
            ok, detail = shot(argv[2], argv[3], argv[4])
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (OSError, ValueError) as error:
        ok, detail = False, str(error)
    print(detail)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
