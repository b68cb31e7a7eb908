// HostCheck: answers only requests addressed to the playground's own names (no DNS rebinding). Sendable middleware.

import Hummingbird

/// Refuses a request whose `Host` is not one of the server's (`ServerOrigin.allows`) with 421 Misdirected Request,
/// before any route sees it: a web page that rebinds its own name to 127.0.0.1 cannot drive the sign-in pages or
/// the task API.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
  let origin: ServerOrigin

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    guard origin.allows(authority: request.head.authority) else {
      context.logger.notice("request for another host refused", metadata: ["host": "\(request.head.authority ?? "")"])
      return Response(
        status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: "This server does not answer for that host name.\n")))
    }
    return try await next(request, context)
  }
}
