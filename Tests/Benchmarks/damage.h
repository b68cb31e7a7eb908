/* damage.h: what scroll.c and click.c share: the X display with the DAMAGE and XTEST extensions, a clock, and
 * waiting for a window's frames (its damage reports). */
#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <X11/extensions/Xdamage.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static Display *display;
static int damage_event;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Opens the display; exits saying so when it lacks DAMAGE or XTEST. */
static void open_display(const char *program) {
  int damage_error, ignore;
  display = XOpenDisplay(NULL);
  if (!display || !XDamageQueryExtension(display, &damage_event, &damage_error) ||
      !XTestQueryExtension(display, &ignore, &ignore, &ignore, &ignore)) {
    fprintf(stderr, "%s: no X display with DAMAGE and XTEST\n", program);
    exit(1);
  }
}

/* Waits up to timeout_ms for the window's next damage; answers when it came, or -1. */
static double wait_for_damage(Damage damage, double timeout_ms) {
  double deadline = now_ms() + timeout_ms;
  for (;;) {
    while (XPending(display)) {
      XEvent event;
      XNextEvent(display, &event);
      if (event.type == damage_event + XDamageNotify) {
        double at = now_ms();
        XDamageSubtract(display, damage, None, None);
        return at;
      }
    }
    double left = deadline - now_ms();
    if (left <= 0) return -1;
    struct pollfd fd = {ConnectionNumber(display), POLLIN, 0};
    poll(&fd, 1, (int)left + 1);
  }
}

/* Lets the window finish what it was drawing: waits until quiet_ms pass without damage. */
static void settle(Damage damage, double quiet_ms) {
  while (wait_for_damage(damage, quiet_ms) >= 0) {
  }
}
