# in-desktop.sh: sourced first by each benchmark script, with $repo set: runs the script again inside its own Xvfb
# display and D-Bus session (once: B2C_BENCH_INSIDE marks the second run), with the same arguments.
if [ -z "${B2C_BENCH_INSIDE:-}" ]; then
  export B2C_BENCH_INSIDE=1
  exec "$repo/Tests/xvfb.sh" dbus-run-session -- "$0" "$@"
fi
