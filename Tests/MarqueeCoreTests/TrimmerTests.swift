import Testing
import MarqueeCore

private func seconds(_ numerator: Int64, per denominator: Int64 = 1) -> MediaTime { MediaTime(numerator, per: denominator) }

/// Frames at 30000/1001 fps, identified by index.
private let ntscFrame = MediaTime(1001, per: 30000)
private func ntscPTS(_ index: Int) -> MediaTime { ntscFrame * Int64(index) }

@Suite struct VideoTrimmerTests {
    /// Runs frames 0..<count through a trimmer and returns (index, itemTime) of each presented one.
    private func present(count: Int, start: MediaTime, end: MediaTime?, pts: (Int) -> MediaTime) -> [(Int, MediaTime)] {
        var trimmer = VideoTrimmer<Int>(timing: ItemTiming(start: start, end: end))
        var shown: [(Int, MediaTime)] = []
        for index in 0..<count where !trimmer.isComplete {
            shown += trimmer.push(index, pts: pts(index)).map { ($0.frame, $0.itemTime) }
        }
        shown += trimmer.finish().map { ($0.frame, $0.itemTime) }
        return shown
    }

    @Test func theFirstFrameIsTheOneOnScreenAtStart() {
        // start 2.5 s: frame 74 (2.4691 s) is on screen then; frame 75 is at 2.5025 s.
        let shown = present(count: 200, start: seconds(5, per: 2), end: seconds(3), pts: ntscPTS)
        #expect(shown.first?.0 == 74)
        #expect(shown.first?.1 == .zero)
        #expect(shown[1].0 == 75)
        #expect(shown[1].1 == ntscPTS(75) - seconds(5, per: 2))
    }

    @Test func theLastFrameIsTheLastWhosePtsIsBeforeEnd() {
        // end 3 s: frame 89 is at 2.9696 s, frame 90 at 3.003 s.
        let shown = present(count: 200, start: seconds(5, per: 2), end: seconds(3), pts: ntscPTS)
        #expect(shown.last?.0 == 89)
        #expect(shown.map(\.0) == Array(74...89))
    }

    @Test func aFrameExactlyAtStartIsTheFirstAndExactlyAtEndIsExcluded() {
        // 25 fps: frame 50 is exactly 2 s, frame 75 exactly 3 s.
        let shown = present(count: 100, start: seconds(2), end: seconds(3)) { MediaTime(Int64($0), per: 25) }
        #expect(shown.map(\.0) == Array(50...74))
        #expect(shown.first?.1 == .zero)
    }

    @Test func noStartPresentsFromTheFirstFrameEvenIfItsPtsIsLate() {
        let shown = present(count: 5, start: .zero, end: nil) { MediaTime(Int64($0) + 1, per: 10) }
        #expect(shown.map(\.0) == [0, 1, 2, 3, 4])
        #expect(shown.first?.1 == MediaTime(1, per: 10))
    }

    @Test func aClipEndingBeforeStartStillShowsItsLastFrame() {
        let shown = present(count: 10, start: seconds(100), end: nil) { MediaTime(Int64($0), per: 10) }
        #expect(shown.map(\.0) == [9])
        #expect(shown.first?.1 == .zero)
    }

    @Test func decodingStopsAtTheFirstFramePastEnd() {
        var trimmer = VideoTrimmer<Int>(timing: ItemTiming(start: .zero, end: seconds(1)))
        for index in 0..<10 { _ = trimmer.push(index, pts: MediaTime(Int64(index), per: 10)) }
        #expect(!trimmer.isComplete)
        #expect(trimmer.push(10, pts: seconds(1)).isEmpty)
        #expect(trimmer.isComplete)
        #expect(trimmer.push(11, pts: MediaTime(11, per: 10)).isEmpty)
    }
}

@Suite struct AudioTrimmerTests {
    private let timing = ItemTiming(start: MediaTime(5, per: 2), end: MediaTime(seconds: 30))

    @Test(arguments: [
        // (chunk pts in 1/44100 s, count) → kept range.
        (Int64(0), 1024, 1024..<1024),              // wholly before start
        (110_000, 1024, 250..<1024),                // start = sample 110250: 250 into the chunk
        (110_250, 1024, 0..<1024),                  // starts exactly on the chunk
        (1_322_500, 1024, 0..<500),                 // end = sample 1323000
        (1_323_000, 1024, 0..<0),                   // wholly after end
    ])
    func keepsExactlyTheSamplesInsideTheItem(ptsSamples: Int64, count: Int, expected: Range<Int>) {
        let kept = AudioTrimmer.keptSamples(pts: MediaTime(ptsSamples, per: 44100), count: count, sampleRate: 44100, timing: timing)
        #expect(kept == expected)
    }

    @Test func aSampleBetweenTicksIsKeptOnlyIfAtOrAfterStart() {
        // 48 kHz chunk starting at 1/3 ms: start 0.001 s falls between samples 31 (0.000979) and 32 (0.001).
        let chunkTiming = ItemTiming(start: MediaTime(1, per: 1000), end: nil)
        let kept = AudioTrimmer.keptSamples(pts: MediaTime(1, per: 3000), count: 100, sampleRate: 48000, timing: chunkTiming)
        #expect(kept == 32..<100)
    }

