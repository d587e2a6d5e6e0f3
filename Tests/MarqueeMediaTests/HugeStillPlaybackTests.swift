import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
import Testing

/// A large still coming after a video, on the real clock and a 1280x720 headless screen: its
/// arrival must not keep the video's last frame up. It is decoded ahead while the video plays; what
/// is left for its due time is drawing it, on the present thread, which for the picture as decoded
/// (8000x8000) was a scale of 64 million pixels: 0.4 to 3 s late on this loaded machine.
///
/// The clip lasts 3 s so that decoding the still ahead (about 1 s here for the PNG and the shrink,
/// more when other tests decode beside it) fits in it: a still whose decode takes longer than the
/// item before it lasts is late by the difference, and no hand-over can change that.
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
                if case .itemStarted(let index, _, _) = event { times[index] = now }
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

    @Test func aLargeStillAppearsWhenTheVideoBeforeItEnds() throws {
        let clip = try FixtureMedia.path(.threeSecondClip)
        let still = try FixtureMedia.path(.hugeFlatPNG)
        let screen = PixelSize(width: 1280, height: 720)
        let clock = MonotonicClock()
        let starts = Starts(clock: clock)
        var settings = PlayerSettings()
        settings.repeatMode = .off
        let player = QueuePlayer(items: [QueueItem(url: clip), QueueItem(url: still, duration: MediaTime(seconds: 1))],
                                 settings: settings,
                                 opener: FFmpegMediaOpener(options: MediaOpenOptions(stillScreenSize: screen)),
                                 video: HeadlessVideoOutput(size: screen), clock: clock,
                                 events: { starts.record($0) })
        player.start()
        let times = starts.waitForStart(of: 1)
        player.shutDown()
        player.waitUntilFinished()

        #expect(starts.errors.isEmpty, "\(starts.errors)")
        let clipStart = try #require(times[0]), stillStart = try #require(times[1])
        let late = (stillStart - clipStart - MediaTime(seconds: 3)).seconds
        // Generous for a loaded machine; drawing the still as decoded made it 0.5 s and more.
        #expect(late < 0.2, "the still appeared \(late) s after the clip's end")
    }
}

extension FixtureMedia.Recipe {
    /// 3 s of the 320x240 test pattern at 25 fps, H.264.
    static let threeSecondClip = Self(name: "clip-3s.mp4") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 3) + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", output.path])
    }
}
