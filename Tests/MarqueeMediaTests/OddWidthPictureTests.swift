import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// Pictures whose width is not a multiple of libswscale's SIMD block (16 pixels): the converter
/// writes whole blocks, so drawing straight into a buffer overwrote the pixels beside the picture
/// and, on a screen exactly as wide, ran past the buffer's end (a 200x200 clip on a 200x200
/// headless screen aborted the player with heap corruption).
@Suite struct OddWidthPictureTests {
    static let redStrip = FixtureMedia.Recipe(name: "red-200x112.mp4") { output in
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "color=c=red:size=200x112:rate=25:duration=0.2",
                                 "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", output.path])
    }

    @Test func thePixelsBesideAnOddWidthPictureStayTheBackground() throws {
        let background = RGBColor(red: 1, green: 2, blue: 3)
        // At its natural size, centred in a screen 8 pixels wider: 4 background columns each side.
        let canvas = try Thumbnailer.thumbnail(of: FixtureMedia.path(Self.redStrip), at: .zero, exact: true,
                                               size: PixelSize(width: 208, height: 112), scaling: ScalingMode.none, background: background)
        for y in 0..<112 {
            for x in [0, 1, 2, 3, 204, 205, 206, 207] {
                #expect(canvas[x, y] == background, "(\(x), \(y)) is \(canvas[x, y])")
                if canvas[x, y] != background { return }
            }
        }
        #expect(canvas[4, 56].red > 200 && canvas[203, 56].red > 200)
    }

    @Test(arguments: [PixelSize(width: 200, height: 112), PixelSize(width: 100, height: 56), PixelSize(width: 210, height: 118)])
    func aScreenExactlyAsWideAsAnOddPictureIsFilledAndNothingElse(_ size: PixelSize) throws {
        for _ in 0..<20 {
            let canvas = try Thumbnailer.thumbnail(of: FixtureMedia.path(Self.redStrip), at: .zero, exact: true, size: size,
                                                   scaling: .fill)
            #expect(canvas.size == size)
            #expect(canvas[size.width - 1, size.height - 1].red > 200)
        }
    }
}
