import Foundation
import Testing

/// A restart resumes where the last run stopped: after SIGTERM at the frame on screen then, after
/// kill -9 at the position saved last (at most 2 s old); a changed config starts from the top.
@Suite(.serialized) struct ResumeCLITests {
    struct Saved {
        var index: Int
        var time: Double
    }

    static func saved(in state: URL) throws -> Saved {
        let data = try Data(contentsOf: state.appendingPathComponent("position.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return Saved(index: try #require(object["index"] as? Int), time: try #require(object["time"] as? Double))
    }

    /// The first frame a run shows: its item and source time.
    static func firstFrame(_ run: PlayerRun) -> (item: Int, pts: Double)? {
        guard let frame = run.events().first(where: { $0["event"] as? String == "frame" && $0["dropped"] == nil }),
              let item = frame["item"] as? Int, let pts = frame["pts"] as? Double else { return nil }
        return (item, pts)
    }

    private func play(_ config: String, state: URL, in folder: URL) throws -> PlayerRun {
        try PlayerRun(arguments: ["play", config, "--output", "headless:160x90", "--audio", "null", "--control", "none"],
                      in: folder, environment: ["STATE_DIRECTORY": state.path])
    }

    /// A state folder and a config file of the test's own in the shared media workspace.
    struct Scratch {
        let folder: URL
        let state: URL
        let name: String
        var config: URL { folder.appendingPathComponent(name) }

        init(_ yaml: String, prefix: String) throws {
            folder = try PlayCommandTests.workspace.get()
            state = folder.appendingPathComponent("resume-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            name = "\(prefix)-\(UUID().uuidString).yaml"
            try Data(yaml.utf8).write(to: folder.appendingPathComponent(name))
        }

        func remove() {
            try? FileManager.default.removeItem(at: state)
            try? FileManager.default.removeItem(at: config)
        }
    }

    private func framesShown(_ run: PlayerRun, atLeast count: Int) -> Bool {
        run.waitForEvents(seconds: 30) { events in events.filter { $0["event"] as? String == "frame" && ($0["item"] as? Int) == 1 }.count >= count }
    }

    @Test func aQuitAndAKillBothResumeAtTheSavedFrameAndANewConfigStartsOver() throws {
        let scratch = try Scratch("playlist:\n  items: [b.webm, a.mp4]\n", prefix: "resume")
        defer { scratch.remove() }
        let (folder, state, name, config) = (scratch.folder, scratch.state, scratch.name, scratch.config)

        // SIGTERM half a second into the second item: the position is the frame on screen at the quit.
        let first = try play(name, state: state, in: folder)
        #expect(framesShown(first, atLeast: 12))
        #expect(first.terminate() == 0)
        let lastShown = try #require(first.events().last { $0["event"] as? String == "frame" && $0["dropped"] == nil })
        let quit = try Self.saved(in: state)
        #expect(quit.index == 1 && abs(quit.time - (lastShown["pts"] as? Double ?? -1)) < 0.001, "\(quit) \(lastShown)")

        let second = try play(name, state: state, in: folder)
        #expect(second.waitForEvents(seconds: 20) { $0.contains { $0["event"] as? String == "frame" } })
        let resumed = try #require(Self.firstFrame(second))
        // Within a frame (25 fps) of the saved point.
        #expect(resumed.item == 1 && abs(resumed.pts - quit.time) < 0.04 + 0.001, "\(resumed) \(quit)")
        // Up as soon as it is decoded, not after waiting the saved time out.
        let firstFrameAt = second.events().first { $0["event"] as? String == "frame" }?["t"] as? Double ?? 99
        #expect(firstFrameAt < quit.time - 0.2 || firstFrameAt < 0.4, "first frame at \(firstFrameAt) s for a resume at \(quit.time) s")
        #expect(second.standardError().contains("resume: item 2/2 at"))
        let starts = second.events().filter { $0["event"] as? String == "itemStarted" }
        #expect((starts.first?["index"] as? Int) == 1)

        // kill -9 a second and more into the second item: the last save (every 2 s) is where it resumes.
        #expect(second.waitForEvents(seconds: 30) { events in
            events.contains { $0["event"] as? String == "itemStarted" && ($0["index"] as? Int) == 0 }
                && events.last(where: { $0["event"] as? String == "frame" }).map { ($0["item"] as? Int) == 1 && ($0["pts"] as? Double ?? 0) > 1.2 } == true
        })
        Thread.sleep(forTimeInterval: 2.2)
        kill(second.process.processIdentifier, SIGKILL)
        second.process.waitUntilExit()
        let killed = try Self.saved(in: state)
        let third = try play(name, state: state, in: folder)
        #expect(third.waitForEvents(seconds: 20) { $0.contains { $0["event"] as? String == "frame" } })
        let afterKill = try #require(Self.firstFrame(third))
        #expect(afterKill.item == killed.index && abs(afterKill.pts - killed.time) < 0.041, "\(afterKill) \(killed)")
        // The closing figures: how far the first frame after each restart is from the saved point.
        print(String(format: "resume: after SIGTERM the first frame is %.1f ms from the saved point, after kill -9 %.1f ms",
                     (resumed.pts - quit.time) * 1000, (afterKill.pts - killed.time) * 1000))
        #expect(third.terminate() == 0)

        // Another config: from the top, said once.
        try Data("playlist:\n  items: [a.mp4, b.webm]\n".utf8).write(to: config)
        let fourth = try play(name, state: state, in: folder)
        #expect(fourth.waitForEvents(seconds: 20) { $0.contains { $0["event"] as? String == "frame" } })
        let top = try #require(Self.firstFrame(fourth))
        #expect(top.item == 0 && top.pts < 0.001)
        #expect(fourth.standardError().contains("resume: the config changed since the position was saved"))
        #expect(fourth.terminate() == 0)
    }

    @Test func resumeFalseStartsFromTheTop() throws {
        let scratch = try Scratch("resume: false\nplaylist:\n  items: [b.webm, a.mp4]\n", prefix: "resume-off")
        defer { scratch.remove() }
        let (folder, state, name) = (scratch.folder, scratch.state, scratch.name)
        let first = try play(name, state: state, in: folder)
        #expect(framesShown(first, atLeast: 5))
        #expect(first.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("position.json").path))
    }

    /// With a timetable the position names its daypart: a restart in the same daypart resumes at
    /// the saved item of that daypart's playlist; a position saved in another daypart starts the
    /// daypart on now from its top, said once.
    @Test func aTimetableResumesInTheDaypartItWasSavedIn() throws {
        // One daypart all day and every day, so the test never meets a boundary.
        let scratch = try Scratch("""
            schedule:
              timezone: UTC
            playlists:
              allday:
                schedule: {from: "00:00", to: "24:00"}
                items: [b.webm, a.mp4]

            """, prefix: "resume-timetable")
        defer { scratch.remove() }
        let (folder, state, name) = (scratch.folder, scratch.state, scratch.name)

        let first = try play(name, state: state, in: folder)
        #expect(framesShown(first, atLeast: 12))
        #expect(first.terminate() == 0)
        let saved = try Data(contentsOf: state.appendingPathComponent("position.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        #expect(object["daypart"] as? String == "allday")
        let quit = try Self.saved(in: state)
        #expect(quit.index == 1)

        let second = try play(name, state: state, in: folder)
        #expect(second.waitForEvents(seconds: 20) { $0.contains { $0["event"] as? String == "frame" } })
        let resumed = try #require(Self.firstFrame(second))
        #expect(resumed.item == 1 && abs(resumed.pts - quit.time) < 0.04 + 0.001, "\(resumed) \(quit)")
        #expect(second.standardError().contains("resume: item 2/2 of daypart allday at"))
        #expect(second.terminate() == 0)

        // The same config and item, saved in a daypart not on now: from the top of the one on now.
        let resaved = try Data(contentsOf: state.appendingPathComponent("position.json"))
        var edited = try #require(try JSONSerialization.jsonObject(with: resaved) as? [String: Any])
        edited["daypart"] = "night"
        try JSONSerialization.data(withJSONObject: edited).write(to: state.appendingPathComponent("position.json"))
        let third = try play(name, state: state, in: folder)
        #expect(third.waitForEvents(seconds: 20) { $0.contains { $0["event"] as? String == "frame" } })
        let top = try #require(Self.firstFrame(third))
        #expect(top.item == 0 && top.pts < 0.001, "\(top)")
        #expect(third.standardError().contains("resume: the position was saved in daypart night, and daypart allday is scheduled now; starting from its top"))
        #expect(third.terminate() == 0)
    }
}
