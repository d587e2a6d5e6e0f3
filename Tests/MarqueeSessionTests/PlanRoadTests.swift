import Foundation
import Logging
import MarqueeConfig
import MarqueeControl
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
import MarqueeTestSupport
import Synchronization
import Testing
@testable import MarqueeSession

/// Every new plan takes one road to the player, whatever brought it: the config file changing on
/// disk, a `reload` (SIGHUP's command, here from a control client), a fetched config, and a client's
/// `load`, replacing or appending. Each says the steps it took in one debug line; a load of remote
/// items takes the cache step and is verified against its `sha256:` before it plays.
@Suite(.serialized) struct PlanRoadTests {
    static let allSteps = "check, overrides, restart-only, wall, hand-over"
    static let cachedSteps = "check, overrides, restart-only, wall, cache, hand-over"

    @Test func theFileAReloadALoadAndAnAppendTakeTheSameSteps() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        for (name, color) in [("a.mp4", "navy"), ("b.mp4", "maroon"), ("c.mp4", "olive"), ("d.mp4", "teal")] {
            _ = try folder.clip(name, seconds: 0.4, color: color)
        }
        let socket = folder.url.appendingPathComponent("c.sock").path
        let config = try folder.write("marquee.yaml", "playlist:\n  repeat: all\n  items:\n    - url: a.mp4\ncontrol:\n  socket: \(socket)\n")
        let other = try folder.write("other.yaml", "playlist:\n  items:\n    - url: c.mp4\n")
        let more = try folder.write("more.yaml", "playlist:\n  items:\n    - url: d.mp4\n")
        let session = try SessionUnderTest(plan: PlaybackPlan.fromConfig(path: config), socket: socket)
        defer { session.quit() }
        #expect(session.waitForItem("a.mp4"))

        try "playlist:\n  repeat: all\n  items:\n    - url: b.mp4\ncontrol:\n  socket: \(socket)\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(session.waitForLine("plan: \(config) (changed): \(Self.allSteps)"), "\(session.lines.all)")
        #expect(session.waitForItem("b.mp4"))

        #expect(try session.ask(#"{"command":"reload"}"#)["ok"] as? Bool == true)
        #expect(session.waitForLine("(reload from control client"), "\(session.lines.all)")
        #expect(session.lines.all.contains { $0.contains("(reload from control client") && $0.hasSuffix(Self.allSteps) })

