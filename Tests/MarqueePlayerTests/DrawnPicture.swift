import MarqueeCore

/// What a screen shows of a scripted picture (ScriptedPicture): where the picture is (every pixel
/// that is not the background) and how many columns of the source's marked left edge show across
/// its middle row. Each scaling mode leaves a different pair on `screen`.
struct DrawnPicture: Equatable, CustomStringConvertible {
    var bounds: PixelRect?
    var edgeWidth: Int

    init(bounds: PixelRect?, edgeWidth: Int) {
        self.bounds = bounds
        self.edgeWidth = edgeWidth
    }

    init(_ canvas: Canvas, background: RGBColor) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<canvas.size.height {
            for x in 0..<canvas.size.width where canvas[x, y] != background {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else {
            self.init(bounds: nil, edgeWidth: 0)
            return
        }
        let middle = (minY + maxY) / 2
        let edge = (minX...maxX).filter { canvas[$0, middle].blue == 255 }.count
        self.init(bounds: PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1), edgeWidth: edge)
    }

    /// The scripted 64x36 picture on a 128x128 screen, by mode.
    static let screen = PixelSize(width: 128, height: 128)

    static func onSquareScreen(_ mode: ScalingMode) -> DrawnPicture {
        switch mode {
        // Letterboxed at twice its size: the 8-column edge is 16 wide.
        case .aspectFit: DrawnPicture(bounds: PixelRect(x: 0, y: 28, width: 128, height: 72), edgeWidth: 16)
        // The screen covered from the central 36x36 of the source: the edge is cropped away.
        case .aspectFill: DrawnPicture(bounds: PixelRect(x: 0, y: 0, width: 128, height: 128), edgeWidth: 0)
        // Stretched: the whole width kept, twice as wide.
        case .fill: DrawnPicture(bounds: PixelRect(x: 0, y: 0, width: 128, height: 128), edgeWidth: 16)
        // Natural size, centred.
        case .none: DrawnPicture(bounds: PixelRect(x: 32, y: 46, width: 64, height: 36), edgeWidth: 8)
        }
    }

    var description: String {
        guard let bounds else { return "nothing drawn" }
        return "picture at \(bounds.x),\(bounds.y) \(bounds.width)x\(bounds.height), edge \(edgeWidth) wide"
    }
}
