import Foundation
import Testing

/// `marquee play` with a still over `display.maxImagePixels`: one error line naming the file, its
/// size and the limit, and the playlist goes on. `marquee probe` refuses it the same way at the
/// default limit.
@Suite struct HugeStillCLITests {
    @Test func aStillOverTheConfiguredLimitFailsWithOneLineAndTheNextItemPlays() throws {
        let folder = try CLIFixtures.workspace(prefix: "marquee-huge-still-cli-")
        func url(_ name: String) -> URL { folder.appendingPathComponent(name) }
        try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "color=c=blue:s=3000x2000", "-frames:v", "1", url("poster.png").path])
        try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "color=c=red:s=320x240", "-frames:v", "1", url("menu.png").path])
        try Data("""
            playlist:
              repeat: off
              items:
                - poster.png
                - url: menu.png
                  duration: 0.5
            display:
              maxImagePixels: 2048x2048
            """.utf8).write(to: url("stills.yaml"))

        let run = try PlayerRun(arguments: ["play", "stills.yaml", "--output", "headless", "--clock", "fast", "--exit-when-idle"], in: folder)
        #expect(run.waitForExit(seconds: 60) == 0)

        let events = run.events()
        let ended = events.filter { $0["event"] as? String == "itemEnded" }
        #expect(ended.map { $0["reason"] as? String ?? "" } == ["playbackError", "playbackEnded"])
        let message = "image too large: 3000x2000 pixels; display.maxImagePixels is 2048x2048"
        #expect(ended.first?["message"] as? String == message, "\(ended)")
        let starts = events.filter { $0["event"] as? String == "itemStarted" }.compactMap { $0["index"] as? Int }
        #expect(starts == [1])
        let stderr = run.standardError()
        #expect(stderr.split(separator: "\n").contains { $0.hasPrefix("error: ") && $0.hasSuffix("poster.png: \(message)") },
                "no error line for poster.png in:\n\(stderr)")
    }
}