        let loaded = try session.ask(#"{"command":"load","path":"\#(other)"}"#)
        #expect(loaded["ok"] as? Bool == true && loaded["staged"] as? Int == 0, "\(loaded)")
        #expect(session.lines.all.contains("debug: plan: \(other) (load, replace): \(Self.allSteps)"), "\(session.lines.all)")
        #expect(session.waitForItem("c.mp4"))

        let appended = try session.ask(#"{"command":"load","path":"\#(more)","mode":"append"}"#)
        #expect(appended["ok"] as? Bool == true, "\(appended)")
        #expect(session.lines.all.contains("debug: plan: \(more) (load, append): \(Self.allSteps)"), "\(session.lines.all)")
        #expect(session.waitForStatus { $0.itemCount == 2 }, "the appended item joins the playlist")
    }

    /// A fetched config and a client's load of remote media both go through the cache, and a
    /// load whose item does not match its `sha256:` never plays.
    @Test func theServerAndALoadOfRemoteMediaTakeTheCacheStep() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        let a = try folder.clip("a.mp4", seconds: 0.4)
        let remote = try folder.clip("remote.mp4", seconds: 0.4, color: "maroon")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: remote))
        let digest = try FileSHA256().sha256(ofFileAt: remote)
        let server = try LoopbackHTTPServer(routes: [
            "/good.mp4": .file(bytes, contentType: "video/mp4"),
            "/lying.mp4": .file(bytes, contentType: "video/mp4"),
        ])
        defer { server.stop() }
        let fetched = "playlist:\n  repeat: all\n  items:\n    - url: \(server.url("/good.mp4"))\n      sha256: \(digest)\n"
        server.setRoute("/screen.yaml", .file(Data(fetched.utf8), contentType: "application/yaml"))
        let socket = folder.url.appendingPathComponent("c.sock").path
        let cache = folder.url.appendingPathComponent("cache").path
        let config = try folder.write("marquee.yaml", """
            playlist:
              repeat: all
              items: [\(a)]
            source:
              url: \(server.url("/screen.yaml"))
              interval: 5
            cache:
              dir: \(cache)
            control:
              socket: \(socket)
            """)
        let lying = try folder.write("lying.yaml", "playlist:\n  items:\n    - url: \(server.url("/lying.mp4"))\n      sha256: \(String(repeating: "0", count: 64))\n")
        let session = try SessionUnderTest(plan: PlaybackPlan.fromConfig(path: config), socket: socket)
        defer { session.quit() }

        #expect(session.waitForLine("(server): \(Self.cachedSteps)"), "\(session.lines.all)")
        #expect(session.waitForItem("/good.mp4"), "the fetched config plays from the cache")

        let refused = try session.ask(#"{"command":"load","path":"\#(lying)"}"#)
        #expect(refused["ok"] as? Bool == true && refused["staged"] as? Int == 1, "\(refused)")
        #expect(session.lines.all.contains("debug: plan: \(lying) (load, replace): \(Self.cachedSteps)"), "\(session.lines.all)")
        #expect(session.waitForLine("sha256"), "\(session.lines.all)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(!session.startedURLs.contains { $0.hasSuffix("/lying.mp4") }, "\(session.startedURLs)")
        let media = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/media")) ?? []
        #expect(media == ["\(digest).mp4"], "only the verified file is kept: \(media)")
    }
}

