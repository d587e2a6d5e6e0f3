#!/usr/bin/env bash
# Builds the QEMU guest image for Marquee's VM harness: an uncompressed kernel (vmlinux, booted by
# qemu directly through its PVH entry) and a small busybox initramfs carrying only the kernel modules
# the guest needs. The guest runs *host* programs: its /init mounts the host's / read-only over 9p
# and chroots into it, so `marquee` runs with all its FFmpeg/Swift libraries unchanged.
#
# Usage: Deploy/vm/build-initramfs.sh [--force]
# Output (cached; rebuilt only when an input changes):
#   $MARQUEE_VM_CACHE/<KVER>/vmlinux  and  $MARQUEE_VM_CACHE/<KVER>/initramfs.cpio.gz
# MARQUEE_VM_CACHE defaults to <repo>/.build-vm-image (gitignored through `.build-*/`).
# KVER defaults to the newest /boot/vmlinuz-* that has /lib/modules/<KVER>.
# The last line printed is "KVER=... VMLINUX=... INITRD=..." for scripts.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MARQUEE_VM_CACHE:-$repo/.build-vm-image}
force=0
[ "${1:-}" = "--force" ] && force=1

die() { echo "build-initramfs: error: $*" >&2; exit 1; }

for tool in busybox modprobe depmod cpio gzip python3; do
  command -v "$tool" >/dev/null || die "'$tool' not found; run Deploy/vm/install-deps.sh"
done
busybox_bin=$(command -v busybox)
file -L "$busybox_bin" 2>/dev/null | grep -q 'dynamically linked' &&
  die "$busybox_bin is dynamically linked; install busybox-static (Deploy/vm/install-deps.sh)"

if [ -z "${KVER:-}" ]; then
  for k in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V -r); do
    if [ -d "/lib/modules/$k/kernel" ]; then KVER=$k; break; fi
  done
fi
[ -n "${KVER:-}" ] || die "no /boot/vmlinuz-* with matching /lib/modules; run Deploy/vm/install-deps.sh (linux-image-amd64)"
[ -f "/boot/vmlinuz-$KVER" ] || die "/boot/vmlinuz-$KVER missing"
[ -d "/lib/modules/$KVER" ] || die "/lib/modules/$KVER missing"

# Modules the guest loads (dependencies are resolved below). Display: bochs (-vga std), virtio-gpu;
# transport and shares: virtio_pci, 9p, 9pnet_virtio; input: evdev, virtio_input, uinput, and a USB
# keyboard on xhci (usbhid, hid_generic); sound: intel-hda with its generic codec; HDMI-CEC: vivid
# (Debian builds it with CONFIG_VIDEO_VIVID_CEC: an emulated TV and player on one CEC bus, loaded
# by cec-test.sh with its own parameters, so the coldplug pass below does not load it).
MODULES=(bochs virtio-gpu virtio_pci 9p 9pnet_virtio evdev virtio_input uinput
         xhci_pci usbhid hid_generic snd_hda_intel snd_hda_codec_generic vivid)

out=$cache/$KVER
mkdir -p "$out"
# Cache key: this script, the kernel, the module tree and busybox. Any change rebuilds.
key=$( {
  sha256sum "$0"
  stat -c '%n %s %Y' "/boot/vmlinuz-$KVER" "/lib/modules/$KVER/modules.dep" "$busybox_bin"
  echo "${MODULES[*]}"
} | sha256sum | cut -d' ' -f1)

if [ "$force" = 0 ] && [ -f "$out/vmlinux" ] && [ -f "$out/initramfs.cpio.gz" ] &&
   [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
  echo "KVER=$KVER VMLINUX=$out/vmlinux INITRD=$out/initramfs.cpio.gz"
  exit 0
fi

echo "build-initramfs: building guest image for $KVER in $out" >&2
rm -f "$out/key"

# 1. Uncompressed kernel: the xz payload of the bzImage (qemu boots an ELF vmlinux via PVH, which
#    skips ~3 s of in-guest decompression under TCG).
python3 - "/boot/vmlinuz-$KVER" "$out/vmlinux.tmp" <<'PY'
import lzma, sys
data = open(sys.argv[1], 'rb').read()
start = data.find(b'\xfd7zXZ\x00')
if start < 0:
    sys.exit(f'build-initramfs: error: no xz payload in {sys.argv[1]} (kernel not xz-compressed?)')
elf = lzma.LZMADecompressor().decompress(data[start:])
if elf[:4] != b'\x7fELF':
    sys.exit('build-initramfs: error: decompressed kernel is not an ELF image')
open(sys.argv[2], 'wb').write(elf)
PY
mv "$out/vmlinux.tmp" "$out/vmlinux"

# 2. Root tree: busybox, modules (+ dependencies), /init.
root=$out/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,run,share,hostroot,usr/lib}
ln -s usr/lib "$root/lib"
cp "$busybox_bin" "$root/bin/busybox"

