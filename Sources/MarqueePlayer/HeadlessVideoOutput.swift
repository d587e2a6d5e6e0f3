import MarqueeCore

/// `--output headless[:WxH]`: renders into memory exactly as a screen would (scaling mode,
/// background, rotation), so tests and thumbnails see what a display would show.
public final class HeadlessVideoOutput: VideoOutput, @unchecked Sendable {
    public let screenSize: PixelSize
    /// The last presented picture.
    public let canvas: Canvas
    public private(set) var presentedCount = 0

    public static let defaultSize = PixelSize(width: 1280, height: 720)

    public init(size: PixelSize = HeadlessVideoOutput.defaultSize, background: RGBColor = .black) {
        screenSize = size
        canvas = Canvas(size: size, background: background)
    }

    public func present(_ draw: (PixelBuffer) throws -> Void) throws {
        try canvas.withPixelBuffer(draw)
        presentedCount += 1
    }
}
