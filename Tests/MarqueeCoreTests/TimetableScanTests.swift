import Foundation
import Testing
@testable import MarqueeCore

/// The edge-by-edge walk (`TimetableScan`, behind `changes(from:to:)` and `nextChange(after:)`)
/// gives exactly what asking `state(at:)` gives: at each change, and at instants in between, over a
/// fortnight with a DST change, overlapping dayparts of several priorities, item windows that cross
/// midnight, a dated window and display-off windows.
@Suite struct TimetableScanTests {
    static let berlin = WallClock(timeZone: TimeZone(identifier: "Europe/Berlin")!)

    static func window(_ from: String, _ to: String, days: WeekdaySet = .everyDay, dates: DateRule = .always) -> ScheduleWindow {
        ScheduleWindow(days: days, from: TimeOfDay(parsing: from)!, to: TimeOfDay(parsing: to)!, dates: dates)
    }

    static let timetable: Timetable = {
        var items: [Schedule?] = []
        for index in 0..<40 {
            let hour = (index * 5) % 24, minute = (index * 13) % 60
            let from = String(format: "%02d:%02d", hour, minute), to = String(format: "%02d:%02d", (hour + 3) % 24, (minute + 7) % 60)
            items.append(index % 7 == 0 ? nil : Schedule([window(from, to)]))
        }
        let march = CalendarDate(year: 2026, month: 3, day: 29)!
        return Timetable(clock: berlin, dayparts: [
            Daypart(name: "breakfast", schedule: Schedule([window("06:30", "11:00")]), itemSchedules: Array(items[0..<20])),
            Daypart(name: "late", schedule: Schedule([window("22:00", "02:30")]), priority: 2, itemSchedules: Array(items[20..<40])),
            Daypart(name: "promo", schedule: Schedule([window("10:00", "12:00", dates: .on([march, march.adding(days: 3)]))]), priority: 5,
                    itemSchedules: [nil, Schedule([window("02:15", "03:15")])]),
            Daypart(name: "default", itemSchedules: items),
        ], displayPower: DisplayPowerSchedule(offWindows: Schedule([window("01:00", "05:00")]), offWhenIdle: true))
    }()

    @Test func theWalkAgreesWithTheStateAtEveryInstant() {
        let start = Self.berlin.instant(of: LocalDateTime(parsingISO8601: "2026-03-22T00:00")!)
        let end = start.addingTimeInterval(14 * 86_400)
        let changes = Self.timetable.changes(from: start, to: end)
        #expect(changes.count > 100, "\(changes.count) changes")
        for (index, change) in changes.enumerated() {
            #expect(Self.timetable.state(at: change.start) == change.state, "change \(index) at \(change.start)")
            if index > 0 { #expect(changes[index - 1].state != change.state, "change \(index) changes nothing") }
            // Between two changes nothing differs: sampled every 7 minutes.
            let next = index + 1 < changes.count ? changes[index + 1].start : end
            var probe = change.start.addingTimeInterval(1)
            while probe < next {
                if Self.timetable.state(at: probe) != change.state {
                    Issue.record("at \(probe) the state differs from change \(index)'s, with no change between")
                    return
                }
                probe = probe.addingTimeInterval(420)
            }
            #expect(Self.timetable.nextChange(after: change.start, before: end) == (index + 1 < changes.count ? next : nil))
        }
    }
}
