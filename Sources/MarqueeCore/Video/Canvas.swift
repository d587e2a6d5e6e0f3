/// An XRGB8888 picture in memory: what the headless output draws into and what thumbnails and
/// tests read back, exactly as a screen's buffer would hold it.
public final class Canvas: @unchecked Sendable {
    public let size: PixelSize
    /// Row-major, `size.width` pixels a row, each 0x00RRGGBB.
    public private(set) var pixels: [UInt32]

    public init(size: PixelSize, background: RGBColor = .black) {
        self.size = size
        self.pixels = Array(repeating: background.xrgb8888, count: max(0, size.width * size.height))
    }

    /// Lends the pixels to a writer (a scaler, a fill) for the length of `body`.
    public func withPixelBuffer<Result>(_ body: (PixelBuffer) throws -> Result) rethrows -> Result {
        try pixels.withUnsafeMutableBytes { bytes in
            try body(PixelBuffer(baseAddress: bytes.baseAddress!, bytesPerRow: size.width * 4, size: size))
        }
    }

    public subscript(x: Int, y: Int) -> RGBColor {
        RGBColor(xrgb8888: pixels[y * size.width + x])
    }
}
