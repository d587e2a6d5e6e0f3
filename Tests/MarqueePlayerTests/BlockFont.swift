import MarqueeCore
@testable import MarqueePlayer

/// A font with no font file: every character but a space is a solid block. Enough for the OSD to
/// paint a panel with labels, so its drawing is tested without HarfBuzz and FreeType (whose real
/// output MarqueeTextTests reads back with OCR).
final class BlockShaper: TextShaping {
    func shape(_ text: String, pixelSize: Int) -> ShapedText {
        let glyphs = text.unicodeScalars.enumerated().map { index, scalar in
            ShapedText.Glyph(id: scalar.value, cluster: index, xAdvance: Double(pixelSize) * 0.6)
        }
        let size = Double(pixelSize)
        return ShapedText(glyphs: glyphs, direction: .leftToRight, pixelSize: pixelSize,
                          metrics: FontMetrics(ascender: size * 0.8, descender: size * 0.2, lineHeight: size * 1.2))
    }

    /// Block glyphs have no direction: a run is shaped like any other text.
    func shape(_ text: String, run: BidiRun, pixelSize: Int) -> ShapedText {
        let bytes = Array(text.utf8)[run.utf8Range]
        return shape(String(decoding: bytes, as: UTF8.self), pixelSize: pixelSize)
    }
}

final class BlockRasterizer: GlyphRasterizing {
    func rasterize(glyph id: UInt32, pixelSize: Int) throws(FontError) -> GlyphBitmap {
        guard id != 32 else { return .empty }
        let width = max(1, pixelSize / 2), height = max(1, pixelSize * 7 / 10)
        return GlyphBitmap(width: width, height: height, left: 0, top: height, coverage: Array(repeating: 255, count: width * height))
    }
}

extension OnScreenDisplay {
    /// The OSD with block glyphs, its labels up for `duration`.
    static func withBlockFont(duration: MediaTime = MediaTime(seconds: 3), enabled: Bool = true) -> OnScreenDisplay {
        let text = TextRenderer(shaper: BlockShaper(), rasterizer: BlockRasterizer())
        var settings = OSDSettings()
        settings.duration = duration
        settings.enabled = enabled
        return OnScreenDisplay(settings: settings, painter: OSDPainter(text: text), cardPainter: StatusCardPainter(text: text),
                               version: "marquee test", deviceFacts: { .init(hostname: "kiosk", addresses: []) },
                               clockTime: { "2026-01-01 12:00" })
    }
}
