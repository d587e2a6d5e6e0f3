#!/usr/bin/env bash
# The play ledger and resume through a power cut, on a real filesystem (the host tests cannot cut
# a disk's power): boots Debian's kernel under QEMU/TCG with an ext4 disk on virtio-blk and runs
# `marquee play` (headless, null audio, real-time clock) on a playlist of three 3 s clips (copied
# to the guest's tmpfs), its
# ledger and saved position on that disk (`proofOfPlay: {dir}`, `resume: true`,
# STATE_DIRECTORY=the disk).
#   boot 1    plays until the ledger holds at least 3 records and then 7 s more (records are synced
#             within 5 s), and cuts the power mid-play (`echo b > /proc/sysrq-trigger`: no sync, no
#             unmount; qemu's -no-reboot then exits, so run-guest.py says 125). The guest's wall
#             time at the cut and the ledger and position as the page cache held them are kept on
#             the host's share.
#   boot 2    mounts the same disk (ext4 replays its journal), runs `marquee report --verify` on the
#             ledger as the cut left it, then plays again until the first record of the new run is
#             written, SIGTERM, and verifies again.
# Checks: every record that ended more than 6 s before the cut is on the disk (the 5 s sync), and
# what is on the disk is what was written (each record as it was, in order); the ledger as found
# verifies, but for at most one torn last line, which the next start cuts off with its one warning;
# the restart resumes at the saved position (the item saved and its frame, within a frame) and says
# so; after it the ledger verifies whole, with more records than before, and exit 0 on SIGTERM.
# Prints PASS/FAIL per check with timings; exits 1 on any failure. Hard timeouts on every boot.
#
# Usage: Deploy/vm/ledger-power-test.sh
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   SWIFT_SCRATCH_PATH=p  scratch path for `swift build -c release --product marquee` (default: <repo>/.build)
#   MARQUEE_VM_CACHE=dir  image/clip cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit for each boot (default 90)
set -euo pipefail

suite=ledger-power-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"

fail() { echo "FAIL ledger $1: $2"; failures=$((failures + 1)); }
pass() { echo "PASS ledger $1${2:+ ($2)}"; }
failures=0

need_tools qemu-system-x86_64 ffmpeg python3 timeout mkfs.ext4

marquee=$("$here/marquee-binary.sh") || die "no marquee binary"
"$here/build-initramfs.sh" >/dev/null || die "guest image build failed"

# Three 3 s clips of 160x90 at 25 fps (cached), each its own picture.
clips=$cache/clips
mkdir -p "$clips"
for name in a b c; do
  [ -s "$clips/ledger-$name.mp4" ] && continue
  case $name in a) source=testsrc2 ;; b) source=smptebars ;; c) source=rgbtestsrc ;; esac
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "$source=size=160x90:rate=25:duration=3" \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 25 "$clips/ledger-$name.tmp.mp4" ||
    die "ffmpeg could not generate ledger-$name.mp4"
  mv "$clips/ledger-$name.tmp.mp4" "$clips/ledger-$name.mp4"
done

share=$cache/ledger-share
rm -rf "$share"; mkdir -p "$share"
for name in a b c; do cp "$clips/ledger-$name.mp4" "$share/$name.mp4"; done
cat > "$share/play.yaml" <<EOF
proofOfPlay:
  dir: /tmp/disk/ledger
resume: true
playlist:
  items: [/tmp/media/a.mp4, /tmp/media/b.mp4, /tmp/media/c.mp4]
EOF
marquee=$("$here/guest-visible.sh" "$marquee" "$share")

cat > "$share/guest.sh" <<'GUEST'
#!/bin/sh
# Runs in the guest, chrooted into the host's /. $1 = marquee, $2 = the phase: cut or after.
set -u
marquee=$1 phase=$2
s=$MVM_SHARE
disk=/tmp/disk
fail() { echo "guest: FAIL: $*" >&2; exit 1; }
up() { cut -d' ' -f1 /proc/uptime; }
# wait_for SECONDS COMMAND...: polls every 0.2 s
wait_for() { n=$(($1 * 5)); shift; while ! "$@"; do n=$((n - 1)); [ $n -gt 0 ] || return 1; sleep 0.2; done; }
records() { cat $disk/ledger/plays-*.jsonl 2>/dev/null | grep -c '"seq"'; }
records_at_least() { [ "$(records)" -ge "$1" ]; }
shown() { grep -q '"event":"frame"' "$s/$1-events.jsonl" 2>/dev/null; }
# play NAME: the player on the disk's ledger and state, its events and stderr on the share
play() {
  STATE_DIRECTORY=$disk/state "$marquee" play "$s/play.yaml" --output headless --audio null --control none \
    --clock realtime --events "$s/$1-events.jsonl" --trace-frames > "$s/$1-stdout.txt" 2> "$s/$1-stderr.txt" &
  player=$!
}
stop() {
  kill -TERM $player
  n=0; while kill -0 $player 2>/dev/null; do n=$((n + 1)); [ $n -le 50 ] || { kill -KILL $player; break; }; sleep 0.2; done
  wait $player; echo $? > "$s/$1-rc.txt"
}
verify() { "$marquee" report --verify $disk/ledger > "$s/$1-verify.txt" 2>&1; echo $? > "$s/$1-verify-rc.txt"; }

