import Foundation

/// Test media, generated with the ffmpeg CLI the first time a test asks for it and reused for the
/// rest of the run. Nothing binary is committed; each recipe below says exactly what the file is.
///
/// A machine without ffmpeg fails the asking test with a message saying so: a skipped media test
/// would look like a passing one.
enum FixtureMedia {
    /// Each recipe writes `output` (and may use scratch files next to it).
    struct Recipe: Sendable {
        let name: String
        let make: @Sendable (_ output: URL) throws -> Void
    }

    static func url(_ recipe: Recipe) throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let made = made[recipe.name] { return made }
        let output = try folder().appendingPathComponent(recipe.name)
        try? FileManager.default.removeItem(at: output)
        try recipe.make(output)
        made[recipe.name] = output
        return output
    }

    static func path(_ recipe: Recipe) throws -> String {
        try url(recipe).path
    }

    // MARK: ffmpeg

    static func testPattern(seconds: Double, size: String = "320x240", rate: Int = 25) -> [String] {
        ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)"]
    }

    static func tone(seconds: Double, rate: Int) -> [String] {
        ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate):duration=\(seconds)"]
    }

    /// Runs ffmpeg quietly, overwriting outputs; throws with ffmpeg's own error output when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = try ffmpegExecutable()
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        let errorOutput = Pipe()
        process.standardError = errorOutput
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errorOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError("ffmpeg \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): "
                + String(decoding: message, as: UTF8.self))
        }
    }

    static func ffmpegExecutable() throws -> URL {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("ffmpeg")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw FixtureError("the ffmpeg CLI is not on PATH (\(searchPath)); media tests generate their files with it. "
            + "Install it (Debian: apt-get install ffmpeg) and run the tests again.")
    }

    /// One folder per test process, so parallel runs never share half-written files. Folders of runs
    /// that have ended are removed on the way, so /tmp does not fill up over many runs.
    private static func folder() throws -> URL {
        if let folder = madeFolder { return folder }
        removeFoldersOfEndedRuns(prefix: "marquee-media-fixtures-")
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("marquee-media-fixtures-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        madeFolder = folder
        return folder
    }

    /// A fresh, empty folder for one test's own files (playlists, copies).
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("marquee-media-scratch-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func removeFoldersOfEndedRuns(prefix: String) {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            // kill(pid, 0) asks whether the process exists without signalling it.
            guard let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    // Recursive, because some recipes start from another fixture.
    private static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var made: [String: URL] = [:]
    nonisolated(unsafe) private static var madeFolder: URL?
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
