import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
import MarqueeTestSupport
import Synchronization
import Testing

/// The engine driving the real FFmpeg backend, with a capturing null audio output on the virtual
/// clock: what `marquee play --audio null --clock fast` does, read back to the sample.
@Suite struct EnginePlaybackTests {
    private final class Events: @unchecked Sendable {
        private let condition = NSCondition()
        private var itemStarts = 0
        private(set) var failures: [String] = []

        func record(_ event: PlayerEvent) {
            condition.withLock {
                if case .itemStarted = event { itemStarts += 1 }
                if case .error(let message) = event { failures.append(message) }
                condition.broadcast()
            }
        }

        func waitForItemStarts(_ count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(120)
            return condition.withLock {
                while itemStarts < count { if !condition.wait(until: deadline) { return false } }
                return true
            }
        }
    }

    /// Plays `items` with repeat one until `loops` loops are done (each `framesPerLoop` frames of
    /// sound) and returns the left channel.
    private func playLoops(_ items: [QueueItem], loops: Int, framesPerLoop: Int) throws -> (left: [Float], failures: [String]) {
        var settings = PlayerSettings()
        settings.repeatMode = .one
        let events = Events()
        let audio = NullAudioOutput(format: .standard, keepsSamples: true)
        let player = QueuePlayer(items: items, settings: settings, opener: FFmpegMediaOpener(),
                                 video: HeadlessVideoOutput(size: PixelSize(width: 160, height: 90)), audio: audio,
                                 clock: VirtualClock(), events: { events.record($0) })
        player.start()
        let reached = events.waitForItemStarts(loops + 1)
        // On the virtual clock the present thread runs ahead of the audio thread, which may still
        // be writing the last loop's sound when the next loop starts: stop once it has written
        // what the loops hold, or after a minute.
        let deadline = Date().addingTimeInterval(60)
        while audio.framesWritten < Int64(loops * framesPerLoop) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        player.shutDown()
        player.waitUntilFinished()
        #expect(reached, "fewer than \(loops) loops played")
        let samples = audio.samples
        return (stride(from: 0, to: samples.count, by: 2).map { samples[$0] }, events.failures)
    }

    /// AAC from a 44.1 kHz file, resampled to 48 kHz, trimmed to [0.25 s, 0.75 s) and looped 100
    /// times: every loop is exactly 24000 frames and holds exactly the same samples, so after
    /// 100 loops nothing has drifted by even one sample.
    @Test func aTrimmedAACItemLoopsAHundredTimesWithoutDrift() throws {
        let url = try FixtureMedia.path(.aacM4A)
        let (left, failures) = try playLoops([QueueItem(url: url, start: MediaTime(1, per: 4), end: MediaTime(3, per: 4))], loops: 100, framesPerLoop: 24000)
        #expect(failures.isEmpty, "\(failures)")
        let loopFrames = 24000
        #expect(left.count >= 100 * loopFrames)
        guard left.count >= 100 * loopFrames else { return }
        let first = Array(left[0..<loopFrames])
        #expect(first.contains { abs($0) > 0.1 }, "the tone is there")
        for loop in [1, 2, 50, 99] {
            #expect(Array(left[(loop * loopFrames)..<((loop + 1) * loopFrames)]) == first, "loop \(loop) is sample-identical to loop 0")
        }
        // Each loop is cut out of the tone, so it fades in from silence right on its boundary.
        for loop in 0..<100 { #expect(left[loop * loopFrames] == 0) }
    }

    /// An untrimmed video+audio clip loops gapless: each loop's audio lasts exactly the item
    /// (its 2 s duration) with nothing added or lost at the seam.
    @Test func aVideoAndAudioClipLoopsWithContinuousAudio() throws {
        let url = try FixtureMedia.path(.h264AAC)
        let (left, failures) = try playLoops([QueueItem(url: url)], loops: 3, framesPerLoop: 96000)
        #expect(failures.isEmpty, "\(failures)")
        let loopFrames = 96000
        #expect(left.count >= 3 * loopFrames)
        guard left.count >= 3 * loopFrames else { return }
        let first = Array(left[0..<loopFrames])
        #expect(Array(left[loopFrames..<(2 * loopFrames)]) == first)
        #expect(Array(left[(2 * loopFrames)..<(3 * loopFrames)]) == first)
        #expect(first.contains { abs($0) > 0.1 }, "the tone is there")
    }
}

/// The engine with the real opener and a real FIFO with no writer as item 2 of 3: a stand-in for a
/// hung NFS or USB path. It is refused at once, without opening it, and item 3 plays.
@Suite struct HungPathPlaybackTests {
    @Test func aFIFOBetweenTwoClipsFailsAtOnceAndTheClipAfterItPlays() throws {
        let clip = try FixtureMedia.path(.h264AAC)
        let fifo = try TemporaryFIFO()
        defer { fifo.release() }
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let events = Mutex<[PlayerEvent]>([])
        let player = QueuePlayer(items: [QueueItem(url: clip), QueueItem(url: fifo.path), QueueItem(url: clip)],
                                 settings: settings, opener: FFmpegMediaOpener(),
                                 video: HeadlessVideoOutput(size: PixelSize(width: 160, height: 90)),
                                 clock: VirtualClock(), events: { event in events.withLock { $0.append(event) } })
        let finished = DispatchSemaphore(value: 0)
        player.start()
        Thread.detachNewThread {
            player.waitUntilFinished()
            finished.signal()
        }
        let ended = finished.wait(timeout: .now() + 30) == .success
        if !ended { player.shutDown() }
        #expect(ended, "the playlist never finished")

        let recorded = events.withLock { $0 }
        #expect(recorded.contains(.error(message: "\(fifo.path): not a regular file (a FIFO)")))
        let ends = recorded.compactMap { event -> String? in
            if case .itemEnded(let index, _, let reason, _) = event { return "\(index) \(reason.rawValue)" }
            return nil
        }
        #expect(ends == ["0 playbackEnded", "1 playbackError", "2 playbackEnded"])
    }
}