# The clips from the guest's own tmpfs: read over 9p on a loaded host they stall now and then.
mkdir -p /tmp/media && cp "$s/a.mp4" "$s/b.mp4" "$s/c.mp4" /tmp/media/ || fail "cannot copy the clips to /tmp/media"
modprobe -a virtio_blk ext4 || fail "cannot load virtio_blk and ext4 (from the host's /lib/modules)"
wait_for 10 test -b /dev/vda || fail "no /dev/vda (the virtio-blk disk)"
mkdir -p $disk
# The kernel's defaults (writeback after 30 s, a journal commit every 5 s): the ledger's own
# syncs are what must put its records on the disk.
mount -t ext4 /dev/vda $disk || fail "cannot mount /dev/vda (ext4) on $disk"
echo "${phase}_start=$(up)"
case $phase in
  cut)
    play cut
    wait_for 60 records_at_least 3 || echo "timeout waiting for 3 records" > "$s/cut-timeout.txt"
    sleep 7
    mkdir -p "$s/cut-visible"
    cp $disk/ledger/plays-*.jsonl $disk/state/position.json "$s/cut-visible/" 2>/dev/null
    echo "cut_wall=$(date +%s.%N) cut_at=$(up)" > "$s/cut-cut.txt"
    echo b > /proc/sysrq-trigger
    sleep 10; fail "the guest is still running after sysrq b" ;;
  after)
    dmesg | grep -i 'EXT4-fs (vda)' > "$s/after-dmesg.txt"
    mkdir -p "$s/after-found"
    cp $disk/ledger/plays-*.jsonl $disk/state/position.json "$s/after-found/" 2>/dev/null
    verify found
    play after
    wait_for 30 shown after || echo "timeout waiting for the first frame" > "$s/after-timeout.txt"
    found=$(cat $disk/ledger/plays-*.jsonl | grep -c '"seq"')
    # The resumed item's record is written when it leaves the screen (at most 3 s).
    wait_for 30 records_at_least $((found + 1)) || echo "timeout waiting for a new record" > "$s/after-timeout.txt"
    stop after
    verify final
    mkdir -p "$s/after-final"
    cp $disk/ledger/plays-*.jsonl "$s/after-final/" 2>/dev/null
    echo "after_end=$(up)" ;;
esac
GUEST

vm_timeout=${VM_TIMEOUT:-90}
disk=$share/ledger-ext4.img
truncate -s 32M "$disk"
mkfs.ext4 -q -F -L ledger "$disk" || die "mkfs.ext4 failed"
# boot NAME PHASE: one boot running guest.sh PHASE on the disk; sets rc and t_vm
boot() {
  local t; t=$(date +%s.%N)
  rc=0
  timeout -k 5 $((vm_timeout + 30)) python3 "$here/run-guest.py" --gpu none --timeout "$vm_timeout" \
    --share "$share" --qemu-arg=-drive "--qemu-arg=file=$disk,format=raw,if=virtio" \
    -- /bin/sh "$share/guest.sh" "$marquee" "$2" > "$share/$1-guest-stdout.txt" 2> "$share/$1-guest-stderr.txt" || rc=$?
  t_vm=$(elapsed "$t")
}
show() { echo "--- $1"; tail -n "${2:-20}" "$share/$1" 2>/dev/null; }

boot boot1 cut
t_boot1=$t_vm
if [ ! -s "$share/cut-cut.txt" ] || [ "$rc" -ne 125 ]; then
  fail power-cut "boot 1 did not cut the power mid-play (run-guest exit $rc, expected 125)"
  show boot1-guest-stderr.txt; show cut-stderr.txt; show cut-timeout.txt
  exit 1
fi
[ -e "$share/cut-timeout.txt" ] && fail power-cut "$(cat "$share/cut-timeout.txt")"
boot boot2 after
t_boot2=$t_vm
if [ "$rc" -ne 0 ]; then
  fail restart "boot 2 failed (exit $rc); see $share/after-*.txt and $share/.mvm/serial.log"
  show boot2-guest-stderr.txt; show after-stderr.txt
  exit 1
fi

# The checks read the files the guest left on the share.
python3 - "$share" <<'PY' || failures=$((failures + 1))
import glob, json, os, re, sys
share = sys.argv[1]
problems = {}
def problem(check, text): problems.setdefault(check, []).append(text)
def lines(folder):
    out = []
    for path in sorted(glob.glob(os.path.join(share, folder, 'plays-*.jsonl'))):
        out += open(path, 'rb').read().split(b'\n')
    return [l for l in out if l]
