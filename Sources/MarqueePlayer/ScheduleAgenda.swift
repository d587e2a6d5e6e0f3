import Foundation
import MarqueeCore

/// The next few things the timetable will do, worked out off the present thread so the present
/// thread only compares instants: the state at the instant it was computed for, then each change
/// after it. The player asks for a new one before it runs out, and after a wall-clock jump.
public struct ScheduleAgenda: Sendable, Equatable {
    public var changes: [ScheduleChange]
    /// The timetable never changes after the last entry: nothing more to ask for.
    public var isComplete: Bool

    public init(changes: [ScheduleChange], isComplete: Bool) {
        self.changes = changes
        self.isComplete = isComplete
    }

    /// How many changes one agenda looks ahead: days of dayparts for a typical config, and few
    /// enough that working them out takes milliseconds.
    public static let lookahead = 6

    /// The state at `instant`, then up to `lookahead` changes after it.
    public static func compute(_ timetable: Timetable, from instant: Date) -> ScheduleAgenda {
        var changes = [ScheduleChange(start: instant, state: timetable.state(at: instant))]
        while changes.count <= lookahead {
            guard let next = timetable.nextChange(after: changes[changes.count - 1].start) else {
                return ScheduleAgenda(changes: changes, isComplete: true)
            }
            changes.append(ScheduleChange(start: next, state: timetable.state(at: next)))
        }
        return ScheduleAgenda(changes: changes, isComplete: false)
    }
}
