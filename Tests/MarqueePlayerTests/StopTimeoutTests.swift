import Foundation
import MarqueeCore
import Testing
@testable import MarqueePlayer

/// The stop rule (config `input.stopTimeout`) on the virtual clock: a stop from a key is undone
/// once the player has stayed stopped for the timeout; a deliberate stop (control socket, signal)
/// is not, and a deliberate command meanwhile cancels the timer.
@Suite struct StopTimeoutTests {
    static let frameDuration = MediaTime(1, per: 25)
    static let timeout = MediaTime(seconds: 60)

    private let visitor = CommandSource.key(name: "KEY_ESC", device: "Kiosk Keypad", path: "/dev/input/event4")
    private let operatorClient = CommandSource.control(client: 1, uid: 0, pid: 4242)

    /// A player paused on the first frame of "clip" (index 1, after a 2-frame "lead"), repeat off,
    /// on a virtual clock only the test moves while the player waits.
    final class Fixture {
        let recorder = EventRecorder()
        let clock = VirtualClock()
        let player: QueuePlayer

        init(stopTimeout: MediaTime? = StopTimeoutTests.timeout) {
            var settings = PlayerSettings()
            settings.repeatMode = .off
            settings.stopTimeout = stopTimeout
            let recorder = recorder
            let media = ScriptedMedia(["lead": .video(frames: 2, frameDuration: StopTimeoutTests.frameDuration),
                                       "clip": .video(frames: 100, frameDuration: StopTimeoutTests.frameDuration)])
            player = QueuePlayer(items: [QueueItem(url: "lead"), QueueItem(url: "clip")], settings: settings,
                                 opener: media, video: HeadlessVideoOutput(size: PixelSize(width: 64, height: 36)),
                                 clock: clock, events: { recorder.record($0) })
            player.send(.pauseAfterCurrentItem)
            player.start()
            recorder.wait { $0.contains(.playbackStateChanged(from: .playing, to: .paused)) }
        }

        /// Sends a command and waits until the present thread has applied it (and all it decided
        /// after it): a screenshot request queued behind it has run.
        func send(_ action: ControlAction, from source: CommandSource) {
            player.send(action, from: source)
            let applied = CompletionLog()
            player.screenshot { _ in applied.append(true) }
            applied.wait(forCount: 1)
        }

        /// Moves the virtual clock on and gives the waiting present thread time to look at it
        /// (it looks at least every heartbeat, 0.1 s of real time).
        func stayStopped(for interval: MediaTime) {
            clock.advance(by: interval)
            Thread.sleep(forTimeInterval: 0.4)
        }

        var resumedByTimeout: Bool {
            recorder.events.contains(.command(.command(.play), source: .stopTimeout))
        }

        func waitForResume() -> Bool {
            recorder.wait { events in
                guard let resumed = events.firstIndex(of: .command(.command(.play), source: .stopTimeout)) else { return false }
                return events[resumed...].contains(.playbackStateChanged(from: .stopped, to: .playing))
            }
        }

        /// The last of what the events said: state, muted, repeat and scaling modes.
        var state: PlaybackState? {
            recorder.events.reversed().lazy.compactMap { if case .playbackStateChanged(_, let to) = $0 { to } else { nil } }.first
        }
        var isMuted: Bool {
            recorder.events.reversed().lazy.compactMap { if case .volumeChanged(_, let muted) = $0 { muted } else { nil } }.first ?? false
        }
        var repeatMode: RepeatMode {
            recorder.events.reversed().lazy.compactMap { if case .repeatModeChanged(let mode) = $0 { mode } else { nil } }.first ?? .off
        }
        var scaling: ScalingMode? {
            recorder.events.reversed().lazy.compactMap { if case .scalingModeChanged(let mode) = $0 { mode } else { nil } }.first
        }

        func finish() {
            player.shutDown()
            player.waitUntilFinished()
        }
    }

