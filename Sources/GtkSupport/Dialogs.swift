// Dialogs: typed views of the dialogs and images the app builds in code: AdwMessageDialog, GtkImage and
// AdwAboutWindow. Main actor.

import CGtk

/// An `AdwMessageDialog`: a heading, a body, an optional child under them, and response buttons.
public struct MessageDialog: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var dialog: UnsafeMutablePointer<AdwMessageDialog> { widget.cast(to: adw_message_dialog_get_type()) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: adw_message_dialog_get_type()) }

  /// A new dialog over `parent` (nil: on its own), saying `heading` and `body`.
  @MainActor
  public static func new(parent: Window?, heading: String, body: String) -> MessageDialog {
    let dialog = MessageDialog(adw_message_dialog_new(parent?.window, heading, body))
    dialog.asWidget.presentOnlySqueezersShownChild()  // its buttons in a row, or in a column when narrow
    return dialog
  }

  /// The dialog as a window.
  @MainActor
  public var asWindow: Window { Window(widget) }

  /// Adds a button answering `id`, labelled `label` (with an underlined mnemonic); `suggested`, in the accent colour;
  /// `destructive`, in the colour of what cannot be undone.
  @MainActor
  public func addResponse(_ id: String, label: String, suggested: Bool = false, destructive: Bool = false) {
    adw_message_dialog_add_response(dialog, id, label)
    if suggested { adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_SUGGESTED) }
    if destructive { adw_message_dialog_set_response_appearance(dialog, id, ADW_RESPONSE_DESTRUCTIVE) }
    // GTK 4.8 gives a button made with a mnemonic (libadwaita 1.2's response buttons) its label's raw text as an
    // accessible label beside the label itself: a screen reader read "_Cancel Cancel". Without it, the label names
    // the button, as it reads.
    asWidget.forEachWidget { area in
      guard area.isA(adw_squeezer_get_type()) else { return }
      area.forEachWidget { if $0.isA(gtk_button_get_type()) { $0.resetAccessibleLabel() } }
    }
  }

  /// The response Enter gives (nil: none).
  @MainActor
  public var defaultResponse: String? {
    get { adw_message_dialog_get_default_response(dialog).map { String(cString: $0) } }
    nonmutating set { adw_message_dialog_set_default_response(dialog, newValue) }
  }

  /// Whether the button of `id` can be pressed.
  @MainActor
  public func setResponseEnabled(_ id: String, _ enabled: Bool) {
    adw_message_dialog_set_response_enabled(dialog, id, enabled.gboolean)
  }

  /// Shows `child` under the body.
  @MainActor
  public func setExtraChild(_ child: some WidgetView) { adw_message_dialog_set_extra_child(dialog, child.widget) }

  /// Runs `handler` with the response's id when the user answers (the dialog's close response, "close", when it is
  /// closed without a button).
  @MainActor
  public func onResponse(_ handler: @escaping @MainActor (String) -> Void) {
    Signal.connect(dialog, "response") { (response: UnsafeMutableRawPointer?) in
      handler(response.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "")
    }
  }

  /// Answers `id` as a click on its button does.
  @MainActor
  public func respond(_ id: String) { adw_message_dialog_response(dialog, id) }
}

/// A `GtkImage`.
public struct Image: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var image: OpaquePointer { OpaquePointer(widget) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: gtk_image_get_type()) }

  /// A new image of the icon `icon` (a `GIcon`), or, without one, of the icon named `fallback`.
  @MainActor
  public static func new(icon: OpaquePointer?, fallback: String) -> Image {
    Image(icon.map { gtk_image_new_from_gicon($0) } ?? gtk_image_new_from_icon_name(fallback))
  }

  /// The size the icon is drawn at, in pixels (-1: the default).
  @MainActor
  public var pixelSize: Int32 {
    get { gtk_image_get_pixel_size(image) }
    nonmutating set { gtk_image_set_pixel_size(image, newValue) }
  }
}

/// An `AdwAboutWindow`.
public struct AboutWindow: WidgetView {
  public let widget: UnsafeMutablePointer<GtkWidget>
  private var about: OpaquePointer { OpaquePointer(widget) }
  public init(_ instance: some GPointer) { widget = instance.cast(to: adw_about_window_get_type()) }

  /// What the window says: the facts an About window shows, in libadwaita's names.
  public struct Facts {
    public var applicationName: String
    public var iconName: String
    public var version: String
    public var developerName: String
    public var comments: String
    public var website: String
    public var issueURL: String
    public var copyright: String
    public var developers: [String]
    /// Translators' names, one per line.
    public var translatorCredits: String
    /// Sections of further credits: a title and names.
    public var credits: [(title: String, names: [String])]

    public init(
      applicationName: String, iconName: String, version: String, developerName: String, comments: String,
      website: String, issueURL: String, copyright: String, developers: [String], translatorCredits: String,
      credits: [(title: String, names: [String])]
    ) {
      self.applicationName = applicationName
      self.iconName = iconName
      self.version = version
      self.developerName = developerName
      self.comments = comments
      self.website = website
      self.issueURL = issueURL
      self.copyright = copyright
      self.developers = developers
      self.translatorCredits = translatorCredits
      self.credits = credits
    }
  }

  /// A new About window saying `facts`, under the GPL 3.0 or later, over `parent` (if any).
  @MainActor
  public static func new(_ facts: Facts, parent: Window?) -> AboutWindow {
    let window = AboutWindow(adw_about_window_new())
    let about = window.about
    adw_about_window_set_application_name(about, facts.applicationName)
    adw_about_window_set_application_icon(about, facts.iconName)
    adw_about_window_set_version(about, facts.version)
    adw_about_window_set_developer_name(about, facts.developerName)
    adw_about_window_set_comments(about, facts.comments)
    adw_about_window_set_license_type(about, GTK_LICENSE_GPL_3_0)
    adw_about_window_set_website(about, facts.website)
    adw_about_window_set_issue_url(about, facts.issueURL)
    adw_about_window_set_copyright(about, facts.copyright)
    withCStringArray(facts.developers) { adw_about_window_set_developers(about, UnsafeMutablePointer(mutating: $0)) }
    adw_about_window_set_translator_credits(about, facts.translatorCredits)
    for (title, names) in facts.credits {
      withCStringArray(names) { adw_about_window_add_credit_section(about, title, UnsafeMutablePointer(mutating: $0)) }
    }
    Window(window.widget).setTransient(for: parent)
    return window
  }

  /// The application's name it shows.
  @MainActor
  public var applicationName: String { String(cString: adw_about_window_get_application_name(about)) }

  /// The version it shows.
  @MainActor
  public var version: String { String(cString: adw_about_window_get_version(about)) }

  /// The window, to present.
  @MainActor
  public var asWindow: Window { Window(widget) }
}
