import Foundation
import MarqueeCore
import Testing
@testable import MarqueePlayer

/// The decode thread of the item on screen converts its queued pictures into the output's buffers
/// as they come free, oldest first, and goes on doing so after the item is decoded to its end, so
/// the item's last pictures are not left to the present thread.
@Suite struct PipelineConversionTests {
    static let size = PixelSize(width: 64, height: 36)

    private func poll(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    @Test func theLastPicturesAreConvertedAsBuffersComeFreeAfterDecodingEnded() throws {
        let media = ScriptedMedia(["a": .video(frames: 3, frameDuration: MediaTime(1, per: 25))])
        // Two buffers for the decode thread (the third is the output's reserve): the third picture
        // waits for the first to be replaced on screen.
        let pool = OutputBufferPool((0..<3).map { _ in Canvas(size: Self.size) })
        let pipeline = ItemPipeline(index: 0, item: QueueItem(url: "a"), opener: media)
        pool.whenGivenBack { [weak pipeline] in pipeline?.nudgeConversion() }
        pipeline.start()
        defer { pipeline.cancel() }
        guard case .ready(let asset, _) = pipeline.next() else {
            Issue.record("the item did not open")
            return
        }
        let layout = PictureLayout(asset: asset, screenSize: Self.size, displayRotation: .none, scalingMode: .fill)
        pipeline.convertPictures(with: PictureConversion(pool: pool, layout: layout, background: .black))
        #expect(poll { pipeline.hasFinished }, "the three pictures are decoded and queued")

        var onScreen: OutputBufferLease?
        for index in 0..<3 {
            // One buffer on screen, one holding the next picture, converted while still queued.
            #expect(poll { pool.freeCount == 1 }, "the decode thread converted picture \(index) into the buffer given back")
            guard case .frame(let output, _, _) = pipeline.next(), let picture = output as? StagedPicture else {
                Issue.record("picture \(index) is missing")
                return
            }
            #expect(poll { !picture.isWaiting }, "picture \(index) is converted once a buffer is free")
            let placement = try #require(layout.placement(for: picture))
            let shown = picture.take(for: placement)
            #expect(shown != nil, "picture \(index) is handed over converted")
            // Shown: the one before it is replaced and its buffer goes back, before the present
            // thread takes the next picture, as at a flip.
            onScreen = shown
        }
        _ = onScreen
    }
}
