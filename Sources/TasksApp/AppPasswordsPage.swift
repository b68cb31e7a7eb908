// AppPasswordsPage: Preferences' "Other Devices": the address and user name CalDAV apps sign in with, a password made
// per device (shown once, with a Copy button), and the account's passwords with their last use, each revocable.
// Main actor.

import CGtk
import FoundationEssentials
import GtkSupport
import TasksAccount
import TasksCore

/// The rows of the "Other Devices" page (`devices_group`, `passwords_group` of `ui/preferences-window.ui`).
@MainActor
final class AppPasswordsPage {
  private let devices: PreferencesGroup
  private let passwords: PreferencesGroup
  private let empty: ActionRow
  private let planner: PlannerOperations?
  private let nameRow = EntryRow(title: tr("Device Name, as Phone"), applyName: tr("Make a Password"))
  private var madeRow: ActionRow?
  private var accountRows: [ActionRow] = []
  private var addressRow: ActionRow?
  /// The account whose passwords the page lists (the one shown when it read them): what it makes and revokes is
  /// that account's.
  private var listedOver: PlannerOperations.ShownAccount?

  /// Fills the page from `builder`'s groups; without `planner` (signed out), it says to sign in first.
  init(builder: Builder, planner: PlannerOperations?) {
    devices = builder.widget("devices_group", as: PreferencesGroup.init)
    passwords = builder.widget("passwords_group", as: PreferencesGroup.init)
    empty = builder.widget("no_passwords_row", as: ActionRow.init)
    self.planner = planner
    guard planner != nil else {
      empty.title = tr("Sign in to make app passwords")
      return
    }
    devices.add(nameRow)
    nameRow.onApply { [weak self] in Task { await self?.make() } }
    Task { await reload() }
  }

  /// The account's passwords as the service has them now.
  func reload() async {
    guard let planner else { return }
    let items: [AppPasswordItem]
    do throws(TaskAPIError) {
      let over = planner.shownAccount
      let client = try await planner.client(over: over)
      items = try await client.appPasswords()
      listedOver = over
      showAddress(client.calDAVAddress.absoluteString, username: items.first?.username)
    } catch {
      empty.title = String(template: tr("The app passwords cannot be read: %@"), error.message)
      empty.isVisible = true
      return
    }
    for row in accountRows { passwords.remove(row) }
    accountRows = []
    empty.title = tr("No app passwords yet")
    empty.isVisible = items.isEmpty
    for item in items {
      let made = LocalTime.text(of: item.createdAt)
      let used =
        item.lastUsedAt.map { String(template: tr("last used %@"), LocalTime.text(of: $0)) } ?? tr("never used")
      let row = ActionRow.new(title: item.name, subtitle: String(template: tr("Made %@, %@"), made, used))
      row.addSuffix(
        iconButton("user-trash-symbolic", String(template: tr("Revoke %@"), item.name)) { [weak self] in
          Task { await self?.revoke(item) }
        })
      passwords.add(row)
      accountRows.append(row)
    }
  }

  /// The address and user name to type in an app (the user name once the service said it).
  private func showAddress(_ address: String, username: String?) {
    let text = username.map { String(template: tr("Address: %@  User name: %@"), address, $0) } ?? address
    if let addressRow {
      addressRow.subtitle = text
    } else {
      let row = ActionRow.new(title: tr("Sign In With"), subtitle: text)
      row.addSuffix(iconButton("edit-copy-symbolic", tr("Copy the Address")) { row.copyToClipboard(address) })
      devices.add(row)
      addressRow = row
    }
  }

  /// Makes a password for the device named in the entry, and shows it once.
  private func make() async {
    guard let planner else { return }
    let name = nameRow.editable.text
    guard name.contains(where: { !$0.isWhitespace }) else {
      nameRow.errorBell()
      return
    }
    if let madeRow { devices.remove(madeRow) }
    let row: ActionRow
    do throws(TaskAPIError) {
      let client = try await planner.client(over: listedOver ?? planner.shownAccount)
      let made = try await client.makeAppPassword(name: name)
      let password = made.password ?? ""
      row = ActionRow.new(
        title: password,
        subtitle: String(template: tr("The password for %@: type it in its app now. It is not shown again."), made.name)
      )
      row.addSuffix(iconButton("edit-copy-symbolic", tr("Copy the Password")) { row.copyToClipboard(password) })
      nameRow.editable.text = ""
      showAddress(client.calDAVAddress.absoluteString, username: made.username)
    } catch {
      row = ActionRow.new(title: tr("No password was made"), subtitle: error.message)
    }
    devices.add(row)
    madeRow = row
    await reload()
  }

  private func revoke(_ item: AppPasswordItem) async {
    guard let planner else { return }
    do throws(TaskAPIError) {
      try await planner.client(over: listedOver ?? planner.shownAccount).revokeAppPassword(id: item.id)
    } catch {
      empty.title = String(template: tr("%@ could not be revoked: %@"), item.name, error.message)
      empty.isVisible = true
      return
    }
    await reload()
  }
}
