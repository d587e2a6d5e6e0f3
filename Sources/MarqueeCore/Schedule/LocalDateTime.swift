/// What a wall clock reads: a calendar date and a time of day, with no zone. The same reading can
/// name no instant (in a spring-forward gap) or two (in an autumn repeat); `WallClock` resolves it.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let date: CalendarDate
    /// 00:00:00 to 23:59:59; never 24:00 (that is the next day's 00:00).
    public let time: TimeOfDay

    public init(date: CalendarDate, time: TimeOfDay) {
        if time.isEndOfDay {
            self.date = date.adding(days: 1)
            self.time = .midnight
        } else {
            self.date = date
            self.time = time
        }
    }

    /// Seconds since 1970-01-01 00:00 on the same wall clock: readings as one number, so that
    /// `WallClock` can compare them with instants shifted by a UTC offset.
    public init(localSeconds: Int) {
        let day = localSeconds >= 0 ? localSeconds / TimeOfDay.secondsPerDay
            : (localSeconds - TimeOfDay.secondsPerDay + 1) / TimeOfDay.secondsPerDay
        date = CalendarDate(dayNumber: day)
        time = TimeOfDay(secondsSinceMidnight: localSeconds - day * TimeOfDay.secondsPerDay)!
    }

    public var localSeconds: Int {
        date.dayNumber * TimeOfDay.secondsPerDay + time.secondsSinceMidnight
    }

    /// `2026-03-29 02:30:00`.
    public var description: String {
        "\(date) \(time.fullDescription)"
    }

    /// `2026-03-29T02:30`, `2026-03-29T02:30:15` or a date alone (its midnight), the local forms of
    /// ISO 8601; a space may stand for the `T`. A time with a zone or offset is not a local reading:
    /// see `WallClock.instant(parsingISO8601:)`.
    public init?(parsingISO8601 text: String) {
        let separator = text.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " })
        let dateText = separator.map { String(text[..<$0]) } ?? text
        guard let date = CalendarDate(parsing: dateText) else { return nil }
        guard let separator else {
            self.init(date: date, time: .midnight)
            return
        }
        guard let time = TimeOfDay(parsing: String(text[text.index(after: separator)...])), time.hour < 24 else {
            return nil
        }
        self.init(date: date, time: time)
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        lhs.localSeconds < rhs.localSeconds
    }
}
