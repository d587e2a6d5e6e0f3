import Foundation

/// A record as the bytes of one line of a ledger file, and back: sorted keys, no escaped slashes,
/// no newline inside, so each line hashes the same wherever it is read.
public enum LedgerLine {
    /// The line without its newline.
    public static func bytes(of record: LedgerRecord) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A record holds strings and numbers only: encoding cannot fail.
        return Array((try? encoder.encode(record)) ?? Data())
    }

    /// The record a line holds; nil when it is not one (a torn write, an edit that broke it).
    public static func record(from line: some Collection<UInt8>) -> LedgerRecord? {
        try? JSONDecoder().decode(LedgerRecord.self, from: Data(line))
    }

    /// Lines of a file's bytes, without their newlines; a last line without one is included.
    public static func lines(of data: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}
