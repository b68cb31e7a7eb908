// PlannerListDialogs: what the sidebar's list menu opens — New List, Rename, Share (the code to send, with Copy),
// Join a Shared List (paste a code), Delete (with Undo) and Leave. Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// The list dialogs, over the window, each an `AdwMessageDialog` (libadwaita 1.2 has no AdwDialog). Every change is
/// an edit of the planner's outbox, so it works offline; sharing and joining need the service and say so when it
/// cannot be reached.
@MainActor
struct PlannerListDialogs {
  let window: Window
  let planner: PlannerController
  let toasts: ToastShelf

  /// Asks for a name (the entry's text at first `name`); `done` gets the name, trimmed, when one is given.
  private func askName(
    heading: String, name: String, label: String, action: String, _ done: @escaping @MainActor (String) -> Void
  ) {
    let dialog = MessageDialog.new(parent: window, heading: heading, body: "")
    let entry = Editable(gtk_entry_new())
    entry.text = name
    entry.setAccessibleLabel(label)
    gtk_entry_set_activates_default(entry.widget.cast(to: gtk_entry_get_type()), 1)
    dialog.setExtraChild(entry)
    dialog.addResponse("cancel", label: tr("_Cancel"))
    dialog.addResponse("ok", label: action, suggested: true)
    dialog.defaultResponse = "ok"
    let trimmed = { entry.text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    dialog.setResponseEnabled("ok", !trimmed().isEmpty)
    Signal.connect(entry, "changed") { dialog.setResponseEnabled("ok", !trimmed().isEmpty) }
    dialog.onResponse { response in
      if response == "ok", !trimmed().isEmpty { done(trimmed()) }
    }
    dialog.asWindow.present()
    _ = entry.grabFocus()
  }

  /// New List: made at once (offline too) and shown.
  func newList() {
    let over = planner.planner.shownAccount  // the lists shown when it was asked for
    askName(heading: tr("New List"), name: "", label: tr("List name"), action: tr("C_reate")) { name in
      let id = UUID()
      self.planner.planner.soon(over: over) { [weak controller = self.planner] planner in
        guard await planner.record(.createList(id: id, name: name)) else { return }
        controller?.choose(.list(id))
      }
    }
  }

  /// Rename List… of the list shown (its owner's).
  func renameList() {
    guard let list = planner.selectedList, list.role == .owner else {
      return refuse(tr("Only the list's owner can rename it"))
    }
    let over = planner.planner.shownAccount
    askName(heading: tr("Rename List"), name: list.name, label: tr("List name"), action: tr("_Rename")) { name in
      self.planner.planner.soon(over: over) { await $0.record(.renameList(id: list.id, name: name)) }
    }
  }

  /// Delete List: gone at once, with Undo for as long as the toast shows; the deletion is sent when it goes.
  func deleteList() {
    guard let list = planner.selectedList, list.role == .owner, !list.isDefault else {
      return refuse(
        planner.selectedList.map { $0.role != .owner } == true
          ? tr("A list someone shares with you can be left, not deleted") : tr("This list cannot be deleted"))
    }
    let toast = Toast.new(String(template: tr("“%@” deleted"), list.name), button: tr("Undo"))
    let (undone, over) = (Flag(), planner.planner.shownAccount)
    toast.onButtonClicked {
      undone.isSet = true
      self.planner.hide(list: list.id, false)
    }
    toast.onDismissed {
      guard !undone.isSet else { return }
      self.planner.planner.soon(over: over) { await $0.record(.deleteList(id: list.id)) }
    }
    planner.hide(list: list.id)
    toasts.present(toast)
  }

  /// Leave List: a list someone shares with the user, after asking (its tasks go from this account).
  func leaveList() {
    guard let list = planner.selectedList, list.role != .owner else {
      return refuse(tr("Only a list someone shares with you can be left"))
    }
    let dialog = MessageDialog.new(
      parent: window, heading: String(template: tr("Leave “%@”?"), list.name),
      body: tr("Its tasks will no longer show here. The owner can share it with you again."))
    dialog.addResponse("cancel", label: tr("_Cancel"))
    dialog.addResponse("leave", label: tr("_Leave"), destructive: true)
    dialog.defaultResponse = "cancel"
    let over = planner.planner.shownAccount  // the lists shown when it was asked
    dialog.onResponse { response in
      guard response == "leave" else { return }
      Task {
        do throws(TaskAPIError) {
          try await self.planner.planner.leave(list: list.id, over: over)
          self.toasts.show(String(template: tr("You left “%@”"), list.name))
        } catch {
          self.toasts.show(error.message)
        }
      }
    }
    dialog.asWindow.present()
  }

  /// Share List…: a code to send to the other person, with Copy.
  func shareList() {
    guard let list = planner.selectedList, list.role == .owner, !list.isDefault else {
      return refuse(tr("Only a list you made, other than the default one, can be shared"))
    }
    Task {
      do throws(TaskAPIError) {
        let (code, expires) = try await planner.planner.invite(list: list.id)
        let dialog = MessageDialog.new(
          parent: window, heading: String(template: tr("Share “%@”"), list.name),
          body: String(
            template: tr("Send this code to the person who should join. It works once, until %@."),
            LocalTime.text(of: expires)))
        let label = Label.new(code)
        gtk_label_set_selectable(OpaquePointer(label.widget), 1)
        label.setCSSClass("monospace", true)
        dialog.setExtraChild(label)
        dialog.addResponse("close", label: tr("_Close"))
        dialog.addResponse("copy", label: tr("_Copy"), suggested: true)
        dialog.onResponse { response in
          if response == "copy" {
            label.copyToClipboard(code)
            self.toasts.show(tr("Code copied"))
          }
        }
        dialog.asWindow.present()
      } catch {
        toasts.show(error.message)
      }
    }
  }

  /// Join a Shared List…: paste the code someone sent.
  func joinList() {
    let over = planner.planner.shownAccount
    askName(heading: tr("Join a Shared List"), name: "", label: tr("Code"), action: tr("_Join")) { code in
      Task {
        do throws(TaskAPIError) {
          let list = try await self.planner.planner.join(code: code, over: over)
          self.planner.choose(.list(list.id))
        } catch {
          self.toasts.show(error == .notFound ? tr("This code is not valid, or was used already") : error.message)
        }
      }
    }
  }

  private func refuse(_ message: String) {
    window.errorBell()
    toasts.show(message)
  }
}

/// A flag closures share (a toast's Undo and its dismissal).
@MainActor
final class Flag {
  var isSet = false
}
