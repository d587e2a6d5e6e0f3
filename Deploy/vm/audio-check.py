#!/usr/bin/env python3
"""Checks the WAV qemu wrote from the guest's intel-hda against the marquee event trace.

  audio-check.py tone WAV                 a 1 kHz tone is in the WAV (prints its length and frequency)
  audio-check.py tones WAV                every sound over 0.5 s, in order, as SECONDS@HZ
  audio-check.py seconds WAV HZ           seconds of sound at HZ (within 3 %: a tone cut and resumed mid-wave reads a little low), however often it stops
  audio-check.py sync WAV EVENTS.jsonl    each beep's onset in the WAV against the presentation time
                                          (`t`) of the flash frame with the same pts in the trace

qemu's wav audiodev writes at the guest's consumption rate and starts with qemu, so the WAV and the
trace share no zero: the check aligns the first beep with the first flash and requires every later
beep to sit within one frame (33 ms) of its flash, i.e. no drift or jitter between what was heard
and what was shown. The constant offset (device latency plus the unknown start) is printed only.
Exit 0 on success, 1 with a reason on stdout otherwise.
"""
import json, math, struct, sys, wave

def read(path):
    with wave.open(path, 'rb') as w:
        rate, channels, width, count = w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes()
        data = w.readframes(count)
    if width != 2:
        sys.exit(f'unexpected sample width {width}')
    samples = struct.unpack(f'<{len(data) // 2}h', data)
    return rate, [samples[i] / 32768 for i in range(0, len(samples), channels)]

def bursts(left, rate, threshold=0.05, gap=0.2):
    """(start, end) sample indices of sound separated by at least `gap` s of quiet."""
    found, start, last = [], None, None
    for i, x in enumerate(left):
        if abs(x) > threshold:
            if start is None or i - last > gap * rate:
                if start is not None:
                    found.append((start, last))
                start = i
            last = i
    if start is not None:
        found.append((start, last))
    return found

def frequency(left, rate, a, b):
    crossings = sum(1 for i in range(a + 1, b) if (left[i - 1] < 0) != (left[i] < 0))
    return crossings / 2 / ((b - a) / rate)

def tone(path):
    rate, left = read(path)
    found = [(a, b) for a, b in bursts(left, rate) if b - a > rate * 0.5]
    if not found:
        print(f'no tone: peak {max((abs(x) for x in left), default=0):.4f} in {len(left) / rate:.2f} s')
        return 1
    a, b = found[0]
    f = frequency(left, rate, a, b)
    if abs(f - 1000) > 5:
        print(f'a sound of {(b - a) / rate:.3f} s at {f:.1f} Hz, not 1 kHz')
        return 1
    print(f'tone {(b - a) / rate:.3f} s at {f:.1f} Hz, peak {max(abs(x) for x in left[a:b]):.3f}')
    return 0

def sync(path, events):
    rate, left = read(path)
    beeps = [a / rate for a, b in bursts(left, rate, gap=0.5) if 0.01 * rate < b - a < 0.1 * rate]
    flashes = {}
    for line in open(events):
        e = json.loads(line)
        if e.get('event') == 'frame' and not e.get('dropped') and abs(e['pts'] - round(e['pts'])) < 0.001:
            flashes.setdefault(round(e['pts']), e['t'])
    shown = [flashes[k] for k in sorted(flashes)]
    if len(beeps) < 3 or len(shown) < 3:
        print(f'{len(beeps)} beeps in the WAV, {len(shown)} flash frames in the trace (need 3+ each)')
        return 1
    # The last beeps of the file can be cut by power-off; compare what both have.
    n = min(len(beeps), len(shown))
    if len(beeps) != len(shown):
        print(f'note: {len(beeps)} beeps, {len(shown)} flashes; comparing the first {n}')
    errors = [(beeps[k] - beeps[0]) - (shown[k] - shown[0]) for k in range(n)]
    worst = max(abs(e) for e in errors)
    summary = (f'{n} beeps; beep − flash relative to the first: worst {worst * 1000:.1f} ms '
               f'[{", ".join(f"{e * 1000:+.1f}" for e in errors)}]; constant offset WAV−trace {(beeps[0] - shown[0]) * 1000:.0f} ms')
    print(summary)
    return 0 if worst <= 0.033 else 1

def tones(path):
    """Every sound longer than 0.5 s in the WAV, as SECONDS@HZ, in order."""
    rate, left = read(path)
    found = [(a, b) for a, b in bursts(left, rate) if b - a > rate * 0.5]
    print(' '.join(f'{(b - a) / rate:.3f}@{frequency(left, rate, a, b):.1f}' for a, b in found))
    return 0

def seconds(path, hz):
    """The length of every sound at `hz`, added up: a tone interrupted and resumed counts whole."""
    rate, left = read(path)
    total = sum(b - a for a, b in bursts(left, rate, gap=0.02)
                if b - a > rate * 0.05 and abs(frequency(left, rate, a, b) - hz) < hz * 0.03)
    print(f'{total / rate:.3f}')
    return 0

if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'seconds':
        sys.exit(seconds(sys.argv[2], float(sys.argv[3])))
    if len(sys.argv) == 3 and sys.argv[1] == 'tones':
        sys.exit(tones(sys.argv[2]))
    if len(sys.argv) == 3 and sys.argv[1] == 'tone':
        sys.exit(tone(sys.argv[2]))
    if len(sys.argv) == 4 and sys.argv[1] == 'sync':
        sys.exit(sync(sys.argv[2], sys.argv[3]))
    sys.exit(__doc__)
