#!/usr/bin/env python3
"""Checks a QMP screendump (binary PPM) of the guest's 1280x800 screen against the test still.

usage: drm-check.py picture MODE DUMP.ppm   -> the still is shown as scaling MODE puts it
       drm-check.py gone DUMP.ppm           -> the still is no longer on screen
       drm-check.py clip DUMP.ppm           -> a colourful 16:9 clip (testsrc2) is shown aspect-fit:
                                               most samples in 1280x720 at (0,40) saturated, bars black
       drm-check.py gone-clip DUMP.ppm      -> no clip: under 5% of the samples saturated
       drm-check.py gapless EVENTS.jsonl ITEMS FRAMES FPS ROUNDS
                                            -> the --trace-frames log shows ROUNDS rounds of ITEMS
                                               items of FRAMES frames each, every frame presented,
                                               each one 1/FPS after the last on the timeline, and
                                               no wall-clock gap of two frame slots or more
       drm-check.py probe-json PROBE.json DRIVER
                                            -> `marquee probe --json` lists one card driven by DRIVER
                                               with Virtual-1 connected, its preferred 1280x800 and
                                               1024x768@60 among its modes, and a primary plane
                                               taking XR24; the audio and input parts are there too
       drm-check.py screenshot-matches SHOT.png DUMP.ppm
                                            -> the PNG `marquee ctl screenshot` wrote is the QMP
                                               screendump pixel for pixel: same size, 0 differing
                                               pixels (prints the size, the number of differing
                                               pixels and the largest channel difference)

The still (made by drm-test.sh) is 640x360: quadrants red | green over blue | yellow, with a 16 px
magenta stripe down its left edge so that fill and aspectFill (which crops 32 source columns off
each side) tell apart. Expected rectangles, worked out by hand from ScalingGeometry's rules for
640x360 on 1280x800:
  aspectFit  scale 2 (= min(1280/640, 800/360)): 1280x720 at (0,40), black bars above and below
  fill       stretched to 1280x800 at (0,0)
  aspectFill scale 800/360: the centre 576x360 of the source (x 32..608) fills 1280x800
  none       640x360 at ((1280-640)/2, (800-360)/2) = (320,220), black around it
  portrait   display.rotation 90, aspectFit: on the 800x1280 portrait screen, scale 1.25
             (= min(800/640, 1280/360)): 800x450 at (0,415); that portrait picture is shown turned
             clockwise, so portrait (lx, ly) is screen (1280 - ly, lx): the still's top edge runs
             down the screen's right side
Samples every 8 px; those within MARGIN screen px of a colour edge are skipped (scaler filtering).
"""
import json
import struct
import sys
import zlib

SCREEN = (1280, 800)
SRC = (640, 360)
STRIPE = 16
TOLERANCE = 8
MARGIN = 6
# mode: (destination rect x, y, w, h on screen), (source crop x, y, w, h)
GEOMETRY = {
    'aspectFit': ((0, 40, 1280, 720), (0, 0, 640, 360)),
    'fill': ((0, 0, 1280, 800), (0, 0, 640, 360)),
    'aspectFill': ((0, 0, 1280, 800), (32, 0, 576, 360)),
    'none': ((320, 220, 640, 360), (0, 0, 640, 360)),
    'portrait': ((0, 415, 800, 450), (0, 0, 640, 360)),
}
# Modes drawn on a portrait screen turned clockwise onto the landscape one.
CLOCKWISE = {'portrait'}
BLACK = (0, 0, 0)
RED, GREEN, BLUE, YELLOW, MAGENTA = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (255, 0, 255)


def read_ppm(path):
    with open(path, 'rb') as f:
        data = f.read()
    fields, i = [], 0
    while len(fields) < 4:  # magic, width, height, maxval; '#' comments are not written by qemu
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j])
        i = j
    i += 1
    if fields[0] != b'P6' or fields[3] != b'255':
        raise SystemExit(f'{path}: not a binary 8-bit PPM')
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[i:i + w * h * 3]


