#!/usr/bin/env bash
# Builds vkms.ko (the virtual KMS driver) for the guest kernel, once: Debian's 6.1 kernel leaves
# CONFIG_DRM_VKMS unset, so the driver folder is taken from Debian's linux-source package of the very
# version the guest boots and built out of tree against that kernel's headers. The guest then loads
# it with `insmod` (its dependencies drm, drm_kms_helper and drm_shmem_helper are Debian modules).
# One line of the driver is changed (below): its writeback connector can capture the CRTC while the
# Virtual connector is on it, which stock vkms 6.1 refuses.
#
# Usage: Deploy/vm/vkms-module.sh          prints the path of vkms.ko as its last line
# Output (cached; rebuilt only when the source, the headers or this script change):
#   $MARQUEE_VM_CACHE/vkms/<KVER>/vkms.ko
# Needs linux-source-<series> and linux-headers-<KVER> at the guest kernel's package version
# (Deploy/vm/install-deps.sh installs them). Fails with one line when a version does not match.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${MARQUEE_VM_CACHE:-$repo/.build-vm-image}

die() { echo "vkms-module: error: $*" >&2; exit 1; }

# The kernel the guest boots: the same choice as build-initramfs.sh.
if [ -z "${KVER:-}" ]; then
  for k in $(ls /boot/vmlinuz-* 2>/dev/null | sed 's|^/boot/vmlinuz-||' | sort -V -r); do
    if [ -d "/lib/modules/$k/kernel" ]; then KVER=$k; break; fi
  done
fi
[ -n "${KVER:-}" ] || die "no /boot/vmlinuz-* with matching /lib/modules; run Deploy/vm/install-deps.sh (linux-image-amd64)"

package_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || true; }
series=$(echo "$KVER" | cut -d. -f1,2)                 # 6.1.0-56-amd64 -> 6.1
kernel_version=$(package_version "linux-image-$KVER")
[ -n "$kernel_version" ] || die "the guest kernel's package linux-image-$KVER is not installed"
source_version=$(package_version "linux-source-$series")
[ -n "$source_version" ] || die "linux-source-$series is not installed; run Deploy/vm/install-deps.sh"
[ "$source_version" = "$kernel_version" ] ||
  die "linux-source-$series is $source_version but the guest kernel linux-image-$KVER is $kernel_version; install linux-source-$series=$kernel_version"
headers_version=$(package_version "linux-headers-$KVER")
[ -n "$headers_version" ] && [ -f "/lib/modules/$KVER/build/Makefile" ] ||
  die "no headers for the guest kernel (linux-headers-$KVER); run Deploy/vm/install-deps.sh"
[ "$headers_version" = "$kernel_version" ] ||
  die "linux-headers-$KVER is $headers_version but the guest kernel linux-image-$KVER is $kernel_version"
tarball=/usr/src/linux-source-$series.tar.xz
[ -f "$tarball" ] || die "$tarball missing (linux-source-$series installed without its tarball?)"

out=$cache/vkms/$KVER
key=$(printf '%s\n' "$KVER" "$kernel_version" "$(sha256sum < "$0")" | sha256sum | cut -d' ' -f1)
if [ -f "$out/vkms.ko" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
  echo "$out/vkms.ko"
  exit 0
fi

for tool in make gcc tar xz modinfo; do
  command -v "$tool" >/dev/null || die "'$tool' not found (the headers package brings the compiler; run Deploy/vm/install-deps.sh)"
done
echo "vkms-module: building vkms.ko for $KVER from linux-source-$series $source_version" >&2
mkdir -p "$out"
work=$(mktemp -d "$out/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Only the driver's folder: the whole tree is ~1.3 GB unpacked.
mkdir "$work/vkms"
timeout 300 tar -xJf "$tarball" -C "$work/vkms" --strip-components=5 "linux-source-$series/drivers/gpu/drm/vkms" ||
  die "cannot extract drivers/gpu/drm/vkms from $tarball"
# One change to the driver: stock vkms 6.1 leaves possible_clones unset on its Virtual encoder and
# its writeback encoder, so the core counts each a clone of itself only, and
# drm_atomic_helper_check_modeset refuses any commit routing both to the CRTC ("failed valid clone
# check for mask 0x3", EINVAL, with or without ALLOW_MODESET): the writeback connector could then
# capture only a CRTC that shows nothing. As on display controllers with writeback, the two are
# made clones of each other, so the writeback connector captures the picture Virtual-2 shows.
python3 - "$work/vkms/vkms_output.c" <<'PY' || die "cannot patch vkms_output.c (not the 6.1 source this script knows)"
import sys
path = sys.argv[1]
text = open(path).read()
anchor = '\t\tif (writeback)\n\t\t\tDRM_ERROR("Failed to init writeback connector\\n");\n'
if text.count(anchor) != 1:
    sys.exit(1)
clones = ('\t\telse {\n'
          '\t\t\tencoder->possible_clones = drm_encoder_mask(encoder) |\n'
          '\t\t\t\tdrm_encoder_mask(&vkmsdev->output.wb_connector.encoder);\n'
          '\t\t\tvkmsdev->output.wb_connector.encoder.possible_clones = encoder->possible_clones;\n'
          '\t\t}\n')
open(path, 'w').write(text.replace(anchor, anchor + clones))
PY
echo "vkms-module: vkms_output.c patched: the Virtual and writeback encoders are clones of each other" >&2
timeout 600 make -s -C "/lib/modules/$KVER/build" M="$work/vkms" CONFIG_DRM_VKMS=m modules >&2 ||
  die "building vkms.ko against /lib/modules/$KVER/build failed"

# The kernel refuses a module whose vermagic differs from its own; say so here, not in the guest.
want=$(modinfo -F vermagic "/lib/modules/$KVER/kernel/drivers/gpu/drm/drm.ko"* 2>/dev/null | head -1)
got=$(modinfo -F vermagic "$work/vkms/vkms.ko")
[ -n "$want" ] && [ "$got" = "$want" ] || die "vkms.ko has vermagic '$got' but the guest kernel's modules have '$want'"

mv "$work/vkms/vkms.ko" "$out/vkms.ko"
echo "$key" > "$out/key"
echo "$out/vkms.ko"
