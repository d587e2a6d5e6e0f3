#!/usr/bin/env bash
# Installs the Debian packages Marquee builds and tests against, or the packages given as
# arguments (Deploy/vm/install-deps.sh passes the guest harness's). Idempotent: skips apt when all
# are present, so re-running the README commands costs nothing.
set -euo pipefail

packages=("$@")
[ ${#packages[@]} -gt 0 ] || packages=(
  pkg-config
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev libavfilter-dev
  libdrm-dev libasound2-dev libevdev-dev
  libfreetype-dev libharfbuzz-dev libfribidi-dev fonts-dejavu-core tesseract-ocr   # OSD text; tesseract reads it back in tests
  ffmpeg            # test fixtures are generated with the ffmpeg CLI
  libmosquitto-dev  # MQTT (MarqueeMQTT)
  mosquitto mosquitto-clients   # the broker and mosquitto_pub/sub, for the MQTT tests
  libcurl4-openssl-dev  # HTTP(S) downloads (MarqueeCurl)
  openssl           # the curl tests make a throwaway CA and run openssl s_server
  libmicrohttpd-dev # the /metrics HTTP server (MarqueeHTTPServer)
  prometheus        # the metrics tests scrape with a real Prometheus and lint with promtool
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing: ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
