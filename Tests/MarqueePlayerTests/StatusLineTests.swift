import Foundation
import MarqueeCore
import Testing
@testable import MarqueePlayer

@Suite struct StatusLineTests {
    @Test func foldsEventsIntoOneLine() {
        var line = StatusLine(itemCount: 3)
        #expect(line.text == "■ -/3   --:-- / --:--  --:--  stopped")
        line.apply(.durationAvailable(MediaTime(seconds: 99)))
        // The engine announces the item, then its facts: a duration from before belongs to the last item.
        line.apply(.itemStarted(index: 1, url: "file:///media/intro.mp4"))
        #expect(line.text.contains("/ --:--"))
        line.apply(.durationAvailable(MediaTime(seconds: 30)))
        line.apply(.playbackStateChanged(from: .stopped, to: .playing))
        line.apply(.frame(item: 1, pts: MediaTime(5, per: 2), time: .zero, dropped: false))
        line.apply(.frame(item: 1, pts: MediaTime(29, per: 2), time: MediaTime(seconds: 12), dropped: false))
        #expect(line.text == "▶ 2/3 intro.mp4  0:12 / 0:30  -0:18  playing")
        line.apply(.playbackStateChanged(from: .playing, to: .paused))
        #expect(line.text.hasPrefix("⏸ 2/3"))
    }

    /// A config `title:` or an M3U `#EXTINF` title names the item instead of its file name.
    @Test func showsTheItemsTitleWhenItHasOne() {
        var line = StatusLine(itemCount: 2)
        line.apply(.itemStarted(index: 0, url: "file:///media/intro.mp4", title: "Welcome Reel"))
        #expect(line.text.hasPrefix("■ 1/2 Welcome Reel  "), "\(line.text)")
        line.apply(.itemStarted(index: 1, url: "file:///media/loop.mp4"))
        #expect(line.text.hasPrefix("■ 2/2 loop.mp4  "), "\(line.text)")
    }
}

@Suite struct EventLogWriterTests {
    @Test func writesOneJSONLinePerEventStampedWithTheClock() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = VirtualClock()
        let writer = try EventLogWriter(path: path, clock: clock)
        writer.write(.repeatModeChanged(.one))
        writer.write(.frame(item: 0, pts: .zero, time: .zero, dropped: false))
        clock.sleep(until: MediaTime(5, per: 4))
        writer.write(.playbackStalled)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines == [#"{"event":"repeatModeChanged","mode":"one","t":0}"#, #"{"event":"playbackStalled","t":1.25}"#])
    }

    @Test func framesAreWrittenOnlyWhenTraced() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try EventLogWriter(path: path, clock: VirtualClock(), includesFrames: true)
        writer.write(.frame(item: 2, pts: MediaTime(1, per: 25), time: MediaTime(seconds: 1), dropped: false))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines == [#"{"event":"frame","item":2,"pts":0.04,"t":0,"time":1}"#])
    }

    @Test func anUnwritablePathIsAClearError() {
        #expect(throws: EventLogError.self) { try EventLogWriter(path: "/nonexistent-dir/events.jsonl", clock: VirtualClock()) }
    }
}

@Suite struct MonotonicClockTests {
    @Test func advancesAndSleepsUntilTheDeadline() {
        let clock = MonotonicClock()
        let start = clock.now()
        clock.sleep(until: start + MediaTime(30, per: 1000))
        let elapsed = clock.now() - start
        #expect(elapsed >= MediaTime(30, per: 1000))
        #expect(elapsed < MediaTime(seconds: 2))
    }
}
