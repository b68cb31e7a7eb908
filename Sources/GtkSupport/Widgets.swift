// Widgets: typed views of the GTK and libadwaita widgets the app touches, with Swift properties. Main actor.

import CGtk

/// A view of one widget, typed: a thin struct over the pointer that never owns it (the `.ui` file's builder, the
/// widget's parent or the window keeps it alive), so copying one is free and dropping one changes nothing. Each
/// wrapper's `init` checks the instance's GType once, the way `GTK_LABEL()` does; a wrong type is a programmer
/// error. Its members are for the main thread, as GTK is.
public protocol WidgetView: GPointer {
  /// The instance as a `GtkWidget *`.
  var widget: UnsafeMutablePointer<GtkWidget> { get }
}

extension WidgetView {
  public var gpointer: gpointer { UnsafeMutableRawPointer(widget) }
}

@MainActor
extension WidgetView {
  /// The plain widget.
  public var asWidget: Widget { Widget(widget) }

  /// Whether the widget is shown (with its parent): GTK's `visible`.
  public var isVisible: Bool {
    get { gtk_widget_get_visible(widget) != 0 }
    nonmutating set { gtk_widget_set_visible(widget, newValue.gboolean) }
  }

  /// Whether the widget reacts to input: GTK's `sensitive`.
  public var isSensitive: Bool {
    get { gtk_widget_get_sensitive(widget) != 0 }
    nonmutating set { gtk_widget_set_sensitive(widget, newValue.gboolean) }
  }

  /// Whether the widget is on screen now (mapped).
  public var isMapped: Bool { gtk_widget_get_mapped(widget) != 0 }

  /// Whether the widget is in a window.
  public var isInWindow: Bool { gtk_widget_get_root(widget) != nil }

  /// The height, in pixels, of the window the widget is in, or will be once it is shown: its own while it is on
  /// screen, its default height before, and the tallest monitor's while it is maximised, has no size yet or is
  /// not a window (nil outside a window).
  public var windowHeight: Int? {
    guard let root = gtk_widget_get_root(widget) else { return nil }
    let window = Widget(UnsafeMutableRawPointer(root).assumingMemoryBound(to: GtkWidget.self))
    if window.isMapped { return Int(gtk_widget_get_height(window.widget)) }
    var (width, height): (Int32, Int32) = (0, 0)
    if window.isA(gtk_window_get_type()) {
      gtk_window_get_default_size(window.window, &width, &height)
      if gtk_window_is_maximized(window.window) == 0 && height > 0 { return Int(height) }
    }
    guard let monitors = gdk_display_get_monitors(gtk_widget_get_display(window.widget)) else { return nil }
    var tallest = 0
    for index in 0..<g_list_model_get_n_items(monitors) {
      guard let monitor = g_list_model_get_item(monitors, index) else { continue }
      var geometry = GdkRectangle()
      gdk_monitor_get_geometry(OpaquePointer(monitor), &geometry)
      tallest = max(tallest, Int(geometry.height))
      g_object_unref(monitor)
    }
    return tallest > 0 ? tallest : nil
  }

