import MarqueeCore
import MarqueeFreeType
import MarqueeFriBidi
import MarqueeHarfBuzz
import Testing

/// Titles that mix directions, through the real FriBidi and HarfBuzz with DejaVu Sans. Clusters are
/// UTF-8 offsets into the title, listed in the order the glyphs stand on screen, left to right.
@Suite struct BidiTextTests {
    let renderer: TextRenderer
    let oneDirection: TextRenderer

    init() throws {
        renderer = try TestFont.renderer()
        oneDirection = TextRenderer(shaper: try HarfBuzzTextShaper(fontPath: TestFont.dejaVuSans),
                                    rasterizer: try FreeTypeGlyphRasterizer(fontPath: TestFont.dejaVuSans))
    }

    @Test func anArabicWordAndANumberInALatinTitleStandInBidiOrder() {
        // "Menu " is bytes 0-4, the Arabic word 5-14 (two bytes a letter), the space 15, "2026" 16-19.
        let title = "Menu قائمة 2026"
        let shaped = renderer.shape(title, pixelSize: 32)
        #expect(shaped.direction == .leftToRight)
        // Read left to right: "Menu ", then the number (it belongs to the Arabic phrase, so it stands
        // to the word's left), then the word from its last letter to its first.
        #expect(shaped.glyphs.map(\.cluster) == [0, 1, 2, 3, 4, 16, 17, 18, 19, 15, 13, 11, 9, 7, 5])
        // Shaped in one direction, the Arabic letters would run left to right: unreadable.
        #expect(oneDirection.shape(title, pixelSize: 32).glyphs.map(\.cluster) == [0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 15, 16, 17, 18, 19])
    }

    @Test func aLatinNameInAnArabicTitleReadsLeftToRightAtTheTitlesLeft() {
        // The Arabic word is bytes 0-9, the space 10, "Marquee" 11-17.
        let title = "مرحبا Marquee"
        let shaped = renderer.shape(title, pixelSize: 32)
        #expect(shaped.direction == .rightToLeft)
        #expect(shaped.glyphs.map(\.cluster) == [11, 12, 13, 14, 15, 16, 17, 10, 8, 6, 4, 2, 0])
    }

    @Test func lettersStillJoinAcrossTheRunsOfAMixedTitle() throws {
        // The word shaped alone and inside a mixed title gets the same joined glyphs.
        let word = "مرحبا"
        let alone = renderer.shape(word, pixelSize: 32).glyphs.map(\.id)
        let mixed = renderer.shape("Film \(word) 3", pixelSize: 32).glyphs
        let wordGlyphs = mixed.filter { (5..<15).contains($0.cluster) }.map(\.id)
        #expect(wordGlyphs == alone)
    }

    @Test func aTitleInOneDirectionIsShapedAsBefore() {
        for title in ["Lobby loop", "office", "שלום עולם", "مرحبا"] {
            #expect(renderer.shape(title, pixelSize: 24) == oneDirection.shape(title, pixelSize: 24), "\(title)")
        }
    }

    @Test func aMixedTitleIsDrawnWhereItsLayoutSaysAndMeasuredWhole() throws {
        let title = "Menu قائمة 2026"
        let measured = renderer.measure(title, pixelSize: 24)
        var image = OverlayImage(size: PixelSize(width: measured.width + 8, height: 40))
        try renderer.draw(title, pixelSize: 24, color: .white, into: &image, x: 4, baseline: 30)
        let ink = try renderer.inkBounds(of: renderer.shape(title, pixelSize: 24))
        #expect(ink.width > measured.width / 2 && ink.width <= measured.width + 2)
        #expect(image.pixels.contains { $0 >> 24 > 0 })
    }
}
