import Foundation

/// Checks a local path before FFmpeg opens it, for the causes FFmpeg would word vaguely: an empty
/// file comes back as "Invalid data", a directory as an I/O error.
enum LocalFileCheck {
    static func problem(at path: String) -> MediaOpenError.Reason? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            switch errno {
            case ENOENT, ENOTDIR: return .noSuchFile
            case EACCES: return .permissionDenied
            default: return nil  // let FFmpeg try, and report what it says
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .isDirectory
        case S_IFREG: return status.st_size == 0 ? .emptyFile : nil
        default: return nil  // FIFOs and devices have no meaningful size
        }
    }
}