extension PlanRoadTests {
    /// A socket `load` that asks to wait is answered once its remote item is downloaded, verified
    /// and with the player; one whose download a newer load overtakes is answered false.
    @Test func aLoadThatWaitsIsAnsweredWhenThePlayerHasIt() throws {
        let folder = try MediaFolder()
        defer { folder.remove() }
        let a = try folder.clip("a.mp4", seconds: 0.4)
        let remote = try folder.clip("remote.mp4", seconds: 0.4, color: "maroon")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: remote))
        let digest = try FileSHA256().sha256(ofFileAt: remote)
        // About a second to download: the reply must wait for it.
        let server = try LoopbackHTTPServer(routes: [
            "/slow.mp4": .throttledFile(bytes, contentType: "video/mp4", bytesPerSecond: max(bytes.count, 1)),
            "/never.mp4": .stall,
        ])
        defer { server.stop() }
        let socket = folder.url.appendingPathComponent("c.sock").path
        let cache = folder.url.appendingPathComponent("cache").path
        let config = try folder.write("marquee.yaml", """
            playlist:
              repeat: all
              items: [\(a)]
            cache:
              dir: \(cache)
            control:
              socket: \(socket)
            """)
        let slow = try folder.write("slow.yaml", "playlist:\n  repeat: all\n  items:\n    - url: \(server.url("/slow.mp4"))\n      sha256: \(digest)\n")
        let never = try folder.write("never.yaml", "playlist:\n  items:\n    - url: \(server.url("/never.mp4"))\n")
        let session = try SessionUnderTest(plan: PlaybackPlan.fromConfig(path: config), socket: socket)
        defer { session.quit() }
        #expect(session.waitForItem("/a.mp4"))

        let asked = ContinuousClock.now
        let taken = try session.ask(#"{"command":"load","path":"\#(slow)","wait":true}"#)
        let waited = ContinuousClock.now - asked
        #expect(taken["ok"] as? Bool == true && taken["playing"] as? Bool == true && taken["staged"] as? Int == 1, "\(taken)")
        #expect(waited >= .milliseconds(500), "the reply came after the download: \(waited)")
        let media = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/media")) ?? []
        #expect(media == ["\(digest).mp4"], "in the cache when the reply came: \(media)")
        #expect(session.waitForItem("/slow.mp4"), "\(session.startedURLs)")

        // A load waiting on a download that never ends, overtaken by another load.
        let overtaken = Mutex<(ok: Bool?, error: String?)?>(nil)
        let waiting = Thread {
            let reply = try? session.ask(#"{"command":"load","path":"\#(never)","wait":true}"#)
            let answer = (ok: reply?["ok"] as? Bool, error: reply?["error"] as? String)
            overtaken.withLock { $0 = answer }
        }
        waiting.start()
        #expect(session.waitForLine("\(never) (load, replace)"), "\(session.lines.all)")
        let again = try session.ask(#"{"command":"load","path":"\#(slow)"}"#)
        #expect(again["ok"] as? Bool == true)
        let deadline = ContinuousClock.now + .seconds(5)
        while overtaken.withLock({ $0 == nil }) && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let reply = overtaken.withLock { $0 }
        #expect(reply?.ok == false && reply?.error?.contains("replaced by a newer plan") == true, "\(String(describing: reply))")
    }
}

/// A session running on a thread of its own, with a control socket, its journal kept and its
/// events read back (on the monotonic clock unless a test gives another: the wall's, the virtual).
final class SessionUnderTest: @unchecked Sendable {
    let lines = LogLines()
    private let socket: String
    private let finished = DispatchSemaphore(value: 0)
    private let events: String
    private var quitted = false

    init(plan: PlaybackPlan, socket: String, clock: PlaybackClock = MonotonicClock(), traceFrames: Bool = false) throws {
        self.socket = socket
        events = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-events-\(UUID().uuidString).jsonl").path
        let session = try PlaybackSession(plan: plan, clock: clock, audio: .null, eventsPath: events, traceFrames: traceFrames,
                                          backends: .inProcess(), logger: .recording(into: lines))
        nonisolated(unsafe) let running = session
        let finished = self.finished
        Thread { _ = running.run(); finished.signal() }.start()
    }

    func quit() {
        guard !quitted else { return }
        quitted = true
        _ = try? ask(#"{"command":"quit"}"#)
        _ = finished.wait(timeout: .now() + 5)
        try? FileManager.default.removeItem(atPath: events)
    }

    func ask(_ line: String) throws -> [String: Any] {
        let client = try ControlSocketClient(path: socket, timeout: 5)
        defer { client.close() }
        try client.send(line)
        let reply = try client.readLine(timeout: 10) ?? ""
        return (try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any]) ?? [:]
    }

    func status() -> StatusDocument? {
        guard let client = try? ControlSocketClient(path: socket, timeout: 5) else { return nil }
        defer { client.close() }
        guard (try? client.send(#"{"command":"status"}"#)) != nil, let line = try? client.readLine(timeout: 5) else { return nil }
        return try? StatusCoding.document(line ?? "")
    }

    /// Every event written so far, in order.
    var written: [[String: Any]] {
        ((try? String(contentsOfFile: events, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    var startedURLs: [String] {
        written.filter { $0["event"] as? String == "itemStarted" }.compactMap { $0["url"] as? String }
    }

    func waitForItem(_ suffix: String, seconds: Double = 20) -> Bool {
        waitFor(seconds) { startedURLs.contains { $0.hasSuffix(suffix) } }
    }

    func waitForLine(_ fragment: String, seconds: Double = 20) -> Bool {
        waitFor(seconds) { lines.all.contains { $0.contains(fragment) } }
    }

    func waitForStatus(seconds: Double = 10, _ condition: (StatusDocument) -> Bool) -> Bool {
        waitFor(seconds) { status().map(condition) ?? false }
    }

    func waitForEvents(seconds: Double = 20, _ condition: ([[String: Any]]) -> Bool) -> Bool {
        waitFor(seconds) { condition(written) }
    }

    private func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
