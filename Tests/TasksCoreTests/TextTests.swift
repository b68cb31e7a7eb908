// The core's string operations without Foundation's internationalization: templates, percent coding, trimming and
// the folding searches compare.

import Testing

@testable import TasksCore

@Suite("Text without Foundation's internationalization")
struct TextTests {
  @Test("a template takes its values in order, by position, and keeps what it does not know")
  func templates() {
    #expect(String(template: "The %@ policy is not set up.", "B2C_1_x") == "The B2C_1_x policy is not set up.")
    #expect(String(template: "%d tasks deleted", 3) == "3 tasks deleted")
    #expect(String(template: "%2$@ then %1$@", "a", "b") == "b then a")
    #expect(String(template: "100%% of %@", "it") == "100% of it")
    #expect(String(template: "%@ and %@", "one") == "one and %@")
    #expect(String(template: "%s stays, %", "x") == "%s stays, %")
    #expect(String(template: "ends in %@", "%d") == "ends in %d")
  }

  @Test("percent-decoding refuses a broken escape or bytes that are not UTF-8")
  func percentDecoding() {
    #expect("a%20b%C3%A9".percentDecoded == "a bé")
    #expect("100%".percentDecoded == nil)
    #expect("%4".percentDecoded == nil)
    #expect("%zz".percentDecoded == nil)
    #expect("%FF".percentDecoded == nil)
    #expect("plain".percentDecoded == "plain")
  }

  @Test("form fields keep only the unreserved characters")
  func formEncoding() {
    #expect(FormEncoding.escape("a b+c&d=é~._-") == "a%20b%2Bc%26d%3D%C3%A9~._-")
    #expect(FormEncoding.encode([("grant_type", "code"), ("x", "1 2")]) == "grant_type=code&x=1%202")
  }

  @Test("trimming: white space, and line breaks unless told otherwise")
  func trimming() {
    #expect("  a b \n".trimmed() == "a b")
    #expect(" a\n ".trimmed(newlines: false) == "a\n")
    #expect(" \t\n ".trimmed() == "")
    #expect("[::1]".trimmed { $0 == "[" || $0 == "]" } == "::1")
    #expect("one\r\ntwo\n\nthree".lines == ["one", "two", "", "three"])
  }

  @Test("searches ignore case, accents and full-width forms")
  func folding() {
    #expect("Café".searchFolded == "cafe")
    #expect("ＣＡＦÉ".searchFolded == "cafe")
    #expect("Straße".searchFolded == "strasse")
    #expect("Ångström".searchFolded == "angstrom")
    #expect("买牛奶".searchFolded == "买牛奶")
    #expect("plain words".searchFolded == "plain words")
    #expect("Buy MILK at 5".searchFolded == "buy milk at 5")
    #expect(TaskSearch("cafe").matches("Meet at the CAFÉ"))
  }
}
