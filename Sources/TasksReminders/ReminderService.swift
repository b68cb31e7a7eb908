// ReminderService: the account's reminders as desktop notifications, with no window and no toolkit: follows the
// change feed, arms one wall-clock timer for the next reminder, and answers the notifications' buttons (Mark as
// Done, Snooze) through an outbox of its own. Main actor.

import CGio
import FoundationEssentials
import GLibSupport
import TasksCore

/// The reminder service of the signed-in account (`b2c-tasks --background`, or started by D-Bus when a
/// notification's button is pressed).
///
/// It keeps only what its notifications need (`ReminderAgenda`): the tasks with a reminder to come or showing, and
/// the lists' names. It reads the feed at start, then holds one long poll of it (the service answers when something
/// changed for the account, through any device); it reads at once when asked (`app.refresh`, which the window and
/// the CLI send after an edit and a sign-out), when the keyring changes (a sign-out or a sign-in elsewhere), when the
/// network comes back and when the machine wakes up. Between those, nothing runs but the timer armed for the next
/// reminder.
@MainActor
final class ReminderService {
  /// After a read that failed (offline, the service failing): the next one, unless something asks sooner.
  static let retrySeconds: UInt32 = 60

  let application: UnsafeMutablePointer<GApplication>
  private let session: Session
  private let environment: [String: String]
  private var agenda = ReminderAgenda()
  /// At most a few notifications a minute; the rest said by one grouped notification.
  private var pacing = ReminderPacing()
  private var account: Account?
  private var ledger: ReminderLedger?
  /// The agenda kept on disk with the feed's token (the tasks with reminders, the lists' names).
  private var kept: URL?
  private var outbox: PlannerOutbox?
  /// Where the feed was read up to (nil: read it whole).
  private var token: String?
  private var timer: WallClockTimer?
  /// The read under way or last run, and the one waiting for it.
  private var reading: Task<Void, Never>?
  private var readAgain = false
  /// Buttons' edits on their way into the outbox, which an end waits for (a press is never lost).
  private var recording = 0
  private var ending = false
  /// Buttons pressed before the account and its agenda were known (D-Bus started the service for the press, which
  /// arrives before the session is read from the keyring): run once they are, so that no press is lost.
  private var waitingPresses: [@MainActor () -> Void]? = []
  /// The Secret Service's signals (unlocked, an item changed: a sign-out or a sign-in elsewhere): read again.
  private var keyringWatch: KeyringWatch?
  /// The network back, the machine awake: the long poll's connection may be dead, and what changed is read now.
  private var connectivity: ConnectivityWatch?
  /// The long poll under way (cancelled by a read, which starts another after it).
  private var waiting: Task<Void, Never>?
  /// The read planned after a failure (a GLib source), if any.
  private var retrySource: UInt32 = 0

  init(session: Session, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.session = session
    self.environment = environment
    application = UnsafeMutablePointer(
      OpaquePointer(g_application_new(AppIdentity.Reminders.appID, G_APPLICATION_DEFAULT_FLAGS)))
    Signal.connect(application, "startup") { [unowned self] in self.start() }
    // A second start (the autostart entry, `b2c-tasks --background` again) finds this one running: nothing to do.
    Signal.connect(application, "activate") {}
    typealias Action = AppIdentity.Reminders.Action
    Actions.add(Action.done.rawValue, parameter: "s", to: application) { [unowned self] target in
      self.whenLoaded { self.markDone(target) }
    }
    Actions.add(Action.snooze.rawValue, parameter: "s", to: application) { [unowned self] target in
      self.whenLoaded { self.snooze(target) }
    }
    Actions.add(Action.open.rawValue, parameter: "s", to: application) { [unowned self] in self.open($0) }
    Actions.add(Action.refresh.rawValue, to: application) { [unowned self] in self.read() }
    Actions.add(Action.quit.rawValue, to: application) { [unowned self] in self.quit() }
  }

  func run() -> Int32 {
    g_application_run(application, CommandLine.argc, CommandLine.unsafeArgv)
  }

  // MARK: Following the feed

  private func start() {
    g_application_hold(application)  // a service: it runs until the session ends, with or without notifications
    // Asked to end (the session ending, `kill`): between two steps, so that what it keeps on disk agrees.
    TerminationSignals.handle { [unowned self] in self.end() }
    // The clock set, or the machine back from sleep (which sets it too): armed again for the same moment, and the
    // feed read at once rather than at the minute's end (its timeout's clock stood still while asleep).
    timer = WallClockTimer { [unowned self] clockWasSet in
      guard clockWasSet else { return self.fireDue() }
      self.timer?.arm(at: self.agenda.next)
      self.read()
    }
    keyringWatch = KeyringWatch(connection: g_application_get_dbus_connection(application)) { [unowned self] in
      self.read()
    }
    connectivity = ConnectivityWatch { [unowned self] in self.read() }
    read()
  }

