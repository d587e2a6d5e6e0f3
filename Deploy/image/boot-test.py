#!/usr/bin/env python3
"""Boots Marquee's boot image (Deploy/image/build-image.sh) under QEMU/TCG and checks that it plays.

usage: Deploy/image/boot-test.py [--gpu std|virtio] [--smp N] [--timeout S] [--runs N] [--json FILE]

The kernel command line carries marquee.selftest=1: the image's /init kills marquee with SIGKILL
after its first frame and powers off after the restarted player's first frame. Measured, all in
guest time (/proc/uptime, CLOCK_BOOTTIME, as the guest's own lines report it):
  boot -> first frame   marquee's "first frame on screen ... (uptime X s)" line; goal < 3 s
  restart latency       from the kill to the supervisor starting marquee again; must be < 1 s
  kill -> first frame   from the kill to the restarted player's first frame
and a QMP screendump after the first frame must show a picture (not a black or text screen).
Prints PASS/FAIL lines and the figures; exit 0 only when everything passed. The 3 s goal is
printed as MISS (not a pass, not a failure) when missed but within --max-first-frame. --runs N repeats the
boot and reports each run (the first-frame goal is checked on the median).
"""
import argparse, importlib.util, json, os, re, statistics, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..'))
spec = importlib.util.spec_from_file_location('run_guest', os.path.join(REPO, 'Deploy', 'vm', 'run-guest.py'))
rg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rg)


def build():
    p = subprocess.run([os.path.join(HERE, 'build-image.sh')], stdout=subprocess.PIPE, timeout=1800)
    if p.returncode != 0:
        sys.exit('FAIL: build-image.sh failed')
    m = re.search(r'VMLINUX=(\S+) INITRD=(\S+)', p.stdout.decode())
    return m.groups()


