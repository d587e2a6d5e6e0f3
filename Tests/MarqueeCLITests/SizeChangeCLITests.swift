import Foundation
import Testing

/// A stream whose pictures change size midway (a TS going from 320x240 to 640x360, as a live
/// encoder switching profiles does): `naturalSizeAvailable` comes again with the new size when
/// its first picture is on screen, and the picture is laid out for its own size (16:9 fills a
/// 16:9 screen where the 4:3 part had bars beside it).
@Suite(.serialized) struct SizeChangeCLITests {
    @Test func aSizeChangeMidStreamIsAnnouncedAndLaidOutAgain() throws {
        let folder = try CLIFixtures.workspace(prefix: "marquee-size-change-")
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        for (name, size, seconds) in [("small.ts", "320x240", "1"), ("large.ts", "640x360", "3")] {
            try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "color=c=white:size=\(size):rate=25", "-t", seconds, "-c:v", "libx264",
                                       "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "25", "-f", "mpegts", path(name)])
        }
        // Two TS streams end to end are one TS whose pictures change size.
        let joined = try Data(contentsOf: URL(fileURLWithPath: path("small.ts"))) + Data(contentsOf: URL(fileURLWithPath: path("large.ts")))
        try joined.write(to: URL(fileURLWithPath: path("joined.ts")))

        let player = try ControlledPlayer(arguments: ["play", "joined.ts", "--output", "headless:640x360", "--scaling", "aspectFit",
                                                      "--repeat", "all", "--clock", "realtime"], in: folder)
        func sizes() -> [[Int]] {
            player.run.events().filter { $0["event"] as? String == "naturalSizeAvailable" }
                .map { [$0["width"] as? Int ?? 0, $0["height"] as? Int ?? 0] }
        }
        #expect(player.run.waitForEvents(seconds: 30) { _ in sizes().count >= 2 }, "\(sizes())")
        #expect(Array(sizes().prefix(2)) == [[320, 240], [640, 360]], "\(sizes())")
        #expect(try player.request(["command": "pause"])["ok"] as? Bool == true)
        Thread.sleep(forTimeInterval: 0.3)
        let shot = try player.request(["command": "screenshot", "path": "large.png"])
        let written = try #require(shot["path"] as? String, "\(shot)")
        let status = try player.status()
        let position = ((status["item"] as? [String: Any])?["position"] as? Double) ?? 0
        #expect(position >= 1.0, "paused at \(position), before the size change")
        // The white picture reaches the screen's left edge: laid out as 16:9, not as 4:3 with bars.
        let rgb = try CLIFixtures.rgb(ofImage: written)
        try #require(rgb.count == 640 * 360 * 3, "\(rgb.count) bytes")
        let left = 180 * 640 * 3
        #expect(rgb[left] > 200 && rgb[left + 1] > 200 && rgb[left + 2] > 200, "left edge \(rgb[left]),\(rgb[left + 1]),\(rgb[left + 2])")
        #expect(player.run.terminate() == 0)
    }
}
