import MarqueeCore
import Testing

@Suite struct TruncationRuleTests {
    private let whole = ItemTiming(start: .zero, end: MediaTime(seconds: 10))

    @Test func dataThatStopsWellBeforeTheDeclaredEndIsTruncated() {
        #expect(TruncationRule.problem(decodedTo: MediaTime(41, per: 10), timing: whole,
                                       declaredDuration: MediaTime(seconds: 10), isEstimated: false)
            == "truncated: decoded to 4.1 s of 10.0 s")
    }

    @Test func dataThatReachesTheEndWithinTheToleranceIsComplete() {
        // The last frame's length may be unknown; a container rounds to its longest stream.
        #expect(TruncationRule.problem(decodedTo: MediaTime(96, per: 10), timing: whole,
                                       declaredDuration: MediaTime(seconds: 10), isEstimated: false) == nil)
        #expect(TruncationRule.problem(decodedTo: MediaTime(seconds: 10), timing: whole,
                                       declaredDuration: MediaTime(seconds: 10), isEstimated: false) == nil)
    }

    @Test func anItemTrimmedBeforeWhereTheDataStopsHasAllItNeeds() {
        let trimmed = ItemTiming(start: MediaTime(seconds: 1), end: MediaTime(seconds: 3))
        #expect(TruncationRule.problem(decodedTo: MediaTime(seconds: 4), timing: trimmed,
                                       declaredDuration: MediaTime(seconds: 10), isEstimated: false) == nil)
        // Trimmed past where it stops: the item cannot be shown whole.
        let late = ItemTiming(start: MediaTime(seconds: 1), end: MediaTime(seconds: 8))
        #expect(TruncationRule.problem(decodedTo: MediaTime(seconds: 4), timing: late,
                                       declaredDuration: MediaTime(seconds: 10), isEstimated: false)
            == "truncated: decoded to 4.0 s of 10.0 s")
    }

    @Test func aGuessedOrUnknownDurationNeverCallsAFileTruncated() {
        #expect(TruncationRule.problem(decodedTo: MediaTime(seconds: 4), timing: whole,
                                       declaredDuration: MediaTime(seconds: 10), isEstimated: true) == nil)
        #expect(TruncationRule.problem(decodedTo: MediaTime(seconds: 4), timing: ItemTiming(start: .zero, end: nil),
                                       declaredDuration: nil, isEstimated: false) == nil)
    }

    @Test func aFileChangedWhilePlayingSaysHowFarItGot() {
        #expect(TruncationRule.changedWhilePlaying(decodedTo: MediaTime(33, per: 10) + MediaTime(1, per: 100),
                                                   declaredDuration: MediaTime(seconds: 10))
            == "changed while playing (truncated at 3.3 s of 10.0 s)")
        #expect(TruncationRule.changedWhilePlaying(decodedTo: MediaTime(seconds: 3), declaredDuration: nil)
            == "changed while playing (truncated at 3.0 s)")
    }
}
