// Localization: the user's language for every message B2C Tasks shows, through gettext. Any thread.

import CIntl

// The programs bind `AppIdentity.gettextDomain` to their locale folder at start; TasksCore's own messages go through
// it too, so it needs no UI library.

/// The translation of `message` in the user's language (xgettext keyword `tr`).
public func tr(_ message: StaticString) -> String {
  "\(message)".withCString { String(cString: dgettext(AppIdentity.gettextDomain, $0)) }
}

/// The translation of a message with a plural form, chosen for `count` (xgettext keyword `trn:1,2`).
public func trn(_ singular: StaticString, _ plural: StaticString, _ count: Int) -> String {
  "\(singular)".withCString { one in
    "\(plural)".withCString { many in
      String(cString: dngettext(AppIdentity.gettextDomain, one, many, UInt(count)))
    }
  }
}
