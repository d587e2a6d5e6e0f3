import Foundation
import MarqueeCore
@testable import MarqueeMedia
import Testing

/// The decode path as the engine drives it (open → seek → nextPicture ...), on real files whose
/// frames carry their own index (see `FrameIndexCodec`): every claim about which frame came out is
/// checked against the pixels, not only against the timestamps.
@Suite struct DecodeTests {
    static let opener = FFmpegMediaOpener()
    static let frame = MediaTime(1, per: 25)

    struct Clip: CustomTestStringConvertible, Sendable {
        let recipe: FixtureMedia.Recipe
        let label: String
        var testDescription: String { label }
    }

    static let clips25 = [
        Clip(recipe: .frameIndexH264, label: "H.264 in MP4"),
        Clip(recipe: .frameIndexVP9, label: "VP9 in WebM"),
        Clip(recipe: .frameIndexMPEG2TS, label: "MPEG-2 in TS"),
    ]

    /// The pairs whose demuxers seek by an index of keyframes (a transport stream seeks by bisecting bytes).
    static let seekableClips = Array(clips25.prefix(2))

    @Test(arguments: clips25)
    func everyFrameComesOutInOrderWithItsExactTime(_ clip: Clip) throws {
        let reader = try Self.opener.open(FixtureMedia.path(clip.recipe))

        let pictures = try Self.readAll(reader)

        #expect(pictures.count == 100)
        #expect(pictures.map(\.pts) == (0..<100).map { Self.frame * Int64($0) })
        #expect(try pictures.map { try $0.frameIndex() } == Array(0..<100))
        #expect(try reader.nextPicture() == nil)  // and it stays at the end
    }

    @Test func aTransportStreamsTimesCountFromItsStart() throws {
        // ffmpeg's TS muxer starts the clock at 1.4 s; media time 0 is the first frame all the same.
        let reader = try Self.opener.open(FixtureMedia.path(.frameIndexMPEG2TS))

        let first = try #require(try reader.nextPicture())

        #expect(first.pts == .zero)
        expect(reader.asset.duration, within: Self.frame, of: MediaTime(seconds: 4))
    }