def ppm_stats(path):
    """Distinct colours and the share of non-black pixels in a binary PPM."""
    data = open(path, 'rb').read()
    parts, i = [], 0
    while len(parts) < 4:
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        parts.append(data[i:j]); i = j
    w, h = int(parts[1]), int(parts[2])
    px = data[i + 1:i + 1 + w * h * 3]
    colours, lit = set(), 0
    for k in range(0, len(px), 3 * 7):   # a sample of the pixels is enough
        c = px[k:k + 3]
        colours.add(c)
        lit += c != b'\0\0\0'
    return w, h, len(colours), lit / max(1, len(px) // 21)


def boot_once(vmlinux, initrd, gpu, smp, timeout, workdir):
    qmp_path = os.path.join(tempfile.mkdtemp(prefix='mimg-'), 'qmp.sock')
    cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-machine', 'pc', '-m', '1024', '-smp', str(smp),
           '-no-reboot', '-nodefaults', '-display', 'none', '-serial', 'stdio', '-monitor', 'none',
           '-qmp', f'unix:{qmp_path},server=on,wait=off', '-kernel', vmlinux, '-initrd', initrd,
           '-append', 'console=ttyS0 quiet loglevel=3 panic=-1 consoleblank=0 vt.global_cursor_default=0 marquee.selftest=1',
           ] + rg.GPU[gpu]
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True, preexec_fn=rg._die_with_parent)
    lines, cv = [], threading.Condition()
    log = open(os.path.join(workdir, 'serial.log'), 'w')

    def reader():
        for raw in p.stdout:
            line = raw.decode(errors='replace').rstrip('\r\n')
            log.write(f'{time.monotonic() - t0:7.2f} {line}\n'); log.flush()
            with cv:
                lines.append(line); cv.notify_all()
    threading.Thread(target=reader, daemon=True).start()
    qmp = None
    deadline = time.monotonic() + 10
    while qmp is None and time.monotonic() < deadline:
        try:
            qmp = rg.QMP(qmp_path)
        except Exception:
            time.sleep(0.05)

    def wait_for(pattern, start=0):
        end = time.monotonic() + timeout
        with cv:
            i = start
            while time.monotonic() < end and p.poll() is None:
                while i < len(lines):
                    m = re.search(pattern, lines[i]); i += 1
                    if m:
                        return m, i
                cv.wait(0.2)
        return None, len(lines)

    result = {}
    try:
        m, i = wait_for(r'first frame on screen .*\(uptime ([0-9.]+) s\)')
        if not m:
            return result
        result['first_frame'] = float(m.group(1))
        if qmp:
            shot = os.path.join(workdir, 'first-frame.ppm')
            qmp.screendump(shot)
            result['screen'] = ppm_stats(shot)
        m, i = wait_for(r'MARQUEE-IMAGE: killed .* t=([0-9.]+)', i)
        if not m:
            return result
        result['killed'] = float(m.group(1))
        m, i = wait_for(r'MARQUEE-IMAGE: start marquee t=([0-9.]+)', i)
        if m:
            result['restarted'] = float(m.group(1))
        m, i = wait_for(r'first frame on screen .*\(uptime ([0-9.]+) s\)', i)
        if m:
            result['second_first_frame'] = float(m.group(1))
        for name in ('init', 'display-ready'):
            mm = [re.search(rf'MARQUEE-IMAGE: {name} t=([0-9.]+)', l) for l in lines]
            mm = [x for x in mm if x]
            if mm:
                result[name] = float(mm[0].group(1))
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
        result['wall'] = round(time.monotonic() - t0, 2)
        return result
    finally:
        if p.poll() is None:
            os.killpg(p.pid, 9); p.wait()
        if qmp:
            qmp.close()
        log.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--gpu', default='std', choices=['std', 'virtio'])
    ap.add_argument('--smp', type=int, default=2)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--runs', type=int, default=1)
    ap.add_argument('--json')
    ap.add_argument('--max-first-frame', type=float, default=20,
                    help='fail beyond this (s); between the 3 s goal and this the goal is reported as missed')
    a = ap.parse_args()
    vmlinux, initrd = build()
    cache = os.environ.get('MARQUEE_VM_CACHE', os.path.join(REPO, '.build-vm-image'))
    fail = False
    runs = []

    def check(ok, text):
        nonlocal fail
        print(('PASS: ' if ok else 'FAIL: ') + text, flush=True)
        fail |= not ok

    print(f'INFO: image {initrd} ({os.path.getsize(initrd) / 1e6:.0f} MB), gpu {a.gpu}, {a.smp} vCPU(s), TCG', flush=True)
    for n in range(a.runs):
        workdir = os.path.join(cache, 'image', f'boot-{n}')
        os.makedirs(workdir, exist_ok=True)
        r = boot_once(vmlinux, initrd, a.gpu, a.smp, a.timeout, workdir)
        runs.append(r)
        tag = f'run {n + 1}: '
        if 'first_frame' not in r:
            check(False, tag + f'no first frame within {a.timeout:.0f} s (see {workdir}/serial.log)')
            continue
        print(f'INFO: {tag}/init at {r.get("init", 0):.2f} s, display driver loaded at {r.get("display-ready", 0):.2f} s, '
              f'first frame at {r["first_frame"]:.2f} s guest time', flush=True)
        if 'screen' in r:
            w, h, colours, lit = r['screen']
            check(colours > 8 and lit > 0.2, tag + f'the screen shows the clip after the first frame ({w}x{h}, {colours} colours, {lit:.0%} lit)')
        check('killed' in r and 'restarted' in r and r['restarted'] - r['killed'] < 1.0,
              tag + 'killed with SIGKILL, the supervisor restarts marquee within 1 s'
              + (f' ({r["restarted"] - r["killed"]:.2f} s)' if 'restarted' in r and 'killed' in r else ''))
        check('second_first_frame' in r,
              tag + 'the restarted player shows its first frame'
              + (f' {r["second_first_frame"] - r["killed"]:.2f} s after the kill' if 'second_first_frame' in r else ''))
    firsts = [r['first_frame'] for r in runs if 'first_frame' in r]
    if firsts:
        median = statistics.median(firsts)
        text = f'boot -> first frame {median:.2f} s guest time (median of {len(firsts)}; goal < 3 s)'
        if median < 3.0:
            check(True, text)
        else:
            # Under TCG the kernel alone reaches /init at ~3.5 s with this image: report, not fail.
            print('MISS: ' + text, flush=True)
            check(median < a.max_first_frame, f'boot -> first frame within {a.max_first_frame:.0f} s')
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(runs, f, indent=1)
    sys.exit(1 if fail else 0)


if __name__ == '__main__':
    main()
