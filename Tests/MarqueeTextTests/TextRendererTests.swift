import Testing
import MarqueeCore
import MarqueeFreeType
import MarqueeHarfBuzz

/// Drawing lines with the real HarfBuzz + FreeType pair: ink lands in the measured box, and the
/// glyph cache spares repeated labels a second rasterisation.
@Suite struct TextRendererTests {
    @Test func drawingMarqueeInksInsideTheMeasuredBoxAndNowhereElse() throws {
        let renderer = try TestFont.renderer()
        var image = OverlayImage(size: PixelSize(width: 400, height: 120))
        let measured = try renderer.draw("Marquee", pixelSize: 48, color: .white, into: &image, x: 30, baseline: 80)
        let box = measured.box(x: 30, baseline: 80)
        #expect(measured == renderer.measure("Marquee", pixelSize: 48))
        #expect(box.width > 150 && box.height >= 48)

        var insideInk = 0, outsideInk = 0
        for y in 0..<image.size.height {
            for x in 0..<image.size.width where image.alpha(x: x, y: y) > 0 {
                if box.contains(PixelRect(x: x, y: y, width: 1, height: 1)) { insideInk += 1 } else { outsideInk += 1 }
            }
        }
        #expect(insideInk > 500)
        #expect(outsideInk == 0)
        // Coverage is anti-aliased: solid stems and soft edges.
        #expect(image.pixels.contains { $0 >> 24 == 255 })
        #expect(image.pixels.contains { $0 >> 24 > 0 && $0 >> 24 < 255 })
    }

    @Test func inkBoundsMatchWhatIsDrawn() throws {
        let renderer = try TestFont.renderer()
        let shaped = renderer.shape("Qg", pixelSize: 40)
        let ink = try renderer.inkBounds(of: shaped)
        var image = OverlayImage(size: PixelSize(width: 120, height: 100))
        try renderer.draw(shaped, color: .white, into: &image, x: 10, baseline: 60)
        var drawn: (minX: Int, minY: Int, maxX: Int, maxY: Int) = (.max, .max, .min, .min)
        for y in 0..<100 { for x in 0..<120 where image.alpha(x: x, y: y) > 0 {
            drawn = (min(drawn.minX, x), min(drawn.minY, y), max(drawn.maxX, x + 1), max(drawn.maxY, y + 1))
        } }
        #expect(PixelRect(x: drawn.minX - 10, y: drawn.minY - 60, width: drawn.maxX - drawn.minX, height: drawn.maxY - drawn.minY) == ink)
        // The g descends below the baseline.
        #expect(ink.maxY > 0 && ink.y < 0)
    }

    @Test func repeatedLabelsAreNotRasterisedAgain() throws {
        let renderer = try TestFont.renderer()
        var image = OverlayImage(size: PixelSize(width: 300, height: 60))
        try renderer.draw("1:23", pixelSize: 24, color: .white, into: &image, x: 0, baseline: 40)
        // "1", ":", "2", "3".
        #expect(renderer.rasterizationCount == 4)
        image.clear()
        try renderer.draw("1:23", pixelSize: 24, color: .white, into: &image, x: 0, baseline: 40)
        try renderer.draw("3:21", pixelSize: 24, color: .white, into: &image, x: 100, baseline: 40)
        #expect(renderer.rasterizationCount == 4)
        // A new digit, and the same glyphs at another size, are new work.
        try renderer.draw("1:24", pixelSize: 24, color: .white, into: &image, x: 0, baseline: 40)
        #expect(renderer.rasterizationCount == 5)
        try renderer.draw("1", pixelSize: 30, color: .white, into: &image, x: 0, baseline: 40)
        #expect(renderer.rasterizationCount == 6)
        #expect(renderer.cachedGlyphCount == 6)
    }

    @Test func aFullCacheStartsOverInsteadOfGrowing() throws {
        let renderer = TextRenderer(shaper: try HarfBuzzTextShaper(fontPath: TestFont.dejaVuSans),
                                    rasterizer: try FreeTypeGlyphRasterizer(fontPath: TestFont.dejaVuSans), cacheLimit: 3)
        var image = OverlayImage(size: PixelSize(width: 300, height: 60))
        try renderer.draw("abcde", pixelSize: 20, color: .white, into: &image, x: 0, baseline: 40)
        #expect(renderer.rasterizationCount == 5)
        #expect(renderer.cachedGlyphCount <= 3)
    }

    @Test func theSameImageComesOutWhetherGlyphsAreCachedOrNot() throws {
        let renderer = try TestFont.renderer()
        var first = OverlayImage(size: PixelSize(width: 300, height: 60))
        var second = first
        try renderer.draw("Go to item 12_", pixelSize: 24, color: .white, into: &first, x: 5, baseline: 40)
        try renderer.draw("Go to item 12_", pixelSize: 24, color: .white, into: &second, x: 5, baseline: 40)
        #expect(first == second)
        #expect(first.pixels.contains { $0 != 0 })
    }

    @Test func rasterisingAGlyphIdTheFontDoesNotHaveThrowsANamedError() throws {
        let rasterizer = try FreeTypeGlyphRasterizer(fontPath: TestFont.dejaVuSans)
        #expect {
            _ = try rasterizer.rasterize(glyph: 1_000_000, pixelSize: 20)
        } throws: { error in
            "\(error)".hasPrefix("cannot use font \(TestFont.dejaVuSans): cannot render glyph 1000000")
        }
    }

    @Test func textDrawnOffTheImageIsClipped() throws {
        let renderer = try TestFont.renderer()
        var image = OverlayImage(size: PixelSize(width: 20, height: 20))
        try renderer.draw("Marquee", pixelSize: 40, color: .white, into: &image, x: -15, baseline: 10)
        try renderer.draw("Marquee", pixelSize: 40, color: .white, into: &image, x: 500, baseline: -500)
        #expect(image.pixels.contains { $0 != 0 })
    }
}