    @Test func aStopFromAKeyPlaysAgainOnceStoppedForTheTimeout() {
        let fixture = Fixture()
        defer { fixture.finish() }
        fixture.send(.command(.stop), from: visitor)
        #expect(fixture.recorder.events.contains(.playbackStateChanged(from: .paused, to: .stopped)))

        fixture.stayStopped(for: Self.timeout - MediaTime(seconds: 1))
        #expect(!fixture.resumedByTimeout)

        let before = fixture.recorder.events.count
        fixture.stayStopped(for: MediaTime(seconds: 2))
        #expect(fixture.waitForResume())
        // It plays the cursor's item afresh, as play after a stop does, logged with its own source.
        let after = Array(fixture.recorder.events.dropFirst(before))
        #expect(after.first == .command(.command(.play), source: .stopTimeout))
        #expect(after.contains(.itemStarted(index: 1, url: "clip")))
        #expect(CommandSource.stopTimeout.description == "stop timeout")
        #expect(CommandSource.stopTimeout.kind == "stopTimeout")
    }

    @Test func aStopFromTheControlSocketOrASignalStays() {
        for source in [operatorClient, .signal(name: "SIGUSR2"), .application] {
            let fixture = Fixture()
            fixture.send(.command(.stop), from: source)
            let stoppedAt = fixture.recorder.events.count
            #expect(fixture.recorder.events.contains(.playbackStateChanged(from: .paused, to: .stopped)))
            fixture.stayStopped(for: MediaTime(seconds: 3600))
            #expect(!fixture.resumedByTimeout, "\(source)")
            #expect(fixture.recorder.events.count == stoppedAt, "\(source)")
            fixture.finish()
        }
    }

    @Test func aDeliberateCommandMeanwhileCancelsTheTimer() {
        let fixture = Fixture()
        defer { fixture.finish() }
        fixture.send(.command(.stop), from: visitor)
        fixture.stayStopped(for: MediaTime(seconds: 30))
        // An operator is at work: the stop is theirs now.
        fixture.send(.setVolume(0.5), from: operatorClient)
        fixture.stayStopped(for: MediaTime(seconds: 3600))
        #expect(!fixture.resumedByTimeout)
    }

    @Test func playingAgainCancelsTheTimerAndTheNextStopStartsAFreshOne() {
        let fixture = Fixture()
        defer { fixture.finish() }
        fixture.send(.command(.stop), from: visitor)
        fixture.stayStopped(for: MediaTime(seconds: 50))
        // Played again, then stopped again before the clip (which the virtual clock would race
        // through) can end: one batch.
        fixture.player.enqueue(contentsOf: [.control(.command(.play), visitor), .control(.command(.stop), visitor)])
        fixture.send(.command(.volumeUp), from: visitor)
        #expect(fixture.recorder.events.contains(.command(.command(.play), source: visitor)))
        // 50 s of the first stop do not count towards the second.
        fixture.stayStopped(for: MediaTime(seconds: 20))
        #expect(!fixture.resumedByTimeout)
        fixture.stayStopped(for: Self.timeout)
        #expect(fixture.waitForResume())
    }

    @Test func moreKeysWhileStoppedDoNotMakeTheStopLastForGood() {
        let fixture = Fixture()
        defer { fixture.finish() }
        fixture.send(.command(.stop), from: visitor)
        fixture.stayStopped(for: MediaTime(seconds: 40))
        // Another stop and a volume key: the deadline stays where the first stop put it.
        fixture.send(.command(.stop), from: visitor)
        fixture.send(.command(.volumeDown), from: visitor)
        fixture.stayStopped(for: MediaTime(seconds: 21))
        #expect(fixture.waitForResume())
    }

    @Test func noTimeoutLeavesAKeyStopStopped() {
        let fixture = Fixture(stopTimeout: nil)
        defer { fixture.finish() }
        fixture.send(.command(.stop), from: visitor)
        fixture.stayStopped(for: MediaTime(seconds: 3600))
        #expect(!fixture.resumedByTimeout)
    }

