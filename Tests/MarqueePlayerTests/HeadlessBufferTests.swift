import MarqueeCore
import Testing
@testable import MarqueePlayer

/// The headless output lends four canvases like a screen, but the steady flow of pictures
/// converted ahead (one on screen, one prepared, one converting) takes three: the spare is made
/// only when the present thread draws a picture itself while the decode thread holds the rest.
@Suite struct HeadlessBufferTests {
    static let size = PixelSize(width: 8, height: 4)

    /// One frame as the player shows it: the picture converted ahead is prepared and shown, and
    /// the decode thread converts the next into the buffer it can lend.
    private func showNext(_ queued: inout [OutputBufferLease], on output: HeadlessVideoOutput, pool: OutputBufferPool) throws {
        while let lease = pool.lendForConversion() {
            lease.withPixelBuffer { $0.fill(PixelRect(size: Self.size), with: .black) }
            queued.append(lease)
        }
        let next = queued.removeFirst()
        #expect(try output.prepare(lease: next, then: nil))
        try output.showPrepared()
    }

    @Test func theSteadyFlowTakesThreeCanvasesAndTheSpareIsMadeForARedraw() throws {
        let output = HeadlessVideoOutput(size: Self.size)
        let pool = try #require(output.pictureBuffers)
        var queued: [OutputBufferLease] = []

        for _ in 0..<20 { try showNext(&queued, on: output, pool: pool) }
        #expect(output.presentedCount == 20)
        #expect(output.canvasesMade == 3)

        // A redraw by the present thread (the labels on a paused picture) while two wait converted.
        while let lease = pool.lendForConversion() { queued.append(lease) }
        #expect(queued.count == 2 && pool.freeCount == 1, "the decode thread holds all it may")
        try output.present { $0.fill(PixelRect(size: Self.size), with: RGBColor(red: 1, green: 2, blue: 3)) }

        #expect(output.canvasesMade == 4)
        #expect(output.canvas[0, 0] == RGBColor(red: 1, green: 2, blue: 3))
        _ = queued
    }
}
