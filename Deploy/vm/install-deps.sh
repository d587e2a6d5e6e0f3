#!/usr/bin/env bash
# Installs the Debian packages the QEMU guest harness (Deploy/vm) needs. Idempotent: does nothing
# (and touches no network) when every package is already installed. Only Debian's apt mirrors are used.
set -euo pipefail

packages=(
  qemu-system-x86     # qemu-system-x86_64 (TCG; the machine's /dev/kvm cannot run the stock kernel)
  linux-image-amd64   # Debian's kernel + modules: the guest boots the very kernel whose drivers we test
  busybox-static      # the initramfs userland (/init, mount, chroot, modprobe)
  kmod                # modprobe --show-depends and depmod, used on the host to assemble the image
  cpio gzip           # initramfs packing
  python3             # run-guest.py (QMP, timeouts) and vmlinux extraction
  ffmpeg              # smoke-test clips are generated with the ffmpeg CLI
  systemd             # systemd-analyze verify/security for Deploy/systemd/verify-unit.sh
  binutils            # strip, for the boot image (Deploy/image/build-image.sh)
  alsa-utils          # amixer: the guest HDA mixer starts muted at 0 % (audio-test.sh unmutes it)
  v4l-utils           # cec-ctl: the emulated TV and the bus monitor of cec-test.sh (vivid's CEC adapters)
  e2fsprogs           # mkfs.ext4: the cache disk of fleet-test.sh's power cut
  iproute2            # ip: fleet-test.sh brings the guest's loopback up for its HTTP server
)

exec "$(dirname "$0")/../../Scripts/install-dependencies.sh" "${packages[@]}"
