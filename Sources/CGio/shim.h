// GLib and GIO without any toolkit (GApplication, GNotification, D-Bus, Unix descriptors), for what runs without a
// window: the reminder service, and GtkSupport's GLib-only half.
#ifndef B2C_CGIO_SHIM_H
#define B2C_CGIO_SHIM_H

#include <gio/gio.h>
#include <glib-unix.h>
#include <sys/timerfd.h>
#include <malloc.h>
#include <locale.h>
#include <libintl.h>

// libdispatch's hooks for driving its main queue from a foreign run loop (CoreFoundation uses them).
// On Linux the handle is an eventfd that becomes readable when main-queue work is pending.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *_Nullable msg);

// G_CALLBACK() is a macro; this gives Swift the same conversion.
static inline GCallback _Nonnull b2c_gcallback(const void *_Nonnull function) {
  return (GCallback)function;
}

#endif
