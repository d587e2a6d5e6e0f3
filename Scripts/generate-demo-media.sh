#!/usr/bin/env bash
# Generates the demo playlist's media into Config/media/ (ignored by git): small clips from
# ffmpeg's lavfi sources, so nothing large is committed.
set -euo pipefail
cd "$(dirname "$0")/../Config"
mkdir -p media
make_clip() { # name, seconds, lavfi video source, tone Hz
  [ -s "media/$1" ] && return 0
  ffmpeg -loglevel error -y -f lavfi -i "$3" -f lavfi -i "sine=frequency=$4:sample_rate=48000" \
    -t "$2" -c:v libx264 -pix_fmt yuv420p -g 30 -c:a aac -shortest "media/$1"
}
make_clip intro.mp4 6 "testsrc2=size=640x360:rate=30" 440
make_clip loop.mp4 4 "smptebars=size=640x360:rate=30" 660
[ -s media/menu.png ] || ffmpeg -loglevel error -y -f lavfi -i "color=c=navy:size=640x360,drawgrid=w=80:h=80:c=white" -frames:v 1 media/menu.png
echo "demo media in Config/media/"
