extension OverlayImage {
    /// Paints the triangle that fills `rect` with its point at the middle of the right edge: the
    /// "play" symbol, drawn as a shape so it does not depend on the font having one. Edges are
    /// anti-aliased by sampling each pixel 4 x 4 times.
    public mutating func fillTriangle(pointingRightIn rect: PixelRect, with color: OverlayColor) {
        let area = clipped(rect)
        guard !area.isEmpty, color.alpha > 0 else { return }
        let source = color.premultipliedARGB
        let left = Double(rect.x), width = Double(rect.width)
        let middle = Double(rect.y) + Double(rect.height) / 2, halfHeight = Double(rect.height) / 2
        let samples = 4
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                var inside = 0
                for row in 0..<samples {
                    let sampleY = Double(y) + (Double(row) + 0.5) / Double(samples)
                    // How far right the triangle reaches at this height: all the way at the middle,
                    // nothing at the top and bottom edges.
                    let reach = width * (1 - abs(sampleY - middle) / halfHeight)
                    for column in 0..<samples {
                        let sampleX = Double(x) + (Double(column) + 0.5) / Double(samples)
                        if sampleX - left <= reach { inside += 1 }
                    }
                }
                composite(source, weight: UInt32(inside * 256 / (samples * samples)), at: y * size.width + x)
            }
        }
    }
}
