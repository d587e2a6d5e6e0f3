/// One glyph rasterised at one size: an 8-bit coverage mask and where it sits against the pen.
public struct GlyphBitmap: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// From the pen position to the mask's left column, in pixels (FreeType's bitmap_left).
    public let left: Int
    /// From the baseline up to the mask's top row, in pixels (FreeType's bitmap_top); y grows up here
    /// as in every font, so the top row is drawn at `baseline - top`.
    public let top: Int
    /// Row-major, `width` bytes a row: 0 is untouched, 255 fully covered.
    public let coverage: [UInt8]

    public init(width: Int, height: Int, left: Int, top: Int, coverage: [UInt8]) {
        precondition(width >= 0 && height >= 0 && coverage.count == width * height, "coverage is not width x height")
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.coverage = coverage
    }

    /// A glyph with no ink: a space.
    public static let empty = GlyphBitmap(width: 0, height: 0, left: 0, top: 0, coverage: [])
}
