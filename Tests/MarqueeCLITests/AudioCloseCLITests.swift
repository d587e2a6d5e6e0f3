import Foundation
import Testing

/// At the end of a run the sound device is drained, then closed: a process that exited with its
/// PCM open left alsa-lib's `file` plugin's WAV header at 0 frames. Real alsa-lib, a `file` PCM
/// over `null` defined in a private ~/.asoundrc.
@Suite(.serialized) struct AudioCloseCLITests {
    @Test(arguments: ["exit-when-idle", "SIGTERM"])
    func theDeviceIsClosedWhenTheRunEnds(ending: String) throws {
        let media = try PlayCommandTests.workspace.get()
        let home = try CLIFixtures.workspace(prefix: "marquee-audio-close-")
        defer { try? FileManager.default.removeItem(at: home) }
        let wav = home.appendingPathComponent("out.wav").path
        try """
            pcm.wavout {
                type file
                slave.pcm "nullsink"
                file "\(wav)"
                format "wav"
            }
            pcm.nullsink { type null }
            """.write(to: home.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let arguments = ["play", media.appendingPathComponent("voice.m4a").path, "--output", "headless", "--audio", "alsa:wavout",
                         "--input", "none", "--control", "none"]
        if ending == "SIGTERM" {
            let run = try PlayerRun(arguments: arguments + ["--repeat", "all"], in: home, environment: ["HOME": home.path])
            #expect(run.waitForEvents(seconds: 30) { $0.contains { $0["event"] as? String == "itemStarted" } }, "\(run.standardError())")
            Thread.sleep(forTimeInterval: 0.5)
            #expect(run.terminate() == 0)
        } else {
            let run = try PlayerRun(arguments: arguments + ["--repeat", "off", "--exit-when-idle"], in: home, environment: ["HOME": home.path])
            #expect(run.waitForExit(seconds: 30) == 0, "\(run.standardError())")
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: wav)))
        try #require(bytes.count > 44, "\(bytes.count) bytes")
        func word(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24 }
        // The header alsa-lib writes when it closes the PCM: RIFF size and data size of what was played.
        #expect(Array(bytes[36..<40]) == Array("data".utf8))
        #expect(word(40) == bytes.count - 44, "data size \(word(40)) in a file of \(bytes.count) bytes")
        #expect(word(4) == bytes.count - 8, "RIFF size \(word(4))")
    }
}
