import Foundation
import MarqueeCore

/// `sha256:HEX` of the config in force, as the ledger names it: the config file's bytes, or a
/// fetched config's saved text. Hashed again only when the file's size or change time moves.
package final class ConfigFingerprint: @unchecked Sendable {
    private let path: String?
    private let digest: any FileDigesting
    private let lock = NSLock()
    private var last: (size: Int64, changed: Double, text: String)?

    package init(path: String?, digest: any FileDigesting) {
        self.path = path
        self.digest = digest
    }

    package func current() -> String? {
        guard let path, let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.int64Value,
              let changed = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 else { return nil }
        return lock.withLock {
            if let last, last.size == size, last.changed == changed { return last.text }
            guard let sha256 = try? digest.sha256(ofFileAt: path) else { return nil }
            last = (size, changed, "sha256:\(sha256)")
            return last?.text
        }
    }
}
