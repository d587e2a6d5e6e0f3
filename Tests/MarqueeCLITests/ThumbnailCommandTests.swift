import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// `marquee thumbnail`, run as an operator would; the PNGs it writes are read back with Marquee's
/// own decoder (a PNG is a still image) and judged by their pixels.
@Suite struct ThumbnailCommandTests {
    @Test func keyFrameModeWritesTheKeyFrameAtOrBeforeTheTime() throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["thumbnail", "media/clip.mp4", "--at", "2.5", "-o", "key.png"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.isEmpty)
        #expect(outcome.outputLines == ["key.png: 320x240"])
        let png = try CLIMediaWorkspace.readPNG(folder.appendingPathComponent("key.png"))
        #expect(png.size == PixelSize(width: 320, height: 240))
        #expect(CLIMediaWorkspace.frameIndex(in: png) == 50)  // key frames every second
    }

    @Test func exactModeWritesTheFrameOnScreenAtTheTime() throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["thumbnail", "media/clip.mp4", "--at", "0:02.5", "--exact", "-o", "exact.png"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        // 2.5 s falls inside frame 62 (2.48 s .. 2.52 s).
        #expect(CLIMediaWorkspace.frameIndex(in: try CLIMediaWorkspace.readPNG(folder.appendingPathComponent("exact.png"))) == 62)
    }

    @Test func sizeScalingAndBackgroundShapeThePicture() throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["thumbnail", "media/clip.mp4", "--at", "1", "--exact", "--size", "640x240",
                                              "--scaling", "aspectfit", "--background", "#102030", "-o", "wide.png"], in: folder)

        #expect(outcome.status == 0, "\(outcome.standardError)")
        let png = try CLIMediaWorkspace.readPNG(folder.appendingPathComponent("wide.png"))
        #expect(png.size == PixelSize(width: 640, height: 240))
        let bars = RGBColor(red: 0x10, green: 0x20, blue: 0x30)
        #expect(png[0, 0] == bars && png[159, 239] == bars && png[480, 0] == bars && png[639, 120] == bars)
        #expect(CLIMediaWorkspace.frameIndex(in: png, pictureRect: PixelRect(x: 160, y: 0, width: 320, height: 240)) == 25)
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let line: String
        var testDescription: String { line }
    }

    @Test(arguments: [
        BadInput(arguments: ["media/none.mp4", "--at", "1", "-o", "x.png"], line: "media/none.mp4: no such file"),
        BadInput(arguments: ["media/tone.m4a", "--at", "1", "-o", "x.png"], line: "media/tone.m4a: no video stream to take a picture of"),
        BadInput(arguments: ["media/clip.mp4", "--at", "soon", "-o", "x.png"],
                 line: "--at: bad time 'soon': expected seconds (e.g. 2.5) or [hh:]mm:ss[.fff]"),
        BadInput(arguments: ["media/clip.mp4", "--at", "1", "--size", "640", "-o", "x.png"],
                 line: "--size: bad size '640' (expected WIDTHxHEIGHT, e.g. 1280x720, each side 1 to 16384)"),
        BadInput(arguments: ["media/clip.mp4", "--at", "1", "--size", "64x64", "--scaling", "stretch", "-o", "x.png"],
                 line: "--scaling: unknown scaling mode 'stretch' (none, aspectFit, aspectFill or fill)"),
        BadInput(arguments: ["media/clip.mp4", "--at", "1", "--scaling", "fill", "-o", "x.png"],
                 line: "--scaling needs --size: at the natural size there is nothing to fit"),
        BadInput(arguments: ["media/clip.mp4", "--at", "1", "--background", "red", "-o", "x.png"],
                 line: "--background: bad colour 'red' (expected #RRGGBB)"),
        BadInput(arguments: ["media/clip.mp4", "--at", "1", "-o", "no/such/folder/x.png"],
                 line: "no/such/folder/x.png: No such file or directory"),
    ])
    func badInputIsOneLineAndExitStatusOne(_ example: BadInput) throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["thumbnail"] + example.arguments, in: folder)

        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError == example.line + "\n")
    }

    @Test func theOutputIsRequired() throws {
        let folder = try CLIMediaWorkspace.folder.get()

        let outcome = try MarqueeProcess.run(["thumbnail", "media/clip.mp4", "--at", "1"], in: folder)

        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains("Missing expected argument '--output <output>'"))
    }
}

/// Media for the CLI tests, made once per test process with the ffmpeg CLI:
/// `media/clip.mp4` holds 100 frames (4 s at 25 fps, H.264, a key frame every 25 frames) that each
/// show their own index as a 4x4 grid of white blocks on black (block k white iff bit k is set, in a
/// 320x240 picture with a 32x24 margin: the same pattern as MarqueeMediaTests' FrameIndexCodec);
/// `media/tone.m4a` is 1 s of audio only.
enum CLIMediaWorkspace {
    static let folder: Result<URL, CLIFixtures.Failure> = {
        do {
            let folder = try CLIFixtures.workspace(prefix: "marquee-media-cli-")
            let media = folder.appendingPathComponent("media", isDirectory: true)
            try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
            let bit = "pow(2,floor((X-32)/64)+4*floor((Y-24)/48))"
            let graph = "color=c=black:size=320x240:rate=25,format=yuv420p,"
                + "geq=lum='if(between(X,32,287)*between(Y,24,215),if(bitand(N,\(bit)),235,16),16)':cb=128:cr=128"
            try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", graph, "-frames:v", "100", "-c:v", "libx264", "-preset", "veryfast",
                           "-crf", "18", "-pix_fmt", "yuv420p", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0",
                           media.appendingPathComponent("clip.mp4").path])
            try CLIFixtures.runFFmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1", "-c:a", "aac",
                           media.appendingPathComponent("tone.m4a").path])
            return .success(folder)
        } catch let failure as CLIFixtures.Failure {
            return .failure(failure)
        } catch {
            return .failure(CLIFixtures.Failure(description: "could not make the CLI test media: \(error)"))
        }
    }()

    /// A PNG as Marquee decodes it, drawn at its own size.
    static func readPNG(_ url: URL) throws -> Canvas {
        let reader = try FFmpegMediaOpener().open(url.path)
        let size = try #require(reader.asset.codedSize)
        let picture = try #require(try reader.nextPicture())
        let canvas = Canvas(size: size)
        let placement = VideoPlacement(sourceCrop: PixelRect(size: size), destination: PixelRect(size: size), rotation: .none)
        try canvas.withPixelBuffer { try picture.draw(into: $0, placement: placement, background: .black) }
        return canvas
    }

    /// The frame index shown by the 320x240 pattern drawn into `rect` (default: the whole canvas),
    /// judged at each block's centre.
    static func frameIndex(in canvas: Canvas, pictureRect rect: PixelRect? = nil) -> Int {
        let rect = rect ?? PixelRect(size: canvas.size)
        var index = 0
        for bit in 0..<16 {
            let x = rect.x + (32 + (bit % 4) * 64 + 32) * rect.width / 320
            let y = rect.y + (24 + (bit / 4) * 48 + 24) * rect.height / 240
            let color = canvas[x, y]
            if (Int(color.red) + Int(color.green) + Int(color.blue)) / 3 > 128 { index |= 1 << bit }
        }
        return index
    }
}
