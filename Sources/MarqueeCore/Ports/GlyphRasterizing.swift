/// Draws one glyph of a font into a coverage mask. Implemented by a rasteriser (FreeType) that
/// opened the same font file as the shaper, so glyph ids mean the same glyphs.
public protocol GlyphRasterizing: AnyObject {
    func rasterize(glyph id: UInt32, pixelSize: Int) throws(FontError) -> GlyphBitmap
}
