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
  make gcc-12         # vkms-module.sh builds vkms.ko (linux-headers-KVER and linux-source, below)
)

"$(dirname "$0")/../../Scripts/install-dependencies.sh" "${packages[@]}"

# vkms-test.sh builds vkms.ko (Debian's kernel leaves CONFIG_DRM_VKMS unset) out of tree from
# linux-source against the guest kernel's headers (vkms-module.sh): both at the guest kernel's
# package version, which the mirror's newest linux-source may not be.
kver=$(ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V -r | while read -r k; do
  [ -d "/lib/modules/$k/kernel" ] && { echo "$k"; break; }; done)
[ -n "$kver" ] || { echo "install-deps: error: no /boot/vmlinuz-* with /lib/modules after installing linux-image-amd64" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' "linux-image-$kver")
matched=()
for package in "linux-headers-$kver" "linux-source-$(echo "$kver" | cut -d. -f1,2)"; do
  [ "$(dpkg-query -W -f='${Version} ${Status}' "$package" 2>/dev/null)" = "$version install ok installed" ] ||
    matched+=("$package=$version")
done
[ ${#matched[@]} -eq 0 ] && exit 0
echo "Installing: ${matched[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${matched[@]}"
