import Foundation
import Testing

/// `marquee bench`, run as an operator would, on the CLI workspace's 100-frame 25 fps clip.
@Suite struct BenchCommandTests {
    @Test func printsTheFiguresAsKeyValueLines() throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["bench", "media/clip.mp4", "--size", "640x360", "--scaling", "aspectFill"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.isEmpty)
        let values = Self.keyValues(outcome.outputLines)
        #expect(outcome.outputLines.map { $0.prefix { $0 != ":" } } == [
            "media", "video", "frame rate", "frames", "duration", "convert to",
            "decode seconds", "decode fps", "decode+convert seconds", "decode+convert fps", "speed",
        ])
        #expect(values["media"] == "media/clip.mp4")
        #expect(values["video"] == "h264 320x240")
        #expect(values["frame rate"] == "25.000")
        #expect(values["frames"] == "100")
        #expect(values["duration"] == "4.000")
        #expect(values["convert to"] == "640x360 aspectFill")
        let decodeFPS = try #require(values["decode fps"].flatMap(Double.init))
        let convertFPS = try #require(values["decode+convert fps"].flatMap(Double.init))
        let convertSeconds = try #require(values["decode+convert seconds"].flatMap(Double.init))
        #expect(decodeFPS > 0 && convertFPS > 0 && convertSeconds > 0)
        // "N.NNx realtime": decode+convert fps over the 25 fps the file needs.
        let speed = try #require(values["speed"])
        #expect(speed.hasSuffix("x realtime"))
        let ratio = try #require(Double(speed.dropLast("x realtime".count)))
        #expect(speed.dropLast("x realtime".count).split(separator: ".").last?.count == 2)
        #expect(abs(ratio - convertFPS / 25) <= 0.01 * ratio + 0.01)
    }

    @Test func convertsForA1080pScreenByDefault() throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["bench", "media/clip.mp4"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(Self.keyValues(outcome.outputLines)["convert to"] == "1920x1080 aspectFit")
    }

    /// Half way through the frame before the key frame at 1 s: the frame on screen is 0.96, in the
    /// GOP before, so decoding starts at 0 and the 24 pictures before it are the pre-roll.
    @Test func seekPrintsThePreRollItDecoded() throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["bench", "media/clip.mp4", "--seek", "0.98"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.outputLines.map { $0.prefix { $0 != ":" } } == [
            "media", "seek to", "key frame seeks", "decoding from", "first picture", "picture on screen",
            "pictures before it", "first audio", "audio before it", "seek seconds",
        ])
        let values = Self.keyValues(outcome.outputLines)
        #expect(values["seek to"] == "0.980")
        #expect(values["first picture"] == "0.000")
        #expect(values["picture on screen"] == "0.960")
        #expect(values["pictures before it"] == "24")
        #expect(values["first audio"] == "none")
        #expect(try #require(values["key frame seeks"].flatMap(Int.init)) >= 1)
        #expect(try #require(values["seek seconds"].flatMap(Double.init)) > 0)
    }

    /// Audio alone: AAC's pre-roll (three 1024-sample frames) is decoded before the target.
    @Test func seekInAudioDecodesItsPreRoll() throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["bench", "media/tone.m4a", "--seek", "0.5"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        let values = Self.keyValues(outcome.outputLines)
        #expect(values["picture on screen"] == "none")
        let audioBefore = try #require(values["audio before it"]?.split(separator: " ").first.flatMap { Int($0) })
        #expect(audioBefore >= 3 * 1024 && audioBefore < 48_000 / 2, "\(audioBefore) frames")
    }

    @Test(arguments: [
        (["media/clip.mp4", "--seek", "soon"], "--seek: bad time 'soon': expected seconds (e.g. 2.5) or [hh:]mm:ss[.fff]"),
        (["media/clip.mp4", "--seek", "1", "--size", "640x360"], "--seek measures decoding only: --size and --scaling do not apply"),
        (["media/none.mp4"], "media/none.mp4: no such file"),
        (["media/tone.m4a"], "media/tone.m4a: no video stream to measure"),
        (["media/clip.mp4", "--size", "0x10"], "--size: bad size '0x10' (expected WIDTHxHEIGHT, e.g. 1280x720, each side 1 to 16384)"),
        (["media/clip.mp4", "--scaling", "zoom"], "--scaling: unknown scaling mode 'zoom' (none, aspectFit, aspectFill or fill)"),
    ])
    func badInputIsOneLineAndExitStatusOne(_ arguments: [String], _ line: String) throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["bench"] + arguments, in: folder)

        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError == line + "\n")
    }

    static func keyValues(_ lines: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for line in lines {
            guard let separator = line.range(of: ": ") else { continue }
            values[String(line[..<separator.lowerBound])] = String(line[separator.upperBound...])
        }
        return values
    }
}
