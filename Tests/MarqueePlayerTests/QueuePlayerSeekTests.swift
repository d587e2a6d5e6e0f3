import MarqueeCore
import Foundation
import Testing
@testable import MarqueePlayer

private let frame25 = MediaTime(1, per: 25)

@Suite struct QueuePlayerSeekTests {
    @Test func anExactSeekShowsTheFrameOnScreenAtTheTargetAndStaysPaused() {
        let fixture = PausedPlayerFixture()
        #expect(fixture.recorder.frames.last.map { ($0.item, $0.pts) } ?? (-1, .zero) == (1, .zero))
        #expect(fixture.seek(to: MediaTime(seconds: 2)) == MediaTime(seconds: 2))
        #expect(fixture.seek(to: MediaTime(229, per: 100)) == frame25 * 57)   // 2.29 s: frame 57 (2.28) is up
        #expect(fixture.completions.all == [true, true])
        let events = fixture.recorder.events
        #expect(events.contains(.playbackStateChanged(from: .paused, to: .seekingForward)))
        #expect(events.contains(.timeJumped(from: .zero, to: MediaTime(seconds: 2))))
        #expect(events.contains(.playbackStateChanged(from: .seekingForward, to: .paused)))
        fixture.finish()
    }

    @Test func aKeyframeSeekShowsTheKeyframeBeforeTheTarget() {
        let fixture = PausedPlayerFixture()
        #expect(fixture.seek(to: MediaTime(33, per: 10), toleranceBefore: MediaTime(seconds: 1)) == frame25 * 80)
        // A tolerance smaller than the distance to the keyframe decodes on to the exact frame.
        #expect(fixture.seek(to: MediaTime(33, per: 10), toleranceBefore: MediaTime(1, per: 100)) == frame25 * 82)
        fixture.finish()
    }

    @Test func aSupersededSeekCompletesWithFalse() {
        let fixture = PausedPlayerFixture()
        let before = fixture.recorder.frames.count
        // Queued as one batch: sent one by one, the first seek could finish before the second
        // arrived (seen in CI as [true, true]), and nothing would have superseded it.
        let record: @Sendable (Bool) -> Void = { [completions = fixture.completions] finished in completions.append(finished) }
        fixture.player.enqueue(contentsOf: [
            .seek(SeekRequest(time: MediaTime(seconds: 1), toleranceBefore: .zero, toleranceAfter: .zero, completion: record)),
            .seek(SeekRequest(time: MediaTime(1, per: 2), toleranceBefore: .zero, toleranceAfter: .zero, completion: record)),
        ])
        fixture.completions.wait(forCount: 2)
        fixture.recorder.wait { $0.frameCount > before }
        #expect(fixture.completions.all == [false, true])
        #expect(fixture.recorder.frames.last?.pts == frame25 * 12)
        fixture.finish()
    }