  /// The tooltip (nil: none).
  public var tooltip: String? {
    get { gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } }
    nonmutating set { gtk_widget_set_tooltip_text(widget, newValue) }
  }

  /// Gives the widget the keyboard focus; false when it cannot take it.
  @discardableResult
  public func grabFocus() -> Bool { gtk_widget_grab_focus(widget) != 0 }

  /// Moves the focus into the widget's first (or, backwards, last) child that takes it; false when none does.
  @discardableResult
  public func focusChild(forward: Bool = true) -> Bool {
    gtk_widget_child_focus(widget, forward ? GTK_DIR_TAB_FORWARD : GTK_DIR_TAB_BACKWARD) != 0
  }

  /// Whether `other` is this widget or inside it.
  public func contains(_ other: some WidgetView) -> Bool {
    other.widget == widget || gtk_widget_is_ancestor(other.widget, widget) != 0
  }

  /// Rings the error bell (the entry was empty, the key does nothing here).
  public func errorBell() { gtk_widget_error_bell(widget) }

  /// Adds or removes the CSS class `name`.
  public func setCSSClass(_ name: String, _ on: Bool) {
    if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
  }

  /// Whether the widget takes the keyboard focus (a button the keyboard reaches another way does not).
  public var isFocusable: Bool {
    get { gtk_widget_get_focusable(widget) != 0 }
    nonmutating set { gtk_widget_set_focusable(widget, newValue.gboolean) }
  }

  /// Whether the widget has the keyboard focus.
  public var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }

  /// Whether GTK asks the widget for a tooltip (see `Tooltip`).
  public var hasTooltip: Bool {
    get { gtk_widget_get_has_tooltip(widget) != 0 }
    nonmutating set { gtk_widget_set_has_tooltip(widget, newValue.gboolean) }
  }

  /// Whether the widget takes the width its parent has to spare.
  public var expandsHorizontally: Bool {
    get { gtk_widget_get_hexpand(widget) != 0 }
    nonmutating set { gtk_widget_set_hexpand(widget, newValue.gboolean) }
  }

  /// The widget's parent, if any.
  public var parent: Widget? { gtk_widget_get_parent(widget).map(Widget.init) }

  /// Sets the margins; nil leaves a side as it is.
  public func setMargins(top: Int32? = nil, bottom: Int32? = nil, start: Int32? = nil, end: Int32? = nil) {
    if let top { gtk_widget_set_margin_top(widget, top) }
    if let bottom { gtk_widget_set_margin_bottom(widget, bottom) }
    if let start { gtk_widget_set_margin_start(widget, start) }
    if let end { gtk_widget_set_margin_end(widget, end) }
  }

  /// Centres the widget vertically in the height it is given.
  public func centreVertically() { gtk_widget_set_valign(widget, GTK_ALIGN_CENTER) }

  /// Adds an event controller; the widget owns it from then on.
  public func add(_ controller: OpaquePointer) { gtk_widget_add_controller(widget, controller) }

  /// Runs `handler` with the point (in the widget) where mouse button `button` (1 left, 3 right) is pressed on it.
  public func onPress(button: UInt32, _ handler: @escaping @MainActor (_ x: Double, _ y: Double) -> Void) {
    let click = gtk_gesture_click_new()!
    gtk_gesture_single_set_button(click, button)
    Signal.connectClick(click, "pressed", handler)
    add(click)
  }

  /// Runs `handler` with each key pressed while the widget or a child has the focus and the modifiers held (Shift,
  /// Ctrl…); it answers whether it handled the key (which then goes no further). `first`: before the focused child
  /// sees the key (GTK's capture phase), rather than after.
  public func onKeyPressed(
    first: Bool = false, _ handler: @escaping @MainActor (_ keyval: UInt32, _ modifiers: GdkModifierType) -> Bool
  ) {
    let keys = gtk_event_controller_key_new()!
    Signal.connectKeyPressed(keys) { keyval in handler(keyval, gtk_event_controller_get_current_event_state(keys)) }
    if first { gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE) }
    add(keys)
  }

  /// Runs `handler` when the keyboard focus comes into the widget (`entering`) or leaves it.
  public func onFocus(entering: Bool, _ handler: @escaping @MainActor () -> Void) {
    let focus = gtk_event_controller_focus_new()!
    Signal.connect(focus, entering ? "enter" : "leave", handler)
    add(focus)
  }

  /// The child that has or holds the focus, if any.
  public var focusChild: Widget? { gtk_widget_get_focus_child(widget).map(Widget.init) }

  /// Runs the action `name` ("group.action") with a number as its parameter, as a keyboard shortcut would.
  public func activateAction(_ name: String, _ number: UInt32) {
    gtk_widget_activate_action_variant(widget, name, g_variant_new_uint32(number))
  }

  /// Puts `text` on the clipboard.
  public func copyToClipboard(_ text: String) { gdk_clipboard_set_text(gtk_widget_get_clipboard(widget), text) }

  /// Names the widget for assistive technologies (its accessible label).
  public func setAccessibleLabel(_ label: String) { b2c_accessible_set_label(widget, label) }

  /// Whether assistive technologies skip the widget, and all it holds (what is on screen but not shown: a closed
  /// search bar, a stack's page that is not its visible one).
  public func setAccessibleHidden(_ hidden: Bool) { b2c_accessible_set_hidden(widget, hidden.gboolean) }

  /// Drops the widget's accessible label: it is named by its content again.
  public func resetAccessibleLabel() {
    gtk_accessible_reset_property(OpaquePointer(widget), GTK_ACCESSIBLE_PROPERTY_LABEL)
  }

  /// Drops what the widget is labelled by (a row that names its switch with its own title, say).
  public func resetLabelledBy() {
    gtk_accessible_reset_relation(OpaquePointer(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
  }

  /// Presents to assistive technologies only the child each `AdwSqueezer` inside this widget shows, as that changes:
  /// libadwaita 1.2 on GTK 4.8 presented every alternative (a message dialog's buttons twice, in a row and in a
  /// column; a preferences window's title under its view switcher).
  public func presentOnlySqueezersShownChild() {
    forEachWidget { widget in
      guard widget.isA(adw_squeezer_get_type()) else { return }
      let squeezer = OpaquePointer(widget.widget)
      let follow = {
        let shown = adw_squeezer_get_visible_child(squeezer)
        var child = widget.firstChild
        while let current = child {
          current.setAccessibleHidden(current.widget != shown)
          child = current.nextSibling
        }
      }
      follow()
      Signal.connect(widget, "notify::visible-child") { (_: UnsafeMutableRawPointer?) in follow() }
    }
  }

  /// Runs `body` on the widget and every widget inside it, parents before children.
  public func forEachWidget(_ body: (Widget) -> Void) {
    body(asWidget)
    var child = firstChild
    while let current = child {
      current.forEachWidget(body)
      child = current.nextSibling
    }
  }

  /// The first child, if any.
  public var firstChild: Widget? { gtk_widget_get_first_child(widget).map(Widget.init) }

  /// The next sibling, if any.
  public var nextSibling: Widget? { gtk_widget_get_next_sibling(widget).map(Widget.init) }

  /// The widget's width as laid out (0 before it is).
  public var width: Int32 { gtk_widget_get_width(widget) }

  /// The widget with the keyboard focus in this widget's window, if any.
  public var focusInWindow: Widget? { gtk_widget_get_root(widget).flatMap { gtk_root_get_focus($0) }.map(Widget.init) }

  /// Makes the actions of `group` reachable from this widget and its children as `name.action`.
  public func insertActions(_ group: UnsafeMutablePointer<GSimpleActionGroup>, as name: String) {
    gtk_widget_insert_action_group(widget, name, OpaquePointer(group))
  }
}

/// Any widget.
public struct Widget: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_widget_get_type()) }
}

