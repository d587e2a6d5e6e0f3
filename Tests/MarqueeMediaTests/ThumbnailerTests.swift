import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// Thumbnails pick the right frame (keyframe or exact), at the right size, and PNGs hold exactly
/// the canvas they were written from.
@Suite struct ThumbnailerTests {
    @Test func keyFrameModeTakesTheKeyFrameAtOrBeforeTheTime() throws {
        let canvas = try Thumbnailer.thumbnail(of: FixtureMedia.path(.frameIndexH264), at: MediaTime(5, per: 2))

        #expect(canvas.size == FrameIndexCodec.pictureSize)
        #expect(FrameIndexCodec.index(in: canvas) == 50)  // key frames every second
    }

    @Test(arguments: [(MediaTime(5, per: 2), 62), (MediaTime(seconds: 2), 50), (MediaTime(39, per: 10), 97), (MediaTime(seconds: 60), 99)])
    func exactModeTakesTheFrameOnScreenAtTheTime(_ time: MediaTime, _ index: Int) throws {
        let canvas = try Thumbnailer.thumbnail(of: FixtureMedia.path(.frameIndexVP9), at: time, exact: true)

        #expect(FrameIndexCodec.index(in: canvas) == index)
    }

    @Test func theDefaultSizeIsTheNaturalSize() throws {
        let canvas = try Thumbnailer.thumbnail(of: FixtureMedia.path(.anamorphicQuadrants), at: .zero)

        #expect(canvas.size == PixelSize(width: 1024, height: 576))
    }

    @Test func aSizeOfAnotherShapeIsFittedWithBars() throws {
        let background = RGBColor(red: 1, green: 2, blue: 3)

        let canvas = try Thumbnailer.thumbnail(of: FixtureMedia.path(.frameIndexH264), at: MediaTime(seconds: 1), exact: true,
                                               size: PixelSize(width: 640, height: 240), scaling: .aspectFit, background: background)

        // 320x240 fits 640x240 as 320x240 centred: bars of 160 on each side.
        #expect(canvas[159, 120] == background && canvas[480, 120] == background)
        #expect(FrameIndexCodec.index(in: canvas, pictureRect: PixelRect(x: 160, y: 0, width: 320, height: 240)) == 25)
    }

    @Test func audioOnlyMediaHasNoThumbnail() throws {
        let path = try FixtureMedia.path(.aacM4A)

        let error = try #require(throws: PlaybackError.self) { try Thumbnailer.thumbnail(of: path, at: .zero) }

        #expect(error == PlaybackError(url: path, reason: "no video stream to take a picture of"))
    }

    @Test func aPNGHoldsExactlyTheCanvas() throws {
        let canvas = try Thumbnailer.thumbnail(of: FixtureMedia.path(.anamorphicQuadrants), at: .zero,
                                               size: PixelSize(width: 333, height: 201), scaling: .aspectFill)
        let folder = try FixtureMedia.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("thumb.png").path

        try PNGWriter.write(canvas, to: path)

        let reader = try FFmpegMediaOpener().open(path)
        #expect(reader.asset.isStillImage && reader.asset.containerName == "png_pipe")
        #expect(reader.asset.codedSize == canvas.size)
        let picture = try #require(try reader.nextPicture())
        let readBack = try picture.canvas(size: canvas.size, codedSize: canvas.size)
        #expect(readBack.pixels == canvas.pixels)  // lossless, both ways
    }

    @Test func writingIntoAMissingFolderSaysWhy() throws {
        let path = "/nonexistent-folder-\(UUID().uuidString)/thumb.png"

        let error = try #require(throws: ImageWriteError.self) { try PNGWriter.write(Canvas(size: PixelSize(width: 2, height: 2)), to: path) }

        #expect(error.description == "\(path): No such file or directory")
    }
}
