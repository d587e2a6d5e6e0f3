import Foundation
import Testing

/// The config is watched while playing: a write that settles after a SIGHUP (a file written in place
/// in two parts) or with no SIGHUP at all (a file renamed into place) is read again, and the last
/// settled content plays.
@Suite(.serialized) struct ConfigWatchTests {
    private func startPlaying(_ config: URL, in folder: URL) throws -> PlayerRun {
        try Data("playlist:\n  repeat: all\n  items: [a.mp4]\n".utf8).write(to: config)
        let run = try PlayerRun(arguments: ["play", config.path, "--output", "headless:320x180", "--audio", "null", "--input", "none"],
                                in: folder)
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })
        return run
    }

    /// Writes `text` into the existing file (same inode): truncated first when `truncating`, else
    /// appended. Each close is one IN_CLOSE_WRITE.
    private func writeInPlace(_ text: String, to config: URL, truncating: Bool) throws {
        let handle = try FileHandle(forWritingTo: config)
        if truncating { try handle.truncate(atOffset: 0) } else { try handle.seekToEnd() }
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    private func started(_ name: String) -> ([[String: Any]]) -> Bool {
        { events in events.contains { $0["event"] as? String == "itemStarted" && ($0["url"] as? String)?.hasSuffix(name) == true } }
    }

    @Test func aConfigFinishedASecondAfterItsSIGHUPIsReadAgainWhole() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = folder.appendingPathComponent("watch-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try startPlaying(config, in: folder)

        // The first 4 lines are a valid 1-item playlist on their own.
        try writeInPlace("playlist:\n  repeat: all\n  items:\n    - silent.mp4\n", to: config, truncating: true)
        kill(run.process.processIdentifier, SIGHUP)
        Thread.sleep(forTimeInterval: 1)
        try writeInPlace("    - b.webm\n    - still.png\n", to: config, truncating: false)

        // a.mp4 (2 s) ends, then the whole new list: silent.mp4, b.webm.
        #expect(run.waitForEvents(seconds: 20, until: started("b.webm")))
        #expect(run.terminate() == 0)
        let events = run.events()
        let replaced = events.filter { $0["event"] as? String == "queueReplaced" }.compactMap { $0["items"] as? Int }
        #expect(replaced.last == 3, "\(replaced)")
        let fromFile = events.filter { $0["event"] as? String == "command" && $0["source"] as? String == "file" }
        #expect(!fromFile.isEmpty && fromFile.allSatisfy { $0["command"] as? String == "reload" && $0["path"] as? String == config.path })
        #expect(run.standardError().contains("info: command reload from file \(config.path)"))
    }

    @Test func aConfigRenamedIntoPlaceIsReadWithoutASignal() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = folder.appendingPathComponent("watch-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try startPlaying(config, in: folder)

        let temporary = folder.appendingPathComponent(".\(config.lastPathComponent).tmp")
        try Data("playlist:\n  repeat: all\n  items: [silent.mp4, b.webm]\n".utf8).write(to: temporary)
        #expect(rename(temporary.path, config.path) == 0)

        #expect(run.waitForEvents(seconds: 20, until: started("silent.mp4")))
        #expect(run.terminate() == 0)
        let events = run.events()
        #expect(events.contains { $0["event"] as? String == "queueReplaced" && $0["items"] as? Int == 2 })
        let reloads = events.filter { $0["event"] as? String == "command" && $0["command"] as? String == "reload" }
        #expect(!reloads.isEmpty && reloads.allSatisfy { $0["source"] as? String == "file" }, "\(reloads)")
    }

    /// `/etc/marquee/marquee.yaml -> /data/screens/lobby.yaml`: the target edited where it lives is
    /// read again (only the link's folder was watched, for the link's name: the edit went unseen).
    @Test func aSymlinkedConfigIsReadAgainWhenItsTargetIsEdited() throws {
        let folder = try PlayCommandTests.workspace.get()
        let targets = folder.appendingPathComponent("screens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: targets, withIntermediateDirectories: true)
        let target = targets.appendingPathComponent("lobby.yaml")
        let link = folder.appendingPathComponent("watch-\(UUID().uuidString).yaml")
        defer {
            try? FileManager.default.removeItem(at: link)
            try? FileManager.default.removeItem(at: targets)
        }
        // The media are named relative to the config's own folder: the link's (where marquee found it).
        try Data("playlist:\n  repeat: all\n  items: [\(folder.path)/a.mp4]\n".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let run = try PlayerRun(arguments: ["play", link.path, "--output", "headless:320x180", "--audio", "null", "--input", "none"],
                                in: folder)
        #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } })

        try writeInPlace("playlist:\n  repeat: all\n  items: [\(folder.path)/silent.mp4, \(folder.path)/b.webm]\n", to: target,
                         truncating: true)

        #expect(run.waitForEvents(seconds: 20, until: started("silent.mp4")))
        #expect(run.terminate() == 0)
        #expect(run.events().contains { $0["event"] as? String == "queueReplaced" && $0["items"] as? Int == 2 })
    }

    @Test func aConfigCutMidLineIsRejectedThenTakenWhenItsRestIsWritten() throws {
        let folder = try PlayCommandTests.workspace.get()
        let config = folder.appendingPathComponent("watch-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try startPlaying(config, in: folder)

        try writeInPlace("playlist:\n  repeat: sometimes\n  items: [silent.mp4", to: config, truncating: true)
        let deadline = Date().addingTimeInterval(10)
        while !run.standardError().contains("rejected") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(run.standardError().contains("error: reload: \(config.path) rejected"), "\(run.standardError())")
        try writeInPlace("playlist:\n  repeat: all\n  items: [silent.mp4, b.webm]\n", to: config, truncating: true)

        #expect(run.waitForEvents(seconds: 20, until: started("silent.mp4")))
        #expect(run.terminate() == 0)
        #expect(run.events().contains { $0["event"] as? String == "queueReplaced" && $0["items"] as? Int == 2 })
    }
}
