import Foundation
import Glibc
import MarqueeCore

/// Appends records to the ledger's folder: the only owner of the day file's descriptor. Each
/// record is one `write` of one line to a file opened with O_APPEND, chained to the line before it
/// by its SHA-256; a day (UTC, by the record's end) rolls to a new file; the folder is kept under
/// `maxBytes` and `keepDays` by deleting whole old days, oldest first, never the day being written.
/// Not thread-safe: one serial queue drives it (`PlayLedger`'s), never a real-time thread.
public final class LedgerWriter {
    public let folder: LedgerFolder
    private let maxBytes: Int64
    private let keepDays: Int
    private let digest: any FileDigesting
    private let notice: (LedgerNotice) -> Void

    private struct OpenDay {
        let day: String
        let path: String
        let descriptor: Int32
        var bytes: Int64
        var lastLineDigest: String?
        var lastSeq: Int
    }

    private var open: OpenDay?
    /// Records a failed write kept for the next try (a full disk); bounded, oldest dropped.
    public private(set) var unwritten: [LedgerRecord] = []
    /// Lines written since the last fsync.
    public private(set) var isDirty = false
    /// The folder's ledger bytes, as of the last prune plus what was written since.
    private var folderBytes: Int64 = 0
    /// A write is failing: said once, until one succeeds again.
    private var failing = false

    public static let unwrittenLimit = 10_000

    /// Days that must stay past the bounds: those an upload has not delivered yet. Only a full
    /// disk deletes them. nil: every old day may go.
    public var keeps: ((String) -> Bool)?
    /// Said once: the bound is exceeded by days not uploaded yet.
    private var saidKept = false

