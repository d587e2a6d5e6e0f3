import Testing
import MarqueeCore

/// The OSD's drawing surface: premultiplied pixels, composited over, clipped at its edges.
@Suite struct OverlayImageTests {
    @Test func startsTransparent() {
        let image = OverlayImage(size: PixelSize(width: 3, height: 2))
        #expect(image.pixels == [0, 0, 0, 0, 0, 0])
    }

    @Test func fillStoresTheColourPremultiplied() {
        var image = OverlayImage(size: PixelSize(width: 2, height: 1))
        image.fill(PixelRect(x: 0, y: 0, width: 1, height: 1), with: OverlayColor(red: 255, green: 128, blue: 0, alpha: 128))
        // 255 * 128/255 = 128, 128 * 128/255 = 64; the second pixel was outside the rect.
        #expect(image[0, 0] == 0x8080_4000)
        #expect(image[1, 0] == 0)
    }

    @Test func fillCompositesOverWhatIsThere() {
        var image = OverlayImage(size: PixelSize(width: 1, height: 1))
        let rect = PixelRect(x: 0, y: 0, width: 1, height: 1)
        image.fill(rect, with: OverlayColor(.black, opacity: 0.5))
        image.fill(rect, with: OverlayColor(red: 255, green: 255, blue: 255, alpha: 128))
        // Half white over half black: alpha 1 - 0.5 * 0.5 = 0.75, colour premultiplied 0.5.
        #expect(abs(Int(image.alpha(x: 0, y: 0)) - 191) <= 1)
        #expect(abs(Int(image[0, 0] >> 16 & 0xFF) - 128) <= 1)
    }

    @Test func roundedCornersLeaveTheCornerPixelEmptyAndTheMiddleFull() {
        var image = OverlayImage(size: PixelSize(width: 40, height: 20))
        image.fill(PixelRect(x: 0, y: 0, width: 40, height: 20), with: .white, cornerRadius: 8)
        for (x, y) in [(0, 0), (39, 0), (0, 19), (39, 19)] {
            #expect(image.alpha(x: x, y: y) == 0, "corner (\(x), \(y))")
        }
        #expect(image.alpha(x: 20, y: 0) == 255)
        #expect(image.alpha(x: 0, y: 10) == 255)
        #expect(image.alpha(x: 20, y: 10) == 255)
        // On the arc the edge is blended, not stepped.
        let arc = (0..<8).map { image.alpha(x: $0, y: $0) }
        #expect(arc.contains { $0 > 0 && $0 < 255 })
    }

    @Test func fillIsClippedToTheImage() {
        var image = OverlayImage(size: PixelSize(width: 4, height: 4))
        image.fill(PixelRect(x: -10, y: 2, width: 12, height: 100), with: .white)
        image.fill(PixelRect(x: 10, y: 10, width: 5, height: 5), with: .white)
        #expect(image.alpha(x: 1, y: 3) == 255)
        #expect(image.alpha(x: 2, y: 3) == 0)
        #expect(image.alpha(x: 0, y: 1) == 0)
    }

    @Test func aRoundedPanelPartlyOffTheImageStillRoundsTheCornerThatShows() {
        var image = OverlayImage(size: PixelSize(width: 4, height: 4))
        // The panel's right edge is at x = 2 and its top at y = 2; the top-right arc (radius 3)
        // cuts off the pixel in the very corner and passes through (1, 3).
        image.fill(PixelRect(x: -10, y: 2, width: 12, height: 100), with: .white, cornerRadius: 3)
        #expect(image.alpha(x: 0, y: 3) == 255)
        #expect(image.alpha(x: 1, y: 3) > 0 && image.alpha(x: 1, y: 3) < 255)
        #expect(image.alpha(x: 1, y: 2) == 0)
    }

    @Test func progressFillCoversTheFractionWithAPartialLastColumn() {
        var image = OverlayImage(size: PixelSize(width: 10, height: 2))
        image.fill(PixelRect(x: 0, y: 0, width: 10, height: 2), leftFraction: 0.35, with: .white)
        #expect((0..<3).allSatisfy { image.alpha(x: $0, y: 1) == 255 })
        #expect(abs(Int(image.alpha(x: 3, y: 1)) - 128) <= 1)
        #expect((4..<10).allSatisfy { image.alpha(x: $0, y: 1) == 0 })
    }

    @Test(arguments: [0.0, -1.0, Double.nan])
    func progressFillOfNothingPaintsNothing(_ fraction: Double) {
        var image = OverlayImage(size: PixelSize(width: 10, height: 2))
        image.fill(PixelRect(x: 0, y: 0, width: 10, height: 2), leftFraction: fraction, with: .white)
        #expect(image.pixels.allSatisfy { $0 == 0 })
    }

    @Test func coverageMaskPaintsByCoverageAndClips() {
        var image = OverlayImage(size: PixelSize(width: 3, height: 3))
        let mask = GlyphBitmap(width: 2, height: 2, left: 0, top: 0, coverage: [255, 0,
                                                                                128, 255])
        image.draw(mask, color: .white, x: 2, y: 1)   // only the left column lands inside
        image.draw(mask, color: .white, x: -1, y: -1) // only the bottom-right byte lands inside
        #expect(image[2, 1] == 0xFFFF_FFFF)
        #expect(abs(Int(image.alpha(x: 2, y: 2)) - 128) <= 1)
        #expect(image[0, 0] == 0xFFFF_FFFF)
        #expect(image.pixels.enumerated().filter { $0.element != 0 }.map(\.offset) == [0, 5, 8])
    }
}
