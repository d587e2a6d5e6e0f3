import Foundation
import Glibc

/// Counts how often any process opens one file, through Linux inotify (`IN_OPEN`).
///
/// The whitelist tests use it to show that FFmpeg never even opened a local file that remote media
/// pointed at, rather than opening it and failing later for some other reason.
final class FileOpenWatch {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw FixtureError("inotify_init1: \(String(cString: strerror(errno)))") }
        guard inotify_add_watch(descriptor, path, UInt32(IN_OPEN)) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw FixtureError("inotify_add_watch(\(path)): \(reason)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Opens seen since the last call (events are delivered by the time the opening call returned).
    func takeOpenCount() -> Int {
        var count = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let length = read(descriptor, &buffer, buffer.count)
            guard length > 0 else { return count }  // EAGAIN: nothing more pending
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= length {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                if event.mask & UInt32(IN_OPEN) != 0 { count += 1 }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
    }
}
