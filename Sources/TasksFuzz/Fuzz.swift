// TasksFuzz: the fuzzing harness of TasksCore's parsers and of the service's readers (details, CalDAV's bodies).
// Built with `-sanitize=fuzzer,address -D FUZZING` by Tests/Fuzz/fuzz.sh it is a libFuzzer binary; built normally it
// replays corpora (`b2c-tasks-fuzz TARGET FILE…`), which the tests do with the corpora kept in Tests/Fuzz/corpus/.

import Foundation
import TaskService
import TasksCore
import TasksURLSession

/// The parsers under test, by name. Each must return (not crash, not hang) on any input; errors are expected.
enum FuzzTarget: String, CaseIterable {
  /// What WebKit's decide-policy hands the redirect interpreter: any URL string.
  case redirect
  /// A token endpoint's answer: success and error bodies.
  case token
  /// The task API's list.
  case tasks
  /// The settings file (XML or binary property list).
  case settings
  /// A URL the sign-in view is asked to load.
  case navigation
  /// An id_token, checked against a fixed key set (Tests/Fuzz/corpus/jwt holds tokens signed with its key).
  case jwt
  /// A policy's key set document (JWKS).
  case jwks
  /// A discovery document, read for a B2C, an External ID (public and loopback) and an OpenID Connect authority.
  case discovery
  /// The `authority` setting (any text), and then any text as the issuer a document names for it and for the
  /// fixed authorities.
  case authority
  /// A change-feed page from a hostile service (and the kept copy, written in the same form): its head, read ahead of
  /// the rest, and the page, read by the reader without Codable where it can, which must then read it as Foundation's
  /// JSONDecoder does, with the same head (it works on raw bytes: AddressSanitizer watches its reads).
  case feed
  /// A task's details column as the service reads it (`StoredDetails`, on raw bytes), which must read it to the task
  /// the general reader (JSONSerialization, then a client change's checks) reads, or leave it to that reader.
  case details
  /// A CalDAV client's PUT body (any bytes): read as the service reads it into a new task; the text a GET then
  /// answers must be a resource a PUT takes again, with the same UID, and saving it back unchanged (as DAVx5 and
  /// Thunderbird do after a read) must change nothing of the task.
  case ical
  /// A WebDAV request's XML body (any bytes), read into the service's tree, and a calendar-query's filter and a
  /// sync-collection's token read from it and matched against a task.
  case xml

  private static let interpreters = [
    "urn:ietf:wg:oauth:2.0:oob", "http://127.0.0.1:8400/callback", "io.github.b2ctasks.tasks://auth",
  ].compactMap { RedirectURI($0) }.map { RedirectInterpreter(redirectURI: $0, expectedState: "state-1") }

