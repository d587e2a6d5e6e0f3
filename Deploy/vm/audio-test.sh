#!/usr/bin/env bash
# End-to-end test of `marquee play --audio alsa` on a real kernel sound driver: boots Debian's kernel
# under QEMU/TCG with intel-hda (qemu writes the card's output to a WAV on the host) and bochs-drm,
# runs the host-built marquee in the guest and checks the WAV on the host (audio-check.py):
#   tone   a 1 s 1 kHz tone played with --audio alsa arrives in the WAV at 1 kHz
#   sync   a 5 s 320x180 A/V clip with a white flash frame and a 30 ms beep at every whole second,
#          played with --output drm --audio alsa --trace-frames: every beep sits within one frame
#          (33 ms) of its flash's presentation time, relative to the first pair
#   probe  `marquee probe` lists the HDA card and its playback device
#   name   the tone through `alsa:hw:0,0`, `alsa:plughw:0` and `alsa:sysdefault:CARD=Intel`
#   xrun   SIGSTOP for 0.5 s mid-tone: the device runs dry, the player logs it, recovers in place and
#          all 3 s of the tone are heard; exit 0
#   vanish the HDA controller unbound from its driver mid-tone and bound again: the player logs the
#          lost device, plays on video-only, logs it back and the tone is heard again; exit 0
# Prints PASS/FAIL per check; exits 1 on any failure. Hard timeouts on every step.
#
# Usage: Deploy/vm/audio-test.sh
#   MARQUEE_BIN=path      use this marquee binary instead of building one
#   SWIFT_SCRATCH_PATH=p  scratch path for `swift build -c release --product marquee` (default: <repo>/.build)
#   MARQUEE_VM_CACHE=dir  image/fixture cache (default: <repo>/.build-vm-image)
#   VM_TIMEOUT=s          hard limit for the guest (default 300)
set -euo pipefail

suite=audio-test
# shellcheck source=Deploy/vm/suite-lib.sh
source "$(dirname "$0")/suite-lib.sh"

need_tools qemu-system-x86_64 ffmpeg python3 timeout amixer
marquee=$("$here/marquee-binary.sh") || die "no marquee binary"
"$here/build-initramfs.sh" >/dev/null || die "guest image build failed"

fixtures=$cache/audio-fixtures
mkdir -p "$fixtures"
# 1 s of 1 kHz, then 0.5 s of silence: the WAV holds only what the guest played, so without it
# the tone runs one after another would merge into one sound.
if [ ! -s "$fixtures/tone-1000.wav" ]; then
  timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=1000:sample_rate=48000:duration=1" \
    -af volume=4,apad=pad_dur=0.5 -ac 2 -c:a pcm_s16le "$fixtures/tone-1000.wav" || die "ffmpeg could not make the tone"
fi
if [ ! -s "$fixtures/flash-beep.mp4" ]; then
  # The flash is the one frame at each whole second (mod(t,1) < 0.03 holds for t = k only at 30 fps);
  # the beep is 30 ms of 1 kHz starting at the same instant.
  timeout 120 ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "color=c=black:s=320x180:r=30:d=5,drawbox=color=white:t=fill:enable='lt(mod(t,1),0.03)'" \
    -f lavfi -i "aevalsrc=exprs='if(lt(mod(t,1),0.03),0.5*sin(2*PI*1000*t),0)':c=stereo:s=48000:d=5" \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 30 -c:a aac -b:a 128k -shortest "$fixtures/flash-beep.tmp.mp4" \
    || die "ffmpeg could not make the A/V clip"
  mv "$fixtures/flash-beep.tmp.mp4" "$fixtures/flash-beep.mp4"
fi

