#!/usr/bin/env bash
# End-to-end test of fleet mode's media cache on real filesystems (the host tests cannot mount):
# boots Debian's kernel under QEMU/TCG and runs `marquee play http://127.0.0.1:8765/lobby.yaml`
# (headless, null audio, real-time clock) against fleet-server.py, a stdlib HTTP server in the
# guest on loopback with Range support and a request log. The config names two clips with their
# sha256: big.mp4 (~1 MB) and small.mp4 (~37 KB). Boot 1 runs `full`, then the first half of
# `power-cut`; boot 2 the second half.
#   full      the cache ($CACHE_DIRECTORY) is a 400 KB tmpfs: the big clip cannot fit. It is served
#             at 300 KB/s so that the small one is in before the disk fills (at full speed both race
#             for the last free pages, and when the big one wins the small one is left out too until
#             the next check of the config tries it again; not tested here). The
#             small one is cached and plays (itemStarted with its URL, more than once: the playlist
#             loops without the big one); the big one never starts; stderr has exactly one line
#             `cache: DIR is full (no space left on device); URL not cached` and the line
#             `cache: 1 of 2 remote items in place; 1 left out`; the big clip's part file is dropped
#             and the config is kept (config/remote.yaml); the player exits 0 on SIGTERM; every file
#             in media/ hashes to its name.
#   power-cut the cache is on ext4 on a virtio-blk disk (an image made here with mkfs.ext4). Boot 1
#             downloads the big clip at 100 KB/s and, once its part file holds ~250 KB, cuts the
#             power 3 s later (`echo b > /proc/sysrq-trigger`: no sync, no unmount (qemu's
#             -no-reboot then exits, so run-guest.py says 125: the guest never reported); dirty pages
#             expire after 1 s and ext4 commits every 1 s (mount -o commit=1), so by then the part
#             is on the disk as it would be after ~35 s with the defaults). Boot 2 mounts the same
#             disk (ext4 replays its journal) and runs the player again: the server's first request
#             for the big clip is `Range: bytes=N-` (answered 206) with N > 0 the size of the part
#             that survived, and the only one (the spliced file passed its sha256: no start over);
#             the journal says `cache: 2 of 2 remote items in place`; the big clip ends verified in
#             media/ and plays; config/remote.yaml is kept; the player exits 0 on SIGTERM; every
#             file in media/ hashes to its name and no part file is left.
# Prints PASS/FAIL per check with timings; exits 1 on any failure. Hard timeouts on every boot.
#
# Usage: Deploy/vm/fleet-test.sh
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   SWIFT_SCRATCH_PATH=p  scratch path for `swift build -c release --product marquee` (default: <repo>/.build)
#   MARQUEE_VM_CACHE=dir  image/clip cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit for each boot (default 90)
set -euo pipefail

suite=fleet-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"

fail() { echo "FAIL fleet $1: $2"; failures=$((failures + 1)); }
pass() { echo "PASS fleet $1${2:+ ($2)}"; }
failures=0

need_tools qemu-system-x86_64 ffmpeg python3 timeout mkfs.ext4 sha256sum

marquee=$("$here/marquee-binary.sh") || die "no marquee binary"
"$here/build-initramfs.sh" >/dev/null || die "guest image build failed"

# The clips (cached): big.mp4, 2 s of 320x180 noise at ~4 Mbit/s (~1 MB, more than the 400 KB
# tmpfs); small.mp4, 1 s of 160x90 (~37 KB).
clips=$cache/clips
mkdir -p "$clips"
if [ ! -s "$clips/fleet-big.mp4" ]; then
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=320x180:rate=30:duration=2 \
    -vf noise=alls=30:allf=t -c:v libx264 -preset ultrafast -b:v 4M -maxrate 4M -bufsize 1M \
    -pix_fmt yuv420p -g 30 "$clips/fleet-big.tmp.mp4" || die "ffmpeg could not generate big.mp4"
  mv "$clips/fleet-big.tmp.mp4" "$clips/fleet-big.mp4"
