import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

/// A frame event carries the time its picture went on screen, and what that picture brought (the
/// item's start) the same time, whatever runs between the flip and the event: under TCG an item's
/// first announcement took 10 ms, and the guest's A/V test read the first flash that much late.
@Suite struct FrameEventTimeTests {
    @Test func aFramesTimeIsItsFlipNotItsEvent() throws {
        let media = ScriptedMedia(["clip": .video(frames: 10, frameDuration: MediaTime(1, per: 25))])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let clock = MonotonicClock()
        let stamped = Mutex<[(event: PlayerEvent, at: MediaTime, received: MediaTime)]>([])
        let player = QueuePlayer(items: [QueueItem(url: "clip")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)),
                                 clock: clock, stampedEvents: { event, at in
                                     // A slow consumer of the item's start (cold code, a busy core).
                                     if case .itemStarted = event { Thread.sleep(forTimeInterval: 0.03) }
                                     stamped.withLock { $0.append((event, at, clock.now())) }
                                 })
        player.start()
        player.waitUntilFinished()
        let events = stamped.withLock { $0 }
        let started = try #require(events.first { if case .itemStarted = $0.event { true } else { false } })
        let first = try #require(events.first { if case .frame(_, _, _, false, _) = $0.event { true } else { false } })
        #expect(first.at == started.at, "the item started when its first picture went up")
        #expect(first.received - first.at >= MediaTime(3, per: 100), "the first frame is stamped \((first.received - first.at).seconds) s before its event arrived")
        // Every event's time is the order it happened in.
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.at <= $1.at })
    }
}
