import Foundation
import MarqueeTestSupport
import Testing

/// `marquee play` of an HLS stream whose server answers 404 for one segment: the journal gets one
/// warning naming the segment and the status, and the item plays on to a normal end.
@Suite struct MissingSegmentCLITests {
    @Test func aMissingSegmentIsOneWarningLineAndTheItemEndsNormally() throws {
        let folder = try PlayCommandTests.workspace.get().appendingPathComponent("hls-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=4",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-pix_fmt", "yuv420p",
                                   "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                                   "-hls_segment_filename", folder.appendingPathComponent("seg%d.ts").path,
                                   folder.appendingPathComponent("index.m3u8").path])
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let type = name.hasSuffix(".m3u8") ? "application/vnd.apple.mpegurl" : "video/mp2t"
            server.setRoute("/live/" + name, .file(try Data(contentsOf: folder.appendingPathComponent(name)), contentType: type))
        }
        server.setRoute("/live/seg2.ts", .status(404))
        let url = server.url("/live/index.m3u8")

        let run = try PlayerRun(arguments: ["play", url, "--output", "headless:320x180", "--clock", "fast", "--audio", "null",
                                            "--input", "none", "--exit-when-idle", "--repeat", "off"],
                                in: try PlayCommandTests.workspace.get())
        #expect(run.waitForExit(seconds: 60) == 0)

        let stderr = run.standardError()
        let warnings = stderr.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 1, "\(stderr)")
        #expect(stderr.contains("warning: \(url): segment \(server.url("/live/seg2.ts")) is missing (HTTP error 404 Not Found); "
                                + "playing on from the next segment\n"), "\(stderr)")
        #expect(!stderr.contains("error:"), "\(stderr)")
        let events = run.events()
        #expect(events.contains { $0["event"] as? String == "itemEnded" && $0["reason"] as? String == "playbackEnded" },
                "\(events)")
    }
}
