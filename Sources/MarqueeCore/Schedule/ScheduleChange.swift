import Foundation

/// One line of a timetable: from `start` on (until the next change), the schedule says `state`.
public struct ScheduleChange: Sendable, Hashable {
    public var start: Date
    public var state: ScheduleState

    public init(start: Date, state: ScheduleState) {
        self.start = start
        self.state = state
    }
}
