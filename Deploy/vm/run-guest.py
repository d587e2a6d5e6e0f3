#!/usr/bin/env python3
"""Boot Debian's kernel under QEMU (TCG) and run one host command inside the guest.

usage: run-guest.py [--gpu std|virtio|std1080|virtio1080|virtio2] [--timeout S] [--share DIR] [--mem MB]
                    [--smp N] [--env K=V]... [--cwd DIR] [--json FILE] [--verbose] -- COMMAND [ARG...]

The guest mounts the host's / read-only over 9p and chroots into it, so COMMAND (e.g. the freshly
built `marquee`) runs with all its libraries unchanged, but against the guest kernel's real drivers
(/dev/dri/card0 from bochs-drm or virtio-gpu, evdev, ...). The guest's /tmp, /run, /var/tmp are
empty tmpfs; the host's are not visible there.

--share DIR (default: a fresh directory under the image cache) is mounted read-write in the guest at
the same absolute path, so host paths under it work unchanged; $MVM_SHARE names it in the guest.
The command's stdout/stderr are copied to ours; our exit status is the command's, or
124 on timeout (the guest is killed), 125 when the harness or guest failed before reporting.

Screendumps: a guest command can run `$MVM_SHARE/.mvm/screendump NAME`; the host then saves the
guest screen to $MVM_SHARE/NAME.ppm (QMP screendump, exact pixels) before the call returns.
From Python, Guest(...).screendump(path) does the same at a host-chosen moment.

Keys: `$MVM_SHARE/.mvm/sendkey QCODE...` (e.g. `kp_3 kp_enter`, `audionext`, `spc`) makes the host press
and release each key in turn through QMP input-send-event; from Python, Guest(...).send_keys([...]).
Any QMP command: `$MVM_SHARE/.mvm/qmp '{"execute": ..., "arguments": {...}}'` prints its JSON return.
Devices: --keyboard virtio|usb|both adds a virtio keyboard and/or a USB keyboard on xhci (media keys
reach the guest through virtio only); --sound-wav FILE adds intel-hda whose output qemu writes to FILE
(48 kHz); --qemu-arg=ARG passes anything else.
"""
import argparse, ctypes, json, os, re, shlex, shutil, signal, socket, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, '..', '..'))
CACHE = os.environ.get('MARQUEE_VM_CACHE', os.path.join(REPO, '.build-vm-image'))

GPU = {
    'std': ['-vga', 'std'],                                                   # bochs-drm
    'virtio': ['-vga', 'none', '-device', 'virtio-gpu-pci'],                  # virtio_gpu
    'std1080': ['-vga', 'none', '-device', 'VGA,xres=1920,yres=1080,vgamem_mb=64'],
    'virtio1080': ['-vga', 'none', '-device', 'virtio-gpu-pci,xres=1920,yres=1080'],
    # Two heads (Virtual-1, Virtual-2); QMP screendump takes device gpu0 and head 1 for the second.
    'virtio2': ['-vga', 'none', '-device', 'virtio-gpu-pci,max_outputs=2,id=gpu0'],
    'none': ['-vga', 'none'],
}
EXIT_TIMEOUT, EXIT_HARNESS = 124, 125

GUEST_SCREENDUMP = r'''#!/bin/sh
# Ask the host for a QMP screendump of the guest screen into $MVM_SHARE/NAME.ppm; waits up to 20 s.
name=${1:?usage: screendump NAME}
rm -f "$MVM_SHARE/$name.ppm.done"
echo "MVM:SCREENDUMP $name" > /dev/console
i=0
while [ ! -e "$MVM_SHARE/$name.ppm.done" ]; do
  i=$((i + 1)); [ $i -le 200 ] || { echo "screendump: host did not answer" >&2; exit 1; }
  sleep 0.1
done
[ "$(cat "$MVM_SHARE/$name.ppm.done")" = ok ]
'''


GUEST_REQUEST = r'''#!/bin/sh
# Ask the host to run a request (MVM:KIND NAME with the argument in $MVM_SHARE/.mvm/NAME.req);
# waits up to 20 s for NAME.done, prints what the host answered after "ok ", fails on "error ...".
kind=$1; shift
n=req-$$-$(date +%s%N)
printf '%s' "$*" > "$MVM_SHARE/.mvm/$n.req"
echo "MVM:$kind $n" > /dev/console
i=0
while [ ! -e "$MVM_SHARE/.mvm/$n.done" ]; do
  i=$((i + 1)); [ $i -le 200 ] || { echo "$kind: host did not answer" >&2; exit 1; }
  sleep 0.05
done
answer=$(cat "$MVM_SHARE/.mvm/$n.done"); rm -f "$MVM_SHARE/.mvm/$n.req" "$MVM_SHARE/.mvm/$n.done"
case $answer in ok*) [ "$answer" = ok ] || echo "${answer#ok }";; *) echo "$kind: $answer" >&2; exit 1;; esac
'''

