import Foundation
import MarqueeControl

/// A `marquee play` with a control socket, and one client connected to it: requests are sent as
/// JSON lines and their replies read back, with the events the client subscribed to kept aside.
final class ControlledPlayer {
    let run: PlayerRun
    let socketPath: String
    let client: ControlSocketClient
    /// Lines that were not replies (events, observer events), in order.
    private(set) var pushed: [[String: Any]] = []

    init(arguments: [String], in folder: URL) throws {
        socketPath = folder.appendingPathComponent("ctl-\(UUID().uuidString.prefix(8)).sock").path
        run = try PlayerRun(arguments: arguments + ["--control", socketPath], in: folder)
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard Date() < deadline, run.process.isRunning else {
                throw ControlSocketError("no control socket at \(socketPath): \(run.standardError())")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        // The file appears when the player binds, a moment before it listens: refused until then.
        var connected: ControlSocketClient?
        while connected == nil {
            do {
                connected = try ControlSocketClient(path: socketPath)
            } catch let error as ControlSocketError where error.code == ECONNREFUSED && Date() < deadline && run.process.isRunning {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        client = connected!
    }

    deinit {
        client.close()
    }

    /// Sends one request and returns its reply (the next line with `ok`).
    func request(_ object: [String: Any], timeout: Double = 20) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return try requestLine(String(decoding: data, as: UTF8.self), timeout: timeout)
    }

    func requestLine(_ line: String, timeout: Double = 20) throws -> [String: Any] {
        try client.send(line)
        return try nextReply(timeout: timeout)
    }

    func nextReply(timeout: Double = 20) throws -> [String: Any] {
        while true {
            guard let line = try client.readLine(timeout: timeout) else { throw closedError() }
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw ControlSocketError("not an object: \(line)")
            }
            if object["ok"] != nil { return object }
            pushed.append(object)
        }
    }

    /// Says why the connection ended as far as the player's own account goes: whether it is still
    /// running (and its exit status if not) and the end of what it wrote to stderr.
    private func closedError() -> ControlSocketError {
        let deadline = Date().addingTimeInterval(2)
        while run.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let state = run.process.isRunning ? "still running"
            : "gone (\(run.process.terminationReason == .uncaughtSignal ? "signal" : "exit status") \(run.process.terminationStatus))"
        let tail = run.standardError().split(separator: "\n").suffix(15).joined(separator: "\n")
        return ControlSocketError("the player closed the connection; it is \(state); its stderr ends:\n\(tail)")
    }

    /// Reads pushed lines until `done` holds of them or `seconds` pass.
    func waitForPushed(seconds: Double = 20, until done: ([[String: Any]]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !done(pushed) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let line = try? client.readLine(timeout: left),
                  let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return done(pushed) }
            pushed.append(object)
        }
        return true
    }

    func status() throws -> [String: Any] {
        try request(["command": "status"])
    }
}