/// A `GtkLabel`.
public struct Label: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var label: OpaquePointer { OpaquePointer(widget) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_label_get_type()) }

  /// The text, shown as written (no markup, no mnemonic).
  @MainActor
  public var text: String {
    get { String(cString: gtk_label_get_text(label)) }
    nonmutating set { gtk_label_set_text(label, newValue) }
  }

  /// Sets the text with an underlined mnemonic (`_Save`).
  @MainActor
  public func setMnemonicText(_ text: String) { gtk_label_set_text_with_mnemonic(label, text) }
}

extension Label {
  /// A new label showing `text` (a floating reference, for a parent to take).
  @MainActor
  public static func new(_ text: String = "") -> Label { Label(gtk_label_new(text)) }

  /// The horizontal alignment of the text, 0 (start) to 1 (end).
  @MainActor
  public var xalign: Float {
    get { gtk_label_get_xalign(OpaquePointer(widget)) }
    nonmutating set { gtk_label_set_xalign(OpaquePointer(widget), newValue) }
  }

  /// Whether text too long for the label ends with "…".
  @MainActor
  public var ellipsizesEnd: Bool {
    get { gtk_label_get_ellipsize(OpaquePointer(widget)) == PANGO_ELLIPSIZE_END }
    nonmutating set {
      gtk_label_set_ellipsize(OpaquePointer(widget), newValue ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE)
    }
  }

  /// Whether the text wraps (at word boundaries, or anywhere in a word too long for a line).
  @MainActor
  public var wraps: Bool {
    get { gtk_label_get_wrap(OpaquePointer(widget)) != 0 }
    nonmutating set {
      gtk_label_set_wrap_mode(OpaquePointer(widget), PANGO_WRAP_WORD_CHAR)
      gtk_label_set_wrap(OpaquePointer(widget), newValue.gboolean)
    }
  }

