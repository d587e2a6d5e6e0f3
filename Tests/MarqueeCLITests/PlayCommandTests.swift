import Foundation
import Testing

/// `marquee play`, run as an operator would, headless, on media ffmpeg generates for the run.
/// The event log (`--events` with `--trace-frames`) is what the tests read.
@Suite(.serialized) struct PlayCommandTests {
    static let frame = 0.04 // 25 fps

    /// Clips at 25 fps: a.mp4 (H.264, 2 s = 50 frames, keyframe every 25), b.webm (VP9, 1 s),
    /// still.png, voice.m4a (AAC only, 1 s), silent.mp4 (H.264 only, 1 s), and broken media:
    /// empty.mp4 (0 bytes), trunc.mp4 (first 3 KB of a.mp4), corrupt.mp4 (random bytes).
    static let workspace: Result<URL, CLIFixtures.Failure> = {
        do {
            let folder = try CLIFixtures.workspace(prefix: "marquee-play-cli-")
            func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
            let video = ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25"]
            let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"]
            try CLIFixtures.runFFmpeg(video + tone + ["-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
                                                           "-pix_fmt", "yuv420p", "-c:a", "aac", path("a.mp4")])
            try CLIFixtures.runFFmpeg(video + ["-t", "1", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-g", "25", path("b.webm")])
            try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "color=c=navy:size=160x90", "-frames:v", "1", path("still.png")])
            try CLIFixtures.runFFmpeg(tone + ["-t", "1", "-c:a", "aac", path("voice.m4a")])
            try CLIFixtures.runFFmpeg(video + ["-t", "1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path("silent.mp4")])
            try Data().write(to: URL(fileURLWithPath: path("empty.mp4")))
            try Data(Data(contentsOf: URL(fileURLWithPath: path("a.mp4"))).prefix(3 * 1024)).write(to: URL(fileURLWithPath: path("trunc.mp4")))
            var generator = SystemRandomNumberGenerator()
            try Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path("corrupt.mp4")))
            return .success(folder)
        } catch let failure as CLIFixtures.Failure {
            return .failure(failure)
        } catch {
            return .failure(CLIFixtures.Failure(description: "could not make the play test media: \(error)"))
        }
    }()

