import Foundation
import Testing

/// `marquee probe MEDIA [--json]`, run as an operator would, on files ffmpeg generates for the run.
@Suite struct ProbeCommandTests {
    /// A folder holding `media/clip.mp4` (1 s of 320x240 H.264 at 25 fps and 48 kHz mono AAC) and
    /// `media/trunc.mp4` (its first 3 KB), made once per test process.
    static let workspace: Result<URL, CLIFixtures.Failure> = {
        do {
            let folder = try CLIFixtures.workspace(prefix: "marquee-probe-cli-")
            let media = folder.appendingPathComponent("media", isDirectory: true)
            try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
            let clip = media.appendingPathComponent("clip.mp4")
            try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=1",
                           "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
                           "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", clip.path])
            try Data(Data(contentsOf: clip).prefix(3 * 1024)).write(to: media.appendingPathComponent("trunc.mp4"))
            return .success(folder)
        } catch let failure as CLIFixtures.Failure {
            return .failure(failure)
        } catch {
            return .failure(CLIFixtures.Failure(description: "could not make the probe test media: \(error)"))
        }
    }()

    @Test func textOutputForARelativePath() throws {
        let folder = try Self.workspace.get()

        let outcome = try MarqueeProcess.run(["probe", "media/clip.mp4"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.isEmpty)
        #expect(outcome.outputLines == [
            "url           \(folder.standardizedFileURL.path)/media/clip.mp4",
            "container     mov,mp4,m4a,3gp,3g2,mj2",
            "duration      0:01.000",
            "natural size  320x240",
            "coded size    320x240, SAR 1:1",
            "rotation      none",
            "seekable      yes",
            "still image   no",
            "track 0       video h264 320x240 25 fps, 0:01.000",
            "track 1       audio aac 48000 Hz 1 ch, 0:01.000",
        ])
    }

    @Test func jsonOutputIsOneObjectWithSortedKeys() throws {
        let folder = try Self.workspace.get()

        let outcome = try MarqueeProcess.run(["probe", "media/clip.mp4", "--json"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.outputLines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(object["url"] as? String == "\(folder.standardizedFileURL.path)/media/clip.mp4")
        #expect(object["container"] as? String == "mov,mp4,m4a,3gp,3g2,mj2")
        #expect(object["duration"] as? Double == 1)
        #expect(object["naturalSize"] as? [String: Int] == ["width": 320, "height": 240])
        #expect(object["codedSize"] as? [String: Int] == ["width": 320, "height": 240])
        #expect(object["sampleAspectRatio"] as? String == "1:1")
        #expect(object["rotation"] as? Int == 0)
        #expect(object["mediaTypes"] as? [String] == ["audio", "video"])
        #expect(object["seekable"] as? Bool == true)
        #expect(object["stillImage"] as? Bool == false)
        let tracks = try #require(object["tracks"] as? [[String: Any]])
        #expect(tracks.count == 2)
        #expect(tracks.first?["codec"] as? String == "h264")
        #expect(tracks.first?["frameRate"] as? Double == 25)
        #expect(tracks.first?["sampleRate"] is NSNull)  // every key is present; unknown is null
        #expect(tracks.last?["codec"] as? String == "aac")
        #expect(tracks.last?["channels"] as? Int == 1)
        // Sorted keys: the top-level keys appear in alphabetical order in the text.
        let keys = ["codedSize", "container", "duration", "mediaTypes", "naturalSize", "rotation",
                    "sampleAspectRatio", "seekable", "stillImage", "tracks", "url"]
        let positions = keys.compactMap { outcome.standardOutput.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted())
        #expect(outcome.standardOutput.hasPrefix("{\"codedSize\":"))
    }

    @Test func aMissingFileIsOneLineOnStandardErrorAndExitStatusOne() throws {
        let folder = try Self.workspace.get()

        let outcome = try MarqueeProcess.run(["probe", "media/a.mp4"], in: folder)

        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError == "media/a.mp4: no such file\n")
    }

    @Test func ffmpegsOwnLogStaysQuiet() throws {
        let folder = try Self.workspace.get()

        let outcome = try MarqueeProcess.run(["probe", "media/trunc.mp4", "--json"], in: folder)

        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.isEmpty)
        // Only Marquee's line: no "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x...] moov atom not found" from FFmpeg.
        #expect(outcome.standardError == "media/trunc.mp4: invalid data (moov atom not found)\n")
    }

    @Test func anUnsupportedSchemeIsRefused() throws {
        let outcome = try MarqueeProcess.run(["probe", "ftp://example.com/a.mp4"], in: MarqueeProcess.repositoryRoot())

        #expect(outcome.status == 1)
        #expect(outcome.standardError == "ftp://example.com/a.mp4: unsupported URL scheme 'ftp' (use a file path, http or https)\n")
    }

    /// Without media it lists the display hardware; this machine has no /dev/dri, so it says so and
    /// succeeds (the guest tests in Deploy/vm check the listing on real drivers).
    @Test func withoutMediaItListsTheDisplayHardware() throws {
        let outcome = try MarqueeProcess.run(["probe"], in: MarqueeProcess.repositoryRoot())

        #expect(outcome.status == 0, "\(outcome.standardError)")
        let hasCards = FileManager.default.fileExists(atPath: "/dev/dri/card0")
        #expect(outcome.standardOutput.contains(hasCards ? "card /dev/dri/card0" : "display: no DRM cards"))
        let hasCEC = FileManager.default.fileExists(atPath: "/dev/cec0")
        #expect(outcome.standardOutput.contains(hasCEC ? "cec /dev/cec0" : "cec: no HDMI-CEC adapters (/dev/cec* does not exist)"))
    }

    /// `--json` without media is one object for all the hardware; with no /dev/dri here the display
    /// part is an empty list of cards (the guest tests check a real card's).
    @Test func withoutMediaJSONHasTheDisplaySoundAndInputParts() throws {
        let outcome = try MarqueeProcess.run(["probe", "--json"], in: MarqueeProcess.repositoryRoot())

        #expect(outcome.status == 0, "\(outcome.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == ["audio", "cec", "display", "inputDevices"])
        #expect(outcome.standardOutput.hasPrefix("{\"audio\":"))  // sorted keys, like every JSON report
        let display = try #require(object["display"] as? [String: Any])
        let cards = try #require(display["cards"] as? [Any])
        if !FileManager.default.fileExists(atPath: "/dev/dri/card0") { #expect(cards.isEmpty) }
        #expect(object["inputDevices"] is [Any] && object["audio"] is [String: Any])
        // No /dev/cec* here either: an empty list (the guest's cec-test.sh checks vivid's two).
        let cec = try #require(object["cec"] as? [String: Any])
        let adapters = try #require(cec["adapters"] as? [Any])
        if !FileManager.default.fileExists(atPath: "/dev/cec0") { #expect(adapters.isEmpty) }
    }
}
