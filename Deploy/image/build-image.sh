#!/usr/bin/env bash
# Builds Marquee's minimal boot image: Debian's kernel (uncompressed, booted by qemu through PVH)
# and a self-contained initramfs whose only application is marquee — its binary and exactly the
# libraries `ldd` names, busybox, the display/input/sound modules, alsa-lib's config, an example
# config and a small generated clip. /init mounts the basics, loads the display and sound drivers,
# and supervises marquee: started at once, restarted within 1 s whenever it exits or dies. Input
# drivers load in the background (marquee picks keypads up as they appear).
#
# usage: Deploy/image/build-image.sh [--force]
#   MARQUEE_BIN=PATH       the marquee executable (default: a release build with the Swift runtime
#                          linked in, scratch path $SWIFT_SCRATCH_PATH or <repo>/.build-image-swift)
#   MARQUEE_VM_CACHE=DIR   cache folder (default <repo>/.build-vm-image); output in DIR/image/
# The last line printed is "VMLINUX=... INITRD=..." for scripts. Cached: rebuilt only when the
# binary, this script, the kernel or busybox change.
#
# Kernel command line switches read by /init:
#   marquee.selftest=1   after marquee's first frame, kill it with SIGKILL; after the restarted
#                        one's first frame, power off (Deploy/image/boot-test.py checks this)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MARQUEE_VM_CACHE:-$repo/.build-vm-image}
force=0; [ "${1:-}" = "--force" ] && force=1
die() { echo "build-image: error: $*" >&2; exit 1; }
for tool in busybox modprobe depmod cpio ffmpeg ldd python3; do
  command -v "$tool" > /dev/null || die "'$tool' not found; run Deploy/vm/install-deps.sh"
done

# The kernel: build-initramfs.sh extracts (and caches) the uncompressed vmlinux.
eval "$("$repo/Deploy/vm/build-initramfs.sh" | tail -1)"
[ -f "$VMLINUX" ] || die "no vmlinux from Deploy/vm/build-initramfs.sh"

if [ -n "${MARQUEE_BIN:-}" ]; then
  marquee=$(readlink -f "$MARQUEE_BIN")
