import MarqueeCore
import Testing
@testable import MarqueePlayer

@Suite struct CurrentItemTests {
    private let media = ScriptedMedia(["a": .video(frames: 10, frameDuration: MediaTime(1, per: 25))])

    private func pipeline(entry: ItemPipeline.Entry? = nil, serial: Int = 1) -> ItemPipeline {
        ItemPipeline(index: 2, serial: serial, item: QueueItem(url: "a", start: MediaTime(seconds: 1)), opener: media, entry: entry)
    }

    private let fourSeconds = Asset(url: "a", duration: MediaTime(seconds: 4), naturalSize: nil, codedSize: nil,
                                    sampleAspectRatio: SampleAspectRatio(numerator: 1, denominator: 1), rotation: .none,
                                    mediaTypes: [.video], tracks: [], isSeekable: true, isStillImage: false, containerName: "test")

    private func seek(to seconds: Int64, log: CompletionLog) -> SeekRequest {
        SeekRequest(time: MediaTime(seconds: seconds), toleranceBefore: .zero, toleranceAfter: .zero,
                    completion: { log.append($0) })
    }

    @Test func aNewItemKnowsNothingYetAndWaitsForItsFirstFrame() {
        let item = CurrentItem(pipeline: pipeline())
        #expect(item.index == 2 && item.item.url == "a")
        #expect(item.asset == nil && item.timing == nil && item.position == nil && item.framePTS == nil)
        #expect(item.awaitsFirstFrame && !item.preparesNextAtFirstFrame && !item.isJoinedMidway)
        #expect(item.seekInFlight == nil && item.cues == nil && item.nextOpensAt == nil)
    }

    @Test func itsPositionFollowsTheFrameOnScreenButNeverBeforeItsStart() {
        var item = CurrentItem(pipeline: pipeline())
        item.timing = ItemTiming(start: MediaTime(seconds: 1), end: MediaTime(seconds: 3))
        // A keyframe seek may show a frame before the trimmed start: the place stays at the start.
        item.track(pts: MediaTime(1, per: 2))
        #expect(item.framePTS == MediaTime(1, per: 2))
        #expect(item.position == MediaTime(seconds: 1))
        item.track(pts: MediaTime(3, per: 2))
        #expect(item.position == MediaTime(3, per: 2))
    }

    @Test func aSeekReopensTheSameItemAndHandsBackTheOneItSupersedes() {
        let log = CompletionLog()
        let first = pipeline()
        var item = CurrentItem(pipeline: first, joinedMidway: true)
        item.asset = fourSeconds
        let reopened = pipeline(entry: ItemPipeline.Entry(time: MediaTime(seconds: 2), toleranceBefore: .zero), serial: 2)
        let nothingSuperseded = item.reopen(with: reopened, for: seek(to: 2, log: log))
        #expect(nothingSuperseded == nil)
        #expect(item.isPlaying(reopened) && !item.isPlaying(first))
        // The item's facts stay: it is the same item. A seek after a join is a seek.
        #expect(item.asset?.duration == MediaTime(seconds: 4))
        #expect(!item.isJoinedMidway)
        let newer = pipeline(serial: 3)
        let superseded = item.reopen(with: newer, for: seek(to: 3, log: log))
        #expect(superseded?.time == MediaTime(seconds: 2))
        let taken = item.takeSeek()
        #expect(taken?.time == MediaTime(seconds: 3))
        let again = item.takeSeek()
        #expect(again == nil, "a seek is taken once")
    }

    @Test func aRejoinWithinTheItemWaitsForItsFirstFrameAgain() {
        var item = CurrentItem(pipeline: pipeline(), joinedMidway: true)
        item.awaitsFirstFrame = false
        item.asset = fourSeconds
        let rejoined = pipeline(serial: 2)
        item.rejoin(with: rejoined)
        #expect(item.isPlaying(rejoined))
        #expect(item.awaitsFirstFrame)
        #expect(!item.isJoinedMidway, "its readiness is a seek's, not a new item's")
        #expect(item.asset != nil)
    }
}
