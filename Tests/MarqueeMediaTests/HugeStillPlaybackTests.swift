import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
import Testing

/// A large still coming after a video, on the real clock and a 1280x720 headless screen: its
/// arrival must not keep the video's last frame up. It is decoded ahead while the video plays; what
/// is left for its due time is drawing it, on the present thread, which for the picture as decoded
/// (8000x8000) was a scale of 64 million pixels: 0.3 s of CPU, 0.7 to 1.4 s late on this loaded
/// machine. Shrunk when decoded, the draw takes 0.03 s.
///
/// The clip lasts 3 s so that decoding the still ahead (about 1 s of CPU for the PNG and the shrink)
/// usually fits in it. When a loaded machine stretches the decode past the clip's end, the still is
/// late by that much and no hand-over can help: the test allows for it and bounds the rest.
@Suite struct HugeStillPlaybackTests {
    private final class Starts: @unchecked Sendable {
        private let condition = NSCondition()
        private var times: [Int: MediaTime] = [:]
        private(set) var errors: [String] = []
        let clock: PlaybackClock

        init(clock: PlaybackClock) { self.clock = clock }

        func record(_ event: PlayerEvent) {
            let now = clock.now()
            condition.withLock {
                if case .itemStarted(let index, _, _, _) = event { times[index] = now }
                if case .error(let message) = event { errors.append(message) }
                condition.broadcast()
            }
        }

        func waitForStart(of index: Int) -> [Int: MediaTime] {
            let deadline = Date().addingTimeInterval(60)
            return condition.withLock {
                while times[index] == nil && errors.isEmpty { if !condition.wait(until: deadline) { break } }
                return times
            }
        }
    }

    /// Notes when the still's picture was decoded, so the test tells time spent decoding (which a
    /// loaded machine stretches past the clip's end) from time the present thread added.
    private final class TimedOpener: MediaOpening, @unchecked Sendable {
        let base: MediaOpening
        let watched: String
        let clock: PlaybackClock
        private let lock = NSLock()
        private var decodedAt: MediaTime?

        init(base: MediaOpening, watched: String, clock: PlaybackClock) {
            (self.base, self.watched, self.clock) = (base, watched, clock)
        }

        var pictureDecodedAt: MediaTime? { lock.withLock { decodedAt } }

        func open(_ url: String) throws -> MediaReader {
            let reader = try base.open(url)
            return url == watched ? TimedReader(base: reader, opener: self) : reader
        }

        func notePicture() {
            let now = clock.now()
            lock.withLock { if decodedAt == nil { decodedAt = now } }
        }
    }

    private final class TimedReader: MediaReader {
        let base: MediaReader
        let opener: TimedOpener
        init(base: MediaReader, opener: TimedOpener) { (self.base, self.opener) = (base, opener) }
        var asset: Asset { base.asset }
        func seek(to time: MediaTime) throws { try base.seek(to: time) }
        func nextPicture() throws -> VideoPicture? {
            let picture = try base.nextPicture()
            if picture != nil { opener.notePicture() }
            return picture
        }
        func nextMedia(audioFormat: AudioFormat?) throws -> DecodedMedia? {
            let media = try base.nextMedia(audioFormat: audioFormat)
            if case .picture? = media { opener.notePicture() }
            return media
        }
    }

    /// A headless screen that notes the CPU time each draw takes on the present thread: unlike
    /// wall time, a loaded machine does not stretch it.
    private final class DrawTimingOutput: VideoOutput, @unchecked Sendable {
        private let canvas: HeadlessVideoOutput
        private let lock = NSLock()
        private var costs: [Double] = []

        init(size: PixelSize) { canvas = HeadlessVideoOutput(size: size) }

        var screenSize: PixelSize { canvas.screenSize }
        var longestDraw: Double { lock.withLock { costs.max() ?? 0 } }

        func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
            let ((), cost) = try HugeStillTests.threadCPUTime { try canvas.prepare(draw) }
            lock.withLock { costs.append(cost) }
        }

        func showPrepared() throws { try canvas.showPrepared() }
    }

    @Test func aLargeStillAppearsWhenTheVideoBeforeItEnds() throws {
        let clip = try FixtureMedia.path(.threeSecondClip)
        let still = try FixtureMedia.path(.hugeFlatPNG)
        let screen = PixelSize(width: 1280, height: 720)
        let clock = MonotonicClock()
        let starts = Starts(clock: clock)
        let output = DrawTimingOutput(size: screen)
        let opener = TimedOpener(base: FFmpegMediaOpener(options: MediaOpenOptions(stillScreenSize: screen)), watched: still, clock: clock)
        var settings = PlayerSettings()
        settings.repeatMode = .off
        let player = QueuePlayer(items: [QueueItem(url: clip), QueueItem(url: still, duration: MediaTime(seconds: 1))],
                                 settings: settings, opener: opener, video: output, clock: clock,
                                 events: { starts.record($0) })
        player.start()
        let times = starts.waitForStart(of: 1)
        player.shutDown()
        player.waitUntilFinished()

        #expect(starts.errors.isEmpty, "\(starts.errors)")
        let clipStart = try #require(times[0]), stillStart = try #require(times[1])
        let decoded = try #require(opener.pictureDecodedAt)
        let due = clipStart + MediaTime(seconds: 3)
        let late = (stillStart - due).seconds
        // What the present thread does at the hand-over is drawing the still: as decoded
        // (8000x8000) that took 0.3 to 0.5 s of CPU, shrunk a few milliseconds.
        #expect(output.longestDraw < 0.1, "a draw took \(output.longestDraw) s of CPU")
        // Decoding ahead that ran past the due time (a loaded machine stretches it past the clip's
        // end) is not the present thread's doing; the rest is, and a generous margin covers the
        // load's scheduling delays.
        let decodedLate = max(0, (decoded - due).seconds)
        #expect(late - decodedLate < 0.5,
                "the still appeared \(late) s after the clip's end, its picture was decoded \(decodedLate) s after it")
    }
}

extension FixtureMedia.Recipe {
    /// 3 s of the 320x240 test pattern at 25 fps, H.264.
    static let threeSecondClip = Self(name: "clip-3s.mp4") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 3) + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", output.path])
    }
}
