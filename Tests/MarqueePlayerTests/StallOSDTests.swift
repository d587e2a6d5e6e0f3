import Foundation
import MarqueeCore
import Testing
@testable import MarqueePlayer

/// A stall longer than `osd.stallAfter` puts the labels up over the held picture saying how long
/// it has lasted ("Buffering 2 s"), once a second; the label goes when playback resumes.
@Suite struct StallOSDTests {
    @Test func aLongStallSaysHowLongItHasLasted() {
        let shaper = QueuePlayerContentWaitTests.RecordingShaper()
        let osd = QueuePlayerContentWaitTests.osd(shaper)
        let media = ScriptedMedia(["slow": .stalling(frames: 60, frameDuration: MediaTime(1, per: 25), stallingAt: 20, seconds: 3.5)])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let recorder = EventRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "slow")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 320, height: 180)), display: osd,
                                 clock: MonotonicClock(), events: { recorder.record($0) })
        player.start()
        player.waitUntilFinished()
        #expect(recorder.events.contains(.playbackStalled))
        #expect(shaper.saw("Buffering 1 s") && shaper.saw("Buffering 2 s"))
        #expect(!shaper.saw("Buffering 0 s"), "said before osd.stallAfter (1 s)")
        #expect(player.osdContent().bufferingSeconds == nil)
    }

    @Test func aShortStallSaysNothing() {
        let shaper = QueuePlayerContentWaitTests.RecordingShaper()
        let osd = QueuePlayerContentWaitTests.osd(shaper)
        let media = ScriptedMedia(["slow": .stalling(frames: 40, frameDuration: MediaTime(1, per: 25), stallingAt: 20, seconds: 0.5)])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let player = QueuePlayer(items: [QueueItem(url: "slow")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 320, height: 180)), display: osd,
                                 clock: MonotonicClock(), events: { _ in })
        player.start()
        player.waitUntilFinished()
        #expect(!shaper.saw("Buffering"))
    }
}
