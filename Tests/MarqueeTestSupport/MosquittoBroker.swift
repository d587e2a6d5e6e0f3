import Foundation
import Glibc

/// Debian's `mosquitto` broker on 127.0.0.1 for tests, on a free port, with a config of its own
/// (`listener PORT 127.0.0.1`, `allow_anonymous true`), plain or TLS only (`tls: true`: a throwaway
/// CA and a certificate for 127.0.0.1 from `TestCertificates`; `caFile` is the CA to trust). `kill()` and `start()` again put it down and
/// back on the same port (a broker that died and came back). A machine without mosquitto fails the
/// test with that message: it is installed by Scripts/install-dependencies.sh, never skipped.
/// Call `stop()` when done (a `defer` right after creating it).
public final class MosquittoBroker: @unchecked Sendable {
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public let port: UInt16
    /// With `tls`, the CA that signed the broker's certificate (PEM); the clients here trust it.
    public let caFile: String?
    private let folder: URL
    private let executable: URL
    private var process: Process?

    /// `users`: name → password; when given, anonymous clients are refused (`mosquitto_passwd`).
    /// `tls`: the one listener speaks TLS only (`mqtts://`), with a certificate for 127.0.0.1.
    /// `persistent`: sessions and their queued messages saved every second, so a subscriber with
    /// a session of its own (`MosquittoSubscription(session:)`) misses nothing across a `kill()`
    /// and `start()` (what a receiver of proof of play does; a SIGKILL loses the last second).
    public init(users: [String: String] = [:], tls: Bool = false, persistent: Bool = false) throws {
        guard let broker = Self.find("mosquitto", in: ["/usr/sbin", "/usr/local/sbin", "/sbin"]) else {
            throw SetupError("mosquitto is not installed (apt-get install mosquitto mosquitto-clients, or Scripts/install-dependencies.sh); the MQTT tests need a real broker")
        }
        guard Self.client("mosquitto_pub") != nil, Self.client("mosquitto_sub") != nil else {
            throw SetupError("mosquitto_pub/mosquitto_sub are not installed (apt-get install mosquitto-clients); the MQTT tests use them as the client")
        }
        executable = broker
        port = try Self.freePort()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-mosquitto-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The broker drops to the mosquitto user: it must be able to read the folder and its files.
        chmod(folder.path, 0o755)
        var conf = "listener \(port) 127.0.0.1\n"
        if persistent {
            // Written by the broker, which drops to the mosquitto user.
            let state = folder.appendingPathComponent("state", isDirectory: true)
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            chmod(state.path, 0o777)
            conf += "persistence true\npersistence_location \(state.path)/\nautosave_interval 1\n"
        } else {
            conf += "persistence false\n"
        }
        if tls {
            let certificates = try TestCertificates(in: folder)
            for file in [certificates.caFile, certificates.certificateFile, certificates.keyFile] { chmod(file, 0o644) }
            conf += "cafile \(certificates.caFile)\ncertfile \(certificates.certificateFile)\nkeyfile \(certificates.keyFile)\n"
            caFile = certificates.caFile
        } else {
            caFile = nil
        }
        if users.isEmpty {
            conf += "allow_anonymous true\n"
        } else {
            let passwords = folder.appendingPathComponent("passwords")
            _ = FileManager.default.createFile(atPath: passwords.path, contents: nil)
            for (user, password) in users {
                let tool = Process()
                tool.executableURL = Self.client("mosquitto_passwd")
                tool.arguments = ["-b", passwords.path, user, password]
                try tool.run()
                tool.waitUntilExit()
                guard tool.terminationStatus == 0 else { throw SetupError("mosquitto_passwd failed for \(user)") }
            }
            chmod(passwords.path, 0o644)
            conf += "allow_anonymous false\npassword_file \(passwords.path)\n"
        }
        try Data(conf.utf8).write(to: folder.appendingPathComponent("mosquitto.conf"))
        try start()
    }

    deinit { stop() }

    /// `mqtt://127.0.0.1:PORT`, or `mqtts://127.0.0.1:PORT` with TLS.
    public var url: String { "\(caFile == nil ? "mqtt" : "mqtts")://127.0.0.1:\(port)" }

    /// What mosquitto_pub/mosquitto_sub need to reach this broker: host, port, and with TLS the CA.
    var clientArguments: [String] {
        ["-h", "127.0.0.1", "-p", "\(port)"] + (caFile.map { ["--cafile", $0] } ?? [])
    }

