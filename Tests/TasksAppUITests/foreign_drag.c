/* foreign_drag.c: another application's window whose label, dragged, offers the text given as its argument (a
 * hostile drop on B2C Tasks' rows in PlannerUITests). Prints "ready" once shown, then how each drag ended:
 * "dropped" when a target took it, "cancel N" (a GdkDragCancelReason) when none did. Built by the test. */

#include <gtk/gtk.h>
#include <stdio.h>

static const char *payload;

static GdkContentProvider *prepare(GtkDragSource *source, double x, double y, gpointer data) {
  GValue value = G_VALUE_INIT;
  g_value_init(&value, G_TYPE_STRING);
  g_value_set_string(&value, payload);
  GdkContentProvider *provider = gdk_content_provider_new_for_value(&value);
  g_value_unset(&value);
  return provider;
}

static void drag_end(GtkDragSource *source, GdkDrag *drag, gboolean delete_data, gpointer data) {
  printf("dropped %d\n", delete_data);
  fflush(stdout);
}

static gboolean drag_cancel(GtkDragSource *source, GdkDrag *drag, GdkDragCancelReason reason, gpointer data) {
  printf("cancel %d\n", reason);
  fflush(stdout);
  return FALSE;
}

static void activate(GtkApplication *application, gpointer data) {
  GtkWidget *window = gtk_application_window_new(application);
  gtk_window_set_title(GTK_WINDOW(window), "Foreign drag");
  gtk_window_set_default_size(GTK_WINDOW(window), 160, 60);
  GtkWidget *label = gtk_label_new("Drag me");
  GtkDragSource *source = gtk_drag_source_new();
  gtk_drag_source_set_actions(source, GDK_ACTION_MOVE | GDK_ACTION_COPY);
  g_signal_connect(source, "prepare", G_CALLBACK(prepare), NULL);
  g_signal_connect(source, "drag-end", G_CALLBACK(drag_end), NULL);
  g_signal_connect(source, "drag-cancel", G_CALLBACK(drag_cancel), NULL);
  gtk_widget_add_controller(label, GTK_EVENT_CONTROLLER(source));
  gtk_window_set_child(GTK_WINDOW(window), label);
  gtk_window_present(GTK_WINDOW(window));
  printf("ready\n");
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  payload = argv[1];
  GtkApplication *application = gtk_application_new(NULL, G_APPLICATION_NON_UNIQUE);
  g_signal_connect(application, "activate", G_CALLBACK(activate), NULL);
  int status = g_application_run(G_APPLICATION(application), 1, argv);
  g_object_unref(application);
  return status;
}