    @Test(arguments: seekableClips)
    func seekingLandsOnTheKeyFrameAtOrBeforeTheTargetAndDecodesOn(_ clip: Clip) throws {
        let reader = try Self.opener.open(FixtureMedia.path(clip.recipe))

        try reader.seek(to: MediaTime(5, per: 2))
        let afterSeek = try (0..<5).map { _ in try #require(try reader.nextPicture()) }
        #expect(afterSeek.map(\.pts) == (50..<55).map { Self.frame * Int64($0) })
        #expect(try afterSeek.map { try $0.frameIndex() } == Array(50..<55))

        try reader.seek(to: MediaTime(seconds: 2))  // exactly on a key frame
        #expect(try reader.nextPicture()?.frameIndex() == 50)

        try reader.seek(to: MediaTime(99, per: 100))  // just before one
        #expect(try reader.nextPicture()?.frameIndex() == 0)

        _ = try Self.readAll(reader)
        try reader.seek(to: MediaTime(13, per: 10))  // back again after the end of the stream
        let rest = try Self.readAll(reader)
        #expect(try rest.map { try $0.frameIndex() } == Array(25..<100))
    }

    /// The engine's trim: seek to `start`, then let Core's VideoTrimmer pick frames from what decodes.
    @Test(arguments: seekableClips)
    func trimsAreFrameExact(_ clip: Clip) throws {
        let presented = try Self.trim(FixtureMedia.path(clip.recipe), start: MediaTime(5, per: 2), end: MediaTime(seconds: 3))

        // 2.5 s falls inside frame 62 (2.48 s .. 2.52 s): it is on screen at the start and shown from
        // item time 0; frame 74 (2.96 s) is the last one before the end, frame 75 (3.00 s) is out.
        #expect(presented.map(\.index) == Array(62...74))
        #expect(presented.first?.itemTime == .zero)
        #expect(presented.dropFirst().first?.itemTime == MediaTime(1, per: 50))  // 2.52 − 2.5
    }

    @Test func trimsAreFrameExactAtNTSCRates() throws {
        let presented = try Self.trim(FixtureMedia.path(.frameIndexNTSC), start: MediaTime(5, per: 2), end: MediaTime(seconds: 3))

        // Frame n is at n × 1001/30000 s: frame 74 at 2.4691 s is on screen at 2.5 s (75 comes at
        // 2.5025 s); frame 89 at 2.9696 s is the last before 3 s (90 comes at 3.003 s).
        #expect(presented.map(\.index) == Array(74...89))
        #expect(presented.map(\.pts) == (74...89).map { MediaTime(1001 * Int64($0), per: 30_000) })
    }

    @Test(arguments: [(FixtureMedia.Recipe.frameIndexPNG, "png"), (.frameIndexJPEG, "jpeg")] as [(FixtureMedia.Recipe, String)])
    func aStillImageIsOnePictureAtTimeZero(_ recipe: FixtureMedia.Recipe, _ kind: String) throws {
        let reader = try Self.opener.open(FixtureMedia.path(recipe))

        let picture = try #require(try reader.nextPicture())

        #expect(reader.asset.isStillImage)
        #expect(picture.pts == .zero)
        #expect(try picture.frameIndex() == 37, "\(kind)")
        #expect(try reader.nextPicture() == nil)
    }

    @Test func aSingleFrameGIFIsOnePictureAndAnAnimatedOneIsEveryFrame() throws {
        // Telling them apart reads packets during the probe; the reader must still start at the first.
        let still = try Self.opener.open(FixtureMedia.path(.singleFrameGIF))
        #expect(try Self.readAll(still).count == 1)

        let animated = try Self.opener.open(FixtureMedia.path(.animatedGIF))
        let frames = try Self.readAll(animated)
        #expect(frames.count == 10)
        #expect(frames.map(\.pts) == (0..<10).map { MediaTime(Int64($0), per: 10) })
    }

    @Test func audioOnlyMediaHasNoPictures() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.aacM4A))

        #expect(reader.asset.mediaTypes == [.audio])
        #expect(try reader.nextPicture() == nil)
        try reader.seek(to: MediaTime(seconds: 1))
        #expect(try reader.nextPicture() == nil)
    }

    @Test func aTruncatedFileDecodesWhatItHasAndEnds() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.frameIndexTruncatedMP4))

        let pictures = try Self.readAll(reader)  // ends without throwing

        #expect((30..<100).contains(pictures.count), "decoded \(pictures.count) frames")
        // The last frame or two may be partly decoded from a cut packet; every earlier one is whole.
        let whole = max(0, pictures.count - 2)
        #expect(try pictures.prefix(whole).map { try $0.frameIndex() } == Array(0..<whole))
    }

    @Test func decodingGoesOnPastDamageInTheMiddle() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.frameIndexCorruptTS))

        let pictures = try Self.readAll(reader)
        let indexes = try pictures.map { try $0.frameIndex() }

        #expect(pictures.count >= 80, "decoded \(pictures.count) frames")
        #expect(indexes.prefix(30) == ArraySlice(0..<30))  // the damage is in the middle of the file
        #expect(indexes.suffix(10) == ArraySlice(90..<100))  // and decoding came out the other side
        let times = pictures.map(\.pts)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "times must keep moving forward")
    }

    @Test func aFrameTheDecoderRejectsIsSkippedAndDecodingGoesOn() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.frameIndexVP9DamagedFrame))

        let pictures = try Self.readAll(reader)
        let indexes = try pictures.map { try $0.frameIndex() }

        #expect((reader as? FFmpegMediaReader)?.damageCount == 1)
        #expect(pictures.count == 99)
        #expect(indexes.prefix(60) == ArraySlice(0..<60))
        // Frames 61–74 predict from the lost frame 60 and may look wrong; from the key frame at 75 on,
        // every frame is whole again.
        #expect(indexes.suffix(25) == ArraySlice(75..<100))
        #expect(!pictures.map(\.pts).contains(Self.frame * 60))
    }

    @Test func mediaOfWhichNoFrameDecodesIsAnError() throws {
        let path = try FixtureMedia.path(.frameIndexVP9AllFramesDamaged)
        let reader = try Self.opener.open(path)  // the container itself is fine

        let error = try #require(throws: PlaybackError.self) { try Self.readAll(reader) }

        #expect(error.url == path)
        #expect(error.reason.hasPrefix("no picture could be decoded ("), "\(error.reason)")
        #expect(error.reason.contains("Invalid data found when processing input"), "\(error.reason)")
    }

    @Test func aStreamThatChangesSizeKeepsFillingThePictureAndMovingForward() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.frameIndexSizeChangeTS))
        let layout = try #require(reader.asset.codedSize)

        let pictures = try Self.readAll(reader)

        #expect(layout == FrameIndexCodec.pictureSize)
        // The MPEG-2 decoder drops the frame it holds back for reordering when the sequence changes
        // size (the ffmpeg CLI decodes the same 99), so frame 49 may be missing at the join.
        let indexes = try pictures.map { try $0.frameIndex() }
        #expect(indexes == Array(0..<49) + Array(50..<100) || indexes == Array(0..<100), "\(indexes)")
        // The second half is 160x120 but is laid out as the asset says, so it still fills the canvas:
        // its indexes above were read over the whole 320x240 canvas.
        #expect(pictures.last.map { ($0 as? DecodedPicture)?.size } == PixelSize(width: 160, height: 120))
        // Its timestamps start again at 1.4 s: they are moved on one frame at a time instead.
        #expect(pictures.map(\.pts) == (0..<pictures.count).map { Self.frame * Int64($0) })
    }

    @Test func picturesOutliveTheirReader() throws {
        var reader: MediaReader? = try Self.opener.open(FixtureMedia.path(.frameIndexH264))
        var pictures: [VideoPicture] = []
        for _ in 0..<3 { pictures.append(try #require(try reader?.nextPicture())) }

        reader = nil  // closes the file and frees the decoder

        #expect(try pictures.map { try $0.frameIndex() } == [0, 1, 2])
    }

    // MARK: Helpers

    static func readAll(_ reader: MediaReader) throws -> [VideoPicture] {
        var pictures: [VideoPicture] = []
        while let picture = try reader.nextPicture() { pictures.append(picture) }
        return pictures
    }

    struct Presented {
        let index: Int
        let pts: MediaTime
        let itemTime: MediaTime
    }

    /// What the engine presents of an item with this timing: seek to the start, trim what decodes.
    static func trim(_ path: String, start: MediaTime, end: MediaTime) throws -> [Presented] {
        let reader = try opener.open(path)
        try reader.seek(to: start)
        var trimmer = VideoTrimmer<VideoPicture>(timing: ItemTiming(start: start, end: end))
        var presented: [VideoTrimmer<VideoPicture>.Presented] = []
        while !trimmer.isComplete, let picture = try reader.nextPicture() {
            presented += trimmer.push(picture, pts: picture.pts)
        }
        presented += trimmer.finish()
        return try presented.map { Presented(index: try $0.frame.frameIndex(), pts: $0.pts, itemTime: $0.itemTime) }
    }

    private func expect(_ actual: MediaTime?, within tolerance: MediaTime, of expected: MediaTime,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        guard let actual else {
            Issue.record("expected \(expected), got nil", sourceLocation: sourceLocation)
            return
        }
        #expect(actual >= expected - tolerance && actual <= expected + tolerance,
                "\(actual) is not within \(tolerance) of \(expected)", sourceLocation: sourceLocation)
    }
}
