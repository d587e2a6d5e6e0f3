import Foundation
import Logging
import MarqueeConfig
import MarqueeControl
import MarqueeCore
import MarqueePlayer
import Testing
@testable import MarqueeSession

/// A whole `marquee play` session in process: the plan, the player the assembly makes, the
/// control socket and the config watch, over real FFmpeg decoding, a headless screen and null
/// audio. What is about the process (exit codes, signals, stderr, systemd) stays with the CLI tests.
@Suite(.serialized) struct PlaybackSessionTests {
    @Test func aConfigPlaysThroughAndItsEventsAreWritten() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        _ = try folder.clip("a.mp4", seconds: 0.6)
        _ = try folder.clip("b.mp4", seconds: 0.6, color: "maroon")
        let config = try folder.write("marquee.yaml", "playlist:\n  repeat: off\n  items:\n    - url: a.mp4\n    - url: b.mp4\ncontrol:\n  socket: none\n")
        var plan = try PlaybackPlan.fromConfig(path: config)
        PlanOverrides(exitWhenIdle: true).apply(to: &plan)
        let events = folder.url.appendingPathComponent("events.jsonl").path
        let lines = LogLines()
        let session = try PlaybackSession(plan: plan, clock: VirtualClock(), audio: .null, eventsPath: events, traceFrames: false,
                                          backends: .inProcess(), logger: .recording(into: lines))
        #expect(session.run(), "no item started")
        let written = try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n")
        let started = written.filter { $0.contains(#""event":"itemStarted""#) }
        #expect(started.count == 2 && started[0].contains("a.mp4") && started[1].contains("b.mp4"), "\(written)")
        #expect(lines.all.contains { $0.contains("a.mp4") }, "the journal names the items: \(lines.all)")
    }

    /// The control socket's `load` and a changed config file reach the same player in process.
    @Test func aSocketLoadAndAChangedFileEachReplaceThePlaylist() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        _ = try folder.clip("a.mp4", seconds: 0.4)
        _ = try folder.clip("b.mp4", seconds: 0.4, color: "maroon")
        _ = try folder.clip("c.mp4", seconds: 0.4, color: "olive")
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("marquee.yaml", "playlist:\n  repeat: all\n  items:\n    - url: a.mp4\ncontrol:\n  socket: \(socket)\n")
        let other = try folder.write("other.yaml", "playlist:\n  items:\n    - url: b.mp4\n")
        let plan = try PlaybackPlan.fromConfig(path: config)
        let session = try PlaybackSession(plan: plan, clock: MonotonicClock(), audio: .null, eventsPath: nil, traceFrames: false,
                                          backends: .inProcess(), logger: .recording(into: LogLines()))
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let running = session
        Thread { _ = running.run(); finished.signal() }.start()
        defer { _ = try? ask(socket, #"{"command":"quit"}"#) }

        #expect(waitFor { (try? playingURL(socket))?.hasSuffix("a.mp4") == true })
        let loaded = try ask(socket, #"{"command":"load","path":"\#(other)"}"#)
        #expect(loaded["ok"] as? Bool == true && loaded["items"] as? Int == 1 && loaded["staged"] as? Int == 0, "\(loaded)")
        #expect(waitFor { (try? playingURL(socket))?.hasSuffix("b.mp4") == true }, "the loaded playlist plays")

        try "playlist:\n  repeat: all\n  items:\n    - url: c.mp4\ncontrol:\n  socket: \(socket)\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(waitFor { (try? playingURL(socket))?.hasSuffix("c.mp4") == true }, "the changed file plays")

        #expect(try ask(socket, #"{"command":"quit"}"#)["ok"] as? Bool == true)
        #expect(finished.wait(timeout: .now() + 5) == .success, "run() returns after a quit")
    }

    private func ask(_ socket: String, _ line: String) throws -> [String: Any] {
        let client = try ControlSocketClient(path: socket, timeout: 5)
        defer { client.close() }
        try client.send(line)
        let reply = try client.readLine(timeout: 5) ?? ""
        return (try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]) ?? [:]
    }

    private func playingURL(_ socket: String) throws -> String? {
        let client = try ControlSocketClient(path: socket, timeout: 5)
        defer { client.close() }
        try client.send(#"{"command":"status"}"#)
        return try StatusCoding.document(client.readLine(timeout: 5) ?? "").item?.url
    }

    private func waitFor(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
