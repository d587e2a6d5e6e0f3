import Foundation
import MarqueeControl
import Testing

/// The control socket end to end: the real `marquee play` (real FFmpeg decoding of real files,
/// headless output) steered over a real Unix socket, its effects read from its events log.
@Suite(.serialized) struct ControlSocketCLITests {
    static func commands(_ run: PlayerRun) -> [[String: Any]] {
        run.events().filter { $0["event"] as? String == "command" }
    }

    @Test func everyKeyPathCommandGoesThroughTheOneCommandPathWithItsClient() throws {
        let folder = try PlayCommandTests.workspace.get()
        let player = try ControlledPlayer(arguments: ["play", "a.mp4", "silent.mp4", "--output", "headless:160x90", "--repeat", "all"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })

        let status = try player.status()
        #expect(status["ok"] as? Bool == true && status["state"] as? String == "playing" && status["itemCount"] as? Int == 2, "\(status)")
        #expect((status["item"] as? [String: Any])?["index"] as? Int == 0)

        #expect(try player.request(["id": 1, "command": "pause"])["id"] as? Int == 1)
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "playbackStateChanged" && $0["state"] as? String == "paused" } })
        for request: [String: Any] in [
            ["command": "setRepeat", "mode": "one"], ["command": "setScaling", "mode": "fill"],
            ["command": "setVolume", "volume": 0.5], ["command": "mute", "muted": true],
            ["command": "actionAtItemEnd", "action": "pause"], ["command": "pauseAfterCurrentItem"],
        ] {
            let reply = try player.request(request)
            #expect(reply["ok"] as? Bool == true, "\(request): \(reply)")
        }
        // Replies come when a command is queued; the player applies it between frames.
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "command" && $0["command"] as? String == "pauseAfterCurrentItem" } })
        var settled = try player.status()
        let deadline = Date().addingTimeInterval(10)
        while settled["pauseAfterCurrentItem"] as? Bool != true && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            settled = try player.status()
        }
        #expect(settled["repeat"] as? String == "one" && settled["scaling"] as? String == "fill", "\(settled)")
        #expect(settled["volume"] as? Double == 0.5 && settled["muted"] as? Bool == true)
        #expect(settled["actionAtItemEnd"] as? String == "pause" && settled["pauseAfterCurrentItem"] as? Bool == true)

        // Three frames forward while paused: each step shows the next frame (25 fps).
        let before = player.run.events().last { $0["event"] as? String == "frame" }?["pts"] as? Double ?? -1
        #expect(try player.request(["command": "stepForward", "count": 3])["ok"] as? Bool == true)
        #expect(player.run.waitForEvents { events in
            (events.last { $0["event"] as? String == "frame" }?["pts"] as? Double).map { abs($0 - (before + 0.12)) < 0.001 } ?? false
        }, "from \(before)")

        let refused = try player.request(["command": "playItem", "index": 9])
        #expect(refused["ok"] as? Bool == false && (refused["error"] as? String)?.contains("no item 9") == true, "\(refused)")
        #expect(try player.request(["command": "playItem", "index": 1])["ok"] as? Bool == true)
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "itemStarted" && $0["index"] as? Int == 1 } })

        #expect(try player.request(["command": "quit"])["ok"] as? Bool == true)
        #expect(player.run.waitForExit(seconds: 20) == 0)
        let logged = Self.commands(player.run).map { $0["command"] as? String ?? "" }
        #expect(logged == ["pause", "setRepeat", "setScaling", "setVolume", "mute", "actionAtItemEnd", "pauseAfterCurrentItem",
                           "stepForward", "playItem", "quit"], "\(logged)")
        let pid = ProcessInfo.processInfo.processIdentifier
        #expect(Self.commands(player.run).allSatisfy { $0["source"] as? String == "control" && $0["pid"] as? Int == Int(pid) && $0["uid"] as? Int == Int(getuid()) })
        let stderr = player.run.standardError()
        #expect(stderr.contains("info: command setRepeat one from control client 1 (uid \(getuid()), pid \(pid))"), "\(stderr)")
        #expect(stderr.contains("info: control: client 1 connected (uid \(getuid()), pid \(pid), role admin)"), "\(stderr)")
    }

    @Test func aSeekIsAnsweredWhenItsFrameIsOnScreen() throws {
        let folder = try PlayCommandTests.workspace.get()
        let player = try ControlledPlayer(arguments: ["play", "a.mp4", "still.png", "--output", "headless:160x90", "--repeat", "all"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        _ = try player.request(["command": "pause"])
        let reply = try player.request(["id": "s", "command": "seek", "to": 1.2, "toleranceBefore": 0, "toleranceAfter": 0])
        #expect(reply["id"] as? String == "s" && reply["ok"] as? Bool == true && reply["finished"] as? Bool == true, "\(reply)")
        // Answered once the frame at 1.2 s is on screen: the status says so at once.
        let item = try player.status()["item"] as? [String: Any]
        #expect(item?["position"] as? Double == 1.2, "\(String(describing: item))")
        // The events file is written by the delivery thread, which may be a moment behind the reply.
        #expect(player.run.waitForEvents(seconds: 5) { $0.contains { $0["event"] as? String == "timeJumped" && $0["to"] as? Double == 1.2 } })
        #expect(Self.commands(player.run).contains { $0["command"] as? String == "seek" && $0["to"] as? Double == 1.2 && $0["source"] as? String == "control" })

        _ = try player.request(["command": "next"])
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "itemStarted" && $0["index"] as? Int == 1 } })
        let still = try player.request(["command": "seek", "to": 0.5])
        #expect(still["ok"] as? Bool == false && (still["error"] as? String)?.contains("cannot seek") == true, "\(still)")
        #expect(player.run.terminate() == 0)
    }

    /// `rate`: the timeline (the frames' `time`) runs twice as fast as wall time (the log's `t`) at
    /// 2, and at 1 again once set back; the status says which, and the command is logged with it.
    @Test func rateChangesHowFastPlaybackRunsAgainstWallTime() throws {
        let folder = try PlayCommandTests.workspace.get()
        let player = try ControlledPlayer(arguments: ["play", "a.mp4", "--output", "headless:160x90", "--repeat", "all",
                                                      "--clock", "realtime", "--audio", "null"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        #expect(try player.status()["rate"] as? Double == 1)

        /// Timeline seconds per wall second over the frames shown in the second after `since`.
        func pace(after since: Double) -> Double? {
            _ = player.run.waitForEvents(seconds: 20) { events in
                events.contains { $0["event"] as? String == "frame" && ($0["t"] as? Double ?? 0) > since + 1.2 }
            }
            let frames = player.run.events().filter {
                $0["event"] as? String == "frame" && $0["dropped"] as? Bool != true
                    && ($0["t"] as? Double).map { $0 > since + 0.2 && $0 < since + 1.2 } == true
            }
            guard let first = frames.first, let last = frames.last,
                  let t0 = first["t"] as? Double, let t1 = last["t"] as? Double, t1 - t0 > 0.5,
                  let time0 = first["time"] as? Double, let time1 = last["time"] as? Double else { return nil }
            return (time1 - time0) / (t1 - t0)
        }
        func lastT() -> Double { player.run.events().last?["t"] as? Double ?? 0 }
        /// The reply comes when the command is queued; the status says so once the player took it.
        func statusRate(becomes rate: Double) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if (try? player.status()["rate"] as? Double) == rate { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return false
        }

        #expect(try player.request(["command": "rate", "rate": 2])["ok"] as? Bool == true)
        #expect(statusRate(becomes: 2))
        // The sound is time-stretched by libavfilter's atempo, and the status and the event say so.
        #expect(try player.status()["soundAtRate"] as? String == "stretched")
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "rateChanged" && $0["rate"] as? Double == 2 && $0["sound"] as? String == "stretched" } })
        let fast = pace(after: lastT())
        #expect(fast.map { abs($0 - 2) < 0.3 } == true, "\(String(describing: fast)) timeline seconds per second at rate 2")

        let refused = try player.request(["command": "rate", "rate": 8])
        #expect(refused["ok"] as? Bool == false && (refused["error"] as? String)?.contains("from 0.25 to 4") == true, "\(refused)")

        #expect(try player.request(["command": "rate", "rate": 1])["ok"] as? Bool == true)
        #expect(statusRate(becomes: 1))
        let normal = pace(after: lastT())
        #expect(normal.map { abs($0 - 1) < 0.2 } == true, "\(String(describing: normal)) timeline seconds per second at rate 1")

        #expect(player.run.terminate() == 0)
        let rates = Self.commands(player.run).filter { $0["command"] as? String == "rate" }
        #expect(rates.map { $0["rate"] as? Double } == [2, 1] && rates.allSatisfy { $0["source"] as? String == "control" }, "\(rates)")
        #expect(player.run.standardError().contains("info: command rate 2 from control client"), "\(player.run.standardError())")
        #expect(player.run.standardError().contains("info: rate: 2.0, sound time-stretched (pitch kept)"), "\(player.run.standardError())")
    }

    /// displayOff and displayOn from the socket: logged as commands with their client, reported as
    /// `displayPowerChanged` events and in the status; no frame is shown while the display is off.
    @Test func theDisplayGoesOffAndOnFromTheSocket() throws {
        let folder = try PlayCommandTests.workspace.get()
        let player = try ControlledPlayer(arguments: ["play", "a.mp4", "--output", "headless:160x90", "--repeat", "all",
                                                      "--clock", "realtime", "--audio", "null"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        #expect(try player.status()["display"] as? String == "on")
        func frames() -> Int { player.run.events().filter { $0["event"] as? String == "frame" }.count }

        #expect(try player.request(["command": "displayOff"])["ok"] as? Bool == true)
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "displayPowerChanged" && $0["display"] as? String == "off" } })
        #expect(try player.status()["display"] as? String == "off")
        let framesOff = frames()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(frames() == framesOff)

        #expect(try player.request(["command": "toggleDisplay"])["ok"] as? Bool == true)
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "displayPowerChanged" && $0["display"] as? String == "on" } })
        #expect(player.run.waitForEvents { $0.filter { $0["event"] as? String == "frame" }.count > framesOff + 5 })
        #expect(try player.status()["display"] as? String == "on")
        let commands = player.run.events().filter { $0["event"] as? String == "command" }.compactMap { $0["command"] as? String }
        #expect(commands.contains("displayOff") && commands.contains("toggleDisplay"), "\(commands)")
        #expect(player.run.terminate() == 0)
    }

    @Test func subscribersObserversAndConfigCuesFollowThePresentedTimeline() throws {
        let folder = try PlayCommandTests.workspace.get()
        try """
            playlist:
              repeat: all
              items:
                - url: a.mp4
                  cues: [0.8, "0:01.5"]
                - url: silent.mp4
            """.write(to: folder.appendingPathComponent("cues.yaml"), atomically: true, encoding: .utf8)
        let player = try ControlledPlayer(arguments: ["play", "cues.yaml", "--output", "headless:160x90"], in: folder)
        let subscribed = try player.request(["command": "subscribe", "events": ["itemStarted", "boundary"]])
        #expect(subscribed["events"] as? [String] == ["itemStarted", "boundary"])
        let every = try player.request(["command": "observe", "every": 0.5])["observer"] as? Int
        let at = try player.request(["command": "observe", "at": [0.4, 0.8], "item": 1])["observer"] as? Int
        #expect(every != nil && at != nil && every != at)
        // Until silent.mp4 (item 1, 1 s long) has played past 0.8 s; a.mp4 is 2 s.
        #expect(player.waitForPushed(seconds: 30) { $0.contains { $0["observer"] as? Int == at && $0["time"] as? Double == 0.8 } }, "\(player.pushed)")
        let pushed = player.pushed
        let positions = pushed.filter { $0["event"] as? String == "position" && $0["item"] as? Int == 0 }.compactMap { $0["position"] as? Double }
        #expect(positions.prefix(4).map { ($0 * 2).rounded(.down) } == [0, 1, 2, 3], "\(positions)")
        let cues = pushed.filter { $0["event"] as? String == "boundary" && $0["observer"] as? String == "cues" }
        #expect(cues.prefix(2).compactMap { $0["time"] as? Double } == [0.8, 1.5], "\(cues)")
        let boundaries = pushed.filter { $0["observer"] as? Int == at }.compactMap { $0["time"] as? Double }
        #expect(boundaries.prefix(2) == [0.4, 0.8])
        // Subscribed to two events only: no frames, no commands.
        #expect(!pushed.contains { ["frame", "command", "itemEnded"].contains($0["event"] as? String ?? "") })
        // The same cue events are in the events log.
        #expect(player.run.events().contains { $0["event"] as? String == "boundary" && $0["time"] as? Double == 0.8 && $0["item"] as? Int == 0 })
        #expect(try player.request(["command": "removeObserver", "observer": every ?? 0])["ok"] as? Bool == true)
        #expect(try player.request(["command": "removeObserver", "observer": every ?? 0])["ok"] as? Bool == false)
        #expect(player.run.terminate() == 0)
    }

    @Test func loadReplacesOrAppendsAndABadConfigIsRefusedWithItsLineAndColumn() throws {
        let folder = try PlayCommandTests.workspace.get()
        try "playlist:\n  items:\n    - url: silent.mp4\n    - url: a.mp4\n      start: 2x\n"
            .write(to: folder.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        try "playlist:\n  repeat: one\n  items:\n    - url: silent.mp4\n"
            .write(to: folder.appendingPathComponent("other.yaml"), atomically: true, encoding: .utf8)
        // No --repeat: flags override a loaded config as they do a reloaded one.
        let player = try ControlledPlayer(arguments: ["play", "a.mp4", "--output", "headless:160x90"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })

        let broken = try player.request(["command": "load", "path": folder.appendingPathComponent("broken.yaml").path])
        #expect(broken["ok"] as? Bool == false && (broken["error"] as? String)?.contains("rejected (1 error)") == true, "\(broken)")
        #expect((broken["diagnostics"] as? [String])?.first?.contains("broken.yaml:5:14: error: bad time '2x'") == true, "\(broken)")

        let inline = try player.request(["command": "load", "playlist": ["items": [["url": "a.mp4", "title": "Again"]]], "mode": "append"])
        #expect(inline["ok"] as? Bool == true && inline["items"] as? Int == 1, "\(inline)")
        // The reply says the playlist was read and handed over; the player takes it between frames.
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "queueReplaced" && $0["items"] as? Int == 2 } })
        #expect(try player.status()["itemCount"] as? Int == 2)

        let other = try player.request(["command": "load", "path": folder.appendingPathComponent("other.yaml").path])
        #expect(other["ok"] as? Bool == true && other["mode"] as? String == "replace", "\(other)")
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "itemStarted" && ($0["url"] as? String)?.hasSuffix("silent.mp4") == true } })
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "repeatModeChanged" && $0["mode"] as? String == "one" } })
        let status = try player.status()
        #expect(status["itemCount"] as? Int == 1 && status["repeat"] as? String == "one", "\(status)")
        #expect(player.run.events().contains { $0["event"] as? String == "queueReplaced" && $0["at"] as? String == "now" })
        #expect(player.run.terminate() == 0)
    }

    @Test func aScreenshotIsThePictureOnTheScreen() throws {
        let folder = try PlayCommandTests.workspace.get()
        // The navy still fills the 160x90 screen (aspectFill); the screenshot must be navy throughout.
        let player = try ControlledPlayer(arguments: ["play", "still.png", "--output", "headless:160x90", "--scaling", "fill"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        let reply = try player.request(["command": "screenshot"])
        #expect(reply["ok"] as? Bool == true && reply["width"] as? Int == 160 && reply["height"] as? Int == 90, "\(reply.filter { $0.key != "png" })")
        let png = try #require((reply["png"] as? String).flatMap { Data(base64Encoded: $0) })
        let pngFile = folder.appendingPathComponent("shot-\(UUID().uuidString.prefix(6)).png")
        try png.write(to: pngFile)
        let pixels = try ControlSocketCLITests.rgb(of: pngFile, in: folder)
        #expect(pixels.count == 160 * 90 * 3)
        // navy is #000080; the PNG path (yuv420p still, scaled) keeps it within a few levels.
        let off = stride(from: 0, to: pixels.count, by: 3).filter { pixels[$0] > 8 || pixels[$0 + 1] > 8 || abs(Int(pixels[$0 + 2]) - 128) > 8 }
        #expect(off.isEmpty, "\(off.count) pixels are not navy")

        // Written by the player: a new file of that name in its screenshots folder (beside the socket).
        let name = "written-\(UUID().uuidString.prefix(6)).png"
        let written = URL(fileURLWithPath: player.socketPath).deletingLastPathComponent().appendingPathComponent("screenshots/\(name)").path
        let toFile = try player.request(["command": "screenshot", "path": name])
        #expect(toFile["ok"] as? Bool == true && toFile["path"] as? String == written && FileManager.default.fileExists(atPath: written), "\(toFile)")
        let refused = try player.request(["command": "screenshot", "path": "/nonexistent-folder/x.png"])
        #expect(refused["ok"] as? Bool == false && (refused["error"] as? String)?.contains("'/nonexistent-folder/x.png' is not a file name") == true, "\(refused)")
        #expect(player.run.terminate() == 0)
    }

    /// Decodes a PNG to raw RGB24 with the ffmpeg CLI.
    static func rgb(of png: URL, in folder: URL) throws -> [UInt8] {
        let raw = folder.appendingPathComponent(png.lastPathComponent + ".rgb")
        try CLIFixtures.runFFmpeg(["-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgb24", raw.path])
        return Array(try Data(contentsOf: raw))
    }
}
