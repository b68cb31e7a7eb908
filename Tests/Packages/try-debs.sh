#!/bin/sh
# try-debs.sh DEBS RELEASE…: installs the packages in DEBS into a clean root of each Debian RELEASE (bookworm,
# trixie) made with mmdebstrap from Debian's archive, and tries them as a user would: `apt-get install` pulls in
# their dependencies; in a private network namespace, under Xvfb with a D-Bus session and an unlocked keyring, the
# launcher's entry (gtk4-launch) starts the app, which signs in to the packaged b2c-playground by typing, shows the
# list and adds a task that b2c-tasks-cli then lists; b2c-tasks-api's unit passes `systemd-analyze verify` and its
# command line serves /ready on SQLite; the root booted with systemd-nspawn runs service-check.sh (the unit's life
# under systemd, with its maintainer scripts: install, enable, serve with its hardening, upgrade, remove, purge);
# `apt-get purge` leaves no file of the packages behind (but the tasks that purge says it keeps). Prints the packages'
# sizes and install times. The roots' tools (Xvfb, AT-SPI, xdotool, …) are cached in .build/debian-roots/ (made
# again after a week, or when the list changes). As root.
# try-debs.sh --prepare RELEASE…: only makes (or finds) the roots, so that their download can overlap the packages'
# build.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
prepare=false
if [ "$1" = --prepare ]; then prepare=true; else debs=$(cd "$1" && pwd); fi
shift
cache="$repo/.build/debian-roots"
mkdir -p "$cache"
tools="xvfb,xauth,dbus,dbus-user-session,gnome-keyring,libgtk-4-bin,python3-pyatspi,gir1.2-atspi-2.0,at-spi2-core"
tools="$tools,xdotool,x11-apps,curl,systemd,passwd,fonts-cantarell"
root=""

unmount_root() {
  [ -n "$root" ] || return 0
  unmount_kernel
  rm -rf --one-file-system "$root"
  root=""
}
trap unmount_root EXIT

in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

# What a chroot needs of the kernel (and a fresh /tmp and /run); taken away again before systemd-nspawn boots it.
mount_kernel() {
  mount -t proc proc "$root/proc"
  mount -t sysfs sysfs "$root/sys"
  mount --rbind /dev "$root/dev"
  mount -t tmpfs tmpfs "$root/tmp"
  mount -t tmpfs tmpfs "$root/run"
}
unmount_kernel() {
  for mount in $(awk -v root="$root" '$2 ~ "^"root"/" {print $2}' /proc/mounts | sort -r); do
    umount -l "$mount" 2>/dev/null || true
  done
}

# The cached root of release $1 with the test tools, made if missing or older than a week.
make_base() {
  base="$cache/$1-$(echo "$tools" | md5sum | cut -c1-8).tar"
  if [ -z "$(find "$base" -mtime -7 2>/dev/null)" ]; then
    echo "== $1: making a clean root with the test tools"
    mmdebstrap --quiet --format=tar --variant=apt --include="$tools" "$1" "$base.new" http://deb.debian.org/debian
    mv "$base.new" "$base"
  fi
}

