// GTK 4, libadwaita 1.2 and GLib as seen from Swift, plus the few things Swift cannot import by itself.
#ifndef B2C_CGTK_SHIM_H
#define B2C_CGTK_SHIM_H

#include <adwaita.h>
#include <glib-unix.h>
#include <gtk/gtk.h>
#include <libintl.h>
#include <locale.h>
#include <malloc.h>


// G_CALLBACK() and friends are macros; these give Swift the same conversions.
static inline GCallback _Nonnull b2c_callback(const void *_Nonnull function) {
  return (GCallback)function;
}

// gtk_accessible_update_property() is variadic: one property at a time for Swift.
static inline void b2c_accessible_set_label(GtkWidget *_Nonnull widget, const char *_Nonnull label) {
  gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

// gtk_accessible_update_state() is variadic too: whether assistive technologies skip the widget and what it holds
// (GTK 4.8 presents a closed search bar's entry and a stack's never-shown page otherwise).
static inline void b2c_accessible_set_hidden(GtkWidget *_Nonnull widget, gboolean hidden) {
  gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

static inline void b2c_accessible_set_description(GtkWidget *_Nonnull widget, const char *_Nonnull description) {
  gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

// g_signal_emit_by_name() is variadic: a signal without arguments or return value (what a user's action emits; the
// tests of the typed views emit it as the user would).
static inline void b2c_signal_emit(gpointer _Nonnull instance, const char *_Nonnull name) {
  g_signal_emit_by_name(instance, name);
}

// g_debug() is a variadic macro: a message (never a secret) in the "b2c-tasks" log domain, which GLib prints with
// a timestamp when G_MESSAGES_DEBUG names the domain (or "all").
static inline void b2c_debug(const char *_Nonnull message) {
  g_log("b2c-tasks", G_LOG_LEVEL_DEBUG, "%s", message);
}

// G_TYPE_OBJECT is a macro: a list store of plain objects, and a plain object (a row's stand-in in `RowSlots`).
static inline GListStore *_Nonnull b2c_object_store_new(void) {
  return g_list_store_new(G_TYPE_OBJECT);
}

static inline gpointer _Nonnull b2c_plain_object_new(void) {
  return g_object_new(G_TYPE_OBJECT, NULL);
}

// G_TYPE_STRING is a macro too: a drop target taking text, and a content provider offering it.
static inline GtkDropTarget *_Nonnull b2c_text_drop_target_new(GdkDragAction actions) {
  return gtk_drop_target_new(G_TYPE_STRING, actions);
}

static inline GdkContentProvider *_Nonnull b2c_text_content_provider_new(const char *_Nonnull text) {
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_STRING);
  g_value_set_string(&value, text);
  GdkContentProvider *provider = gdk_content_provider_new_for_value(&value);
  g_value_unset(&value);
  return provider;
}

#endif