  /// Reads the feed (after sending what waits in the outbox); reads asked for while one runs share one after it. A
  /// long poll under way is given up for it; once the feed is read, the service waits for the next change.
  func read() {
    waiting?.cancel()
    waiting = nil
    if retrySource != 0 {
      g_source_remove(retrySource)
      retrySource = 0
    }
    guard reading == nil else {
      readAgain = true
      return
    }
    reading = Task {
      let outcome = await withTaskExecutorPreference(MainLoopExecutor.shared) { await readOnce() }
      if outcome != .accountUnknown { runWaitingPresses() }
      reading = nil
      if readAgain {
        readAgain = false
        read()
      } else if !ending {
        switch outcome {
        case .followed: waitForChanges()
        case .failed: retryLater()
        case .accountUnknown, .notFollowing: break  // the keyring's signals say when to read again
        }
      }
    }
  }

  /// What a read came to.
  private enum ReadOutcome {
    /// The feed was read: the long poll follows it.
    case followed
    /// The keyring did not answer (locked, its service restarting): its signals bring the next read.
    case accountUnknown
    /// Nobody signed in, or the sign-in ended: nothing to follow until the keyring changes.
    case notFollowing
    /// The task service could not be reached or failed: read again in a minute.
    case failed
  }

  /// Reads the keyring's session, then the feed; the agenda is what was kept on disk and the feed's changes.
  private func readOnce() async -> ReadOutcome {
    // The keyring unavailable (locked, its service restarting) is no sign-out: nothing is forgotten. Locked, the
    // service never asks to unlock it (a prompt from a process with no window): it waits for the Secret Service to
    // say a collection changed, then reads on.
    let signedIn: Account?
    do throws(SessionError) { signedIn = try await session.restore() } catch {
      if case .keyring(let problem) = error, problem.code == .locked {
        sayLocked()
        return .accountUnknown
      }
      retryLater()
      return .accountUnknown
    }
    // Ended without a sign-out (no refresh token, and the bearer expired): nobody signed out, so the account's files
    // stay and what it kept fires; the feed is read again once a window signs in again.
    if signedIn == nil, case .needsSignIn(let ended) = await session.state {
      if let ended, ended.objectID != account?.objectID { switchAccount(to: ended) }
      return .notFollowing
    }
    if signedIn?.objectID != account?.objectID { switchAccount(to: signedIn) }
    guard let account = signedIn, let outbox else { return .notFollowing }
    let client = TaskAPIClient(session: session, account: account.objectID)
    // A snooze merges with other devices' edits reminder by reminder (PlannerMerge); one that lost to a change of
    // the same reminder there (acknowledged or removed, the occurrence finished) leaves the newer change standing.
    _ = await outbox.flush(client)
    let since = token
    let changes: PlannerChanges
    do throws(TaskAPIError) {
      changes = try await readFeed(client, since: since, wait: nil)
    } catch .rejected(410, _) {
      token = nil
      readAgain = true
      return .notFollowing
    } catch {
      return .failed  // offline, or the service failed: the next read tries again; the timer still fires what is known
    }
    guard self.account?.objectID == account.objectID else { return .notFollowing }  // signed out meanwhile
    // Signed out in another program while the feed was read: its files are gone, and nothing is written again.
    guard (try? await session.restore())?.objectID == account.objectID else {
      readAgain = true
      return .notFollowing
    }
    apply(changes, since: since)
    return .followed
  }

  /// Holds one long poll of the feed from the token kept: the service answers once something changed for the
  /// account, or with nothing after `PlannerReplica.waitSeconds`; then it waits again. No keyring read between two
  /// (its signals bring a read when the session changes), so an idle service wakes once in those minutes.
  private func waitForChanges() {
    guard waiting == nil, let account, let since = token else { return }
    let client = TaskAPIClient(session: session, account: account.objectID)
    waiting = Task {
      let changes: PlannerChanges
      do throws(TaskAPIError) {
        changes = try await withTaskExecutorPreference(MainLoopExecutor.shared) { () async throws(TaskAPIError) in
          try await readFeed(client, since: since, wait: PlannerReplica.waitSeconds)
        }
      } catch {
        // Given up for a read (which waits again after it), or failed: a read now when the token is too old (410:
        // it starts over), else in a minute (offline, the service failing, an answer that does not read: never a
        // loop of reads against a service that fails its long polls).
        guard !Task.isCancelled else { return }
        waiting = nil
        if case .rejected(410, _) = error { read() } else { retryLater() }
        return
      }
      guard !Task.isCancelled, self.account?.objectID == account.objectID, token == since else { return }
      waiting = nil
      apply(changes, since: since)
      waitForChanges()
    }
  }

