import Foundation
import Testing

/// `marquee play` as systemd runs it: READY=1 over $NOTIFY_SOCKET once the first frame is on
/// screen, WATCHDOG=1 at half of $WATCHDOG_USEC, STOPPING=1 on the way out; SIGHUP reloads the
/// config, an invalid one is logged and the old one plays on, a valid one renamed into place
/// takes over at the next item.
@Suite(.serialized) struct DeployRunTests {
    private func writeAtomically(_ text: String, to path: URL) throws {
        let temporary = path.deletingLastPathComponent().appendingPathComponent(".\(path.lastPathComponent).tmp")
        try Data(text.utf8).write(to: temporary)
        #expect(rename(temporary.path, path.path) == 0)
    }

    @Test func readyAfterTheFirstFrameWatchdogPingsAndStopping() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = folder.appendingPathComponent("notify-\(UUID().uuidString).yaml")
        try writeAtomically("playlist:\n  repeat: all\n  items: [a.mp4]\n", to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let socket = try NotifySocket(name: FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString)").path)
        defer { socket.close() }
        let run = try PlayerRun(arguments: ["play", config.path, "--output", "headless:320x180", "--audio", "null", "--input", "none"],
                                in: folder, environment: ["NOTIFY_SOCKET": socket.name, "WATCHDOG_USEC": "400000"])
        #expect(socket.wait(seconds: 30) { $0.contains { $0.text.hasPrefix("READY=1") } })
        // The frame event is written before READY is sent.
        let framesAtReady = run.events().filter { $0["event"] as? String == "frame" && $0["dropped"] == nil }
        #expect(!framesAtReady.isEmpty)
        let ready = try #require(socket.messages.first { $0.text.hasPrefix("READY=1") })
        #expect(ready.text.contains("STATUS=playing item 1/1 a.mp4"), "\(ready.text)")
        Thread.sleep(forTimeInterval: 2)
        let pings = socket.times(of: "WATCHDOG=1")
        let gaps = zip(pings, pings.dropFirst()).map { ($1 - $0) / .seconds(1) }
        // Every 200 ms (half of WATCHDOG_USEC), never more than 0.4 s apart.
        #expect(pings.count >= 8, "\(pings.count) pings")
        // Spaced by the sender; the receiving thread adds its own scheduling jitter.
        #expect(gaps.allSatisfy { $0 >= 0.15 && $0 < 0.4 }, "\(gaps)")
        #expect(run.terminate() == 0)
        #expect(socket.wait(seconds: 5) { $0.last?.text == "STOPPING=1" })
    }

    /// SIGHUP takes the road every new plan takes (PlanRoadTests drive the others in process).
    @Test func sighupTakesTheSameStepsAsEveryOtherPlan() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = folder.appendingPathComponent("sighup-\(UUID().uuidString).yaml")
        try writeAtomically("playlist:\n  repeat: all\n  items: [a.mp4]\n", to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try PlayerRun(arguments: ["play", config.path, "--output", "headless:160x90", "--audio", "null", "--input", "none",
                                            "--control", "none", "--log-level", "debug"], in: folder)
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        kill(run.process.processIdentifier, SIGHUP)
        let line = "debug: plan: \(config.path) (SIGHUP): check, overrides, restart-only, wall, hand-over"
        let deadline = Date().addingTimeInterval(20)
        while !run.standardError().contains(line) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(run.standardError().contains(line), "\(run.standardError())")
        #expect(run.terminate() == 0)
    }

    @Test func sighupRejectsABadConfigAndTakesAGoodOneAtTheNextItem() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = folder.appendingPathComponent("reload-\(UUID().uuidString).yaml")
        try writeAtomically("playlist:\n  repeat: all\n  items: [a.mp4]\n", to: config)
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try PlayerRun(arguments: ["play", config.path, "--output", "headless:320x180", "--audio", "null", "--input", "none"],
                                in: folder)
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })

        // Invalid: logged with its position, and a.mp4 plays on.
        try writeAtomically("playlist:\n  repeat: sometimes\n  items: [silent.mp4]\n", to: config)
        kill(run.process.processIdentifier, SIGHUP)
        let deadline = Date().addingTimeInterval(20)
        while !run.standardError().contains("rejected") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let stderr = run.standardError()
        #expect(stderr.contains("\(config.lastPathComponent):2:11: error:") || stderr.contains("\(config.path):2:11: error:"), "\(stderr)")
        #expect(stderr.contains("error: reload: \(config.path) rejected (1 error); the previous config keeps playing"), "\(stderr)")
        let framesBefore = run.events().filter { $0["event"] as? String == "frame" }.count
        #expect(run.waitForEvents(seconds: 10) { $0.filter { $0["event"] as? String == "frame" }.count > framesBefore + 10 })
        #expect(!run.events().contains { $0["event"] as? String == "queueReplaced" })

        // Valid, renamed into place: the item playing finishes, then silent.mp4. Its log level needs
        // a restart: named, not applied (the info lines go on).
        try writeAtomically("playlist:\n  repeat: all\n  items: [silent.mp4, still.png]\nlog:\n  level: error\n", to: config)
        kill(run.process.processIdentifier, SIGHUP)
        #expect(run.waitForEvents(seconds: 30) { events in
            events.contains { $0["event"] as? String == "itemStarted" && ($0["url"] as? String)?.hasSuffix("silent.mp4") == true }
        })
        #expect(run.terminate() == 0)
        let events = run.events()
        let names = events.compactMap { $0["event"] as? String }.filter { $0 != "frame" }
        let replaced = try #require(names.firstIndex(of: "queueReplaced"))
        // Each rename is also seen by the config's watch: those reloads come from source `file`.
        let reloads = events.filter { $0["event"] as? String == "command" && $0["command"] as? String == "reload" }
        #expect(reloads.filter { $0["signal"] as? String == "SIGHUP" }.count == 2)
        #expect(reloads.allSatisfy { $0["signal"] as? String == "SIGHUP" || $0["source"] as? String == "file" })
        // a.mp4 ended as played (not cut short) before silent.mp4 started.
        let after = names[replaced...]
        let ended = try #require(after.firstIndex(of: "itemEnded"))
        let started = try #require(after.firstIndex(of: "itemStarted"))
        #expect(ended < started)
        #expect(events.contains { $0["event"] as? String == "itemEnded" && $0["reason"] as? String == "playbackEnded" })
        #expect(events.contains { $0["event"] as? String == "queueReplaced" && $0["items"] as? Int == 2 && $0["at"] as? String == "itemEnd" })
        #expect(run.standardError().contains("info: playlist replaced: 2 items, from the next item"))
        #expect(run.standardError().contains("warning: reload: not applied until marquee restarts: log.level"))
    }
}
