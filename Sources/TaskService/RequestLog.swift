// RequestLog: one structured log line per request, with secrets redacted. Sendable middleware.

import Foundation
import Hummingbird
import Logging

/// Logs method, path, query (secret values replaced by `…`), status and duration of every request. Bodies are never
/// logged; neither are headers, which carry cookies and bearer tokens.
public struct RequestLog<Context: RequestContext>: RouterMiddleware {
  public init() {}

  /// Query parameters whose values are secrets or grant access.
  static var secretParameters: Set<String> {
    [
      "code", "refresh_token", "access_token", "id_token", "id_token_hint", "client_secret", "code_verifier",
      "password", "tx",
    ]
  }

  public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
    async throws
    -> Response
  {
    let start = ContinuousClock.now
    // (At debug level: which requests are in flight, e.g. when a shutdown waits for them.)
    context.logger.debug(
      "request started",
      metadata: [
        "method": "\(request.method.rawValue)", "path": "\(Self.redacted(request.uri.path, query: request.uri.query))",
      ])
    do {
      let response = try await next(request, context)
      log(request, context, status: response.status.code, start: start)
      return response
    } catch {
      let status = (error as? any HTTPResponseError)?.status.code ?? 500
      log(request, context, status: status, start: start)
      throw error
    }
  }

  private func log(_ request: Request, _ context: Context, status: Int, start: ContinuousClock.Instant) {
    let elapsed = ContinuousClock.now - start
    let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
    context.logger.info(
      "request",
      metadata: [
        "method": "\(request.method.rawValue)", "path": "\(Self.redacted(request.uri.path, query: request.uri.query))",
        "status": "\(status)", "ms": "\(String(format: "%.1f", milliseconds))",
      ])
  }

  /// `path?query` with the values of secret parameters replaced by `…`.
  public static func redacted(_ path: String, query: String?) -> String {
    guard let query, !query.isEmpty else { return path }
    let parts = query.split(separator: "&").map { part -> String in
      let name = part.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
      return secretParameters.contains(name.lowercased()) ? "\(name)=…" : String(part)
    }
    return path + "?" + parts.joined(separator: "&")
  }
}

/// Turns any error a route did not answer into a plain 500 without details, so no stack or internal message leaks;
/// HTTP errors (too large, not found) keep their status; a database that cannot be reached is a 503 to retry.
public struct ErrorShield<Context: RequestContext>: RouterMiddleware {
  public init() {}

  public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
    async throws
    -> Response
  {
    do {
      return try await next(request, context)
    } catch is TaskStoreUnavailable {
      context.logger.warning("the database cannot be reached")
      var response =
        (try? json(["Message": "The task database cannot be reached. Try again shortly."], status: .serviceUnavailable))
        ?? Response(status: .serviceUnavailable)
      response.headers[.retryAfter] = "5"
      return response
    } catch let error as any HTTPResponseError {
      let message = error.status == .contentTooLarge ? "The request is too large." : error.status.reasonPhrase
      return (try? json(["Message": message], status: error.status)) ?? Response(status: error.status)
    } catch {
      context.logger.error("unhandled error", metadata: ["type": "\(type(of: error))"])
      return (try? json(["Message": "An error has occurred."], status: .internalServerError))
        ?? Response(status: .internalServerError)
    }
  }
}

/// A JSON response.
public func json(_ object: Any, status: HTTPResponse.Status = .ok) throws -> Response {
  let data = try JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes])
  return Response(
    status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}
