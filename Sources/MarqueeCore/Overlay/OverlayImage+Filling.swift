extension OverlayImage {
    /// Paints `rect` (clipped to the image) in `color` over what is there. A `cornerRadius` rounds
    /// the four corners with anti-aliased edges: the OSD's translucent panel.
    public mutating func fill(_ rect: PixelRect, with color: OverlayColor, cornerRadius: Int = 0) {
        let area = clipped(rect)
        guard !area.isEmpty, color.alpha > 0 else { return }
        let source = color.premultipliedARGB
        let radius = max(0, min(cornerRadius, min(rect.width, rect.height) / 2))
        let width = size.width
        // Painted whenever the labels change, on the present thread: rows away from the corners
        // take the one colour over what is there, by pointer, with no per-pixel corner maths.
        let remaining = 256 - PremultipliedPixel.factor(ofWeight: source >> 24)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for y in area.y..<area.maxY {
                let row = base + y * width
                let inCornerBand = radius > 0 && (y < rect.y + radius || y >= rect.maxY - radius)
                if inCornerBand {
                    for x in area.x..<area.maxX {
                        let weight = Self.cornerWeight(x: x, y: y, in: rect, radius: radius)
                        guard weight > 0 else { continue }
                        let weighted = weight >= 256 ? source : PremultipliedPixel.scaled(source, by: weight)
                        row[x] = PremultipliedPixel.over(weighted, row[x])
                    }
                } else {
                    for x in area.x..<area.maxX {
                        row[x] = source &+ PremultipliedPixel.scaled(row[x], by: remaining)
                    }
                }
            }
        }
    }

    /// Paints the left `fraction` (0...1) of `rect` in `color`: a progress or volume bar. The last
    /// column is painted partly, by how much of it the fraction covers, so the bar's end moves
    /// smoothly rather than in whole-pixel jumps.
    public mutating func fill(_ rect: PixelRect, leftFraction fraction: Double, with color: OverlayColor) {
        let clamped = min(1, max(0, fraction.isNaN ? 0 : fraction))
        let filledWidth = clamped * Double(max(0, rect.width))
        let wholeColumns = Int(filledWidth)
        fill(PixelRect(x: rect.x, y: rect.y, width: wholeColumns, height: rect.height), with: color)
        let partialWeight = UInt32(((filledWidth - Double(wholeColumns)) * 256).rounded())
        let column = clipped(PixelRect(x: rect.x + wholeColumns, y: rect.y, width: 1, height: rect.height))
        guard partialWeight > 0, wholeColumns < rect.width, !column.isEmpty else { return }
        let source = color.premultipliedARGB
        for y in column.y..<column.maxY {
            composite(source, weight: partialWeight, at: y * size.width + column.x)
        }
    }

    /// How much of pixel (x, y) lies inside `rect` with corners of `radius`, as 0...256: all of it
    /// away from the corners; within a corner, by the pixel centre's distance from the arc (a
    /// one-pixel ramp, enough to hide the staircase).
    static func cornerWeight(x: Int, y: Int, in rect: PixelRect, radius: Int) -> UInt32 {
        let centreX: Int, centreY: Int
        if x < rect.x + radius { centreX = rect.x + radius } else if x >= rect.maxX - radius { centreX = rect.maxX - radius } else { return 256 }
        if y < rect.y + radius { centreY = rect.y + radius } else if y >= rect.maxY - radius { centreY = rect.maxY - radius } else { return 256 }
        let dx = Double(x) + 0.5 - Double(centreX), dy = Double(y) + 0.5 - Double(centreY)
        let inside = Double(radius) - (dx * dx + dy * dy).squareRoot() + 0.5
        return UInt32((min(1, max(0, inside)) * 256).rounded())
    }
}
