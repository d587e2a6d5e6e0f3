#!/usr/bin/env python3
"""Checks QMP screendumps (binary PPM) of the two heads of a virtio-gpu with max_outputs=2.

usage: multiscreen-check.py picture DUMP.ppm W H X Y PW PH BG COLOUR...
           -> the head is W x H; every sample inside the PW x PH picture at (X, Y) is one of the
              COLOURs (#RRGGBB), every sample outside it is BG (tolerance 24: H.264's YUV rounding)
       multiscreen-check.py index DUMP.ppm X Y PW PH
           -> prints the frame index the picture at (X, Y), PW x PH, shows: the frame-index pattern
              of Tests/MarqueeMediaTests/Support/FrameIndexCodec.swift (320x240, a 4x4 grid of
              64x48 blocks inside a 32x24 margin, block k white when bit k of the index is set)
       multiscreen-check.py gone DUMP.ppm COLOUR...
           -> under 5% of the samples are any of the COLOURs: the picture is no longer on screen
       multiscreen-check.py gapless EVENTS.jsonl ITEMS FRAMES FPS ROUNDS [SKIP]
           -> after SKIP rounds of warm-up, ROUNDS rounds of ITEMS items of FRAMES frames in the --trace-frames log are
              in order, each 1/FPS after the last on the timeline, and presented, but for what a
              stall of the whole guest explains (see check_gapless)
       multiscreen-check.py paused-frames EVENTS.jsonl FRAMES FPS
           -> prints, for each pause, the index (within an item of FRAMES frames) of the last frame
              presented before it
"""
import json
import sys

TOLERANCE = 24
MARGIN = 6  # samples this close to a picture edge are skipped (scaler filter taps blur it)


