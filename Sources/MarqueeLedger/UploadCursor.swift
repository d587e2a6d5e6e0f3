import Foundation
import Glibc

/// How far a receiver has acknowledged the ledger: the last record (its day file and `seq`) it
/// answered 2xx for (`upload.json`), or whose MQTT message the broker acknowledged
/// (`upload-mqtt.json`). Kept beside the day files, replaced atomically (a temporary
/// file synced and renamed, then the folder synced), so a restart, a kill -9 or a power cut sends
/// each record at least once: never skips one, at worst repeats a batch.
public struct UploadCursor: Codable, Equatable, Sendable, Comparable {
    public var day: String
    public var seq: Int

    public init(day: String, seq: Int) {
        self.day = day
        self.seq = seq
    }

    public static func < (lhs: UploadCursor, rhs: UploadCursor) -> Bool {
        (lhs.day, lhs.seq) < (rhs.day, rhs.seq)
    }

    public static let fileName = "upload.json"

    /// The cursor kept in `folder`'s `file`; nil when none was (nothing acknowledged yet) or it is unreadable.
    public static func load(from folder: String, file: String = fileName) -> UploadCursor? {
        let path = (folder as NSString).appendingPathComponent(file)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(UploadCursor.self, from: data)
    }

    public func save(in folder: String, file: String = Self.fileName) throws(LedgerError) {
        let path = (folder as NSString).appendingPathComponent(file)
        let temporary = path + ".tmp"
        let data = Array((try? JSONEncoder().encode(self)) ?? Data())
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o640)
        guard descriptor >= 0 else { throw LedgerError("ledger upload: cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw LedgerError("ledger upload: cannot keep the acknowledged position in \(path): \(reason)")
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }
}
