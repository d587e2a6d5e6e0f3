import Foundation
import MarqueeControl
import Testing

/// The on-screen display end to end: the real `marquee play` (headless, 1280x720) draws the labels
/// and the status card into its picture; the control socket's screenshot reads the picture back
/// and tesseract reads the text on it.
@Suite(.serialized) struct OSDCLITests {
    /// The text tesseract reads in a screenshot the player writes to `name`. With `labels`, only
    /// the lower part of the screen where the panel sits, made grey, inverted and doubled by ffmpeg:
    /// tesseract reads dark text on light, and a test picture's colour bars show through the panel.
    static func readScreen(_ player: ControlledPlayer, folder: URL, name: String, labels: Bool = false, screen: String? = nil) throws -> String {
        let png = try screenshot(player, folder: folder, name: name, screen: screen)
        guard labels else { return try ocr(png, pageSegmentation: 6) }
        let prepared = folder.appendingPathComponent("ocr-" + name).path
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", png,
                            "-vf", "crop=iw:ih*0.4:0:ih*0.6,scale=iw*2:ih*2,format=gray,negate", prepared]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        return try ocr(prepared, pageSegmentation: 11)
    }

    /// A screenshot (of `screen` of `displays:`, else the main one) written to `name` in `folder`; its path.
    static func screenshot(_ player: ControlledPlayer, folder: URL, name: String, screen: String? = nil) throws -> String {
        let path = folder.appendingPathComponent(name).path
        var request: [String: Any] = ["command": "screenshot"]
        request["screen"] = screen
        let reply = try player.request(request)
        guard reply["ok"] as? Bool == true, let png = (reply["png"] as? String).flatMap({ Data(base64Encoded: $0) }) else {
            throw ControlSocketError("screenshot failed: \(reply.filter { $0.key != "png" })")
        }
        try png.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func ocr(_ png: String, pageSegmentation: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tesseract", png, "stdout", "--psm", "\(pageSegmentation)"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ControlSocketError("tesseract failed on \(png) (is tesseract-ocr installed?)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The pixels two screenshots (PNG files) differ in, both decoded to raw RGB by ffmpeg.
    static func differingPixels(_ a: String, _ b: String) throws -> Int {
        let first = try CLIFixtures.rgb(ofImage: a), second = try CLIFixtures.rgb(ofImage: b)
        guard first.count == second.count, !first.isEmpty else { return -1 }
        var differing = 0
        for offset in stride(from: 0, to: first.count, by: 3) where first[offset..<(offset + 3)] != second[offset..<(offset + 3)] {
            differing += 1
        }
        return differing
    }

    func player(config: String, named name: String, in folder: URL) throws -> ControlledPlayer {
        try config.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return try ControlledPlayer(arguments: ["play", name, "--output", "headless:1280x720"], in: folder)
    }

    /// A pause (a transport command from the control socket) brings up the labels: the title, the
    /// index, the position and duration, the remaining time and the repeat mode are read back, and
    /// the position read matches the player's to within a second.
    @Test func theLabelsAfterACommandAreReadBackFromTheScreen() throws {
        let folder = try PlayCommandTests.workspace.get()
        let player = try player(config: """
            playlist:
              repeat: all
              items:
                - url: a.mp4
                  title: Lobby Loop
                - url: silent.mp4
            osd:
              duration: 30
            """, named: "osd-labels.yaml", in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        _ = try player.request(["command": "pause"])
        #expect(player.run.waitForEvents { $0.contains { $0["event"] as? String == "playbackStateChanged" && $0["state"] as? String == "paused" } })
        // The pause lands between frames and the labels are drawn on the still picture right after.
        Thread.sleep(forTimeInterval: 0.3)
        let text = try Self.readScreen(player, folder: folder, name: "osd-labels.png", labels: true)
        let status = try player.status()
        let position = (status["item"] as? [String: Any])?["position"] as? Double ?? -1
        #expect(text.contains("Lobby Loop"), "\(text)")
        #expect(text.contains("1/2"), "\(text)")
        #expect(text.contains("0:02"), "the duration: \(text)")
        #expect(text.lowercased().contains("repeat"), "\(text)")
        #expect(text.contains("-0:0"), "the remaining time: \(text)")
        let read = text.firstMatch(of: /(\d+):(\d\d) \/ 0:02/).map { Double(Int($0.1)! * 60 + Int($0.2)!) }
        #expect(read.map { abs($0 - position) <= 1 } == true, "read \(String(describing: read)) against \(position): \(text)")
        #expect(player.run.terminate() == 0)
    }

    /// With `displays:` every screen playing a playlist has its own labels: a pause sent to the
    /// right screen brings up its item's title there, and the left screen, sent nothing, shows none.
    @Test func everyScreenHasItsOwnLabels() throws {
        let folder = try PlayCommandTests.workspace.get()
        try """
            displays:
              - name: left
                connector: HDMI-A-1
                mode: 1280x720
                playlist: {items: [{url: a.mp4, title: Lobby Loop}]}
              - name: right
                connector: HDMI-A-2
                mode: 1280x720
                playlist: {items: [{url: silent.mp4, title: Garden Door}]}
            osd:
              duration: 30
            """.write(to: folder.appendingPathComponent("osd-screens.yaml"), atomically: true, encoding: .utf8)
        let player = try ControlledPlayer(arguments: ["play", "osd-screens.yaml", "--output", "headless", "--audio", "null", "--input", "none"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { _ in
            player.run.events().contains { $0["event"] as? String == "frame" } && player.run.events(ofScreen: "right").contains { $0["event"] as? String == "frame" }
        })
        #expect(try player.request(["command": "pause", "screen": "right"])["ok"] as? Bool == true)
        #expect(player.run.waitForEvents { _ in
            player.run.events(ofScreen: "right").contains { $0["event"] as? String == "playbackStateChanged" && $0["state"] as? String == "paused" }
        })
        Thread.sleep(forTimeInterval: 0.3)
        let right = try Self.readScreen(player, folder: folder, name: "osd-right.png", labels: true, screen: "right")
        #expect(right.contains("Garden Door"), "\(right)")
        #expect(right.contains("1/1"), "\(right)")
        let left = try Self.readScreen(player, folder: folder, name: "osd-left.png", labels: true, screen: "left")
        #expect(!left.contains("Lobby") && !left.contains("Garden"), "\(left)")
        #expect(player.run.standardError().contains("screen right: osd: blended into the picture"), "\(player.run.standardError())")
        #expect(player.run.terminate() == 0)
    }

    /// A still held for a minute with `osd` settings (YAML lines under `osd:`): screenshots of it
    /// before a `setRepeat` command and 0.3 s after it, as `NAME-0.png` and `NAME-1.png`.
    func stillAroundACommand(osd: String, named name: String, in folder: URL) throws
        -> (player: ControlledPlayer, before: String, after: String) {
        let player = try player(config: """
            playlist:
              items:
                - url: still.png
                  duration: 60
            osd:
            \(osd)
            """, named: "\(name).yaml", in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        let before = try Self.screenshot(player, folder: folder, name: "\(name)-0.png")
        _ = try player.request(["command": "setRepeat", "mode": "all"])
        Thread.sleep(forTimeInterval: 0.3)
        return (player, before, try Self.screenshot(player, folder: folder, name: "\(name)-1.png"))
    }

    /// The labels go after `osd.duration` (the fade included): the still picture is what it was
    /// before the command, pixel for pixel.
    @Test func theLabelsFadeAndLeaveThePictureAsItWas() throws {
        let folder = try PlayCommandTests.workspace.get()
        let (player, before, during) = try stillAroundACommand(osd: "  duration: 1", named: "osd-fade", in: folder)
        Thread.sleep(forTimeInterval: 1.2)
        let after = try Self.screenshot(player, folder: folder, name: "osd-fade-2.png")
        let shown = try Self.differingPixels(before, during)
        #expect(shown > 20_000, "the panel covers a good part of the screen: \(shown) pixels changed")
        #expect(try Self.differingPixels(before, after) == 0)
        #expect(player.run.terminate() == 0)
    }

    /// A playlist of broken files: the status card names each one with its cause, and says where
    /// the device is and what runs on it.
    @Test func everyItemFailingShowsTheStatusCardNamingTheFiles() throws {
        let folder = try PlayCommandTests.workspace.get()
        let player = try player(config: """
            playlist:
              items:
                - url: missing-lobby.mp4
                - url: empty.mp4
            """, named: "osd-card.yaml", in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { events in
            events.contains { ($0["message"] as? String)?.hasPrefix("every item failed") == true }
        })
        Thread.sleep(forTimeInterval: 0.3)
        let text = try Self.readScreen(player, folder: folder, name: "osd-card.png")
        #expect(text.contains("missing-lobby.mp4"), "\(text)")
        #expect(text.contains("empty.mp4"), "\(text)")
        #expect(text.contains("Nothing can be played"), "\(text)")
        #expect(text.contains("marquee 0."), "the version: \(text)")
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count)
        let hostname = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(text.contains(hostname), "the hostname \(hostname): \(text)")

        // The file arrives: the next round plays it and the card goes.
        let arrived = folder.appendingPathComponent("missing-lobby.mp4")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("a.mp4"), to: arrived)
        defer { try? FileManager.default.removeItem(at: arrived) }
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        Thread.sleep(forTimeInterval: 0.3)
        let playing = try Self.readScreen(player, folder: folder, name: "osd-card-gone.png")
        #expect(!playing.contains("Nothing can be played"), "\(playing)")
        #expect(player.run.terminate() == 0)
    }

    /// `osd.enabled: false` and `osd.statusCard: false`: a command leaves the picture as it is.
    @Test func aDisabledOSDDrawsNothing() throws {
        let folder = try PlayCommandTests.workspace.get()
        let (player, before, after) = try stillAroundACommand(osd: "  enabled: false\n  statusCard: false", named: "osd-off", in: folder)
        #expect(try Self.differingPixels(before, after) == 0)
        #expect(player.run.terminate() == 0)
    }
}
