import Foundation

/// Runs the built `marquee` executable, as an operator would.
struct MarqueeProcess {
    struct Outcome: CustomStringConvertible {
        let status: Int32
        let standardOutput: String
        let standardError: String
        /// A signal's number reads like an exit status (SIGHUP like 1): failures must tell them apart.
        var signaled = false
        var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }
        var description: String {
            "\(signaled ? "killed by signal" : "exit status") \(status); stdout: \(standardOutput.debugDescription); stderr: \(standardError.debugDescription)"
        }
    }

    /// The products folder holds both the test bundle and `marquee`. Where the bundle sits
    /// differs: on macOS `Bundle.main` is the `.xctest` bundle inside the folder; on Linux the
    /// test runner is itself an executable in the folder. So look there and a few levels up.
    static func executable() throws -> URL {
        var starts = [Bundle.main.bundleURL, Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0 }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            starts.append(bundle.bundleURL)
        }
        for start in starts {
            var folder = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = folder.appendingPathComponent("marquee")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw LookupError(searched: starts.map(\.path))
    }

    struct LookupError: Error, CustomStringConvertible {
        let searched: [String]
        var description: String { "no marquee executable near \(searched.joined(separator: ", "))" }
    }

    /// The repository root, found from this source file's location (Tests/MarqueeCLITests/...).
    static func repositoryRoot(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `marquee` with `arguments`, or `launcher` with `arguments` when given (a wrapper such as
    /// setpriv, whose arguments then name `marquee` themselves).
    static func run(_ arguments: [String], in directory: URL, launcher: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = try launcher ?? executable()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read before waiting: a full pipe would otherwise block the child forever.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       standardOutput: String(decoding: outputData, as: UTF8.self),
                       standardError: String(decoding: errorData, as: UTF8.self),
                       signaled: process.terminationReason == .uncaughtSignal)
    }
}
