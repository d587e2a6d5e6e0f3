import Foundation
import MarqueeCore

/// Where `screenshot` with a `path` writes: one folder of the player's own, and in it only new
/// files with plain names. A client that may write screenshots names a file, never a place: it
/// cannot replace a cron file, the control socket, a FIFO, the cache's index or anything a
/// symlink points at. Files are created with O_CREAT|O_EXCL|O_NOFOLLOW (an existing name is an
/// error, not overwritten), mode 0640, in a folder that is made 0750 if missing and refused when
/// it is a symlink.
package struct ScreenshotFolder: Sendable {
    package let path: String

    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    /// `$STATE_DIRECTORY/screenshots` under systemd, else `screenshots` beside the control socket,
    /// else a folder of the user's own in /tmp.
    package static func choose(socketFolder: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> ScreenshotFolder {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !state.isEmpty {
            return ScreenshotFolder(path: "\(state)/screenshots")
        }
        if let socketFolder { return ScreenshotFolder(path: "\(socketFolder)/screenshots") }
        return ScreenshotFolder(path: "/tmp/marquee-screenshots-\(getuid())")
    }

    /// Writes `bytes` as `name` in the folder; the file's full path.
    package func write(_ bytes: [UInt8], named name: String) throws(Refusal) -> String {
        guard Self.isPlainName(name) else {
            throw Refusal(description: "'\(name)' is not a file name: screenshots are written only into \(path), by a name such as now.png (letters, digits, '.', '-', '_'; ending in .png)")
        }
        if mkdir(path, 0o750) != 0 && errno != EEXIST {
            throw Refusal(description: "cannot make \(path): \(String(cString: strerror(errno)))")
        }
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            let cause = errno == ELOOP || errno == ENOTDIR ? "it is not a folder (a symlink?)" : String(cString: strerror(errno))
            throw Refusal(description: "cannot use \(path): \(cause)")
        }
        defer { close(folder) }
        // Made by someone else in its place (a shared /tmp): they could read or plant in it.
        var status = stat()
        guard fstat(folder, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
            throw Refusal(description: "cannot use \(path): it belongs to another user or others may write to it")
        }
        let file = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o640)
        guard file >= 0 else {
            let cause = errno == EEXIST ? "it exists already (a screenshot is never written over anything)" : String(cString: strerror(errno))
            throw Refusal(description: "cannot write \(path)/\(name): \(cause)")
        }
        defer { close(file) }
        var written = 0
        while written < bytes.count {
            let count: Int
            do {
                count = try SystemCall.retrying("write", path: "\(path)/\(name)") {
                    bytes[written...].withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
                }
            } catch {
                unlinkat(folder, name, 0)
                throw Refusal(description: "cannot write \(path)/\(name): \(error)")
            }
            guard count > 0 else {
                unlinkat(folder, name, 0)
                throw Refusal(description: "cannot write \(path)/\(name): the write took nothing")
            }
            written += count
        }
        return "\(path)/\(name)"
    }

    package static func isPlainName(_ name: String) -> Bool {
        guard name.count <= 200, name.hasSuffix(".png"), name.count > 4, !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) }
    }
}