for m in "${MODULES[@]}"; do
  modprobe -S "$KVER" --show-depends "$m" || die "module '$m' not found for $KVER"
done | awk '$1 == "insmod" { print $2 }' | sort -u | while read -r f; do
  mkdir -p "$root$(dirname "$f")"
  cp "$f" "$root$f"
done
for f in modules.order modules.builtin modules.builtin.modinfo; do
  [ -f "/lib/modules/$KVER/$f" ] && cp "/lib/modules/$KVER/$f" "$root/lib/modules/$KVER/"
done
depmod -b "$root" "$KVER" || die "depmod failed"

cat > "$root/init" <<'INIT'
#!/bin/busybox sh
# Marquee VM guest /init. Protocol with Deploy/vm/run-guest.py:
#   9p tag "mvmshare" (read-write) -> /share; /share/.mvm/hostpath = the share's path on the host,
#   /share/.mvm/guest.sh = the command to run; its stdout/stderr go to /share/.mvm/{stdout,stderr},
#   its exit status to /share/.mvm/rc and to qemu through isa-debug-exit (qemu exits with rc*2+1).
#   9p tag "hostroot" (read-only) -> the host's /, into which the command is chrooted.
/bin/busybox --install -s
export PATH=/bin:/sbin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm; mount -t devpts devpts /dev/pts; mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
echo /sbin/modprobe > /proc/sys/kernel/modprobe
up() { cut -d' ' -f1 /proc/uptime; }
log() { echo "MVM: $* t=$(up)" > /dev/console; }
finish() {  # rc: report and power off; never returns
  echo "$1" > /share/.mvm/rc 2>/dev/null; sync
  log "exit rc=$1"
  printf "\\$(printf %o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
  poweroff -f
}
log init
# Drivers: the share transport first, then one coldplug pass over every device present (like udev);
# mdev -d loads drivers for devices that appear later (this kernel has no CONFIG_UEVENT_HELPER).
modprobe -a virtio_pci 9pnet_virtio 9p evdev
for a in $(cat $(find /sys/devices -name modalias) 2>/dev/null | sort -u); do modprobe -q "$a" 2>/dev/null; done
echo '$MODALIAS=.* 0:0 660 @modprobe -q "$MODALIAS"' > /etc/mdev.conf
mdev -d
log modules-loaded

mount -t 9p -o trans=virtio,version=9p2000.L,cache=none,msize=262144 mvmshare /share ||
  { log "cannot mount the mvmshare 9p share"; finish 120; }
read -r HOSTPATH < /share/.mvm/hostpath || { log "no /share/.mvm/hostpath"; finish 121; }
R=/hostroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=524288 hostroot $R ||
  { log "cannot mount the hostroot 9p share"; finish 122; }
for d in proc sys dev; do mount -o bind /$d $R/$d; done
mount -t devpts devpts $R/dev/pts; mount -t tmpfs tmpfs $R/dev/shm
mount -t tmpfs tmpfs $R/tmp; mount -t tmpfs tmpfs $R/run
[ -d $R/var/tmp ] && mount -t tmpfs tmpfs $R/var/tmp
# The share appears in the guest at the same absolute path as on the host, so host paths work as-is.
mkdir -p "$R$HOSTPATH" 2>/dev/null
mount -o bind /share "$R$HOSTPATH" || { log "cannot bind the share at $HOSTPATH"; finish 123; }

log "start"
chroot $R /bin/sh "$HOSTPATH/.mvm/guest.sh" > /share/.mvm/stdout 2> /share/.mvm/stderr < /dev/null
rc=$?
log "end rc=$rc"
finish $rc
INIT
chmod +x "$root/init"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1 > "$out/initramfs.cpio.gz.tmp")
mv "$out/initramfs.cpio.gz.tmp" "$out/initramfs.cpio.gz"
echo "$key" > "$out/key"
echo "build-initramfs: $(du -h "$out/initramfs.cpio.gz" | cut -f1) initramfs, $(du -h "$out/vmlinux" | cut -f1) vmlinux" >&2
echo "KVER=$KVER VMLINUX=$out/vmlinux INITRD=$out/initramfs.cpio.gz"
