import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueeTestSupport
import Testing

/// A screenshot scaled down and encoded (`mqtt.screenshots`, `screenshot` with `width`/`format`):
/// decoded back by the ffmpeg CLI, it has the thumbnail's size and the picture's colours where they were.
@Suite struct ScreenshotEncoderTests {
    /// Left half red, right half blue: a crop or a mirrored scale would put a colour on the wrong side.
    static func halves(_ size: PixelSize) -> Canvas {
        let canvas = Canvas(size: size)
        canvas.withPixelBuffer { buffer in
            buffer.fill(PixelRect(x: 0, y: 0, width: size.width / 2, height: size.height), with: RGBColor(red: 255, green: 0, blue: 0))
            buffer.fill(PixelRect(x: size.width / 2, y: 0, width: size.width - size.width / 2, height: size.height),
                        with: RGBColor(red: 0, green: 0, blue: 255))
        }
        return canvas
    }

    private func near(_ found: [Int], _ expected: [Int], within tolerance: Int) -> Bool {
        DecodedImageFile.isNear(found, expected, within: tolerance)
    }

    @Test func aJPEGThumbnailHasTheWidthAskedTheShapeKeptAndTheColoursInPlace() throws {
        let image = try ScreenshotEncoder.encode(Self.halves(PixelSize(width: 640, height: 360)), width: 160, format: .jpeg)

        #expect(image.size == PixelSize(width: 160, height: 90) && image.format == .jpeg)
        #expect(image.bytes.starts(with: [0xFF, 0xD8, 0xFF]))  // a JPEG's start of image
        let decoded = try DecodedImageFile(image.bytes)
        #expect(decoded.width == 160 && decoded.height == 90)
        // JPEG is lossy (and 4:2:0 blurs colour at the edge): well inside each half, a few levels off at most.
        #expect(near(decoded.colour(x: 40, y: 45), [255, 0, 0], within: 8), "\(decoded.colour(x: 40, y: 45))")
        #expect(near(decoded.colour(x: 120, y: 45), [0, 0, 255], within: 8), "\(decoded.colour(x: 120, y: 45))")
    }

    @Test func aPNGThumbnailIsExactAwayFromTheEdge() throws {
        let image = try ScreenshotEncoder.encode(Self.halves(PixelSize(width: 1280, height: 800)), width: 480, format: .png)

        #expect(image.size == PixelSize(width: 480, height: 300))
        #expect(image.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let decoded = try DecodedImageFile(image.bytes)
        #expect(decoded.width == 480 && decoded.height == 300)
        #expect(decoded.colour(x: 100, y: 150) == [255, 0, 0] && decoded.colour(x: 380, y: 150) == [0, 0, 255],
                "\(decoded.colour(x: 100, y: 150)) \(decoded.colour(x: 380, y: 150))")
    }

    @Test func aPictureNarrowerThanTheWidthIsNotEnlarged() throws {
        let image = try ScreenshotEncoder.encode(Self.halves(PixelSize(width: 200, height: 100)), width: 480, format: .jpeg)

        #expect(image.size == PixelSize(width: 200, height: 100))
        let decoded = try DecodedImageFile(image.bytes)
        #expect(decoded.width == 200 && decoded.height == 100 && near(decoded.colour(x: 50, y: 50), [255, 0, 0], within: 8))
    }

    /// A portrait screen's thumbnail has an odd height: 4:2:0 JPEG rounds its chroma up, not off.
    @Test func aPortraitScreenGivesAnOddHeightJPEG() throws {
        let image = try ScreenshotEncoder.encode(Self.halves(PixelSize(width: 1080, height: 1920)), width: 480, format: .jpeg)

        #expect(image.size == PixelSize(width: 480, height: 853))
        let decoded = try DecodedImageFile(image.bytes)
        #expect(decoded.width == 480 && decoded.height == 853)
        #expect(near(decoded.colour(x: 100, y: 852), [255, 0, 0], within: 8) && near(decoded.colour(x: 380, y: 852), [0, 0, 255], within: 8),
                "\(decoded.colour(x: 100, y: 852)) \(decoded.colour(x: 380, y: 852))")
    }

    @Test func thumbnailSizesKeepTheShape() {
        #expect(PixelSize(width: 1920, height: 1080).thumbnail(width: 480) == PixelSize(width: 480, height: 270))
        #expect(PixelSize(width: 1080, height: 1920).thumbnail(width: 480) == PixelSize(width: 480, height: 853))
        #expect(PixelSize(width: 1000, height: 3).thumbnail(width: 64) == PixelSize(width: 64, height: 1))
        #expect(PixelSize(width: 320, height: 180).thumbnail(width: 320) == PixelSize(width: 320, height: 180))
    }

    @Test func anEmptyCanvasHasNoImage() throws {
        let error = try #require(throws: FFmpegError.self) {
            try ScreenshotEncoder.encode(Canvas(size: PixelSize(width: 0, height: 5)), width: 64, format: .jpeg)
        }
        #expect(error.description.contains("empty 0x5 picture"))
    }
}