else
  scratch=${SWIFT_SCRATCH_PATH:-$repo/.build-image-swift}
  (cd "$repo" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product marquee >&2) ||
    die "swift build failed"
  marquee=$(cd "$repo" && swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/marquee
fi
[ -x "$marquee" ] || die "no marquee executable at $marquee"

MODULES=(bochs virtio-gpu virtio_pci evdev virtio_input usbhid hid_generic xhci_pci
         snd_hda_intel snd_hda_codec_generic)
busybox_bin=$(command -v busybox)
out=$cache/image
mkdir -p "$out"
key=$( {
  sha256sum "$0"
  stat -c '%n %s %Y' "$marquee" "$VMLINUX" "/lib/modules/$KVER/modules.dep" "$busybox_bin"
  echo "${MODULES[*]}"
} | sha256sum | cut -d' ' -f1)
if [ "$force" = 0 ] && [ -f "$out/initramfs.cpio" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
  echo "VMLINUX=$VMLINUX INITRD=$out/initramfs.cpio"
  exit 0
fi
echo "build-image: building the boot image in $out" >&2
rm -f "$out/key"
root=$out/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc/marquee/media,proc,sys,dev,tmp,run,usr/lib,usr/bin,usr/share}
mkdir -p "$root/usr/lib64"; ln -s usr/lib "$root/lib"; ln -s usr/lib64 "$root/lib64"
cp "$busybox_bin" "$root/bin/busybox"

# marquee and exactly the libraries it links, at the paths the loader looks for them.
strip -o "$root/usr/bin/marquee" "$marquee" 2>/dev/null || cp "$marquee" "$root/usr/bin/marquee"
ldd "$marquee" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u > "$out/libraries.txt"
grep -q 'not found' <(ldd "$marquee") && die "ldd: a library of marquee is missing: $(ldd "$marquee" | grep 'not found')"
while read -r lib; do
  dest=$root$(readlink -f "$(dirname "$lib")" | sed 's|^/lib|/usr/lib|')/$(basename "$lib")
  mkdir -p "$(dirname "$dest")"
  cp -L "$lib" "$dest"
done < "$out/libraries.txt"
# alsa-lib's configuration (card profiles, the default PCM).
cp -r /usr/share/alsa "$root/usr/share/alsa"

for m in "${MODULES[@]}"; do
  modprobe -S "$KVER" --show-depends "$m" || die "module '$m' not found for $KVER"
done | awk '$1 == "insmod" { print $2 }' | sort -u | while read -r f; do
  mkdir -p "$root$(dirname "$f")"; cp "$f" "$root$f"
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
  [ -f "/lib/modules/$KVER/$f" ] && cp "/lib/modules/$KVER/$f" "$root/lib/modules/$KVER/"
done
depmod -b "$root" "$KVER" || die "depmod failed"

# The config and its media: a 4 s 320x180 clip (small enough for a TCG guest) looping.
ffmpeg -v error -y -f lavfi -i "testsrc2=size=320x180:rate=25" -t 4 -c:v libx264 -preset ultrafast -g 25 \
  -pix_fmt yuv420p "$root/etc/marquee/media/loop.mp4" || die "ffmpeg failed"
cat > "$root/etc/marquee/marquee.yaml" <<'YAML'
playlist:
  repeat: all
  items:
    - media/loop.mp4
display:
  output: auto
  scaling: aspectFit
input:
  devices: auto
YAML
"$marquee" check "$root/etc/marquee/marquee.yaml" > /dev/null || die "the image's config does not pass marquee check"

cat > "$root/init" <<'INIT'
#!/bin/busybox sh
# Marquee boot image /init: mount, load drivers, supervise marquee (restart within 1 s).
mkdir -p /usr/sbin; /bin/busybox --install -s
export PATH=/usr/bin:/bin:/sbin:/usr/sbin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm; mount -t devpts devpts /dev/pts; mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp; mount -t tmpfs tmpfs /run
up() { cut -d' ' -f1 /proc/uptime; }
mark() { echo "MARQUEE-IMAGE: $* t=$(up)" > /dev/console; }
mark init
echo /sbin/modprobe > /proc/sys/kernel/modprobe
# The display, the sound card and evdev before marquee starts (it chooses its outputs at start
# and watches /dev/input for keypads) ...
modprobe -a bochs virtio-gpu snd_hda_intel evdev 2>/dev/null
mark display-ready
# ... the other drivers once the picture is up, so they do not compete with marquee's start
# (on a slow CPU that costs a second); marquee adds keypads as they appear.
( for i in $(seq 100); do grep -q 'first frame on screen' /run/marquee.log 2>/dev/null && break; sleep 0.1; done
  modprobe -a virtio_input usbhid hid_generic xhci_pci 2>/dev/null
  for a in $(cat $(find /sys/devices -name modalias) 2>/dev/null | sort -u); do modprobe -q "$a" 2>/dev/null; done
  echo '$MODALIAS=.* 0:0 660 @modprobe -q "$MODALIAS"' > /etc/mdev.conf
  mdev -d; mark modules-loaded ) &

if grep -q 'marquee.selftest=1' /proc/cmdline; then
  ( # Kill the player after its first frame; power off after the restarted one's first frame.
    until grep -q 'first frame on screen' /run/marquee.log 2>/dev/null; do sleep 0.05; done
    pid=$(pidof marquee); kill -KILL $pid; mark "killed pid=$pid"
    until [ "$(grep -c 'first frame on screen' /run/marquee.log)" -ge 2 ]; do sleep 0.05; done
    mark selftest-done; sleep 1; poweroff -f ) &
fi

cd /etc/marquee
while true; do
  mark "start marquee"
  started=$(up)
  marquee play /etc/marquee/marquee.yaml 2>&1 | tee -a /run/marquee.log > /dev/console
  mark "marquee exited"
  # A player that dies at once is retried after 0.5 s, never in a tight loop.
  awk -v s="$started" -v n="$(up)" 'BEGIN { exit !(n - s < 1) }' && sleep 0.5
done
INIT
chmod +x "$root/init"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet > "$out/initramfs.cpio.tmp")
mv "$out/initramfs.cpio.tmp" "$out/initramfs.cpio"
echo "$key" > "$out/key"
echo "build-image: $(wc -l < "$out/libraries.txt") libraries, $(du -h "$out/initramfs.cpio" | cut -f1) initramfs (uncompressed: unpacking is faster under TCG than inflating)" >&2
echo "VMLINUX=$VMLINUX INITRD=$out/initramfs.cpio"