    /// Makes the folder (0750) if needed. Throws a one-line reason when it cannot.
    public init(folder path: String, maxBytes: Int64, keepDays: Int, digest: any FileDigesting,
                notice: @escaping (LedgerNotice) -> Void) throws(LedgerError) {
        folder = LedgerFolder(path: path)
        self.maxBytes = maxBytes
        self.keepDays = keepDays
        self.digest = digest
        self.notice = notice
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o750])
        } catch {
            throw LedgerError("ledger: cannot make the folder \(path): \((error as NSError).localizedDescription)")
        }
        guard access(path, W_OK) == 0 else {
            throw LedgerError("ledger: cannot write in \(path): \(String(cString: strerror(errno)))")
        }
        // The newest day is where a power cut would have torn a line: it is mended at start, once.
        if let newest = folder.files().last {
            let found = try LedgerTail.repair(path: newest.path)
            if found.cutBytes > 0 {
                notice(.warning("ledger: \(folder.fileName(day: newest.day)): cut off a torn last record (\(found.cutBytes) bytes, left by a power cut or a kill); the \(found.lastSeq) records before it are kept"))
            }
        }
    }

    deinit {
        closeDay()
    }

    /// Appends `record` (its `seq` and `prev` are set here); true once it is written. A record that
    /// cannot be written is kept and tried again before the next one.
    @discardableResult
    public func append(_ record: LedgerRecord) -> Bool {
        unwritten.append(record)
        if unwritten.count > Self.unwrittenLimit { unwritten.removeFirst(unwritten.count - Self.unwrittenLimit) }
        while let next = unwritten.first {
            guard write(next) else { return false }
            unwritten.removeFirst()
        }
        return true
    }

    /// Makes what was written durable (fsync); at least every few seconds and at exit.
    public func sync() {
        guard isDirty, let open else { return }
        if fsync(open.descriptor) != 0 {
            notice(.error("ledger: \(folder.fileName(day: open.day)): cannot sync: \(String(cString: strerror(errno)))"))
        }
        isDirty = false
    }

    /// Syncs and closes the day's file.
    public func close() {
        sync()
        closeDay()
    }

    private func write(_ pending: LedgerRecord) -> Bool {
        let day = UTCTimestamp.day(of: pending.end)
        if open?.day != day {
            guard openDay(day) else { return false }
        }
        guard var current = open else { return false }
        var record = pending
        record.seq = current.lastSeq + 1
        record.prev = current.lastLineDigest
        let line = LedgerLine.bytes(of: record)
        do throws(SystemError) {
            try writeLine(line, to: current)
        } catch {
            // A short write is undone, so the file never holds half a line before the next one.
            _ = ftruncate(current.descriptor, off_t(current.bytes))
            if error.code == ENOSPC, makeRoom() {
                return write(pending)
            }
            if !failing {
                failing = true
                notice(.error("ledger: \(folder.fileName(day: day)): cannot write a record: \(error.message); kept in memory and tried again with the next"))
            }
            return false
        }
        if failing {
            failing = false
            notice(.info("ledger: \(folder.fileName(day: day)): writing again"))
        }
        current.bytes += Int64(line.count + 1)
        current.lastLineDigest = digest.sha256(of: line)
        current.lastSeq = record.seq
        open = current
        isDirty = true
        folderBytes += Int64(line.count + 1)
        if folderBytes > maxBytes { prune() }
        return true
    }

    private func writeLine(_ line: [UInt8], to day: OpenDay) throws(SystemError) {
        let bytes = line + [UInt8(ascii: "\n")]
        var written = 0
        while written < bytes.count {
            let count = try SystemCall.retrying("write", path: day.path) {
                bytes.withUnsafeBytes { Glibc.write(day.descriptor, $0.baseAddress! + written, $0.count - written) }
            }
            written += count
        }
    }

    private func openDay(_ day: String) -> Bool {
        sync()
        closeDay()
        let path = folder.filePath(day: day)
        let found: LedgerTail.Found
        do {
            found = try LedgerTail.repair(path: path)
        } catch {
            notice(.error("ledger: \(error)"))
            return false
        }
        if found.cutBytes > 0 {
            notice(.warning("ledger: \(folder.fileName(day: day)): cut off a torn last record (\(found.cutBytes) bytes)"))
        }
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else {
            if !failing {
                failing = true
                notice(.error("ledger: cannot open \(path): \(String(cString: strerror(errno)))"))
            }
            return false
        }
        var status = stat()
        let bytes = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
        open = OpenDay(day: day, path: path, descriptor: descriptor, bytes: bytes,
                       lastLineDigest: found.lastLine.map { digest.sha256(of: $0) }, lastSeq: found.lastSeq)
        prune()
        return true
    }

    private func closeDay() {
        if let open { Glibc.close(open.descriptor) }
        open = nil
    }

    /// Deletes the days past `keepDays` (counted back from the day being written) and then the
    /// oldest days while the folder is over `maxBytes`; never the day being written.
    private func prune() {
        guard let current = open else { return }
        let all = folder.files().filter { $0.day != current.day }
        let held = all.filter { keeps?($0.day) == true }
        var files = all.filter { keeps?($0.day) != true }
        if let today = UTCTimestamp.milliseconds(parsing: current.day) {
            let oldestKept = UTCTimestamp.day(of: UTCTimestamp.text(milliseconds: today - Int64(keepDays - 1) * 86_400_000))
            for file in files where file.day < oldestKept {
                delete(file.path, because: "older than \(keepDays) day\(keepDays == 1 ? "" : "s")")
            }
            files.removeAll { $0.day < oldestKept }
        }
        var total = (files + held).reduce(current.bytes) { $0 + $1.bytes }
        while total > maxBytes, let oldest = files.first {
            delete(oldest.path, because: "the ledger is over its bound of \(maxBytes) bytes")
            total -= oldest.bytes
            files.removeFirst()
        }
        if total > maxBytes && !held.isEmpty && !saidKept {
            saidKept = true
            notice(.warning("ledger: over its bound of \(maxBytes) bytes with \(held.count) day\(held.count == 1 ? "" : "s") not uploaded yet; they are kept until sent (only a full disk deletes them)"))
        }
        folderBytes = total
    }

    /// A full disk: the oldest day goes, said once; false when there is none to delete.
    private func makeRoom() -> Bool {
        guard let current = open, let oldest = folder.files().first(where: { $0.day != current.day }) else { return false }
        delete(oldest.path, because: "the disk is full")
        return true
    }

    private func delete(_ path: String, because reason: String) {
        if unlink(path) == 0 {
            notice(.info("ledger: deleted \((path as NSString).lastPathComponent): \(reason)"))
        } else {
            notice(.error("ledger: cannot delete \(path): \(String(cString: strerror(errno)))"))
        }
    }
}

/// What the ledger has to say, at the journal level it deserves.
public enum LedgerNotice: Equatable, Sendable {
    case info(String)
    case warning(String)
    case error(String)
}
