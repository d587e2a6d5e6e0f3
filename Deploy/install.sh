#!/usr/bin/env bash
# Installs Marquee as a supervised kiosk service on Debian 12 or Raspberry Pi OS (bookworm):
# the runtime libraries (apt), the binary, an example config, a dedicated `marquee` user in the
# video, audio, input and render groups, and the systemd unit (Type=notify, watchdog, Restart=always).
#
# usage: Deploy/install.sh [--binary PATH] [--config FILE] [--destdir DIR] [--dry-run] [--no-packages]
#   --binary PATH   the marquee executable (default: a release build with the Swift runtime linked in,
#                   `swift build -c release --static-swift-stdlib --product marquee`)
#   --config FILE   installed as /etc/marquee/marquee.yaml if none is there yet (default: Config/signage-loop.yaml)
#   --destdir DIR   stage every file under DIR and change nothing else: no packages, no user, no
#                   systemctl (for packaging and tests); implies --no-packages
#   --dry-run       print what would be done, do nothing
#   --no-packages   skip apt-get
#
# Afterwards, so that nothing but the picture shows, add to the kernel command line:
#   consoleblank=0            the console never blanks (the kernel default blanks it after 10 min)
#   vt.global_cursor_default=0  no blinking text cursor over the picture
#   quiet loglevel=3          no kernel messages on the screen
# Debian: GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then `update-grub`.
# Raspberry Pi OS: the single line of /boot/firmware/cmdline.txt (older: /boot/cmdline.txt).
# This script prints these instructions at the end; it does not edit the boot configuration.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
binary= config=$repo/Config/signage-loop.yaml destdir= dry=0 packages=1

while [ $# -gt 0 ]; do
  case $1 in
    --binary) binary=$2; shift 2;;
    --config) config=$2; shift 2;;
    --destdir) destdir=$2; packages=0; shift 2;;
    --dry-run) dry=1; shift;;
    --no-packages) packages=0; shift;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0;;
    *) echo "install: unknown option $1 (see --help)" >&2; exit 2;;
  esac
done

# The libraries the release binary links (Debian 12 / Raspberry Pi OS bookworm names).
RUNTIME_PACKAGES=(libavformat59 libavcodec59 libavutil57 libswscale6 libswresample4 libavfilter8
                  libdrm2 libasound2 libevdev2 alsa-utils
                  libfreetype6 libharfbuzz0b libfribidi0 fonts-dejavu-core libmosquitto1 libcurl4 libmicrohttpd12)
GROUPS_NEEDED=(video audio input render)

run() {  # echo, and run unless --dry-run
  echo "+ $*"
  [ "$dry" = 1 ] || "$@"
}
live() { [ -z "$destdir" ]; }  # changing the running system (not staging into --destdir)

if live && [ "$dry" = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install: run as root (or use --dry-run / --destdir DIR)" >&2; exit 1
fi

if [ -z "$binary" ]; then
  if [ "$dry" = 1 ]; then
    binary=$repo/.build/release/marquee
  else
    (cd "$repo" && swift build -c release --static-swift-stdlib --product marquee >&2)
    binary=$(cd "$repo" && swift build -c release --static-swift-stdlib --show-bin-path)/marquee
  fi
fi
[ "$dry" = 1 ] || [ -x "$binary" ] || { echo "install: no executable at $binary" >&2; exit 1; }
[ -f "$config" ] || { echo "install: no config at $config" >&2; exit 1; }

if [ "$packages" = 1 ]; then
  run apt-get update
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${RUNTIME_PACKAGES[@]}"
fi

root=${destdir%/}
run install -d -m 0755 "$root/usr/local/bin" "$root/etc/marquee" "$root/etc/marquee/media" "$root/etc/systemd/system"
run install -m 0755 "$binary" "$root/usr/local/bin/marquee"
if [ -e "$root/etc/marquee/marquee.yaml" ]; then
  echo "install: keeping the existing $root/etc/marquee/marquee.yaml"
else
  # 0640 root:marquee: a config may hold user:password@ URLs; the player reads it through its group.
  run install -m 0640 "$config" "$root/etc/marquee/marquee.yaml"
  new_config=1
fi
run install -m 0644 "$here/systemd/marquee.service" "$root/etc/systemd/system/marquee.service"

if live; then
  groups=()
  for g in "${GROUPS_NEEDED[@]}"; do getent group "$g" >/dev/null && groups+=("$g"); done
  if id marquee >/dev/null 2>&1; then
    run usermod -a -G "$(IFS=,; echo "${groups[*]}")" marquee
  else
    run useradd --system --home-dir /var/lib/marquee --no-create-home --shell /usr/sbin/nologin \
      --user-group --groups "$(IFS=,; echo "${groups[*]}")" marquee
  fi
  if [ "${new_config:-0}" = 1 ]; then run chgrp marquee "$root/etc/marquee/marquee.yaml"; fi
  if command -v systemctl >/dev/null; then
    run systemctl daemon-reload
    # The player takes tty1; its login prompt would fight it for the screen.
    run systemctl disable getty@tty1.service
    run systemctl enable marquee.service
  fi
  if [ "$dry" = 0 ]; then
    /usr/local/bin/marquee check /etc/marquee/marquee.yaml || echo "install: fix /etc/marquee/marquee.yaml, then: systemctl restart marquee" >&2
  fi
fi

cat <<'DOC'
install: done. Start it with `systemctl start marquee`; after editing /etc/marquee/marquee.yaml
(write a temporary file and rename it over the config), `systemctl reload marquee` applies it at
the next item. Logs: `journalctl -u marquee`.
Steer it with `marquee ctl status`, `marquee ctl next`, ... (the socket is
/run/marquee/control.sock, for root and the marquee group: `usermod -aG marquee OPERATOR`).
To keep the console from blanking or showing through, add to the kernel command line:
  consoleblank=0 vt.global_cursor_default=0 quiet loglevel=3
  Debian: GRUB_CMDLINE_LINUX_DEFAULT in /etc/default/grub, then update-grub
  Raspberry Pi OS: the one line of /boot/firmware/cmdline.txt
DOC
