import Foundation

/// One `marquee play` process with its event log (`--events FILE --trace-frames`, or without
/// frames when `traceFrames` is false) and stderr in files, watched from outside as an operator's
/// tooling would: the log, /proc, signals.
final class PlayerRun {
    let process = Process()
    private let eventsURL: URL
    private let errorURL: URL

    /// `environment` is added to this process's own for the player. `launcher` (a command that
    /// execs the rest of its arguments, such as setpriv or prlimit) runs the player instead, with
    /// marquee's path after its own arguments: the process is the player's all the same.
    init(arguments: [String], in directory: URL, environment: [String: String] = [:], traceFrames: Bool = true,
         launcher: [String] = []) throws {
        let stamp = UUID().uuidString
        eventsURL = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-events-\(stamp).jsonl")
        errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-stderr-\(stamp).txt")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let marquee = try MarqueeProcess.executable()
        let playerArguments = arguments + ["--events", eventsURL.path] + (traceFrames ? ["--trace-frames"] : [])
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [marquee.path] + playerArguments
        } else {
            process.executableURL = marquee
            process.arguments = playerArguments
        }
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            // A player that does not end on SIGTERM (a failing test's) is killed rather than hang
            // the suite: children of a test thread start with its signals blocked.
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: eventsURL)
        for name in screensRead { try? FileManager.default.removeItem(atPath: eventsURL.path + "." + name) }
        try? FileManager.default.removeItem(at: errorURL)
    }

    /// Every complete line of the event log so far, parsed.
    func events() -> [[String: Any]] {
        guard let data = try? Data(contentsOf: eventsURL) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
        }
    }

    /// With `displays:`, the events of screen `name` (not the main one): `--events FILE` gives FILE.NAME.
    func events(ofScreen name: String) -> [[String: Any]] {
        screensRead.insert(name)
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: eventsURL.path + "." + name)) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap {
            try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
        }
    }

    private var screensRead: Set<String> = []

    func standardError() -> String {
        (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
    }

    /// Whether stderr holds `text`, waiting up to `seconds` (less if the process exits).
    func waitForStandardError(containing text: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if standardError().contains(text) { return true }
            if !process.isRunning { return standardError().contains(text) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// Polls the log until `done` holds, the process exits, or `seconds` pass.
    func waitForEvents(seconds: Double = 60, until done: ([[String: Any]]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if done(events()) { return true }
            if !process.isRunning { return done(events()) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// The exit status, or -1 if it is still running after `seconds` (then it is killed).
    func waitForExit(seconds: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else {
            process.interrupt()
            process.waitUntilExit()
            return -1
        }
        return process.terminationStatus
    }

    /// SIGTERM, then the exit status.
    func terminate() -> Int32 {
        process.terminate()
        return waitForExit(seconds: 20)
    }

    /// User plus system CPU time so far, from /proc/PID/stat.
    func cpuSeconds() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ") else { return -1 }
        // Fields after the command name start at field 3; utime and stime are fields 14 and 15.
        let fields = stat[afterName.upperBound...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return -1 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// VmRSS from /proc/PID/status.
    func residentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    func openFileDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count) ?? -1
    }
}