  /// At most this many lines when ellipsized and wrapped (-1: no limit).
  @MainActor
  public var lines: Int32 {
    get { gtk_label_get_lines(OpaquePointer(widget)) }
    nonmutating set { gtk_label_set_lines(OpaquePointer(widget), newValue) }
  }

  /// Whether the label is one line of its font tall whatever its text (Pango then draws a line break as a symbol:
  /// give it `Label.oneLine`'s text).
  @MainActor
  public var isSingleLine: Bool {
    get { gtk_label_get_single_line_mode(OpaquePointer(widget)) != 0 }
    nonmutating set { gtk_label_set_single_line_mode(OpaquePointer(widget), newValue.gboolean) }
  }

  /// `text` with each of its line breaks (any Unicode has, a CR LF as one) shown as a space: for a single-line label
  /// showing text someone else typed. Called as rows are bound, on the main thread: a text with no byte that can
  /// be part of a line break (LF, VT, FF, CR, and the last bytes of U+0085, U+2028, U+2029) is given back unread
  /// as characters.
  public static func oneLine(_ text: String) -> String {
    guard text.utf8.contains(where: { (0x0A...0x0D).contains($0) || $0 == 0x85 || $0 == 0xA8 || $0 == 0xA9 }),
      text.contains(where: \.isNewline)
    else { return text }
    return String(text.map { $0.isNewline ? " " : $0 })
  }
}

/// A `GtkBox`.
public struct Box: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var box: UnsafeMutablePointer<GtkBox> { widget.cast(to: gtk_box_get_type()) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_box_get_type()) }

  /// A new box laying its children out side by side (`horizontal`) or one above the other, `spacing` pixels apart.
  @MainActor
  public static func new(horizontal: Bool, spacing: Int32) -> Box {
    Box(gtk_box_new(horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL, spacing))
  }

  /// Adds `child` at the end.
  @MainActor
  public func append(_ child: some WidgetView) { gtk_box_append(box, child.widget) }

  /// Removes `child`.
  @MainActor
  public func remove(_ child: some WidgetView) { gtk_box_remove(box, child.widget) }

  /// Adds `child` right after `sibling`.
  @MainActor
  public func insert(_ child: some WidgetView, after sibling: some WidgetView) {
    gtk_box_insert_child_after(box, child.widget, sibling.widget)
  }
}

/// A `GtkCheckButton`.
public struct CheckButton: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var button: UnsafeMutablePointer<GtkCheckButton> { widget.cast(to: gtk_check_button_get_type()) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_check_button_get_type()) }

  /// A new check button without a label.
  @MainActor
  public static func new() -> CheckButton { CheckButton(gtk_check_button_new()) }

  /// Whether it is ticked.
  @MainActor
  public var isActive: Bool {
    get { gtk_check_button_get_active(button) != 0 }
    nonmutating set { gtk_check_button_set_active(button, newValue.gboolean) }
  }
}

/// A `GtkButton`.
public struct Button: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_button_get_type()) }

  /// A new button showing the icon `iconName`.
  @MainActor
  public static func new(iconName: String) -> Button { Button(gtk_button_new_from_icon_name(iconName)) }

  /// The name of the icon it shows, if it shows one.
  @MainActor
  public var iconName: String? {
    gtk_button_get_icon_name(widget.cast(to: gtk_button_get_type(), as: GtkButton.self)).map { String(cString: $0) }
  }
}

/// Anything editable as one line: a `GtkEntry`, a `GtkSearchEntry`, a `GtkText`.
public struct Editable: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var editable: OpaquePointer { OpaquePointer(widget) }
  public init(_ instance: some GPointer) {
    precondition(instance.isA(gtk_editable_get_type()), "GtkEditable expected")
    widget = instance.widget
  }

  /// The text.
  @MainActor
  public var text: String {
    get { String(cString: gtk_editable_get_text(editable)) }
    nonmutating set { gtk_editable_set_text(editable, newValue) }
  }

  /// Selects the whole text.
  @MainActor
  public func selectAll() { gtk_editable_select_region(editable, 0, -1) }
}