  func run(_ data: Data) {
    switch self {
    case .redirect:
      let text = String(decoding: data, as: UTF8.self)
      for interpreter in Self.interpreters { _ = interpreter.interpret(text) }
    case .token:
      _ = try? TokenResponse.parse(data)
      _ = TokenResponse.parseError(data)
    case .tasks: _ = try? TaskItem.decodeList(data)
    case .settings: _ = try? AppSettings.parse(data, file: "fuzz")
    case .navigation: _ = SignInNavigation.mayLoad(String(decoding: data, as: UTF8.self))
    case .jwt:
      let token = String(decoding: data, as: UTF8.self)
      blocking {
        guard let keys = try? await Self.fuzzKeys.value else { fatalError("the fuzz key set does not load") }
        _ = try? await Self.validator.validate(
          token, keys: keys, issuer: "https://fuzz.example/tenant/v2.0/", nonce: "fuzz-nonce",
          now: Date(timeIntervalSince1970: 1_800_000_000))
      }
    case .jwks: blocking { _ = try? await OpenIDMetadata.keySet(data) }
    case .discovery:
      for authority in Self.authorities { _ = try? OpenIDConfiguration.parse(data, for: authority) }
    case .feed:
      let page = PlannerFeedPage(body: data)
      let head = page.head
      let read = try? page.decoded()
      let codable = try? JSONDecoder().decode(PlannerChanges.self, from: data)
      if let read, read != codable {
        fatalError("the feed's two readers disagree: \(read) against \(String(describing: codable))")
      }
      // The next page is asked for from the head while the page is decoded: a page that decodes has the same head
      // (the sync refuses one read two ways).
      if let read, !(head.map { $0 == (read.more, read.next) } ?? false) {
        fatalError("the page's head \(String(describing: head)) is not its decoded \((read.more, read.next))")
      }
    case .details:
      guard let text = String(validating: data, as: UTF8.self) else { return }  // the column is text
      var typed = PlannerTask(title: "t")
      guard StoredDetails.read(text, into: &typed) else { return }
      guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
        fatalError("the typed reader read details the general one cannot parse: \(text)")
      }
      var general = PlannerTask(title: "t")
      do throws(FieldError) { try general.readDetails(object) } catch {
        fatalError("the typed reader read details the general one refuses (\(error)): \(text)")
      }
      if typed != general { fatalError("the details' two readers disagree: \(typed) against \(general)") }
    case .ical: Self.putAndGet(data)
    case .xml:
      let body: DAVElement
      do throws(DAVXMLError) { body = try DAVXML.parse(data) } catch {
        // The checks before the parser find every DTD, instruction and overlong start tag the parser would meet:
        // one the reader meets itself is one they missed (fuzz.sh gives this target inputs of up to 16 KiB, room for
        // a start tag past the checks' 4 096 bytes).
        if error.metByReader { fatalError("the checks before the parser missed what they refuse: \(error.reason)") }
        return
      }
      if let filter = try? DAVQueryFilter(body.child(DAVXML.caldav, "filter")) {
        for task in Self.davTasks { _ = filter.matches(task) }
      }
      _ = body.child(DAVXML.dav, "sync-token").flatMap { DAVSyncToken.position($0.text) }
    case .authority:
      let text = String(decoding: data, as: UTF8.self)
      let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      let plist = """
        <plist version="1.0"><dict><key>clientID</key><string>fuzz-client</string>
        <key>authority</key><string>\(escaped)</string>
        <key>redirectURI</key><string>urn:ietf:wg:oauth:2.0:oob</string>
        <key>taskAPI</key><string>https://tasks.example</string></dict></plist>
        """
      var authorities = Self.authorities
      if let settings = try? AppSettings.parse(Data(plist.utf8), file: "fuzz") {
        authorities.append(settings.authority)
        _ = SessionKey(settings).digest
      }
      for authority in authorities {
        _ = authority.accepts(issuer: text)
        _ = authority.discovery(for: nil)
        _ = authority.conventionalEndpoints(for: nil)
      }
    }
  }

  /// A PUT of `data` as a new task, then the GET's text saved back over it: see `ical`.
  private static func putAndGet(_ data: Data) {
    guard let incoming = try? DAVTodo.read(data) else { return }
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    // Refused by the task's own checks (422), as the store refuses it: nothing kept.
    guard
      let (task, finished) = try? written(
        DAVTodo.plan(incoming, current: nil, parentID: nil, now: now), over: nil, now: now)
    else { return }
    let stored = StoredTask(id: fuzzID, listID: fuzzID, task: task, createdAt: now, updatedAt: now, version: 1)
    let kept = DAVTask(
      stored: stored, record: DAVRecord(uid: incoming.uid, ical: incoming.text), parentUID: incoming.parentUID)
    let text = DAVTodo.render(kept)
    let again: DAVTodo.Incoming
    do throws(DAVRefusal) { again = try DAVTodo.read(Data(text.utf8)) } catch {
      fatalError("a GET answers a text a PUT refuses (\(error)): \(text)")
    }
    if again.uid != incoming.uid { fatalError("a GET answers another UID: \(again.uid) for \(incoming.uid)") }
    let after: PlannerTask
    do throws(FieldError) {
      after = try written(DAVTodo.plan(again, current: stored, parentID: nil, now: now), over: task, now: now).task
    } catch { fatalError("saving a GET's text back is refused (\(error)): \(text)") }
    // A PUT finishes at most `maxFinished` occurrences: a longer run of finished overrides goes on at the next save.
    if after != task, finished < DAVTodo.Plan.maxFinished {
      fatalError("saving a GET's text back changes the task: \(task) became \(after): \(text)")
    }
  }

  /// The task a PUT's plan writes over `current` (nil: a new one), as the store writes it, and how many of its
  /// occurrences the PUT finished.
  private static func written(_ plan: DAVTodo.Plan, over current: PlannerTask?, now: Date) throws(FieldError)
    -> (task: PlannerTask, finished: Int)
  {
    var task: PlannerTask
    if let current {
      task = try current.applying(plan.changes, now: now)
    } else {
      guard case .set(let title) = plan.changes.title else { throw FieldError("title", "a task needs a title") }
      task = try PlannerTask(title: title).applying(plan.changes, now: now)
    }
    for count in 0..<DAVTodo.Plan.maxFinished {
      guard let occurrence = plan.nextFinished(on: task, after: count) else { return (task, count) }
      task = try task.completing(occurrence: occurrence, today: plan.today, now: now)
    }
    return (task, DAVTodo.Plan.maxFinished)
  }

  private static let fuzzID = UUID(uuidString: "6E1C9A2F-4D4E-4B9C-8A1D-8F0E2B7A6400")!

  /// Tasks a calendar-query's filter is matched against: one due at a time in a zone, one finished without a date,
  /// one made through the JSON API (no text of its own).
  private static let davTasks: [DAVTask] = {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let texts = [
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fuzz//EN\r\nBEGIN:VTODO\r\nUID:fuzz-1\r\nSUMMARY:Call Ana\r\n"
        + "DUE;TZID=Europe/Berlin:20270115T093000\r\nPRIORITY:1\r\nCATEGORIES:home,work\r\n"
        + "RRULE:FREQ=WEEKLY;BYDAY=MO\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
      "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fuzz//EN\r\nBEGIN:VTODO\r\nUID:fuzz-2\r\nSUMMARY:Done\r\n"
        + "STATUS:COMPLETED\r\nCOMPLETED:20261201T100000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
    ]
    var tasks = texts.compactMap { text -> DAVTask? in
      guard let incoming = try? DAVTodo.read(Data(text.utf8)) else { return nil }
      let plan = DAVTodo.plan(incoming, current: nil, parentID: nil, now: now)
      guard let task = try? written(plan, over: nil, now: now).task else { return nil }
      let stored = StoredTask(id: fuzzID, listID: fuzzID, task: task, createdAt: now, updatedAt: now, version: 1)
      return DAVTask(stored: stored, record: DAVRecord(uid: incoming.uid, ical: text), parentUID: nil)
    }
    guard tasks.count == texts.count else { fatalError("the fuzz tasks do not read") }
    let plain = StoredTask(
      id: fuzzID, listID: fuzzID, task: PlannerTask(title: "API task"), createdAt: now, updatedAt: now, version: 2)
    tasks.append(DAVTask(stored: plain, record: DAVRecord(), parentUID: nil))
    return tasks
  }()

  /// One authority of each kind, as the settings would make them.
  private static let authorities: [Authority] = [
    .tenant(base: URL(string: "https://contoso.b2clogin.com")!, tenant: "contoso.onmicrosoft.com"),
    .externalID(base: URL(string: "https://contoso.ciamlogin.com")!, tenant: "contoso.onmicrosoft.com"),
    .externalID(base: URL(string: "http://127.0.0.1:5995")!, tenant: "5b6e1c9a-2f4d-4e7b-9c3a-1d8f0e2b7a64"),
    .openID(issuer: URL(string: "https://id.example.com/realms/tasks")!),
  ]

  /// The public half of the key the jwt corpus was signed with (Tests/Fuzz/corpus/jwks/rsa).
  private static let fuzzKeys = Task { try await OpenIDMetadata.keySet(Data(fuzzKeySet.utf8)) }
  private static let validator = IDTokenValidator(metadata: OpenIDMetadata(http: .shared), clientID: "fuzz-client")
  private static let fuzzKeySet =
    #"{"keys":[{"kid":"fuzz-key","use":"sig","kty":"RSA","alg":"RS256","e":"AQAB","n":"6DUOkW90FY1qsMJIfHoWdLCc57cT7OCcHxZCgn1ZFVtTkaD-pgOF2KqfAifzlPzqBmjPnKq-5NV2IzWixBXpRCkEW8gWgANuzNAcLlv4GAjv6WSbypuqK4CZjQ3Ll9EQOKD94DfyXiHWR2grAY_Pw5CEYxm1OW_Bgkae9_TPJt9bYUF2KODomrF7n1Z_8Y0jtFwBZGl22X6JpnywnWajQLcgsspK68W3GRSwhjKVPkNV1xyBMz9zsGiJ3JZtyFtHCpAlG9RugjgrNJYDKDp1nEmKRQrfBb6xuok-69MB2L-FGTrXnC1Q_sFFMrwH0R3GuzOGJVsjCvxajzDCtZmQoQ"}]}"#
}