fi
if [ ! -s "$clips/fleet-small.mp4" ]; then
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i testsrc2=size=160x90:rate=30:duration=1 \
    -c:v libx264 -preset ultrafast -b:v 200k -pix_fmt yuv420p -g 30 "$clips/fleet-small.tmp.mp4" ||
    die "ffmpeg could not generate small.mp4"
  mv "$clips/fleet-small.tmp.mp4" "$clips/fleet-small.mp4"
fi

share=$cache/fleet-share
rm -rf "$share"; mkdir -p "$share/www/media"
cp "$clips/fleet-big.mp4" "$share/www/media/big.mp4"
cp "$clips/fleet-small.mp4" "$share/www/media/small.mp4"
cp "$here/fleet-server.py" "$share/"
big_sha=$(sha256sum < "$share/www/media/big.mp4" | cut -d' ' -f1)
small_sha=$(sha256sum < "$share/www/media/small.mp4" | cut -d' ' -f1)
big_size=$(stat -c %s "$share/www/media/big.mp4")
cat > "$share/www/lobby.yaml" <<EOF
playlist:
  repeat: all
  items:
    - url: media/big.mp4
      sha256: $big_sha
    - url: media/small.mp4
      sha256: $small_sha
EOF
marquee=$("$here/guest-visible.sh" "$marquee" "$share")
base=http://127.0.0.1:8765
big_url=$base/media/big.mp4 small_url=$base/media/small.mp4

