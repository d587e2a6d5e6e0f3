import Foundation
import Testing

/// `marquee play` with `displays:`, headless: two screens play their own playlists at once, each
/// at its own mode's size, each gapless on its own present thread; a third mirrors one of them.
@Suite(.serialized) struct MultiScreenCLITests {
    static let frame = 0.04 // 25 fps

    /// left.mp4: 2 s of testsrc2 at 25 fps (50 frames); right.mp4 and right2.webm: 1 s each (25 frames).
    static let workspace: Result<URL, CLIFixtures.Failure> = {
        do {
            let folder = try CLIFixtures.workspace(prefix: "marquee-screens-cli-")
            func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
            let video = ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25"]
            try CLIFixtures.runFFmpeg(video + ["-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path("left.mp4")])
            try CLIFixtures.runFFmpeg(video + ["-t", "1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path("right.mp4")])
            try CLIFixtures.runFFmpeg(video + ["-t", "1", "-c:v", "libvpx-vp9", "-deadline", "realtime", path("right2.webm")])
            try Data("""
                displays:
                  - name: left
                    connector: HDMI-A-1
                    mode: 320x180
                    playlist:
                      repeat: off
                      items: [left.mp4]
                  - name: right
                    connector: HDMI-A-2
                    mode: 200x200
                    playlist:
                      repeat: off
                      items: [right.mp4, right2.webm]
                  - name: copy
                    connector: DP-1
                    mode: 64x64
                    mirror: right
                """.utf8).write(to: folder.appendingPathComponent("screens.yaml"))
            return .success(folder)
        } catch let failure as CLIFixtures.Failure {
            return .failure(failure)
        } catch {
            return .failure(CLIFixtures.Failure(description: "could not make the multi-screen test media: \(error)"))
        }
    }()

    /// Both screens' plays go into the device's one ledger, one chain, each record naming its screen.
    @Test func everyScreensPlaysAreInTheOneLedger() throws {
        let folder = try Self.workspace.get()
        let ledger = folder.appendingPathComponent("ledger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: ledger) }
        let run = try PlayerRun(arguments: ["play", "screens.yaml", "--output", "headless", "--clock", "fast", "--exit-when-idle",
                                            "--control", "none", "--input", "none", "--ledger", ledger.path], in: folder)
        #expect(run.waitForExit(seconds: 60) == 0, "\(run.standardError())")
        let records = LedgerCLITests.records(in: ledger)
        let shown = records.map { "\($0["screen"] as? String ?? "?") \(URL(fileURLWithPath: $0["url"] as? String ?? "").lastPathComponent)" }
        #expect(shown.sorted() == ["left left.mp4", "right right.mp4", "right right2.webm"], "\(shown)")
        #expect(records.allSatisfy { $0["ended"] as? String == "completed" })
        let verify = try MarqueeProcess.run(["report", ledger.path, "--verify"], in: folder)
        #expect(verify.status == 0 && verify.standardOutput.contains("3 records, chain intact"), "\(verify)")
    }

    /// With `resume:` every screen resumes on its own: the main one from position.json, another
    /// from position-NAME.json, each at the frame it showed at the quit.
    @Test func everyScreenResumesWhereItWas() throws {
        let folder = try Self.workspace.get()
        let state = folder.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let name = "resume-screens-\(UUID().uuidString).yaml"
        defer { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        try Data("""
            resume: true
            displays:
              - name: left
                connector: HDMI-A-1
                mode: 320x180
                playlist: {items: [left.mp4]}
              - name: right
                connector: HDMI-A-2
                mode: 200x200
                playlist: {items: [right.mp4, right2.webm]}
            """.utf8).write(to: folder.appendingPathComponent(name))
        func play() throws -> PlayerRun {
            try PlayerRun(arguments: ["play", name, "--output", "headless", "--control", "none", "--input", "none"],
                          in: folder, environment: ["STATE_DIRECTORY": state.path])
        }
        func shown(_ events: [[String: Any]]) -> [[String: Any]] {
            events.filter { $0["event"] as? String == "frame" && $0["dropped"] == nil }
        }
        let first = try play()
        // Right into its second item, left 1.2 s into its only one.
        #expect(first.waitForEvents(seconds: 30) { _ in
            shown(first.events(ofScreen: "right")).contains { ($0["item"] as? Int) == 1 && ($0["pts"] as? Double ?? 0) >= 0.4 }
                && shown(first.events()).contains { ($0["pts"] as? Double ?? 0) >= 1.2 }
        })
        #expect(first.terminate() == 0)
        func saved(_ file: String) throws -> (index: Int, time: Double) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: state.appendingPathComponent(file))) as? [String: Any])
            return (try #require(object["index"] as? Int), try #require(object["time"] as? Double))
        }
        let left = try saved("position.json"), right = try saved("position-right.json")
        let lastLeft = try #require(shown(first.events()).last), lastRight = try #require(shown(first.events(ofScreen: "right")).last)
        #expect(abs(left.time - (lastLeft["pts"] as? Double ?? -1)) < 0.001, "\(left) \(lastLeft)")
        #expect(right.index == lastRight["item"] as? Int && abs(right.time - (lastRight["pts"] as? Double ?? -1)) < 0.001, "\(right) \(lastRight)")

        let second = try play()
        #expect(second.waitForEvents(seconds: 30) { _ in !shown(second.events()).isEmpty && !shown(second.events(ofScreen: "right")).isEmpty })
        #expect(second.terminate() == 0)
        let resumedLeft = try #require(shown(second.events()).first), resumedRight = try #require(shown(second.events(ofScreen: "right")).first)
        // Within a frame (25 fps) of each screen's own saved point.
        #expect(resumedLeft["item"] as? Int == left.index && abs((resumedLeft["pts"] as? Double ?? -1) - left.time) < 0.041, "\(resumedLeft) \(left)")
        #expect(resumedRight["item"] as? Int == right.index && abs((resumedRight["pts"] as? Double ?? -1) - right.time) < 0.041,
                "\(resumedRight) \(right)")
        #expect(second.standardError().contains("screen right: resume: item \(right.index + 1)/2 at"), "\(second.standardError())")
    }

