/// A canvas made the first time it is drawn into or read: an output's spare buffer, which the
/// steady flow of pictures never reaches (`OutputBufferPool` lends the buffer given back last),
/// costs no memory until a redraw or a late picture needs it (8.3 MB at 1920x1080).
public final class LazyCanvas: PixelStorage, @unchecked Sendable {
    // @unchecked: made and used by one holder at a time, as the pool's leases are.
    private let size: PixelSize
    private let background: RGBColor
    private var made: Canvas?

    public init(size: PixelSize, background: RGBColor) {
        self.size = size
        self.background = background
    }

    public var canvas: Canvas {
        if let made { return made }
        let fresh = Canvas(size: size, background: background)
        made = fresh
        return fresh
    }

    /// Whether it has been made (for tests of what the spare costs).
    public var isMade: Bool { made != nil }

    public func withPixelBuffer<Result>(_ body: (PixelBuffer) throws -> Result) rethrows -> Result {
        try canvas.withPixelBuffer(body)
    }
}
