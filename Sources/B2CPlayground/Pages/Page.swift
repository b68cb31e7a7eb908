// Page: the HTML of the playground's sign-in, sign-up, reset, profile and message pages. Value type; any thread.

import Foundation

/// An HTML page of the playground. Every value is escaped; field ids follow B2C's own pages (`email`, `password`,
/// `next`, `forgotPassword`, `createAccount`, `cancel`) so that scripts written for B2C find them.
struct Page: Sendable {
  let title: String
  let body: String
  let locale: PageLocale

  /// The document.
  var html: String {
    """
    <!DOCTYPE html>
    <html lang="\(locale.rawValue)"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(escape(title))</title>
    <style>
    body{font-family:Cantarell,"Noto Sans",sans-serif;background:#f6f5f4;color:#2e3436;margin:0}
    main{max-width:420px;margin:48px auto;background:#fff;border-radius:12px;padding:28px 32px;
      box-shadow:0 1px 3px rgba(0,0,0,.15)}
    h1{font-size:1.4em;margin:0 0 6px}p.lead{margin:0 0 18px;color:#5e5c64}
    label{display:block;font-weight:bold;margin:14px 0 4px}
    input{width:100%;box-sizing:border-box;padding:9px;border:1px solid #c0bfbc;border-radius:6px;font-size:1em}
    button{margin-top:20px;width:100%;padding:10px;border:0;border-radius:6px;background:#3584e4;color:#fff;
      font-size:1em;font-weight:bold;cursor:pointer}
    a.secondary,button.secondary{display:block;text-align:center;margin-top:12px;background:none;color:#1c71d8;
      font-weight:normal}
    .error{background:#fbe4e4;color:#a51d2d;border-radius:6px;padding:8px 10px;margin:12px 0}
    .links{margin-top:16px;text-align:center}
    </style></head>
    <body><main>
    \(body)
    </main></body></html>
    """
  }

  // MARK: Pages

  static func signIn(_ form: FormContext, email: String?, error: String?) -> Page {
    let t = form.text
    return Page(
      title: t.signInTitle,
      body: """
        <h1>\(escape(t.signInHeading))</h1>
        \(errorBlock(error))
        \(formHead(form, id: "localAccountForm", step: "signin"))
        \(field("email", t.email, type: "email", autocomplete: "username", value: email, autofocus: true))
        \(field("password", t.password, type: "password", autocomplete: "current-password"))
        \(form.offersPasswordReset ? forgotPasswordLink(form) : "")
        <button id="next" type="submit">\(escape(t.signIn))</button>
        </form>
        <div class="links">\(escape(t.noAccount)) <a id="createAccount" href="\(escape(form.link("signup")))">\(escape(t.signUpNow))</a></div>
        \(cancelLink(form))
        """, locale: form.locale)
  }

  static func signUp(_ form: FormContext, email: String?, displayName: String?, error: String?) -> Page {
    let t = form.text
    return Page(
      title: t.signUpTitle,
      body: """
        <h1>\(escape(t.signUpTitle))</h1>
        \(errorBlock(error))
        \(formHead(form, id: "attributeVerification", step: "signup"))
        \(field("email", t.email, type: "email", autocomplete: "username", value: email, autofocus: true))
        \(newPasswordFields(t))
        \(field("displayName", t.displayName, type: "text", autocomplete: "name", value: displayName))
        <button id="continue" type="submit">\(escape(t.create))</button>
        </form>
        \(cancelLink(form))
        """, locale: form.locale)
  }

  static func resetPassword(_ form: FormContext, email: String?, error: String?) -> Page {
    let t = form.text
    return Page(
      title: t.resetTitle,
      body: """
        <h1>\(escape(t.resetTitle))</h1>
        <p class="lead">\(escape(t.resetHeading))</p>
        \(errorBlock(error))
        \(formHead(form, id: "attributeVerification", step: "reset-email"))
        \(field("email", t.email, type: "email", autocomplete: "username", value: email, autofocus: true))
        <button id="sendCode" type="submit">\(escape(t.sendCode))</button>
        </form>
        \(cancelLink(form))
        """, locale: form.locale)
  }

