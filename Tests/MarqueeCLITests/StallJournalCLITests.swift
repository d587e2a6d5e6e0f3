import Foundation
import MarqueeTestSupport
import Testing

/// A stall is in the journal, not only in the events: an operator reading `journalctl` sees that the
/// item waited for its source and for how long.
@Suite struct StallJournalCLITests {
    @Test func aStallAndItsResumeAreJournalLines() throws {
        let folder = try PlayCommandTests.workspace.get()
        let clip = try Data(contentsOf: folder.appendingPathComponent("a.mp4"))
        // a.mp4 lasts 2 s: served at half real time.
        let server = try LoopbackHTTPServer(routes: ["/a.mp4": .throttledFile(clip, contentType: "video/mp4", bytesPerSecond: clip.count / 4)])
        defer { server.stop() }
        let url = server.url("/a.mp4")
        let run = try PlayerRun(arguments: ["play", url, "--output", "headless:320x180", "--audio", "null", "--input", "none",
                                            "--exit-when-idle", "--repeat", "off"], in: folder)
        #expect(run.waitForExit(seconds: 60) == 0)

        let stderr = run.standardError()
        #expect(stderr.contains("warning: item 1/1 (\(url)) stalled: its source is slower than real time; waiting until it can keep up\n"),
                "\(stderr)")
        #expect(stderr.contains("item 1/1 (\(url)) resumed after "), "\(stderr)")
        let events = run.events()
        #expect(events.contains { $0["event"] as? String == "playbackStalled" })
        #expect(events.contains { $0["event"] as? String == "itemEnded" && $0["reason"] as? String == "playbackEnded" })
    }
}
