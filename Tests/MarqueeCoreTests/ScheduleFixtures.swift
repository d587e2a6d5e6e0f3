import Foundation
import MarqueeCore

/// Instants and clocks for the schedule tests, written the way a person reads them.
enum ScheduleFixtures {
    static let berlin = WallClock(timeZone: TimeZone(identifier: "Europe/Berlin")!)
    static let newYork = WallClock(timeZone: TimeZone(identifier: "America/New_York")!)
    static let utcClock = WallClock(timeZone: TimeZone(identifier: "UTC")!)

    /// `"2026-03-29 01:00"` or `"2026-03-29 01:00:30"` read as UTC.
    static func utc(_ text: String) -> Date {
        Date(timeIntervalSince1970: Double(LocalDateTime(parsingISO8601: text)!.localSeconds))
    }

    /// A reading of `clock`, resolved the documented way (first instant, gap → its end).
    static func local(_ text: String, _ clock: WallClock) -> Date {
        clock.instant(of: LocalDateTime(parsingISO8601: text)!)
    }

    static func time(_ text: String) -> TimeOfDay { TimeOfDay(parsing: text)! }
    static func date(_ text: String) -> CalendarDate { CalendarDate(parsing: text)! }
    static func days(_ text: String) -> WeekdaySet { WeekdaySet(parsing: text)! }

    static func window(_ days: String = "mon-sun", _ from: String = "00:00", _ to: String = "24:00",
                       dates: DateRule = .always) -> ScheduleWindow {
        ScheduleWindow(days: Self.days(days), from: time(from), to: time(to), dates: dates)
    }

    static func schedule(_ windows: ScheduleWindow...) -> Schedule {
        Schedule(windows)
    }
}
