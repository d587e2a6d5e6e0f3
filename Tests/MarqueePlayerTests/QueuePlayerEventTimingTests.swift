import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

private let frame25 = MediaTime(1, per: 25)

/// Item events are proof of play: each is stamped with the player's clock when it is emitted, and
/// must come from the presented timeline, not from how far ahead the decoder is.
@Suite struct QueuePlayerEventTimingTests {
    /// Events with the player clock's time when they were emitted.
    private final class StampedEvents: Sendable {
        private let recorded = Mutex<[(event: PlayerEvent, at: MediaTime)]>([])
        let recorder = EventRecorder()

        func record(_ event: PlayerEvent, at time: MediaTime) {
            recorded.withLock { $0.append((event, time)) }
            recorder.record(event)
        }

        var all: [(event: PlayerEvent, at: MediaTime)] { recorded.withLock { $0 } }

        /// When `event` was emitted; nil if it never was.
        func time(of event: PlayerEvent) -> MediaTime? {
            all.first { $0.event == event }?.at
        }

        /// The item events in order, frames and state changes left out.
        var itemEvents: [PlayerEvent] {
            all.map(\.event).filter {
                switch $0 {
                case .itemStarted, .itemEnded: true
                default: false
                }
            }
        }
    }

    private func play(_ items: [QueueItem], _ media: ScriptedMedia, clock: PlaybackClock = VirtualClock(),
                      audio: AudioOutput? = nil, repeatMode: RepeatMode = .off) -> (QueuePlayer, StampedEvents) {
        var settings = PlayerSettings()
        settings.repeatMode = repeatMode
        settings.exitWhenIdle = true
        let events = StampedEvents()
        let player = QueuePlayer(items: items, settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)), audio: audio,
                                 clock: clock, events: { events.record($0, at: clock.now()) })
        player.start()
        return (player, events)
    }

    @Test func aStillEndsWhenItsTimeIsUpAndTheNextItemStartsWhenItsFirstFrameIsShown() {
        let media = ScriptedMedia(["menu.png": .still, "clip": .video(frames: 10, frameDuration: frame25)])
        let (player, events) = play([QueueItem(url: "menu.png", duration: MediaTime(seconds: 3)), QueueItem(url: "clip")], media)
        player.waitUntilFinished()

        #expect(events.itemEvents == [
            .itemStarted(index: 0, url: "menu.png"),
            .itemEnded(index: 0, url: "menu.png", reason: .playbackEnded, message: nil),
            .itemStarted(index: 1, url: "clip"),
            .itemEnded(index: 1, url: "clip", reason: .playbackEnded, message: nil),
        ])
        #expect(events.time(of: .itemStarted(index: 0, url: "menu.png")) == .zero)
        // The still's three seconds are up exactly when the clip's first frame replaces it.
        #expect(events.time(of: .itemEnded(index: 0, url: "menu.png", reason: .playbackEnded, message: nil)) == MediaTime(seconds: 3))
        #expect(events.time(of: .itemStarted(index: 1, url: "clip")) == MediaTime(seconds: 3))
        // The clip's last frame (shown at 3.36 s) lasts its 40 ms.
        #expect(events.time(of: .itemEnded(index: 1, url: "clip", reason: .playbackEnded, message: nil)) == MediaTime(3, per: 1) + frame25 * 10)
    }

    @Test func aClipEndsWhenItsLastFrameHasHadItsTurnNotWhenItIsShown() {
        let media = ScriptedMedia(["a": .video(frames: 10, frameDuration: frame25), "b": .video(frames: 5, frameDuration: frame25)])
        let (player, events) = play([QueueItem(url: "a"), QueueItem(url: "b")], media)
        player.waitUntilFinished()

        let handOver = frame25 * 10
        #expect(events.time(of: .itemEnded(index: 0, url: "a", reason: .playbackEnded, message: nil)) == handOver)
        #expect(events.time(of: .itemStarted(index: 1, url: "b")) == handOver)
        // Its facts come with it, not when it was opened ahead.
        let duration = events.all.last { if case .durationAvailable = $0.event { true } else { false } }
        #expect(duration?.event == .durationAvailable(frame25 * 5))
        #expect(duration?.at == handOver)
    }

    @Test func anItemWithoutPicturesStartsAndEndsWithItsSound() {
        let media = ScriptedMedia(["jingle": .audioOnly(seconds: 2), "clip": .video(frames: 5, frameDuration: frame25, withAudio: true)])
        let audio = NullAudioOutput(format: .standard)
        let (player, events) = play([QueueItem(url: "clip"), QueueItem(url: "jingle"), QueueItem(url: "clip")], media, audio: audio)
        player.waitUntilFinished()

        let jingleStart = frame25 * 5
        #expect(events.time(of: .itemEnded(index: 0, url: "clip", reason: .playbackEnded, message: nil)) == jingleStart)
        #expect(events.time(of: .itemStarted(index: 1, url: "jingle")) == jingleStart)
        #expect(events.time(of: .itemEnded(index: 1, url: "jingle", reason: .playbackEnded, message: nil)) == jingleStart + MediaTime(seconds: 2))
        #expect(events.time(of: .itemStarted(index: 2, url: "clip")) == jingleStart + MediaTime(seconds: 2))
    }

    /// On the real clock, with a device whose clock video follows and which starts playing 150 ms
    /// after its first write (as ALSA waits for its start threshold): the item is reported when its
    /// first sample is heard, and ends when its last sample has played.
    @Test func anItemWithoutPicturesStartsWhenTheDeviceIsHeardPlayingIt() throws {
        let media = ScriptedMedia(["jingle": .audioOnly(seconds: 1), "clip": .video(frames: 5, frameDuration: frame25, withAudio: true)])
        let device = ClockedTestDevice(startDelay: 0.15)
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        settings.followsAudioClock = true
        let stamps = Mutex<[(event: PlayerEvent, at: ContinuousClock.Instant)]>([])
        let player = QueuePlayer(items: [QueueItem(url: "jingle"), QueueItem(url: "clip")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)), audio: device,
                                 clock: MonotonicClock(), events: { event in stamps.withLock { $0.append((event, .now)) } })
        player.start()
        player.waitUntilFinished()

        let heardFrom = try #require(device.startedAt)
        func seconds(after instant: ContinuousClock.Instant, of event: PlayerEvent) -> Double? {
            stamps.withLock { $0 }.first { $0.event == event }.map { ($0.at - instant) / .seconds(1) }
        }
        let start = try #require(seconds(after: heardFrom, of: .itemStarted(index: 0, url: "jingle")))
        #expect(start >= -0.005 && start < 0.05, "itemStarted \(Int(start * 1000)) ms after the device began playing")
        let end = try #require(seconds(after: heardFrom, of: .itemEnded(index: 0, url: "jingle", reason: .playbackEnded, message: nil)))
        #expect(abs(end - 1) < 0.05, "itemEnded \(Int(end * 1000)) ms after the device began playing")
    }

    /// On the real clock: a key pressed while a still is up acts on the still.
    @Test func nextDuringAStillMovesToTheItemAfterTheStill() {
        let media = ScriptedMedia(["menu.png": .still, "b": .video(frames: 3, frameDuration: frame25),
                                   "c": .video(frames: 3, frameDuration: frame25)])
        let items = [QueueItem(url: "menu.png", duration: MediaTime(seconds: 2)), QueueItem(url: "b"), QueueItem(url: "c")]
        let (player, events) = play(items, media, clock: MonotonicClock())
        #expect(events.recorder.wait { $0.frameCount >= 1 })
        player.send(.next)
        player.waitUntilFinished()

        #expect(events.recorder.frames.map(\.item) == [0, 1, 1, 1, 2, 2, 2])
        #expect(events.itemEvents.prefix(3) == [
            .itemStarted(index: 0, url: "menu.png"),
            .itemEnded(index: 0, url: "menu.png", reason: .userExited, message: nil),
            .itemStarted(index: 1, url: "b"),
        ])
        // b came at once, not when the still's two seconds would have been up.
        let bStart = events.time(of: .itemStarted(index: 1, url: "b"))
        #expect(bStart.map { $0 < MediaTime(seconds: 1) } == true, "b started at \(String(describing: bStart))")
    }

    @Test func pauseAfterCurrentItemDuringAStillPausesOnTheNextItemsFirstFrame() {
        let media = ScriptedMedia(["menu.png": .still, "b": .video(frames: 3, frameDuration: frame25),
                                   "c": .video(frames: 3, frameDuration: frame25)])
        let items = [QueueItem(url: "menu.png", duration: MediaTime(1, per: 2)), QueueItem(url: "b"), QueueItem(url: "c")]
        let (player, events) = play(items, media, clock: MonotonicClock())
        #expect(events.recorder.wait { $0.frameCount >= 1 })
        player.send(.pauseAfterCurrentItem)
        #expect(events.recorder.wait { $0.contains(.playbackStateChanged(from: .playing, to: .paused)) })
        #expect(events.recorder.frames.map(\.item) == [0, 1])
        player.shutDown()
        player.waitUntilFinished()
    }

    /// 1000 `next`, half at full speed (taken in batches) and half 0.2 ms apart (taken one by one,
    /// as signals arrive): most items are left before they appear, and those end nothing anyone
    /// saw. Every itemEnded follows its own itemStarted, and every command is applied.
    @Test func everyItemEndedFollowsItsItemStartedWhateverTheCommandRate() {
        let media = ScriptedMedia(["a": .video(frames: 5, frameDuration: frame25), "b": .video(frames: 5, frameDuration: frame25),
                                   "c": .video(frames: 5, frameDuration: frame25)])
        let (player, events) = play([QueueItem(url: "a"), QueueItem(url: "b"), QueueItem(url: "c")], media, repeatMode: .all)
        #expect(events.recorder.wait { $0.frameCount >= 1 })
        for _ in 0..<500 { player.send(.next) }
        for _ in 0..<500 {
            player.send(.next)
            Thread.sleep(forTimeInterval: 0.0002)
        }
        #expect(events.recorder.wait { $0.filter { if case .command = $0 { true } else { false } }.count == 1000 })
        let settled = events.recorder.events.frameCount
        #expect(events.recorder.wait { $0.frameCount >= settled + 10 })
        player.send(.quit, from: .signal(name: "SIGTERM"))
        player.waitUntilFinished()

        var open: Int?
        var pairs = 0
        for event in events.itemEvents {
            switch event {
            case .itemStarted(let index, _, _, _):
                #expect(open == nil, "itemStarted \(index) while \(open!) had not ended")
                open = index
            case .itemEnded(let index, _, let reason, _):
                #expect(open == index, "itemEnded \(index) (\(reason)) without its itemStarted")
                open = nil
                pairs += 1
            default: break
            }
        }
        #expect(open == nil)
        #expect(pairs >= 2)
    }

    @Test func quittingEndsTheItemOnScreenAsUserExitedThenStops() {
        let media = ScriptedMedia(["a": .video(frames: 10, frameDuration: frame25), "b": .video(frames: 10, frameDuration: frame25)])
        let (player, events) = play([QueueItem(url: "a"), QueueItem(url: "b")], media, repeatMode: .all)
        #expect(events.recorder.wait { $0.frameCount >= 25 })
        player.send(.quit, from: .signal(name: "SIGTERM"))
        player.waitUntilFinished()

        let all = events.all.map(\.event)
        let onScreen = events.recorder.frames.last!.item
        let url = onScreen == 0 ? "a" : "b"
        let ended = all.lastIndex(of: .itemEnded(index: onScreen, url: url, reason: .userExited, message: nil))
        let stopped = all.lastIndex(of: .playbackStateChanged(from: .playing, to: .stopped))
        #expect(ended != nil && stopped != nil && ended! < stopped!)
        // Nothing about items after those two.
        #expect(!all[(ended ?? 0)...].contains { if case .itemStarted = $0 { true } else { false } })
        #expect(stopped.map { all[$0...].allSatisfy { if case .loadStateChanged = $0 { true } else { $0 == all[stopped!] } } } == true)
    }
}
