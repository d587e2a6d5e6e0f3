import MarqueeCore
import Testing
@testable import MarqueePlayer

private let frame25 = MediaTime(1, per: 25)

/// The one command path: numeric entry's jumps, and every command logged with its source.
@Suite struct QueuePlayerControlTests {
    private func makePlayer(repeatMode: RepeatMode = .off) -> (QueuePlayer, EventRecorder) {
        let media = ScriptedMedia(["a": .video(frames: 4, frameDuration: frame25),
                                   "b": .video(frames: 4, frameDuration: frame25),
                                   "c": .video(frames: 4, frameDuration: frame25)])
        var settings = PlayerSettings()
        settings.repeatMode = repeatMode
        settings.exitWhenIdle = true
        let recorder = EventRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "a"), QueueItem(url: "b"), QueueItem(url: "c")],
                                 settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 64, height: 36)),
                                 clock: VirtualClock(), events: { recorder.record($0) })
        return (player, recorder)
    }

    private let keypad = CommandSource.key(name: "KEY_KPENTER", device: "Test Keypad", path: "/dev/input/event7")

    @Test func playItemJumpsToThatItemBeforeTheCurrentOneAppears() {
        let (player, recorder) = makePlayer()
        // "KP3 KPENTER": the interpreter asks for index 2.
        player.send(.playItem(index: 2), from: keypad)
        player.start()
        player.waitUntilFinished()
        // a was left before it appeared: nothing of it was seen, so nothing of it is reported.
        #expect(!recorder.events.contains { if case .itemEnded(0, _, _, _) = $0 { true } else { false } })
        #expect(recorder.frames.map(\.item) == [2, 2, 2, 2])
        #expect(recorder.events.contains(.command(.playItem(index: 2), source: keypad)))
    }

    @Test func aNumberPastTheEndChangesNothingButSaysSoOnce() {
        let (player, recorder) = makePlayer()
        player.send(.playItem(index: 6), from: keypad)
        player.start()
        player.waitUntilFinished()
        #expect(recorder.frames.map(\.item) == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
        let errors = recorder.events.filter { if case .error = $0 { true } else { false } }
        #expect(errors == [.error(message: "no item 7 to play: the playlist has 3 items")])
        #expect(!recorder.events.contains { if case .itemEnded(_, _, .userExited, _) = $0 { true } else { false } })
    }

    @Test func commandsAreLoggedWithTheirSourceBeforeTheirEffects() {
        let (player, recorder) = makePlayer(repeatMode: .all)
        let remote = CommandSource.key(name: "KEY_KPASTERISK", device: "Remote", path: "/dev/input/event3")
        player.send(.command(.cycleRepeatMode), from: remote)
        player.start()
        #expect(recorder.wait { $0.contains(.repeatModeChanged(.one)) })
        let events = recorder.events
        let logged = events.firstIndex(of: .command(.command(.cycleRepeatMode), source: remote))
        let changed = events.firstIndex(of: .repeatModeChanged(.one))
        #expect(logged != nil && changed != nil && logged! < changed!)
        player.send(.quit, from: .signal(name: "SIGTERM"))
        player.waitUntilFinished()
        #expect(recorder.events.contains(.command(.quit, source: .signal(name: "SIGTERM"))))
    }

    @Test func commandsFromCodeAreLoggedAsApplication() {
        let (player, recorder) = makePlayer()
        player.send(.next)
        player.start()
        player.waitUntilFinished()
        #expect(recorder.events.contains(.command(.command(.next), source: .application)))
    }
}