/// A `GtkStack`.
public struct Stack: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var stack: OpaquePointer { OpaquePointer(widget) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_stack_get_type()) }

  /// The child named `name` in the `.ui` file; it must exist.
  @MainActor
  public func child(named name: String) -> Widget {
    guard let child = gtk_stack_get_child_by_name(stack, name) else { preconditionFailure("no stack child \(name)") }
    return Widget(child)
  }

  /// The name of the child on screen.
  @MainActor
  public var visibleChildName: String {
    get { gtk_stack_get_visible_child_name(stack).map { String(cString: $0) } ?? "" }
    nonmutating set {
      gtk_stack_set_visible_child_name(stack, newValue)
      hideOthers()
    }
  }

  /// The child on screen.
  @MainActor
  public var visibleChild: Widget? {
    get { gtk_stack_get_visible_child(stack).map(Widget.init) }
    nonmutating set {
      guard let newValue else { return }
      gtk_stack_set_visible_child(stack, newValue.widget)
      hideOthers()
    }
  }

  /// Only the child on screen is presented to assistive technologies: GTK 4.8 presents a page that was never shown
  /// (an empty list's "No Tasks" beside the rows, read out by a screen reader as if it were there).
  @MainActor
  private func hideOthers() {
    let shown = gtk_stack_get_visible_child(stack)
    var child = gtk_widget_get_first_child(widget)
    while let page = child {
      Widget(page).setAccessibleHidden(page != shown)
      child = gtk_widget_get_next_sibling(page)
    }
  }
}

/// A `GtkRevealer`.
public struct Revealer: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_revealer_get_type()) }

  /// Whether the child is revealed (animated).
  @MainActor
  public var revealsChild: Bool {
    get { gtk_revealer_get_reveal_child(OpaquePointer(widget)) != 0 }
    nonmutating set { gtk_revealer_set_reveal_child(OpaquePointer(widget), newValue.gboolean) }
  }
}

/// A `GtkSpinner`.
public struct Spinner: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_spinner_get_type()) }

  /// Whether it turns.
  @MainActor
  public var isSpinning: Bool {
    get { gtk_spinner_get_spinning(OpaquePointer(widget)) != 0 }
    nonmutating set { gtk_spinner_set_spinning(OpaquePointer(widget), newValue.gboolean) }
  }
}

/// A `GtkSearchBar`.
public struct SearchBar: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var bar: OpaquePointer { OpaquePointer(widget) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_search_bar_get_type()) }

  /// Whether the bar is open.
  @MainActor
  public var isSearching: Bool {
    get { gtk_search_bar_get_search_mode(bar) != 0 }
    nonmutating set { gtk_search_bar_set_search_mode(bar, newValue.gboolean) }
  }

  /// Makes `entry` the bar's entry: Escape in it closes the bar.
  @MainActor
  public func connect(_ entry: Editable) { gtk_search_bar_connect_entry(bar, OpaquePointer(entry.widget)) }

  /// Typing on `widget` (outside an entry) opens the bar and types there.
  @MainActor
  public func captureKeys(from widget: some WidgetView) { gtk_search_bar_set_key_capture_widget(bar, widget.widget) }
}

/// An `AdwStatusPage`. Its description is Pango markup in libadwaita 1.2: text set here is shown as written.
public struct StatusPage: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var page: OpaquePointer { OpaquePointer(widget) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: adw_status_page_get_type()) }

  /// The title.
  @MainActor
  public var title: String {
    get { String(cString: adw_status_page_get_title(page)) }
    nonmutating set { adw_status_page_set_title(page, newValue) }
  }

  /// Sets the description to `text`, escaped.
  @MainActor
  public func setDescription(_ text: String) { PlainText.setDescription(page, text) }

  /// The icon's name (nil: none).
  @MainActor
  public var iconName: String? {
    get { adw_status_page_get_icon_name(page).map { String(cString: $0) } }
    nonmutating set { adw_status_page_set_icon_name(page, newValue) }
  }
}

