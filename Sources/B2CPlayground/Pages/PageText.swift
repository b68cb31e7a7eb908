// PageText: every sentence of the playground's pages, per language. Constant; any thread.

/// The words of the sign-in pages.
struct PageText: Sendable {
  var signInTitle: String
  var signInHeading: String
  var email: String
  var password: String
  var signIn: String
  var forgotPassword: String
  var noAccount: String
  var signUpNow: String
  var cancel: String
  var signUpTitle: String
  var displayName: String
  var newPassword: String
  var confirmPassword: String
  var create: String
  var resetTitle: String
  var resetHeading: String
  var resetButton: String
  var profileTitle: String
  var save: String
  var wrongPassword: String
  var unknownAccount: String
  var emailTaken: String
  var invalidEmail: String
  var weakPassword: String
  var passwordsDiffer: String
  var nameRequired: String
  var signedOutTitle: String
  var signedOut: String
  var errorTitle: String
  var sendCode: String
  /// `%@` is the email address.
  var codeSent: String
  var verificationCode: String
  var wrongCode: String
  /// Too many codes asked for, or too many wrong ones given.
  var tooManyAttempts: String

  static func forLocale(_ locale: PageLocale) -> PageText {
    switch locale {
    case .english: return english
    case .german: return german
    case .dutch: return dutch
    case .finnish: return finnish
    case .italian: return italian
    case .chinese: return chinese
    }
  }

  static let english = PageText(
    signInTitle: "Sign in", signInHeading: "Sign in with your email address", email: "Email Address",
    password: "Password", signIn: "Sign in", forgotPassword: "Forgot your password?",
    noAccount: "Don't have an account?",
    signUpNow: "Sign up now", cancel: "Cancel", signUpTitle: "Create your account", displayName: "Display Name",
    newPassword: "New Password", confirmPassword: "Confirm New Password", create: "Create",
    resetTitle: "Reset your password",
    resetHeading: "Enter your email address. We will send a verification code to it.",
    resetButton: "Change password", profileTitle: "Edit your profile", save: "Save",
    wrongPassword: "Your password is incorrect.", unknownAccount: "We can't seem to find your account.",
    emailTaken: "A user with the specified ID already exists. Please choose a different one.",
    invalidEmail: "Please enter a valid email address.",
    weakPassword:
      "The password must be between 8 and 64 characters and contain at least three of: lowercase letters, uppercase letters, digits, symbols.",
    passwordsDiffer: "The password entry fields do not match. Please enter the same password in both fields.",
    nameRequired: "Please enter a display name.", signedOutTitle: "Signed out",
    signedOut: "You have signed out. You can close this window.",
    errorTitle: "Sorry, but we're having trouble signing you in.", sendCode: "Send verification code",
    codeSent: "A verification code was sent to %@. Enter it and choose a new password.",
    verificationCode: "Verification code", wrongCode: "That code is wrong or has expired. Please ask for a new one.",
    tooManyAttempts: "You have made too many attempts. Please try again later.")
}
