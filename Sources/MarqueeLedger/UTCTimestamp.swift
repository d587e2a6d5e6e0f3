import Glibc

/// UTC times as the ledger writes them, `2026-11-29T04:00:01.234Z` (milliseconds, always), and
/// the spellings a report's `--from`/`--to` take (a day, or a time with or without milliseconds).
public enum UTCTimestamp {
    /// Milliseconds since 1970 as the ledger's text.
    public static func text(milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds.dividedRoundingDown(by: 1000))
        let millis = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T"
            + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(millis, 3))Z"
    }

    /// Seconds since 1970 (a `Date`'s `timeIntervalSince1970`) to the nearest millisecond.
    public static func milliseconds(seconds: Double) -> Int64 {
        Int64((seconds * 1000).rounded())
    }

    /// `2026-11-29`, `2026-11-29T04:00:01Z` or `2026-11-29T04:00:01.234Z` (a `Z` or nothing
    /// after the time: UTC either way); nil for anything else.
    public static func milliseconds(parsing text: String) -> Int64? {
        let characters = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= characters.count, range.allSatisfy({ (48...57).contains(characters[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(characters[$1] - 48) }
        }
        func isCharacter(_ index: Int, _ character: Character) -> Bool {
            index < characters.count && characters[index] == character.asciiValue
        }
        guard characters.count >= 10, let year = number(0..<4), isCharacter(4, "-"), let month = number(5..<7), isCharacter(7, "-"),
              let day = number(8..<10), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var hour = 0, minute = 0, second = 0, millis = 0
        var rest = 10
        if characters.count > 10 {
            guard isCharacter(10, "T") || isCharacter(10, " "), let h = number(11..<13), isCharacter(13, ":"), let m = number(14..<16),
                  isCharacter(16, ":"), let s = number(17..<19), h < 24, m < 60, s < 61 else { return nil }
            (hour, minute, second) = (h, m, s)
            rest = 19
            if isCharacter(19, ".") {
                guard let ms = number(20..<23) else { return nil }
                millis = ms
                rest = 23
            }
            if isCharacter(rest, "Z") { rest += 1 }
        }
        guard rest == characters.count else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Int64(seconds) * 1000 + Int64(millis)
    }

    /// The UTC day of a ledger time, `2026-11-29`: what names its file.
    public static func day(of text: String) -> String {
        String(text.prefix(10))
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Int64 {
    /// Floor division: −1 ms is in the second before 1970, not in its first.
    func dividedRoundingDown(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
