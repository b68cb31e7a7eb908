// SessionError: why signing in, refreshing or signing out failed, in words a user understands. Value type.

/// Why the session could not do what was asked. The message never contains a token, code or verifier.
public enum SessionError: Error, Equatable, Sendable {
  /// No one is signed in (or the session ended and needs a new sign-in).
  case notSignedIn
  /// Another app of the keychain group signed out (the keyring no longer holds the session): this app is signed out
  /// too, and forgets what the sign-out forgets (the provider's cookies, the offline copy).
  case signedOutElsewhere
  /// The sign-in pages ended with an error or a forged answer.
  case authorization(AuthorizationFailure)
  /// The token endpoint refused (expired or revoked grant, PKCE mismatch…).
  case service(ServiceError)
  /// The token endpoint answered something unusable.
  case badResponse(String)
  /// The id_token did not validate.
  case idToken(IDTokenError)
  /// The network failed.
  case network(NetworkError)
  /// The keyring could not be used.
  case keyring(KeyringError)
  /// The settings name no policy for this (password reset, edit profile).
  case policyNotConfigured(String)
  /// The provider's discovery document could not be had or used, so its endpoints are unknown.
  case discovery(MetadataError)
  /// The cross-process lock that guards every write of the shared session could not be had, so nothing was written.
  case lock(RefreshLock.Failure)
  /// The app could not listen on the loopback `address` for the system browser's answer.
  case listener(address: String)
  /// The session now belongs to another account (another app of the keychain group signed in as someone else):
  /// what was bound to the earlier account (its waiting changes, its offline copy) was not sent or touched.
  case accountChanged(Account)
  /// The embedded sign-in page could not be shown: the web view's plugin did not load (a broken installation), with
  /// the loader's reason.
  case signInViewUnavailable(String)
  /// No web browser could be started for a sign-in in the browser, with the desktop's reason.
  case browserUnavailable(String)
  /// The provider refused the scopes asked for (`invalid_scope`): those asked for, and its answer.
  case scopesRefused([String], ServiceError)

  /// One line for the user.
  public var message: String {
    switch self {
    case .notSignedIn: return tr("You are not signed in.")
    case .signedOutElsewhere: return tr("You were signed out in another app.")
    case .authorization(.stateMismatch):
      return tr("The sign-in answer did not belong to this sign-in and was refused. Please sign in again.")
    case .authorization(.malformed): return tr("The sign-in service answered something unexpected. Please try again.")
    case .authorization(.cancelled): return tr("Sign-in was cancelled.")
    case .authorization(.forgotPassword): return tr("Password reset is not available.")
    case .authorization(.timedOut):
      return tr(
        "The sign-in in your browser was not finished in time, so B2C Tasks stopped waiting for it. Please try again.")
    case .authorization(.openedTwice):
      return tr(
        "The sign-in page was opened twice, so B2C Tasks stopped that sign-in: another program may have tried to take it over. Please sign in again."
      )
    case .accountChanged(let account):
      return String(
        template: tr(
          "Another app signed in as %@, so B2C Tasks now shows that account. Your own waiting changes stay with your account."
        ), account.displayName)
    case .authorization(.service(let error)), .service(let error): return error.message
    case .badResponse: return tr("The sign-in service answered something unexpected. Please try again.")
    case .idToken: return tr("The sign-in could not be verified, so it was refused. Please try again.")
    case .network(let error): return error.message
    case .keyring(let error): return error.message
    case .policyNotConfigured(let policy):
      return String(template: tr("The %@ policy is not set up for this app."), policy)
    case .discovery(.network(let error)): return error.message
    case .lock(let failure): return failure.message
    case .listener(let address):
      return String(
        template: tr(
          "B2C Tasks could not listen on %@ for your browser's answer; another program may be using it. Please try again."
        ), address)
    case .signInViewUnavailable(let reason):
      return String(
        template: tr(
          "The sign-in page could not be shown because part of B2C Tasks could not be loaded (%@). Sign in in your browser instead, or reinstall B2C Tasks."
        ), reason)
    case .browserUnavailable(let reason):
      return String(
        template: tr(
          "No web browser could be started for the sign-in (%@). Sign in in this window instead, or set a default browser."
        ), reason)
    case .scopesRefused(let scopes, _):
      return String(
        template: tr(
          "The sign-in service refused the scopes asked for (%@). Name the scopes it offers under “scopes” in the settings file."
        ), scopes.joined(separator: " "))
    case .discovery:
      return tr(
        "The sign-in service describes itself in a way this app cannot trust or use. Check the authority in the settings."
      )
    }
  }

  /// Whether the grant is gone for good, so that only a new sign-in helps.
  public var needsSignIn: Bool {
    switch self {
    case .notSignedIn, .signedOutElsewhere: return true
    case .service(let error): return error.error == "invalid_grant"
    default: return false
    }
  }
}
