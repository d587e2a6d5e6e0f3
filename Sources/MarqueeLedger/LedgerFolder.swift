import Foundation

/// The ledger's folder: one file per UTC day, `plays-2026-11-29.jsonl`, named so that sorting the
/// names sorts the days.
public struct LedgerFolder: Sendable {
    public let path: String

    public static let prefix = "plays-"
    public static let suffix = ".jsonl"

    public init(path: String) {
        self.path = path
    }

    public func fileName(day: String) -> String { "\(Self.prefix)\(day)\(Self.suffix)" }

    public func filePath(day: String) -> String { (path as NSString).appendingPathComponent(fileName(day: day)) }

    /// The day a file name stands for; nil for a file that is not the ledger's.
    public static func day(ofFileName name: String) -> String? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let day = String(name.dropFirst(prefix.count).dropLast(suffix.count))
        return UTCTimestamp.milliseconds(parsing: day) != nil && day.count == 10 ? day : nil
    }

    /// The ledger's files, oldest day first, with their sizes.
    public func files() -> [(day: String, path: String, bytes: Int64)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.compactMap { name in
            guard let day = Self.day(ofFileName: name) else { return nil }
            let file = (path as NSString).appendingPathComponent(name)
            let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
            return (day, file, bytes)
        }.sorted { $0.day < $1.day }
    }
}
