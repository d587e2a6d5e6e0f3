import Foundation
import MarqueeCore
@testable import MarqueeMedia
import Testing

/// Large stills (issue 13, "a huge still"): one over `display.maxImagePixels` is refused from its
/// header; one under it is decoded once, shrunk to the screen at once, and kept at that size.
@Suite struct HugeStillTests {
    static let limit = ImagePixelLimit(width: 4096, height: 4096)

    @Test func aStillOverTheLimitIsRefusedWithItsSizeAndTheLimit() throws {
        let path = try FixtureMedia.path(.hugeFlatPNG)
        let options = MediaOpenOptions(maxImagePixels: Self.limit)

        let error = #expect(throws: MediaOpenError.self) { try AssetProbe.asset(at: path, options: options) }
        #expect(error?.reason == .imageTooLarge(size: PixelSize(width: 8000, height: 8000), limit: Self.limit))
        #expect(error?.description == "\(path): image too large: 8000x8000 pixels; display.maxImagePixels is 4096x4096")

        // The player's way in says the same.
        let playback = #expect(throws: PlaybackError.self) { try FFmpegMediaOpener(options: options).open(path) }
        #expect(playback?.description == "\(path): image too large: 8000x8000 pixels; display.maxImagePixels is 4096x4096")
    }

    /// A limit written as a pixel count is reported as written.
    @Test func aLimitGivenAsAPixelCountIsNamedSo() throws {
        let path = try FixtureMedia.path(.hugeFlatPNG)
        let limit = try #require(ImagePixelLimit(parsing: "1000000"))

        let error = #expect(throws: MediaOpenError.self) {
            try AssetProbe.asset(at: path, options: MediaOpenOptions(maxImagePixels: limit))
        }
        #expect(error?.reason.description == "image too large: 8000x8000 pixels; display.maxImagePixels is 1000000")
    }

    /// Probing learns the size from the picture's header: the 192 MB picture is not decoded (it
    /// was, inside avformat_find_stream_info, and then again by the reader). Measured in CPU time of
    /// the probing thread (FFmpeg decodes there with one thread during the probe), which a loaded
    /// machine does not inflate: a decode of this picture costs 0.3 s or more, its header nothing.
    @Test func aStillIsProbedFromItsHeaderWithoutDecodingIt() throws {
        let path = try FixtureMedia.path(.hugeFlatPNG)

        let (asset, cpu) = try Self.threadCPUTime { try AssetProbe.asset(at: path) }

        #expect(asset.isStillImage)
        #expect(asset.codedSize == PixelSize(width: 8000, height: 8000))
        #expect(asset.naturalSize == PixelSize(width: 8000, height: 8000))
        #expect(cpu < 0.1, "probing took \(cpu) s of CPU: the picture was decoded")
    }

    /// The reader hands out the still at the least size that covers the screen (aspectFill crops
    /// the longer side, so that is the size every scaling mode needs), drawn with its own colours.
    @Test func aLargeStillIsKeptAtTheSizeThatCoversTheScreen() throws {
        let screen = PixelSize(width: 1280, height: 720)
        let reader = try FFmpegMediaOpener(options: MediaOpenOptions(stillScreenSize: screen))
            .open(FixtureMedia.path(.largeTwoColourJPEG))
        let codedSize = try #require(reader.asset.codedSize)
        #expect(codedSize == PixelSize(width: 6000, height: 4000))

        let picture = try #require(try reader.nextPicture() as? DecodedPicture)

        // 6000x4000 times max(1280/6000, 720/4000) = 0.2133...: 1280 wide, 854 high (rounded up).
        #expect(picture.size == PixelSize(width: 1280, height: 854))
        // Laid out for the asset's size, as the engine does: the halves land where they belong.
        let canvas = try picture.canvas(size: PixelSize(width: 320, height: 240), codedSize: codedSize)
        let left = canvas[80, 120], right = canvas[240, 120]
        #expect(left.distance(to: ColourConversionTests.left) <= ColourConversionTests.tolerance, "left half is \(left)")
        #expect(right.distance(to: ColourConversionTests.right) <= ColourConversionTests.tolerance, "right half is \(right)")
        #expect(try reader.nextPicture() == nil)
    }

    /// Without a screen (thumbnails, probes) or when the still is small, it stays as decoded.
    @Test func aStillNoLargerThanTheScreenOrWithoutOneStaysAsDecoded() throws {
        let large = try FFmpegMediaOpener().open(FixtureMedia.path(.largeTwoColourJPEG))
        #expect((try large.nextPicture() as? DecodedPicture)?.size == PixelSize(width: 6000, height: 4000))
        let small = try FFmpegMediaOpener(options: MediaOpenOptions(stillScreenSize: PixelSize(width: 1280, height: 720)))
            .open(FixtureMedia.path(.stillPNG))
        #expect((try small.nextPicture() as? DecodedPicture)?.size == PixelSize(width: 320, height: 240))
    }

    @Test(arguments: [
        // coded, natural, screen → kept
        (PixelSize(width: 8000, height: 8000), PixelSize(width: 8000, height: 8000), PixelSize(width: 1920, height: 1080),
         PixelSize(width: 1920, height: 1920) as PixelSize?),
        // A portrait picture turned a quarter (natural is coded swapped) on a landscape screen.
        (PixelSize(width: 4000, height: 3000), PixelSize(width: 3000, height: 4000), PixelSize(width: 1920, height: 1080),
         PixelSize(width: 2560, height: 1920)),
        (PixelSize(width: 1920, height: 1080), PixelSize(width: 1920, height: 1080), PixelSize(width: 1920, height: 1080), nil),
        // A panorama narrower than the screen is tall: covering the screen's height needs it whole.
        (PixelSize(width: 16000, height: 500), PixelSize(width: 16000, height: 500), PixelSize(width: 1920, height: 1080), nil),
    ] as [(PixelSize, PixelSize, PixelSize, PixelSize?)])
    func theKeptSizeCoversTheScreenInEveryMode(coded: PixelSize, natural: PixelSize, screen: PixelSize, kept: PixelSize?) {
        #expect(StillDownscale.keptSize(codedSize: coded, naturalSize: natural, screen: screen) == kept)
    }

    static func threadCPUTime<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = now()
        let result = try body()
        return (result, now() - start)
    }
}

extension FixtureMedia.Recipe {
    /// 8000x8000 of one colour as PNG: 192 MB decoded, a few hundred KB on disk.
    static let hugeFlatPNG = Self(name: "huge-flat-8000.png") { output in
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "color=c=green:s=8000x8000", "-frames:v", "1", output.path])
    }

    /// 6000x4000 JPEG (yuvj420p), left half 0xDC2828, right half 0xE6C828, as `coloursJPEG`.
    static let largeTwoColourJPEG = twoColours(name: "colours-6000x4000.jpg", width: 6000, height: 4000, matrix: "bt601",
                                               range: "full", pixelFormat: "yuvj420p", codec: ["-q:v", "2", "-update", "1"])
}
