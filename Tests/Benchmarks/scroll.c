/* scroll.c WINDOW LIST_TOP: scrolls a list window as a person would and times each frame, for
 * Tests/Benchmarks/startup-and-scale.sh. WINDOW is an X window id, LIST_TOP the height in pixels above the list.
 *
 *   drag:  the scroll bar's slider dragged from the top of the list to its bottom in 2 s (a long list passes by
 *          whole, rows bound anew at every frame);
 *   wheel: then the mouse wheel turned up, a click every 8 ms for 2 s.
 *
 * Input comes faster than 60 Hz, so a program that keeps up shows a new frame every 16.7 ms. The frames are the
 * window's damage reports (the X server sees each new frame; reports less than 4 ms apart are one frame). Prints,
 * per phase: frames, the median and worst interval between them, and how many intervals were longer than 16 ms
 * beyond a 60 Hz frame's (over 25 ms: a frame that took more than its 16.7 ms and was shown a refresh late). */
#include "damage.h"

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double frames[8192];
static int frame_count;

/* Collects the window's frames until `until` (a now_ms time). */
static void collect(Damage damage, double until) {
  double at;
  while ((at = wait_for_damage(damage, until - now_ms())) >= 0) {
    if (frame_count == 0 || at - frames[frame_count - 1] >= 4.0) {
      if (frame_count < 8192) frames[frame_count++] = at;
    }
  }
}

static void report(const char *phase) {
  static double intervals[8192];
  int count = frame_count - 1, late = 0;
  if (count < 1) {
    printf("%s: no frames\n", phase);
    return;
  }
  for (int i = 0; i < count; i++) {
    intervals[i] = frames[i + 1] - frames[i];
    late += intervals[i] > 25.0;
  }
  qsort(intervals, count, sizeof *intervals, compare);
  printf("%s: %d frames, interval median %.1f ms, worst %.1f ms, frames over 16 ms: %d\n", phase, frame_count,
         intervals[count / 2], intervals[count - 1], late);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: scroll WINDOW LIST_TOP\n");
    return 2;
  }
  Window window = strtoul(argv[1], NULL, 0);
  int list_top = atoi(argv[2]);
  open_display("scroll");
  XWindowAttributes attributes;
  XGetWindowAttributes(display, window, &attributes);
  int x, y;
  Window child;
  XTranslateCoordinates(display, window, attributes.root, 0, 0, &x, &y, &child);
  Damage damage = XDamageCreate(display, window, XDamageReportNonEmpty);
  XRaiseWindow(display, window);
  XSync(display, False);

  /* Drag: the slider, at the top of the scroll bar at the right edge of the list, down to the bottom. */
  int bar_x = x + attributes.width - 5, top = y + list_top + 4, bottom = y + attributes.height - 4;
  XTestFakeMotionEvent(display, -1, bar_x, top, CurrentTime);
  XSync(display, False);
  settle(damage, 50);
  XTestFakeButtonEvent(display, 1, True, CurrentTime);
  XSync(display, False);
  settle(damage, 50);
  frame_count = 0;
  for (int step = 1; step <= 250; step++) {
    XTestFakeMotionEvent(display, -1, bar_x, top + (bottom - top) * step / 250, CurrentTime);
    XFlush(display);
    collect(damage, now_ms() + 8);
  }
  collect(damage, now_ms() + 100);
  XTestFakeButtonEvent(display, 1, False, CurrentTime);
  XSync(display, False);
  report("drag");
  settle(damage, 50);

  /* Wheel: over the middle of the list, from the bottom up. */
  XTestFakeMotionEvent(display, -1, x + attributes.width / 2, y + list_top + (attributes.height - list_top) / 2,
                       CurrentTime);
  XSync(display, False);
  settle(damage, 50);
  frame_count = 0;
  for (int i = 0; i < 250; i++) {
    XTestFakeButtonEvent(display, 4, True, CurrentTime);
    XTestFakeButtonEvent(display, 4, False, CurrentTime);
    XFlush(display);
    collect(damage, now_ms() + 8);
  }
  collect(damage, now_ms() + 100);
  report("wheel");
  XDamageDestroy(display, damage);
  XCloseDisplay(display);
  return 0;
}
