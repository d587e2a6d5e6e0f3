import Foundation
import MarqueeCore
import Testing
@testable import MarqueePlayer

/// `pauseAfterCurrentItem` belongs to the item it was asked for: a stop ends that item, so the
/// next play runs on past its end instead of pausing after it (it stayed armed).
@Suite struct PauseAfterStopTests {
    @Test func aStopDisarmsPauseAfterCurrentItem() {
        let frame = MediaTime(1, per: 25)
        let media = ScriptedMedia(["a": .video(frames: 5, frameDuration: frame), "b": .video(frames: 5, frameDuration: frame)])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let recorder = EventRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "a"), QueueItem(url: "b")], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 16, height: 9)),
                                 clock: VirtualClock(), events: { recorder.record($0) })
        player.enqueue(contentsOf: [.control(.command(.pauseAfterCurrentItem), .application),
                                    .control(.command(.stop), .application), .control(.command(.play), .application)])
        player.start()
        let ended = recorder.wait(seconds: 10) { $0.contains(.itemEnded(index: 1, url: "b", reason: .playbackEnded, message: nil)) }
        #expect(ended, "b paused on its first frame: \(recorder.events.suffix(6))")
        #expect(player.status().details.pauseAfterCurrentItem == false)
        player.shutDown()
        player.waitUntilFinished()
    }
}
