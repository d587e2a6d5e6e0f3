import Foundation

/// Checks a local path before FFmpeg opens it, for the causes FFmpeg would word vaguely (an empty
/// file comes back as "Invalid data", a directory as an I/O error) and for the files it must never
/// open: opening a FIFO without a writer, or reading a terminal, blocks in the kernel where no
/// deadline reaches. It uses stat(2), which does not open the file, so it cannot block that way.
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
        case S_IFREG:
            // Readability first: a file that may not be read says nothing true about its size
            // (an empty file with mode 000, /proc files of another user all stat as 0 bytes).
            // Only regular files get here, so this open cannot block.
            if let problem = readProblem(at: path) { return problem }
            return status.st_size == 0 ? .emptyFile : nil
        case S_IFIFO: return .notRegularFile("a FIFO")
        case S_IFCHR: return .notRegularFile("a character device")
        case S_IFBLK: return .notRegularFile("a block device")
        case S_IFSOCK: return .notRegularFile("a socket")
        default: return .notRegularFile("an unknown kind of file")
        }
    }

    /// Opens the regular file for reading, as FFmpeg will, and closes it again.
    private static func readProblem(at path: String) -> MediaOpenError.Reason? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor < 0 else {
            close(descriptor)
            return nil
        }
        switch errno {
        case EACCES, EPERM: return .permissionDenied
        default: return nil  // let FFmpeg try, and report what it says
        }
    }
}
