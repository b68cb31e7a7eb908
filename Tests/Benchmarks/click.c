/* click.c WINDOW X Y [X Y]...: clicks points of a window as a person would and times how long the window takes to
 * answer each click with a frame, for Tests/Benchmarks/planner-ui.py. X and Y are screen pixels (where the
 * accessibility bus places a widget, as the UI tests click it).
 *
 * For each point in turn: the pointer moves there and the window settles (no frame for 100 ms); the button goes
 * down and the window settles again (a pressed row is drawn); then the button comes up, which is when GTK's list
 * box activates a row, and the time to the window's next damage report is that click's answer. The window then
 * settles before the next point. Prints one line per click: "click INDEX: MS" (or "click INDEX: none" when no frame
 * came within 2 s). */
#include "damage.h"

int main(int argc, char **argv) {
  if (argc < 4 || argc % 2 != 0) {
    fprintf(stderr, "usage: click WINDOW X Y [X Y]...\n");
    return 2;
  }
  Window window = strtoul(argv[1], NULL, 0);
  open_display("click");
  Damage damage = XDamageCreate(display, window, XDamageReportNonEmpty);
  XRaiseWindow(display, window);
  XSync(display, False);
  settle(damage, 100);
  for (int point = 0; 2 + 2 * point < argc; point++) {
    XTestFakeMotionEvent(display, -1, atoi(argv[2 + 2 * point]), atoi(argv[3 + 2 * point]), CurrentTime);
    XSync(display, False);
    settle(damage, 100);
    XTestFakeButtonEvent(display, 1, True, CurrentTime);
    XSync(display, False);
    settle(damage, 100);
    XTestFakeButtonEvent(display, 1, False, CurrentTime);
    XSync(display, False);
    double released = now_ms(), answered = wait_for_damage(damage, 2000);
    if (answered < 0) {
      printf("click %d: none\n", point);
    } else {
      printf("click %d: %.1f\n", point, answered - released);
    }
    fflush(stdout);
    settle(damage, 100);
  }
  XDamageDestroy(display, damage);
  XCloseDisplay(display);
  return 0;
}
