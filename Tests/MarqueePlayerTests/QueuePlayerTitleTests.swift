import MarqueeCore
import Testing
@testable import MarqueePlayer

/// A queue item's title (config `title:`, M3U `#EXTINF`) travels with the item to its itemStarted.
@Suite struct QueuePlayerTitleTests {
    @Test func eachItemStartedCarriesItsItemsTitle() {
        let frame = MediaTime(1, per: 25)
        let media = ScriptedMedia(["a": .video(frames: 3, frameDuration: frame), "b": .video(frames: 3, frameDuration: frame)])
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let recorder = EventRecorder()
        let player = QueuePlayer(items: [QueueItem(url: "a", title: "Intro"), QueueItem(url: "b")], settings: settings,
                                 opener: media, video: HeadlessVideoOutput(size: PixelSize(width: 64, height: 36)),
                                 clock: VirtualClock(), events: { recorder.record($0) })
        player.start()
        player.waitUntilFinished()
        let starts = recorder.events.filter { if case .itemStarted = $0 { true } else { false } }
        #expect(starts == [.itemStarted(index: 0, url: "a", title: "Intro"), .itemStarted(index: 1, url: "b")])
    }
}
