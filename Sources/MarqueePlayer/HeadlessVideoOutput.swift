import MarqueeCore

/// `--output headless[:WxH]`: renders into memory exactly as a screen would (scaling mode,
/// background, rotation), so tests and thumbnails see what a display would show. Buffered like a
/// screen: a prepared picture is not in `canvas` until it is shown.
///
/// Four canvases are lent out (`PooledVideoOutput`), as a screen's buffers are (`DRMScreen`): the
/// one shown, the next picture prepared, the one after it, which the decode thread converts while
/// the next waits for its turn, and one the present thread can always draw into itself. With
/// three, the decode thread could start on a picture only once the one before it went up, and the
/// present thread, drawing the next picture ahead right after a flip, found it unconverted about a
/// quarter of the time (27 of 100 frames in `ConvertedAheadPlaybackTests`). The fourth is made
/// only when the present thread first needs it (`LazyCanvas`): the steady flow of pictures takes
/// three.
public final class HeadlessVideoOutput: PooledVideoOutput, @unchecked Sendable {
    public let screenSize: PixelSize
    private let pool: OutputBufferPool
    private var front: OutputBufferLease
    private var prepared: OutputBufferLease?
    public private(set) var presentedCount = 0

    public static let defaultSize = PixelSize(width: 1280, height: 720)
    static let bufferCount = 4

    public init(size: PixelSize = HeadlessVideoOutput.defaultSize, background: RGBColor = .black) {
        screenSize = size
        pool = OutputBufferPool((0..<Self.bufferCount).map { _ in LazyCanvas(size: size, background: background) })
        front = pool.lendToOutput()!
    }

    /// The last presented picture.
    public var canvas: Canvas { (pool.storage(of: front) as! LazyCanvas).canvas }

    /// How many of the canvases have been drawn into or read so far: the spare is made only when needed.
    var canvasesMade: Int { pool.storages.filter { ($0 as? LazyCanvas)?.isMade == true }.count }

    public var pictureBuffers: OutputBufferPool? { pool }

    public func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
        // Drawing again before a flip replaces what was prepared, in the same buffer.
        guard let buffer = prepared ?? pool.lendToOutput() else {
            throw OutputBufferShortage(output: "headless output")
        }
        prepared = nil
        try buffer.withPixelBuffer(draw)
        prepared = buffer
    }

    public func prepare(lease: OutputBufferLease, then draw: ((PixelBuffer) throws -> Void)?) throws -> Bool {
        guard lease.pool === pool else { return false }
        prepared = nil
        if let draw { try lease.withPixelBuffer(draw) }
        prepared = lease
        return true
    }

    public func showPrepared() throws {
        guard let shown = prepared else { return }
        prepared = nil
        front = shown
        presentedCount += 1
    }

    /// A copy of the front canvas (the background until the first picture is shown): the caller
    /// keeps it while later frames are drawn.
    public func screenshot() throws -> Canvas? {
        canvas.withPixelBuffer { Canvas(copying: $0) }
    }
}
