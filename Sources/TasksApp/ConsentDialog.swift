// ConsentDialog: "may this app use your sign-in?", asked once per app and account for the broker. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksCore

/// Asks the user whether an app may use an account's sign-in: the app's name and icon (from its desktop entry), how
/// it was recognised (its sandbox's app ID, or its program), the account, and Deny or Allow. Deny is the default;
/// closing the dialog (Escape) answers nothing, so the app may ask again.
@MainActor
enum ConsentDialog {
  /// Shows the question over `parent` (or on its own) and answers when the user does.
  static func ask(
    _ caller: BrokerCaller, icon: OpaquePointer?, account: BrokerAccount, parent: Window?,
    application: Application
  ) async -> Broker.Answer {
    // The subject is what the broker verified (the sandbox's app ID, the script's or program's name): an app's
    // desktop entry may call it anything, B2C Tasks' own name and icon included; that name only stands beside it.
    let verified = caller.identity.fallbackName
    let heading = String(template: tr("Allow “%@” to Use Your Sign-In?"), verified)
    let body = String(
      template: tr(
        "%1$@ asks to act as %2$@. It could then use your tasks and anything else you reach with this sign-in, until you withdraw it in Preferences."
      ), verified, account.label)
    let dialog = MessageDialog.new(parent: parent, heading: heading, body: body)
    dialog.addResponse("deny", label: tr("_Deny"))
    dialog.addResponse("allow", label: tr("_Allow"), suggested: true)
    dialog.defaultResponse = "deny"
    dialog.setExtraChild(details(caller, icon: icon))
    dialog.asWindow.setApplication(application)
    // A click in the first half second after the question shows is no answer: it was meant for what was there
    // before (an app can raise the question under the pointer).
    dialog.setResponseEnabled("allow", false)
    _ = Signal.connect(dialog.asWidget.widget, "map") {
      // Held until then: the question may be closed sooner.
      let held = g_object_ref(dialog.asWidget.widget.gpointer)
      Task { @MainActor in
        try? await Task.sleep(for: .milliseconds(500))
        if gtk_widget_get_visible(dialog.asWidget.widget) != 0 { dialog.setResponseEnabled("allow", true) }
        g_object_unref(held)
      }
    }
    dialog.asWindow.present()
    return await withCheckedContinuation { continuation in
      dialog.onResponse { answer in
        continuation.resume(returning: answer == "allow" ? .allow : answer == "deny" ? .deny : .none)
      }
    }
  }

  /// The app's icon, the name it gives itself (when its desktop entry's differs from the subject) and how it was
  /// recognised, under the question.
  private static func details(_ caller: BrokerCaller, icon: OpaquePointer?) -> Box {
    let box = Box.new(horizontal: false, spacing: 12)
    let image = Image.new(icon: icon, fallback: "application-x-executable")
    image.pixelSize = 64
    image.setAccessibleLabel(tr("App icon"))
    box.append(image)
    if caller.name != caller.identity.fallbackName {
      let named = Label.new(String(template: tr("Calls itself “%@”"), caller.name))
      named.wraps = true
      box.append(named)
    }
    let label = Label.new(recognised(caller.identity))
    label.wraps = true
    label.setCSSClass("dim-label", true)
    label.setCSSClass("caption", true)
    box.append(label)
    return box
  }

  /// "Sandboxed app org.example.Notes", "Program /usr/bin/foo", "Script /home/ann/notes.py, run by /usr/bin/python3".
  static func recognised(_ identity: CallerIdentity) -> String {
    switch (identity.appID, identity.executable, identity.script) {
    case (let appID?, _, _): String(template: tr("Sandboxed app %@"), appID)
    case (nil, let program?, let script?): String(template: tr("Script %1$@, run by %2$@"), script, program)
    case (nil, let program?, nil): String(template: tr("Program %@"), program)
    case (nil, nil, _): identity.key
    }
  }
}
