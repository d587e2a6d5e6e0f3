import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
import Testing

/// A file whose data stops well before the duration its container declares was damaged, and the
/// engine says so: the item ends as playbackError naming where it stopped, and the playlist goes on.
@Suite struct TruncatedPlaybackTests {
    private final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [PlayerEvent] = []
        func record(_ event: PlayerEvent) { lock.withLock { recorded.append(event) } }
        var events: [PlayerEvent] { lock.withLock { recorded } }
    }

    private func play(_ urls: [String]) -> [PlayerEvent] {
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let recorder = Recorder()
        let player = QueuePlayer(items: urls.map { QueueItem(url: $0) }, settings: settings, opener: FFmpegMediaOpener(),
                                 video: HeadlessVideoOutput(size: PixelSize(width: 64, height: 36)),
                                 audio: NullAudioOutput(format: .standard), clock: VirtualClock(),
                                 events: { recorder.record($0) })
        player.start()
        player.waitUntilFinished()
        return recorder.events
    }

    @Test func aFaststartMP4CutShortEndsAsAnErrorAndTheNextItemPlays() throws {
        // 4 s declared in the index at the front; the media data stops part way.
        let cut = try FixtureMedia.path(.frameIndexTruncatedMP4)
        let whole = try FixtureMedia.path(.frameIndexH264)
        let events = play([cut, whole])

        let ends = events.compactMap { event -> (Int, FinishReason, String?)? in
            if case .itemEnded(let index, _, let reason, let message) = event { return (index, reason, message) }
            return nil
        }
        #expect(ends.count == 2)
        #expect(ends.first?.1 == .playbackError)
        let message = try #require(ends.first?.2)
        #expect(message.hasPrefix("truncated: decoded to ") && message.hasSuffix(" s of 4.0 s"), "\(message)")
        let decodedTo = Double(message.dropFirst("truncated: decoded to ".count).prefix { $0 != " " }) ?? -1
        #expect(decodedTo > 1 && decodedTo < 3.5, "\(message)")
        #expect(events.contains(.error(message: "\(cut): \(message)")))
        // The intact copy plays to its end.
        #expect(ends.last?.0 == 1 && ends.last?.1 == .playbackEnded)
    }

    /// Raw ADTS has no index: FFmpeg guesses its duration from the bitrate, and a file that ends
    /// before the guess is not damaged.
    @Test func aDurationGuessedFromTheBitrateIsNotHeldAgainstTheFile() throws {
        let adts = try FixtureMedia.path(.toneADTS)
        #expect(try FFmpegMediaOpener().open(adts).asset.isDurationEstimated)
        #expect(try !FFmpegMediaOpener().open(FixtureMedia.path(.frameIndexH264)).asset.isDurationEstimated)
        let ends = play([adts]).filter { if case .itemEnded = $0 { true } else { false } }
        #expect(ends.count == 1)
        if case .itemEnded(_, _, let reason, let message) = ends.first { #expect(reason == .playbackEnded, "\(message ?? "")") }
    }
}

extension FixtureMedia.Recipe {
    /// 3 s of a 440 Hz tone as raw ADTS AAC (no container index).
    static let toneADTS = Self(name: "tone-truncation.aac") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.tone(seconds: 3, rate: 44100) + ["-c:a", "aac", "-b:a", "96k", "-f", "adts", output.path])
    }
}