  /// The second page of the reset: the code "mailed" to `email`, and the new password.
  static func resetCode(_ form: FormContext, email: String, error: String?) -> Page {
    let t = form.text
    return Page(
      title: t.verificationCode,
      body: """
        <h1>\(escape(t.resetTitle))</h1>
        <p class="lead">\(escape(t.codeSent.replacingOccurrences(of: "%@", with: email)))</p>
        \(errorBlock(error))
        \(formHead(form, id: "attributeVerification", step: "reset"))
        <input type="hidden" name="email" value="\(escape(email))">
        \(field("verificationCode", t.verificationCode, type: "text", autocomplete: "one-time-code", autofocus: true))
        \(newPasswordFields(t))
        <button id="continue" type="submit">\(escape(t.resetButton))</button>
        </form>
        \(cancelLink(form))
        """, locale: form.locale)
  }

  static func editProfile(_ form: FormContext, displayName: String, error: String?) -> Page {
    let t = form.text
    return Page(
      title: t.profileTitle,
      body: """
        <h1>\(escape(t.profileTitle))</h1>
        \(errorBlock(error))
        \(formHead(form, id: "attributeVerification", step: "profile"))
        \(field("displayName", t.displayName, type: "text", autocomplete: "name", value: displayName, autofocus: true))
        <button id="continue" type="submit">\(escape(t.save))</button>
        </form>
        \(cancelLink(form))
        """, locale: form.locale)
  }

  static func message(title: String, text: String, detail: String? = nil, locale: PageLocale) -> Page {
    Page(
      title: title,
      body: """
        <h1>\(escape(title))</h1>
        <p class="lead" id="message">\(escape(text))</p>
        \(detail.map { "<pre id=\"detail\" style=\"white-space:pre-wrap\">\(escape($0))</pre>" } ?? "")
        """, locale: locale)
  }

  // MARK: Parts

  /// The opening of a form that posts to the flow, with its transaction and step.
  private static func formHead(_ form: FormContext, id: String, step: String) -> String {
    """
    <form id="\(id)" method="post" action="\(escape(form.action))">
    <input type="hidden" name="tx" value="\(escape(form.transaction))">
    <input type="hidden" name="step" value="\(step)">
    """
  }

  /// A labelled input whose id and name are `id`.
  private static func field(
    _ id: String, _ label: String, type: String, autocomplete: String, value: String? = nil, autofocus: Bool = false
  ) -> String {
    let valueAttribute = value.map { " value=\"\(escape($0))\"" } ?? ""
    return """
      <label for="\(id)">\(escape(label))</label>
      <input id="\(id)" name="\(id)" type="\(type)" autocomplete="\(autocomplete)"\(autofocus ? " autofocus" : "")\(valueAttribute)>
      """
  }

  /// The new password and its confirmation (sign-up, reset).
  private static func newPasswordFields(_ t: PageText) -> String {
    field("newPassword", t.newPassword, type: "password", autocomplete: "new-password") + "\n"
      + field("reenterPassword", t.confirmPassword, type: "password", autocomplete: "new-password")
  }

  private static func forgotPasswordLink(_ form: FormContext) -> String {
    "<div class=\"links\"><a id=\"forgotPassword\" href=\"\(escape(form.link("forgot")))\">"
      + "\(escape(form.text.forgotPassword))</a></div>"
  }

  private static func cancelLink(_ form: FormContext) -> String {
    "<a class=\"secondary\" id=\"cancel\" href=\"\(escape(form.link("cancel")))\">\(escape(form.text.cancel))</a>"
  }

  private static func errorBlock(_ error: String?) -> String {
    guard let error else { return "" }
    return "<div class=\"error pageLevel\" id=\"error\" role=\"alert\">\(escape(error))</div>"
  }
}

/// What every form page needs: where it posts, its transaction and its language.
struct FormContext: Sendable {
  /// `/{tenant}/{policy}/SelfAsserted`.
  var action: String
  var transaction: String
  var locale: PageLocale
  /// Whether the sign-in page links to "Forgot your password?" (B2C's password-reset policy).
  var offersPasswordReset = true
  var text: PageText { PageText.forLocale(locale) }

  /// `/{tenant}/{policy}/SelfAsserted/{step}?tx=…` for links (sign up, forgot password, cancel).
  func link(_ step: String) -> String {
    var components = URLComponents()
    components.path = "\(action)/\(step)"
    components.queryItems = [URLQueryItem(name: "tx", value: transaction)]
    return components.string ?? action
  }
}

/// `text` with HTML's special characters escaped, for element content and quoted attributes.
func escape(_ text: String) -> String {
  var result = ""
  result.reserveCapacity(text.count)
  for character in text {
    switch character {
    case "&": result += "&amp;"
    case "<": result += "&lt;"
    case ">": result += "&gt;"
    case "\"": result += "&quot;"
    case "'": result += "&#39;"
    default: result.append(character)
    }
  }
  return result
}
