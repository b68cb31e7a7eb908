/* baseline.c: the baselines of Tests/Benchmarks/startup-and-scale.sh. Start-up: an empty libadwaita window with a
 * header bar and a 20-row list of check buttons, as little as a GNOME task list can be. Scrolling: with
 * BASELINE_ROWS=N, the same window with a GtkListView of N check buttons, as little as a long task list can be; with
 * BASELINE_ROW=app too, each row is made as b2c-tasks makes its rows (a check button, a one-line label, a status note
 * and a delete button), which tells what such a row costs GTK from what b2c-tasks adds. Switching lists (planner-ui.py):
 * with BASELINE_PLANNER="LISTS TASKS", a sidebar (a GtkListBox: Today, Upcoming, Tasks, List 1 …) beside a GtkListView
 * of check buttons, whose model is made anew from TASKS titles when an entry is activated, the tasks spread over the
 * lists and due dates as environment.sh's `seed_planner` spreads them: as little as a planner can do to switch. */
#include <adwaita.h>
#include <stdlib.h>

static void setup_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
  gtk_list_item_set_child(item, gtk_check_button_new());
}

static void bind_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
  GtkStringObject *text = gtk_list_item_get_item(item);
  gtk_check_button_set_label(GTK_CHECK_BUTTON(gtk_list_item_get_child(item)), gtk_string_object_get_string(text));
}

static void setup_app_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *check = gtk_check_button_new();
  GtkWidget *label = gtk_label_new("");
  GtkWidget *note = gtk_label_new("");
  GtkWidget *delete = gtk_button_new_from_icon_name("user-trash-symbolic");
  gtk_widget_set_margin_start(box, 12);
  gtk_widget_set_margin_end(box, 12);
  gtk_widget_set_margin_top(box, 3);
  gtk_widget_set_margin_bottom(box, 3);
  gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign(GTK_LABEL(label), 0);
  gtk_widget_set_hexpand(label, TRUE);
  gtk_widget_add_css_class(note, "caption");
  gtk_widget_set_visible(note, FALSE);
  gtk_widget_add_css_class(delete, "flat");
  gtk_widget_set_tooltip_text(delete, "Delete");
  gtk_box_append(GTK_BOX(box), check);
  gtk_box_append(GTK_BOX(box), label);
  gtk_box_append(GTK_BOX(box), note);
  gtk_box_append(GTK_BOX(box), delete);
  gtk_list_item_set_child(item, box);
}

static void bind_app_row(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data) {
  const char *text = gtk_string_object_get_string(gtk_list_item_get_item(item));
  GtkWidget *check = gtk_widget_get_first_child(gtk_list_item_get_child(item));
  gtk_label_set_text(GTK_LABEL(gtk_widget_get_next_sibling(check)), text);
  /* As the benchmark's tasks: every third one is completed. */
  gtk_check_button_set_active(GTK_CHECK_BUTTON(check), gtk_list_item_get_position(item) % 3 == 2);
}

static GtkWidget *long_list(int rows) {
  GtkStringList *model = gtk_string_list_new(NULL);
  for (int i = 1; i <= rows; i++) {
    char text[32];
    g_snprintf(text, sizeof text, "task number %d", i);
    gtk_string_list_append(model, text);
  }
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
  gboolean app = g_strcmp0(getenv("BASELINE_ROW"), "app") == 0;
  g_signal_connect(factory, "setup", G_CALLBACK(app ? setup_app_row : setup_row), NULL);
  g_signal_connect(factory, "bind", G_CALLBACK(app ? bind_app_row : bind_row), NULL);
  GtkWidget *list = gtk_list_view_new(GTK_SELECTION_MODEL(gtk_no_selection_new(G_LIST_MODEL(model))), factory);
  if (app) { /* and the list styled as b2c-tasks styles it */
    gtk_list_view_set_show_separators(GTK_LIST_VIEW(list), TRUE);
    gtk_widget_add_css_class(list, "navigation-sidebar");
  }
  return list;
}

