#!/usr/bin/env bash
# Prints a path of FILE that the guest can open: the guest sees the host's root over 9p, but its
# /tmp, /run, /var/tmp and /dev/shm are its own tmpfs, so a FILE there (a clone of the repo under
# /tmp, say) is copied into SHARE, the read-write share mounted at the same path in the guest.
# usage: Deploy/vm/guest-visible.sh FILE SHARE
set -euo pipefail
file=$1 share=$2
case "$file" in
  /tmp/*|/run/*|/var/tmp/*|/dev/shm/*)
    cp "$file" "$share/$(basename "$file")"
    echo "$share/$(basename "$file")" ;;
  *) echo "$file" ;;
esac
