/// The days of the week a window starts on: `mon-fri`, `sat,sun`, `fri-mon` (a range may wrap
/// past Sunday), or a list of such parts.
public struct WeekdaySet: Sendable, Hashable, TextCodable {
    public let days: Set<Weekday>

    public static let everyDay = WeekdaySet(Weekday.allCases)
    public static let textKind = "list of days"

    public init(_ days: some Sequence<Weekday>) {
        self.days = Set(days)
    }

    public func contains(_ day: Weekday) -> Bool {
        days.contains(day)
    }

    public var isEmpty: Bool { days.isEmpty }

    public func union(_ other: WeekdaySet) -> WeekdaySet {
        WeekdaySet(days.union(other.days))
    }

    /// Why a list of days could not be read; `description` is a config-ready phrase.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The word that is not a day, e.g. `tues`.
        case unknownDay(String)
        case empty

        public var description: String {
            switch self {
            case .unknownDay(let word): "unknown day '\(word)'"
            case .empty: "no days given"
            }
        }
    }

    /// Comma-separated days and ranges, spaces allowed: `mon-fri`, `mon, wed, fri`, `sat-sun,wed`.
    public static func parse(_ text: String) -> Result<WeekdaySet, ParseError> {
        var days = Set<Weekday>()
        let parts = text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return .failure(.empty) }
        for part in parts {
            let ends = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).trimmingWhitespace() }
            guard let first = Weekday(name: ends[0]) else { return .failure(.unknownDay(ends[0])) }
            guard ends.count == 2 else {
                days.insert(first)
                continue
            }
            guard let last = Weekday(name: ends[1]) else { return .failure(.unknownDay(ends[1])) }
            // `fri-mon` wraps past Sunday: Friday, Saturday, Sunday, Monday.
            let length = (last.isoIndex - first.isoIndex + 7) % 7
            for step in 0...length {
                days.insert(Weekday(isoIndex: first.isoIndex + step))
            }
        }
        return .success(WeekdaySet(days))
    }

    public init?(parsing text: String) {
        guard case .success(let set) = Self.parse(text) else { return nil }
        self = set
    }

    /// Runs of three or more days as ranges, in week order: `mon-fri`, `mon,wed,fri`, `tue,sat-sun`.
    public var description: String {
        var parts: [String] = []
        var run: [Weekday] = []
        func flush() {
            if run.count >= 3 {
                parts.append("\(run.first!.rawValue)-\(run.last!.rawValue)")
            } else {
                parts += run.map(\.rawValue)
            }
            run = []
        }
        for day in Weekday.allCases {
            if days.contains(day) { run.append(day) } else { flush() }
        }
        flush()
        return parts.joined(separator: ",")
    }
}