cat > "$share/guest.sh" <<'GUEST'
#!/bin/sh
# Runs in the guest, chrooted into the host's /. $1 = marquee, then the phases to run in turn
# (full, cut, resume; cut ends in a power cut, so it comes last).
set -u
marquee=$1; shift
s=$MVM_SHARE
fail() { echo "guest: FAIL: $*" >&2; exit 1; }
up() { cut -d' ' -f1 /proc/uptime; }
# wait_for SECONDS COMMAND...: polls every 0.2 s
wait_for() { n=$(($1 * 5)); shift; while ! "$@"; do n=$((n - 1)); [ $n -gt 0 ] || return 1; sleep 0.2; done; }
started() { grep -c "\"event\":\"itemStarted\".*\"url\":\"http://127.0.0.1:8765/media/$1.mp4\"" "$out-events.jsonl" 2>/dev/null; }
started_at_least() { [ "$(started "$1")" -ge "$2" ]; }
full_settled() { started_at_least small 2 || grep -q 'remote items in place; 2 left out' "$out-stderr.txt"; }
part_size() { stat -c %s "$cache"/partial/*.part 2>/dev/null | head -1; }
part_at_least() { [ "$(part_size || echo 0)" -ge "$1" ] 2>/dev/null; }

run_phase() {
  out=$s/$phase
  echo "${phase}_start=$(up)"
  # The server starts first (python's start-up takes seconds under TCG) while the disk is set up.
  # full: big.mp4 at 300 KB/s, so the small clip (unpaced) is in before big fills the disk (with
  # both at full speed whichever writes last gets ENOSPC); cut: big.mp4 at 100 KB/s, to cut it midway.
  case $phase in
    full) slow="--slow /media/big.mp4 300000" ;;
    cut) slow="--slow /media/big.mp4 100000" ;;
    *) slow= ;;
  esac
  python3 "$s/fleet-server.py" "$s/www" 8765 "$out-requests.jsonl" $slow 2> "$out-server.txt" &
  server=$!
  case $phase in
    full)
      cache=/tmp/fleet-cache
      mkdir -p $cache
      mount -t tmpfs -o size=400k,mode=0755 tmpfs $cache || fail "cannot mount a 400 KB tmpfs on $cache" ;;
    cut|resume)
      cache=/tmp/fleet-disk
      mkdir -p $cache
      modprobe -a virtio_blk ext4 || fail "cannot load virtio_blk and ext4 (from the host's /lib/modules)"
      wait_for 10 test -b /dev/vda || fail "no /dev/vda (the virtio-blk disk)"
      # Writeback sped up: dirty pages are written once 1 s old (default 30 s) and the journal
      # commits every second (default 5 s), so a few seconds into the download the disk holds the
      # part file (data and size) that it would hold after ~35 s with the defaults.
      mount -t ext4 -o commit=1 /dev/vda $cache || fail "cannot mount /dev/vda (ext4) on $cache"
      dmesg | grep -i 'EXT4-fs (vda)' > "$out-dmesg.txt"
      echo 100 > /proc/sys/vm/dirty_expire_centisecs
      echo 50 > /proc/sys/vm/dirty_writeback_centisecs
      ls -lR $cache > "$out-before.txt" 2>&1 ;;
  esac
  wait_for 20 test -e "$out-requests.jsonl.ready" || fail "fleet-server.py did not start: $(cat "$out-server.txt")"

  CACHE_DIRECTORY=$cache "$marquee" play http://127.0.0.1:8765/lobby.yaml --output headless --audio null \
    --control none --clock realtime --events "$out-events.jsonl" > "$out-stdout.txt" 2> "$out-stderr.txt" &
  player=$!
  case $phase in
    full)
      # The small clip plays twice: the playlist loops without the big one (or both are left out).
      wait_for 30 full_settled || echo "timeout waiting for small to play twice" > "$out-timeout.txt" ;;
    cut)
      wait_for 30 part_at_least 250000 || echo "timeout waiting for the part file to grow" > "$out-timeout.txt"
      sleep 3
      echo "cut_at=$(up) part_size=$(part_size) media=$(ls $cache/media | tr '\n' ' ')" > "$out-cut.txt"
      echo b > /proc/sysrq-trigger
      sleep 10; fail "the guest is still running after sysrq b" ;;
    resume)
      wait_for 30 started_at_least big 1 || echo "timeout waiting for big to play" > "$out-timeout.txt" ;;
  esac
  kill -TERM $player
  n=0; while kill -0 $player 2>/dev/null; do n=$((n + 1)); [ $n -le 50 ] || { kill -KILL $player; break; }; sleep 0.2; done
  wait $player; echo $? > "$out-rc.txt"
  kill $server; wait $server
  (cd $cache/media && find . -type f -exec sha256sum {} + | sed 's|  \./|  |') > "$out-media.txt" 2>&1
  ls -lR $cache > "$out-after.txt" 2>&1
  df -k $cache >> "$out-after.txt" 2>&1
  echo "${phase}_end=$(up)"
}

ip link set lo up || fail "cannot bring lo up"
for phase in "$@"; do run_phase; done
GUEST

vm_timeout=${VM_TIMEOUT:-90}
# boot NAME PHASES [run-guest options...]: one boot running guest.sh PHASES; sets rc and t_vm
boot() {
  local name=$1 phases=$2; shift 2
  local t; t=$(date +%s.%N)
  rc=0
  # shellcheck disable=SC2086 # PHASES is a list
  timeout -k 5 $((vm_timeout + 30)) python3 "$here/run-guest.py" --gpu none --timeout "$vm_timeout" \
    --share "$share" "$@" -- /bin/sh "$share/guest.sh" "$marquee" $phases \
    > "$share/$name-guest-stdout.txt" 2> "$share/$name-guest-stderr.txt" || rc=$?
  t_vm=$(elapsed "$t")
}
show() { echo "--- $1"; cat "$share/$1" 2>/dev/null | tail -n "${2:-20}"; }
val() { sed -n "s/.*$1=\\([^ ]*\\).*/\\1/p" "$2" | head -1; }
# phase_time PHASE: the guest's uptime from the phase's start to its end (or to the cut)
phase_time() {
  local out=$share/boot${2:-1}-guest-stdout.txt end
  end=$(val "$1_end" "$out"); [ -n "$end" ] || end=$(val cut_at "$share/cut-cut.txt")
  awk -v a="$(val "$1_start" "$out")" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
}
# media_ok PHASE: every file in media/ (none is fine) hashes to its name
media_ok() {
  local f=$share/$1-media.txt
  [ -e "$f" ] || return 1
  awk '{ name = $2; sub(/\..*/, "", name); if (name != $1) bad = 1 } END { exit bad }' "$f"
}
starts() { grep -c "\"event\":\"itemStarted\".*\"url\":\"$2\"" "$share/$1-events.jsonl" 2>/dev/null || true; }

# Boot 1: full (a 400 KB tmpfs), then cut (ext4 on virtio-blk, the power cut mid-download).
# Boot 2: resume (the same disk).
disk=$share/cache-ext4.img
truncate -s 32M "$disk"
mkfs.ext4 -q -F -L fleetcache "$disk" || die "mkfs.ext4 failed"
drive=(--qemu-arg=-drive "--qemu-arg=file=$disk,format=raw,if=virtio")
boot boot1 "full cut" "${drive[@]}"
t_boot1=$t_vm rc_boot1=$rc

# --- full: a 400 KB tmpfs ---
if [ ! -e "$share/full-rc.txt" ]; then
  fail full "the guest did not finish the phase (run-guest exit $rc); see $share/full-*.txt and $share/.mvm/serial.log"
  show boot1-guest-stderr.txt; show full-stderr.txt
else
  err=$share/full-stderr.txt
  full_line="cache: /tmp/fleet-cache is full (no space left on device); $big_url not cached"
  in_place="cache: 1 of 2 remote items in place; 1 left out"
  problems=()
  [ -e "$share/full-timeout.txt" ] && problems+=("$(cat "$share/full-timeout.txt")")
  [ "$(starts full "$small_url")" -ge 2 ] || problems+=("small.mp4 did not play twice (itemStarted $(starts full "$small_url") times)")
  [ "$(starts full "$big_url")" -eq 0 ] || problems+=("big.mp4 started although it cannot fit")
  n=$(grep -cF "$full_line" "$err" || true)
  [ "$n" -eq 1 ] || problems+=("expected one line '$full_line' in stderr, found $n")
  grep -qF "$in_place" "$err" || problems+=("no line '$in_place' in stderr")
  [ "$(cat "$share/full-rc.txt" 2>/dev/null)" = 0 ] || problems+=("marquee exited $(cat "$share/full-rc.txt" 2>/dev/null) on SIGTERM, not 0")
  media_ok full || problems+=("a file in media/ does not hash to its name: $(cat "$share/full-media.txt")")
  grep -q "^$small_sha " "$share/full-media.txt" || problems+=("small.mp4 is not in media/")
  grep -q "^$big_sha " "$share/full-media.txt" && problems+=("big.mp4 is in media/ on a 400 KB tmpfs?")
  grep -q '"path": "/media/big.mp4"' "$share/full-requests.jsonl" || problems+=("the server never saw a request for big.mp4")
  # The part of the clip that did not fit is dropped, so the config is kept beside the small one.
  grep -q '\.part$' "$share/full-after.txt" && problems+=("the part of the clip that did not fit is left: $(grep '\.part$' "$share/full-after.txt")")
  grep -q 'remote\.yaml$' "$share/full-after.txt" || problems+=("no config/remote.yaml kept on the full cache: $(grep -F 'cannot keep' "$err")")
  if [ ${#problems[@]} -eq 0 ]; then
    pass full "small.mp4 played $(starts full "$small_url") times, big.mp4 left out with one line; exit 0 on SIGTERM; $(phase_time full) s in the guest"
  else
    for p in "${problems[@]}"; do fail full "$p"; done
    show full-stderr.txt; show full-after.txt
  fi
fi

# --- power-cut: ext4 on virtio-blk, cut mid-download, booted again ---
# sysrq b with qemu's -no-reboot: qemu exits without the guest reporting (125)
cut_ok=1
if [ ! -s "$share/cut-cut.txt" ] || [ "$rc_boot1" -ne 125 ]; then
  fail power-cut "boot 1 did not cut the power mid-download (run-guest exit $rc_boot1, expected 125)"
  show boot1-guest-stderr.txt; show cut-stderr.txt; show cut-timeout.txt; cut_ok=0
elif [ -e "$share/cut-timeout.txt" ]; then
  fail power-cut "$(cat "$share/cut-timeout.txt")"; show cut-stderr.txt; cut_ok=0
fi
if [ $cut_ok = 1 ]; then
  cut_size=$(val part_size "$share/cut-cut.txt")
  boot boot2 resume "${drive[@]}"
  t_boot2=$t_vm
  if [ $rc -ne 0 ]; then
    fail power-cut "boot 2 failed (exit $rc); see $share/resume-*.txt and $share/.mvm/serial.log"
    show boot2-guest-stderr.txt; show resume-stderr.txt
  else
    err=$share/resume-stderr.txt
    in_place="cache: 2 of 2 remote items in place"
    problems=()
    [ -e "$share/resume-timeout.txt" ] && problems+=("$(cat "$share/resume-timeout.txt")")
    survived=$(awk '$NF ~ /\.part$/ { print $5 }' "$share/resume-before.txt" | head -1)
    ranges=$(python3 - "$share/resume-requests.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r['path'] == '/media/big.mp4':
        print(r.get('range') or '-', r['status'], 'If-Range:', r.get('ifRange') or 'none')
PY
)
    first_range=$(echo "$ranges" | head -1)
    if [ -z "$survived" ] || [ "$survived" -eq 0 ]; then
      problems+=("no part file survived the power cut (cut at ${cut_size:-?} bytes in the page cache): $(cat "$share/resume-before.txt")")
    elif [ "${first_range% If-Range:*}" != "bytes=$survived- 206" ]; then
      problems+=("expected the first request for big.mp4 to be 'Range: bytes=$survived-' answered 206, saw: $(echo "$ranges" | tr '\n' ';')")
    fi
    [ "$(echo "$ranges" | grep -c .)" -eq 1 ] || problems+=("big.mp4 was requested more than once after the cut (a start over?): $(echo "$ranges" | tr '\n' ';')")
    grep -qF "$in_place" "$err" || problems+=("no line '$in_place' in stderr")
    grep -q "$big_sha" "$share/cut-cut.txt" && problems+=("big.mp4 was already in media/ when the power was cut")
    grep -q 'remote\.yaml$' "$share/resume-after.txt" || problems+=("no config/remote.yaml kept once the media were in")
    [ "$(starts resume "$big_url")" -ge 1 ] || problems+=("big.mp4 did not play after the resume")
    [ "$(cat "$share/resume-rc.txt" 2>/dev/null)" = 0 ] || problems+=("marquee exited $(cat "$share/resume-rc.txt" 2>/dev/null) on SIGTERM, not 0")
    media_ok resume || problems+=("a file in media/ does not hash to its name: $(cat "$share/resume-media.txt")")
    grep -q "^$big_sha " "$share/resume-media.txt" || problems+=("big.mp4 is not in media/: $(cat "$share/resume-media.txt")")
    grep -q '\.part$' "$share/resume-after.txt" && problems+=("a part file is left: $(grep '\.part$' "$share/resume-after.txt")")
    if [ ${#problems[@]} -eq 0 ]; then
      recovery=$(grep -c 'recovery complete' "$share/resume-dmesg.txt" || true)
      pass power-cut "cut with ${cut_size} of $big_size bytes in the page cache, $survived on the disk$([ "$recovery" -gt 0 ] && echo ', ext4 journal replayed'); resumed with Range bytes=$survived- (${first_range#* 206 }), verified and played; $(phase_time cut) + $(phase_time resume 2) s in the guest"
    else
      for p in "${problems[@]}"; do fail power-cut "$p"; done
      show resume-stderr.txt; show resume-before.txt; show resume-after.txt
    fi
  fi
fi

echo "fleet-test: timing: boot 1 (full, cut) ${t_boot1} s, boot 2 (resume) ${t_boot2:-?} s wall; total $(elapsed "$t_begin") s"
[ $failures -eq 0 ] || { echo "fleet-test: $failures check(s) failed"; exit 1; }
