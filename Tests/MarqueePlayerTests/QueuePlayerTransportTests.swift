import MarqueeCore
import Testing
@testable import MarqueePlayer

private let frame25 = PausedPlayerFixture.frameDuration

/// stop and previous on a player paused in its second item ("clip", 6 frames, after "lead").
@Suite struct QueuePlayerTransportTests {
    @Test func stopEndsTheItemBlanksTheScreenAndPlayStartsTheItemAfresh() {
        let background = RGBColor(red: 0x20, green: 0x40, blue: 0x60)
        let fixture = PausedPlayerFixture(clipFrames: 6) { $0.background = background }
        #expect(fixture.command(.stepForward) == frame25 * 1)
        #expect(fixture.command(.stepForward) == frame25 * 2)
        let before = fixture.recorder.events.count
        let stopped = fixture.command(.stop) {
            $0.contains(.playbackStateChanged(from: .paused, to: .stopped)) && $0.contains(.loadStateChanged(.unknown))
        }
        #expect(stopped)
        let stopEvents = Array(fixture.recorder.events.dropFirst(before))
        #expect(stopEvents.contains(.itemEnded(index: 1, url: "clip", reason: .userExited, message: nil)))
        // The state says stopped once the picture is gone: the whole screen is the background.
        #expect(fixture.output.canvas.pixels.allSatisfy { $0 == background.xrgb8888 })

        // Play after a stop starts the cursor's item from its start, not from frame 2, and plays on.
        let stoppedAt = fixture.recorder.events.count
        fixture.player.send(.play)
        fixture.player.waitUntilFinished()
        let afterPlay = Array(fixture.recorder.events.dropFirst(stoppedAt))
        #expect(afterPlay.contains(.itemStarted(index: 1, url: "clip")))
        let frames = afterPlay.compactMap { if case .frame(let item, let pts, _, _, _) = $0 { (item, pts) } else { nil } }
        #expect(frames.map(\.0) == Array(repeating: 1, count: 6))
        #expect(frames.map(\.1) == (0..<6).map { frame25 * Int64($0) })
        #expect(afterPlay.contains(.itemEnded(index: 1, url: "clip", reason: .playbackEnded, message: nil)))
    }

    @Test func previousEndsTheItemAndShowsThePreviousItemsFirstFrameStillPaused() {
        let fixture = PausedPlayerFixture(clipFrames: 6)
        #expect(fixture.command(.stepForward) == frame25 * 1)
        let before = fixture.recorder.events.count
        #expect(fixture.command(.previous) == .zero)
        #expect(fixture.recorder.frames.last?.item == 0)
        let events = Array(fixture.recorder.events.dropFirst(before))
        #expect(events.contains(.itemEnded(index: 1, url: "clip", reason: .userExited, message: nil)))
        #expect(events.contains(.itemStarted(index: 0, url: "lead")))
        #expect(!events.contains(.playbackStateChanged(from: .paused, to: .playing)))

        // Play goes on from there: the rest of lead, then all of clip.
        let shown = fixture.recorder.frames.count
        fixture.player.send(.play)
        fixture.player.waitUntilFinished()
        let rest = fixture.recorder.frames.dropFirst(shown)
        #expect(rest.map(\.item) == [0] + Array(repeating: 1, count: 6))
        #expect(rest.map(\.pts) == [frame25] + (0..<6).map { frame25 * Int64($0) })
    }
}
