import Foundation

/// Which file a path names and what state it is in, from stat(2): enough to tell that the file a
/// reader opened is no longer what the path holds. `cp` or `scp` over a file keeps its inode but
/// truncates and rewrites it (size and modification time change); `mv` or a rename into place gives
/// the path another inode; `truncate` shrinks it.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int

    /// What the path names now; nil when it cannot be stat'ed (removed, or unreachable for now).
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modifiedSeconds = Int(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
    }

    /// Whether `now` (the path's identity later) says the file was replaced or written since.
    /// A file that disappeared is not a change: the reader's open file stays whole until it is
    /// closed, and a file put back in its place is then a new inode.
    func isChanged(to now: FileIdentity?) -> Bool {
        guard let now else { return false }
        return now.device != device || now.inode != inode || now.size != size
            || now.modifiedSeconds != modifiedSeconds || now.modifiedNanoseconds != modifiedNanoseconds
    }
}