/// A `GtkWindow` the app does not own here (GTK keeps a toplevel alive while it is open).
public struct Window: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_window_get_type()) }

  /// The instance as a `GtkWindow *`.
  @MainActor
  public var window: UnsafeMutablePointer<GtkWindow> { widget.window }

  /// The widget with the keyboard focus, if any.
  @MainActor
  public var focus: Widget? { gtk_window_get_focus(window).map(Widget.init) }

  /// Whether the window has the focus of the desktop.
  @MainActor
  public var isActive: Bool { gtk_window_is_active(window) != 0 }

  /// Gives the keyboard focus to the first thing in `page` that takes it, else to the window itself.
  @MainActor
  public func focusFirst(in page: (some WidgetView)?) {
    if let page, page.focusChild() { return }
    grabFocus()
  }

  /// Shows the window and brings it to the front.
  @MainActor
  public func present() { gtk_window_present(window) }

  /// Closes the window as its close button does.
  @MainActor
  public func close() { gtk_window_close(window) }

  /// Destroys the window (GTK drops its own reference).
  @MainActor
  public func destroy() { gtk_window_destroy(window) }

  /// The size it opens at, and keeps while not maximised (0: its natural size).
  @MainActor
  public var defaultSize: (width: Int, height: Int) {
    get {
      var (width, height): (Int32, Int32) = (0, 0)
      gtk_window_get_default_size(window, &width, &height)
      return (Int(width), Int(height))
    }
    nonmutating set {
      gtk_window_set_default_size(window, Int32(clamping: newValue.width), Int32(clamping: newValue.height))
    }
  }

  /// Whether it fills the screen (maximised); set, it asks the window manager to.
  @MainActor
  public var isMaximized: Bool {
    get { gtk_window_is_maximized(window) != 0 }
    nonmutating set { if newValue { gtk_window_maximize(window) } else { gtk_window_unmaximize(window) } }
  }

  /// The title.
  @MainActor
  public var title: String {
    get { gtk_window_get_title(window).map { String(cString: $0) } ?? "" }
    nonmutating set { gtk_window_set_title(window, newValue) }
  }

  /// Keeps the window above `parent` and centred on it (a dialog's parent), as one of the parent's application's
  /// windows: the application's shortcuts (Ctrl+Q) work in it, and the parent closes it as it closes
  /// (`closeDialogs`).
  @MainActor
  public func setTransient(for parent: Window?) {
    gtk_window_set_transient_for(window, parent?.window)
    if let parent, let application = gtk_window_get_application(parent.window) {
      gtk_window_set_application(window, application)
    }
  }

  /// Closes, as their close buttons do, the application's windows kept above this one (a closing window's dialogs
  /// would otherwise stay open, on their own, and keep the application running).
  @MainActor
  public func closeDialogs() {
    guard let application = gtk_window_get_application(window) else { return }
    for other in Application(application).windows where gtk_window_get_transient_for(other.window) == window {
      gtk_window_close(other.window)
    }
  }

  /// Makes the window one of `application`'s (its actions and shortcuts apply; the application runs while it is open).
  @MainActor
  public func setApplication(_ application: Application) {
    gtk_window_set_application(window, application.application.cast(to: gtk_application_get_type()))
  }

  /// Sets the width the window opens at (its height stays natural).
  @MainActor
  public func setDefaultWidth(_ width: Int32) { gtk_window_set_default_size(window, width, -1) }
}

/// A `GtkListView`.
public struct ListView: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var view: OpaquePointer { OpaquePointer(widget) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_list_view_get_type()) }

  /// Shows `model` (a selection model; the view takes a reference) with rows from `factory`.
  @MainActor
  public func show(_ model: OpaquePointer, rows factory: OpaquePointer) {
    gtk_list_view_set_model(view, model)
    gtk_list_view_set_factory(view, factory)
  }

  /// Scrolls the first row into view (GtkListBase's own action: it places the row by the heights laid out now).
  @MainActor
  public func scrollToTop() {
    _ = gtk_widget_activate_action_variant(widget, "list.scroll-to-item", g_variant_new_uint32(0))
  }
}

/// A `GtkTextView`: several lines of text.
public struct TextView: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_text_view_get_type()) }

  @MainActor
  private var buffer: UnsafeMutablePointer<GtkTextBuffer> {
    gtk_text_view_get_buffer(widget.cast(to: gtk_text_view_get_type(), as: GtkTextView.self))!
  }

  /// The whole text.
  @MainActor
  public var text: String {
    get {
      var start = GtkTextIter()
      var end = GtkTextIter()
      gtk_text_buffer_get_bounds(buffer, &start, &end)
      guard let chars = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
      defer { g_free(chars) }
      return String(cString: chars)
    }
    nonmutating set { gtk_text_buffer_set_text(buffer, newValue, -1) }
  }

  /// The buffer, for its signals.
  @MainActor
  public var textBuffer: UnsafeMutablePointer<GtkTextBuffer> { buffer }
}

