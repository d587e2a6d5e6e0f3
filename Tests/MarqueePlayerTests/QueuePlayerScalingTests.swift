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

    @Test func anItemWithItsOwnScalingAnnouncesItsModeAndTheNextWithoutOneThePlayersAgain() {
        let fixture = PausedPlayerFixture(clip: QueueItem(url: "clip", scaling: .fill), clipFrames: 4,
                                          following: [QueueItem(url: "tail")], screen: DrawnPicture.screen)
        fixture.player.send(.play)
        fixture.player.waitUntilFinished()
        let events = fixture.recorder.events
        #expect(scalingChanges(events) == [.fill, .aspectFit])
        // Each one with the item it belongs to: after its itemStarted, before its first frame.
        let clipStarted = events.firstIndex(of: .itemStarted(index: 1, url: "clip"))
        let toFill = events.firstIndex(of: .scalingModeChanged(.fill))
        let clipFirstFrame = events.firstIndex { if case .frame(1, _, _, _, _) = $0 { true } else { false } }
        #expect(clipStarted != nil && toFill != nil && clipFirstFrame != nil && clipStarted! < toFill! && toFill! < clipFirstFrame!)
        let tailStarted = events.firstIndex(of: .itemStarted(index: 2, url: "tail"))
        let back = events.firstIndex(of: .scalingModeChanged(.aspectFit))
        let tailFirstFrame = events.firstIndex { if case .frame(2, _, _, _, _) = $0 { true } else { false } }
        #expect(tailStarted != nil && back != nil && tailFirstFrame != nil && tailStarted! < back! && back! < tailFirstFrame!)
    }

    @Test func aCycledModeStaysInForceOverItemsWithTheirOwn() {
        let fixture = PausedPlayerFixture(clip: QueueItem(url: "clip", scaling: .fill), clipFrames: 4,
                                          following: [QueueItem(url: "tail", scaling: .aspectFill)], screen: DrawnPicture.screen)
        // The cycle starts from the mode on screen, the clip's own: fill → none.
        fixture.player.send(.cycleScalingMode)
        fixture.player.send(.play)
        fixture.player.waitUntilFinished()
        #expect(scalingChanges(fixture.recorder.events) == [.fill, .none])
        #expect(fixture.recorder.frames.last?.item == 2)
        #expect(drawn(fixture) == .onSquareScreen(.none))
    }

    @Test func aReloadedModeGivesWayToTheOwnModeOfTheItemOnScreen() {
        let items = [QueueItem(url: "lead"), QueueItem(url: "clip", scaling: ScalingMode.none), QueueItem(url: "tail")]
        let fixture = PausedPlayerFixture(clip: items[1], clipFrames: 4, following: [items[2]], screen: DrawnPicture.screen)
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.scaling = .fill
        fixture.player.replaceQueue(QueueReplacement(items: items, settings: settings, immediately: true))
        _ = fixture.command(.stepForward)
        #expect(drawn(fixture) == .onSquareScreen(.none))
        fixture.player.send(.play)
        fixture.player.waitUntilFinished()
        #expect(drawn(fixture) == .onSquareScreen(.fill))
        let events = fixture.recorder.events
        #expect(scalingChanges(events) == [.none, .fill])
        // The config's fill is announced with the item drawn in it, not while the clip is on screen.
        let tailStarted = events.firstIndex(of: .itemStarted(index: 2, url: "tail"))
        let toFill = events.firstIndex(of: .scalingModeChanged(.fill))
        #expect(tailStarted != nil && toFill != nil && tailStarted! < toFill!)
    }
}
