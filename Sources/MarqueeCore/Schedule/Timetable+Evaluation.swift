import Foundation

extension Timetable {
    /// What plays at `instant` and whether the screen is on.
    ///
    /// The daypart is the one with the highest priority among those whose windows hold `instant`,
    /// the first listed on a tie; `default` plays only when no other does (and its own schedule,
    /// if any, allows); with neither, nothing plays.
    public func state(at instant: Date) -> ScheduleState {
        state(daypartHolds: { dayparts[$0].schedule?.contains(instant, on: clock) ?? true },
              itemHolds: { dayparts[$0].itemSchedules[$1]?.contains(instant, on: clock) ?? true },
              offByClock: displayPower.offWindows?.contains(instant, on: clock) ?? false)
    }

    /// The state, given which dayparts' and items' schedules hold (a missing schedule holds) and
    /// whether a display-off window does: the one rule `state(at:)` and the edge walk
    /// (`TimetableScan`) share. Asked lazily, in the order the rule needs them.
    func state(daypartHolds: (Int) -> Bool, itemHolds: (_ daypart: Int, _ item: Int) -> Bool, offByClock: Bool) -> ScheduleState {
        var best: Int?
        for (index, daypart) in dayparts.enumerated() where !daypart.isDefault && daypartHolds(index) {
            // Strictly greater: on equal priority the one listed first keeps its place.
            if best == nil || daypart.priority > dayparts[best!].priority { best = index }
        }
        let active = best ?? dayparts.indices.first { dayparts[$0].isDefault && daypartHolds($0) }
        let items = active.map { daypart in dayparts[daypart].itemSchedules.indices.filter { itemHolds(daypart, $0) } } ?? []
        let idle = active == nil || items.isEmpty
        return ScheduleState(daypart: active, items: items, displayOn: !offByClock && !(displayPower.offWhenIdle && idle))
    }

    /// The first instant after `instant` at which `state(at:)` differs from what it is at
    /// `instant`: when the engine's timer should fire. Nil when nothing changes before `limit`, or
    /// (without a limit) ever again: once past the last date any window names, the week repeats,
    /// so a year beyond it without a change means none will come.
    public func nextChange(after instant: Date, before limit: Date? = nil) -> Date? {
        var scan = TimetableScan(self, at: instant)
        let current = scan.state
        let horizon = limit ?? searchHorizon(after: instant)
        // An edge may change nothing (one window ends as another begins); look on.
        while let edge = scan.advance(before: horizon) {
            if scan.state != current { return edge }
        }
        return nil
    }

    /// The timetable from `start` to `end`: the state at `start`, then one entry per change.
    public func changes(from start: Date, to end: Date) -> [ScheduleChange] {
        guard start < end else { return [] }
        var scan = TimetableScan(self, at: start)
        var last = scan.state
        var changes = [ScheduleChange(start: start, state: last)]
        while let edge = scan.advance(before: end) {
            let state = scan.state
            if state != last {
                changes.append(ScheduleChange(start: edge, state: state))
                last = state
            }
        }
        return changes
    }

    /// A year and a week past both `instant` and the last date any window names: covers a whole
    /// year of DST rules in the weekly pattern that follows the last dated window.
    private func searchHorizon(after instant: Date) -> Date {
        let lastDate = allSchedules.compactMap(\.lastNamedDate).max()
        let lastNamed = lastDate.map { clock.instant(of: LocalDateTime(date: $0.adding(days: 2), time: .midnight)) }
        let base = max(instant, lastNamed ?? instant)
        return base.addingTimeInterval(Double(373 * TimeOfDay.secondsPerDay))
    }
}