    /// Plays left (left.mp4 at 320x180), right (right.mp4 at 200x200) and copy (right's mirror at
    /// 64x64) with a control socket, once both playing screens show a frame; `config` is its file,
    /// for the caller to remove.
    static func playThreeScreens() throws -> (player: ControlledPlayer, config: URL) {
        let folder = try workspace.get()
        let name = "three-\(UUID().uuidString).yaml"
        try Data("""
            displays:
              - {name: left, connector: HDMI-A-1, mode: 320x180, playlist: {items: [left.mp4]}}
              - {name: right, connector: HDMI-A-2, mode: 200x200, playlist: {items: [right.mp4]}}
              - {name: copy, connector: DP-1, mode: 64x64, mirror: right}
            """.utf8).write(to: folder.appendingPathComponent(name))
        let player = try ControlledPlayer(arguments: ["play", name, "--output", "headless", "--audio", "null", "--input", "none"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { _ in
            player.run.events().contains { $0["event"] as? String == "frame" } && player.run.events(ofScreen: "right").contains { $0["event"] as? String == "frame" }
        })
        return (player, folder.appendingPathComponent(name))
    }

    /// `screenshot` takes a `screen`: each screen of `displays:` by its name, a mirror as its
    /// source's picture, the main one without it; an unknown name is refused, naming the screens.
    @Test func aScreenshotNamesItsScreen() throws {
        let (player, config) = try Self.playThreeScreens()
        defer { try? FileManager.default.removeItem(at: config) }
        func size(_ request: [String: Any]) throws -> String {
            let reply = try player.request(request)
            return reply["ok"] as? Bool == true ? "\(reply["width"] as? Int ?? 0)x\(reply["height"] as? Int ?? 0)" : "refused: \(reply["error"] as? String ?? "")"
        }
        #expect(try size(["command": "screenshot"]) == "320x180")
        #expect(try size(["command": "screenshot", "screen": "left"]) == "320x180")
        #expect(try size(["command": "screenshot", "screen": "right"]) == "200x200")
        #expect(try size(["command": "screenshot", "screen": "copy"]) == "200x200")
        #expect(try size(["command": "screenshot", "screen": "nowhere"]) == "refused: no screen 'nowhere' (screens: left, right, copy)")
        #expect(player.run.terminate() == 0)
    }

    /// Any request about what one screen plays takes a `screen`: `status`, a playback command and a
    /// seek go to that screen's player alone (a mirror's being its source's), over the socket and
    /// through `marquee ctl --screen`; requests for the whole player refuse one.
    @Test func requestsNameTheScreenTheyAreFor() throws {
        let (player, config) = try Self.playThreeScreens()
        defer { try? FileManager.default.removeItem(at: config) }
        let folder = config.deletingLastPathComponent()
        func status(_ screen: String?) throws -> (size: String, url: String, state: String) {
            var request: [String: Any] = ["command": "status"]
            request["screen"] = screen
            let reply = try player.request(request)
            let size = reply["screenSize"] as? [String: Any]
            let item = reply["item"] as? [String: Any]
            return ("\(size?["width"] as? Int ?? 0)x\(size?["height"] as? Int ?? 0)",
                    URL(fileURLWithPath: item?["url"] as? String ?? "").lastPathComponent, reply["state"] as? String ?? "\(reply)")
        }
        #expect(try status(nil) == ("320x180", "left.mp4", "playing"))
        #expect(try status("left") == ("320x180", "left.mp4", "playing"))
        #expect(try status("right") == ("200x200", "right.mp4", "playing"))
        #expect(try status("copy") == ("200x200", "right.mp4", "playing"))

        // An observer and a subscription follow the screen named: the right screen loops a 1 s item
        // (the left one a 2 s item), so its positions stay under 1 s, and its pause is heard.
        let observer = try player.request(["command": "observe", "every": 0.2, "screen": "right"])
        let observerID = try #require(observer["observer"] as? Int, "\(observer)")
        #expect(try player.request(["command": "subscribe", "events": ["playbackStateChanged"], "screen": "right"])["ok"] as? Bool == true)
        #expect(player.waitForPushed(seconds: 10) { pushed in pushed.filter { $0["observer"] as? Int == observerID }.count >= 12 })
        let positions = player.pushed.filter { $0["observer"] as? Int == observerID }.compactMap { $0["position"] as? Double }
        #expect(positions.count >= 12 && positions.allSatisfy { $0 < 1 }, "\(positions)")

        // Paused through its mirror's name: the right screen pauses, the left plays on.
        #expect(try player.request(["command": "pause", "screen": "copy"])["ok"] as? Bool == true)
        #expect(player.waitForPushed(seconds: 10) { pushed in
            pushed.contains { $0["event"] as? String == "playbackStateChanged" && $0["state"] as? String == "paused" }
        })
        #expect(try status("right").state == "paused")
        #expect(try status(nil).state == "playing")
        #expect(!player.run.events().contains { $0["event"] as? String == "playbackStateChanged" && $0["state"] as? String == "paused" })
        // A seek on the paused screen is answered when its frame is up there.
        let seek = try player.request(["command": "seek", "to": 0.5, "screen": "right"])
        #expect(seek["ok"] as? Bool == true && seek["finished"] as? Bool == true, "\(seek)")
        // The event comes through the screen's events file, written after the reply.
        #expect(player.run.waitForEvents(seconds: 5) { _ in player.run.events(ofScreen: "right").contains { $0["event"] as? String == "timeJumped" } })
        #expect(!player.run.events().contains { $0["event"] as? String == "timeJumped" })

