/// A reading of the wall clock within one day, in whole seconds since midnight: `07:00`,
/// `22:30:15`. `24:00` is the end of the day, so a window can run until midnight without crossing it.
public struct TimeOfDay: Sendable, Hashable, Comparable, TextCodable {
    /// 0 (`00:00`) to 86 400 (`24:00`).
    public let secondsSinceMidnight: Int

    public static let secondsPerDay = 86_400
    public static let midnight = TimeOfDay(secondsSinceMidnight: 0)!
    public static let endOfDay = TimeOfDay(secondsSinceMidnight: secondsPerDay)!
    public static let textKind = "time of day"

    public init?(secondsSinceMidnight: Int) {
        guard (0...Self.secondsPerDay).contains(secondsSinceMidnight) else { return nil }
        self.secondsSinceMidnight = secondsSinceMidnight
    }

    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        self.init(secondsSinceMidnight: hour * 3600 + minute * 60 + second)
    }

    /// `H:MM`, `HH:MM` or `HH:MM:SS`, from `00:00` to `24:00`. Minutes and seconds take two
    /// digits, so `7:5` (a typo for 7:05 or 7:50?) is refused rather than guessed.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              (1...2).contains(parts[0].count), parts.dropFirst().allSatisfy({ $0.count == 2 }),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) ?? -1 : 0
        self.init(hour: hour, minute: minute, second: second)
    }

    public var hour: Int { secondsSinceMidnight / 3600 }
    public var minute: Int { secondsSinceMidnight / 60 % 60 }
    public var second: Int { secondsSinceMidnight % 60 }
    public var isEndOfDay: Bool { secondsSinceMidnight == Self.secondsPerDay }

    /// `07:00`, with seconds only when there are some: `07:00:30`.
    public var description: String {
        let clock = "\(Self.twoDigits(hour)):\(Self.twoDigits(minute))"
        return second == 0 ? clock : "\(clock):\(Self.twoDigits(second))"
    }

    /// `07:00:00`: every field, for timetables whose columns line up.
    public var fullDescription: String {
        "\(Self.twoDigits(hour)):\(Self.twoDigits(minute)):\(Self.twoDigits(second))"
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
    }

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
