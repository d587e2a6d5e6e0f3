import MarqueeCore

/// `--output headless[:WxH]`: renders into memory exactly as a screen would (scaling mode,
/// background, rotation), so tests and thumbnails see what a display would show. Double-buffered
/// like a screen: a prepared picture is not in `canvas` until it is shown.
public final class HeadlessVideoOutput: VideoOutput, @unchecked Sendable {
    public let screenSize: PixelSize
    private var canvases: [Canvas]
    private var front = 0
    private var isPrepared = false
    public private(set) var presentedCount = 0

    public static let defaultSize = PixelSize(width: 1280, height: 720)

    public init(size: PixelSize = HeadlessVideoOutput.defaultSize, background: RGBColor = .black) {
        screenSize = size
        canvases = [Canvas(size: size, background: background), Canvas(size: size, background: background)]
    }

    /// The last presented picture.
    public var canvas: Canvas { canvases[front] }

    public func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
        isPrepared = false
        try canvases[1 - front].withPixelBuffer(draw)
        isPrepared = true
    }

    public func showPrepared() throws {
        guard isPrepared else { return }
        isPrepared = false
        front = 1 - front
        presentedCount += 1
    }

    /// A copy of the front canvas (the background until the first picture is shown): the caller
    /// keeps it while later frames are drawn.
    public func screenshot() throws -> Canvas? {
        canvas.withPixelBuffer { Canvas(copying: $0) }
    }
}
