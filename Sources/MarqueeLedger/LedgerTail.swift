import Foundation
import Glibc

/// The end of a ledger file as a power cut or a kill -9 may leave it: a last line half written
/// (or a run of zeros, as ext4 can leave after a crash) is cut off, and nothing before it is lost.
public enum LedgerTail {
    public struct Found: Equatable, Sendable {
        /// The last whole record's line, without its newline; nil for an empty file.
        public var lastLine: [UInt8]?
        /// Its `seq`; 0 for an empty file.
        public var lastSeq: Int
        /// Bytes cut off the end (0: the file ended cleanly).
        public var cutBytes: Int
    }

    /// Reads `path`, cuts a torn last line off it, and says what its last record is. A missing
    /// file is an empty one. Throws a one-line reason when it cannot read or cut the file.
    public static func repair(path: String) throws(LedgerError) -> Found {
        guard let contents = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw LedgerError("\(path): cannot read it") }
            return Found(lastLine: nil, lastSeq: 0, cutBytes: 0)
        }
        let data = Array(contents)
        var keep = data.count
        var lines = LedgerLine.lines(of: data)
        // From the end, drop what is not a whole record: a torn write has no newline, or has one
        // and was still cut inside (zeros, half a line); nothing but the tail is ever touched.
        var completed = false
        while let last = lines.last {
            if let record = LedgerLine.record(from: last) {
                // A whole record whose newline did not make it: the newline is added, not the record lost.
                if keep == data.count && data.last != UInt8(ascii: "\n") { completed = true }
                let cut = data.count - keep
                if completed { try append(newlineTo: path) }
                if cut > 0 { try truncate(path, to: keep) }
                return Found(lastLine: Array(last), lastSeq: record.seq, cutBytes: cut)
            }
            keep = last.startIndex
            lines.removeLast()
        }
        if keep < data.count { try truncate(path, to: keep) }
        return Found(lastLine: nil, lastSeq: 0, cutBytes: data.count - keep)
    }

    private static func truncate(_ path: String, to length: Int) throws(LedgerError) {
        guard Glibc.truncate(path, off_t(length)) == 0 else {
            throw LedgerError("\(path): cannot cut off its torn last line: \(String(cString: strerror(errno)))")
        }
    }

    private static func append(newlineTo path: String) throws(LedgerError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw LedgerError("\(path): cannot open it: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var newline = UInt8(ascii: "\n")
        guard write(descriptor, &newline, 1) == 1 else {
            throw LedgerError("\(path): cannot end its last line: \(String(cString: strerror(errno)))")
        }
    }
}

/// A ledger problem, said in one line naming the file and the cause.
public struct LedgerError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
