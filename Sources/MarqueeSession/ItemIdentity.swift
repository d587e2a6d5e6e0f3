import Foundation
import MarqueeCore

/// What the play ledger names an item by: its config `id:`; else its URL with `#sha256=` and the
/// media's digest (the config's `sha256:` for a remote file, the local file's own); else its URL
/// (a stream). A local file is hashed once per size and change time, on the ledger's queue.
package final class ItemIdentity: @unchecked Sendable {
    private let digest: any FileDigesting
    /// Remote items' digests from the plans in force, by URL.
    private let knownDigests: @Sendable (String) -> String?
    private struct Seen { var size: Int64; var changed: Double; var sha256: String }
    private var seen: [String: Seen] = [:]

    package init(digest: any FileDigesting, knownDigests: @escaping @Sendable (String) -> String?) {
        self.digest = digest
        self.knownDigests = knownDigests
    }

    package func name(url: String, id: String?) -> String {
        if let id { return id }
        if let sha256 = knownDigests(url) ?? fileDigest(url) { return "\(url)#sha256=\(sha256)" }
        return url
    }

    private func fileDigest(_ path: String) -> String? {
        guard path.hasPrefix("/"), let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (attributes[.size] as? NSNumber)?.int64Value,
              let changed = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 else { return nil }
        if let known = seen[path], known.size == size, known.changed == changed { return known.sha256 }
        guard let sha256 = try? digest.sha256(ofFileAt: path) else { return nil }
        seen[path] = Seen(size: size, changed: changed, sha256: sha256)
        return sha256
    }
}
