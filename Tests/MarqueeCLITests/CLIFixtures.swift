import Foundation

/// Media for the CLI tests, generated with the ffmpeg CLI into a folder per test process.
enum CLIFixtures {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `TMP/PREFIXPID`, created; folders of earlier test processes that have ended are removed first.
    static func workspace(prefix: String) throws -> URL {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix(prefix) {
            // kill(pid, 0) asks whether the process exists without signalling it.
            guard let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
        let folder = temporary.appendingPathComponent("\(prefix)\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// An image file (a screenshot's PNG) as raw RGB bytes, row by row, decoded by ffmpeg.
    static func rgb(ofImage path: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostdin", "-loglevel", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](data)
    }

    /// ffmpeg from PATH; a machine without it fails these tests with that message instead of skipping them.
    static func runFFmpeg(_ arguments: [String]) throws {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let ffmpeg = searchPath.split(separator: ":").map({ "\($0)/ffmpeg" })
            .first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Failure(description: "the ffmpeg CLI is not on PATH (\(searchPath)); the CLI tests generate their media with it")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ffmpeg failed (\(process.terminationStatus)): \(String(decoding: message, as: UTF8.self))")
        }
    }
}