def _drm_check():
    """drm-check.py, next to this file, for its PPM reader (its name is not an importable one)."""
    import importlib.util, os
    spec = importlib.util.spec_from_file_location('drm_check', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'drm-check.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


read_ppm = _drm_check().read_ppm


def colour(text):
    text = text.lstrip('#')
    return tuple(int(text[k:k + 2], 16) for k in (0, 2, 4))


def pixel(w, pixels, x, y):
    k = (y * w + x) * 3
    return tuple(pixels[k:k + 3])


def matches(got, want):
    return all(abs(a - b) <= TOLERANCE for a, b in zip(got, want))


def samples(w, h, step=8):
    for y in range(step // 2, h, step):
        for x in range(step // 2, w, step):
            yield x, y


def check_picture(path, w, h, x0, y0, pw, ph, bg, colours):
    gw, gh, pixels = read_ppm(path)
    if (gw, gh) != (w, h):
        return f'the head is {gw}x{gh}, expected {w}x{h}'
    wrong_in = wrong_out = inside = outside = 0
    first = None
    for x, y in samples(w, h):
        got = pixel(w, pixels, x, y)
        in_x, in_y = x0 <= x < x0 + pw, y0 <= y < y0 + ph
        near_edge = (abs(x - x0) < MARGIN or abs(x - x0 - pw) < MARGIN or abs(y - y0) < MARGIN or abs(y - y0 - ph) < MARGIN)
        if near_edge:
            continue
        if in_x and in_y:
            inside += 1
            if not any(matches(got, c) for c in colours):
                wrong_in += 1
                first = first or f'({x},{y}) is {got} inside the picture'
        else:
            outside += 1
            if not matches(got, bg):
                wrong_out += 1
                first = first or f'({x},{y}) is {got} outside the picture, expected the background {bg}'
    if wrong_in or wrong_out:
        return f'{wrong_in} of {inside} samples inside and {wrong_out} of {outside} outside are wrong; first: {first}'
    print(f'{w}x{h}: {inside} samples of the picture at ({x0},{y0}) {pw}x{ph}, {outside} of the background')
    return None


def frame_index(path, x0, y0, pw, ph):
    w, h, pixels = read_ppm(path)
    index = 0
    for bit in range(16):
        column, row = bit % 4, bit // 4
        cx = (32 + column * 64 + 32) / 320 * pw + x0
        cy = (24 + row * 48 + 24) / 240 * ph + y0
        total = 0
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                total += sum(pixel(w, pixels, int(cx) + dx, int(cy) + dy))
        if total / 27 > 128:
            index |= 1 << bit
    return index


def check_gone(path, colours):
    w, h, pixels = read_ppm(path)
    hits = total = 0
    for x, y in samples(w, h):
        total += 1
        if any(matches(pixel(w, pixels, x, y), c) for c in colours):
            hits += 1
    if hits > total * 0.05:
        return f'{hits} of {total} samples still show the picture ({w}x{h})'
    print(f'{w}x{h}: {hits} of {total} samples in the picture\'s colours')
    return None


def load_events(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


STALL = 0.1      # no frame event for this long: the whole guest was paused (TCG on a loaded host)
STALL_REACH = 0.5  # a stall explains drops this long after it


def check_gapless(path, items, frames, fps, rounds, skip=0):
    """The first rounds * items * frames frame events: each item's frames in order, each one slot
    after the last on the timeline (no gap, no repeat, at item boundaries and loop points too), and
    every one presented. What a stall of the whole guest (no frame event for >= 100 ms; TCG on a
    loaded host pauses it, every screen at once) explains is allowed and counted: frames dropped
    within 0.5 s after it, and an item whose first frame came two slots late or more starting its
    beat when it is on screen (the engine's rule for a slow first draw). A screen that cannot keep
    up drops frames with no stall before them, and fails."""
    events = load_events(path)
    want = [i for _ in range(rounds) for i in range(items) for _ in range(frames)]
    # The first `skip` rounds are the warm-up (libraries paged in over 9p, first draws, the other
    # screen starting): checked for order and continuity with the rest, not for drops.
    shown = [e for e in events if e['event'] == 'frame'][skip * items * frames:][:len(want)]
    got = [e['item'] for e in shown]
    if got != want:
        at = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), len(got))
        return f'frame {at} of the trace is item {got[at] if at < len(got) else "none"}, expected item {want[at]}'
    slot = 1 / fps
    stalls = [shown[k]['t'] for k in range(1, len(shown)) if shown[k]['t'] - shown[k - 1]['t'] >= STALL]
    def after_stall(k):
        return any(0 <= shown[k]['t'] - t <= STALL_REACH for t in stalls)
    late_starts = dropped = worst = 0
    for k in range(1, len(want)):
        a, b = shown[k - 1], shown[k]
        step, wall = b['time'] - a['time'], b['t'] - a['t']
        worst = max(worst, wall)
        if abs(step - slot) <= 0.001:
            pass
        elif k % frames == 0 and step > slot and wall >= 2 * slot - 0.001:
            late_starts += 1
        else:
            return (f'frame {k} is {step * 1000:.1f} ms after the last on the timeline, expected {slot * 1000:.1f} '
                    f'(wall-clock step {wall * 1000:.0f} ms)')
    for k, e in enumerate(shown):
        if e.get('dropped'):
            if k == 0 or not after_stall(k):
                return (f'frame {k} (timeline {e["time"]:.2f} s) dropped with no stall of the guest in the '
                        f'{STALL_REACH * 1000:.0f} ms before it; {sum(1 for f in shown if f.get("dropped"))} of {len(want)} dropped')
            dropped += 1
    print(f'{len(want)} frames in {rounds} rounds{f" after {skip} round(s) of warm-up" if skip else ""}, every slot in order, largest wall-clock step {worst * 1000:.0f} ms; '
          + (f'{dropped} dropped and {late_starts} late item start(s), all after {len(stalls)} stall(s) of the guest'
             if dropped or late_starts else 'none dropped'))
    return None


def paused_frames(path, frames, fps):
    last, indices = None, []
    for e in load_events(path):
        if e['event'] == 'frame' and not e.get('dropped'):
            last = round(e['pts'] * fps) % frames
        elif e['event'] == 'playbackStateChanged' and e.get('state') == 'paused':
            indices.append(last)
    return indices


def main():
    args = sys.argv[1:]
    if len(args) >= 10 and args[0] == 'picture':
        problem = check_picture(args[1], *map(int, args[2:8]), colour(args[8]), [colour(c) for c in args[9:]])
    elif len(args) == 6 and args[0] == 'index':
        print(frame_index(args[1], *map(int, args[2:6])))
        return
    elif len(args) in (6, 7) and args[0] == 'gapless':
        problem = check_gapless(args[1], *map(int, args[2:]))
    elif len(args) == 4 and args[0] == 'paused-frames':
        print(' '.join(str(i) for i in paused_frames(args[1], int(args[2]), int(args[3]))))
        return
    elif len(args) >= 3 and args[0] == 'gone':
        problem = check_gone(args[1], [colour(c) for c in args[2:]])
    else:
        raise SystemExit(__doc__)
    if problem:
        print(problem)
        sys.exit(1)


if __name__ == '__main__':
    main()
