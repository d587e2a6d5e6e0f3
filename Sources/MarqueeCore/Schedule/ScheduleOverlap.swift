/// Where two schedules are both open, on the wall clock: what `marquee check` warns about when two
/// dayparts of equal priority could both play and only their order decides.
///
/// Worked out on wall-clock readings, without a time zone: an overlap that exists only through a
/// DST shift is not worth a warning, and readings are what the config author wrote.
public struct ScheduleOverlap: Sendable, Hashable, CustomStringConvertible {
    /// The first reading found at which both schedules are open.
    public let start: LocalDateTime
    /// Whether neither window has a date rule, so the overlap recurs every week and its date says
    /// nothing (it is only the example week's).
    public let isWeekly: Bool

    /// `mon 10:00` for a weekly overlap, `2026-12-24 10:00` for a dated one.
    public var description: String {
        isWeekly ? "\(start.date.weekday.rawValue) \(start.time)" : "\(start.date) \(start.time)"
    }

    /// The first overlap of `first` and `second` (nil schedules are always open), nil if none.
    public static func find(_ first: Schedule?, _ second: Schedule?) -> ScheduleOverlap? {
        let always = Schedule([ScheduleWindow()])
        var found: [ScheduleOverlap] = []
        for a in (first ?? always).windows {
            for b in (second ?? always).windows {
                if let overlap = find(a, b) { found.append(overlap) }
            }
        }
        return found.min { $0.start < $1.start }
    }

    private static func find(_ a: ScheduleWindow, _ b: ScheduleWindow) -> ScheduleOverlap? {
        // Only the dates both rules allow matter (a day either side for windows that cross
        // midnight). Without a date rule, the pattern repeats weekly: two weeks show all of it.
        let lower = [a.dates.earliest, b.dates.earliest].compactMap { $0 }.max()
        let upper = [a.dates.latest, b.dates.latest].compactMap { $0 }.min()
        let isWeekly = lower == nil && upper == nil
        let first = (lower ?? upper?.adding(days: -15) ?? exampleMonday).adding(days: -1)
        let last = (upper ?? first.adding(days: 16)).adding(days: 1)
        guard first <= last else { return nil }
        let daysOfB = Set(b.startDays(from: first).prefix(while: { $0 <= last }))
        for dayOfA in a.startDays(from: first).prefix(while: { $0 <= last }) {
            let spanOfA = a.wallSeconds(startingOn: dayOfA)
            let starts = (-1...1).map { dayOfA.adding(days: $0) }.filter(daysOfB.contains).compactMap { dayOfB -> Int? in
                let spanOfB = b.wallSeconds(startingOn: dayOfB)
                let start = max(spanOfA.lowerBound, spanOfB.lowerBound)
                return start < min(spanOfA.upperBound, spanOfB.upperBound) ? start : nil
            }
            if let start = starts.min() {
                return ScheduleOverlap(start: LocalDateTime(localSeconds: start), isWeekly: isWeekly)
            }
        }
        return nil
    }

    /// 2024-01-01, a Monday: weekly overlaps are reported from a week that starts on Monday.
    private static let exampleMonday = CalendarDate(year: 2024, month: 1, day: 1)!
}