    @Test func threeItemsLoopThreeTimesGaplessUntilSIGTERM() throws {
        let folder = try Self.workspace.get()
        try writeConfig("""
            playlist:
              repeat: all
              items:
                - url: a.mp4
                - url: b.webm
                - url: a.mp4
                  start: 0.5
                  end: "0:01.5"
            """, named: "loop.yaml", in: folder)
        let run = try PlayerRun(arguments: ["play", "loop.yaml", "--output", "headless:320x180", "--clock", "fast"], in: folder)
        let reachedFourthLoop = run.waitForEvents { $0.filter { $0["event"] as? String == "itemStarted" }.count >= 10 }
        let status = run.terminate()
        #expect(reachedFourthLoop)
        #expect(status == 0, "SIGTERM ends playback cleanly")

        let events = run.events()
        let starts = events.filter { $0["event"] as? String == "itemStarted" }.compactMap { $0["index"] as? Int }
        #expect(Array(starts.prefix(9)) == [0, 1, 2, 0, 1, 2, 0, 1, 2])
        // The first three loops, 4 s each: a.mp4 (50 frames), b.webm (25), then a.mp4 trimmed to
        // [0.5, 1.5): frame 12 (0.48 s) is on screen at 0.5 s and shows for 0.02 s, frames 13 to 37
        // follow, 37 (1.48 s) being the last before 1.5 s.
        var expected: [(pts: Double, time: Double)] = []
        for loop in 0..<3 {
            let origin = Double(loop) * 4
            expected += (0..<50).map { (Double($0) * Self.frame, origin + Double($0) * Self.frame) }
            expected += (0..<25).map { (Double($0) * Self.frame, origin + 2 + Double($0) * Self.frame) }
            expected += (12...37).map { (Double($0) * Self.frame, origin + 3 + max(0, Double($0) * Self.frame - 0.5)) }
        }
        let frames = Array(events.filter { $0["event"] as? String == "frame" }.prefix(expected.count))
        #expect(frames.count == expected.count)
        #expect(frames.allSatisfy { $0["dropped"] == nil }, "the fast clock never drops")
        // No gap and no repeated frame: each item's first frame where the one before it ended.
        for (index, (frame, want)) in zip(frames, expected).enumerated() {
            let pts = frame["pts"] as? Double ?? -1, time = frame["time"] as? Double ?? -1
            #expect(abs(pts - want.pts) < 0.0005 && abs(time - want.time) < 0.0005,
                    "frame \(index): pts \(pts) at \(time), expected pts \(want.pts) at \(want.time)")
        }
    }

    @Test func everyBadInputEndsItsItemWithAClearErrorAndTheNextPlays() throws {
        let folder = try Self.workspace.get()
        try writeConfig("""
            playlist:
              repeat: off
              items:
                - a.mp4
                - missing.mp4
                - empty.mp4
                - trunc.mp4
                - corrupt.mp4
                - b.webm
            """, named: "bad.yaml", in: folder)
        let run = try PlayerRun(arguments: ["play", "bad.yaml", "--output", "headless", "--clock", "fast", "--exit-when-idle"], in: folder)
        let status = run.waitForExit(seconds: 60)
        #expect(status == 0)

        let events = run.events()
        let failures = events.filter { $0["event"] as? String == "itemEnded" && $0["reason"] as? String == "playbackError" }
        #expect(failures.compactMap { $0["index"] as? Int } == [1, 2, 3, 4])
        for failure in failures {
            let message = failure["message"] as? String ?? ""
            #expect(!message.isEmpty && !message.contains("\n"), "\(failure)")
        }
        let starts = events.filter { $0["event"] as? String == "itemStarted" }.compactMap { $0["index"] as? Int }
        #expect(starts == [0, 5])
        // The failures cost no screen time: b.webm's first frame follows a.mp4's last.
        let times = events.filter { $0["event"] as? String == "frame" }.compactMap { $0["time"] as? Double }
        #expect(times.count == 75)
        #expect(times.enumerated().allSatisfy { abs($1 - Double($0) * Self.frame) < 0.0005 })
        // One line on stderr per failure, naming the file and the cause.
        let stderr = run.standardError()
        for (name, cause) in [("missing.mp4", "no such file"), ("empty.mp4", "empty"), ("trunc.mp4", "invalid data"), ("corrupt.mp4", "invalid data")] {
            let line = stderr.split(separator: "\n").first { $0.contains("\(folder.path)/\(name)") && $0.hasPrefix("error:") }
            #expect(line != nil && line!.contains(cause), "no error line for \(name) in:\n\(stderr)")
        }
    }

    @Test func audioOnlyVideoOnlyAndStillItemsPlayForTheirLength() throws {
        let folder = try Self.workspace.get()
        try writeConfig("""
            playlist:
              repeat: off
              items:
                - silent.mp4
                - voice.m4a
                - url: still.png
                  duration: 2
                - silent.mp4
            """, named: "single-stream.yaml", in: folder)
        let run = try PlayerRun(arguments: ["play", "single-stream.yaml", "--output", "headless", "--clock", "fast", "--exit-when-idle"], in: folder)
        #expect(run.waitForExit(seconds: 60) == 0)
        let events = run.events()
        let ends = events.filter { $0["event"] as? String == "itemEnded" }
        #expect(ends.compactMap { $0["reason"] as? String } == ["playbackEnded", "playbackEnded", "playbackEnded", "playbackEnded"])
        // 1 s of video, 1 s of audio (the last frame stays up), 2 s of still: the last clip starts at 4 s.
        let lastItemFrames = events.filter { $0["event"] as? String == "frame" && $0["item"] as? Int == 3 }
        let firstTime = lastItemFrames.first?["time"] as? Double ?? -1
        #expect(abs(firstTime - 4.0) < 0.03, "\(firstTime)")
        #expect(events.filter { $0["event"] as? String == "frame" && $0["item"] as? Int == 2 }.count == 1)
    }

    @Test func anItemsScalingFromConfigIsAnnouncedWithTheItem() throws {
        let folder = try Self.workspace.get()
        try writeConfig("""
            playlist:
              repeat: off
              items:
                - url: silent.mp4
                  scaling: fill
                - silent.mp4
            display:
              scaling: aspectFit
            """, named: "item-scaling.yaml", in: folder)
        let run = try PlayerRun(arguments: ["play", "item-scaling.yaml", "--output", "headless:320x320", "--clock", "fast",
                                            "--exit-when-idle"], in: folder)
        #expect(run.waitForExit(seconds: 60) == 0)
        // Each mode change follows the itemStarted of the item drawn in it.
        let sequence = run.events().compactMap { event -> String? in
            switch event["event"] as? String {
            case "itemStarted": "start \(event["index"] as? Int ?? -1)"
            case "scalingModeChanged": "mode \(event["mode"] as? String ?? "?")"
            default: nil
            }
        }
        #expect(sequence == ["start 0", "mode fill", "start 1", "mode aspectFit"])
    }

    @Test func whenEveryItemFailsThePlayerWaitsWithoutSpinning() throws {
        let folder = try Self.workspace.get()
        let run = try PlayerRun(arguments: ["play", "missing.mp4", "empty.mp4", "--output", "headless"], in: folder)
        // From the first back-off on: start-up and painting the status card once (0.6 s of CPU in a
        // debug build, 0.1 s in release) are not spinning.
        #expect(run.waitForEvents(seconds: 30) { events in
            events.contains { ($0["message"] as? String)?.hasPrefix("every item failed") == true }
        })
        Thread.sleep(forTimeInterval: 0.5)
        let cpuBefore = run.cpuSeconds()
        Thread.sleep(forTimeInterval: 2.5)
        let cpu = run.cpuSeconds() - cpuBefore
        let status = run.terminate()
        #expect(status == 0)
        #expect(cpu < 0.6, "\(cpu) s of CPU in 2.5 s")
        let failures = run.events().filter { $0["event"] as? String == "itemEnded" }.count
        // Two failures at once, then a 1 s wait, two more, then a 2 s wait, two more.
        #expect(failures >= 2 && failures <= 8, "\(failures) attempts")
    }

    /// `log.level` in the config sets what the journal hears; `--log-level` overrides it.
    @Test func theConfigsLogLevelQuietsTheJournalAndTheFlagOverridesIt() throws {
        let folder = try Self.workspace.get()
        try writeConfig("""
            playlist:
              repeat: "off"
              items: [b.webm, missing.mp4]
            log:
              level: warning
            """, named: "quiet.yaml", in: folder)
        let arguments = ["play", "quiet.yaml", "--output", "headless:64x36", "--audio", "null", "--input", "none",
                         "--clock", "fast", "--exit-when-idle"]
        let quiet = try MarqueeProcess.run(arguments, in: folder)
        #expect(quiet.status == 0)
        #expect(!quiet.standardError.contains("info:"), "\(quiet.standardError)")
        #expect(quiet.standardError.contains("missing.mp4"), "errors still reach the journal: \(quiet.standardError)")
        let loud = try MarqueeProcess.run(arguments + ["--log-level", "info"], in: folder)
        #expect(loud.standardError.contains("info: item 1/2 started"), "\(loud.standardError)")
    }

    /// `--audio alsa:PCM` hands the whole name, colons, commas and all, to alsa-lib; a device that
    /// is not there is one line naming it, and the clip plays on without sound.
    @Test func anALSADeviceNameReachesALSAWholeAndAMissingOneLeavesVideoPlaying() throws {
        let folder = try Self.workspace.get()
        let name = "hdmi:CARD=NoSuchCard,DEV=0"
        let run = try MarqueeProcess.run(["play", "silent.mp4", "--audio", "alsa:\(name)", "--output", "headless:64x36",
                                          "--input", "none", "--repeat", "off", "--exit-when-idle"], in: folder)
        #expect(run.status == 0)
        let lines = run.standardError.split(separator: "\n").filter { $0.contains("playing video only") }
        #expect(lines.count == 1 && lines[0].contains("snd_pcm_open on '\(name)'"), "\(run.standardError)")
        #expect(run.standardError.contains("item 1/1 ended (playbackEnded)"), "\(run.standardError)")
    }

    @Test func repeatOffWithNothingPlayableExitsWithFailure() throws {
        let folder = try Self.workspace.get()
        let run = try PlayerRun(arguments: ["play", "missing.mp4", "--output", "headless", "--exit-when-idle", "--repeat", "off"], in: folder)
        let started = Date()
        #expect(run.waitForExit(seconds: 30) == 1)
        #expect(Date().timeIntervalSince(started) < 0.9, "no back-off when nothing is left to retry")
    }

    @Test func memoryStaysFlatOverAHundredLoops() throws {
        let folder = try Self.workspace.get()
        // One malloc arena: glibc's per-thread arenas (one decode thread per item) otherwise make
        // RSS wander by ~10 MB with no trend, which would hide a leak of that size or flake.
        let run = try PlayerRun(arguments: ["play", "silent.mp4", "b.webm", "--output", "headless:320x180", "--clock", "fast"],
                                in: folder, environment: ["MALLOC_ARENA_MAX": "1"])
        let startsOf = { (events: [[String: Any]]) in events.filter { $0["event"] as? String == "itemStarted" }.count }
        // A leak shows as a rising high-water mark: compare the highest of several samples early and late.
        func highWater(atStarts marks: [Int]) -> (rss: Int, fds: Int) {
            var rss = -1, fds = -1
            for mark in marks {
                #expect(run.waitForEvents(seconds: 300) { startsOf($0) >= mark })
                rss = max(rss, run.residentKilobytes())
                fds = max(fds, run.openFileDescriptors())
            }
            return (rss, fds)
        }
        let early = highWater(atStarts: [20, 30, 40, 50, 60])
        #expect(early.rss > 0 && early.fds > 0, "could not read /proc for the player")
        let late = highWater(atStarts: [220, 230, 240, 250, 260])
        #expect(run.terminate() == 0)
        #expect(late.rss > 0 && late.rss - early.rss < 4 * 1024, "RSS high-water grew from \(early.rss) kB to \(late.rss) kB over 100 loops")
        // The next item opens while the current plays, so one more file may be open at any instant;
        // a leak would add one per item (200 here).
        #expect(late.fds <= early.fds + 2, "file descriptors grew from \(early.fds) to \(late.fds)")
        print("memory over 100 loops: RSS high-water \(early.rss) kB -> \(late.rss) kB, fds \(early.fds) -> \(late.fds)")
    }

    /// On a terminal (here a pseudo-terminal from util-linux's `script`) `marquee play` keeps one
    /// live status line, redrawn in place; without one (every other test) it prints none.
    @Test func aTerminalShowsOneLiveStatusLine() throws {
        let folder = try Self.workspace.get()
        let marquee = try MarqueeProcess.executable().path
        let transcript = folder.appendingPathComponent("tty-\(UUID().uuidString).txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", "\(marquee) play a.mp4 --output headless:320x180 --exit-when-idle --repeat off", transcript.path]
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let text = try String(contentsOf: transcript, encoding: .utf8)
        // Redraws return to the line start and clear it instead of scrolling.
        let redraws = text.components(separatedBy: "\r\u{1B}[K").dropFirst()
        #expect(redraws.contains { $0.hasPrefix("▶ 1/1 a.mp4  0:01 / 0:02  -0:01  playing") }, "\(text)")
        #expect(redraws.contains { $0.hasPrefix("info: item 1/1 started") }, "log lines clear the status line first")
        let runtime = try PlayerRun(arguments: ["play", "a.mp4", "--output", "headless", "--clock", "fast", "--exit-when-idle", "--repeat", "off"], in: folder)
        #expect(runtime.waitForExit(seconds: 30) == 0)
        #expect(!runtime.standardError().contains("▶"), "no status line when stderr is not a terminal")
    }

    private func writeConfig(_ text: String, named name: String, in folder: URL) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }
}
