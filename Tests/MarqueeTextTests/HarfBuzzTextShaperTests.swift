import Testing
import MarqueeCore
import MarqueeHarfBuzz

/// Shaping with the real HarfBuzz and DejaVu Sans: what a naive one-glyph-per-character layout gets wrong.
@Suite struct HarfBuzzTextShaperTests {
    let shaper: HarfBuzzTextShaper

    init() throws {
        shaper = try HarfBuzzTextShaper(fontPath: TestFont.dejaVuSans)
    }

    @Test func officeUsesALigatureSoItHasFewerGlyphsThanCharacters() {
        let shaped = shaper.shape("office", pixelSize: 32)
        #expect(shaped.direction == .leftToRight)
        #expect(shaped.glyphs.count < "office".count)
        // The ligature stands for "ffi" (or "fi"): a cluster spanning more than one character.
        let clusters = shaped.glyphs.map(\.cluster)
        #expect(clusters == clusters.sorted())
        #expect(zip(clusters, clusters.dropFirst() + ["office".utf8.count]).contains { $1 - $0 > 1 })
    }

    @Test func arabicIsShapedRightToLeftWithJoinedForms() {
        let word = "مرحبا"
        let shaped = shaper.shape(word, pixelSize: 32)
        #expect(shaped.direction == .rightToLeft)
        #expect(shaped.glyphs.count == 5)
        // Visual order: the word's first letter (cluster 0) is drawn last, at the right.
        let clusters = shaped.glyphs.map(\.cluster)
        #expect(clusters == clusters.sorted(by: >))
        #expect(clusters.last == 0)

        // Joined letters take initial, medial and final forms, not the glyph each letter has alone.
        let letters = word.map(String.init)
        let isolated = letters.map { shaper.shape($0, pixelSize: 32).glyphs.map(\.id) }
        let joined = shaped.glyphs.reversed().map { [$0.id] }
        #expect(isolated.count == joined.count)
        // مـ initial, ـر final, حـ initial (ر does not join forwards), ـبـ medial, ـا final.
        #expect(zip(isolated, joined).allSatisfy { $0 != $1 }, "isolated \(isolated) joined \(joined)")
    }

    @Test func widthGrowsWithTheTextAndTheSize() {
        let short = shaper.shape("1:23", pixelSize: 24).advanceWidth
        let long = shaper.shape("1:23 / 4:56", pixelSize: 24).advanceWidth
        let large = shaper.shape("1:23", pixelSize: 48).advanceWidth
        #expect(short > 0)
        #expect(long > short)
        #expect(abs(large - 2 * short) < 1)
        #expect(shaper.shape("", pixelSize: 24).glyphs.isEmpty)
    }

    @Test func metricsScaleWithThePixelSize() {
        let metrics = shaper.shape("M", pixelSize: 100).metrics
        // DejaVu Sans: ascender 0.928 em, descender 0.236 em.
        #expect(abs(metrics.ascender - 92.8) < 1)
        #expect(abs(metrics.descender - 23.6) < 1)
        #expect(metrics.lineHeight >= metrics.ascender + metrics.descender)
    }
}