share=$cache/audio-share
rm -rf "$share"; mkdir -p "$share"
# The underrun's tone (3 s at 1.5 kHz) and the vanishing card's (10 s at 2 kHz) have pitches of their
# own, so each is found in the WAV however the interruption cut it.
for tone in 1500:3 2000:10; do
  hz=${tone%:*}
  if [ ! -s "$fixtures/tone-$hz.wav" ]; then
    timeout 60 ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=$hz:sample_rate=48000:duration=${tone#*:}" \
      -af volume=4 -ac 2 -c:a pcm_s16le "$fixtures/tone-$hz.wav" || die "ffmpeg could not make the $hz Hz tone"
  fi
done
cp "$fixtures/tone-1000.wav" "$fixtures/tone-1500.wav" "$fixtures/tone-2000.wav" "$fixtures/flash-beep.mp4" "$share/"
marquee=$("$here/guest-visible.sh" "$marquee" "$share")
cat > "$share/guest.sh" <<'GUEST'
#!/bin/sh
# Runs in the guest. $1 = marquee; $MVM_SHARE = the share.
set -u
marquee=$1; s=$MVM_SHARE
i=0; while [ ! -e /dev/snd/pcmC0D0p ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
# The HDA mixer starts muted at 0 %.
for control in Master PCM Front Speaker Headphone; do amixer -q -c 0 sset "$control" 100% unmute 2>/dev/null; done
amixer -c 0 scontents > "$s/mixer.txt" 2>&1
rc=0
timeout 60 "$marquee" "probe" > "$s/probe.txt" 2>&1 || rc=$?
echo "probe rc=$rc"
rc=0
# Scaling none, as in drm-test's clip check: A/V sync is under test, not the scaler (under TCG,
# upscaling each frame to 1280x720 costs about three frame slots, and most flashes were dropped).
timeout 120 "$marquee" play "$s/flash-beep.mp4" --output drm --scaling none --audio alsa --repeat off --exit-when-idle \
  --events "$s/sync.jsonl" --trace-frames > "$s/sync.log" 2>&1 || rc=$?
echo "sync rc=$rc"
# The WAV holds only what the guest played (no silence between runs): the tone comes after the clip,
# whose last beep is followed by a second of silence, so the two cannot merge.
rc=0
timeout 60 "$marquee" play "$s/tone-1000.wav" --output headless --audio alsa --repeat off --exit-when-idle \
  > "$s/tone.log" 2>&1 || rc=$?
echo "tone rc=$rc"
# Device names: the card's hw, plughw and sysdefault PCMs play the same tone.
for name in hw:0,0 plughw:0 sysdefault:CARD=Intel; do
  rc=0
  timeout 60 "$marquee" play "$s/tone-1000.wav" --output headless --audio "alsa:$name" --repeat off --exit-when-idle \
    > "$s/name-$name.log" 2>&1 || rc=$?
  echo "name-$name rc=$rc"
done
# Starts `marquee play FILE ARGS...` in the background with its journal in LOG and returns once its
# item has started (or after 30 s); sets pid (timeout's, whose child is the player).
play_in_background() {
  log=$1; file=$2; shift 2
  timeout 60 "$marquee" play "$file" --output headless --repeat off --exit-when-idle "$@" > "$log" 2>&1 &
  pid=$!
  i=0; while ! grep -q 'started' "$log" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
}
# Underrun: the player (timeout's child) is stopped for 0.5 s in the middle of a 3 s tone, so the
# device runs dry; after SIGCONT its write fails with EPIPE, the PCM is prepared again and the rest
# plays: no sample is lost, only delayed.
play_in_background "$s/xrun.log" "$s/tone-1500.wav" --audio alsa
sleep 1
player=$(pgrep -P $pid)
echo "xrun-player pid=${player:-none}"
kill -STOP $player; sleep 0.5; kill -CONT $player
rc=0; wait $pid || rc=$?
echo "xrun rc=$rc"
# Vanish: 1 s into a 10 s tone the HDA controller is unbound from its driver (the card disappears:
# writes fail with ENODEV) and bound again 1 s later; the player goes on video-only, finds the
# card again on a retry and the rest of the tone is heard.
play_in_background "$s/vanish.log" "$s/tone-2000.wav" --audio alsa
sleep 1
hda=$(basename "$(readlink -f /sys/class/sound/card0/device)")
echo "vanish-controller pci=$hda"
echo "$hda" > /sys/bus/pci/drivers/snd_hda_intel/unbind
sleep 1
echo "$hda" > /sys/bus/pci/drivers/snd_hda_intel/bind
i=0; while [ ! -e /dev/snd/pcmC0D0p ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
for control in Master PCM Front Speaker Headphone; do amixer -q -c 0 sset "$control" 100% unmute 2>/dev/null; done
rc=0; wait $pid || rc=$?
echo "vanish rc=$rc"
# qemu loses the last ~40 ms if the guest powers off right after the last write.
sleep 1
GUEST

failures=0
report() { if [ "$2" = ok ]; then echo "PASS $1${3:+ ($3)}"; else echo "FAIL $1: $3"; failures=$((failures + 1)); fi; }
field() { awk -v n="$1" -v k="$2" '$1 == n { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) { print substr($i, length(k) + 2); exit } }' "$3"; }

rc=0
timeout -k 5 $((${VM_TIMEOUT:-300} + 30)) python3 "$here/run-guest.py" --gpu std --timeout "${VM_TIMEOUT:-300}" \
  --sound-wav "$share/out.wav" --share "$share" -- /bin/sh "$share/guest.sh" "$marquee" > "$share/out.txt" 2> "$share/err.txt" || rc=$?
[ $rc -eq 0 ] || { report guest fail "run-guest exited $rc; $(tail -3 "$share/err.txt" | tr '\n' ' ')"; exit 1; }
out=$share/out.txt

if [ "$(field probe rc "$out")" = 0 ] && grep -q '^sound card 0 ' "$share/probe.txt" && grep -q '^  playback hw:0,0' "$share/probe.txt"; then
  report probe ok "$(grep '^sound card 0' "$share/probe.txt")"
else
  report probe fail "$(tail -4 "$share/probe.txt" | tr '\n' ' ')"
fi
if [ "$(field tone rc "$out")" != 0 ]; then
  report tone fail "marquee exited $(field tone rc "$out"): $(tail -2 "$share/tone.log" | tr '\n' ' ')"
elif detail=$(python3 "$here/audio-check.py" tone "$share/out.wav"); then
  report tone ok "$detail; $(grep -o "ALSA 'default'.*" "$share/tone.log" | head -1)"
else
  report tone fail "$detail"
fi
if [ "$(field sync rc "$out")" != 0 ]; then
  report sync fail "marquee exited $(field sync rc "$out"): $(tail -2 "$share/sync.log" | tr '\n' ' ')"
elif detail=$(python3 "$here/audio-check.py" sync "$share/out.wav" "$share/sync.jsonl"); then
  report sync ok "$detail"
else
  report sync fail "$detail"
fi
# The 1 kHz tones after the sync clip, in the order played: default, then the three names.
tones=$(python3 "$here/audio-check.py" tones "$share/out.wav")
echo "INFO tones in the WAV (seconds at Hz): $tones"
nth_tone() { echo "$tones" | tr ' ' '\n' | sed -n "$1p"; }
index=2
for name in hw:0,0 plughw:0 sysdefault:CARD=Intel; do
  t=$(nth_tone $index); index=$((index + 1))
  if [ "$(field "name-$name" rc "$out")" != 0 ]; then
    report "name $name" fail "marquee exited $(field "name-$name" rc "$out"): $(tail -2 "$share/name-$name.log" | tr '\n' ' ')"
  elif [ -z "$t" ] || ! awk -v t="$t" 'BEGIN { split(t, p, "@"); exit !(p[1] > 0.95 && p[2] > 995 && p[2] < 1005) }'; then
    report "name $name" fail "no 1 s tone at 1 kHz in its place in the WAV (tones: $tones)"
  else
    report "name $name" ok "tone ${t} Hz; $(grep -o "ALSA '$name'.*" "$share/name-$name.log" | head -1)"
  fi
done
# Underrun: the whole 3 s heard (a gap is allowed, a loss is not). Vanish: the second before the
# unbind and what follows the card's return (1 s later, plus the 1 s retry and the mixer's unmute).
# Each run's journal must hold its lines (words separated by +).
for run in "xrun:1500:ran dry:2.95" "vanish:2000:playing video only+is back:1.5"; do
  IFS=: read -r name hz words least <<< "$run"
  heard=$(python3 "$here/audio-check.py" seconds "$share/out.wav" "$hz")
  missing=""
  IFS=+ read -ra needed <<< "$words"
  for word in "${needed[@]}"; do grep -q "$word" "$share/$name.log" || missing="$missing '$word'"; done
  if [ "$(field $name rc "$out")" != 0 ]; then
    report $name fail "marquee exited $(field $name rc "$out"): $(tail -2 "$share/$name.log" | tr '\n' ' ')"
  elif [ -n "$missing" ]; then
    report $name fail "no$missing line ($(grep -E '^(xrun-player|vanish-controller) ' "$out" | tr '\n' ' ')); log: $(tail -4 "$share/$name.log" | tr '\n' ' ')"
  elif ! awk -v h="$heard" -v l="$least" 'BEGIN { exit !(h >= l) }'; then
    report $name fail "$heard s of the $hz Hz tone in the WAV (at least $least s expected)"
  else
    report $name ok "$(grep -E "audio: .*(${words//+/|})" "$share/$name.log" | sed 's/^[a-z]*: //' | paste -sd ';' -); exit 0; $heard s of the $hz Hz tone heard"
  fi
done
echo "audio-test: $failures failure(s)"
[ $failures -eq 0 ]
