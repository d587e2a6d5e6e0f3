import MarqueeCore
@testable import MarqueePlayer

/// A headless output whose draws take time on the virtual clock: `costs[n]` for the n-th present
/// (1-based), none for the others. Only the present thread calls it.
final class DrawCostOutput: VideoOutput, @unchecked Sendable {
    private let canvas: HeadlessVideoOutput
    private let clock: VirtualClock
    private let costs: [Int: MediaTime]
    private var presents = 0

    init(size: PixelSize, clock: VirtualClock, costs: [Int: MediaTime]) {
        canvas = HeadlessVideoOutput(size: size)
        self.clock = clock
        self.costs = costs
    }

    var screenSize: PixelSize { canvas.screenSize }

    func present(_ draw: (PixelBuffer) throws -> Void) throws {
        try canvas.present(draw)
        presents += 1
        if let cost = costs[presents] { clock.advance(by: cost) }
    }
}
