import MarqueeCore
import Testing

/// When a stalled item resumes: once the decoder is ahead and the read-ahead is full, at the end of
/// the source, or on a read-ahead that stopped growing with a second in it (a live edge).
@Suite struct StallRecoveryTests {
    private let seconds = { (value: Int64) in MediaTime(seconds: value) }
    private func status(_ buffered: MediaTime, target: Int64 = 10, end: Bool = false) -> ReadAheadStatus {
        ReadAheadStatus(buffered: buffered, target: MediaTime(seconds: target), reachedEnd: end)
    }

    /// `canResume` outside the macro, which cannot take a mutating call.
    private func ask(_ recovery: inout StallRecovery, decodedAhead: Bool, finished: Bool, status: ReadAheadStatus,
                     now: MediaTime) -> Bool {
        recovery.canResume(decodedAhead: decodedAhead, finished: finished, status: status, now: now)
    }

    @Test func resumesWhenTheReadAheadIsFullAndTheDecoderIsAhead() {
        var recovery = StallRecovery(since: .zero)
        #expect(!ask(&recovery, decodedAhead: true, finished: false, status: status(seconds(9)), now: seconds(1)))
        #expect(!ask(&recovery, decodedAhead: false, finished: false, status: status(seconds(10)), now: seconds(2)))
        #expect(ask(&recovery, decodedAhead: true, finished: false, status: status(seconds(10)), now: seconds(3)))
    }

    @Test func resumesAtOnceWhenNothingMoreCanCome() {
        var recovery = StallRecovery(since: .zero)
        #expect(ask(&recovery, decodedAhead: false, finished: true, status: status(.zero), now: .zero))
        var atEnd = StallRecovery(since: .zero)
        #expect(ask(&atEnd, decodedAhead: true, finished: false, status: status(MediaTime(1, per: 2), end: true), now: .zero))
        var local = StallRecovery(since: .zero)
        #expect(ask(&local, decodedAhead: true, finished: false, status: .local, now: .zero))
    }

    @Test func aReadAheadThatStopsGrowingWithASecondInItResumes() {
        var recovery = StallRecovery(since: .zero)
        let three = seconds(3)
        #expect(!ask(&recovery, decodedAhead: true, finished: false, status: status(three), now: seconds(1)))
        // Not growing, but not for long enough yet.
        #expect(!ask(&recovery, decodedAhead: true, finished: false, status: status(three), now: seconds(3)))
        #expect(ask(&recovery, decodedAhead: true, finished: false, status: status(three), now: MediaTime(7, per: 2)))
    }

    @Test func aPlateauUnderASecondKeepsWaiting() {
        var recovery = StallRecovery(since: .zero)
        let half = MediaTime(1, per: 2)
        #expect(!ask(&recovery, decodedAhead: true, finished: false, status: status(half), now: .zero))
        #expect(!ask(&recovery, decodedAhead: true, finished: false, status: status(half), now: seconds(60)))
    }

    @Test func growthRestartsThePlateau() {
        var recovery = StallRecovery(since: .zero)
        #expect(!ask(&recovery, decodedAhead: true, finished: false, status: status(seconds(2)), now: seconds(2)))
        #expect(!ask(&recovery, decodedAhead: true, finished: false, status: status(seconds(3)), now: seconds(4)))
        #expect(!ask(&recovery, decodedAhead: true, finished: false, status: status(seconds(3)), now: seconds(6)))
        #expect(ask(&recovery, decodedAhead: true, finished: false, status: status(seconds(3)), now: MediaTime(13, per: 2)))
    }
}
