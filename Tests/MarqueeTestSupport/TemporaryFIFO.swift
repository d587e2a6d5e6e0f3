import Foundation
import Glibc

/// A named pipe with no writer, in a folder of its own: opening it for reading blocks in the kernel
/// until a writer comes, as a hung NFS or USB path does. `release()` lets any reader stuck on it go
/// (it opens the write end and closes it: the reader sees end of file), then removes it.
public final class TemporaryFIFO: Sendable {
    public let path: String
    private let folder: String

    public init(named name: String = "stuck.mp4") throws {
        folder = NSTemporaryDirectory() + "marquee-fifo-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = folder + "/" + name
        guard mkfifo(path, 0o644) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    public func release() {
        // Non-blocking: fails at once (ENXIO) when nobody is reading, which is just as well.
        let writer = open(path, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        try? FileManager.default.removeItem(atPath: folder)
    }
}
