/* baseline.c: the start-up baseline of Tests/Benchmarks/startup-and-scale.sh: an empty libadwaita window with a
 * header bar and a 20-row list of check buttons, as little as a GNOME task list can be. */
#include <adwaita.h>

static void activate(GtkApplication *app, gpointer data) {
  GtkWidget *window = adw_application_window_new(app);
  gtk_window_set_title(GTK_WINDOW(window), "Baseline");
  gtk_window_set_default_size(GTK_WINDOW(window), 720, 560);
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append(GTK_BOX(box), adw_header_bar_new());
  GtkWidget *list = gtk_list_box_new();
  for (int i = 1; i <= 20; i++) {
    char text[32];
    g_snprintf(text, sizeof text, "task number %d", i);
    gtk_list_box_append(GTK_LIST_BOX(list), gtk_check_button_new_with_label(text));
  }
  GtkWidget *scrolled = gtk_scrolled_window_new();
  gtk_widget_set_vexpand(scrolled, TRUE);
  gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), list);
  gtk_box_append(GTK_BOX(box), scrolled);
  adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), box);
  gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
  AdwApplication *app = adw_application_new("io.github.b2ctasks.Baseline", G_APPLICATION_NON_UNIQUE);
  g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
  int status = g_application_run(G_APPLICATION(app), argc, argv);
  g_object_unref(app);
  return status;
}
