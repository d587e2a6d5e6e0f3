import Testing
@testable import MarqueeCore

/// Blending the OSD onto the picture: faded by opacity, only inside its rectangle, clipped to the
/// buffer, and turned with a picture that was turned in software for a portrait screen.
@Suite struct OverlayBlendTests {
    static let grey = RGBColor(red: 100, green: 100, blue: 100)

    static func panel(_ size: PixelSize, _ color: OverlayColor) -> OverlayImage {
        var image = OverlayImage(size: size)
        image.fill(PixelRect(size: size), with: color)
        return image
    }

    @Test func opacityZeroLeavesTheBufferUntouched() {
        let canvas = Canvas(size: PixelSize(width: 8, height: 6), background: Self.grey)
        let before = canvas.pixels
        canvas.withPixelBuffer { _ = $0.blend(Self.panel(PixelSize(width: 4, height: 4), .white), x: 1, y: 1, opacity: 0) }
        #expect(canvas.pixels == before)
    }

    @Test func fullOpacityOverAnOpaqueWhitePanelGivesWhiteOnlyInsideIt() {
        let canvas = Canvas(size: PixelSize(width: 8, height: 6), background: Self.grey)
        let touched = canvas.withPixelBuffer { $0.blend(Self.panel(PixelSize(width: 3, height: 2), .white), x: 2, y: 1) }
        #expect(touched == PixelRect(x: 2, y: 1, width: 3, height: 2))
        for y in 0..<6 {
            for x in 0..<8 {
                let inside = touched.contains(PixelRect(x: x, y: y, width: 1, height: 1))
                #expect(canvas[x, y] == (inside ? RGBColor(red: 255, green: 255, blue: 255) : Self.grey), "(\(x), \(y))")
            }
        }
    }

    @Test func translucentPanelAndHalfOpacityMixWithThePicture() {
        let canvas = Canvas(size: PixelSize(width: 2, height: 1), background: RGBColor(red: 200, green: 200, blue: 200))
        canvas.withPixelBuffer { buffer in
            buffer.blend(Self.panel(PixelSize(width: 1, height: 1), OverlayColor(.black, opacity: 0.5)), x: 0, y: 0)
            buffer.blend(Self.panel(PixelSize(width: 1, height: 1), .black), x: 1, y: 0, opacity: 0.5)
        }
        // Both darken 200 by half; the fade and the panel's own alpha are one and the same.
        #expect(canvas[0, 0].distance(to: RGBColor(red: 100, green: 100, blue: 100)) <= 1)
        #expect(canvas[1, 0].distance(to: RGBColor(red: 100, green: 100, blue: 100)) <= 1)
    }

    @Test func theBuffersUnusedByteIsKept() {
        var storage: [UInt32] = [0xAB00_0000, 0xCD12_3456]
        storage.withUnsafeMutableBytes { bytes in
            let buffer = PixelBuffer(baseAddress: bytes.baseAddress!, bytesPerRow: 8, size: PixelSize(width: 2, height: 1))
            buffer.blend(Self.panel(PixelSize(width: 2, height: 1), OverlayColor(.black, opacity: 0.5)), x: 0, y: 0)
        }
        #expect(storage[0] >> 24 == 0xAB)
        #expect(storage[1] >> 24 == 0xCD)
    }

