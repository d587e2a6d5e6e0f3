import CLinux
import Foundation
import Glibc
import Logging
import MarqueeCore
import MarqueeSession

/// Watches the config file after start, so a change is read again without a SIGHUP: inotify on its
/// folder for IN_CLOSE_WRITE (a writer closed the file: an editor saving in place, `cp`, `scp`) and
/// IN_MOVED_TO (a finished temporary file renamed over it), kept to the file's own name. Watching
/// the folder, not the file, follows the file across renames, which replace its inode.
///
/// Each change is handed to `changed`, which sends the `reload` command on the same path as SIGHUP:
/// the reloader reads the file once it has settled, so a file written in two parts is read whole
/// after its last part, and a part that does not parse is rejected and the next change read again.
/// A config that is a symlink (`/etc/marquee/marquee.yaml -> /data/screens/lobby.yaml`) is watched
/// under both names: the link's (repointed with `ln -sfn`, which renames a new link over it) and its
/// target's (edited where it lives), and the target is resolved again after each change, so the
/// watch follows a repointed link to its new target.
/// The watch is a source on the control-plane loop; its stop rule: a read that fails ends it.
final class ConfigWatcher: ConfigWatching, @unchecked Sendable {

    private let path: String
    private let logger: Logger
    private let events: ControlPlaneLoop
    private let changed: @Sendable () -> Void

    init(path: String, logger: Logger, events: ControlPlaneLoop, changed: @escaping @Sendable () -> Void) {
        self.path = path
        self.logger = logger
        self.events = events
        self.changed = changed
    }

    /// Starts the watch; a watch that cannot be set up is one warning (SIGHUP still reloads).
    func start() {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else {
            logger.warning("reload: cannot watch \(path) for changes: \(String(cString: strerror(errno))); SIGHUP still reloads it")
            return
        }
        var watches = Watches()
        guard watches.add(path, on: descriptor, logger: logger) else {
            close(descriptor)
            return
        }
        if let target = Self.resolved(path) { _ = watches.add(target, on: descriptor, logger: logger) }
        var target = Self.resolved(path)
        // Room for many records at once: each is 16 bytes and a NUL-padded name.
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        events.watch(descriptor, named: "config watch", owning: true, ended: { [logger, path] ending in
            if ending != .loopStopped { logger.warning("reload: the watch on \(path) ended (\(ending)); SIGHUP still reloads it") }
        }) { [self] _ in
            readChanges(descriptor, &watches, &target, &buffer)
        }
    }

    /// The names watched, by inotify watch descriptor (one per folder).
    struct Watches: Sendable {
        private(set) var names: [Int32: Set<String>] = [:]

        /// Watches `file`'s folder for changes to its name; false (with a warning) when it cannot.
        mutating func add(_ file: String, on descriptor: Int32, logger: Logger) -> Bool {
            let url = URL(fileURLWithPath: file)
            let folder = url.deletingLastPathComponent().path
            let watch = inotify_add_watch(descriptor, folder, UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO))
            guard watch >= 0 else {
                logger.warning("reload: cannot watch \(folder) for changes to \(url.lastPathComponent): \(String(cString: strerror(errno))); SIGHUP still reloads it")
                return false
            }
            names[watch, default: []].insert(url.lastPathComponent)
            return true
        }

        func matches(_ record: (watch: Int32, name: String)) -> Bool {
            names[record.watch]?.contains(record.name) ?? false
        }
    }

    /// Where a symlinked config really lives; nil when `path` is not a link (or cannot be resolved).
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        let target = String(cString: real)
        let given = URL(fileURLWithPath: path).standardizedFileURL.path
        return target == given ? nil : target
    }

    /// Reads every record queued (on the loop's thread); a change to the config's name is told once.
    private func readChanges(_ descriptor: Int32, _ watches: inout Watches, _ target: inout String?,
                             _ buffer: inout [UInt8]) -> EventSourceStep {
        var matched = false
        while true {
            let count: Int
            do {
                count = try SystemCall.retrying("read", path: path) { buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) } }
            } catch {
                if error.code == EAGAIN { break }
                return .end
            }
            guard count > 0 else { return .end }
            if Self.records(in: buffer.prefix(count)).contains(where: watches.matches) { matched = true }
        }
        guard matched else { return .keep }
        // A repointed link: its new target is watched from now on too.
        let now = Self.resolved(path)
        if let now, now != target { _ = watches.add(now, on: descriptor, logger: logger) }
        target = now
        changed()
        return .keep
    }

    /// The watch descriptor and name of each entry that changed in one read()'s records (`int wd;
    /// uint32 mask, cookie, len;` then `len` bytes of NUL-padded name).
    static func records(in bytes: ArraySlice<UInt8>) -> [(watch: Int32, name: String)] {
        var records: [(watch: Int32, name: String)] = []
        var offset = bytes.startIndex
        while offset + 16 <= bytes.endIndex {
            let watch = bytes[offset..<(offset + 4)].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
            let length = bytes[(offset + 12)..<(offset + 16)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            let end = offset + 16 + Int(length)
            guard end <= bytes.endIndex else { break }
            records.append((watch, String(decoding: bytes[(offset + 16)..<end].prefix { $0 != 0 }, as: UTF8.self)))
            offset = end
        }
        return records
    }
}