    /// A seek belongs to its item: when the item ends before the seek lands (here its reopening
    /// fails: the file went away), the seek completes with false then, not whenever a later seek
    /// in another item superseded it (it waited for that before the item's state was dropped with
    /// the item).
    @Test func aSeekWhoseItemEndsBeforeItLandsCompletesWithFalse() {
        let recorder = EventRecorder()
        let completions = CompletionLog()
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let opener = FailingReopen(ScriptedMedia(["clip": .video(frames: 100, frameDuration: frame25),
                                                  "b": .video(frames: 4, frameDuration: frame25)]), failing: "clip")
        let player = QueuePlayer(items: [QueueItem(url: "clip"), QueueItem(url: "b")], settings: settings, opener: opener,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 64, height: 36)), clock: VirtualClock(),
                                 events: { recorder.record($0) })
        player.start()
        #expect(recorder.wait { $0.frameCount >= 5 })
        player.seek(to: MediaTime(seconds: 2)) { completions.append($0) }
        completions.wait(forCount: 1)
        #expect(completions.all == [false])
        #expect(recorder.wait { $0.contains { if case .frame(1, _, _, false, _) = $0 { true } else { false } } },
                "the item after it plays")
        player.shutDown()
        player.waitUntilFinished()
    }

    @Test func stepsMoveOneFrameEachWayWhilePaused() {
        let fixture = PausedPlayerFixture()
        #expect(fixture.seek(to: MediaTime(seconds: 1)) == frame25 * 25)
        #expect(fixture.command(.stepForward) == frame25 * 26)
        #expect(fixture.command(.stepForward) == frame25 * 27)
        #expect(fixture.command(.stepBackward) == frame25 * 26)
        #expect(fixture.command(.stepBackward) == frame25 * 25)
        #expect(fixture.command(.stepBackward) == frame25 * 24)
        let settled = fixture.recorder.wait {
            $0.last { if case .playbackStateChanged = $0 { true } else { false } } == .playbackStateChanged(from: .seekingBackward, to: .paused)
        }
        #expect(settled)
        fixture.finish()
    }

    /// `stepBackward 3` while paused at 2 s: three frames back, one seek after another, and
    /// paused on the third (it used to go one back and stay seekingBackward).
    @Test func aStepBackBySeveralFramesPausesOnTheLast() {
        let fixture = PausedPlayerFixture()
        #expect(fixture.seek(to: MediaTime(seconds: 2)) == frame25 * 50)
        let before = fixture.recorder.events.count
        fixture.player.send(.step(by: -3), from: .application)
        let settled = fixture.recorder.wait { events in
            Array(events.dropFirst(before)).filter { if case .playbackStateChanged(_, to: .paused) = $0 { true } else { false } }.count == 3
        }
        #expect(settled)
        Thread.sleep(forTimeInterval: 0.2)
        let after = Array(fixture.recorder.events.dropFirst(before))
        #expect(after.last { if case .playbackStateChanged = $0 { true } else { false } } == .playbackStateChanged(from: .seekingBackward, to: .paused))
        #expect(fixture.recorder.frames.last?.pts == frame25 * 47)
        #expect(after.filter { if case .timeJumped = $0 { true } else { false } } == [
            .timeJumped(from: frame25 * 50, to: frame25 * 49), .timeJumped(from: frame25 * 49, to: frame25 * 48),
            .timeJumped(from: frame25 * 48, to: frame25 * 47),
        ], "\(after)")
        fixture.finish()
    }

    @Test func skipForwardLandsOnAKeyframeAndPastTheEndMovesOn() {
        let fixture = PausedPlayerFixture()
        // 4 s clip: +30 s is past its end, so the item ends as userExited and the queue (repeat off) runs out.
        fixture.player.send(.skipForward)
        fixture.recorder.wait { $0.contains(.itemEnded(index: 1, url: "clip", reason: .userExited, message: nil)) }
        #expect(fixture.recorder.events.contains(.itemEnded(index: 1, url: "clip", reason: .userExited, message: nil)))
        fixture.player.waitUntilFinished()
    }

    @Test func skipBackwardLandsOnTheKeyframeBeforeThirtySecondsEarlier() {
        let fixture = PausedPlayerFixture(clipFrames: 1000)   // 40 s
        #expect(fixture.seek(to: MediaTime(seconds: 35)) == MediaTime(seconds: 35))
        // 35 − 30 = 5 s; the keyframe before it is frame 120 (4.8 s).
        let before = fixture.recorder.events.count
        #expect(fixture.command(.skipBackward) == frame25 * 120)
        let settled = fixture.recorder.wait { $0.contains(.playbackStateChanged(from: .seekingBackward, to: .paused)) }
        #expect(settled)
        let events = Array(fixture.recorder.events.dropFirst(before))
        #expect(events.contains(.playbackStateChanged(from: .paused, to: .seekingBackward)))
        #expect(events.contains(.timeJumped(from: MediaTime(seconds: 35), to: frame25 * 120)))
        fixture.finish()
    }

    @Test func skipBackwardAtTheItemsStartRestartsItAsABackwardSeek() {
        let fixture = PausedPlayerFixture()
        #expect(fixture.recorder.frames.last?.pts == .zero)
        let before = fixture.recorder.events.count
        // 0 − 30 s clamps to the item's start: the decoder goes back to its first keyframe.
        #expect(fixture.command(.skipBackward) == .zero)
        let settled = fixture.recorder.wait { $0.contains(.playbackStateChanged(from: .seekingBackward, to: .paused)) }
        #expect(settled)
        let events = Array(fixture.recorder.events.dropFirst(before))
        #expect(events.contains(.playbackStateChanged(from: .paused, to: .seekingBackward)))
        #expect(!events.contains(.playbackStateChanged(from: .paused, to: .seekingForward)))
        #expect(events.contains(.timeJumped(from: .zero, to: .zero)))
        fixture.finish()
    }

    @Test func playingOnAfterASeekContinuesFromThere() {
        let fixture = PausedPlayerFixture()
        #expect(fixture.seek(to: MediaTime(seconds: 3)) == frame25 * 75)
        fixture.player.send(.play)
        fixture.player.waitUntilFinished()
        let clipFrames = fixture.recorder.frames.filter { $0.item == 1 }.map(\.pts)
        #expect(clipFrames == [.zero, frame25 * 75] + (76..<100).map { frame25 * Int64($0) })
    }
}

/// Opens `failing` once; every later open of it (a seek reopens its item) fails, as a file that
/// went away while playing does.
private final class FailingReopen: MediaOpening, @unchecked Sendable {
    private let media: ScriptedMedia
    private let failing: String

    init(_ media: ScriptedMedia, failing: String) {
        self.media = media
        self.failing = failing
    }

    func open(_ url: String) throws -> MediaReader {
        if url == failing && media.openedURLs.contains(url) {
            throw PlaybackError(url: url, reason: "No such file or directory")
        }
        return try media.open(url)
    }
}
