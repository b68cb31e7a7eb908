// Tests of GtkSupport's typed views of dialogs, preference rows, the application and desktop entries, on a real
// display (Xvfb in the README's test command): each view reads back what it set, and its signals reach Swift.

import CGtk
import Foundation
import GtkSupport
import TasksTestSupport
import Testing

@Suite("Typed views", .enabled(if: TestDesktop.hasDisplay, "GTK needs a display"))
@MainActor
struct WidgetViewTests {
  init() throws {
    // libadwaita's own init starts GTK on the display (once per process; later calls do nothing).
    try #require(gtk_init_check() != 0, "GTK could not open the display")
    adw_init()
  }

  @Test("a message dialog's responses: the default is kept, and an answer reaches Swift with its id")
  func messageDialog() {
    let dialog = MessageDialog.new(parent: nil, heading: "Allow “Notes”?", body: "Notes asks to act as Ann.")
    dialog.addResponse("deny", label: "_Deny")
    dialog.addResponse("allow", label: "_Allow", suggested: true)
    dialog.defaultResponse = "deny"
    #expect(dialog.defaultResponse == "deny")
    let label = Label.new("details")
    dialog.setExtraChild(label)
    #expect(dialog.contains(label))
    var answers: [String] = []
    dialog.onResponse { answers.append($0) }
    dialog.respond("allow")
    #expect(answers == ["allow"])
    dialog.asWindow.destroy()
  }

