extension OverlayImage {
    /// Paints `color` through a coverage mask (a rasterised glyph) whose top-left lands at (x, y):
    /// each mask byte says how much of that pixel the shape covers. Parts outside the image are skipped.
    public mutating func draw(_ mask: GlyphBitmap, color: OverlayColor, x: Int, y: Int) {
        let area = clipped(PixelRect(x: x, y: y, width: mask.width, height: mask.height))
        guard !area.isEmpty, color.alpha > 0 else { return }
        let source = color.premultipliedARGB
        mask.coverage.withUnsafeBufferPointer { coverage in
            for row in area.y..<area.maxY {
                let maskRow = (row - y) * mask.width - x
                let imageRow = row * size.width
                for column in area.x..<area.maxX {
                    let weight = PremultipliedPixel.factor(ofWeight: UInt32(coverage[maskRow + column]))
                    composite(source, weight: weight, at: imageRow + column)
                }
            }
        }
    }
}