/* The planner's tasks: task i (1 … TASKS) is in list (i - 1) % LISTS (0 is "Tasks"), due today when i % 4 == 0 and
 * in the next 7 days when i % 4 == 1. Entry 0 is Today, 1 Upcoming, 2 + k list k. */
static int planner_lists, planner_tasks;

static gboolean in_entry(int entry, int i) {
  if (entry == 0) return i % 4 == 0;
  if (entry == 1) return i % 4 == 1;
  return (i - 1) % planner_lists == entry - 2;
}

static void entry_activated(GtkListBox *sidebar, GtkListBoxRow *row, gpointer list) {
  int entry = gtk_list_box_row_get_index(row);
  GtkStringList *model = gtk_string_list_new(NULL);
  for (int i = 1; i <= planner_tasks; i++) {
    if (!in_entry(entry, i)) continue;
    char text[32];
    g_snprintf(text, sizeof text, "task number %d", i);
    gtk_string_list_append(model, text);
  }
  gtk_no_selection_set_model(GTK_NO_SELECTION(gtk_list_view_get_model(GTK_LIST_VIEW(list))), G_LIST_MODEL(model));
  g_object_unref(model);
}

static GtkWidget *planner(const char *spec) {
  planner_lists = atoi(spec);
  planner_tasks = atoi(strchr(spec, ' ') ? strchr(spec, ' ') + 1 : "0");
  GtkWidget *list = long_list(0);
  GtkWidget *sidebar = gtk_list_box_new();
  gtk_widget_add_css_class(sidebar, "navigation-sidebar");
  for (int entry = 0; entry < planner_lists + 2; entry++) {
    char name[32], spoken[64];
    if (entry < 3) {
      g_strlcpy(name, entry == 0 ? "Today" : entry == 1 ? "Upcoming" : "Tasks", sizeof name);
    } else {
      g_snprintf(name, sizeof name, "List %d", entry - 2);
    }
    int count = 0;
    for (int i = 1; i <= planner_tasks; i++) count += in_entry(entry, i);
    g_snprintf(spoken, sizeof spoken, "%s, %d open tasks", name, count);
    GtkWidget *label = gtk_label_new(name);
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_list_box_append(GTK_LIST_BOX(sidebar), label);
    gtk_accessible_update_property(GTK_ACCESSIBLE(gtk_widget_get_parent(label)), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   spoken, -1);
  }
  g_signal_connect(sidebar, "row-activated", G_CALLBACK(entry_activated), list);
  entry_activated(GTK_LIST_BOX(sidebar), gtk_list_box_get_row_at_index(GTK_LIST_BOX(sidebar), 2), list);
  gtk_list_box_select_row(GTK_LIST_BOX(sidebar), gtk_list_box_get_row_at_index(GTK_LIST_BOX(sidebar), 2));
  GtkWidget *scrolled = gtk_scrolled_window_new();
  gtk_widget_set_hexpand(scrolled, TRUE);
  gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scrolled), list);
  GtkWidget *pane = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *side = gtk_scrolled_window_new();
  gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(side), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request(side, 240, -1);
  gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(side), sidebar);
  gtk_box_append(GTK_BOX(pane), side);
  gtk_box_append(GTK_BOX(pane), scrolled);
  return pane;
}

static void activate(GtkApplication *app, gpointer data) {
  GtkWidget *window = adw_application_window_new(app);
  gtk_window_set_title(GTK_WINDOW(window), "Baseline");
  gtk_window_set_default_size(GTK_WINDOW(window), 720, 560);
  GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append(GTK_BOX(box), adw_header_bar_new());
  GtkWidget *list;
  if (getenv("BASELINE_PLANNER")) {
    GtkWidget *pane = planner(getenv("BASELINE_PLANNER"));
    gtk_widget_set_vexpand(pane, TRUE);
    gtk_box_append(GTK_BOX(box), pane);
    adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), box);
    gtk_window_present(GTK_WINDOW(window));
    return;
  }
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