  @Test("a single-line label: one line of its font tall whatever its text, each kind of line break shown as a space")
  func singleLine() {
    #expect(Label.oneLine("a\r\nb\rc\nd\u{2028}e\u{2029}f\u{85}g\u{0B}h\u{0C}i") == "a b c d e f g h i")
    #expect(
      Label.oneLine("Crème brûlée, 東京, \u{1F469}\u{200D}\u{1F4BB}") == "Crème brûlée, 東京, \u{1F469}\u{200D}\u{1F4BB}")
    let label = Label.new("one line")
    label.isSingleLine = true
    var oneLine: Int32 = 0
    gtk_widget_measure(label.widget, GTK_ORIENTATION_VERTICAL, -1, nil, &oneLine, nil, nil)
    label.text = "line one\nline two\nline three"
    var three: Int32 = 0
    gtk_widget_measure(label.widget, GTK_ORIENTATION_VERTICAL, -1, nil, &three, nil, nil)
    #expect(oneLine > 0 && three == oneLine)
    g_object_ref_sink(label.widget)
    g_object_unref(label.widget)
  }

  @Test("an action row shows its title as written (no markup) and its subtitle; its switch says when it turns")
  func actionRowAndSwitch() {
    let row = ActionRow.new(title: "<b>Notes</b> & Co", subtitle: "ann@example.com")
    #expect(row.title == "<b>Notes</b> & Co")
    #expect(row.subtitle == "ann@example.com")
    let toggle = Switch.new(isActive: false)
    var states: [Bool] = []
    toggle.onToggled { states.append($0) }
    row.addSuffix(toggle, activating: true)
    #expect(row.contains(toggle))
    #expect(adw_action_row_get_activatable_widget(row.widget.cast(to: adw_action_row_get_type())) == toggle.widget)
    toggle.isActive = true
    toggle.isActive = false
    toggle.isActive = false  // no change, no signal
    #expect(states == [true, false])
    g_object_ref_sink(row.gpointer)
    g_object_unref(row.gpointer)
  }

  @Test("a preferences group takes rows in and out")
  func preferencesGroup() {
    let group = PreferencesGroup(adw_preferences_group_new())
    g_object_ref_sink(group.gpointer)
    defer { g_object_unref(group.gpointer) }
    let row = ActionRow.new(title: "Notes", subtitle: "Ann")
    // Held here: once taken out, the group's reference goes (asked about after that, it was freed memory, and GTK
    // said so on the test's output).
    g_object_ref_sink(row.gpointer)
    defer { g_object_unref(row.gpointer) }
    group.add(row)
    #expect(group.contains(row))
    group.remove(row)
    #expect(!group.contains(row))
  }

  @Test("an image: the fallback icon without one of the app's, at the size asked, named for screen readers")
  func image() {
    let image = Image.new(icon: nil, fallback: "application-x-executable")
    g_object_ref_sink(image.gpointer)
    defer { g_object_unref(image.gpointer) }
    #expect(String(cString: gtk_image_get_icon_name(OpaquePointer(image.widget))) == "application-x-executable")
    image.pixelSize = 64
    #expect(image.pixelSize == 64)
    image.setAccessibleLabel("App icon")
    image.resetAccessibleLabel()
    image.resetLabelledBy()
  }

  @Test("a status page: its title, its description shown as written, and an icon given later and taken away")
  func statusPage() {
    let page = StatusPage(adw_status_page_new())
    g_object_ref_sink(page.gpointer)
    defer { g_object_unref(page.gpointer) }
    #expect(page.iconName == nil)
    page.iconName = "io.github.b2ctasks.B2CTasks-symbolic"
    #expect(page.iconName == "io.github.b2ctasks.B2CTasks-symbolic")
    page.iconName = nil
    #expect(page.iconName == nil)
    page.title = "No Tasks"
    #expect(page.title == "No Tasks")
    page.setDescription("<b>Type</b> a task & go")
    #expect(
      String(cString: adw_status_page_get_description(OpaquePointer(page.widget)))
        == "&lt;b&gt;Type&lt;/b&gt; a task &amp; go")
  }

  @Test("an About window says the facts it was given")
  func aboutWindow() {
    let facts = AboutWindow.Facts(
      applicationName: "B2C Tasks", iconName: "io.github.b2ctasks.B2CTasks", version: "9.9", developerName: "Us",
      comments: "Tasks", website: "https://example.com", issueURL: "https://example.com/issues", copyright: "©",
      developers: ["Us https://example.com"], translatorCredits: "", credits: [("Based on", ["A sample"])])
    let about = AboutWindow.new(facts, parent: nil)
    #expect(about.applicationName == "B2C Tasks" && about.version == "9.9")
    about.asWindow.destroy()
  }

  @Test("the application's options, parsed by GApplication from a command line, are read back as given")
  func applicationOptions() {
    let app = Application(g_application_new("io.github.b2ctasks.ViewTest", G_APPLICATION_NON_UNIQUE))
    defer { g_object_unref(app.gpointer) }
    app.addOption("settings", help: "Read settings from FILE", takesFile: "FILE")
    app.addOption("version", help: "Show the version")
    var seen: (version: Bool, settings: String?)?
    app.onLocalOptions { options in
      seen = (options.contains("version"), options.file("settings"))
      return 7  // stop here: the application does not start
    }
    #expect(app.run(["view-test", "--settings", "/tmp/settings.plist"]) == 7)
    #expect(seen?.version == false && seen?.settings == "/tmp/settings.plist")
    #expect(!app.isService)
    app.inactivityTimeout = 1234
    #expect(app.inactivityTimeout == 1234)
    let release = app.hold()
    release()
    release()  // a second call does nothing (GLib would complain of a release without a hold)
  }

  @Test("desktop entries: the user's own is found with its name, command and program")
  func appInfo() throws {
    // Where GIO looks for the user's entries (XDG_DATA_HOME, as GLib read it when the process started).
    let folder = String(cString: g_get_user_data_dir()) + "/applications"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let id = "b2c-view-test-\(UUID().uuidString.prefix(8)).desktop"
    try Data("[Desktop Entry]\nType=Application\nName=View Test\nExec=sh -c true %u\nIcon=dialog-information\n".utf8)
      .write(to: URL(filePath: folder).appending(path: id))
    defer { try? FileManager.default.removeItem(atPath: folder + "/" + id) }
    let entry = try #require(AppInfo.all().first { $0.id == id }, "the entry written before the first look is found")
    #expect(entry.displayName == "View Test")
    #expect(entry.commandLine?.hasPrefix("sh -c true") == true)
    #expect(entry.executable == "sh")
    let icon = try #require(entry.retainedIcon())
    g_object_unref(icon.gpointer)
    #expect(AppInfo.resolve("sh") == URL(filePath: "/bin/sh").resolvingSymlinksInPath().path)
    #expect(AppInfo.resolve("b2c-no-such-program") == nil)
  }
}