    /// An overlay with one marked pixel at its top-left, blended at (1, 0) of the upright picture:
    /// the marked pixel must land where turning the whole upright picture clockwise puts (1, 0).
    @Test(arguments: [
        // Upright picture 6x4 (buffer 6x4 or 4x6 when turned); overlay 3x2 at (1, 0).
        (Rotation.none, PixelSize(width: 6, height: 4), (1, 0), PixelRect(x: 1, y: 0, width: 3, height: 2)),
        // A quarter turn clockwise: upright (x, y) goes to (height - 1 - y, x) with the upright height 4.
        (.clockwise90, PixelSize(width: 4, height: 6), (3, 1), PixelRect(x: 2, y: 1, width: 2, height: 3)),
        (.upsideDown, PixelSize(width: 6, height: 4), (4, 3), PixelRect(x: 2, y: 2, width: 3, height: 2)),
        // Three quarters: upright (x, y) goes to (y, width - 1 - x) with the upright width 6.
        (.clockwise270, PixelSize(width: 4, height: 6), (0, 4), PixelRect(x: 0, y: 2, width: 2, height: 3)),
    ])
    func turnedBlendPutsTheTopLeftCornerWhereTheTurnDoes(_ rotation: Rotation, _ bufferSize: PixelSize,
                                                          _ corner: (Int, Int), _ rect: PixelRect) {
        var overlay = Self.panel(PixelSize(width: 3, height: 2), OverlayColor(red: 0, green: 0, blue: 255))
        overlay.fill(PixelRect(x: 0, y: 0, width: 1, height: 1), with: OverlayColor(red: 255, green: 0, blue: 0))
        let canvas = Canvas(size: bufferSize)
        let touched = canvas.withPixelBuffer { $0.blend(overlay, x: 1, y: 0, turnedClockwise: rotation) }

        #expect(touched == rect)
        let red = RGBColor(red: 255, green: 0, blue: 0), blue = RGBColor(red: 0, green: 0, blue: 255)
        for y in 0..<bufferSize.height {
            for x in 0..<bufferSize.width {
                let expected = (x, y) == corner ? red : rect.contains(PixelRect(x: x, y: y, width: 1, height: 1)) ? blue : .black
                #expect(canvas[x, y] == expected, "(\(x), \(y))")
            }
        }
    }

    @Test(arguments: Rotation.allCases)
    func blendingOffEveryEdgeIsClipped(_ rotation: Rotation) {
        let overlay = Self.panel(PixelSize(width: 5, height: 3), .white)
        let canvas = Canvas(size: PixelSize(width: 4, height: 4))
        let upright = canvas.size.rotated(by: rotation)
        canvas.withPixelBuffer { buffer in
            for (x, y) in [(-3, -2), (upright.width - 2, -1), (-4, upright.height - 1), (upright.width - 1, upright.height - 2),
                           (100, 100), (-100, -100), (-1, -1)] {
                let touched = buffer.blend(overlay, x: x, y: y, turnedClockwise: rotation)
                #expect(PixelRect(size: canvas.size).contains(touched))
            }
        }
        let white = canvas.pixels.filter { $0 == 0xFF_FFFF }.count
        #expect(white > 0 && white < 16)
    }
}

/// The eight-at-a-time path (upright, full opacity) gives exactly what "source over" gives pixel by
/// pixel, for every alpha, with odd widths that leave a tail for the one-by-one loop.
@Suite struct OverlayBlendVectorTests {
    @Test(arguments: [1, 7, 8, 9, 61])
    func eightAtATimeMatchesOneByOne(width: Int) {
        var random = SeededRandom(seed: UInt64(width))
        var overlay = OverlayImage(size: PixelSize(width: width, height: 3))
        for y in 0..<3 {
            for x in 0..<width {
                let alpha = UInt8(truncatingIfNeeded: random.next())
                let shade = OverlayColor(red: UInt8(truncatingIfNeeded: random.next()), green: UInt8(truncatingIfNeeded: random.next()),
                                         blue: UInt8(truncatingIfNeeded: random.next()), alpha: alpha)
                overlay.fill(PixelRect(x: x, y: y, width: 1, height: 1), with: shade)
            }
        }
        let canvas = Canvas(size: PixelSize(width: width + 5, height: 5), background: RGBColor(red: 30, green: 140, blue: 220))
        let before = canvas.pixels
        canvas.withPixelBuffer { _ = $0.blend(overlay, x: 2, y: 1) }
        for y in 0..<3 {
            for x in 0..<width {
                let old = before[(y + 1) * (width + 5) + x + 2]
                let expected = (PremultipliedPixel.over(overlay[x, y], old) & 0x00FF_FFFF) | (old & 0xFF00_0000)
                #expect(canvas.pixels[(y + 1) * (width + 5) + x + 2] == expected, "pixel \(x),\(y)")
            }
        }
    }
}
