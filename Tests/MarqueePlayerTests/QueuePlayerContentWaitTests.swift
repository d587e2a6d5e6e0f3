import Foundation
import MarqueeCore
import Synchronization
import Testing
@testable import MarqueePlayer

/// A player whose content comes later (a remote config, media downloading): with an empty queue it
/// waits with the status card saying why, and plays the queue that arrives; items read from a
/// cached copy are still reported by their url.
@Suite struct QueuePlayerContentWaitTests {
    static let frame = MediaTime(1, per: 25)

    /// Block glyphs that remember every text they shaped: what the status card said.
    final class RecordingShaper: TextShaping, @unchecked Sendable {
        private let block = BlockShaper()
        let texts = Mutex<[String]>([])

        func shape(_ text: String, pixelSize: Int) -> ShapedText {
            texts.withLock { $0.append(text) }
            return block.shape(text, pixelSize: pixelSize)
        }

        func shape(_ text: String, run: BidiRun, pixelSize: Int) -> ShapedText {
            texts.withLock { $0.append(text) }
            return block.shape(text, run: run, pixelSize: pixelSize)
        }

        func saw(_ fragment: String) -> Bool { texts.withLock { $0.contains { $0.contains(fragment) } } }
    }

    static func osd(_ shaper: RecordingShaper) -> OnScreenDisplay {
        let text = TextRenderer(shaper: shaper, rasterizer: BlockRasterizer())
        return OnScreenDisplay(settings: OSDSettings(), painter: OSDPainter(text: text), cardPainter: StatusCardPainter(text: text),
                               version: "marquee test", deviceFacts: { .init(hostname: "kiosk", addresses: []) },
                               clockTime: { "2026-01-01 12:00" })
    }

    @Test func anEmptyQueueWaitsWithTheNoteThenPlaysWhatArrives() {
        let media = ScriptedMedia(["/cache/media/abc.mp4": .video(frames: 10, frameDuration: Self.frame)])
        let recorder = EventRecorder()
        let shaper = RecordingShaper()
        var settings = PlayerSettings()
        settings.waitsForContent = true
        settings.exitWhenIdle = true
        let player = QueuePlayer(items: [], settings: settings, opener: media,
                                 video: HeadlessVideoOutput(size: PixelSize(width: 640, height: 360)), display: Self.osd(shaper),
                                 clock: MonotonicClock(), events: { recorder.record($0) })
        player.start()
        player.setContentNote("Downloading 1 of 1 files")
        let deadline = Date().addingTimeInterval(5)
        while !shaper.saw("Downloading 1 of 1 files") && Date() < deadline { usleep(10_000) }
        #expect(shaper.saw("Downloading 1 of 1 files"))
        // Waiting is not idle: with exit-when-idle set, the run has not ended.
        #expect(!recorder.events.contains { if case .itemStarted = $0 { true } else { false } })

        let item = QueueItem(url: "https://cms.example/a.mp4", mediaPath: "/cache/media/abc.mp4")
        var next = settings
        next.repeatMode = .off
        player.replaceQueue(QueueReplacement(items: [item], settings: next))
        #expect(recorder.wait { $0.contains { if case .itemEnded = $0 { true } else { false } } })
        player.shutDown()
        _ = player.waitUntilFinished(graceAfterShutDown: 10)
        #expect(recorder.events.contains(.itemStarted(index: 0, url: "https://cms.example/a.mp4")))
        #expect(recorder.events.contains { if case .itemEnded(0, "https://cms.example/a.mp4", .playbackEnded, _) = $0 { true } else { false } })
    }

    @Test func withoutWaitingAnEmptyQueueEndsTheRun() {
        let recorder = EventRecorder()
        var settings = PlayerSettings()
        settings.exitWhenIdle = true
        let player = QueuePlayer(items: [], settings: settings, opener: ScriptedMedia([:]),
                                 video: QueuePlayerDisplayPowerTests.PoweredOutput(), clock: MonotonicClock(), events: { recorder.record($0) })
        player.start()
        #expect(player.waitUntilFinished(graceAfterShutDown: 5))
    }
}