    @Test func aPauseFromAKeyPlaysAgainAfterTheTimeout() {
        let fixture = Fixture()
        defer { fixture.finish() }
        // Played by the operator, paused by a visitor before the clip can end: one batch.
        fixture.player.enqueue(contentsOf: [.control(.command(.play), operatorClient), .control(.command(.pause), visitor)])
        fixture.send(.command(.volumeUp), from: visitor)
        #expect(fixture.state == .paused)
        fixture.stayStopped(for: Self.timeout - MediaTime(seconds: 1))
        #expect(!fixture.resumedByTimeout)
        fixture.stayStopped(for: MediaTime(seconds: 2))
        #expect(fixture.recorder.wait { events in
            guard let resumed = events.firstIndex(of: .command(.command(.play), source: .stopTimeout)) else { return false }
            return events[resumed...].contains(.playbackStateChanged(from: .paused, to: .playing))
        })
    }

    @Test func muteRepeatAndScalingFromKeysAreSetBackAfterTheTimeout() {
        let fixture = Fixture()
        defer { fixture.finish() }
        let scaling = fixture.scaling ?? .default
        fixture.send(.command(.toggleMute), from: visitor)
        fixture.send(.command(.cycleRepeatMode), from: visitor)
        fixture.send(.command(.cycleScalingMode), from: visitor)
        #expect(fixture.isMuted && fixture.repeatMode != .off && fixture.scaling != scaling)

        fixture.stayStopped(for: Self.timeout - MediaTime(seconds: 1))
        #expect(!fixture.recorder.events.contains { if case .command(_, source: .stopTimeout) = $0 { true } else { false } })
        fixture.stayStopped(for: MediaTime(seconds: 2))
        #expect(fixture.recorder.wait { $0.contains(.command(.setMuted(false), source: .stopTimeout)) })
        #expect(fixture.recorder.events.contains(.command(.setRepeat(.off), source: .stopTimeout)))
        #expect(fixture.recorder.events.contains(.command(.setScaling(scaling), source: .stopTimeout)))
        #expect(!fixture.isMuted && fixture.repeatMode == .off && fixture.scaling == scaling)
        // The operator's pause (the fixture's) is not the visitor's: it stays.
        #expect(!fixture.resumedByTimeout && fixture.state == .paused)
    }

    @Test func aKeyThatPutsItBackLeavesNothingToSetBack() {
        let fixture = Fixture()
        defer { fixture.finish() }
        fixture.send(.command(.toggleMute), from: visitor)
        fixture.send(.command(.toggleMute), from: visitor)
        fixture.stayStopped(for: MediaTime(seconds: 3600))
        #expect(!fixture.recorder.events.contains { if case .command(_, source: .stopTimeout) = $0 { true } else { false } })
    }

    @Test func aNewChangeArmsTheDeadlineAfresh() {
        let fixture = Fixture()
        defer { fixture.finish() }
        fixture.send(.command(.toggleMute), from: visitor)
        fixture.stayStopped(for: MediaTime(seconds: 50))
        // A stop 50 s later gets its own full minute; the mute is set back with it.
        fixture.send(.command(.stop), from: visitor)
        fixture.stayStopped(for: MediaTime(seconds: 20))
        #expect(!fixture.resumedByTimeout && fixture.isMuted)
        fixture.stayStopped(for: MediaTime(seconds: 41))
        #expect(fixture.waitForResume())
        #expect(fixture.recorder.events.contains(.command(.setMuted(false), source: .stopTimeout)))
    }

    @Test func anOperatorsMuteStaysAndTakesOverAVisitorsChanges() {
        let fixture = Fixture()
        defer { fixture.finish() }
        fixture.send(.command(.cycleRepeatMode), from: visitor)
        fixture.send(.setMuted(true), from: operatorClient)
        fixture.stayStopped(for: MediaTime(seconds: 3600))
        #expect(!fixture.recorder.events.contains { if case .command(_, source: .stopTimeout) = $0 { true } else { false } })
        #expect(fixture.isMuted)
    }
}
