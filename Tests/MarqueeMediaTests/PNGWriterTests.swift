import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// A PNG made in memory (a screenshot to send) decodes back to exactly the canvas, and is the same
/// file `write` saves.
@Suite struct PNGWriterTests {
    /// Every pixel different, so a swapped channel, a row off by one or a lost column shows.
    static func gradient(_ size: PixelSize) -> Canvas {
        let canvas = Canvas(size: size)
        canvas.withPixelBuffer { buffer in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let colour = RGBColor(red: UInt8(x * 255 / (size.width - 1)), green: UInt8(y * 255 / (size.height - 1)),
                                          blue: UInt8((x * 7 + y * 13) % 256))
                    buffer.fill(PixelRect(x: x, y: y, width: 1, height: 1), with: colour)
                }
            }
        }
        return canvas
    }

    @Test func pngBytesDecodeBackToTheSamePixels() throws {
        let canvas = Self.gradient(PixelSize(width: 97, height: 61))

        let bytes = try PNGWriter.pngData(canvas)

        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))  // the PNG signature
        let folder = try FixtureMedia.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shot.png").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try FFmpegMediaOpener().open(path)
        #expect(reader.asset.containerName == "png_pipe" && reader.asset.codedSize == canvas.size)
        let picture = try #require(try reader.nextPicture())
        let readBack = try picture.canvas(size: canvas.size, codedSize: canvas.size)
        // The decoder fills the X byte (0xFF) where the canvas has 0: compare the colours.
        let differing = zip(readBack.pixels, canvas.pixels).filter { $0 & 0xFF_FFFF != $1 & 0xFF_FFFF }.count
        #expect(differing == 0)
    }

    @Test func writeSavesThePNGBytes() throws {
        let canvas = Self.gradient(PixelSize(width: 16, height: 9))
        let folder = try FixtureMedia.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("thumb.png").path

        try PNGWriter.write(canvas, to: path)

        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == PNGWriter.pngData(canvas))
    }

    @Test func anEmptyCanvasHasNoPNG() throws {
        let error = try #require(throws: FFmpegError.self) { try PNGWriter.pngData(Canvas(size: PixelSize(width: 0, height: 5))) }

        #expect(error.description.contains("empty 0x5 picture"))
    }
}
