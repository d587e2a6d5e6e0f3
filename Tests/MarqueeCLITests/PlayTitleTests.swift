import Foundation
import Testing

/// Config `title:` and M3U `#EXTINF` titles, as an operator sees them: in the itemStarted event,
/// the journal line, the terminal's status line and systemd's STATUS=.
@Suite(.serialized) struct PlayTitleTests {
    /// What one run on a pseudo-terminal (util-linux's `script`) under a notify socket showed.
    struct Seen {
        let starts: [[String: Any]]
        let terminal: String
        let statuses: [String]
        /// The terminal's pieces between "return to line start and clear it": each status redraw
        /// and each log line starts one.
        var redraws: [Substring] { terminal.components(separatedBy: "\r\u{1B}[K").dropFirst().map { Substring($0) } }
    }

    private func play(_ config: String, named name: String) throws -> Seen {
        let folder = try PlayCommandTests.workspace.get()
        let stamp = UUID().uuidString
        let configURL = folder.appendingPathComponent("\(stamp)-\(name)")
        let events = folder.appendingPathComponent("titles-\(stamp).jsonl")
        let transcript = folder.appendingPathComponent("titles-\(stamp).txt")
        try Data(config.utf8).write(to: configURL)
        defer { for file in [configURL, events, transcript] { try? FileManager.default.removeItem(at: file) } }
        let socket = try NotifySocket()
        defer { socket.close() }
        let marquee = try MarqueeProcess.executable().path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", "\(marquee) play \(configURL.path) --output headless:320x180 --clock fast --audio null --input none"
                                + " --exit-when-idle --repeat off --events \(events.path)", transcript.path]
        process.currentDirectoryURL = folder
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": socket.name]) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = try Data(contentsOf: events).split(separator: UInt8(ascii: "\n"))
            .compactMap { try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        _ = socket.wait(seconds: 5) { $0.contains { $0.text == "STOPPING=1" } }
        let statuses = socket.messages.flatMap { $0.text.split(separator: "\n") }.filter { $0.hasPrefix("STATUS=") }.map(String.init)
        return Seen(starts: lines.filter { $0["event"] as? String == "itemStarted" },
                    terminal: try String(contentsOf: transcript, encoding: .utf8), statuses: statuses)
    }

    private func expectTitled(_ seen: Seen, title: String) throws {
        let folder = try PlayCommandTests.workspace.get()
        // The titled item (a.mp4) and the untitled one after it (silent.mp4), which keeps its file name.
        #expect(seen.starts.map { $0["index"] as? Int } == [0, 1])
        #expect(seen.starts.first?["title"] as? String == title, "\(seen.starts)")
        #expect(seen.starts.last?["title"] == nil, "\(seen.starts)")
        let aURL = "\(folder.path)/a.mp4", silentURL = "\(folder.path)/silent.mp4"
        #expect(seen.redraws.contains { $0.hasPrefix("info: item 1/2 started: \(title) (\(aURL))\r\n") }, "\(seen.terminal)")
        #expect(seen.redraws.contains { $0.hasPrefix("info: item 2/2 started: \(silentURL)\r\n") }, "\(seen.terminal)")
        #expect(seen.redraws.contains { $0.hasPrefix("▶ 1/2 \(title)  ") }, "\(seen.terminal)")
        #expect(seen.redraws.contains { $0.hasPrefix("▶ 2/2 silent.mp4  ") }, "\(seen.terminal)")
        #expect(seen.statuses.contains("STATUS=playing item 1/2 \(title)"), "\(seen.statuses)")
        #expect(seen.statuses.contains("STATUS=playing item 2/2 silent.mp4"), "\(seen.statuses)")
    }

    @Test func aConfigTitleReachesTheEventTheJournalAndTheStatusLines() throws {
        let seen = try play("""
            playlist:
              items:
                - url: a.mp4
                  title: Welcome Reel
                - silent.mp4
            """, named: "titles.yaml")
        try expectTitled(seen, title: "Welcome Reel")
    }

    @Test func anM3UTitleReachesTheEventTheJournalAndTheStatusLines() throws {
        let seen = try play("#EXTM3U\n#EXTINF:2,Lobby Loop\na.mp4\nsilent.mp4\n", named: "titles.m3u")
        try expectTitled(seen, title: "Lobby Loop")
    }
}
