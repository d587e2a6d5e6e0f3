import Foundation

/// When something is on: the union of its windows. Where a schedule is optional, nil means always.
public struct Schedule: Sendable, Hashable {
    public var windows: [ScheduleWindow]

    public init(_ windows: [ScheduleWindow]) {
        self.windows = windows
    }

    /// Whether any window's occurrence holds `instant`. Occurrences are half-open: a window from
    /// 07:00 to 11:00 holds 07:00 but not 11:00.
    public func contains(_ instant: Date, on clock: WallClock) -> Bool {
        let today = clock.reading(at: instant).date
        // An occurrence lasts at most a day of wall time, so it started yesterday or today; a day
        // either side more covers clocks set back over midnight and a midnight that was skipped.
        let candidates = (-2...1).map { today.adding(days: $0) }
        return windows.contains { window in
            candidates.contains { window.occurrence(startingOn: $0, on: clock)?.contains(instant) ?? false }
        }
    }

    /// The first instant after `instant` at which one of the windows starts or ends, nil if none
    /// ever does again.
    public func nextEdge(after instant: Date, on clock: WallClock) -> Date? {
        let firstDay = clock.reading(at: instant).date.adding(days: -2)
        return windows.compactMap { window -> Date? in
            // A window's occurrences follow each other without overlapping (each lasts at most a
            // day of wall time), so the first one not yet over holds this window's next edge.
            for day in window.startDays(from: firstDay) {
                guard let occurrence = window.occurrence(startingOn: day, on: clock), occurrence.upperBound > instant else {
                    continue
                }
                return occurrence.lowerBound > instant ? occurrence.lowerBound : occurrence.upperBound
            }
            return nil
        }.min()
    }

    /// The last date any window's date rule names (a `fromDate`, an `untilDate` or a listed date):
    /// after it every window repeats week after week. Nil when no window has a date rule.
    public var lastNamedDate: CalendarDate? {
        windows.flatMap { [$0.dates.earliest, $0.dates.latest].compactMap { $0 } }.max()
    }
}
