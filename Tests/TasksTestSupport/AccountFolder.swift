// AccountFolder: what an account left in the app's data folder, for the sign-out tests of every door (the window,
// the broker, the CLI).

import Foundation

public enum AccountFolder {
  /// The files under `dataHome`'s `io.github.b2ctasks.B2CTasks` folder (paths relative to it), the reminder ledgers
  /// included: a sign-out leaves none.
  public static func leftOver(dataHome: URL) -> [String] {
    let folder = dataHome.appending(path: "io.github.b2ctasks.B2CTasks")
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [] }
    let base = folder.standardizedFileURL.path + "/"
    return walker.compactMap { $0 as? URL }
      .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
      .map { String($0.standardizedFileURL.path.dropFirst(base.count)) }
      .sorted()
  }
}