def read_png(path):
    """(width, height, RGB24 bytes) of an 8-bit, non-interlaced PNG (grey, RGB, grey+alpha or RGBA;
    alpha dropped), decoded with zlib alone so that it does not share a decoder with the encoder."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError(f'{path}: not a PNG')
    i, header, idat = 8, None, []
    while i + 8 <= len(data):
        length, kind = struct.unpack('>I4s', data[i:i + 8])
        body = data[i + 8:i + 8 + length]
        if len(body) != length:
            raise ValueError(f'{path}: truncated {kind!r} chunk')
        if zlib.crc32(kind + body) != struct.unpack('>I', data[i + 8 + length:i + 12 + length])[0]:
            raise ValueError(f'{path}: bad CRC in {kind!r} chunk')
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat.append(body)
        elif kind == b'IEND':
            break
        i += 12 + length
    if header is None or not idat:
        raise ValueError(f'{path}: no IHDR or IDAT')
    w, h, depth, colour, _, _, interlace = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f'{path}: depth {depth}, colour type {colour}, interlace {interlace} not handled')
    raw = zlib.decompress(b''.join(idat))
    stride = w * channels
    if len(raw) != h * (stride + 1):
        raise ValueError(f'{path}: {len(raw)} bytes of image data, expected {h * (stride + 1)}')
    out = bytearray(h * stride)
    prior = bytearray(stride)
    for y in range(h):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:    # Sub
            for x in range(channels, stride):
                line[x] = (line[x] + line[x - channels]) & 255
        elif kind == 2:  # Up
            line = bytearray((a + b) & 255 for a, b in zip(line, prior))
        elif kind == 3:  # Average
            for x in range(stride):
                left = line[x - channels] if x >= channels else 0
                line[x] = (line[x] + ((left + prior[x]) >> 1)) & 255
        elif kind == 4:  # Paeth
            for x in range(stride):
                a = line[x - channels] if x >= channels else 0
                b = prior[x]
                c = prior[x - channels] if x >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif kind != 0:
            raise ValueError(f'{path}: row {y} has filter type {kind}')
        out[y * stride:(y + 1) * stride] = line
        prior = line
    if channels == 3:
        return w, h, bytes(out)
    rgb = bytearray(w * h * 3)
    if channels == 4:
        for k in range(3):
            rgb[k::3] = out[k::4]
    else:
        step = channels
        for k in range(3):
            rgb[k::3] = out[0::step]
    return w, h, bytes(rgb)


def check_screenshot_matches(shot, dump):
    """None when the screenshot PNG and the screendump PPM hold the same pixels; else the difference."""
    try:
        sw, sh, spixels = read_png(shot)
    except (OSError, ValueError, zlib.error) as error:
        return f'screenshot unreadable: {error}'
    dw, dh, dpixels = read_ppm(dump)
    if (sw, sh) != (dw, dh):
        return f'screenshot is {sw}x{sh}, screendump {dw}x{dh}'
    if len(spixels) != sw * sh * 3 or len(dpixels) != dw * dh * 3:
        return f'pixel data sizes {len(spixels)} (screenshot) and {len(dpixels)} (screendump), expected {sw * sh * 3}'
    differing, largest, first = 0, 0, None
    if spixels != dpixels:
        for o in range(0, len(spixels), 3):
            a, b = spixels[o:o + 3], dpixels[o:o + 3]
            if a != b:
                differing += 1
                largest = max(largest, *(abs(x - y) for x, y in zip(a, b)))
                if first is None:
                    first = f'first at ({o // 3 % sw},{o // 3 // sw}): screenshot {tuple(a)}, screendump {tuple(b)}'
    summary = f'{sw}x{sh}, {differing} differing pixels, largest channel difference {largest}'
    if differing:
        return f'{summary}; {first}'
    print(summary)
    return None


def source_colour(sx, sy):
    if sx < STRIPE:
        return MAGENTA
    if sy < SRC[1] / 2:
        return RED if sx < SRC[0] / 2 else GREEN
    return BLUE if sx < SRC[0] / 2 else YELLOW


def near(v, edges, margin):
    return any(abs(v - e) < margin for e in edges)


def expected(mode, x, y):
    """The colour at screen pixel (x, y), or None when it sits too close to an edge to judge."""
    (dx, dy, dw, dh), (cx, cy, cw, ch) = GEOMETRY[mode]
    px, py = x + 0.5, y + 0.5
    if mode in CLOCKWISE:
        px, py = py, SCREEN[0] - px
    if near(px, (dx, dx + dw), MARGIN) or near(py, (dy, dy + dh), MARGIN):
        return None
    if not (dx <= px < dx + dw and dy <= py < dy + dh):
        return BLACK
    kx, ky = dw / cw, dh / ch          # screen px per source px
    sx, sy = cx + (px - dx) / kx, cy + (py - dy) / ky
    if near(sx, (STRIPE, SRC[0] / 2), MARGIN / kx) or near(sy, (SRC[1] / 2,), MARGIN / ky):
        return None
    return source_colour(sx, sy)


def samples(w, h, pixels):
    for y in range(3, h, 8):
        for x in range(3, w, 8):
            o = (y * w + x) * 3
            yield x, y, tuple(pixels[o:o + 3])


def check_picture(mode, path):
    w, h, pixels = read_ppm(path)
    if (w, h) != SCREEN:
        return f'screen is {w}x{h}, expected {SCREEN[0]}x{SCREEN[1]}'
    bad, judged, first = 0, 0, None
    for x, y, got in samples(w, h, pixels):
        want = expected(mode, x, y)
        if want is None:
            continue
        judged += 1
        if any(abs(a - b) > TOLERANCE for a, b in zip(got, want)):
            bad += 1
            first = first or f'({x},{y}) is {got}, expected {want}'
    if bad:
        return f'{bad} of {judged} samples wrong, first {first}'
    return None


def check_gone(path):
    """The still's colours cover at most 5% of the samples (the console is black with some text)."""
    w, h, pixels = read_ppm(path)
    still = {RED, GREEN, BLUE, YELLOW, MAGENTA}
    hits = total = 0
    for _, _, got in samples(w, h, pixels):
        total += 1
        if any(all(abs(a - b) <= TOLERANCE for a, b in zip(got, c)) for c in still):
            hits += 1
    if hits > total * 0.05:
        return f'{hits} of {total} samples still show the picture ({w}x{h})'
    return None


