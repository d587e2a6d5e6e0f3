import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MarqueeCore

/// The file operations that make the cache survive a power cut or kill -9: a file is fsync'ed
/// before it is renamed into place, and the directory after, so after a crash a name points either
/// to the old complete file or to the new complete file, never to a torn one. Public for the other
/// files kept in the cache folder (the last good remote config).
public enum DurableFile {
    /// fsync(2) of a file or a directory (a directory's fsync makes a rename or unlink in it durable).
    public static func sync(_ path: String, cacheDirectory: String) throws(MediaCacheError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", path, errno, cacheDirectory: cacheDirectory) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("fsync", path, errno, cacheDirectory: cacheDirectory) }
    }

    /// Replaces `path` with `data` atomically: a temp file beside it, fsync, rename, fsync the folder.
    /// The temporary file is always a new one (`createFresh`: its folder made again when missing,
    /// a link planted in its place removed, never followed).
    public static func writeAtomically(_ data: Data, to path: String, cacheDirectory: String) throws(MediaCacheError) {
        let temporary = path + ".tmp"
        let descriptor = try createFresh(temporary, cacheDirectory: cacheDirectory)
        var written = 0
        let writeError: Int32? = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                do throws(SystemError) {
                    written += try SystemCall.retrying("write", path: temporary) {
                        write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                    }
                } catch {
                    return error.code
                }
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        close(descriptor)
        if let writeError {
            unlink(temporary)
            throw failure("write", temporary, writeError, cacheDirectory: cacheDirectory)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure("rename", path, code, cacheDirectory: cacheDirectory)
        }
        try sync((path as NSString).deletingLastPathComponent, cacheDirectory: cacheDirectory)
    }

    /// mkdir -p; `cache: cannot create /x: Permission denied` when it cannot.
    public static func makeDirectory(_ path: String) throws(MediaCacheError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        if parent != path, !parent.isEmpty { try makeDirectory(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// A new empty file at `path` for the player alone to write: whatever is there (a file, or a
    /// symlink or hard link planted there) is removed first, and the open neither follows a link
    /// nor reuses a file. Its folder is made again when missing. The descriptor is the caller's.
    public static func createFresh(_ path: String, cacheDirectory: String) throws(MediaCacheError) -> Int32 {
        let folder = (path as NSString).deletingLastPathComponent
        try makeDirectory(folder)
        unlink(path)  // whatever was left or planted there
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("create", path, errno, cacheDirectory: cacheDirectory) }
        return descriptor
    }

    /// Why a cache folder is not safe to use, or nil: it must be the player's own and writable by
    /// no one else (group and others), or anyone could plant links in it and have the player
    /// overwrite what they point at.
    public static func unsafeFolderReason(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }  // made by us when missing
        if (status.st_mode & S_IFMT) == S_IFLNK {
            // A configured path may be a link (a mount point's alias); what it points at is judged.
            guard stat(path, &status) == 0 else { return nil }
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { return "\(path) is not a folder" }
        let mode = String(status.st_mode & 0o7777, radix: 8)
        if status.st_mode & 0o002 != 0 {
            return "\(path) may be written by anyone (mode \(mode)); chmod o-w \(path)"
        }
        if status.st_uid != geteuid() && status.st_uid != 0 {
            return "\(path) belongs to another user (uid \(status.st_uid)); chown it to the player's user"
        }
        if status.st_mode & 0o020 != 0 && status.st_gid != getegid() {
            return "\(path) may be written by group \(status.st_gid) (mode \(mode)); chmod g-w \(path)"
        }
        return nil
    }

    /// Whether `path` is a plain file of the player's own: not a link (symbolic or hard), not a
    /// device, not another user's. Anything else found in the cache was planted.
    public static func isPlainOwnFile(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFREG && status.st_nlink == 1 && status.st_uid == geteuid()
    }

    /// The size of a regular file, nil when there is none.
    static func size(of path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// `op path: reason`, or the cache-is-full error for ENOSPC (what the filler reacts to).
    static func failure(_ operation: String, _ path: String, _ code: Int32, cacheDirectory: String) -> MediaCacheError {
        code == ENOSPC ? .diskFull(directory: cacheDirectory) : .file("cache: \(operation) \(path): \(String(cString: strerror(code)))")
    }
}
