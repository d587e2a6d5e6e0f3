/// A day on the (proleptic Gregorian) calendar, without a time or a zone: `2028-02-29`.
///
/// Days are counted from 1970-01-01 so that date arithmetic and weekdays are plain integer
/// arithmetic; only the conversion to instants needs a time zone (see `WallClock`).
public struct CalendarDate: Sendable, Hashable, Comparable, TextCodable {
    public let year: Int
    public let month: Int
    public let day: Int
    /// Days since 1970-01-01 (negative before it).
    public let dayNumber: Int

    public static let textKind = "date"

    /// Nil when the day does not exist (2027-02-29, 2026-04-31).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
        dayNumber = Self.dayNumber(year: year, month: month, day: day)
    }

    public init(dayNumber: Int) {
        // Howard Hinnant's civil_from_days: eras of 400 years, March-based years so the leap
        // day is the last day of the year.
        let shifted = dayNumber + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.dayNumber = dayNumber
    }

    /// Why a date could not be read; `description` is a config-ready phrase.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case malformed(String)
        /// Well formed, but not on the calendar: `2027-02-29`.
        case nonexistent(String, daysInMonth: Int)

        public var description: String {
            switch self {
            case .malformed(let text):
                "bad date '\(text)' (expected YYYY-MM-DD, e.g. 2026-12-24)"
            case .nonexistent(let text, let days):
                "date '\(text)' does not exist (that month has \(days) days)"
            }
        }
    }

    /// `YYYY-MM-DD`, ISO 8601's calendar date, with exactly four year digits.
    public static func parse(_ text: String) -> Result<CalendarDate, ParseError> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1 else {
            return .failure(.malformed(text))
        }
        guard let date = CalendarDate(year: year, month: month, day: day) else {
            return .failure(.nonexistent(text, daysInMonth: daysIn(month: month, year: year)))
        }
        return .success(date)
    }

    public init?(parsing text: String) {
        guard case .success(let date) = Self.parse(text) else { return nil }
        self = date
    }

    public var description: String {
        let yearText = String(year)
        let paddedYear = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
        return "\(paddedYear)-\(TimeOfDay.twoDigits(month))-\(TimeOfDay.twoDigits(day))"
    }

    /// 1970-01-01 was a Thursday.
    public var weekday: Weekday { Weekday(isoIndex: dayNumber + 3) }

    public func adding(days: Int) -> CalendarDate {
        CalendarDate(dayNumber: dayNumber + days)
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        lhs.dayNumber < rhs.dayNumber
    }

    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Hinnant's days_from_civil.
    private static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
