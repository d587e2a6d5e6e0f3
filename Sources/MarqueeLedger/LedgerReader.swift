import Foundation

/// The records of ledger files and folders (a folder: its `plays-*.jsonl`, by day), in order.
public struct LedgerReader: Sendable {
    public struct Source: Sendable {
        public var path: String
        public var data: [UInt8]
    }

    public init() {}

    /// Each file given, or each day file of each folder given; throws a one-line reason naming a
    /// path that is neither or cannot be read.
    public func sources(_ paths: [String]) throws(LedgerError) -> [Source] {
        var sources: [Source] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw LedgerError("\(path): no such file or folder")
            }
            let files = isFolder.boolValue ? LedgerFolder(path: path).files().map(\.path) : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { throw LedgerError("\(file): cannot read it") }
                sources.append(Source(path: file, data: Array(data)))
            }
        }
        return sources
    }

    /// The records of `sources`; lines that are not records are counted, not returned.
    public func records(_ sources: [Source]) -> (records: [LedgerRecord], unreadable: Int) {
        var records: [LedgerRecord] = []
        var unreadable = 0
        for source in sources {
            for line in LedgerLine.lines(of: source.data) {
                if let record = LedgerLine.record(from: line) { records.append(record) } else { unreadable += 1 }
            }
        }
        return (records, unreadable)
    }
}