  /// The feed from `since` (a long poll with `wait`), keeping only what the agenda holds. Pages of 20: what a page's
  /// tasks hold (notes of any length) is in memory only while that page is read (pages of 100 of 60 000-character
  /// notes left 7 MB more resident after the read, pages of 20 under 2 MB).
  private func readFeed(_ client: TaskAPIClient, since: String?, wait: Int?) async throws(TaskAPIError)
    -> PlannerChanges
  {
    let known = Set(agenda.tasks.keys)
    return try await PlannerReplica.read(
      client, since: since, limit: 20, wait: wait,
      keeping: { @Sendable task in !task.reminderTimes.isEmpty || known.contains(task.id) },
      shaping: ReminderAgenda.kept)
  }

  /// Plans a read in `retrySeconds` (after a failure), unless one is planned.
  private func retryLater() {
    guard retrySource == 0 else { return }
    retrySource = g_timeout_add_seconds_full(
      G_PRIORITY_DEFAULT, Self.retrySeconds,
      { data in
        MainActor.assumeIsolated {
          let service = Unmanaged<ReminderService>.fromOpaque(data!).takeUnretainedValue()
          service.retrySource = 0
          service.read()
        }
        return 0
      }, Unmanaged.passUnretained(self).toOpaque(), nil)
  }

  /// What a read of the feed brought, into the agenda (and on disk); what is due now fires.
  private func apply(_ changes: PlannerChanges, since: String?) {
    token = changes.next
    for id in agenda.apply(changes, whole: since == nil) { withdraw(id) }
    keep(
      agendaChanged: changes.lists.count + changes.tasks.count + changes.deletedLists.count
        + changes.deletedTasks.count > 0 || since == nil)
    fireDue()
    // A read that brought tasks held their whole pages (notes of any length) for a moment: what malloc kept of them
    // goes back to the system, so that the service stays small whatever the lists hold.
    if !changes.tasks.isEmpty || since == nil { malloc_trim(0) }
  }

  /// Found the keyring locked: says so on standard error (each time); the keyring's signals bring the read when it
  /// is unlocked.
  private func sayLocked() {
    let line = "b2c-tasks-reminders: the keyring is locked: reminders wait until it is unlocked\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
  }

  /// Runs `press` now when the agenda is known, or after the first read that knows it.
  private func whenLoaded(_ press: @escaping @MainActor () -> Void) {
    if waitingPresses == nil { press() } else { waitingPresses?.append(press) }
  }

  private func runWaitingPresses() {
    guard let presses = waitingPresses else { return }
    waitingPresses = nil
    for press in presses { press() }
  }

  /// Another account, or none: the last one's notifications are withdrawn and nothing of it is kept in memory, nor
  /// its tasks on disk. Signed out (none): none of its files stays, its ledger and outbox included, as with every
  /// door's sign-out (`AccountFiles.forget`: whichever door removed them first, this one removes what a read under
  /// way wrote after). Signed in as someone else: its ledger and what waits in its outbox stay for its next sign-in.
  private func switchAccount(to account: Account?) {
    for id in agenda.clear() { withdraw(id) }
    g_application_withdraw_notification(application, ReminderPacing.groupID)
    pacing = ReminderPacing()
    kept.map { try? FileManager.default.removeItem(at: $0) }
    if account == nil, let previous = self.account {
      AccountFiles(account: previous, in: session.key, environment: environment).forget()
    }
    kept = nil
    token = nil
    self.account = account
    guard let account else {
      ledger = nil
      outbox = nil
      timer?.arm(at: nil)
      return
    }
    let files = AccountFiles(account: account, in: session.key, environment: environment)
    let ledger = ReminderLedger(file: files.reminderLedger)
    self.ledger = ledger
    // What the last run kept: reminders fire on time even when the service cannot be reached at login, and the feed
    // is read on from where it was.
    let kept = files.reminderAgenda
    self.kept = kept
    if let data = try? Data(contentsOf: kept), let agenda = ReminderAgenda(document: data, fired: ledger.read()) {
      self.agenda = agenda
      token = agenda.token
    } else {
      agenda = ReminderAgenda(fired: ledger.read())
    }
    outbox = PlannerOutbox(file: files.reminderOutbox)
    fireDue()  // what was kept, whether or not the service answers
  }

  // MARK: Firing

  /// Shows what is due, and arms the timer for what comes next.
  private func fireDue() {
    let now = Date()
    let (shown, held) = pacing.admit(agenda.due(at: now), now: now)
    for alert in shown { show(alert, now: now) }
    if !held.isEmpty { showGroup() }
    saveLedger()
    timer?.arm(at: agenda.next)
  }