KEYBOARD = {
    'virtio': ['-device', 'virtio-keyboard-pci'],
    'usb': ['-device', 'qemu-xhci,id=xhci', '-device', 'usb-kbd,bus=xhci.0'],
}
KEYBOARD['both'] = KEYBOARD['virtio'] + KEYBOARD['usb']


def sound_wav(path):
    """intel-hda with one output codec whose samples qemu writes to a WAV file on the host."""
    return ['-audiodev', f'wav,id=snd0,path={os.path.abspath(path)},out.frequency=48000',
            '-device', 'intel-hda', '-device', 'hda-output,audiodev=snd0']


def _die_with_parent():
    """preexec: qemu gets SIGKILL if we die (even by SIGKILL), so a hung guest never outlives us."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


class HarnessError(Exception):
    pass


def build_image():
    """Run build-initramfs.sh (cached: instant when nothing changed); return (kver, vmlinux, initrd)."""
    p = subprocess.run([os.path.join(HERE, 'build-initramfs.sh')], stdout=subprocess.PIPE, timeout=300)
    if p.returncode != 0:
        raise HarnessError('build-initramfs.sh failed')
    m = re.search(r'KVER=(\S+) VMLINUX=(\S+) INITRD=(\S+)', p.stdout.decode())
    if not m:
        raise HarnessError('build-initramfs.sh printed no image paths')
    return m.groups()


class QMP:
    """Minimal QMP client over a unix socket, with a timeout on every reply."""
    def __init__(self, path, timeout=10):
        self.lock = threading.Lock()
        self.s = socket.socket(socket.AF_UNIX)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.f = self.s.makefile('rw')
        self.f.readline()  # greeting
        self.cmd('qmp_capabilities')

    def cmd(self, name, **args):
        with self.lock:
            self.f.write(json.dumps({'execute': name, 'arguments': args}) + '\n')
            self.f.flush()
            while True:
                line = self.f.readline()
                if not line:
                    raise HarnessError('QMP connection closed')
                r = json.loads(line)
                if 'return' in r:
                    return r['return']
                if 'error' in r:
                    raise HarnessError(f'QMP {name}: {r["error"].get("desc", r["error"])}')

    def screendump(self, path):
        """Save the guest screen as a binary PPM (P6) at path (written by qemu; absolute path)."""
        self.cmd('screendump', filename=os.path.abspath(path))
        return path

    def send_keys(self, qcodes, hold=0.05, gap=0.05):
        """Press and release each key (a QEMU qcode such as 'kp_3', 'audionext', 'spc') in turn."""
        for code in qcodes:
            for down in (True, False):
                self.cmd('input-send-event', events=[
                    {'type': 'key', 'data': {'down': down, 'key': {'type': 'qcode', 'data': code}}}])
                time.sleep(hold if down else gap)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


class Guest:
    """One guest running one command. Use as a context manager; the qemu process never outlives it."""

    def __init__(self, argv, gpu='std', share=None, mem=1024, smp=1, env=(), cwd=None,
                 verbose=False, extra_qemu=()):
        if gpu not in GPU:
            raise HarnessError(f'unknown --gpu {gpu} (one of {", ".join(GPU)})')
        if not shutil.which('qemu-system-x86_64'):
            raise HarnessError('qemu-system-x86_64 not found; run Deploy/vm/install-deps.sh')
        self.kver, vmlinux, initrd = build_image()
        os.makedirs(CACHE, exist_ok=True)
        self.own_share = share is None   # a share we created is removed after a successful run
        self.share = os.path.abspath(share or tempfile.mkdtemp(prefix='share-', dir=CACHE))
        self.mvm = os.path.join(self.share, '.mvm')
        os.makedirs(self.mvm, exist_ok=True)
        for f in ('stdout', 'stderr', 'rc'):
            try:
                os.unlink(os.path.join(self.mvm, f))
            except FileNotFoundError:
                pass
        with open(os.path.join(self.mvm, 'hostpath'), 'w') as f:
            f.write(self.share + '\n')
        with open(os.path.join(self.mvm, 'screendump'), 'w') as f:
            f.write(GUEST_SCREENDUMP)
        os.chmod(os.path.join(self.mvm, 'screendump'), 0o755)
        for name, kind in (('sendkey', 'KEYS'), ('qmp', 'QMP')):
            with open(os.path.join(self.mvm, name), 'w') as f:
                f.write(GUEST_REQUEST.replace('kind=$1; shift', f'kind={kind}'))
            os.chmod(os.path.join(self.mvm, name), 0o755)
        envs = {'PATH': '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'HOME': '/tmp',
                'LANG': 'C.UTF-8', 'TERM': 'dumb', 'MVM_SHARE': self.share}
        for kv in env:
            k, _, v = kv.partition('=')
            envs[k] = v
        script = ['#!/bin/sh']
        script += [f'export {k}={shlex.quote(v)}' for k, v in envs.items()]
        script.append(f'cd {shlex.quote(os.path.abspath(cwd or os.getcwd()))} || exit 126')
        script.append('exec ' + shlex.join(argv))
        with open(os.path.join(self.mvm, 'guest.sh'), 'w') as f:
            f.write('\n'.join(script) + '\n')

        self.verbose = verbose
        self.lines, self.cv = [], threading.Condition()
        self.marks = {}
        self.sockdir = tempfile.mkdtemp(prefix='mvm-')  # short path: unix sockets are limited to 108 bytes
        self.qmp_path = os.path.join(self.sockdir, 'qmp.sock')
        cmd = ['qemu-system-x86_64', '-accel', 'tcg', '-machine', 'pc', '-m', str(mem), '-smp', str(smp),
               '-no-reboot', '-nodefaults', '-display', 'none', '-serial', 'stdio', '-monitor', 'none',
               '-qmp', f'unix:{self.qmp_path},server=on,wait=off',
               '-kernel', vmlinux, '-initrd', initrd,
               '-append', 'console=ttyS0 quiet loglevel=3 panic=-1',
               '-device', 'isa-debug-exit,iobase=0xf4,iosize=0x04',
               '-virtfs', f'local,path={self.share},mount_tag=mvmshare,security_model=none,id=mvmshare',
               '-virtfs', 'local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap,id=hostroot',
               ] + GPU[gpu] + list(extra_qemu)
        self.t0 = time.monotonic()
        self.serial_log = open(os.path.join(self.mvm, 'serial.log'), 'w')
        self.p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, start_new_session=True,
                                  preexec_fn=_die_with_parent)
        threading.Thread(target=self._reader, daemon=True).start()
        self.qmp = None
        deadline = time.monotonic() + 10
        while self.qmp is None:
            try:
                self.qmp = QMP(self.qmp_path)
            except (OSError, HarnessError):
                if self.p.poll() is not None or time.monotonic() > deadline:
                    self.kill()
                    raise HarnessError(f'qemu did not start (exit {self.p.returncode}); see {self.mvm}/serial.log')
                time.sleep(0.05)

    def _reader(self):
        for raw in self.p.stdout:
            line = raw.decode(errors='replace').rstrip('\r\n')
            self.serial_log.write(f'{time.monotonic() - self.t0:7.2f} {line}\n')
            self.serial_log.flush()
            if self.verbose:
                print(f'[guest] {line}', file=sys.stderr, flush=True)
            m = re.match(r'MVM: (\S+).* t=([0-9.]+)$', line)
            if m:
                self.marks.setdefault(m.group(1), float(m.group(2)))
            m = re.match(r'MVM:SCREENDUMP (\S+)', line)
            if m:
                threading.Thread(target=self._answer_screendump, args=(m.group(1),), daemon=True).start()
            m = re.match(r'MVM:(KEYS|QMP) (\S+)', line)
            if m:
                threading.Thread(target=self._answer_request, args=m.groups(), daemon=True).start()
            with self.cv:
                self.lines.append(line)
                self.cv.notify_all()

    def _answer_screendump(self, name):
        status = 'ok'
        try:
            self.screendump(os.path.join(self.share, name + '.ppm'))
        except Exception as e:  # report to the guest rather than leave it waiting
            status = f'error: {e}'
        with open(os.path.join(self.share, name + '.ppm.done'), 'w') as f:
            f.write(status + '\n')

    def _answer_request(self, kind, name):
        status = 'ok'
        try:
            with open(os.path.join(self.mvm, name + '.req')) as f:
                argument = f.read()
            if kind == 'KEYS':
                self.send_keys(argument.split())
            else:
                request = json.loads(argument)
                status = 'ok ' + json.dumps(self.qmp.cmd(request['execute'], **request.get('arguments', {})))
        except Exception as e:  # report to the guest rather than leave it waiting
            status = f'error: {e}'
        with open(os.path.join(self.mvm, name + '.done'), 'w') as f:
            f.write(status + '\n')

    def screendump(self, path):
        return self.qmp.screendump(path)

    def send_keys(self, qcodes, **timing):
        return self.qmp.send_keys(qcodes, **timing)

    def wait_line(self, pattern, timeout):
        """Wait for a serial line matching pattern; returns the match or None (timeout / qemu gone)."""
        end, i = time.monotonic() + timeout, 0
        with self.cv:
            while True:
                while i < len(self.lines):
                    m = re.search(pattern, self.lines[i])
                    i += 1
                    if m:
                        return m
                if self.p.poll() is not None or time.monotonic() > end:
                    return None
                self.cv.wait(0.2)

    def wait(self, timeout):
        """Wait for the guest to finish; returns the command's exit status (see module doc)."""
        try:
            qrc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            self.timed_out = True
            return EXIT_TIMEOUT
        self.timed_out = False
        if qrc & 1 and qrc > 0:          # isa-debug-exit: (rc << 1) | 1
            rc = qrc >> 1
            return EXIT_HARNESS if rc in (120, 121, 122, 123) else rc
        return EXIT_HARNESS              # powered off / panicked / qemu error without a report

    def kill(self):
        if self.p.poll() is None:
            try:
                os.killpg(self.p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass

    def output(self, name):
        try:
            with open(os.path.join(self.mvm, name), 'rb') as f:
                return f.read()
        except FileNotFoundError:
            return b''

    def timings(self):
        """Guest uptimes (s) at /init, modules loaded, command start and end; host wall time."""
        t = {k: self.marks.get(k) for k in ('init', 'modules-loaded', 'start', 'end')}
        t['wall'] = round(time.monotonic() - self.t0, 2)
        return t

    def close(self):
        self.kill()
        if self.qmp:
            self.qmp.close()
        self.serial_log.close()
        shutil.rmtree(self.sockdir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument('--gpu', default='std', choices=sorted(GPU))
    ap.add_argument('--timeout', type=float, default=120, help='seconds before the guest is killed (default 120)')
    ap.add_argument('--share', help='read-write folder shared with the guest at the same path '
                    '(default: a temporary one, removed after a successful run)')
    ap.add_argument('--keep', action='store_true', help='keep the temporary share even on success')
    ap.add_argument('--mem', type=int, default=1024)
    ap.add_argument('--smp', type=int, default=1)
    ap.add_argument('--env', action='append', default=[], metavar='K=V')
    ap.add_argument('--cwd', help='working directory of the command (default: ours)')
    ap.add_argument('--keyboard', choices=sorted(KEYBOARD), help='add a virtio and/or USB keyboard')
    ap.add_argument('--sound-wav', metavar='FILE', help='add intel-hda; qemu writes its output to FILE')
    ap.add_argument('--qemu-arg', action='append', default=[], metavar='ARG',
                    help='one more qemu argument (repeatable; write --qemu-arg=-device)')
    ap.add_argument('--json', help='write rc, timings and paths to this file')
    ap.add_argument('--verbose', '-v', action='store_true', help='echo the guest console to stderr')
    ap.add_argument('command', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    argv = a.command[1:] if a.command[:1] == ['--'] else a.command
    if not argv:
        ap.error('no command given (run-guest.py [options] -- COMMAND [ARG...])')

    guest = None
    def on_signal(signum, frame):
        if guest:
            guest.kill()
        sys.exit(128 + signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        guest = Guest(argv, gpu=a.gpu, share=a.share, mem=a.mem, smp=a.smp, env=a.env, cwd=a.cwd,
                      verbose=a.verbose,
                      extra_qemu=(KEYBOARD.get(a.keyboard, []) + (sound_wav(a.sound_wav) if a.sound_wav else [])
                                  + a.qemu_arg))
        with guest:
            rc = guest.wait(a.timeout)
            sys.stdout.buffer.write(guest.output('stdout')); sys.stdout.flush()
            sys.stderr.buffer.write(guest.output('stderr')); sys.stderr.flush()
            t = guest.timings()
            if rc == EXIT_TIMEOUT:
                print(f'run-guest: error: guest killed after {a.timeout:g} s timeout; console log: '
                      f'{guest.mvm}/serial.log', file=sys.stderr)
            elif rc == EXIT_HARNESS:
                tail = '\n'.join(guest.lines[-15:])
                print(f'run-guest: error: the guest ended without reporting a result (qemu exit '
                      f'{guest.p.returncode}); console log {guest.mvm}/serial.log ends with:\n{tail}',
                      file=sys.stderr)
            print(f'run-guest: kernel {guest.kver} rc={rc} timings(guest uptime s)='
                  f'{json.dumps(t)}', file=sys.stderr)
            if a.json:
                with open(a.json, 'w') as f:
                    json.dump({'rc': rc, 'kernel': guest.kver, 'timings': t, 'share': guest.share,
                               'serial_log': os.path.join(guest.mvm, 'serial.log')}, f, indent=1)
        if rc == 0 and guest.own_share and not a.keep:
            shutil.rmtree(guest.share, ignore_errors=True)
        return rc
    except HarnessError as e:
        print(f'run-guest: error: {e}', file=sys.stderr)
        return EXIT_HARNESS


if __name__ == '__main__':
    sys.exit(main())