/// Runs `body` to its end on the concurrency pool and waits for it (libFuzzer calls its target synchronously).
private func blocking(_ body: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task {
    await body()
    done.signal()
  }
  done.wait()
}

#if FUZZING
  private let target = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["B2C_FUZZ_TARGET"] ?? "") ?? .redirect

  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOne(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    target.run(Data(bytes: bytes, count: count))
    return 0
  }

  /// libFuzzer's driver (it ships a `main` too, but SwiftPM links an executable's entry as `TasksFuzz_main`).
  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
  ) -> Int32

  @_cdecl("TasksFuzz_main")
  public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { bytes, size in fuzzOne(bytes, size) }
  }
#else
  @main
  enum Replay {
    static func main() throws {
      let arguments = CommandLine.arguments.dropFirst()
      guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        FileHandle.standardError.write(Data("usage: b2c-tasks-fuzz \(names) FILE|FOLDER…\n".utf8))
        exit(2)
      }
      var count = 0
      for path in arguments.dropFirst() {
        let url = URL(filePath: path)
        var isFolder: ObjCBool = false
        FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        let files =
          isFolder.boolValue
          ? try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil) : [url]
        for file in files {
          target.run(try Data(contentsOf: file))
          count += 1
        }
      }
      print("\(name): replayed \(count) inputs")
    }
  }
#endif
