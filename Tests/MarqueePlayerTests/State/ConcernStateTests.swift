import Foundation
import MarqueeCore
import Testing
@testable import MarqueePlayer

private func join(_ wall: inout WallLock, _ reason: QueuePlayer.WallJoinReason, at now: MediaTime) -> MediaTime {
    wall.prerollForJoin(reason, at: now)
}

private func fail(_ failures: inout FailureBackOff, _ index: Int, reason: String, itemCount: Int) -> Bool {
    failures.itemFailed(index, reason: reason, itemCount: itemCount)
}

private func delay(_ failures: inout FailureBackOff, _ first: MediaTime, maximum: MediaTime) -> MediaTime {
    failures.nextRoundDelay(first: first, maximum: maximum)
}

@Suite struct WallLockTests {
    private func ms(_ value: Int64) -> MediaTime { MediaTime(value, per: 1000) }

    @Test func aJoinSoonAfterTheLastDoublesThePrerollUpToItsBound() {
        var wall = WallLock()
        #expect(join(&wall, .start, at: .zero) == ms(500))
        // Within four pre-rolls of the last join: the pre-roll was too short here.
        #expect(join(&wall, .late, at: ms(1500)) == ms(1000))
        #expect(join(&wall, .stalled, at: ms(5000)) == ms(2000))
        #expect(join(&wall, .late, at: ms(12000)) == ms(4000))
        #expect(join(&wall, .late, at: ms(20000)) == ms(8000))
        #expect(join(&wall, .late, at: ms(30000)) == ms(8000), "never past the bound")
    }

    @Test func joinsAskedForOrLongAfterTheLastKeepThePreroll() {
        var wall = WallLock()
        _ = wall.prerollForJoin(.start, at: .zero)
        for reason: QueuePlayer.WallJoinReason in [.reload, .resumed, .clockChanged] {
            #expect(join(&wall, reason, at: ms(100)) == ms(500), "\(reason)")
        }
        #expect(join(&wall, .late, at: ms(2200)) == ms(500), "four pre-rolls after the last join")
    }
}

@Suite struct FailureBackOffTests {
    @Test func everyItemFailingInARowBacksOffDoublingToTheBound() {
        var failures = FailureBackOff()
        #expect(!fail(&failures, 0, reason: "a: gone", itemCount: 2))
        #expect(fail(&failures, 1, reason: "b: gone", itemCount: 2))
        let first = MediaTime(seconds: 5), bound = MediaTime(seconds: 60)
        #expect(delay(&failures, first, maximum: bound) == MediaTime(seconds: 5))
        #expect(failures.failuresInARow == 0, "a round starts counting again")
        #expect(delay(&failures, first, maximum: bound) == MediaTime(seconds: 10))
        #expect(delay(&failures, first, maximum: bound) == MediaTime(seconds: 20))
        #expect(delay(&failures, first, maximum: bound) == MediaTime(seconds: 40))
        #expect(delay(&failures, first, maximum: bound) == MediaTime(seconds: 60))
        #expect(delay(&failures, first, maximum: bound) == MediaTime(seconds: 60))
        #expect(failures.reasonsInOrder == ["a: gone", "b: gone"])
    }

    @Test func anItemThatPlaysEndsTheRunAndItsReason() {
        var failures = FailureBackOff()
        _ = failures.itemFailed(2, reason: "c: gone", itemCount: 3)
        _ = failures.itemFailed(0, reason: "a: gone", itemCount: 3)
        _ = failures.nextRoundDelay(first: MediaTime(seconds: 5), maximum: MediaTime(seconds: 60))
        failures.itemPlayed(2)
        #expect(failures.reasonsInOrder == ["a: gone"])
        #expect(failures.failuresInARow == 0 && failures.round == 0)
        #expect(delay(&failures, MediaTime(seconds: 5), maximum: MediaTime(seconds: 60)) == MediaTime(seconds: 5))
    }

    @Test func aNewPlaylistStartsCountingAgainButKeepsTheReasons() {
        var failures = FailureBackOff()
        _ = failures.itemFailed(0, reason: "a: gone", itemCount: 2)
        failures.queueReplaced()
        #expect(!fail(&failures, 1, reason: "b: gone", itemCount: 2))
        #expect(failures.reasonsInOrder == ["a: gone", "b: gone"])
    }
}

@Suite struct ScheduleFollowerTests {
    private let base = Date(timeIntervalSince1970: 1_800_000_000)

    private func change(at offset: TimeInterval, daypart: Int?) -> ScheduleChange {
        ScheduleChange(start: base.addingTimeInterval(offset), state: ScheduleState(daypart: daypart, items: [], displayOn: true))
    }

    @Test func theLastDueChangeIsTakenWithTheOnesBeforeIt() {
        var follower = ScheduleFollower()
        follower.adopt(ScheduleAgenda(changes: [change(at: 0, daypart: 0), change(at: 60, daypart: 1),
                                                change(at: 120, daypart: 0), change(at: 180, daypart: 1)], isComplete: false))
        // Woken after a long wait: only where the timetable is now matters.
        let due = follower.takeDueChange(at: base.addingTimeInterval(130))
        #expect(due == change(at: 120, daypart: 0))
        #expect(follower.nextChange == change(at: 180, daypart: 1))
        let again = follower.takeDueChange(at: base.addingTimeInterval(130))
        #expect(again == nil)
    }

    @Test func moreOfTheAgendaIsAskedForOnceWhenItRunsLow() {
        var follower = ScheduleFollower()
        follower.adopt(ScheduleAgenda(changes: [change(at: 0, daypart: 0), change(at: 60, daypart: 1)], isComplete: false))
        #expect(!follower.needsMoreAgenda)
        _ = follower.takeDueChange(at: base)
        #expect(follower.needsMoreAgenda)
        follower.agendaRequested = true
        #expect(!follower.needsMoreAgenda, "asked once")
        follower.adopt(ScheduleAgenda(changes: [change(at: 60, daypart: 1)], isComplete: true))
        #expect(!follower.agendaRequested)
        #expect(!follower.needsMoreAgenda, "a complete agenda has nothing more to give")
    }

    @Test func droppingTheTimetableForgetsWhatItSaid() {
        var follower = ScheduleFollower()
        follower.adopt(ScheduleAgenda(changes: [change(at: 60, daypart: 1)], isComplete: false))
        follower.applied = ScheduleState(daypart: 0, items: [], displayOn: false)
        follower.dropTimetable()
        #expect(follower.nextChange == nil && follower.applied == nil && !follower.needsMoreAgenda)
        #expect(!follower.isChangeDue)
    }
}
