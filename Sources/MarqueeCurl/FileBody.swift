import Foundation
import Glibc
import MarqueeCore

/// A downloaded body written into the file at `path` with plain write(2): from the resume offset
/// on a 206, from 0 (the file truncated first) on a 200. The descriptor is owned here and closed
/// in `deinit`. No fsync: the caller decides when the file must be durable.
final class FileBody: BodySink {
    private let path: String
    private let descriptor: Int32
    private let resumeOffset: Int64
    private var start: Int64?
    private var written: Int64 = 0
    /// The most the file may hold; nil: no bound.
    private let limit: Int64?
    /// Told the head once the file is positioned, before the body's first byte (`onHead`).
    var onBegin: ((ResponseHeaders, _ resumedFrom: Int64) -> Void)?

    init(path: String, resumeFrom: Int64, limit: Int64? = nil) throws(HTTPTransferError) {
        self.limit = limit
        // Never through a link: a symlink or hard link planted where the part file goes would have
        // the download overwrite what it points at.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw errno == ELOOP ? .file("\(path) is a symbolic link; refused") : Self.failure("cannot open \(path)", errno)
        }
        self.path = path
        self.descriptor = descriptor
        resumeOffset = max(0, resumeFrom)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("cannot stat \(path)", errno) }
        if (status.st_mode & S_IFMT) == S_IFREG, status.st_nlink != 1 || status.st_uid != geteuid() {
            throw .file("\(path) is a hard link or another user's file; refused")
        }
        // Resuming past the end of what is on disk would leave a hole of zeros in the file.
        guard Int64(status.st_size) >= resumeOffset else {
            throw .file("\(path) holds \(status.st_size) bytes, fewer than the resume offset \(resumeOffset)")
        }
    }

    deinit { close(descriptor) }

    func begin(_ headers: ResponseHeaders) throws(HTTPTransferError) {
        var offset: Int64 = 0
        if headers.status == 206 {
            // A 206 for other bytes than asked for would splice the wrong part of the file in.
            guard resumeOffset > 0, headers.rangeStart == nil || headers.rangeStart == resumeOffset else {
                throw .network("server sent a range from \(headers.rangeStart ?? 0) when asked from \(resumeOffset)")
            }
            offset = resumeOffset
        }
        // Anything past the offset (a longer partial file, or the whole old file on a 200) goes;
        // nothing to cut, no call (a device such as /dev/full cannot be truncated).
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.failure("cannot stat \(path)", errno) }
        if Int64(status.st_size) > offset, ftruncate(descriptor, off_t(offset)) != 0 {
            throw Self.failure("cannot truncate \(path)", errno)
        }
        guard lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            throw Self.failure("cannot seek in \(path)", errno)
        }
        if let limit, let announced = headers.contentLength, offset + announced > limit { throw .tooLarge(limit) }
        start = offset
        onBegin?(headers, offset)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(HTTPTransferError) {
        if let limit, bytesHeld + Int64(bytes.count) > limit { throw .tooLarge(limit) }
        var done = 0
        while done < bytes.count {
            do {
                done += try SystemCall.retrying("write", path: path) {
                    Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                }
            } catch {
                throw Self.failure("cannot write \(path)", error.code)
            }
        }
        written += Int64(done)
    }

    var bytesHeld: Int64 { (start ?? resumeOffset) + written }
    var resumedFrom: Int64 { start ?? 0 }

    /// "cannot write /var/cache/a.mp4: no space left on device (ENOSPC)"-style text.
    private static func failure(_ what: String, _ code: Int32) -> HTTPTransferError {
        let reason = String(cString: strerror(code)).lowercased()
        let name = code == ENOSPC ? " (ENOSPC)" : code == EDQUOT ? " (EDQUOT)" : code == EROFS ? " (EROFS)" : ""
        return .file("\(what): \(reason)\(name)")
    }
}