        // marquee ctl --screen, the same request from the command line.
        let ctl = try MarqueeProcess.run(["ctl", "--socket", player.socketPath, "--screen", "right", "--json", "status"], in: folder)
        let ctlStatus = try JSONSerialization.jsonObject(with: Data(ctl.standardOutput.utf8)) as? [String: Any]
        #expect(ctl.status == 0 && ctlStatus?["state"] as? String == "paused" && (ctlStatus?["screenSize"] as? [String: Any])?["width"] as? Int == 200,
                "\(ctl)")
        let played = try MarqueeProcess.run(["ctl", "--socket", player.socketPath, "--screen", "right", "play"], in: folder)
        #expect(played.status == 0, "\(played)")
        #expect(player.run.waitForEvents(seconds: 10) { _ in
            player.run.events(ofScreen: "right").last { $0["event"] as? String == "playbackStateChanged" }?["state"] as? String == "playing"
        })

        func refusal(_ request: [String: Any]) throws -> String {
            let reply = try player.request(request)
            return reply["ok"] as? Bool == false ? reply["error"] as? String ?? "" : "accepted: \(reply)"
        }
        #expect(try refusal(["command": "status", "screen": "middle"]) == "no screen 'middle' (screens: left, right, copy)")
        #expect(try refusal(["command": "quit", "screen": "right"]) == "quit ends the whole player, every screen with it; leave 'screen' out")
        let reload = try MarqueeProcess.run(["ctl", "--socket", player.socketPath, "--screen", "right", "reload"], in: folder)
        #expect(reload.status == 1 && reload.standardError.contains("reload reads the config of every screen again; leave 'screen' out"), "\(reload)")
        #expect(player.run.process.isRunning)
        #expect(player.run.terminate() == 0)
    }

    /// A reload (SIGHUP) hands every screen its playlist from the file: the right screen, whose
    /// playlist changed, plays its new item from the end of the one on screen; the left, whose
    /// playlist is the same, plays on; no restart is asked for.
    @Test func aReloadChangesEveryScreensPlaylist() throws {
        let folder = try Self.workspace.get()
        let name = "reload-\(UUID().uuidString).yaml"
        let config = folder.appendingPathComponent(name)
        defer { try? FileManager.default.removeItem(at: config) }
        func write(right: String) throws {
            try Data("""
                displays:
                  - {name: left, connector: HDMI-A-1, mode: 320x180, playlist: {items: [left.mp4]}}
                  - {name: right, connector: HDMI-A-2, mode: 200x200, playlist: {items: [\(right)]}}
                """.utf8).write(to: config)
        }
        try write(right: "right.mp4")
        let run = try PlayerRun(arguments: ["play", name, "--output", "headless", "--audio", "null", "--input", "none", "--control", "none"], in: folder)
        #expect(run.waitForEvents(seconds: 30) { _ in run.events(ofScreen: "right").contains { $0["event"] as? String == "frame" } })
        try write(right: "right2.webm")
        kill(run.process.processIdentifier, SIGHUP)
        func started(_ events: [[String: Any]]) -> [String] {
            events.filter { $0["event"] as? String == "itemStarted" }.compactMap { ($0["url"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
        }
        #expect(run.waitForEvents(seconds: 20) { _ in started(run.events(ofScreen: "right")).contains("right2.webm") }, "\(run.standardError())")
        #expect(run.standardError().contains("screen right: reload: 1 item from the end of the item on screen"), "\(run.standardError())")
        #expect(!run.standardError().contains("not applied until marquee restarts"), "\(run.standardError())")
        #expect(Set(started(run.events())) == ["left.mp4"])
        #expect(run.terminate() == 0)
    }

    @Test func twoScreensPlayTheirOwnPlaylistsAtOnceGapless() throws {
        let folder = try Self.workspace.get()
        let run = try PlayerRun(arguments: ["play", "screens.yaml", "--output", "headless", "--clock", "fast", "--exit-when-idle",
                                            "--control", "none", "--input", "none"], in: folder)
        #expect(run.waitForExit(seconds: 60) == 0, "\(run.standardError())")

        let left = run.events(), right = run.events(ofScreen: "right")
        func urls(_ events: [[String: Any]]) -> [String] {
            events.filter { $0["event"] as? String == "itemStarted" }.compactMap { ($0["url"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } }
        }
        #expect(urls(left) == ["left.mp4"])
        #expect(urls(right) == ["right.mp4", "right2.webm"])
        // Each screen's timeline has no gap and no repeat: frame n at n/25 s, across its items.
        for (name, events, count) in [("left", left, 50), ("right", right, 50)] {
            let times = events.filter { $0["event"] as? String == "frame" && $0["dropped"] == nil }.compactMap { $0["time"] as? Double }
            #expect(times.count == count, "\(name): \(times.count) frames")
            #expect(times.enumerated().allSatisfy { abs($1 - Double($0) * Self.frame) < 0.0005 }, "\(name): \(times)")
        }
        // The other screen's journal lines say whose they are.
        #expect(run.standardError().contains("screen right: item 2/2 started"), "\(run.standardError())")
    }

    @Test func checkAcceptsTheScreensAndNamesAMistake() throws {
        let folder = try Self.workspace.get()
        let text = try String(contentsOf: folder.appendingPathComponent("screens.yaml"), encoding: .utf8)
        try Data(text.replacingOccurrences(of: "mirror: right", with: "mirror: middle").utf8)
            .write(to: folder.appendingPathComponent("bad-screens.yaml"))
        let good = try MarqueeProcess.run(["check", "screens.yaml"], in: folder)
        #expect(good.status == 0, "\(good.standardError)")
        let bad = try MarqueeProcess.run(["check", "bad-screens.yaml"], in: folder)
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("bad-screens.yaml:17:13: error: screen 'copy' mirrors an unknown screen 'middle' (expected 'left' or 'right')")
                || bad.standardOutput.contains("bad-screens.yaml:17:13: error: screen 'copy' mirrors an unknown screen 'middle' (expected 'left' or 'right')"),
                "\(bad.standardOutput)\(bad.standardError)")
    }
}
