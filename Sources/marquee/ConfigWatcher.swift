import Foundation
import Glibc
import Logging

/// Watches the config file after start, so a change is read again without a SIGHUP: inotify on its
/// folder for IN_CLOSE_WRITE (a writer closed the file: an editor saving in place, `cp`, `scp`) and
/// IN_MOVED_TO (a finished temporary file renamed over it), kept to the file's own name. Watching
/// the folder, not the file, follows the file across renames, which replace its inode.
///
/// Each change is handed to `changed`, which sends the `reload` command on the same path as SIGHUP:
/// the reloader reads the file once it has settled, so a file written in two parts is read whole
/// after its last part, and a part that does not parse is rejected and the next change read again.
/// The watch runs on a thread of its own, blocked in read(); it lives as long as the process.
final class ConfigWatcher: @unchecked Sendable {
    // sys/inotify.h values (kernel ABI).
    private static let inCloseWrite: UInt32 = 0x0000_0008
    private static let inMovedTo: UInt32 = 0x0000_0080

    private let path: String
    private let logger: Logger
    private let changed: @Sendable () -> Void

    init(path: String, logger: Logger, changed: @escaping @Sendable () -> Void) {
        self.path = path
        self.logger = logger
        self.changed = changed
    }

    /// Starts the watch; a watch that cannot be set up is one warning (SIGHUP still reloads).
    func start() {
        let file = URL(fileURLWithPath: path)
        let folder = file.deletingLastPathComponent().path
        let name = file.lastPathComponent
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            logger.warning("reload: cannot watch \(path) for changes: \(String(cString: strerror(errno))); SIGHUP still reloads it")
            return
        }
        guard inotify_add_watch(descriptor, folder, Self.inCloseWrite | Self.inMovedTo) >= 0 else {
            logger.warning("reload: cannot watch \(folder) for changes to \(name): \(String(cString: strerror(errno))); SIGHUP still reloads it")
            close(descriptor)
            return
        }
        let thread = Thread { [self] in watch(descriptor, name: name) }
        thread.name = "marquee.config-watch"
        thread.start()
    }

    private func watch(_ descriptor: Int32, name: String) {
        // Room for many records at once: each is 16 bytes and a NUL-padded name.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            if Self.names(in: buffer.prefix(count)).contains(name) { changed() }
        }
    }

    /// The names of the entries that changed in one read()'s records (`int wd; uint32 mask,
    /// cookie, len;` then `len` bytes of NUL-padded name).
    static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        while offset + 16 <= bytes.endIndex {
            let length = bytes[(offset + 12)..<(offset + 16)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            let end = offset + 16 + Int(length)
            guard end <= bytes.endIndex else { break }
            names.append(String(decoding: bytes[(offset + 16)..<end].prefix { $0 != 0 }, as: UTF8.self))
            offset = end
        }
        return names
    }
}
