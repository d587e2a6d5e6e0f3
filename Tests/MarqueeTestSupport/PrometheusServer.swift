import Foundation
import Glibc

/// Debian's `prometheus` on 127.0.0.1 for tests: a free port, a storage folder of its own, one
/// scrape job at `target` every second. `query` asks its HTTP API (`/api/v1/query`) with the curl
/// tool. A machine without prometheus fails the test with that message: it is installed by
/// Scripts/install-dependencies.sh, never skipped. Call `stop()` when done (a `defer` right after
/// creating it); it is killed if it does not end on SIGTERM.
public final class PrometheusServer: @unchecked Sendable {
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public let port: UInt16
    private let folder: URL
    private let process = Process()
    private let log: URL

    /// Scrapes `target` (`127.0.0.1:PORT`) every second, from now on.
    public init(scraping target: String) throws {
        let executable = URL(fileURLWithPath: "/usr/bin/prometheus")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw SetupError("prometheus is not installed (apt-get install prometheus, or Scripts/install-dependencies.sh); the metrics test scrapes with a real Prometheus")
        }
        port = try Self.freePort()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-prometheus-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("prometheus.yml")
        try Data("""
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
            scrape_configs:
              - job_name: marquee
                static_configs:
                  - targets: ['\(target)']
            """.utf8).write(to: config)
        log = folder.appendingPathComponent("prometheus.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = executable
        process.arguments = ["--config.file=\(config.path)", "--storage.tsdb.path=\(folder.appendingPathComponent("data").path)",
                             "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while (try? Self.curl(["--fail", "http://127.0.0.1:\(port)/-/ready"])) == nil {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw SetupError("prometheus did not become ready on 127.0.0.1:\(port): \(logText())")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    deinit { stop() }

    /// What prometheus said on stderr (warnings and errors only).
    public func logText() -> String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// The instant vector of `expression` now: each series' labels and value.
    public func query(_ expression: String) throws -> [(labels: [String: String], value: Double)] {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "_-.")
        let encoded = expression.addingPercentEncoding(withAllowedCharacters: allowed) ?? expression
        let text = try Self.curl(["--fail", "http://127.0.0.1:\(port)/api/v1/query?query=\(encoded)"])
        guard let answer = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], answer["status"] as? String == "success",
              let data = answer["data"] as? [String: Any], let results = data["result"] as? [[String: Any]] else {
            throw SetupError("prometheus answered \(text)")
        }
        return results.compactMap { result in
            guard let labels = result["metric"] as? [String: String], let pair = result["value"] as? [Any],
                  pair.count == 2, let value = (pair[1] as? String).flatMap(Double.init) else { return nil }
            return (labels, value)
        }
    }

    /// Polls `expression` until `done` holds for its result or `seconds` pass; the last result.
    public func waitFor(_ expression: String, seconds: Double = 30,
                        until done: ([(labels: [String: String], value: Double)]) -> Bool) -> [(labels: [String: String], value: Double)] {
        let deadline = Date().addingTimeInterval(seconds)
        var last: [(labels: [String: String], value: Double)] = []
        while Date() < deadline {
            last = (try? query(expression)) ?? []
            if done(last) { return last }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return last
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A port on 127.0.0.1 free now, for a server a test starts (the target prometheus scrapes).
    public static func freePort() throws -> UInt16 {
        switch LoopbackPort.free() {
        case .success(let port): return port
        case .failure(let error): throw SetupError(error.description)
        }
    }

    /// `curl --silent ARGUMENTS`'s output; throws when curl fails (with --fail: a 4xx or 5xx).
    public static func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", "10"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SetupError("curl \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }
}
