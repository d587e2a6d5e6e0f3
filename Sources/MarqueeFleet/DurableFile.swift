import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
    public static func writeAtomically(_ data: Data, to path: String, cacheDirectory: String) throws(MediaCacheError) {
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("create", temporary, errno, cacheDirectory: cacheDirectory) }
        var written = 0
        let writeError: Int32? = data.withUnsafeBytes { bytes in
            while written < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
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
