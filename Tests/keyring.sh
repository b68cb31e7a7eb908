# keyring.sh: sourced. unlock_keyring [PASSWORD]: starts gnome-keyring's Secret Service for this D-Bus session with
# an unlocked login keyring (created with PASSWORD, default test-password, in $XDG_DATA_HOME/keyrings), and exports
# GNOME_KEYRING_CONTROL. A locked keyring would make libsecret open a prompt and block. The one place the tests, the
# benchmarks and the package test unlock it.
unlock_keyring() {
  eval "$(printf '%s' "${1:-test-password}" | gnome-keyring-daemon --unlock --components=secrets)"
  export GNOME_KEYRING_CONTROL
}