try_release() {
  release=$1
  make_base "$release"
  root=$(mktemp -d "/tmp/b2c-tasks-$release.XXXXXX")
  tar -xf "$base" -C "$root"
  mount_kernel
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mkdir -p "$root/tmp/debs"
  cp "$debs"/b2c-tasks_*.deb "$debs"/b2c-tasks-api_*.deb "$debs"/b2c-playground_*.deb "$root/tmp/debs/"
  snapshot() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
      -o -path ./var/cache -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/log -o -path ./home \) -prune \
      -o -print | sort)
  }

  echo "== $release: apt-get install the packages"
  in_root apt-get update -q >/dev/null
  # The time a user waits: the dependencies are downloaded from the archive, then everything is unpacked.
  start=$(date +%s.%N)
  in_root sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/debs/*.deb' \
    >"$root/tmp/install.log" || { tail -n 30 "$root/tmp/install.log"; exit 1; }
  end=$(date +%s.%N)
  echo "$release: apt-get install of the three packages and their dependencies: $(awk "BEGIN { printf \"%.1f\", $end - $start }") s"
  in_root dpkg-query -W -f='${Package} ${Version} ${Installed-Size} KiB installed\n' b2c-tasks b2c-tasks-api \
    b2c-playground
  owned=$(in_root dpkg -L b2c-tasks b2c-tasks-api b2c-playground | sort -u)

  echo "== $release: the launcher's entry, a sign-in by typing, a task, the CLI"
  in_root useradd --create-home --shell /bin/sh tester
  cp "$repo/Tests/Packages/launcher-check.py" "$repo/Tests/Packages/in-session.sh" "$repo/Tests/keyring.sh" "$root/tmp/"
  # A network of its own (only loopback, where the playground, the app and the service meet), and the root as the
  # real root of a mount namespace, not a chroot: WebKit's sandbox (bubblewrap) makes user namespaces, which the
  # kernel refuses to a chrooted process.
  unshare --mount --net --fork sh -c "ip link set lo up && mount --make-rprivate / && mount --rbind '$root' '$root' \
    && mkdir -p '$root/.old-root' && cd '$root' && pivot_root . .old-root && umount -l /.old-root \
    && rmdir /.old-root && exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    runuser -u tester -- sh /tmp/in-session.sh" || {
    artifacts="$repo/.build/test-artifacts/debian-$release"
    mkdir -p "$artifacts" && cp "$root"/tmp/*.log "$root"/tmp/*.xwd "$artifacts/" 2>/dev/null
    echo "the session's logs and last screen are in $artifacts" >&2
    exit 1
  }

  echo "== $release: b2c-tasks-api's unit"
  in_root systemd-analyze verify /lib/systemd/system/b2c-tasks-api.service
  mode=$(stat -c %a "$root/etc/b2c-tasks-api/b2c-tasks-api.env")
  [ "$mode" = 600 ] || { echo "the environment file has mode $mode" >&2; exit 1; }
  command=$(sed -n 's/^ExecStart=//p' "$root/lib/systemd/system/b2c-tasks-api.service")
  issuer="http://127.0.0.1:5995/b2ctasks.onmicrosoft.com/B2C_1_SignUpOrSignIn/v2.0/.well-known/openid-configuration"
  options="--issuer-metadata $issuer --audience 6f1c3a52-93b4-4c1e-9a57-2d8e0b7c4f10"
  unshare --net sh -c "ip link set lo up && chroot '$root' env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    B2C_TASKS_API_OPTIONS='$options' XDG_DATA_HOME=/tmp/api-state sh -c '
      $command & api=\$!
      for i in \$(seq 1 120); do
        if curl -sf http://127.0.0.1:8080/ready >/dev/null; then echo \"/ready answers 200 on SQLite\"; kill \$api; exit 0; fi
        sleep 0.5
      done
      echo \"/ready never answered\" >&2; kill \$api; exit 1'"

  echo "== $release: b2c-tasks-api.service under systemd (the root booted by systemd-nspawn)"
  check="$root/root/b2c-check"
  mkdir -p "$check"
  cp "$debs"/b2c-tasks-api_*.deb "$repo/Tests/Packages/service-check.sh" "$repo/Tests/keyring.sh" \
    "$repo/Tests/TasksTestSupport/scripted-browser.sh" "$repo/Tests/TasksTestSupport/hand-over-target.sh" "$check/"
  printf '[Unit]\nDescription=The package test of b2c-tasks-api.service\n[Service]\nType=oneshot\n%s\n' \
    "ExecStart=/bin/sh /root/b2c-check/service-check.sh" >"$root/etc/systemd/system/b2c-service-check.service"
  mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
  ln -s ../b2c-service-check.service "$root/etc/systemd/system/multi-user.target.wants/b2c-service-check.service"
  unmount_kernel
  timeout 900 systemd-nspawn --quiet --register=no --keep-unit --private-network --directory="$root" --boot \
    --console=read-only >"$root/root/boot.log" 2>&1 || true
  cat "$check/service-check.log" 2>/dev/null || true
  if [ "$(cat "$check/service-check.status" 2>/dev/null)" != 0 ]; then
    echo "the booted root's last lines:" >&2
    tail -n 40 "$root/root/boot.log" >&2
    exit 1
  fi
  rm -rf "$check" "$root/root/boot.log" "$root/etc/systemd/system/b2c-service-check.service" \
    "$root/etc/systemd/system/multi-user.target.wants/b2c-service-check.service"
  # The tasks purge kept (and said so): an administrator who wants them gone deletes them, as it says.
  rm -rf "$root/var/lib/private/b2c-tasks-api" "$root/var/lib/b2c-tasks-api"
  mount_kernel

  echo "== $release: apt-get purge"
  in_root userdel --remove tester 2>/dev/null || true
  # (b2c-tasks-api was purged under systemd above.)
  in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q b2c-tasks b2c-playground >/dev/null
  left=""
  for path in $owned; do
    if [ -e "$root$path" ] && [ ! -d "$root$path" ]; then left="$left $path"; fi
  done
  after=$(snapshot)
  extra=$(echo "$after" | grep -i 'b2c' || true)
  if [ -n "$left" ] || [ -n "$extra" ]; then
    echo "left behind after purge:$left $extra" >&2
    exit 1
  fi
  echo "$release: nothing of ours is left after apt-get purge"
  unmount_root
}

if $prepare; then
  for release in "$@"; do make_base "$release"; done
else
  for release in "$@"; do try_release "$release"; done
fi
