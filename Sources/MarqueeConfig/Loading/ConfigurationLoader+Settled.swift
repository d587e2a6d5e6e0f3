import Foundation

extension ConfigurationLoader {
    /// Like `load(path:)`, for a reload while playing: the file is read only once it has stopped
    /// changing, so a file still being written in place is not taken for a valid config because
    /// its first half happens to parse.
    ///
    /// Replacing the file by renaming a finished temporary file over it is atomic and is read at
    /// once: a file that has not changed for `quietPeriod` is taken as it is. A younger one (or
    /// one whose time is in the future) is read, then looked at again after `quietPeriod`: the
    /// same inode, size and modification time mean the writer is done; anything else starts over,
    /// up to `timeout`. A writer that pauses longer than `quietPeriod` in the middle of writing in
    /// place cannot be told from a finished one: write a temporary file and rename it instead.
    public static func loadSettled(path: String, quietPeriod: Double = 0.3, timeout: Double = 10,
                                   checkingMediaFiles: Bool = true) -> ConfigurationLoadResult {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            guard let (text, stamp) = readWithStamp(path) else {
                // Missing, a folder, unreadable, not UTF-8: the ordinary loader says which.
                return load(path: path, checkingMediaFiles: checkingMediaFiles)
            }
            let age = Date().timeIntervalSince(stamp.modified)
            if age >= quietPeriod {
                return load(text: text, format: ConfigurationFormat(path: path), path: path, checkingMediaFiles: checkingMediaFiles)
            }
            Thread.sleep(forTimeInterval: quietPeriod)
            if FileStamp(path: path) == stamp {
                return load(text: text, format: ConfigurationFormat(path: path), path: path, checkingMediaFiles: checkingMediaFiles)
            }
            if ContinuousClock.now > deadline {
                var log = DiagnosticLog(file: path)
                log.error(at: .start, "the config file kept changing for \(Int(timeout)) s; not read")
                return ConfigurationLoadResult(configuration: nil, diagnostics: log.sortedDiagnostics)
            }
        }
    }

    /// The file's text and the stamp of what was read (fstat of the descriptor read from).
    private static func readWithStamp(_ path: String) -> (String, FileStamp)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() ?? Data(),
              let stamp = FileStamp(descriptor: handle.fileDescriptor),
              let text = String(data: data, encoding: .utf8) else { return nil }
        return (text, stamp)
    }
}

/// What tells one version of a file from the next: its inode, size and modification time.
struct FileStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    var modified: Date { Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9) }

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
    }
}
