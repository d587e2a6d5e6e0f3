import MarqueeCore
@testable import MarqueePlayer
import Testing

/// An item's decoded-ahead pictures are bounded by what they weigh as well as by their count
/// (issue 27): a 1080p picture holds 3.1 MB of decoder planes, so two are queued where 720p
/// queues four, and memory no longer grows with the picture size.
@Suite struct DecodeAheadBudgetTests {
    final class SizedPicture: VideoPicture, @unchecked Sendable {
        let pts: MediaTime
        let byteCount: Int
        init(pts: MediaTime, byteCount: Int) {
            self.pts = pts
            self.byteCount = byteCount
        }
        func draw(into buffer: PixelBuffer, placement: VideoPlacement, background: RGBColor) throws {}
    }

    /// About what FFmpeg's H.264 decoder hands out for a 4:2:0 picture (`DecodedPicture.byteCount`,
    /// its planes with rows and height padded: 3.1 MB at 1920x1080, which `DecodeMemoryTests`
    /// checks on a real one); the others scaled from it.
    static let bytes1080p = 3_133_440
    static let bytes720p = 1_413_120
    static let bytes2160p = 12_533_760

    /// How many pictures of `bytes` an item's output queue takes before the decoder must wait.
    static func depth(pictureBytes bytes: Int) -> Int {
        let queue = ItemPipeline.makeOutputs()
        var index: Int64 = 0
        // Only pushed while there is room: nothing here waits.
        while !queue.isFull && index < 100 {
            let time = MediaTime(index, per: 30)
            #expect(queue.push(.frame(SizedPicture(pts: time, byteCount: bytes), pts: time, itemTime: time)))
            index += 1
        }
        return queue.count
    }

    @Test func twoDecoded1080pPicturesAreQueued() {
        #expect(Self.depth(pictureBytes: Self.bytes1080p) == 2)
    }

    @Test func fourDecoded720pPicturesAreQueued() {
        #expect(Self.depth(pictureBytes: Self.bytes720p) == ItemPipeline.framesAhead)
    }

    /// A queue always takes one picture, however large: a 4K item still plays.
    @Test func oneDecoded2160pPictureIsQueued() {
        #expect(Self.depth(pictureBytes: Self.bytes2160p) == 1)
        let queue = ItemPipeline.makeOutputs()
        #expect(queue.push(.frame(SizedPicture(pts: .zero, byteCount: 64 << 20), pts: .zero, itemTime: .zero)))
        #expect(queue.isFull)
    }

    /// Pictures that do not say what they weigh are bounded by count alone, as before.
    @Test func picturesOfUnknownWeightAreBoundedByCount() {
        #expect(Self.depth(pictureBytes: 0) == ItemPipeline.framesAhead)
    }

    /// Taking a picture gives its bytes back; discarding gives back all of them.
    @Test func takingAndDroppingGiveTheBytesBack() {
        let queue = ItemPipeline.makeOutputs()
        for index in 0..<2 {
            let time = MediaTime(Int64(index), per: 30)
            queue.push(.frame(SizedPicture(pts: time, byteCount: Self.bytes1080p), pts: time, itemTime: time))
        }
        #expect(queue.bytes == 2 * Self.bytes1080p)
        #expect(queue.isFull)
        _ = queue.pop()
        #expect(queue.bytes == Self.bytes1080p)
        #expect(!queue.isFull)
        queue.dropQueued()
        #expect(queue.bytes == 0 && queue.count == 0)
    }
}