def saturated(colour):
    return max(colour) - min(colour) > 150


def check_clip(path):
    w, h, pixels = read_ppm(path)
    if (w, h) != SCREEN:
        return f'screen is {w}x{h}, expected {SCREEN[0]}x{SCREEN[1]}'
    inside = [got for x, y, got in samples(w, h, pixels) if 40 + MARGIN <= y < 760 - MARGIN]
    bars = [got for x, y, got in samples(w, h, pixels) if y < 40 - MARGIN or y >= 760 + MARGIN]
    colourful = sum(map(saturated, inside))
    lit_bars = sum(1 for got in bars if max(got) > TOLERANCE)
    if colourful < len(inside) * 0.5:
        return f'only {colourful} of {len(inside)} samples inside the picture are saturated colours'
    if lit_bars:
        return f'{lit_bars} of {len(bars)} samples in the black bars are lit'
    return None


def check_gone_clip(path):
    w, h, pixels = read_ppm(path)
    all_samples = [got for _, _, got in samples(w, h, pixels)]
    colourful = sum(map(saturated, all_samples))
    if colourful > len(all_samples) * 0.05:
        return f'{colourful} of {len(all_samples)} samples are saturated colours: the clip is still up'
    return None


def check_gapless(path, items, frames, fps, rounds):
    import json
    with open(path) as f:
        events = [json.loads(line) for line in f if line.strip()]
    shown = [e for e in events if e['event'] == 'frame']
    dropped = [e for e in shown if e.get('dropped')]
    if dropped:
        return f'{len(dropped)} frame(s) dropped, first at timeline {dropped[0]["time"]:.3f} s'
    want = [i for _ in range(rounds) for i in range(items) for _ in range(frames)]
    got = [e['item'] for e in shown[:len(want)]]
    if got != want:
        at = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), len(got))
        return f'frame {at} of the trace is item {got[at] if at < len(got) else "none"}, expected item {want[at]}'
    slot = 1 / fps
    worst_boundary = worst_inside = 0.0
    for k in range(1, len(want)):
        a, b = shown[k - 1], shown[k]
        step = b['time'] - a['time']
        if abs(step - slot) > 0.001:
            return f'frame {k} (item {b["item"]}) is {step * 1000:.1f} ms after the last on the timeline, expected {slot * 1000:.1f}'
        wall = b['t'] - a['t']
        if k % frames == 0:
            worst_boundary = max(worst_boundary, wall)
        else:
            worst_inside = max(worst_inside, wall)
    if max(worst_boundary, worst_inside) >= 2 * slot:
        return (f'a wall-clock gap of {max(worst_boundary, worst_inside) * 1000:.0f} ms between frames '
                f'(at item boundaries up to {worst_boundary * 1000:.0f} ms, inside items {worst_inside * 1000:.0f} ms)')
    print(f'{len(want)} frames in {rounds} rounds, every slot filled; largest wall-clock step '
          f'{worst_boundary * 1000:.0f} ms at item boundaries, {worst_inside * 1000:.0f} ms inside items')
    return None