def record(line):
    try: return json.loads(line)
    except ValueError: return None
def utc(text):
    from datetime import datetime
    return datetime.strptime(text, '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=__import__('datetime').timezone.utc).timestamp()
def read(name):
    try: return open(os.path.join(share, name)).read()
    except OSError: return ''
cut = dict(kv.split('=') for kv in read('cut-cut.txt').split())
cut_wall = float(cut['cut_wall'])

visible = lines('cut-visible')
found = lines('after-found')
whole = [l for l in found if record(l) is not None]
torn = [l for l in found if record(l) is None]
# On the disk: what was written, in order (a torn last line at most), and every record that
# ended more than 6 s before the cut.
if found[:len(whole)] != visible[:len(whole)]:
    problem('power-cut', 'the records on the disk differ from the ones written before the cut')
if torn and (len(torn) > 1 or found[-1] != torn[0]):
    problem('power-cut', f'{len(torn)} line(s) that are not records, not only a torn last one: {torn!r:.200}')
synced = [l for l in visible if record(l) and utc(record(l)['end']) < cut_wall - 6]
if len(whole) < len(synced):
    problem('power-cut', f'{len(synced)} records ended more than 6 s before the cut, only {len(whole)} on the disk')
if not whole:
    problem('power-cut', 'no record survived the cut')
# As found: intact, or broken only by the torn last line.
verify_found = read('found-verify.txt')
if read('found-verify-rc.txt').strip() != '0':
    if not (torn and re.search(rf'line {len(found)} is not a record', verify_found)):
        problem('verify', f'the ledger as found does not verify: {verify_found.strip()!r:.300}')
stderr = read('after-stderr.txt')
if torn and 'cut off a torn last record' not in stderr:
    problem('verify', 'a torn last line was left and the start did not cut it off with its warning')
if not torn and 'torn' in stderr:
    problem('verify', 'a torn line was reported where there was none')
# Resumed at the saved position: the item and its frame (25 fps), said once.
try:
    saved = json.loads(read('after-found/position.json'))
except ValueError:
    saved = None
events = [json.loads(l) for l in read('after-events.jsonl').splitlines() if l.strip()]
first = next((e for e in events if e.get('event') == 'frame' and not e.get('dropped')), None)
if saved is None:
    problem('resume', 'no position.json survived the cut')
elif first is None:
    problem('resume', 'the restarted player showed no frame')
elif first.get('item') != saved['index'] or abs(first.get('pts', -1) - saved['time']) > 0.041:
    problem('resume', f"first frame item {first.get('item')} at {first.get('pts')} s; saved item {saved['index']} at {saved['time']} s")
elif stderr.count('resume: item ') != 1:
    problem('resume', f'expected one line "resume: item ...": {stderr.strip()!r:.300}')
# After the restart: the whole ledger verifies, with the new run's records after the old ones.
final = lines('after-final')
if read('final-verify-rc.txt').strip() != '0':
    problem('after', f"the ledger does not verify after the restart: {read('final-verify.txt').strip()!r:.300}")
if len(final) <= len(whole):
    problem('after', f'no record added after the restart ({len(final)} lines, {len(whole)} before)')
if read('after-rc.txt').strip() != '0':
    problem('after', f"marquee exited {read('after-rc.txt').strip()} on SIGTERM, not 0")
if os.path.exists(os.path.join(share, 'after-timeout.txt')):
    problem('after', read('after-timeout.txt').strip())

replayed = 'recovery complete' in read('after-dmesg.txt')
summary = {
    'power-cut': f"{len(visible)} records written, {len(whole)} on the disk after the cut{', torn last line' if torn else ''}"
                 f"{', ext4 journal replayed' if replayed else ''}; {len(synced)} ended over 6 s before it",
    'verify': read('found-verify.txt').strip().replace('\n', '; ')[:200] or 'torn last line cut off at start',
    'resume': f"item {saved['index'] + 1} at {saved['time']:.3f} s, first frame at {first['pts']:.3f} s" if saved and first else '',
    'after': read('final-verify.txt').strip().replace('\n', '; ')[:200],
}
for check in ['power-cut', 'verify', 'resume', 'after']:
    if check in problems:
        for text in problems[check]: print(f'FAIL ledger {check}: {text}')
    else:
        print(f'PASS ledger {check} ({summary[check]})')
sys.exit(1 if problems else 0)
PY

echo "ledger-power-test: timing: boot 1 (play, cut) ${t_boot1} s, boot 2 (verify, resume) ${t_boot2} s wall; total $(elapsed "$t_begin") s"
[ $failures -eq 0 ] || { show after-stderr.txt; echo "ledger-power-test: a check failed"; exit 1; }
