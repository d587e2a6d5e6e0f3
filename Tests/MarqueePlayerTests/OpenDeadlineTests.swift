import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

private let frame25 = MediaTime(1, per: 25)

/// An open that never returns (a hung NFS or USB path, a FIFO with no writer) must not hang the
/// player: the item fails at the open deadline and the playlist goes on, the watchdog keeps being
/// pinged meanwhile, and a quit ends the run loop at once, whatever the decode thread is doing.
@Suite struct OpenDeadlineTests {
    private func makePlayer(_ opener: MediaOpening, urls: [String], openTimeout: Duration = .milliseconds(500),
                            heartbeat: @escaping @Sendable () -> Void = {}) -> (QueuePlayer, EventRecorder) {
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        settings.openTimeout = openTimeout
        let recorder = EventRecorder()
        let player = QueuePlayer(items: urls.map { QueueItem(url: $0) }, settings: settings, opener: opener,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 64, height: 36)),
                                 clock: VirtualClock(), heartbeat: heartbeat, events: { recorder.record($0) })
        return (player, recorder)
    }

    @Test func aHungOpenFailsAtItsDeadlineAndTheNextItemPlaysWhileTheHeartKeepsBeating() {
        let opener = HangingOpener(["a": .video(frames: 4, frameDuration: frame25),
                                    "c": .video(frames: 4, frameDuration: frame25)], hanging: ["hung"])
        let beats = Mutex<[ContinuousClock.Instant]>([])
        let (player, recorder) = makePlayer(opener, urls: ["a", "hung", "c"], heartbeat: { beats.withLock { $0.append(.now) } })
        let start = ContinuousClock.now
        player.start()
        defer {
            opener.release()
            player.shutDown()
            player.waitUntilFinished()
        }

        let failed = Event.itemEnded(index: 1, url: "hung", reason: .playbackError, message: "timed out opening (no answer in 0.5 s)")
        #expect(recorder.wait(seconds: 5) { $0.contains(failed) }, "the hung item never failed")
        #expect(recorder.wait(seconds: 5) { events in events.contains { if case .itemEnded(2, "c", .playbackEnded, _) = $0 { true } else { false } } },
                "the item after the hung one did not play")
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        #expect(elapsed < 2.5, "the deadline was 0.5 s; the hung item took \(elapsed) s to fail")
        #expect(recorder.events.contains(.error(message: "hung: timed out opening (no answer in 0.5 s)")))
        #expect(recorder.frames.map(\.item) == [0, 0, 0, 0, 2, 2, 2, 2])

        // The heart beat through the wait: never a gap much longer than the loop's interval.
        let times = beats.withLock { $0 }
        let gaps = zip(times, times.dropFirst()).map { ($1 - $0) / .seconds(1) }
        #expect(times.count >= 4, "\(times.count) heartbeats")
        #expect((gaps.max() ?? 0) <= QueuePlayer.heartbeatInterval + 0.15, "longest gap between heartbeats \(gaps.max() ?? 0) s")
    }

    @Test func aPathThatStaysHungHoldsOneThreadNotOnePerLoop() {
        let opener = HangingOpener(["a": .video(frames: 2, frameDuration: frame25)], hanging: ["hung"])
        var settings = PlayerSettings()
        settings.openTimeout = .milliseconds(300)
        let recorder = EventRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "a"), QueueItem(url: "hung")], settings: settings, opener: opener,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 64, height: 36)),
                                 clock: VirtualClock(), events: { recorder.record($0) })
        player.start()
        defer {
            opener.release()
            player.shutDown()
            player.waitUntilFinished()
        }
        let failures = { (events: [PlayerEvent]) in
            events.filter { if case .itemEnded(1, "hung", .playbackError, _) = $0 { true } else { false } }.count
        }
        #expect(recorder.wait(seconds: 10) { failures($0) >= 4 }, "the hung item did not fail on every loop")
        // The first open is still stuck: later loops fail the item at once instead of opening it again.
        #expect(opener.blockedCount == 1, "\(opener.blockedCount) opens of the hung path are stuck")
        #expect(recorder.events.contains(.error(message: "hung: timed out opening (no answer in 0.3 s); its last open has not returned yet")))
        // And the item after it kept playing on every loop.
        #expect(recorder.events.filter { if case .itemEnded(0, "a", .playbackEnded, _) = $0 { true } else { false } }.count >= 4)
    }

    @Test func aQuitWhileAnOpenIsHungEndsTheRunLoopAtOnce() {
        let opener = HangingOpener([:], hanging: ["hung"])
        // The default deadline: the quit comes long before it.
        let (player, recorder) = makePlayer(opener, urls: ["hung"], openTimeout: .seconds(5))
        player.start()
        defer { opener.release() }
        #expect(opener.waitUntilBlocked())

        let finished = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        player.send(.quit, from: .signal(name: "SIGTERM"))
        Thread.detachNewThread {
            player.waitUntilFinished()
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 2) == .success, "the run loop was still waiting for the open 2 s after the quit")
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        #expect(elapsed < 1, "the quit took \(elapsed) s")
        #expect(recorder.events.contains(.command(.quit, source: .signal(name: "SIGTERM"))))
    }

    @Test func aQuitDuringAStalledReadEndsTheRunLoopAtOnce() {
        // Decoding frame 2 blocks for 10 s: a source that went silent mid-item.
        let media = ScriptedMedia(["slow": .stalling(frames: 10, frameDuration: frame25, stallingAt: 2, seconds: 10)])
        let (player, recorder) = makePlayer(media, urls: ["slow"], openTimeout: .seconds(5))
        player.start()
        #expect(recorder.wait(seconds: 5) { $0.frameCount >= 2 })
        Thread.sleep(forTimeInterval: 0.7)  // well into the stall

        let finished = DispatchSemaphore(value: 0)
        player.shutDown()
        Thread.detachNewThread {
            player.waitUntilFinished()
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 2) == .success, "the run loop waited for the stalled read after the quit")
    }

    @Test func waitingForAPlayerStuckAfterAShutDownIsBounded() {
        // A screen whose page flip never returns holds the present thread for good.
        let output = FreezableOutput()
        let media = ScriptedMedia(["long": .video(frames: 1000, frameDuration: frame25)])
        let recorder = EventRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "long")], settings: PlayerSettings(), opener: media, video: output,
                                 clock: MonotonicClock(), events: { recorder.record($0) })
        output.freeze()
        player.start()
        defer {
            output.thaw()
            player.waitUntilFinished()
        }
        #expect(output.waitUntilStuck())

        let start = ContinuousClock.now
        player.shutDown()
        let ended = Mutex<Bool?>(nil)
        let returned = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = player.waitUntilFinished(graceAfterShutDown: 0.5)
            ended.withLock { $0 = result }
            returned.signal()
        }
        #expect(returned.wait(timeout: .now() + 3) == .success, "waiting for the stuck player did not return")
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        #expect(ended.withLock { $0 } == false)
        #expect(elapsed >= 0.4 && elapsed < 1.5, "waited \(elapsed) s")
    }
}

private typealias Event = PlayerEvent
