/// The playback state as a symbol drawn from shapes (▶, ❚❚, ■, …) rather than font glyphs: the
/// configured font may lack them, and a shape scales cleanly at any OSD size.
enum OSDStateGlyph {
    /// Draws the symbol for `state` inside the square `box`.
    static func draw(_ state: OSDContent.State, in box: PixelRect, color: OverlayColor, into image: inout OverlayImage) {
        let side = box.width
        switch state {
        case .playing:
            // Narrower than tall, as a play symbol usually is.
            let width = side * 7 / 8
            image.fillTriangle(pointingRightIn: PixelRect(x: box.x + (side - width) / 2, y: box.y, width: width, height: side),
                               with: color)
        case .paused:
            let bar = max(1, side * 3 / 10), gap = max(1, side - 2 * bar - side / 5)
            let start = box.x + (side - 2 * bar - gap) / 2
            image.fill(PixelRect(x: start, y: box.y, width: bar, height: side), with: color)
            image.fill(PixelRect(x: start + bar + gap, y: box.y, width: bar, height: side), with: color)
        case .stopped:
            let inset = side / 12
            image.fill(PixelRect(x: box.x + inset, y: box.y + inset, width: side - 2 * inset, height: side - 2 * inset),
                       with: color)
        case .buffering:
            // Three dots on the baseline: waiting.
            let dot = max(2, side / 4), gap = max(1, (side - 3 * dot) / 2)
            for number in 0..<3 {
                image.fill(PixelRect(x: box.x + number * (dot + gap), y: box.maxY - dot, width: dot, height: dot),
                           with: color, cornerRadius: dot / 2)
            }
        }
    }
}