    /// Starts the broker (again) and waits until it accepts connections.
    public func start() throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-c", folder.appendingPathComponent("mosquitto.conf").path]
        process.standardOutput = FileHandle.nullDevice
        let log = folder.appendingPathComponent("mosquitto.log")
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardError = handle
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if Self.canConnect(to: port) { return }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw SetupError("mosquitto did not listen on 127.0.0.1:\(port): \(self.log())")
    }

    /// SIGKILL: the broker dies at once, as in a crash.
    public func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// SIGSTOP: the broker still holds its connections but reads and answers nothing (a hung or
    /// flooded broker); `resume()` lets it go on.
    public func pause() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGSTOP)
    }

    public func resume() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGCONT)
    }

    public func stop() {
        guard let process else { return }
        // SIGKILL: processes started from a test's thread inherit its blocked signals, SIGTERM among them.
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        self.process = nil
        try? FileManager.default.removeItem(at: folder)
    }

    /// What the broker wrote on stderr.
    public func log() -> String {
        (try? String(contentsOf: folder.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
    }

    /// The path of `mosquitto_pub` or `mosquitto_sub`.
    public static func client(_ name: String) -> URL? {
        find(name, in: (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init))
    }

    /// `mosquitto_pub -t TOPIC -m MESSAGE` on this broker; true when it exited 0.
    @discardableResult
    public func publish(_ topic: String, _ message: String, retain: Bool = false) throws -> Bool {
        let process = Process()
        process.executableURL = Self.client("mosquitto_pub")
        process.arguments = clientArguments + ["-q", "1", "-t", topic, "-m", message] + (retain ? ["-r"] : [])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// The first `count` messages on `topic` (a retained one comes at once) as
    /// `mosquitto_sub -C count` gets them; fewer when `seconds` pass first. (Not `-W`: its SIGALRM
    /// is among the signals a test's thread blocks, and its children inherit that.)
    public func receive(_ topic: String, count: Int = 1, seconds: Double = 10) throws -> [String] {
        let subscription = try MosquittoSubscription(broker: self, topic: topic, verbose: false, settle: 0)
        _ = subscription.wait(seconds: seconds) { $0.count >= count }
        subscription.stop()
        return subscription.messages().prefix(count).map(\.topic)
    }

    private static func find(_ name: String, in folders: [String]) -> URL? {
        folders.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static func freePort() throws -> UInt16 {
        switch LoopbackPort.free() {
        case .success(let port): return port
        case .failure(let error): throw SetupError(error.description)
        }
    }

    private static func canConnect(to port: UInt16) -> Bool {
        LoopbackPort.acceptsConnections(port)
    }
}

/// `mosquitto_sub -v -t TOPIC` running in the background, its lines (`TOPIC PAYLOAD`) collected.
public final class MosquittoSubscription: @unchecked Sendable {
    private let process = Process()
    private let file: URL
    private let verbose: Bool

    /// `verbose`: lines are `TOPIC PAYLOAD` (else the payload alone, read back as `topic`);
    /// `settle`: how long to give it to subscribe. `session`: a client id with a session kept by
    /// the broker (clean session off, QoS 1): what is published while it is away waits for it.
    public init(broker: MosquittoBroker, topic: String, verbose: Bool = true, settle: Double = 0.3, session: String? = nil) throws {
        guard let sub = MosquittoBroker.client("mosquitto_sub") else {
            throw MosquittoBroker.SetupError("mosquitto_sub is not installed (apt-get install mosquitto-clients)")
        }
        self.verbose = verbose
        file = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-mqtt-sub-\(UUID().uuidString).txt")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        process.executableURL = sub
        process.arguments = broker.clientArguments + ["-t", topic] + (verbose ? ["-v"] : [])
            + (session.map { ["-c", "-i", $0, "-q", "1"] } ?? [])
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
        // mosquitto_sub subscribes a moment after it starts; messages sent before that are missed.
        Thread.sleep(forTimeInterval: settle)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: file)
    }

    public func stop() {
        if process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Every complete line so far, as (topic, payload).
    public func messages() -> [(topic: String, payload: String)] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).map { line in
            let text = String(decoding: line, as: UTF8.self)
            guard verbose, let space = text.firstIndex(of: " ") else { return (text, "") }
            return (String(text[..<space]), String(text[text.index(after: space)...]))
        }
    }

    /// With the payloads read as lines of JSON objects (`verbose: false`; proof of play's
    /// batches): the `id` of each, with how often it came.
    public func recordIDs() -> [String: Int] {
        messages().reduce(into: [:]) { counts, line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.topic.utf8)) as? [String: Any],
                  let id = object["id"] as? String else { return }
            counts[id, default: 0] += 1
        }
    }

    /// Polls until `done` holds or `seconds` pass.
    public func wait(seconds: Double = 20, until done: ([(topic: String, payload: String)]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if done(messages()) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return done(messages())
    }
}
