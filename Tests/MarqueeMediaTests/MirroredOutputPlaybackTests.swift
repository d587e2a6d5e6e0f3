import Dispatch
import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
import Testing

/// `mirror:` with the real decoder: each frame of a clip whose pictures carry their index is
/// decoded once and shown on the main screen and on two mirrors of other sizes, each placed for
/// its own screen; every screen shows the same frame index at every flip.
@Suite struct MirroredOutputPlaybackTests {
    /// A headless screen that reads, at each flip, which frame it now shows.
    final class IndexReadingOutput: VideoOutput, @unchecked Sendable {
        let screen: HeadlessVideoOutput
        let pictureRect: PixelRect
        private(set) var shown: [Int] = []

        init(size: PixelSize, background: RGBColor, pictureRect: PixelRect) {
            screen = HeadlessVideoOutput(size: size, background: background)
            self.pictureRect = pictureRect
        }

        var screenSize: PixelSize { screen.screenSize }
        func prepare(_ draw: (PixelBuffer) throws -> Void) throws { try screen.prepare(draw) }
        func showPrepared() throws {
            let before = screen.presentedCount
            try screen.showPrepared()
            if screen.presentedCount > before { shown.append(FrameIndexCodec.index(in: screen.canvas, pictureRect: pictureRect)) }
        }
    }

    @Test func everyScreenShowsTheSameFrameIndexPlacedForItsOwnMode() throws {
        let clip = try FixtureMedia.path(.frameIndexH264)
        // The 4:3 picture fills the main screen; pillarboxed on the 16:9 mirror; stretched on the square one.
        let main = IndexReadingOutput(size: PixelSize(width: 320, height: 240), background: .black,
                                      pictureRect: PixelRect(x: 0, y: 0, width: 320, height: 240))
        let green = RGBColor(red: 0, green: 255, blue: 0)
        let wide = IndexReadingOutput(size: PixelSize(width: 640, height: 360), background: green,
                                      pictureRect: PixelRect(x: 80, y: 0, width: 480, height: 360))
        let square = IndexReadingOutput(size: PixelSize(width: 200, height: 200), background: .black,
                                        pictureRect: PixelRect(x: 0, y: 0, width: 200, height: 200))
        let mirrored = MirroredVideoOutput(main: main, mainRotation: .none, mirrors: [
            .init(output: wide, rotation: .none, scaling: .aspectFit, background: green),
            .init(output: square, rotation: .none, scaling: .fill, background: .black),
        ])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let player = QueuePlayer(items: [QueueItem(url: clip)], settings: settings, opener: FFmpegMediaOpener(),
                                 video: mirrored, clock: VirtualClock(), events: { _ in })
        let finished = DispatchSemaphore(value: 0)
        player.start()
        Thread.detachNewThread {
            player.waitUntilFinished()
            finished.signal()
        }
        let ended = finished.wait(timeout: .now() + 60) == .success
        if !ended { player.shutDown() }
        try #require(ended, "the clip never finished")

        #expect(main.shown == Array(0..<100), "the main screen shows every frame once, in order")
        #expect(wide.shown == main.shown, "the 16:9 mirror shows the same frame at every flip")
        #expect(square.shown == main.shown, "the square mirror shows the same frame at every flip")
        // The wide mirror's bars are its own background, not the main screen's.
        #expect(wide.screen.canvas[10, 180] == green)
        #expect(wide.screen.canvas[630, 180] == green)
        #expect(wide.screen.canvas[320, 5] != green)
    }
}