    @Test func trimmedChunksOfAThousandLoopsAddUpExactly() {
        // 1024-sample AAC packets from 0; item 2.5 s → 30 s at 44.1 kHz, looped 1000 times.
        var total: Int64 = 0
        for _ in 0..<1000 {
            var pts: Int64 = 0
            while pts < 1_400_000 {
                total += Int64(AudioTrimmer.keptSamples(pts: MediaTime(pts, per: 44100), count: 1024, sampleRate: 44100, timing: timing).count)
                pts += 1024
            }
        }
        #expect(total == 1000 * AudioTrimmer.sampleCount(of: timing, sampleRate: 44100)!)
        #expect(total == 1_212_750_000)
    }
}

@Suite struct PresentationTimelineTests {
    @Test func itemsFollowEachOtherWithoutGapOrDrift() {
        var timeline = PresentationTimeline()
        let length = MediaTime(1001, per: 30000) * 60
        for _ in 0..<10_000 { timeline.advance(pastItemOfLength: length) }
        #expect(timeline.itemOrigin == MediaTime(1001 * 60 * 10_000, per: 30000))
        #expect(timeline.timelineTime(ofItemTime: MediaTime(1, per: 2)) == timeline.itemOrigin + MediaTime(1, per: 2))
        #expect(timeline.itemsStarted == 10_000)
    }

    @Test func restartMovesTheOrigin() {
        var timeline = PresentationTimeline()
        timeline.advance(pastItemOfLength: MediaTime(seconds: 5))
        timeline.restart(at: MediaTime(seconds: 2))
        #expect(timeline.timelineTime(ofItemTime: MediaTime(seconds: 1)) == MediaTime(seconds: 3))
    }
}

@Suite struct FrameSchedulerTests {
    private let ms = { (value: Int64) in MediaTime(value, per: 1000) }

    @Test(arguments: [
        // (due, nextDue, now) in ms → decision
        (Int64(100), Int64?(133), Int64(50), FrameScheduler.Decision.wait(until: MediaTime(100, per: 1000))),
        (100, 133, 99, .present),      // within the 1 ms tolerance
        (100, 133, 100, .present),
        (100, 133, 120, .present),     // late, but its successor is not yet due
        (100, 133, 133, .drop),        // its successor is due: drop
        (100, nil, 500, .present),     // the last frame is never dropped
    ])
    func presentsDropsOrWaits(due: Int64, nextDue: Int64?, now: Int64, expected: FrameScheduler.Decision) {
        var scheduler = FrameScheduler()
        #expect(scheduler.decide(due: ms(due), nextDue: nextDue.map(ms), now: ms(now)) == expected)
    }

    @Test func neverDropsMoreThanTheLimitInARow() {
        var scheduler = FrameScheduler(maximumConsecutiveDrops: 3)
        var decisions: [FrameScheduler.Decision] = []
        for frame in 0..<8 {
            decisions.append(scheduler.decide(due: ms(Int64(frame) * 40), nextDue: ms(Int64(frame + 1) * 40), now: ms(10_000)))
        }
        #expect(decisions == [.drop, .drop, .drop, .present, .drop, .drop, .drop, .present])
    }

    @Test(arguments: [
        // (due, now, nothing decoded after it) in ms → decision
        (Int64(100), Int64(340), true, FrameScheduler.Decision.present),   // late by 240 ms: still shown
        (100, 351, true, .stall),                                         // late by 251 ms with nothing after it
        (100, 2000, false, .present),                                     // the item's end comes next: no stall
        (100, 50, true, .wait(until: MediaTime(100, per: 1000))),         // early is early, dry or not
    ])
    func aFrameLateWithNothingAfterItIsAStall(due: Int64, now: Int64, dry: Bool, expected: FrameScheduler.Decision) {
        var scheduler = FrameScheduler()
        #expect(scheduler.decide(due: ms(due), nextDue: nil, now: ms(now), sourceIsDry: dry) == expected)
    }
}

@Suite struct TimeLabelTests {
    @Test(arguments: [
        (MediaTime?.none, "--:--"), (MediaTime.zero, "0:00"), (MediaTime(599, per: 10), "0:59"),
        (MediaTime(seconds: 83), "1:23"), (MediaTime(seconds: 5025), "1:23:45"), (MediaTime(seconds: -3), "0:00"),
    ])
    func positions(time: MediaTime?, label: String) {
        #expect(TimeLabel.position(time) == label)
    }

    @Test func remainingCountsDownAndIsUnknownWhenLive() {
        #expect(TimeLabel.remaining(position: MediaTime(seconds: 10), duration: MediaTime(seconds: 5035)) == "-1:23:45")
        #expect(TimeLabel.remaining(position: MediaTime(101, per: 10), duration: MediaTime(seconds: 30)) == "-0:20")
        #expect(TimeLabel.remaining(position: MediaTime(seconds: 10), duration: nil) == "--:--")
    }
}
