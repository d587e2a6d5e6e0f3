import Foundation
import Testing

/// `marquee play` on files that are not media: a text file, ANSI art and random bytes named `.bin`,
/// which FFmpeg alone would show as `tty` and `bintext` "video". Each fails as `not a media file`
/// and the playlist goes on.
@Suite struct JunkMediaCLITests {
    @Test func junkFailsAsNotAMediaFileAndTheNextItemPlays() throws {
        let folder = try CLIFixtures.workspace(prefix: "marquee-junk-cli-")
        func url(_ name: String) -> URL { folder.appendingPathComponent(name) }
        let lines = (1...20).map { "Opening hours: Monday to Friday, 9:00 to 17:00. Line \($0).\n" }
        try Data(lines.joined().utf8).write(to: url("notes.txt"))
        let cells = (1...20).map { "\u{1B}[1;3\($0 % 8)mMARQUEE \u{1B}[0m" }
        try Data(("\u{1B}[2J\u{1B}[1;1H" + cells.joined() + "\r\n").utf8).write(to: url("art.ans"))
        // bintext claims a .bin whose size is a whole number of 320-byte text rows.
        var state: UInt64 = 0x4D41_5251_5545_4531  // SplitMix64 from a fixed seed: the same bytes every run
        let noise = (0..<8_000).flatMap { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return withUnsafeBytes(of: (z ^ (z >> 31)).littleEndian, Array.init)
        }
        try Data(noise).write(to: url("noise.bin"))
        try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-t", "0.4",
                                   "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", url("clip.mp4").path])
        try Data("""
            playlist:
              repeat: off
              items: [notes.txt, art.ans, noise.bin, clip.mp4]
            """.utf8).write(to: url("junk.yaml"))

        let run = try PlayerRun(arguments: ["play", "junk.yaml", "--output", "headless", "--clock", "fast", "--exit-when-idle"], in: folder)
        #expect(run.waitForExit(seconds: 60) == 0)

        let events = run.events()
        let ended = events.filter { $0["event"] as? String == "itemEnded" }
        #expect(ended.map { $0["reason"] as? String ?? "" } == ["playbackError", "playbackError", "playbackError", "playbackEnded"])
        #expect(ended.prefix(3).allSatisfy { $0["message"] as? String == "not a media file" }, "\(ended)")
        let starts = events.filter { $0["event"] as? String == "itemStarted" }.compactMap { $0["index"] as? Int }
        #expect(starts == [3])
        let stderr = run.standardError()
        for name in ["notes.txt", "art.ans", "noise.bin"] {
            #expect(stderr.split(separator: "\n").contains { $0.hasPrefix("error: ") && $0.hasSuffix("\(name): not a media file") },
                    "no error line for \(name) in:\n\(stderr)")
        }
    }
}
