import MarqueeCore
@testable import MarqueePlayer

/// A headless output whose draws take time on the virtual clock: `costs[n]` for the n-th draw
/// (1-based), none for the others; `flipCosts[n]` for the n-th show (a flip that waits for the
/// vblank, as legacy KMS does). Only the present thread calls it.
final class DrawCostOutput: VideoOutput, @unchecked Sendable {
    private let canvas: HeadlessVideoOutput
    private let clock: VirtualClock
    private let costs: [Int: MediaTime]
    private let flipCosts: [Int: MediaTime]
    private var draws = 0
    /// The clock's time at each show.
    private(set) var shownAt: [MediaTime] = []

    init(size: PixelSize, clock: VirtualClock, costs: [Int: MediaTime], flipCosts: [Int: MediaTime] = [:]) {
        canvas = HeadlessVideoOutput(size: size)
        self.clock = clock
        self.costs = costs
        self.flipCosts = flipCosts
    }

    var screenSize: PixelSize { canvas.screenSize }

    func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
        try canvas.prepare(draw)
        draws += 1
        if let cost = costs[draws] { clock.advance(by: cost) }
    }

    func showPrepared() throws {
        try canvas.showPrepared()
        if let cost = flipCosts[shownAt.count + 1] { clock.advance(by: cost) }
        shownAt.append(clock.now())
    }
}
