/* baseline.c: the baselines of Tests/Benchmarks/startup-and-scale.sh. Start-up: an empty libadwaita window with a
 * header bar and a 20-row list of check buttons, as little as a GNOME task list can be. Scrolling: with
 * BASELINE_ROWS=N, the same window with a GtkListView of N check buttons, as little as a long task list can be. */
#include <adwaita.h>
#include <stdlib.h>

static void setup_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
  gtk_list_item_set_child(item, gtk_check_button_new());
}

static void bind_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
  GtkStringObject *text = gtk_list_item_get_item(item);
  gtk_check_button_set_label(GTK_CHECK_BUTTON(gtk_list_item_get_child(item)), gtk_string_object_get_string(text));
}

static GtkWidget *long_list(int rows) {
  GtkStringList *model = gtk_string_list_new(NULL);
  for (int i = 1; i <= rows; i++) {
    char text[32];
    g_snprintf(text, sizeof text, "task number %d", i);
    gtk_string_list_append(model, text);
  }
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
  g_signal_connect(factory, "setup", G_CALLBACK(setup_row), NULL);
  g_signal_connect(factory, "bind", G_CALLBACK(bind_row), NULL);
  return gtk_list_view_new(GTK_SELECTION_MODEL(gtk_no_selection_new(G_LIST_MODEL(model))), factory);
}

static void activate(GtkApplication *app, gpointer data) {
  GtkWidget *window = adw_application_window_new(app);
  gtk_window_set_title(GTK_WINDOW(window), "Baseline");
  gtk_window_set_default_size(GTK_WINDOW(window), 720, 560);
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append(GTK_BOX(box), adw_header_bar_new());
  GtkWidget *list;
  if (getenv("BASELINE_ROWS")) {
    list = long_list(atoi(getenv("BASELINE_ROWS")));
  } else {
    list = gtk_list_box_new();
    for (int i = 1; i <= 20; i++) {
      char text[32];
      g_snprintf(text, sizeof text, "task number %d", i);
      gtk_list_box_append(GTK_LIST_BOX(list), gtk_check_button_new_with_label(text));
    }
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
