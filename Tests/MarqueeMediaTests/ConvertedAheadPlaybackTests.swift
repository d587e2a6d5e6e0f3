import Dispatch
import Foundation
import MarqueeCore
@testable import MarqueeMedia
@testable import MarqueePlayer
import Testing

/// Pictures converted on the decode thread into the output's buffers ahead of their turn, with the
/// real decoder: on the real clock the present thread converts nothing after an item's first
/// picture, every flip shows the frame due (never a buffer still being written or already
/// replaced), and a decoded picture says its format for the negotiation.
@Suite struct ConvertedAheadPlaybackTests {
    /// A headless screen lending its buffers, reading at each flip which frame it now shows.
    final class PooledIndexReadingOutput: PooledVideoOutput, @unchecked Sendable {
        let screen = HeadlessVideoOutput(size: FrameIndexCodec.pictureSize)
        private(set) var shown: [Int] = []

        var screenSize: PixelSize { screen.screenSize }
        var pictureBuffers: OutputBufferPool? { screen.pictureBuffers }
        func prepare(_ draw: (PixelBuffer) throws -> Void) throws { try screen.prepare(draw) }
        func prepare(lease: OutputBufferLease, then draw: ((PixelBuffer) throws -> Void)?) throws -> Bool {
            try screen.prepare(lease: lease, then: draw)
        }
        func showPrepared() throws {
            let before = screen.presentedCount
            try screen.showPrepared()
            if screen.presentedCount > before { shown.append(FrameIndexCodec.index(in: screen.canvas)) }
        }
    }

    /// The same screen without lent buffers: every picture is drawn on the present thread.
    final class UnpooledIndexReadingOutput: VideoOutput, @unchecked Sendable {
        let pooled = PooledIndexReadingOutput()
        var screenSize: PixelSize { pooled.screenSize }
        var shown: [Int] { pooled.shown }
        func prepare(_ draw: (PixelBuffer) throws -> Void) throws { try pooled.prepare(draw) }
        func showPrepared() throws { try pooled.showPrepared() }
    }

    private func play(_ clip: String, on video: VideoOutput, clock: PlaybackClock) throws -> QueuePlayer {
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let player = QueuePlayer(items: [QueueItem(url: clip)], settings: settings, opener: FFmpegMediaOpener(),
                                 video: video, clock: clock, events: { _ in })
        let finished = DispatchSemaphore(value: 0)
        player.start()
        Thread.detachNewThread {
            player.waitUntilFinished()
            finished.signal()
        }
        let ended = finished.wait(timeout: .now() + 60) == .success
        if !ended { player.shutDown() }
        try #require(ended, "the clip never finished")
        return player
    }

    @Test func onTheRealClockThePresentThreadOnlyFlips() throws {
        let output = PooledIndexReadingOutput()

        let player = try play(try FixtureMedia.path(.frameIndexH264), on: output, clock: MonotonicClock())

        // A frame dropped on a loaded machine is skipped, never shown out of order or twice.
        #expect(output.shown == output.shown.sorted() && Set(output.shown).count == output.shown.count, "\(output.shown)")
        #expect(output.shown.count >= 90, "\(output.shown.count) of 100 frames shown")
        #expect(output.shown.first == 0 && output.shown.last == 99)
        // The item's first picture was decoded before it became current: drawn on the present thread.
        #expect(player.delivery.convertedAhead >= output.shown.count - 5,
                "\(player.delivery.convertedAhead) converted ahead, \(player.delivery.convertedOnPresentThread) on the present thread")
    }

    @Test func anOutputWithoutLentBuffersHasEveryPictureDrawnOnThePresentThread() throws {
        let output = UnpooledIndexReadingOutput()

        let player = try play(try FixtureMedia.path(.frameIndexH264), on: output, clock: VirtualClock())

        #expect(output.shown == Array(0..<100))
        #expect(player.delivery.convertedAhead == 0)
        #expect(player.delivery.convertedOnPresentThread == 100)
    }

    @Test func onTheVirtualClockEveryFrameShowsInOrderWhoeverConvertedIt() throws {
        let output = PooledIndexReadingOutput()

        let player = try play(try FixtureMedia.path(.frameIndexH264), on: output, clock: VirtualClock())

        #expect(output.shown == Array(0..<100))
        #expect(player.delivery.convertedAhead + player.delivery.convertedOnPresentThread == 100)
    }

    @Test func theRouteIsNegotiatedAgainWhenTheStreamChangesSize() throws {
        let output = PooledIndexReadingOutput()

        let player = try play(try FixtureMedia.path(.frameIndexSizeChangeTS), on: output, clock: VirtualClock())

        let route = try #require(player.delivery.route)
        #expect(route.picture.size == PixelSize(width: 160, height: 120), "the route follows the second half's size")
        #expect(route.picture.pixelFormat == "yuv420p")
        #expect(route.scanout == .xrgb8888)
    }

    @Test func decodedPicturesSayTheirFormat() throws {
        func firstPicture(_ recipe: FixtureMedia.Recipe) throws -> VideoPicture? {
            let reader = try FFmpegMediaOpener().open(try FixtureMedia.path(recipe))
            while let media = try reader.nextMedia(audioFormat: nil) {
                if case .picture(let picture) = media { return picture }
            }
            return nil
        }

        let clip = try #require(try firstPicture(.frameIndexH264)?.format)
        let jpeg = try #require(try firstPicture(.stillJPEG)?.format)

        #expect(clip.pixelFormat == "yuv420p" && clip.size == FrameIndexCodec.pictureSize)
        #expect(jpeg.pixelFormat == "yuvj420p" && jpeg.range == .full)
    }
}
