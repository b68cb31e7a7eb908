// DAVRoutes: CalDAV (RFC 4791) on the task service, under /dav/: discovery from the bare address (RFC 6764), each
// list a calendar collection of VTODOs, sync-collection (RFC 6578) from the change feed's numbers. Signed in with an
// app password (HTTP Basic). Sendable.

import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import TasksCalendar

/// The request context of the task service's servers: Hummingbird's, with the client's address (failed app
/// passwords are counted per address).
public struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
  public var coreContext: CoreRequestContextStorage
  public let remoteAddress: SocketAddress?

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress
  }
}

/// The CalDAV face and the app passwords' routes.
public struct DAVRoutes: Sendable {
  let store: any DAVStore
  let passwords: AppPasswords
  let planner: PlannerRoutes
  /// The largest body a DAV request may have (a task with the longest notes fits).
  static let maxBody = 1 << 20
  /// The most resources one multiget may name.
  static let maxHrefs = 1000
  static let realm = "Basic realm=\"B2C Tasks (use an app password)\", charset=\"UTF-8\""

  public init(store: any DAVStore, planner: PlannerRoutes) {
    self.store = store
    self.planner = planner
    passwords = AppPasswords(store: store)
  }

  public func register<Context: RequestContext>(on router: Router<Context>) {
    passwords.register(on: router, authorized: planner)
    // A middleware, not routes: WebDAV's methods and any depth of path, and `PROPFIND /` (which no route has).
    router.middlewares.add(DAVMiddleware(routes: self))
  }

  struct DAVMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: DAVRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
      async throws -> Response
    {
      let path = request.uri.path
      if path == "/.well-known/caldav" || path == "/.well-known/caldav/" {
        return Response(status: .movedPermanently, headers: [.location: "/dav/"])
      }
      let method = request.method.rawValue
      guard path == "/dav" || path.hasPrefix("/dav/") || (path == "/" && (method == "PROPFIND" || method == "REPORT"))
      else { return try await next(request, context) }
      let address = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress ?? "unknown"
      return await routes.respond(request, address: address, logger: context.logger)
    }
  }

  // MARK: Dispatch

  /// Where a request points.
  enum Target: Equatable {
    /// `/`, `/dav/`: discovery.
    case root
    case principal
    case home
    case collection(UUID)
    case resource(UUID, String)
    case nowhere
  }

  /// The list a collection's name stands for: the list with that id, or for a name a client chose (`MKCALENDAR
  /// /dav/calendars/me/work/`, as Evolution and caldav-server-tester do), the list whose id is derived from the
  /// account and the name (the same on every instance; the list is also listed under its id).
  static func listID(_ name: String, owner: String) -> UUID? {
    if let id = UUID(uuidString: name) { return id }
    guard validName(name) else { return nil }
    var bytes = Array(SHA256.hash(data: Data("b2c-tasks collection \(owner) \(name)".utf8)).prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: a UUID of the application's own making (RFC 9562)
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
        bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
  }

  func target(_ path: String, username: String, owner: String) -> Target {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    guard parts.first == "dav" else { return parts.isEmpty ? .root : .nowhere }
    switch parts.count {
    case 1: return .root
    case 3 where parts[1] == "principals" && parts[2] == username: return .principal
    case 3 where parts[1] == "calendars" && parts[2] == username: return .home
    case 4 where parts[1] == "calendars" && parts[2] == username:
      return parts[3].removingPercentEncoding.flatMap { Self.listID($0, owner: owner) }.map { .collection($0) }
        ?? .nowhere
    case 5 where parts[1] == "calendars" && parts[2] == username:
      guard let list = parts[3].removingPercentEncoding.flatMap({ Self.listID($0, owner: owner) }),
        let name = parts[4].removingPercentEncoding,
        Self.validName(name)
      else { return .nowhere }
      return .resource(list, name)
    default: return .nowhere
    }
  }

  static func validName(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.count <= 255 && name != "." && name != ".." && !name.contains("/")
      && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
  }

  func respond(_ request: Request, address: String, logger: Logger) async -> Response {
    let method = request.method.rawValue
    if method == "OPTIONS" { return Self.options() }
    let caller: PlannerCaller
    switch await passwords.check(authorization: request.headers[.authorization], address: address) {
    case .caller(let found): caller = found
    case .refused:
      return Response(
        status: .unauthorized, headers: [.wwwAuthenticate: Self.realm, .contentType: "text/plain; charset=utf-8"],
        body: .init(byteBuffer: ByteBuffer(string: "Sign in with an app password made in B2C Tasks' Preferences.\n")))
    case .limited(let seconds):
      return Self.text(
        .tooManyRequests, "Too many wrong passwords: try again in \(seconds) s.", [.retryAfter: "\(seconds)"])
    }
    let username = AppPasswords.username(owner: caller.key)
    let context = DAVRequest(
      routes: self, request: request, caller: caller, username: username, logger: logger)
    do {
      return try await context.respond(to: target(request.uri.path, username: username, owner: caller.key))
    } catch let refusal as DAVRefusal {
      return refusal.response
    } catch is PlannerFeedRefusal {
      return Self.xml(.forbidden, DAVXML.error(DAVXML.dav, "valid-sync-token"))
    } catch let cap as PlannerRules.CapReached {
      return Self.text(.forbidden, cap.message)
    } catch {
      logger.error("a CalDAV request failed", metadata: ["method": "\(method)", "error": "\(type(of: error))"])
      return Self.text(.serviceUnavailable, "The service cannot answer now; try again later.")
    }
  }

  // MARK: Answers

  static let multiStatus = HTTPResponse.Status(code: 207, reasonPhrase: "Multi-Status")
  static let davHeader = HTTPField.Name("DAV")!
  static let depth = HTTPField.Name("Depth")!
  static let allowed = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR"

  static func options() -> Response {
    Response(
      status: .ok,
      headers: [
        davHeader: "1, 3, calendar-access", .allow: allowed, .contentLength: "0",
      ])
  }

  static func text(_ status: HTTPResponse.Status, _ message: String, _ extra: HTTPFields = [:]) -> Response {
    var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
    headers.append(contentsOf: extra)
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
  }

  static func xml(_ status: HTTPResponse.Status, _ body: String) -> Response {
    Response(
      status: status, headers: [.contentType: "application/xml; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: body)))
  }
}

/// A refusal with its answer (a precondition, a method not allowed here, a body that cannot be read).
package struct DAVRefusal: Error {
  let response: Response

  static func status(_ status: HTTPResponse.Status, _ message: String) -> DAVRefusal {
    DAVRefusal(response: DAVRoutes.text(status, message))
  }

  static func precondition(
    _ status: HTTPResponse.Status, _ namespace: String, _ name: String, _ message: String? = nil
  ) -> DAVRefusal {
    DAVRefusal(response: DAVRoutes.xml(status, DAVXML.error(namespace, name, message)))
  }

  static func method(_ allowed: String) -> DAVRefusal {
    var response = DAVRoutes.text(.methodNotAllowed, "This method does not apply here.")
    response.headers[.allow] = allowed
    return DAVRefusal(response: response)
  }
}
