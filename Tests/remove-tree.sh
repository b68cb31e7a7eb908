#!/bin/sh
# remove-tree.sh DIR: removes a test's private tree once nothing is mounted in it. Without XDG_RUNTIME_DIR,
# xdg-document-portal mounts its FUSE file system at $XDG_CACHE_HOME/doc and unmounts it only a moment after its D-Bus
# session has ended; waits up to 10 s for that, then detaches what is still there.
dir=$1
deadline=$(($(date +%s) + 10))
while grep -q " $dir/" /proc/mounts && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.1; done
grep " $dir/" /proc/mounts | cut -d' ' -f2 | while read -r mount; do fusermount3 -u -z "$mount" 2>/dev/null || umount -l "$mount"; done
rm -rf "$dir"
