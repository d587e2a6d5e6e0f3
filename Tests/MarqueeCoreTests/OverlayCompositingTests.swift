import Testing
@testable import MarqueeCore

/// Putting the OSD together for an overlay plane: unlike blending onto the video, the picture keeps
/// its alpha, and laying it over the video afterwards gives what blending its parts did.
@Suite struct OverlayCompositingTests {
    static func panel(_ size: PixelSize, _ color: OverlayColor) -> OverlayImage {
        var image = OverlayImage(size: size)
        image.fill(PixelRect(size: size), with: color)
        return image
    }

    /// An image whose every pixel says where it was: opaque, red = x, green = y.
    static func numbered(_ size: PixelSize) -> OverlayImage {
        var image = OverlayImage(size: size)
        for y in 0..<size.height {
            for x in 0..<size.width {
                image.fill(PixelRect(x: x, y: y, width: 1, height: 1), with: OverlayColor(red: UInt8(x), green: UInt8(y), blue: 9))
            }
        }
        return image
    }

    @Test func fadingScalesAlphaWithTheColours() {
        let half = Self.panel(PixelSize(width: 2, height: 1), .white).faded(0.5)
        #expect(half[0, 0] == 0x7F7F_7F7F)
        #expect(Self.panel(PixelSize(width: 2, height: 1), .white).faded(0).pixels == [0, 0])
        let whole = Self.panel(PixelSize(width: 2, height: 1), OverlayColor(.black, opacity: 0.65))
        #expect(whole.faded(1) == whole)
    }

    @Test func compositingKeepsAlphaAndClipsToTheImage() {
        var image = Self.panel(PixelSize(width: 4, height: 2), OverlayColor(.black, opacity: 0.5))
        image.composite(Self.panel(PixelSize(width: 3, height: 3), .white), x: 2, y: 1, opacity: 0.5)
        // Outside the white: the half-transparent black as it was.
        #expect(image.alpha(x: 0, y: 0) == 128 && image[0, 0] & 0x00FF_FFFF == 0)
        // Half white over half black: alpha 1/2 + 1/2 × 1/2 = 3/4, colour 1/2 premultiplied.
        let mixed = image[3, 1]
        #expect(abs(Int(mixed >> 24) - 191) <= 1, "alpha \(mixed >> 24)")
        #expect(abs(Int((mixed >> 16) & 0xFF) - 128) <= 1, "red \((mixed >> 16) & 0xFF)")
        #expect(image[2, 0] == image[0, 0], "the row above the white is untouched")
    }

    /// Laid over a picture, the composed OSD (panel and bar, faded) looks like the panel and the
    /// bar blended onto it one after the other, as the blend path draws them.
    @Test(arguments: [1.0, 0.6, 0.25])
    func composedThenLaidOverLooksLikeBlendedPartByPart(opacity: Double) {
        let panel = Self.panel(PixelSize(width: 20, height: 8), OverlayColor(.black, opacity: 0.65))
        let bar = Self.panel(PixelSize(width: 9, height: 2), OverlayColor(red: 240, green: 240, blue: 240, alpha: 230))
        let background = RGBColor(red: 40, green: 160, blue: 220)
        let blended = Canvas(size: PixelSize(width: 30, height: 12), background: background)
        blended.withPixelBuffer { buffer in
            buffer.blend(panel, x: 5, y: 2, opacity: opacity)
            buffer.blend(bar, x: 8, y: 5, opacity: opacity)
        }
        var composed = panel.faded(opacity)
        composed.composite(bar, x: 3, y: 3, opacity: opacity)
        let laid = Canvas(size: PixelSize(width: 30, height: 12), background: background)
        laid.withPixelBuffer { _ = $0.blend(composed, x: 5, y: 2) }
        for (a, b) in zip(blended.pixels, laid.pixels) {
            #expect(RGBColor(xrgb8888: a).distance(to: RGBColor(xrgb8888: b)) <= 2)
        }
    }

    /// Turning the image puts each pixel where turning its rectangle inside a container does: the
    /// top-left pixel of an image placed at the container's origin lands on the turned rect's
    /// corner that the turn makes of it.
    @Test(arguments: Rotation.allCases)
    func turningMovesPixelsAsTheRectangleTurns(_ rotation: Rotation) {
        let image = Self.numbered(PixelSize(width: 3, height: 2))
        let turned = image.turned(clockwise: rotation)
        #expect(turned.size == image.size.rotated(by: rotation))
        for y in 0..<2 {
            for x in 0..<3 {
                let spot = PixelRect(x: x, y: y, width: 1, height: 1).rotated(rotation, within: image.size)
                #expect(turned[spot.x, spot.y] == image[x, y], "(\(x), \(y)) turned \(rotation)")
            }
        }
    }

    @Test func croppingTakesThePartInsideAndClips() {
        let image = Self.numbered(PixelSize(width: 5, height: 4))
        let part = image.cropped(to: PixelRect(x: 1, y: 2, width: 3, height: 5))
        #expect(part.size == PixelSize(width: 3, height: 2))
        #expect(part[0, 0] == image[1, 2] && part[2, 1] == image[3, 3])
        #expect(image.cropped(to: PixelRect(x: -1, y: -1, width: 9, height: 9)) == image)
    }
}
