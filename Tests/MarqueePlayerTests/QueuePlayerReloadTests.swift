import MarqueeCore
import Testing
@testable import MarqueePlayer

private let frame25 = MediaTime(1, per: 25)

/// A reloaded config replacing the playlist: at the item boundary by default, at once on request;
/// the item playing keeps its place when the new list has it.
@Suite struct QueuePlayerReloadTests {
    private func makePlayer(_ urls: [String], reload: (@Sendable (CommandSource) -> Void)? = nil) -> (QueuePlayer, EventRecorder) {
        var scripts: [String: ScriptedMedia.Script] = [:]
        for url in ["a", "b", "c", "d"] { scripts[url] = .video(frames: 4, frameDuration: frame25) }
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let recorder = EventRecorder()
        let player = QueuePlayer(items: urls.map { QueueItem(url: $0) }, settings: settings, opener: ScriptedMedia(scripts),
                                 video: HeadlessVideoOutput(size: PixelSize(width: 64, height: 36)),
                                 clock: VirtualClock(), reload: reload, events: { recorder.record($0) })
        return (player, recorder)
    }

    private func replacement(_ urls: [String], immediately: Bool = false, scaling: ScalingMode = .default) -> QueueReplacement {
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.scaling = scaling
        return QueueReplacement(items: urls.map { QueueItem(url: $0) }, settings: settings, immediately: immediately)
    }

    private func started(_ events: [PlayerEvent]) -> [String] {
        events.compactMap { if case .itemStarted(_, let url, _, _) = $0 { url } else { nil } }
    }

    // Queued before start(), a replacement is applied right after the first item has opened and
    // before its first frame: deterministic on the virtual clock.

    @Test func atTheBoundaryTheItemPlayingFinishesAndTheNewListFollows() {
        let (player, recorder) = makePlayer(["a", "b"])
        player.replaceQueue(replacement(["c", "d"]))
        player.start()
        player.waitUntilFinished()
        #expect(started(recorder.events) == ["a", "c", "d"])
        #expect(recorder.frames.count == 12)
        #expect(recorder.events.contains(.itemEnded(index: 0, url: "a", reason: .playbackEnded, message: nil)))
        #expect(recorder.events.contains(.queueReplaced(itemCount: 2, immediately: false)))
    }

    @Test func theItemPlayingKeepsItsPlaceInTheNewList() {
        let (player, recorder) = makePlayer(["a", "b"])
        // a is now the second of three: what follows it is d.
        player.replaceQueue(replacement(["c", "a", "d"]))
        player.start()
        player.waitUntilFinished()
        #expect(started(recorder.events) == ["a", "d"])
        #expect(recorder.events.contains(.itemStarted(index: 2, url: "d")))
    }

    @Test func immediatelyEndsAnItemTheNewListDropped() {
        let (player, recorder) = makePlayer(["a", "b"])
        player.replaceQueue(replacement(["c"], immediately: true))
        player.start()
        player.waitUntilFinished()
        // a was opened but never got to start, so it ends nothing anyone saw.
        #expect(started(recorder.events) == ["c"])
        #expect(!recorder.events.contains(.itemEnded(index: 0, url: "a", reason: .userExited, message: nil)))
        // Nothing of a was shown: only c's four frames.
        #expect(recorder.frames.map(\.item) == [0, 0, 0, 0])
        #expect(recorder.events.contains(.queueReplaced(itemCount: 1, immediately: true)))
    }

    @Test func immediatelyKeepsAnItemTheNewListHas() {
        let (player, recorder) = makePlayer(["a", "b"])
        player.replaceQueue(replacement(["a", "c"], immediately: true))
        player.start()
        player.waitUntilFinished()
        #expect(started(recorder.events) == ["a", "c"])
        #expect(!recorder.events.contains { if case .itemEnded(_, _, .userExited, _) = $0 { true } else { false } })
    }

    @Test func settingsWaitForTheBoundaryUnlessImmediately() {
        let (player, recorder) = makePlayer(["a", "b"])
        player.replaceQueue(replacement(["a", "b"], scaling: .fill))
        player.start()
        player.waitUntilFinished()
        let events = recorder.events
        let changed = events.firstIndex(of: .scalingModeChanged(.fill))
        let firstEnd = events.firstIndex { if case .itemEnded = $0 { true } else { false } }
        #expect(changed != nil && firstEnd != nil && firstEnd! < changed!)

        let (now, nowRecorder) = makePlayer(["a", "b"])
        now.replaceQueue(replacement(["a", "b"], immediately: true, scaling: .fill))
        now.start()
        now.waitUntilFinished()
        let nowEvents = nowRecorder.events
        let nowChanged = nowEvents.firstIndex(of: .scalingModeChanged(.fill))
        let firstFrame = nowEvents.firstIndex { if case .frame = $0 { true } else { false } }
        #expect(nowChanged != nil && firstFrame != nil && nowChanged! < firstFrame!)
    }

    @Test func reloadIsACommandHandedToTheReloaderWithItsSource() {
        let asked = EventRecorder()
        let (player, recorder) = makePlayer(["a"], reload: { source in asked.record(.command(.reload, source: source)) })
        player.send(.reload, from: .signal(name: "SIGHUP"))
        player.start()
        player.waitUntilFinished()
        #expect(recorder.events.contains(.command(.reload, source: .signal(name: "SIGHUP"))))
        #expect(asked.events == [.command(.reload, source: .signal(name: "SIGHUP"))])

        let (alone, aloneRecorder) = makePlayer(["a"])
        alone.send(.reload, from: .signal(name: "SIGHUP"))
        alone.start()
        alone.waitUntilFinished()
        #expect(aloneRecorder.events.contains(.error(message: "reload: nothing to reload (not playing from a config file)")))
    }
}
