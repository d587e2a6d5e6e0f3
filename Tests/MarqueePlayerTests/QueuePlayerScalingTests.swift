import MarqueeCore
import Testing
@testable import MarqueePlayer

/// Scaling modes and the background as drawn on a 128x128 screen (the scripted pictures are
/// 64x36), read back from the headless output's canvas; and the scalingModeChanged events.
@Suite struct QueuePlayerScalingTests {
    private func drawn(_ fixture: PausedPlayerFixture, background: RGBColor = .black) -> DrawnPicture {
        DrawnPicture(fixture.output.canvas, background: background)
    }

    private func scalingChanges(_ events: [PlayerEvent]) -> [ScalingMode] {
        events.compactMap { if case .scalingModeChanged(let mode) = $0 { mode } else { nil } }
    }

    @Test func cyclingTheScalingModeDrawsThePictureInEachModeInTurn() {
        let fixture = PausedPlayerFixture(screen: DrawnPicture.screen)
        #expect(drawn(fixture) == .onSquareScreen(.aspectFit))
        for mode in [ScalingMode.aspectFill, .fill, .none, .aspectFit] {
            fixture.player.send(.cycleScalingMode)
            // The next frame drawn is in the new mode.
            _ = fixture.command(.stepForward)
            #expect(drawn(fixture) == .onSquareScreen(mode), "after cycling to \(mode)")
        }
        #expect(scalingChanges(fixture.recorder.events) == [.aspectFill, .fill, .none, .aspectFit])
        fixture.finish()
    }

    @Test func anItemsOwnScalingIsHowItIsDrawnAndTheNextWithoutOneUsesThePlayers() {
        let fixture = PausedPlayerFixture(clip: QueueItem(url: "clip", scaling: .fill), clipFrames: 4,
                                          following: [QueueItem(url: "tail")], screen: DrawnPicture.screen)
        #expect(drawn(fixture) == .onSquareScreen(.fill))
        fixture.player.send(.play)
        fixture.player.waitUntilFinished()
        #expect(fixture.recorder.frames.last?.item == 2)
        #expect(drawn(fixture) == .onSquareScreen(.aspectFit))
    }

    @Test func barsAreThePlayersBackgroundColour() {
        let background = RGBColor(red: 0x20, green: 0x40, blue: 0x60)
        let fixture = PausedPlayerFixture(screen: DrawnPicture.screen) { $0.background = background }
        #expect(drawn(fixture, background: background) == .onSquareScreen(.aspectFit))
        // Everything outside the letterboxed picture: 28 rows above and below it.
        let bars = fixture.output.canvas.pixels.filter { $0 == background.xrgb8888 }.count
        #expect(bars == 128 * 56)
        #expect(fixture.output.canvas[0, 0] == background && fixture.output.canvas[127, 127] == background)
        fixture.finish()
    }
}
