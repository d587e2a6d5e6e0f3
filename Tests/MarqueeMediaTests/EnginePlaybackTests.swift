import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
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

    /// Plays `items` with repeat one until `loops` loops are done and returns the left channel.
    private func playLoops(_ items: [QueueItem], loops: Int) throws -> (left: [Float], failures: [String]) {
        var settings = PlayerSettings()
        settings.repeatMode = .one
        let events = Events()
        let audio = NullAudioOutput(format: .standard, keepsSamples: true)
        let player = QueuePlayer(items: items, settings: settings, opener: FFmpegMediaOpener(),
                                 video: HeadlessVideoOutput(size: PixelSize(width: 160, height: 90)), audio: audio,
                                 clock: VirtualClock(), events: { events.record($0) })
        player.start()
        let reached = events.waitForItemStarts(loops + 1)
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
        let (left, failures) = try playLoops([QueueItem(url: url, start: MediaTime(1, per: 4), end: MediaTime(3, per: 4))], loops: 100)
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
        let (left, failures) = try playLoops([QueueItem(url: url)], loops: 3)
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