  private func show(_ alert: ReminderAlert, now: Date) {
    let notification = g_notification_new(alert.title)!
    defer { g_object_unref(notification.gpointer) }
    NotificationBody.set(alert.body(now: now), on: notification, application: application)
    g_notification_set_priority(notification, G_NOTIFICATION_PRIORITY_HIGH)
    let id = alert.task.id.uuidString.lowercased()
    typealias Action = AppIdentity.Reminders.Action
    g_notification_set_default_action_and_target_value(
      notification, Action.open.detailedName, g_variant_new_string(id))
    g_notification_add_button_with_target_value(
      notification, ReminderPhrases.markAsDone, Action.done.detailedName, g_variant_new_string(id))
    g_notification_add_button_with_target_value(
      notification, ReminderPhrases.snooze, Action.snooze.detailedName, g_variant_new_string(id))
    g_application_send_notification(application, alert.notificationID, notification)
  }

  /// The grouped notification: how many reminders were held back this minute and the latest ones' titles; a click
  /// opens the latest one's task in the window.
  private func showGroup() {
    guard let latest = pacing.held.last else { return }
    let notification = g_notification_new(pacing.groupTitle)!
    defer { g_object_unref(notification.gpointer) }
    NotificationBody.set(pacing.groupBody, on: notification, application: application)
    g_notification_set_default_action_and_target_value(
      notification, AppIdentity.Reminders.Action.open.detailedName,
      g_variant_new_string(latest.task.id.uuidString.lowercased()))
    g_application_send_notification(application, ReminderPacing.groupID, notification)
  }

  private func withdraw(_ task: UUID) {
    g_application_withdraw_notification(application, ReminderAlert.notificationID(of: task))
  }

  private func saveLedger() {
    try? ledger?.write(agenda.fired)
  }

  /// Keeps the agenda (when it changed) with the feed's token, then what fired. In this order: a service ended
  /// between the two (SIGKILL, a power cut) finds a notification it withdrew still in the ledger, which is harmless,
  /// and never a reminder it withdrew still due in the agenda but gone from the ledger, which would fire again.
  private func keep(agendaChanged: Bool) {
    if agendaChanged, let kept, let token { try? AtomicFile.write(agenda.document(token: token), to: kept) }
    saveLedger()
  }

  // MARK: The notifications' buttons

  /// Finishes the task (its next occurrence, for a repeating one): kept in the outbox first, then sent.
  private func markDone(_ target: String) {
    guard let id = UUID(uuidString: target) else { return }
    guard let task = agenda.task(id) else { return withdraw(id) }  // a notification left from before
    let today = DueLabel.now().today
    record(.complete(list: task.listID, id: id, occurrence: task.due?.date ?? today, today: today), task: id)
  }

  /// Fires the task's reminder again in ten minutes, here and on every device (acknowledged now, snoozed until then).
  private func snooze(_ target: String) {
    guard let id = UUID(uuidString: target) else { return }
    guard let task = agenda.task(id) else { return withdraw(id) }  // a notification left from before
    let now = Date()
    let snoozed = ReminderAgenda.snoozed(
      task, now: now, until: now.addingTimeInterval(TimeInterval(AppIdentity.Reminders.snoozeMinutes * 60)))
    record(.changeTask(base: task, mine: snoozed), task: id)
    _ = agenda.apply(PlannerChanges(tasks: [snoozed], next: token ?? ""), whole: false)
    keep(agendaChanged: true)
    timer?.arm(at: agenda.next)
  }

  private func record(_ edit: PlannerEdit, task: UUID) {
    withdraw(task)
    guard let outbox else { return }
    recording += 1
    Task {
      await withTaskExecutorPreference(MainLoopExecutor.shared) { _ = try? await outbox.record(edit) }
      recording -= 1
      if ending { return end() }
      read()
    }
  }

  /// Opens the app's window on the task (D-Bus activation of the app, as GNOME Shell starts it).
  private func open(_ target: String) {
    ApplicationLink.activate(appID: AppIdentity.appID, action: "show-task", parameter: target, start: true)
  }

  /// Withdraws every notification and ends (the Preferences switch turned off); what fired stays in the ledger, so
  /// that a later start fires none of it again.
  private func quit() {
    for id in agenda.fired.keys { withdraw(id) }
    g_application_withdraw_notification(application, ReminderPacing.groupID)
    end()
  }

  /// Ends the service once the buttons' edits are in the outbox (a read under way is left: what it kept on disk
  /// agrees, and the next start reads on from there).
  private func end() {
    ending = true
    waiting?.cancel()
    timer?.arm(at: nil)
    if recording == 0 { g_application_quit(application) }
  }
}
