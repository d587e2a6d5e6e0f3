import Foundation
import MarqueeTestSupport
import Testing

/// A skip on an item that cannot seek (a stream from a server without byte ranges, as a live
/// source answers) is refused with the reason instead of answered ok and ignored.
@Suite(.serialized) struct LiveSkipCLITests {
    @Test func skippingALiveStreamIsRefused() throws {
        let media = try PlayCommandTests.workspace.get()
        let folder = try CLIFixtures.workspace(prefix: "marquee-live-skip-")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ts = folder.appendingPathComponent("live.ts").path
        try CLIFixtures.runFFmpeg(["-stream_loop", "4", "-i", media.appendingPathComponent("a.mp4").path, "-c", "copy", "-f", "mpegts", ts])
        let server = try LoopbackHTTPServer(routes: ["/live.ts": .file(try Data(contentsOf: URL(fileURLWithPath: ts)), contentType: "video/mp2t",
                                                                       honoursRanges: false)])
        defer { server.stop() }
        let player = try ControlledPlayer(arguments: ["play", server.url("/live.ts"), "--output", "headless:160x90", "--repeat", "all"], in: folder)
        #expect(player.run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "frame" } }, "\(player.run.standardError())")
        for request: [String: Any] in [["command": "skipForward"], ["command": "skipBackward", "seconds": 5]] {
            let reply = try player.request(request)
            #expect(reply["ok"] as? Bool == false, "\(request): \(reply)")
            #expect((reply["error"] as? String)?.hasSuffix(": the item on screen cannot seek (a live stream)") == true, "\(reply)")
        }
        #expect(try player.request(["command": "pause"])["ok"] as? Bool == true)
        #expect(player.run.terminate() == 0)
    }
}
