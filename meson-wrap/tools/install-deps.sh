#!/bin/sh
# install-deps.sh [--debs|--tests]: installs the Debian 12 packages B2C Tasks needs to build and run (with --debs,
# to build its Debian packages too; with --tests, to run its tests, which build and try the packages: Xvfb,
# gnome-keyring, xdotool, AT-SPI, ImageMagick, mmdebstrap). Installs only what is missing; as root, or through sudo
# otherwise.
set -eu

packages="libgtk-4-dev libadwaita-1-dev libwebkitgtk-6.0-dev libsecret-1-dev libsoup-3.0-dev glib-networking libsqlite3-dev libxml2-dev
  meson ninja-build gettext libglib2.0-dev-bin libglib2.0-bin libxml2-utils desktop-file-utils appstream
  gnome-keyring dbus dbus-x11 at-spi2-core adwaita-icon-theme fonts-cantarell curl gcc"
debs="debhelper dpkg-dev pkgconf libcurl4-openssl-dev lintian"
if [ "${1:-}" = "--debs" ]; then
  packages="$packages $debs"
fi
if [ "${1:-}" = "--tests" ]; then
  # libgtk-4-bin: gtk4-launch, as the launcher starts apps; bubblewrap and xdg-dbus-proxy to call the broker from a
  # sandbox as Flatpak does (behind a filtered bus); a CJK
  # font for the Chinese screenshots; sqlite3 for the benchmarks (seeding tasks; gcc, there for the WebKit plugin, builds their C baseline), libxtst-dev and
  # libxdamage-dev for scroll.c's XTEST and DAMAGE;
  # python3-venv for the interoperability tests' OpenID Connect provider (Tests/Interop/django-oidc, from PyPI);
  # ca-certificates for update-ca-certificates (the TLS tests trust a throwaway authority for their run); strace to
  # see the modes the playground creates its secret files with; PostgreSQL and nginx for b2c-tasks-api's tests (a
  # cluster and balancer of the tests' own on private ports, whatever Debian's services do); mmdebstrap for the
  # clean Debian 12 and 13 systems the packages are tried in, and systemd-container to boot them (systemd-nspawn)
  # for b2c-tasks-api.service's life under systemd; tinyproxy for b2c-tasks-api's reads of its issuers through the
  # proxy the environment names (a proxy of the tests' own on a private port).
  packages="$packages ca-certificates strace xvfb xauth xdotool imagemagick python3-pyatspi gir1.2-atspi-2.0 python3-gi libsecret-tools wrk bubblewrap
    xdg-dbus-proxy libgtk-4-bin fonts-wqy-microhei sqlite3 libxtst-dev libxdamage-dev python3-venv postgresql nginx-light
    evolution-data-server gir1.2-ecal-2.0 gir1.2-edataserver-1.2 tinyproxy
    $debs mmdebstrap systemd-container"
fi

missing=""
for package in $packages; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing="$missing $package"
done
[ -z "$missing" ] && exit 0

echo "Installing:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -q
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
