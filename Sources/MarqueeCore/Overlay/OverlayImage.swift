/// A picture with transparency that is drawn once and blended onto video many times: the OSD's
/// panel, bars and text. Pixels are premultiplied-alpha BGRA8 (0xAARRGGBB words, little-endian
/// bytes B, G, R, A), so blending is one multiply-add per channel and the same bytes would suit an
/// ARGB8888 overlay plane.
///
/// Every drawing call composites "over" what is already there and clips to the image, so a label
/// can run off the edge without harm.
public struct OverlayImage: Hashable, Sendable {
    public let size: PixelSize
    /// Row-major, `size.width` a row, each premultiplied 0xAARRGGBB; all zero is transparent.
    public internal(set) var pixels: [UInt32]

    /// A fully transparent image.
    public init(size: PixelSize) {
        self.size = PixelSize(width: max(0, size.width), height: max(0, size.height))
        self.pixels = Array(repeating: 0, count: self.size.width * self.size.height)
    }

    /// The premultiplied 0xAARRGGBB pixel at (x, y).
    public subscript(x: Int, y: Int) -> UInt32 {
        pixels[y * size.width + x]
    }

    /// The alpha at (x, y): 0 where nothing was drawn.
    public func alpha(x: Int, y: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: self[x, y] >> 24)
    }

    /// Back to fully transparent, keeping the storage (the OSD redraws its labels in place).
    public mutating func clear() {
        for index in pixels.indices { pixels[index] = 0 }
    }

    /// `rect` clipped to the image; empty when they do not meet.
    func clipped(_ rect: PixelRect) -> PixelRect {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(size.width, rect.maxX), y1 = min(size.height, rect.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// Composites `source` (premultiplied), weighted by `factor` (0...256), over the pixel at `index`.
    @inline(__always)
    mutating func composite(_ source: UInt32, weight factor: UInt32, at index: Int) {
        guard factor > 0, source != 0 else { return }
        let weighted = factor >= 256 ? source : PremultipliedPixel.scaled(source, by: factor)
        pixels[index] = PremultipliedPixel.over(weighted, pixels[index])
    }
}
