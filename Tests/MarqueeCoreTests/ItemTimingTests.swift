import Testing
import MarqueeCore

struct TimingCase: Sendable, CustomTestStringConvertible {
    let name: String
    var start: Double? = nil
    var end: Double? = nil
    var duration: Double? = nil
    var media: Double? = nil
    var still = false
    let expected: Result<ItemTiming, ItemTimingError>
    var testDescription: String { name }
}

/// Test seconds are written as decimals; these turn them into exact times (quarter seconds suffice).
private func t(_ seconds: Double?) -> MediaTime? {
    seconds.map { MediaTime(Int64(($0 * 4).rounded()), per: 4) }
}

private func timing(_ start: Double, _ end: Double?) -> Result<ItemTiming, ItemTimingError> {
    .success(ItemTiming(start: t(start)!, end: t(end)))
}

@Suite struct ItemTimingTests {
    static let cases: [TimingCase] = [
        TimingCase(name: "nothing set plays the whole media", media: 30, expected: timing(0, 30)),
        TimingCase(name: "unknown duration (live) plays to the natural end", expected: timing(0, nil)),
        TimingCase(name: "start and end inside the media", start: 2.5, end: 10, media: 30, expected: timing(2.5, 10)),
        TimingCase(name: "end beyond the media clamps to its duration", start: 1, end: 45, media: 30, expected: timing(1, 30)),
        TimingCase(name: "end exactly at the duration is kept", end: 30, media: 30, expected: timing(0, 30)),
        TimingCase(name: "duration means end = start + duration", start: 5, duration: 10, media: 30, expected: timing(5, 15)),
        TimingCase(name: "duration past the media clamps", start: 25, duration: 10, media: 30, expected: timing(25, 30)),
        TimingCase(name: "end without media duration is kept", start: 1, end: 4, expected: timing(1, 4)),
        TimingCase(name: "end before start is an error", start: 10, end: 5, media: 30,
                   expected: .failure(.endNotAfterStart(start: t(10)!, end: t(5)!))),
        TimingCase(name: "end equal to start is an error", start: 10, end: 10, media: 30,
                   expected: .failure(.endNotAfterStart(start: t(10)!, end: t(10)!))),
        TimingCase(name: "end at zero without a start is an error", end: 0,
                   expected: .failure(.endNotAfterStart(start: .zero, end: .zero))),
        TimingCase(name: "end and duration together is an error", end: 10, duration: 5,
                   expected: .failure(.endAndDuration)),
        TimingCase(name: "zero duration is an error", duration: 0, expected: .failure(.nonPositiveDuration(.zero))),
        TimingCase(name: "start at the media's end is an error", start: 30, media: 30,
                   expected: .failure(.startBeyondMedia(start: t(30)!, mediaDuration: t(30)!))),
        TimingCase(name: "still image uses its duration", duration: 7, still: true, expected: timing(0, 7)),
        TimingCase(name: "still image without duration uses the default", still: true,
                   expected: .success(ItemTiming(start: .zero, end: ItemTiming.defaultImageDuration))),
        TimingCase(name: "still image with start/end shows for end - start", start: 2, end: 5, still: true, expected: timing(0, 3)),
        TimingCase(name: "still image ignores a probed media duration", duration: 4, media: 0.25, still: true, expected: timing(0, 4)),
    ]

    @Test(arguments: cases)
    func resolvesStartEndAndDuration(_ testCase: TimingCase) {
        let result = ItemTiming.resolve(start: t(testCase.start), end: t(testCase.end), duration: t(testCase.duration),
                                        mediaDuration: t(testCase.media), isStillImage: testCase.still)
        #expect(result == testCase.expected)
    }

    @Test func defaultImageDurationIsTenSeconds() {
        #expect(ItemTiming.defaultImageDuration == MediaTime(seconds: 10))
    }

    @Test func lengthIsEndMinusStart() {
        #expect(ItemTiming(start: MediaTime(5, per: 2), end: MediaTime(seconds: 30)).length == MediaTime(55, per: 2))
        #expect(ItemTiming(start: .zero, end: nil).length == nil)
    }

    @Test func errorsReadAsConfigMessages() {
        let error = ItemTimingError.endNotAfterStart(start: MediaTime(seconds: 10), end: MediaTime(seconds: 5))
        #expect(error.description == "end (0:05.000) must be after start (0:10.000)")
    }
}
