import Foundation

extension WallClock {
    /// An ISO 8601 date or date and time as an instant: `2026-03-28` (that day's first instant
    /// on this clock), `2026-03-28T07:00[:SS]` (a reading of this clock, resolved as
    /// `instant(of:)` resolves readings), or with `Z` or an offset (`+01:00`, `-0500`, `+01`) an
    /// instant whatever this clock's zone. A space may stand for the `T`.
    public func instant(parsingISO8601 text: String) -> Date? {
        let trimmed = text.trimmingWhitespace()
        guard let separator = trimmed.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }) else {
            return LocalDateTime(parsingISO8601: trimmed).map(instant(of:))
        }
        let timePart = trimmed[trimmed.index(after: separator)...]
        if timePart.last == "Z" || timePart.last == "z" {
            return LocalDateTime(parsingISO8601: String(trimmed.dropLast())).map { Self.utcInstant($0, offset: 0) }
        }
        if let sign = timePart.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            guard let offset = Self.offsetSeconds(String(trimmed[sign...])),
                  let local = LocalDateTime(parsingISO8601: String(trimmed[..<sign])) else { return nil }
            return Self.utcInstant(local, offset: offset)
        }
        return LocalDateTime(parsingISO8601: trimmed).map(instant(of:))
    }

    /// `+01:00`, `+0100` or `+01` (and `-` alike) in seconds east of UTC.
    private static func offsetSeconds(_ text: String) -> Int? {
        let sign = text.first == "-" ? -1 : 1
        let digits = text.dropFirst().filter { $0 != ":" }
        guard [2, 4].contains(digits.count), digits.allSatisfy(\.isASCIIDigit),
              text.dropFirst().filter({ $0 == ":" }).count <= 1,
              let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2))),
              hours <= 14, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    private static func utcInstant(_ local: LocalDateTime, offset: Int) -> Date {
        Date(timeIntervalSince1970: Double(local.localSeconds - offset))
    }
}