def check_probe_json(path, driver):
    """None when the probe's JSON holds the card as the VM offers it; else what is wrong."""
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as error:
        return f'{path}: not JSON: {error}'
    missing = {'display', 'audio', 'inputDevices'} - set(report)
    if missing:
        return f'keys {sorted(missing)} missing (have {sorted(report)})'
    cards = report['display'].get('cards', [])
    if len(cards) != 1 or 'error' in cards[0]:
        return f'want one readable card, got {cards}'
    card = cards[0]
    if card.get('path') != '/dev/dri/card0' or card.get('driver') != driver:
        return f"card {card.get('path')} driver {card.get('driver')!r} (want /dev/dri/card0, {driver!r})"
    connector = next((c for c in card.get('connectors', []) if c.get('name') == 'Virtual-1'), None)
    if connector is None or connector.get('status') != 'connected':
        return f"Virtual-1 not connected: {card.get('connectors')}"
    if not str(connector.get('preferredMode')).startswith('1280x800@') or '1024x768@60' not in connector.get('modes', []):
        return f"Virtual-1 preferred {connector.get('preferredMode')}, modes {connector.get('modes')}"
    if not card.get('crtcs'):
        return 'no CRTCs'
    if not any(p.get('type') == 'primary' and 'XR24' in p.get('formats', []) for p in card.get('planes', [])):
        return f"no primary plane taking XR24: {card.get('planes')}"
    if any(not isinstance(p.get('rotations'), list) or not isinstance(p.get('scalingFilters'), list) for p in card['planes']):
        return 'a plane without rotations or scalingFilters lists'
    print(f"{driver}, Virtual-1 {connector['preferredMode']} and {len(connector['modes'])} modes, "
          f"{len(card['crtcs'])} CRTC(s), {len(card['planes'])} plane(s)")
    return None


def check_legacy_drops(path):
    """The legacy clip: >= 90 frame events and none dropped, except catch-up bursts right after a
    stall of the whole guest (nothing presented for >= 100 ms, as TCG or the 9p share sometimes
    pause it), no more in all than the frames that fell due in its stall (a catch-up may show a
    frame or two between its drops). Flip pacing that cannot keep up drops frames with no stall
    before them, and still fails."""
    frames = [json.loads(line) for line in open(path) if '"event":"frame"' in line]
    if len(frames) < 90:
        return f'{len(frames)} frame events (want >= 90)'
    dropped = [i for i, f in enumerate(frames) if f.get('dropped')]
    if not dropped:
        print(f'{len(frames)} clip frames flipped with none dropped')
        return None
    bursts = []
    for i in dropped:
        if bursts and i == bursts[-1][-1] + 1:
            bursts[-1].append(i)
        else:
            bursts.append([i])
    explained = []
    # What the last stall still explains: its catch-up may show a frame between drops (a clean-clone
    # run: 3 dropped after a 150 ms stall, one shown, then one more dropped 3 ms later).
    allowance, last_end = 0, None
    for burst in bursts:
        first = burst[0]
        if first == 0:
            return f'{len(dropped)} of {len(frames)} frames dropped, the first one among them (at frames {dropped[:10]})'
        stall = frames[first]['t'] - frames[first - 1]['t']
        due = round(stall / (1 / 30)) + 1
        if stall < 0.1 and last_end is not None and first - last_end <= 3 and len(burst) <= allowance:
            allowance -= len(burst)
            last_end = burst[-1]
            explained.append(f'{len(burst)} more in the same catch-up')
            continue
        if stall < 0.1 or len(burst) > due:
            return (f'{len(burst)} frames dropped at frames {burst[:10]} after {stall * 1000:.0f} ms without a frame '
                    f'(a stall is >= 100 ms and explains at most {due}); all dropped: {dropped[:10]}')
        allowance, last_end = due - len(burst), burst[-1]
        explained.append(f'{len(burst)} after a {stall * 1000:.0f} ms stall')
    print(f'{len(frames)} clip frames flipped; {len(dropped)} dropped in {len(bursts)} burst(s), each after the guest stalled: '
          + ', '.join(explained))
    return None


def main():
    if len(sys.argv) == 4 and sys.argv[1] == 'picture' and sys.argv[2] in GEOMETRY:
        problem = check_picture(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == 'gone':
        problem = check_gone(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == 'clip':
        problem = check_clip(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == 'gone-clip':
        problem = check_gone_clip(sys.argv[2])
    elif len(sys.argv) == 7 and sys.argv[1] == 'gapless':
        problem = check_gapless(sys.argv[2], *map(int, sys.argv[3:7]))
    elif len(sys.argv) == 4 and sys.argv[1] == 'screenshot-matches':
        problem = check_screenshot_matches(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == 'legacy-drops':
        problem = check_legacy_drops(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == 'probe-json':
        problem = check_probe_json(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)
    if problem:
        print(problem)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