/// A `GtkPopoverMenu` made from a menu model, shown from a widget and unparented when it closes.
public struct PopoverMenu: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var popover: UnsafeMutablePointer<GtkPopover> { widget.cast(to: gtk_popover_get_type(), as: GtkPopover.self) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_popover_menu_get_type()) }

  /// A menu of `model`'s items, attached to `parent`.
  @MainActor
  public static func new(_ model: UnsafeMutablePointer<GMenuModel>, on parent: some WidgetView) -> PopoverMenu {
    let menu = PopoverMenu(gtk_popover_menu_new_from_model(model)!)
    gtk_widget_set_parent(menu.widget, parent.widget)
    return menu
  }

  /// Points the menu, without an arrow, at a point of its parent (a right-click), its start edge there.
  @MainActor
  public func point(atX x: Double, y: Double) {
    var rect = GdkRectangle(x: Int32(x), y: Int32(y), width: 1, height: 1)
    gtk_popover_set_pointing_to(popover, &rect)
    gtk_popover_set_has_arrow(popover, 0)
    gtk_widget_set_halign(widget, GTK_ALIGN_START)
  }

  /// Opens the menu.
  @MainActor
  public func popup() { gtk_popover_popup(popover) }

  /// Detaches the closed menu from its parent, which frees it.
  @MainActor
  public func unparent() { gtk_widget_unparent(widget) }
}

extension Builder {
  /// The widget with `id` as the typed view `View` (checked against its GType).
  public func widget<View: WidgetView>(_ id: String, as view: (UnsafeMutableRawPointer) -> View) -> View {
    view(object(id))
  }

  /// The widget with `id`.
  public func widget(_ id: String) -> Widget { Widget(object(id)) }
}

extension Bool {
  /// The value as GLib's `gboolean`.
  public var gboolean: gboolean { self ? 1 : 0 }
}

/// An `AdwToast`: a message at the bottom of a window, optionally with one button.
public struct Toast: GPointer, Equatable {
  private let toast: OpaquePointer
  public var gpointer: gpointer { toast.gpointer }
  public init(_ instance: some GPointer) {
    precondition(instance.isA(adw_toast_get_type()), "AdwToast expected")
    toast = OpaquePointer(instance.gpointer)
  }

  /// A toast titled `title` (shown as written), with a button labelled `button`; `urgent` ones push others aside;
  /// `untilClosed` ones stay until their button or close button is pressed (others go after 5 s).
  @MainActor
  public static func new(_ title: String, button: String? = nil, urgent: Bool = false, untilClosed: Bool = false)
    -> Toast
  {
    let toast = Toast(PlainText.toast(title))
    if let button { adw_toast_set_button_label(toast.toast, button) }
    if urgent { adw_toast_set_priority(toast.toast, ADW_TOAST_PRIORITY_HIGH) }
    if untilClosed { adw_toast_set_timeout(toast.toast, 0) }
    return toast
  }

  /// Takes the toast away ("dismissed" follows).
  @MainActor
  public func dismiss() { adw_toast_dismiss(toast) }

  /// Runs `handler` when the button is clicked.
  @MainActor
  public func onButtonClicked(_ handler: @escaping @MainActor () -> Void) {
    Signal.connect(toast, "button-clicked", handler)
  }

  /// Runs `handler` when the toast goes, whichever way.
  @MainActor
  public func onDismissed(_ handler: @escaping @MainActor () -> Void) { Signal.connect(toast, "dismissed", handler) }

  /// Keeps the toast alive past its overlay (balanced by `release`).
  public func retain() { g_object_ref(gpointer) }

  /// Drops a reference taken by `retain`.
  public func release() { g_object_unref(gpointer) }
}

/// An `AdwToastOverlay`.
public struct ToastOverlay: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  public init(_ instance: some GPointer) { widget = instance.cast(to: adw_toast_overlay_get_type()) }

  /// Shows `toast` (after those before it).
  @MainActor
  public func add(_ toast: Toast) {
    adw_toast_overlay_add_toast(OpaquePointer(widget), OpaquePointer(toast.gpointer))
  }
}
