import Foundation

/// One span of wall-clock time that recurs: from `from` to `to` on each start day the window's
/// `days` and `dates` allow.
///
/// `days` and `dates` name the day a window *starts* on: `{days: fri, from: "22:00", to: "02:00"}`
/// runs from Friday 22:00 to Saturday 02:00. A `to` at or before `from` ends on the next day;
/// `to: "24:00"` ends at midnight.
public struct ScheduleWindow: Sendable, Hashable {
    public var days: WeekdaySet
    public var from: TimeOfDay
    public var to: TimeOfDay
    public var dates: DateRule

    /// Without arguments, all day every day.
    public init(days: WeekdaySet = .everyDay, from: TimeOfDay = .midnight, to: TimeOfDay = .endOfDay,
                dates: DateRule = .always) {
        self.days = days
        self.from = from
        self.to = to
        self.dates = dates
    }

    /// Whether the window ends on the day after it starts.
    public var crossesMidnight: Bool { to <= from }

    public func startsOn(_ date: CalendarDate) -> Bool {
        days.contains(date.weekday) && dates.contains(date)
    }

    /// Whether any day at all can start the window: not so for `days: mon` with dates that are
    /// all other days, or an empty date range.
    public var everStarts: Bool {
        guard !days.isEmpty, !dates.isEmpty else { return false }
        switch dates {
        case .always: return true
        case .on(let list): return list.contains { days.contains($0.weekday) }
        case .between(let from, let until):
            guard let from, let until else { return true }
            return StartDays(window: self, from: from).contains { $0 <= until }
        }
    }

    /// The occurrence starting on `date`, as instants on `clock`; nil when the window does not
    /// start that day, or when the whole of it falls into a skipped (spring-forward) hour.
    public func occurrence(startingOn date: CalendarDate, on clock: WallClock) -> Range<Date>? {
        guard startsOn(date) else { return nil }
        let seconds = wallSeconds(startingOn: date)
        let start = clock.firstSecond(reading: seconds.lowerBound)
        let end = clock.firstSecond(reading: seconds.upperBound)
        guard start < end else { return nil }
        return Date(timeIntervalSince1970: Double(start))..<Date(timeIntervalSince1970: Double(end))
    }

    /// The wall-clock readings the occurrence on `date` spans, on the `localSeconds` scale.
    func wallSeconds(startingOn date: CalendarDate) -> Range<Int> {
        let dayStart = date.dayNumber * TimeOfDay.secondsPerDay
        let endDay = crossesMidnight ? dayStart + TimeOfDay.secondsPerDay : dayStart
        return (dayStart + from.secondsSinceMidnight)..<(endDay + to.secondsSinceMidnight)
    }

    /// The days the window starts on, from `date` on, in order.
    public func startDays(from date: CalendarDate) -> StartDays {
        StartDays(window: self, from: date)
    }

    /// The start days of a window, lazily: endless for an open date rule, so a caller stops
    /// when it has what it needs. It jumps straight to a date rule's first date.
    public struct StartDays: Sequence, IteratorProtocol, Sendable {
        private let window: ScheduleWindow
        private var upcoming: CalendarDate?

        init(window: ScheduleWindow, from date: CalendarDate) {
            self.window = window
            if window.days.isEmpty || window.dates.isEmpty {
                upcoming = nil
            } else if let earliest = window.dates.earliest, earliest > date {
                upcoming = earliest
            } else {
                upcoming = date
            }
        }

        public mutating func next() -> CalendarDate? {
            while let candidate = upcoming {
                if let latest = window.dates.latest, candidate > latest {
                    upcoming = nil
                    return nil
                }
                if case .on(let list) = window.dates {
                    // Step through the listed dates instead of every day between them.
                    upcoming = list.first { $0 > candidate }
                } else {
                    upcoming = candidate.adding(days: 1)
                }
                if window.startsOn(candidate) { return candidate }
            }
            return nil
        }
    }
}
