import MarqueeCore
import MarqueeFreeType
import MarqueeFriBidi
import MarqueeHarfBuzz

/// The font the OSD uses by default (fonts-dejavu-core), opened by both real backends.
enum TestFont {
    static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    static func renderer() throws -> TextRenderer {
        TextRenderer(shaper: try HarfBuzzTextShaper(fontPath: dejaVuSans),
                     rasterizer: try FreeTypeGlyphRasterizer(fontPath: dejaVuSans),
                     bidi: FriBidiLeveling())
    }
}
